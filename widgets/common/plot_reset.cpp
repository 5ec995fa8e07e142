// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_reset.h"

#include <qcustomplot.h>

namespace cplab::widgets {

void resetPlot(QCustomPlot* plot) {
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (auto* g = qobject_cast<QCPGraph*>(p)) {
            g->data()->clear();
        } else if (auto* c = qobject_cast<QCPCurve*>(p)) {
            c->data()->clear();
        } else if (auto* b = qobject_cast<QCPBars*>(p)) {
            b->data()->clear();
        } else if (auto* m = qobject_cast<QCPColorMap*>(p)) {
            m->setVisible(false);
        }
    }
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            if (axis->scaleType() == QCPAxis::stLogarithmic) {
                axis->setRange(1, 10);
            } else {
                axis->setRange(0, 1);
            }
        }
    }
}

}  // namespace cplab::widgets
