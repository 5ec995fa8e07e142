// SPDX-License-Identifier: GPL-3.0-or-later
// Frank–Wolfe on a typed function over a typed polygon (issue 49): minima against closed forms
// (an interior point, its projection onto an edge, a vertex of a linear f, exp(x) + y^2 on an
// edge), the typed quadratic against the built-in quadratic iterate by iterate, the computed
// reference minimiser, the polygon reader's refusals and orientations, and the stops of a
// function that is not convex or not differentiable where it is evaluated.
#include <QtTest>
#include <cmath>
#include <cstdio>

#include "nonsmooth/typed_function.h"
#include "polytope/frank_wolfe.h"
#include "polytope/polygon.h"
#include "polytope/polytope_problem.h"
#include "test_printers.h"

using namespace cplab;
using Eigen::Vector2d;

namespace {

std::string exact(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

std::shared_ptr<const PolytopeProblem> typedProblem(const QString& f, const QString& polygon) {
    std::string why;
    auto p = makeTypedPolytopeProblem(f.toStdString(), polygon.toStdString(), &why);
    if (!p) qWarning("%s", why.c_str());
    return p;
}

struct Finish {
    Status status;
    double upper = 0.0, lower = 0.0;
    Vector2d x = Vector2d::Zero();
};

Finish solveToEnd(std::shared_ptr<const PolytopeProblem> p, const std::string& variant,
                  double epsilon = 1e-9, int maxIterations = 20000) {
    FrankWolfeOptions o;
    o.variant = variant;
    o.stop.epsilon = epsilon;
    o.stop.tol_rel = 0;
    o.stop.max_iterations = maxIterations;
    FrankWolfeSolver s(std::move(p), o);
    Finish f;
    f.status = solve(s);
    f.upper = s.lastRecord().upper;
    f.lower = s.lastRecord().lower;
    f.x = s.point();
    return f;
}

// ½(x − c)ᵀQ(x − c) typed, every number as the double it is.
std::string quadraticText(const PolytopeProblem& p) {
    const std::string dx = "(x - " + exact(p.c.x()) + ")", dy = "(y - " + exact(p.c.y()) + ")";
    return "0.5*(" + dx + "*(" + exact(p.Q(0, 0)) + "*" + dx + " + " + exact(p.Q(0, 1)) + "*" + dy +
           ") + " + dy + "*(" + exact(p.Q(1, 0)) + "*" + dx + " + " + exact(p.Q(1, 1)) + "*" + dy +
           "))";
}

// The vertices from the start vertex on, as typed text.
std::string polygonText(const PolytopeProblem& p) {
    std::string text;
    const std::size_t n = p.vertices.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Vector2d& v = p.vertices[(static_cast<std::size_t>(p.startVertex) + k) % n];
        text += (k ? " " : "") + exact(v.x()) + "," + exact(v.y());
    }
    return text;
}

}  // namespace

class TestTypedFrankWolfe : public QObject {
    Q_OBJECT

