// SPDX-License-Identifier: GPL-3.0-or-later
// Exact line search: on random instances of every loss — with tied breakpoints, examples with
// d = 0, scores exactly at kinks, a zero direction, directions along which f increases
// (k* = 0), and an a9a-sized problem — the minimiser agrees with a dense grid search refined by
// golden section (written here, on f evaluated by a loop of its own). Hand-made instances
// check exact answers, the cap, breakpoint counts, the Risk overloads and the input checks.
#include <QtTest>
#include <cmath>
#include <functional>
#include <random>

#include "core/worker_team.h"
#include "risk/line_search.h"
#include "risk/risk.h"

using namespace cplab;

namespace {

// --- the reference ----------------------------------------------------------------------------

struct Instance {
    LossKind loss = LossKind::Hinge;
    double epsilon = 0.0;
    Eigen::VectorXd labels;
    LineRegulariser line;
    Eigen::MatrixXd S, D;
};

// f(k), example by example.
double naiveObjective(const Instance& p, double k) {
    const Eigen::Index m = p.labels.size();
    double sum = 0.0;
    for (Eigen::Index i = 0; i < m; ++i) {
        const double y = p.labels[i];
        const double s = p.S(i, 0) + k * p.D(i, 0);
        switch (p.loss) {
            case LossKind::Hinge:
                sum += std::max(0.0, 1.0 - y * s);
                break;
            case LossKind::SquaredHinge:
                sum += std::pow(std::max(0.0, 1.0 - y * s), 2);
                break;
            case LossKind::Logistic: {
                const double t = -y * s;
                sum += t > 0.0 ? t + std::log(1.0 + std::exp(-t)) : std::log(1.0 + std::exp(t));
                break;
            }
            case LossKind::EpsilonInsensitive:
                sum += std::max(0.0, std::abs(s - y) - p.epsilon);
                break;
            case LossKind::Multiclass: {
                const int c = static_cast<int>(y);
                const double sy = p.S(i, c) + k * p.D(i, c);
                double best = 0.0;
                for (Eigen::Index j = 0; j < p.S.cols(); ++j) {
                    if (j != c) best = std::max(best, 1.0 + p.S(i, j) + k * p.D(i, j) - sy);
                }
                sum += best;
                break;
            }
        }
    }
    const LineRegulariser& l = p.line;
    return 0.5 * l.lambda * (l.ww + 2.0 * k * l.wd + k * k * l.dd) + sum / static_cast<double>(m);
}

// f'(k) of the differentiable losses (logistic, squared hinge), and the scale of its terms.
std::pair<double, double> naiveDerivative(const Instance& p, double k) {
    const Eigen::Index m = p.labels.size();
    const LineRegulariser& l = p.line;
    double sum = 0.0;
    double scale = 0.0;
    for (Eigen::Index i = 0; i < m; ++i) {
        const double y = p.labels[i], d = p.D(i, 0);
        const double margin = y * (p.S(i, 0) + k * d);
        const double term = p.loss == LossKind::Logistic
                                ? -y * d / (1.0 + std::exp(margin))
                                : -2.0 * y * d * std::max(0.0, 1.0 - margin);
        sum += term;
        scale += std::abs(term);
    }
    return {l.lambda * (l.wd + k * l.dd) + sum / static_cast<double>(m),
            l.lambda * (std::abs(l.wd) + k * l.dd) + scale / static_cast<double>(m)};
}

// One-sided derivatives f'(k⁻), f'(k⁺) of the piecewise linear losses, and the scale of their
// terms: each example's loss is max_j (a_j + k b_j); the lines within rounding of the maximum
// at k are active, and the left (right) slope is the smallest (largest) active b_j.
struct OneSided {
    double left = 0.0, right = 0.0, scale = 0.0;
};
OneSided naiveOneSided(const Instance& p, double k) {
    const Eigen::Index m = p.labels.size();
    OneSided out;
    std::vector<std::pair<double, double>> lines;
    for (Eigen::Index i = 0; i < m; ++i) {
        lines.assign(1, {0.0, 0.0});
        const double y = p.labels[i];
        if (p.loss == LossKind::Hinge) {
            lines.push_back({1.0 - y * p.S(i, 0), -y * p.D(i, 0)});
        } else if (p.loss == LossKind::EpsilonInsensitive) {
            const double r = p.S(i, 0) - y;
            lines.push_back({r - p.epsilon, p.D(i, 0)});
            lines.push_back({-r - p.epsilon, -p.D(i, 0)});
        } else {  // multi-class: j = y is the line (0, 0) already
            const int c = static_cast<int>(y);
            for (Eigen::Index j = 0; j < p.S.cols(); ++j) {
                if (j != c) lines.push_back({1.0 + p.S(i, j) - p.S(i, c), p.D(i, j) - p.D(i, c)});
            }
        }
        double top = -INFINITY, size = 0.0;
        for (const auto& [a, b] : lines) {
            top = std::max(top, a + k * b);
            size = std::max(size, std::abs(a) + std::abs(k * b));
        }
        double lo = INFINITY, hi = -INFINITY;
        for (const auto& [a, b] : lines) {
            if (a + k * b >= top - 1e-13 * (1.0 + size)) {
                lo = std::min(lo, b);
                hi = std::max(hi, b);
            }
        }
        out.left += lo;
        out.right += hi;
        out.scale += std::max(std::abs(lo), std::abs(hi));
    }
    const LineRegulariser& l = p.line;
    const double reg = l.lambda * (l.wd + k * l.dd);
    out.left = reg + out.left / static_cast<double>(m);
    out.right = reg + out.right / static_cast<double>(m);
    out.scale = l.lambda * (std::abs(l.wd) + k * l.dd) + out.scale / static_cast<double>(m);
    return out;
}

// argmin over k ≥ 0 of a convex f: bracket by doubling, best of a uniform grid, then golden
// section between the best point's neighbours.
double referenceMinimiser(const std::function<double(double)>& f, int grid) {
    double hi = 1.0;
    while (hi < 1e9 && f(2.0 * hi) <= f(hi))
        hi *= 2.0;
    hi *= 2.0;
    int best = 0;
    double bestValue = f(0.0);
    for (int j = 1; j <= grid; ++j) {
        const double v = f(hi * j / grid);
        if (v < bestValue) {
            bestValue = v;
            best = j;
        }
    }
    double a = hi * std::max(0, best - 1) / grid;
    double b = hi * std::min(grid, best + 1) / grid;
    const double r = (std::sqrt(5.0) - 1.0) / 2.0;
    double x1 = b - r * (b - a), x2 = a + r * (b - a);
    double f1 = f(x1), f2 = f(x2);
    for (int it = 0; it < 200 && b - a > 1e-15 * std::max(1.0, b); ++it) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - r * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + r * (b - a);
            f2 = f(x2);
        }
    }
    double k = f1 <= f2 ? x1 : x2;
    if (bestValue < std::min(f1, f2)) k = hi * best / grid;
    if (f(0.0) <= f(k)) k = 0.0;
    return k;
}

