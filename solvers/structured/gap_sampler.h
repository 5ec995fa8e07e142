// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing blocks in proportion to their gap estimates, for BCFW's sampling = gap (Osokin,
// Alayrac, Lukasewitz, Dokania & Lacoste-Julien 2016, "Minding the gaps for block Frank-Wolfe
// optimization of structured SVMs", ICML, §3.1): a Fenwick tree over n non-negative weights,
// O(log n) per changed weight and per draw.
#pragma once

#include <vector>

#include "data/portable_random.h"

namespace cplab {

class GapSampler {
  public:
    // Sets all n weights (O(n)); a negative or NaN weight counts as 0.
    void assign(const std::vector<double>& weights);
    // Sets weight i (same rule).
    void set(int i, double weight);
    double weight(int i) const { return weights_[static_cast<std::size_t>(i)]; }
    // Σ weights (kept as a plain sum, rebuilt by assign).
    double total() const { return total_; }
    int size() const { return static_cast<int>(weights_.size()); }
    // An index drawn with probability weightᵢ / total; uniformly when the total is 0.
    // Precondition: size() > 0.
    int draw(PortableRandom& random) const;

  private:
    std::vector<double> tree_;     // Fenwick tree: tree_[k] sums weights (k − lowbit(k), k]
    std::vector<double> weights_;  // the weights as set (clamped at 0)
    double total_ = 0.0;
};

}  // namespace cplab
