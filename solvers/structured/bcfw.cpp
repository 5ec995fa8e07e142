// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/bcfw.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

#include "core/memory_budget.h"
#include "core/worker_team.h"
#include "structured/oracle_pass.h"
#include "structured/sampling_pass.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "BcfwOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The block vectors may take at most this many doubles (4 GB): beyond, the solver refuses the
// problem with a message instead of failing to allocate.
constexpr long long kMaxBlockEntries = 1LL << 26;  // 512 MB of block vectors

// Pseudocode line numbers (see BcfwSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kRepeat,
    kOrder,
    kOracle,
    kCorner,
    kGap,
    kStep,
    kUpdate,
    kBounds,
    kUntil,
    kReturn
};

}  // namespace

void BcfwOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.real("lambda", lambda,
           "regularisation lambda of lambda/2 |w|^2 + mean structured hinge, > 0");
    v.choice("sampling", sampling, {"permutation", "uniform"},
             "block order of a pass: a random permutation, or n blocks drawn uniformly");
    v.integer("eval_every", eval_every,
              "passes between evaluations of the primal P(w) (one more oracle pass each), >= 1");
    v.seed("seed", seed, "seed of the block order (>= 0)");
    v.integer("threads", threads, "threads of the evaluation passes (0: all cores)");
    v.boolean("averaging", averaging,
              "report the weighted average of the iterates (weights proportional to the step)");
}

bool BcfwOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why) &&
           requireText(sampling == "permutation" || sampling == "uniform", kOwner, "sampling",
                       sampling, "must be permutation or uniform", why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

BcfwSolver::BcfwSolver(StructuredProblem problem, BcfwOptions options)
    : Solver(options.stop),
      problem_(std::move(problem)),
      model_(problem_.train),
      options_(std::move(options)),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options_.seed, 0))) {
    std::string why;
    if (!options_.isValid(&why)) {
        reject(why);
        return;
    }
    if (!validStructuredProblem("BcfwSolver", model_, problem_.test, &why)) {
        reject(why);
        return;
    }
    const int n = model_->size();
    const int D = model_->dimension();
    if (static_cast<long long>(n) * D > kMaxBlockEntries) {
        reject("BcfwSolver: " + std::to_string(n) + " examples x " + std::to_string(D) +
               " weights need " + std::to_string(static_cast<long long>(n) * D * 8 >> 20) +
               " MB of block vectors, more than the " + std::to_string(kMaxBlockEntries * 8 >> 20) +
               " MB allowed");
        return;
    }
    if (const std::string shortfall = memoryShortfall(
            8.0 * n * D, sizeProduct({{double(n), "examples"}, {double(D), "weights"}}) +
                             " block vectors, 8 B each");
        !shortfall.empty()) {
        reject("BcfwSolver: " + shortfall);
        return;
    }
    SetupTimer timer(*this);
    const int threads = options_.threads > 0
                            ? options_.threads
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    if (threads > 1) team_ = std::make_unique<WorkerTeam>(threads);
    blocks_ = Eigen::MatrixXd::Zero(D, n);
    blockLoss_.assign(static_cast<std::size_t>(n), 0.0);
    visitGaps_.assign(static_cast<std::size_t>(n), kNaN);
    w_ = Eigen::VectorXd::Zero(D);
    if (averaging()) wAvg_ = w_;
    corner_.resize(D);
    order_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        order_[static_cast<std::size_t>(i)] = i;

    double primal = 0.0;
    if (costlyDecoding(*model_)) {
        // P(0) without minutes of decoding before the first iteration; the errors of w = 0 are
        // left unevaluated.
        OraclePass zero;
        zeroWeightPass(*model_, zero);
        primal = zero.meanHinge;
        lastErrors_ = startErrors(problem_, team_.get(), &evalSeconds_);
    } else if (!evaluate(primal)) {
        reject("BcfwSolver: the primal objective is not finite at w = 0 (data values too large?)");
        return;
    }
    wBest_ = averagedWeights();
    lastPrimal_ = primal;
    lastDual_ = 0.0;
    lastGap_ = primal;
    IterationRecord initial;
    initial.oracleCalls = n;
    initial.passes = 0.0;
    initial.upper = primal;
    initial.lower = 0.0;  // D at the truth corners
    initial.extra = structuredColumnValues(primal, 0.0, primal, 0.0, lastErrors_, true);
    setInitialRecord(initial);
}

BcfwSolver::~BcfwSolver() = default;

std::vector<std::string> BcfwSolver::extraColumns() const {
    return structuredColumns();
}

