// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/n_slack_ssvm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.h"
#include "core/worker_team.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "NSlackOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Blocks between looks at the cancel token during a sweep.
constexpr int kCancelCheck = 64;
// The working-set QP is solved to this fraction of the last outer gap (or qp_tolerance).
constexpr double kInexactFraction = 0.1;
// Shrinking: after a full sweep, up to kInnerSweeps sweeps over the blocks whose gap exceeded
// kActiveFraction times the sweep's target.
constexpr int kInnerSweeps = 10;
constexpr double kActiveFraction = 0.5;

// Pseudocode line numbers (see NSlackSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kFirstPass,
    kRepeat,
    kSweep,
    kBlock,
    kOracle,
    kSlack,
    kAdd,
    kBounds,
    kUntil,
    kReturn
};

}  // namespace

void NSlackOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    visitLambda(v, lambda);
    v.real("epsilon_constraint", epsilon_constraint,
           "add a labelling to its working set when it violates by more than xi_i + this, >= 0");
    v.real("qp_tolerance", qp_tolerance,
           "duality gap of the working-set QP at which its sweeps stop (times max(1, |D|)), "
           "in (0, 1)");
    v.integer("max_sweeps", max_sweeps, "sweeps over the blocks per QP solve, >= 1");
    visitBatchEvaluation(v, eval_every, threads);
}

bool NSlackOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why) &&
           require(std::isfinite(epsilon_constraint) && epsilon_constraint >= 0, kOwner,
                   "epsilon_constraint", epsilon_constraint, "must be >= 0 and finite", why) &&
           require(std::isfinite(qp_tolerance) && qp_tolerance > 0 && qp_tolerance < 1, kOwner,
                   "qp_tolerance", qp_tolerance, "must lie in (0, 1)", why) &&
           require(max_sweeps >= 1, kOwner, "max_sweeps", max_sweeps, "must be >= 1", why);
}

NSlackSolver::NSlackSolver(StructuredProblem problem, NSlackOptions options)
    : StructuredSolver(std::move(problem), options.stop), options_(std::move(options)) {
    if (!startStructured(options_, "NSlackSolver")) return;
    SetupTimer timer(*this);
    const int D = model_->dimension();
    // The exact block solves: a block's own gap ends far below the sweep tolerance.
    SimplexQpOptions blockOptions;
    blockOptions.tolerance = std::max(1e-3 * options_.qp_tolerance, 1e-15);
    blocks_.resize(static_cast<std::size_t>(model_->size()), Block{{}, SimplexQp(blockOptions)});
    w_ = Eigen::VectorXd::Zero(D);
    scratch_ = Eigen::VectorXd::Zero(D);
    oraclePassAt(*model_, w_, team_.get(), nullptr, pass_,
                 problem_.communicator.get());  // nothing is polled here
    primal_ = 0.5 * options_.lambda * w_.squaredNorm() + pass_.meanHinge;
    if (!std::isfinite(primal_)) {
        reject(
            "NSlackSolver: the primal objective is not finite at w = 0 (data values too "
            "large?)");
        return;
    }
    lastAdded_ = addConstraints();
    lastErrors_ = startErrors(problem_, team_.get(), &evalSeconds_);
    wBest_ = w_;
    IterationRecord initial = batchStartRecord(primal_, primal_, kNaN, lastErrors_);
    initial.extra.insert(initial.extra.end(),
                         {static_cast<double>(constraints_), static_cast<double>(lastAdded_), 0.0});
    setInitialRecord(initial);
}

NSlackSolver::~NSlackSolver() = default;

std::vector<std::string> NSlackSolver::extraColumns() const {
    std::vector<std::string> columns = structuredColumns();
    columns.insert(columns.end(), {"constraints", "added", "sweeps"});
    return columns;
}

std::vector<std::string> NSlackSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), i = 1..n, lambda, eps; oracle: loss-augmented Viterbi",
        "w <- 0;  W_i <- {} for all i                  (alpha_i on the truth y_i)",
        "y*_i <- oracle(0) for all i;  add the violated ones;  upper <- P(0)",
        "repeat                                  (one step = QP re-solve + one pass)",
        "  repeat sweep over the blocks i = 1..n until the working-set gap <= qp_tolerance",
        "    alpha_i <- argmax D over the simplex of {y_i} u W_i   (exact block QP)",
        "  y*_i <- argmax_y Delta(y_i, y) + <w, Psi(x_i, y)> for all i   (n oracle calls)",
        "  xi_i <- max(0, max_{y in W_i} Delta(y_i, y) - <w, psi_i(y)>)",
        "  if H_i(w) > xi_i + eps:  W_i <- W_i u {y*_i}",
        "  upper <- min(upper, P(w));  lower <- max(lower, D(alpha) = -lambda/2 |w|^2 + l)",
        "until upper - lower <= eps_stop  (or no constraint added: stalled)",
        "return w_best with P(w_best) = upper",
    };
}

