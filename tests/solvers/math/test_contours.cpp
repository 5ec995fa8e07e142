// SPDX-License-Identifier: GPL-3.0-or-later
// Marching squares (contourLevel) and quantile levels against closed forms: circles of
// f = x² + y², whose linear interpolation along a grid edge errs by at most h²/4; lines and
// the saddle of f = x·y, which is linear along every grid edge so the crossings are exact;
// and the order statistics of the samples for quantileLevels.
#include <QtTest>
#include <cmath>
#include <limits>

#include "math/contours.h"

using cplab::ContourLevel;
using cplab::GridSamples;
using Eigen::Vector2d;

namespace {

GridSamples sample(double x0, double dx, int nx, double y0, double dy, int ny,
                   const std::function<double(double, double)>& f) {
    GridSamples g;
    g.x0 = x0;
    g.dx = dx;
    g.nx = nx;
    g.y0 = y0;
    g.dy = dy;
    g.ny = ny;
    g.values.resize(static_cast<std::size_t>(nx) * ny);
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i)
            g.values[static_cast<std::size_t>(j) * nx + i] = f(x0 + i * dx, y0 + j * dy);
    }
    return g;
}

double squaredNorm(double x, double y) {
    return x * x + y * y;
}

// Index (i, j) of the grid cell [x_i, x_{i+1}] × [y_j, y_{j+1}] whose boundary holds both
// endpoints of the segment, or (−1, −1).
std::pair<int, int> cellOf(const GridSamples& g, const Vector2d& a, const Vector2d& b) {
    const double slack = 1e-9;
    const double xmin = std::min(a.x(), b.x()), xmax = std::max(a.x(), b.x());
    const double ymin = std::min(a.y(), b.y()), ymax = std::max(a.y(), b.y());
    const int i = static_cast<int>(std::floor((xmin - g.x0) / g.dx + slack));
    const int j = static_cast<int>(std::floor((ymin - g.y0) / g.dy + slack));
    const int i2 = std::min(i, g.nx - 2), j2 = std::min(j, g.ny - 2);
    if (i2 < 0 || j2 < 0) return {-1, -1};
    if (xmax > g.x(i2 + 1) + slack * g.dx || ymax > g.y(j2 + 1) + slack * g.dy) return {-1, -1};
    auto onBoundary = [&](const Vector2d& p) {
        return std::abs(p.x() - g.x(i2)) <= slack * g.dx ||
               std::abs(p.x() - g.x(i2 + 1)) <= slack * g.dx ||
               std::abs(p.y() - g.y(j2)) <= slack * g.dy ||
               std::abs(p.y() - g.y(j2 + 1)) <= slack * g.dy;
    };
    if (!onBoundary(a) || !onBoundary(b)) return {-1, -1};
    return {i2, j2};
}

// Every segment endpoint must be shared with exactly one other segment (closed curves).
bool formsClosedCurves(const ContourLevel& c, double tol) {
    std::vector<Vector2d> points;
    for (const auto& [a, b] : c.segments) {
        points.push_back(a);
        points.push_back(b);
    }
    for (std::size_t k = 0; k < points.size(); ++k) {
        int matches = 0;
        for (std::size_t m = 0; m < points.size(); ++m) {
            if (m != k && (points[m] - points[k]).norm() <= tol) ++matches;
        }
        if (matches != 1) return false;
    }
    return true;
}

}  // namespace

