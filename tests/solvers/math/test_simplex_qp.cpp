// SPDX-License-Identifier: GPL-3.0-or-later
// SimplexQp against independent answers: exhaustive enumeration of supports (t ≤ 8), the KKT
// conditions recomputed from H and b (not from the solver's cached gradient), closed forms
// (one variable, H = 0), and cold one-shot solves for warm-started growth and removal.
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>

#include "math/simplex_qp.h"

using cplab::SimplexQp;
using cplab::SimplexQpOptions;
using cplab::SimplexQpResult;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// Portable normal variates (the std distributions are implementation-defined).
class Normal {
  public:
    explicit Normal(std::uint64_t seed) : engine_(seed) {}
    double operator()() {
        const double u1 = (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53;
        const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
    int index(int n) { return static_cast<int>(engine_() % static_cast<std::uint64_t>(n)); }

  private:
    std::mt19937_64 engine_;
};

enum class Kind { FullRank, RankDeficient, Duplicated, ZeroH, EqualB, Tiny, Huge };

const char* kindName(Kind kind) {
    switch (kind) {
        case Kind::FullRank:
            return "full-rank";
        case Kind::RankDeficient:
            return "rank-deficient";
        case Kind::Duplicated:
            return "duplicated";
        case Kind::ZeroH:
            return "zero-H";
        case Kind::EqualB:
            return "equal-b";
        case Kind::Tiny:
            return "scale-1e-6";
        case Kind::Huge:
            return "scale-1e6";
    }
    return "?";
}

struct Instance {
    MatrixXd H;
    VectorXd b;
    double scale = 1.0;  // magnitude of H and b (tolerances are relative to it)
};

// H = AᵀA with A (m × t) Gaussian / √m so that Hᵢᵢ ≈ 1; b Gaussian.
Instance makeInstance(Kind kind, int t, std::uint64_t seed) {
    Normal normal(seed);
    const int m = kind == Kind::RankDeficient ? std::max(1, t / 3) : t + 3;
    MatrixXd A(m, t);
    for (int j = 0; j < t; ++j) {
        for (int i = 0; i < m; ++i)
            A(i, j) = normal() / std::sqrt(static_cast<double>(m));
    }
    VectorXd b(t);
    for (int i = 0; i < t; ++i)
        b(i) = normal();
    if (kind == Kind::Duplicated) {
        // About a third of the columns (with their b) repeat earlier ones exactly.
        for (int j = 1; j < t; ++j) {
            if (normal.index(3) == 0) {
                const int k = normal.index(j);
                A.col(j) = A.col(k);
                b(j) = b(k);
            }
        }
    }
    if (kind == Kind::EqualB) b.setConstant(0.7);
    Instance instance;
    // AᵀA as a symmetric rank-m update (half the flops of a product, exactly symmetric).
    instance.H = MatrixXd::Zero(t, t);
    instance.H.selfadjointView<Eigen::Lower>().rankUpdate(A.transpose());
    instance.H.triangularView<Eigen::StrictlyUpper>() = instance.H.transpose();
    instance.b = b;
    if (kind == Kind::ZeroH) instance.H.setZero();
    if (kind == Kind::Tiny || kind == Kind::Huge) {
        instance.scale = kind == Kind::Tiny ? 1e-6 : 1e6;
        instance.H *= instance.scale;
        instance.b *= instance.scale;
    }
    return instance;
}

double objectiveOf(const Instance& p, const VectorXd& alpha) {
    return 0.5 * alpha.dot(p.H * alpha) - p.b.dot(alpha);
}

// Independent KKT measures from H and b.
struct Kkt {
    double fwGap, violation, objective;
};
Kkt kktOf(const Instance& p, const VectorXd& alpha) {
    const VectorXd g = p.H * alpha - p.b;
    double maxSupport = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < alpha.size(); ++i) {
        if (alpha(i) > 0.0) maxSupport = std::max(maxSupport, g(i));
    }
    return {alpha.dot(g) - g.minCoeff(), maxSupport - g.minCoeff(), objectiveOf(p, alpha)};
}

// Exhaustive search: for each nonempty support S solve H_SS α_S − μ1 = b_S, 1ᵀα_S = 1
// (minimum-norm solution if singular), keep feasible points, return the best objective. Along
// the null space of a singular system q and g are constant, so the optimum also appears on a
// support where the solution is feasible.
double enumerateOptimum(const Instance& p, VectorXd* bestAlpha = nullptr) {
    const int t = static_cast<int>(p.b.size());
    double best = std::numeric_limits<double>::infinity();
    for (unsigned mask = 1; mask < (1u << t); ++mask) {
        std::vector<int> S;
        for (int i = 0; i < t; ++i) {
            if (mask & (1u << i)) S.push_back(i);
        }
        const int s = static_cast<int>(S.size());
        MatrixXd K = MatrixXd::Zero(s + 1, s + 1);
        VectorXd rhs(s + 1);
        for (int k = 0; k < s; ++k) {
            for (int l = 0; l < s; ++l)
                K(k, l) = p.H(S[k], S[l]);
            K(k, s) = -1.0;
            K(s, k) = 1.0;
            rhs(k) = p.b(S[k]);
        }
        rhs(s) = 1.0;
        const VectorXd x = K.completeOrthogonalDecomposition().solve(rhs);
        if ((K * x - rhs).norm() > 1e-9 * std::max(1.0, p.scale)) continue;  // inconsistent
        VectorXd alpha = VectorXd::Zero(t);
        bool feasible = true;
        for (int k = 0; k < s; ++k) {
            if (x(k) < -1e-12) feasible = false;
            alpha(S[k]) = std::max(0.0, x(k));
        }
        if (!feasible) continue;
        alpha /= alpha.sum();
        const double q = objectiveOf(p, alpha);
        if (q < best) {
            best = q;
            if (bestAlpha) *bestAlpha = alpha;
        }
    }
    return best;
}

SimplexQpResult solveCold(const Instance& p, VectorXd& alpha, SimplexQpOptions options = {}) {
    alpha.resize(0);  // start from the best vertex
    return cplab::solveSimplexQp(p.H, p.b, alpha, options);
}

void verifyFeasible(const VectorXd& alpha) {
    QVERIFY(alpha.allFinite());
    QVERIFY(alpha.minCoeff() >= 0.0);
    QVERIFY2(std::abs(alpha.sum() - 1.0) <= 1e-12, qPrintable(QString::number(alpha.sum() - 1.0)));
}

// Instances that are "well scaled" get absolute KKT tolerances; scaled ones relative ones.
double kktTolerance(const Instance& p) {
    return 1e-8 * p.scale;
}

}  // namespace

