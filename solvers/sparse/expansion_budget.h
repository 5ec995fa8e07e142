// SPDX-License-Identifier: GPL-3.0-or-later
// The budget of expansion vectors of the sparse solvers: `expansion_vectors` (a count N_z) and
// `expansion_ratio` (N_z from the full SVM's support vectors) are alternatives. The options
// structs call yieldExpansionDefault from their applyGiven hook (app/registry/family.h,
// parseGiven), so that a ratio given alone replaces the default count — an option the user did not
// give never conflicts with one they did (both given still do).
#pragma once

#include "core/options.h"

namespace cplab {

template <class Options>
void yieldExpansionDefault(Options& options, const OptionValues& given) {
    if (given.count("expansion_ratio") && !given.count("expansion_vectors") &&
        options.expansion_ratio > 0)
        options.expansion_vectors = 0;
}

}  // namespace cplab
