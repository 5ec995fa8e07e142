// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers beside the newest iterates of a 2-D path (Kelley's zig-zag, the LP minimisers of
// SILP on the simplex): small labels k next to x_k, fading with age, only for the last few
// points and never two on top of each other, so that the order of the jumps can be followed
// without burying the picture.
#pragma once

#include <QColor>
#include <QPointF>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPItemText;

namespace cplab::widgets {

class IterateLabels {
  public:
    // Labels on `rect` of `plot` (the plot owns them).
    IterateLabels(QCustomPlot* plot, QCPAxisRect* rect);

    // Numbers the newest `newest` of `points` (point k labelled k + `firstNumber`), newest
    // opaque in `colour`, older ones lighter; a point closer than `spacing` (in the axes' units,
    // per axis) to a newer labelled one keeps no label.
    void draw(const std::vector<QPointF>& points, const QColor& colour, QPointF spacing,
              int newest = kNewest, int firstNumber = 0);
    void clear();
    int count() const { return shown_; }
    // The text of label `i` (newest first), for tests.
    QString text(int i) const;

    static constexpr int kNewest = 12;

  private:
    QCPItemText* labelAt(int index);

    QCustomPlot* plot_;
    QCPAxisRect* rect_;
    std::vector<QCPItemText*> labels_;
    int shown_ = 0;
};

}  // namespace cplab::widgets
