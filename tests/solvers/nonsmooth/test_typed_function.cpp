// SPDX-License-Identifier: GPL-3.0-or-later
// A typed function (issue 49): its oracle against the subgradient inequality at thousands of
// random pairs and against hand-computed values and gradients; Kelley and bundle on
// max(x^2, 1 - x), whose minimum (3 - sqrt 5)/2 at (sqrt 5 - 1)/2 is known in closed form; the
// messages of expressions that cannot be read or evaluated, with their positions; and the
// stop at the first plane above f of a non-convex function.
#include <QtTest>
#include <random>

#include "core/byte_stream.h"
#include "nonsmooth/bundle.h"
#include "nonsmooth/cutting_plane_model.h"
#include "nonsmooth/cutting_plane_snapshot_codec.h"
#include "nonsmooth/kelley.h"
#include "nonsmooth/typed_function.h"

using namespace cplab;

Q_DECLARE_METATYPE(Eigen::VectorXd)

namespace {

std::shared_ptr<const TypedFunction> typed(const QString& expression, const QString& domain) {
    std::string why;
    auto f = TypedFunction::parse(expression.toStdString(), domain.toStdString(), &why);
    if (!f) qWarning("%s", why.c_str());
    return f;
}

Eigen::VectorXd point(std::initializer_list<double> values) {
    Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double value : values)
        v(i++) = value;
    return v;
}

std::unique_ptr<Solver> makeSolver(const QString& solver, std::shared_ptr<const ConvexFunction> f,
                                   double epsilon) {
    if (solver == "kelley") {
        KelleyOptions o;
        o.stop.epsilon = epsilon;
        return std::make_unique<KelleySolver>(std::move(f), o);
    }
    BundleOptions o;
    o.stop.epsilon = epsilon;
    return std::make_unique<BundleSolver>(std::move(f), o);
}

}  // namespace

class TestTypedFunction : public QObject {
    Q_OBJECT
  private slots:
    // Convex expressions only: max of affine and convex pieces, abs, squares, exp, norms.
    void subgradientInequality_data() {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("domain");
        const char* rows[][2] = {
            {"max(x^2, 1 - x)", "-3:3"},
            {"abs(x - 1) + x^2/2", "-3:3"},
            {"max(2*x + 1, -x, x/3 - 1/2, 0.25)", "-2:2"},
            {"exp(x) + abs(x)", "-2:2"},
            {"sqrt(x^2 + 1) + max(0, x - 1)", "-3:3"},
            {"x - log(x)", "0.1:4"},
            {"(x - 0.5)^4 + 2^x", "-2:2"},
            {"abs(x - 1) + max(y, -y/2) + (x + y)^2/4", "-3:3,-3:3"},
            {"sqrt(x^2 + y^2)", "-2:2,-2:2"},
            {"max(abs(x), abs(y), abs(x + y) - 1)", "-2:2,-2:2"},
            {"exp(x + y) + (x - y)^2", "-1:1,-1:1"},
            {"max(x^2 + y^2, 2 - x, 1 + y) + abs(x - y)", "-3:3,-3:3"},
            {"sqrt((x - 1)^2 + (y + 1)^2) + e*abs(y) - pi*min(x, -x)", "-2:2,-2:2"},
        };
        for (const auto& row : rows)
            QTest::newRow(row[0]) << QString(row[0]) << QString(row[1]);
    }
    void subgradientInequality() {
        QFETCH(QString, expression);
        QFETCH(QString, domain);
        const auto f = typed(expression, domain);
        QVERIFY(f);
        const Box box = f->box();
        const int n = f->dimension();
        std::mt19937 rng(49);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        // One point in four on a grid of step 1/2, so that kinks (x = 0, 1, y = 0...) are hit.
        auto draw = [&] {
            Eigen::VectorXd x(n);
            const bool onGrid = unit(rng) < 0.25;
            for (int i = 0; i < n; ++i) {
                x(i) = box.lower(i) + (box.upper(i) - box.lower(i)) * unit(rng);
                if (onGrid) x(i) = std::clamp(std::round(2 * x(i)) / 2, box.lower(i), box.upper(i));
            }
            return x;
        };
        for (int k = 0; k < 5000; ++k) {
            const Eigen::VectorXd x = draw(), z = draw();
            Eigen::VectorXd g;
            std::string error;
            const double fx = f->evaluateChecked(x, &g, &error);
            QVERIFY2(error.empty(), error.c_str());
            QCOMPARE(g.size(), n);
            const double fz = f->evaluate(z, nullptr);
            const double plane = fx + g.dot(z - x);
            const double slack =
                1e-10 * (1 + std::abs(fz) + std::abs(fx) + g.norm() * (z - x).norm());
            QVERIFY2(fz >= plane - slack, qPrintable(QString("f(z) = %1 < plane %2 at pair %3")
                                                         .arg(fz, 0, 'g', 17)
                                                         .arg(plane, 0, 'g', 17)
                                                         .arg(k)));
        }
    }

