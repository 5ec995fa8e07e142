// SPDX-License-Identifier: GPL-3.0-or-later
// max_seconds holds in total (issue #47: `mplp --set sweeps_per_step=1000 --set
// max_seconds=3` ran 41 s; `ssg` with max_seconds=5 on 3,000 labels 33-38 s; online MKL 37 s):
// every solver that can run long is run by the real cplab-cli on a problem generated here, large
// enough that without the limit it would run far longer (max_iterations = 10^6, epsilon = 0,
// tol_rel = 0: bmrm met the default tol_rel in under 1 s on a fast machine),
// with max_seconds = 1. Each run must end with the time-limit status (exit 0), before its
// iteration cap, and report (its JSON `seconds`, the solver's own clock, set-up included) at
// most the limit plus max(1 s, its longest iteration after the first in the trace) plus 0.5 s
// of slack; a step of 1,000 sweeps must be cut short (fewer than 1,000 sweeps).
// simplemkl and mklpath poll the limit inside SMO and between SVM calls, and between Newton
// steps and the blocks of their Cholesky factorisations, set-up included (they overran a 2 s
// limit by 9 s and 56 s on 4,000 examples).
// The sparse machines poll it in their set-ups (the full SVM, slmc's first inner SVM) on 20,000
// examples, one-vs-rest too (its machines share the limit).
// Left out: kelley, bundle and frank_wolfe (their problems are built-in 1-D and 2-D functions,
// solved in milliseconds); ocas, libocas, svm, libsvm, rsvm and mrsvm (they converge in under a
// second on these data); dlib_reduced2 without a full SVM (dlib's one call cannot be
// interrupted: docs/cli.md); bcfw (its block vectors for 3,000 labels are refused as too large,
// a limit of their own).
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <random>

#include "cli_process.h"

using namespace cplab::clitest;

namespace {

constexpr double kLimit = 1.0;  // max_seconds of every run
constexpr double kSlack = 0.5;  // for the process's own start and the machine's load

// Two Gaussian classes in d dimensions (means ±0.3, unit variance), 10 % of the labels flipped.
void writeExamples(const QString& path, int n, int d, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QByteArray text;
    for (int i = 0; i < n; ++i) {
        const int y = coin(rng) < 0.5 ? 1 : -1;
        QByteArray line = (coin(rng) < 0.1 ? -y : y) > 0 ? "+1" : "-1";
        for (int j = 0; j < d; ++j)
            line += ' ' + QByteArray::number(j + 1) + ':' +
                    QByteArray::number(0.3 * y + noise(rng), 'f', 4);
        text += line + '\n';
    }
    QCOMPARE(file.write(text), text.size());
}

// n examples of three classes in d dimensions (class c: mean 0.4 on the features j with
// j mod 3 = c, unit variance), for the one-vs-rest machines.
void writeThreeClasses(const QString& path, int n, int d, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::uniform_int_distribution<int> draw(0, 2);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QByteArray text;
    for (int i = 0; i < n; ++i) {
        const int c = draw(rng);
        QByteArray line = QByteArray::number(c + 1);
        for (int j = 0; j < d; ++j)
            line += ' ' + QByteArray::number(j + 1) + ':' +
                    QByteArray::number((j % 3 == c ? 0.4 : 0.0) + noise(rng), 'f', 4);
        text += line + '\n';
    }
    QCOMPARE(file.write(text), text.size());
}

// 40 sequences of 12 tokens with 3,000 labels and 10 features: one pass of Viterbi decodings
// costs 4.3e9 multiply-adds (seconds).
void writeSequences(const QString& path) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> label(0, 2999);
    std::uniform_real_distribution<double> value(0.0, 1.0);
    QByteArray text = "# labels:";
    for (int k = 0; k < 3000; ++k)
        text += " l" + QByteArray::number(k);
    text += "\n# dimension: 10\n";
    for (int s = 0; s < 40; ++s) {
        for (int t = 0; t < 12; ++t) {
            text += 'l' + QByteArray::number(label(rng));
            for (int j = 0; j < 10; ++j)
                text +=
                    ' ' + QByteArray::number(j + 1) + ':' + QByteArray::number(value(rng), 'f', 3);
            text += '\n';
        }
        text += '\n';
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(text), text.size());
}

// The longest iteration of a trace CSV after its first (whose seconds include the set-up): the
// largest difference of its `seconds` column; 0 with one row (a run cut short inside its first
// iteration, whose cost is then unknown: the limit must hold within 1 s).
double longestIteration(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return -1;
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    const int column = int(lines.value(0).split(',').indexOf("seconds"));
    if (column < 0) return -1;
    double longest = 0.0, before = 0.0;
    for (qsizetype k = 1; k < lines.size(); ++k) {
        const double seconds = lines[k].split(',').value(column).toDouble();
        if (k > 1) longest = std::max(longest, seconds - before);
        before = seconds;
    }
    return longest;
}

}  // namespace

