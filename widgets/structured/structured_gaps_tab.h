// SPDX-License-Identifier: GPL-3.0-or-later
// The structured view's "Word gaps" tab (structured_view.h), for BCFW: gapᵢ of every training
// word at its last visit as a heat strip (log colour scale), so one sees which words are still
// far from their block optimum.
#pragma once

#include <vector>

#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;

class StructuredGapsTab final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit StructuredGapsTab(QWidget* parent = nullptr);

    void clear();
    // Draws the gaps (NaN: word not visited yet); none: the note that only BCFW has them.
    void draw(const std::vector<double>& gaps);
    CoalescedReplot* replots() const { return replots_; }
    // The drawn gapᵢ of training word i (NaN where none is drawn).
    double cell(int i) const;

  private:
    void createScale();

    CoalescedReplot* replots_;
    QCPColorMap* wordGaps_ = nullptr;
    QCPItemText* note_ = nullptr;
};

}  // namespace cplab::widgets
