// SPDX-License-Identifier: GPL-3.0-or-later
// The distributed oracle end to end (issue #32): the real cplab-cli under
// `mpirun --oversubscribe -np N` against one process on a9a (32,561 training and 16,281 test
// examples, tests/data), for ocas and bmrm:
//   * N = 2 and N = 3 (uneven byte shares) give the same objective, iteration count, training
//     and test errors and the same model file, bit for bit: every sum over examples is a
//     compensated pair rounded once (core/compensated_sum.h), so it does not depend on how
//     the examples are split; also on usps (real-valued pixels, ten classes), whose plain
//     sums took 641, 654 and 649 iterations on 1, 2 and 4 processes;
//   * N = 3 twice gives byte-identical model files and JSON numbers (rank-order sums);
//   * one file per rank (--data 'part-%r.svm') gives the same as the byte range of one file;
//   * oneslack and nslack, their decodings split by words over 3 ranks, give bit-identical
//     models, bounds and errors on the first 6,000 letters of OCR (tests/data);
//   * a bad line in rank 1's share fails every rank with one message naming the rank and the
//     file:line, promptly (no rank left waiting);
//     with a message saying what to do; a gzip file is shared by lines (streamed and skipped)
//     with the same result as one process.
// Skipped, with a message, where mpirun is absent or cplab-cli was built without MPI.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "cli_process.h"

using namespace cplab::clitest;

namespace {

const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

// cplab-cli run by mpirun with `ranks` processes (1: without mpirun).
CliResult runRanks(int ranks, const QStringList& arguments, int timeoutMs = 300000) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    process.setProcessEnvironment(env);
    if (ranks == 1) {
        process.start(QStringLiteral(CPLAB_CLI_PATH), arguments);
    } else {
        process.start(QStandardPaths::findExecutable("mpirun"),
                      QStringList{"--oversubscribe", "-np", QString::number(ranks),
                                  QStringLiteral(CPLAB_CLI_PATH)} +
                          arguments);
    }
    CliResult result;
    if (!process.waitForStarted(10000) || !process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = "did not start or finish";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// The uncompressed text of a .gz file of tests/data.
QByteArray gunzip(const QString& path) {
    QProcess gzip;
    gzip.start("gzip", {"-dc", path});
    gzip.waitForFinished(60000);
    return gzip.readAllStandardOutput();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A linear model file: the header lines (up to "weights") and the weights.
struct ModelFile {
    QStringList header;
    std::vector<double> weights;
    bool ok = false;
};

ModelFile readModel(const QString& path) {
    ModelFile model;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return model;
    bool inWeights = false;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty()) continue;
        if (!inWeights) {
            model.header << line;
            inWeights = line == "weights";
            continue;
        }
        for (const QString& token : line.split(' ', Qt::SkipEmptyParts))
            model.weights.push_back(token.toDouble());
    }
    model.ok = inWeights && !model.weights.empty();
    return model;
}

struct Run {
    QJsonObject json;
    ModelFile model;
    QByteArray modelBytes;
};

class MpiCliTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    QString train_, test_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    // `extra`: more arguments; the test set is a9a.t unless `extra` names one.
    Run run(int ranks, const QString& solver, const QString& data, const QString& tag,
            const QStringList& extra = {}) {
        const QString model = path(tag + ".model");
        QStringList args = {"run", solver,   "--data",  data,      "--set",
                            "C=1", "--json", "--quiet", "--model", model};
        args += extra.contains("--test") ? extra : QStringList{"--test", test_} + extra;
        const CliResult r = runRanks(ranks, args);
        Run out;
        bool ok = false;
        if (r.exitCode == 0) out.json = parseObject(r.out, &ok);
        if (!ok) qWarning("%s", qPrintable(describe(args, r)));
        QFile file(model);
        if (file.open(QIODevice::ReadOnly)) out.modelBytes = file.readAll();
        out.model = readModel(model);
        return out;
    }

