// SPDX-License-Identifier: GPL-3.0-or-later
// Kelley's method and the proximal bundle method on every built-in function: both reach the
// known minimum within ε, and the known optimum lies between the bounds at every iteration.
#include <QtTest>
#include <algorithm>
#include <cstdint>
#include <random>

#include "nonsmooth/box_prox.h"
#include "nonsmooth/bundle.h"
#include "nonsmooth/kelley.h"
#include "nonsmooth/test_functions.h"
#include "record_columns.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;

namespace {

std::unique_ptr<Solver> makeSolver(const QString& kind, std::shared_ptr<const ConvexFunction> f,
                                   double epsilon) {
    if (kind == "kelley") {
        KelleyOptions o;
        o.stop.epsilon = epsilon;
        return std::make_unique<KelleySolver>(f, o);
    }
    BundleOptions o;
    o.stop.epsilon = epsilon;
    if (kind == "bundle_fixed") o.nu_rule = "fixed";
    return std::make_unique<BundleSolver>(f, o);
}

double tolerance(double value) {
    return 1e-9 * std::max(1.0, std::abs(value));
}

}  // namespace

class TestCuttingPlanes : public QObject {
    Q_OBJECT
  private slots:
    void convergesWithBracketingBounds_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("function");
        for (const char* solver : {"kelley", "bundle"}) {
            for (const auto& name : testFunctionNames()) {
                QTest::newRow((std::string(solver) + "/" + name).c_str())
                    << QString(solver) << QString::fromStdString(name);
            }
        }
    }
    void convergesWithBracketingBounds() {
        QFETCH(QString, solver);
        QFETCH(QString, function);
        const auto f = makeTestFunction(function.toStdString());
        const double fStar = f->minimumValue();
        const double epsilon = 1e-6;
        auto s = makeSolver(solver, f, epsilon);
        QCOMPARE(s->status().code, StatusCode::Running);
        // The iteration-0 record already brackets f*.
        QVERIFY(s->lastRecord().upper >= fStar - tolerance(fStar));
        QVERIFY(s->lastRecord().lower <= fStar + tolerance(fStar));

        double previousLower = -std::numeric_limits<double>::infinity();
        double previousUpper = std::numeric_limits<double>::infinity();
        const Status status = solve(*s, [&](const Solver&, const IterationRecord& r) {
            QVERIFY2(r.lower <= fStar + tolerance(fStar),
                     qPrintable(QString("iteration %1: lower %2 > f* %3")
                                    .arg(r.iteration)
                                    .arg(r.lower, 0, 'g', 17)
                                    .arg(fStar, 0, 'g', 17)));
            QVERIFY2(
                r.upper >= fStar - tolerance(fStar),
                qPrintable(QString("iteration %1: upper %2 < f*").arg(r.iteration).arg(r.upper)));
            QVERIFY(r.lower >= previousLower);  // cutting-plane lower bounds never decrease
            QVERIFY(r.upper <= previousUpper);
            QCOMPARE(r.gap, r.upper - r.lower);
            QCOMPARE(r.oracleCalls, static_cast<long long>(r.iteration + 1));
            previousLower = r.lower;
            previousUpper = r.upper;
        });
        QVERIFY2(status.code == StatusCode::Converged, status.message.c_str());
        const IterationRecord& last = s->lastRecord();
        QVERIFY(last.gap <= epsilon);
        QVERIFY(last.upper - fStar <= epsilon + tolerance(fStar));
        QVERIFY(fStar - last.lower <= epsilon + tolerance(fStar));
        // The best point really has the reported value.
        const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s->snapshot());
        QVERIFY(snap);
        QCOMPARE(f->evaluate(snap->best, nullptr), last.upper);
        QCOMPARE(static_cast<int>(snap->planes.size()), last.iteration + 1);
        QCOMPARE(static_cast<int>(snap->iterates.size()), last.iteration + 1);
    }

    void kelleyIsExactOnPolyhedralFunctions() {
        // The model of a max of four lines becomes exact after finitely many planes.
        auto s = makeSolver("kelley", makeTestFunction("max_affine"), 1e-12);
        QCOMPARE(solve(*s).code, StatusCode::Converged);
        QVERIFY(s->iteration() <= 6);
        QVERIFY(s->lastRecord().gap <= 1e-12);
    }

    void kelleyZigZagsWhereTheBundleDoesNot() {
        // The demo's claim on the ill-conditioned bowl: Kelley's iterates jump around the box
        // (long steps even late in the run) and it needs more oracle calls than the bundle
        // method, whose prox term keeps its steps short.
        const auto f = makeTestFunction("zigzag_quadratic");
        auto kelley = makeSolver("kelley", f, 1e-6);
        auto bundle = makeSolver("bundle", f, 1e-6);
        QCOMPARE(solve(*kelley).code, StatusCode::Converged);
        QCOMPARE(solve(*bundle).code, StatusCode::Converged);
        auto meanLateStep = [](const Solver& s) {
            const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s.snapshot());
            const auto& x = snap->iterates;
            double sum = 0.0;
            int count = 0;
            for (std::size_t k = x.size() / 2 + 1; k < x.size(); ++k, ++count) {
                sum += (x[k] - x[k - 1]).norm();
            }
            return sum / std::max(1, count);
        };
        const double kelleyStep = meanLateStep(*kelley), bundleStep = meanLateStep(*bundle);
        qInfo("zigzag_quadratic: kelley %lld oracle calls, mean late step %.3g; bundle %lld, %.3g",
              kelley->lastRecord().oracleCalls, kelleyStep, bundle->lastRecord().oracleCalls,
              bundleStep);
        QVERIFY(bundle->lastRecord().oracleCalls * 5 <= kelley->lastRecord().oracleCalls * 4);
        QVERIFY(kelleyStep >= 2.0 * bundleStep);
    }

    void stepAdvancesOneIterationAndOnePlane() {
        auto s = makeSolver("kelley", makeTestFunction("abs_quad"), 1e-9);
        for (int k = 1; k <= 3; ++k) {
            s->step();
            QCOMPARE(s->iteration(), k);
            const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s->snapshot());
            QCOMPARE(static_cast<int>(snap->planes.size()), k + 1);
            QCOMPARE(snap->modelCurve.size(), snap->function->xs.size());
            // The model never exceeds f and touches it at every oracle point.
            for (std::size_t i = 0; i < snap->function->xs.size(); ++i) {
                QVERIFY(snap->modelCurve[i] <= snap->function->fs[i] + 1e-12);
            }
            for (const auto& p : snap->planes) {
                QCOMPARE(modelValue(snap->planes, p.point), p.value);
            }
        }
    }

    void kelleyAddsAPlaneEveryStep() {
        auto s = makeSolver("kelley", makeTestFunction("abs_sum_2d"), 1e-6);
        QCOMPARE(s->snapshot()->events.size(), std::size_t(0));  // no step yet
        while (!s->status().finished()) {
            s->step();
            const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s->snapshot());
            QCOMPARE(s->lastRecord().events, std::uint32_t(PlaneAdded));
            QCOMPARE(snap->record.events, s->lastRecord().events);
            QCOMPARE(snap->events.size(), std::size_t(1));
            const std::string expected =
                "plane " + std::to_string(snap->planes.size()) + " added at x = ";
            QCOMPARE(QString::fromStdString(snap->events[0].substr(0, expected.size())),
                     QString::fromStdString(expected));
        }
        for (const IterationRecord& r : s->trace())
            QCOMPARE(r.events, std::uint32_t(PlaneAdded));
    }

    void bundleReportsSeriousAndNullSteps_data() {
        QTest::addColumn<QString>("function");
        QTest::addColumn<QString>("rule");
        for (const char* function : {"cb3", "abs_quad", "mifflin1"})
            for (const char* rule : {"adaptive", "fixed"})
                QTest::newRow((std::string(function) + "/" + rule).c_str())
                    << QString(function) << QString(rule);
    }
    void bundleReportsSeriousAndNullSteps() {
        // Every step is exactly one of a serious and a null step; a serious step is exactly a
        // step after which the prox-centre has moved (read off consecutive snapshots), and the
        // pseudocode panel shows the branch the step took (line 6 serious, line 7 null).
        QFETCH(QString, function);
        QFETCH(QString, rule);
        BundleOptions o;
        o.stop.epsilon = 1e-6;
        o.nu_rule = rule.toStdString();
        BundleSolver s(makeTestFunction(function.toStdString()), o);
        auto previous = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s.snapshot());
        int serious = 0, null = 0;
        while (!s.status().finished()) {
            s.step();
            const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(s.snapshot());
            const std::uint32_t events = snap->record.events;
            const bool isSerious = events & SeriousStep, isNull = events & NullStep;
            QVERIFY(isSerious != isNull);
            QVERIFY(events & PlaneAdded);
            const bool moved = snap->proxCenter != previous->proxCenter;
            QCOMPARE(isSerious, moved);
            QCOMPARE(snap->serious.back(), isSerious);
            const auto& lines = snap->executedLines;
            QVERIFY(std::count(lines.begin(), lines.end(), isSerious ? 6 : 7) == 1);
            QVERIFY(std::count(lines.begin(), lines.end(), isSerious ? 7 : 6) == 0);
            // The texts name the same events, each in its own line.
            QCOMPARE(snap->events.size(), eventNames(events).size());
            for (const std::string& text : snap->events)
                QVERIFY(!text.empty() && text.size() <= 90 && text.find('\n') == std::string::npos);
            const std::string& stepText = snap->events[1];  // after "plane added"
            QVERIFY(stepText.rfind(isSerious ? "serious step" : "null step", 0) == 0);
            QCOMPARE((events & ProxWeightChanged) != 0, snap->nu != previous->nu);
            serious += isSerious;
            null += isNull;
            previous = snap;
        }
        QCOMPARE(serious, s.seriousSteps());
        qInfo("%s/%s: %d serious, %d null steps", qPrintable(function), qPrintable(rule), serious,
              null);
        QVERIFY(serious > 0);
        QVERIFY(null > 0);
    }

    void bundleOptionsAreValidated_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("nu zero") << "nu"
                                 << "0"
                                 << "BundleOptions::nu = 0: must be a finite number > 0";
        QTest::newRow("nu nan") << "nu"
                                << "nan"
                                << "BundleOptions::nu = nan";
        QTest::newRow("m one") << "m"
                               << "1"
                               << "BundleOptions::m = 1: must lie in (0, 1)";
        QTest::newRow("m negative") << "m"
                                    << "-0.1"
                                    << "BundleOptions::m = -0.1";
        QTest::newRow("nu_min") << "nu_min"
                                << "-1"
                                << "BundleOptions::nu_min = -1";
        QTest::newRow("nu_max") << "nu_max"
                                << "1e-9"
                                << "BundleOptions::nu_max = 1e-09: must be finite and >= nu_min";
        QTest::newRow("epsilon") << "epsilon"
                                 << "-1"
                                 << "BundleOptions::epsilon = -1";
        QTest::newRow("decrease") << "decrease_tolerance"
                                  << "-1"
                                  << "decrease_tolerance = -1";
    }
    void bundleOptionsAreValidated() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        BundleOptions o;
        std::string why;
        QVERIFY(o.isValid(&why));
        QVERIFY(assignOptions(o, {{key.toStdString(), value.toStdString()}}, &why));
        BundleSolver s(makeTestFunction("cb3"), o);
        QCOMPARE(s.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(s.status().message).contains(message),
                 s.status().message.c_str());
        QCOMPARE(s.step().code, StatusCode::InvalidInput);
    }

    void kelleyRejectsMissingFunction() {
        KelleySolver s(nullptr);
        QCOMPARE(s.status().code, StatusCode::InvalidInput);
        QCOMPARE(s.step().code, StatusCode::InvalidInput);
    }

    void decreaseToleranceStopsTheBundle() {
        BundleOptions o;
        o.stop.epsilon = 0.0;
        o.decrease_tolerance = 1e-4;
        BundleSolver s(makeTestFunction("lq"), o);
        QCOMPARE(solve(s).code, StatusCode::Converged);
        QVERIFY(column(s, s.lastRecord(), "predicted_decrease") <= 1e-4);
        QVERIFY(QString::fromStdString(s.status().message).contains("predicted decrease"));
    }

    // The prox step's own certificate: with s = Aα (α on the planes active at x*) and
    // r = ν(x* − x̂) + s, r must be zero on free coordinates and point into the box where a
    // bound is active — the KKT conditions of min_{x∈X} ν/2‖x − x̂‖² + f_t(x).
    void boxProxSatisfiesKkt() {
        std::mt19937_64 rng(11);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (int trial = 0; trial < 300; ++trial) {
            const int n = 1 + trial % 3;
            const int t = 1 + trial % 17;
            Box box{Eigen::VectorXd::Constant(n, -1.0), Eigen::VectorXd::Constant(n, 1.0)};
            std::vector<CuttingPlane> planes;
            for (int i = 0; i < t; ++i) {
                Eigen::VectorXd point(n), gradient(n);
                for (int j = 0; j < n; ++j) {
                    point(j) = u(rng);
                    gradient(j) = 4.0 * u(rng);
                }
                planes.push_back({point, u(rng), gradient});
                if (trial % 5 == 0 && i > 0) planes.back() = planes.front();  // duplicates
            }
            Eigen::VectorXd center(n);
            for (int j = 0; j < n; ++j)
                center(j) = 1.5 * u(rng);
            center = center.cwiseMax(box.lower).cwiseMin(box.upper);
            const double nu = std::pow(10.0, 2.0 * u(rng));
            const BoxProxResult r = solveBoxProx(planes, center, nu, box, Eigen::VectorXd());
            QVERIFY(box.contains(r.x));
            QVERIFY(std::abs(r.alpha.sum() - 1.0) < 1e-12);
            QVERIFY((r.alpha.array() >= 0).all());
            const double scale = std::max(1.0, std::abs(r.primal));
            QVERIFY2(
                r.primal - r.dual <= 1e-8 * scale,
                qPrintable(QString("trial %1: duality gap %2").arg(trial).arg(r.primal - r.dual)));
            Eigen::VectorXd s = Eigen::VectorXd::Zero(n);
            for (int i = 0; i < t; ++i) {
                const double weight = r.alpha(i);
                if (weight > 1e-9) {
                    QVERIFY(planes[static_cast<std::size_t>(i)].at(r.x) >= r.model - 1e-6 * scale);
                }
                s += weight * planes[static_cast<std::size_t>(i)].gradient;
            }
            const Eigen::VectorXd residual = nu * (r.x - center) + s;
            for (int j = 0; j < n; ++j) {
                const double tol = 1e-6 * std::max(1.0, nu);
                if (r.x(j) > box.lower(j) + 1e-12 && r.x(j) < box.upper(j) - 1e-12) {
                    QVERIFY2(
                        std::abs(residual(j)) <= tol,
                        qPrintable(QString("trial %1: residual %2").arg(trial).arg(residual(j))));
                } else if (r.x(j) <= box.lower(j) + 1e-12) {
                    QVERIFY(residual(j) >= -tol);
                } else {
                    QVERIFY(residual(j) <= tol);
                }
            }
            // 1-D: the objective at x* is the grid minimum's lower envelope.
            if (n == 1) {
                double grid = std::numeric_limits<double>::infinity();
                Eigen::VectorXd x(1);
                for (int k = 0; k <= 200000; ++k) {
                    x(0) = -1.0 + 2.0 * k / 200000;
                    grid = std::min(grid,
                                    0.5 * nu * (x - center).squaredNorm() + modelValue(planes, x));
                }
                QVERIFY(r.primal <= grid + 1e-12 * scale);
                QVERIFY(grid - r.primal <= 1e-4 * scale);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCuttingPlanes)
#include "test_cutting_planes.moc"
