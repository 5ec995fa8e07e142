// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's progress (widgets/gap_progress.h): the gap's progress toward the tolerance
// and a path run's progress along its parameter, both on a log scale, against hand-computed
// fractions.
#include <QtTest>
#include <cmath>

#include "gap_progress.h"

using cplab::widgets::GapProgress;

class TestGapProgress : public QObject {
    Q_OBJECT

  private slots:
    void gapOnALogScale() {
        // From 1 to 1e-6 is six decades: 1e-3 is half way.
        QCOMPARE(GapProgress::progress(1.0, 1e-3, 1e-6), 0.5);
        QCOMPARE(GapProgress::progress(1.0, 1e-7, 1e-6), 1.0);
        QCOMPARE(GapProgress::progress(1.0, 2.0, 1e-6), 0.0);
        QCOMPARE(GapProgress::progress(INFINITY, 1.0, 1e-6), 0.0);
        GapProgress bar;
        bar.reset(1e-6);
        bar.setGap(1.0);
        bar.setGap(1e-2);
        QVERIFY(std::abs(bar.fraction() - 1.0 / 3.0) < 1e-12);
        QCOMPARE(bar.value(), 333);
    }

    // λ from λ₀ = 10 down to λ_min = 1e-3 (four decades): λ = 0.1 is half way; beyond the
    // end it is full, before the start empty; the text names the parameter and its end.
    void pathOnALogScale() {
        GapProgress bar;
        bar.setPath(10.0, 0.1, 1e-3);
        QVERIFY(std::abs(bar.fraction() - 0.5) < 1e-12);
        QCOMPARE(bar.value(), 500);
        QVERIFY2(bar.text().contains("path 1.00e-01 -> 1.00e-03") && bar.text().contains("50%"),
                 qPrintable(bar.text()));
        bar.setPath(10.0, 1e-4, 1e-3);
        QCOMPARE(bar.fraction(), 1.0);
        bar.setPath(10.0, 20.0, 1e-3);
        QCOMPARE(bar.fraction(), 0.0);
        bar.setPath(10.0, 1.0, 10.0);  // a path of no length
        QCOMPARE(bar.fraction(), 0.0);
        // An increasing parameter works the same way.
        bar.setPath(1.0, 10.0, 100.0);
        QVERIFY(std::abs(bar.fraction() - 0.5) < 1e-12);
    }
};

QTEST_MAIN(TestGapProgress)
#include "test_gap_progress.moc"
