// SPDX-License-Identifier: GPL-3.0-or-later
// The MKL path's barrier problem: ψ, KKT residual, Newton corrector, tangent (mkl_path_barrier.h).
#include "kernel/mkl_path_barrier.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace cplab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Halvings of a Newton step before the corrector gives up (feasibility, then sufficient ascent
// or a smaller residual).
constexpr int kMaxHalvings = 60;
// The barrier weights of the interior-point start: 10^kStartMuDecades μ₀ down to μ₀.
constexpr int kStartMuDecades = 4;

}  // namespace

double MklPathBarrier::psi(double u, double t) const {
    if (loss == PathLoss::Squared) return 0.5 * u * u + u * t;
    const double z = u * t;
    return (1 + z) * std::log1p(z) - z * std::log(-z);
}

double MklPathBarrier::psi1(double u, double t) const {
    if (loss == PathLoss::Squared) return u + t;
    const double z = u * t;
    return t * (std::log1p(z) - std::log(-z));
}

double MklPathBarrier::psi2(double u, double t) const {
    if (loss == PathLoss::Squared) return 1.0;
    const double z = u * t;
    return 1.0 / (1 + z) - 1.0 / z;
}

double MklPathBarrier::psi3(double u, double t) const {
    if (loss == PathLoss::Squared) return 0.0;
    const double z = u * t;
    return t * (1.0 / (z * z) - 1.0 / ((1 + z) * (1 + z)));
}

bool MklPathBarrier::inDomain(const Eigen::VectorXd& u) const {
    if (loss == PathLoss::Squared) return u.allFinite();
    for (int i = 0; i < n; ++i) {
        const double z = u[i] * y[i];
        if (!(z > -1.0 && z < 0.0)) return false;
    }
    return true;
}

MklPathBarrier::Point MklPathBarrier::at(const Eigen::VectorXd& a, double lambda) const {
    Point p;
    p.s.resize(static_cast<Eigen::Index>(K.size()));
    p.feasible = inDomain(lambda * a);
    for (std::size_t j = 0; j < K.size(); ++j) {
        p.g.push_back(K[j] * a);
        p.s[static_cast<Eigen::Index>(j)] = d2[static_cast<Eigen::Index>(j)] - a.dot(p.g[j]);
        if (!(p.s[static_cast<Eigen::Index>(j)] > 0)) p.feasible = false;
    }
    return p;
}

Eigen::VectorXd MklPathBarrier::etaOf(const Point& p, double lambda) const {
    return (2 * mu / lambda) * p.s.cwiseInverse();
}

double MklPathBarrier::objective(const Eigen::VectorXd& a, const Point& p, double lambda) const {
    double value = 0.0;
    for (int i = 0; i < n; ++i)
        value -= psi(lambda * a[i], y[i]);
    return value + mu * p.s.array().log().sum();
}

Eigen::VectorXd MklPathBarrier::residual(const Eigen::VectorXd& a, const Point& p,
                                         double lambda) const {
    Eigen::VectorXd r(n);
    for (int i = 0; i < n; ++i)
        r[i] = psi1(lambda * a[i], y[i]);
    const Eigen::VectorXd eta = etaOf(p, lambda);
    for (std::size_t j = 0; j < K.size(); ++j)
        r += eta[static_cast<Eigen::Index>(j)] * p.g[j];
    return r;
}

double MklPathBarrier::kktMeasure(const Eigen::VectorXd& a, const Point& p, double lambda,
                                  const Eigen::VectorXd& r) const {
    Eigen::VectorXd scale(n);
    for (int i = 0; i < n; ++i)
        scale[i] = 1.0 + std::abs(psi1(lambda * a[i], y[i]));
    const Eigen::VectorXd eta = etaOf(p, lambda);
    const Eigen::VectorXd absAlpha = a.cwiseAbs();
    for (std::size_t j = 0; j < K.size(); ++j)
        scale.noalias() += eta[static_cast<Eigen::Index>(j)] * (K[j].cwiseAbs() * absAlpha);
    return r.cwiseAbs().cwiseQuotient(scale).maxCoeff();
}