class TestContours : public QObject {
    Q_OBJECT
  private slots:
    // Circles r = 0.37 … 1.6 on a non-square, off-centre grid with dx ≠ dy (so a swap of x
    // and y would show). Along a grid edge the interpolant of x² (or y²) errs by ≤ h²/4, so
    // every endpoint p satisfies |‖p‖² − r²| ≤ h²/4; the polygon's length approaches 2πr.
    void circlesOfTheParaboloid_data() {
        QTest::addColumn<double>("radius");
        for (double r : {0.37, 0.8, 1.25, 1.6})
            QTest::newRow(qPrintable(QString("r=%1").arg(r))) << r;
    }
    void circlesOfTheParaboloid() {
        QFETCH(double, radius);
        const double dx = 0.05, dy = 0.04;
        const GridSamples g = sample(-2.0, dx, 81, -1.7313, dy, 88, squaredNorm);
        const ContourLevel c = cplab::contourLevel(g, radius * radius);
        QCOMPARE(c.level, radius * radius);
        QVERIFY(!c.segments.empty());
        double length = 0.0;
        for (const auto& [a, b] : c.segments) {
            for (const Vector2d& p : {a, b}) {
                const double error = std::abs(p.squaredNorm() - radius * radius);
                // The endpoint lies on a horizontal (y = y_j) or vertical (x = x_i) grid edge.
                const bool onRow =
                    std::abs((p.y() - g.y0) / dy - std::round((p.y() - g.y0) / dy)) <= 1e-9;
                const bool onColumn =
                    std::abs((p.x() - g.x0) / dx - std::round((p.x() - g.x0) / dx)) <= 1e-9;
                QVERIFY(onRow || onColumn);
                const double bound = (onRow ? dx * dx : dy * dy) / 4.0 + 1e-12;
                QVERIFY2(error <= bound, qPrintable(QString("(%1, %2): |p|^2 - r^2 = %3 > %4")
                                                        .arg(p.x())
                                                        .arg(p.y())
                                                        .arg(error)
                                                        .arg(bound)));
            }
            QVERIFY2(cellOf(g, a, b).first >= 0, "segment does not lie in one grid cell");
            length += (b - a).norm();
        }
        // An inscribed-ish polygon with chords of length ≲ 0.07: relative error well below 1%.
        QVERIFY2(
            std::abs(length - 2.0 * M_PI * radius) <= 5e-3 * 2.0 * M_PI * radius,
            qPrintable(QString("length %1 vs 2 pi r = %2").arg(length).arg(2 * M_PI * radius)));
        // One segment per crossed cell, and neighbouring cells agree on shared crossings.
        // (The grid's y0 keeps samples off the circles: a sample exactly on the level makes
        // several cells meet in one point, which is legitimate but not a closed chain.)
        QVERIFY(formsClosedCurves(c, 1e-12));
        // Every cell whose corners straddle the level has exactly one segment.
        int straddling = 0;
        for (int j = 0; j + 1 < g.ny; ++j) {
            for (int i = 0; i + 1 < g.nx; ++i) {
                const double lo =
                    std::min({g.at(i, j), g.at(i + 1, j), g.at(i, j + 1), g.at(i + 1, j + 1)});
                const double hi =
                    std::max({g.at(i, j), g.at(i + 1, j), g.at(i, j + 1), g.at(i + 1, j + 1)});
                if (lo <= radius * radius && hi > radius * radius) ++straddling;
            }
        }
        QCOMPARE(static_cast<int>(c.segments.size()), straddling);
    }

    // A plane f = 2x − 3y + 1 is linear along every edge: all endpoints lie exactly on the line,
    // and the segments chain into one polyline across the grid (two loose ends on its border).
    void linesAreExact() {
        auto f = [](double x, double y) { return 2.0 * x - 3.0 * y + 1.0; };
        const GridSamples g = sample(-1.0, 0.1, 21, -1.0, 0.125, 17, f);
        const ContourLevel c = cplab::contourLevel(g, 0.3);
        QVERIFY(!c.segments.empty());
        double length = 0.0;
        for (const auto& [a, b] : c.segments) {
            QVERIFY(std::abs(f(a.x(), a.y()) - 0.3) <= 1e-12);
            QVERIFY(std::abs(f(b.x(), b.y()) - 0.3) <= 1e-12);
            length += (b - a).norm();
        }
        // The line y = (2x + 0.7)/3 enters the square [−1, 1]² at (−1, −13/30) and leaves it
        // at (1, 9/10): a chord of length hypot(2, 4/3).
        QVERIFY(std::abs(length - std::hypot(2.0, 4.0 / 3.0)) <= 1e-12);
    }

    // f = x·y (a saddle at the origin) is linear along grid edges, so crossings of the level 0
    // are exactly on the axes; the grid is offset so no sample is 0.
    void saddleCrossingsLieOnTheAxes() {
        auto f = [](double x, double y) { return x * y; };
        const GridSamples g = sample(-1.03, 0.1, 21, -0.97, 0.1, 21, f);
        const ContourLevel c = cplab::contourLevel(g, 0.0);
        QVERIFY(!c.segments.empty());
        for (const auto& [a, b] : c.segments) {
            for (const Vector2d& p : {a, b})
                QVERIFY(std::min(std::abs(p.x()), std::abs(p.y())) <= 1e-12);
        }
    }

