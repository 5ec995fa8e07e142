// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_style.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <limits>

#include "core/output_file.h"

namespace cplab::widgets {

QColor runColor(int k) {
    static const QColor palette[] = {{31, 119, 180},  {214, 39, 40},   {44, 160, 44},
                                     {255, 127, 14},  {148, 103, 189}, {140, 86, 75},
                                     {227, 119, 194}, {23, 190, 207}};
    const int n = static_cast<int>(sizeof palette / sizeof palette[0]);
    return palette[((k % n) + n) % n];
}

QPen pen(const QColor& color, double width, Qt::PenStyle style) {
    QPen p(color, width, style);
    p.setCapStyle(Qt::RoundCap);
    p.setJoinStyle(Qt::RoundJoin);
    return p;
}

QCPGraph* addLineGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name, const QPen& p,
                       bool rightAxis) {
    QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom),
                                 rect->axis(rightAxis ? QCPAxis::atRight : QCPAxis::atLeft));
    g->setName(name);
    g->setPen(p);
    return g;
}

QCPLegend* addInsetLegend(QCPAxisRect* rect, Qt::Alignment alignment) {
    auto* legend = new QCPLegend;
    rect->insetLayout()->addElement(legend, alignment);
    legend->setLayer("legend");
    QFont font;
    font.setPointSize(8);
    legend->setFont(font);
    legend->setBrush(colors::kLegendFill);
    legend->setBorderPen(pen(colors::kLegendBorder));
    return legend;
}

void styleAxisRect(QCPAxisRect* rect) {
    QFont labelFont;
    labelFont.setPointSize(10);
    QFont tickFont;
    tickFont.setPointSize(9);
    for (QCPAxis* axis : rect->axes()) {
        axis->setLabelFont(labelFont);
        axis->setTickLabelFont(tickFont);
        axis->setBasePen(pen(QColor(90, 90, 90)));
        axis->setTickPen(pen(QColor(90, 90, 90)));
        axis->setSubTickPen(pen(QColor(140, 140, 140)));
        axis->grid()->setPen(pen(QColor(225, 225, 225), 1, Qt::SolidLine));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
}

void applyPlotStyle(QCustomPlot* plot) {
    // A plot's own minimum (its layout's: legends of many entries, several axis rects) would
    // let one plot widen every view past a projector's 1024 or 1280 pixels; what is too small
    // to show whole is drawn smaller instead.
    plot->setMinimumSize(240, 140);
    plot->setBackground(Qt::white);
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setNotAntialiasedElements(QCP::aeNone);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setNoAntialiasingOnDrag(true);
    // Live runs replot several times a second on the GUI thread, next to the solver's: draw
    // polylines the fast way (the joins of 2-pixel lines are the only visible difference).
    plot->setPlottingHint(QCP::phFastPolylines, true);
    for (QCPAxisRect* rect : plot->axisRects())
        styleAxisRect(rect);
    QFont legendFont;
    legendFont.setPointSize(9);
    plot->legend->setFont(legendFont);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->legend->setBorderPen(pen(QColor(200, 200, 200)));
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* why, int width, int height) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "png" && suffix != "pdf") {
        if (why) *why = path + ": unknown export format '" + suffix + "' (use .png or .pdf)";
        return false;
    }
    // Written beside the target and renamed over it when complete (core/output_file.h).
    AtomicOutput output(path.toStdString());
    if (output.temporaryPath().empty()) {
        if (why) *why = path + ": " + QString::fromStdString(output.error());
        return false;
    }
    const QString temporary = QString::fromStdString(output.temporaryPath());
    const bool ok = suffix == "png" ? plot->savePng(temporary, width, height, 2.0)
                                    : plot->savePdf(temporary, width, height);
    if (!ok) {
        if (why) *why = path + ": could not be written";
        return false;
    }
    if (const auto failure = output.commit()) {
        if (why) *why = path + ": " + QString::fromStdString(*failure);
        return false;
    }
    return true;
}

void useLogScale(QCPAxis* axis) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    axis->setNumberFormat("eb");
    axis->setNumberPrecision(0);
}

int setContourSegments(QCPCurve* curve, const std::vector<ContourLevel>& levels) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QVector<QCPCurveData> data;
    int t = 0, count = 0;
    for (const auto& level : levels) {
        for (const auto& [a, b] : level.segments) {
            data.append(QCPCurveData(t++, a.x(), a.y()));
            data.append(QCPCurveData(t++, b.x(), b.y()));
            data.append(QCPCurveData(t++, nan, nan));
            ++count;
        }
    }
    curve->data()->set(data, true);
    return count;
}

QCPScatterStyle markerStyle(QCPScatterStyle::ScatterShape shape, const QColor& edge,
                            const QColor& fill, double size, double width) {
    QCPScatterStyle style(shape, size);
    style.setPen(pen(edge, width));
    style.setBrush(fill == Qt::transparent ? QBrush(Qt::NoBrush) : QBrush(fill));
    return style;
}

QCPGraph* addPointsGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name,
                         const QCPScatterStyle& style) {
    QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    return g;
}

QCPCurve* addCurve(QCPAxisRect* rect, const QString& name, const QPen& p) {
    auto* c = new QCPCurve(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    c->setName(name);
    c->setPen(p);
    return c;
}

QCPColorGradient inkGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(255, 255, 255));
    g.setColorStopAt(1.0, QColor(20, 20, 20));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QCPItemText* addNote(QCustomPlot* plot, QCPAxisRect* rect) {
    auto* note = new QCPItemText(plot);
    note->setClipAxisRect(rect);
    note->setClipToAxisRect(false);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setAxisRect(rect);
    note->position->setCoords(0.5, 0.5);
    note->setColor(colors::kNote);
    return note;
}

QCPLegend* addLegendRow(QCustomPlot* plot, int row, int wrap) {
    auto* legend = new QCPLegend;
    plot->plotLayout()->addElement(row, 0, legend);
    legend->setLayer("legend");
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(wrap);
    QFont font;
    font.setPointSize(8);
    legend->setFont(font);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(4, 0, 4, 2));
    return legend;
}

}  // namespace cplab::widgets
