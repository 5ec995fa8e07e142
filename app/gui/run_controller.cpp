// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_controller.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

#include "objective_grid_job.h"
#include "plot_style.h"
#include "registry.h"
#include "run.h"

namespace cplab {

RunController::RunController(QObject* parent)
    : QObject(parent), objectiveGrids_(new ObjectiveGridJobs(this)) {
    registerRunMetaTypes();
}

RunController::~RunController() {
    runs_.clear();  // each Run cancels and joins its worker
}

void RunController::setProblem(ProblemPtr problem) {
    objectiveGrids_->cancelAll();
    dropAll();  // the log tells the new problem; the old runs go with the old one
    problem_ = std::move(problem);
    family_ = problem_ ? findFamily(problem_->info.family) : nullptr;
    emit problemChanged();
}

void RunController::rebase(ProblemPtr edited) {
    if (!edited) return;
    problem_ = std::move(edited);
    emit problemEdited();
    for (const auto& r : runs_) {
        objectiveGrids_->cancel(r->id());
        r->rebase(problem_);
    }
}

bool RunController::check(const std::string& solver, const OptionValues& options, QString* why) {
    std::string message;
    if (!problem_) {
        message = "no problem loaded";
    } else if (!checkSolverOptions(solver, options, &message)) {
    } else if (const SolverInfo* info = findSolver(solver); info->family != problem_->info.family) {
        message = "solver '" + solver + "' works on " + info->family + " problems, but '" +
                  problem_->info.name + "' is a " + problem_->info.family + " problem";
    } else {
        return true;
    }
    if (why) *why = QString::fromStdString(message);
    emit this->message(QString::fromStdString(message), true);
    return false;
}

std::unique_ptr<Run> RunController::createRun(int id, const std::string& solver,
                                              const OptionValues& options) {
    auto run =
        std::make_unique<Run>(id, problem_, solver, options, widgets::runColor(id - 1), nullptr);
    Run* raw = run.get();
    connect(raw, &Run::becameReady, this, &RunController::runReady);
    connect(raw, &Run::recordsAppended, this, &RunController::recordsAppended);
    connect(raw, &Run::snapshotChanged, this, [this](int runId) {
        enforceBudget();
        emit snapshotChanged(runId);
    });
    connect(raw, &Run::statusChanged, this, &RunController::onStatus);
    connect(raw, &Run::failedToStart, this, [this](int runId, const QString& text) {
        emit message(tr("%1: %2").arg(runLabel(runId), text), true);
    });
    connect(raw, &Run::rebased, this, [this](int runId, const QString& note, bool ok) {
        finishedLogged_.erase(runId);
        objectiveGrids_->cancel(runId);
        if (runById(runId))
            emit message(tr("%1 on the edited points: %2").arg(runLabel(runId), note), !ok);
        emit runRebased(runId, ok);
        emit runReplaced(runId);
    });
    // A restored run's replay replaced its stored history: drawn again from its records.
    connect(raw, &Run::historyReplaced, this, [this](int runId, const QString& note, bool same) {
        if (runById(runId)) emit message(runLabel(runId) + ": " + note, !same);
        emit runReplaced(runId);
    });
    raw->setDelayMs(delayMs_);
    return run;
}

Run* RunController::addRun(const std::string& solver, const OptionValues& options, QString* why) {
    if (!check(solver, options, why)) return nullptr;
    const int id = nextRunId_++;
    runs_.push_back(createRun(id, solver, options));
    namesStale_ = true;
    Run* run = runs_.back().get();
    emit message(tr("added %1").arg(runLabel(id)), false);
    emit runAdded(id);
    return run;
}

Run* RunController::restartRun(int id, const std::string& solver, const OptionValues& options,
                               QString* why) {
    const int index = indexOf(id);
    if (index < 0 || !check(solver, options, why)) return nullptr;
    objectiveGrids_->cancel(id);
    auto& slot = runs_[static_cast<std::size_t>(index)];
    slot.reset();
    finishedLogged_.erase(id);
    slot = createRun(id, solver, options);
    namesStale_ = true;
    emit message(tr("restarted %1").arg(runLabel(id)), false);
    emit runReplaced(id);
    return slot.get();
}

void RunController::removeRun(int id) {
    if (indexOf(id) < 0) return;
    emit message(tr("removed %1").arg(runLabel(id)), false);
    dropRun(id);
}

void RunController::removeAll() {
    // One line for them all: a run added right after has the number of the first removed.
    QStringList names;
    for (const auto& r : runs_)
        names << runLabel(r->id());
    if (!names.isEmpty()) emit message(tr("removed %1").arg(names.join("; ")), false);
    dropAll();
}

void RunController::dropRun(int id) {
    const int index = indexOf(id);
    if (index < 0) return;
    objectiveGrids_->cancel(id);
    runs_.erase(runs_.begin() + index);
    namesStale_ = true;
    finishedLogged_.erase(id);
    emit runRemoved(id);
}

void RunController::dropAll() {
    while (!runs_.empty())
        dropRun(runs_.back()->id());
    nextRunId_ = 1;
    finishedLogged_.clear();
}

Run* RunController::run(int index) const {
    if (index < 0 || index >= runCount()) return nullptr;
    return runs_[static_cast<std::size_t>(index)].get();
}

Run* RunController::runById(int id) const {
    const int index = indexOf(id);
    return index < 0 ? nullptr : runs_[static_cast<std::size_t>(index)].get();
}

RunName RunController::runName(int id) const {
    // Names depend on the runs' solvers and options only, which change when a run is added,
    // restarted or removed: worked out then, not on each frame that asks for them.
    if (namesStale_) {
        std::vector<RunSpec> specs;
        specs.reserve(runs_.size());
        for (const auto& r : runs_)
            specs.push_back({r->id(), r->solver(), r->options()});
        names_ = runNames(specs);
        namesStale_ = false;
    }
    for (const RunName& name : names_) {
        if (name.id == id) return name;
    }
    return {};
}

QString RunController::runLabel(int id) const {
    return runById(id) ? runName(id).text() : QString();
}

QString RunController::runLegend(int id) const {
    return runById(id) ? runName(id).legend() : QString();
}

int RunController::indexOf(int id) const {
    for (int k = 0; k < runCount(); ++k) {
        if (runs_[static_cast<std::size_t>(k)]->id() == id) return k;
    }
    return -1;
}

void RunController::runAll() {
    for (const auto& r : runs_)
        r->start();
}

void RunController::pauseAll() {
    for (const auto& r : runs_)
        r->pause();
}

void RunController::stepAll(int count) {
    for (const auto& r : runs_)
        r->step(count);
}

void RunController::cancelAll() {
    for (const auto& r : runs_)
        r->cancel();
}

void RunController::resetAll() {
    for (auto& r : runs_) {
        const int id = r->id();
        objectiveGrids_->cancel(id);
        const std::string solver = r->solver();
        const OptionValues options = r->options();
        r.reset();
        finishedLogged_.erase(id);
        r = createRun(id, solver, options);
        emit runReplaced(id);
    }
    emit message(tr("reset all runs to iteration 0"), false);
}

void RunController::setDelayMs(int milliseconds) {
    delayMs_ = std::max(0, milliseconds);
    for (const auto& r : runs_)
        r->setDelayMs(delayMs_);
}

bool RunController::anyActive() const {
    for (const auto& r : runs_) {
        if (!r->status().finished()) return true;
    }
    return false;
}

QString readableNumbers(const QString& text) {
    // A decimal with five or more digits after the point, with or without an exponent.
    static const QRegularExpression longNumber(R"((?<![\w.])-?\d+\.\d{5,}(?:[eE][-+]?\d+)?)");
    QString out;
    qsizetype from = 0;
    for (auto it = longNumber.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        out += text.mid(from, match.capturedStart() - from);
        const double value = match.captured().toDouble();
        out += QString::number(value, 'g', std::abs(value) >= 1 ? 6 : 4);
        from = match.capturedEnd();
    }
    return out + text.mid(from);
}

bool RunController::anyPlaying() const {
    return std::any_of(runs_.begin(), runs_.end(), [](const auto& r) { return r->playing(); });
}

void RunController::setHistoryBudget(std::size_t bytes) {
    historyBudget_ = bytes;
    enforceBudget();
}

std::size_t RunController::historyBytes() const {
    std::size_t total = 0;
    for (const auto& r : runs_)
        total += r->history().bytes();
    return total;
}

void RunController::enforceBudget() {
    if (historyBytes() <= historyBudget_ || runs_.empty()) return;
    // Each run gets an equal share; the runs over their share are thinned.
    const std::size_t share = historyBudget_ / runs_.size();
    for (const auto& r : runs_) {
        if (r->history().bytes() <= share) continue;
        const int before = r->history().thinFactor();
        const int k = r->thinHistory(share);
        if (k <= before) continue;  // said already; new snapshots follow the same density
        emit message(tr("history of %1 over its share of the %2 MB budget: keeping its first "
                        "and last snapshots and one in every %3 iterations")
                         .arg(runLabel(r->id()))
                         .arg(static_cast<double>(historyBudget_) / (1 << 20), 0, 'g', 3)
                         .arg(k),
                     false);
    }
}

void RunController::onStatus(int id) {
    Run* r = runById(id);
    if (r && r->status().finished() && !finishedLogged_.count(id)) {
        finishedLogged_.insert(id);
        const QString text = tr("%1: %2 - %3")
                                 .arg(runLabel(id), QString(statusName(r->status().code)),
                                      readableNumbers(QString::fromStdString(r->status().message)));
        emit message(text, !r->status().usable());
    }
    emit statusChanged(id);
}

}  // namespace cplab
