// SPDX-License-Identifier: GPL-3.0-or-later
// The main window (DESIGN.md, "GUI"): the set-up panel (demo, problem with its family's
// controls, solver with a generated options form, the runs), run controls, the family's view
// and the race view in the centre with the timeline between them, pseudocode, log, and a
// progress bar of the selected run's gap toward its tolerance. It lays out and draws; the
// RunController creates and drives the runs, and each family's view draws its snapshots.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QFont>
#include <QMainWindow>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/output_file.h"
#include "core/snapshot.h"
#include "family.h"
#include "session.h"

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QPushButton;
class QShortcut;
class QSlider;
class QStackedWidget;
class QTableWidget;
class QVBoxLayout;
template <class T>
class QFutureWatcher;

namespace cplab {

class PointEditor;
class AnimationExport;
struct AnimationSettings;
class Run;
class RunController;
class OptionForm;
class TraceFollower;

namespace widgets {
class BoundsPlot;
class ElidedLabel;
class FamilyView;
class PseudocodePanel;
class LogPanel;
class GapProgress;
class TimelineBar;
class CaptionBar;
struct ViewFrame;
}  // namespace widgets

// A data file's SHA-256 taken when it was loaded (the data the runs use), with its size and
// time of change then: a session saved later records this hash, and says when the file has
// changed since.
struct HashedFile {
    std::string sha256;
    qint64 size = -1;
    QDateTime modified;
};
using HashedFiles = std::map<std::string, HashedFile>;  // by absolute path

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

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
    bool loading() const;
    // Help › Keyboard shortcuts: every menu action with a shortcut, as an HTML table.
    QString shortcutsText() const;
    // Adds a run of `solver` with `options` on the current problem; false and *why if the
    // options are invalid.
    bool addRun(const std::string& solver, const OptionValues& options, QString* why);
    // Removes every run of the current problem (the problem stays).
    void removeAllRuns();
    void removeSelected();

    RunController* controller() const { return controller_; }
    // The drawn points of 2-D data (Edit menu, the Draw tool bar, the mouse on the plots).
    PointEditor* pointEditor() const { return pointEditor_; }
    int runCount() const;
    Run* run(int index) const;
    Run* selectedRun() const;
    void selectRun(int index);
    const ProblemInstance* problem() const;

    // The view of family `name` (every registered family has one), and the one shown.
    widgets::FamilyView* view(const std::string& family) const;
    widgets::FamilyView* currentView() const;
    // The held-out split (problem options test_fraction, seed) for the next data file opened,
    // in every family that reads datasets, as if typed into the problem panel.
    void setTestSplit(double testFraction, int seed);
    widgets::BoundsPlot* boundsPlot() const { return boundsPlot_; }
    widgets::PseudocodePanel* pseudocodePanel() const { return pseudocode_; }
    widgets::TimelineBar* timeline() const { return timeline_; }
    QString statusText() const;
    widgets::CaptionBar* captionBar() const { return caption_; }

    // View › Presentation (F11): full screen (`fullScreen` false: the window as it is, for
    // scripted pictures), only the caption, the family view, the timeline and the bounds;
    // larger type and lines; Space steps, R runs or pauses, ← → move the timeline, Home and End
    // go to the first iteration and live, Esc leaves.
    void setPresentation(bool on, bool fullScreen = true);
    bool presenting() const { return presenting_; }
    // The size of type, lines and markers in the current mode (1: as designed; presenting
    // starts at 1.4), remembered per mode between launches.
    double viewScale() const;
    void setViewScale(double scale);

    // The iteration of the selected run the views show (its newest while live).
    int shownIteration() const;
    // Shows iteration `iteration` of the selected run in every view (leaves live mode), or
    // follows the newest again.
    void showIteration(int iteration);
    void goLive();

    // Sessions (app/session.h). currentSession: the problem, the runs (with their records and
    // snapshots when `withHistory`) and the view as they are; saveSession writes it (atomically,
    // with the data files' hashes); openSession reads one off the GUI thread, opens what it
    // can, says what it could not (the log, and a dialog unless scripted) and reports
    // sessionOpened(). Nothing runs until Run or Step.
    Session currentSession(bool withHistory) const;
    bool saveSession(const QString& path, bool withHistory, QString* why);
    void openSession(const QString& path);
    // A session or a data file, by its name or content (File > Recent, files dropped).
    void openAnyFile(const QString& path);
    static bool isSessionFile(const QString& path);
    // The `cplab` and `cplab-cli run` commands that reproduce the problem and runs.
    QString commandLines() const;
    // Scripted (command-line pictures, tests): no dialogs, nothing added to the recent files.
    void setScripted(bool scripted);
    // Restores the window's geometry, docks, delay, x axis and history budget of the last
    // launch, and saves them when the window closes (the interactive app; not scripts).
    void restoreLayout();

