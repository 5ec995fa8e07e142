// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/ssg_ssvm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/worker_team.h"
#include "structured/oracle_pass.h"
#include "structured/sampling_pass.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "SsgOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Pseudocode line numbers (see SsgSolver::pseudocode()).
enum Line { kInput, kInit, kRepeat, kOrder, kOracle, kUpdate, kAverage, kBounds, kUntil, kReturn };

}  // namespace

void SsgOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    visitLambda(v, lambda);
    v.choice("sampling", sampling, {"permutation", "uniform"},
             "example order of a pass: a random permutation, or n examples drawn uniformly");
    v.choice("averaging", averaging, {"none", "uniform", "weighted"},
             "report the last iterate, the mean of the iterates, or their average with weights "
             "proportional to the update number");
    v.integer("eval_every", eval_every,
              "passes between evaluations of the primal P(w) (one more oracle pass each), >= 1");
    v.seed("seed", seed, "seed of the example order (>= 0)");
    v.integer("threads", threads, "threads of the evaluation passes (0: all cores)");
}

bool SsgOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why) &&
           requireText(sampling == "permutation" || sampling == "uniform", kOwner, "sampling",
                       sampling, "must be permutation or uniform", why) &&
           requireText(averaging == "none" || averaging == "uniform" || averaging == "weighted",
                       kOwner, "averaging", averaging, "must be none, uniform or weighted", why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

SsgSolver::SsgSolver(StructuredProblem problem, SsgOptions options)
    : StructuredSolver(std::move(problem), options.stop),
      options_(std::move(options)),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options_.seed, 0))) {
    if (!startStructured(options_, "SsgSolver")) return;
    SetupTimer timer(*this);
    const int n = model_->size();
    w_ = Eigen::VectorXd::Zero(model_->dimension());
    if (averaging()) wAvg_ = w_;
    order_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        order_[static_cast<std::size_t>(i)] = i;
    const auto start = std::chrono::steady_clock::now();
    if (costlyDecoding(*model_)) {
        // P(0) without minutes of decoding before the first iteration; the errors of w = 0 are
        // left unevaluated.
        OraclePass zero;
        zeroWeightPass(*model_, zero);
        lastPrimal_ = zero.meanHinge;
        lastErrors_ = startErrors(problem_, team_.get(), &evalSeconds_);
    } else {
        lastPrimal_ =
            0.5 * options_.lambda * w_.squaredNorm() + meanHinge(*model_, w_, team_.get());
        if (!std::isfinite(lastPrimal_)) {
            reject(
                "SsgSolver: the primal objective is not finite at w = 0 (data values too large?)");
            return;
        }
        lastErrors_ = evaluateErrors(problem_, w_, team_.get());
        evalSeconds_ =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    wBest_ = w_;
    IterationRecord initial;
    initial.oracleCalls = n;
    initial.passes = 0.0;
    initial.upper = lastPrimal_;
    initial.lower = -kInf;
    initial.extra = structuredColumnValues(lastPrimal_, kNaN, kNaN, 0.0, lastErrors_, true);
    setInitialRecord(initial);
}

SsgSolver::~SsgSolver() = default;

std::vector<std::string> SsgSolver::extraColumns() const {
    return structuredColumns();
}

std::vector<std::string> SsgSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), i = 1..n, lambda; oracle: loss-augmented Viterbi",
        "w <- 0;  w_avg <- 0;  t <- 0;  upper <- P(0);  lower <- -inf",
        "repeat                                                (one step = one pass)",
        "  for i in a random permutation of 1..n  (or n uniform draws)",
        "    y* <- argmax_y Delta(y_i, y) + <w, Psi(x_i, y)>     (oracle)",
        "    t <- t + 1;  gamma <- 1/t;  w <- (1 - gamma) w + gamma psi_i(y*) / lambda   "
        "(step 1/(lambda t))",
        "    w_avg <- w_avg + rho (w - w_avg),  rho = 2/(t+1) weighted, 1/t uniform",
        "  upper <- min(upper, P(w_avg))  every eval_every passes (one more oracle pass)",
        "until max_iterations passes               (lower stays -inf: no certificate)",
        "return w_best with P(w_best) = upper",
    };
}

double SsgSolver::update(int i) {
    model_->lossAugmentedDecode(w_, i, yHat_, ws_);
    ++t_;
    const double gamma = 1.0 / static_cast<double>(t_);
    // w − η(λw − ψᵢ(ŷ)) with η = 1/(λt): scale, then add ψᵢ(ŷ)·γ/λ on its nonzeros only.
    w_ *= 1.0 - gamma;
    model_->addPsiDifference(i, yHat_, gamma / options_.lambda, w_);
    if (averaging()) {
        const double rho =
            options_.averaging == "weighted" ? 2.0 / (static_cast<double>(t_) + 1.0) : gamma;
        wAvg_ += rho * (w_ - wAvg_);
    }
    return gamma;
}

