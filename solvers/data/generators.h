// SPDX-License-Identifier: GPL-3.0-or-later
// Built-in synthetic datasets for demos: small 2-D classification sets with labels ±1 and
// 1-D/2-D regression sets, generated from a seed with PortableRandom, so a given (name, m,
// seed) gives bit-identical data on every platform (a session can store just those three).
//
// Classification sets alternate labels (+1 for even i, −1 for odd i) unless the geometry
// decides the label (checkerboard). Regression sets have real targets in `labels`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace cplab {

// The names generate() accepts, in display order:
//   "two_blobs"         two Gaussian blobs (σ = 1) whose centres are 5σ apart: nearly
//                       separable (Bayes error ≈ 0.6 %)
//   "overlapping_blobs" the same with centres 1.5σ apart (Bayes error ≈ 23 %)
//   "xor"               four Gaussian clusters (σ = 0.5) at (±1.5, ±1.5); label = sign(x1·x2)
//                       of the cluster centre: not linearly separable
//   "checkerboard"      uniform on [−2, 2)², label +1 on the unit cells with ⌊x1⌋ + ⌊x2⌋ even
//   "rings"             +1 on a ring of radius 1, −1 on a ring of radius 2.5 (radial noise
//                       σ = 0.2): separable only by a nonlinear kernel
//   "sinc_1d"           regression, d = 1: x uniform on [−3, 3), y = sin(πx)/(πx) + 0.1·N(0,1)
//   "plane_2d"          regression, d = 2: x uniform on [−2, 2)², y = 1 + 2·x1 − x2 + 0.2·N(0,1)
std::vector<std::string> generatorNames();

// One line describing generator `name` (for tooltips and `cplab-cli list`); throws
// std::invalid_argument for an unknown name.
std::string generatorDescription(const std::string& name);

// m examples of generator `name` from `seed`: dense storage, featureNames {"x1", ...},
// name = `name`, source = "generator:<name>?m=<m>&seed=<seed>". Throws std::invalid_argument
// for an unknown name or m < 1.
Dataset generate(const std::string& name, int m, std::uint64_t seed);

// Two Gaussian blobs (σ = 1 in every direction) at ±(separation/2)·(1, 1)/√2, labels
// alternating +1, −1; "two_blobs" and "overlapping_blobs" are this with 5 and 1.5. Throws
// std::invalid_argument for m < 1 or a negative or non-finite separation.
Dataset gaussianBlobs(int m, double separation, std::uint64_t seed);

}  // namespace cplab
