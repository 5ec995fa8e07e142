// SPDX-License-Identifier: GPL-3.0-or-later
// k-means++ seeding and Lloyd iterations (kmeans.h).
#include "math/kmeans.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "data/portable_random.h"

namespace cplab {

namespace {

// floor(u·m) for a uniform u, clamped to the last point.
Eigen::Index scaledPick(PortableRandom& random, Eigen::Index m) {
    const auto pick = static_cast<Eigen::Index>(random.uniform() * static_cast<double>(m));
    return std::min(m - 1, pick);
}

// The next k-means++ point for the squared distances `nearest` (KMeansSeedDraw).
Eigen::Index nextSeed(const Eigen::VectorXd& nearest, KMeansSeedDraw draw, PortableRandom& random) {
    const Eigen::Index m = nearest.size();
    if (draw == KMeansSeedDraw::Cumulative) {
        const double total = std::accumulate(nearest.begin(), nearest.end(), 0.0);
        const double target = random.uniform() * total;
        const Eigen::Index fallback = scaledPick(random, m);
        if (total > 0.0) {
            double sum = 0.0;
            for (Eigen::Index i = 0; i < m; ++i) {
                sum += nearest[i];
                if (sum > target) return i;
            }
        }
        return fallback;
    }
    const double total = nearest.sum();
    if (!(total > 0)) return 0;
    double target = random.uniform() * total;
    Eigen::Index chosen = m - 1;
    for (Eigen::Index i = 0; i < m; ++i) {
        target -= nearest[i];
        if (target < 0 && nearest[i] > 0) {
            chosen = i;
            break;
        }
    }
    while (nearest[chosen] == 0 && chosen > 0)
        --chosen;  // never a point that already is a centre
    return chosen;
}

// k-means++: k rows of `points`.
Eigen::MatrixXd seedCentres(const Eigen::MatrixXd& points, const KMeansOptions& options,
                            PortableRandom& random) {
    const Eigen::Index m = points.rows();
    Eigen::MatrixXd centres(options.clusters, points.cols());
    const Eigen::Index first =
        options.draw == KMeansSeedDraw::Cumulative
            ? scaledPick(random, m)
            : static_cast<Eigen::Index>(random.below(static_cast<std::uint64_t>(m)));
    centres.row(0) = points.row(first);
    Eigen::VectorXd nearest = (points.rowwise() - centres.row(0)).rowwise().squaredNorm();
    for (int k = 1; k < options.clusters; ++k) {
        centres.row(k) = points.row(nextSeed(nearest, options.draw, random));
        nearest = nearest.cwiseMin((points.rowwise() - centres.row(k)).rowwise().squaredNorm());
    }
    return centres;
}

// Assigns every point to its nearest centre (the first on ties); `distance` gets the squared
// distances. True when some assignment changed.
bool assign(const Eigen::MatrixXd& points, const Eigen::MatrixXd& centres,
            std::vector<int>& assignment, Eigen::VectorXd& distance) {
    bool changed = false;
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
        Eigen::Index best = 0;
        distance[i] = (centres.rowwise() - points.row(i)).rowwise().squaredNorm().minCoeff(&best);
        if (assignment[static_cast<std::size_t>(i)] != best) {
            assignment[static_cast<std::size_t>(i)] = static_cast<int>(best);
            changed = true;
        }
    }
    return changed;
}

// Moves every centre to the mean of its points; an empty one as options.empty says.
void moveCentres(const Eigen::MatrixXd& points, const std::vector<int>& assignment,
                 KMeansEmptyCluster empty, Eigen::VectorXd& distance, Eigen::MatrixXd& centres) {
    const Eigen::Index k = centres.rows();
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(k, points.cols());
    Eigen::VectorXi sizes = Eigen::VectorXi::Zero(k);
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
        sums.row(assignment[static_cast<std::size_t>(i)]) += points.row(i);
        ++sizes[assignment[static_cast<std::size_t>(i)]];
    }
    for (Eigen::Index c = 0; c < k; ++c) {
        if (sizes[c] > 0) {
            centres.row(c) = sums.row(c) / sizes[c];
        } else if (empty == KMeansEmptyCluster::FarthestPoint) {
            Eigen::Index far = 0;
            distance.maxCoeff(&far);
            centres.row(c) = points.row(far);
            distance[far] = 0.0;
        }
    }
}

}  // namespace

Eigen::MatrixXd kmeans(const Eigen::MatrixXd& points, const KMeansOptions& options) {
    if (points.rows() < 1) throw std::invalid_argument("kmeans: no points");
    if (options.clusters < 1) throw std::invalid_argument("kmeans: clusters must be >= 1");
    PortableRandom random(options.seed);
    Eigen::MatrixXd centres = seedCentres(points, options, random);
    std::vector<int> assignment(static_cast<std::size_t>(points.rows()), -1);
    Eigen::VectorXd distance(points.rows());
    for (int iteration = 0; iteration < options.maxIterations; ++iteration) {
        if (!assign(points, centres, assignment, distance)) break;
        moveCentres(points, assignment, options.empty, distance, centres);
    }
    return centres;
}

}  // namespace cplab
