// SPDX-License-Identifier: GPL-3.0-or-later
// LpMaster (the Clp wrapper) against closed forms, hand-computed duals and brute force over a
// grid of the cutting-plane model; warm re-solves, row removal and silence of Clp.
#include <unistd.h>

#include <QtTest>
#include <cmath>
#include <cstdio>
#include <limits>

#include "math/lp_master.h"

using cplab::LpMaster;
using cplab::LpStatus;
using Eigen::VectorXd;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

VectorXd vec(std::initializer_list<double> values) {
    VectorXd v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double value : values)
        v(i++) = value;
    return v;
}

// f(x) = |x − 0.3| + 0.5·x² and a subgradient (0 at the kink is not used: sign picks one).
double f(double x) {
    return std::abs(x - 0.3) + 0.5 * x * x;
}
double subgradient(double x) {
    return (x >= 0.3 ? 1.0 : -1.0) + x;
}

// Captures everything written to the process's stdout and stderr file descriptors (Clp
// prints through C stdio and C++ streams).
class OutputCapture {
  public:
    OutputCapture() {
        std::fflush(stdout);
        std::fflush(stderr);
        file_ = std::tmpfile();
        savedOut_ = dup(1);
        savedErr_ = dup(2);
        dup2(fileno(file_), 1);
        dup2(fileno(file_), 2);
    }
    ~OutputCapture() { restore(); }
    QByteArray restore() {
        if (!file_) return captured_;
        std::fflush(stdout);
        std::fflush(stderr);
        dup2(savedOut_, 1);
        dup2(savedErr_, 2);
        close(savedOut_);
        close(savedErr_);
        std::rewind(file_);
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0) {
            captured_.append(buffer, static_cast<qsizetype>(n));
        }
        std::fclose(file_);
        file_ = nullptr;
        return captured_;
    }

  private:
    std::FILE* file_ = nullptr;
    int savedOut_ = -1, savedErr_ = -1;
    QByteArray captured_;
};

}  // namespace

class TestLpMaster : public QObject {
    Q_OBJECT

  private slots:
    void smallLpClosedForm();
    void dualsMatchHandComputation();
    void equalityRow();
    void infeasible();
    void unbounded();
    void noRows();
    void kelleyLoop();
    void warmSolvesOfBadlyScaledPlanes();
    void removeRows();
    void setColumnBounds();
    void clpIsSilent();
    void moveOnly();
    void invalidInputThrows();
};

void TestLpMaster::smallLpClosedForm() {
    // max x + y s.t. x + 2y ≤ 4, 3x + y ≤ 6, x, y ≥ 0: vertex (8/5, 6/5), value 14/5.
    LpMaster lp(vec({-1.0, -1.0}), vec({0.0, 0.0}), vec({kInf, kInf}));
    QCOMPARE(lp.columns(), 2);
    QCOMPARE(lp.addRow(vec({1.0, 2.0}), -kInf, 4.0), 0);
    QCOMPARE(lp.addRow(vec({3.0, 1.0}), -kInf, 6.0), 1);
    QCOMPARE(lp.rows(), 2);
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() + 14.0 / 5.0) <= 1e-9);
    QVERIFY(std::abs(lp.solution()(0) - 8.0 / 5.0) <= 1e-9);
    QVERIFY(std::abs(lp.solution()(1) - 6.0 / 5.0) <= 1e-9);
    QVERIFY(QString::fromStdString(lp.lastMessage()).startsWith("optimal"));
    QCOMPARE(QString(cplab::toString(LpStatus::Optimal)), QString("optimal"));
}

