// SPDX-License-Identifier: GPL-3.0-or-later
#include "dcd.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr const char* kOwner = "DcdOptions";

// Pseudocode line numbers (see DcdSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kRepeat,
    kPermute,
    kGradient,
    kShrink,
    kUpdate,
    kUnshrink,
    kResync,
    kBounds,
    kUntil,
    kReturn
};

}  // namespace

void DcdOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    model.visit(v);
    v.boolean("shrinking", shrinking,
              "drop dual variables stuck at a bound from the epochs, as LIBLINEAR does");
    v.seed("seed", seed, "seed of the random permutation of every epoch (>= 0)");
}

bool DcdOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && model.isValid(kOwner, why) &&
           requireText(model.risk == "hinge" || model.risk == "squared_hinge", kOwner, "risk",
                       model.risk,
                       "must be hinge (L1-loss SVM) or squared_hinge (L2-loss SVM): dual "
                       "coordinate descent solves only their duals",
                       why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

DcdSolver::DcdSolver(const LinearProblem& problem, DcdOptions options)
    : LinearSvmSolver(problem, options.model, options.stop, kOwner),
      dcdOptions_(options),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options.seed, 0))) {
    if (!acceptOptions(dcdOptions_)) return;

    SetupTimer timer(*this);
    const Dataset& data = *problem_.train;
    const int m = data.size();
    d_ = data.dimension();
    bias_ = dcdOptions_.model.bias;
    const double c = C();
    if (dcdOptions_.model.risk == "hinge") {
        boxBound_ = c;
        diag_ = 0.0;
    } else {
        boxBound_ = kInf;
        diag_ = 0.5 / c;
    }
    alpha_ = Eigen::VectorXd::Zero(m);
    w_ = Eigen::VectorXd::Zero(d_);
    qd_.resize(m);
    for (int i = 0; i < m; ++i)
        qd_[i] = data.rowSquaredNorm(i) + (bias_ ? 1.0 : 0.0) + diag_;
    index_.resize(m);
    for (int i = 0; i < m; ++i)
        index_[i] = i;
    activeSize_ = m;
    pgMaxOld_ = kInf;
    pgMinOld_ = -kInf;

    setStartRecord();
}

void DcdSolver::setStartRecord() {
    Eigen::VectorXd w0;
    const double f0 = primal(w0, &lastTrainError_);
    lastTestError_ = testError(w0);
    wBest_ = w0;
    lastPrimal_ = f0;
    lastDual_ = std::min(lambda_ * dualObjectiveC(), f0);  // D(0) = 0 on a cold start

    IterationRecord initial;
    initial.oracleCalls = 1;
    initial.upper = f0;
    initial.lower = lastDual_;
    const double supportVectors = static_cast<double>((alpha_.array() > 0.0).count());
    initial.extra = {0.0,
                     0.0,
                     lastTrainError_,
                     lastTestError_,
                     f0,
                     lastDual_,
                     f0 - lastDual_,
                     static_cast<double>(alpha_.size()),
                     supportVectors};
    setInitialRecord(initial);
}

bool DcdSolver::warmStartFrom(const DcdSolver& previous, const std::vector<int>& previousIndex,
                              std::string* why) {
    if (!warmCompatible(previous, why)) return false;
    if (previousIndex.size() != static_cast<std::size_t>(alpha_.size())) {
        if (why) *why = "the example correspondence does not fit the training set";
        return false;
    }
    SetupTimer timer(*this);
    int kept = 0;
    for (Eigen::Index i = 0; i < alpha_.size(); ++i) {
        const int j = previousIndex[static_cast<std::size_t>(i)];
        if (j < 0 || j >= previous.alpha_.size()) continue;
        alpha_[i] = std::clamp(previous.alpha_[j], 0.0, boxBound_);
        if (alpha_[i] > 0) ++kept;
    }
    recomputeW();
    // The best multiple tα, t ∈ [0, 1] (feasible too): D(tα) = tΣα − ½t²(‖w‖² + Dᵢᵢ‖α‖²) is
    // largest at t = Σα / (‖w‖² + Dᵢᵢ‖α‖²), so the start is never below D(0) = 0.
    const double curvature = w_.squaredNorm() + wBias_ * wBias_ + diag_ * alpha_.squaredNorm();
    if (curvature > 0 && alpha_.sum() < curvature) {
        const double t = alpha_.sum() / curvature;
        alpha_ *= t;
        w_ *= t;
        wBias_ *= t;
    }
    setStartRecord();
    if (why) *why = "keeps alpha of " + std::to_string(kept) + " surviving support vectors";
    return true;
}

