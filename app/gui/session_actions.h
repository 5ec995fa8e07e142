// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions (app/session/session.h) and what the window remembers between launches (main_window.h):
// File › Open session, Save session, Open recent and Copy as command line, files dropped on
// the window, the window's layout, delay, x axis and history budget of the last launch.
// currentSession is the problem, the runs (with their records and snapshots when asked) and
// the view as they are; a session opened is read off the GUI thread (FileLoader), restored
// once its runs are ready, and nothing runs until Run or Step.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "core/snapshot.h"
#include "family.h"
#include "session.h"

class QMenu;

namespace cplab {

class Run;
struct LoadedFile;
struct WindowContext;

class SessionActions : public QObject {
    Q_OBJECT
  public:
    // Watches the window for files dropped on it and for its closing (the layout remembered).
    explicit SessionActions(WindowContext& ctx);

    // File › Open recent, Open session, Save session, Copy as command line.
    void addRecentMenu(QMenu* file);
    void addSessionActions(QMenu* file);

    Session currentSession(bool withHistory) const;
    bool saveSession(const QString& path, bool withHistory, QString* why);
    void openSession(const QString& path);
    // A session or a data file, by its name or content (File > Recent, files dropped).
    void openAnyFile(const QString& path);
    static bool isSessionFile(const QString& path);
    // The `cplab` and `cplab-cli run` commands that reproduce the problem and runs.
    QString commandLines() const;
    // Scripted (command-line pictures, tests): no dialogs, nothing added to the recent files.
    void setScripted(bool scripted) { scripted_ = scripted; }
    bool scripted() const { return scripted_; }
    void rememberFile(const QString& kind, const QString& path);
    // Restores the window's geometry, docks, delay, x axis and history budget of the last
    // launch, and saves them when the window closes (the interactive app; not scripts).
    // `dockSized`: the docks' sizes came back too.
    void restoreLayout(bool* dockSized);
    // The session's name for the window's title: its file's name once saved or opened, else
    // the demo's or the problem's name; empty without a problem.
    QString sessionName() const;
    // Runs that have made steps since the session was last saved or opened.
    bool unsavedWork() const;
    // Quit and close: with unsaved work, asks Save / Discard / Cancel (Save writes the session
    // to its file, or asks for one); true when the window may close.
    bool confirmClose();
    // FileLoader's session read: opened as far as it can be, what could not be is said.
    void onSessionLoaded(const std::shared_ptr<LoadedFile>& loaded);
    // Once every run is ready: their stored histories, the selection, the axes and the
    // timeline of the session being opened.
    void restorePendingSession();

  signals:
    void sessionOpened(bool ok, const QString& message);
    // sessionName() or unsavedWork() may have changed.
    void modifiedChanged();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void applySession(Session session, ProblemPtr problem);
    std::vector<SnapshotPtr> decodeHistory(const Run& r, const std::vector<std::string>& stored);
    // Asks for a file and saves; true when saved.
    bool saveSessionDialog();
    void setModified(bool modified);
    void openSessionDialog();
    void copyCommandLine();
    std::size_t historyBytes() const;
    void fillRecentMenu(QMenu* menu);
    void saveLayout();

    WindowContext& ctx_;
    // A session being restored once its runs are ready.
    std::shared_ptr<Session> pendingSession_;
    // The file the session was last saved to or opened from (empty: none yet).
    QString sessionPath_;
    // Records arrived since then (a step, or a run restarted).
    bool modified_ = false;
    bool lessonEdited_ = false;  // the story or the student view changed by the lecturer
    bool scripted_ = false;
    bool rememberLayout_ = false;
};

}  // namespace cplab