void TestLpMaster::dualsMatchHandComputation() {
    // Same LP. Both rows are tight: yᵀA = c on the basis {x, y} gives
    //   y₁ + 3y₂ = −1,  2y₁ + y₂ = −1   →   y = (−2/5, −1/5),
    // the change of the optimum per unit of each row's bound (both ≤ rows, so ≤ 0), and
    // strong duality: yᵀ(4, 6) = −14/5 = optimum.
    LpMaster lp(vec({-1.0, -1.0}), vec({0.0, 0.0}), vec({kInf, kInf}));
    lp.addRow(vec({1.0, 2.0}), -kInf, 4.0);
    lp.addRow(vec({3.0, 1.0}), -kInf, 6.0);
    lp.addRow(vec({1.0, 0.0}), -kInf, 10.0);  // slack: dual 0
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    const VectorXd& y = lp.rowDuals();
    QCOMPARE(y.size(), 3);
    QVERIFY(std::abs(y(0) + 2.0 / 5.0) <= 1e-9);
    QVERIFY(std::abs(y(1) + 1.0 / 5.0) <= 1e-9);
    QVERIFY(std::abs(y(2)) <= 1e-9);
    QVERIFY(std::abs(4.0 * y(0) + 6.0 * y(1) - lp.objective()) <= 1e-9);

    // Perturbing a bound moves the optimum by the dual (the basis stays optimal).
    LpMaster perturbed(vec({-1.0, -1.0}), vec({0.0, 0.0}), vec({kInf, kInf}));
    perturbed.addRow(vec({1.0, 2.0}), -kInf, 4.0 + 1e-3);
    perturbed.addRow(vec({3.0, 1.0}), -kInf, 6.0);
    QCOMPARE(perturbed.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(perturbed.objective() - lp.objective() - 1e-3 * y(0)) <= 1e-9);
}

void TestLpMaster::equalityRow() {
    // MKL-style: min cᵀβ over the simplex Σβ = 1, β ≥ 0, plus θ ≥ aᵀβ rows; here
    // min 2β₁ + 3β₂ + β₃ s.t. Σβ = 1, β₃ ≤ 0.25 → β = (0.75, 0, 0.25), value 1.75.
    LpMaster lp(vec({2.0, 3.0, 1.0}), vec({0.0, 0.0, 0.0}), vec({kInf, kInf, 0.25}));
    lp.addRow(vec({1.0, 1.0, 1.0}), 1.0, 1.0);
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() - 1.75) <= 1e-9);
    QVERIFY((lp.solution() - vec({0.75, 0.0, 0.25})).norm() <= 1e-9);
    QVERIFY(std::abs(lp.rowDuals()(0) - 2.0) <= 1e-9);  // one more unit of mass costs 2
}

void TestLpMaster::infeasible() {
    LpMaster lp(vec({1.0, 1.0}), vec({0.0, 0.0}), vec({1.0, 1.0}));
    lp.addRow(vec({1.0, 1.0}), 3.0, kInf);  // x + y ≥ 3 with x, y ≤ 1
    QCOMPARE(lp.solve(), LpStatus::Infeasible);
    QVERIFY2(QString::fromStdString(lp.lastMessage()).contains("infeasible"),
             lp.lastMessage().c_str());

    // Infeasibility that appears only after a warm re-solve (dual simplex path).
    LpMaster warm(vec({1.0, 1.0}), vec({0.0, 0.0}), vec({1.0, 1.0}));
    warm.addRow(vec({1.0, 1.0}), 1.5, kInf);
    QCOMPARE(warm.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(warm.objective() - 1.5) <= 1e-9);
    warm.addRow(vec({1.0, -1.0}), 1.0, kInf);  // x − y ≥ 1 and x + y ≥ 1.5 need x ≥ 1.25
    QCOMPARE(warm.solve(), LpStatus::Infeasible);
}

void TestLpMaster::unbounded() {
    LpMaster lp(vec({0.0, 1.0}), vec({-1.0, -kInf}), vec({1.0, kInf}));
    lp.addRow(vec({1.0, 1.0}), -kInf, 5.0);  // y ≤ 5 − x: y → −∞
    QCOMPARE(lp.solve(), LpStatus::Unbounded);
    QVERIFY2(QString::fromStdString(lp.lastMessage()).contains("unbounded"),
             lp.lastMessage().c_str());
    // A cut bounding y makes it optimal on the next (warm) solve.
    lp.addRow(vec({-1.0, 1.0}), 0.0, kInf);  // y ≥ x
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() + 1.0) <= 1e-9);  // x = −1, y = −1
}

