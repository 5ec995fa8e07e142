// SPDX-License-Identifier: GPL-3.0-or-later
// Level sets of a function sampled on a regular 2-D grid (marching squares), for plots.
// Plot-data helper: views draw the segments and never compute them.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace cplab {

// Samples of f on the grid x_i = x0 + i·dx (i < nx), y_j = y0 + j·dy (j < ny), stored
// row by row: values[j·nx + i] = f(x_i, y_j).
struct GridSamples {
    double x0 = 0, y0 = 0, dx = 1, dy = 1;
    int nx = 0, ny = 0;
    std::vector<double> values;

    double at(int i, int j) const { return values[static_cast<std::size_t>(j) * nx + i]; }
    double x(int i) const { return x0 + i * dx; }
    double y(int j) const { return y0 + j * dy; }
};

struct ContourLevel {
    double level = 0.0;
    // Line segments (a, b) of the level set; consecutive segments are not joined.
    std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> segments;
};

// Level set {f = level} by marching squares (saddle cells resolved by the cell mean).
ContourLevel contourLevel(const GridSamples& grid, double level);

// `count` levels at evenly spaced quantiles of the samples, denser where f varies little,
// which reads well for functions whose range spans orders of magnitude.
std::vector<double> quantileLevels(const GridSamples& grid, int count);

}  // namespace cplab
