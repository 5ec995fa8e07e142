// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation of D(β) on a grid of kernel weights that the kernel view asks for
// (widgets/common/objective_grid.h): one fresh SVM solve per point with the run's KernelSetup
// (never the run's solver or its cache), on the global thread pool, reporting progress and
// cancellable. The run controller owns the jobs through its ObjectiveGridJobs (run_controller.h).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <memory>

#include "objective_grid.h"

template <typename T>
class QFutureWatcher;
template <typename T>
class QPromise;

namespace cplab {

class ObjectiveGridJob final : public QObject {
    Q_OBJECT
  public:
    // Starts solving at once.
    explicit ObjectiveGridJob(widgets::ObjectiveGridRequest request, QObject* parent = nullptr);
    // Cancels the solves and waits for the worker (no signal follows).
    ~ObjectiveGridJob() override;

    int runId() const { return runId_; }
    // Stops after the solve under way; finished() follows with `cancelled`.
    void cancel();

  signals:
    void progress(int runId, int done);
    void finished(const cplab::widgets::ObjectiveGridResult& result);

  private:
    struct Work;
    // Solves D at every point until done or cancelled; no exception leaves the worker.
    static void solveAll(QPromise<void>& promise, Work& work);
    void onFinished();

    int runId_;
    std::shared_ptr<Work> work_;
    QFutureWatcher<void>* watcher_;
    QElapsedTimer clock_;
};

// The jobs of every run: started on a view's request, cancelled by run (a run removed, replaced
// or re-solving) or all at once (a new problem); each reports through the signals below.
class ObjectiveGridJobs final : public QObject {
    Q_OBJECT
  public:
    explicit ObjectiveGridJobs(QObject* parent = nullptr) : QObject(parent) {}

    // D(β) at the request's points with its setup, on a worker thread, for run
    // `request.runId`; progress and finished (also after a cancel) report it.
    void evaluate(const widgets::ObjectiveGridRequest& request);
    void cancel(int runId);
    void cancelAll();

  signals:
    void progress(int runId, int done);
    void finished(const cplab::widgets::ObjectiveGridResult& result);
};

}  // namespace cplab