double MklPathBarrier::kktMeasure(const Eigen::VectorXd& a, double lambda) const {
    const Point p = at(a, lambda);
    return kktMeasure(a, p, lambda, residual(a, p, lambda));
}

Eigen::MatrixXd MklPathBarrier::negativeHessian(const Eigen::VectorXd& a, const Point& p,
                                                double lambda) const {
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i)
        M(i, i) = lambda * lambda * psi2(lambda * a[i], y[i]);
    for (std::size_t j = 0; j < K.size(); ++j) {
        const double s = p.s[static_cast<Eigen::Index>(j)];
        M.noalias() += (2 * mu / s) * K[j];
        M.selfadjointView<Eigen::Lower>().rankUpdate(p.g[j], 4 * mu / (s * s));
    }
    // rankUpdate wrote the lower triangle only.
    M.triangularView<Eigen::StrictlyUpper>() = M.transpose().triangularView<Eigen::StrictlyUpper>();
    return M;
}

namespace {

// Eigen 3.4's llt_inplace<double, Lower>::blocked (LLT::compute's in-place step) with `stop`
// polled before every block: -1 when m now holds L (lower triangle), else the failing pivot's
// index, or -2 when `stop` ended it.
Eigen::Index blockedCholesky(Eigen::MatrixXd& m, const Interrupt* stop) {
    using Eigen::Dynamic;
    using Eigen::Index;
    using Lower = Eigen::internal::llt_inplace<double, Eigen::Lower>;
    const Index size = m.rows();
    if (size < 32) return Lower::unblocked(m);
    Index blockSize = size / 8;
    blockSize = (blockSize / 16) * 16;
    blockSize = std::min(std::max(blockSize, Index(8)), Index(128));
    for (Index k = 0; k < size; k += blockSize) {
        if (stop && stop->requested()) return -2;
        const Index bs = std::min(blockSize, size - k);
        const Index rs = size - k - bs;
        Eigen::Block<Eigen::MatrixXd, Dynamic, Dynamic> A11(m, k, k, bs, bs);
        Eigen::Block<Eigen::MatrixXd, Dynamic, Dynamic> A21(m, k + bs, k, rs, bs);
        Eigen::Block<Eigen::MatrixXd, Dynamic, Dynamic> A22(m, k + bs, k + bs, rs, rs);
        if (const Index ret = Lower::unblocked(A11); ret >= 0) return k + ret;
        if (rs > 0) {
            A11.adjoint().triangularView<Eigen::Upper>().solveInPlace<Eigen::OnTheRight>(A21);
            A22.selfadjointView<Eigen::Lower>().rankUpdate(A21, -1.0);
        }
    }
    return -1;
}

}  // namespace

Eigen::VectorXd MklPathBarrier::Factor::solve(const Eigen::VectorXd& b) const {
    if (useLdlt) return ldlt.solve(b);
    // LLT::solve's two triangular solves.
    Eigen::VectorXd x = b;
    L.triangularView<Eigen::Lower>().solveInPlace(x);
    L.adjoint().triangularView<Eigen::Upper>().solveInPlace(x);
    return x;
}

MklPathBarrier::Factor MklPathBarrier::factor(const Eigen::MatrixXd& M, const Interrupt* stop) {
    ++factorizations;
    Factor f;
    f.L = M;
    const Eigen::Index result = blockedCholesky(f.L, stop);
    if (result == -1) {
        f.ok = true;
        return f;
    }
    f.L.resize(0, 0);
    if (result == -2) {
        f.interrupted = true;
        return f;
    }
    f.useLdlt = true;
    f.ldlt.compute(M);
    f.ok = f.ldlt.info() == Eigen::Success && f.ldlt.isPositive();
    return f;
}

