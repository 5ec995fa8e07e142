// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph_layout.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <queue>

namespace cplab::widgets {

// A rows × columns lattice whose edges join i to i+1 within a row and i to i+columns within a
// column (wrap-around edges of a torus allowed), every node of degree ≤ 4, with edges of both
// directions; the factorisation nearest a square wins. False when there is none.
bool detectGrid(const PairwiseModel& m, int* rows, int* columns) {
    const int n = m.variables();
    if (n < 4 || m.edgeCount() == 0) return false;
    std::vector<int> degree(static_cast<std::size_t>(n), 0);
    for (const auto& e : m.edges()) {
        if (++degree[static_cast<std::size_t>(e.u)] > 4 ||
            ++degree[static_cast<std::size_t>(e.v)] > 4)
            return false;
    }
    std::vector<int> candidates;
    for (int c = 2; c <= n / 2; ++c)
        if (n % c == 0) candidates.push_back(c);
    const double side = std::sqrt(static_cast<double>(n));
    std::stable_sort(candidates.begin(), candidates.end(),
                     [side](int a, int b) { return std::abs(a - side) < std::abs(b - side); });
    for (const int c : candidates) {
        const int r = n / c;
        bool ok = true, horizontal = false, vertical = false;
        for (const auto& e : m.edges()) {
            const int a = std::min(e.u, e.v), b = std::max(e.u, e.v);
            const int ra = a / c, ca = a % c, rb = b / c, cb = b % c;
            if (ra == rb && (cb - ca == 1 || (c > 2 && cb - ca == c - 1))) {
                horizontal = true;
            } else if (ca == cb && (rb - ra == 1 || (r > 2 && rb - ra == r - 1))) {
                vertical = true;
            } else {
                ok = false;
                break;
            }
        }
        if (ok && horizontal && vertical) {
            *rows = r;
            *columns = c;
            return true;
        }
    }
    return false;
}

// Classical multidimensional scaling of the hop distances (Torgerson): the two leading
// eigenvectors of −½ J D² J, scaled into [−1, 1]². Nodes of different components are placed
// one hop beyond the largest distance from each other. Deterministic; no forces, no
// iterations.
std::vector<QPointF> distanceLayout(const PairwiseModel& m) {
    const int n = m.variables();
    std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
    for (const auto& e : m.edges()) {
        neighbours[static_cast<std::size_t>(e.u)].push_back(e.v);
        neighbours[static_cast<std::size_t>(e.v)].push_back(e.u);
    }
    Eigen::MatrixXd d = Eigen::MatrixXd::Constant(n, n, -1.0);
    int longest = 0;
    std::vector<int> hops(static_cast<std::size_t>(n));
    for (int source = 0; source < n; ++source) {
        std::fill(hops.begin(), hops.end(), -1);
        std::queue<int> queue;
        hops[static_cast<std::size_t>(source)] = 0;
        queue.push(source);
        while (!queue.empty()) {
            const int v = queue.front();
            queue.pop();
            for (int w : neighbours[static_cast<std::size_t>(v)]) {
                if (hops[static_cast<std::size_t>(w)] >= 0) continue;
                hops[static_cast<std::size_t>(w)] = hops[static_cast<std::size_t>(v)] + 1;
                queue.push(w);
            }
        }
        for (int w = 0; w < n; ++w) {
            d(source, w) = hops[static_cast<std::size_t>(w)];
            longest = std::max(longest, hops[static_cast<std::size_t>(w)]);
        }
    }
    d = d.unaryExpr([longest](double x) { return x < 0 ? longest + 1.0 : x; });
    Eigen::MatrixXd b = -0.5 * d.cwiseProduct(d);
    const Eigen::VectorXd rowMean = b.rowwise().mean();
    const Eigen::RowVectorXd colMean = b.colwise().mean();
    const double mean = b.mean();
    b.colwise() -= rowMean;
    b.rowwise() -= colMean;
    b.array() += mean;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(b);
    std::vector<QPointF> points(static_cast<std::size_t>(n));
    if (eigen.info() != Eigen::Success || n < 3) return points;
    const Eigen::VectorXd x =
        eigen.eigenvectors().col(n - 1) * std::sqrt(std::max(eigen.eigenvalues()(n - 1), 0.0));
    const Eigen::VectorXd y =
        eigen.eigenvectors().col(n - 2) * std::sqrt(std::max(eigen.eigenvalues()(n - 2), 0.0));
    const double extent = std::max({x.cwiseAbs().maxCoeff(), y.cwiseAbs().maxCoeff(), 1e-12});
    for (int v = 0; v < n; ++v)
        points[static_cast<std::size_t>(v)] = QPointF(x(v) / extent, y(v) / extent);
    return points;
}

}  // namespace cplab::widgets
