// SPDX-License-Identifier: GPL-3.0-or-later
// Online MKL's groups: the scorer, kernels, one round's steps, the models (online_mkl_groups.h).
#include "structured/online_mkl_groups.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/worker_team.h"

namespace cplab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Scales beyond these are folded into the coefficients (s_g multiplies by < 1 every round; as
// it shrinks, v_g grows and S_g·v_g − u_g would cancel ever more digits).
constexpr double kTinyScale = 1e-3, kHugeScale = 1e3;
// Test tokens per block of the dense kernel products (block × active tokens doubles each).
constexpr int kScoreBlock = 256;

// φ of the explicit feature group for the rows of X (squared norms sq): x, or x/‖x‖ with the
// diagonal normalisation (a row of norm 0 stays 0).
Eigen::MatrixXd featureMap(const Eigen::MatrixXd& X, const Eigen::VectorXd& sq, bool normalize) {
    Eigen::MatrixXd phi = X;
    if (normalize)
        for (Eigen::Index r = 0; r < X.rows(); ++r)
            if (sq(r) > 0) phi.row(r) /= std::sqrt(sq(r));
    return phi;
}

}  // namespace

namespace online_mkl {

void denseRow(const SequenceData& data, int k, double* out, int d) {
    std::fill(out, out + d, 0.0);
    for (SequenceData::SparseMatrix::InnerIterator it(data.features, k); it; ++it)
        out[it.col()] = it.value();
}

}  // namespace online_mkl

using online_mkl::denseRow;

// ---- scores of any tokens --------------------------------------------------------------------

OnlineMklSolver::Scorer::Scorer(const OnlineMklSolver& solver, const Weights& w)
    : solver_(solver), w_(w) {
    const int N = solver.N_;
    std::vector<char> used(static_cast<std::size_t>(N), 0);
    for (std::size_t g = 0; g < solver.groups_.size(); ++g) {
        if (solver.groups_[g].kind != Group::Kind::Kernel) continue;
        const Eigen::MatrixXd& c = w.coef[g];
        for (int k = 0; k < N; ++k)
            if (!used[static_cast<std::size_t>(k)] && c.row(k).cwiseAbs().maxCoeff() > 0)
                used[static_cast<std::size_t>(k)] = 1;
    }
    for (int k = 0; k < N; ++k)
        if (used[static_cast<std::size_t>(k)]) active_.push_back(k);
    const int A = static_cast<int>(active_.size());
    activeTokens_.resize(A, solver.d_);
    activeSq_.resize(A);
    for (int a = 0; a < A; ++a) {
        activeTokens_.row(a) = solver.tokens_.row(active_[static_cast<std::size_t>(a)]);
        activeSq_(a) = solver.tokenSq_(active_[static_cast<std::size_t>(a)]);
    }
}

void OnlineMklSolver::Scorer::score(const SequenceData& data, int begin, int end,
                                    Eigen::MatrixXd& out) const {
    for (int first = begin; first < end; first += kScoreBlock)
        scoreBlock(data, first, std::min(end, first + kScoreBlock), out);
}

void OnlineMklSolver::Scorer::scoreBlock(const SequenceData& data, int begin, int end,
                                         Eigen::MatrixXd& out) const {
    const OnlineMklSolver& s = solver_;
    const int m = end - begin, d = s.d_, L = s.L_;
    Eigen::MatrixXd X(m, d);
    Eigen::VectorXd sq(m);
    for (int r = 0; r < m; ++r) {
        Eigen::RowVectorXd row(d);
        denseRow(data, begin + r, row.data(), d);
        X.row(r) = row;
        sq(r) = row.squaredNorm();
    }
    Eigen::MatrixXd scores = Eigen::MatrixXd::Zero(m, L);
    Eigen::MatrixXd dots;
    if (!active_.empty()) dots = X * activeTokens_.transpose();  // m × A
    for (std::size_t g = 0; g < s.groups_.size(); ++g) {
        const Group& group = s.groups_[g];
        const Eigen::MatrixXd& c = w_.coef[g];
        switch (group.kind) {
            case Group::Kind::Kernel: {
                if (active_.empty()) break;
                const int A = static_cast<int>(active_.size());
                Eigen::MatrixXd ca(A, L);
                for (int a = 0; a < A; ++a)
                    ca.row(a) = c.row(active_[static_cast<std::size_t>(a)]);
                scores.noalias() += kernelBlock(group, dots, sq) * ca;
                break;
            }
            case Group::Kind::Features:
                scores.noalias() += featureMap(X, sq, group.normalize) * c.transpose();
                break;
            case Group::Kind::Transitions:
                scores.rowwise() += c.col(0).head(L).transpose();
                break;
        }
    }
    out.middleRows(begin, m) = scores;
}

