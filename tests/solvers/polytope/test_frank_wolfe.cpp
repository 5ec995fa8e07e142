// SPDX-License-Identifier: GPL-3.0-or-later
// Frank–Wolfe (plain and away-step variants, standard and line-search steps) on every
// built-in polygon problem and on hand-built ones. The optimum is computed here from scratch
// (closed-form minima along the edges, or the unconstrained minimiser when it is inside),
// certified by the first-order optimality condition ⟨∇f(x*), v − x*⟩ ≥ 0 for every vertex v,
// and cross-checked against a fine barycentric grid over the polygon.
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <limits>

#include "polytope/frank_wolfe.h"
#include "polytope/polytope_problem.h"
#include "record_columns.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;
using Eigen::Vector2d;

namespace {

double cross(const Vector2d& a, const Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
}

// Scale of the problem's numbers, for relative tolerances.
double scaleOf(const PolytopeProblem& p) {
    double s = 1.0;
    for (const auto& v : p.vertices)
        s = std::max(s, p.value(v));
    return s;
}

// Largest violation of the half-planes of the counter-clockwise polygon (≤ 0 inside).
double outsideBy(const std::vector<Vector2d>& polygon, const Vector2d& x) {
    double worst = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < polygon.size(); ++k) {
        const Vector2d& a = polygon[k];
        const Vector2d& b = polygon[(k + 1) % polygon.size()];
        worst = std::max(worst, -cross(b - a, x - a) / (b - a).norm());
    }
    return worst;
}

struct Optimum {
    Vector2d x;
    double value = 0.0;
};

// The minimum of the quadratic over the polygon, computed independently of
// PolytopeProblem::minimizer(): the unconstrained minimiser c if it is inside, else the best
// of the exact minima of the 1-D quadratics s ↦ f(a + s(b − a)) over s ∈ [0, 1] per edge.
Optimum exactOptimum(const PolytopeProblem& p) {
    if (outsideBy(p.vertices, p.c) <= 0.0) return {p.c, p.value(p.c)};
    Optimum best{p.vertices.front(), std::numeric_limits<double>::infinity()};
    const std::size_t n = p.vertices.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Vector2d a = p.vertices[k];
        const Vector2d d = p.vertices[(k + 1) % n] - a;
        // f(a + s d) = f(a) + s ⟨d, Q(a − c)⟩ + s²/2 ⟨d, Q d⟩.
        const double s = std::clamp(-d.dot(p.Q * (a - p.c)) / d.dot(p.Q * d), 0.0, 1.0);
        const Vector2d x = a + s * d;
        if (p.value(x) < best.value) best = {x, p.value(x)};
    }
    return best;
}

// min_v ⟨∇f(x), v − x⟩ over the vertices: ≥ 0 exactly when x minimises f over the polygon.
double firstOrderCondition(const PolytopeProblem& p, const Vector2d& x) {
    const Vector2d g = p.gradient(x);
    double worst = std::numeric_limits<double>::infinity();
    for (const auto& v : p.vertices)
        worst = std::min(worst, g.dot(v - x));
    return worst;
}

// min f over a fine grid of the polygon (fan triangulation, barycentric lattice).
double gridMinimum(const PolytopeProblem& p, int n) {
    double best = std::numeric_limits<double>::infinity();
    const Vector2d& a = p.vertices[0];
    for (std::size_t k = 1; k + 1 < p.vertices.size(); ++k) {
        const Vector2d& b = p.vertices[k];
        const Vector2d& c = p.vertices[k + 1];
        for (int i = 0; i <= n; ++i) {
            for (int j = 0; i + j <= n; ++j) {
                const Vector2d x = a + (b - a) * (static_cast<double>(i) / n) +
                                   (c - a) * (static_cast<double>(j) / n);
                best = std::min(best, p.value(x));
            }
        }
    }
    return best;
}

// The curvature constant of Jaggi (2013) for a quadratic: C_f = max over x, s ∈ M of
// (s − x)ᵀQ(s − x), attained at a pair of vertices; it is ≤ diam(M)²·λ_max(Q).
double curvatureConstant(const PolytopeProblem& p) {
    double cf = 0.0;
    for (const auto& v : p.vertices) {
        for (const auto& w : p.vertices)
            cf = std::max(cf, (v - w).dot(p.Q * (v - w)));
    }
    return cf;
}

