// SPDX-License-Identifier: GPL-3.0-or-later
// The cutting-plane model's plot helpers (cutting_plane_view.h) against brute force: cells of
// random sets of planes over a box are convex polygons inside the box on which their plane is
// the max; they tile the box (areas add up to the box's area); every grid point lies in the
// cell of its argmax plane; modelValue and modelCurve are the pointwise max of the planes.
#include <QtTest>
#include <cmath>
#include <limits>
#include <random>

#include "nonsmooth/cutting_plane_view.h"

using namespace cplab;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

using Polygon = std::vector<Vector2d>;

double cross(const Vector2d& a, const Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
}

double area(const Polygon& p) {
    double twice = 0.0;
    for (std::size_t k = 0; k < p.size(); ++k)
        twice += cross(p[k], p[(k + 1) % p.size()]);
    return 0.5 * twice;
}

Vector2d centroid(const Polygon& p) {
    // Area-weighted centroid of a polygon (vertex mean would do for convexity checks, but this
    // is the true centroid and lies inside even for uneven vertex spacing).
    const double a = area(p);
    Vector2d c = Vector2d::Zero();
    for (std::size_t k = 0; k < p.size(); ++k) {
        const Vector2d& u = p[k];
        const Vector2d& v = p[(k + 1) % p.size()];
        c += (u + v) * cross(u, v);
    }
    return c / (6.0 * a);
}

// The polygon without consecutive (near-)duplicate vertices: clipping may repeat a vertex that
// lies exactly on a clip line.
Polygon withoutDuplicates(const Polygon& p, double tol) {
    Polygon out;
    for (const auto& v : p) {
        if (out.empty() || (v - out.back()).norm() > tol) out.push_back(v);
    }
    while (out.size() > 1 && (out.front() - out.back()).norm() <= tol)
        out.pop_back();
    return out;
}

// Counter-clockwise and convex: every turn is a left turn (or straight, within tol).
bool isConvexCcw(const Polygon& p, double tol) {
    for (std::size_t k = 0; k < p.size(); ++k) {
        const Vector2d& a = p[k];
        const Vector2d& b = p[(k + 1) % p.size()];
        const Vector2d& c = p[(k + 2) % p.size()];
        if (cross(b - a, c - b) < -tol) return false;
    }
    return true;
}

// Signed distance-like depth of x in a convex ccw polygon: ≥ 0 inside.
double depthIn(const Polygon& p, const Vector2d& x) {
    double depth = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < p.size(); ++k) {
        const Vector2d& a = p[k];
        const Vector2d& b = p[(k + 1) % p.size()];
        const double length = (b - a).norm();
        if (length == 0.0) continue;
        depth = std::min(depth, cross(b - a, x - a) / length);
    }
    return depth;
}

CuttingPlane plane(const Vector2d& point, double value, const Vector2d& gradient) {
    CuttingPlane p;
    p.point = point;
    p.value = value;
    p.gradient = gradient;
    return p;
}

Box box2(double x0, double y0, double x1, double y1) {
    Box b;
    b.lower = Vector2d(x0, y0);
    b.upper = Vector2d(x1, y1);
    return b;
}

// Random planes: linearisations of random convex-ish data, with slopes large enough that
// several are maximal somewhere in the box, plus some that are dominated everywhere.
std::vector<CuttingPlane> randomPlanes(std::mt19937_64& rng, const Box& box, int count) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<CuttingPlane> planes;
    for (int k = 0; k < count; ++k) {
        const Vector2d point(box.lower(0) + u(rng) * (box.upper(0) - box.lower(0)),
                             box.lower(1) + u(rng) * (box.upper(1) - box.lower(1)));
        // f(x) = ‖x‖²: its linearisations at random points are the typical Kelley model.
        planes.push_back(plane(point, point.squaredNorm() + 0.3 * (u(rng) - 0.5), 2.0 * point));
    }
    return planes;
}

}  // namespace