class TestSimplexQp : public QObject {
    Q_OBJECT

  private slots:
    void enumerationAgrees_data();
    void enumerationAgrees();
    void kktAllSizes_data();
    void kktAllSizes();
    void oneVariableClosedForm();
    void zeroHessianPicksBestVertex();
    void warmGrowthMatchesCold_data();
    void warmGrowthMatchesCold();
    void removingZeroAlphaKeepsOptimum();
    void removingPositiveAlphaRescales();
    void setLinearTermWarmStart();
    void setAlphaRecomputesGradient();
    void hessianSurvivesGrowth();
    void iterationLimitReportsNotConverged();
    void invalidInputThrows();
    void largeWarmGrowthMatchesCold_data();
    void largeWarmGrowthMatchesCold();
};

void TestSimplexQp::enumerationAgrees_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("t");
    QTest::addColumn<int>("seed");
    for (Kind kind : {Kind::FullRank, Kind::RankDeficient, Kind::Duplicated, Kind::ZeroH,
                      Kind::EqualB, Kind::Tiny, Kind::Huge}) {
        for (int t : {1, 2, 3, 5, 8}) {
            for (int seed = 1; seed <= 4; ++seed) {
                QTest::addRow("%s t=%d seed=%d", kindName(kind), t, seed)
                    << static_cast<int>(kind) << t << seed;
            }
        }
    }
}

