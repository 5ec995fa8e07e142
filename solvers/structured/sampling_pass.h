// SPDX-License-Identifier: GPL-3.0-or-later
// The sampling pass of the stochastic structured solvers (BCFW, SSG, online MKL): a run of
// per-word steps in some order, each of which may cost seconds (a decoding with thousands of
// labels), so the user's stop and the time limit are polled before every word.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/cancel_token.h"
#include "data/portable_random.h"

namespace cplab {

// A fresh random permutation of `order` (Fisher–Yates from the front: position s swaps with
// s + random.below(n − s)), as BCFW and SSG start a pass with sampling = permutation.
void shuffleFromFront(std::vector<int>& order, PortableRandom& random);

// How far a pass came.
struct PassProgress {
    int steps = 0;         // steps completed
    double stepSum = 0.0;  // Σ of the sizes they returned
    bool failed = false;   // a step could not be taken (the pass ended there, not counting it)
    // The mean step size of the completed steps (0 without any).
    double meanStep() const { return stepSum / (steps > 0 ? steps : 1); }
};

// Up to `count` steps step(0), step(1), …: before step k polls `stop` (requested: the pass
// ends with k steps) and reports progress as "<what>: k of count <unit>"; step(k) returns its
// step size, or nothing when the run cannot go on.
PassProgress runSamplingPass(int count, const Interrupt& stop, const char* what, const char* unit,
                             const std::function<std::optional<double>(int)>& step);

}  // namespace cplab
