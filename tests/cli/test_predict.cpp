// SPDX-License-Identifier: GPL-3.0-or-later
// `cplab-cli predict` on model files written by `run --model`, black-box through QProcess
// (docs/cli.md, "Model files (`--model`)"; docs/linear.md): on the training file and on test
// files its error (text and JSON), its --out predictions and run's train_error / test_error
// equal linear_model_reference.h's own application of the model file to its own reading of
// the data; features the data lacks count as zero; text labels are matched by their text; a
// missing model, a data file it cannot read, more features than the model or a label the
// model never saw: exit status 1, nothing on stdout, the file named. Fixtures: tests/data,
// tests/data/cli (provenance in tests/data/README.md).
#include <QFile>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>
#include <vector>

#include "cli_data_files.h"

using namespace cplab::clitest;

namespace {

// ---- Reading what the CLI writes ----

// predict's text summary: "name value" lines.
std::map<QString, QString> keyValues(const QByteArray& text) {
    std::map<QString, QString> out;
    for (const QString& line : QString::fromUtf8(text).split('\n', Qt::SkipEmptyParts)) {
        const QStringList parts = line.simplified().split(' ');
        if (parts.size() >= 2) out[parts[0]] = parts[1];
    }
    return out;
}

QStringList readLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

}  // namespace

class TestCliPredict : public QObject {
    Q_OBJECT

