// SPDX-License-Identifier: GPL-3.0-or-later
// The level method's projection for MKL (level_projection.h): FISTA on the dual over λ ≥ 0.
#include "level_projection.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cplab {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// ‖S‖₂² = the largest eigenvalue of Sᵀ S, by power iteration from `v` (ones when it has not
// S's width: a previous call's vector converges in a few steps), Sᵀ(S v) without forming the
// product matrix (hundreds of planes over 200 kernels: t·K² per call for it); v is left at the
// last iterate. An over-estimate by a few per cent is harmless: it only shortens the ascent's
// steps.
double squaredNorm2(const RowMatrix& S, Eigen::VectorXd& v) {
    if (v.size() != S.cols() || !(v.norm() > 0)) v = Eigen::VectorXd::Ones(S.cols());
    double estimate = 0.0;
    Eigen::VectorXd Sv(S.rows());
    for (int i = 0; i < 50; ++i) {
        Sv.noalias() = S * v;
        const Eigen::VectorXd w = S.transpose() * Sv;
        const double norm = w.norm();
        if (!(norm > 0)) return 0.0;
        const double next = v.dot(w) / v.squaredNorm();
        v = w / norm;
        if (std::abs(next - estimate) <= 1e-3 * next) return 1.05 * next;
        estimate = next;
    }
    return 1.05 * std::max(estimate, S.colwise().squaredNorm().maxCoeff());
}

}  // namespace

namespace {

// Michelot's algorithm (1986): the threshold τ of the active entries, recomputed after dropping
// every entry at or below it, rises monotonically to the exact one (max(v − τ, 0) sums to 1).
// No sort; a few passes over the entries still active. `active` is scratch (no allocation once
// it has v's length: the level projection calls this hundreds of times per plane).
void projectInto(const Eigen::VectorXd& v, std::vector<double>& active, Eigen::VectorXd& out) {
    const Eigen::Index n = v.size();
    active.assign(v.data(), v.data() + n);
    double sum = v.sum();
    double tau = (sum - 1.0) / static_cast<double>(n);
    for (;;) {
        std::size_t kept = 0;
        double keptSum = 0.0;
        for (const double x : active) {
            if (x > tau) {
                active[kept++] = x;
                keptSum += x;
            }
        }
        if (kept == active.size() || kept == 0) break;
        active.resize(kept);
        sum = keptSum;
        tau = (sum - 1.0) / static_cast<double>(kept);
    }
    out = (v.array() - tau).cwiseMax(0.0);
}

}  // namespace

Eigen::VectorXd projectOntoSimplex(const Eigen::VectorXd& v) {
    std::vector<double> active;
    Eigen::VectorXd out;
    projectInto(v, active, out);
    return out;
}

LevelProjection projectOntoLevelSet(const std::vector<Eigen::VectorXd>& planes,
                                    const Eigen::VectorXd& center, double level,
                                    const Eigen::VectorXd& inside, const Eigen::VectorXd& warm,
                                    int maxIterations, Eigen::VectorXd* normVector) {
    const Eigen::Index K = center.size();
    const Eigen::Index t = static_cast<Eigen::Index>(planes.size());
    if (t == 0 || inside.size() != K || maxIterations < 1)
        throw std::invalid_argument("projectOntoLevelSet: no planes or mismatched lengths");
    // Centred rows: (Sᵢ − sᵢ1)ᵀβ ≤ ℓ − sᵢ on Δ.
    RowMatrix S(t, K);
    Eigen::VectorXd bound(t);
    for (Eigen::Index i = 0; i < t; ++i) {
        if (planes[i].size() != K)
            throw std::invalid_argument("projectOntoLevelSet: a plane of another length");
        const double mean = planes[i].mean();
        S.row(i) = (planes[i].array() - mean).matrix().transpose();
        bound[i] = level - mean;
    }
    LevelProjection out;
    out.lambda = Eigen::VectorXd::Zero(t);
    const Eigen::Index carried = std::min(t, warm.size());
    out.lambda.head(carried) = warm.head(carried).cwiseMax(0.0);
    const Eigen::VectorXd insideExcess = S * inside - bound;  // ≤ 0: inside the level set
    const double room = std::max(-insideExcess.maxCoeff(), 0.0);
    Eigen::VectorXd ownVector;
    const double lipschitz = squaredNorm2(S, normVector ? *normVector : ownVector);
    // β(λ) = Π_Δ(c − Sᵀλ), into vectors reused across the ascent's steps; Sᵀλ over the planes
    // with λᵢ ≠ 0 (a few of hundreds: those that hold β at the level).
    std::vector<double> scratch;
    Eigen::VectorXd shifted(K), projected(K);
    const auto betaAt = [&](const Eigen::VectorXd& lambda) -> const Eigen::VectorXd& {
        shifted = center;
        for (Eigen::Index i = 0; i < t; ++i)
            if (lambda[i] != 0.0) shifted.noalias() -= lambda[i] * S.row(i).transpose();
        projectInto(shifted, scratch, projected);
        return projected;
    };
    if (lipschitz > 0) {
        // Feasible to a thousandth of the room between ℓ and the LP's minimiser; duality gap
        // (= −λᵀ(Sβ − bound) when feasible) a ten-thousandth of the squared distance.
        const double feasibility = 1e-3 * room + 1e-12 * (1.0 + std::abs(level));
        Eigen::VectorXd y = out.lambda;
        Eigen::VectorXd grad(t), next(t);
        double momentum = 1.0;
        for (out.iterations = 1; out.iterations <= maxIterations; ++out.iterations) {
            grad.noalias() = S * betaAt(y);
            grad -= bound;
            next = (y + grad / lipschitz).cwiseMax(0.0);
            const double following = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * momentum * momentum));
            y = next + ((momentum - 1.0) / following) * (next - out.lambda);
            out.lambda = next;
            momentum = following;
            if (out.iterations % 10 != 0) continue;
            const Eigen::VectorXd& beta = betaAt(out.lambda);
            const Eigen::VectorXd excess = S * beta - bound;
            const double gap = -out.lambda.dot(excess);
            if (excess.maxCoeff() <= feasibility &&
                std::abs(gap) <= 1e-4 * 0.5 * (beta - center).squaredNorm() + 1e-14) {
                out.converged = true;
                break;
            }
        }
        out.iterations = std::min(out.iterations, maxIterations);
    }
    out.beta = betaAt(out.lambda);
    // Into the level set along the segment to `inside` (f convex: f((1−s)β + s·inside) ≤
    // (1−s) f(β) + s f(inside) ≤ ℓ for the s below).
    const double above = (S * out.beta - bound).maxCoeff();
    if (above > 0) {
        const double s = room > 0 ? above / (above + room) : 1.0;
        out.beta = (1.0 - s) * out.beta + s * inside;
        out.beta = out.beta.cwiseMax(0.0) / out.beta.cwiseMax(0.0).sum();
        out.converged = out.converged && above <= 1e-3 * room;
    }
    return out;
}

}  // namespace cplab
