// SPDX-License-Identifier: GPL-3.0-or-later
// The shared plot style (widgets/common/plot_style.h): run colours apart from every named colour, a
// marker shape per run, the presentation scale (fonts, pens and markers scaled from their
// base values, never compounded), ticks that fit the axis's length, and legend entries whose
// underscores are drawn.
#include <qcustomplot.h>

#include <QtTest>
#include <cmath>
#include <set>

#include "plot_style.h"

namespace cw = cplab::widgets;

namespace {

// A colour as it shows on white (a fill's alpha blended in).
QColor onWhite(const QColor& c) {
    const double a = c.alphaF();
    const auto mix = [&](int v) { return static_cast<int>(std::lround(a * v + (1 - a) * 255)); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

double distance(const QColor& a, const QColor& b) {
    return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

}  // namespace

class TestPlotStyle : public QObject {
    Q_OBJECT
  private slots:
    void cleanup() { cw::setPlotScale(1.0); }

    void runsHaveDistinctMarkers() {
        std::set<int> shapes;
        for (int k = 0; k < 8; ++k)
            shapes.insert(static_cast<int>(cw::runMarker(k)));
        QCOMPARE(static_cast<int>(shapes.size()), 8);
        QVERIFY(!shapes.count(QCPScatterStyle::ssNone) && !shapes.count(QCPScatterStyle::ssDot));
        QCOMPARE(cw::runMarker(8), cw::runMarker(0));  // cycles like the colours
        QCOMPARE(cw::runMarkerStyle(2, Qt::red).shape(), cw::runMarker(2));
    }

    // A run's colour never means anything else: every named colour is at least 60 (RGB
    // distance, as shown on white) from every run colour, and the runs from each other.
    void runColoursApartFromNamedColours() {
        namespace c = cw::colors;
        const QList<QPair<const char*, QColor>> named = {{"kFunction", c::kFunction},
                                                         {"kModel", c::kModel},
                                                         {"kPlane", c::kPlane},
                                                         {"kNewestPlane", c::kNewestPlane},
                                                         {"kCandidate", c::kCandidate},
                                                         {"kBest", c::kBest},
                                                         {"kProx", c::kProx},
                                                         {"kOptimum", c::kOptimum},
                                                         {"kContour", c::kContour},
                                                         {"kKink", c::kKink},
                                                         {"kMarker", c::kMarker},
                                                         {"kPath", c::kPath},
                                                         {"kOutline", c::kOutline},
                                                         {"kNote", c::kNote},
                                                         {"kBreakpoint", c::kBreakpoint},
                                                         {"kLegendBorder", c::kLegendBorder},
                                                         {"kLegendFill", c::kLegendFill},
                                                         {"kLegendFillLight", c::kLegendFillLight},
                                                         {"kNewestPlaneFill", c::kNewestPlaneFill},
                                                         {"kPolygonFill", c::kPolygonFill},
                                                         {"kHeatLow", c::kHeatLow},
                                                         {"kHeatMidLow", c::kHeatMidLow},
                                                         {"kHeatMidHigh", c::kHeatMidHigh},
                                                         {"kHeatHigh", c::kHeatHigh},
                                                         {"kErrorText", c::kErrorText},
                                                         {"kText", c::kText},
                                                         {"kCurrentLine", c::kCurrentLine},
                                                         {"kExecutedLine", c::kExecutedLine},
                                                         {"kLineNumber", c::kLineNumber}};
        for (int k = 0; k < 8; ++k) {
            const QColor run = cw::runColor(k);
            for (const auto& [name, colour] : named) {
                QVERIFY2(distance(run, onWhite(colour)) > 60,
                         qPrintable(QString("run %1 %2 vs %3 %4: %5")
                                        .arg(k)
                                        .arg(run.name(), name, colour.name())
                                        .arg(distance(run, onWhite(colour)))));
            }
            for (int j = 0; j < k; ++j)
                QVERIFY2(distance(run, cw::runColor(j)) > 60,
                         qPrintable(QString("%1 %2").arg(j).arg(k)));
            // Readable on white: not lighter than mid-grey.
            QVERIFY2(run.lightnessF() < 0.75, qPrintable(run.name()));
        }
    }

    // Scale 2 doubles the fonts, pens and markers of a plot from their base values; applying it
    // again changes nothing; scale 1 restores the base. A graph drawn later is scaled at its
    // first replot.
    void presentationScale() {
        QWidget root;
        auto* plot = new QCustomPlot(&root);
        cw::applyPlotStyle(plot);
        QCPAxis* y = plot->yAxis;
        const double tickBase = y->tickLabelFont().pointSizeF();
        const double labelBase = y->labelFont().pointSizeF();
        QVERIFY(tickBase > 0);
        QCPGraph* graph = cw::addLineGraph(plot, plot->axisRect(), "f", cw::pen(Qt::black, 1.5));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        auto* note = cw::addNote(plot, plot->axisRect());
        const double noteBase = note->font().pointSizeF();
        const QSize iconBase = plot->legend->iconSize();

        cw::setPlotScale(2.0);
        QCOMPARE(cw::plotScale(), 2.0);
        cw::applyPlotScale(&root);
        QCOMPARE(y->tickLabelFont().pointSizeF(), 2 * tickBase);
        QCOMPARE(y->labelFont().pointSizeF(), 2 * labelBase);
        QCOMPARE(graph->pen().widthF(), 3.0);
        QCOMPARE(graph->scatterStyle().size(), 12.0);
        QCOMPARE(note->font().pointSizeF(), 2 * noteBase);
        QCOMPARE(plot->legend->iconSize(), 2 * iconBase);
        cw::applyPlotScale(&root);  // not 4×
        QCOMPARE(y->tickLabelFont().pointSizeF(), 2 * tickBase);
        QCOMPARE(graph->pen().widthF(), 3.0);

        // Drawn after the switch, with the helpers' base widths: scaled on the next replot.
        QCPGraph* later = cw::addLineGraph(plot, plot->axisRect(), "g", cw::pen(Qt::blue, 2.0));
        plot->replot();
        QCOMPARE(later->pen().widthF(), 4.0);
        // A view re-styling a graph each frame with its base width: still scaled, once.
        later->setPen(cw::pen(Qt::blue, 2.0));
        plot->replot();
        QCOMPARE(later->pen().widthF(), 4.0);

        cw::setPlotScale(1.0);
        cw::applyPlotScale(&root);
        QCOMPARE(y->tickLabelFont().pointSizeF(), tickBase);
        QCOMPARE(y->labelFont().pointSizeF(), labelBase);
        QCOMPARE(graph->pen().widthF(), 1.5);
        QCOMPARE(graph->scatterStyle().size(), 6.0);
        QCOMPARE(later->pen().widthF(), 2.0);
        QCOMPARE(note->font().pointSizeF(), noteBase);
        QCOMPARE(plot->legend->iconSize(), iconBase);

        cw::setPlotScale(10.0);  // clamped
        QCOMPARE(cw::plotScale(), 3.0);
        cw::setPlotScale(0.1);
        QCOMPARE(cw::plotScale(), 0.75);
    }

    // A scale whose products are not whole (1.4 × 13 px) does not compound replot after
    // replot in the values stored as integers (icon sizes), nor in fonts and pens.
    void fractionalScaleStaysPut() {
        QWidget root;
        auto* plot = new QCustomPlot(&root);
        cw::applyPlotStyle(plot);
        plot->legend->setIconSize(13, 7);
        QCPGraph* graph = cw::addLineGraph(plot, plot->axisRect(), "f", cw::pen(Qt::black, 1.3));
        const double tickBase = plot->yAxis->tickLabelFont().pointSizeF();
        cw::setPlotScale(1.4);
        cw::applyPlotScale(&root);
        for (int k = 0; k < 5; ++k)
            plot->replot();
        cw::applyPlotScale(&root);
        QCOMPARE(plot->legend->iconSize(), QSize(18, 10));  // round(18.2), round(9.8)
        QCOMPARE(graph->pen().widthF(), 1.3 * 1.4);
        QCOMPARE(plot->yAxis->tickLabelFont().pointSizeF(), 1.4 * tickBase);
        cw::setPlotScale(1.0);
        cw::applyPlotScale(&root);
        QCOMPARE(plot->legend->iconSize(), QSize(13, 7));
    }

    // A log axis over 17 decades in a short panel labels every k-th decade, no more labels
    // than fit (1.6 label heights apart).
    void logTicksFitTheAxis() {
        QCustomPlot plot;
        plot.resize(400, 140);
        cw::applyPlotStyle(&plot);
        cw::useLogScale(plot.yAxis);
        plot.yAxis->setRange(1e-16, 10);
        plot.replot();
        plot.replot();  // the ticks of the laid-out height
        const int height = plot.axisRect()->height();
        const int label = QFontMetrics(plot.yAxis->tickLabelFont()).height();
        int shown = 0;
        for (double t : plot.yAxis->tickVector())
            shown += plot.yAxis->range().contains(t) ? 1 : 0;
        QVERIFY2(shown >= 2 && shown <= height / (1.5 * label) + 1,
                 qPrintable(QString("%1 ticks in %2 px").arg(shown).arg(height)));
    }

    // A legend entry named only by underscores ("____"): its text is drawn (dark pixels right
    // of the icon inside the entry), where the item's own clip used to cut them off.
    void legendUnderscoresAreDrawn() {
        QCustomPlot plot;
        cw::applyPlotStyle(&plot);
        plot.resize(400, 300);
        QCPGraph* graph = plot.addGraph();
        graph->setName("____");
        graph->setPen(QPen(Qt::transparent));
        plot.legend->setVisible(true);
        plot.legend->setBorderPen(Qt::NoPen);
        plot.legend->setIconSize(26, 12);  // the bounds plot's: lower than the text
        plot.replot();
        const QImage image = plot.toPixmap(400, 300, 1.0).toImage();
        QCPAbstractLegendItem* item = plot.legend->item(0);
        QVERIFY(item);
        const QRect r = item->outerRect();
        const int textLeft =
            r.left() + plot.legend->iconSize().width() + plot.legend->iconTextPadding();
        int dark = 0;
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = textLeft; x <= r.right(); ++x)
                dark += qGray(image.pixel(x, y)) < 200;
        QVERIFY2(
            dark > 3,
            qPrintable(
                QString("%1 dark pixels in %2 x %3").arg(dark).arg(r.width()).arg(r.height())));
    }
};

QTEST_MAIN(TestPlotStyle)
#include "test_plot_style.moc"
