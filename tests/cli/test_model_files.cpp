// SPDX-License-Identifier: GPL-3.0-or-later
// Model files of the real cplab-cli executable, black-box through QProcess (docs/cli.md,
// "Model files (`--model`)"): the file `run --model` writes for each linear solver, read by
// linear_model_reference.h's own parser of the documented format and applied to its own
// reading of the data, gives the objective F(w) = λ/2‖w‖² + (1/m) Σ ℓ the run reports as its
// upper bound and the training error it reports; features under large indices are stored
// compacted and `predict` applies such a model to any file; model files `predict` cannot use
// (tests/data/cli/bad_models) and outputs that cannot be written end in exit status 1 with the
// file named on stderr. Fixtures: tests/data, tests/data/cli (provenance in
// tests/data/README.md).
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

// The value of option `key` among `--set key=value` arguments, or `fallback`.
QString setValue(const QStringList& sets, const QString& key, const QString& fallback) {
    for (const QString& set : sets) {
        if (set.startsWith(key + "=")) return set.mid(key.size() + 1);
    }
    return fallback;
}

// Every file in tests/data/cli/bad_models: (file, line, a key word of the message); line 0 when
// the defect is not about one line.
std::vector<std::tuple<const char*, int, const char*>> badModelRows() {
    return {
        {"empty.txt", 0, "incomplete model"},
        {"no_weights.txt", 0, "incomplete model"},
        {"truncated_weights.txt", 0, "found 2"},
        {"too_many_weights.txt", 0, "found 5"},
        {"non_numeric_weight.txt", 10, "not a number"},
        {"nan_weight.txt", 10, "not finite"},
        {"non_numeric_features.txt", 4, "not a number"},
        {"fractional_features.txt", 4, "integer"},
        {"zero_outputs.txt", 5, "outputs"},
        {"unknown_risk.txt", 2, "unknown risk"},
        {"unknown_key.txt", 8, "unknown key"},
        {"short_classes.txt", 0, "needs as many class values, found 2"},
        {"huge_features.txt", 4, "must be an integer in"},
        {"binary_two_outputs.txt", 0, "has one output, found outputs 2"},
        {"stored_not_increasing.txt", 7, "must increase"},
        {"stored_beyond_features.txt", 0, "is beyond features 10"},
        {"stored_too_few_ids.txt", 8, "feature number"},
    };
}

}  // namespace

class TestCliModelFiles : public QObject {
    Q_OBJECT

  private slots:
    // run SOLVER --data FILE --model M: the model file has the documented layout; applied by this
    // test to its own reading of the data it gives the objective the run reports as its upper
    // bound and the training error it reports; λ = 1/(C m) with this test's count m.
    void runWritesTheModelItReports_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("data");       // given to the CLI, under tests/data
        QTest::addColumn<QString>("reference");  // the same examples, plain, read by this test
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<int>("examples");
        QTest::addColumn<int>("features");
        QTest::addColumn<QList<double>>("classes");  // expected on the model's classes line

        const QList<double> pm{-1, 1};
        const QList<double> digits{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        QTest::newRow("ocas, LIBSVM") << "ocas"
                                      << "heart_scale"
                                      << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("bmrm, LIBSVM") << "bmrm"
                                      << "heart_scale"
                                      << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("dcd, LIBSVM") << "dcd"
                                     << "heart_scale"
                                     << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("sgd, LIBSVM") << "sgd"
                                     << "heart_scale"
                                     << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("libocas, LIBSVM") << "libocas"
                                         << "heart_scale"
                                         << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("ocas, LIBSVM with CRLF and blank lines")
            << "ocas"
            << "australian_scale"
            << "australian_scale" << QStringList{} << 690 << 14 << pm;
        QTest::newRow("ocas, gzip LIBSVM") << "ocas"
                                           << "cli/heart_scale.gz"
                                           << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("ocas, CSV with header, labels 1/2")
            << "ocas"
            << "cli/bupa.csv"
            << "cli/bupa.csv" << QStringList{} << 345 << 6 << QList<double>{1, 2};
        QTest::newRow("bmrm, gzip CSV")
            << "bmrm"
            << "cli/bupa.csv.gz"
            << "cli/bupa.csv" << QStringList{} << 345 << 6 << QList<double>{1, 2};
        QTest::newRow("dcd, CSV with text labels")
            << "dcd"
            << "cli/sonar_train.csv"
            << "cli/sonar_train.csv" << QStringList{} << 155 << 60 << pm;
        QTest::newRow("ocas, bias") << "ocas"
                                    << "heart_scale"
                                    << "heart_scale" << QStringList{"bias=true"} << 270 << 13 << pm;
        QTest::newRow("libocas, bias, C=0.5")
            << "libocas"
            << "heart_scale"
            << "heart_scale" << QStringList{"bias=true", "C=0.5"} << 270 << 13 << pm;
        QTest::newRow("ocas, logistic")
            << "ocas"
            << "cli/bupa.csv"
            << "cli/bupa.csv" << QStringList{"risk=logistic"} << 345 << 6 << QList<double>{1, 2};
        QTest::newRow("dcd, squared hinge")
            << "dcd"
            << "heart_scale"
            << "heart_scale" << QStringList{"risk=squared_hinge", "C=2"} << 270 << 13 << pm;
        QTest::newRow("ocas, multiclass")
            << "ocas"
            << "cli/usps_first100.libsvm"
            << "cli/usps_first100.libsvm" << QStringList{"risk=multiclass"} << 100 << 255 << digits;
        QTest::newRow("libocas, multiclass")
            << "libocas"
            << "cli/usps_first100.libsvm"
            << "cli/usps_first100.libsvm" << QStringList{"risk=multiclass"} << 100 << 255 << digits;
        QTest::newRow("bmrm, epsilon-insensitive")
            << "bmrm"
            << "heart_scale"
            << "heart_scale" << QStringList{"risk=epsilon_insensitive", "tube=0.25"} << 270 << 13
            << QList<double>{};
    }
    void runWritesTheModelItReports() {
        QFETCH(QString, solver);
        QFETCH(QString, data);
        QFETCH(QString, reference);
        QFETCH(QStringList, sets);
        QFETCH(int, examples);
        QFETCH(int, features);
        QFETCH(QList<double>, classes);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        const QStringList args =
            QStringList{"run", solver, "--data", dataPath(data), "--json", "--model", modelPath} +
            kFast + setArguments(sets);
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY2(r.err.isEmpty(), qPrintable(describe(args, r)));  // --quiet
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, qPrintable(describe(args, r)));

