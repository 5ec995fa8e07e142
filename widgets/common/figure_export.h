// SPDX-License-Identifier: GPL-3.0-or-later
// Figures that leave the app: one painting routine written as PNG, PDF or SVG by the file's
// extension (atomically, core/output_file.h), and the whole of a view — every page (tab) as
// one figure, a grid of the pages under their titles, the plots as vectors in PDF and SVG.
#pragma once

#include <QSize>
#include <QString>
#include <functional>
#include <vector>

#include "qcustomplot.h"

class QWidget;

namespace cplab::widgets {

enum class FigureFormat { Png, Pdf, Svg };

// The format named by `path`'s extension (.png, .pdf, .svg; any case); false with *why
// ("out.jpg: unknown export format 'jpg' (use .png, .pdf or .svg)") otherwise.
bool figureFormat(const QString& path, FigureFormat* format, QString* why);

// Paints a `size` (logical pixels) figure through `paint` into `path`: PNG at `pixelRatio`
// device pixels per logical one, PDF with one logical pixel per point, SVG with a view box of
// `size`. Written beside the target and renamed over it when complete; false with *why (the
// path first) on an unknown extension or a write failure. `paint` gets a painter whose
// coordinates are logical pixels, on a white background (a QCPPainter: plots draw on it).
bool paintFigure(const QString& path, QSize size, const std::function<void(QCPPainter&)>& paint,
                 QString* why, double pixelRatio = 2.0);

// One page of a view: the title of its tab and the widget shown there.
struct FigurePage {
    QString title;
    QWidget* widget = nullptr;
};

// Draws `widget` at the painter's origin as it looks on screen, every QCustomPlot in it (it
// included) through QCustomPlot::toPainter, so that the plots are vectors on a vector device;
// the rest (labels, controls) is rendered as pixels.
void drawWidget(QCPPainter& painter, QWidget* widget);

// The grid `pages` are laid out in (columns; rows follow), and the figure's size for pages of
// `pageSize` each, under a title line when `titled` (a view without tabs has no titles).
int figureColumns(int pageCount);
QSize figureSize(int pageCount, QSize pageSize, bool titled = true);

// Exports every page as one figure: a grid (figureColumns) of the pages under their titles,
// each page brought to the front first (its tab made current, pending replots let through) and
// the tabs left as they were. `pages` must not be empty.
bool exportPages(const std::vector<FigurePage>& pages, const QString& path, QString* why);

}  // namespace cplab::widgets
