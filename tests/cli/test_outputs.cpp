// SPDX-License-Identifier: GPL-3.0-or-later
// Outputs never destroy what the user has (DESIGN.md, "Data and formats"), checked through the
// real cplab-cli: an output that is an input (by any spelling, a symbolic link or a hard link)
// is refused before the run; outputs write through symbolic links, dangling ones too, and take
// names as long as the system allows; a write-protected file is refused; a user's own `X.part` is
// never touched; a failed run writes no model; a full file system (a file-size limit) leaves the
// old file whole; SIGTERM and SIGINT stop a run at an iteration boundary with its outputs written.
// After every refused or failed run the pre-existing file's bytes and mode are compared with
// what they were.
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_process.h"

using namespace cplab;
using clitest::CliResult;
using clitest::describe;
using clitest::parseObject;
using clitest::runCli;

namespace {

QString dataFile(const QString& name) {
    return QString(CPLAB_TEST_DATA_DIR) + "/" + name;
}

QByteArray bytesOf(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

mode_t modeOf(const QString& path) {
    struct stat info {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

// The names in `dir` other than `keep`: what a run left behind.
QStringList strayFiles(const QString& dir, const QStringList& keep) {
    QStringList stray;
    for (const QString& name :
         QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
        if (!keep.contains(name)) stray << name;
    }
    return stray;
}

// A file whose bytes and mode must survive a command.
struct Kept {
    QString path;
    QByteArray bytes;
    mode_t mode;
    explicit Kept(QString p) : path(std::move(p)), bytes(bytesOf(path)), mode(modeOf(path)) {}
    bool intact() const { return bytesOf(path) == bytes && modeOf(path) == mode; }
};

}  // namespace

class TestOutputs : public QObject {
    Q_OBJECT

  private slots:
    // --model / --trace / --labeling / predict --out that name an input, spelled differently,
    // through a symbolic link or a hard link: exit 1 before the run, the input unchanged.
    void outputThatIsAnInputIsRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("outputFlag");
        QTest::addColumn<QString>("spelling");  // same, dot, symlink, hardlink
        QTest::addColumn<QString>("victim");    // which input the output names
        const QStringList spellings = {"same", "dot", "symlink", "hardlink"};
        for (const QString& spelling : spellings) {
            for (const char* flag : {"--model", "--trace"}) {
                QTest::addRow("run %s=data %s", flag, qPrintable(spelling))
                    << "run" << flag << spelling << "data";
                QTest::addRow("run %s=test %s", flag, qPrintable(spelling))
                    << "run" << flag << spelling << "test";
            }
            QTest::addRow("run --labeling=uai %s", qPrintable(spelling))
                << "map"
                << "--labeling" << spelling << "data";
            QTest::addRow("run --labeling=evid %s", qPrintable(spelling))
                << "map"
                << "--labeling" << spelling << "evid";
            QTest::addRow("predict --out=model %s", qPrintable(spelling))
                << "predict"
                << "--out" << spelling << "model";
            QTest::addRow("predict --out=data %s", qPrintable(spelling))
                << "predict"
                << "--out" << spelling << "data";
        }
    }
    void outputThatIsAnInputIsRefused() {
        QFETCH(QString, command);
        QFETCH(QString, outputFlag);
        QFETCH(QString, spelling);
        QFETCH(QString, victim);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString base = dir.path();
        QStringList args;
        QString victimPath;
        if (command == "run") {
            QVERIFY(QFile::copy(dataFile("heart_scale"), base + "/train.svm"));
            QVERIFY(QFile::copy(dataFile("heart_scale"), base + "/test.svm"));
            args = {"run",    "ocas", "--data", base + "/train.svm", "--test", base + "/test.svm",
                    "--quiet"};
            victimPath = base + (victim == "data" ? "/train.svm" : "/test.svm");
        } else if (command == "map") {
            QVERIFY(QFile::copy(dataFile("map/uai2014/Grids_18.uai.gz"), base + "/g.uai"));
            QVERIFY(QFile::copy(dataFile("map/uai2014/Grids_18.uai.evid"), base + "/g.uai.evid"));
            args = {"run",     "trws",  "--data",          base + "/g.uai",
                    "--quiet", "--set", "max_iterations=5"};
            victimPath = base + (victim == "data" ? "/g.uai" : "/g.uai.evid");
        } else {
            QVERIFY(QFile::copy(dataFile("heart_scale"), base + "/d.svm"));
            const CliResult trained = runCli(
                {"run", "ocas", "--data", base + "/d.svm", "--model", base + "/m.txt", "--quiet"});
            QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
            args = {"predict", "--model", base + "/m.txt", "--data", base + "/d.svm"};
            victimPath = base + (victim == "model" ? "/m.txt" : "/d.svm");
        }
        QString outputPath = victimPath;
        const QString name = QFileInfo(victimPath).fileName();
        if (spelling == "dot") {
            outputPath = base + "/./" + name;
        } else if (spelling == "symlink") {
            outputPath = base + "/link_to_" + name;
            QVERIFY(QFile::link(victimPath, outputPath));
        } else if (spelling == "hardlink") {
            outputPath = base + "/hard_" + name;
            QCOMPARE(::link(QFile::encodeName(victimPath).constData(),
                            QFile::encodeName(outputPath).constData()),
                     0);
        }
        const Kept kept(victimPath);
        args << outputFlag << outputPath;
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains("an output never replaces an input"),
                 qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        QVERIFY2(kept.intact(), qPrintable(victimPath + " was changed"));
    }

    // Two outputs that are one file: refused, nothing written.
    void twoOutputsThatAreOneFileAreRefused() {
        QTemporaryDir dir;
        const QStringList args = {"run",
                                  "ocas",
                                  "--data",
                                  dataFile("heart_scale"),
                                  "--quiet",
                                  "--trace",
                                  dir.filePath("x"),
                                  "--model",
                                  dir.filePath("./x")};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1 && r.err.contains("are one file"), qPrintable(describe(args, r)));
        QVERIFY(!QFileInfo::exists(dir.filePath("x")));
    }

    // A write-protected output (0444) is refused and keeps its bytes and its mode — also as
    // root, who could write it.
    void writeProtectedOutputIsKept() {
        for (const char* flag : {"--model", "--trace"}) {
            QTemporaryDir dir;
            const QString out = dir.filePath("out.txt");
            QFile file(out);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("precious\n");
            file.close();
            QCOMPARE(::chmod(QFile::encodeName(out).constData(), 0444), 0);
            const Kept kept(out);
            const QStringList args = {"run",     "ocas", "--data", dataFile("heart_scale"),
                                      "--quiet", flag,   out};
            const CliResult r = runCli(args);
            QVERIFY2(r.exitCode == 1 && r.err.contains("write-protected (mode 0444)"),
                     qPrintable(describe(args, r)));
            QVERIFY(kept.intact());
        }
    }

    // A replaced file keeps its permission bits (0600 stays 0600, 0640 stays 0640); a user's
    // own `X.part` is not touched; nothing but the outputs is left in the folder.
    void replacedFileKeepsItsModeAndPartIsNotTouched() {
        QTemporaryDir dir;
        const QString model = dir.filePath("m.txt");
        const QString trace = dir.filePath("t.csv");
        for (const QString& path : {model, trace}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("old\n");
        }
        QCOMPARE(::chmod(QFile::encodeName(model).constData(), 0600), 0);
        QCOMPARE(::chmod(QFile::encodeName(trace).constData(), 0640), 0);
        QFile part(model + ".part");
        QVERIFY(part.open(QIODevice::WriteOnly));
        part.write("the user's own file\n");
        part.close();
        const Kept partKept(model + ".part");
        const QStringList args = {"run",     "ocas",    "--data", dataFile("heart_scale"),
                                  "--quiet", "--model", model,    "--trace",
                                  trace};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY(bytesOf(model).startsWith("# cplab linear model"));
        QVERIFY(bytesOf(trace).startsWith("iteration,"));
        QCOMPARE(modeOf(model), mode_t(0600));
        QCOMPARE(modeOf(trace), mode_t(0640));
        QVERIFY(partKept.intact());
        QCOMPARE(strayFiles(dir.path(), {"m.txt", "t.csv", "m.txt.part"}), QStringList());
    }

    // An output that is a symbolic link is written through it, also when the link dangles
    // (the file it names is created; the link stays a link, relative links resolved against
    // the link's folder); a name of 250 bytes, legal, is written (its temporary file's name is
    // shortened to fit the system's 255).
    void outputsWriteThroughDanglingLinksAndTakeLongNames() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        const QString link = dir.filePath("t.csv");
        QVERIFY(QFile::link("sub/trace.csv", link));  // relative, dangling
        const QString longName = dir.filePath(QString(246, 'x') + ".txt");
        const QStringList args = {"run",     "ocas",    "--data", dataFile("heart_scale"),
                                  "--quiet", "--trace", link,     "--model",
                                  longName};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(bytesOf(dir.filePath("sub/trace.csv")).startsWith("iteration,"));
        QVERIFY(bytesOf(longName).startsWith("# cplab linear model"));
        QCOMPARE(strayFiles(dir.path(), {"t.csv", QFileInfo(longName).fileName()}), QStringList());
        QCOMPARE(strayFiles(dir.filePath("sub"), {"trace.csv"}), QStringList());
    }

