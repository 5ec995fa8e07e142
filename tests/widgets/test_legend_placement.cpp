// SPDX-License-Identifier: GPL-3.0-or-later
// A plot's legend below the plot or beside it (widgets/common/legend_placement.h): in a short,
// wide plot (the model view with 150 % fonts on a 1280x720 screen) beside, where the plot's
// shorter side is longer than with the legend below (measured against the same plot laid out
// with its legend below); in a tall one below; never over the plot, every entry inside the
// widget, and back and forth without leaving layout cells behind.
#include <qcustomplot.h>

#include <QtTest>
#include <algorithm>

#include "legend_placement.h"
#include "plot_style.h"

namespace cw = cplab::widgets;

namespace {

// A map with its legend row below, as the kernel, sparse and MAP views build theirs.
struct MapPlot {
    QCustomPlot plot;
    QCPLegend* legend;

    MapPlot() {
        plot.legend->setVisible(false);
        legend = cw::addLegendRow(&plot, 1, 3);
        plot.plotLayout()->setRowStretchFactors({1.0, 0.001});
        const char* names[] = {"class +1",
                               "class \u22121",
                               "free SV (0 < \u03b1 < C)",
                               "f = 0",
                               "bound SV (\u03b1 = C)",
                               "f = \u00b11 (margins)",
                               "where they started"};
        for (const char* name : names) {
            QCPGraph* g = plot.addGraph();
            g->setName(name);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 8));
            g->addToLegend(legend);
        }
        plot.xAxis->setLabel("x1");
        plot.yAxis->setLabel("x2");
    }

    void show(int width, int height) {
        plot.resize(width, height);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
    }

    int shorterSide() const {
        const QRect r = plot.axisRect()->rect();
        return std::min(r.width(), r.height());
    }
};

void checkNothingCovered(MapPlot& p) {
    const QRect rect = p.plot.axisRect()->outerRect();
    QVERIFY2(!rect.intersects(p.legend->outerRect()), "the legend covers the plot");
    for (int i = 0; i < p.legend->itemCount(); ++i) {
        if (!p.legend->item(i)) continue;  // the empty cells after the last entry
        const QRect item = p.legend->item(i)->outerRect();
        QVERIFY2(p.plot.rect().contains(item),
                 qPrintable(QString("entry %1 at %2,%3 %4x%5 outside the %6x%7 widget")
                                .arg(i)
                                .arg(item.x())
                                .arg(item.y())
                                .arg(item.width())
                                .arg(item.height())
                                .arg(p.plot.width())
                                .arg(p.plot.height())));
    }
}

}  // namespace

class TestLegendPlacement : public QObject {
    Q_OBJECT
  private slots:
    void shortAndWideGoesBeside() {
        MapPlot below;  // the same plot, its legend left below
        below.show(760, 190);
        cw::fitLegendWrap(below.legend, 760, 3);
        below.plot.replot();

        MapPlot placed;
        auto* placement =
            new cw::LegendPlacement(&placed.plot, placed.plot.axisRect(), placed.legend, 3);
        placed.show(760, 190);
        placement->place();
        placed.plot.replot();
        QVERIFY(placement->beside());
        QVERIFY(placed.legend->outerRect().left() >= placed.plot.axisRect()->outerRect().right());
        checkNothingCovered(placed);
        QVERIFY2(placed.shorterSide() > below.shorterSide(),
                 qPrintable(QString("beside %1 px, below %2 px")
                                .arg(placed.shorterSide())
                                .arg(below.shorterSide())));
    }

    void tallGoesBelowAndBack() {
        MapPlot placed;
        auto* placement =
            new cw::LegendPlacement(&placed.plot, placed.plot.axisRect(), placed.legend, 3);
        for (int round = 0; round < 3; ++round) {
            placed.show(500, 520);
            placement->place();
            placed.plot.replot();
            QVERIFY(!placement->beside());
            QVERIFY(placed.legend->outerRect().top() >=
                    placed.plot.axisRect()->outerRect().bottom());
            checkNothingCovered(placed);
            QCOMPARE(placed.plot.plotLayout()->columnCount(), 1);
            QCOMPARE(placed.plot.plotLayout()->rowCount(), 2);

            placed.show(760, 190);
            placement->place();
            placed.plot.replot();
            QVERIFY(placement->beside());
            checkNothingCovered(placed);
            QCOMPARE(placed.plot.plotLayout()->columnCount(), 2);
            QCOMPARE(placed.plot.plotLayout()->rowCount(), 1);
        }
    }
};

QTEST_MAIN(TestLegendPlacement)
#include "test_legend_placement.moc"
