// SPDX-License-Identifier: GPL-3.0-or-later
// The real cplab-cli executable on data files, black-box through QProcess (docs/cli.md,
// docs/formats.md): `run` on LIBSVM, gzip, CSV and whitespace-table files, on badly scaled and
// degenerate data, and with test sets from a file or from a seeded split (--test-fraction,
// --seed: the parts partition the file, checked with `predict` on the whole of it); exit
// status 1 with a message on stderr (nothing on stdout) for every bad data file, every other
// file `run` cannot use and every invalid option of `run` and `predict`. Model files written
// and read: test_model_files.cpp and test_predict.cpp. Fixtures: tests/data, tests/data/cli
// (provenance in tests/data/README.md).
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <tuple>
#include <vector>

#include "cli_data_files.h"

using namespace cplab::clitest;

namespace {

QString firstLine(const QByteArray& text) {
    return QString::fromUtf8(text).section('\n', 0, 0);
}

// Every file in tests/data/bad: (file, line, a key word of the message); line 0 when the defect
// is not about one line.
std::vector<std::tuple<const char*, int, const char*>> badDataRows() {
    return {
        {"bad_index.libsvm", 2, "abc"},
        {"huge_value.libsvm", 2, "feature 1 is 1e+155, beyond +-1e+100"},
        {"huge_label.csv", 3, "the label is -1e+120, beyond +-1e+100"},
        {"bad_value.libsvm", 3, "not a number"},
        {"binary.csv", 2, "binary"},
        {"binary_nul.libsvm", 2, "binary"},
        {"corrupt.libsvm.gz", 0, "corrupt gzip"},
        {"decreasing_index.libsvm", 4, "increase"},
        {"duplicate_index.libsvm", 1, "twice"},
        {"empty.libsvm", 0, "empty"},
        {"header_only.csv", 1, "no data rows"},
        {"index_zero.libsvm", 3, "index 0"},
        {"inf_label.libsvm", 3, "not finite"},
        {"inf_value.libsvm", 2, "not finite"},
        {"invalid_utf8.libsvm", 3, "binary"},
        {"label_out_of_range.libsvm", 1, "out of range"},
        {"missing_colon.libsvm", 1, "missing ':'"},
        {"missing_label.libsvm", 2, "missing label"},
        {"missing_value.csv", 3, "not a number"},
        {"nan_label.libsvm", 2, "not finite"},
        {"nan_value.csv", 3, "not finite"},
        {"nan_value.libsvm", 2, "not finite"},
        {"non_numeric.csv", 3, "not a number"},
        {"only_comments.libsvm", 0, "no examples"},
        {"ragged.csv", 4, "fields"},
        {"single_class.libsvm", 0, "one class"},
        {"truncated.libsvm.gz", 0, "truncated gzip"},
        {"truncated_bupa.csv.gz", 0, "truncated gzip"},
        {"unterminated_quote.csv", 3, "unterminated"},
    };
}

}  // namespace

class TestCliDataFiles : public QObject {
    Q_OBJECT

