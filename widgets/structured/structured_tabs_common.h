// SPDX-License-Identifier: GPL-3.0-or-later
// What the structured view's tabs (structured_model_tab.h, structured_lattice_tab.h) share:
// label names on axes, axes reset for a new problem, and the shape of a label's features when they
// are an image.
#pragma once

#include <QFontMetrics>
#include <QString>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "data/sequence_format.h"
#include "qcustomplot.h"

namespace cplab::widgets {

// Labels named on the axes up to this many (beyond, numbers).
inline constexpr int kNamedLabels = 40;

inline QString labelName(const std::vector<std::string>& names, int y) {
    return y < static_cast<int>(names.size()) ? QString::fromStdString(names[y])
                                              : QString::number(y);
}

// Ticks named after the labels ("a" … "z"), as many as the axis has room for at its own tick
// font: every label when each has a line (a character's width across) of its own, else every
// 2nd, 3rd, … from the first (26 letters beside a 150-pixel-high matrix were drawn at 7 pt,
// touching). The room is measured on every replot, so a larger plot names more labels.
class LabelTicker : public QCPAxisTicker {
  public:
    LabelTicker(QCPAxis* axis, std::vector<QString> names)
        : axis_(axis), names_(std::move(names)) {}

    // Every stride-th label is named (1: all).
    int stride(const QCPRange& range) const {
        const bool vertical = axis_->orientation() == Qt::Vertical;
        const QFontMetrics metrics(axis_->tickLabelFont());
        int need = metrics.height();
        if (!vertical) {
            need = 0;
            for (const QString& name : names_)
                need = std::max(need, metrics.horizontalAdvance(name));
            need += metrics.averageCharWidth();
        }
        const int length = vertical ? axis_->axisRect()->height() : axis_->axisRect()->width();
        const double perLabel = length / std::max(1.0, range.size());
        if (perLabel <= 0) return 1;
        return std::max(1, static_cast<int>(std::ceil(need / perLabel)));
    }

  protected:
    double getTickStep(const QCPRange& range) override { return stride(range); }
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        const auto k = static_cast<std::size_t>(std::lround(tick));
        return k < names_.size() ? names_[k] : QString();
    }
    QVector<double> createTickVector(double step, const QCPRange& range) override {
        QVector<double> ticks;
        for (double t = 0; t < static_cast<double>(names_.size()); t += step) {
            if (range.contains(t)) ticks << t;
        }
        return ticks;
    }

  private:
    QCPAxis* axis_;
    std::vector<QString> names_;
};

// Ticks named after the first `labels` labels (up to kNamedLabels of them), at the axis's own
// tick font, else numbers.
inline void labelTicks(QCPAxis* axis, int labels, const std::vector<std::string>& names) {
    if (labels > kNamedLabels) {
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        return;
    }
    std::vector<QString> named;
    for (int label = 0; label < labels; ++label)
        named.push_back(labelName(names, label));
    axis->setTicker(QSharedPointer<LabelTicker>::create(axis, std::move(named)));
}

// The rows × columns of one label's emission image: Taskar's letters are 16 × 8 pixels, other
// square dimensions square images; {0, 0} when the features are not an image.
inline std::pair<int, int> imageShape(int features) {
    if (features == kOcrPixels) return {16, 8};
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(features))));
    if (side >= 4 && side * side == features) return {side, side};
    return {0, 0};
}

// An axis as before any problem (after clear()): no title, numbered ticks, range 0 to 1.
inline void resetAxis(QCPAxis* axis) {
    axis->setLabel({});
    axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    axis->setRange(0, 1);
}

}  // namespace cplab::widgets
