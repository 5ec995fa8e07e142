// SPDX-License-Identifier: GPL-3.0-or-later
// What the kernel view's tabs (kernel_decision_tab.h, kernel_weights_tab.h,
// kernel_progress_tab.h, kernel_model_panel.h) draw alike: inset legends without row spacing,
// integer iteration ticks, the grey of unnamed kernels, and when α counts as bound.
#pragma once

#include <qcustomplot.h>

#include "plot_style.h"

namespace cplab::widgets {

// Colour of kernel k: a palette of its own, so that no kernel looks like a run of a race
// (runColor), which the same tabs draw beside the kernels.
inline QColor kernelColour(int k) {
    static const QColor palette[] = {{0, 128, 128}, {204, 153, 0}, {170, 0, 120},  {110, 130, 0},
                                     {40, 40, 120}, {150, 80, 20}, {90, 110, 130}, {230, 100, 90}};
    const int n = static_cast<int>(sizeof palette / sizeof palette[0]);
    return palette[((k % n) + n) % n];
}

// Kernels named (and coloured) in the weights' legend when there are many.
inline constexpr int kNamedKernels = 6;
inline const QColor kOtherKernel{200, 200, 200};

inline QCPLegend* insetLegend(QCPAxisRect* rect, Qt::Alignment alignment) {
    QCPLegend* legend = addInsetLegend(rect, alignment);
    legend->setRowSpacing(0);
    return legend;
}

// Integer ticks (iterations, counts) that thin out as the range grows.
inline QSharedPointer<QCPAxisTickerFixed> integerTicker() {
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

inline bool isBound(double alpha, double C) {
    return alpha >= C * (1.0 - 1e-9);
}

}  // namespace cplab::widgets