void TestLpMaster::noRows() {
    // Only bounds: each column sits at the bound its cost prefers.
    LpMaster lp(vec({1.0, -2.0, 0.0}), vec({-1.0, -3.0, 0.5}), vec({4.0, 2.0, 0.7}));
    QCOMPARE(lp.rows(), 0);
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() - (-1.0 - 4.0)) <= 1e-9);
    QVERIFY(std::abs(lp.solution()(0) + 1.0) <= 1e-9);
    QVERIFY(std::abs(lp.solution()(1) - 2.0) <= 1e-9);
    QCOMPARE(lp.rowDuals().size(), 0);

    LpMaster free(vec({1.0}), vec({-kInf}), vec({kInf}));
    QCOMPARE(free.solve(), LpStatus::Unbounded);
}

void TestLpMaster::kelleyLoop() {
    // Kelley's method on f(x) = |x − 0.3| + 0.5x² over [−2, 2]: columns (x, y), min y,
    // each iteration adds y − gᵢx ≥ f(xᵢ) − gᵢxᵢ and re-solves warm.
    const double lower = -2.0, upper = 2.0;
    LpMaster lp(vec({0.0, 1.0}), vec({lower, -kInf}), vec({upper, kInf}));
    std::vector<double> points = {2.0};
    double previous = -kInf;
    double x = 2.0;
    int maxWarmIterations = 0;
    for (int k = 0; k < 40; ++k) {
        const double g = subgradient(x);
        lp.addRow(vec({-g, 1.0}), f(x) - g * x, kInf);
        const LpStatus status = lp.solve();
        QCOMPARE(status, LpStatus::Optimal);
        if (k > 0) maxWarmIterations = std::max(maxWarmIterations, lp.lastIterations());

        // Brute force: the model max_i (f(xᵢ) + gᵢ(x − xᵢ)) on a fine grid. Its minimum lies
        // at a grid point, at an end or at a crossing of two planes; evaluate all of them.
        std::vector<double> candidates = {lower, upper};
        for (std::size_t i = 0; i < points.size(); ++i) {
            for (std::size_t j = i + 1; j < points.size(); ++j) {
                const double gi = subgradient(points[i]), gj = subgradient(points[j]);
                if (gi == gj) continue;
                const double c =
                    (f(points[j]) - gj * points[j] - f(points[i]) + gi * points[i]) / (gi - gj);
                if (c >= lower && c <= upper) candidates.push_back(c);
            }
        }
        for (int i = 0; i <= 4000; ++i)
            candidates.push_back(lower + (upper - lower) * i / 4000);
        double best = kInf;
        for (double c : candidates) {
            double model = -kInf;
            for (double p : points)
                model = std::max(model, f(p) + subgradient(p) * (c - p));
            best = std::min(best, model);
        }
        QVERIFY2(std::abs(lp.objective() - best) <= 1e-9,
                 qPrintable(QString("k = %1: LP %2, brute force %3")
                                .arg(k)
                                .arg(lp.objective(), 0, 'g', 17)
                                .arg(best, 0, 'g', 17)));
        // The master value is a lower bound that never decreases.
        QVERIFY(lp.objective() >= previous - 1e-9);
        previous = lp.objective();
        // Row duals: a convex combination of the planes (≥ 0, sum 1: the y column).
        QVERIFY(lp.rowDuals().minCoeff() >= -1e-9);
        QVERIFY(std::abs(lp.rowDuals().sum() - 1.0) <= 1e-9);

        x = lp.solution()(0);
        points.push_back(x);
    }
    // Converged to min f = f(0.3) = 0.045 (the subgradient 0 ∈ ∂f at 0.3).
    QVERIFY(std::abs(previous - f(0.3)) <= 1e-6);
    // One row added to an optimal basis: a handful of dual simplex pivots.
    QVERIFY2(maxWarmIterations <= 3, qPrintable(QString::number(maxWarmIterations)));
}

