// SPDX-License-Identifier: GPL-3.0-or-later
// The core contract the coming families rely on: a status "stalled", path-parametrised runs
// that the gap rules do not end, passes over the data, the one gap rule (epsilon, tol_rel)
// answered by the solver, exceptions that end a run instead of escaping, text and 64-bit seed
// options, and the one number formatter and parser.
#include <QtTest>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/number_text.h"
#include "core/options.h"
#include "core/solver.h"
#include "core/trace_csv.h"
#include "test_printers.h"

using namespace cplab;

namespace {

// Maximises a concave function by a scripted sequence on its own scale: the best value found
// (lower) rises as 10 − 2^-t, the dual bound (upper) falls as 10 + 2^-t; at t = `stallAt` no
// further progress is possible and the gap stays open, as when no violated cycle is left.
class ScriptedMaximiser final : public Solver {
  public:
    ScriptedMaximiser(StopOptions stop, int stallAt) : Solver(stop), stallAt_(stallAt) {
        IterationRecord initial;
        initial.upper = 12.0;
        initial.lower = 8.0;
        setInitialRecord(initial);
    }
    std::string name() const override { return "scripted_max"; }
    SnapshotPtr snapshot() const override {
        auto s = std::make_shared<Snapshot>();
        fillSnapshot(*s);
        return s;
    }

  protected:
    Status doStep(IterationRecord& record) override {
        ++record.oracleCalls;
        // Each step reads the data four times (an online method's passes are its own count).
        record.passes = 4.0 * record.iteration;
        const int t = std::min(record.iteration, stallAt_);
        record.upper = 10.0 + std::ldexp(1.0, -t);
        record.lower = 10.0 - std::ldexp(1.0, -t);
        if (record.iteration >= stallAt_) {
            return Status::make(StatusCode::Stalled, "no violated cycle left");
        }
        return Status::running();
    }

  private:
    int stallAt_;
};

// Follows a path λ = 2^-t; every point is exact (gap 0), and the run goes on until its
// iteration limit.
class ScriptedPath final : public Solver {
  public:
    explicit ScriptedPath(StopOptions stop) : Solver(stop) {
        IterationRecord initial;
        initial.upper = 1.0;
        initial.lower = 1.0;
        initial.pathParameter = 1.0;
        setInitialRecord(initial);
    }
    std::string name() const override { return "scripted_path"; }
    bool followsPath() const override { return true; }
    SnapshotPtr snapshot() const override {
        auto s = std::make_shared<Snapshot>();
        fillSnapshot(*s);
        return s;
    }

  protected:
    Status doStep(IterationRecord& record) override {
        ++record.oracleCalls;
        record.pathParameter = std::ldexp(1.0, -record.iteration);
        record.upper = record.lower = 1.0 + record.pathParameter;
        return Status::running();
    }
};

// Throws in its third iteration.
class ThrowingSolver final : public Solver {
  public:
    ThrowingSolver() : Solver(StopOptions{.epsilon = 0.0}) {}
    std::string name() const override { return "throwing"; }
    SnapshotPtr snapshot() const override { return nullptr; }

  protected:
    Status doStep(IterationRecord& record) override {
        if (record.iteration == 3) throw std::runtime_error("non-finite H column");
        ++record.oracleCalls;
        record.upper = 1.0;
        record.lower = 0.0;
        return Status::running();
    }
};

struct KernelOptions {
    std::string kernels = "gaussian:0.1,1,10;poly:2";  // free text the owner validates
    std::int64_t seed = 1;
    void visit(OptionVisitor& v) {
        v.text("kernels", kernels, "kernel list");
        v.seed("seed", seed, "seed");
    }
    bool isValid(std::string* why) const {
        return requireText(!kernels.empty() && kernels.find(' ') == std::string::npos,
                           "KernelOptions", "kernels", kernels,
                           "expected a list such as linear;poly:2", why) &&
               require(seed >= 0, "KernelOptions", "seed", static_cast<double>(seed),
                       "must be >= 0", why);
    }
};

// The reference the formatter must equal: the shortest "%.{p}g" that reads back.
std::string shortestG(double value) {
    char buffer[64];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value) break;
    }
    return buffer;
}

}  // namespace

class TestContract : public QObject {
    Q_OBJECT
  private slots:
    void stalledIsAFinishedUsableStatus() {
        QCOMPARE(QString(statusName(StatusCode::Stalled)), QString("stalled"));
        const Status s = Status::make(StatusCode::Stalled, "no violated cycle left");
        QVERIFY(s.finished());
        QVERIFY(s.usable());
    }

