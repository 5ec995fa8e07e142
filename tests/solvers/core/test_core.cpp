// SPDX-License-Identifier: GPL-3.0-or-later
// The solver framework: option parsing and validation, stop rules, traces, the step contract,
// and the worker team the data passes run on.
#include <fcntl.h>
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include "core/events.h"
#include "core/number_text.h"
#include "core/options.h"
#include "core/output_file.h"
#include "core/solver.h"
#include "core/stop_options.h"
#include "core/trace_csv.h"
#include "core/worker_team.h"
#include "test_printers.h"

using namespace cplab;

namespace {

// A solver with a known, scripted gap sequence: gap_t = 2^-t, upper = 1 + gap, lower = 1.
class HalvingSolver final : public Solver {
  public:
    explicit HalvingSolver(StopOptions stop, int failAt = -1) : Solver(stop), failAt_(failAt) {
        IterationRecord initial;
        initial.upper = 2.0;
        initial.lower = 1.0;
        setInitialRecord(initial);
    }
    std::string name() const override { return "halving"; }
    std::vector<std::string> extraColumns() const override { return {"t_squared"}; }
    SnapshotPtr snapshot() const override {
        auto s = std::make_shared<Snapshot>();
        fillSnapshot(*s);
        return s;
    }
    int calls = 0;

  protected:
    Status doStep(IterationRecord& record) override {
        ++calls;
        if (record.iteration == failAt_) {
            return Status::make(StatusCode::NumericalFailure, "scripted failure");
        }
        ++record.oracleCalls;
        // Scripted events: a plane every step, a null step on every third.
        noteEvent(PlaneAdded, "plane " + std::to_string(record.iteration) + " added");
        if (record.iteration % 3 == 0) noteEvent(NullStep, "null step");
        record.upper = 1.0 + std::ldexp(1.0, -record.iteration);
        record.lower = 1.0;
        record.extra = {static_cast<double>(record.iteration * record.iteration)};
        return Status::running();
    }

  private:
    int failAt_;
};

// Evaluates its upper bound only every third step (as eval_every = 3): the steps between
// keep the old U; finishRecord evaluates the final iterate, U_t = 1 + 1/t.
class LazySolver final : public Solver {
  public:
    explicit LazySolver(StopOptions stop) : Solver(stop) {
        IterationRecord initial;
        initial.upper = 2.0;
        initial.lower = 0.0;
        setInitialRecord(initial);
    }
    std::string name() const override { return "lazy"; }
    SnapshotPtr snapshot() const override { return std::make_shared<Snapshot>(); }
    int finishCalls = 0;
    StatusCode finishedAs = StatusCode::Running;
    int evaluatedAt = 0;  // the iterate the upper bound belongs to

  protected:
    Status doStep(IterationRecord& record) override {
        ++t_;
        if (t_ % 3 == 0) evaluate(record);
        return Status::running();
    }
    std::string finishRecord(IterationRecord& record, const Status& status) override {
        ++finishCalls;
        finishedAs = status.code;
        if (evaluatedAt != t_) evaluate(record);
        return "final iterate " + std::to_string(t_) + " evaluated";
    }

  private:
    void evaluate(IterationRecord& record) {
        record.upper = 1.0 + 1.0 / t_;
        evaluatedAt = t_;
    }
    int t_ = 0;
};

// One step is a long "pass" that polls stepInterrupt() per unit of 1 ms and ends the step
// part-way when it says so, as the structured solvers' oracle passes do.
class LongPassSolver final : public Solver {
  public:
    explicit LongPassSolver(StopOptions stop) : Solver(stop) {
        IterationRecord initial;
        initial.upper = 1.0;
        initial.lower = 0.0;
        setInitialRecord(initial);
    }
    std::string name() const override { return "long_pass"; }
    SnapshotPtr snapshot() const override { return std::make_shared<Snapshot>(); }
    int unitsDone = 0;
    std::vector<std::string> reports;

