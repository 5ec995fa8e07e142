// SPDX-License-Identifier: GPL-3.0-or-later
// What a QCustomPlot holds, for GUI tests that check what a view draws without a screenshot.
#pragma once

#include <qcustomplot.h>

namespace cplab::testing {

// Data points held by the plot's plottables (a colour map counts its cells): 0 when nothing
// is drawn.
inline int drawnPoints(QCustomPlot* plot) {
    int count = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (QCPPlottableInterface1D* data = p->interface1D()) {
            count += data->dataCount();
        } else if (auto* map = qobject_cast<QCPColorMap*>(p)) {
            count += map->data()->keySize() * map->data()->valueSize();
        }
    }
    return count;
}

}  // namespace cplab::testing
