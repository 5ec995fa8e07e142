// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_gaps_tab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "plot_style.h"

namespace cplab::widgets {

StructuredGapsTab::StructuredGapsTab(QWidget* parent)
    : QCustomPlot(parent), replots_(new CoalescedReplot(this)) {
    setObjectName("structuredWordGapPlot");
    applyPlotStyle(this);
    // One strip, word i at x = i + 1, coloured by log gapᵢ.
    QCPAxisRect* rect = axisRect();
    styleAxisRect(rect);
    rect->axis(QCPAxis::atBottom)->setLabel(tr("training word i"));
    rect->axis(QCPAxis::atLeft)->setTicks(false);
    rect->axis(QCPAxis::atLeft)->setTickLabels(false);
    rect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    rect->axis(QCPAxis::atLeft)->setRange(-0.5, 0.5);
    wordGaps_ = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    createScale();
    note_ = addNote(this, rect);
    note_->setText(tr("Only BCFW keeps a gap per word (its block gaps)."));
}

void StructuredGapsTab::createScale() {
    QCPColorGradient heat;
    heat.clearColorStops();
    heat.setColorStopAt(0.0, QColor(255, 255, 229));
    heat.setColorStopAt(0.35, QColor(254, 196, 79));
    heat.setColorStopAt(0.7, QColor(236, 112, 20));
    heat.setColorStopAt(1.0, QColor(102, 37, 6));
    heat.setNanHandling(QCPColorGradient::nhTransparent);
    wordGaps_->setGradient(heat);
    wordGaps_->setInterpolate(false);
    wordGaps_->setDataScaleType(QCPAxis::stLogarithmic);
    auto* scale = new QCPColorScale(this);
    plotLayout()->addElement(1, 0, scale);
    scale->setType(QCPAxis::atBottom);
    scale->setLabel(
        tr("gap_i of the word at its last visit (log scale; their sum is about "
           "the duality gap)"));
    scale->setDataScaleType(QCPAxis::stLogarithmic);
    scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    scale->axis()->setNumberFormat("eb");
    scale->axis()->setNumberPrecision(0);
    wordGaps_->setColorScale(scale);
    scale->setGradient(heat);  // the scale's gradient is the map's from here on
    auto* margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    scale->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    plotLayout()->setRowStretchFactors({1.0, 0.001});
}

void StructuredGapsTab::clear() {
    wordGaps_->data()->clear();
    note_->setVisible(true);
}

void StructuredGapsTab::draw(const std::vector<double>& gaps) {
    const int n = static_cast<int>(gaps.size());
    note_->setVisible(n == 0);
    if (n == 0) {
        wordGaps_->data()->clear();
        return;
    }
    // Two equal rows: a map one cell high would be drawn with no height.
    wordGaps_->data()->setSize(n, 2);
    wordGaps_->data()->setRange(QCPRange(1, n > 1 ? n : 1), QCPRange(-0.25, 0.25));
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (int i = 0; i < n; ++i) {
        const double g = gaps[static_cast<std::size_t>(i)];
        // A gap at or below 0 (the word's block at its optimum, up to rounding) is drawn as
        // the smallest positive gap; NaN (not visited yet) stays blank.
        wordGaps_->data()->setCell(i, 0, g);
        wordGaps_->data()->setCell(i, 1, g);
        if (g > 0) {
            lo = std::min(lo, g);
            hi = std::max(hi, g);
        }
    }
    if (hi > 0) {
        lo = std::max(lo, hi * 1e-8);
        for (int i = 0; i < n; ++i) {
            const double g = gaps[static_cast<std::size_t>(i)];
            if (!std::isfinite(g) || g >= lo) continue;
            wordGaps_->data()->setCell(i, 0, lo);
            wordGaps_->data()->setCell(i, 1, lo);
        }
        wordGaps_->setDataRange(QCPRange(lo, hi > lo ? hi : lo * 10));
    }
    axisRect()->axis(QCPAxis::atBottom)->setRange(0.5, n + 0.5);
}

double StructuredGapsTab::cell(int i) const {
    if (i < 0 || i >= wordGaps_->data()->keySize()) return std::numeric_limits<double>::quiet_NaN();
    return wordGaps_->data()->cell(i, 0);
}

}  // namespace cplab::widgets
