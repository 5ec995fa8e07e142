// SPDX-License-Identifier: GPL-3.0-or-later
// Playback and the timeline of the main window (main_window.h): the run controls (tool bar and
// Run menu: run, pause, step, reset, cancel, the delay per step, the bounds' x axis, the
// history budget), and what the views show at the timeline's position: the selected run's
// frame in the family view and the race, its status line, its gap's progress, the run rows
// and the log of what each step did.
#pragma once

#include <QObject>
#include <map>
#include <vector>

#include "core/snapshot.h"

class QComboBox;
class QLabel;
class QMenu;
class QPushButton;
class QSlider;

namespace cplab {

class Run;
struct WindowContext;

namespace widgets {
class ElidedLabel;
class GapProgress;
struct ViewFrame;
}  // namespace widgets

// The teaching delay: 0 (full speed) to 5 s per step. The slider's positions 0..1000 map to
// it quadratically, so that 10-200 ms keep a fine touch and the slow end reaches seconds.
inline constexpr int kMaxDelayMs = 5000;
inline constexpr int kDelaySliderSteps = 1000;
int delayFromSlider(int position);
int delaySliderPosition(int milliseconds);

class Playback : public QObject {
    Q_OBJECT
  public:
    // Adds the run controls' tool bar to ctx.window (after the centre: the timeline).
    explicit Playback(WindowContext& ctx);
    // The status bar: the shown run's state and its gap's progress toward the tolerance.
    void buildStatusBar();
    void addRunMenu(QMenu* run);

    // Run controls (what the buttons do), applied to every run of the problem.
    void runAll();
    void pauseAll();
    void stepAll(int count);
    void resetAll();
    void cancelAll();
    void setDelayMs(int milliseconds);
    void setHistoryBudgetMb(int megabytes);
    // The bounds plot's x axis as the index of its combo box (sessions, settings).
    int xAxisIndex() const;
    void setXAxisIndex(int index);
    void updateButtons();

    // The iteration of the selected run the views show (its newest while live).
    int shownIteration() const;
    // The timeline follows the newest iteration.
    bool live() const;
    // Shows iteration `iteration` of the selected run in every view (leaves live mode), or
    // follows the newest again.
    void showIteration(int iteration);
    void goLive();
    // Draws the selected run at the timeline's position; redraw() also when the picture is
    // the same (the pens changed).
    void showFrame();
    void redraw();
    // The record of `run` at the timeline's position (its row in the runs table).
    const IterationRecord& recordShown(const Run& run) const;
    QString statusText() const;

    // What the controller reports.
    void onRecords(int id);
    void onSnapshot(int id);
    void onStatus(int id);
    void forgetEvents(int id);
    // Nothing shown: a new problem (clearProblem) or the last run removed (clearRun).
    void clearProblem();
    void clearRun();

  private:
    void connectControls();
    const IterationRecord& recordAtKey(const Run& run, double key) const;
    widgets::ViewFrame frameOf(const Run& selected, int iteration) const;
    void drawFrame(const Run& selected, const widgets::ViewFrame& frame);
    void updateProgress(const Run& r, const IterationRecord& record,
                        const widgets::ViewFrame& frame, int iteration);
    void updateStatusLine(const IterationRecord& record, const widgets::ViewFrame& frame);
    // Tells in the log what the run's new snapshots report it did (core/events.h).
    void logEvents(int id);

    WindowContext& ctx_;
    QPushButton* runButton_ = nullptr;
    QPushButton* pauseButton_ = nullptr;
    QPushButton* stepButton_ = nullptr;
    QPushButton* step10Button_ = nullptr;
    QPushButton* resetButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QSlider* delaySlider_ = nullptr;
    QLabel* delayLabel_ = nullptr;
    QComboBox* xAxisCombo_ = nullptr;
    widgets::GapProgress* progress_ = nullptr;
    widgets::ElidedLabel* statusLine_ = nullptr;  // the whole text in its tooltip
    // What the family view draws now (it redraws only for another snapshot or run).
    int shownRun_ = -1;
    std::vector<SnapshotPtr> shownSnapshots_;  // the selected run's, then the race's
    std::map<int, int> eventsLogged_;  // per run id: the last iteration whose events the log told
};

}  // namespace cplab