bool MklPathBarrier::correct(Eigen::VectorXd& a, double lambda, int maxSteps, double tolerance,
                             int* steps, const Interrupt* stop) {
    *steps = 0;
    if (stop && stop->requested()) return false;  // before the residual's n × n products
    Point p = at(a, lambda);
    if (!p.feasible) return false;
    Eigen::VectorXd r = residual(a, p, lambda);
    double rNorm = r.lpNorm<Eigen::Infinity>();
    while (kktMeasure(a, p, lambda, r) > tolerance) {
        if (*steps >= maxSteps || (stop && stop->requested())) return false;
        const Factor f = factor(negativeHessian(a, p, lambda), stop);
        if (!f.ok) return false;
        // Ascent direction Δ = M⁻¹ ∇G, ∇G = −λR.
        const Eigen::VectorXd delta = f.solve(-lambda * r);
        if (!delta.allFinite()) return false;
        const double slope = -lambda * r.dot(delta);  // ∇Gᵀ Δ > 0
        const double g0 = objective(a, p, lambda);
        double t = 1.0;
        bool accepted = false;
        for (int h = 0; h < kMaxHalvings && !accepted; ++h, t *= 0.5) {
            Eigen::VectorXd trial = a + t * delta;
            Point q = at(trial, lambda);
            if (!q.feasible) continue;
            const Eigen::VectorXd rq = residual(trial, q, lambda);
            const double rqNorm = rq.lpNorm<Eigen::Infinity>();
            if (objective(trial, q, lambda) >= g0 + 1e-4 * t * slope || rqNorm < rNorm) {
                a = std::move(trial);
                p = std::move(q);
                r = rq;
                rNorm = rqNorm;
                accepted = true;
            }
        }
        ++*steps;
        ++newtonTotal;
        if (!accepted) return false;
    }
    return true;
}

bool MklPathBarrier::tangent(const Eigen::VectorXd& a, double lambda, int order, Eigen::VectorXd* v,
                             Eigen::VectorXd* curvature, const Interrupt* stop) {
    const Point p = at(a, lambda);
    const Factor f = factor(negativeHessian(a, p, lambda), stop);
    if (!f.ok) return false;
    // F_σ = −λ(ψ'(u) + u ψ''(u)), u = λα;  α' = M⁻¹ F_σ.
    Eigen::VectorXd Fs(n);
    for (int i = 0; i < n; ++i) {
        const double u = lambda * a[i];
        Fs[i] = -lambda * (psi1(u, y[i]) + u * psi2(u, y[i]));
    }
    *v = f.solve(Fs);
    if (!v->allFinite()) return false;
    if (order < 2) {
        *curvature = Eigen::VectorXd::Zero(n);
        return true;
    }
    // w = d²/dt² F(α + t α', σ + t) at t = 0 without the α'' term; α'' = M⁻¹ w.
    Eigen::VectorXd w(n);
    const Eigen::VectorXd va = a + *v, vb = a + 2 * *v;
    for (int i = 0; i < n; ++i) {
        const double u = lambda * a[i];
        const double ua = lambda * va[i], ub = lambda * vb[i];
        w[i] = -lambda * (psi1(u, y[i]) + 2 * psi2(u, y[i]) * ua + psi3(u, y[i]) * ua * ua +
                          psi2(u, y[i]) * ub);
    }
    for (std::size_t j = 0; j < K.size(); ++j) {
        const double s = p.s[static_cast<Eigen::Index>(j)];
        const Eigen::VectorXd Kv = K[j] * *v;
        const double sDot = -2 * v->dot(p.g[j]);
        const double sDdot = -2 * v->dot(Kv);
        w -=
            2 * mu *
            (-2 * sDot / (s * s) * Kv + (2 * sDot * sDot / (s * s * s) - sDdot / (s * s)) * p.g[j]);
    }
    *curvature = f.solve(w);
    return curvature->allFinite();
}

Eigen::VectorXd MklPathBarrier::trainScores(const Point& p, const Eigen::VectorXd& eta) const {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(n);
    for (std::size_t j = 0; j < K.size(); ++j)
        f -= eta[static_cast<Eigen::Index>(j)] * p.g[j];
    return f;
}