FrankWolfeOptions options(const QString& variant, const QString& step, double epsilon,
                          int maxIterations) {
    FrankWolfeOptions o;
    o.variant = variant.toStdString();
    o.step = step.toStdString();
    o.stop.epsilon = epsilon;
    o.stop.max_iterations = maxIterations;
    return o;
}

// Primal errors f(x_t) − f*, t = 0, 1, …, of a run to the end.
struct RunTrace {
    std::vector<double> error;
    Status status;
};

RunTrace runToEnd(const PolytopeProblem& p, FrankWolfeOptions o, double fStar) {
    FrankWolfeSolver s(std::make_shared<PolytopeProblem>(p), o);
    RunTrace out;
    out.error.push_back(p.value(s.point()) - fStar);
    out.status = solve(s, [&](const Solver&, const IterationRecord&) {
        out.error.push_back(p.value(s.point()) - fStar);
    });
    return out;
}

PolytopeProblem pentagon() {
    // A hand-built irregular pentagon with an anisotropic Q whose unconstrained minimiser lies
    // outside, beyond the edge from (3, 1) to (2, 3).
    PolytopeProblem p;
    p.name = "pentagon";
    p.vertices = {{0, 0}, {2, -1}, {3, 1}, {2, 3}, {-1, 2}};
    p.Q << 3.0, -1.0, -1.0, 2.0;
    p.c = {3.5, 3.0};
    p.startVertex = 4;
    return p;
}

}  // namespace

