// SPDX-License-Identifier: GPL-3.0-or-later
// Models in the peers' own formats (`cplab-cli run --model-format`, docs/formats.md): a model
// written as LIBSVM's (kernel family: svm, libsvm, and silp/simplemkl with one kernel) is read by
// LIBSVM's own `svm-predict` (libsvm-tools), one written as LIBLINEAR's (linear family) by
// LIBLINEAR's own `liblinear-predict` (liblinear-tools); on a test set neither was trained on,
// their predictions equal those `cplab-cli predict` makes from the cplab model of the same run,
// line by line. What the peer cannot express (a combination of several kernels, a format of
// another family) is refused with exit status 1 and the reason.
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_data_files.h"

using namespace cplab::clitest;

namespace {

// The lines of heart_scale [first, first + count).
QByteArray heartLines(int first, int count) {
    QFile in(dataPath("heart_scale"));
    if (!in.open(QIODevice::ReadOnly)) return {};
    const QList<QByteArray> lines = in.readAll().split('\n');
    QByteArray out;
    for (int k = first; k < first + count && k < lines.size(); ++k)
        out += lines[k] + '\n';
    return out;
}

// The predicted labels of a predictions file, as numbers.
QList<double> labelsIn(const QString& path) {
    QFile in(path);
    QList<double> out;
    if (!in.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray& line : in.readAll().split('\n'))
        if (!line.trimmed().isEmpty()) out << line.trimmed().toDouble();
    return out;
}

}  // namespace

class TestPeerModels : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString train_, test_;

    QString write(const QString& name, const QByteArray& bytes) {
        QFile f(dir_.filePath(name));
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(bytes);
        return dir_.filePath(name);
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        train_ = write("train.svm", heartLines(0, 200));
        test_ = write("test.svm", heartLines(200, 70));
    }

    void peersPredictAsWeDo_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("tool");
        const QString svm = "svm-predict", linear = "liblinear-predict";
        QTest::newRow("svm gaussian") << "svm" << QStringList{} << "libsvm" << svm;
        QTest::newRow("svm poly") << "svm" << QStringList{"kernel=poly:2,1"} << "libsvm" << svm;
        QTest::newRow("svm linear") << "svm" << QStringList{"kernel=linear"} << "libsvm" << svm;
        QTest::newRow("libsvm reference") << "libsvm" << QStringList{} << "libsvm" << svm;
        QTest::newRow("silp one kernel")
            << "silp" << QStringList{"kernels=gaussian:0.5"} << "libsvm" << svm;
        QTest::newRow("simplemkl one kernel")
            << "simplemkl" << QStringList{"kernels=poly:2,1", "normalize=trace"} << "libsvm" << svm;
        QTest::newRow("ocas") << "ocas" << QStringList{} << "liblinear" << linear;
        QTest::newRow("ocas bias") << "ocas" << QStringList{"bias=true"} << "liblinear" << linear;
        QTest::newRow("bmrm logistic")
            << "bmrm" << QStringList{"risk=logistic"} << "liblinear" << linear;
        QTest::newRow("dcd squared hinge")
            << "dcd" << QStringList{"risk=squared_hinge", "bias=true"} << "liblinear" << linear;
        QTest::newRow("sgd") << "sgd" << QStringList{} << "liblinear" << linear;
        QTest::newRow("libocas") << "libocas" << QStringList{} << "liblinear" << linear;
    }
    void peersPredictAsWeDo() {
        QFETCH(QString, solver);
        QFETCH(QStringList, sets);
        QFETCH(QString, format);
        QFETCH(QString, tool);
        const QString toolPath = QStandardPaths::findExecutable(tool);
        if (toolPath.isEmpty())
            QFAIL(qPrintable(tool + " not found: scripts/setup.sh installs libsvm-tools and "
                                    "liblinear-tools"));
        const QString ours = dir_.filePath("ours.model"), theirs = dir_.filePath("theirs.model");
        const QStringList run =
            QStringList{"run", solver, "--data", train_, "--quiet"} + setArguments(sets);
        for (const QStringList& args :
             {run + QStringList{"--model", ours},
              run + QStringList{"--model", theirs, "--model-format", format}}) {
            const CliResult r = runCli(args);
            QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        }
        const QStringList predict{
            "predict", "--model", ours, "--data", test_, "--out", dir_.filePath("ours.txt")};
        const CliResult p = runCli(predict);
        QVERIFY2(p.exitCode == 0, qPrintable(describe(predict, p)));
        QProcess peer;
        peer.start(toolPath, {test_, theirs, dir_.filePath("theirs.txt")});
        QVERIFY(peer.waitForFinished(60000));
        QVERIFY2(peer.exitCode() == 0, peer.readAllStandardError().constData());
        const QList<double> expected = labelsIn(dir_.filePath("ours.txt"));
        QCOMPARE(expected.size(), 70);
        QCOMPARE(labelsIn(dir_.filePath("theirs.txt")), expected);
    }

    // A learnt combination of kernels LIBSVM cannot hold, a format of another family, a format
    // without a model file: exit 1 and the reason.
    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("several kernels")
            << QStringList{"run",   "silp", "--set", "kernels=gaussian:0.1,1,10", "--model-format",
                           "libsvm"}
            << "LIBSVM's model holds one kernel";
        QTest::newRow("another family's format")
            << QStringList{"run", "svm", "--model-format", "liblinear"}
            << "the kernel family writes models as cplab, libsvm";
        QTest::newRow("unknown format") << QStringList{"run", "ocas", "--model-format", "svmlight"}
                                        << "the linear family writes models as cplab, liblinear";
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        args << "--data" << train_ << "--model" << dir_.filePath("refused.model") << "--quiet";
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(message), qPrintable(describe(args, r)));
        QVERIFY(!QFile::exists(dir_.filePath("refused.model")));
        const QStringList noModel{"run", "svm", "--data", train_, "--model-format", "libsvm"};
        const CliResult n = runCli(noModel);
        QVERIFY2(n.exitCode == 1 && n.err.contains("--model-format needs --model FILE"),
                 qPrintable(describe(noModel, n)));
    }
};

QTEST_GUILESS_MAIN(TestPeerModels)
#include "test_peer_models.moc"