    // A single saddle cell, decided by the mean of its corners: corners 0 and 2 above the
    // level. With a mean above the level the upper region connects 0 and 2 through the centre,
    // so the segments cut off corners 1 and 3; with a mean below, they cut off 0 and 2.
    void saddleCellFollowsTheMean_data() {
        QTest::addColumn<double>("high");
        QTest::addColumn<bool>("cutsCorners13");
        QTest::newRow("mean above") << 3.0 << true;
        QTest::newRow("mean below") << 0.5 << false;
    }
    void saddleCellFollowsTheMean() {
        QFETCH(double, high);
        QFETCH(bool, cutsCorners13);
        GridSamples g;
        g.nx = g.ny = 2;
        // Corners (0,0), (1,0), (1,1), (0,1) = high, −1, high, −1; level 0.
        g.values = {high, -1.0, -1.0, high};
        const ContourLevel c = cplab::contourLevel(g, 0.0);
        QCOMPARE(c.segments.size(), std::size_t(2));
        const double t = high / (high + 1.0);  // crossing distance from a "high" corner
        auto has = [&](const Vector2d& p, const Vector2d& q) {
            for (const auto& [a, b] : c.segments) {
                if (((a - p).norm() < 1e-12 && (b - q).norm() < 1e-12) ||
                    ((a - q).norm() < 1e-12 && (b - p).norm() < 1e-12))
                    return true;
            }
            return false;
        };
        if (cutsCorners13) {
            // Around corner 1 = (1, 0): crossings on the bottom and right edges.
            QVERIFY(has({t, 0.0}, {1.0, 1.0 - t}));
            // Around corner 3 = (0, 1): crossings on the top and left edges.
            QVERIFY(has({1.0 - t, 1.0}, {0.0, t}));
        } else {
            QVERIFY(has({t, 0.0}, {0.0, t}));              // around corner 0
            QVERIFY(has({1.0, 1.0 - t}, {1.0 - t, 1.0}));  // around corner 2
        }
    }

    void degenerateInputsGiveNoSegments() {
        const GridSamples constant =
            sample(0.0, 1.0, 5, 0.0, 1.0, 4, [](double, double) { return 2.0; });
        QVERIFY(cplab::contourLevel(constant, 2.0).segments.empty());
        QVERIFY(cplab::contourLevel(constant, 1.0).segments.empty());
        QVERIFY(cplab::contourLevel(constant, 3.0).segments.empty());
        const std::vector<double> levels = cplab::quantileLevels(constant, 8);
        QCOMPARE(levels, std::vector<double>{2.0});

        const GridSamples bowl = sample(-1.0, 0.1, 21, -1.0, 0.1, 21, squaredNorm);
        QVERIFY(cplab::contourLevel(bowl, -0.5).segments.empty());  // below the minimum 0
        QVERIFY(cplab::contourLevel(bowl, 2.5).segments.empty());   // above the maximum 2
        QVERIFY(cplab::contourLevel(bowl, 2.0).segments.empty());   // = max: nothing above
        QVERIFY(
            cplab::contourLevel(bowl, std::numeric_limits<double>::quiet_NaN()).segments.empty());

        GridSamples empty;
        QVERIFY(cplab::contourLevel(empty, 0.0).segments.empty());
        QVERIFY(cplab::quantileLevels(empty, 5).empty());
        const GridSamples row =
            sample(0.0, 1.0, 7, 0.0, 1.0, 1, [](double x, double) { return x; });
        QVERIFY(cplab::contourLevel(row, 2.5).segments.empty());  // one row: no cells
        QVERIFY(cplab::quantileLevels(bowl, 0).empty());
        QVERIFY(cplab::quantileLevels(bowl, -3).empty());
    }

