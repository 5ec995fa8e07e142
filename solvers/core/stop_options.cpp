// SPDX-License-Identifier: GPL-3.0-or-later
#include "stop_options.h"

#include <algorithm>
#include <cmath>

namespace cplab {

bool StopOptions::isValid(const char* owner, std::string* why) const {
    return require(std::isfinite(epsilon) && epsilon >= 0.0, owner, "epsilon", epsilon,
                   "must be a finite number >= 0", why) &&
           require(std::isfinite(tol_rel) && tol_rel >= 0 && tol_rel < 1, owner, "tol_rel", tol_rel,
                   "must lie in [0, 1)", why) &&
           require(max_iterations > 0, owner, "max_iterations", max_iterations, "must be > 0",
                   why) &&
           require(std::isfinite(max_seconds) && max_seconds >= 0.0, owner, "max_seconds",
                   max_seconds, "must be a finite number >= 0 (0 means no limit)", why);
}

double StopOptions::gapTolerance(double upper) const {
    if (tol_rel <= 0.0 || !std::isfinite(upper)) return epsilon;
    return std::max(epsilon, tol_rel * std::abs(upper));
}

bool StopOptions::relativeReached(double gap, double upper) const {
    return tol_rel > 0.0 && std::isfinite(upper) && gap <= tol_rel * std::abs(upper);
}

}  // namespace cplab
