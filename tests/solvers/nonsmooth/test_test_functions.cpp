// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in test functions: their stated minima against dense grid searches, and their
// oracles against the subgradient inequality.
#include <QtTest>
#include <random>

#include "nonsmooth/test_functions.h"

using namespace cplab;

class TestTestFunctions : public QObject {
    Q_OBJECT
  private slots:
    void minimumMatchesGridSearch_data() {
        QTest::addColumn<QString>("name");
        for (const auto& name : testFunctionNames()) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        }
    }
    void minimumMatchesGridSearch() {
        QFETCH(QString, name);
        const auto f = makeTestFunction(name.toStdString());
        QVERIFY(f);
        const Box box = f->box();
        const double fStar = f->minimumValue();
        const Eigen::VectorXd xStar = f->minimizer();
        QVERIFY(box.contains(xStar));
        QVERIFY(box.contains(f->start()));
        QVERIFY(std::abs(f->evaluate(xStar, nullptr) - fStar) <=
                1e-12 * std::max(1.0, std::abs(fStar)));

        // No grid point may beat f*, and the grid must come close to it.
        double gridMin = std::numeric_limits<double>::infinity();
        const int n = f->dimension() == 1 ? 400001 : 1201;
        Eigen::VectorXd x(f->dimension());
        if (f->dimension() == 1) {
            for (int i = 0; i < n; ++i) {
                x(0) = box.lower(0) + (box.upper(0) - box.lower(0)) * i / (n - 1);
                gridMin = std::min(gridMin, f->evaluate(x, nullptr));
            }
        } else {
            for (int i = 0; i < n; ++i) {
                for (int j = 0; j < n; ++j) {
                    x << box.lower(0) + (box.upper(0) - box.lower(0)) * i / (n - 1),
                        box.lower(1) + (box.upper(1) - box.lower(1)) * j / (n - 1);
                    gridMin = std::min(gridMin, f->evaluate(x, nullptr));
                }
            }
        }
        QVERIFY2(gridMin >= fStar - 1e-12 * std::max(1.0, std::abs(fStar)),
                 qPrintable(QString("grid found %1 below f* = %2")
                                .arg(gridMin, 0, 'g', 17)
                                .arg(fStar, 0, 'g', 17)));
        QVERIFY2(gridMin - fStar <= 5e-3 * std::max(1.0, std::abs(fStar)),
                 qPrintable(QString("grid minimum %1 far above f* = %2").arg(gridMin).arg(fStar)));
    }

    void subgradientInequality_data() { minimumMatchesGridSearch_data(); }
    void subgradientInequality() {
        QFETCH(QString, name);
        const auto f = makeTestFunction(name.toStdString());
        const Box box = f->box();
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        auto randomPoint = [&] {
            Eigen::VectorXd x(f->dimension());
            for (int j = 0; j < x.size(); ++j) {
                x(j) = box.lower(j) + (box.upper(j) - box.lower(j)) * unit(rng);
            }
            return x;
        };
        // Random pairs plus the kinks' neighbourhood (the minimiser and the start).
        for (int k = 0; k < 4000; ++k) {
            Eigen::VectorXd x = k % 10 == 0 ? f->minimizer() : randomPoint();
            if (k % 10 == 5) x = f->start();
            const Eigen::VectorXd y = randomPoint();
            Eigen::VectorXd g;
            const double fx = f->evaluate(x, &g);
            const double fy = f->evaluate(y, nullptr);
            QCOMPARE(g.size(), x.size());
            const double slack = 1e-10 * std::max({1.0, std::abs(fx), std::abs(fy)});
            QVERIFY2(
                fy >= fx + g.dot(y - x) - slack,
                qPrintable(
                    QString("f(y) = %1 < f(x) + <g, y - x> = %2").arg(fy).arg(fx + g.dot(y - x))));
        }
    }

    void unknownNameGivesNull() { QVERIFY(!makeTestFunction("no_such_function")); }
};

QTEST_GUILESS_MAIN(TestTestFunctions)
#include "test_test_functions.moc"
