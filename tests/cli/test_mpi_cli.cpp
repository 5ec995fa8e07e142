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
//     with the same result as one process;
//   * the hostile runs of tests/cli/mpi_cases.tsv (the catalogue of runs over several
//     processes): outputs that are a rank's share, bad, missing, empty and FIFO shares, and
//     SIGINT/SIGTERM to mpirun or to one rank, each with its exit status and message, no input
//     changed and no FILE.running left.
// Skipped, with a message, where mpirun is absent or cplab-cli was built without MPI.
#include <sys/stat.h>
#include <sys/types.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <csignal>

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

// One row of tests/cli/mpi_cases.tsv (its header says what the columns mean).
struct MpiCase {
    int line = 0;
    QString id;
    int ranks = 2;
    QStringList command;
    QString signal;  // "" or SIGNAL>TARGET
    int exit = -1;
    QString stderrText, what;
    bool written = false;
};

// The rows of mpi_cases.tsv; false and *why for a malformed line.
bool readMpiCases(std::vector<MpiCase>* cases, QString* why) {
    const QString path = QStringLiteral(CPLAB_SOURCE_DIR) + "/tests/cli/mpi_cases.tsv";
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = path + ": cannot read";
        return false;
    }
    const auto dash = [](const QString& text) { return text == "-" ? QString() : text; };
    int number = 0;
    bool header = false;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        ++number;
        const QString text = QString::fromUtf8(raw);
        if (text.trimmed().isEmpty() || text.startsWith('#')) continue;
        const QStringList c = text.split('\t');
        bool ok = c.size() == 8;
        if (ok && !header) {
            header = c.first() == "id";
            if (!header) break;
            continue;
        }
        MpiCase row;
        row.line = number;
        if (ok) {
            row.id = c[0];
            row.ranks = c[1].toInt(&ok);
        }
        if (ok) row.exit = c[4].toInt(&ok);
        ok = ok && (c[7] == "none" || c[7] == "written");
        if (!ok) {
            *why = QString(
                       "%1:%2: expected 8 columns (id, ranks, command, signal, exit, stderr, "
                       "what, outputs)")
                       .arg(path)
                       .arg(number);
            return false;
        }
        row.command = c[2].split(' ', Qt::SkipEmptyParts);
        row.signal = dash(c[3]);
        row.stderrText = dash(c[5]);
        row.what = dash(c[6]);
        row.written = c[7] == "written";
        cases->push_back(row);
    }
    if (!header) *why = path + ": no header line";
    return header;
}

// The processes mpirun `parent` started whose environment names rank `rank`.
qint64 rankProcess(qint64 parent, int rank) {
    const QByteArray wanted = "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank);
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number) continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid ...: the fields after the last ')'.
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields[1].toLongLong() != parent) continue;
        QFile environ("/proc/" + entry + "/environ");
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains(wanted))
            return pid;
    }
    return -1;
}

// Lines of a text file (0 when it is absent).
int lineCount(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return 0;
    return static_cast<int>(file.readAll().count('\n'));
}

