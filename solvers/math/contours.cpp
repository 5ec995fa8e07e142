// SPDX-License-Identifier: GPL-3.0-or-later
#include "contours.h"

#include <algorithm>
#include <cmath>

namespace cplab {

namespace {

// Point on the edge from (pa, va) to (pb, vb) where the linear interpolant equals level.
Eigen::Vector2d crossing(const Eigen::Vector2d& pa, double va, const Eigen::Vector2d& pb, double vb,
                         double level) {
    const double denominator = vb - va;
    const double t = denominator == 0.0 ? 0.5 : std::clamp((level - va) / denominator, 0.0, 1.0);
    return pa + t * (pb - pa);
}

}  // namespace

ContourLevel contourLevel(const GridSamples& grid, double level) {
    ContourLevel out;
    out.level = level;
    for (int j = 0; j + 1 < grid.ny; ++j) {
        for (int i = 0; i + 1 < grid.nx; ++i) {
            // Corners counter-clockwise from bottom-left.
            const Eigen::Vector2d p[4] = {{grid.x(i), grid.y(j)},
                                          {grid.x(i + 1), grid.y(j)},
                                          {grid.x(i + 1), grid.y(j + 1)},
                                          {grid.x(i), grid.y(j + 1)}};
            const double v[4] = {grid.at(i, j), grid.at(i + 1, j), grid.at(i + 1, j + 1),
                                 grid.at(i, j + 1)};
            if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]) ||
                !std::isfinite(v[3])) {
                continue;
            }
            int mask = 0;
            for (int k = 0; k < 4; ++k)
                mask |= (v[k] > level ? 1 : 0) << k;
            if (mask == 0 || mask == 15) continue;

            // Crossing points on the edges k = (corner k, corner k+1) that change sign.
            Eigen::Vector2d cross[4];
            bool has[4] = {false, false, false, false};
            for (int k = 0; k < 4; ++k) {
                const int n = (k + 1) % 4;
                if ((v[k] > level) != (v[n] > level)) {
                    cross[k] = crossing(p[k], v[k], p[n], v[n], level);
                    has[k] = true;
                }
            }
            int edges[4];
            int count = 0;
            for (int k = 0; k < 4; ++k) {
                if (has[k]) edges[count++] = k;
            }
            if (count == 2) {
                out.segments.emplace_back(cross[edges[0]], cross[edges[1]]);
            } else if (count == 4) {
                // Saddle: corners 0 and 2 on one side. Connect so that the cell centre's side
                // (by the mean of the corners) stays connected.
                const bool centreAbove = (v[0] + v[1] + v[2] + v[3]) / 4.0 > level;
                const bool corner0Above = v[0] > level;
                if (centreAbove == corner0Above) {
                    out.segments.emplace_back(cross[0], cross[1]);
                    out.segments.emplace_back(cross[2], cross[3]);
                } else {
                    out.segments.emplace_back(cross[3], cross[0]);
                    out.segments.emplace_back(cross[1], cross[2]);
                }
            }
        }
    }
    return out;
}

std::vector<double> quantileLevels(const GridSamples& grid, int count) {
    std::vector<double> finite;
    finite.reserve(grid.values.size());
    for (double v : grid.values) {
        if (std::isfinite(v)) finite.push_back(v);
    }
    std::vector<double> levels;
    if (finite.empty() || count <= 0) return levels;
    std::sort(finite.begin(), finite.end());
    for (int k = 1; k <= count; ++k) {
        // Quantiles q = (k/(count+1))², denser near the minimum where the interesting detail is.
        const double q = std::pow(static_cast<double>(k) / (count + 1), 2.0);
        const auto index = static_cast<std::size_t>(q * static_cast<double>(finite.size() - 1));
        const double level = finite[index];
        if (levels.empty() || level > levels.back()) levels.push_back(level);
    }
    return levels;
}

}  // namespace cplab