    static void compare(const Run& one, const Run& many, const char* what) {
        QVERIFY2(!one.json.isEmpty() && !many.json.isEmpty(), what);
        QCOMPARE(many.json["status"].toString(), one.json["status"].toString());
        QCOMPARE(many.json["iterations"].toInteger(), one.json["iterations"].toInteger());
        const double f1 = one.json["objective_lambda"].toDouble();
        const double fn = many.json["objective_lambda"].toDouble();
        QVERIFY2(fn == f1, qPrintable(QString("%1: objective %2 vs %3")
                                          .arg(what)
                                          .arg(fn, 0, 'g', 17)
                                          .arg(f1, 0, 'g', 17)));
        QCOMPARE(many.json["train_error"].toDouble(), one.json["train_error"].toDouble());
        QCOMPARE(many.json["test_error"].toDouble(), one.json["test_error"].toDouble());
        QVERIFY2(one.model.ok && many.model.ok, what);
        QCOMPARE(many.model.header, one.model.header);
        QVERIFY2(many.modelBytes == one.modelBytes, what);
    }

  private slots:
    void initTestCase() {
        if (QStandardPaths::findExecutable("mpirun").isEmpty())
            QSKIP("mpirun is absent: install openmpi-bin (scripts/setup.sh) to test MPI runs");
#ifndef CPLAB_TEST_HAVE_MPI
        QSKIP("cplab-cli was built without MPI (libopenmpi-dev absent at configure time)");
#endif
        QVERIFY(dir_.isValid());
        train_ = path("a9a");
        test_ = path("a9a.t");
        QVERIFY(writeFile(train_, gunzip(kData + "/a9a.gz")));
        QVERIFY(writeFile(test_, gunzip(kData + "/a9a.t.gz")));
    }

    void sameAsOneProcess_data() {
        QTest::addColumn<QString>("solver");
        QTest::newRow("ocas") << "ocas";
        QTest::newRow("bmrm") << "bmrm";
    }
    void sameAsOneProcess() {
        QFETCH(QString, solver);
        const Run one = run(1, solver, train_, solver + "1");
        const Run two = run(2, solver, train_, solver + "2");
        compare(one, two, "2 ranks");
        const Run three = run(3, solver, train_, solver + "3");
        compare(one, three, "3 ranks");
        if (solver != "ocas") return;
        // Deterministic: the same 3 ranks again give the same bytes.
        const Run again = run(3, solver, train_, solver + "3again");
        QCOMPARE(again.modelBytes, three.modelBytes);
        QCOMPARE(again.json["objective_lambda"].toDouble(),
                 three.json["objective_lambda"].toDouble());
    }

    // Real-valued features and ten classes: no sum is exact in doubles, so only sums that
    // round once make 3 processes take one process's steps.
    void multiclassRealValued() {
        const QList<QByteArray> lines = gunzip(kData + "/usps.gz").split('\n');
        QVERIFY(lines.size() > 7000);
        QVERIFY(writeFile(path("usps"), lines.mid(0, 6000).join('\n') + '\n'));
        QVERIFY(writeFile(path("usps.t"), lines.mid(6000).join('\n')));
        const QStringList extra = {"--test",          path("usps.t"), "--set",
                                   "risk=multiclass", "--set",        "max_iterations=150"};
        const Run one = run(1, "ocas", path("usps"), "usps1", extra);
        const Run three = run(3, "ocas", path("usps"), "usps3", extra);
        compare(one, three, "usps, 3 ranks");
    }

    // A gzip file's shares: its lines, streamed and skipped, as one process reads them.
    void gzipSharedByLines() {
        const Run one = run(1, "ocas", train_, "gz1");
        const Run two = run(2, "ocas", kData + "/a9a.gz", "gz2");
        compare(one, two, "a9a.gz, 2 ranks");
    }