class TestTimeLimits : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        writeExamples(dir_.filePath("linear.svm"), 100000, 20, 1);
        writeExamples(dir_.filePath("kernel.svm"), 4000, 20, 2);
        writeSequences(dir_.filePath("labels3000.seq"));
        writeExamples(dir_.filePath("sparse.svm"), 20000, 20, 3);
        writeThreeClasses(dir_.filePath("sparse3.svm"), 20000, 20, 4);
    }

    void limitHolds_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QStringList>("problem");
        QTest::addColumn<int>("maxOracleCalls");  // 0: not checked
        const QStringList linear{"--data", dir_.filePath("linear.svm")};
        const QStringList kernel{"--data", dir_.filePath("kernel.svm")};
        const QStringList sequences{"--data", dir_.filePath("labels3000.seq")};
        const QStringList grid{"--problem", "map_random_grid", "--problem-set",
                               "width=512", "--problem-set",   "height=512"};
        for (const char* solver : {"bmrm", "dcd", "sgd"})
            QTest::newRow(solver) << solver << linear << 0;
        for (const char* solver : {"silp", "silp_interleaved", "simplemkl", "mklpath", "rs", "mrs"})
            QTest::newRow(solver) << solver << kernel << 0;
        for (const char* solver : {"fw", "ssg", "oneslack", "nslack", "online_mkl"})
            QTest::newRow(solver) << solver << sequences << 0;
        for (const char* solver : {"mplp", "trws", "diffusion", "mplp_cycles"})
            QTest::newRow(solver) << solver << grid << 0;
        // The sparse machines' set-ups on 20,000 examples: the full SVM (rs, mrs; dlib_reduced2
        // with expansion_ratio) and slmc's first inner SVM took 3-34 s past max_seconds = 1;
        // one-vs-rest machines share the limit (3 classes took 3.1-3.8 s).
        const QStringList sparse{"--data", dir_.filePath("sparse.svm")};
        for (const char* solver : {"slmc", "rs", "mrs"})
            QTest::newRow(qPrintable(QString(solver) + "_20000")) << solver << sparse << 0;
        QTest::newRow("dlib_reduced2_full_svm_20000")
            << "dlib_reduced2" << (sparse + QStringList{"--set", "expansion_ratio=0.1"}) << 0;
        const QStringList sparse3{"--data", dir_.filePath("sparse3.svm")};
        for (const char* solver : {"slmc", "mrs"})
            QTest::newRow(qPrintable(QString(solver) + "_one_vs_rest_20000"))
                << solver << sparse3 << 0;
        // The case: a step of 1,000 sweeps (a sweep is an oracle call) is cut short.
        QTest::newRow("mplp_sweeps_per_step_1000")
            << "mplp" << (grid + QStringList{"--set", "sweeps_per_step=1000"}) << 999;
    }

    void limitHolds() {
        QFETCH(QString, solver);
        QFETCH(QStringList, problem);
        QFETCH(int, maxOracleCalls);
        const QString trace = dir_.filePath(solver + "_" + QTest::currentDataTag() + ".csv");
        const QStringList arguments =
            QStringList{"run", solver} + problem +
            QStringList{"--set",   "max_seconds=" + QString::number(kLimit),
                        "--set",   "max_iterations=1000000",
                        "--set",   "epsilon=0",
                        "--set",   "tol_rel=0",
                        "--trace", trace,
                        "--json",  "--quiet"};
        const CliResult r = runCli(arguments, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(arguments, r)));
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, qPrintable(describe(arguments, r)));
        QVERIFY2(json.value("status").toString() == "time_limit",
                 qPrintable(describe(arguments, r)));
        const int iterations = json.value("iterations").toInt();
        QVERIFY2(iterations >= 1 && iterations < 1000000, qPrintable(describe(arguments, r)));
        if (maxOracleCalls > 0)
            QVERIFY2(json.value("oracle_calls").toInt() <= maxOracleCalls,
                     qPrintable(describe(arguments, r)));
        const double longest = longestIteration(trace);
        QVERIFY2(longest >= 0, qPrintable(trace));
        const double seconds = json.value("seconds").toDouble();
        QVERIFY2(seconds >= kLimit - 0.05 && seconds <= kLimit + std::max(1.0, longest) + kSlack,
                 qPrintable(QString("%1 s for a limit of %2 s, longest iteration %3 s\n%4")
                                .arg(seconds)
                                .arg(kLimit)
                                .arg(longest)
                                .arg(describe(arguments, r))));
    }
};

QTEST_MAIN(TestTimeLimits)
#include "test_time_limits.moc"
