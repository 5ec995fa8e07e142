// SPDX-License-Identifier: GPL-3.0-or-later
// The runs of the current problem (DESIGN.md, "Threads"): creates them through the registry,
// drives them (run, pause, step, reset, cancel, delay), keeps their whole history within a
// memory budget, runs the work views ask for on a run's behalf (D(β) on a grid for the kernel
// view, objective_grid_job.h), and tells the window what changed. It owns no widget; the main
// window lays out and draws, this class manages.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <set>
#include <vector>

#include "core/options.h"
#include "family.h"
#include "objective_grid.h"
#include "run_names.h"

namespace cplab {

// `text` with its long decimals cut for the log, to 6 significant digits from 1 on and 4 below
// ("violation 0.0009084991898979933" reads "violation 0.0009085"); the CLI keeps them whole.
QString readableNumbers(const QString& text);

class ObjectiveGridJobs;
class Run;

class RunController : public QObject {
    Q_OBJECT
  public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Replaces the problem; every run of the old one is stopped and removed.
    void setProblem(ProblemPtr problem);
    const ProblemInstance* problem() const { return problem_.get(); }
    ProblemPtr problemPtr() const { return problem_; }
    const Family* family() const { return family_; }

    // Replaces the problem by `edited`, the same problem with its training set edited
    // (dataset_family.h's editedProblem), and keeps every run: each re-solves on it (Run::rebase:
    // warm where its solver can, else cold) and runs to its end; runRebased() and the log
    // report each. Nothing happens for a null `edited`.
    void rebase(ProblemPtr edited);

    // Adds a run of `solver` with `options`; null and *why when the options are invalid.
    Run* addRun(const std::string& solver, const OptionValues& options, QString* why);
    // Replaces run `id` by a fresh one (same id and colour) with `solver` and `options`.
    Run* restartRun(int id, const std::string& solver, const OptionValues& options, QString* why);
    // Removes run `id` (all runs), and the log says which.
    void removeRun(int id);
    void removeAll();

    int runCount() const { return static_cast<int>(runs_.size()); }
    Run* run(int index) const;
    Run* runById(int id) const;
    int indexOf(int id) const;
    // Run `id`'s name among the runs of the race (run_names.h): what tells it apart from the
    // others first. Names change as runs are added, removed or restarted with other options.
    RunName runName(int id) const;
    // Its whole text ("#2 frank_wolfe (variant=away)"); empty for an unknown id.
    QString runLabel(int id) const;
    // Its name in legends (RunName::legend); empty for an unknown id.
    QString runLegend(int id) const;

    // What the run controls do, to every run.
    void runAll();
    void pauseAll();
    void stepAll(int count);
    void cancelAll();
    void resetAll();
    void setDelayMs(int milliseconds);
    int delayMs() const { return delayMs_; }
    bool anyActive() const;
    // Some run is between Run and Pause.
    bool anyPlaying() const;

    // Memory for all runs' snapshots together; past it old snapshots are thinned (the first,
    // the last and every k-th of a run are kept) and the log says so.
    void setHistoryBudget(std::size_t bytes);
    std::size_t historyBudget() const { return historyBudget_; }
    std::size_t historyBytes() const;

    // The work views ask for on a run's behalf: D(β) on a grid for the kernel view, cancelled
    // when that run is removed or replaced, the problem changes or the controller goes.
    ObjectiveGridJobs* objectiveGrids() const { return objectiveGrids_; }

  signals:
    void problemChanged();
    void runAdded(int id);
    void runRemoved(int id);
    void runReplaced(int id);
    // The problem was replaced by an edited one (rebase); the runs stay.
    void problemEdited();
    // Run `id` restarted on the edited problem (its trace begins again; runReplaced follows).
    void runRebased(int id, bool ok);
    void runReady(int id);
    void recordsAppended(int id, const std::vector<cplab::IterationRecord>& records);
    void snapshotChanged(int id);
    void statusChanged(int id);
    // A line for the log.
    void message(const QString& text, bool error);

  private:
    std::unique_ptr<Run> createRun(int id, const std::string& solver, const OptionValues& options);
    bool check(const std::string& solver, const OptionValues& options, QString* why);
    void onStatus(int id);
    // removeRun and removeAll without a line in the log (a new problem replaces the runs).
    void dropRun(int id);
    void dropAll();
    void enforceBudget();

    ProblemPtr problem_;
    const Family* family_ = nullptr;
    std::vector<std::unique_ptr<Run>> runs_;
    // The runs' names (runName), worked out again after runs_ changes.
    mutable std::vector<RunName> names_;
    mutable bool namesStale_ = true;
    int nextRunId_ = 1;
    int delayMs_ = 100;
    std::size_t historyBudget_ = std::size_t(256) << 20;
    std::set<int> finishedLogged_;
    ObjectiveGridJobs* objectiveGrids_;  // a child
};

}  // namespace cplab