    // A maximisation keeps its bounds on its own scale: upper is the dual bound, lower the best
    // value; the gap is upper − lower ≥ 0, and a stall ends the run with its message.
    void maximisationStallsWithTheGapOpen() {
        ScriptedMaximiser solver(StopOptions{.epsilon = 1e-9}, 5);
        const Status status = solve(solver);
        QCOMPARE(status.code, StatusCode::Stalled);
        QCOMPARE(status.message, std::string("no violated cycle left"));
        QCOMPARE(solver.iteration(), 5);
        double lower = -1e300;
        for (const auto& r : solver.trace()) {
            QVERIFY(r.upper >= r.lower);
            QCOMPARE(r.gap, r.upper - r.lower);
            QVERIFY(r.lower >= lower);  // the best value found never falls
            lower = r.lower;
        }
        QCOMPARE(solver.lastRecord().gap, 2.0 * std::ldexp(1.0, -5));
        QVERIFY(solver.lastRecord().gap > solver.gapTolerance());
    }

    void passesAreTheSolversOwnOrOracleCalls() {
        ScriptedMaximiser online(StopOptions{}, 3);
        solve(online);
        QCOMPARE(online.trace()[1].passes, 8.0);
        // A solver that does not count passes gets one per oracle call.
        ThrowingSolver batch;
        batch.step();
        batch.step();
        QCOMPARE(batch.trace()[1].passes, static_cast<double>(batch.trace()[1].oracleCalls));
        // The trace CSV has a passes column only when they differ from the oracle calls.
        std::ostringstream withPasses, without;
        writeTraceCsv(withPasses, online.trace(), {});
        writeTraceCsv(without, batch.trace(), {});
        QVERIFY(withPasses.str().rfind("iteration,seconds,oracle_calls,upper,lower,gap,rel_gap,"
                                       "passes\n",
                                       0) == 0);
        QVERIFY(without.str().rfind("iteration,seconds,oracle_calls,upper,lower,gap,rel_gap\n",
                                    0) == 0);
    }

    // An exact point on the path (gap 0) does not end the run; the iteration limit does.
    void pathRunsAreNotEndedByTheGap() {
        ScriptedPath solver(StopOptions{.epsilon = 1e-6, .tol_rel = 0.1, .max_iterations = 7});
        const Status status = solve(solver);
        QCOMPARE(status.code, StatusCode::IterationLimit);
        QCOMPARE(solver.iteration(), 7);
        for (const auto& r : solver.trace()) {
            QVERIFY(r.hasPathParameter());
            QCOMPARE(r.pathParameter, std::ldexp(1.0, -r.iteration));
            QCOMPARE(r.gap, 0.0);
        }
        std::ostringstream csv;
        writeTraceCsv(csv, solver.trace(), {});
        const std::string text = csv.str();
        QVERIFY(text.rfind("iteration,seconds,oracle_calls,upper,lower,gap,rel_gap,"
                           "path_parameter\n",
                           0) == 0);
        QVERIFY(text.find(",0.0078125\n") != std::string::npos);  // λ = 2^-7 in the last row
        const auto columns = traceColumns({"x"}, TraceLayout::of(solver.trace()));
        QCOMPARE(columns.back(), std::string("x"));
        QCOMPARE(columns[columns.size() - 2], std::string("path_parameter"));
    }

    // One rule: U − L ≤ epsilon, or U − L ≤ tol_rel·|U|; the solver answers the gap it needs.
    void gapToleranceIsTheOneRule_data() {
        QTest::addColumn<double>("epsilon");
        QTest::addColumn<double>("tolRel");
        QTest::addColumn<double>("upper");
        QTest::addColumn<double>("expected");
        QTest::newRow("absolute only") << 1e-6 << 0.0 << 50.0 << 1e-6;
        QTest::newRow("relative wins") << 1e-6 << 1e-3 << 50.0 << 0.05;
        QTest::newRow("absolute wins") << 1.0 << 1e-3 << 50.0 << 1.0;
        QTest::newRow("negative upper") << 0.0 << 1e-2 << -300.0 << 3.0;
        QTest::newRow("no upper yet")
            << 1e-4 << 0.5 << std::numeric_limits<double>::infinity() << 1e-4;
    }
    void gapToleranceIsTheOneRule() {
        QFETCH(double, epsilon);
        QFETCH(double, tolRel);
        QFETCH(double, upper);
        QFETCH(double, expected);
        const StopOptions stop{.epsilon = epsilon, .tol_rel = tolRel};
        QCOMPARE(stop.gapTolerance(upper), expected);
        if (std::isfinite(upper)) {
            QVERIFY(stop.gapReached(expected, upper));
            QVERIFY(!stop.gapReached(std::nextafter(expected, 1e300), upper));
        }
    }

