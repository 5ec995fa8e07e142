// SPDX-License-Identifier: GPL-3.0-or-later
// One run as the GUI sees it: which solver with which options, its colour, its whole history
// (every record, and every snapshot it received, thinned only past the history budget), the
// newest status, and the worker thread it owns. Destroying the run cancels, stops and joins
// the worker.
#pragma once

#include <QColor>
#include <QObject>
#include <QString>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "run_history.h"
#include "run_worker.h"

class QThread;

namespace cplab {

struct ProblemInstance;

class Run : public QObject {
    Q_OBJECT
  public:
    Run(int id, std::shared_ptr<const ProblemInstance> problem, std::string solver,
        OptionValues options, QColor color, QObject* parent = nullptr);
    ~Run() override;

    int id() const { return id_; }
    const std::string& solver() const { return solver_; }
    const OptionValues& options() const { return options_; }
    QString label() const;
    QColor color() const { return color_; }

    bool ready() const { return ready_; }
    // Edited data are on their way to the worker (rebase() not yet answered): the status and
    // the records are still the previous data's, whatever they say.
    bool rebasing() const { return rebasing_ || pendingProblem_ != nullptr; }
    bool failed() const { return !error_.isEmpty(); }
    QString error() const { return error_; }
    const Status& status() const { return status_; }
    // Between Run and Pause (or until the run finishes).
    bool playing() const { return playing_ && !status_.finished(); }
    // What the run is doing, for the runs table and the status line, with the views at
    // iteration `shown` of it: "idle" (nothing done yet), "running", "paused", "at iteration
    // k" (the timeline scrubbed back; `brief`: "earlier", for the runs table whose next column
    // has the iteration), or the finished status's name.
    QString stateText(int shown, bool brief = false) const;
    // Every record and the snapshots kept (run_history.h).
    const RunHistory& history() const { return history_; }
    const std::vector<IterationRecord>& trace() const { return history_.trace(); }
    int iteration() const { return history_.iteration(); }
    // Thins the snapshots to at most `bytes` (RunHistory::thin); returns the factor k.
    int thinHistory(std::size_t bytes);

    const std::vector<std::string>& pseudocode() const { return pseudocode_; }
    const std::vector<std::string>& extraColumns() const { return extraColumns_; }
    // max(epsilon, tol_rel·|U|) with the newest U, as the solver answers it.
    double gapTolerance() const { return gapTolerance_; }
    bool followsPath() const { return followsPath_; }
    // The run's max_iterations (its option, else its solver's default; 0 if it has none).
    int maxIterations() const;
    // Where the path's parameter ends (Solver::pathEnd(); NaN when the run follows no path).
    double pathEnd() const { return pathEnd_; }

    void start();
    void pause();
    void step(int count = 1);
    void cancel();
    void setDelayMs(int milliseconds);
    // Re-solves on `edited` (the run's problem with its training set edited): the worker asks
    // warm_start.h's warmSolver for a solver seeded from the current one, else builds a cold
    // one; the trace and history start again from the new solver's iteration 0 and the run
    // runs to its end. Edits that come while a re-solve is being set up are coalesced: only
    // the newest is solved next. rebased() reports each.
    void rebase(std::shared_ptr<const ProblemInstance> edited);
    const std::shared_ptr<const ProblemInstance>& problem() const { return problem_; }
    // True while its worker thread runs (until the run is destroyed).
    bool threadRunning() const;

    // Shows a history stored in a session (records from iteration 0, kept snapshots, the
    // status) as this run's own, once the run is ready. Nothing runs: the solver stays at
    // iteration 0 until Run or Step, which first replay it silently to the stored iteration
    // and then go on from there. The replay's records and snapshots then replace the stored
    // ones (historyReplaced), which were never shown as computed: when they differ (beyond
    // StoredComparison::kTolerance, or the replay ends elsewhere) the run is marked as
    // differing. False (nothing restored) when the records are not iterations 0, 1, 2, ... or
    // a snapshot is not of one of their iterations in ascending order (readSession refuses
    // both; the views index the trace by iteration).
    bool restore(std::vector<IterationRecord> records, std::vector<SnapshotPtr> snapshots,
                 Status status);
    // The stored iteration a replay is still catching up to (0: none pending).
    int replayPending() const { return replaying_ || replayUntil_ > 0 ? replayUntil_ : 0; }
    // After a replay: "replayed: differs from the stored history at iteration k by r" when
    // the replay did not give the stored numbers, else empty.
    const QString& replayDifference() const { return replayDifference_; }

    // Writes the trace as CSV (all record columns); false and *why on failure.
    bool exportTrace(const QString& path, QString* why) const;

  signals:
    void becameReady(int id);
    void failedToStart(int id, QString message);
    void recordsAppended(int id, std::vector<cplab::IterationRecord> records);
    void snapshotChanged(int id);
    void statusChanged(int id);
    // The run restarted on an edited problem; `note` says how ("warm start: ...",
    // "restarted cold: ..."), or why no solver could be made (`ok` false: the run failed).
    void rebased(int id, QString note, bool ok);
    // A replay reached a restored run's stored iteration: its history is now the replay's
    // (the views draw it again from iteration 0). `note` says whether the numbers are the
    // stored ones ("replayed to iteration 6: the stored numbers") or not ("replayed:
    // differs from the stored history at iteration 3 by 1"; `same` false).
    void historyReplaced(int id, QString note, bool same);

  private:
    void onStarted(RunStartPtr start);
    void onRebased(RunStartPtr start, const QString& note);
    void sendRebase();
    // Takes the solver's set-up and iteration 0 from `start`.
    void begin(const RunStart& start);
    void onUpdated(RunUpdatePtr update);
    // Replays a restored run up to its stored iteration, then does `then` (a count of steps,
    // or −1: run).
    bool replayFirst(int then);
    void finishReplay(const Status& status);
    // Streams the replay's records and snapshots up to the stored iteration into the history
    // (compared, within its budget); the rest of the update, past it, is returned.
    RunUpdate takeReplayed(const RunUpdate& update);
    // The replay's history in place of the stored one, compared with it.
    void replaceStored(const Status& status);

    int id_;
    std::shared_ptr<const ProblemInstance> problem_;
    std::string solver_;
    OptionValues options_;
    QColor color_;

    QThread* thread_;
    RunWorker* worker_;
    bool ready_ = false;
    bool playing_ = false;
    QString error_;
    Status status_;
    RunHistory history_;
    std::vector<std::string> pseudocode_, extraColumns_;
    double gapTolerance_ = 0.0;
    bool followsPath_ = false;
    double pathEnd_ = std::numeric_limits<double>::quiet_NaN();
    // A restored run: the stored iteration the solver has not reached yet, and what to do once
    // it has.
    int replayUntil_ = 0;
    bool replaying_ = false;
    int afterReplay_ = 0;
    // The solver's own iteration 0, and the replay's numbers against the stored ones so far
    // (its records and snapshots stream into history_).
    SnapshotPtr initialSnapshot_;
    StoredComparison replayComparison_;
    QString replayDifference_;
    int delayMs_ = 0;
    bool rebasing_ = false;  // a rebase is with the worker, not yet reported
    std::shared_ptr<const ProblemInstance> pendingProblem_;  // the newest edit not yet sent
};

}  // namespace cplab
