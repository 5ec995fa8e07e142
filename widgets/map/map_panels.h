// SPDX-License-Identifier: GPL-3.0-or-later
// How the map view's labeling tab (map_view.h) arranges a grid model's pictures side by side:
// the input image (if any) and the labeling of every run of the race, each a rows × columns
// panel of cells with a caption below, in as many panel columns as make the panels largest in
// the plot's pixel rectangle: geometry in cell units. The panels' code is in
// map_view_panels.cpp.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>

class QCustomPlot;
class QCPAxisRect;
class QCPItemPixmap;

namespace cplab::widgets {

// A pixmap item on `rect`'s axes, scaled to its corners without smoothing (one cell per node),
// behind the markers, hidden until drawn.
QCPItemPixmap* addCellImage(QCustomPlot* plot, QCPAxisRect* rect);

struct MapPanels {
    int rows = 0, columns = 0;  // of one panel's grid
    int count = 1;              // panels in all (the input image included)
    int perLine = 1;            // panels side by side

    // Empty cells between two panels, and the height of a caption below a panel, in cells.
    double gap() const;
    double captionHeight() const;
    // The cell coordinates of node (0, 0) of panel `slot` (cell centres at integers).
    QPointF origin(int slot) const;
    // The box that holds every panel and caption, with half a cell to spare around (the faces
    // of a torus lie outside it), in cell coordinates.
    QRectF box() const;
    // The panels per line that make the panels largest in a `pixels` rectangle (at least one
    // pixel per cell on both axes alike).
    static int bestPerLine(int rows, int columns, int count, const QSizeF& pixels);
};

}  // namespace cplab::widgets