    // One file per rank, cut at other places than the byte split.
    void filePerRank() {
        const QList<QByteArray> lines = gunzip(kData + "/a9a.gz").split('\n');
        QByteArray first, second;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines[i].isEmpty()) continue;
            (i < 10000 ? first : second) += lines[i] + '\n';
        }
        QVERIFY(writeFile(path("part-0.svm"), first));
        QVERIFY(writeFile(path("part-1.svm"), second));
        const Run one = run(1, "ocas", train_, "parts1");
        const Run parts = run(2, "ocas", path("part-%r.svm"), "parts2");
        compare(one, parts, "part-%r files");
    }

    void structuredSameAsOneProcess_data() {
        QTest::addColumn<QString>("solver");
        QTest::newRow("oneslack") << "oneslack";
        QTest::newRow("nslack") << "nslack";
    }
    void structuredSameAsOneProcess() {
        QFETCH(QString, solver);
        const QString data = path("ocr6000.data");
        if (!QFile::exists(data)) {
            const QList<QByteArray> lines = gunzip(kData + "/ocr_letter.data.gz").split('\n');
            QVERIFY(writeFile(data, lines.mid(0, 6000).join('\n') + '\n'));
        }
        QByteArray model[2];
        QJsonObject json[2];
        for (int k = 0; k < 2; ++k) {
            const QString out = path(solver + QString::number(k) + ".chain");
            const QStringList args = {
                "run",    solver,    "--data",  data, "--set", "max_iterations=15",
                "--json", "--quiet", "--model", out};
            const CliResult r = runRanks(k == 0 ? 1 : 3, args);
            bool ok = false;
            json[k] = parseObject(r.out, &ok);
            QVERIFY2(r.exitCode == 0 && ok, qPrintable(describe(args, r)));
            QFile file(out);
            QVERIFY(file.open(QIODevice::ReadOnly));
            model[k] = file.readAll();
        }
        QVERIFY(!model[0].isEmpty());
        QCOMPARE(model[1], model[0]);
        for (const char* key : {"iterations", "upper", "lower", "train_error", "test_error"})
            QCOMPARE(json[1][key].toDouble(), json[0][key].toDouble());
    }

    // No output may be any rank's share: --model naming rank 1's file (part-1.svm) is refused
    // before anything is read or written, and the share keeps its bytes (only rank 0's share
    // was checked before).
    void outputThatIsAnotherRanksShareIsRefused() {
        QVERIFY(writeFile(path("share-0.svm"), "+1 1:1\n-1 1:-1\n"));
        QVERIFY(writeFile(path("share-1.svm"), "+1 1:2\n-1 1:-2\n"));
        for (const char* option : {"--model", "--trace"}) {
            const QStringList args = {
                "run",    "ocas", "--data", path("share-%r.svm"), option, path("share-1.svm"),
                "--quiet"};
            const CliResult r = runRanks(2, args, 60000);
            QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
            QVERIFY2(r.err.contains("share-1.svm") && r.err.contains("input"),
                     qPrintable(describe(args, r)));
            QFile share(path("share-1.svm"));
            QVERIFY(share.open(QIODevice::ReadOnly));
            QCOMPARE(share.readAll(), QByteArray("+1 1:2\n-1 1:-2\n"));
        }
    }

    void badShareFailsEveryRank() {
        QByteArray text = gunzip(kData + "/a9a.gz");
        // A bad value on line 30,000, in rank 1's half.
        qsizetype at = 0;
        for (int line = 1; line < 30000; ++line)
            at = text.indexOf('\n', at) + 1;
        text.insert(text.indexOf(' ', at), " 5:abc");
        QVERIFY(writeFile(path("bad.svm"), text));
        QElapsedTimer timer;
        timer.start();
        const QStringList args = {"run", "ocas", "--data", path("bad.svm"), "--quiet"};
        const CliResult r = runRanks(2, args, 60000);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.err.count("cplab-cli: ") == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains("rank 1: ") && r.err.contains("bad.svm:30000"),
                 qPrintable(describe(args, r)));
        QVERIFY2(timer.elapsed() < 30000, "a failed rank left the others waiting");
    }
};

}  // namespace

QTEST_GUILESS_MAIN(MpiCliTest)
#include "test_mpi_cli.moc"