    // Exports; false with *why on failure.
    // Exports (app/gui/main_window_export.cpp); false with *why on failure. Pictures are PNG,
    // PDF or SVG by the file's extension.
    // The current view's plot (the tab shown).
    bool exportModelPlot(const QString& path, QString* why);
    // Every page (tab) of the current view as one figure, the pages under their titles.
    bool exportWholeView(const QString& path, QString* why);
    // The bounds plot of every run as a picture, or its data: every run's records on the
    // plot's x axis as CSV (.csv) or as a pgfplots document that draws the plot (.tex).
    bool exportBoundsPlot(const QString& path, QString* why);
    bool exportSelectedTrace(const QString& path, QString* why);
    // The runs table as CSV.
    bool exportRunsTable(const QString& path, QString* why);
    // Starts drawing the selected run's kept snapshots in settings' range into an animation
    // (animation_export.h) and returns the export, which the window owns and deletes after it
    // finished(); null with *why when there is no run or the settings are invalid.
    AnimationExport* exportAnimation(const AnimationSettings& settings, QString* why);

    // File › Follow a running trace (app/gui/trace_follower.h, main_window_follow.cpp): the
    // trace a `cplab-cli run --trace FILE` elsewhere is writing, drawn live in the bounds plot
    // beside the local runs (legend "FILE (following)") until it ends; kept when the problem
    // changes. Returns the follower (the window owns it). stopFollowing removes them all.
    TraceFollower* followTrace(const QString& path);
    const std::vector<TraceFollower*>& followedTraces() const { return followers_; }
    void stopFollowing();

    // Run controls (what the buttons do), applied to every run of the problem.
    void runAll();
    void pauseAll();
    void stepAll(int count);
    void resetAll();
    void cancelAll();
    void setDelayMs(int milliseconds);
    void setHistoryBudgetMb(int megabytes);

  signals:
    void runsChanged();
    void dataFileLoaded(bool ok, const QString& message);
    void sessionOpened(bool ok, const QString& message);

  protected:
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    struct Loaded;

    // The bounds plot's id of the k-th followed trace (−1, −2, …: never a local run's).
    void addFollowActions(QMenu* file);
    static int followId(std::size_t k) { return -1 - static_cast<int>(k); }
    void addFollowedToPlot(std::size_t k);
    QString followLabel(const TraceFollower& follower) const;

    void buildUi();
    void buildCentre();
    void buildDocks();
    void buildRunControls();
    QWidget* buildSetupPanel();
    QWidget* buildRunsPanel();
    void buildMenus();
    void buildPresentationActions(QMenu* view);
    // The Edit menu (undo, redo, clear points, the classes to draw), the Draw tool bar and File
    // › Save points (main_window_edit.cpp).
    void buildEditMenu(QMenu* file);
    QAction* addSavePointsAction(QMenu* file);  // File › Save points, for buildEditMenu
    // Asks before a new problem replaces runs (true: go on; also when there are none).
    bool confirmDiscardRuns();
    void applyViewScale();
    void updateCaption(const widgets::ViewFrame& frame, int iteration);
    void populateProblems();
    void onProblemChanged();
    void populateSolvers();
    void onSolverChosen(int index);
    void onRunAdded(int id);
    void onRunRemoved(int id);
    void onRunReplaced(int id);
    void onRunSnapshot(int id);
    void onRunStatus(int id);
    void onRecords(int id);
    // Tells in the log what the run's new snapshots report it did (core/events.h).
    void logEvents(int id);
    void onDataLoaded();
    void startLoading(const QString& message, std::function<std::shared_ptr<Loaded>()> work);
    void readChosenFile(const std::shared_ptr<Loaded>& loaded);
    void setProblemWithRun(ProblemPtr problem);
    void applyToSelected();
    void refreshRunRow(int id);
    void refreshRunRows();
    void refreshSelection();
    void showFrame();
    void updateStatusLine(const IterationRecord& record, const widgets::ViewFrame& frame);
    void updateButtons();
    // File menu: the export entries (main_window_export.cpp).
    void addExportActions(QMenu* file);
    void exportDialog(const QString& what);
    // Sessions and what is remembered (main_window_session.cpp).
    void onSessionLoaded(const std::shared_ptr<Loaded>& loaded);
    void applySession(const Session& session, ProblemPtr problem);
    void restorePendingSession();
    std::vector<SnapshotPtr> decodeHistory(const Run& r, const std::vector<std::string>& stored);
    void saveSessionDialog();
    void openSessionDialog();
    void copyCommandLine();
    std::size_t historyBytes() const;
    QString lastFolder(const QString& dialog) const;
    void setLastFolder(const QString& dialog, const QString& path);
    // `name` in the last folder of `dialog` (the name alone before the first time).
    QString inLastFolder(const QString& dialog, const QString& name) const;
    void rememberFile(const QString& kind, const QString& path);
    void fillRecentMenu(QMenu* menu);
    void exportAnimationDialog();
    // Runs exportAnimation with a progress dialog (Cancel) and reports the outcome.
    void startAnimationExport(const AnimationSettings& settings);
    OptionValues problemOptions() const;
    const IterationRecord& recordAtKey(const Run& run, double key) const;

