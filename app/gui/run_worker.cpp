// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_worker.h"

#include <QMetaObject>
#include <QTimer>

namespace cplab {

using Clock = std::chrono::steady_clock;

void registerRunMetaTypes() {
    qRegisterMetaType<cplab::RunUpdatePtr>("cplab::RunUpdatePtr");
    qRegisterMetaType<cplab::RunStartPtr>("cplab::RunStartPtr");
}

RunWorker::RunWorker(SolverFactory factory) : factory_(std::move(factory)) {}

RunWorker::~RunWorker() = default;

void RunWorker::initialize() {
    delayTimer_ = new QTimer(this);
    delayTimer_->setSingleShot(true);
    connect(delayTimer_, &QTimer::timeout, this, [this] { work(); });

    std::string why;
    try {
        solver_ = factory_(&why);
    } catch (const std::exception& e) {
        why = e.what();
        solver_.reset();
    }
    if (!solver_) {
        emit failed(QString::fromStdString(why.empty() ? "the solver could not be created" : why));
        return;
    }
    emit started(begin());
    if (running_ || pendingSteps_ > 0) wake();
}

RunStartPtr RunWorker::begin() {
    solver_->setCancelToken(cancel_);
    auto start = std::make_shared<RunStart>();
    start->pseudocode = solver_->pseudocode();
    start->extraColumns = solver_->extraColumns();
    start->followsPath = solver_->followsPath();
    start->pathEnd = solver_->pathEnd();
    if (SnapshotPtr s = safeSnapshot()) start->initial.snapshots.push_back(std::move(s));
    start->initial.status = solver_->status();
    start->initial.gapTolerance = solver_->gapTolerance();
    lastSnapshot_ = Clock::now();
    return start;
}

void RunWorker::rebase(const RebaseFactory& factory) {
    std::string note;
    std::unique_ptr<Solver> next;
    try {
        next = factory(solver_.get(), &note);
    } catch (const std::exception& e) {
        note = e.what();
        next.reset();
    }
    pending_.clear();
    pendingSnapshots_.clear();
    solver_ = std::move(next);
    if (!solver_) {
        running_ = false;
        pendingSteps_ = 0;
        emit rebased(nullptr, QString::fromStdString(note));
        return;
    }
    cancel_.reset();
    flatOut_ = true;
    running_ = true;
    pendingSteps_ = 0;
    emit rebased(begin(), QString::fromStdString(note));
    wake();
}

void RunWorker::wake() {
    if (workQueued_.exchange(true)) return;
    QMetaObject::invokeMethod(
        this, [this] { work(); }, Qt::QueuedConnection);
}

void RunWorker::requestRun() {
    flatOut_ = false;
    running_ = true;
    wake();
}

void RunWorker::requestPause() {
    flatOut_ = false;
    running_ = false;
    pendingSteps_ = 0;
}

void RunWorker::requestSteps(int count) {
    flatOut_ = false;
    running_ = false;
    pendingSteps_ += count;
    wake();
}

void RunWorker::setDelayMs(int milliseconds) {
    delayMs_ = std::max(0, milliseconds);
}

void RunWorker::cancel() {
    cancel_.cancel();
    running_ = false;
    pendingSteps_ = 0;
    wake();  // step() reports Cancelled at once; the loop sends the final status
}

void RunWorker::emitUpdate(bool withSnapshot) {
    auto update = std::make_shared<RunUpdate>();
    update->records = std::move(pending_);
    pending_.clear();
    update->status = solver_->status();
    update->gapTolerance = solver_->gapTolerance();
    update->snapshots = std::move(pendingSnapshots_);
    pendingSnapshots_.clear();
    const int newest = solver_->lastRecord().iteration;
    const bool have =
        !update->snapshots.empty() && update->snapshots.back()->record.iteration == newest;
    if (withSnapshot && !have) {
        const auto start = Clock::now();
        if (SnapshotPtr s = safeSnapshot()) update->snapshots.push_back(std::move(s));
        lastSnapshot_ = Clock::now();
        snapshotCost_ = std::chrono::duration<double>(lastSnapshot_ - start).count();
    }
    emit updated(update);
}

SnapshotPtr RunWorker::safeSnapshot() {
    try {
        return solver_->snapshot();
    } catch (const std::exception&) {
        return nullptr;  // the views keep the previous picture
    }
}

void RunWorker::work() {
    workQueued_ = false;
    if (!solver_ || solver_->status().finished()) return;
    if (cancel_.cancelled()) {
        solver_->step();
        emitUpdate(true);
        return;
    }
    const auto chunkStart = Clock::now();
    const int delay = flatOut_ ? 0 : delayMs_.load();
    if (delay > 0) {
        // Teaching mode: at most one step per delay, however often we are woken.
        const auto wait = std::chrono::milliseconds(delay) - (chunkStart - lastStep_);
        if (wait > Clock::duration::zero()) {
            if (running_ || pendingSteps_ > 0) {
                delayTimer_->start(static_cast<int>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(wait).count() + 1));
            }
            return;
        }
    }
    bool stepped = false;
    while (true) {
        bool take = false;
        int pending = pendingSteps_.load();
        while (pending > 0 && !pendingSteps_.compare_exchange_weak(pending, pending - 1)) {
        }
        const bool stepping = pending > 0;
        if (stepping) {
            take = true;
        } else if (running_) {
            take = true;
        }
        if (!take) break;
        const std::size_t before = solver_->trace().size();
        solver_->step();
        lastStep_ = Clock::now();
        stepped = true;
        if (solver_->trace().size() > before) {
            pending_.push_back(solver_->trace().back());
            // Steps asked for one by one (Step, Step x10) keep their pictures for the timeline.
            if (stepping && !solver_->status().finished()) {
                if (SnapshotPtr s = safeSnapshot()) pendingSnapshots_.push_back(std::move(s));
            }
        }
        if (solver_->status().finished() || delay > 0) break;
        if (Clock::now() - chunkStart > kChunk) break;
    }
    const bool finished = solver_->status().finished();
    const bool more = !finished && (running_ || pendingSteps_ > 0);
    if (stepped || finished) {
        // While running flat out, space snapshots so that building them costs at most ~3 % of
        // the run; otherwise (paused, stepping, teaching delay, finished) always send one.
        const auto interval = std::max<Clock::duration>(
            kMinSnapshotInterval, std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(30.0 * snapshotCost_)));
        const bool due = !more || delay > 0 || Clock::now() - lastSnapshot_ >= interval;
        emitUpdate(due);
    }
    if (!more) return;
    if (delay > 0) {
        delayTimer_->start(delay);
    } else {
        wake();
    }
}

}  // namespace cplab