// --- instances --------------------------------------------------------------------------------

double quantize(double v, double step) {
    return std::round(v / step) * step;
}

// kind: "random"; "ties" (scores on a grid of 1/4 and directions on a grid of 1/2, so that
// breakpoints coincide, scores sit exactly at kinks and many d are 0; the second half of the
// examples repeats the first); "zero" (Δ = 0); "increasing" (⟨w, Δ⟩ so large that k* = 0).
Instance makeInstance(LossKind loss, const std::string& kind, int m, std::mt19937_64& rng) {
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Instance p;
    p.loss = loss;
    p.epsilon = loss == LossKind::EpsilonInsensitive ? 0.25 : 0.0;
    const int K = loss == LossKind::Multiclass ? 4 : 1;
    p.labels.resize(m);
    p.S.resize(m, K);
    p.D.resize(m, K);
    for (int i = 0; i < m; ++i) {
        if (loss == LossKind::Multiclass) {
            p.labels[i] = static_cast<double>(rng() % K);
        } else if (loss == LossKind::EpsilonInsensitive) {
            p.labels[i] = normal(rng);
        } else {
            p.labels[i] = rng() % 2 ? 1.0 : -1.0;
        }
        for (int j = 0; j < K; ++j) {
            p.S(i, j) = 1.5 * normal(rng);
            p.D(i, j) = normal(rng);
        }
    }
    if (kind == "ties") {
        for (int i = 0; i < m; ++i) {
            if (loss == LossKind::EpsilonInsensitive) p.labels[i] = quantize(p.labels[i], 0.25);
            for (int j = 0; j < K; ++j) {
                p.S(i, j) = quantize(p.S(i, j), 0.25);
                p.D(i, j) = quantize(p.D(i, j), 0.5);
            }
        }
        for (int i = m / 2; i < m; ++i) {
            p.labels[i] = p.labels[i - m / 2];
            p.S.row(i) = p.S.row(i - m / 2);
            p.D.row(i) = p.D.row(i - m / 2);
        }
    }
    LineRegulariser& l = p.line;
    l.lambda = std::pow(10.0, -3.0 + 3.0 * uniform(rng));
    l.ww = 4.0 * uniform(rng);
    l.dd = 0.1 + 4.0 * uniform(rng);
    l.wd = (2.0 * uniform(rng) - 1.0) * std::sqrt(l.ww * l.dd);
    if (kind == "zero") {
        p.D.setZero();
        l.dd = 0.0;
        l.wd = 0.0;
    } else if (kind == "increasing") {
        // λ·wd exceeds every loss slope: |∂ℓ/∂k| ≤ 2·max|d|·(1 + max|s|) (squared hinge's
        // largest; the others are smaller).
        l.wd = 10.0 * p.D.cwiseAbs().maxCoeff() * (1.0 + p.S.cwiseAbs().maxCoeff()) / l.lambda;
    }
    return p;
}