std::vector<std::string> DcdSolver::extraColumns() const {
    std::vector<std::string> columns = commonColumns();
    for (const char* c : {"primal", "dual", "duality_gap", "active_set", "support_vectors"})
        columns.emplace_back(c);
    return columns;
}

std::vector<std::string> DcdSolver::pseudocode() const {
    return {
        "input: (x_i, y_i), C = 1/(lambda m); hinge: U = C, D = 0; squared hinge: U = inf, "
        "D = 1/(2C)",
        "alpha <- 0;  w <- 0;  active set A <- {1..m};  upper <- F(0);  lower <- 0",
        "repeat                                             (one step = one epoch)",
        "  for i in a random permutation of A",
        "    G <- y_i <w, x_i> - 1 + D alpha_i",
        "    if shrinking and (alpha_i = 0 and G > max PG of the last epoch, or alpha_i = U and "
        "G < min PG): A <- A \\ {i}",
        "    alpha_i' <- min(max(alpha_i - G / (|x_i|^2 + D), 0), U);  "
        "w <- w + (alpha_i' - alpha_i) y_i x_i",
        "  if the projected gradients on A lie within tau: A <- {1..m};  tau <- tau / 10",
        "  w <- sum_i alpha_i y_i x_i                         (recomputed: no drift)",
        "  upper <- min(upper, F(w));  lower <- min(upper, max(lower, lambda D(alpha)))  "
        "(weak duality)",
        "until upper - lower <= eps",
        "return w_best with F(w_best) = upper",
    };
}

Eigen::VectorXd DcdSolver::weights() const {
    Eigen::VectorXd w(w_.size() + (bias_ ? 1 : 0));
    w.head(w_.size()) = w_;
    if (bias_) w[w_.size()] = wBias_;
    return w;
}

double DcdSolver::margin(int i) const {
    const Dataset& data = *problem_.train;
    return data.labels[i] * (data.dot(i, w_) + (bias_ ? wBias_ : 0.0));
}

void DcdSolver::addToW(int i, double scale) {
    problem_.train->addRowTo(i, scale, w_);
    if (bias_) wBias_ += scale;
}

void DcdSolver::recomputeW() {
    const Dataset& data = *problem_.train;
    w_.setZero();
    wBias_ = 0.0;
    for (int i = 0; i < data.size(); ++i)
        if (alpha_[i] != 0.0) addToW(i, alpha_[i] * data.labels[i]);
}

double DcdSolver::dualObjectiveC() const {
    const double wNormSq = w_.squaredNorm() + wBias_ * wBias_;
    return alpha_.sum() - 0.5 * wNormSq - 0.5 * diag_ * alpha_.squaredNorm();
}

// One pass of the outer loop of LIBLINEAR's solve_l2r_l1l2_svc (Hsieh et al. 2008, Alg. 1 with
// the shrinking of their §3).
void DcdSolver::epoch() {
    const Dataset& data = *problem_.train;
    const int m = data.size();
    unshrunk_ = false;
    for (int s = 0; s < activeSize_; ++s) {
        const int j =
            s + static_cast<int>(random_.below(static_cast<std::uint64_t>(activeSize_ - s)));
        std::swap(index_[s], index_[j]);
    }

    double pgMaxNew = -kInf;
    double pgMinNew = kInf;
    for (int s = 0; s < activeSize_; ++s) {
        const int i = index_[s];
        const double G = margin(i) - 1.0 + diag_ * alpha_[i];
        double pg = 0.0;  // projected gradient
        if (alpha_[i] == 0.0) {
            if (dcdOptions_.shrinking && G > pgMaxOld_) {
                --activeSize_;
                std::swap(index_[s], index_[activeSize_]);
                --s;
                continue;
            }
            if (G < 0.0) pg = G;
        } else if (alpha_[i] == boxBound_) {
            if (dcdOptions_.shrinking && G < pgMinOld_) {
                --activeSize_;
                std::swap(index_[s], index_[activeSize_]);
                --s;
                continue;
            }
            if (G > 0.0) pg = G;
        } else {
            pg = G;
        }
        pgMaxNew = std::max(pgMaxNew, pg);
        pgMinNew = std::min(pgMinNew, pg);
        if (std::abs(pg) > 1e-12) {
            const double old = alpha_[i];
            // qd = 0 only for an all-zero example without bias under hinge: G = −1 there, so
            // the minimiser along the coordinate is the upper bound.
            const double unclipped = qd_[i] > 0.0 ? old - G / qd_[i] : kInf;
            alpha_[i] = std::min(std::max(unclipped, 0.0), boxBound_);
            const double delta = alpha_[i] - old;
            if (delta != 0.0) addToW(i, delta * data.labels[i]);
        }
    }

    if (pgMaxNew - pgMinNew <= unshrinkTolerance_) {
        // LIBLINEAR would stop here (eps = τ) or un-shrink; the duality gap decides when we
        // stop, so un-shrink and ask for a tenfold tighter active-set solution next time.
        unshrinkTolerance_ *= 0.1;
        if (activeSize_ < m) {
            activeSize_ = m;
            pgMaxOld_ = kInf;
            pgMinOld_ = -kInf;
            unshrunk_ = true;
            return;
        }
    }
    pgMaxOld_ = pgMaxNew > 0.0 ? pgMaxNew : kInf;
    pgMinOld_ = pgMinNew < 0.0 ? pgMinNew : -kInf;
}

