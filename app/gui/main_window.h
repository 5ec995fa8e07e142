// SPDX-License-Identifier: GPL-3.0-or-later
// The main window (DESIGN.md, "GUI"): the set-up panel (demo, problem with its family's
// controls, solver with a generated options form, the runs), run controls, the family's view
// and the race view in the centre with the timeline between them, pseudocode, log, and a
// progress bar of the selected run's gap toward its tolerance. It lays out and draws; the
// RunController creates and drives the runs, and each family's view draws its snapshots.
//
// The window owns one part per responsibility, which share what they need through a
// WindowContext (window_context.h): CentreArea (the views, timeline and bounds), SetupPanel
// (choosing demo, problem, solver, options; the runs), Playback (run controls, the timeline,
// what the views show), Presentation (presentation mode, scale, the demo's caption),
// FileLoader and SessionActions (opening files; sessions and what is remembered),
// ExportActions (figures, traces, tables, animations), TraceFollowing (traces written
// elsewhere) and PointEditing (the drawn points). The calls below are the window's own API,
// used by the command line (app/gui/main.cpp) and scripts; the parts are reached by parts().
#pragma once

#include <QMainWindow>
#include <string>

#include "core/options.h"
#include "core/output_file.h"
#include "window_context.h"

class QScreen;

namespace cplab {

class AnimationExport;
struct AnimationSettings;
class Run;
class TraceFollower;

namespace widgets {
class FamilyView;
}

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The parts and the panels they share.
    const WindowContext& parts() const { return ctx_; }

    // Loads a built-in demo (problem and its runs, paused at iteration 0).
    bool loadDemo(const QString& name);
    // Switches to a built-in problem (with its family's problem controls) and one run of the
    // first solver.
    bool loadProblem(const QString& name);
    // Loads a data file on a background thread (the window keeps painting) as a problem of
    // the family that reads it (registry.h's chooseReader: `preferredFamily` when it reads the
    // file's format, else the first family that does), with an optional test
    // file or the family's problem controls; with `askForTest` a dialog asks for a test file
    // when that family's problems can have one. dataFileLoaded() reports the outcome, errors
    // also go to the log.
    void openDataFile(const QString& path, const QString& testPath = {},
                      const QString& preferredFamily = {}, bool askForTest = false);
    // Sessions (app/session/session.h, session_actions.h): saveSession writes the problem, the runs
    // (with their records and snapshots when `withHistory`) and the view, atomically, with
    // the data files' hashes; openSession reads one off the GUI thread, opens what it can,
    // says what it could not and reports sessionOpened(). Nothing runs until Run or Step.
    bool saveSession(const QString& path, bool withHistory, QString* why);
    void openSession(const QString& path);
    static bool isSessionFile(const QString& path);
    // Scripted (command-line pictures, tests): no dialogs, nothing added to the recent files.
    void setScripted(bool scripted);
    // Restores the window's geometry, docks, delay, x axis and history budget of the last
    // launch, and saves them when the window closes (the interactive app; not scripts).
    void restoreLayout();

    // Adds a run of `solver` with `options` on the current problem; false and *why if the
    // options are invalid.
    bool addRun(const std::string& solver, const OptionValues& options, QString* why);
    // Removes every run of the current problem (the problem stays).
    void removeAllRuns();
    int runCount() const;
    Run* run(int index) const;
    void selectRun(int index);
    // The family view shown.
    widgets::FamilyView* currentView() const;

    // Exports (export_actions.h); false with *why on failure.
    bool exportModelPlot(const QString& path, QString* why);
    bool exportWholeView(const QString& path, QString* why);
    bool exportBoundsPlot(const QString& path, QString* why);
    bool exportRunsTable(const QString& path, QString* why);
    AnimationExport* exportAnimation(const AnimationSettings& settings, QString* why);
    // File › Follow a running trace (trace_following.h); the window owns the follower.
    TraceFollower* followTrace(const QString& path);

    // Run controls (playback.h), applied to every run of the problem.
    void runAll();
    void stepAll(int count);
    void setDelayMs(int milliseconds);
    void setHistoryBudgetMb(int megabytes);
    // Shows iteration `iteration` of the selected run in every view (leaves live mode).
    void showIteration(int iteration);
    // The held-out split (problem options test_fraction, seed) for the next data file opened,
    // in every family that reads datasets, as if typed into the problem panel.
    void setTestSplit(double testFraction, int seed);
    // View › Presentation (presentation.h); `fullScreen` false: the window as it is.
    void setPresentation(bool on, bool fullScreen = true);

    // The window's size on `screen` before anything is remembered: 1440×900 on an ordinary
    // screen, three quarters of a large one (a 4K projector), never more than its free area.
    static QSize firstSize(const QScreen* screen);
    // Moves and shrinks the window so that it lies, frame and all, within its screen's free
    // area (a remembered geometry from a larger screen; the title bar at 720p). Maximised and
    // full-screen windows are left as they are.
    void fitToScreen();

  signals:
    void runsChanged();
    void dataFileLoaded(bool ok, const QString& message);
    void sessionOpened(bool ok, const QString& message);

  protected:
    void showEvent(QShowEvent* event) override;
    // Quit and close ask before discarding runs with unsaved steps (Save / Discard / Cancel).
    void closeEvent(QCloseEvent* event) override;

  private:
    // The screen's free area less the window manager's frame (as known, else as expected).
    QSize roomOnScreen() const;
    // Three columns (set-up, centre, pseudocode and log) where they fit, else the pseudocode
    // and the log as tabs beside the set-up panel.
    void arrangeDocks();
    // Until the window manager has framed the window: fit it again once the frame is known.
    void fitWhenFramed(int triesLeft);
    // "kelley[*] - cplab": the session's name and Qt's mark of unsaved steps.
    void updateTitle();
    // The pseudocode and the log, on the right.
    void buildRightDocks();
    void buildMenus();
    void buildFileMenu();
    void connectController();
    // A new problem (or none): every part shows it.
    void onProblemChanged();
    void updateButtons();

    // Every file the window reads is noted while it lives: no export replaces one.
    InputFileScope inputFiles_;
    WindowContext ctx_;
    bool dockSized_ = false;  // the set-up dock's first width is set
    bool shownOnce_ = false;
    // The size fitToScreen gave; a size set since by the caller (--size, a test) is kept.
    QSize fittedSize_;
};

}  // namespace cplab