void TestSimplexQp::enumerationAgrees() {
    QFETCH(int, kind);
    QFETCH(int, t);
    QFETCH(int, seed);
    const Instance p = makeInstance(static_cast<Kind>(kind), t, 1000u * t + seed);
    const double reference = enumerateOptimum(p);
    QVERIFY(std::isfinite(reference));

    VectorXd alpha;
    const SimplexQpResult result = solveCold(p, alpha);
    verifyFeasible(alpha);
    QVERIFY(result.converged);
    const double q = objectiveOf(p, alpha);
    const double tolerance = 1e-9 * std::max(std::abs(reference), p.scale);
    QVERIFY2(
        std::abs(q - reference) <= tolerance,
        qPrintable(
            QString("q = %1, enumeration = %2").arg(q, 0, 'g', 17).arg(reference, 0, 'g', 17)));
    QVERIFY(std::abs(result.objective - q) <= tolerance);
}

void TestSimplexQp::kktAllSizes_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("t");
    for (Kind kind : {Kind::FullRank, Kind::RankDeficient, Kind::Duplicated, Kind::ZeroH,
                      Kind::EqualB, Kind::Tiny, Kind::Huge}) {
        for (int t : {1, 2, 3, 5, 10, 50, 200, 1000}) {
            QTest::addRow("%s t=%d", kindName(kind), t) << static_cast<int>(kind) << t;
        }
    }
}

void TestSimplexQp::kktAllSizes() {
    QFETCH(int, kind);
    QFETCH(int, t);
    const Instance p = makeInstance(static_cast<Kind>(kind), t, 77u + t);
    VectorXd alpha;
    const SimplexQpResult result = solveCold(p, alpha);
    verifyFeasible(alpha);
    QVERIFY(result.converged);
    const Kkt kkt = kktOf(p, alpha);
    const QString detail = QString("violation %1, fwGap %2, iterations %3")
                               .arg(kkt.violation)
                               .arg(kkt.fwGap)
                               .arg(result.iterations);
    QVERIFY2(kkt.violation <= kktTolerance(p), qPrintable(detail));
    QVERIFY2(kkt.fwGap <= 1e-8 * std::max(1.0, std::abs(kkt.objective)), qPrintable(detail));
    // The solver's own report agrees with the recomputation.
    QVERIFY(std::abs(result.kktViolation - kkt.violation) <= kktTolerance(p));
    QVERIFY(std::abs(result.objective - kkt.objective) <= 1e-10 * std::max(1.0, p.scale));
}

void TestSimplexQp::oneVariableClosedForm() {
    SimplexQp qp;
    Eigen::VectorXd column(1);
    column << 3.0;
    qp.addVariable(column, 2.0);
    const SimplexQpResult result = qp.solve();
    QVERIFY(result.converged);
    QCOMPARE(qp.alpha()(0), 1.0);
    QCOMPARE(result.objective, 0.5 * 3.0 - 2.0);
    QCOMPARE(result.fwGap, 0.0);
}

void TestSimplexQp::zeroHessianPicksBestVertex() {
    // H = 0: a linear programme over the simplex, optimum −max b at the vertex of max b,
    // reached from a uniform (interior) start.
    const int t = 40;
    Normal normal(5);
    VectorXd b(t);
    for (int i = 0; i < t; ++i)
        b(i) = normal();
    Eigen::Index best = 0;
    b.maxCoeff(&best);
    VectorXd alpha = VectorXd::Constant(t, 1.0 / t);
    const SimplexQpResult result =
        cplab::solveSimplexQp(MatrixXd::Zero(t, t), b, alpha, SimplexQpOptions{});
    QVERIFY(result.converged);
    QCOMPARE(alpha(best), 1.0);
    QCOMPARE(result.objective, -b(best));
}

