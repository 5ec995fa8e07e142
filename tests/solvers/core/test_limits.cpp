// SPDX-License-Identifier: GPL-3.0-or-later
// Limits stated in messages: integer options beyond their field's type are refused with the
// option's range (not "expected an integer"), and memory that grows with a product of input
// sizes is refused with the sizes and the memory available (memory_budget.h).
#include <QtTest>

#include "core/memory_budget.h"
#include "core/options.h"
#include "core/solver.h"
#include "core/stop_options.h"

using namespace cplab;

namespace {

// Options with the shapes of real ones: a bounded int, an int with no upper bound, a seed.
struct RangeOptions {
    int threads = 0;            // [0, 256]
    int max_iterations = 1000;  // >= 1
    std::int64_t seed = 1;      // >= 0
    void visit(OptionVisitor& v) {
        v.integer("threads", threads, "threads, 0 to 256");
        v.integer("max_iterations", max_iterations, "iteration budget, >= 1");
        v.seed("seed", seed, "seed, >= 0");
    }
    bool isValid(std::string* why) const {
        return require(threads >= 0 && threads <= 256, "RangeOptions", "threads", threads,
                       "must lie in [0, 256]", why) &&
               require(max_iterations >= 1, "RangeOptions", "max_iterations", max_iterations,
                       "must be >= 1", why) &&
               require(seed >= 0, "RangeOptions", "seed", static_cast<double>(seed), "must be >= 0",
                       why);
    }
};

// Without isValid: only the type's range can be named.
struct BareOptions {
    int count = 3;
    void visit(OptionVisitor& v) { v.integer("count", count, "a count"); }
};

// A solver whose first step fails to allocate: by an estimate (MemoryLimitError) or anyway.
class AllocatingSolver final : public Solver {
  public:
    explicit AllocatingSolver(bool estimated) : Solver(StopOptions{}), estimated_(estimated) {
        IterationRecord initial;
        initial.upper = 1.0;
        initial.lower = 0.0;
        setInitialRecord(initial);
    }
    std::string name() const override { return "allocating"; }
    SnapshotPtr snapshot() const override { return std::make_shared<Snapshot>(); }

  protected:
    Status doStep(IterationRecord&) override {
        if (estimated_) requireMemory(1e30, "a huge table", "AllocatingSolver: ");
        throw std::bad_alloc();
    }

  private:
    bool estimated_;
};

}  // namespace

class TestLimits : public QObject {
    Q_OBJECT