  protected:
    Status doStep(IterationRecord&) override {
        const Interrupt stop = stepInterrupt();
        for (int unit = 0; unit < 100000; ++unit) {
            if (stop.requested()) {
                return Status::make(
                    stop.cancelled() ? StatusCode::Cancelled : StatusCode::TimeLimit,
                    "interrupted");
            }
            stop.report("pass", unit, 100000, "units");
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            ++unitsDone;
        }
        return Status::running();
    }
};

struct DemoOptions {
    StopOptions stop;
    double nu = 1.0;
    int count = 3;
    bool flag = false;
    std::string rule = "fixed";
    void visit(OptionVisitor& v) {
        stop.visit(v);
        v.real("nu", nu, "weight");
        v.integer("count", count, "count");
        v.boolean("flag", flag, "flag");
        v.choice("rule", rule, {"fixed", "adaptive"}, "rule");
    }
};

// Keeps the calling thread busy for `duration` (a part long enough for a helper to claim the
// next one while it runs).
void busyFor(std::chrono::microseconds duration) {
    const auto until = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < until) {
    }
}

}  // namespace

class TestCore : public QObject {
    Q_OBJECT
  private slots:
    void describeListsEveryField() {
        const auto infos = describeOptions<DemoOptions>();
        QCOMPARE(infos.size(), std::size_t(8));
        QCOMPARE(QString::fromStdString(infos[0].name), QString("epsilon"));
        QCOMPARE(QString::fromStdString(infos[0].defaultValue), QString("1e-06"));
        QCOMPARE(QString::fromStdString(infos[4].name), QString("nu"));
        QCOMPARE(infos[7].kind, OptionInfo::Kind::Choice);
        QCOMPARE(infos[7].choices.size(), std::size_t(2));
    }

    void assignParsesEveryKind() {
        DemoOptions o;
        std::string why;
        QVERIFY(assignOptions(o,
                              {{"nu", "2.5e-3"},
                               {"count", "+7"},
                               {"flag", "yes"},
                               {"rule", "adaptive"},
                               {"max_iterations", "12"}},
                              &why));
        QCOMPARE(o.nu, 2.5e-3);
        QCOMPARE(o.count, 7);
        QCOMPARE(o.flag, true);
        QCOMPARE(QString::fromStdString(o.rule), QString("adaptive"));
        QCOMPARE(o.stop.max_iterations, 12);
        const OptionValues printed = optionValues(o);
        QCOMPARE(QString::fromStdString(printed.at("nu")), QString("0.0025"));
        DemoOptions again;
        QVERIFY(assignOptions(again, printed, &why));
        QCOMPARE(again.nu, o.nu);
    }

