// SPDX-License-Identifier: GPL-3.0-or-later
// The race view's x axes (iteration, seconds, oracle calls, passes, path parameter and its
// log10), the family's names of the bounds, and the timeline's marker, on synthetic records.
#include <qcustomplot.h>

#include <QFontMetrics>
#include <QtTest>
#include <cmath>

#include "bounds_plot.h"

using cplab::IterationRecord;
using cplab::widgets::axisKey;
using cplab::widgets::BoundsPlot;
using cplab::widgets::XAxisKind;

namespace {

// t = 1 … n: seconds 0.5 t, oracle calls 2 t, passes 3 t; a path parameter λ = 10^(1−t) on
// the records of a path-following run only.
std::vector<IterationRecord> records(int n, bool path) {
    std::vector<IterationRecord> out;
    for (int t = 1; t <= n; ++t) {
        IterationRecord r;
        r.iteration = t;
        r.seconds = 0.5 * t;
        r.oracleCalls = 2 * t;
        r.passes = 3.0 * t;
        r.upper = 1.0 + 1.0 / t;
        r.lower = 1.0 - 1.0 / t;
        r.gap = r.upper - r.lower;
        if (path) r.pathParameter = std::pow(10.0, 1 - t);
        out.push_back(r);
    }
    return out;
}

}  // namespace

class TestBoundsPlot : public QObject {
    Q_OBJECT
  private slots:
    void keysFollowTheAxis_data() {
        QTest::addColumn<int>("axis");
        QTest::addColumn<double>("expected");  // the key of the record of t = 3
        QTest::newRow("iteration") << int(XAxisKind::Iteration) << 3.0;
        QTest::newRow("seconds") << int(XAxisKind::Seconds) << 1.5;
        QTest::newRow("oracle calls") << int(XAxisKind::OracleCalls) << 6.0;
        QTest::newRow("passes") << int(XAxisKind::Passes) << 9.0;
        QTest::newRow("path") << int(XAxisKind::PathParameter) << 0.01;
        QTest::newRow("log path") << int(XAxisKind::LogPathParameter) << -2.0;
    }
    void keysFollowTheAxis() {
        QFETCH(int, axis);
        QFETCH(double, expected);
        const IterationRecord r = records(3, true).back();
        QCOMPARE(axisKey(static_cast<XAxisKind>(axis), r), expected);
        QVERIFY(!cplab::widgets::axisLabel(static_cast<XAxisKind>(axis)).isEmpty());
    }

    // Runs without a path parameter have no points on the path axes; path runs have all of
    // theirs, in the path parameter's order.
    void pathAxesDrawOnlyPathRuns() {
        BoundsPlot plot;
        plot.resize(600, 400);
        plot.addRun(1, "#1 path", Qt::blue);
        plot.addRun(2, "#2 kelley", Qt::red);
        plot.appendRecords(1, records(6, true));
        plot.appendRecords(2, records(4, false));
        QCOMPARE(plot.pointCount(1), 6);
        QCOMPARE(plot.pointCount(2), 4);
        plot.setXAxis(XAxisKind::LogPathParameter);
        QCOMPARE(plot.pointCount(1), 6);
        QCOMPARE(plot.pointCount(2), 0);
        plot.replotNow();
        const QCPRange x = plot.plot()->axisRect()->axis(QCPAxis::atBottom)->range();
        QVERIFY2(x.lower <= -5.0 && x.upper >= 0.0,
                 qPrintable(QString("%1 .. %2").arg(x.lower).arg(x.upper)));
        QVERIFY(x.lower > -7.0);  // spans the keys present, not from 0
        plot.setXAxis(XAxisKind::Passes);
        QCOMPARE(plot.pointCount(2), 4);
    }

    // A family's long bound names and long run labels must not run past the legend's two
    // columns (they were cut at the window's edge): the keys show the names' heads, the
    // tooltip the names in full, runs are elided.
    void longLabelsFitTheLegend() {
        BoundsPlot plot;
        plot.resize(700, 400);
        const QString upper =
            "upper bound U (slmc, mrs, rsvm, mrsvm: the restricted SVM's objective W(Z); "
            "dlib_reduced2: the SVM objective of its result; rs: |w - w_z|^2)";
        const QString lower = "lower bound L (slmc, mrs: the full SVM's dual; rs: 0)";
        plot.setBoundLabels(upper, lower);
        plot.addRun(1, "#1 dlib_reduced2 (expansion_vectors=10, kernel=gaussian:1, C=10, seed=3)",
                    Qt::red);
        plot.addRun(2, "#2 rs", Qt::blue);
        plot.replotNow();
        QCOMPARE(plot.boundLabels(), upper + " (solid); " + lower + " (dashed)");
        QVERIFY(plot.plot()->toolTip().contains(upper));
        QCPLegend* legend = plot.plot()->legend;
        QStringList names;
        for (int k = 0; k < legend->itemCount(); ++k) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(k));
            QVERIFY(item);
            names << item->plottable()->name();
            const int width =
                QFontMetrics(legend->font()).horizontalAdvance(item->plottable()->name()) +
                legend->iconSize().width() + legend->iconTextPadding();
            QVERIFY2(width <= plot.width() / 2, qPrintable(item->plottable()->name()));
        }
        QVERIFY2(names.contains("upper bound U (solid)"), qPrintable(names.join(" | ")));
        QVERIFY2(names.contains("#2 rs"), qPrintable(names.join(" | ")));
        QVERIFY(names.join(" ").contains(QChar(0x2026)));  // the long run label, elided
        // Wide enough, the names stay whole.
        plot.resize(2400, 400);
        plot.replotNow();
        names.clear();
        for (int k = 0; k < legend->itemCount(); ++k)
            names << qobject_cast<QCPPlottableLegendItem*>(legend->item(k))->plottable()->name();
        QVERIFY2(names.contains(lower + " (dashed)"), qPrintable(names.join(" | ")));
    }

    void labelsAndMarker() {
        BoundsPlot plot;
        plot.setBoundLabels("dual bound U", "E(best labeling)");
        QCOMPARE(plot.boundLabels(), QString("dual bound U (solid); E(best labeling) (dashed)"));
        QVERIFY(std::isnan(plot.marker()));
        plot.setMarker(3.0);
        QCOMPARE(plot.marker(), 3.0);
        plot.setMarker(std::nan(""));
        QVERIFY(std::isnan(plot.marker()));
    }
};

QTEST_MAIN(TestBoundsPlot)
#include "test_bounds_plot.moc"