Eigen::MatrixXd OnlineMklSolver::Scorer::scoreAll(const SequenceData& data,
                                                  WorkerTeam* team) const {
    const int M = data.tokenCount();
    Eigen::MatrixXd out(M, solver_.L_);
    const int blocks = (M + kScoreBlock - 1) / kScoreBlock;
    runBlocks(team, blocks, team ? std::min(blocks, team->size()) : 1,
              [&](int, int first, int last) {
                  for (int b = first; b < last; ++b)
                      score(data, b * kScoreBlock, std::min(M, (b + 1) * kScoreBlock), out);
              });
    return out;
}

Eigen::MatrixXd OnlineMklSolver::Scorer::kernelBlock(const Group& group,
                                                     const Eigen::MatrixXd& dots,
                                                     const Eigen::VectorXd& sq) const {
    const Eigen::Index m = dots.rows(), A = dots.cols();
    Eigen::ArrayXXd K;
    switch (group.spec.type) {
        case KernelType::Linear:
            K = dots.array();
            break;
        case KernelType::Polynomial: {
            const Eigen::ArrayXXd base = dots.array() + group.spec.offset;
            K = base;
            for (int p = 1; p < group.spec.degree; ++p)
                K *= base;
            break;
        }
        case KernelType::Gaussian: {
            Eigen::ArrayXXd dist = (-2.0 * dots.array()).colwise() + sq.array();
            dist.rowwise() += activeSq_.array().transpose();
            return (-group.spec.gamma * dist.max(0.0)).exp().matrix();
        }
        case KernelType::Precomputed:
            return Eigen::MatrixXd::Zero(m, A);
    }
    if (group.normalize) {
        Eigen::ArrayXd rowScale(m), colScale(A);
        for (Eigen::Index r = 0; r < m; ++r) {
            const double diag = group.raw(sq(r), sq(r), sq(r));
            rowScale(r) = diag > 0 ? 1.0 / std::sqrt(diag) : 0.0;
        }
        for (Eigen::Index a = 0; a < A; ++a) {
            const double diag = group.diag(active_[static_cast<std::size_t>(a)]);
            colScale(a) = diag > 0 ? 1.0 / std::sqrt(diag) : 0.0;
        }
        K.colwise() *= rowScale;
        K.rowwise() *= colScale.transpose();
    }
    return K.matrix();
}

// ---- groups ----------------------------------------------------------------------------------

void OnlineMklSolver::buildGroups() {
    const bool normalize = options_.normalize == "diagonal";
    for (const KernelSpec& spec : specs_) {
        Group g;
        g.kind = Group::Kind::Kernel;
        g.spec = spec;
        g.name = spec.label();
        g.normalize = normalize;
        g.diag.resize(N_);
        for (int k = 0; k < N_; ++k)
            g.diag(k) = g.raw(tokenSq_(k), tokenSq_(k), tokenSq_(k));
        g.v = g.u = g.f = g.fu = Eigen::MatrixXd::Zero(N_, L_);
        groups_.push_back(std::move(g));
    }
    if (options_.pixels) {
        Group g;
        g.kind = Group::Kind::Features;
        g.name = "features";
        g.normalize = normalize;
        g.v = g.u = Eigen::MatrixXd::Zero(L_, d_);
        groups_.push_back(std::move(g));
    }
    if (options_.transitions) {
        Group g;
        g.kind = Group::Kind::Transitions;
        g.name = "transitions";
        g.v = g.u = Eigen::MatrixXd::Zero(L_ + L_ * L_, 1);
        groups_.push_back(std::move(g));
    }
}

// ---- kernels ---------------------------------------------------------------------------------

Eigen::VectorXd OnlineMklSolver::tokenDots(int j) const {
    Eigen::VectorXd dots = Eigen::VectorXd::Zero(N_);
    for (SequenceData::SparseMatrix::InnerIterator it(model_->data().features, j); it; ++it)
        dots.noalias() += it.value() * tokens_.col(it.col());
    return dots;
}