    // Values and gradients computed by hand.
    void valuesAgainstClosedForms_data() {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<Eigen::VectorXd>("x");
        QTest::addColumn<double>("value");
        QTest::addColumn<Eigen::VectorXd>("gradient");
        const QString d1 = "-3:3", d2 = "-3:3,-3:3";
        const QString issue2d = "abs(x - 1) + max(y, -y/2) + (x + y)^2/4";
        QTest::newRow("max right") << "max(x^2, 1 - x)" << d1 << point({2}) << 4.0 << point({4});
        QTest::newRow("max left") << "max(x^2, 1 - x)" << d1 << point({-1}) << 2.0 << point({-1});
        // |1| + max(-2, 1) + 0: x - 1 > 0, the piece -y/2 is active, (x + y)/2 = 0.
        QTest::newRow("2-D a") << issue2d << d2 << point({2, -2}) << 2.0 << point({1, -0.5});
        // |-1| + max(2, -1) + 4/4: gradient (-1 + 1, 1 + 1).
        QTest::newRow("2-D b") << issue2d << d2 << point({0, 2}) << 4.0 << point({0, 2});
        QTest::newRow("norm") << "sqrt(x^2 + y^2)" << d2 << point({3 - 3, 0}) << 0.0
                              << point({0, 0});
        QTest::newRow("norm 3-4-5") << "sqrt(x^2 + y^2)"
                                    << "-5:5,-5:5" << point({3, 4}) << 5.0 << point({0.6, 0.8});
        // At the kink abs gives 0 times the inner gradient.
        QTest::newRow("abs kink") << "abs(x - 1)" << d1 << point({1}) << 0.0 << point({0});
        QTest::newRow("exp log") << "2*exp(x) + log(x)"
                                 << "0.5:2" << point({1}) << 2 * M_E << point({2 * M_E + 1});
        QTest::newRow("constants") << "pi*x + e" << d1 << point({1}) << M_PI + M_E << point({M_PI});
        QTest::newRow("min of three")
            << "min(x, 2, -x + 1, 5)" << d1 << point({-2}) << -2.0 << point({1});
        QTest::newRow("x^x") << "x^x"
                             << "0.5:2" << point({2}) << 4.0 << point({4 * (std::log(2.0) + 1)});
        QTest::newRow("quotient") << "1/(x + 2)" << d1 << point({0}) << 0.5 << point({-0.25});
        QTest::newRow("y unused") << "x^2" << d2 << point({1, 7}) << 1.0 << point({2, 0});
    }
    void valuesAgainstClosedForms() {
        QFETCH(QString, expression);
        QFETCH(QString, domain);
        QFETCH(Eigen::VectorXd, x);
        QFETCH(double, value);
        QFETCH(Eigen::VectorXd, gradient);
        const auto f = typed(expression, domain);
        QVERIFY(f);
        Eigen::VectorXd g;
        const double v = f->evaluate(x, &g);
        QVERIFY2(
            std::abs(v - value) <= 1e-13 * (1 + std::abs(value)),
            qPrintable(QString("f = %1, expected %2").arg(v, 0, 'g', 17).arg(value, 0, 'g', 17)));
        QCOMPARE(g.size(), gradient.size());
        QVERIFY2((g - gradient).norm() <= 1e-13 * (1 + gradient.norm()),
                 qPrintable(QString("g = (%1, %2)").arg(g(0)).arg(g.size() > 1 ? g(1) : 0.0)));
    }

