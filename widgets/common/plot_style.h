// SPDX-License-Identifier: GPL-3.0-or-later
// Shared look of every plot: colours, pens, fonts, and helpers used by the plot widgets.
#pragma once

#include <QColor>
#include <QPen>
#include <QString>
#include <limits>
#include <vector>

#include "math/contours.h"
#include "qcustomplot.h"

class QCPAxis;
class QCPCurve;
class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemText;
class QCPLegend;

namespace cplab::widgets {

// Colour of run number k (k = run id - 1; cycles through 8): mid-tone hues after Okabe & Ito's
// palette for colour-blind viewers, readable on white. No colour below (colors::) is within
// an RGB distance of 60 of any of them, so a run's colour means that run wherever it appears.
QColor runColor(int k);
// Marker shape of run number k (k = run id - 1; 8 distinct shapes, then cycles): with the
// colour, a run stays identifiable in greyscale print and for colour-blind viewers.
QCPScatterStyle::ScatterShape runMarker(int k);
// The marker of run k in `color` as the bounds plot draws it (hollow shapes filled white).
QCPScatterStyle runMarkerStyle(int k, const QColor& color, double size = 7.0);

// Named colours with a fixed meaning in every view: dark tones and greys, and light fills, all
// apart from the run colours above (hue and lightness) so they never read as a run.
namespace colors {
inline const QColor kFunction{30, 30, 30};
inline const QColor kModel{20, 50, 120};        // navy
inline const QColor kPlane{150, 170, 200};      // light steel
inline const QColor kNewestPlane{190, 0, 120};  // deep magenta
inline const QColor kCandidate{165, 0, 30};     // crimson
inline const QColor kBest{0, 100, 40};          // dark green
inline const QColor kProx{100, 30, 140};        // dark violet
inline const QColor kOptimum{0, 0, 0};
inline const QColor kContour{110, 110, 110};
inline const QColor kKink{110, 60, 40};    // dark brown
inline const QColor kMarker{90, 90, 90};   // the timeline position in the bounds plot
inline const QColor kPath{40, 40, 40};     // the iterates' path
inline const QColor kOutline{60, 60, 60};  // polygon, stored planes, vertex labels
inline const QColor kNote{110, 110, 110};  // notes in a plot
inline const QColor kBreakpoint{120, 120, 120};
inline const QColor kLegendBorder{200, 200, 200};
inline const QColor kLegendFill{255, 255, 255, 220};
inline const QColor kLegendFillLight{255, 255, 255, 170};
inline const QColor kNewestPlaneFill{190, 0, 120, 36};
inline const QColor kPolygonFill{20, 50, 120, 28};
// Heat map of f, low to high.
inline const QColor kHeatLow{255, 252, 235};
inline const QColor kHeatMidLow{230, 240, 210};
inline const QColor kHeatMidHigh{190, 220, 225};
inline const QColor kHeatHigh{150, 180, 215};
// Text panels (HTML): errors in the log, the pseudocode's current and executed lines.
inline const QColor kErrorText{176, 0, 0};
inline const QColor kText{68, 68, 68};  // descriptions beside the forms
inline const QColor kCurrentLine{255, 217, 168};
inline const QColor kExecutedLine{232, 240, 250};
inline const QColor kLineNumber{130, 60, 20};
}  // namespace colors

// White background, light grid, readable fonts, antialiasing, drag/zoom interactions.
void applyPlotStyle(QCustomPlot* plot);
void styleAxisRect(QCPAxisRect* rect);

// A pen of `width` px at scale 1 (round caps and joins). Widths are given at scale 1: the
// presentation scale below is applied to every plot by applyPlotScale.
QPen pen(const QColor& color, double width = 1.0, Qt::PenStyle style = Qt::SolidLine);
// The heat-map gradient of objective values, light enough for lines and markers drawn on top.
QCPColorGradient heatGradient();

// A gap in a curve (QCustomPlot leaves NaN points out).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The presentation scale, process-wide: 1 normal, up to 3 for a lecture hall (clamped to
// [0.75, 3]). Fonts, pen widths and marker sizes of the plots are their base values times it.
double plotScale();
void setPlotScale(double scale);
// Brings every QCustomPlot below `root` (root included) to plotScale() and replots them: the
// fonts of axes, tick labels, legends and text items, the pens of axes, graphs, curves and
// items, and scatter sizes. Each base value is remembered on first sight (a dynamic property),
// so repeated calls do not compound and scale 1 restores the base. Each plot also rescales
// before every replot, so what a view draws (or re-styles) later takes the scale as well.
void applyPlotScale(QWidget* root);
// One plot, without replotting (applyPlotScale's step; also run before each of its replots).
void scalePlot(QCustomPlot* plot);
// Room below every legend item of `plot` for the font's underscores (run before each replot
// of a plot applyPlotStyle has styled).
void padLegendItems(QCustomPlot* plot);

// A named graph on `rect` (its left axis, or its right one) drawn with `p`.
QCPGraph* addLineGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name, const QPen& p,
                       bool rightAxis = false);
