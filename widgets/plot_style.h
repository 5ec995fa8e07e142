// Shared look of every plot: colours, pens, fonts, and helpers used by the plot widgets.
#pragma once

#include <QColor>
#include <QPen>
#include <QString>

class QCustomPlot;
class QCPAxisRect;

namespace cplab::widgets {

// Colour of run number k (cycles through a palette that reads well on white and in print).
QColor runColor(int k);

namespace colors {
inline const QColor kFunction{30, 30, 30};
inline const QColor kModel{31, 119, 180};
inline const QColor kPlane{150, 170, 200};
inline const QColor kNewestPlane{255, 127, 14};
inline const QColor kCandidate{214, 39, 40};
inline const QColor kBest{44, 160, 44};
inline const QColor kProx{148, 103, 189};
inline const QColor kOptimum{0, 0, 0};
inline const QColor kContour{110, 110, 110};
inline const QColor kKink{120, 30, 30};
}  // namespace colors

// White background, light grid, readable fonts, antialiasing, drag/zoom interactions.
void applyPlotStyle(QCustomPlot* plot);
void styleAxisRect(QCPAxisRect* rect);

QPen pen(const QColor& color, double width = 1.0, Qt::PenStyle style = Qt::SolidLine);

// Exports to PNG or PDF by the file's extension (.png, .pdf). Returns false with *why on an
// unknown extension or a write failure.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* why, int width = 0,
                int height = 0);

}  // namespace cplab::widgets