Eigen::VectorXd MklPathBarrier::testScores(const Eigen::VectorXd& a,
                                           const Eigen::VectorXd& eta) const {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(testY.size());
    for (std::size_t j = 0; j < cross.size(); ++j)
        f.noalias() -= eta[static_cast<Eigen::Index>(j)] * (cross[j] * a);
    return f;
}

std::vector<bool> MklPathBarrier::activeSet(const Eigen::VectorXd& eta, double threshold) const {
    Eigen::VectorXd share(eta.size());
    for (Eigen::Index j = 0; j < eta.size(); ++j)
        share[j] = eta[j] * std::max(0.0, K[static_cast<std::size_t>(j)].trace());
    const double total = share.sum();
    std::vector<bool> active(static_cast<std::size_t>(eta.size()), false);
    if (!(total > 0)) return active;
    for (Eigen::Index j = 0; j < eta.size(); ++j)
        active[static_cast<std::size_t>(j)] = share[j] >= threshold * total;
    return active;
}

int MklPathBarrier::activeKernels(const Eigen::VectorXd& eta, double threshold) const {
    const std::vector<bool> active = activeSet(eta, threshold);
    return static_cast<int>(std::count(active.begin(), active.end(), true));
}

double MklPathBarrier::error(const Eigen::VectorXd& f, const Eigen::VectorXd& t) const {
    if (t.size() == 0) return kNaN;
    // In the targets' own units.
    if (loss == PathLoss::Squared)
        return targetScale * targetScale * (t - f).squaredNorm() / static_cast<double>(t.size());
    int wrong = 0;
    for (Eigen::Index i = 0; i < t.size(); ++i)
        wrong += (f[i] > 0) != (t[i] > 0);
    return static_cast<double>(wrong) / static_cast<double>(t.size());
}

double MklPathBarrier::primalLoss(const Eigen::VectorXd& f) const {
    double value = 0.0;
    for (int i = 0; i < n; ++i) {
        if (loss == PathLoss::Squared) {
            value += 0.5 * (y[i] - f[i]) * (y[i] - f[i]);
        } else {
            const double margin = y[i] * f[i];
            value += std::log1p(std::exp(-std::abs(margin))) + std::max(0.0, -margin);
        }
    }
    return value;
}

bool MklPathBarrier::interiorPoint(Eigen::VectorXd& a, double lambda, double mu0,
                                   int maxStepsPerStage, double tolerance, int* steps,
                                   const Interrupt* stop) {
    *steps = 0;
    bool ok = true;
    for (int k = kStartMuDecades; k >= 0 && ok; --k) {
        mu = mu0 * std::pow(10.0, k);
        int stageSteps = 0;
        ok = correct(a, lambda, maxStepsPerStage, tolerance, &stageSteps, stop);
        *steps += stageSteps;
    }
    mu = mu0;
    return ok;
}

MklPathBarrier::Measures MklPathBarrier::measure(const Eigen::VectorXd& a, double lambda,
                                                 double activeThreshold) const {
    Measures m;
    const Point p = at(a, lambda);
    m.eta = etaOf(p, lambda);
    const Eigen::VectorXd f = trainScores(p, m.eta);
    m.trainError = error(f, y);
    m.testError = testY.size() ? error(testScores(a, m.eta), testY) : kNaN;
    for (int i = 0; i < n; ++i)
        m.dual -= psi(lambda * a[i], y[i]);
    double penalty = 0.0;
    for (Eigen::Index j = 0; j < d.size(); ++j)
        penalty += d[j] * m.eta[j] * std::sqrt(std::max(0.0, d2[j] - p.s[j]));
    m.active = activeKernels(m.eta, activeThreshold);
    m.primal = primalLoss(f) + lambda * penalty;
    m.kkt = kktMeasure(a, lambda);
    return m;
}

}  // namespace cplab
