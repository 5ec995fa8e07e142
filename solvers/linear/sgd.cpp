// SPDX-License-Identifier: GPL-3.0-or-later
#include "sgd.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cplab {

namespace {

constexpr const char* kOwner = "SgdOptions";

// Pseudocode line numbers (see SgdSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kRepeat,
    kBatch,
    kStepSize,
    kSubgradient,
    kUpdate,
    kProject,
    kUpper,
    kLower,
    kUntil,
    kReturn
};

// Below this the scale s of w = s·v is folded into v, long before v's entries could overflow.
constexpr double kMinScale = 1e-6;

}  // namespace

void SgdOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    model.visit(v);
    v.boolean("projection", projection,
              "project w onto the ball |w| <= sqrt(R(0)/lambda), which holds the minimiser");
    v.integer("minibatch", minibatch, "examples per stochastic update (>= 1)");
    v.seed("seed", seed, "seed of the random permutation of every epoch (>= 0)");
}

bool SgdOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && model.isValid(kOwner, why) &&
           require(minibatch >= 1, kOwner, "minibatch", minibatch, "must be >= 1", why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

SgdSolver::SgdSolver(const LinearProblem& problem, SgdOptions options)
    : LinearSvmSolver(problem, options.model, options.stop, kOwner),
      sgdOptions_(options),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options.seed, 0))) {
    if (!acceptOptions(sgdOptions_)) return;

    SetupTimer timer(*this);
    const Dataset& data = *problem_.train;
    const int m = data.size();
    loss_ = risk_->options().loss;
    bias_ = risk_->options().bias;
    d_ = data.dimension();
    columns_ = risk_->features();
    outputs_ = risk_->outputs();
    v_ = Eigen::VectorXd::Zero(risk_->dimension());
    rowNormSq_.resize(m);
    for (int i = 0; i < m; ++i)
        rowNormSq_[i] = data.rowSquaredNorm(i) + (bias_ ? 1.0 : 0.0);
    order_.resize(m);
    for (int i = 0; i < m; ++i)
        order_[i] = i;
    scores_.assign(outputs_, 0.0);

    wBest_ = Eigen::VectorXd::Zero(risk_->dimension());
    Eigen::MatrixXd S;
    risk_->scores(wBest_, S);
    const double r0 = risk_->loss(S, nullptr);  // F(0) = R(0)
    lastTrainError_ = risk_->errorFromScores(S);
    lastTestError_ = testError(wBest_);
    lastObjective_ = r0;
    radius_ = std::sqrt(r0 / lambda_);
    if (!std::isfinite(r0)) {
        reject("SgdSolver: the risk at w = 0 is not finite");
        return;
    }

    IterationRecord initial;
    initial.oracleCalls = 1;
    initial.upper = r0;
    initial.extra = {0.0, 0.0, lastTrainError_, lastTestError_, r0, 0.0, 0.0, 0.0};
    setInitialRecord(initial);
}

std::vector<std::string> SgdSolver::extraColumns() const {
    std::vector<std::string> columns = commonColumns();
    for (const char* c : {"objective", "norm_w", "updates", "step_size"})
        columns.emplace_back(c);
    return columns;
}

std::vector<std::string> SgdSolver::pseudocode() const {
    return {
        "input: (x_i, y_i), lambda, loss l, minibatch k, radius r = sqrt(R(0)/lambda)",
        "w <- 0;  t <- 0;  upper <- F(0);  lower <- -inf",
        "repeat                                        (one step = one epoch)",
        "  for each batch B of k examples of a random permutation",
        "    t <- t + 1;  eta <- 1/(lambda t)",
        "    g <- (1/|B|) sum_{i in B} l'(<w, x_i>, y_i) x_i      (all at the same w)",
        "    w <- (1 - eta lambda) w - eta g",
        "    if projection: w <- min(1, r/|w|) w",
        "  upper <- min(upper, F(w))                    (one full risk evaluation)",
        "  lower stays -inf: no certificate, gap = inf",
        "until max_iterations or max_seconds",
        "return w_best with F(w_best) = upper",
    };
}