LineSearchResult search(const Instance& p, const LineSearchOptions& options = {}) {
    return exactLineSearch(p.loss, p.epsilon, p.labels, p.line, p.S, p.D, options);
}

// The exact k against the reference: within 1e-8·(1 + k) — or, where f is so flat that such a
// move changes f by less than 1e-12 relative, equal values; in both cases never worse.
void compareWithReference(const Instance& p, int grid, const QString& what,
                          const LineSearchOptions& options = {}) {
    const LineSearchResult r = search(p, options);
    const auto f = [&p](double k) { return naiveObjective(p, k); };
    const double kref = referenceMinimiser(f, grid);
    const double fk = f(r.k);
    const double fref = f(kref);
    const double valueTol = 1e-12 * (1.0 + std::abs(fref));
    QVERIFY2(std::isfinite(r.k) && r.k >= 0.0, qPrintable(what));
    QVERIFY2(!r.capped, qPrintable(what));
    QVERIFY2(
        std::abs(r.value - fk) <= valueTol,
        qPrintable(what +
                   QString(": value %1 vs f(k) %2").arg(r.value, 0, 'g', 17).arg(fk, 0, 'g', 17)));
    QVERIFY2(std::abs(r.valueAtZero - f(0.0)) <= valueTol, qPrintable(what));
    QVERIFY2(fk <= fref + valueTol,
             qPrintable(what + QString(": f(k) = %1 at k = %2, reference f = %3 at %4")
                                   .arg(fk, 0, 'g', 17)
                                   .arg(r.k, 0, 'g', 17)
                                   .arg(fref, 0, 'g', 17)
                                   .arg(kref, 0, 'g', 17)));
    if (p.loss == LossKind::Logistic || p.loss == LossKind::SquaredHinge) {
        // Smooth: f'(k) = 0 to rounding (or f'(0) ≥ 0 at k = 0).
        const auto [derivative, scale] = naiveDerivative(p, r.k);
        QVERIFY2(r.k == 0.0 ? derivative >= -1e-13 * scale : std::abs(derivative) <= 1e-12 * scale,
                 qPrintable(what + QString(": f'(%1) = %2, scale %3")
                                       .arg(r.k, 0, 'g', 17)
                                       .arg(derivative)
                                       .arg(scale)));
    }
    if (p.loss == LossKind::Hinge || p.loss == LossKind::EpsilonInsensitive ||
        p.loss == LossKind::Multiclass) {
        // Piecewise linear: 0 ∈ [f'(k⁻), f'(k⁺)] (only f'(0⁺) ≥ 0 at k = 0).
        const OneSided o = naiveOneSided(p, r.k);
        QVERIFY2(o.right >= -1e-12 * o.scale && (r.k == 0.0 || o.left <= 1e-12 * o.scale),
                 qPrintable(what + QString(": f'(%1-) = %2, f'(k+) = %3, scale %4")
                                       .arg(r.k, 0, 'g', 17)
                                       .arg(o.left)
                                       .arg(o.right)
                                       .arg(o.scale)));
    }
    const double dk = 1e-8 * (1.0 + kref);
    const double rise = std::min(f(kref + dk), kref > dk ? f(kref - dk) : INFINITY) - fref;
    if (rise > valueTol) {
        QVERIFY2(std::abs(r.k - kref) <= dk,
                 qPrintable(
                     what +
                     QString(": k = %1, reference %2").arg(r.k, 0, 'g', 17).arg(kref, 0, 'g', 17)));
    } else {
        QVERIFY2(std::abs(fk - fref) <= valueTol, qPrintable(what));
    }
}

