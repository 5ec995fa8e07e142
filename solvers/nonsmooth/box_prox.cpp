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

}  // namespace

BoxProxResult solveBoxProx(const std::vector<CuttingPlane>& planes, const Eigen::VectorXd& center,
                           double nu, const Box& box, const Eigen::VectorXd& warmAlpha) {
    const auto t = static_cast<Eigen::Index>(planes.size());
    const Eigen::Index n = center.size();
    Eigen::MatrixXd A(n, t);
    Eigen::VectorXd b(t);
    for (Eigen::Index i = 0; i < t; ++i) {
        A.col(i) = planes[static_cast<std::size_t>(i)].gradient;
        b(i) = planes[static_cast<std::size_t>(i)].offset();
    }
    auto clip = [&box](const Eigen::VectorXd& z) {
        return z.cwiseMax(box.lower).cwiseMin(box.upper).eval();
    };
    auto unclipped = [&](const Eigen::VectorXd& alpha) { return (center - A * alpha / nu).eval(); };

    Eigen::VectorXd alpha = Eigen::VectorXd::Zero(t);
    const Eigen::Index warm = std::min<Eigen::Index>(warmAlpha.size(), t);
    alpha.head(warm) = warmAlpha.head(warm).cwiseMax(0.0);
    if (!(alpha.sum() > 0)) {
        Eigen::Index best = 0;
        (A.transpose() * center + b).maxCoeff(&best);
        alpha.setZero();
        alpha(best) = 1.0;
    }
    alpha /= alpha.sum();

    BoxProxResult result;
    std::vector<int> current = pattern(unclipped(alpha), box);
    for (int round = 0; round < 30; ++round) {
        ++result.rounds;
        Eigen::VectorXd fixedPart = center;  // x̂ on F, the bound on J
        Eigen::MatrixXd AF = A;
        for (Eigen::Index j = 0; j < n; ++j) {
            const int p = current[static_cast<std::size_t>(j)];
            if (p != 0) {
                fixedPart(j) = p < 0 ? box.lower(j) : box.upper(j);
                AF.row(j).setZero();
            }
        }
        const Eigen::MatrixXd H = AF.transpose() * AF;
        const Eigen::VectorXd linear = nu * (b + A.transpose() * fixedPart);
        solveSimplexQp(H, linear, alpha);
        const std::vector<int> next = pattern(unclipped(alpha), box);
        if (next == current) {
            result.patternConverged = true;
            break;
        }
        current = next;
    }

    if (!result.patternConverged) {
        // Accelerated projected gradient ascent on φ (Lipschitz constant ‖A‖²/ν).
        const double lipschitz = std::max((A.transpose() * A).norm() / nu, 1e-300);
        Eigen::VectorXd y = alpha, previous = alpha;
        double momentum = 1.0;
        for (int k = 0; k < 200000; ++k) {
            const Eigen::VectorXd x = clip(unclipped(y));
            const Eigen::VectorXd gradient = A.transpose() * x + b;
            const Eigen::VectorXd next = projectToSimplex(y + gradient / lipschitz);
            const double nextMomentum = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * momentum * momentum));
            y = next + ((momentum - 1.0) / nextMomentum) * (next - previous);
            previous = next;
            momentum = nextMomentum;
            if (k % 50 == 0) {
                const Eigen::VectorXd xa = clip(unclipped(next));
                const double model = (A.transpose() * xa + b).maxCoeff();
                const double primal = 0.5 * nu * (xa - center).squaredNorm() + model;
                const double dual =
                    next.dot(A.transpose() * xa + b) + 0.5 * nu * (xa - center).squaredNorm();
                if (primal - dual <= 1e-13 * std::max(1.0, std::abs(primal))) break;
            }
        }
        alpha = previous;
    }

    result.alpha = alpha;
    result.x = clip(unclipped(alpha));
    const Eigen::VectorXd values = A.transpose() * result.x + b;
    result.model = values.maxCoeff();
    const double prox = 0.5 * nu * (result.x - center).squaredNorm();
    result.primal = prox + result.model;
    result.dual = alpha.dot(values) + prox;
    return result;
}

}  // namespace cplab
