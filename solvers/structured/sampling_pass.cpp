// SPDX-License-Identifier: GPL-3.0-or-later
// The sampling pass of BCFW, SSG and online MKL (sampling_pass.h).
#include "structured/sampling_pass.h"

#include <utility>

namespace cplab {

void shuffleFromFront(std::vector<int>& order, PortableRandom& random) {
    const int n = static_cast<int>(order.size());
    for (int s = 0; s + 1 < n; ++s) {
        const int j = s + static_cast<int>(random.below(static_cast<std::uint64_t>(n - s)));
        std::swap(order[static_cast<std::size_t>(s)], order[static_cast<std::size_t>(j)]);
    }
}

PassProgress runSamplingPass(int count, const Interrupt& stop, const char* what, const char* unit,
                             const std::function<std::optional<double>(int)>& step) {
    PassProgress pass;
    for (; pass.steps < count; ++pass.steps) {
        if (stop.requested()) break;
        stop.report(what, pass.steps, count, unit);
        const std::optional<double> size = step(pass.steps);
        if (!size) {
            pass.failed = true;
            break;
        }
        pass.stepSum += *size;
    }
    return pass;
}

}  // namespace cplab
