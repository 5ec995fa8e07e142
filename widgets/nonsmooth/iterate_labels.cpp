// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterate_labels.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace cplab::widgets {

IterateLabels::IterateLabels(QCustomPlot* plot, QCPAxisRect* rect) : plot_(plot), rect_(rect) {}

QCPItemText* IterateLabels::labelAt(int index) {
    while (static_cast<int>(labels_.size()) <= index) {
        auto* label = new QCPItemText(plot_);
        label->setClipAxisRect(rect_);
        label->setClipToAxisRect(true);
        label->position->setAxes(rect_->axis(QCPAxis::atBottom), rect_->axis(QCPAxis::atLeft));
        // Above and to the right of the point, clear of its marker.
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(4, 0, 0, 2));
        QFont font;
        font.setPointSize(8);
        font.setBold(true);
        label->setFont(font);
        label->setLayer("legend");  // over the paths, under nothing but the legend
        labels_.push_back(label);
    }
    return labels_[static_cast<std::size_t>(index)];
}

void IterateLabels::draw(const std::vector<QPointF>& points, const QColor& colour, QPointF spacing,
                         int newest, int firstNumber) {
    clear();
    const int n = static_cast<int>(points.size());
    std::vector<QPointF> placed;
    for (int k = n - 1; k >= 0 && k >= n - newest; --k) {
        const QPointF& p = points[static_cast<std::size_t>(k)];
        if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
        const bool crowded = std::any_of(placed.begin(), placed.end(), [&](const QPointF& q) {
            return std::abs(p.x() - q.x()) < spacing.x() && std::abs(p.y() - q.y()) < spacing.y();
        });
        if (crowded) continue;
        placed.push_back(p);
        QCPItemText* label = labelAt(shown_++);
        label->position->setCoords(p);
        label->setText(QString::number(k + firstNumber));
        // Fading with age: the newest opaque, the oldest labelled about a third.
        QColor c = colour;
        const double age = static_cast<double>(n - 1 - k) / std::max(1, newest - 1);
        c.setAlphaF(static_cast<float>(1.0 - 0.65 * age));
        label->setColor(c);
        label->setVisible(true);
    }
}

void IterateLabels::clear() {
    for (QCPItemText* label : labels_)
        label->setVisible(false);
    shown_ = 0;
}

QString IterateLabels::text(int i) const {
    return i >= 0 && i < shown_ ? labels_[static_cast<std::size_t>(i)]->text() : QString();
}

}  // namespace cplab::widgets
