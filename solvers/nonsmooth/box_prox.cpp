// SPDX-License-Identifier: GPL-3.0-or-later
#include "box_prox.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "math/simplex_qp.h"

namespace cplab {

namespace {

// -1: clipped at the lower bound, +1: at the upper bound, 0: free.
std::vector<int> pattern(const Eigen::VectorXd& z, const Box& box) {
    std::vector<int> p(static_cast<std::size_t>(z.size()), 0);
    for (Eigen::Index j = 0; j < z.size(); ++j) {
        if (z(j) < box.lower(j)) p[static_cast<std::size_t>(j)] = -1;
        if (z(j) > box.upper(j)) p[static_cast<std::size_t>(j)] = +1;
    }
    return p;
}

// Euclidean projection onto the probability simplex (sort-based).
Eigen::VectorXd projectToSimplex(const Eigen::VectorXd& v) {
    std::vector<double> u(v.data(), v.data() + v.size());
    std::sort(u.begin(), u.end(), std::greater<>());
    double sum = 0.0, theta = 0.0;
    for (std::size_t k = 0; k < u.size(); ++k) {
        sum += u[k];
        const double candidate = (sum - 1.0) / static_cast<double>(k + 1);
        if (u[k] - candidate > 0) theta = candidate;
    }
    return (v.array() - theta).max(0.0).matrix();
}

// The planes as a matrix: column i is plane i's gradient, b(i) its offset.
struct PlaneMatrix {
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
};

PlaneMatrix planeMatrix(const std::vector<CuttingPlane>& planes, Eigen::Index n) {
    const auto t = static_cast<Eigen::Index>(planes.size());
    PlaneMatrix m{Eigen::MatrixXd(n, t), Eigen::VectorXd(t)};
    for (Eigen::Index i = 0; i < t; ++i) {
        m.A.col(i) = planes[static_cast<std::size_t>(i)].gradient;
        m.b(i) = planes[static_cast<std::size_t>(i)].offset();
    }
    return m;
}

Eigen::VectorXd clip(const Eigen::VectorXd& z, const Box& box) {
    return z.cwiseMax(box.lower).cwiseMin(box.upper).eval();
}

// x̂(α) = center − Aα/ν, the minimiser before clipping.
Eigen::VectorXd unclipped(const PlaneMatrix& planes, const Eigen::VectorXd& center, double nu,
                          const Eigen::VectorXd& alpha) {
    return (center - planes.A * alpha / nu).eval();
}

// The warm start's α on the simplex (clipped at 0 and renormalised), or the vertex of the
// plane that is largest at the center when it has no positive entry.
Eigen::VectorXd startAlpha(const PlaneMatrix& planes, const Eigen::VectorXd& center,
                           const Eigen::VectorXd& warmAlpha) {
    const Eigen::Index t = planes.b.size();
    Eigen::VectorXd alpha = Eigen::VectorXd::Zero(t);
    const Eigen::Index warm = std::min<Eigen::Index>(warmAlpha.size(), t);
    alpha.head(warm) = warmAlpha.head(warm).cwiseMax(0.0);
    if (!(alpha.sum() > 0)) {
        Eigen::Index best = 0;
        (planes.A.transpose() * center + planes.b).maxCoeff(&best);
        alpha.setZero();
        alpha(best) = 1.0;
    }
    alpha /= alpha.sum();
    return alpha;
}

// Up to 30 rounds of: fix the clipping pattern, solve the simplex QP of that pattern, take
// the pattern of its solution. True when the pattern repeats (α is then optimal).
bool solvePatterns(const PlaneMatrix& planes, const Eigen::VectorXd& center, double nu,
                   const Box& box, Eigen::VectorXd& alpha, int& rounds) {
    const Eigen::Index n = center.size();
    std::vector<int> current = pattern(unclipped(planes, center, nu, alpha), box);
    for (int round = 0; round < 30; ++round) {
        ++rounds;
        Eigen::VectorXd fixedPart = center;  // x̂ on F, the bound on J
        Eigen::MatrixXd AF = planes.A;
        for (Eigen::Index j = 0; j < n; ++j) {
            const int p = current[static_cast<std::size_t>(j)];
            if (p != 0) {
                fixedPart(j) = p < 0 ? box.lower(j) : box.upper(j);
                AF.row(j).setZero();
            }
        }
        const Eigen::MatrixXd H = AF.transpose() * AF;
        const Eigen::VectorXd linear = nu * (planes.b + planes.A.transpose() * fixedPart);
        solveSimplexQp(H, linear, alpha);
        const std::vector<int> next = pattern(unclipped(planes, center, nu, alpha), box);
        if (next == current) return true;
        current = next;
    }
    return false;
}

// Accelerated projected gradient ascent on φ (Lipschitz constant ‖A‖²/ν) from `alpha`, until
// the duality gap is below 1e-13 (relative) or 200,000 steps.
Eigen::VectorXd ascendDual(const PlaneMatrix& planes, const Eigen::VectorXd& center, double nu,
                           const Box& box, const Eigen::VectorXd& alpha) {
    const Eigen::MatrixXd& A = planes.A;
    const Eigen::VectorXd& b = planes.b;
    const double lipschitz = std::max((A.transpose() * A).norm() / nu, 1e-300);
    Eigen::VectorXd y = alpha, previous = alpha;
    double momentum = 1.0;
    for (int k = 0; k < 200000; ++k) {
        const Eigen::VectorXd x = clip(unclipped(planes, center, nu, y), box);
        const Eigen::VectorXd gradient = A.transpose() * x + b;
        const Eigen::VectorXd next = projectToSimplex(y + gradient / lipschitz);
        const double nextMomentum = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * momentum * momentum));
        y = next + ((momentum - 1.0) / nextMomentum) * (next - previous);
        previous = next;
        momentum = nextMomentum;
        if (k % 50 == 0) {
            const Eigen::VectorXd xa = clip(unclipped(planes, center, nu, next), box);
            const double model = (A.transpose() * xa + b).maxCoeff();
            const double primal = 0.5 * nu * (xa - center).squaredNorm() + model;
            const double dual =
                next.dot(A.transpose() * xa + b) + 0.5 * nu * (xa - center).squaredNorm();
            if (primal - dual <= 1e-13 * std::max(1.0, std::abs(primal))) break;
        }
    }
    return previous;
}

}  // namespace

BoxProxResult solveBoxProx(const std::vector<CuttingPlane>& planes, const Eigen::VectorXd& center,
                           double nu, const Box& box, const Eigen::VectorXd& warmAlpha) {
    const PlaneMatrix m = planeMatrix(planes, center.size());
    Eigen::VectorXd alpha = startAlpha(m, center, warmAlpha);

    BoxProxResult result;
    result.patternConverged = solvePatterns(m, center, nu, box, alpha, result.rounds);
    if (!result.patternConverged) alpha = ascendDual(m, center, nu, box, alpha);

    result.alpha = alpha;
    result.x = clip(unclipped(m, center, nu, alpha), box);
    const Eigen::VectorXd values = m.A.transpose() * result.x + m.b;
    result.model = values.maxCoeff();
    const double prox = 0.5 * nu * (result.x - center).squaredNorm();
    result.primal = prox + result.model;
    result.dual = alpha.dot(values) + prox;
    return result;
}

}  // namespace cplab