  private slots:
    void integerBeyondTypeNamesRange_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        // The owner's own requirement for the nearest value.
        QTest::newRow("threads 2^31") << "threads"
                                      << "2147483648"
                                      << "option 'threads' = '2147483648': must lie in [0, 256]";
        QTest::newRow("threads -2^31-1")
            << "threads"
            << "-2147483649"
            << "option 'threads' = '-2147483649': must lie in [0, 256]";
        // The nearest value passes: the range reaches the type's end, its other end bisected.
        QTest::newRow("max_iterations 2^63-1")
            << "max_iterations"
            << "9223372036854775807"
            << "option 'max_iterations' = '9223372036854775807': must be an integer in [1, "
               "2147483647]";
        QTest::newRow("seed 2^63") << "seed"
                                   << "9223372036854775808"
                                   << "option 'seed' = '9223372036854775808': must be an "
                                      "integer in [0, 9223372036854775807]";
        QTest::newRow("seed huge") << "seed"
                                   << "+123456789012345678901234567890"
                                   << "option 'seed' = '+123456789012345678901234567890': must "
                                      "be an integer in [0, 9223372036854775807]";
    }
    void integerBeyondTypeNamesRange() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        RangeOptions o;
        o.threads = 7;
        std::string why;
        QVERIFY(!assignOptions(o, {{key.toStdString(), value.toStdString()}}, &why));
        QCOMPARE(QString::fromStdString(why), message);
        QCOMPARE(o.threads, 7);  // unchanged on failure
    }

    void integerBeyondTypeWithoutCheck() {
        BareOptions o;
        std::string why;
        QVERIFY(!assignOptions(o, {{"count", "99999999999"}}, &why));
        QCOMPARE(QString::fromStdString(why),
                 QString("option 'count' = '99999999999': must be an integer in [-2147483648, "
                         "2147483647]"));
    }

    void realStopOptionsRange() {
        // StopOptions: max_iterations accepts every int from its lower bound up.
        StopOptions stop;
        std::string why;
        QVERIFY(!assignOptions(stop, {{"max_iterations", "9223372036854775807"}}, &why));
        QVERIFY2(QString::fromStdString(why).contains("2147483647]"), why.c_str());
        QVERIFY2(!QString::fromStdString(why).contains("expected an integer"), why.c_str());
    }

    void notAnIntegerStillSaysSo() {
        RangeOptions o;
        std::string why;
        for (const char* text : {"2.5", "1e3", "", "+-3", "12x"}) {
            QVERIFY2(!assignOptions(o, {{"threads", text}}, &why), text);
            QVERIFY2(QString::fromStdString(why).contains("expected an integer"), why.c_str());
        }
        QVERIFY(assignOptions(o, {{"threads", "+12"}}, &why));
        QCOMPARE(o.threads, 12);
        QVERIFY(assignOptions(o, {{"seed", "9223372036854775807"}}, &why));
        QCOMPARE(o.seed, std::int64_t(9223372036854775807LL));
    }

    void longTextValuesAreAbbreviated() {
        std::string list;
        for (int i = 1; i <= 10000; ++i)
            list += (i > 1 ? "," : "gaussian:") + std::to_string(i);
        std::string why;
        QVERIFY(!requireText(false, "Owner", "kernels", list, "too many", &why));
        QVERIFY2(why.size() < 300, why.c_str());
        QVERIFY(QString::fromStdString(why).contains(
            QString("(%1 characters): too many").arg(list.size())));
    }

    void byteAndSizeTexts() {
        QCOMPARE(QString::fromStdString(byteText(3.2e9)), QString("3 GB"));
        QCOMPARE(QString::fromStdString(byteText(3.5 * 1024 * 1024 * 1024)), QString("3.5 GB"));
        QCOMPARE(QString::fromStdString(byteText(512)), QString("512 B"));
        QCOMPARE(QString::fromStdString(byteText(150 * 1024)), QString("150 KB"));
        QCOMPARE(QString::fromStdString(sizeProduct({{20000, "examples"}, {20000, "classes"}})),
                 QString("20,000 examples x 20,000 classes"));
        QCOMPARE(QString::fromStdString(sizeProduct({{1234567, "tokens"}, {3, ""}})),
                 QString("1,234,567 tokens x 3"));
    }

    void memoryLimitsInAStepAreInvalidInput() {
        // Never "numerical failure" (exit status 2) for what is a memory limit.
        AllocatingSolver estimated(true);
        estimated.step();
        QCOMPARE(estimated.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(estimated.status().message)
                     .startsWith("AllocatingSolver: needs "),
                 estimated.status().message.c_str());
        AllocatingSolver failed(false);
        failed.step();
        QCOMPARE(failed.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(failed.status().message).startsWith("out of memory"),
                 failed.status().message.c_str());
    }

    void shortfallAgainstBudget() {
        setMemoryBudget(1024 * 1024 * 1024);  // 1 GB
        QCOMPARE(QString::fromStdString(memoryShortfall(1e9, "fits")), QString());
        const double bytes = 8.0 * 20000 * 20000;  // 3.2e9 = 2.98 GB
        const std::string why =
            memoryShortfall(bytes, sizeProduct({{20000, "examples"}, {20000, "classes"}}));
        QCOMPARE(QString::fromStdString(why),
                 QString("needs 3 GB: 20,000 examples x 20,000 classes; about 1 GB available"));
        QVERIFY_THROWS_EXCEPTION(MemoryLimitError, requireMemory(bytes, "x", "prefix: "));
        try {
            requireMemory(bytes, "x", "prefix: ");
        } catch (const MemoryLimitError& e) {
            QVERIFY(QString(e.what()).startsWith("prefix: needs 3 GB: x; about 1 GB"));
        }
        setMemoryBudget(0);
        // MemAvailable of this machine: something, and far below 1 EB.
        QVERIFY(memoryBudget() > 0);
        QVERIFY(!memoryShortfall(1e18, "an exabyte").empty());
    }
};

QTEST_APPLESS_MAIN(TestLimits)
#include "test_limits.moc"