double NSlackSolver::dualValue() const {
    return -0.5 * options_.lambda * w_.squaredNorm() + loss_;
}

int NSlackSolver::workingSetSize(int i) const {
    return static_cast<int>(blocks_[static_cast<std::size_t>(i)].constraints.size());
}

double NSlackSolver::blockViolations(int i, Eigen::VectorXd& h) const {
    const Block& block = blocks_[static_cast<std::size_t>(i)];
    const int t = static_cast<int>(block.constraints.size());
    h.resize(t + 1);
    h(0) = 0.0;
    if (t == 0) return 0.0;
    const SequenceData& data = model_->data();
    const SequenceData::SparseMatrix& X = data.features;
    const int first = data.first(i), T = model_->length(i), L = model_->labelCount();
    const long long tokenEntries = X.outerIndexPtr()[first + T] - X.outerIndexPtr()[first];
    if (static_cast<long long>(L) * (tokenEntries + T) < block.psiEntries) {
        // The table of unary scores, then each labelling's score in O(T).
        unary_.resize(T, L);
        for (int s = 0; s < T; ++s) {
            const int* index = X.innerIndexPtr() + X.outerIndexPtr()[first + s];
            const double* value = X.valuePtr() + X.outerIndexPtr()[first + s];
            const int nnz = X.outerIndexPtr()[first + s + 1] - X.outerIndexPtr()[first + s];
            for (int l = 0; l < L; ++l) {
                const double* wl = w_.data() + model_->emissionIndex(l, 0);
                double score = w_[model_->biasIndex(l)];
                for (int k = 0; k < nnz; ++k)
                    score += wl[index[k]] * value[k];
                unary_(s, l) = score;
            }
        }
        const bool transitions = model_->options().transitions;
        auto score = [&](std::span<const int> y) {
            double total = 0.0;
            for (int s = 0; s < T; ++s) {
                total += unary_(s, y[static_cast<std::size_t>(s)]);
                if (transitions && s + 1 < T)
                    total += w_[model_->transitionIndex(y[static_cast<std::size_t>(s)],
                                                        y[static_cast<std::size_t>(s + 1)])];
            }
            return total;
        };
        const double truthScore = score(model_->truth(i));
        for (int k = 0; k < t; ++k) {
            const Constraint& c = block.constraints[static_cast<std::size_t>(k)];
            h(k + 1) = c.loss - (truthScore - score(c.y));
        }
    } else {
        for (int k = 0; k < t; ++k) {
            const Constraint& c = block.constraints[static_cast<std::size_t>(k)];
            double margin = 0.0;
            for (Eigen::SparseVector<double>::InnerIterator it(c.psi); it; ++it)
                margin += it.value() * w_[it.index()];
            h(k + 1) = c.loss - margin;
        }
    }
    return h.maxCoeff() - block.qp.alpha().dot(h);
}

void NSlackSolver::solveBlock(int i, const Eigen::VectorXd& h) {
    Block& block = blocks_[static_cast<std::size_t>(i)];
    const Eigen::VectorXd before = block.qp.alpha();
    // cᵢ = Δ − ⟨w₋ᵢ, ψ⟩ = h + ⟨wᵢ, ψ⟩ = h + (Kᵢ/(λn)) αᵢ.
    block.qp.setLinearTerm(h + block.qp.hessian() * before);
    block.qp.solve();
    const Eigen::VectorXd& after = block.qp.alpha();
    const double n = model_->size();
    const double scale = 1.0 / (options_.lambda * n);
    for (std::size_t k = 0; k < block.constraints.size(); ++k) {
        const double delta =
            after(static_cast<Eigen::Index>(k) + 1) - before(static_cast<Eigen::Index>(k) + 1);
        if (delta == 0.0) continue;
        const Constraint& c = block.constraints[k];
        for (Eigen::SparseVector<double>::InnerIterator it(c.psi); it; ++it)
            w_[it.index()] += delta * scale * it.value();
        loss_ += delta * c.loss / n;
    }
}