void TestSimplexQp::warmGrowthMatchesCold_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("t");
    QTest::addRow("bundle-like rank 10, t=150") << static_cast<int>(Kind::RankDeficient) << 150;
    QTest::addRow("full rank, t=120") << static_cast<int>(Kind::FullRank) << 120;
    QTest::addRow("duplicated, t=120") << static_cast<int>(Kind::Duplicated) << 120;
    QTest::addRow("scale 1e6, t=80") << static_cast<int>(Kind::Huge) << 80;
}

void TestSimplexQp::warmGrowthMatchesCold() {
    QFETCH(int, kind);
    QFETCH(int, t);
    const Instance p = makeInstance(static_cast<Kind>(kind), t, 4242u + t);
    SimplexQp qp;
    for (int k = 0; k < t; ++k) {
        qp.addVariable(p.H.col(k).head(k + 1), p.b(k));
        const SimplexQpResult warm = qp.solve();
        QVERIFY(warm.converged);
        if (k % 20 == 19 || k == t - 1) {
            Instance prefix{p.H.topLeftCorner(k + 1, k + 1), p.b.head(k + 1), p.scale};
            VectorXd cold;
            solveCold(prefix, cold);
            const double qCold = objectiveOf(prefix, cold);
            const double qWarm = objectiveOf(prefix, qp.alpha());
            QVERIFY2(std::abs(qWarm - qCold) <= 1e-9 * std::max(std::abs(qCold), p.scale),
                     qPrintable(QString("k = %1: warm %2, cold %3")
                                    .arg(k)
                                    .arg(qWarm, 0, 'g', 17)
                                    .arg(qCold, 0, 'g', 17)));
            QVERIFY(kktOf(prefix, qp.alpha()).violation <= kktTolerance(p));
        }
    }
}

void TestSimplexQp::removingZeroAlphaKeepsOptimum() {
    const Instance p = makeInstance(Kind::RankDeficient, 60, 99);
    SimplexQp qp;
    for (int k = 0; k < 60; ++k)
        qp.addVariable(p.H.col(k).head(k + 1), p.b(k));
    const double before = qp.solve().objective;
    std::vector<int> zero, kept;
    for (int i = 0; i < 60; ++i)
        (qp.alpha()(i) == 0.0 ? zero : kept).push_back(i);
    QVERIFY(zero.size() > 10);
    std::reverse(zero.begin(), zero.end());  // any order is allowed
    qp.removeVariables(zero);
    QCOMPARE(qp.size(), static_cast<int>(kept.size()));
    Instance reduced{MatrixXd(kept.size(), kept.size()), VectorXd(kept.size()), 1.0};
    for (std::size_t r = 0; r < kept.size(); ++r) {
        reduced.b(r) = p.b(kept[r]);
        for (std::size_t c = 0; c < kept.size(); ++c)
            reduced.H(r, c) = p.H(kept[r], kept[c]);
    }
    QCOMPARE(qp.hessian(), reduced.H);
    QCOMPARE(qp.linearTerm(), reduced.b);
    QVERIFY(std::abs(qp.objective() - before) <= 1e-12);  // α unchanged on the kept ones
    const SimplexQpResult after = qp.solve();
    QVERIFY(std::abs(after.objective - before) <= 1e-12 * std::max(1.0, std::abs(before)));
    QVERIFY(kktOf(reduced, qp.alpha()).violation <= 1e-8);
}

