// SPDX-License-Identifier: GPL-3.0-or-later
#include "objective_grid_job.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QThreadPool>
#include <exception>
#include <limits>

#include "core/cancel_token.h"
#include "kernel/kernel_solver.h"

namespace cplab {

// What the worker reads (copies and the immutable setup) and writes (values, error); the GUI
// thread reads the values only once the future has finished.
struct ObjectiveGridJob::Work {
    std::shared_ptr<const KernelSetup> setup;
    std::vector<Eigen::VectorXd> points;
    std::vector<double> values;
    CancelToken cancel;
    std::string error;
};

ObjectiveGridJob::ObjectiveGridJob(widgets::ObjectiveGridRequest request, QObject* parent)
    : QObject(parent),
      runId_(request.runId),
      work_(std::make_shared<Work>()),
      watcher_(new QFutureWatcher<void>(this)) {
    work_->setup = std::move(request.setup);
    work_->points = std::move(request.points);
    work_->values.assign(work_->points.size(), std::numeric_limits<double>::quiet_NaN());
    connect(watcher_, &QFutureWatcher<void>::progressValueChanged, this,
            [this](int done) { emit progress(runId_, done); });
    connect(watcher_, &QFutureWatcher<void>::finished, this, &ObjectiveGridJob::onFinished);
    clock_.start();
    auto promise = std::make_shared<QPromise<void>>();
    promise->setProgressRange(0, static_cast<int>(work_->points.size()));
    watcher_->setFuture(promise->future());
    promise->start();
    QThreadPool::globalInstance()->start([promise, work = work_] { solveAll(*promise, *work); });
}

ObjectiveGridJob::~ObjectiveGridJob() {
    cancel();
    watcher_->disconnect(this);
    watcher_->waitForFinished();
}

void ObjectiveGridJob::cancel() {
    work_->cancel.cancel();
    watcher_->cancel();
}

void ObjectiveGridJob::solveAll(QPromise<void>& promise, Work& work) {
    for (std::size_t i = 0; i < work.points.size(); ++i) {
        if (promise.isCanceled() || work.cancel.cancelled()) break;
        try {
            work.values[i] = evaluateMklObjective(*work.setup, work.points[i], &work.cancel);
        } catch (const std::exception& e) {
            work.error = e.what();
            break;
        } catch (...) {
            work.error = "unknown error";
            break;
        }
        promise.setProgressValue(static_cast<int>(i + 1));
    }
    promise.finish();
}

void ObjectiveGridJob::onFinished() {
    widgets::ObjectiveGridResult result;
    result.runId = runId_;
    result.error = work_->error;
    result.cancelled = work_->cancel.cancelled() || watcher_->isCanceled();
    if (result.error.empty() && !result.cancelled) result.values = work_->values;
    result.milliseconds = clock_.elapsed();
    emit finished(result);
}

void ObjectiveGridJobs::evaluate(const widgets::ObjectiveGridRequest& request) {
    auto* job = new ObjectiveGridJob(request, this);
    connect(job, &ObjectiveGridJob::progress, this, &ObjectiveGridJobs::progress);
    connect(job, &ObjectiveGridJob::finished, this,
            [this, job](const widgets::ObjectiveGridResult& result) {
                job->deleteLater();
                emit finished(result);
            });
}

void ObjectiveGridJobs::cancel(int runId) {
    for (ObjectiveGridJob* job : findChildren<ObjectiveGridJob*>(Qt::FindDirectChildrenOnly)) {
        if (job->runId() == runId) job->cancel();
    }
}

void ObjectiveGridJobs::cancelAll() {
    for (ObjectiveGridJob* job : findChildren<ObjectiveGridJob*>(Qt::FindDirectChildrenOnly))
        job->cancel();
}

}  // namespace cplab