    // The issue's closed form: min over [-3, 3] of max(x^2, 1 - x) is where x^2 = 1 - x,
    // x* = (sqrt 5 - 1)/2, f* = 1 - x* = (3 - sqrt 5)/2.
    void issueMinimum_data() {
        QTest::addColumn<QString>("solver");
        QTest::newRow("kelley") << "kelley";
        QTest::newRow("bundle") << "bundle";
    }
    void issueMinimum() {
        QFETCH(QString, solver);
        const auto f = typed("max(x^2, 1 - x)", "-3:3");
        QVERIFY(f);
        QVERIFY(std::isnan(f->minimumValue()));  // not known to the function itself
        auto s = makeSolver(solver, f, 1e-8);
        const Status status = solve(*s);
        QCOMPARE(status.code, StatusCode::Converged);
        const double xStar = (std::sqrt(5.0) - 1) / 2, fStar = (3 - std::sqrt(5.0)) / 2;
        const IterationRecord& last = s->lastRecord();
        QVERIFY2(std::abs(last.upper - fStar) <= 1e-6,
                 qPrintable(QString::number(last.upper, 'g', 17)));
        QVERIFY(last.lower <= fStar + 1e-12);
        const Eigen::VectorXd best = solver == "kelley"
                                         ? static_cast<KelleySolver&>(*s).bestPoint()
                                         : static_cast<BundleSolver&>(*s).bestPoint();
        QVERIFY2(std::abs(best(0) - xStar) <= 1e-6, qPrintable(QString::number(best(0), 'g', 17)));
    }