void TestSimplexQp::removingPositiveAlphaRescales() {
    const Instance p = makeInstance(Kind::FullRank, 12, 7);
    SimplexQp qp;
    for (int k = 0; k < 12; ++k)
        qp.addVariable(p.H.col(k).head(k + 1), p.b(k));
    VectorXd alpha = VectorXd::Constant(12, 1.0 / 12);
    alpha(3) = 0.0;
    alpha /= alpha.sum();
    qp.setAlpha(alpha);
    qp.removeVariables({5, 0});
    VectorXd expected(10);
    int r = 0;
    for (int i = 0; i < 12; ++i) {
        if (i != 0 && i != 5) expected(r++) = alpha(i);
    }
    expected /= expected.sum();
    QVERIFY((qp.alpha() - expected).norm() <= 1e-15);
    // The gradient was recomputed: objective() matches a direct evaluation.
    Instance reduced{MatrixXd(10, 10), VectorXd(10), 1.0};
    std::vector<int> kept = {1, 2, 3, 4, 6, 7, 8, 9, 10, 11};
    for (int a = 0; a < 10; ++a) {
        reduced.b(a) = p.b(kept[a]);
        for (int c = 0; c < 10; ++c)
            reduced.H(a, c) = p.H(kept[a], kept[c]);
    }
    QVERIFY(std::abs(qp.objective() - objectiveOf(reduced, expected)) <= 1e-13);
    const SimplexQpResult result = qp.solve();
    QVERIFY(std::abs(result.objective - enumerateOptimum(reduced)) <= 1e-10);

    // All remaining α zero → uniform.
    SimplexQp small;
    small.addVariable(VectorXd::Constant(1, 1.0), 0.0);
    small.addVariable(VectorXd::Constant(2, 1.0), 0.0);
    small.addVariable(VectorXd::Constant(3, 1.0), 0.0);
    small.removeVariables({0});
    QCOMPARE(small.alpha(), VectorXd::Constant(2, 0.5));
}

void TestSimplexQp::setLinearTermWarmStart() {
    Instance p = makeInstance(Kind::RankDeficient, 100, 11);
    SimplexQp qp;
    for (int k = 0; k < 100; ++k)
        qp.addVariable(p.H.col(k).head(k + 1), p.b(k));
    qp.solve();
    Normal normal(12);
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < 100; ++i)
            p.b(i) += 0.3 * normal();
        qp.setLinearTerm(p.b);
        const SimplexQpResult warm = qp.solve();
        QVERIFY(warm.converged);
        VectorXd cold;
        solveCold(p, cold);
        QVERIFY(std::abs(warm.objective - objectiveOf(p, cold)) <=
                1e-9 * std::max(1.0, std::abs(warm.objective)));
        QVERIFY(kktOf(p, qp.alpha()).violation <= 1e-8);
    }
}

void TestSimplexQp::setAlphaRecomputesGradient() {
    const Instance p = makeInstance(Kind::FullRank, 20, 3);
    SimplexQp qp;
    for (int k = 0; k < 20; ++k)
        qp.addVariable(p.H.col(k).head(k + 1), p.b(k));
    VectorXd alpha(20);
    for (int i = 0; i < 20; ++i)
        alpha(i) = (i % 3 == 0) ? 0.0 : 1.0 + i;
    alpha(4) = -1e-17;  // rounding noise is clipped
    qp.setAlpha(alpha);
    VectorXd expected = alpha.cwiseMax(0.0);
    expected /= expected.sum();
    QVERIFY((qp.alpha() - expected).norm() <= 1e-15);
    QVERIFY(std::abs(qp.objective() - objectiveOf(p, expected)) <= 1e-13);
    const SimplexQpResult result = qp.solve();
    VectorXd cold;
    solveCold(p, cold);
    QVERIFY(std::abs(result.objective - objectiveOf(p, cold)) <= 1e-10);
}