  private slots:
    // run --model, then predict on the training file and on a test file: predict's error (text
    // and JSON), its --out predictions and run's train_error / test_error all equal this test's
    // own application of the model file.
    void predictAgreesWithTheModelFile_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("train");
        QTest::addColumn<QString>("test");  // "" = predict on the training file only
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("ocas, LIBSVM test file") << "ocas"
                                                << "cli/heart_train.libsvm"
                                                << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("bmrm, LIBSVM test file") << "bmrm"
                                                << "cli/heart_train.libsvm"
                                                << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("dcd, LIBSVM test file, bias")
            << "dcd"
            << "cli/heart_train.libsvm"
            << "cli/heart_test.libsvm" << QStringList{"bias=true"};
        QTest::newRow("sgd, LIBSVM test file") << "sgd"
                                               << "cli/heart_train.libsvm"
                                               << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("libocas, LIBSVM test file") << "libocas"
                                                   << "cli/heart_train.libsvm"
                                                   << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("ocas, CSV text labels test file") << "ocas"
                                                         << "cli/sonar_train.csv"
                                                         << "cli/sonar_test.csv" << QStringList{};
        QTest::newRow("ocas, CSV labels 1/2") << "ocas"
                                              << "cli/bupa.csv"
                                              << "" << QStringList{"bias=true"};
        QTest::newRow("ocas, multiclass") << "ocas"
                                          << "cli/usps_first100.libsvm"
                                          << "" << QStringList{"risk=multiclass"};
        QTest::newRow("ocas, regression")
            << "ocas"
            << "cli/heart_train.libsvm"
            << "cli/heart_test.libsvm" << QStringList{"risk=epsilon_insensitive"};
    }
    void predictAgreesWithTheModelFile() {
        QFETCH(QString, solver);
        QFETCH(QString, train);
        QFETCH(QString, test);
        QFETCH(QStringList, sets);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        QStringList args{"run", solver, "--data", dataPath(train), "--model", modelPath, "--json"};
        if (!test.isEmpty()) args << "--test" << dataPath(test);
        args << kFast << setArguments(sets);
        QJsonObject json;
        RUN_JSON(args, json);
        QCOMPARE(json.contains("test_error"), !test.isEmpty());

        Model model;
        READ_MODEL(modelPath, model);
        const bool regression = model.risk == "epsilon_insensitive";
        const QString measure = regression ? "mean_absolute_error" : "error";

        struct Target {
            QString file;
            QString runField;
        };
        std::vector<Target> targets{{train, "train_error"}};
        if (!test.isEmpty()) targets.push_back({test, "test_error"});
        for (const Target& target : targets) {
            Data reading;
            READ_DATA(dataPath(target.file), reading);
            QString why;
            const Evaluation ev = evaluate(model, reading, 0.1, &why);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const double slack = (ev.nearTies + 1e-9) / reading.size();
            const QString context = target.file + " (" + target.runField + ")";

            // Text summary and --out.
            const QString outPath = dir.filePath("predictions.txt");
            const QStringList textArgs{
                "predict", "--model", modelPath, "--data", dataPath(target.file), "--out", outPath};
            const CliResult text = runCli(textArgs);
            QVERIFY2(text.exitCode == 0, qPrintable(describe(textArgs, text)));
            const auto summary = keyValues(text.out);
            QVERIFY2(summary.count("examples") && summary.count(measure),
                     qPrintable(describe(textArgs, text)));
            QCOMPARE(summary.at("examples").toInt(), reading.size());
            const double textError = summary.at(measure).toDouble();
            QVERIFY2(std::abs(textError - ev.error) <= slack,
                     qPrintable(context + ": predict " + number(textError) + ", expected " +
                                number(ev.error)));

            const QStringList lines = readLines(outPath);
            QCOMPARE(lines.size(), static_cast<qsizetype>(reading.size()));
            int differing = 0;
            for (int i = 0; i < reading.size(); ++i) {
                const QString line = lines[i].trimmed();
                const double expected = ev.predicted[static_cast<std::size_t>(i)];
                const bool same = reading.textLabels
                                      ? line == reading.labelText(expected)
                                      : closeTo(line.toDouble(), expected, 1e-9, 1e-12);
                if (!same) {
                    ++differing;
                    if (regression || differing > ev.nearTies) {
                        QFAIL(qPrintable(QString("%1, example %2: predict wrote '%3', the model "
                                                 "gives %4")
                                             .arg(context)
                                             .arg(i + 1)
                                             .arg(line, reading.labelText(expected))));
                    }
                }
            }

            // JSON: the same numbers.
            const QStringList jsonArgs{
                "predict", "--model", modelPath, "--data", dataPath(target.file), "--json"};
            QJsonObject pj;
            RUN_JSON(jsonArgs, pj);
            QCOMPARE(pj.value("examples").toDouble(), static_cast<double>(reading.size()));
            QVERIFY2(pj.value(measure).isDouble(), qPrintable(measure));
            QCOMPARE(pj.value(measure).toDouble(), textError);
            QCOMPARE(pj.value("model").toString(), modelPath);
            QCOMPARE(pj.value("data").toString(), dataPath(target.file));

            // run's error on that file is predict's.
            const double runError = json.value(target.runField).toDouble();
            QVERIFY2(std::abs(runError - textError) <= slack,
                     qPrintable(context + ": run " + number(runError) + ", predict " +
                                number(textError)));
        }
    }

    // Data with fewer features than the model: the missing ones count as zero.
    void predictPadsMissingFeatures() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("heart_scale"), "--model",
                              modelPath, "--json", "--set", "bias=true"}) +
                     kFast,
                 json);
        // heart_test without its features 11..13.
        QFile in(dataPath("cli/heart_test.libsvm"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray cut;
        for (const QByteArray& line : in.readAll().split('\n')) {
            if (line.trimmed().isEmpty()) continue;
            QList<QByteArray> kept;
            for (const QByteArray& token : line.simplified().split(' ')) {
                const auto colon = token.indexOf(':');
                if (colon < 0 || token.left(colon).toInt() <= 10) kept << token;
            }
            cut += kept.join(' ') + '\n';
        }
        const QString cutPath = dir.filePath("heart_test_10.libsvm");
        QFile out(cutPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(cut);
        out.close();

        Model model;
        READ_MODEL(modelPath, model);
        Data reading;
        READ_DATA(cutPath, reading);
        QCOMPARE(reading.dimension, 10);
        QString why;
        const Evaluation ev = evaluate(model, reading, 0.1, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        const QStringList args{"predict", "--model", modelPath, "--data", cutPath, "--json"};
        QJsonObject pj;
        RUN_JSON(args, pj);
        QCOMPARE(pj.value("examples").toDouble(), 70.0);
        QVERIFY(std::abs(pj.value("error").toDouble() - ev.error) <= (ev.nearTies + 1e-9) / 70);
    }

    // Text labels mean what they meant in the training file, whichever classes the file to
    // predict holds: sonar's first five rows (all R) get the predictions and errors they get
    // inside the whole file, and a class the model never saw is refused.
    void predictMatchesTextLabelsByText() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("sonar.model");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("sonar.all-data"), "--model",
                              modelPath, "--json"}) +
                     kFast,
                 json);
        Model model;
        READ_MODEL(modelPath, model);
        QCOMPARE(model.classNames, (QStringList{"M", "R"}));
        QFile whole(dataPath("sonar.all-data"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QByteArray firstRows;
        for (int i = 0; i < 5; ++i)
            firstRows += whole.readLine();
        QVERIFY(firstRows.count(",R\n") == 5);
        const QString part = dir.filePath("first_rows.csv");
        QFile out(part);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(firstRows);
        out.close();
        auto predictions = [&](const QString& data, const QString& name) {
            const QString outPath = dir.filePath(name);
            const QStringList args{"predict", "--model", modelPath, "--data",
                                   data,      "--out",   outPath};
            const CliResult r = runCli(args);
            QFile file(outPath);
            if (r.exitCode != 0 || !file.open(QIODevice::ReadOnly)) return QList<QByteArray>();
            return file.readAll().split('\n');
        };
        const QList<QByteArray> all = predictions(dataPath("sonar.all-data"), "all.txt");
        const QList<QByteArray> first = predictions(part, "first.txt");
        QVERIFY(all.size() > 5 && first.size() >= 5);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(first[i], all[i]);
        const QStringList args{"predict", "--model", modelPath, "--data",
                               dataPath("cli/bad_test_labels/sonar_unknown_label.csv")};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1 && r.err.contains("sonar_unknown_label.csv:3: label X"),
                 qPrintable(describe(args, r)));
    }

    // predict with a missing model, a data file it cannot read, or data with more features than
    // the model: exit 1, nothing on stdout, the file named.
    void predictRefusesWhatItCannotUse() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("heart.model");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("heart_scale"), "--model",
                              modelPath, "--json"}) +
                     kFast,
                 json);
        struct Case {
            QStringList args;
            QStringList named;
        };
        const std::vector<Case> cases = {
            {{"predict", "--model", dir.filePath("missing.model"), "--data",
              dataPath("heart_scale")},
             {"missing.model", "no such file"}},
            {{"predict", "--model", modelPath, "--data", dataPath("cli/no-such-file.libsvm")},
             {"no-such-file.libsvm", "no such file"}},
            {{"predict", "--model", modelPath, "--data", dataPath("bad/bad_value.libsvm")},
             {"bad_value.libsvm:3:", "not a number"}},
            {{"predict", "--model", modelPath, "--data", dataPath("australian_scale")},
             {"australian_scale", "14", "13", "features"}},
            {{"predict", "--model", modelPath, "--data", dataPath("australian_scale"), "--json"},
             {"australian_scale", "14", "13", "features"}},
            // Labels the model never saw are refused with their file and line.
            {{"predict", "--model", modelPath, "--data", dataPath("bupa.data")},
             {"bupa.data:3:", "label 2, which the model's training set does not have"}},
        };
        for (const Case& c : cases) {
            const CliResult r = runCli(c.args);
            QVERIFY2(r.exitCode == 1, qPrintable(describe(c.args, r)));
            QVERIFY2(r.out.isEmpty(), qPrintable(describe(c.args, r)));
            for (const QString& part : c.named)
                QVERIFY2(r.err.contains(part.toUtf8()),
                         qPrintable(part + "\n" + describe(c.args, r)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliPredict)
#include "test_predict.moc"
