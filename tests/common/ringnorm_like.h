// SPDX-License-Identifier: GPL-3.0-or-later
// Ringnorm-like data (Breiman 1996) for the MKL benchmark and tests: m examples × d features,
// every value distinct; class +1 (even i) ~ N(0, 4I), class −1 (odd i) ~ N(a·1, I) with
// a = 2/√d. Drawn with std::mt19937_64 and std::normal_distribution from `seed` (bench_mkl's
// judged set is seed 50, 400 × 20).
#pragma once

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "data/dataset.h"

namespace cplab {

inline std::shared_ptr<Dataset> ringnormLike(unsigned seed, int m, int d) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    auto data = std::make_shared<Dataset>();
    data->name = data->source = "ringnorm-like (seed " + std::to_string(seed) + ")";
    data->dense.resize(m, d);
    data->labels.resize(m);
    const double a = 2.0 / std::sqrt(static_cast<double>(d));
    for (int i = 0; i < m; ++i) {
        const bool positive = i % 2 == 0;
        data->labels[i] = positive ? 1.0 : -1.0;
        for (int j = 0; j < d; ++j)
            data->dense(i, j) = positive ? 2.0 * normal(random) : a + normal(random);
    }
    return data;
}

}  // namespace cplab
