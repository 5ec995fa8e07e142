// SPDX-License-Identifier: GPL-3.0-or-later
// How a plot's legend fits its room. Wrapped to the width of its row; and where it goes: in a row
// below the plot, or in a column beside it, whichever leaves the plot's shorter side the longer. A
// short, wide view (a 1280x720 screen with 150 % fonts, the model view under a caption) keeps its
// map tall with the legend beside it; a narrow one keeps the whole width with the legend below.
// Either way the legend takes as few lines (below) or columns (beside) as fit, so no entry is cut
// off and none covers the data.
#pragma once

#include <QObject>
#include <QSize>
#include <limits>
#include <vector>

class QCustomPlot;
class QCPLayoutElement;
class QCPLayoutGrid;
class QCPLegend;

namespace cplab::widgets {

// Sets the wrap of `legend` (a legend row filled columns first, plot_style's addLegendRow) to
// the most entries per line, at most `maxColumns`, whose columns fit `width` pixels, so that
// no entry is cut off at the plot's edge.
void fitLegendWrap(QCPLegend* legend, int width, int maxColumns = std::numeric_limits<int>::max());

// Keeps `legends` of `plot` wrapped to its width (fitLegendWrap) whenever it is resized.
void keepLegendsWrapped(QCustomPlot* plot, std::vector<QCPLegend*> legends);

class LegendPlacement : public QObject {
    Q_OBJECT
  public:
    // `legend` is in its own row of `plot`'s top layout under `main` (addLegendRow); at most
    // `maxColumns` entries a line when below. Owned by `plot`; places the legend on every
    // resize of the plot and whenever place() is called: after the entries change, before a
    // replot (never during one: a move frees layout elements the layout may be walking).
    LegendPlacement(QCustomPlot* plot, QCPLayoutElement* main, QCPLegend* legend, int maxColumns);

    void place();
    bool beside() const { return side_ != nullptr; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    int heightOfOtherRows() const;
    int wrapBelow(int width) const;
    int wrapBeside(int height) const;
    void moveBeside();
    void moveBelow();

    QCustomPlot* plot_;
    QCPLayoutElement* main_;
    QCPLegend* legend_;
    int maxColumns_;
    QCPLayoutGrid* side_ = nullptr;  // the column beside the plot while the legend is there
    int belowSpacing_ = 0;           // the legend's row spacing and icon size below the plot
    QSize belowIcon_;
};

}  // namespace cplab::widgets