  private slots:
    // The same examples gzip-compressed give the very same run.
    void gzipGivesTheSameRun_data() {
        QTest::addColumn<QString>("plain");
        QTest::addColumn<QString>("gzip");
        QTest::newRow("LIBSVM") << "heart_scale"
                                << "cli/heart_scale.gz";
        QTest::newRow("CSV") << "cli/bupa.csv"
                             << "cli/bupa.csv.gz";
    }
    void gzipGivesTheSameRun() {
        QFETCH(QString, plain);
        QFETCH(QString, gzip);
        QJsonObject a, b;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath(plain), "--json"}) + kFast, a);
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath(gzip), "--json"}) + kFast, b);
        for (const char* field : {"iterations", "upper", "lower", "train_error", "lambda"})
            QCOMPARE(b.value(field).toDouble(), a.value(field).toDouble());
    }

    // A whitespace table without a .csv name (housing.data: 506 rows of 14 numbers) is
    // sniffed as a table, not misread as LIBSVM: the run equals the one on its comma-separated
    // copy written here.
    void whitespaceTableIsSniffed() {
        QFile in(dataPath("housing.data"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray csv;
        int rows = 0;
        for (const QByteArray& line : in.readAll().split('\n')) {
            const QList<QByteArray> fields = line.simplified().split(' ');
            if (line.trimmed().isEmpty()) continue;
            QCOMPARE(fields.size(), 14);
            csv += fields.join(',') + '\n';
            ++rows;
        }
        QCOMPARE(rows, 506);
        QTemporaryDir dir;
        const QString copy = dir.filePath("housing.csv");
        QFile out(copy);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(csv);
        out.close();
        const QStringList sets{"--set", "risk=epsilon_insensitive", "--set", "max_iterations=20"};
        QJsonObject a, b;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("housing.data"), "--json"}) + sets,
                 a);
        RUN_JSON(QStringList({"run", "ocas", "--data", copy, "--json"}) + sets, b);
        for (const char* field : {"iterations", "upper", "lower", "train_error"})
            QCOMPARE(a.value(field).toDouble(), b.value(field).toDouble());
        QVERIFY(a.value("upper").toDouble() > 0);
    }

    // One feature value of 1e8 among values below 1: OCAS and BMRM reach the optimum DCD (a
    // different method) finds, instead of stalling at U = 1, L = 0 as when the reduced QP's
    // rounding floor followed H's largest entry (10¹⁵ here).
    void badlyScaledDataStillSolve() {
        const QString data = dataPath("cli/one_huge_value.libsvm");
        QJsonObject dcd;
        RUN_JSON(QStringList(
                     {"run", "dcd", "--data", data, "--set", "tol_rel=1e-9", "--json", "--quiet"}),
                 dcd);
        const double optimum = dcd.value("upper").toDouble();
        QVERIFY(optimum > 0.3 && optimum < 0.4);
        for (const char* solver : {"ocas", "bmrm"}) {
            QJsonObject json;
            RUN_JSON(QStringList({"run", solver, "--data", data, "--set", "tol_rel=1e-9", "--json",
                                  "--quiet"}),
                     json);
            QCOMPARE(json.value("status").toString(), QString("converged"));
            QVERIFY2(std::abs(json.value("upper").toDouble() - optimum) <= 1e-6 * optimum, solver);
        }
    }

    // Data libocas cannot make progress on: refused before the run (no feature at all), or
    // stopped with a numerical failure (exit 2) after 10 iterations without progress, saying
    // why, instead of running for minutes.
    void libocasStopsOnDegenerateData() {
        const CliResult zero =
            runCli({"run", "libocas", "--data", dataPath("cli/all_zero_features.libsvm")});
        QCOMPARE(zero.exitCode, 1);
        QVERIFY2(QString::fromUtf8(zero.err).contains("every feature of the training set"),
                 zero.err.constData());
        const QStringList args{"run",    "libocas",
                               "--data", dataPath("cli/same_x_two_labels.libsvm"),
                               "--json", "--quiet"};
        const CliResult same = runCli(args);
        QVERIFY2(same.exitCode == 2, qPrintable(describe(args, same)));
        bool ok = false;
        const QJsonObject json = parseObject(same.out, &ok);
        QVERIFY2(ok, qPrintable(describe(args, same)));
        // Five iterations in a row whose inner QP ends at libqp's limit (the first may converge).
        QVERIFY(json.value("iterations").toInt() <= 6);
        QVERIFY2(QString::fromUtf8(same.err).contains("inner QP ended at its iteration limit"),
                 qPrintable(describe(args, same)));
    }

    // --test-fraction F --seed S: the same seed gives the same numbers; other seeds give other
    // splits; the split holds round(F m) test examples and the rest for training (λ = 1/m_train),
    // and the two parts partition the file (predict on the whole file counts the errors of both).
    void testFractionSplit_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("data");
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("examples");
        QTest::newRow("ocas, LIBSVM, 0.3") << "ocas"
                                           << "heart_scale" << 0.3 << 270;
        QTest::newRow("dcd, CSV text labels, 0.25") << "dcd"
                                                    << "cli/sonar_train.csv" << 0.25 << 155;
        QTest::newRow("bmrm, gzip CSV, 0.5") << "bmrm"
                                             << "cli/bupa.csv.gz" << 0.5 << 345;
    }
    void testFractionSplit() {
        QFETCH(QString, solver);
        QFETCH(QString, data);
        QFETCH(double, fraction);
        QFETCH(int, examples);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        auto args = [&](int seed) {
            return QStringList{"run",
                               solver,
                               "--data",
                               dataPath(data),
                               "--test-fraction",
                               QString::number(fraction),
                               "--seed",
                               QString::number(seed),
                               "--json",
                               "--model",
                               modelPath} +
                   kFast;
        };
        QJsonObject first, again;
        RUN_JSON(args(7), first);
        Model model;
        READ_MODEL(modelPath, model);
        RUN_JSON(args(7), again);

        // Deterministic: every number but the time, every text but the message that may hold
        // the time.
        for (auto it = first.begin(); it != first.end(); ++it) {
            if (it.key() == "seconds") continue;
            QVERIFY2(again.contains(it.key()), qPrintable(it.key()));
            QVERIFY2(again.value(it.key()) == it.value(),
                     qPrintable(it.key() + ": differs between two runs with seed 7"));
        }
        QCOMPARE(again.size(), first.size());

        QCOMPARE(first.value("problem").toString(), QFileInfo(data).fileName() + " (train)");
        QVERIFY(first.value("test_error").isDouble());
        const int testSize = static_cast<int>(std::lround(fraction * examples));
        const int trainSize = examples - testSize;
        QVERIFY2(closeTo(first.value("lambda").toDouble(), 1.0 / trainSize, 1e-14),
                 qPrintable(number(first.value("lambda").toDouble())));

        // The parts partition the file: errors on the whole file = errors on both parts.
        const QStringList predictArgs{"predict", "--model",      modelPath,
                                      "--data",  dataPath(data), "--json"};
        QJsonObject whole;
        RUN_JSON(predictArgs, whole);
        QCOMPARE(whole.value("examples").toDouble(), static_cast<double>(examples));
        const double trainErrors = first.value("train_error").toDouble() * trainSize;
        const double testErrors = first.value("test_error").toDouble() * testSize;
        QVERIFY2(std::abs(trainErrors - std::round(trainErrors)) < 1e-6 &&
                     std::abs(testErrors - std::round(testErrors)) < 1e-6,
                 qPrintable(QString("error counts %1 + %2").arg(trainErrors).arg(testErrors)));
        QCOMPARE(std::lround(whole.value("error").toDouble() * examples),
                 std::lround(trainErrors) + std::lround(testErrors));

        // Another seed, another split (at least one of several differs in its numbers).
        int different = 0;
        for (int seed : {1, 2, 3, 4}) {
            QJsonObject other;
            RUN_JSON(args(seed), other);
            QVERIFY(other.value("test_error").isDouble());
            if (other.value("test_error").toDouble() != first.value("test_error").toDouble() ||
                other.value("upper").toDouble() != first.value("upper").toDouble()) {
                ++different;
            }
        }
        QVERIFY2(different > 0, "seeds 1-4 give the split of seed 7");
    }

    // Every file in tests/data/bad through `run ocas --data`: exit 1, nothing on stdout, a
    // message naming the file, its line where the defect has one, and what is wrong.
    void badDataFiles_data() {
        QTest::addColumn<QString>("file");  // under tests/data/bad
        QTest::addColumn<int>("line");      // 0: not about one line
        QTest::addColumn<QString>("what");  // a key word of the message
        for (const auto& [file, line, what] : badDataRows())
            QTest::newRow(file) << file << line << what;
    }
    void badDataFiles() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, what);
        const QStringList args =
            QStringList{"run", "ocas", "--data", dataPath("bad/" + file)} + kFast;
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(file), qPrintable(describe(args, r)));
        if (line > 0) {
            QVERIFY2(err.contains(file + ":" + QString::number(line) + ":"),
                     qPrintable(describe(args, r)));
        }
        QVERIFY2(err.contains(what), qPrintable(describe(args, r)));
    }

    // The table above lists every file in tests/data/bad (a new fixture needs a row).
    void badDataFilesAreAllListed() {
        QStringList listed;
        for (const auto& row : badDataRows())
            listed << std::get<0>(row);
        listed.sort();
        QCOMPARE(filesIn(kData + "/bad"), listed);
    }

    // Other files `run` cannot use: exit 1, nothing on stdout, the file and the problem named.
    void badRunFiles_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");  // must appear in the message
        QTest::addColumn<QString>("what");  // so must this
        const QString heart = dataPath("heart_scale");
        QTest::newRow("missing --data file")
            << QStringList{"run", "ocas", "--data", dataPath("cli/no-such-file.libsvm")}
            << "no-such-file.libsvm"
            << "no such file";
        QTest::newRow("--data is a directory")
            << QStringList{"run", "ocas", "--data", dataPath("cli")} << "cli"
            << "directory";
        QTest::newRow("missing --test file")
            << QStringList{"run", "ocas",   "--data",
                           heart, "--test", dataPath("cli/no-such-test.libsvm")}
            << "no-such-test.libsvm"
            << "no such file";
        QTest::newRow("--test file with a bad line")
            << QStringList{"run", "ocas",   "--data",
                           heart, "--test", dataPath("bad/bad_value.libsvm")}
            << "bad_value.libsvm:3:"
            << "not a number";
        QTest::newRow("--test CSV with a bad line")
            << QStringList{"run",    "ocas",
                           "--data", dataPath("cli/bupa.csv"),
                           "--test", dataPath("bad/ragged.csv")}
            << "ragged.csv:4:"
            << "fields";
        QTest::newRow("--test with more features than --data")
            << QStringList{"run", "ocas", "--data", heart, "--test", dataPath("australian_scale")}
            << "14"
            << "features";
        QTest::newRow("--test with a label --data lacks")
            << QStringList{"run", "ocas", "--data", dataPath("cli/bupa.csv"), "--test", heart}
            << "heart_scale"
            << "label";
        // Training labels already ±1 need no mapping; the test labels are checked all the same,
        // and the message gives the file, the line and the label as written.
        QTest::newRow("--test with a label ±1 --data lacks")
            << QStringList{"run", "ocas", "--data", heart, "--test", dataPath("bupa.data")}
            << "bupa.data:3:"
            << "label 2, which the training set does not have";
        QTest::newRow("text label of --test that --data lacks")
            << QStringList{"run",    "ocas",
                           "--data", dataPath("sonar.all-data"),
                           "--test", dataPath("cli/bad_test_labels/sonar_unknown_label.csv")}
            << "sonar_unknown_label.csv:3:"
            << "label X, which the training set does not have";
    }
    void badRunFiles() {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        QFETCH(QString, what);
        args << kFast;
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(file), qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(what), qPrintable(describe(args, r)));
    }

    // Invalid options: exit 1, nothing on stdout, and the first line on stderr names the option.
    void invalidOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named");  // each must appear in stderr's first line
        const QString heart = dataPath("heart_scale");
        const QStringList split{"run", "ocas", "--data", heart, "--test-fraction"};
        // 0 and -0 hold nothing out, as test_fraction=0 (the catalogue runs them); just below
        // 0 is refused.
        QTest::newRow("--test-fraction -1e-9")
            << split + QStringList{"-1e-9"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction 1")
            << split + QStringList{"1"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction -0.5")
            << split + QStringList{"-0.5"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction abc")
            << split + QStringList{"abc"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction without value") << split << QStringList{"--test-fraction"};
        QTest::newRow("--seed -1")
            << split + QStringList{"0.3", "--seed", "-1"} << QStringList{"--seed"};
        QTest::newRow("--seed x") << split + QStringList{"0.3", "--seed", "x"}
                                  << QStringList{"--seed"};
        QTest::newRow("--seed 1.5")
            << split + QStringList{"0.3", "--seed", "1.5"} << QStringList{"--seed"};
        QTest::newRow("--test with --test-fraction")
            << QStringList{"run",    "ocas", "--data",          heart,
                           "--test", heart,  "--test-fraction", "0.3"}
            << QStringList{"--test", "--test-fraction"};
        // λ far outside what double arithmetic can carry (C = 1e300 ran 10,000 iterations at
        // gap 1 and took 1 GB), for every linear solver.
        for (const char* solver : {"ocas", "bmrm", "dcd", "sgd", "libocas"}) {
            QTest::newRow(qPrintable(QString("%1 C=1e300").arg(solver)))
                << QStringList{"run", solver, "--data", heart, "--set", "C=1e300"}
                << QStringList{"lambda", "C = 1e+300", "smaller C"};
        }
        QTest::newRow("lambda=1e30")
            << QStringList{"run", "ocas", "--data", heart, "--set", "lambda=1e30"}
            << QStringList{"lambda = 1e+30", "outside"};
        QTest::newRow("--problem with --data")
            << QStringList{"run", "ocas", "--problem", "heart_scale", "--data", heart}
            << QStringList{"--problem", "--data"};
        QTest::newRow("--model with a nonsmooth solver")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--model", "model.txt"}
            << QStringList{"--model"};
        QTest::newRow("predict without --model")
            << QStringList{"predict", "--data", heart} << QStringList{"--model"};
        QTest::newRow("predict without --data")
            << QStringList{"predict", "--model", dataPath("cli/bad_models/empty.txt")}
            << QStringList{"--data"};
        QTest::newRow("predict, --model without value")
            << QStringList{"predict", "--data", heart, "--model"} << QStringList{"--model"};
        QTest::newRow("predict, unknown option")
            << QStringList{"predict", "--data", heart, "--model", heart, "--frob"}
            << QStringList{"--frob"};
    }
    void invalidOptions() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        const QString message = firstLine(r.err);
        for (const QString& option : named)
            QVERIFY2(message.contains(option), qPrintable(option + "\n" + describe(args, r)));
    }
};

QTEST_GUILESS_MAIN(TestCliDataFiles)
#include "test_data_files.moc"
