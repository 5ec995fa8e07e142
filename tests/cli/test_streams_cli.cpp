// SPDX-License-Identifier: GPL-3.0-or-later
// Data that is not a regular file, through the real cplab-cli (docs/formats.md, "Errors, long
// lines, pipes"): a pipe as `--data /dev/stdin` and as bash's `<(cat file)` trains on exactly the
// examples of the file itself (the format sniffing used to consume the first 16 KB, which the
// loader then missed), CSV and LIBSVM alike; a FIFO without a writer is refused within seconds,
// naming it; and the CSV header the loader took is reported as the summary field `header`.
#include <sys/stat.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_process.h"

using namespace cplab::clitest;

namespace {

const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

// cplab-cli with `input` written to its stdin (then closed).
CliResult runWithStdin(const QStringList& arguments, const QByteArray& input) {
    QProcess process;
    process.start(QStringLiteral(CPLAB_CLI_PATH), arguments);
    CliResult result;
    if (!process.waitForStarted(10000)) return result;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// The numbers that tell which examples a run trained on: m = 1 / (C λ), the objective and
// the training error.
QString trainedOn(const QJsonObject& summary) {
    const double m = 1.0 / (summary.value("C").toDouble() * summary.value("lambda").toDouble());
    return QString("m %1, upper %2, train_error %3")
        .arg(qRound64(m))
        .arg(summary.value("upper").toDouble(), 0, 'g', 17)
        .arg(summary.value("train_error").toDouble(), 0, 'g', 17);
}

QJsonObject summaryOf(const QStringList& arguments, const CliResult& r) {
    bool ok = false;
    const QJsonObject summary = parseObject(r.out, &ok);
    if (r.exitCode != 0 || !ok) qWarning("%s", qPrintable(describe(arguments, r)));
    return summary;
}

}  // namespace

class TestStreamsCli : public QObject {
    Q_OBJECT

  private slots:
    void pipesTrainOnTheWholeFile_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("m");
        QTest::newRow("LIBSVM, 73 KB") << "australian_scale" << 690;
        QTest::newRow("CSV without a header, 87 KB") << "sonar.all-data" << 208;
    }
    void pipesTrainOnTheWholeFile() {
        QFETCH(QString, file);
        QFETCH(int, m);
        const QString path = kData + "/" + file;
        QFile in(path);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        QVERIFY(bytes.size() > (16 << 10));  // more than any sniffing reads

        const QStringList regular{"run", "ocas", "--data", path, "--json", "--quiet"};
        const QString expected = trainedOn(summaryOf(regular, runCli(regular)));
        QVERIFY2(expected.startsWith(QString("m %1,").arg(m)), qPrintable(expected));

        const QStringList stdinArgs{"run", "ocas", "--data", "/dev/stdin", "--json", "--quiet"};
        const CliResult piped = runWithStdin(stdinArgs, bytes);
        QCOMPARE(trainedOn(summaryOf(stdinArgs, piped)), expected);

        const QString bash = QStandardPaths::findExecutable("bash");
        if (bash.isEmpty()) QSKIP("no bash for <(...)");
        QProcess process;
        process.start(bash, {"-c", QString("'%1' run ocas --data <(cat '%2') --json --quiet")
                                       .arg(QStringLiteral(CPLAB_CLI_PATH), path)});
        QVERIFY(process.waitForFinished(60000));
        CliResult substituted;
        substituted.exitCode = process.exitCode();
        substituted.out = process.readAllStandardOutput();
        substituted.err = process.readAllStandardError();
        QCOMPARE(trainedOn(summaryOf({"<(cat " + path + ")"}, substituted)), expected);
    }

    // A FIFO nobody writes: exit 1 after about 5 s (not a hang), naming the FIFO, and nothing
    // on stdout.
    void fifoWithoutWriterIsRefused() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("nobody.fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QStringList args{"run", "ocas", "--data", fifo, "--quiet"};
        QElapsedTimer clock;
        clock.start();
        const CliResult r = runCli(args, 20000);
        QVERIFY2(clock.elapsed() < 10000, qPrintable(describe(args, r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains((fifo + ": a FIFO with no writer after 5 s").toUtf8()),
                 qPrintable(describe(args, r)));
    }

    // The header CsvHeader::Auto took is reported (features, then the label); a file whose
    // first row is data reports none.
    void csvHeaderIsReported() {
        const QStringList bupa{"run", "ocas", "--data", kData + "/bupa.data", "--json", "--quiet"};
        const QJsonObject withHeader = summaryOf(bupa, runCli(bupa));
        QCOMPARE(withHeader.value("header").toString(),
                 QString("mean_corpuscular_volume, alkaline_phosphotase, alamine_aminotransferase, "
                         "aspartate_aminotransferase, gamma-glutamyl_transpeptidase, "
                         "half-pint_drinks/day, selector (label)"));
        const QStringList sonar{"run",    "ocas",   "--data", kData + "/sonar.all-data",
                                "--json", "--quiet"};
        const QJsonObject without = summaryOf(sonar, runCli(sonar));
        QVERIFY(without.contains("upper"));
        QVERIFY(!without.contains("header"));
    }
};

QTEST_MAIN(TestStreamsCli)
#include "test_streams_cli.moc"
