// SPDX-License-Identifier: GPL-3.0-or-later
// Drives one solver on its own thread (DESIGN.md, "Threads").
//
// The worker lives in a QThread and owns the solver, which it builds there (a large problem's
// set-up does not block the GUI). It loops on step() in short chunks from its event loop, so
// run, pause, step ×n, delay and cancel need no blocked threads: the GUI sets atomics and
// wakes it. Every iteration record reaches the GUI; snapshots are built only when one will be
// sent, at most about ten per second and rarer when building one is expensive, so that
// drawing costs the run only a few percent; each step the user asks for (Step, Step x10, a
// teaching delay) keeps its own snapshot for the timeline.
#pragma once

#include <QObject>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "core/solver.h"

class QTimer;

namespace cplab {

// What one update carries from the worker to the GUI. Immutable once sent.
struct RunUpdate {
    std::vector<IterationRecord> records;  // every record since the previous update, in order
    // Snapshots since the previous update, in order (the newest last; none when not due):
    // one per step of Step/Step x10 and of teaching delays, spaced out while running flat out.
    std::vector<SnapshotPtr> snapshots;
    Status status;
    double gapTolerance = 0.0;  // Solver::gapTolerance() after the update
};
using RunUpdatePtr = std::shared_ptr<const RunUpdate>;

// What the worker reports once the solver is built.
struct RunStart {
    std::vector<std::string> pseudocode;
    std::vector<std::string> extraColumns;
    bool followsPath = false;
    double pathEnd = 0.0;  // Solver::pathEnd() (NaN for solvers that follow no path)
    RunUpdate initial;     // iteration 0: its snapshot (snapshots[0]) and status
};
using RunStartPtr = std::shared_ptr<const RunStart>;

using SolverFactory = std::function<std::unique_ptr<Solver>(std::string* why)>;
// Makes the solver that replaces `previous` (null when the run has none: it failed to start)
// after the problem was edited; *note says how ("warm start: ...", "restarted cold: ..."), and
// on failure (null) why.
using RebaseFactory =
    std::function<std::unique_ptr<Solver>(const Solver* previous, std::string* note)>;

class RunWorker : public QObject {
    Q_OBJECT
  public:
    explicit RunWorker(SolverFactory factory);
    ~RunWorker() override;

    // Thread-safe requests, callable from any thread.
    void requestRun();
    void requestPause();
    void requestSteps(int count);
    void setDelayMs(int milliseconds);
    void cancel();

    // Minimum interval between snapshots while running flat out: ten a second are enough to
    // watch a run, and each one drawn costs the solver a few milliseconds (the painting GUI
    // thread competes for the caches; tests/bench/bench_gui_overhead). Stepping, teaching
    // delays and the end of a run always send one.
    static constexpr std::chrono::milliseconds kMinSnapshotInterval{100};
    // Longest stretch of steps before the worker returns to its event loop and sends the new
    // records (pause and cancel are checked between steps anyway): one batch per replot.
    static constexpr std::chrono::milliseconds kChunk{40};

  public slots:
    // Builds the solver (in the worker's thread) and reports started() or failed().
    void initialize();
    // Replaces the solver by factory(solver, &note) (on the worker's thread: the previous
    // solver's state is read where it lives), drops what was not yet sent of the previous one
    // and runs the new one to its end; reports rebased() with the new start, or a null start
    // and the reason. A cancelled run is running again; the teaching delay waits until the
    // user runs, pauses or steps again.
    void rebase(const RebaseFactory& factory);

  signals:
    void started(cplab::RunStartPtr start);
    void failed(QString message);
    void updated(cplab::RunUpdatePtr update);
    void rebased(cplab::RunStartPtr start, QString note);

  private:
    void wake();
    void work();
    // The new solver's set-up and iteration 0, for started() and rebased().
    RunStartPtr begin();
    void emitUpdate(bool withSnapshot);
    // The solver's snapshot, or null when building it failed (the run goes on).
    SnapshotPtr safeSnapshot();

    SolverFactory factory_;
    std::unique_ptr<Solver> solver_;
    CancelToken cancel_;
    std::atomic<bool> running_{false};
    std::atomic<int> pendingSteps_{0};
    std::atomic<int> delayMs_{0};
    std::atomic<bool> workQueued_{false};
    // A re-solve after an edit runs flat out whatever the teaching delay, so that the views
    // show the reaction at once; until the user runs, pauses or steps again.
    std::atomic<bool> flatOut_{false};

    // Worker-thread state.
    QTimer* delayTimer_ = nullptr;
    std::vector<IterationRecord> pending_;
    std::vector<SnapshotPtr> pendingSnapshots_;
    std::chrono::steady_clock::time_point lastSnapshot_{};
    std::chrono::steady_clock::time_point lastStep_{};
    double snapshotCost_ = 0.0;  // seconds the last snapshot took to build
};

void registerRunMetaTypes();

}  // namespace cplab

Q_DECLARE_METATYPE(cplab::RunUpdatePtr)
Q_DECLARE_METATYPE(cplab::RunStartPtr)
