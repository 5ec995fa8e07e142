// SPDX-License-Identifier: GPL-3.0-or-later
// The race view's x axes (iteration, seconds, oracle calls, passes, path parameter and its
// log10), the family's names of the bounds, and the timeline's marker, on synthetic records;
// what a lecture hall needs: a seconds axis for runs of milliseconds, a double click back to the
// data, run labels that keep the solver, markers per run, ticks that do not overlap.
#include <qcustomplot.h>

#include <QFontMetrics>
#include <QtTest>
#include <cmath>

#include "bounds_plot.h"
#include "plot_style.h"

using cplab::IterationRecord;
using cplab::widgets::axisKey;
using cplab::widgets::BoundsPlot;
using cplab::widgets::elideRunLabel;
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

// The names of the legend's entries, in order.
QStringList legendNames(const BoundsPlot& plot) {
    QStringList names;
    QCPLegend* legend = plot.plot()->legend;
    for (int k = 0; k < legend->itemCount(); ++k)
        names << qobject_cast<QCPPlottableLegendItem*>(legend->item(k))->plottable()->name();
    return names;
}

QString rangeText(const QCPRange& r) {
    return QString("%1 .. %2").arg(r.lower).arg(r.upper);
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

    // A run of 5 ms on the seconds axis: the axis spans the data (it spanned 0 .. 1 s).
    void secondsAxisFitsMilliseconds() {
        BoundsPlot plot;
        plot.resize(700, 400);
        plot.addRun(1, "#1 kelley", Qt::blue);
        auto rs = records(5, false);
        for (auto& r : rs)
            r.seconds = 0.001 * r.iteration;
        plot.appendRecords(1, rs);
        plot.setXAxis(XAxisKind::Seconds);
        plot.replotNow();
        const QCPRange x = plot.plot()->axisRect()->axis(QCPAxis::atBottom)->range();
        QVERIFY2(x.lower <= 0.001 && x.upper >= 0.005 && x.upper <= 0.01, qPrintable(rangeText(x)));
    }

    // Zooming with the wheel leaves the data's range and stops following it; a double click
    // returns to both.
    void doubleClickRestoresTheDataRange() {
        BoundsPlot plot;
        plot.resize(700, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.addRun(1, "#1 kelley", Qt::blue);
        plot.appendRecords(1, records(40, false));
        plot.replotNow();
        QCPAxisRect* rect = plot.plot()->axisRect();
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        const QPointF centre = rect->rect().center();
        QWheelEvent wheel(centre, plot.plot()->mapToGlobal(centre), QPoint(), QPoint(0, 360),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot.plot(), &wheel);
        const QCPRange zoomed = rect->axis(QCPAxis::atBottom)->range();
        QVERIFY2(zoomed.size() < 0.8 * x.size(), qPrintable(rangeText(zoomed)));
        QVERIFY(!plot.autoScaling());
        plot.appendRecords(1, {records(41, false).back()});
        plot.replotNow();  // new data does not undo the zoom
        QCOMPARE(rect->axis(QCPAxis::atBottom)->range().size(), zoomed.size());
        QTest::mouseDClick(plot.plot(), Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QVERIFY(plot.autoScaling());
        const QCPRange back = rect->axis(QCPAxis::atBottom)->range();
        QVERIFY2(back.lower == x.lower && back.upper >= x.upper, qPrintable(rangeText(back)));
        QVERIFY(std::abs(rect->axis(QCPAxis::atLeft)->range().size() - y.size()) < 0.2 * y.size());
    }

    // A long run label loses options from its end, never the run's number or solver; the
    // legend shows it so at a projector's width and the tooltip in full.
    void elisionKeepsTheSolver() {
        const QString label = "#3 oneslack (lambda=0.01, max_iterations=20, epsilon=0.001)";
        QFont font;
        font.setPointSize(8);
        const QFontMetrics metrics(font);
        QCOMPARE(elideRunLabel(label, metrics, 10000), label);
        const QString two =
            "#3 oneslack (lambda=0.01, max_iterations=20, " + QString(QChar(0x2026)) + ")";
        QCOMPARE(elideRunLabel(label, metrics, metrics.horizontalAdvance(two)), two);
        const QString one = elideRunLabel(label, metrics, metrics.horizontalAdvance(two) - 1);
        QCOMPARE(one, "#3 oneslack (lambda=0.01, " + QString(QChar(0x2026)) + ")");
        QCOMPARE(elideRunLabel(label, metrics, 5), QString("#3 oneslack"));
        QCOMPARE(elideRunLabel("#1 a_very_long_solver_name", metrics, 5),
                 QString("#1 a_very_long_solver_name"));

        BoundsPlot plot;
        plot.resize(640, 300);
        for (int id = 1; id <= 5; ++id)
            plot.addRun(id, QString("#%1 oneslack (lambda=0.0%1, max_iterations=20)").arg(id),
                        cplab::widgets::runColor(id - 1));
        plot.replotNow();
        const QStringList names = legendNames(plot);
        QCOMPARE(names.size(), 7);  // two line styles, five runs
        for (int id = 1; id <= 5; ++id)
            QVERIFY2(names[id + 1].startsWith(QString("#%1 oneslack (").arg(id)) &&
                         names[id + 1].contains(QChar(0x2026)),
                     qPrintable(names.join(" | ")));
        // The legend is a column beside the panels, not a row above them.
        QCPLegend* legend = plot.plot()->legend;
        QCPAxisRect* bounds = plot.plot()->axisRect();
        QVERIFY2(legend->outerRect().left() >= bounds->outerRect().right() - 1,
                 qPrintable(QString("legend at %1, panel ends at %2")
                                .arg(legend->outerRect().left())
                                .arg(bounds->outerRect().right())));
        QVERIFY(bounds->outerRect().top() <= legend->outerRect().top() + 1);
        QVERIFY(plot.plot()->width() - bounds->outerRect().right() < plot.width() / 3);
    }

    // Each run's curves carry its marker shape, at most ~10 per curve, also in the legend.
    void markersPerRun() {
        BoundsPlot plot;
        plot.resize(700, 400);
        plot.addRun(1, "#1 kelley", Qt::blue);
        plot.addRun(2, "#2 bundle", Qt::red);
        plot.addRun(3, "#3 level", Qt::green);
        plot.appendRecords(1, records(200, false));
        plot.appendRecords(2, records(3, false));
        plot.replotNow();
        QVERIFY2(plot.markerCount(1) >= 6 && plot.markerCount(1) <= 12,
                 qPrintable(QString::number(plot.markerCount(1))));
        QCOMPARE(plot.markerCount(2), 3);  // few points: each marked
        QCOMPARE(plot.markerCount(3), 0);
        QCPLegend* legend = plot.plot()->legend;
        QList<int> shapes;
        for (int k = 0; k < legend->itemCount(); ++k) {
            auto* graph = qobject_cast<QCPGraph*>(
                qobject_cast<QCPPlottableLegendItem*>(legend->item(k))->plottable());
            if (graph->name().startsWith('#')) shapes << graph->scatterStyle().shape();
        }
        QCOMPARE(shapes,
                 QList<int>({int(cplab::widgets::runMarker(0)), int(cplab::widgets::runMarker(1)),
                             int(cplab::widgets::runMarker(2))}));
    }

    // An animation's frame: the race up to the marker, on the whole race's axes.
    void cutAtMarkerDrawsTheRaceSoFar() {
        BoundsPlot plot;
        plot.resize(700, 400);
        plot.addRun(1, "#1 kelley", Qt::blue);
        plot.appendRecords(1, records(10, false));
        plot.replotNow();
        const QCPRange whole = plot.plot()->xAxis->range();
        const auto largestKey = [&] {
            double largest = 0;
            for (int g = 0; g < plot.plot()->graphCount(); ++g) {
                for (const auto& point : *plot.plot()->graph(g)->data())
                    largest = std::max(largest, point.key);
            }
            return largest;
        };
        QCOMPARE(largestKey(), 10.0);
        plot.setMarker(4);
        plot.setCutAtMarker(true);
        plot.replotNow();
        QCOMPARE(largestKey(), 4.0);  // lines and markers
        QCOMPARE(plot.plot()->xAxis->range(), whole);
        plot.setMarker(7);
        plot.replotNow();
        QCOMPARE(largestKey(), 7.0);
        plot.setCutAtMarker(false);
        plot.replotNow();
        QCOMPARE(largestKey(), 10.0);
    }

    // Bounds near -10^6 in short panels (map_stereo at 1280x720 and 1024x768), gaps over 17
    // decades: tick labels at least 1.5 label heights apart (so never overlapping), and at
    // least two of them where three label heights fit.
    void tickLabelsDoNotOverlap_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<double>("upper");       // U at the end (it starts 10^5 higher)
        QTest::addColumn<double>("lower");       // L at the end
        QTest::addColumn<double>("lowerStart");  // L of the first iteration
        QTest::addColumn<double>("gapFloor");    // the last gap (the first is U - L)
        QTest::newRow("trws 700x260") << 700 << 260 << -1.40e6 << -1.55e6 << -1.56e6 << 0.0;
        QTest::newRow("mplp 450x240") << 450 << 240 << -0.4e6 << -0.45e6 << -2.45e6 << 0.0;
        QTest::newRow("gaps 450x220") << 450 << 220 << 1.0 << 0.0 << -1.0 << 1e-16;
    }
    void tickLabelsDoNotOverlap() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(double, upper);
        QFETCH(double, lower);
        QFETCH(double, lowerStart);
        QFETCH(double, gapFloor);
        BoundsPlot plot;
        plot.resize(width, height);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.addRun(1, "#1 trws", Qt::blue);
        auto rs = records(30, false);
        for (auto& r : rs) {
            const double t = (r.iteration - 1) / 29.0;
            r.upper = upper + 1e5 * (1 - t);
            r.lower = lowerStart + (lower - lowerStart) * t;
            r.gap =
                gapFloor > 0 ? std::pow(10.0, (1 - t) * std::log10(gapFloor)) : r.upper - r.lower;
        }
        plot.appendRecords(1, rs);
        plot.replotNow();
        plot.replotNow();  // the ticks of the laid-out height
        for (QCPAxisRect* rect : plot.plot()->axisRects()) {
            QCPAxis* axis = rect->axis(QCPAxis::atLeft);
            const int label = QFontMetrics(axis->tickLabelFont()).height();
            QList<double> pixels;
            for (double t : axis->tickVector())
                if (axis->range().contains(t)) pixels << axis->coordToPixel(t);
            const QString what = QString("%1: %2 ticks in %3 px, labels %4 px")
                                     .arg(axis->label())
                                     .arg(pixels.size())
                                     .arg(rect->height())
                                     .arg(label);
            QVERIFY2(pixels.size() <= rect->height() / (1.5 * label) + 1, qPrintable(what));
            QVERIFY2(pixels.size() >= 2 || rect->height() < 3 * label, qPrintable(what));
            std::sort(pixels.begin(), pixels.end());
            for (int k = 1; k < pixels.size(); ++k)
                QVERIFY2(pixels[k] - pixels[k - 1] >= 1.5 * label, qPrintable(what));
            for (const QString& text : axis->tickVectorLabels())
                QVERIFY2(text.size() <= 10, qPrintable(text));  // "-1.45e+06", drawn -1.45·10⁶
        }
    }

    // 150 % fonts on a 1280x720 screen leave the panels 30-40 px high: "gap (log)" ran over
    // "bounds" above it. A label longer than its panel is shortened or left out.
    void axisLabelsStayInTheirPanels_data() {
        QTest::addColumn<int>("height");
        QTest::addColumn<bool>("full");  // room for both labels in full
        QTest::newRow("180 px (the minimum)") << 180 << false;
        QTest::newRow("400 px") << 400 << true;
    }
    void axisLabelsStayInTheirPanels() {
        QFETCH(int, height);
        QFETCH(bool, full);
        BoundsPlot plot;
        plot.resize(700, height);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.addRun(1, "#1 bmrm", Qt::blue);
        plot.appendRecords(1, records(20, false));
        plot.replotNow();
        plot.replotNow();  // the labels of the laid-out heights
        for (QCPAxisRect* rect : plot.plot()->axisRects()) {
            QCPAxis* axis = rect->axis(QCPAxis::atLeft);
            const int length = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label());
            QVERIFY2(length <= rect->height(), qPrintable(QString("'%1': %2 px in a %3 px panel")
                                                              .arg(axis->label())
                                                              .arg(length)
                                                              .arg(rect->height())));
        }
        const QList<QCPAxisRect*> rects = plot.plot()->axisRects();
        QCOMPARE(rects.size(), 2);
        if (full) {
            QCOMPARE(rects[0]->axis(QCPAxis::atLeft)->label(), QString("bounds"));
            QCOMPARE(rects[1]->axis(QCPAxis::atLeft)->label(), QString("gap (log)"));
        }
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
