// SPDX-License-Identifier: GPL-3.0-or-later
#include "run.h"

#include <QStringList>
#include <QThread>
#include <algorithm>
#include <cstdlib>

#include "core/trace_csv.h"
#include "registry.h"
#include "session.h"
#include "warm_start.h"

namespace cplab {

Run::Run(int id, std::shared_ptr<const ProblemInstance> problem, std::string solver,
         OptionValues options, QColor color, QObject* parent)
    : QObject(parent),
      id_(id),
      problem_(std::move(problem)),
      solver_(std::move(solver)),
      options_(std::move(options)),
      color_(color),
      thread_(new QThread(this)) {
    auto factory = [problem = problem_, name = solver_, values = options_](std::string* why) {
        return makeSolver(name, *problem, values, why);
    };
    worker_ = new RunWorker(std::move(factory));
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &RunWorker::started, this, &Run::onStarted, Qt::QueuedConnection);
    connect(worker_, &RunWorker::updated, this, &Run::onUpdated, Qt::QueuedConnection);
    connect(worker_, &RunWorker::rebased, this, &Run::onRebased, Qt::QueuedConnection);
    connect(
        worker_, &RunWorker::failed, this,
        [this](const QString& message) {
            error_ = message;
            status_ = Status::make(StatusCode::InvalidInput, message.toStdString());
            emit failedToStart(id_, message);
            emit statusChanged(id_);
        },
        Qt::QueuedConnection);
    thread_->setObjectName(QString("run-%1").arg(id_));
    thread_->start();
    QMetaObject::invokeMethod(worker_, &RunWorker::initialize, Qt::QueuedConnection);
}

Run::~Run() {
    worker_->cancel();
    thread_->quit();
    thread_->wait();
}

QString Run::label() const {
    QString text = QString("#%1 %2").arg(id_).arg(QString::fromStdString(solver_));
    QStringList parts;
    for (const auto& [name, value] : options_)
        parts << QString::fromStdString(name + "=" + value);
    if (!parts.isEmpty()) text += " (" + parts.join(", ") + ")";
    return text;
}

int Run::thinHistory(std::size_t bytes) {
    return history_.thin(bytes);
}

bool Run::restore(std::vector<IterationRecord> records, std::vector<SnapshotPtr> snapshots,
                  Status status) {
    if (records.empty() || !history_.restore(std::move(records), std::move(snapshots)))
        return false;
    status_ = std::move(status);
    replayUntil_ = iteration();
    replayDifference_.clear();
    if (!history_.trace().empty()) emit recordsAppended(id_, history_.trace());
    emit snapshotChanged(id_);
    emit statusChanged(id_);
    return true;
}

bool Run::replayFirst(int then) {
    if (replayUntil_ <= 0) return false;
    afterReplay_ = then;
    if (!replaying_) {
        replaying_ = true;
        playing_ = then < 0;
        // Iteration 0 first: the solver's own against the stored one.
        replayComparison_ = StoredComparison{};
        if (initialSnapshot_) replayComparison_.add(history_.recordAt(0), initialSnapshot_->record);
        worker_->setDelayMs(0);
        worker_->requestSteps(replayUntil_);
    }
    emit statusChanged(id_);
    return true;
}

void Run::finishReplay(const Status& status) {
    replaying_ = false;
    worker_->setDelayMs(delayMs_);
    replaceStored(status);
    replayUntil_ = 0;
    status_ = status;
    if (status_.finished()) {
        playing_ = false;
    } else if (afterReplay_ < 0) {
        worker_->requestRun();
    } else if (afterReplay_ > 0) {
        worker_->requestSteps(afterReplay_);
    }
    emit statusChanged(id_);
}

