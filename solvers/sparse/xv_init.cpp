// SPDX-License-Identifier: GPL-3.0-or-later
#include "xv_init.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "data/portable_random.h"

namespace cplab {

std::vector<int> distinctRows(const Eigen::MatrixXd& X) {
    const auto n = static_cast<int>(X.rows());
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    const auto less = [&](int a, int b) {
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            if (X(a, j) != X(b, j)) return X(a, j) < X(b, j);
        }
        return a < b;  // equal rows: the first occurrence first
    };
    std::sort(order.begin(), order.end(), less);
    std::vector<int> first;
    for (std::size_t k = 0; k < order.size(); ++k) {
        if (k == 0 || X.row(order[k]) != X.row(order[k - 1])) first.push_back(order[k]);
    }
    std::sort(first.begin(), first.end());
    return first;
}

Eigen::MatrixXd randomExpansionVectors(const Eigen::MatrixXd& X, const std::vector<int>& candidates,
                                       int count, std::uint64_t seed) {
    PortableRandom random(seed);
    std::vector<int> pool = candidates;
    Eigen::MatrixXd Z(count, X.cols());
    for (int u = 0; u < count; ++u) {
        const auto pick =
            static_cast<std::size_t>(u) + random.below(pool.size() - static_cast<std::size_t>(u));
        std::swap(pool[static_cast<std::size_t>(u)], pool[pick]);
        Z.row(u) = X.row(pool[static_cast<std::size_t>(u)]);
    }
    return Z;
}

Eigen::MatrixXd kmeansExpansionVectors(const Eigen::MatrixXd& X, const std::vector<int>& candidates,
                                       int count, std::uint64_t seed, int maxIterations) {
    PortableRandom random(seed);
    const auto m = static_cast<Eigen::Index>(candidates.size());
    Eigen::MatrixXd P(m, X.cols());
    for (Eigen::Index i = 0; i < m; ++i)
        P.row(i) = X.row(candidates[static_cast<std::size_t>(i)]);

    // k-means++: the first centre uniformly, each next one with probability ∝ squared
    // distance to the nearest centre chosen so far.
    Eigen::MatrixXd centres(count, X.cols());
    centres.row(0) = P.row(static_cast<Eigen::Index>(random.below(static_cast<std::uint64_t>(m))));
    Eigen::VectorXd nearest = (P.rowwise() - centres.row(0)).rowwise().squaredNorm();
    for (int k = 1; k < count; ++k) {
        const double total = nearest.sum();
        Eigen::Index chosen = 0;
        if (total > 0) {
            double target = random.uniform() * total;
            chosen = m - 1;
            for (Eigen::Index i = 0; i < m; ++i) {
                target -= nearest[i];
                if (target < 0 && nearest[i] > 0) {
                    chosen = i;
                    break;
                }
            }
            while (nearest[chosen] == 0 && chosen > 0)
                --chosen;  // never a point that already is a centre
        }
        centres.row(k) = P.row(chosen);
        nearest = nearest.cwiseMin((P.rowwise() - centres.row(k)).rowwise().squaredNorm());
    }

    // Lloyd iterations.
    std::vector<int> assignment(static_cast<std::size_t>(m), -1);
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        bool changed = false;
        Eigen::VectorXd distance(m);
        for (Eigen::Index i = 0; i < m; ++i) {
            Eigen::Index best = 0;
            distance[i] = (centres.rowwise() - P.row(i)).rowwise().squaredNorm().minCoeff(&best);
            if (assignment[static_cast<std::size_t>(i)] != best) {
                assignment[static_cast<std::size_t>(i)] = static_cast<int>(best);
                changed = true;
            }
        }
        if (!changed) break;
        Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(count, X.cols());
        Eigen::VectorXi sizes = Eigen::VectorXi::Zero(count);
        for (Eigen::Index i = 0; i < m; ++i) {
            sums.row(assignment[static_cast<std::size_t>(i)]) += P.row(i);
            ++sizes[assignment[static_cast<std::size_t>(i)]];
        }
        for (int k = 0; k < count; ++k) {
            if (sizes[k] > 0) {
                centres.row(k) = sums.row(k) / sizes[k];
            } else {
                // An empty cluster takes the point farthest from its centre, which then leaves
                // its old cluster at the next assignment.
                Eigen::Index far = 0;
                distance.maxCoeff(&far);
                centres.row(k) = P.row(far);
                distance[far] = 0.0;
            }
        }
    }
    return centres;
}

}  // namespace cplab
