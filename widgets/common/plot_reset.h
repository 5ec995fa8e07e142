// SPDX-License-Identifier: GPL-3.0-or-later
// What a view's clear() does to its plots so that nothing of the previous problem stays on
// screen when another is loaded: every graph and curve emptied, every axis back to [0, 1]
// (a log axis to [1, 10]).
#pragma once

class QCustomPlot;

namespace cplab::widgets {

// Empties every plottable's data (graphs, curves, bars, colour maps hidden) and sets every
// axis of every axis rect of `plot` to the range [0, 1] ([1, 10] if logarithmic). Labels are the
// caller's: those that name the problem's data are reset where the view sets them up.
void resetPlot(QCustomPlot* plot);

}  // namespace cplab::widgets
