// SPDX-License-Identifier: GPL-3.0-or-later
// The real cplab-cli executable on the kernel family, black-box through QProcess: `run svm`
// on heart_scale against LIBSVM (`run libsvm`, the peer library) and against this file's own
// evaluation of the written model file (its own reader of the documented format, its own
// Gaussian kernel, its own reading of the data); `predict` against the summary's training
// error; a precomputed linear kernel against the same SVM on the feature vectors; the demos'
// outcomes; and exit status 1 with a message on stderr (nothing on stdout) for each kind of
// bad kernel option, data file and model file. Fixtures: tests/data, tests/data/kernel
// (provenance in tests/data/README.md).
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>
#include <vector>

#include "cli_process.h"

using namespace cplab::clitest;

namespace {

const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

QString dataPath(const QString& relative) {
    return kData + "/" + relative;
}

using Sparse = std::map<int, double>;  // 1-based feature index → value

struct Example {
    double label = 0.0;
    Sparse x;
};

// LIBSVM text as docs/formats.md documents it (labels are numbers, "index:value" tokens).
std::vector<Example> readLibsvm(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    std::vector<Example> out;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        const QByteArray line = raw.simplified();
        if (line.isEmpty()) continue;
        const QList<QByteArray> tokens = line.split(' ');
        Example e;
        e.label = tokens[0].toDouble();
        for (qsizetype t = 1; t < tokens.size(); ++t) {
            const auto colon = tokens[t].indexOf(':');
            e.x[tokens[t].left(colon).toInt()] = tokens[t].mid(colon + 1).toDouble();
        }
        out.push_back(std::move(e));
    }
    return out;
}

// The model file of a single Gaussian kernel (solvers/kernel/kernel_model.h's layout): the
// keys, then one "c j:v …" line per support vector.
struct GaussianModel {
    double gamma = 0.0;
    double bias = 0.0;
    double classes[2] = {0, 0};
    std::vector<double> coefficients;
    std::vector<Sparse> supportVectors;
    int announced = -1;
};

bool readGaussianModel(const QString& path, GaussianModel* model, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = "cannot read " + path;
        return false;
    }
    const QList<QByteArray> lines = file.readAll().split('\n');
    if (lines.isEmpty() || lines[0] != "# cplab kernel model") {
        *why = "first line is not '# cplab kernel model'";
        return false;
    }
    bool inVectors = false;
    for (qsizetype n = 1; n < lines.size(); ++n) {
        const QByteArray line = lines[n].trimmed();
        if (line.isEmpty()) continue;
        const QList<QByteArray> tokens = line.split(' ');
        if (inVectors) {
            model->coefficients.push_back(tokens[0].toDouble());
            Sparse x;
            for (qsizetype t = 1; t < tokens.size(); ++t) {
                const auto colon = tokens[t].indexOf(':');
                x[tokens[t].left(colon).toInt()] = tokens[t].mid(colon + 1).toDouble();
            }
            model->supportVectors.push_back(std::move(x));
        } else if (tokens[0] == "kernels") {
            if (!tokens[1].startsWith("gaussian:")) {
                *why = "not a Gaussian kernel: " + QString(tokens[1]);
                return false;
            }
            model->gamma = tokens[1].mid(9).toDouble();
        } else if (tokens[0] == "normalize") {
            if (tokens[1] != "none") {
                *why = "normalisation " + QString(tokens[1]);
                return false;
            }
        } else if (tokens[0] == "bias") {
            model->bias = tokens[1].toDouble();
        } else if (tokens[0] == "classes") {
            model->classes[0] = tokens[1].toDouble();
            model->classes[1] = tokens[2].toDouble();
        } else if (tokens[0] == "support_vectors") {
            model->announced = tokens[1].toInt();
            inVectors = true;
        }
    }
    return true;
}

double gaussian(double gamma, const Sparse& a, const Sparse& b) {
    double d2 = 0.0;
    for (const auto& [j, v] : a) {
        const auto it = b.find(j);
        const double w = it == b.end() ? 0.0 : it->second;
        d2 += (v - w) * (v - w);
    }
    for (const auto& [j, w] : b) {
        if (!a.count(j)) d2 += w * w;
    }
    return std::exp(-gamma * d2);
}

double numberOf(const QJsonObject& json, const char* key) {
    return json.value(key).toDouble(std::nan(""));
}

CliResult runOk(const QStringList& arguments, QJsonObject* json) {
    const CliResult r = runCli(arguments);
    bool ok = false;
    *json = parseObject(r.out, &ok);
    if (r.exitCode != 0 || !ok) qWarning("%s", qPrintable(describe(arguments, r)));
    return r;
}

}  // namespace