  private slots:
    // Closed-form minima; both variants to 1e-6 in value, x to 1e-3, and the computed
    // reference to 1e-9 in value.
    void closedFormMinima_data() {
        QTest::addColumn<QString>("f");
        QTest::addColumn<QString>("polygon");
        QTest::addColumn<double>("x1");
        QTest::addColumn<double>("x2");
        QTest::addColumn<double>("fStar");
        QTest::newRow("inside a square") << "(x-1)^2+(y-2)^2"
                                         << "0,0 4,0 4,4 0,4" << 1.0 << 2.0 << 0.0;
        QTest::newRow("projected onto an edge") << "(x-1)^2+(y-2)^2"
                                                << "2,0 4,0 4,4 2,4" << 2.0 << 2.0 << 1.0;
        QTest::newRow("clockwise, onto a slanted edge") << "(x-3)^2+(y-3)^2"
                                                        << "0,0 0,4 4,0" << 2.0 << 2.0 << 2.0;
        QTest::newRow("linear: a vertex") << "-x - y"
                                          << "0,0 4,0 3,3 0,2" << 3.0 << 3.0 << -6.0;
        QTest::newRow("exp(x) + y^2 on an edge")
            << "exp(x) + y^2"
            << "-1,-1 2,-1 2,2 -1,2" << -1.0 << 0.0 << std::exp(-1.0);
        QTest::newRow("sqrt at a vertex") << "sqrt(1 + x^2 + y^2)"
                                          << "1,1 3,1 3,3 1,3" << 1.0 << 1.0 << std::sqrt(3.0);
        QTest::newRow("log-sum-exp, interior")
            << "log(exp(x) + exp(-x)) + (y - 0.5)^2"
            << "-1,-1 1,-1 1,1 -1,1" << 0.0 << 0.5 << std::log(2.0);
    }
    void closedFormMinima() {
        QFETCH(QString, f);
        QFETCH(QString, polygon);
        QFETCH(double, x1);
        QFETCH(double, x2);
        QFETCH(double, fStar);
        const auto p = typedProblem(f, polygon);
        QVERIFY(p);
        QVERIFY(p->notConvex.empty());
        const Vector2d computed = p->minimizer();
        QVERIFY(computed.allFinite());
        QVERIFY2(std::abs(p->value(computed) - fStar) <= 1e-9,
                 qPrintable(QString::number(p->value(computed), 'g', 17)));
        // Away steps converge linearly; plain Frank-Wolfe only as O(1/t) when x* is on an edge
        // (its zig-zag), so it is held to its certified bracket and 1e-3.
        for (const std::string variant : {"plain", "away"}) {
            const Finish r = solveToEnd(p, variant);
            QVERIFY2(r.status.code == StatusCode::Converged ||
                         r.status.code == StatusCode::IterationLimit,
                     r.status.message.c_str());
            const double tolerance = variant == "away" ? 1e-6 : 1e-3;
            QVERIFY2(std::abs(r.upper - fStar) <= tolerance,
                     qPrintable(QString("%1: %2").arg(variant.c_str()).arg(r.upper, 0, 'g', 17)));
            QVERIFY(r.lower <= fStar + 1e-9);  // certified by convexity
            QVERIFY(r.upper >= fStar - 1e-9);
            if (variant == "away") QVERIFY2((r.x - Vector2d(x1, x2)).norm() <= 1e-3, "x");
        }
    }

    // The built-in quadratics typed as text give the same iterates to 1e-12, with every step
    // rule and variant (the typed line search is bisection on the slope, the built-in's the
    // closed form).
    void typedQuadraticEqualsBuiltIn_data() {
        QTest::addColumn<QString>("problem");
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("variant");
        for (const char* name : {"triangle_edge", "square_interior", "hexagon_vertex"}) {
            QTest::addRow("%s line search", name) << name << "line_search"
                                                  << "plain";
            QTest::addRow("%s away", name) << name << "line_search"
                                           << "away";
            QTest::addRow("%s 2/(t+2)", name) << name << "standard"
                                              << "plain";
        }
    }
    void typedQuadraticEqualsBuiltIn() {
        QFETCH(QString, problem);
        QFETCH(QString, step);
        QFETCH(QString, variant);
        const auto builtIn = makePolytopeProblem(problem.toStdString());
        QVERIFY(builtIn);
        const auto typed = typedProblem(QString::fromStdString(quadraticText(*builtIn)),
                                        QString::fromStdString(polygonText(*builtIn)));
        QVERIFY(typed);
        // The built-in with its vertices in the typed order (the oracle breaks ties by order).
        auto same = std::make_shared<PolytopeProblem>(*builtIn);
        same->vertices = typed->vertices;
        same->startVertex = 0;
        FrankWolfeOptions o;
        o.step = step.toStdString();
        o.variant = variant.toStdString();
        o.stop.epsilon = 1e-300;
        o.stop.tol_rel = 0;
        FrankWolfeSolver a(same, o), b(typed, o);
        for (int t = 0; t < 60; ++t) {
            // (Either may stop first: an exact gap of 0 against one of 1e-17.)
            const Status sa = a.step(), sb = b.step();
            QVERIFY2(
                (a.point() - b.point()).norm() <= 1e-12,
                qPrintable(
                    QString("iteration %1: %2").arg(t + 1).arg((a.point() - b.point()).norm())));
            QVERIFY(std::abs(a.lastRecord().upper - b.lastRecord().upper) <= 1e-12);
            if (sa.finished() || sb.finished()) break;
        }
        QVERIFY(std::abs(typed->value(typed->minimizer()) - builtIn->minimumValue()) <= 1e-10);
    }