void SgdSolver::rowScores(int i, double* s) const {
    const Dataset& data = *problem_.train;
    for (int k = 0; k < outputs_; ++k) {
        const double* wk = v_.data() + static_cast<Eigen::Index>(k) * columns_;
        double sum = bias_ ? wk[d_] : 0.0;
        if (data.sparseStorage) {
            const int* outer = data.sparse.outerIndexPtr();
            const int* inner = data.sparse.innerIndexPtr();
            const double* values = data.sparse.valuePtr();
            for (int p = outer[i]; p < outer[i + 1]; ++p)
                sum += values[p] * wk[inner[p]];
        } else {
            const double* x = data.dense.data() + static_cast<Eigen::Index>(i) * d_;
            for (int j = 0; j < d_; ++j)
                sum += x[j] * wk[j];
        }
        s[k] = scale_ * sum;
    }
}

double SgdSolver::addRow(int i, int k, double a) {
    const Dataset& data = *problem_.train;
    double* vk = v_.data() + static_cast<Eigen::Index>(k) * columns_;
    double before = 0.0;
    if (bias_) {
        before = vk[d_];
        vk[d_] += a;
    }
    // Every feature occurs once per row, so reading v_j just before changing it gives the
    // inner product with the old v.
    if (data.sparseStorage) {
        const int* outer = data.sparse.outerIndexPtr();
        const int* inner = data.sparse.innerIndexPtr();
        const double* values = data.sparse.valuePtr();
        for (int p = outer[i]; p < outer[i + 1]; ++p) {
            before += values[p] * vk[inner[p]];
            vk[inner[p]] += a * values[p];
        }
    } else {
        const double* x = data.dense.data() + static_cast<Eigen::Index>(i) * d_;
        for (int j = 0; j < d_; ++j) {
            before += x[j] * vk[j];
            vk[j] += a * x[j];
        }
    }
    return before;
}

bool SgdSolver::lossDerivative(int i, const double* s, double* c) const {
    const double y = risk_->lossLabels()[i];
    switch (loss_) {
        case LossKind::Hinge:
            c[0] = y * s[0] < 1.0 ? -y : 0.0;
            break;
        case LossKind::SquaredHinge:
            c[0] = -2.0 * y * std::max(0.0, 1.0 - y * s[0]);
            break;
        case LossKind::Logistic: {
            // ∂/∂s log(1 + exp(−ys)) = −y·σ(−ys), σ(−t) = 1/(1 + eᵗ) evaluated without overflow.
            const double t = y * s[0];
            const double sigma =
                t >= 0.0 ? std::exp(-t) / (1.0 + std::exp(-t)) : 1.0 / (1.0 + std::exp(t));
            c[0] = -y * sigma;
            break;
        }
        case LossKind::EpsilonInsensitive: {
            const double r = s[0] - y;
            c[0] = std::abs(r) > sgdOptions_.model.tube ? (r > 0.0 ? 1.0 : -1.0) : 0.0;
            break;
        }
        case LossKind::Multiclass: {
            const int label = static_cast<int>(y);
            int best = 0;
            double bestValue = -std::numeric_limits<double>::infinity();
            for (int k = 0; k < outputs_; ++k) {
                const double value = (k != label ? 1.0 : 0.0) + s[k] - s[label];
                if (value > bestValue) {
                    bestValue = value;
                    best = k;
                }
            }
            std::fill(c, c + outputs_, 0.0);
            if (best == label) return false;
            c[best] = 1.0;
            c[label] = -1.0;
            return true;
        }
    }
    for (int k = 0; k < outputs_; ++k)
        if (c[k] != 0.0) return true;
    return false;
}

void SgdSolver::normalise() {
    v_ *= scale_;
    vNormSq_ *= scale_ * scale_;
    scale_ = 1.0;
}

