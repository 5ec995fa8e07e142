// SPDX-License-Identifier: GPL-3.0-or-later
// The decision function of a kernel classifier on 2-D data, as the kernel and sparse views draw
// it: f on the snapshot's grid as a colour map (f < 0 light red, f = 0 near white, f > 0 light
// blue, the classes' colours, pale enough for points and contours on top), the boundary f = 0
// and the margins f = ±1 as contour curves.
#pragma once

#include "kernel/kernel_model.h"
#include "qcustomplot.h"

namespace cplab::widgets {

// The object name of the axis rect in which a view draws the training points of 2-D data (of
// 1-D regression data: x against the target y), so that the app's point editor
// (app/gui/point_editor.h) finds where points can be drawn, whichever family's view holds them.
inline constexpr char kTrainingPointsRect[] = "trainingPoints";
// That rect's property saying whether it draws the training points now (2-D data, not bars or
// α against the index): the editor edits only then.
inline constexpr char kShowsTrainingPoints[] = "showsTrainingPoints";
inline void setShowsTrainingPoints(QCPAxisRect* rect, bool shown) {
    rect->setProperty(kShowsTrainingPoints, shown);
}

QCPColorGradient decisionGradient();

// Fills `map` with `grid` (colour range symmetric about 0, saturated beyond ±3) and its
// contours f = 0 into `zero` and f = ±1 into `margins` (either may be null); sets the axes of
// `map` to the grid's box. Returns the number of segments of f = 0, or −1 when the grid is
// empty (nothing drawn: the caller hides the map).
int drawDecisionGrid(const DecisionGrid& grid, QCPColorMap* map, QCPCurve* zero, QCPCurve* margins);

}  // namespace cplab::widgets