    void assignRejectsBadText_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("real") << "nu"
                              << "abc"
                              << "option 'nu' = 'abc': expected a real number";
        QTest::newRow("real trailing") << "nu"
                                       << "1.0x"
                                       << "expected a real number";
        QTest::newRow("integer") << "count"
                                 << "2.5"
                                 << "option 'count' = '2.5': expected an integer";
        QTest::newRow("boolean") << "flag"
                                 << "maybe"
                                 << "expected true or false";
        QTest::newRow("choice") << "rule"
                                << "magic"
                                << "expected one of: fixed, adaptive";
        QTest::newRow("unknown") << "lambda"
                                 << "1"
                                 << "unknown option 'lambda'";
    }
    void assignRejectsBadText() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        DemoOptions o;
        std::string why;
        QVERIFY(!assignOptions(o, {{key.toStdString(), value.toStdString()}}, &why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        QCOMPARE(o.nu, 1.0);  // unchanged on failure
    }

    void stopOptionsValidation_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative eps") << "epsilon"
                                      << "-1"
                                      << "StopOptions::epsilon = -1: must be";
        QTest::newRow("nan eps") << "epsilon"
                                 << "nan"
                                 << "StopOptions::epsilon = nan";
        QTest::newRow("inf eps") << "epsilon"
                                 << "inf"
                                 << "StopOptions::epsilon = inf";
        QTest::newRow("negative rel") << "tol_rel"
                                      << "-0.5"
                                      << "tol_rel = -0.5";
        QTest::newRow("rel of one") << "tol_rel"
                                    << "1"
                                    << "tol_rel = 1: must lie in [0, 1)";
        QTest::newRow("zero iterations") << "max_iterations"
                                         << "0"
                                         << "max_iterations = 0: must be > 0";
        QTest::newRow("negative seconds") << "max_seconds"
                                          << "-2"
                                          << "max_seconds = -2";
    }
    void stopOptionsValidation() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        StopOptions stop;
        std::string why;
        QVERIFY(stop.isValid("StopOptions", &why));  // defaults are valid
        QVERIFY(assignOptions(stop, {{key.toStdString(), value.toStdString()}}, &why));
        QVERIFY(!stop.isValid("StopOptions", &why));
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
        HalvingSolver solver(stop);
        QCOMPARE(solver.step().code, StatusCode::InvalidInput);
        QVERIFY(QString::fromStdString(solver.status().message).contains(message));
        QCOMPARE(solver.calls, 0);
        QVERIFY(solver.trace().empty());
    }

    void convergesOnAbsoluteGap() {
        StopOptions stop;
        stop.epsilon = 1e-3;  // 2^-10 < 1e-3 < 2^-9
        HalvingSolver solver(stop);
        QCOMPARE(solve(solver).code, StatusCode::Converged);
        QCOMPARE(solver.iteration(), 10);
        QCOMPARE(solver.trace().size(), std::size_t(10));
        QCOMPARE(solver.lastRecord().gap, std::ldexp(1.0, -10));
        // Once finished, step() does nothing.
        QCOMPARE(solver.step().code, StatusCode::Converged);
        QCOMPARE(solver.calls, 10);
    }

    void convergesOnRelativeGap() {
        StopOptions stop;
        stop.epsilon = 0.0;
        stop.tol_rel = 0.01;  // 2^-t <= 0.01 (1 + 2^-t) first at t = 7
        HalvingSolver solver(stop);
        QCOMPARE(solve(solver).code, StatusCode::Converged);
        QCOMPARE(solver.iteration(), 7);
    }

    void stopsAtIterationLimitWithExactlyKRecords() {
        StopOptions stop;
        stop.epsilon = 0.0;
        stop.max_iterations = 5;
        HalvingSolver solver(stop);
        int seen = 0;
        const Status status = solve(solver, [&](const Solver&, const IterationRecord& r) {
            ++seen;
            QCOMPARE(r.iteration, seen);
        });
        QCOMPARE(status.code, StatusCode::IterationLimit);
        QCOMPARE(seen, 5);
        QCOMPARE(solver.trace().size(), std::size_t(5));
        QVERIFY(QString::fromStdString(status.message).contains("max_iterations = 5"));
    }

    void recordsAreConsistent() {
        StopOptions stop;
        stop.epsilon = 1e-6;
        HalvingSolver solver(stop);
        solve(solver);
        double seconds = 0.0;
        for (const auto& r : solver.trace()) {
            QVERIFY(r.lower <= r.upper);
            QCOMPARE(r.gap, r.upper - r.lower);
            QCOMPARE(r.oracleCalls, static_cast<long long>(r.iteration));
            QVERIFY(r.seconds >= seconds);
            seconds = r.seconds;
        }
    }

    void cancelStopsBeforeTheNextStep() {
        StopOptions stop;
        stop.epsilon = 0.0;
        HalvingSolver solver(stop);
        CancelToken token;
        solver.setCancelToken(token);
        solver.step();
        solver.step();
        token.cancel();
        QCOMPARE(solver.step().code, StatusCode::Cancelled);
        QCOMPARE(solver.calls, 2);
        QCOMPARE(solver.trace().size(), std::size_t(2));
    }

    // Whatever ends the run, finishRecord completes the final record once: the reported U is
    // that of the final iterate, and the limit's message quotes the final gap.
    void finalRecordIsEvaluatedByEveryStopRule_data() {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("code");
        QTest::newRow("max_iterations") << "iterations" << int(StatusCode::IterationLimit);
        QTest::newRow("max_seconds") << "seconds" << int(StatusCode::TimeLimit);
        QTest::newRow("cancel") << "cancel" << int(StatusCode::Cancelled);
        QTest::newRow("epsilon") << "epsilon" << int(StatusCode::Converged);
    }
    void finalRecordIsEvaluatedByEveryStopRule() {
        QFETCH(QString, rule);
        QFETCH(int, code);
        StopOptions stop;
        stop.epsilon = 0.0;
        stop.max_iterations = 4;
        if (rule == "seconds") {
            stop.max_iterations = 1000000;
            stop.max_seconds = 1e-9;  // ends after the first step
        }
        if (rule == "epsilon") stop.epsilon = 1.34;  // U_3 − L = 1.33 at the evaluated step 3
        LazySolver solver(stop);
        CancelToken token;
        solver.setCancelToken(token);
        if (rule == "cancel") {
            solver.step();
            solver.step();
            token.cancel();
        }
        solve(solver);
        QCOMPARE(int(solver.status().code), code);
        QCOMPARE(solver.finishCalls, 1);
        QCOMPARE(int(solver.finishedAs), code);
        const int t = rule == "iterations" ? 4 : rule == "seconds" ? 1 : rule == "cancel" ? 2 : 3;
        QCOMPARE(solver.evaluatedAt, t);
        QCOMPARE(solver.lastRecord().upper, 1.0 + 1.0 / t);
        QCOMPARE(solver.trace().back().upper, 1.0 + 1.0 / t);
        QCOMPARE(solver.lastRecord().gap, 1.0 + 1.0 / t);
        const QString message = QString::fromStdString(solver.status().message);
        QVERIFY2(message.endsWith("final iterate " + QString::number(t) + " evaluated"),
                 qPrintable(message));
        if (rule == "iterations") {
            QVERIFY2(message.contains("with gap " + QString::fromStdString(formatReal(1.25))),
                     qPrintable(message));
        }
    }

    // A step polls stepInterrupt(): the time limit ends it part-way (not after the step), and
    // the progress sink hears from it every two seconds at most.
    void timeLimitEndsALongStep() {
        StopOptions stop;
        stop.max_seconds = 0.05;
        LongPassSolver solver(stop);
        std::vector<std::string> reports;
        solver.setProgressSink([&](const std::string& text) { reports.push_back(text); });
        const auto start = std::chrono::steady_clock::now();
        QCOMPARE(solve(solver).code, StatusCode::TimeLimit);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY2(seconds < 1.0, qPrintable(QString::number(seconds)));
        QVERIFY(solver.unitsDone > 0 && solver.unitsDone < 100000);
        QVERIFY(reports.empty());  // 50 ms: no report due
        QCOMPARE(solver.trace().size(), std::size_t(1));
    }

    void numericalFailureIsReported() {
        HalvingSolver solver(StopOptions{}, 3);
        QCOMPARE(solve(solver).code, StatusCode::NumericalFailure);
        QCOMPARE(QString::fromStdString(solver.status().message), QString("scripted failure"));
        QCOMPARE(solver.trace().size(), std::size_t(3));
    }

    void snapshotCarriesTheLatestRecord() {
        HalvingSolver solver(StopOptions{});
        QCOMPARE(solver.snapshot()->record.iteration, 0);
        QCOMPARE(solver.snapshot()->record.gap, 1.0);
        solver.step();
        solver.step();
        const SnapshotPtr s = solver.snapshot();
        QCOMPARE(s->record.iteration, 2);
        QCOMPARE(s->record.upper, 1.25);
        QCOMPARE(QString::fromStdString(s->solver), QString("halving"));
    }

    void eventsReachTheRecordAndTheSnapshot() {
        HalvingSolver solver(StopOptions{});
        QCOMPARE(solver.lastRecord().events, std::uint32_t(0));
        QVERIFY(solver.snapshot()->events.empty());
        const std::size_t before = solver.snapshot()->bytes();
        for (int t = 1; t <= 4; ++t) {
            solver.step();
            const SnapshotPtr s = solver.snapshot();
            const std::uint32_t expected = t % 3 == 0 ? (PlaneAdded | NullStep) : PlaneAdded;
            QCOMPARE(solver.lastRecord().events, expected);
            QCOMPARE(solver.trace().back().events, expected);
            QCOMPARE(s->record.events, expected);
            // Only this step's texts, in the order noted.
            std::vector<std::string> texts = {"plane " + std::to_string(t) + " added"};
            if (t % 3 == 0) texts.emplace_back("null step");
            QCOMPARE(s->events, texts);
            QVERIFY(s->bytes() > before);
        }
        QCOMPARE(solver.trace()[0].events, std::uint32_t(PlaneAdded));
        QCOMPARE(solver.trace()[2].events, std::uint32_t(PlaneAdded | NullStep));
    }

    void eventNamesFollowTheMask() {
        QCOMPARE(eventNames(0), std::vector<std::string>{});
        QCOMPARE(eventNames(NullStep | PlaneAdded),
                 (std::vector<std::string>{"null step", "plane added"}));
        QCOMPARE(eventNames(SeriousStep | PlanesDropped | ClusterAdded),
                 (std::vector<std::string>{"serious step", "planes dropped", "cluster added"}));
        // Every event has a distinct name, and bits beyond the events name nothing.
        std::set<std::string> names;
        std::uint32_t all = 0;
        for (const Event event : kAllEvents) {
            QVERIFY(std::string(eventName(event)).size() > 0);
            names.insert(eventName(event));
            QVERIFY((all & event) == 0);
            all |= event;
        }
        QCOMPARE(names.size(), std::size(kAllEvents));
        QCOMPARE(eventNames(~all), std::vector<std::string>{});
        QCOMPARE(eventNames(0xffffffffu).size(), std::size(kAllEvents));
    }

    void activeSetEventsNameTheMembers() {
        const std::vector<std::string> labels = {"a", "b", "c", "d", "e"};
        StepEvents e =
            activeSetEvents({true, false, false, true, false}, {true, true, false, false, false},
                            {0.5, 0.25, 0, 0, 0}, labels, "kernel", "beta");
        QCOMPARE(e.mask, std::uint32_t(KernelEntered | KernelLeft));
        QCOMPARE(e.texts, (std::vector<std::string>{"kernel b entered the active set (beta 0.25)",
                                                    "kernel d left the active set (beta 0)"}));
        e = activeSetEvents(std::vector<bool>(5, false), std::vector<bool>(5, true),
                            std::vector<double>(5, 0.2), labels, "group", "beta");
        QCOMPARE(e.mask, std::uint32_t(KernelEntered));
        QCOMPARE(e.texts,
                 std::vector<std::string>{"5 groups entered the active set: a, b, c, ..."});
        e = activeSetEvents({true}, {true}, {1.0}, {"a"}, "kernel", "beta");
        QCOMPARE(e.mask, std::uint32_t(0));
        QVERIFY(e.texts.empty());
    }

    void formatShortKeepsFourDigits() {
        QCOMPARE(formatShort(0.531234), std::string("0.5312"));
        QCOMPARE(formatShort(-12.3456), std::string("-12.35"));
        QCOMPARE(formatShort(1234567.0), std::string("1.235e+06"));
        QCOMPARE(formatShort(2.0), std::string("2"));
        QCOMPARE(formatShort(0.1, 2), std::string("0.1"));
        QCOMPARE(formatShort(-std::numeric_limits<double>::infinity()), std::string("-inf"));
    }

    void traceCsvRoundTrip() {
        StopOptions stop;
        stop.epsilon = 0.1;
        HalvingSolver solver(stop);
        solve(solver);
        std::ostringstream out;
        writeTraceCsv(out, solver.trace(), solver.extraColumns());
        std::istringstream in(out.str());
        std::string line;
        std::getline(in, line);
        QCOMPARE(QString::fromStdString(line),
                 QString("iteration,seconds,oracle_calls,upper,lower,gap,rel_gap,t_squared"));
        int rows = 0;
        while (std::getline(in, line)) {
            ++rows;
            const QStringList cells = QString::fromStdString(line).split(',');
            QCOMPARE(cells.size(), 8);
            const IterationRecord& r = solver.trace()[static_cast<std::size_t>(rows - 1)];
            QCOMPARE(cells[0].toInt(), r.iteration);
            QCOMPARE(cells[3].toDouble(), r.upper);  // exact round trip
            QCOMPARE(cells[6].toDouble(), r.relGap());
            QCOMPARE(cells[7].toDouble(), static_cast<double>(r.iteration * r.iteration));
        }
        QCOMPARE(rows, 4);
        std::string why;
        QVERIFY(!writeTraceCsv("/nonexistent-dir-cplab/trace.csv", solver.trace(), {}, &why));
        QVERIFY(QString::fromStdString(why).contains("/nonexistent-dir-cplab/trace.csv"));
    }

    void formatRealRoundTrips() {
        for (double v : {0.1, 1.0 / 3.0, 1e-300, 123456789.0, -2.5e-7, 0.0}) {
            QCOMPARE(std::strtod(formatReal(v).c_str(), nullptr), v);
        }
        QCOMPARE(QString::fromStdString(formatReal(0.1)), QString("0.1"));
        QCOMPARE(QString::fromStdString(formatReal(INFINITY)), QString("inf"));
        // Integers plainly where that is no longer than %g's text.
        QCOMPARE(QString::fromStdString(formatReal(420.0)), QString("420"));
        QCOMPARE(QString::fromStdString(formatReal(-1200.0)), QString("-1200"));
        QCOMPARE(QString::fromStdString(formatReal(1e6)), QString("1e+06"));
        QCOMPARE(QString::fromStdString(formatReal(-0.0)), QString("-0"));
    }

    // Every part runs exactly once, on the calling thread or a helper (parts are claimed, not
    // assigned), also when there are more parts than threads; blocks tile [0, n).
    void workerTeamRunsEveryPartOnce() {
        WorkerTeam team(3);
        QCOMPARE(team.size(), 3);
        const std::thread::id caller = std::this_thread::get_id();
        bool helped = false;
        for (int workers : {1, 2, 3, 5, 16}) {
            for (int round = 0; round < 200; ++round) {
                std::vector<std::atomic<int>> calls(static_cast<std::size_t>(workers));
                std::vector<std::thread::id> where(static_cast<std::size_t>(workers));
                team.run(workers, [&](int t) {
                    busyFor(std::chrono::microseconds(5));
                    calls[static_cast<std::size_t>(t)].fetch_add(1);
                    where[static_cast<std::size_t>(t)] = std::this_thread::get_id();
                });
                for (int t = 0; t < workers; ++t)
                    QCOMPARE(calls[static_cast<std::size_t>(t)].load(), 1);
                if (workers == 1) QVERIFY(where[0] == caller);
                helped = helped || std::any_of(where.begin(), where.end(),
                                               [&](std::thread::id id) { return id != caller; });
            }
        }
        // The helpers do take parts (on a loaded machine, perhaps only after a while).
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!helped && std::chrono::steady_clock::now() < until) {
            std::atomic<bool> other{false};
            team.run(3, [&](int) {
                busyFor(std::chrono::microseconds(50));
                if (std::this_thread::get_id() != caller) other.store(true);
            });
            helped = other.load();
        }
        QVERIFY(helped);
        for (int n : {0, 1, 7, 1000}) {
            for (int blocks : {1, 2, 3, 4}) {
                std::vector<int> covered(static_cast<std::size_t>(n), 0);
                runBlocks(&team, n, blocks, [&](int, int begin, int end) {
                    for (int i = begin; i < end; ++i)
                        ++covered[static_cast<std::size_t>(i)];
                });
                QVERIFY(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
            }
        }
        QCOMPARE(team.partsFor(0, 100), 1);
        QCOMPARE(team.partsFor(250, 100), 2);
        QCOMPARE(team.partsFor(1000000, 100), 3);
        QCOMPARE(WorkerTeam(1).size(), 1);
    }

    // Several threads share one team: a call that finds it busy runs its parts itself, so
    // every sum is right and nothing deadlocks; an idle team (helpers asleep) wakes up.
    void workerTeamIsSharedSafely() {
        WorkerTeam team(2);
        std::vector<double> data(10000);
        std::iota(data.begin(), data.end(), 1.0);
        const double expected = 10000.0 * 10001.0 / 2.0;
        std::atomic<int> wrong{0};
        const auto user = [&] {
            for (int round = 0; round < 300; ++round) {
                double partial[2] = {0.0, 0.0};
                runBlocks(&team, static_cast<int>(data.size()), 2, [&](int t, int begin, int end) {
                    partial[t] = std::accumulate(data.begin() + begin, data.begin() + end, 0.0);
                });
                if (partial[0] + partial[1] != expected) wrong.fetch_add(1);
            }
        };
        std::vector<std::thread> users;
        for (int u = 0; u < 4; ++u)
            users.emplace_back(user);
        for (std::thread& u : users)
            u.join();
        QCOMPARE(wrong.load(), 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // helpers fall asleep
        std::atomic<int> ran{0};
        team.run(2, [&](int) { ran.fetch_add(1); });
        QCOMPARE(ran.load(), 2);
    }

    // A helper held up in the middle of its part (here it sleeps, as a descheduled thread
    // would) makes the caller wait longer than the part saved: the team then runs the next
    // passes on the calling thread alone, with the same parts, and goes back to its helpers
    // once the spell is over.
    void workerTeamRunsAloneAfterAStall() {
        WorkerTeam team(2);
        const std::thread::id caller = std::this_thread::get_id();
        const auto stall = [&] {
            std::atomic<bool> held{false};
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!held.load() && std::chrono::steady_clock::now() < until) {
                team.run(2, [&](int) {
                    if (std::this_thread::get_id() == caller)
                        return busyFor(std::chrono::microseconds(50));
                    held.store(true);
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                });
            }
            return held.load();
        };
        // The next job, microseconds later, runs alone (tried again should this thread itself
        // have been held up past the spell).
        bool alone = false;
        for (int attempt = 0; attempt < 20 && !alone; ++attempt) {
            QVERIFY(stall());
            const long long before = team.soloJobs();
            std::vector<std::thread::id> where(4);
            team.run(
                4, [&](int t) { where[static_cast<std::size_t>(t)] = std::this_thread::get_id(); });
            alone = team.soloJobs() == before + 1;
            if (alone) {
                QVERIFY(
                    std::all_of(where.begin(), where.end(), [&](auto id) { return id == caller; }));
            }
        }
        QVERIFY(alone);
        // Once the spell is over the helper takes parts again (on a loaded machine further
        // stalls may start further spells, hence the patience).
        std::this_thread::sleep_for(WorkerTeam::kSoloMax + std::chrono::milliseconds(10));
        std::atomic<bool> helped{false};
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!helped.load() && std::chrono::steady_clock::now() < until) {
            team.run(2, [&](int) {
                busyFor(std::chrono::microseconds(50));
                if (std::this_thread::get_id() != caller) helped.store(true);
            });
        }
        QVERIFY(helped.load());
    }

    void aDeletedInputsInodeIsNotAnInput() {
        // A file read as an input is refused as an output, also moved; a new file that the file
        // system puts on the inode of a deleted input is not that input (where the file system
        // keeps birth times, as ext4, xfs, btrfs and tmpfs do).
        QTemporaryDir dir;
        const std::string input = dir.filePath("input.svm").toStdString();
        const std::string moved = dir.filePath("moved.svm").toStdString();
        const auto create = [](const std::string& path) {
            std::FILE* f = std::fopen(path.c_str(), "w");
            const bool ok = f && std::fputs("1 1:1\n", f) >= 0;
            return f && std::fclose(f) == 0 && ok;
        };
        QVERIFY(create(input));
        struct statx born {};
        if (::statx(AT_FDCWD, input.c_str(), 0, STATX_BTIME, &born) != 0 ||
            !(born.stx_mask & STATX_BTIME))
            QSKIP("the file system keeps no birth times");
        InputFileScope scope;
        noteInputFile(input);
        QVERIFY(outputProblem(input).has_value());
        QVERIFY(std::rename(input.c_str(), moved.c_str()) == 0);
        QCOMPARE(notedInputSameAs(moved).value_or(""), input);
        QVERIFY(outputProblem(moved).has_value());

        struct stat old {};
        QVERIFY(::stat(moved.c_str(), &old) == 0);
        QVERIFY(std::remove(moved.c_str()) == 0);
        // Files are created until one lands on the freed inode (most file systems reuse it at
        // once); none may be taken for the input.
        std::string reused;
        for (int k = 0; k < 64 && reused.empty(); ++k) {
            const std::string path = dir.filePath(QString("new%1.png").arg(k)).toStdString();
            QVERIFY(create(path));
            struct stat info {};
            QVERIFY(::stat(path.c_str(), &info) == 0);
            if (info.st_ino == old.st_ino && info.st_dev == old.st_dev) reused = path;
            QVERIFY2(!notedInputSameAs(path), path.c_str());
        }
        if (reused.empty()) QSKIP("the file system did not reuse the deleted input's inode");
        QVERIFY(!outputProblem(reused).has_value());
    }
};

QTEST_GUILESS_MAIN(TestCore)
#include "test_core.moc"