        QCOMPARE(json.value("solver").toString(), solver);
        QCOMPARE(json.value("problem").toString(), QFileInfo(data).fileName());
        const QString status = json.value("status").toString();
        QVERIFY2(status == "converged" || status == "iteration_limit", qPrintable(status));
        QVERIFY(json.value("iterations").toInt() > 0);
        for (const char* field :
             {"upper", "objective_lambda", "objective_C", "lambda", "C", "train_error"}) {
            QVERIFY2(json.value(field).isDouble(), field);
        }
        QVERIFY2(!json.contains("test_error"), "test_error without a test set");
        const double upper = json.value("upper").toDouble();
        QCOMPARE(json.value("objective_lambda").toDouble(), upper);
        if (json.value("lower").isDouble()) {  // SGD has no lower bound (null)
            QVERIFY(json.value("lower").toDouble() <= upper * (1 + 1e-12));
            if (status == "converged") {  // tol_rel = 1e-2
                QVERIFY(upper - json.value("lower").toDouble() <= 1e-2 * std::abs(upper) + 1e-12);
            }
        }

        Model model;
        READ_MODEL(modelPath, model);
        const QString risk = setValue(sets, "risk", "hinge");
        const bool bias = setValue(sets, "bias", "false") == "true";
        QCOMPARE(model.risk, risk);
        QCOMPARE(model.bias, bias);
        QCOMPARE(model.features, features);
        QCOMPARE(model.outputs, risk == "multiclass" ? static_cast<int>(classes.size()) : 1);
        QCOMPARE(QList<double>(model.classes.begin(), model.classes.end()), classes);

        Data reading;
        READ_DATA(dataPath(reference), reading);
        QCOMPARE(reading.size(), examples);
        QCOMPARE(reading.dimension, features);

        // λ = 1/(C m), C = 1 unless set.
        const double C = setValue(sets, "C", "1").toDouble();
        const double lambda = 1.0 / (C * examples);
        QVERIFY2(closeTo(model.lambda, lambda, 1e-14), qPrintable(number(model.lambda)));
        QVERIFY(closeTo(json.value("lambda").toDouble(), lambda, 1e-14));
        QVERIFY(closeTo(json.value("C").toDouble(), C, 1e-14));
        QVERIFY(closeTo(json.value("objective_C").toDouble(), upper / lambda, 1e-12));

        QString why;
        const double tube = setValue(sets, "tube", "0.1").toDouble();
        const Evaluation ev = evaluate(model, reading, tube, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // U = F(best w), and the model holds the best w.
        QVERIFY2(closeTo(ev.objective, upper, 1e-9),
                 qPrintable(QString("F(model weights) %1, run's upper %2")
                                .arg(number(ev.objective), number(upper))));
        const double trainError = json.value("train_error").toDouble();
        QVERIFY2(std::abs(trainError - ev.error) <= (ev.nearTies + 1e-9) / examples,
                 qPrintable(QString("train_error %1, model on the file %2 (%3 near-ties)")
                                .arg(number(trainError), number(ev.error))
                                .arg(ev.nearTies)));
        // A trained classifier does better than guessing (guards against a model that is the
        // zero vector: F would then be 1 for the hinge loss, and every prediction one class).
        if (risk != "epsilon_insensitive") QVERIFY(ev.error < 0.45);
    }