    // Five more convex functions whose minima are known in closed form, by both solvers.
    void minimaAgainstClosedForms_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<double>("fStar");
        QTest::addColumn<Eigen::VectorXd>("xStar");  // empty: the minimiser is not unique
        for (const char* solver : {"kelley", "bundle"}) {
            // f' = x + 1 > 0 right of 1, x - 1 < 0 left of it: x* = 1, f* = 1/2.
            QTest::addRow("%s abs_quad", solver) << solver << "abs(x - 1) + x^2/2"
                                                 << "-3:3" << 0.5 << point({1});
            // f' = exp(x) - 2 = 0 at ln 2.
            QTest::addRow("%s exp", solver)
                << solver << "exp(x) - 2*x"
                << "-3:3" << 2 - 2 * std::log(2.0) << point({std::log(2.0)});
            // See cli.typed_function_cli: 0 is a subgradient at (1, 0).
            QTest::addRow("%s issue 2-D", solver)
                << solver << "abs(x - 1) + max(y, -y/2) + (x + y)^2/4"
                << "-3:3,-3:3" << 0.25 << point({1, 0});
            // max(x + |y|, -2x) >= max(x, -2x) >= 0, and 0 at the origin.
            QTest::addRow("%s polyhedral", solver) << solver << "max(x + y, x - y, -2*x)"
                                                   << "-2:3,-2:2" << 0.0 << point({0, 0});
            // |p - (1, -1/2)| + |x| >= |1 - x| + |x| >= 1, equal on the segment from (0, -1/2)
            // to (1, -1/2).
            QTest::addRow("%s distance", solver)
                << solver << "sqrt((x - 1)^2 + (y + 0.5)^2) + abs(x)"
                << "-2:2,-2:2" << 1.0 << Eigen::VectorXd();
        }
    }
    void minimaAgainstClosedForms() {
        QFETCH(QString, solver);
        QFETCH(QString, expression);
        QFETCH(QString, domain);
        QFETCH(double, fStar);
        QFETCH(Eigen::VectorXd, xStar);
        const auto f = typed(expression, domain);
        QVERIFY(f);
        auto s = makeSolver(solver, f, 1e-7);
        QCOMPARE(solve(*s).code, StatusCode::Converged);
        const IterationRecord& last = s->lastRecord();
        QVERIFY2(std::abs(last.upper - fStar) <= 1e-6,
                 qPrintable(QString::number(last.upper, 'g', 17)));
        QVERIFY(last.lower <= fStar + 1e-9);
        if (xStar.size() == 0) return;
        const Eigen::VectorXd best = solver == "kelley"
                                         ? static_cast<KelleySolver&>(*s).bestPoint()
                                         : static_cast<BundleSolver&>(*s).bestPoint();
        QVERIFY2((best - xStar).norm() <= 2e-3, qPrintable(QString::number(best(0), 'g', 17)));
    }

    // Literals reach GiNaC as the doubles they denote: an exponent of ten digits made CLN
    // expand the number for minutes and gigabytes (a fuzz_typed_function finding).
    void hugeExponentsAreDoubles() {
        std::string why;
        QVERIFY(!TypedFunction::parse("0e11191111111.5", "-3:3", &why));
        QVERIFY2(why.find("syntax error") != std::string::npos, why.c_str());
        QVERIFY(!TypedFunction::parse("x + 1e99999999999", "-3:3", &why));
        QCOMPARE(QString::fromStdString(why),
                 QString("function 'x + 1e99999999999': a number beyond 1e100 at column 5"));
        const auto tiny = TypedFunction::parse("1e-99999999999 + x^2", "-3:3", &why);
        QVERIFY2(tiny, why.c_str());
        Eigen::VectorXd at(1);
        at << 2;
        QCOMPARE(tiny->evaluate(at, nullptr), 4.0);
        QVERIFY(!TypedFunction::parse("1.2.3*x", "-3:3", &why));
        QCOMPARE(QString::fromStdString(why),
                 QString("function '1.2.3*x': syntax error at column 1: '1.2.3' is not a number"));
    }

    void readErrors_data() {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<QString>("message");
        const QString d1 = "-3:3";
        QTest::newRow("unknown name") << "x + z" << d1
                                      << "function 'x + z': unknown name 'z' at column 5 (the "
                                         "variables are x and y, the constants pi and e)";
        QTest::newRow("unknown function") << "1 + sin(x)" << d1
                                          << "function '1 + sin(x)': unknown function 'sin' at "
                                             "column 5 (known: abs, sqrt, exp, log, max, min)";
        QTest::newRow("max of one")
            << "max(x)" << d1 << "function 'max(x)': max at column 1 takes 2 to 16 arguments";
        // GiNaC hands a call without arguments to the reader whatever its arity (it crashed).
        QTest::newRow("max of none")
            << "x + max()" << d1 << "function 'x + max()': max at column 5 takes 2 to 16 arguments";
        QTest::newRow("abs of none")
            << "abs()" << d1 << "function 'abs()': abs at column 1 takes one argument";
        QTest::newRow("log of two")
            << "log(x, 2)" << d1 << "function 'log(x, 2)': log at column 1 takes one argument";
        QTest::newRow("missing operator")
            << "2x" << d1 << "function '2x': syntax error at column 2: unexpected 'x'";
        QTest::newRow("two operators")
            << "x +* 3" << d1 << "function 'x +* 3': syntax error at column 4: unexpected '*'";
        QTest::newRow("unclosed")
            << "(x + 1" << d1
            << "function '(x + 1': syntax error at the end of the expression: "
               "expected ')'";
        QTest::newRow("constant over 0") << "x + 1/0" << d1
                                         << "function 'x + 1/0': division by zero (a constant "
                                            "divided by 0)";
        QTest::newRow("empty") << " " << d1 << "function ' ': empty";
        // Read as floating point: an exact 9^387420489 would take minutes and gigabytes.
        QTest::newRow("tower") << "9^(9^9)" << d1
                               << "function '9^(9^9)': a number beyond 1e100: "
                                  "4.2812477268959876356E369693099";
        // GiNaC computed a power of numbers while reading it: CLN asked for 32 GB
        // (fuzz_typed_function, tests/fuzz/findings/typed_function-power-32gb).
        QTest::newRow("power beyond computing")
            << "11111111^+1-11111111^11111111111 111*x" << d1
            << "function '11111111^+1-11111111^11111111111 111*x': its constant part is beyond "
               "computing (a power of numbers needs more than 1 GiB or 5 s; every number is a "
               "double, at most 1e100)";
        QTest::newRow("too long") << QString(2001, 'x') << d1
                                  << "function '" + QString(57, 'x') +
                                         "...': longer than 2000 characters";
        QTest::newRow("y in 1-D") << "x + y" << d1
                                  << "function 'x + y': uses y, but the domain '-3:3' is 1-D (give "
                                     "two ranges: -3:3,-3:3)";
        QTest::newRow("bad domain") << "x"
                                    << "3:-3"
                                    << "domain '3:-3': needs lo < hi in '3:-3'";
        QTest::newRow("domain text") << "x"
                                     << "-3:a"
                                     << "domain '-3:a': 'a' is not a number";
        QTest::newRow("three ranges") << "x"
                                      << "0:1,0:1,0:1"
                                      << "domain '0:1,0:1,0:1': one range (lo:hi) for x, or two "
                                         "(lo:hi,lo:hi) for x and y";
    }
    void readErrors() {
        QFETCH(QString, expression);
        QFETCH(QString, domain);
        QFETCH(QString, message);
        std::string why;
        QVERIFY(!TypedFunction::parse(expression.toStdString(), domain.toStdString(), &why));
        QCOMPARE(QString::fromStdString(why), message);
    }

    void evaluationErrors_data() {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<Eigen::VectorXd>("x");
        QTest::addColumn<QString>("message");
        QTest::newRow("division") << "1/(x - 1)" << point({1})
                                  << "division by zero in (-1.0+x)^(-1) at x = 1";
        QTest::newRow("log") << "log(x)" << point({-1})
                             << "log of a non-positive number: log(x) = log(-1) at x = -1";
        QTest::newRow("sqrt") << "sqrt(x - 1)" << point({0.5})
                              << "sqrt of a negative number: sqrt(-1.0+x) = sqrt(-0.5) at x = 0.5";
        QTest::newRow("huge") << "exp(exp(x))" << point({6})
                              << "the value of exp(exp(x)) is beyond 1e100 (1.61e+175) at x = 6";
    }
    void evaluationErrors() {
        QFETCH(QString, expression);
        QFETCH(Eigen::VectorXd, x);
        QFETCH(QString, message);
        const auto f = typed(expression, "-10:10");
        QVERIFY(f);
        std::string error;
        Eigen::VectorXd g;
        QVERIFY(std::isnan(f->evaluateChecked(x, &g, &error)));
        QCOMPARE(QString::fromStdString(error), message);
    }

    // Non-convex functions: the first plane above f stops the run, naming the point and the
    // plane; the message's numbers are checked against the planes themselves.
    void nonConvexStops_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("domain");
        // Each run must pass where f is not convex: a run that never leaves a convex part
        // (or starts at a stationary point of a concave one) cannot see it.
        const char* rows[][3] = {
            {"kelley", "-x^2", "-3:3"},
            {"kelley", "min(x^2, 1)", "-3:2"},
            {"kelley", "-(x^2 + y^2) + abs(x)", "-3:3,-2:3"},
            {"bundle", "-x^2", "-2:3"},
            {"bundle", "sqrt(abs(x))", "-1:3"},
            {"bundle", "-(x^2 + y^2) + abs(x)", "-3:3,-2:3"},
        };
        for (const auto& row : rows)
            QTest::addRow("%s %s", row[0], row[1]) << row[0] << row[1] << row[2];
    }
    void nonConvexStops() {
        QFETCH(QString, solver);
        QFETCH(QString, expression);
        QFETCH(QString, domain);
        const auto f = typed(expression, domain);
        QVERIFY(f);
        auto s = makeSolver(solver, f, 1e-6);
        const Status status = solve(*s);
        QCOMPARE(status.code, StatusCode::NumericalFailure);
        QVERIFY2(
            QString::fromStdString(status.message).startsWith("f is not convex: the plane from "),
            status.message.c_str());
        const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s->snapshot());
        QVERIFY(snap && snap->planeAboveF);
        const PlaneAboveF& v = *snap->planeAboveF;
        QVERIFY(v.plane < snap->planes.size() && v.point < snap->planes.size());
        const CuttingPlane& plane = snap->planes[v.plane];
        const Eigen::VectorXd& at = snap->planes[v.point].point;
        // Independently: f at that point, and the plane there, lies above it.
        QCOMPARE(f->evaluate(at, nullptr), v.f);
        QVERIFY(plane.value + plane.gradient.dot(at - plane.point) > v.f + 1e-9);
        QCOMPARE(QString::fromStdString(status.message),
                 QString::fromStdString(planeAboveFText(snap->planes, v)));
    }

    // A session's stored snapshot finds the plane above f again from its planes.
    void planeAboveFSurvivesTheCodec() {
        const auto f = typed("-x^2", "-3:3");
        QVERIFY(f);
        KelleySolver s(f);
        QCOMPARE(solve(s).code, StatusCode::NumericalFailure);
        const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s.snapshot());
        QVERIFY(snap && snap->planeAboveF);
        ByteWriter out;
        encodeCuttingPlaneSnapshot(*snap, out);
        ByteReader in(out.data());
        CuttingPlaneSnapshot back;
        decodeCuttingPlaneSnapshot(in, *snap, back);
        QVERIFY(in.ok() && back.planeAboveF);
        QCOMPARE(back.planeAboveF->plane, snap->planeAboveF->plane);
        QCOMPARE(back.planeAboveF->point, snap->planeAboveF->point);
        // An earlier snapshot's planes (the first only) show nothing.
        back.planes.resize(1);
        QVERIFY(!lastPlaneAboveF(back.planes));
    }

    // A convex typed function never trips the check, nor do the built-ins (their own tests).
    void convexDoesNotStop() {
        const auto f = typed("abs(x - 1) + max(y, -y/2) + (x + y)^2/4", "-3:3,-3:3");
        QVERIFY(f);
        for (const char* solver : {"kelley", "bundle"}) {
            auto s = makeSolver(solver, f, 1e-6);
            QCOMPARE(solve(*s).code, StatusCode::Converged);
        }
    }

    // A domain error during a run stops it with the message and the point.
    void domainErrorStopsRun() {
        const auto f = typed("log(x)", "-1:3");
        QVERIFY(f);
        KelleySolver s(f);
        // The start (the box's centre, 1) is fine; the first LP goes to the edge x = -1.
        const Status status = solve(s);
        QCOMPARE(status.code, StatusCode::NumericalFailure);
        QCOMPARE(QString::fromStdString(status.message),
                 QString("log of a non-positive number: log(x) = log(-1) at x = -1"));
    }
};

QTEST_GUILESS_MAIN(TestTypedFunction)
#include "test_typed_function.moc"