class TestKernelCli : public QObject {
    Q_OBJECT

  private slots:
    // The summary's fields; LIBSVM agrees on the optimum; the model file, evaluated here,
    // gives the summary's training error; `predict` gives it too.
    void svmOnHeartScale() {
        QTemporaryDir dir;
        const QString model = dir.filePath("heart.model");
        const QString predictions = dir.filePath("heart.predictions");
        const QStringList args = {"run",     "svm",
                                  "--data",  dataPath("heart_scale"),
                                  "--set",   "kernel=gaussian:0.5",
                                  "--json",  "--quiet",
                                  "--model", model};
        QJsonObject json;
        const CliResult r = runOk(args, &json);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json.value("family").toString(), QString("kernel"));
        QCOMPARE(json.value("status").toString(), QString("converged"));
        const QJsonObject weights = json.value("weights").toObject();
        QCOMPARE(weights.size(), 1);
        QCOMPARE(weights.value("gaussian:0.5").toDouble(), 1.0);
        for (const char* key :
             {"objective", "svm_calls", "smo_iterations", "support_vectors", "train_error"}) {
            QVERIFY2(json.value(key).isDouble(), key);
        }
        QCOMPARE(numberOf(json, "svm_calls"), 1.0);
        QVERIFY(numberOf(json, "smo_iterations") > 0);
        const double trainError = numberOf(json, "train_error");
        const int supportVectors = json.value("support_vectors").toInt();

        // LIBSVM on the same SVM: the same optimum within the KKT tolerance's reach.
        QJsonObject peer;
        QCOMPARE(runOk({"run", "libsvm", "--data", dataPath("heart_scale"), "--set",
                        "kernel=gaussian:0.5", "--json", "--quiet"},
                       &peer)
                     .exitCode,
                 0);
        const double objective = numberOf(json, "objective");
        QVERIFY2(std::abs(objective - numberOf(peer, "objective")) <= 1e-4 * objective,
                 qPrintable(QString("svm %1, LIBSVM %2")
                                .arg(objective, 0, 'g', 12)
                                .arg(numberOf(peer, "objective"), 0, 'g', 12)));
        QVERIFY(std::abs(supportVectors - peer.value("support_vectors").toInt()) <= 2);
        QVERIFY(std::abs(trainError - numberOf(peer, "train_error")) <= 2.0 / 270);

        // The model file: f(x) = Σ cᵢ exp(−γ‖xᵢ − x‖²) + b, evaluated here.
        GaussianModel m;
        QString why;
        QVERIFY2(readGaussianModel(model, &m, &why), qPrintable(why));
        QCOMPARE(m.gamma, 0.5);
        QCOMPARE(m.announced, supportVectors);
        QCOMPARE(static_cast<int>(m.supportVectors.size()), supportVectors);
        const std::vector<Example> data = readLibsvm(dataPath("heart_scale"));
        QCOMPARE(data.size(), std::size_t(270));
        int wrong = 0;
        for (const Example& e : data) {
            double f = m.bias;
            for (std::size_t i = 0; i < m.supportVectors.size(); ++i)
                f += m.coefficients[i] * gaussian(m.gamma, m.supportVectors[i], e.x);
            wrong += (f > 0 ? m.classes[1] : m.classes[0]) != e.label;
        }
        QCOMPARE(static_cast<double>(wrong) / data.size(), trainError);