RunUpdate Run::takeReplayed(const RunUpdate& update) {
    RunUpdate rest;
    std::vector<IterationRecord> replayed;
    for (const IterationRecord& r : update.records)
        (r.iteration > replayUntil_ ? rest.records : replayed).push_back(r);
    // Compared with the stored records and written over them as they come (run_history.h).
    history_.addReplayed(replayed, &replayComparison_);
    for (const SnapshotPtr& s : update.snapshots) {
        if (s->record.iteration > replayUntil_) {
            rest.snapshots.push_back(s);
        } else {
            history_.keepReplayed(s);
        }
    }
    rest.status = update.status;
    rest.gapTolerance = update.gapTolerance;
    return rest;
}

void Run::replaceStored(const Status& status) {
    const StoredComparison& c = replayComparison_;
    const int reached = history_.replayed();
    // A replay the user stopped is not a difference: the numbers it reached are the stored ones.
    const bool stoppedByUser = status.code == StatusCode::Cancelled && reached < replayUntil_;
    QString note;
    if (!c.same()) {
        replayDifference_ = tr("replayed: %1").arg(QString::fromStdString(c.differsText()));
    } else if (stoppedByUser) {
        replayDifference_.clear();
        note = tr("replay stopped by the user at iteration %1: the stored numbers up to there "
                  "(the stored history went on to iteration %2)")
                   .arg(reached)
                   .arg(replayUntil_);
    } else if (reached < replayUntil_) {
        replayDifference_ = tr("replayed: differs from the stored history at iteration %1 (the "
                               "replay ends at iteration %2, the stored history at %3)")
                                .arg(reached + 1)
                                .arg(reached)
                                .arg(replayUntil_);
    } else {
        replayDifference_.clear();
    }
    // The views start again from the solver's iteration 0 (historyReplaced), then draw the
    // replay's records and snapshots: the stored ones are gone.
    history_.replaceByReplay(initialSnapshot_);
    replayComparison_ = StoredComparison{};
    const bool same = replayDifference_.isEmpty();
    if (note.isEmpty())
        note = same ? tr("replayed to iteration %1: the stored numbers").arg(reached)
                    : replayDifference_;
    emit historyReplaced(id_, note, same);
    if (!history_.trace().empty()) emit recordsAppended(id_, history_.trace());
    emit snapshotChanged(id_);
}

void Run::start() {
    playing_ = true;
    if (replayFirst(-1)) return;
    worker_->requestRun();
    emit statusChanged(id_);
}
void Run::pause() {
    playing_ = false;
    worker_->requestPause();
    emit statusChanged(id_);
}
void Run::step(int count) {
    if (replayFirst(count)) return;
    worker_->requestSteps(count);
}
void Run::cancel() {
    playing_ = false;
    worker_->cancel();
}
void Run::setDelayMs(int milliseconds) {
    delayMs_ = milliseconds;
    if (!replaying_) worker_->setDelayMs(milliseconds);
}

int Run::maxIterations() const {
    if (const auto it = options_.find("max_iterations"); it != options_.end())
        return std::atoi(it->second.c_str());
    if (const SolverInfo* info = findSolver(solver_)) {
        for (const OptionInfo& option : info->options)
            if (option.name == "max_iterations") return std::atoi(option.defaultValue.c_str());
    }
    return 0;
}

QString Run::stateText(int shown, bool brief) const {
    if (failed()) return tr("failed");
    if (!ready_) return tr("starting");
    if (replaying_) return tr("replaying to %1").arg(replayUntil_);
    QString text;
    if (shown < iteration()) {
        text = brief ? tr("earlier") : tr("at iteration %1").arg(shown);
    } else if (status_.finished()) {
        text = QString(statusName(status_.code));
    } else if (playing_) {
        text = tr("running");
    } else {
        text = iteration() == 0 ? tr("idle") : tr("paused");
    }
    // A replay that did not give the stored numbers marks the run for as long as it lives.
    if (!replayDifference_.isEmpty())
        text += brief ? tr(", differs from stored") : " (" + replayDifference_ + ")";
    return text;
}

bool Run::threadRunning() const {
    return thread_->isRunning();
}