const LossKind kLosses[] = {LossKind::Hinge, LossKind::Logistic, LossKind::SquaredHinge,
                            LossKind::Multiclass, LossKind::EpsilonInsensitive};

}  // namespace

class TestLineSearch : public QObject {
    Q_OBJECT

  private slots:
    void agreesWithGridAndGolden_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<QString>("kind");
        for (LossKind loss : kLosses) {
            for (const char* kind : {"random", "ties", "zero", "increasing"}) {
                QTest::newRow((std::string(toString(loss)) + "/" + kind).c_str())
                    << static_cast<int>(loss) << QString(kind);
            }
        }
    }
    void agreesWithGridAndGolden() {
        QFETCH(int, loss);
        QFETCH(QString, kind);
        const auto lossKind = static_cast<LossKind>(loss);
        std::mt19937_64 rng(2024 + static_cast<unsigned>(loss));
        int positive = 0;
        const int sizes[] = {1, 2, 3, 7, 20, 100, 400};
        for (int trial = 0; trial < 28; ++trial) {
            const int m = sizes[trial % 7];
            const Instance p = makeInstance(lossKind, kind.toStdString(), m, rng);
            const QString what = QString("trial %1, m = %2").arg(trial).arg(m);
            compareWithReference(p, 2000, what);
            if (QTest::currentTestFailed()) return;
            const LineSearchResult r = search(p);
            if (kind == "zero" || kind == "increasing") {
                QCOMPARE(r.k, 0.0);
                QCOMPARE(r.value, r.valueAtZero);
            }
            positive += r.k > 0.0;
            QVERIFY(r.value <= r.valueAtZero);
            QVERIFY(std::is_sorted(r.breakpointSample.begin(), r.breakpointSample.end()));
            QVERIFY(static_cast<long long>(r.breakpointSample.size()) <= r.breakpoints);
        }
        if (kind == "random" || kind == "ties") QVERIFY(positive >= 7);  // not all trivial
    }

    // a9a's size (m = 32561), one instance per loss.
    void a9aSized_data() {
        QTest::addColumn<int>("loss");
        for (LossKind loss : kLosses)
            QTest::newRow(toString(loss)) << static_cast<int>(loss);
    }
    void a9aSized() {
        QFETCH(int, loss);
        std::mt19937_64 rng(77);
        Instance p = makeInstance(static_cast<LossKind>(loss), "random", 32561, rng);
        // A descent direction (w and Δ opposed), as OCAS's are, so that k* > 0.
        p.line.ww = std::max(p.line.ww, 1.0);
        p.line.wd = -std::sqrt(p.line.ww * p.line.dd);
        compareWithReference(p, 400, "a9a-sized");
        const LineSearchResult r = search(p);
        QVERIFY(r.k > 0.0);
        if (p.loss != LossKind::Logistic) QVERIFY(r.breakpoints > 1000);
        QCOMPARE(static_cast<int>(r.breakpointSample.size()),
                 p.loss == LossKind::Logistic ? 0 : 1000);
    }

    // On a worker team (3 threads, a part per unit of work, so that the selection's parallel
    // rounds run down to the last breakpoint): the same breakpoints in the same order, and k,
    // f(0), f(k) equal to the one-thread search's up to the order of the sums.
    void threadsAgree_data() {
        QTest::addColumn<int>("loss");
        for (LossKind loss : kLosses)
            QTest::newRow(toString(loss)) << static_cast<int>(loss);
    }
    void threadsAgree() {
        QFETCH(int, loss);
        WorkerTeam team(3);
        LineSearchOptions parallel;
        parallel.team = &team;
        parallel.minWorkPerThread = 1;
        std::mt19937_64 rng(5150 + static_cast<unsigned>(loss));
        int positive = 0;
        for (int m : {1, 2, 5, 64, 400, 5000, 32561}) {
            for (const char* kind : {"random", "ties"}) {
                Instance p = makeInstance(static_cast<LossKind>(loss), kind, m, rng);
                p.line.ww = std::max(p.line.ww, 1.0);
                p.line.wd = -std::sqrt(p.line.ww * p.line.dd);
                const QString what = QString("%1, m = %2 (3 threads)").arg(kind).arg(m);
                const LineSearchResult one = search(p);
                const LineSearchResult three = search(p, parallel);
                QCOMPARE(three.breakpoints, one.breakpoints);
                QVERIFY2(three.breakpointSample == one.breakpointSample, qPrintable(what));
                QCOMPARE(three.capped, one.capped);
                const auto close = [](double a, double b) {
                    return std::abs(a - b) <= 1e-12 * (1.0 + std::abs(a));
                };
                QVERIFY2(close(one.k, three.k),
                         qPrintable(what + QString(": k %1 vs %2").arg(one.k).arg(three.k)));
                QVERIFY2(close(one.valueAtZero, three.valueAtZero), qPrintable(what));
                QVERIFY2(close(one.value, three.value), qPrintable(what));
                positive += three.k > 0.0;
                if (m <= 400) {
                    compareWithReference(p, 2000, what, parallel);
                    if (QTest::currentTestFailed()) return;
                }
            }
        }
        QVERIFY(positive >= 8);
        Eigen::VectorXd ks(3);
        ks << -0.5, 0.0, 1.5;
        std::mt19937_64 again(9);
        const Instance p = makeInstance(static_cast<LossKind>(loss), "random", 3000, again);
        const Eigen::VectorXd serial =
            lineObjective(p.loss, p.epsilon, p.labels, p.line, p.S, p.D, ks);
        const Eigen::VectorXd threaded =
            lineObjective(p.loss, p.epsilon, p.labels, p.line, p.S, p.D, ks, parallel);
        QVERIFY((serial - threaded).cwiseAbs().maxCoeff() <=
                1e-12 * (1 + serial.cwiseAbs().maxCoeff()));
    }

    // Breakpoint counts against a direct count (one per example whose term switches at k > 0;
    // two for an ε-insensitive example starting below the tube).
    void countsBreakpoints() {
        std::mt19937_64 rng(8);
        for (LossKind loss :
             {LossKind::Hinge, LossKind::SquaredHinge, LossKind::EpsilonInsensitive}) {
            for (const char* kind : {"random", "ties"}) {
                const Instance p = makeInstance(loss, kind, 200, rng);
                long long expected = 0;
                for (int i = 0; i < 200; ++i) {
                    const double y = p.labels[i], s = p.S(i, 0), d = p.D(i, 0);
                    if (loss == LossKind::EpsilonInsensitive) {
                        const double r = d > 0 ? s - y : y - s;  // residual moving up with k
                        if (d == 0.0) continue;
                        expected += r < -p.epsilon ? 2 : r < p.epsilon ? 1 : 0;
                    } else {
                        const double c = 1.0 - y * s, e = -y * d;
                        expected += (c > 0 && e < 0) || (c < 0 && e > 0);
                    }
                }
                QCOMPARE(search(p).breakpoints, expected);
            }
        }
    }

    // Hand-made: f(k) = ½ dd·k² + max(0, 1 − k) (hinge, y = 1, s = 0, d = 1, λ = 1).
    void exactOnHandMadeInstances() {
        Instance p;
        p.loss = LossKind::Hinge;
        p.labels = Eigen::VectorXd::Ones(1);
        p.S = Eigen::MatrixXd::Zero(1, 1);
        p.D = Eigen::MatrixXd::Ones(1, 1);
        p.line = {1.0, 0.0, 0.0, 4.0};
        LineSearchResult r = search(p);
        QCOMPARE(r.k, 0.25);  // f' = 4k − 1
        QCOMPARE(r.value, 0.5 * 4 * 0.0625 + 0.75);
        QCOMPARE(r.valueAtZero, 1.0);
        QCOMPARE(r.breakpoints, 1LL);
        QCOMPARE(r.breakpointSample, std::vector<double>{1.0});
        p.line.dd = 1.0;  // f' = k − 1 on (0, 1): the root is the breakpoint itself
        QCOMPARE(search(p).k, 1.0);
        p.line.dd = 0.25;  // f' = k/4 − 1 < 0 before 1, ≥ 0 after: the kink
        QCOMPARE(search(p).k, 1.0);
        // λ = 0: f = max(0, 1 − k) is flat from 1 on; the smallest minimiser is 1.
        p.line = {0.0, 0.0, 0.0, 0.0};
        QCOMPARE(search(p).k, 1.0);
        // Squared hinge: f = ½k² + (1 − k)² on [0, 1]: f' = 3k − 2.
        p.loss = LossKind::SquaredHinge;
        p.line = {1.0, 0.0, 0.0, 1.0};
        QVERIFY(std::abs(search(p).k - 2.0 / 3.0) <= 1e-15);
        // ε-insensitive, target 0, s = −1, d = 1, ε = 0.25: f = ½·0.01k² + max(0, |k − 1| − ¼)
        // is smallest at the tube's entry k = 0.75.
        p.loss = LossKind::EpsilonInsensitive;
        p.epsilon = 0.25;
        p.labels << 0.0;
        p.S << -1.0;
        p.line = {0.01, 0.0, 0.0, 1.0};
        r = search(p);
        QCOMPARE(r.k, 0.75);
        QCOMPARE(r.breakpoints, 2LL);
        // Multi-class, K = 3, class 0, s = (0, 0.5, −1), d = (0, −1, 2): the loss is the max of
        // 0, 1.5 − k, 0 + 2k: 1.5 − k down to k = 0.5, then 2k up. λ = 0 → k* = 0.5.
        p.loss = LossKind::Multiclass;
        p.labels << 0.0;
        p.S = Eigen::RowVector3d(0.0, 0.5, -1.0);
        p.D = Eigen::RowVector3d(0.0, -1.0, 2.0);
        p.line = {0.0, 0.0, 0.0, 0.0};
        r = search(p);
        QCOMPARE(r.k, 0.5);
        QCOMPARE(r.value, 1.0);
        QCOMPARE(r.breakpoints, 1LL);  // 1.5 − k → 2k (the class-0 line 0 never leads)
    }

    // f decreasing without bound (an inconsistent input: ‖Δ‖² = 0 but λ⟨w, Δ⟩ < 0, with a
    // separating direction): k = maxStep, capped, finite values.
    void capsUnboundedDecrease() {
        Instance p;
        p.labels = Eigen::Vector3d(1, -1, 1);
        p.S = Eigen::MatrixXd::Zero(3, 1);
        p.D = p.labels;
        p.line = {1.0, 1.0, -1.0, 0.0};
        LineSearchOptions options;
        options.maxStep = 1e6;
        for (LossKind loss : kLosses) {
            Instance q = p;
            q.loss = loss;
            if (loss == LossKind::Multiclass) {  // class 1 gains on class 0 along Δ
                q.labels = Eigen::Vector3d(1, 1, 0);
                q.S = Eigen::MatrixXd::Zero(3, 2);
                q.D = Eigen::MatrixXd::Zero(3, 2);
                q.D.col(1) << 1, 1, -1;
            }
            const LineSearchResult r = search(q, options);
            QVERIFY2(r.capped, toString(loss));
            QCOMPARE(r.k, 1e6);
            QVERIFY(std::isfinite(r.value) && r.value < r.valueAtZero);
        }
        // λ = 0, logistic, separating direction: f decreases towards 0 forever, but f' underflows
        // to 0 near k ≈ 745; any k from there on is a minimiser in floating point.
        p.loss = LossKind::Logistic;
        p.labels = Eigen::Vector3d(1, -1, 1);
        p.S = Eigen::MatrixXd::Zero(3, 1);
        p.D = p.labels;
        p.line = {0.0, 0.0, 0.0, 0.0};
        const LineSearchResult r = search(p);
        QVERIFY(std::isfinite(r.k) && r.k > 100.0);
        QCOMPARE(r.value, 0.0);
    }

    // The Risk overloads: S and D from Risk::scores; f(k) equals λ/2‖w + kΔ‖² + R(w + kΔ).
    void worksWithRisk_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<bool>("plusMinus");
        for (LossKind loss : kLosses)
            QTest::newRow(toString(loss)) << static_cast<int>(loss) << false;
        QTest::newRow("multiclass on -1/+1") << static_cast<int>(LossKind::Multiclass) << true;
    }
    void worksWithRisk() {
        QFETCH(int, loss);
        QFETCH(bool, plusMinus);
        const auto kind = static_cast<LossKind>(loss);
        std::mt19937_64 rng(31);
        std::normal_distribution<double> normal;
        Dataset data;
        data.dense.resize(150, 6);
        data.labels.resize(150);
        for (int i = 0; i < 150; ++i) {
            for (int j = 0; j < 6; ++j)
                data.dense(i, j) = rng() % 3 ? normal(rng) : 0.0;
            data.labels[i] = kind == LossKind::Multiclass && !plusMinus ? double(rng() % 3)
                             : kind == LossKind::EpsilonInsensitive     ? normal(rng)
                                                                        : (rng() % 2 ? 1.0 : -1.0);
        }
        data.setSparseStorage(true);
        QVERIFY(data.contractViolation().empty());
        const Risk risk(std::make_shared<const Dataset>(data), RiskOptions{kind, true, 0.3, 2, 1});
        Eigen::VectorXd w(risk.dimension()), delta(risk.dimension());
        for (Eigen::Index j = 0; j < w.size(); ++j) {
            w[j] = 0.3 * normal(rng);
            delta[j] = 0.5 * normal(rng);
        }
        const double lambda = 0.05;
        const LineRegulariser line{lambda, w.squaredNorm(), w.dot(delta), delta.squaredNorm()};
        Eigen::MatrixXd S, D;
        risk.scores(w, S);
        risk.scores(delta, D);
        // With a bias, scores(Δ) includes Δ's bias: it is X Δ (+ Δ_bias), as the search wants.
        const LineSearchResult r = exactLineSearch(risk, line, S, D);
        const auto F = [&](double k) {
            const Eigen::VectorXd v = w + k * delta;
            return 0.5 * lambda * v.squaredNorm() + risk.evaluate(v, nullptr);
        };
        QVERIFY(std::abs(r.value - F(r.k)) <= 1e-12 * (1 + std::abs(r.value)));
        QVERIFY(std::abs(r.valueAtZero - F(0.0)) <= 1e-12 * (1 + std::abs(r.valueAtZero)));
        for (double dk : {-1e-3, 1e-3, 0.1})
            QVERIFY(r.k + dk < 0.0 || F(r.k + dk) >= r.value - 1e-12);
        Eigen::VectorXd ks(4);
        ks << -1.0, 0.0, r.k, 2.5;
        const Eigen::VectorXd values = lineObjective(risk, line, S, D, ks);
        for (Eigen::Index j = 0; j < ks.size(); ++j)
            QVERIFY(std::abs(values[j] - F(ks[j])) <= 1e-12 * (1 + std::abs(values[j])));
    }

    void rejectsBadInputs() {
        const auto expectMessage = [](auto&& call, const QString& message) {
            try {
                call();
                QFAIL("no exception");
            } catch (const std::invalid_argument& e) {
                QCOMPARE(QString(e.what()), message);
            }
        };
        std::mt19937_64 rng(3);
        Instance p = makeInstance(LossKind::Hinge, "random", 5, rng);
        const auto run = [&](const Instance& q, const LineSearchOptions& o = {}) {
            return [q, o] { search(q, o); };
        };
        Instance q = p;
        q.labels[2] = 0.0;
        expectMessage(run(q),
                      "exactLineSearch: the hinge loss cannot take label 0 of example 2 "
                      "(needs -1/+1)");
        q = p;
        q.D.resize(4, 1);
        expectMessage(run(q), "exactLineSearch: D is 4 x 1, S is 5 x 1");
        q = p;
        q.S.resize(4, 1);
        expectMessage(run(q), "exactLineSearch: S is 4 x 1 for 5 labels");
        q = p;
        q.S(1, 0) = NAN;
        expectMessage(run(q), "exactLineSearch: S has a non-finite entry");
        q = p;
        q.line.lambda = -1.0;
        expectMessage(run(q),
                      "exactLineSearch: LineRegulariser::lambda = -1: must be >= 0 and "
                      "finite");
        q = p;
        q.line.dd = -0.5;
        expectMessage(run(q),
                      "exactLineSearch: LineRegulariser::dd = -0.5: must be >= 0 and "
                      "finite");
        q = p;
        q.labels.resize(0);
        q.S.resize(0, 1);
        q.D.resize(0, 1);
        expectMessage(run(q), "exactLineSearch: no examples");
        q = makeInstance(LossKind::Multiclass, "random", 5, rng);
        q.labels[0] = 4.0;
        expectMessage(run(q),
                      "exactLineSearch: the multiclass loss cannot take label 4 of "
                      "example 0 (needs a class index 0..3)");
        q.S.resize(5, 1);
        q.D.resize(5, 1);
        expectMessage(run(q),
                      "exactLineSearch: the multi-class loss needs K >= 2 score columns, "
                      "S is 5 x 1");
        q = p;
        q.S.resize(5, 2);
        q.D.resize(5, 2);
        expectMessage(run(q), "exactLineSearch: the hinge loss needs 1 score column, S is 5 x 2");
        LineSearchOptions bad;
        bad.maxStep = 0.0;
        expectMessage(run(p, bad), "LineSearchOptions::maxStep = 0: must be > 0");
        bad = {};
        bad.breakpointSample = -1;
        expectMessage(run(p, bad), "LineSearchOptions::breakpointSample = -1: must be >= 0");
        expectMessage(
            [&] {
                lineObjective(LossKind::EpsilonInsensitive, -0.1, p.labels, p.line, p.S, p.D,
                              Eigen::VectorXd::Zero(1));
            },
            "lineObjective: epsilon = -0.1: must be >= 0 and finite");
    }
};

QTEST_APPLESS_MAIN(TestLineSearch)
#include "test_line_search.moc"