std::vector<std::string> BcfwSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), i = 1..n, lambda; oracle: loss-augmented Viterbi",
        "w <- 0, l <- 0; w_i <- 0, l_i <- 0 for every i          (alpha_i on the truth y_i)",
        "repeat                                                (one step = one pass)",
        "  for i in a random permutation of 1..n  (or n uniform draws)",
        "    y* <- argmax_y Delta(y_i, y) + <w, Psi(x_i, y)>     (oracle)",
        "    w_s <- psi_i(y*) / (lambda n);  l_s <- Delta(y_i, y*) / n",
        "    gap_i <- lambda <w_i - w_s, w> - l_i + l_s",
        "    gamma <- clip(gap_i / (lambda |w_i - w_s|^2), 0, 1)    (exact line search)",
        "    w_i' <- (1 - gamma) w_i + gamma w_s;  l_i' <- (1 - gamma) l_i + gamma l_s;  "
        "w <- w + w_i' - w_i;  l <- l + l_i' - l_i  [averaging: w_avg <- w_avg + 2/(k+2) "
        "(w - w_avg)]",
        "  upper <- min(upper, P(w));  lower <- max(lower, D = -lambda/2 |w|^2 + l)  "
        "(P: one more oracle pass)",
        "until upper - lower <= eps                             (P(w) - D = sum_i gap_i)",
        "return w_best with P(w_best) = upper",
    };
}

double BcfwSolver::dualValue() const {
    return -0.5 * options_.lambda * w_.squaredNorm() + loss_;
}

double BcfwSolver::averagedDualValue() const {
    return -0.5 * options_.lambda * averagedWeights().squaredNorm() + averagedLoss();
}

double BcfwSolver::primalValue(const Eigen::VectorXd& w) const {
    return 0.5 * options_.lambda * w.squaredNorm() + meanHinge(*model_, w, team_.get());
}

std::vector<double> BcfwSolver::blockGaps() const {
    const int n = model_->size();
    const double lambda = options_.lambda;
    ChainWorkspace ws;
    std::vector<int> y;
    Eigen::VectorXd corner(model_->dimension());
    std::vector<double> gaps(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        model_->lossAugmentedDecode(w_, i, y, ws);
        corner.setZero();
        model_->addPsiDifference(i, y, 1.0 / (lambda * n), corner);
        gaps[static_cast<std::size_t>(i)] = lambda * (blocks_.col(i) - corner).dot(w_) -
                                            blockLoss_[static_cast<std::size_t>(i)] +
                                            model_->loss(i, y) / n;
    }
    return gaps;
}

double BcfwSolver::blockStep(int i) {
    const int n = model_->size();
    const double lambda = options_.lambda;
    model_->lossAugmentedDecode(w_, i, yHat_, ws_);
    corner_.setZero();
    model_->addPsiDifference(i, yHat_, 1.0 / (lambda * n), corner_);
    const double cornerLoss = model_->loss(i, yHat_) / n;
    double& li = blockLoss_[static_cast<std::size_t>(i)];

    double* wi = blocks_.col(i).data();
    const double* ws = corner_.data();
    double* w = w_.data();
    const Eigen::Index D = w_.size();
    double along = 0.0;    // ⟨wᵢ − w_s, w⟩
    double squared = 0.0;  // ‖wᵢ − w_s‖²
    for (Eigen::Index k = 0; k < D; ++k) {
        const double diff = wi[k] - ws[k];
        along += diff * w[k];
        squared += diff * diff;
    }
    const double gap = lambda * along - li + cornerLoss;
    visitGaps_[static_cast<std::size_t>(i)] = gap;
    // Exact line search of the dual along the block direction w_s − wᵢ: D is a concave
    // quadratic in γ with slope gapᵢ at 0 and curvature λ‖wᵢ − w_s‖². With a zero
    // curvature the direction changes only ℓ: go all the way when that raises D.
    const double gamma =
        squared > 0.0 ? std::clamp(gap / (lambda * squared), 0.0, 1.0) : (gap > 0.0 ? 1.0 : 0.0);
    if (gamma > 0.0) {
        for (Eigen::Index k = 0; k < D; ++k) {
            const double updated = wi[k] + gamma * (ws[k] - wi[k]);
            w[k] += updated - wi[k];
            wi[k] = updated;
        }
        const double updatedLoss = li + gamma * (cornerLoss - li);
        loss_ += updatedLoss - li;
        li = updatedLoss;
    }
    if (averaging()) {
        // Every iterate counts, moved or not (γ = 0), as in the paper's code.
        const double rho = 2.0 / (static_cast<double>(blockSteps_) + 2.0);
        wAvg_ += rho * (w_ - wAvg_);
        lossAvg_ += rho * (loss_ - lossAvg_);
    }
    ++blockSteps_;
    return gamma;
}

bool BcfwSolver::evaluate(double& primal) {
    const auto start = std::chrono::steady_clock::now();
    w_ = blocks_.rowwise().sum();
    loss_ = 0.0;
    for (const double li : blockLoss_)
        loss_ += li;
    const Eigen::VectorXd& reported = averagedWeights();
    primal = primalValue(reported);
    lastErrors_ = evaluateErrors(problem_, reported, team_.get());
    evalSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::isfinite(primal);
}