void Run::begin(const RunStart& start) {
    pseudocode_ = start.pseudocode;
    extraColumns_ = start.extraColumns;
    followsPath_ = start.followsPath;
    pathEnd_ = start.pathEnd;
    ready_ = true;
    status_ = start.initial.status;
    gapTolerance_ = start.initial.gapTolerance;
    if (!start.initial.snapshots.empty()) {
        initialSnapshot_ = start.initial.snapshots.front();
        history_.begin(initialSnapshot_);
    }
}

void Run::onStarted(RunStartPtr start) {
    begin(*start);
    emit becameReady(id_);
    emit snapshotChanged(id_);
    emit statusChanged(id_);
}

void Run::rebase(std::shared_ptr<const ProblemInstance> edited) {
    problem_ = std::move(edited);
    pendingProblem_ = problem_;
    if (!rebasing_) sendRebase();
}

void Run::sendRebase() {
    rebasing_ = true;
    auto factory = [edited = std::move(pendingProblem_), name = solver_, values = options_](
                       const Solver* previous, std::string* note) -> std::unique_ptr<Solver> {
        std::string why = "it had no solver";
        if (previous) {
            if (auto warm = warmSolver(*previous, name, *edited, values, &why)) {
                // warmSolver's note says what was kept ("warm start: svm keeps α of ...").
                *note = why.empty() ? std::string("warm start") : why;
                return warm;
            }
        }
        std::string failure;
        auto cold = makeSolver(name, *edited, values, &failure);
        *note = cold ? "restarted cold: " + why : failure;
        return cold;
    };
    pendingProblem_.reset();
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, factory = std::move(factory)] { worker->rebase(factory); },
        Qt::QueuedConnection);
}

void Run::onRebased(RunStartPtr start, const QString& note) {
    rebasing_ = false;
    // A restored history is gone with the data it was computed on: nothing to replay.
    replaying_ = false;
    replayUntil_ = 0;
    replayComparison_ = StoredComparison{};
    replayDifference_.clear();
    initialSnapshot_.reset();
    history_.clear();
    error_.clear();
    if (start) {
        begin(*start);
        playing_ = true;
    } else {
        ready_ = true;
        playing_ = false;
        error_ = note;
        status_ = Status::make(StatusCode::InvalidInput, note.toStdString());
    }
    emit rebased(id_, note, start != nullptr);
    emit snapshotChanged(id_);
    emit statusChanged(id_);
    if (pendingProblem_) sendRebase();
}

void Run::onUpdated(RunUpdatePtr update) {
    if (replaying_) {
        // The replay's records and snapshots up to the stored iteration replace the stored
        // ones once it is reached (replaceStored); what comes after them is shown as usual.
        RunUpdate rest = takeReplayed(*update);
        const bool reached =
            !update->records.empty() && update->records.back().iteration >= replayUntil_;
        if (!reached && !update->status.finished()) {
            // The replay's snapshots count in the history budget (RunController thins on it).
            if (!update->snapshots.empty()) emit snapshotChanged(id_);
            return;
        }
        finishReplay(update->status);
        if (rest.records.empty() && rest.snapshots.empty()) return;
        update = std::make_shared<const RunUpdate>(std::move(rest));
    }
    if (!update->records.empty()) {
        history_.append(update->records);
        emit recordsAppended(id_, update->records);
    }
    gapTolerance_ = update->gapTolerance;
    if (!update->snapshots.empty()) {
        for (const auto& s : update->snapshots)
            history_.keep(s);
        emit snapshotChanged(id_);
    }
    const bool statusChangedNow = update->status.code != status_.code;
    status_ = update->status;
    if (statusChangedNow || !update->records.empty()) emit statusChanged(id_);
}

bool Run::exportTrace(const QString& path, QString* why) const {
    std::string message;
    if (!writeTraceCsv(path.toStdString(), history_.trace(), extraColumns_, &message)) {
        if (why) *why = QString::fromStdString(message);
        return false;
    }
    return true;
}

}  // namespace cplab