NSlackSolver::QpEnd NSlackSolver::resolve() {
    const int n = model_->size();
    // Blocks whose gap is below this are left alone: they add at most a tenth of the
    // tolerance to the total.
    const double blockTolerance = 0.1 * options_.qp_tolerance;
    Eigen::VectorXd h;
    std::vector<int> active;
    lastSweeps_ = 0;
    while (lastSweeps_ < options_.max_sweeps) {
        // Inexact early: while the outer gap P(w) − D(α) of the last pass is large, a QP
        // solved to a tenth of it is as good for choosing the next w (the bounds are valid
        // either way); the target falls to qp_tolerance as the outer gap closes.
        const double tolerance = options_.qp_tolerance * std::max(1.0, std::abs(dualValue()));
        const double target = std::max(tolerance, kInexactFraction * (primal_ - dual_));
        // A full sweep: every block, the measure of the QP's gap.
        ++lastSweeps_;
        double total = 0.0;
        active.clear();
        for (int i = 0; i < n; ++i) {
            if (i % kCancelCheck == kCancelCheck - 1 && cancelToken().cancelled())
                return QpEnd::Cancelled;
            if (blocks_[static_cast<std::size_t>(i)].constraints.empty()) continue;
            const double gap = blockViolations(i, h);
            total += gap;
            if (gap > blockTolerance) solveBlock(i, h);
            if (gap > kActiveFraction * target) active.push_back(i);
        }
        if (total / n <= tolerance) return QpEnd::Converged;
        if (total / n <= target) return QpEnd::Inexact;
        // Shrinking: a few sweeps over the blocks that carried the gap only (in the tail most
        // blocks are optimal to within the target, and measuring them is most of the work).
        for (int inner = 0;
             inner < kInnerSweeps && !active.empty() && lastSweeps_ < options_.max_sweeps;
             ++inner) {
            ++lastSweeps_;
            if (cancelToken().cancelled()) return QpEnd::Cancelled;
            double activeTotal = 0.0;
            std::size_t kept = 0;
            for (const int i : active) {
                const double gap = blockViolations(i, h);
                activeTotal += gap;
                if (gap > blockTolerance) solveBlock(i, h);
                if (gap > kActiveFraction * target) active[kept++] = i;
            }
            active.resize(kept);
            if (activeTotal / n <= kActiveFraction * target) break;
        }
    }
    return QpEnd::SweepLimit;
}

int NSlackSolver::addConstraints() {
    const int n = model_->size();
    const double scale = 1.0 / (options_.lambda * n);
    Eigen::VectorXd h;
    int added = 0;
    for (int i = 0; i < n; ++i) {
        const std::size_t s = static_cast<std::size_t>(i);
        Block& block = blocks_[s];
        blockViolations(i, h);
        const double xi = std::max(0.0, h.maxCoeff());
        if (!(pass_.hinge[s] > xi + options_.epsilon_constraint)) continue;
        const std::span<const int> y = pass_.labelling(*model_, i);
        const bool known = std::any_of(
            block.constraints.begin(), block.constraints.end(),
            [&](const Constraint& c) { return std::equal(c.y.begin(), c.y.end(), y.begin()); });
        if (known) continue;  // violated beyond ξᵢ only by rounding
        Constraint c;
        c.y.assign(y.begin(), y.end());
        c.loss = pass_.loss[s];
        model_->addPsiDifference(i, y, 1.0, scratch_);
        c.psi.resize(scratch_.size());
        for (Eigen::Index k = 0; k < scratch_.size(); ++k) {
            if (scratch_[k] != 0.0) {
                c.psi.insertBack(k) = scratch_[k];
                scratch_[k] = 0.0;
            }
        }
        if (block.constraints.empty()) block.qp.addVariable(Eigen::VectorXd::Zero(1), 0.0);
        const int t = static_cast<int>(block.constraints.size());
        Eigen::VectorXd column(t + 2);
        column(0) = 0.0;  // ψᵢ(yᵢ) = 0
        for (int k = 0; k < t; ++k)
            column(k + 1) = block.constraints[static_cast<std::size_t>(k)].psi.dot(c.psi) * scale;
        column(t + 1) = c.psi.squaredNorm() * scale;
        block.qp.addVariable(column, c.loss);
        block.psiEntries += c.psi.nonZeros();
        block.constraints.push_back(std::move(c));
        ++added;
    }
    constraints_ += added;
    return added;
}

void NSlackSolver::recomputeFromAlpha() {
    const int n = model_->size();
    const double scale = 1.0 / (options_.lambda * n);
    w_.setZero();
    loss_ = 0.0;
    for (const Block& block : blocks_) {
        if (block.constraints.empty()) continue;
        const Eigen::VectorXd& alpha = block.qp.alpha();
        for (std::size_t k = 0; k < block.constraints.size(); ++k) {
            const double a = alpha(static_cast<Eigen::Index>(k) + 1);
            if (a == 0.0) continue;
            const Constraint& c = block.constraints[k];
            for (Eigen::SparseVector<double>::InnerIterator it(c.psi); it; ++it)
                w_[it.index()] += a * scale * it.value();
            loss_ += a * c.loss / n;
        }
    }
}