void TestLpMaster::warmSolvesOfBadlyScaledPlanes() {
    // Planes of q(x) = ½(x₁ − 0.3)² + 5(x₂ − 0.3)² over [−1, 1]² at scattered points, one row
    // per warm re-solve, as a bundle master adds them. Regression: with Clp's default scaling
    // the warm dual simplex reported "optimal" objectives far above the true minimum. Each
    // solution is checked for feasibility (its model value) and optimality (no grid point of
    // the model lies below the reported objective).
    auto q = [](double x1, double x2) {
        return 0.5 * (x1 - 0.3) * (x1 - 0.3) + 5.0 * (x2 - 0.3) * (x2 - 0.3);
    };
    LpMaster lp(vec({0.0, 0.0, 1.0}), vec({-1.0, -1.0, -kInf}), vec({1.0, 1.0, kInf}));
    struct Plane {
        double g1, g2, offset;
    };
    std::vector<Plane> planes;
    auto model = [&](double x1, double x2) {
        double value = -kInf;
        for (const Plane& p : planes)
            value = std::max(value, p.offset + p.g1 * x1 + p.g2 * x2);
        return value;
    };
    // The first four are the iterates of a bundle run that exposed the fault; the second has
    // a gradient entry of 5.6e−17.
    std::vector<std::pair<double, double>> points = {{-0.8, -0.8},
                                                     {0.30000000000000004, 1.0},
                                                     {0.6693444236032102, 0.043817840779803774},
                                                     {0.38064346118505454, 0.5178906024821543}};
    std::uint32_t state = 12345u;
    auto uniform = [&state] {
        state = state * 1664525u + 1013904223u;
        return -1.0 + 2.0 * (state >> 8) / double(1u << 24);
    };
    for (int k = 0; k < 30; ++k)
        points.emplace_back(uniform(), uniform());
    for (std::size_t k = 0; k < points.size(); ++k) {
        const auto [x1, x2] = points[k];
        const Plane p{x1 - 0.3, 10.0 * (x2 - 0.3), 0.0};
        planes.push_back({p.g1, p.g2, q(x1, x2) - p.g1 * x1 - p.g2 * x2});
        lp.addRow(vec({-p.g1, -p.g2, 1.0}), planes.back().offset, kInf);
        QCOMPARE(lp.solve(), LpStatus::Optimal);
        const VectorXd& s = lp.solution();
        QVERIFY2(model(s(0), s(1)) <= lp.objective() + 1e-9,
                 qPrintable(QString("plane %1: solution infeasible").arg(k)));
        double gridMin = kInf;
        for (int i = 0; i <= 200; ++i) {
            for (int j = 0; j <= 200; ++j) {
                gridMin = std::min(gridMin, model(-1.0 + i / 100.0, -1.0 + j / 100.0));
            }
        }
        QVERIFY2(gridMin >= lp.objective() - 1e-9,
                 qPrintable(QString("plane %1: LP %2 above the grid minimum %3")
                                .arg(k)
                                .arg(lp.objective(), 0, 'g', 17)
                                .arg(gridMin, 0, 'g', 17)));
    }
}

void TestLpMaster::removeRows() {
    // min y s.t. y ≥ |x − i| pieces; removing rows changes the optimum as predicted.
    LpMaster lp(vec({0.0, 1.0}), vec({-5.0, -kInf}), vec({5.0, kInf}));
    lp.addRow(vec({-1.0, 1.0}), -1.0, kInf);  // row 0: y ≥ x − 1
    lp.addRow(vec({1.0, 1.0}), 1.0, kInf);    // row 1: y ≥ 1 − x
    lp.addRow(vec({0.0, 1.0}), 2.0, kInf);    // row 2: y ≥ 2
    lp.addRow(vec({-1.0, 1.0}), -3.0, kInf);  // row 3: y ≥ x − 3
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() - 2.0) <= 1e-9);
    lp.removeRows({2});  // the binding row: optimum drops to 0 at x = 1
    QCOMPARE(lp.rows(), 3);
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective()) <= 1e-9);
    QVERIFY(std::abs(lp.solution()(0) - 1.0) <= 1e-9);
    QCOMPARE(lp.rowDuals().size(), 3);
    lp.removeRows({2, 0});  // any order; left: y ≥ 1 − x → y = −4 at x = 5
    QCOMPARE(lp.rows(), 1);
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() + 4.0) <= 1e-9);
    lp.removeRows({0});
    QCOMPARE(lp.rows(), 0);
    QCOMPARE(lp.solve(), LpStatus::Unbounded);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lp.removeRows({0}));
}