    // The relative rule ends a run with its own message; Solver::gapTolerance follows U.
    void relativeRuleEndsTheRun() {
        ScriptedMaximiser solver(StopOptions{.epsilon = 0.0, .tol_rel = 0.01}, 100);
        const Status status = solve(solver);
        // 2·2^-t ≤ 0.01 (10 + 2^-t) ⇔ 2^-t ≤ 0.1/1.99 ≈ 0.0503: first at t = 5.
        QCOMPARE(status.code, StatusCode::Converged);
        QCOMPARE(solver.iteration(), 5);
        QVERIFY(QString::fromStdString(status.message).contains("tol_rel"));
        QCOMPARE(solver.gapTolerance(), 0.01 * solver.lastRecord().upper);
    }

    void exceptionsEndTheRunWithTheirMessage() {
        ThrowingSolver solver;
        const Status status = solve(solver);
        QCOMPARE(status.code, StatusCode::NumericalFailure);
        QCOMPARE(status.message, std::string("non-finite H column"));
        QCOMPARE(solver.trace().size(), std::size_t(3));
        QCOMPARE(solver.step().code, StatusCode::NumericalFailure);
    }

    void textAndSeedOptions() {
        const auto infos = describeOptions<KernelOptions>();
        QCOMPARE(infos.size(), std::size_t(2));
        QCOMPARE(infos[0].kind, OptionInfo::Kind::Text);
        QCOMPARE(QString(toString(infos[0].kind)), QString("text"));
        QCOMPARE(infos[0].defaultValue, std::string("gaussian:0.1,1,10;poly:2"));
        QCOMPARE(infos[1].kind, OptionInfo::Kind::Seed);
        QCOMPARE(QString(toString(infos[1].kind)), QString("seed"));

        KernelOptions o;
        std::string why;
        QVERIFY(
            assignOptions(o, {{"kernels", "linear;poly:2,1"}, {"seed", "9007199254740993"}}, &why));
        QCOMPARE(o.kernels, std::string("linear;poly:2,1"));
        QCOMPARE(o.seed, std::int64_t(9007199254740993));  // 2^53 + 1: no trip through double
        QCOMPARE(optionValues(o).at("seed"), std::string("9007199254740993"));
        QVERIFY(o.isValid(&why));

        QVERIFY(!assignOptions(o, {{"seed", "1.5"}}, &why));
        QCOMPARE(why, std::string("option 'seed' = '1.5': expected a 64-bit integer"));
        QVERIFY(!assignOptions(o, {{"seed", "99999999999999999999"}}, &why));
        QVERIFY(assignOptions(o, {{"seed", "-4"}}, &why));
        QVERIFY(!o.isValid(&why));
        QCOMPARE(why, std::string("KernelOptions::seed = -4: must be >= 0"));
        QVERIFY(assignOptions(o, {{"seed", "4"}, {"kernels", "gaussian: 1"}}, &why));
        QVERIFY(!o.isValid(&why));
        QVERIFY2(QString::fromStdString(why).startsWith(
                     "KernelOptions::kernels = 'gaussian: 1': expected a list"),
                 why.c_str());
    }

    void formatRealIsTheShortestG() {
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
        std::uniform_int_distribution<int> exponent(-30, 30);
        for (int k = 0; k < 20000; ++k) {
            const double x = std::ldexp(mantissa(random), exponent(random));
            QCOMPARE(formatReal(x), shortestG(x));
        }
        for (double x : {0.0, -0.0, 0.1, 1e-6, 1e-4, 100000.0, 123456789.0, 1e300, 5e-324,
                         std::numeric_limits<double>::max()})
            QCOMPARE(formatReal(x), shortestG(x));
        QCOMPARE(formatReal(std::numeric_limits<double>::infinity()), std::string("inf"));
        QCOMPARE(formatReal(std::nan("")), std::string("nan"));
    }

    void parseRealIsStrict() {
        double v = 0.0;
        QCOMPARE(parseReal("+1", v), NumberError::None);
        QCOMPARE(v, 1.0);
        QCOMPARE(parseReal("-2.5e-3", v), NumberError::None);
        QCOMPARE(v, -2.5e-3);
        QCOMPARE(parseReal("", v), NumberError::Empty);
        QCOMPARE(parseReal(" 1", v), NumberError::NotANumber);
        QCOMPARE(parseReal("1x", v), NumberError::NotANumber);
        QCOMPARE(parseReal("++1", v), NumberError::NotANumber);
        QCOMPARE(parseReal("1e999", v), NumberError::OutOfRange);
        QCOMPARE(parseReal("inf", v), NumberError::NotFinite);
        QCOMPARE(parseReal("nan", v), NumberError::NotFinite);
        QCOMPARE(parseReal("inf", v, true), NumberError::None);
        QVERIFY(std::isinf(v));
        QCOMPARE(joined({"a", "b", "c"}), std::string("a, b, c"));
        QCOMPARE(joined({"a", "b"}, ";"), std::string("a;b"));
        QCOMPARE(joined({}), std::string());
    }
};

QTEST_GUILESS_MAIN(TestContract)
#include "test_contract.moc"
