// SPDX-License-Identifier: GPL-3.0-or-later
#include "legend_placement.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QResizeEvent>
#include <algorithm>

namespace cplab::widgets {

namespace {

// The other placement must give the plot's shorter side this much more before the legend
// moves: a window resized across the balance point does not make it jump back and forth.
constexpr double kHysteresis = 1.12;

// The row and column of `element` in `grid`, or {-1, -1}.
std::pair<int, int> cellOf(QCPLayoutGrid* grid, QCPLayoutElement* element) {
    for (int r = 0; r < grid->rowCount(); ++r)
        for (int c = 0; c < grid->columnCount(); ++c)
            if (grid->elementAt(grid->rowColToIndex(r, c)) == element) return {r, c};
    return {-1, -1};
}

// The entries (a wrapped legend's grid has empty cells after the last one).
int entries(const QCPLegend* legend) {
    int n = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (legend->item(i)) ++n;
    return n;
}

QSize hintAt(QCPLegend* legend, int wrap) {
    legend->setWrap(wrap);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    return legend->minimumOuterSizeHint();
}

// Wraps a plot's legends to its new width before the plot lays itself out for it.
class LegendWrapper final : public QObject {
  public:
    LegendWrapper(QCustomPlot* plot, std::vector<QCPLegend*> legends)
        : QObject(plot), legends_(std::move(legends)) {
        plot->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize) {
            const int width = static_cast<QResizeEvent*>(event)->size().width();
            for (QCPLegend* legend : legends_)
                fitLegendWrap(legend, width);
        }
        return QObject::eventFilter(watched, event);
    }

  private:
    std::vector<QCPLegend*> legends_;
};

}  // namespace

void fitLegendWrap(QCPLegend* legend, int width, int maxColumns) {
    if (width <= 0) return;
    // The entries' widths (a wrapped grid has empty cells after its last entry).
    std::vector<int> widths;
    for (int i = 0; i < legend->elementCount(); ++i)
        if (QCPLayoutElement* item = legend->elementAt(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    const int n = static_cast<int>(widths.size());
    int wrap = std::clamp(n, 1, std::max(maxColumns, 1));
    for (; wrap > 1; --wrap) {
        std::vector<int> columns(static_cast<std::size_t>(wrap), 0);
        for (int i = 0; i < n; ++i) {
            int& column = columns[static_cast<std::size_t>(i % wrap)];
            column = std::max(column, widths[static_cast<std::size_t>(i)]);
        }
        int total = legend->margins().left() + legend->margins().right() +
                    (wrap - 1) * legend->columnSpacing();
        for (int column : columns)
            total += column;
        if (total <= width) break;
    }
    if (wrap == legend->wrap()) return;
    legend->setWrap(wrap);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // the entries in the new lines
}

void keepLegendsWrapped(QCustomPlot* plot, std::vector<QCPLegend*> legends) {
    new LegendWrapper(plot, std::move(legends));
}

LegendPlacement::LegendPlacement(QCustomPlot* plot, QCPLayoutElement* main, QCPLegend* legend,
                                 int maxColumns)
    : QObject(plot), plot_(plot), main_(main), legend_(legend), maxColumns_(maxColumns) {
    plot->installEventFilter(this);
}

bool LegendPlacement::eventFilter(QObject* watched, QEvent* event) {
    // Before the plot lays itself out at its new size (the filter runs before its handler).
    if (watched == plot_ && event->type() == QEvent::Resize) place();
    return QObject::eventFilter(watched, event);
}

int LegendPlacement::heightOfOtherRows() const {
    // A title row above the plot takes its height in either placement.
    QCPLayoutGrid* grid = plot_->plotLayout();
    const int mainRow = cellOf(grid, main_).first;
    int height = 0;
    for (int r = 0; r < grid->rowCount(); ++r) {
        QCPLayoutElement* element = grid->elementAt(grid->rowColToIndex(r, 0));
        if (r != mainRow && element && element != legend_)
            height += element->minimumOuterSizeHint().height();
    }
    return height;
}

int LegendPlacement::wrapBelow(int width) const {
    fitLegendWrap(legend_, width, maxColumns_);
    return legend_->wrap();
}

int LegendPlacement::wrapBeside(int height) const {
    const int n = entries(legend_);
    int wrap = 1;
    while (wrap < n && hintAt(legend_, wrap).height() > height)
        ++wrap;
    return wrap;
}

void LegendPlacement::place() {
    const QSize size = plot_->size();
    if (size.width() <= 0 || size.height() <= 0 || entries(legend_) == 0) return;
    // The plot's sides in each placement, less its axes' margins (the same in both).
    const QMargins axes = main_->margins();
    const int width = size.width() - axes.left() - axes.right();
    const int height = size.height() - heightOfOtherRows() - axes.top() - axes.bottom();
    const int below = wrapBelow(size.width());
    const QSize belowHint = hintAt(legend_, below);
    // Beside, the entries are stacked closely (moveBeside): measured so.
    const int spacing = legend_->rowSpacing();
    const QSize icon = legend_->iconSize();
    if (!side_) {
        legend_->setRowSpacing(0);
        legend_->setIconSize(icon.width(), std::min(icon.height(), 14));
    }
    const int beside = wrapBeside(size.height() - heightOfOtherRows());
    const QSize besideHint = hintAt(legend_, beside);
    if (!side_) {
        legend_->setRowSpacing(spacing);
        legend_->setIconSize(icon);
    }
    const double belowSide = std::min(width, height - belowHint.height());
    const double besideSide = std::min(width - besideHint.width(), height);
    const bool toBeside =
        side_ ? besideSide * kHysteresis >= belowSide : besideSide > belowSide * kHysteresis;
    hintAt(legend_, toBeside ? beside : below);
    if (toBeside && !side_) moveBeside();
    if (!toBeside && side_) moveBelow();
}

void LegendPlacement::moveBeside() {
    QCPLayoutGrid* grid = plot_->plotLayout();
    grid->take(legend_);
    grid->simplify();
    // Beside, the entries are stacked closely: one column holds more of them.
    belowSpacing_ = legend_->rowSpacing();
    belowIcon_ = legend_->iconSize();
    legend_->setRowSpacing(0);
    legend_->setIconSize(belowIcon_.width(), std::min(belowIcon_.height(), 14));
    side_ = new QCPLayoutGrid;
    grid->addElement(cellOf(grid, main_).first, 1, side_);
    side_->addElement(0, 0, legend_);
    side_->addElement(1, 0, new QCPLayoutElement(plot_));  // the room below the legend
    side_->setRowStretchFactors({0.001, 1.0});
    grid->setColumnStretchFactors({1.0, 0.001});
}

void LegendPlacement::moveBelow() {
    QCPLayoutGrid* grid = plot_->plotLayout();
    side_->take(legend_);
    legend_->setRowSpacing(belowSpacing_);
    legend_->setIconSize(belowIcon_);
    grid->remove(side_);  // and the room below the legend with it
    side_ = nullptr;
    grid->simplify();
    const int row = grid->rowCount();
    grid->addElement(row, 0, legend_);
    grid->setRowStretchFactor(row, 0.001);
}

}  // namespace cplab::widgets