void TestSimplexQp::hessianSurvivesGrowth() {
    const Instance p = makeInstance(Kind::FullRank, 70, 8);  // capacity 16 → 32 → 64 → 128
    SimplexQp qp;
    for (int k = 0; k < 70; ++k) {
        qp.addVariable(p.H.col(k).head(k + 1), p.b(k));
        if (k % 9 == 0) qp.solve();
    }
    QCOMPARE(qp.size(), 70);
    QCOMPARE(qp.hessian(), p.H);
    QCOMPARE(qp.linearTerm(), p.b);
}

void TestSimplexQp::iterationLimitReportsNotConverged() {
    const Instance p = makeInstance(Kind::FullRank, 200, 21);
    VectorXd alpha;
    SimplexQpOptions options;
    options.max_iterations = 2;
    const SimplexQpResult result = solveCold(p, alpha, options);
    QVERIFY(!result.converged);
    QVERIFY(result.iterations <= 2);
    verifyFeasible(alpha);
    QVERIFY(result.fwGap > 1e-6);
}

void TestSimplexQp::invalidInputThrows() {
    SimplexQpOptions bad;
    bad.tolerance = -1.0;
    try {
        SimplexQp qp(bad);
        QFAIL("negative tolerance accepted");
    } catch (const std::invalid_argument& error) {
        QVERIFY(QString(error.what()).contains("SimplexQpOptions::tolerance"));
    }
    bad = SimplexQpOptions{};
    bad.max_iterations = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SimplexQp{bad});

    SimplexQp qp;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, qp.solve());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, qp.addVariable(VectorXd::Ones(2), 0.0));
    qp.addVariable(VectorXd::Ones(1), 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, qp.setLinearTerm(VectorXd::Ones(3)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, qp.setAlpha(VectorXd::Zero(1)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, qp.removeVariables({1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             qp.addVariable(VectorXd::Constant(2, std::nan("")), 0.0));
    QCOMPARE(qp.size(), 1);
}

void TestSimplexQp::largeWarmGrowthMatchesCold_data() {
    QTest::addColumn<int>("t");
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("bScale");
    // Planes in dimension n with random offsets (small support, as in BMRM on most data) and
    // with equal offsets (the minimum-norm point of the planes: support ≈ n + 1).
    QTest::addRow("t=1000 n=50 random b") << 1000 << 50 << 0.3;
    QTest::addRow("t=2000 n=50 random b") << 2000 << 50 << 0.3;
    QTest::addRow("t=1000 n=250 equal b") << 1000 << 250 << 0.0;
    QTest::addRow("t=2000 n=250 equal b") << 2000 << 250 << 0.0;
}

void TestSimplexQp::largeWarmGrowthMatchesCold() {
    // One warm solve per added plane, as BMRM and the proximal bundle method use it, at the
    // sizes of long runs; the final α matches a cold solve. The time these solves take is
    // measured by tests/bench/bench_simplex_qp (timings are not asserted in unit tests).
    QFETCH(int, t);
    QFETCH(int, n);
    QFETCH(double, bScale);
    Normal normal(2024u + t + n);
    MatrixXd A(n, t);
    VectorXd b(t);
    for (int j = 0; j < t; ++j) {
        for (int i = 0; i < n; ++i)
            A(i, j) = normal() / std::sqrt(static_cast<double>(n));
        b(j) = bScale * normal();
    }
    SimplexQp qp;
    VectorXd column;
    for (int k = 0; k < t; ++k) {
        column = A.leftCols(k + 1).transpose() * A.col(k);
        qp.addVariable(column, b(k));
        const SimplexQpResult result = qp.solve();
        QVERIFY(result.converged);
    }
    Instance p{A.transpose() * A, b, 1.0};
    VectorXd alpha;
    const SimplexQpResult cold = solveCold(p, alpha);
    QVERIFY(std::abs(cold.objective - qp.objective()) <=
            1e-9 * std::max(1.0, std::abs(cold.objective)));
    QVERIFY(kktOf(p, qp.alpha()).violation <= 1e-8);
}

QTEST_APPLESS_MAIN(TestSimplexQp)
#include "test_simplex_qp.moc"
