// SPDX-License-Identifier: GPL-3.0-or-later
// The gap-proportional block sampler of BCFW (gap_sampler.h).
#include "structured/gap_sampler.h"

#include <algorithm>
#include <cmath>

namespace cplab {

namespace {

double clean(double weight) {
    return std::isfinite(weight) && weight > 0.0 ? weight : 0.0;
}

}  // namespace

void GapSampler::assign(const std::vector<double>& weights) {
    const std::size_t n = weights.size();
    weights_.resize(n);
    tree_.assign(n + 1, 0.0);
    total_ = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        weights_[k] = clean(weights[k]);
        total_ += weights_[k];
        tree_[k + 1] += weights_[k];
        const std::size_t parent = (k + 1) + ((k + 1) & (~(k + 1) + 1));
        if (parent <= n) tree_[parent] += tree_[k + 1];
    }
}

void GapSampler::set(int i, double weight) {
    const auto slot = static_cast<std::size_t>(i);
    const double value = clean(weight);
    const double change = value - weights_[slot];
    weights_[slot] = value;
    total_ += change;
    for (std::size_t k = slot + 1; k < tree_.size(); k += k & (~k + 1))
        tree_[k] += change;
}

int GapSampler::draw(PortableRandom& random) const {
    const std::size_t n = weights_.size();
    // The tree's own total may differ from total_ by rounding: draw within the tree's.
    double treeTotal = 0.0;
    for (std::size_t k = n; k > 0; k -= k & (~k + 1))
        treeTotal += tree_[k];
    if (!(treeTotal > 0.0)) return static_cast<int>(random.below(n));
    double target = random.uniform() * treeTotal;
    std::size_t position = 0;
    std::size_t step = 1;
    while (step * 2 <= n)
        step *= 2;
    for (; step > 0; step /= 2) {
        const std::size_t next = position + step;
        if (next <= n && tree_[next] <= target) {
            position = next;
            target -= tree_[next];
        }
    }
    // position = the number of leading weights whose sum is <= target: draw the next one,
    // skipping zero weights that rounding may land on.
    std::size_t drawn = std::min(position, n - 1);
    while (drawn < n && weights_[drawn] <= 0.0)
        ++drawn;
    if (drawn == n) {
        drawn = std::min(position, n - 1);
        while (drawn > 0 && weights_[drawn] <= 0.0)
            --drawn;
    }
    return static_cast<int>(drawn);
}

}  // namespace cplab
