// SPDX-License-Identifier: GPL-3.0-or-later
// k-means clustering: k-means++ seeding (Arthur & Vassilvitskii 2007) from a PortableRandom
// seed, then Lloyd iterations. Shared by SLMC's expansion vectors (sparse/xv_init.h) and the
// colour mode of the MAP image generators (map/generators.h).
//
// Seeding: the first centre is a point drawn uniformly, each next one a point drawn with
// probability proportional to D(x)², its squared distance to the nearest centre so far.
// Lloyd: every point is assigned to its nearest centre (the first one on ties); when no
// assignment changed the run stops, otherwise every centre moves to the mean of its points.
// Stopping rule: no assignment changed, or `maxIterations` assignment rounds.
//
// The two callers predate this routine and draw their random numbers differently; the
// options keep both conventions so that their results (asserted by their tests) stay the same
// bit for bit. Deterministic for a seed on every platform.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace cplab {

// How k-means++ turns random draws into points (m points; D = D(x)² above, ΣD their sum).
enum class KMeansSeedDraw {
    // SLMC: the first point by PortableRandom::below(m); each next one by one uniform u, the
    // first point i with D_i > 0 where u·ΣD minus the running sum of D turns negative (the
    // last point if rounding never gets there), stepping back over points with D = 0; point
    // 0 without a draw when ΣD = 0 (every point is a centre already).
    Unbiased,
    // The image generators: the first point at floor(u·m); each next one by two uniforms u,
    // u′: the first point whose running sum of D (in point order) exceeds u·ΣD, else (ΣD = 0,
    // or rounding) the point floor(u′·m). Sums are plain left-to-right additions.
    Cumulative,
};

// What Lloyd does with a centre that lost all its points.
enum class KMeansEmptyCluster {
    // Move it onto the point farthest from its own centre (which then leaves its cluster at
    // the next assignment); that point's distance is set to 0 so that two empty clusters take
    // different points.
    FarthestPoint,
    // Leave it where it is.
    KeepCentre,
};

struct KMeansOptions {
    int clusters = 2;         // k, ≥ 1 (may exceed the number of distinct points)
    std::uint64_t seed = 1;   // PortableRandom seed of the k-means++ draws
    int maxIterations = 100;  // Lloyd assignment rounds at most, ≥ 0 (0: the seeds)
    KMeansSeedDraw draw = KMeansSeedDraw::Unbiased;
    KMeansEmptyCluster empty = KMeansEmptyCluster::FarthestPoint;
};

// The k centres (k × dim) of the rows of `points` (m × dim, m ≥ 1). Throws
// std::invalid_argument for m = 0 or clusters < 1.
Eigen::MatrixXd kmeans(const Eigen::MatrixXd& points, const KMeansOptions& options);

}  // namespace cplab
