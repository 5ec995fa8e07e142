// SPDX-License-Identifier: GPL-3.0-or-later
#include "xv_init.h"

#include <algorithm>
#include <numeric>

#include "data/portable_random.h"
#include "math/kmeans.h"

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
    const auto m = static_cast<Eigen::Index>(candidates.size());
    Eigen::MatrixXd P(m, X.cols());
    for (Eigen::Index i = 0; i < m; ++i)
        P.row(i) = X.row(candidates[static_cast<std::size_t>(i)]);
    KMeansOptions options;
    options.clusters = count;
    options.seed = seed;
    options.maxIterations = maxIterations;
    options.draw = KMeansSeedDraw::Unbiased;
    options.empty = KMeansEmptyCluster::FarthestPoint;
    return kmeans(P, options);
}

}  // namespace cplab