    // A feature numbered 10⁸ among small ones: every linear solver solves over the three
    // features the training file uses (the weights elsewhere are zero), the model names them by
    // their numbers (stored_features), and predict applies it to files with any features,
    // including a test file with a feature training never saw (its weight is zero).
    void wideIndicesAreCompacted_data() {
        QTest::addColumn<QString>("solver");
        for (const char* solver : {"ocas", "bmrm", "dcd", "sgd", "libocas"})
            QTest::newRow(solver) << solver;
    }
    void wideIndicesAreCompacted() {
        QFETCH(QString, solver);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto write = [&dir](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::WriteOnly)) return QString();
            f.write(text);
            return dir.filePath(name);
        };
        const QString train = write("wide.svm", "+1 3:1 100000000:2\n-1 8:1\n+1 100000000:1\n");
        const QString test = write("wide_test.svm", "+1 50:7 100000000:1\n-1 8:2 50:-3\n");
        const QString modelPath = dir.filePath("wide.model");
        QJsonObject json;
        RUN_JSON(QStringList({"run", solver, "--data", train, "--test", test, "--model", modelPath,
                              "--json"}),
                 json);
        QCOMPARE(json.value("train_error").toDouble(), 0.0);
        QCOMPARE(json.value("test_error").toDouble(), 0.0);
        QFile in(modelPath);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray model = in.readAll();
        QVERIFY2(model.contains("\nfeatures 100000000\nstored_features 3\n3\n8\n100000000\n"),
                 model.constData());
        QJsonObject pj;
        RUN_JSON(QStringList({"predict", "--model", modelPath, "--data", test, "--json"}), pj);
        QCOMPARE(pj.value("examples").toDouble(), 2.0);
        QCOMPARE(pj.value("error").toDouble(), 0.0);
    }

    // Model files predict cannot use (tests/data/cli/bad_models, made by hand; listed in
    // tests/data/README.md): exit 1, nothing on stdout, the file, the line and the problem named.
    void badModels_data() {
        QTest::addColumn<QString>("file");  // under tests/data/cli/bad_models
        QTest::addColumn<int>("line");      // 0: not about one line
        QTest::addColumn<QString>("what");
        for (const auto& [file, line, what] : badModelRows())
            QTest::newRow(file) << file << line << what;
    }
    void badModels() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, what);
        const QStringList args{"predict", "--model", dataPath("cli/bad_models/" + file), "--data",
                               dataPath("heart_scale")};
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
        // This test's reader refuses them too (the fixtures are bad as docs/cli.md defines them).
        Model model;
        QString why;
        QVERIFY(!readModel(dataPath("cli/bad_models/" + file), &model, &why));
    }

    // The table above lists every file in tests/data/cli/bad_models.
    void badModelsAreAllListed() {
        QStringList listed;
        for (const auto& row : badModelRows())
            listed << std::get<0>(row);
        listed.sort();
        QCOMPARE(filesIn(kData + "/cli/bad_models"), listed);
    }

    // Output files that cannot be written: exit 1 and the path named on stderr.
    void unwritableOutputs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString badModel = dir.filePath("no/such/dir/model.txt");
        const QStringList runArgs =
            QStringList{"run", "ocas", "--data", dataPath("heart_scale"), "--model", badModel} +
            kFast;
        const CliResult run = runCli(runArgs);
        QVERIFY2(run.exitCode == 1, qPrintable(describe(runArgs, run)));
        QVERIFY2(run.err.contains(badModel.toUtf8()), qPrintable(describe(runArgs, run)));
        // Found before the solve: the message is all there is on stderr (no progress lines).
        QVERIFY2(run.err.trimmed().count('\n') == 0, qPrintable(describe(runArgs, run)));
        QVERIFY(!QFileInfo::exists(badModel));
        const QStringList traceArgs =
            QStringList{"run", "ocas", "--data", dataPath("heart_scale"), "--trace", dir.path()} +
            kFast;
        const CliResult trace = runCli(traceArgs);
        QVERIFY2(trace.exitCode == 1 && trace.err.contains("is a directory") &&
                     trace.err.trimmed().count('\n') == 0,
                 qPrintable(describe(traceArgs, trace)));

        const QString modelPath = dir.filePath("model.txt");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("heart_scale"), "--model",
                              modelPath, "--json"}) +
                     kFast,
                 json);
        const QString badOut = dir.filePath("no/such/dir/predictions.txt");
        const QStringList predictArgs{
            "predict", "--model", modelPath, "--data", dataPath("heart_scale"), "--out", badOut};
        const CliResult predict = runCli(predictArgs);
        QVERIFY2(predict.exitCode == 1, qPrintable(describe(predictArgs, predict)));
        QVERIFY2(predict.out.isEmpty(), qPrintable(describe(predictArgs, predict)));
        QVERIFY2(predict.err.contains(badOut.toUtf8()), qPrintable(describe(predictArgs, predict)));
    }
};

QTEST_GUILESS_MAIN(TestCliModelFiles)
#include "test_model_files.moc"