    // FILE.running (core/live_trace.h): the user's own file of that name is refused and left
    // as it was; one that a killed run left is taken over and gone after the run.
    void runningTraceOfAnotherIsLeftAlone() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("t.csv");
        QFile own(trace + ".running");
        QVERIFY(own.open(QIODevice::WriteOnly));
        own.write("the user's own file\n");
        own.close();
        const Kept kept(trace + ".running");
        QStringList args = {"run",     "ocas",    "--data", dataFile("heart_scale"),
                            "--quiet", "--trace", trace};
        CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains("t.csv.running: exists and is not a trace cplab wrote"),
                 qPrintable(describe(args, r)));
        QVERIFY(kept.intact());
        QVERIFY(!QFileInfo::exists(trace));
        QVERIFY(own.open(QIODevice::WriteOnly | QIODevice::Truncate));
        own.write("iteration,seconds,oracle_calls,upper,lower,gap,rel_gap\n1,0,1,2,1,1,0.5\n");
        own.close();
        r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY(bytesOf(trace).startsWith("iteration,"));
        QCOMPARE(strayFiles(dir.path(), {"t.csv"}), QStringList());
    }

    // A run that fails (exit 2) leaves an existing good model as it was, and says so.
    void failedRunWritesNoModel() {
        QTemporaryDir dir;
        const QString model = dir.filePath("m.txt");
        const CliResult good =
            runCli({"run", "ocas", "--data", dataFile("heart_scale"), "--model", model, "--quiet"});
        QVERIFY2(good.exitCode == 0, qPrintable(good.err));
        const Kept kept(model);
        const QStringList args = {
            "run",     "libocas", "--data", dataFile("cli/same_x_two_labels.libsvm"),
            "--quiet", "--model", model};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains("not written: the run failed"), qPrintable(describe(args, r)));
        QVERIFY(kept.intact());
        QCOMPARE(strayFiles(dir.path(), {"m.txt"}), QStringList());
    }

    // A write that hits a full file system (here a file-size limit, as `ulimit -f` sets)
    // fails with the system's reason and leaves the old trace whole, with no temporary left.
    void fullFileSystemKeepsTheOldFile() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("t.csv");
        QFile file(trace);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("iteration,upper\n1,2\n");
        file.close();
        const Kept kept(trace);
        // 8 blocks of 1 KB (bash counts ulimit -f in KB): far less than the trace's size.
        const QString script = QString(
                                   "ulimit -f 8; exec '%1' run ocas --data '%2' --quiet "
                                   "--set tol_rel=1e-9 --trace '%3'")
                                   .arg(CPLAB_CLI_PATH, dataFile("a9a.gz"), trace);
        QProcess process;
        process.start("bash", {"-c", script});
        QVERIFY(process.waitForFinished(120000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 1,
                 qPrintable(QString("exit %1: %2").arg(process.exitCode()).arg(err)));
        QVERIFY2(err.contains("t.csv: cannot write: File too large"), err.constData());
        QVERIFY(kept.intact());
        QCOMPARE(strayFiles(dir.path(), {"t.csv"}), QStringList());
    }

    // A FIFO that no process reads, as an output: refused at once instead of waiting forever.
    void fifoWithoutReaderIsRefused() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QStringList args = {"run",     "ocas",    "--data", dataFile("heart_scale"),
                                  "--quiet", "--trace", fifo};
        const CliResult r = runCli(args, 20000);
        QVERIFY2(r.exitCode == 1 && r.err.contains("FIFO that no process reads"),
                 qPrintable(describe(args, r)));
    }

    // A demo's trace prefix in a missing folder is refused before the first run.
    void demoTracePrefixCheckedFirst() {
        const QStringList args = {"demo", "kelley", "--trace-prefix", "/nonexistent/x", "--quiet"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1 && r.err.contains("does not exist"),
                 qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
    }

    // SIGTERM or SIGINT in the middle of a run: it stops at the next iteration boundary,
    // writes its trace and model as a finished run would (status "cancelled"), leaves no
    // temporary file and exits with 128 + the signal's number.
    void signalStopsCleanly_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }
    void signalStopsCleanly() {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString model = dir.filePath("m.txt");
        const QString trace = dir.filePath("t.csv");
        const QStringList args = {"run",     "sgd",
                                  "--data",  dataFile("a9a.gz"),
                                  "--set",   "max_iterations=1000000",
                                  "--set",   "max_seconds=600",
                                  "--model", model,
                                  "--trace", trace,
                                  "--json"};
        QProcess process;
        process.start(QStringLiteral(CPLAB_CLI_PATH), args);
        QVERIFY(process.waitForStarted());
        // Wait for the progress line of iteration 10 and the (throttled) one after it.
        QByteArray err;
        QElapsedTimer timer;
        timer.start();
        const auto lineAfterTen = [&] {
            const qsizetype at = err.indexOf(" iter     10 ");
            return at >= 0 && err.indexOf('\n', err.indexOf('\n', at) + 1) >= 0;
        };
        while (!lineAfterTen() && timer.elapsed() < 60000) {
            process.waitForReadyRead(200);
            err += process.readAllStandardError();
        }
        QVERIFY2(lineAfterTen(), err.constData());
        // Mid-run, the trace grows in t.csv.running, a row per iteration; t.csv is not there.
        QVERIFY(bytesOf(trace + ".running").count('\n') >= 11);
        QVERIFY(!QFileInfo::exists(trace));
        ::kill(static_cast<pid_t>(process.processId()), signal);
        QVERIFY(process.waitForFinished(30000));
        err += process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 128 + signal,
                 qPrintable(QString("exit %1: %2").arg(process.exitCode()).arg(err)));
        bool ok = false;
        const QJsonObject json = parseObject(process.readAllStandardOutput(), &ok);
        QVERIFY(ok);
        QCOMPARE(json.value("status").toString(), QString("cancelled"));
        QVERIFY(json.value("message").toString().startsWith("stopped by SIG"));
        const int iterations = json.value("iterations").toInt();
        QVERIFY(iterations > 10);
        // The trace holds every iteration (a header and one row each), the model is whole.
        const QList<QByteArray> rows = bytesOf(trace).trimmed().split('\n');
        QCOMPARE(rows.size(), iterations + 1);
        QVERIFY(bytesOf(model).startsWith("# cplab linear model"));
        QCOMPARE(strayFiles(dir.path(), {"m.txt", "t.csv"}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestOutputs)
#include "test_outputs.moc"