Eigen::VectorXd OnlineMklSolver::kernelRow(const Group& g, int j,
                                           const Eigen::VectorXd& dots) const {
    Eigen::VectorXd row(N_);
    for (int k = 0; k < N_; ++k)
        row(k) = g.value(dots(k), tokenSq_(j), tokenSq_(k), g.diag(j), g.diag(k));
    return row;
}

// ---- one round -------------------------------------------------------------------------------

void OnlineMklSolver::addWordScores(const Group& g, int first, int T, std::vector<double>& trans) {
    switch (g.kind) {
        case Group::Kind::Kernel:
            for (int t = 0; t < T; ++t)
                ws_.unary.row(t) += g.s * g.f.row(first + t);
            break;
        case Group::Kind::Features: {
            Eigen::RowVectorXd phi(d_);
            for (int t = 0; t < T; ++t) {
                phi = tokens_.row(first + t);
                if (g.normalize && tokenSq_(first + t) > 0) phi /= std::sqrt(tokenSq_(first + t));
                ws_.unary.row(t) += g.s * (g.v * phi.transpose()).transpose();
            }
            break;
        }
        case Group::Kind::Transitions:
            for (int t = 0; t < T; ++t)
                ws_.unary.row(t) += g.s * g.v.col(0).head(L_).transpose();
            trans.resize(static_cast<std::size_t>(L_) * L_);
            for (int k = 0; k < L_ * L_; ++k)
                trans[static_cast<std::size_t>(k)] = g.s * g.v(L_ + k, 0);
            break;
    }
}

void OnlineMklSolver::decodeWord(int first, std::span<const int> truth) {
    const int T = static_cast<int>(truth.size());
    ws_.reserve(T, L_);
    ws_.unary.topRows(T).setZero();
    std::vector<double> trans;
    for (const Group& g : groups_)
        addWordScores(g, first, T, trans);
    const double c = model_->options().normalizeLoss ? 1.0 / T : 1.0;
    for (int t = 0; t < T; ++t) {
        ws_.unary.row(t).head(L_).array() += c;
        ws_.unary(t, truth[static_cast<std::size_t>(t)]) -= c;
    }
    maxSumChain(T, L_, trans.empty() ? nullptr : trans.data(), yHat_, ws_);
}

void OnlineMklSolver::kernelGradientStep(int first, std::span<const int> truth,
                                         const std::vector<int>& wrong, double eta) {
    if (specs_.empty()) return;
    // ⟨w_g, g_g⟩ of eq. 17 from the scores before the step.
    std::vector<double> wg(groups_.size(), 0.0), gg(groups_.size(), 0.0);
    for (std::size_t h = 0; h < groups_.size(); ++h) {
        const Group& g = groups_[h];
        if (g.kind != Group::Kind::Kernel) continue;
        for (const int t : wrong) {
            const int k = first + t;
            wg[h] += g.s * (g.f(k, yHat_[static_cast<std::size_t>(t)]) -
                            g.f(k, truth[static_cast<std::size_t>(t)]));
        }
    }
    // One wrong token at a time: its dot products with every training token (shared by the
    // kernel groups, which differ only in what they make of a dot product), then each group's
    // kernel row — O(N) memory per round, never (wrong tokens) × N, which for one long word
    // would be 8·T² bytes per table. The row gives ‖g_g‖²'s terms of this token and the step.
    for (std::size_t a = 0; a < wrong.size(); ++a) {
        const int k = first + wrong[a];
        const int ha = yHat_[static_cast<std::size_t>(wrong[a])];
        const int ya = truth[static_cast<std::size_t>(wrong[a])];
        const Eigen::VectorXd dots = tokenDots(k);
        for (std::size_t h = 0; h < groups_.size(); ++h) {
            Group& g = groups_[h];
            if (g.kind != Group::Kind::Kernel) continue;
            const Eigen::VectorXd row = kernelRow(g, k, dots);
            for (std::size_t b = 0; b < wrong.size(); ++b) {
                const int hb = yHat_[static_cast<std::size_t>(wrong[b])];
                const int yb = truth[static_cast<std::size_t>(wrong[b])];
                const double overlap = (ha == hb) - (ha == yb) - (ya == hb) + (ya == yb);
                if (overlap != 0) gg[h] += overlap * row(first + wrong[b]);
            }
            const double delta = eta / g.s;  // the step in coefficient units
            g.v(k, ha) -= delta;
            g.v(k, ya) += delta;
            g.u(k, ha) -= g.S * delta;
            g.u(k, ya) += g.S * delta;
            g.f.col(ha).noalias() -= delta * row;
            g.f.col(ya).noalias() += delta * row;
            if (g.S != 0) {
                g.fu.col(ha).noalias() -= (g.S * delta) * row;
                g.fu.col(ya).noalias() += (g.S * delta) * row;
            }
        }
    }
    for (std::size_t h = 0; h < groups_.size(); ++h) {
        Group& g = groups_[h];
        if (g.kind == Group::Kind::Kernel)
            g.normSq = std::max(0.0, g.normSq - 2.0 * eta * wg[h] + eta * eta * gg[h]);
    }
}