// A scatter style: `shape` of `size` px outlined by `edge` at `width` px, filled with `fill`
// (Qt::transparent: hollow).
QCPScatterStyle markerStyle(QCPScatterStyle::ScatterShape shape, const QColor& edge,
                            const QColor& fill, double size, double width = 1.4);
// A named graph of points only (no line) on `rect`, drawn with `style`.
QCPGraph* addPointsGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name,
                         const QCPScatterStyle& style);
// A named parametric curve on `rect` drawn with `p`.
QCPCurve* addCurve(QCPAxisRect* rect, const QString& name, const QPen& p);
// Grey levels of images (pixels, letters): white for low values to near black for high ones,
// NaN (gaps between tiles) transparent.
QCPColorGradient inkGradient();
// A legend laid out as a row of its own at `row` of `plot`'s layout (column 0): entries side by
// side, `wrap` per line, 8 pt, no frame — below a panel instead of over its data.
QCPLegend* addLegendRow(QCustomPlot* plot, int row, int wrap);
// A small legend (8 pt, the legend colours) inside `rect` at `alignment`.
QCPLegend* addInsetLegend(QCPAxisRect* rect, Qt::Alignment alignment);
// Legends never sit on data where they need not: every visible legend inside an axis rect
// (an inset at a border, as addInsetLegend places them) goes to the corner or edge centre of
// the rect where it covers the fewest drawn points of the rect's graphs and curves (their
// data points and their lines between them, sampled along the line), the place its view gave
// it on a tie (so the picture depends on the data only); true when one moved. Every plot
// styled by applyPlotStyle does this after each replot, and replots once more if one moved.
bool moveInsetLegendsOffData(QCustomPlot* plot);
// The places moveInsetLegendsOffData chooses from, in its order of preference.
inline constexpr Qt::Alignment kLegendPlaces[] = {
    Qt::AlignTop | Qt::AlignRight,    Qt::AlignTop | Qt::AlignLeft,
    Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft,
    Qt::AlignTop | Qt::AlignHCenter,  Qt::AlignBottom | Qt::AlignHCenter};
// A note centred in `rect` ("no model yet", why a panel is empty), in the note colour, not
// clipped; the caller sets its text and visibility.
QCPItemText* addNote(QCustomPlot* plot, QCPAxisRect* rect);
// A log-scale axis with ticks at powers of ten, labelled 10ⁿ; every k-th decade when the
// axis is too short to label each one without overlap.
void useLogScale(QCPAxis* axis);
// Linear ticks as many as the axis's pixel length holds without overlapping labels (a vertical
// axis: one per 2.5 label heights), each label with just the digits that tell it from its
// neighbours ("-1.45·10⁶", "25000", "0.0025").
void useFittedTicks(QCPAxis* axis);
// The segments (a, b) of contour levels as one curve, NaN between segments; their number.
int setContourSegments(QCPCurve* curve, const std::vector<ContourLevel>& levels);

// Exports to PNG, PDF or SVG by the file's extension (.png, .pdf, .svg; PDF and SVG as
// vectors), atomically (figure_export.h's paintFigure). Returns false with *why on an unknown
// extension or a write failure.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* why, int width = 0,
                int height = 0);

}  // namespace cplab::widgets
