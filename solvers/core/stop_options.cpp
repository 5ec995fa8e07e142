#include "stop_options.h"

#include <cmath>

namespace cplab {

bool StopOptions::isValid(const char* owner, std::string* why) const {
    return require(std::isfinite(epsilon) && epsilon >= 0.0, owner, "epsilon", epsilon,
                   "must be a finite number >= 0", why) &&
           require(std::isfinite(epsilon_rel) && epsilon_rel >= 0.0, owner, "epsilon_rel",
                   epsilon_rel, "must be a finite number >= 0", why) &&
           require(max_iterations > 0, owner, "max_iterations", max_iterations, "must be > 0",
                   why) &&
           require(std::isfinite(max_seconds) && max_seconds >= 0.0, owner, "max_seconds",
                   max_seconds, "must be a finite number >= 0 (0 means no limit)", why);
}

}  // namespace cplab