class TestFrankWolfe : public QObject {
    Q_OBJECT
  private slots:
    // The reference optimum itself: optimal by the first-order condition, not beaten by a
    // fine grid, and equal to what the problem reports.
    void referenceOptimumIsCertified_data() {
        QTest::addColumn<QString>("problem");
        for (const auto& name : polytopeProblemNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        QTest::newRow("pentagon") << "pentagon";
    }
    void referenceOptimumIsCertified() {
        QFETCH(QString, problem);
        const PolytopeProblem p =
            problem == "pentagon" ? pentagon() : *makePolytopeProblem(problem.toStdString());
        std::string why;
        QVERIFY2(p.isValid(&why), why.c_str());
        const Optimum opt = exactOptimum(p);
        const double tol = 1e-12 * scaleOf(p);
        QVERIFY(outsideBy(p.vertices, opt.x) <= 1e-12);
        QVERIFY2(firstOrderCondition(p, opt.x) >= -tol,
                 qPrintable(QString::number(firstOrderCondition(p, opt.x))));
        const double grid = gridMinimum(p, 400);
        QVERIFY(grid >= opt.value - tol);
        QVERIFY(grid - opt.value <= 1e-3 * scaleOf(p));
        QVERIFY(std::abs(p.minimumValue() - opt.value) <= tol);
        QVERIFY((p.minimizer() - opt.x).norm() <= 1e-9);
    }

    // Every iteration of every allowed (problem, variant, step): the FW gap bounds the primal
    // error, the bounds bracket f*, the iterate stays in the polygon (and, with away steps, is
    // the convex combination its weights say), and the run ends as it should.
    void certifiesEveryIteration_data() {
        QTest::addColumn<QString>("problem");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("step");
        std::vector<std::string> names = polytopeProblemNames();
        names.push_back("pentagon");
        for (const auto& name : names) {
            for (const char* combo : {"plain/standard", "plain/line_search", "away/line_search"}) {
                const QStringList parts = QString(combo).split('/');
                QTest::newRow((name + "/" + combo).c_str())
                    << QString::fromStdString(name) << parts[0] << parts[1];
            }
        }
    }
    void certifiesEveryIteration() {
        QFETCH(QString, problem);
        QFETCH(QString, variant);
        QFETCH(QString, step);
        const auto p = problem == "pentagon" ? std::make_shared<const PolytopeProblem>(pentagon())
                                             : makePolytopeProblem(problem.toStdString());
        QVERIFY(p);
        const Optimum opt = exactOptimum(*p);
        const double fStar = opt.value;
        const double tol = 1e-12 * scaleOf(*p);
        const double cf = curvatureConstant(*p);
        const double epsilon = 1e-6;
        const int maxIterations = 20000;
        double minGapSinceFirstStep = std::numeric_limits<double>::infinity();

        FrankWolfeSolver s(p, options(variant, step, epsilon, maxIterations));
        QCOMPARE(s.status().code, StatusCode::Running);
        QVERIFY(s.lastRecord().lower <= fStar + tol);
        QVERIFY(s.lastRecord().upper >= fStar - tol);
        QCOMPARE(s.point(), p->vertices[static_cast<std::size_t>(p->startVertex)]);

        double previousUpper = std::numeric_limits<double>::infinity();
        double previousLower = -std::numeric_limits<double>::infinity();
        while (!s.status().finished()) {
            const Vector2d x = s.point();
            const double fx = p->value(x);
            s.step();
            const IterationRecord& r = s.lastRecord();
            const int t = r.iteration;
            QCOMPARE(static_cast<int>(s.trace().size()), t);
            QCOMPARE(r.oracleCalls, static_cast<long long>(t + 1));
            // The gap reported for this step is the FW gap at the point the step started
            // from: max_v ⟨x − v, ∇f(x)⟩, recomputed here, and ≥ f(x) − f*.
            const double fwGap = column(s, r, "fw_gap");
            QCOMPARE(fwGap, s.lastFwGap());
            QVERIFY(std::abs(fwGap + firstOrderCondition(*p, x)) <= tol);
            QVERIFY2(fwGap >= fx - fStar - tol,
                     qPrintable(QString("t=%1: FW gap %2 < f(x) - f* = %3")
                                    .arg(t)
                                    .arg(fwGap, 0, 'g', 17)
                                    .arg(fx - fStar, 0, 'g', 17)));
            QVERIFY2(r.lower <= fStar + tol && fStar <= r.upper + tol,
                     qPrintable(QString("t=%1: f* = %2 outside [%3, %4]")
                                    .arg(t)
                                    .arg(fStar, 0, 'g', 17)
                                    .arg(r.lower, 0, 'g', 17)
                                    .arg(r.upper, 0, 'g', 17)));
            QVERIFY(r.upper <= previousUpper);
            QVERIFY(r.lower >= previousLower);
            QCOMPARE(r.gap, r.upper - r.lower);
            previousUpper = r.upper;
            previousLower = r.lower;

            const Vector2d& xt = s.point();
            QVERIFY2(outsideBy(p->vertices, xt) <= 1e-12,
                     qPrintable(QString("t=%1: iterate (%2, %3) outside the polygon")
                                    .arg(t)
                                    .arg(xt.x(), 0, 'g', 17)
                                    .arg(xt.y(), 0, 'g', 17)));
            QVERIFY(r.upper <= p->value(xt) + tol);
            const double stepSize = column(s, r, "step_size");
            if (step == "standard") QCOMPARE(stepSize, 2.0 / (t + 1));
            if (variant == "plain") {
                QVERIFY(stepSize >= 0.0 && stepSize <= 1.0);
                QCOMPARE(column(s, r, "away_step"), 0.0);
                // Jaggi (2013), Theorem 1: h(x_t) ≤ 2 C_f / (t + 2) for both step rules.
                const double bound = 2.0 * cf / (t + 2);
                QVERIFY2(p->value(xt) - fStar <= bound + tol,
                         qPrintable(QString("t=%1: f(x_t) - f* = %2 > 2 C_f/(t+2) = %3")
                                        .arg(t)
                                        .arg(p->value(xt) - fStar)
                                        .arg(bound)));
                // Jaggi (2013), Theorem 2: after K ≥ 2 steps some x_k, 1 ≤ k ≤ K, has FW gap
                // ≤ 2β C_f/(K + 2) with β = 27/4. This record holds the gap of x_{t−1}.
                if (t >= 2) minGapSinceFirstStep = std::min(minGapSinceFirstStep, fwGap);
                if (t >= 3) {
                    const double gapBound = 2.0 * 6.75 * cf / (t - 1 + 2);
                    QVERIFY2(minGapSinceFirstStep <= gapBound + tol,
                             qPrintable(QString("t=%1: min FW gap %2 > %3")
                                            .arg(t)
                                            .arg(minGapSinceFirstStep)
                                            .arg(gapBound)));
                }
            } else {
                // Barycentric check: the active-set weights are a convex combination that
                // reproduces the iterate.
                const auto snap = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(s.snapshot());
                QVERIFY(snap);
                QCOMPARE(snap->weights.size(), p->vertices.size());
                double sum = 0.0;
                int active = 0;
                Vector2d combination = Vector2d::Zero();
                for (std::size_t v = 0; v < snap->weights.size(); ++v) {
                    QVERIFY(snap->weights[v] >= -1e-12);
                    sum += snap->weights[v];
                    combination += snap->weights[v] * p->vertices[v];
                    active += snap->weights[v] > 1e-15 ? 1 : 0;
                }
                QVERIFY(std::abs(sum - 1.0) <= 1e-12);
                QVERIFY((combination - xt).norm() <= 1e-12 * std::max(1.0, xt.norm()));
                QCOMPARE(column(s, r, "active_vertices"), static_cast<double>(active));
                QCOMPARE(snap->iterates.size(), static_cast<std::size_t>(t + 1));
                QCOMPARE(snap->iterates.back(), xt);
            }
        }
        const IterationRecord& last = s.lastRecord();
        qInfo("%s %s/%s: %s after %d iterations, gap %.3g", qPrintable(problem),
              qPrintable(variant), qPrintable(step), statusName(s.status().code), last.iteration,
              last.gap);
        if (s.status().code == StatusCode::Converged) {
            QVERIFY(last.gap <= epsilon);
            QVERIFY(last.upper - fStar <= epsilon + tol);
            QVERIFY(fStar - last.lower <= epsilon + tol);
        } else {
            // Only plain Frank-Wolfe may run out of iterations: its rate is sublinear with
            // 2/(t+2) steps, and with the line search when the minimiser lies on the boundary
            // but not at a vertex.
            QVERIFY2(variant == "plain", s.status().message.c_str());
            QCOMPARE(s.status().code, StatusCode::IterationLimit);
            QCOMPARE(last.iteration, maxIterations);
        }
        // The upper bound is attained by an iterate (with 2/(t+2) steps not necessarily the
        // last one), and by strong convexity, μ/2 ‖x − x*‖² ≤ f(x) − f*, that iterate is close
        // to the minimiser.
        const auto snap = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(s.snapshot());
        QVERIFY(snap);
        QCOMPARE(snap->iterates.size(), static_cast<std::size_t>(last.iteration + 1));
        Vector2d best = snap->iterates.front();
        for (const auto& x : snap->iterates) {
            if (p->value(x) < p->value(best)) best = x;
        }
        QCOMPARE(p->value(best), last.upper);
        const double mu = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(p->Q).eigenvalues()(0);
        QVERIFY((best - opt.x).norm() <= std::sqrt(2.0 * (last.upper - fStar + tol) / mu) + 1e-12);
    }

    // Where the minimiser lies inside an edge, plain Frank–Wolfe with line search zig-zags
    // between the edge's vertices at rate O(1/t) while away steps drop the third vertex; in
    // 2-D the line search along the optimal edge is then exact, so the run ends at once.
    void awayStepsBeatPlainOnTriangleEdge() {
        const auto p = makePolytopeProblem("triangle_edge");
        const Optimum opt = exactOptimum(*p);
        const double epsilon = 1e-10;
        const int cap = 20000;
        const RunTrace away = runToEnd(*p, options("away", "line_search", epsilon, cap), opt.value);
        QCOMPARE(away.status.code, StatusCode::Converged);
        const int awayIterations = static_cast<int>(away.error.size()) - 1;
        QVERIFY2(awayIterations <= 10, qPrintable(QString::number(awayIterations)));
        const RunTrace plain =
            runToEnd(*p, options("plain", "line_search", epsilon, cap), opt.value);
        const int plainIterations = static_cast<int>(plain.error.size()) - 1;
        qInfo("triangle_edge, eps %g: plain %d iterations (%s, error %.3g), away %d", epsilon,
              plainIterations, statusName(plain.status.code), plain.error.back(), awayIterations);
        QCOMPARE(plain.status.code, StatusCode::IterationLimit);
        // Sublinear: after 20000 zig-zag steps the error is still far above ε.
        QVERIFY(plain.error.back() > 1e3 * epsilon);
    }

    // Plain Frank-Wolfe with 2/(t+2) steps converges early on triangle_edge by luck of the
    // numbers: in exact arithmetic the iterates are x_1 = (4, 0), x_2 = (2, 2), x_3 = (3, 1),
    // x_4 = (11/5, 9/5), …, x_14 = (87/35, 53/35) and x_15 = (23/10, 17/10) = x*, where the FW
    // gap is zero, so U = L = f* = 0.81 after the 16th step (which evaluates that gap).
    void standardStepsMatchExactArithmeticOnTriangleEdge() {
        const auto p = makePolytopeProblem("triangle_edge");
        FrankWolfeSolver s(p, options("plain", "standard", 1e-6, 100));
        QCOMPARE(solve(s).code, StatusCode::Converged);
        QCOMPARE(s.iteration(), 16);
        const auto snap = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(s.snapshot());
        const std::vector<Vector2d> exact = {{0, 0}, {4, 0}, {2, 2}, {3, 1}, {11.0 / 5, 9.0 / 5}};
        for (std::size_t t = 0; t < exact.size(); ++t)
            QVERIFY((snap->iterates[t] - exact[t]).norm() <= 1e-14);
        QVERIFY((snap->iterates[14] - Vector2d(87.0 / 35, 53.0 / 35)).norm() <= 1e-13);
        QVERIFY((snap->iterates[15] - Vector2d(2.3, 1.7)).norm() <= 1e-13);
        QVERIFY(std::abs(s.lastRecord().lower - 0.81) <= 1e-12);
        QVERIFY(std::abs(s.lastRecord().upper - 0.81) <= 1e-12);
    }

    // Away steps converge linearly (Lacoste-Julien & Jaggi 2015, Theorem 1): over every window
    // of W iterations both the primal error f(x_t) − f* and the certified gap U − L shrink by
    // at least a fixed factor, until they reach rounding level.
    void awayStepsConvergeGeometrically_data() {
        QTest::addColumn<QString>("problem");
        QTest::addColumn<int>("window");
        QTest::addColumn<double>("errorFactor");
        QTest::addColumn<double>("gapFactor");
        // The certified gap shrinks more slowly than the error: near an interior minimiser
        // the FW gap behaves like the square root of the error.
        QTest::newRow("triangle_edge") << "triangle_edge" << 2 << 0.25 << 0.5;
        QTest::newRow("square_interior") << "square_interior" << 5 << 0.05 << 0.25;
        QTest::newRow("pentagon") << "pentagon" << 2 << 0.25 << 0.5;
    }
    void awayStepsConvergeGeometrically() {
        QFETCH(QString, problem);
        QFETCH(int, window);
        QFETCH(double, errorFactor);
        QFETCH(double, gapFactor);
        const auto p = problem == "pentagon" ? std::make_shared<const PolytopeProblem>(pentagon())
                                             : makePolytopeProblem(problem.toStdString());
        const double fStar = exactOptimum(*p).value;
        const double floor = 1e-13 * scaleOf(*p);
        FrankWolfeSolver s(p, options("away", "line_search", 1e-12, 200));
        std::vector<double> error{p->value(s.point()) - fStar};
        std::vector<double> gap{s.lastRecord().gap};
        solve(s, [&](const Solver&, const IterationRecord& r) {
            error.push_back(p->value(s.point()) - fStar);
            gap.push_back(r.gap);
        });
        QCOMPARE(s.status().code, StatusCode::Converged);
        QVERIFY(error.size() > static_cast<std::size_t>(window) + 1);
        int windows = 0;
        for (std::size_t t = 0; t + window < error.size(); ++t) {
            if (error[t] > floor) {
                ++windows;
                QVERIFY2(error[t + window] <= errorFactor * error[t],
                         qPrintable(QString("error %1 -> %2 over iterations %3..%4")
                                        .arg(error[t])
                                        .arg(error[t + window])
                                        .arg(t)
                                        .arg(t + window)));
            }
            if (gap[t] > floor) {
                QVERIFY2(gap[t + window] <= gapFactor * gap[t],
                         qPrintable(QString("gap %1 -> %2 over iterations %3..%4")
                                        .arg(gap[t])
                                        .arg(gap[t + window])
                                        .arg(t)
                                        .arg(t + window)));
            }
        }
        QVERIFY(windows >= 2);
    }

    // The away variant's events agree with its active set: an away step is reported exactly
    // when the snapshot says so, a drop step exactly when the away vertex's weight fell to 0,
    // and "vertex added" exactly when the FW vertex's weight rose from 0.
    void awayVariantEventsMatchTheActiveSet_data() {
        QTest::addColumn<QString>("problem");
        QTest::newRow("pentagon") << "pentagon";
        QTest::newRow("triangle_edge") << "triangle_edge";
    }
    void awayVariantEventsMatchTheActiveSet() {
        QFETCH(QString, problem);
        const auto p = problem == "pentagon" ? std::make_shared<const PolytopeProblem>(pentagon())
                                             : makePolytopeProblem(problem.toStdString());
        FrankWolfeSolver s(p, options("away", "line_search", 1e-12, 200));
        auto previous = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(s.snapshot());
        int away = 0, drops = 0, added = 0;
        while (!s.status().finished()) {
            s.step();
            const auto snap = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(s.snapshot());
            const std::uint32_t events = snap->record.events;
            QCOMPARE((events & AwayStep) != 0, snap->awayStep);
            QCOMPARE((events & DropStep) != 0, snap->dropStep);
            if (snap->dropStep) {
                const auto a = static_cast<std::size_t>(snap->awayVertex);
                QVERIFY(previous->weights[a] > 0);
                QCOMPARE(snap->weights[a], 0.0);
            }
            const auto v = static_cast<std::size_t>(snap->fwVertex);
            const bool joined =
                !snap->awayStep && previous->weights[v] <= 1e-15 && snap->weights[v] > 1e-15;
            QCOMPARE((events & VertexAdded) != 0, joined);
            QCOMPARE(snap->events.size(), eventNames(events).size());
            away += snap->awayStep;
            drops += snap->dropStep;
            added += joined;
            previous = snap;
        }
        qInfo("%s: %d away steps, %d drop steps, %d vertices added", qPrintable(problem), away,
              drops, added);
        QVERIFY(away > 0);
        QVERIFY(added > 0);
        if (problem == "triangle_edge") QVERIFY(drops > 0);
    }

    // (c) Options.
    void defaultOptionsAreValid() {
        FrankWolfeOptions o;
        std::string why;
        QVERIFY2(o.isValid(&why), why.c_str());
        for (const auto& name : polytopeProblemNames()) {
            FrankWolfeSolver s(makePolytopeProblem(name));
            QCOMPARE(s.status().code, StatusCode::Running);
        }
    }

    void invalidOptionsAreRejected_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("extraKey");
        QTest::addColumn<QString>("extraValue");
        QTest::addColumn<QString>("message");
        QTest::newRow("away with standard")
            << "variant"
            << "away"
            << "step"
            << "standard"
            << "FrankWolfeOptions::variant = 'away': away steps need step=line_search";
        QTest::newRow("epsilon nan")
            << "epsilon"
            << "nan"
            << ""
            << ""
            << "FrankWolfeOptions::epsilon = nan: must be a finite number >= 0";
        QTest::newRow("epsilon negative") << "epsilon"
                                          << "-1"
                                          << ""
                                          << ""
                                          << "FrankWolfeOptions::epsilon = -1";
        QTest::newRow("tol_rel negative") << "tol_rel"
                                          << "-0.5"
                                          << ""
                                          << ""
                                          << "FrankWolfeOptions::tol_rel = -0.5";
        QTest::newRow("max_iterations zero")
            << "max_iterations"
            << "0"
            << ""
            << ""
            << "FrankWolfeOptions::max_iterations = 0: must be > 0";
        QTest::newRow("max_seconds inf") << "max_seconds"
                                         << "inf"
                                         << ""
                                         << ""
                                         << "FrankWolfeOptions::max_seconds = inf";
    }
    void invalidOptionsAreRejected() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, extraKey);
        QFETCH(QString, extraValue);
        QFETCH(QString, message);
        OptionValues values{{key.toStdString(), value.toStdString()}};
        if (!extraKey.isEmpty()) values[extraKey.toStdString()] = extraValue.toStdString();
        FrankWolfeOptions o;
        std::string why;
        QVERIFY2(assignOptions(o, values, &why), why.c_str());  // parses, but out of range
        QVERIFY(!o.isValid(&why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        FrankWolfeSolver s(makePolytopeProblem("triangle_edge"), o);
        QCOMPARE(s.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(s.status().message).contains(message),
                 s.status().message.c_str());
        QCOMPARE(s.step().code, StatusCode::InvalidInput);
        QVERIFY(s.trace().empty());
        QVERIFY(s.summary().empty());
    }

    void unknownValuesAreRejectedByAssignOptions_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("variant") << "variant"
                                 << "fully_corrective"
                                 << "option 'variant' = 'fully_corrective': expected one of: "
                                    "plain, away";
        QTest::newRow("step") << "step"
                              << "armijo"
                              << "option 'step' = 'armijo': expected one of: standard, "
                                 "line_search";
        QTest::newRow("name") << "stepsize"
                              << "1"
                              << "unknown option 'stepsize'";
        QTest::newRow("epsilon text") << "epsilon"
                                      << "abc"
                                      << "option 'epsilon' = 'abc': expected a real number";
        QTest::newRow("max_iterations real") << "max_iterations"
                                             << "2.5"
                                             << "option 'max_iterations' = '2.5': expected an "
                                                "integer";
    }
    void unknownValuesAreRejectedByAssignOptions() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        FrankWolfeOptions o;
        o.step = "standard";
        std::string why;
        QVERIFY(!assignOptions(o, {{key.toStdString(), value.toStdString()}}, &why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        QCOMPARE(o.step, std::string("standard"));  // unchanged on failure
        QCOMPARE(o.variant, std::string("plain"));
    }

    void optionsAreDescribed() {
        const auto infos = describeOptions<FrankWolfeOptions>();
        std::map<std::string, OptionInfo> byName;
        for (const auto& info : infos)
            byName[info.name] = info;
        QVERIFY(byName.count("step") && byName.count("variant") && byName.count("epsilon"));
        QCOMPARE(byName["step"].defaultValue, std::string("line_search"));
        QCOMPARE(byName["variant"].defaultValue, std::string("plain"));
        QCOMPARE(byName["variant"].choices, (std::vector<std::string>{"plain", "away"}));
    }

    // (d) Hand-built problems: invalid data is rejected with a message naming the defect.
    void invalidProblemsAreRejected_data() {
        QTest::addColumn<int>("defect");
        QTest::addColumn<QString>("message");
        QTest::newRow("two vertices") << 0 << "needs at least 3 vertices";
        QTest::newRow("clockwise") << 1 << "strictly convex polygon in counter-clockwise order";
        QTest::newRow("non-convex") << 2 << "strictly convex polygon";
        QTest::newRow("Q indefinite") << 3 << "Q must be symmetric positive definite";
        QTest::newRow("Q asymmetric") << 4 << "Q must be symmetric positive definite";
        QTest::newRow("c nan") << 5 << "c must be finite";
        QTest::newRow("start vertex") << 6 << "startVertex out of range";
        QTest::newRow("vertex inf") << 7 << "vertices must be finite";
    }
    void invalidProblemsAreRejected() {
        QFETCH(int, defect);
        QFETCH(QString, message);
        PolytopeProblem p = pentagon();
        switch (defect) {
            case 0:
                p.vertices.resize(2);
                break;
            case 1:
                std::reverse(p.vertices.begin(), p.vertices.end());
                break;
            case 2:
                p.vertices[2] = {1.0, 1.0};  // dent between (2, −1) and (2, 3)
                break;
            case 3:
                p.Q << 1.0, 2.0, 2.0, 1.0;
                break;
            case 4:
                p.Q(0, 1) += 0.5;
                break;
            case 5:
                p.c.x() = std::numeric_limits<double>::quiet_NaN();
                break;
            case 6:
                p.startVertex = 5;
                break;
            case 7:
                p.vertices[1].y() = std::numeric_limits<double>::infinity();
                break;
        }
        std::string why;
        QVERIFY(!p.isValid(&why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        FrankWolfeSolver s(std::make_shared<PolytopeProblem>(p));
        QCOMPARE(s.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(s.status().message).contains(message),
                 s.status().message.c_str());
        QCOMPARE(s.step().code, StatusCode::InvalidInput);
    }

    void missingProblemIsRejected() {
        FrankWolfeSolver s(nullptr);
        QCOMPARE(s.status().code, StatusCode::InvalidInput);
        QCOMPARE(s.step().code, StatusCode::InvalidInput);
        QVERIFY(s.snapshot());
    }

    void unknownProblemNameGivesNull() { QVERIFY(!makePolytopeProblem("no_such_polygon")); }
};

QTEST_GUILESS_MAIN(TestFrankWolfe)
#include "test_frank_wolfe.moc"
