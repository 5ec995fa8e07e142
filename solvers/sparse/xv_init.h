// SPDX-License-Identifier: GPL-3.0-or-later
// Initial expansion vectors for SLMC (ALGORITHMS.md §7; paper §5.6 and Table 2): N_z
// training points drawn at random, or the centres of k-means with N_z clusters. Both draw
// from the *distinct* training points only: a point present twice could be drawn twice, and
// two equal XVs make K^z singular (the paper's Image data set has such duplicates). The
// training set itself is left as it is — a duplicate weighs twice in the hinge loss, and the
// SVM problem must stay the full SVM's (Example 1).
//
// Deterministic for a seed on every platform (PortableRandom).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace cplab {

// Indices of the first occurrence of every distinct row of X (exact equality), ascending.
std::vector<int> distinctRows(const Eigen::MatrixXd& X);

// N_z rows of X picked uniformly without replacement among `candidates` (partial
// Fisher–Yates). Precondition: 1 ≤ count ≤ candidates.size().
Eigen::MatrixXd randomExpansionVectors(const Eigen::MatrixXd& X, const std::vector<int>& candidates,
                                       int count, std::uint64_t seed);

// Lloyd's k-means on the rows `candidates` of X with k-means++ seeding (math/kmeans.h, with
// KMeansSeedDraw::Unbiased); returns the count centres. A cluster that empties is re-seeded
// with the point farthest from its centre. At most `maxIterations` Lloyd iterations (stops
// earlier when no assignment changes).
// Precondition: 1 ≤ count ≤ candidates.size().
Eigen::MatrixXd kmeansExpansionVectors(const Eigen::MatrixXd& X, const std::vector<int>& candidates,
                                       int count, std::uint64_t seed, int maxIterations = 100);

}  // namespace cplab