Status SsgSolver::doStep(IterationRecord& record) {
    const int n = model_->size();
    const bool permute = options_.sampling == "permutation";
    if (permute) shuffleFromFront(order_, random_);
    const Interrupt stop = stepInterrupt();
    const PassProgress pass =
        runSamplingPass(n, stop, "SSG pass", "updates", [&](int k) -> std::optional<double> {
            return update(permute ? order_[static_cast<std::size_t>(k)]
                                  : static_cast<int>(random_.below(static_cast<std::uint64_t>(n))));
        });
    const int steps = pass.steps;
    record.oracleCalls += steps;
    record.lower = -kInf;
    lastMeanStep_ = pass.meanStep();
    if (steps < n) {
        record.passes = passes_ + static_cast<double>(steps) / n;
        record.extra = structuredColumnValues(kNaN, kNaN, kNaN, lastMeanStep_, lastErrors_, false);
        evaluatedLast_ = false;
        return interruptedStatus(stop, stopOptions(),
                                 "pass " + std::to_string(passes_ + 1) + ", after " +
                                     std::to_string(steps) + " of its " + std::to_string(n) +
                                     " updates");
    }
    ++passes_;
    record.passes = passes_;
    evaluatedLast_ = evaluationDue(passes_, options_.eval_every, stop, evalSeconds_);
    double primal = kNaN;
    if (evaluatedLast_) {
        const auto start = std::chrono::steady_clock::now();
        const Eigen::VectorXd& w = reportedWeights();
        primal = 0.5 * options_.lambda * w.squaredNorm() + meanHinge(*model_, w, team_.get());
        record.oracleCalls += n;
        if (!std::isfinite(primal)) {
            return Status::make(StatusCode::NumericalFailure,
                                "the primal objective is not finite after pass " +
                                    std::to_string(passes_) +
                                    " (lambda too small for the step 1/(lambda t)?)");
        }
        lastPrimal_ = primal;
        lastErrors_ = evaluateErrors(problem_, w, team_.get());
        evalSeconds_ =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (primal < record.upper) {
            record.upper = primal;
            wBest_ = w;
        }
    }
    record.extra =
        structuredColumnValues(primal, kNaN, kNaN, lastMeanStep_, lastErrors_, evaluatedLast_);
    return Status::running();
}

std::string SsgSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected()) return {};
    if (!evaluatedLast_) {
        if (!finalEvaluationAffordable(status, evalSeconds_, stopOptions()))
            return skippedEvaluationNote(evalSeconds_);
        const Eigen::VectorXd& w = reportedWeights();
        const double primal =
            0.5 * options_.lambda * w.squaredNorm() + meanHinge(*model_, w, team_.get());
        if (!std::isfinite(primal)) {
            throw std::runtime_error("the primal objective of the final iterate is not finite");
        }
        record.oracleCalls += model_->size();
        lastPrimal_ = primal;
        lastErrors_ = evaluateErrors(problem_, w, team_.get());
        if (primal < record.upper) {
            record.upper = primal;
            wBest_ = w;
        }
        record.extra = structuredColumnValues(primal, kNaN, kNaN, lastMeanStep_, lastErrors_, true);
        evaluatedLast_ = true;
    }
    return startWeightsNote(wBest_, passes_);
}

SummaryFields SsgSolver::summary() const {
    if (rejected()) return {};
    SummaryFields fields = {{"lambda", options_.lambda},
                            {"primal", lastPrimal_},
                            {"passes", static_cast<long long>(passes_)},
                            {"updates", static_cast<long long>(t_)},
                            {"averaging", options_.averaging}};
    addErrorFields(problem_, wBest_, team_.get(), fields, status(), stopOptions());
    return fields;
}

SnapshotPtr SsgSolver::snapshot() const {
    auto snap = chainSnapshot(
        options_.lambda, reportedWeights(),
        {lastPrimal_, kNaN, kNaN, static_cast<double>(passes_), lastMeanStep_, lastErrors_});
    if (rejected()) return snap;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
        return snap;
    }
    snap->executedLines = {kRepeat, kOrder, kOracle, kUpdate};
    if (averaging()) snap->executedLines.push_back(kAverage);
    if (evaluatedLast_) snap->executedLines.push_back(kBounds);
    snap->executedLines.push_back(kUntil);
    return snap;
}

}  // namespace cplab