void OnlineMklSolver::explicitGradientStep(Group& g, int first, std::span<const int> truth,
                                           const std::vector<int>& wrong, double eta) {
    const double delta = eta / g.s;  // the step in coefficient units
    const int T = static_cast<int>(truth.size());
    if (g.kind == Group::Kind::Features) {
        Eigen::RowVectorXd phi(d_);
        Eigen::MatrixXd grad = Eigen::MatrixXd::Zero(L_, d_);
        for (const int t : wrong) {
            phi = tokens_.row(first + t);
            if (g.normalize && tokenSq_(first + t) > 0) phi /= std::sqrt(tokenSq_(first + t));
            grad.row(yHat_[static_cast<std::size_t>(t)]) += phi;
            grad.row(truth[static_cast<std::size_t>(t)]) -= phi;
        }
        g.v -= delta * grad;
        g.u -= (g.S * delta) * grad;
    } else {
        Eigen::VectorXd grad = Eigen::VectorXd::Zero(L_ + L_ * L_);
        for (int t = 0; t < T; ++t) {
            const int h = yHat_[static_cast<std::size_t>(t)];
            const int y = truth[static_cast<std::size_t>(t)];
            grad(h) += 1.0;
            grad(y) -= 1.0;
            if (t + 1 < T) {
                grad(L_ + h * L_ + yHat_[static_cast<std::size_t>(t + 1)]) += 1.0;
                grad(L_ + y * L_ + truth[static_cast<std::size_t>(t + 1)]) -= 1.0;
            }
        }
        g.v.col(0) -= delta * grad;
        g.u.col(0) -= (g.S * delta) * grad;
    }
    g.normSq = g.s * g.s * g.v.squaredNorm();
}

bool OnlineMklSolver::proxStep(double eta) {
    const std::size_t K = groups_.size();
    for (std::size_t g = 0; g < K; ++g) {
        proxBefore_[g] = std::sqrt(std::max(0.0, groups_[g].normSq));
        if (!std::isfinite(proxBefore_[g])) return false;
    }
    prox_ = proxGroupNorms(regulariser_, proxBefore_, eta * options_.lambda);
    double totalSq = 0.0;
    for (std::size_t g = 0; g < K; ++g) {
        Group& group = groups_[g];
        const double b = proxBefore_[g], shrunk = prox_.shrunk[g];
        if (shrunk <= 0) {
            if (b > 0) zeroGroup(group);
        } else {
            group.s *= shrunk / b;
            group.normSq = shrunk * shrunk;
        }
        totalSq += group.normSq;
    }
    if (options_.radius > 0 && totalSq > options_.radius * options_.radius) {
        const double factor = options_.radius / std::sqrt(totalSq);
        for (Group& group : groups_) {
            group.s *= factor;
            group.normSq *= factor * factor;
        }
    }
    for (Group& group : groups_) {
        group.S += group.s;
        if (group.s < kTinyScale || group.s > kHugeScale) rescaleGroup(group);
    }
    return true;
}

double OnlineMklSolver::round(int word) {
    ++rounds_;
    const double count = static_cast<double>(rounds_);
    const double eta = options_.learning_rate == "pegasos" ? 1.0 / (options_.lambda * count)
                                                           : options_.eta0 / std::sqrt(count);
    const int first = model_->data().first(word);
    const std::span<const int> truth = model_->truth(word);
    decodeWord(first, truth);
    // The gradient Φ(x, ŷ) − Φ(x, y): nonzero at the wrong tokens (and their transitions).
    std::vector<int> wrong;  // positions t
    for (std::size_t t = 0; t < truth.size(); ++t)
        if (yHat_[t] != truth[t]) wrong.push_back(static_cast<int>(t));
    if (!wrong.empty()) {
        kernelGradientStep(first, truth, wrong, eta);
        for (Group& g : groups_)
            if (g.kind != Group::Kind::Kernel) explicitGradientStep(g, first, truth, wrong, eta);
    }
    // The proximal step on the group norms, then the projection; an overflow ends the run.
    return proxStep(eta) ? eta : kNaN;
}