Status BcfwSolver::doStep(IterationRecord& record) {
    const int n = model_->size();
    const bool permute = options_.sampling == "permutation";
    if (permute) shuffleFromFront(order_, random_);
    const Interrupt stop = stepInterrupt();
    // A pass over thousands of words takes a while: the user or the time limit may stop it in
    // between. Every block step leaves a feasible α, so the run stops with valid bounds.
    const PassProgress pass =
        runSamplingPass(n, stop, "BCFW pass", "block steps", [&](int k) -> std::optional<double> {
            return blockStep(permute
                                 ? order_[static_cast<std::size_t>(k)]
                                 : static_cast<int>(random_.below(static_cast<std::uint64_t>(n))));
        });
    const int steps = pass.steps;
    record.oracleCalls += steps;
    lastMeanStep_ = pass.meanStep();
    if (steps < n) {
        record.passes = passes_ + static_cast<double>(steps) / n;
        lastDual_ = averagedDualValue();
        record.lower = std::min(std::max({record.lower, dualValue(), lastDual_}), record.upper);
        record.extra =
            structuredColumnValues(kNaN, lastDual_, kNaN, lastMeanStep_, lastErrors_, false);
        evaluatedLast_ = false;
        return interruptedStatus(stop, stopOptions(),
                                 "pass " + std::to_string(passes_ + 1) + ", after " +
                                     std::to_string(steps) + " of its " + std::to_string(n) +
                                     " block steps");
    }
    ++passes_;
    record.passes = passes_;

    evaluatedLast_ = evaluationDue(passes_, options_.eval_every, stop, evalSeconds_);
    double primal = kNaN;
    if (evaluatedLast_) {
        if (!evaluate(primal)) {
            return Status::make(
                StatusCode::NumericalFailure,
                "the primal objective is not finite after pass " + std::to_string(passes_));
        }
        record.oracleCalls += n;
        lastPrimal_ = primal;
        lastGap_ = primal - averagedDualValue();
        if (primal < record.upper) {
            record.upper = primal;
            wBest_ = averagedWeights();
        }
    }
    lastDual_ = averagedDualValue();
    const double currentDual = dualValue();
    if (!std::isfinite(lastDual_) || !std::isfinite(currentDual)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "the dual objective is not finite after pass " + std::to_string(passes_));
    }
    // D(α) is certified by weak duality for every feasible α; at the optimum it may come out
    // a few ulps above U, and min P ≤ U, so the cap keeps the bound valid and the gap ≥ 0.
    record.lower = std::min(std::max({record.lower, currentDual, lastDual_}), record.upper);
    record.extra =
        structuredColumnValues(primal, lastDual_, evaluatedLast_ ? primal - lastDual_ : kNaN,
                               lastMeanStep_, lastErrors_, evaluatedLast_);
    return Status::running();
}

std::string BcfwSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected()) return {};
    if (!evaluatedLast_) {
        if (!finalEvaluationAffordable(status, evalSeconds_, stopOptions()))
            return skippedEvaluationNote(evalSeconds_);
        double primal = kNaN;
        if (!evaluate(primal)) {
            throw std::runtime_error("the primal objective of the final iterate is not finite");
        }
        record.oracleCalls += model_->size();
        lastPrimal_ = primal;
        lastDual_ = averagedDualValue();
        lastGap_ = primal - lastDual_;
        if (primal < record.upper) {
            record.upper = primal;
            wBest_ = averagedWeights();
        }
        record.lower = std::min(record.lower, record.upper);
        record.extra =
            structuredColumnValues(primal, lastDual_, lastGap_, lastMeanStep_, lastErrors_, true);
        evaluatedLast_ = true;
    }
    return startWeightsNote(wBest_, passes_);
}

SummaryFields BcfwSolver::summary() const {
    if (rejected()) return {};
    // The letter errors of the best weights (U = P(wBest)): one decoding pass each.
    SummaryFields fields = {{"lambda", options_.lambda},
                            {"primal", lastPrimal_},
                            {"dual", lastDual_},
                            {"duality_gap", lastGap_},
                            {"passes", static_cast<long long>(passes_)},
                            {"averaging", std::string(averaging() ? "on" : "off")}};
    addErrorFields(problem_, wBest_, team_.get(), fields);
    return fields;
}

SnapshotPtr BcfwSolver::snapshot() const {
    auto snap = std::make_shared<StructuredSnapshot>();
    fillSnapshot(*snap);
    if (rejected()) return snap;
    const StructuredProgress progress{
        lastPrimal_, lastDual_, lastGap_, static_cast<double>(passes_), lastMeanStep_, lastErrors_};
    fillStructuredSnapshot(problem_, options_.lambda, averagedWeights(), progress, *snap);
    snap->wordGaps = visitGaps_;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
        return snap;
    }
    snap->executedLines = {kRepeat, kOrder, kOracle, kCorner, kGap, kStep, kUpdate};
    if (evaluatedLast_) snap->executedLines.push_back(kBounds);
    snap->executedLines.push_back(kUntil);
    if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    return snap;
}

}  // namespace cplab
