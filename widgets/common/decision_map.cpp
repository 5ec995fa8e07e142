// SPDX-License-Identifier: GPL-3.0-or-later
#include "decision_map.h"

#include <algorithm>
#include <cmath>

#include "plot_style.h"

namespace cplab::widgets {

QCPColorGradient decisionGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(238, 160, 155));
    g.setColorStopAt(0.5, QColor(250, 250, 248));
    g.setColorStopAt(1.0, QColor(160, 196, 230));
    return g;
}

int drawDecisionGrid(const DecisionGrid& grid, QCPColorMap* map, QCPCurve* zero,
                     QCPCurve* margins) {
    if (grid.n < 2 || grid.values.size() != static_cast<std::size_t>(grid.n) * grid.n) return -1;
    map->data()->setSize(grid.n, grid.n);
    map->data()->setRange(QCPRange(grid.x0, grid.x1), QCPRange(grid.y0, grid.y1));
    double largest = 0.0;
    for (int iy = 0; iy < grid.n; ++iy) {
        for (int ix = 0; ix < grid.n; ++ix) {
            const double f = grid.values[static_cast<std::size_t>(iy) * grid.n + ix];
            map->data()->setCell(ix, iy, f);
            if (std::isfinite(f)) largest = std::max(largest, std::abs(f));
        }
    }
    // Symmetric about f = 0 so that white is the boundary; beyond ±3 saturated.
    const double range = std::clamp(largest, 1.25, 3.0);
    map->setDataRange(QCPRange(-range, range));
    map->keyAxis()->setRange(grid.x0, grid.x1);
    map->valueAxis()->setRange(grid.y0, grid.y1);
    int segments = 0;
    if (zero) segments = setContourSegments(zero, {grid.zero});
    if (margins) setContourSegments(margins, grid.margins);
    return segments;
}

}  // namespace cplab::widgets