void OnlineMklSolver::zeroGroup(Group& g) {
    // A = S·v − u stays: u absorbs S·v before v is cleared.
    g.u -= g.S * g.v;
    g.v.setZero();
    if (g.kind == Group::Kind::Kernel) {
        g.fu -= g.S * g.f;
        g.f.setZero();
    }
    g.s = 1.0;
    g.normSq = 0.0;
}

void OnlineMklSolver::rescaleGroup(Group& g) {
    // w = s·v and A = S·v − u unchanged: v ← s·v, s ← 1, and the average so far moves into u
    // (u ← u − S·v, S ← 0), so that S never multiplies a large v.
    g.u -= g.S * g.v;
    g.v *= g.s;
    if (g.kind == Group::Kind::Kernel) {
        g.fu -= g.S * g.f;
        g.f *= g.s;
    }
    g.S = 0.0;
    g.s = 1.0;
}

// ---- models and evaluation -------------------------------------------------------------------

OnlineMklSolver::Weights OnlineMklSolver::current() const {
    Weights w;
    for (const Group& g : groups_) {
        w.coef.push_back(g.s * g.v);
        w.train.push_back(g.kind == Group::Kind::Kernel ? Eigen::MatrixXd(g.s * g.f)
                                                        : Eigen::MatrixXd());
    }
    return w;
}

OnlineMklSolver::Weights OnlineMklSolver::reported() const {
    if (!options_.averaging || rounds_ == 0) return current();
    const double t = static_cast<double>(rounds_);
    Weights w;
    for (const Group& g : groups_) {
        w.coef.push_back((g.S * g.v - g.u) / t);
        w.train.push_back(g.kind == Group::Kind::Kernel ? Eigen::MatrixXd((g.S * g.f - g.fu) / t)
                                                        : Eigen::MatrixXd());
    }
    return w;
}

Eigen::MatrixXd OnlineMklSolver::trainUnary(const Weights& w) const {
    Eigen::MatrixXd unary = Eigen::MatrixXd::Zero(N_, L_);
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = groups_[g];
        switch (group.kind) {
            case Group::Kind::Kernel:
                unary += w.train[g];
                break;
            case Group::Kind::Features:
                unary.noalias() +=
                    featureMap(tokens_, tokenSq_, group.normalize) * w.coef[g].transpose();
                break;
            case Group::Kind::Transitions:
                unary.rowwise() += w.coef[g].col(0).head(L_).transpose();
                break;
        }
    }
    return unary;
}

// ---- introspection ---------------------------------------------------------------------------

double OnlineMklSolver::groupNorm(int g) const {
    return std::sqrt(std::max(0.0, groups_.at(static_cast<std::size_t>(g)).normSq));
}

Eigen::MatrixXd OnlineMklSolver::groupTrainScores(int g) const {
    const Group& group = groups_.at(static_cast<std::size_t>(g));
    Weights w = current();
    if (group.kind == Group::Kind::Kernel) return w.train[static_cast<std::size_t>(g)];
    // Explicit groups: only this group's share of trainUnary.
    for (std::size_t h = 0; h < groups_.size(); ++h)
        if (static_cast<int>(h) != g) {
            w.coef[h].setZero();
            if (w.train[h].size()) w.train[h].setZero();
        }
    return trainUnary(w);
}

Eigen::MatrixXd OnlineMklSolver::groupTrainScoresFromScratch(int g) const {
    Weights w = current();
    for (std::size_t h = 0; h < groups_.size(); ++h)
        if (static_cast<int>(h) != g) w.coef[h].setZero();
    const Scorer scorer(*this, w);
    return scorer.scoreAll(model_->data(), nullptr);
}

double OnlineMklSolver::groupNormFromScratch(int g) const {
    const Group& group = groups_.at(static_cast<std::size_t>(g));
    if (group.kind != Group::Kind::Kernel) return std::abs(group.s) * group.v.norm();
    const Eigen::MatrixXd scores = groupTrainScoresFromScratch(g);
    return std::sqrt(std::max(0.0, (group.s * group.v).cwiseProduct(scores).sum()));
}

Eigen::MatrixXd OnlineMklSolver::pixelWeights(bool reportedModel) const {
    const Weights w = reportedModel ? reported() : current();
    for (std::size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].kind == Group::Kind::Features) return w.coef[g];
    return {};
}

}  // namespace cplab