Status NSlackSolver::doStep(IterationRecord& record) {
    recomputeFromAlpha();
    const QpEnd end = resolve();
    qpConverged_ = end == QpEnd::Converged;
    dual_ = dualValue();
    if (!std::isfinite(dual_)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "the dual objective is not finite after pass " + std::to_string(passes_));
    }
    record.lower = std::min(std::max(record.lower, dual_), record.upper);
    const Interrupt stop = stepInterrupt();
    if (end == QpEnd::Cancelled ||
        !runOraclePass(*model_, w_, team_.get(), &stop, pass_, problem_.communicator.get())) {
        record.passes = passes_;
        record.extra = structuredColumnValues(kNaN, dual_, kNaN, kNaN, lastErrors_, false);
        record.extra.insert(record.extra.end(), {static_cast<double>(constraints_), 0.0,
                                                 static_cast<double>(lastSweeps_)});
        evaluatedLast_ = false;
        if (end == QpEnd::Cancelled) {
            return Status::make(StatusCode::Cancelled,
                                "stopped by the user during the working-set QP of step " +
                                    std::to_string(passes_ + 1));
        }
        return interruptedStatus(stop, stopOptions(),
                                 "the oracle pass " + std::to_string(passes_ + 1),
                                 " (the reported w is the best evaluated one, whose P is U)");
    }
    primal_ = 0.5 * options_.lambda * w_.squaredNorm() + pass_.meanHinge;
    if (const Status failed = takePassPrimal(primal_, passes_, w_, wBest_, record);
        failed.finished())
        return failed;
    lastAdded_ = addConstraints();
    if (lastAdded_ > 0) {
        noteEvent(ConstraintsAdded, std::to_string(lastAdded_) +
                                        (lastAdded_ == 1 ? " constraint" : " constraints") +
                                        " added (" + std::to_string(constraints_) + " in all)");
    }
    evaluatedLast_ =
        evaluateIfDue(w_, passes_, options_.eval_every, stop, evalSeconds_, lastErrors_);
    record.extra =
        structuredColumnValues(primal_, dual_, primal_ - dual_, kNaN, lastErrors_, evaluatedLast_);
    record.extra.insert(record.extra.end(),
                        {static_cast<double>(constraints_), static_cast<double>(lastAdded_),
                         static_cast<double>(lastSweeps_)});
    const double gap = record.upper - record.lower;
    if (lastAdded_ == 0 && qpConverged_ && !stopOptions().gapReached(gap, record.upper)) {
        return Status::make(StatusCode::Stalled,
                            "no labelling violates its constraint by more than "
                            "epsilon_constraint = " +
                                formatReal(options_.epsilon_constraint) +
                                " and the working-set QP is solved to qp_tolerance = " +
                                formatReal(options_.qp_tolerance) + "; the gap " + formatReal(gap) +
                                " stays open: lower epsilon_constraint or qp_tolerance");
    }
    return Status::running();
}

double NSlackSolver::workingSetGap() const {
    Eigen::VectorXd h;
    double total = 0.0;
    for (int i = 0; i < model_->size(); ++i)
        total += blockViolations(i, h);
    return total / model_->size();
}

std::string NSlackSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected()) return {};
    return finishWithErrors(w_, wBest_, passes_, status, evalSeconds_, lastErrors_, evaluatedLast_,
                            record);
}

SummaryFields NSlackSolver::summary() const {
    if (rejected()) return {};
    return batchSummary(options_.lambda, primal_, dual_, primal_ - dual_, passes_,
                        {{"constraints", constraints_}}, wBest_);
}

SnapshotPtr NSlackSolver::snapshot() const {
    auto snap = chainSnapshot(
        options_.lambda, w_,
        {primal_, dual_, primal_ - dual_, static_cast<double>(passes_), kNaN, lastErrors_});
    if (rejected()) return snap;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit, kFirstPass};
        return snap;
    }
    snap->executedLines = {kRepeat, kSweep, kBlock, kOracle, kSlack};
    if (lastAdded_ > 0) snap->executedLines.push_back(kAdd);
    snap->executedLines.push_back(kBounds);
    snap->executedLines.push_back(kUntil);
    if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    return snap;
}

}  // namespace cplab