        // predict: the same error, and predictions in the file's label values.
        QJsonObject predicted;
        QCOMPARE(runOk({"predict", "--model", model, "--data", dataPath("heart_scale"), "--out",
                        predictions, "--json"},
                       &predicted)
                     .exitCode,
                 0);
        QCOMPARE(predicted.value("examples").toInt(), 270);
        QCOMPARE(numberOf(predicted, "error"), trainError);
        QFile out(predictions);
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QList<QByteArray> labels = out.readAll().trimmed().split('\n');
        QCOMPARE(labels.size(), qsizetype(270));
        int differ = 0;
        for (qsizetype i = 0; i < labels.size(); ++i) {
            QVERIFY(labels[i] == "1" || labels[i] == "-1");
            differ += labels[i].toDouble() != data[static_cast<std::size_t>(i)].label;
        }
        QCOMPARE(differ, wrong);
    }

    // A precomputed linear kernel (30 heart_scale examples; test rows against them) is the
    // same SVM as the linear kernel on their feature vectors: same optimum, same errors. The
    // KKT tolerance is tight because the two kernels round differently in the last bit, which
    // may send SMO along another path to a point within its tolerance.
    void precomputedEqualsItsFeatures() {
        QTemporaryDir dir;
        const QString kernelModel = dir.filePath("pre.model");
        const QString linearModel = dir.filePath("lin.model");
        QJsonObject pre, lin;
        QCOMPARE(runOk({"run", "svm", "--data", dataPath("kernel/heart30_linear.precomputed"),
                        "--test", dataPath("kernel/heart30_linear_test.precomputed"), "--set",
                        "kkt_tolerance=1e-9", "--json", "--quiet", "--model", kernelModel},
                       &pre)
                     .exitCode,
                 0);
        QCOMPARE(runOk({"run", "svm", "--data", dataPath("kernel/heart30.libsvm"), "--test",
                        dataPath("kernel/heart30_test.libsvm"), "--set", "kernel=linear", "--set",
                        "kkt_tolerance=1e-9", "--json", "--quiet", "--model", linearModel},
                       &lin)
                     .exitCode,
                 0);
        QVERIFY(pre.value("weights").toObject().contains("precomputed"));
        QVERIFY(std::abs(numberOf(pre, "objective") - numberOf(lin, "objective")) <=
                1e-9 * numberOf(lin, "objective"));
        QCOMPARE(numberOf(pre, "train_error"), numberOf(lin, "train_error"));
        QCOMPARE(numberOf(pre, "test_error"), numberOf(lin, "test_error"));
        QCOMPARE(pre.value("support_vectors").toInt(), lin.value("support_vectors").toInt());
        QJsonObject a, b;
        QCOMPARE(runOk({"predict", "--model", kernelModel, "--data",
                        dataPath("kernel/heart30_linear_test.precomputed"), "--json"},
                       &a)
                     .exitCode,
                 0);
        QCOMPARE(runOk({"predict", "--model", linearModel, "--data",
                        dataPath("kernel/heart30_test.libsvm"), "--json"},
                       &b)
                     .exitCode,
                 0);
        QCOMPARE(a.value("examples").toInt(), 10);
        QCOMPARE(numberOf(a, "error"), numberOf(pre, "test_error"));
        QCOMPARE(numberOf(a, "error"), numberOf(b, "error"));
    }

    // A held-out split of a precomputed kernel takes the same examples as the split of the
    // feature file (same seed) and cuts rows and columns: the same SVM again.
    void precomputedSplitEqualsFeatureSplit() {
        QJsonObject pre, lin;
        QCOMPARE(runOk({"run", "svm", "--data", dataPath("kernel/heart30_linear.precomputed"),
                        "--test-fraction", "0.3", "--seed", "7", "--json", "--quiet"},
                       &pre)
                     .exitCode,
                 0);
        QCOMPARE(
            runOk({"run", "svm", "--data", dataPath("kernel/heart30.libsvm"), "--test-fraction",
                   "0.3", "--seed", "7", "--set", "kernel=linear", "--json", "--quiet"},
                  &lin)
                .exitCode,
            0);
        QVERIFY(std::abs(numberOf(pre, "objective") - numberOf(lin, "objective")) <=
                1e-9 * numberOf(lin, "objective"));
        QCOMPARE(numberOf(pre, "test_error"), numberOf(lin, "test_error"));
        QCOMPARE(pre.value("support_vectors").toInt(), lin.value("support_vectors").toInt());
    }

    // The demos: MKL puts the checkerboard's weight on the Gaussian; one kernel per feature of
    // ionosphere ends sparse; the step-wise SMO ends where LIBSVM does.
    void demos() {
        QJsonObject choice;
        QCOMPARE(runOk({"demo", "kernel_choice_2d", "--json", "--quiet"}, &choice).exitCode, 0);
        const QJsonArray runs = choice.value("runs").toArray();
        QCOMPARE(runs.size(), qsizetype(2));
        for (const QJsonValue& run : runs) {
            const QJsonObject weights = run.toObject().value("weights").toObject();
            QVERIFY2(weights.value("gaussian:2").toDouble() > 0.99,
                     qPrintable(run.toObject().value("solver").toString()));
        }
        QJsonObject features;
        QCOMPARE(runOk({"demo", "ionosphere_features", "--json", "--quiet"}, &features).exitCode,
                 0);
        const QJsonObject silp = features.value("runs").toArray().at(0).toObject();
        const QJsonObject weights = silp.value("weights").toObject();
        QCOMPARE(weights.size(), qsizetype(34));
        int used = 0;
        for (const QJsonValue& w : weights)
            used += w.toDouble() > 1e-3;
        QVERIFY2(used > 0 && used < 17, qPrintable(QString::number(used)));
        QVERIFY(numberOf(silp, "train_error") < 0.1);
        QJsonObject svm;
        QCOMPARE(runOk({"demo", "svm_2d", "--json", "--quiet"}, &svm).exitCode, 0);
        const QJsonArray pair = svm.value("runs").toArray();
        QCOMPARE(pair.size(), qsizetype(2));
        const QJsonObject smo = pair.at(0).toObject(), peer = pair.at(1).toObject();
        QCOMPARE(smo.value("solver").toString(), QString("svm"));
        QCOMPARE(peer.value("solver").toString(), QString("libsvm"));
        QVERIFY(std::abs(smo.value("support_vectors").toInt() -
                         peer.value("support_vectors").toInt()) <= 2);
        QVERIFY(std::abs(numberOf(smo, "train_error") - numberOf(peer, "train_error")) <=
                2.0 / 250);
    }

    void invalidInputsExitWithOne_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString heart = dataPath("heart_scale");
        QTest::newRow("unknown kernel word")
            << QStringList{"run", "svm", "--data", heart, "--set", "kernel=rbf:1"}
            << "unknown kernel 'rbf'";
        QTest::newRow("gamma zero")
            << QStringList{"run", "svm", "--data", heart, "--set", "kernel=gaussian:0"}
            << "gamma must be > 0";
        QTest::newRow("gamma negative")
            << QStringList{"run", "silp", "--data", heart, "--set", "kernels=linear;gaussian:-2"}
            << "gamma must be > 0";
        QTest::newRow("C zero") << QStringList{"run", "svm", "--data", heart, "--set", "C=0"}
                                << "C = 0: must be a finite number > 0";
        QTest::newRow("C negative")
            << QStringList{"run", "simplemkl", "--data", heart, "--set", "C=-1"}
            << "C = -1: must be a finite number > 0";
        // Extremes: C whose primal swamps every other digit, and a kernel that overflows.
        QTest::newRow("C 1e300") << QStringList{"run", "silp", "--data", heart, "--set", "C=1e300"}
                                 << "C = 1e+300: must be <= 1e15";
        // Degrees above 100 are refused as such; below, K(x, x) beyond 1e100 is.
        QTest::newRow("poly degree overflows")
            << QStringList{"run", "svm", "--data", heart, "--set", "kernel=poly:100"}
            << "kernel 'poly:100,1': K(x, x) = 3.8084483348987364e+103 on training example 6 "
               "is beyond 1e100";
        QTest::newRow("poly degree too large")
            << QStringList{"run", "svm", "--data", heart, "--set", "kernel=poly:1000000"}
            << "kernel 'poly:1000000': degree '1000000' is too large: at most 100";
        QTest::newRow("two kernels for svm")
            << QStringList{"run", "svm", "--data", heart, "--set", "kernel=linear;poly:2"}
            << "this solver takes one kernel";
        QTest::newRow("one class")
            << QStringList{"run", "svm", "--data", dataPath("kernel/one_class.libsvm")}
            << "has only one class";
        QTest::newRow("precomputed not square")
            << QStringList{"run", "svm", "--data", dataPath("kernel/heart29x30_linear.precomputed")}
            << "29 rows × 30 columns; a training kernel must be square";
        QTest::newRow("precomputed test of the wrong width")
            << QStringList{"run",    "svm",
                           "--data", dataPath("kernel/heart30_linear.precomputed"),
                           "--test", dataPath("kernel/heart30_linear_test_short.precomputed")}
            << "row has 29 values; expected 30";
        QTest::newRow("precomputed kernel on features")
            << QStringList{"run", "svm", "--data", heart, "--set", "kernel=precomputed"}
            << "needs a precomputed-kernel file";
        QTest::newRow("features kernel on a precomputed file")
            << QStringList{"run",    "svm",
                           "--data", dataPath("kernel/heart30_linear.precomputed"),
                           "--set",  "kernel=gaussian:1"}
            << "its solvers take the kernel 'precomputed', not 'gaussian:1'";
        QTest::newRow("bad model file")
            << QStringList{"predict", "--model", dataPath("kernel/bad_models/index_beyond.model"),
                           "--data", heart}
            << "index_beyond.model:11: feature index 3 outside 1..2";
        QTest::newRow("model and data disagree")
            << QStringList{"predict", "--model", dataPath("kernel/model_ok.model"), "--data", heart}
            << "the data have 13 features but the model only 2";
    }
    void invalidInputsExitWithOne() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        if (arguments.first() == "run") arguments << "--quiet";
        const CliResult r = runCli(arguments);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(arguments, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(message), qPrintable(describe(arguments, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(arguments, r)));
    }
};

QTEST_MAIN(TestKernelCli)
#include "test_kernel_cli.moc"