// mpirun -np `ranks` cplab-cli `arguments`; with `signal` (SIGNAL>TARGET), that signal is sent
// to mpirun or to one rank once `trace`.running holds 10 rows (the run is iterating), or with
// TARGET:loading once it exists (the data are loading).
CliResult runSignalled(int ranks, const QStringList& arguments, const QString& signal,
                       const QString& trace) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    process.setProcessEnvironment(env);
    process.start(QStandardPaths::findExecutable("mpirun"),
                  QStringList{"--oversubscribe", "-np", QString::number(ranks),
                              QStringLiteral(CPLAB_CLI_PATH)} +
                      arguments);
    CliResult result;
    if (!process.waitForStarted(10000)) return result;
    const QStringList parts = signal.split('>');
    bool sent = parts.size() != 2;
    QElapsedTimer timer;
    timer.start();
    while (!sent && process.state() == QProcess::Running && timer.elapsed() < 120000) {
        process.waitForFinished(50);
        // TARGET:loading: as soon as the run has taken FILE.running, while its data load.
        const QStringList target = parts[1].split(':');
        const bool loading = target.size() == 2 && target[1] == "loading";
        if (loading ? !QFile::exists(trace + ".running") : lineCount(trace + ".running") < 11)
            continue;
        const qint64 pid = target[0] == "mpirun"
                               ? process.processId()
                               : rankProcess(process.processId(), target[0].mid(4).toInt());
        sent =
            pid > 0 && ::kill(static_cast<pid_t>(pid), parts[0] == "INT" ? SIGINT : SIGTERM) == 0;
    }
    if (!sent || !process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        result.err = sent ? "did not finish" : "the signal was not sent";
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
    std::vector<MpiCase> cases_;
    QStringList hostileInputs_;  // the input files of mpi_cases.tsv, in dir_

    QString path(const QString& name) const { return dir_.filePath(name); }

    // The input files mpi_cases.tsv names (a few lines each; big-%r.svm: a9a's halves, for
    // runs long enough to be signalled), and its FIFOs.
    bool makeHostileInputs() {
        const QByteArray good = "+1 1:1 2:0.5\n-1 1:-1 2:-0.5\n+1 1:0.8\n-1 2:-1\n";
        const QByteArray good1 = "+1 1:0.9 2:0.2\n-1 1:-0.7\n+1 2:1\n-1 1:-0.2 2:-0.9\n";
        QFile a9a(train_);
        if (!a9a.open(QIODevice::ReadOnly)) return false;
        const QByteArray all = a9a.readAll();
        const qsizetype half = all.indexOf('\n', all.size() / 2) + 1;
        const QList<QPair<QString, QByteArray>> files = {
            {"good-0.svm", good},
            {"good-1.svm", good1},
            {"test-0.svm", good1},
            {"test-1.svm", good},
            {"three-0.svm", good},
            {"three-1.svm", good1},
            {"three-2.svm", good},
            {"missing-0.svm", good},
            {"labels-0.svm", good},
            {"labels-1.svm", "+1 1:2\n3 1:-2\n"},
            {"tlabels-0.svm", good1},
            {"tlabels-1.svm", "+1 1:2\n5 1:-2\n"},
            {"fifo-0.svm", good},
            {"empty-0.svm", good},
            {"empty-1.svm", ""},
            {"two-lines.svm", "+1 1:1\n-1 1:-1\n"},
            {"dims-0.svm", good},
            {"dims-1.svm", "+1 9:1\n-1 1:0.5 9:-1\n"},
            {"big-0.svm", all.left(half)},
            {"big-1.svm", all.mid(half)},
            {"huge-0.svm", all.repeated(6)},
            {"huge-1.svm", all.repeated(6)},
            {"labels-whole.svm", "+1 1:1\n-1 1:-1\n+1 1:2\n7 1:-2\n"},
            {"ocr.data",
             gunzip(kData + "/ocr_letter.data.gz").split('\n').mid(0, 6000).join('\n') + '\n'}};
        for (const auto& [name, bytes] : files) {
            if (!writeFile(path(name), bytes)) return false;
            hostileInputs_ << path(name);
        }
        for (const char* fifo : {"fifo.svm", "fifo-1.svm"}) {
            if (::mkfifo(QFile::encodeName(path(fifo)).constData(), 0600) != 0) return false;
        }
        return true;
    }

    // The bytes of every input file of mpi_cases.tsv.
    QList<QByteArray> hostileInputBytes() const {
        QList<QByteArray> bytes;
        for (const QString& name : hostileInputs_) {
            QFile file(name);
            bytes << (file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(gone)"));
        }
        return bytes;
    }

    // The value of `flag` in `args` (empty when absent).
    static QString valueOf(const QStringList& args, const QString& flag) {
        const qsizetype at = args.indexOf(flag);
        return at >= 0 && at + 1 < args.size() ? args[at + 1] : QString();
    }

    // A run that mpi_cases.tsv expects to write: a linear model, and a trace of one row per
    // iteration of the summary (so a signal stopped it at an iteration boundary).
    static void verifyWritten(const QString& model, const QString& trace, const CliResult& r,
                              const QString& context) {
        QFile file(model);
        QVERIFY2(file.open(QIODevice::ReadOnly) && file.readLine().startsWith("# cplab linear"),
                 qPrintable(context + "\nno model file " + model));
        const QRegularExpressionMatch m =
            QRegularExpression("^iterations\\s+(\\d+)$", QRegularExpression::MultilineOption)
                .match(QString::fromUtf8(r.out));
        QVERIFY2(m.hasMatch(), qPrintable(context + "\nno iteration count in the summary"));
        QCOMPARE(lineCount(trace) - 1, m.captured(1).toInt());
    }

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
        QString why;
        QVERIFY2(readMpiCases(&cases_, &why), qPrintable(why));
        QVERIFY(makeHostileInputs());
    }

    // The catalogue of hostile runs over several processes (mpi_cases.tsv).
    void hostileCases_data() {
        QTest::addColumn<int>("row");
        QVERIFY(cases_.size() >= 23);
        QStringList ids;
        for (std::size_t k = 0; k < cases_.size(); ++k) {
            QVERIFY2(!ids.contains(cases_[k].id), qPrintable("duplicate id " + cases_[k].id));
            ids << cases_[k].id;
            QTest::newRow(qPrintable(cases_[k].id)) << static_cast<int>(k);
        }
    }
    void hostileCases() {
        QFETCH(int, row);
        const MpiCase& c = cases_[static_cast<std::size_t>(row)];
        QStringList args;
        for (const QString& word : c.command)
            args << QString(word).replace("{tmp}", dir_.path());
        const QString model = valueOf(args, "--model"), trace = valueOf(args, "--trace");
        for (const QString& output : {model, trace}) {
            if (!output.isEmpty() && !hostileInputs_.contains(output)) QFile::remove(output);
        }
        const QList<QByteArray> before = hostileInputBytes();
        const CliResult r = runSignalled(c.ranks, args, c.signal, trace);
        const QString context = QString("mpi_cases.tsv:%1: mpirun -np %2 %3 (%4)\n")
                                    .arg(c.line)
                                    .arg(c.ranks)
                                    .arg(describe(args, r))
                                    .arg(c.signal);
        QVERIFY2(r.exitCode == c.exit, qPrintable(context));
        const QByteArray stderrText = QString(c.stderrText).replace("{tmp}", dir_.path()).toUtf8();
        QVERIFY2(r.err.contains(stderrText) && r.err.contains(c.what.toUtf8()),
                 qPrintable(context));
        // A refusal writes no summary (mpirun's own 1 after a signal comes with one).
        QVERIFY2(c.exit != 1 || c.written || r.out.isEmpty(),
                 qPrintable(context + "\nstdout not empty"));
        QVERIFY2(hostileInputBytes() == before, qPrintable(context + "\nan input changed"));
        QVERIFY2(trace.isEmpty() || !QFile::exists(trace + ".running"),
                 qPrintable(context + "\n" + trace + ".running left"));
        if (c.written) {
            verifyWritten(model, trace, r, context);
            return;
        }
        for (const QString& output : {model, trace}) {
            QVERIFY2(output.isEmpty() || hostileInputs_.contains(output) || !QFile::exists(output),
                     qPrintable(context + "\n" + output + " written"));
        }
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
