// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's progress (widgets/common/gap_progress.h): the gap's progress toward the
// tolerance and a path run's progress along its parameter, both on a log scale, against
// hand-computed fractions; the finished state; the text drawn beside the bar, never over it.
#include <QImage>
#include <QtTest>
#include <cmath>

#include "gap_progress.h"
#include "plot_style.h"

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

    // A finished run: full bar, the sentence as given; the next gap shows progress again.
    void finishedRun() {
        GapProgress bar;
        bar.reset(1e-6);
        bar.setGap(1.0);
        bar.setFinished("converged: gap 1.1e-08 <= 1e-06");
        QVERIFY(bar.finished());
        QCOMPARE(bar.fraction(), 1.0);
        QCOMPARE(bar.value(), bar.maximum());
        QCOMPARE(bar.text(), QString("converged: gap 1.1e-08 <= 1e-06"));
        bar.setGap(1e-3);
        QVERIFY(!bar.finished());
        QVERIFY(std::abs(bar.fraction() - 0.5) < 1e-12);
        QVERIFY2(bar.text().startsWith("gap 1.00e-03"), qPrintable(bar.text()));
    }

    // The text is drawn right of the bar: no text pixel lies within the chunk's columns, at
    // 73 % and at 100 %, and some text is drawn at all.
    void textBesideTheBar() {
        for (const bool finished : {false, true}) {
            GapProgress bar;
            bar.resize(420, 24);
            bar.reset(0.0899);
            bar.setGap(0.311);
            bar.setGap(0.311 * std::pow(0.0899 / 0.311, 0.73));
            if (finished) bar.setFinished("converged: gap 1.1e-08 <= 1e-06");
            const QImage image = bar.grab().toImage();
            const QColor chunk =
                finished ? cplab::widgets::colors::kBest : cplab::widgets::colors::kModel;
            const QColor text = bar.palette().color(QPalette::WindowText);
            int chunkRight = -1, textLeft = image.width(), textPixels = 0;
            for (int x = 0; x < image.width(); ++x) {
                for (int y = 0; y < image.height(); ++y) {
                    const QColor c = image.pixelColor(x, y);
                    if (c == chunk) chunkRight = std::max(chunkRight, x);
                    if (c == text) {
                        textLeft = std::min(textLeft, x);
                        ++textPixels;
                    }
                }
            }
            QVERIFY(chunkRight > 10);
            QVERIFY(textPixels > 30);
            QVERIFY2(
                textLeft > chunkRight,
                qPrintable(QString("text from x = %1, bar to %2").arg(textLeft).arg(chunkRight)));
        }
    }
};

QTEST_MAIN(TestGapProgress)
#include "test_gap_progress.moc"
