// SPDX-License-Identifier: GPL-3.0-or-later
// `cplab-cli run mklpath` as a black box: the JSON summary's path (λ and every ηⱼ, one entry
// per path point), the λ of the lowest held-out error, the trace CSV with one row per path
// point, and refusals of bad options and data with exit status 1.
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "cli_process.h"

using namespace cplab::clitest;

namespace {

const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

QStringList pathRun(const QString& trace) {
    return {"run",
            "mklpath",
            "--data",
            kData + "/cli/bupa.csv",
            "--test-fraction",
            "0.3",
            "--set",
            "loss=logistic",
            "--set",
            "kernels=gaussian:0.1,1;linear",
            "--set",
            "mu=1e-2",
            "--trace",
            trace,
            "--json",
            "--quiet"};
}

}  // namespace

class TestMklPathCli : public QObject {
    Q_OBJECT

  private slots:
    void summaryHasThePath();
    void refusesBadOptionsAndData();
};

void TestMklPathCli::summaryHasThePath() {
    QTemporaryDir dir;
    const QString trace = dir.filePath("path.csv");
    const QStringList args = pathRun(trace);
    const CliResult r = runCli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
    bool ok = false;
    const QJsonObject json = parseObject(r.out, &ok);
    QVERIFY2(ok, qPrintable(describe(args, r)));
    QCOMPARE(json.value("solver").toString(), QString("mklpath"));
    QCOMPARE(json.value("status").toString(), QString("converged"));
    const int iterations = json.value("iterations").toInt();
    QVERIFY(iterations > 3);
    const QJsonObject path = json.value("path").toObject();
    const QJsonArray lambdas = path.value("lambda").toArray();
    QCOMPARE(lambdas.size(), iterations + 1);  // the start λ₀ and one point per step
    for (const char* kernel : {"gaussian:0.1", "gaussian:1", "linear"}) {
        QVERIFY2(path.contains(QLatin1String(kernel)), kernel);
        QCOMPARE(path.value(QLatin1String(kernel)).toArray().size(), lambdas.size());
    }
    QCOMPARE(lambdas.first().toDouble(), json.value("lambda_0").toDouble());
    for (int i = 1; i < lambdas.size(); ++i)
        QVERIFY(lambdas[i].toDouble() < lambdas[i - 1].toDouble());
    QCOMPARE(json.value("path_parameter").toDouble(), lambdas.last().toDouble());
    // best_lambda is a point of the path.
    const double best = json.value("best_lambda").toDouble();
    bool found = false;
    for (const auto& l : lambdas)
        found = found || l.toDouble() == best;
    QVERIFY2(found, qPrintable(QString::number(best)));
    QVERIFY(json.value("best_test_error").toDouble() <= json.value("test_error").toDouble());

    // The trace: one row per path point, path_parameter = the lambda column.
    QFile file(trace);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), iterations + 1);
    const QStringList header = lines.first().split(',');
    const int pathColumn = static_cast<int>(header.indexOf("path_parameter"));
    const int lambdaColumn = static_cast<int>(header.indexOf("lambda"));
    QVERIFY(pathColumn >= 0 && lambdaColumn >= 0 && header.contains("eta:linear"));
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList row = lines[i].split(',');
        QCOMPARE(row[pathColumn].toDouble(), row[lambdaColumn].toDouble());
        QCOMPARE(row[lambdaColumn].toDouble(), lambdas[i].toDouble());
    }
}

void TestMklPathCli::refusesBadOptionsAndData() {
    const QStringList badMu = {"run",   "mklpath", "--data", kData + "/cli/bupa.csv",
                               "--set", "mu=0",    "--quiet"};
    CliResult r = runCli(badMu);
    QVERIFY2(r.exitCode == 1 && r.err.contains("MklPathOptions::mu = 0"),
             qPrintable(describe(badMu, r)));
    const QStringList badLoss = {"run",   "mklpath",    "--data", kData + "/cli/bupa.csv",
                                 "--set", "loss=hinge", "--quiet"};
    r = runCli(badLoss);
    QVERIFY2(r.exitCode == 1 && r.err.contains("loss"), qPrintable(describe(badLoss, r)));
    // Three classes and the logistic loss.
    const QStringList multi = {
        "run",   "mklpath",       "--data", kData + "/cli/usps_first100.libsvm",
        "--set", "loss=logistic", "--quiet"};
    r = runCli(multi);
    QVERIFY2(r.exitCode == 1 && r.err.contains("two label values"), qPrintable(describe(multi, r)));
}

QTEST_GUILESS_MAIN(TestMklPathCli)
#include "test_mkl_path_cli.moc"