    // Cells with a non-finite corner are skipped; the remaining circle is intact.
    void nonFiniteSamplesAreSkipped() {
        GridSamples g = sample(-2.0, 0.05, 81, -2.0, 0.05, 81, squaredNorm);
        const int holeI = 60, holeJ = 40;  // (1, 0): on the circle r = 1
        g.values[static_cast<std::size_t>(holeJ) * g.nx + holeI] =
            std::numeric_limits<double>::quiet_NaN();
        g.values[5] = std::numeric_limits<double>::infinity();
        const ContourLevel full =
            cplab::contourLevel(sample(-2.0, 0.05, 81, -2.0, 0.05, 81, squaredNorm), 1.0);
        const ContourLevel holed = cplab::contourLevel(g, 1.0);
        QVERIFY(holed.segments.size() < full.segments.size());
        QVERIFY(holed.segments.size() + 4 >= full.segments.size());
        for (const auto& [a, b] : holed.segments) {
            for (const Vector2d& p : {a, b}) {
                QVERIFY(std::isfinite(p.x()) && std::isfinite(p.y()));
                // No endpoint inside the four cells around the NaN sample.
                QVERIFY(std::abs(p.x() - 1.0) >= 0.05 - 1e-12 || std::abs(p.y()) >= 0.05 - 1e-12);
            }
        }
        for (double level : cplab::quantileLevels(g, 10))
            QVERIFY(std::isfinite(level));
    }

    // Level k (of `count`) is the sample at quantile q_k = (k/(count+1))²: at most q_k·(N−1)
    // samples lie strictly below it and more than q_k·(N−1) lie at or below it. Levels increase
    // strictly and stay within the samples' range.
    void quantileLevelsAreOrderStatistics_data() {
        QTest::addColumn<int>("count");
        for (int count : {1, 3, 12, 40})
            QTest::newRow(qPrintable(QString("count=%1").arg(count))) << count;
    }
    void quantileLevelsAreOrderStatistics() {
        QFETCH(int, count);
        // An asymmetric function, so that samples are (almost) all distinct.
        auto f = [](double x, double y) { return std::exp(x) + 3.0 * y * y + 0.1 * x * y; };
        const GridSamples g = sample(-1.3, 0.037, 70, -0.9, 0.041, 45, f);
        const std::vector<double> levels = cplab::quantileLevels(g, count);
        QCOMPARE(static_cast<int>(levels.size()), count);
        const double lo = *std::min_element(g.values.begin(), g.values.end());
        const double hi = *std::max_element(g.values.begin(), g.values.end());
        const double n1 = static_cast<double>(g.values.size() - 1);
        for (int k = 1; k <= count; ++k) {
            const double level = levels[static_cast<std::size_t>(k - 1)];
            QVERIFY(level >= lo && level <= hi);
            if (k > 1) QVERIFY(level > levels[static_cast<std::size_t>(k - 2)]);
            const double q = std::pow(static_cast<double>(k) / (count + 1), 2.0);
            const auto below = std::count_if(g.values.begin(), g.values.end(),
                                             [&](double v) { return v < level; });
            const auto atOrBelow = std::count_if(g.values.begin(), g.values.end(),
                                                 [&](double v) { return v <= level; });
            QVERIFY2(
                static_cast<double>(below) <= q * n1 + 1e-9,
                qPrintable(QString("k=%1: %2 below, q(N-1) = %3").arg(k).arg(below).arg(q * n1)));
            QVERIFY2(static_cast<double>(atOrBelow) > q * n1 - 1e-9,
                     qPrintable(QString("k=%1: %2 at or below, q(N-1) = %3")
                                    .arg(k)
                                    .arg(atOrBelow)
                                    .arg(q * n1)));
            // Every level is a real contour of the samples.
            QVERIFY(!cplab::contourLevel(g, level).segments.empty());
        }
    }

    // Ties collapse: on a function with few distinct values no level repeats.
    void quantileLevelsSkipRepeats() {
        auto f = [](double x, double) { return std::floor(x); };  // values 0, 1, 2
        const GridSamples g = sample(0.0, 0.25, 12, 0.0, 1.0, 3, f);
        const std::vector<double> levels = cplab::quantileLevels(g, 20);
        QVERIFY(!levels.empty());
        QVERIFY(levels.size() <= 3);
        for (std::size_t k = 1; k < levels.size(); ++k)
            QVERIFY(levels[k] > levels[k - 1]);
        for (double level : levels)
            QVERIFY(level == 0.0 || level == 1.0 || level == 2.0);
    }
};

QTEST_GUILESS_MAIN(TestContours)
#include "test_contours.moc"