class TestModelCells : public QObject {
    Q_OBJECT
  private slots:
    void cellsTileTheBoxByArgmax_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("count");
        for (int seed = 1; seed <= 40; ++seed)
            QTest::newRow(qPrintable(QString("seed %1").arg(seed))) << seed << 1 + seed % 13;
    }
    void cellsTileTheBoxByArgmax() {
        QFETCH(int, seed);
        QFETCH(int, count);
        std::mt19937_64 rng(static_cast<unsigned long long>(seed));
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        const Box box =
            box2(-1.5 + 0.3 * u(rng), -0.7 + 0.3 * u(rng), 2.0 + 0.3 * u(rng), 1.2 + 0.3 * u(rng));
        std::vector<CuttingPlane> planes = randomPlanes(rng, box, count);
        // One plane dominated everywhere: a copy of plane 0 shifted down by 10.
        CuttingPlane low = planes.front();
        low.value -= 10.0;
        planes.push_back(low);
        // And one dominated everywhere but not parallel to any other: far below the model
        // (each plane 2⟨p, x⟩ − ‖p‖² + δ is > −30 on the box, this one < −80).
        planes.push_back(plane(box.center(), -100.0, Vector2d(3.0 * u(rng), 3.0 * u(rng))));
        const int dominated = static_cast<int>(planes.size()) - 2;

        const auto cells = modelCells(planes, box);
        QCOMPARE(cells.size(), planes.size());
        QVERIFY(cells[static_cast<std::size_t>(dominated)].empty());
        QVERIFY(cells[static_cast<std::size_t>(dominated + 1)].empty());

        const double boxArea = (box.upper(0) - box.lower(0)) * (box.upper(1) - box.lower(1));
        const double tol = 1e-9;
        double totalArea = 0.0;
        int nonEmpty = 0;
        for (std::size_t k = 0; k < cells.size(); ++k) {
            if (cells[k].empty()) continue;
            ++nonEmpty;
            const Polygon cell = withoutDuplicates(cells[k], 1e-12);
            QVERIFY(cell.size() >= 3);
            QVERIFY2(isConvexCcw(cell, tol), qPrintable(QString("cell %1 not convex ccw").arg(k)));
            const double a = area(cell);
            QVERIFY(a >= -tol);
            totalArea += a;
            for (const auto& v : cell) {
                QVERIFY(box.contains(v, tol));
                // Plane k attains the model's max at every vertex of its cell.
                QVERIFY2(planes[k].at(v) >= modelValue(planes, v) - tol,
                         qPrintable(QString("cell %1 vertex (%2, %3): plane %4 < model %5")
                                        .arg(k)
                                        .arg(v.x())
                                        .arg(v.y())
                                        .arg(planes[k].at(v))
                                        .arg(modelValue(planes, v))));
            }
            if (a > 1e-9) {
                const Vector2d c = centroid(cell);
                QVERIFY(box.contains(c, tol));
                QCOMPARE(modelValue(planes, c), planes[k].at(c));
            }
        }
        // With random linearisations of a bowl most planes own a piece of the box.
        QVERIFY(nonEmpty >= std::min(count, 2));
        QVERIFY2(std::abs(totalArea - boxArea) <= 1e-9 * boxArea,
                 qPrintable(QString("cells cover %1 of %2").arg(totalArea).arg(boxArea)));

        // Every grid point lies in the cell of its argmax plane (skipping near-ties).
        const int n = 60;
        int checked = 0;
        for (int i = 0; i <= n; ++i) {
            for (int j = 0; j <= n; ++j) {
                const Vector2d x(box.lower(0) + (box.upper(0) - box.lower(0)) * i / n,
                                 box.lower(1) + (box.upper(1) - box.lower(1)) * j / n);
                int best = -1;
                double first = -std::numeric_limits<double>::infinity(), second = first;
                for (int k = 0; k < static_cast<int>(planes.size()); ++k) {
                    const double value = planes[static_cast<std::size_t>(k)].at(x);
                    if (value > first) {
                        second = first;
                        first = value;
                        best = k;
                    } else if (value > second) {
                        second = value;
                    }
                }
                QCOMPARE(modelValue(planes, x), first);
                if (first - second < 1e-7) continue;
                const auto& cell = cells[static_cast<std::size_t>(best)];
                QVERIFY2(!cell.empty() && depthIn(withoutDuplicates(cell, 1e-12), x) >= -tol,
                         qPrintable(QString("(%1, %2) argmax %3 outside its cell")
                                        .arg(x.x())
                                        .arg(x.y())
                                        .arg(best)));
                ++checked;
            }
        }
        QVERIFY(checked > (n + 1) * (n + 1) / 2);
    }

    // A hand-made model with a known partition: max(x, −x, y − 1) over [−1, 1]². The cells of
    // x and −x are the right and left halves of the box; y − 1 ≤ 0 ≤ |x| reaches the max only
    // at the single point (0, 1), so its cell is empty or degenerate with zero area.
    void handMadeModel() {
        const Box box = box2(-1, -1, 1, 1);
        const std::vector<CuttingPlane> planes = {
            plane(Vector2d(0, 0), 0.0, Vector2d(1, 0)),
            plane(Vector2d(0, 0), 0.0, Vector2d(-1, 0)),
            plane(Vector2d(0, 1), 0.0, Vector2d(0, 1)),
        };
        const auto cells = modelCells(planes, box);
        QCOMPARE(cells.size(), std::size_t(3));
        QVERIFY(std::abs(area(cells[0]) - 2.0) <= 1e-12);  // x ≥ 0 half of the box
        QVERIFY(std::abs(area(cells[1]) - 2.0) <= 1e-12);
        QVERIFY(cells[2].empty() || std::abs(area(cells[2])) <= 1e-12);
        for (const auto& v : cells[0])
            QVERIFY(v.x() >= -1e-12);
        for (const auto& v : cells[1])
            QVERIFY(v.x() <= 1e-12);
    }

    // Identical planes: the earlier one owns the cell, the copy gets nothing.
    void duplicatePlanesGiveOneCell() {
        const Box box = box2(0, 0, 2, 1);
        const CuttingPlane p = plane(Vector2d(1, 0.5), 2.0, Vector2d(0.5, -1.0));
        const auto cells = modelCells({p, p}, box);
        QCOMPARE(cells.size(), std::size_t(2));
        QVERIFY(std::abs(area(cells[0]) - 2.0) <= 1e-12);
        QVERIFY(cells[1].empty());
    }

    void oneAndZeroPlanes() {
        const Box box = box2(-2, 3, 5, 4);
        const auto single = modelCells({plane(Vector2d(0, 0), 1.0, Vector2d(3, -2))}, box);
        QCOMPARE(single.size(), std::size_t(1));
        QVERIFY(std::abs(area(single[0]) - 7.0) <= 1e-12);
        QVERIFY(modelCells({}, box).empty());
        QCOMPARE(modelValue({}, Vector2d(0, 0)), -std::numeric_limits<double>::infinity());
    }

    // Not 2-D: one (empty) entry per plane.
    void otherDimensionsGiveEmptyCells() {
        Box box;
        box.lower = VectorXd::Constant(1, -1.0);
        box.upper = VectorXd::Constant(1, 1.0);
        CuttingPlane p;
        p.point = VectorXd::Zero(1);
        p.gradient = VectorXd::Ones(1);
        const auto cells = modelCells({p, p}, box);
        QCOMPARE(cells.size(), std::size_t(2));
        QVERIFY(cells[0].empty() && cells[1].empty());
    }

    // 1-D: modelCurve is the pointwise max of the lines, and modelValue agrees.
    void modelCurveIsThePointwiseMax() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(-2.0, 2.0);
        for (int trial = 0; trial < 50; ++trial) {
            std::vector<CuttingPlane> planes;
            const int count = 1 + trial % 9;
            for (int k = 0; k < count; ++k) {
                CuttingPlane p;
                p.point = VectorXd::Constant(1, u(rng));
                p.value = u(rng);
                p.gradient = VectorXd::Constant(1, 2.0 * u(rng));
                planes.push_back(p);
            }
            std::vector<double> xs;
            for (int i = 0; i <= 100; ++i)
                xs.push_back(-3.0 + 0.06 * i);
            const std::vector<double> curve = modelCurve(planes, xs);
            QCOMPARE(curve.size(), xs.size());
            for (std::size_t i = 0; i < xs.size(); ++i) {
                double best = -std::numeric_limits<double>::infinity();
                for (const auto& p : planes)
                    best = std::max(best, p.value + p.gradient(0) * (xs[i] - p.point(0)));
                QVERIFY(std::abs(curve[i] - best) <= 1e-12 * std::max(1.0, std::abs(best)));
                QCOMPARE(modelValue(planes, VectorXd::Constant(1, xs[i])), curve[i]);
            }
        }
        QVERIFY(modelCurve({}, {}).empty());
        const auto none = modelCurve({}, {0.0, 1.0});
        QCOMPARE(none.size(), std::size_t(2));
        QVERIFY(std::isinf(none[0]) && none[0] < 0);
    }
};

QTEST_GUILESS_MAIN(TestModelCells)
#include "test_model_cells.moc"