    // Every file the window reads is noted while it lives: no export replaces one.
    InputFileScope inputFiles_;
    bool dockSized_ = false;  // the set-up dock's first width is set
    RunController* controller_;
    PointEditor* pointEditor_ = nullptr;
    std::vector<TraceFollower*> followers_;  // owned (children of the window)
    // Data files' hashes as they were loaded (HashedFile above).
    HashedFiles hashedFiles_;
    int selectedId_ = -1;
    // What the family view draws now (it redraws only for another snapshot or run).
    int shownRun_ = -1;
    std::vector<SnapshotPtr> shownSnapshots_;  // the selected run's, then the race's

    // Set-up panel.
    QComboBox* demoCombo_ = nullptr;
    QComboBox* problemCombo_ = nullptr;
    QLabel* problemDescription_ = nullptr;
    QVBoxLayout* problemLayout_ = nullptr;
    QComboBox* solverCombo_ = nullptr;
    QLabel* solverDescription_ = nullptr;
    OptionForm* optionForm_ = nullptr;
    QPushButton* addRunButton_ = nullptr;
    QPushButton* applyButton_ = nullptr;
    QPushButton* removeButton_ = nullptr;
    QTableWidget* runTable_ = nullptr;
    // Controls.
    QPushButton* runButton_ = nullptr;
    QPushButton* pauseButton_ = nullptr;
    QPushButton* stepButton_ = nullptr;
    QPushButton* step10Button_ = nullptr;
    QPushButton* resetButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QSlider* delaySlider_ = nullptr;
    QLabel* delayLabel_ = nullptr;
    QComboBox* xAxisCombo_ = nullptr;
    // Centre and docks.
    QStackedWidget* viewStack_ = nullptr;
    QLabel* emptyView_ = nullptr;
    std::map<std::string, widgets::FamilyView*> views_;
    widgets::TimelineBar* timeline_ = nullptr;
    widgets::BoundsPlot* boundsPlot_ = nullptr;
    widgets::PseudocodePanel* pseudocode_ = nullptr;
    widgets::LogPanel* log_ = nullptr;
    widgets::GapProgress* progress_ = nullptr;
    widgets::ElidedLabel* statusLine_ = nullptr;  // the whole text in its tooltip
    widgets::CaptionBar* caption_ = nullptr;
    // The demo open (its story in the caption), or null.
    const DemoInfo* demo_ = nullptr;
    std::map<int, int> eventsLogged_;  // per run id: the last iteration whose events the log told
    // Presentation mode and the scale of each mode.
    bool presenting_ = false;
    bool wasMaximized_ = false;
    QByteArray normalState_;  // docks and tool bars before presenting
    double normalScale_ = 1.0;
    double presentationScale_ = 1.4;
    QFont baseFont_;
    QAction* presentAction_ = nullptr;
    std::vector<QAction*> presentationKeys_;  // enabled while presenting
    std::vector<QShortcut*> centreKeys_;      // ← → within the centre, off while presenting
    // A session being restored once its runs are ready; scripted; the layout is remembered.
    std::shared_ptr<Session> pendingSession_;
    bool scripted_ = false;
    bool rememberLayout_ = false;
    // A data file being loaded.
    QFutureWatcher<std::shared_ptr<Loaded>>* loader_ = nullptr;
};

}  // namespace cplab