    void polygonsRead_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("first");  // the vertices read, counter-clockwise
        QTest::newRow("counter-clockwise") << "0,0 4,0 3,3 0,2"
                                           << "0,0 4,0 3,3 0,2";
        QTest::newRow("clockwise, reordered") << "0,0 0,2 3,3 4,0"
                                              << "0,0 4,0 3,3 0,2";
        QTest::newRow("semicolons and blanks") << "  0,0;1,0 ;  0,1 "
                                               << "0,0 1,0 0,1";
        QTest::newRow("exponents") << "-1e0,-1 1,-1.0 1,1e0"
                                   << "-1,-1 1,-1 1,1";
    }
    void polygonsRead() {
        QFETCH(QString, text);
        QFETCH(QString, first);
        std::vector<Vector2d> v;
        std::string why;
        QVERIFY2(parsePolygon(text.toStdString(), &v, &why), why.c_str());
        QStringList read;
        for (const auto& p : v)
            read << QString("%1,%2").arg(p.x()).arg(p.y());
        QCOMPARE(read.join(' '), first);
    }

    void badPolygons_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("two vertices") << "0,0 1,0"
                                      << "needs at least 3 vertices";
        QTest::newRow("not a number") << "0,0 1,0 a,1"
                                      << "vertex 3: 'a' at column 9 is not a number";
        QTest::newRow("no comma") << "0 0 1 0 1 1"
                                  << "vertex 1 at column 1: expected x,y";
        QTest::newRow("infinite") << "0,0 1,inf 0,1"
                                  << "vertex 2: 'inf' at column 7 is not";
        QTest::newRow("too large") << "0,0 2e6,0 0,1"
                                   << "vertex 2 at column 5: coordinates must lie within";
        QTest::newRow("repeated") << "0,0 1,0 1,1 0,0"
                                  << "vertex 4 (0,0, column 13) repeats vertex 1";
        QTest::newRow("collinear") << "0,0 1,0 2,0 1,1"
                                   << "vertex 2 (1,0, column 5) lies on the line through its";
        QTest::newRow("all on a line") << "0,0 1,1 2,2"
                                       << "lies on the line through its";
        QTest::newRow("not convex") << "0,0 4,0 1,1 0,4"
                                    << "not convex at vertex 3 (1,1, column 9)";
        QTest::newRow("a star") << "0,1 0.588,-0.809 -0.951,0.309 0.951,0.309 -0.588,-0.809"
                                << "the edges cross";
        QTest::newRow("empty") << ""
                               << "needs at least 3 vertices";
    }
    void badPolygons() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        std::vector<Vector2d> v;
        std::string why;
        QVERIFY(!parsePolygon(text.toStdString(), &v, &why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        QVERIFY(QString::fromStdString(why).startsWith("polygon '"));
    }

    // Refused before a run: f cannot be evaluated at a vertex (the message names the
    // sub-expression and the point).
    void functionsRefusedAtAVertex_data() {
        QTest::addColumn<QString>("f");
        QTest::addColumn<QString>("message");
        QTest::newRow("log at 0")
            << "log(x) + y^2"
            << "log of a non-positive number: log(x) = log(0) at (x, y) = (0, 0)";
        QTest::newRow("division by zero") << "1/x + y"
                                          << "division by zero in x^(-1)";
        QTest::newRow("beyond 1e100") << "exp(exp(x + 5))"
                                      << "is beyond 1e100";
        QTest::newRow("syntax") << "2x"
                                << "syntax error at column 2";
    }
    void functionsRefusedAtAVertex() {
        QFETCH(QString, f);
        QFETCH(QString, message);
        std::string why;
        QVERIFY(!makeTypedPolytopeProblem(f.toStdString(), "0,0 1,0 1,1 0,1", &why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
    }

    // Stopped runs: a function that is not convex on the polygon (seen on sampled points before
    // the first step), or not differentiable where Frank-Wolfe evaluates it; the message names
    // the point. The computed minimiser is omitted for a non-convex f.
    void stops_data() {
        QTest::addColumn<QString>("f");
        QTest::addColumn<QString>("polygon");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const int failure = static_cast<int>(StatusCode::NumericalFailure);
        const int invalid = static_cast<int>(StatusCode::InvalidInput);
        QTest::newRow("concave") << "-x^2 - y^2"
                                 << "0,0 4,0 3,3 0,2" << failure
                                 << "f is not convex: the plane from (x, y) = (";
        QTest::newRow("saddle") << "x*y"
                                << "-1,-1 1,-1 1,1 -1,1" << failure << "f is not convex";
        QTest::newRow("min of two bowls") << "min((x-1)^2, (x+1)^2) + y^2"
                                          << "-2,-1 2,-1 2,1 -2,1" << failure << "f is not convex";
        QTest::newRow("kink on the step") << "abs(x - 1) + y^2"
                                          << "0,0 2,0 2,2 0,2" << failure
                                          << "has its kink (its argument is 0) (Frank-Wolfe "
                                             "needs a differentiable f) at (x, y) = (1, 0)";
        QTest::newRow("kink at the start") << "abs(x) + y^2"
                                           << "0,0 2,0 2,2 0,2" << invalid
                                           << "at the start vertex: f is not differentiable "
                                              "there: abs(x) has its kink";
        QTest::newRow("max tie at the start")
            << "max(x, y) + x^2"
            << "0,0 2,0 2,2 0,2" << invalid << "has a kink (two of its arguments are equal";
        QTest::newRow("sqrt at 0")
            << "sqrt(x^2 + y^2)"
            << "0,0 2,0 2,2 0,2" << invalid << "is not differentiable where it is 0";
    }
    void stops() {
        QFETCH(QString, f);
        QFETCH(QString, polygon);
        QFETCH(int, code);
        QFETCH(QString, message);
        const auto p = typedProblem(f, polygon);
        QVERIFY(p);
        const Finish r = solveToEnd(p, "plain");
        QCOMPARE(static_cast<int>(r.status.code), code);
        QVERIFY2(QString::fromStdString(r.status.message).contains(message),
                 r.status.message.c_str());
        if (code == static_cast<int>(StatusCode::NumericalFailure) && !p->notConvex.empty())
            QVERIFY(!p->minimizer().allFinite());  // no wrong optimum shown
    }

    // Past the sampled check (a problem built by hand): the slope along a line-search step
    // that falls, and a plane at one iterate above f at the next (2/(t+2) steps, no search).
    void runStopsWhereItSeesNonConvexity_data() {
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative curvature") << "line_search"
                                            << "f is not convex: along the step from (x, y) = "
                                               "(0, 0) its slope falls";
        QTest::newRow("plane above f") << "standard"
                                       << "f is not convex: the plane from (x, y) = (2, 2) lies "
                                          "above f at (x, y) = (0, 0) (f = 0, plane = 4)";
    }
    void runStopsWhereItSeesNonConvexity() {
        QFETCH(QString, step);
        QFETCH(QString, message);
        auto p = std::make_shared<PolytopeProblem>();
        std::string why;
        QVERIFY(parsePolygon("0,0 2,0 2,2 0,2", &p->vertices, &why));
        Box box;
        box.lower = Eigen::Vector2d(0, 0);
        box.upper = Eigen::Vector2d(2, 2);
        p->typed = TypedFunction::parse("-x^2 - y", box, &why);
        QVERIFY2(p->typed, why.c_str());
        p->name = "by_hand";
        FrankWolfeOptions o;
        o.step = step.toStdString();
        FrankWolfeSolver s(p, o);
        const Status status = solve(s);
        QCOMPARE(status.code, StatusCode::NumericalFailure);
        QVERIFY2(QString::fromStdString(status.message).contains(message), status.message.c_str());
    }

    // The smooth mode of a typed function: kinks where evaluated are errors, the same
    // function elsewhere is fine, and the nonsmooth mode (Kelley's) is unchanged there.
    void smoothModeFindsKinks_data() {
        QTest::addColumn<QString>("f");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::addColumn<bool>("kink");
        QTest::newRow("abs at 0") << "abs(x) + y" << 0.0 << 1.0 << true;
        QTest::newRow("abs elsewhere") << "abs(x) + y" << 0.5 << 1.0 << false;
        QTest::newRow("max tie") << "max(x, y)" << 1.0 << 1.0 << true;
        QTest::newRow("max, same gradient") << "max(x, x)" << 1.0 << 1.0 << false;
        QTest::newRow("min elsewhere") << "min(x, y)" << 1.0 << 2.0 << false;
        QTest::newRow("sqrt at 0") << "sqrt(x^2 + y^2)" << 0.0 << 0.0 << true;
        QTest::newRow("power below 1 at 0") << "(x^2)^0.25" << 0.0 << 0.0 << true;
    }
    void smoothModeFindsKinks() {
        QFETCH(QString, f);
        QFETCH(double, x);
        QFETCH(double, y);
        QFETCH(bool, kink);
        std::string why;
        const auto typed = TypedFunction::parse(f.toStdString(), "-3:3,-3:3", &why);
        QVERIFY2(typed, why.c_str());
        Eigen::VectorXd g;
        std::string error;
        const double smooth = typed->evaluateSmooth(Eigen::Vector2d(x, y), &g, &error);
        QCOMPARE(std::isnan(smooth), kink);
        if (kink) QVERIFY2(error.find("f is not differentiable there") == 0, error.c_str());
        QVERIFY(std::isfinite(typed->evaluateChecked(Eigen::Vector2d(x, y), &g, &error)));
    }
};

QTEST_GUILESS_MAIN(TestTypedFrankWolfe)
#include "test_typed_frank_wolfe.moc"