double DcdSolver::primal(Eigen::VectorXd& wFull, double* trainError) {
    wFull = weights();
    Eigen::MatrixXd S;
    risk_->scores(wFull, S);
    const double r = risk_->loss(S, nullptr);
    if (trainError) *trainError = risk_->errorFromScores(S);
    return 0.5 * lambda_ * wFull.squaredNorm() + r;
}

Status DcdSolver::doStep(IterationRecord& record) {
    epoch();
    ++record.oracleCalls;
    recomputeW();

    Eigen::VectorXd w;
    double trainError = 0.0;
    const double f = primal(w, &trainError);
    ++record.oracleCalls;
    const double dual = lambda_ * dualObjectiveC();
    if (!std::isfinite(f) || !std::isfinite(dual)) {
        return Status::make(StatusCode::NumericalFailure,
                            "the primal or dual objective is not finite after epoch " +
                                std::to_string(record.iteration));
    }
    lastPrimal_ = f;
    lastDual_ = dual;
    if (f < record.upper) {
        record.upper = f;
        wBest_ = w;
        lastTrainError_ = trainError;
    }
    // D(α) never decreases under exact coordinate minimisation; the max keeps the bound
    // monotone under rounding too (a max of certified bounds is certified). At the optimum
    // λD(α) and F(w) agree to rounding, and λD may come out a few ulps above U: min F ≤ U,
    // so capping at U keeps the bound valid and the gap ≥ 0.
    record.lower = std::min(std::max(record.lower, dual), record.upper);

    const int supportVectors = static_cast<int>((alpha_.array() > 0.0).count());
    record.extra = commonExtras(0, 0, lastTrainError_, wBest_);
    for (double value :
         {f, dual, f - dual, static_cast<double>(activeSize_), static_cast<double>(supportVectors)})
        record.extra.push_back(value);

    return Status::running();
}

SnapshotPtr DcdSolver::snapshot() const {
    auto snap = std::make_shared<LinearSvmSnapshot>();
    fillLinearSnapshot(*snap);
    if (!valid()) return snap;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
        return snap;
    }
    snap->executedLines = {kRepeat, kPermute, kGradient};
    if (dcdOptions_.shrinking) snap->executedLines.push_back(kShrink);
    snap->executedLines.push_back(kUpdate);
    if (unshrunk_) snap->executedLines.push_back(kUnshrink);
    for (int line : {kResync, kBounds, kUntil})
        snap->executedLines.push_back(line);
    if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    return snap;
}

SummaryFields DcdSolver::familySummary() const {
    const int supportVectors = static_cast<int>((alpha_.array() > 0.0).count());
    const int atBound = static_cast<int>((alpha_.array() == boxBound_).count());
    return {{"support_vectors", static_cast<double>(supportVectors)},
            {"bounded_support_vectors", static_cast<double>(atBound)},
            {"dual_objective_lambda", lastDual_},
            {"duality_gap", lastPrimal_ - lastDual_},
            {"shrinking", std::string(dcdOptions_.shrinking ? "on" : "off")}};
}

}  // namespace cplab