void SgdSolver::update(const int* batch, int size) {
    // Subgradients at the current w for the whole batch first (Pegasos's A_t⁺).
    derivatives_.resize(static_cast<std::size_t>(size) * outputs_);
    for (int b = 0; b < size; ++b) {
        rowScores(batch[b], scores_.data());
        lossDerivative(batch[b], scores_.data(), derivatives_.data() + b * outputs_);
    }

    ++t_;
    const double eta = 1.0 / (lambda_ * static_cast<double>(t_));
    lastEta_ = eta;
    const double shrink = 1.0 - eta * lambda_;  // = 1 − 1/t: exactly 0 at t = 1
    if (shrink <= 0.0) {
        v_.setZero();
        vNormSq_ = 0.0;
        scale_ = 1.0;
    } else {
        scale_ *= shrink;
    }
    for (int b = 0; b < size; ++b) {
        const int i = batch[b];
        for (int k = 0; k < outputs_; ++k) {
            const double c = derivatives_[b * outputs_ + k];
            if (c == 0.0) continue;
            const double a = -eta * c / (static_cast<double>(size) * scale_);
            const double before = addRow(i, k, a);
            vNormSq_ += 2.0 * a * before + a * a * rowNormSq_[i];
        }
    }
    vNormSq_ = std::max(vNormSq_, 0.0);

    if (sgdOptions_.projection) {
        const double normSq = scale_ * scale_ * vNormSq_;
        if (normSq > radius_ * radius_) scale_ *= radius_ / std::sqrt(normSq);
    }
    if (scale_ < kMinScale) normalise();
}

Status SgdSolver::doStep(IterationRecord& record) {
    const int m = problem_.train->size();
    for (int s = 0; s + 1 < m; ++s) {
        const int j = s + static_cast<int>(random_.below(static_cast<std::uint64_t>(m - s)));
        std::swap(order_[s], order_[j]);
    }
    const int batch = std::min(sgdOptions_.minibatch, m);
    for (int start = 0; start < m; start += batch) {
        if ((start / batch) % 64 == 0 && cancelToken().cancelled()) break;
        update(order_.data() + start, std::min(batch, m - start));
    }
    ++record.oracleCalls;
    normalise();
    vNormSq_ = v_.squaredNorm();  // drop the rounding the incremental norm gathered

    Eigen::MatrixXd S;
    risk_->scores(v_, S);
    const double f = 0.5 * lambda_ * vNormSq_ + risk_->loss(S, nullptr);
    ++record.oracleCalls;
    if (!std::isfinite(f)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "F(w) is not finite after epoch " + std::to_string(record.iteration) +
                (sgdOptions_.projection
                     ? std::string()
                     : ": the steps 1/(lambda t) overshoot for a loss whose gradient grows "
                       "with w; turn projection on"));
    }
    lastObjective_ = f;
    if (f < record.upper) {
        record.upper = f;
        wBest_ = v_;
        lastTrainError_ = risk_->errorFromScores(S);
    }
    record.lower = -std::numeric_limits<double>::infinity();
    record.extra = commonExtras(0, 0, lastTrainError_, wBest_);
    for (double value : {f, std::sqrt(vNormSq_), static_cast<double>(t_), lastEta_})
        record.extra.push_back(value);
    return Status::running();
}

SnapshotPtr SgdSolver::snapshot() const {
    auto snap = std::make_shared<LinearSvmSnapshot>();
    fillLinearSnapshot(*snap);
    if (!valid()) return snap;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
        return snap;
    }
    snap->executedLines = {kRepeat, kBatch, kStepSize, kSubgradient, kUpdate};
    if (sgdOptions_.projection) snap->executedLines.push_back(kProject);
    for (int line : {kUpper, kLower, kUntil})
        snap->executedLines.push_back(line);
    if (status().finished()) snap->executedLines.push_back(kReturn);
    return snap;
}

SummaryFields SgdSolver::familySummary() const {
    return {{"updates", static_cast<double>(t_)},
            {"objective_last_epoch", lastObjective_},
            {"radius", radius_},
            {"projection", std::string(sgdOptions_.projection ? "on" : "off")},
            {"minibatch", static_cast<double>(sgdOptions_.minibatch)}};
}

}  // namespace cplab
