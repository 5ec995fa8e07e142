// SPDX-License-Identifier: GPL-3.0-or-later
// What the structured solvers (nslack, oneslack, fw, bcfw, ssg, online_mkl) share before their
// first step: the problem, its training model, the worker team of their passes, and the start
// of their constructors (the options, the problem, the team), written once.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "core/solver.h"
#include "structured/chain_model.h"
#include "structured/oracle_pass.h"
#include "structured/structured_snapshot.h"

namespace cplab {

class WorkerTeam;

class StructuredSolver : public Solver {
  public:
    ~StructuredSolver() override;

    const ChainModel& model() const { return *model_; }
    const StructuredProblem& problem() const { return problem_; }

  protected:
    StructuredSolver(StructuredProblem&& problem, const StopOptions& stop);

    // No check beyond the options and the problem (see startStructured).
    struct NoMoreChecks {
        std::string operator()() const { return {}; }
    };

    // The start of a structured solver's constructor: the options (acceptOptions), the
    // problem (validStructuredProblem, its messages under `solverName`), then `moreChecks()`
    // (a rejection message, or "" to go on: limits a solver puts on a valid problem), then
    // the worker team of `options.threads` (makeStructuredTeam, timed as set-up). False when
    // the solver has been rejected (by the first check that failed, in that order).
    template <class Options, class MoreChecks = NoMoreChecks>
    bool startStructured(const Options& options, const char* solverName,
                         MoreChecks&& moreChecks = {}) {
        if (!acceptOptions(options)) return false;
        std::string why;
        if (!validStructuredProblem(solverName, model_, problem_.test, &why)) {
            reject(why);
            return false;
        }
        if (why = moreChecks(); !why.empty()) {
            reject(why);
            return false;
        }
        startTeam(options.threads);
        return true;
    }

    // The steps the batch solvers (nslack, oneslack, fw), which know P of every iterate from
    // its oracle pass, share after a complete pass at w with P(w) = primal:
    //   takePassPrimal: counts the pass (++passes, the record's passes and n oracle calls);
    //   NumericalFailure ("the primal objective is not finite after pass
    //   <passes>") when P is not finite; else U = min(U, P), wBest = w where U falls, and L
    //   capped at U (the dual bound is certified by weak duality, but at the optimum it may
    //   come out a few ulps above U: the cap keeps it valid and the gap >= 0); Running.
    //   evaluateIfDue: the errors of w into `errors` when evaluationDue says so (its time
    //   into evalSeconds); whether it evaluated.
    Status takePassPrimal(double primal, int& passes, const Eigen::VectorXd& w,
                          Eigen::VectorXd& wBest, IterationRecord& record) const;
    bool evaluateIfDue(const Eigen::VectorXd& w, int passes, int evalEvery, const Interrupt& stop,
                       double& evalSeconds, StructuredErrors& errors) const;
    // finishRecord of the cutting-plane solvers: evaluateFinalErrors of w, then the note of
    // startWeightsNote(wBest, passes) when nothing was skipped.
    std::string finishWithErrors(const Eigen::VectorXd& w, const Eigen::VectorXd& wBest, int passes,
                                 const Status& status, double evalSeconds, StructuredErrors& errors,
                                 bool& evaluated, IterationRecord& record) const;
    // The iteration-0 record of a batch solver after its pass at w = 0 (n oracle calls):
    // U = P(0) = primal, L = 0 (D at the truth corners, R >= 0), the columns of
    // structuredColumnValues(primal, 0, gap, meanStep, errors) as evaluated.
    IterationRecord batchStartRecord(double primal, double gap, double meanStep,
                                     const StructuredErrors& errors) const;
    // A snapshot with the base fields (fillSnapshot) and, unless the solver was rejected, the
    // chain model at w with `progress` (fillStructuredSnapshot); the caller adds its lines.
    std::shared_ptr<StructuredSnapshot> chainSnapshot(double lambda, const Eigen::VectorXd& w,
                                                      const StructuredProgress& progress) const;
    // A batch solver's summary: lambda, primal, dual, duality_gap, passes, then the solver's
    // own fields, then the errors of wBest (addErrorFields).
    SummaryFields batchSummary(double lambda, double primal, double dual, double gap, int passes,
                               const SummaryFields& own, const Eigen::VectorXd& wBest) const;

    StructuredProblem problem_;
    std::shared_ptr<const ChainModel> model_;  // problem_.train
    std::unique_ptr<WorkerTeam> team_;         // of the passes (null: one thread)

  private:
    void startTeam(int threads);
};

}  // namespace cplab