void TestLpMaster::setColumnBounds() {
    LpMaster lp(vec({0.0, 1.0}), vec({-2.0, -kInf}), vec({2.0, kInf}));
    lp.addRow(vec({1.0, 1.0}), 0.0, kInf);   // y ≥ −x
    lp.addRow(vec({-1.0, 1.0}), 0.0, kInf);  // y ≥ x
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective()) <= 1e-9);
    lp.setColumnBounds(0, 0.5, 2.0);  // the box excludes 0: optimum y = 0.5 at x = 0.5
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() - 0.5) <= 1e-9);
    QVERIFY(std::abs(lp.solution()(0) - 0.5) <= 1e-9);
    lp.setColumnBounds(0, 3.0, 2.0);  // empty box
    QCOMPARE(lp.solve(), LpStatus::Infeasible);
    lp.setColumnBounds(0, -1.0, -0.25);
    QCOMPARE(lp.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(lp.objective() - 0.25) <= 1e-9);
}

void TestLpMaster::clpIsSilent() {
    OutputCapture capture;
    {
        LpMaster lp(vec({0.0, 1.0}), vec({-2.0, -kInf}), vec({2.0, kInf}));
        lp.solve();  // unbounded
        for (int k = 0; k < 20; ++k) {
            const double x = -2.0 + 0.2 * k;
            lp.addRow(vec({-subgradient(x), 1.0}), f(x) - subgradient(x) * x, kInf);
            lp.solve();
        }
        lp.removeRows({0, 5, 7});
        lp.solve();
        lp.addRow(vec({0.0, 1.0}), 10.0, 9.0);  // infeasible
        lp.solve();
        LpMaster infeasible(vec({1.0}), vec({1.0}), vec({0.0}));
        infeasible.solve();
    }
    const QByteArray output = capture.restore();
    QVERIFY2(output.isEmpty(), output.constData());
}

void TestLpMaster::moveOnly() {
    static_assert(!std::is_copy_constructible_v<LpMaster>);
    static_assert(std::is_nothrow_move_constructible_v<LpMaster>);
    LpMaster a(vec({1.0}), vec({0.0}), vec({1.0}));
    a.addRow(vec({1.0}), 0.5, kInf);
    LpMaster b(std::move(a));
    QCOMPARE(b.solve(), LpStatus::Optimal);
    QVERIFY(std::abs(b.objective() - 0.5) <= 1e-9);
    LpMaster c(vec({-1.0}), vec({0.0}), vec({2.0}));
    c = std::move(b);
    QCOMPARE(c.rows(), 1);
    QVERIFY(std::abs(c.objective() - 0.5) <= 1e-9);
}

void TestLpMaster::invalidInputThrows() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             LpMaster(vec({1.0, 2.0}), vec({0.0}), vec({1.0, 1.0})));
    LpMaster lp(vec({1.0, 2.0}), vec({0.0, 0.0}), vec({1.0, 1.0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lp.addRow(vec({1.0}), 0.0, 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lp.addRow(vec({1.0, NAN}), 0.0, 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lp.setColumnBounds(2, 0.0, 1.0));
    lp.addRow(vec({1.0, 1.0}), 0.0, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lp.removeRows({0, 0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lp.removeRows({1}));
    QCOMPARE(lp.rows(), 1);
    QCOMPARE(QString::fromStdString(lp.lastMessage()), QString("not solved yet"));
}

QTEST_APPLESS_MAIN(TestLpMaster)
#include "test_lp_master.moc"
