// SPDX-License-Identifier: GPL-3.0-or-later
// The session format (app/session/session.h) without a window: a session written and read back
// gives the same problem, runs, view and stored history, bit for bit; paths are written relative to
// the session's folder and resolved against it; every truncation and a thousand random byte
// changes of a real session either read or are refused with a message (never a crash); the
// stored history refuses counts its bytes cannot hold and data that inflate beyond what they
// declare.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>

#include "cli_process.h"
#include "core/byte_stream.h"
#include "core/snapshot_fields_codec.h"
#include "registry.h"
#include "session.h"
#include "session_history.h"

using namespace cplab;

namespace {

// Bytes that begin as a snapshot of `iteration` does (the CPSN header, version, a tag and the
// common fields), then `tail`: what a session reads of every stored snapshot without its
// run's solver.
std::string snapshotBytes(int iteration, const std::string& tail) {
    Snapshot fields;
    fields.solver = "ocas";
    fields.record.iteration = iteration;
    ByteWriter out;
    out.u32(0x4e535043);  // "CPSN"
    out.u8(1);
    out.u8(1);
    encodeSnapshotFields(fields, out);
    return out.take() + tail;
}

Session sampleSession(const QString& folder) {
    Session s;
    s.family = "linear";
    s.problem.data = DataSource((folder + "/data/heart_scale").toStdString(), "libsvm");
    s.problem.options = {{"test_fraction", "0.2"}, {"seed", "3"}};
    StoredHistory history;
    for (int k = 0; k <= 3; ++k) {
        IterationRecord r;
        r.iteration = k;
        r.upper = 1.0 / (k + 1);
        r.lower = k == 0 ? -std::numeric_limits<double>::infinity() : 0.1 * k;
        r.gap = r.upper - r.lower;
        r.extra = {std::numeric_limits<double>::quiet_NaN(), 0.1 + k};
        r.events = 5u << k;
        history.records.push_back(r);
    }
    history.snapshots = {snapshotBytes(0, std::string("\0\1\2binary", 9)),
                         snapshotBytes(2, "second")};
    history.status = Status::make(StatusCode::IterationLimit, "max_iterations = 3 reached");
    s.runs.push_back({"ocas", {{"C", "10"}}, history});
    s.runs.push_back({"bmrm", {{"C", "1"}, {"tol_rel", "1e-4"}}, std::nullopt});
    s.view.selectedRun = 1;
    s.view.tab = 2;
    s.view.xAxis = "oracle_calls";
    s.view.timeline = 2;
    s.view.viewRange = {-1, 1, 0.25, 3};
    s.view.delayMs = 300;
    return s;
}

// A history's blob with its records and snapshots as given, for refusals by name.
std::string refusal(const StoredHistory& history) {
    std::string why;
    return unpackHistory(packHistory(history), &why) ? std::string() : why;
}

// The comparison as it was (for each stored record, a search of the re-run): the independent
// answer the linear walk must give.
StoredComparison quadraticComparison(const std::vector<IterationRecord>& stored,
                                     const std::vector<IterationRecord>& rerun) {
    StoredComparison c;
    for (const IterationRecord& r : stored) {
        for (const IterationRecord& x : rerun) {
            if (x.iteration != r.iteration) continue;
            c.add(r, x);
            break;
        }
    }
    return c;
}

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

class TestSessionFormat : public QObject {
    Q_OBJECT
  private slots:
    void writesAndReadsBack() {
        const Session s = sampleSession("/somewhere/project");
        const std::string json = sessionJson(s, "/somewhere/project");
        QVERIFY(json.find("\"path\": \"data/heart_scale\"") != std::string::npos);
        SessionNotes notes;
        std::string why;
        const auto back = parseSession(json, "/elsewhere/copy", "s.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QVERIFY(notes.empty());
        QVERIFY(back->complete);
        // Relative paths resolve against the folder the session is read from.
        QCOMPARE(back->problem.data.path, std::string("/elsewhere/copy/data/heart_scale"));
        QCOMPARE(back->problem.options, s.problem.options);
        QCOMPARE(back->runs.size(), std::size_t{2});
        QCOMPARE(back->runs[0].options, s.runs[0].options);
        QVERIFY(!back->runs[1].history);
        const StoredHistory& h = *back->runs[0].history;
        QCOMPARE(h.records.size(), std::size_t{4});
        for (std::size_t k = 0; k < 4; ++k) {
            const IterationRecord& a = h.records[k];
            const IterationRecord& b = s.runs[0].history->records[k];
            QCOMPARE(a.iteration, b.iteration);
            QVERIFY(sameBits(a.upper, b.upper) && sameBits(a.lower, b.lower));
            QVERIFY(sameBits(a.extra[0], b.extra[0]) && sameBits(a.extra[1], b.extra[1]));
            QCOMPARE(a.events, b.events);
        }
        QCOMPARE(h.snapshots, s.runs[0].history->snapshots);
        QCOMPARE(h.status.code, StatusCode::IterationLimit);
        QCOMPARE(h.status.message, s.runs[0].history->status.message);
        QCOMPARE(back->view.selectedRun, 1);
        QCOMPARE(back->view.tab, 2);
        QCOMPARE(back->view.xAxis, std::string("oracle_calls"));
        QCOMPARE(back->view.timeline, 2);
        QCOMPARE(back->view.viewRange, s.view.viewRange);
        // The presentation size is the lecturer's, per screen: never in a session.
        QVERIFY(json.find("presentation_scale") == std::string::npos);
        QCOMPARE(back->view.delayMs, 300);
    }

    void seedIsMadeExplicit() {
        // bmrm has no seed; sgd has one, and its default is written out.
        QCOMPARE(withExplicitSeed("bmrm", {}), OptionValues{});
        const OptionValues sgd = withExplicitSeed("sgd", {});
        QVERIFY(sgd.count("seed") == 1);
        QCOMPARE(withExplicitSeed("sgd", {{"seed", "7"}}).at("seed"), std::string("7"));
    }

    void mutationsNeverCrash() {
        const std::string json = sessionJson(sampleSession("/p"), "/p");
        int accepted = 0;
        for (std::size_t n = 0; n < json.size(); n += 7) {
            SessionNotes notes;
            std::string why;
            const auto s = parseSession(json.substr(0, n), "/p", "cut.cplab", &notes, &why);
            QVERIFY(s || !why.empty());
        }
        auto* random = QRandomGenerator::global();
        for (int k = 0; k < 1000; ++k) {
            std::string changed = json;
            for (int m = 0; m < 1 + k % 4; ++m)
                changed[random->bounded(static_cast<int>(changed.size()))] =
                    static_cast<char>(random->bounded(256));
            SessionNotes notes;
            std::string why;
            const auto s = parseSession(changed, "/p", "changed.cplab", &notes, &why);
            QVERIFY(s || !why.empty());
            accepted += s ? 1 : 0;
        }
        QVERIFY(accepted > 0);  // most one-byte changes inside strings still read
    }

    void historyBlobIsBounded() {
        StoredHistory h = *sampleSession("/p").runs[0].history;
        std::string blob = packHistory(h);
        std::string why;
        QVERIFY(unpackHistory(blob, &why));
        // Every truncation is refused.
        for (std::size_t n = 0; n < blob.size(); ++n)
            QVERIFY(!unpackHistory(blob.substr(0, n), &why) && !why.empty());
        // A record count of 2^40 is refused before anything is allocated.
        std::string huge = blob;
        const std::size_t countAt = 4 + 4 + 4 + 8 + h.status.message.size();
        const std::uint64_t count = std::uint64_t{1} << 40;
        std::memcpy(huge.data() + countAt, &count, 8);
        QVERIFY(!unpackHistory(huge, &why));
        QVERIFY2(why.find("truncated") != std::string::npos, why.c_str());
        // Compressed data never inflate beyond the limit they are given.
        const std::string zeros(1 << 22, '\0');
        const std::string packed = deflateBytes(zeros);
        QVERIFY(packed.size() < 10000);
        QVERIFY(inflateBytes(packed, 1 << 22, &why));
        QVERIFY(!inflateBytes(packed, 1000, &why));
        QVERIFY(!inflateBytes("not zlib at all", 1000, &why));
    }

    void recordsAreTheirIterations() {
        // The views index a run's trace by iteration: a record whose number is not its place
        // (the last one changed to 100, which once crashed the views) is refused by name.
        StoredHistory h = *sampleSession("/p").runs[0].history;
        for (int k : {0, 3}) {
            StoredHistory changed = h;
            changed.records[static_cast<std::size_t>(k)].iteration = 100;
            std::string why;
            QVERIFY(!unpackHistory(packHistory(changed), &why));
            const std::string expected =
                "record " + std::to_string(k) + " is iteration 100, expected " + std::to_string(k);
            QVERIFY2(why.find(expected) != std::string::npos, why.c_str());
        }
        StoredHistory swapped = h;
        std::swap(swapped.records[1], swapped.records[2]);
        std::string why;
        QVERIFY(!unpackHistory(packHistory(swapped), &why));
    }

    void hashesInEitherCase() {
        // A SHA-256 written in upper case is the same hash (it was reported as "changed").
        Session session = sampleSession("/p");
        const std::string lower(64, 'a');
        session.files.push_back(
            {"data", "/p/data/heart_scale", "/p/data/heart_scale", std::string(64, 'A')});
        SessionNotes notes;
        std::string why;
        const auto back =
            parseSession(sessionJson(session, "/p"), "/p", "upper.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->files.size(), std::size_t{1});
        QCOMPARE(back->files[0].sha256, lower);
    }

    void fileOptionsFollowTheSession() {
        // A problem option that names a file (the map family's evidence, kind Path) is written
        // relative to the session's folder, resolved against the folder it is read from (not
        // the working folder), hashed with the data, checked for changes, and refused without
        // reading in a system folder.
        QTemporaryDir a, b;
        const QString source = QString(CPLAB_TEST_DATA_DIR) + "/map/uai2014/Grids_18.uai";
        for (const QTemporaryDir* dir : {&a, &b}) {
            QVERIFY(QFile::copy(source + ".gz", dir->filePath("model.uai.gz")));
            QVERIFY(QFile::copy(source + ".evid", dir->filePath("clamp.evid")));
        }
        Session session;
        session.family = "map";
        session.problem.data = DataSource(a.filePath("model.uai.gz").toStdString(), "uai");
        session.problem.options = {{"evidence", a.filePath("clamp.evid").toStdString()}};
        std::string why;
        QVERIFY2(hashProblemFiles(session.problem, &session.files, &why), why.c_str());
        QCOMPARE(session.files.size(), std::size_t{2});
        QCOMPARE(session.files[1].role, std::string("evidence"));
        const std::string json = sessionJson(session, a.path().toStdString());
        QVERIFY2(json.find("\"evidence\": \"clamp.evid\"") != std::string::npos, json.c_str());

        SessionNotes notes;
        auto back = parseSession(json, b.path().toStdString(), "copy.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->problem.options.at("evidence"), b.filePath("clamp.evid").toStdString());
        QVERIFY2(makeSessionProblem(*back, &why), why.c_str());

        QFile changed(b.filePath("clamp.evid"));
        QVERIFY(changed.open(QIODevice::WriteOnly | QIODevice::Truncate));
        changed.write("1\n0 1\n");
        changed.close();
        QVERIFY(!makeSessionProblem(*back, &why));
        QVERIFY2(why.find("changed since the session was saved") != std::string::npos, why.c_str());

        back->problem.options["evidence"] = "/proc/sys/kernel/hostname";
        QVERIFY(!makeSessionProblem(*back, &why));
        QVERIFY2(why.find("in a system folder") != std::string::npos, why.c_str());
    }

    void pathsStartingWithAColonAreInTheFolder() {
        // fuzz_session finding (tests/fuzz/findings/session-colon-path-is-a-resource): a path
        // that starts with ':' is a file in the session's folder like any relative path (Qt
        // takes it for one of its resources, which left it unresolved).
        QFile finding(QString(CPLAB_TEST_DATA_DIR) +
                      "/../fuzz/findings/session-colon-path-is-a-resource");
        QVERIFY(finding.open(QIODevice::ReadOnly));
        const QByteArray bytes = finding.readAll();
        const QString found = QString::fromUtf8(bytes.mid(2, bytes.indexOf('\0') - 2));
        QVERIFY2(found.startsWith(':'), qPrintable(found));
        for (const QString& path : {found, QString(":data.svm"), QString(":/etc/passwd")}) {
            Session session = sampleSession("/p");
            session.problem.options = {{"test", path.toStdString()}};
            session.problem.data.path = "/p/data/heart_scale";
            std::string json = sessionJson(session, "/p");
            // As a session written elsewhere names them: relative to its folder.
            const std::string written = "\"test\": \"" + path.toStdString() + "\"";
            QVERIFY2(json.find(written) != std::string::npos, json.c_str());
            SessionNotes notes;
            std::string why;
            const auto back = parseSession(json, "/s", "colon.cplab", &notes, &why);
            QVERIFY2(back, why.c_str());
            QCOMPARE(back->problem.options.at("test"), QDir::cleanPath("/s/" + path).toStdString());
        }
    }

    void aFileNamedNoneIsAFile() {
        // fuzz_session finding: a test file named "none" in the session's folder was written
        // "none", which reads back as no test file. It is written "./none".
        Session session = sampleSession("/p");
        session.problem.options = {{"test", "/p/none"}};
        session.problem.data.path = "/p/data/heart_scale";
        const std::string json = sessionJson(session, "/p");
        QVERIFY2(json.find("\"test\": \"./none\"") != std::string::npos, json.c_str());
        SessionNotes notes;
        std::string why;
        const auto back = parseSession(json, "/s", "none.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->problem.options.at("test"), std::string("/s/none"));
    }

    void readerFileOptionsFollowTheSession() {
        // A data reader's option that names a file (the .npy reader's labels, kind Path) is
        // treated like the problem's file options: relative to the session's folder, resolved
        // against the folder it is read from, hashed, and refused in a system folder.
        QTemporaryDir a, b;
        const auto npy = [](const QString& path, const QByteArray& shape,
                            const std::vector<double>& values) {
            QByteArray header =
                "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
            while ((10 + header.size() + 1) % 64 != 0)
                header += ' ';
            header += '\n';
            QByteArray bytes("\x93NUMPY\x01\x00", 8);
            bytes += char(header.size() & 0xff);
            bytes += char(header.size() >> 8);
            bytes += header;
            bytes += QByteArray(reinterpret_cast<const char*>(values.data()),
                                static_cast<int>(values.size() * sizeof(double)));
            QFile file(path);
            return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
        };
        for (const QTemporaryDir* dir : {&a, &b}) {
            QVERIFY(npy(dir->filePath("x.npy"), "(4, 2)", {0, 0, 1, 0, 3, 3, 4, 3}));
            QVERIFY(npy(dir->filePath("y.npy"), "(4,)", {-1, -1, 1, 1}));
        }
        Session session;
        session.family = "linear";
        session.problem.data = DataSource(a.filePath("x.npy").toStdString(), "npy",
                                          {{"labels", a.filePath("y.npy").toStdString()}});
        std::string why;
        QVERIFY2(hashProblemFiles(session.problem, &session.files, &why), why.c_str());
        QCOMPARE(session.files.size(), std::size_t{2});
        QCOMPARE(session.files[1].role, std::string("labels"));
        const std::string json = sessionJson(session, a.path().toStdString());
        QVERIFY2(json.find("\"labels\": \"y.npy\"") != std::string::npos, json.c_str());

        SessionNotes notes;
        auto back = parseSession(json, b.path().toStdString(), "copy.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->problem.data.options.at("labels"), b.filePath("y.npy").toStdString());
        QVERIFY2(makeSessionProblem(*back, &why), why.c_str());

        QVERIFY(npy(b.filePath("y.npy"), "(4,)", {1, -1, 1, 1}));
        QVERIFY(!makeSessionProblem(*back, &why));
        QVERIFY2(why.find("changed since the session was saved") != std::string::npos, why.c_str());

        back->problem.data.options["labels"] = "/proc/sys/kernel/hostname";
        QVERIFY(!makeSessionProblem(*back, &why));
        QVERIFY2(why.find("in a system folder") != std::string::npos, why.c_str());
    }

    void historiesHaveOneBudget() {
        // Each run's history may declare up to kMaxHistoryBytes, but all of them together no
        // more: of three runs declaring 45 % of it each, the third is left out before it is
        // inflated, with a note, and the session still opens.
        Session session = sampleSession("/p");
        session.runs.resize(1);
        session.runs.push_back(session.runs[0]);
        session.runs.push_back(session.runs[0]);
        std::string json = sessionJson(session, "/p");
        const std::string declared = "\"bytes\": ";
        const std::string big = std::to_string(kMaxHistoryBytes / 100 * 45);
        for (std::size_t at = json.find(declared); at != std::string::npos;
             at = json.find(declared, at + 1)) {
            const std::size_t from = at + declared.size();
            json.replace(from, json.find_first_of(",}", from) - from, big);
        }
        SessionNotes notes;
        std::string why;
        const auto back = parseSession(json, "/p", "three.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->runs.size(), std::size_t{3});
        QVERIFY(back->runs[0].history && back->runs[1].history);
        QVERIFY(!back->runs[2].history);
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY2(notes[0].find("run 3") != std::string::npos &&
                     notes[0].find("in total") != std::string::npos,
                 notes[0].c_str());
    }

    void snapshotsAreOfTheRecordsIterations() {
        // The views take a run's records up to a snapshot's iteration: a stored snapshot of an
        // iteration beyond the records (which crashed the views), a negative one, one not after
        // the snapshot before it, or bytes that are no snapshot are refused by name.
        const StoredHistory h = *sampleSession("/p").runs[0].history;  // records 0 to 3
        QVERIFY(refusal(h).empty());
        const struct {
            std::vector<int> iterations;
            std::string expected;
        } cases[] = {
            {{0, 100},
             "snapshot 1 is iteration 100, beyond the history's records (iterations 0 "
             "to 3)"},
            {{0, 4}, "snapshot 1 is iteration 4, beyond"},
            {{2147483647}, "snapshot 0 is iteration 2147483647, beyond"},
            {{-1}, "snapshot 0: snapshot bytes: a negative iteration"},
            {{2, 1}, "snapshot 1 is iteration 1, not after the snapshot before it (iteration 2)"},
            {{0, 3, 3}, "snapshot 2 is iteration 3, not after"},
        };
        for (const auto& c : cases) {
            StoredHistory changed = h;
            changed.snapshots.clear();
            for (int iteration : c.iterations)
                changed.snapshots.push_back(snapshotBytes(iteration, "tail"));
            const std::string why = refusal(changed);
            QVERIFY2(why.find(c.expected) != std::string::npos, why.c_str());
        }
        StoredHistory garbage = h;
        garbage.snapshots = {"second"};
        QVERIFY2(refusal(garbage).find("snapshot 0: not a snapshot") != std::string::npos,
                 refusal(garbage).c_str());
        StoredHistory none = h;
        none.records.clear();
        QVERIFY2(refusal(none).find("the history has no records") != std::string::npos,
                 refusal(none).c_str());
        none.snapshots.clear();
        QVERIFY(refusal(none).empty());

        // In a session: that history is left out with a note naming the run and what is wrong,
        // and the rest opens.
        Session session = sampleSession("/p");
        session.runs[0].history->snapshots.back() = snapshotBytes(100, "tail");
        SessionNotes notes;
        std::string why;
        const auto back =
            parseSession(sessionJson(session, "/p"), "/p", "beyond.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->runs.size(), std::size_t{2});
        QVERIFY(!back->runs[0].history);
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY2(notes[0].find("run 1: stored history: snapshot 1 is iteration 100, beyond") == 0,
                 notes[0].c_str());
    }

    void cliRefusesASnapshotBeyondTheRecords() {
        // `cplab-cli session` names the session, the run and the snapshot, re-runs the runs
        // and reports no stored agreement for the history it left out.
        QTemporaryDir dir;
        Session session;
        session.family = "linear";
        session.problem.builtin = "ripley_train";
        StoredHistory history;
        for (int k = 0; k <= 2; ++k) {
            IterationRecord r;
            r.iteration = k;
            history.records.push_back(r);
        }
        history.snapshots = {snapshotBytes(0, ""), snapshotBytes(100, "")};
        session.runs.push_back({"ocas", {{"C", "10"}}, history});
        std::string why;
        const QString path = dir.filePath("beyond.cplab");
        QVERIFY2(writeSession(path.toStdString(), session, &why), why.c_str());
        const QStringList arguments{"session", path, "--json", "--quiet"};
        const auto r = clitest::runCli(arguments);
        QVERIFY2(r.exitCode == 0, qPrintable(clitest::describe(arguments, r)));
        QVERIFY2(r.err.contains((path +
                                 ": run 1: stored history: snapshot 1 is iteration 100, beyond the "
                                 "history's records (iterations 0 to 2)")
                                    .toUtf8()),
                 qPrintable(clitest::describe(arguments, r)));
        bool ok = false;
        const QJsonObject json = clitest::parseObject(r.out, &ok);
        QVERIFY(ok);
        QVERIFY(!json.value("runs").toArray()[0].toObject().contains("stored"));
    }

    void comparisonWalksBothRecordLists() {
        // The linear walk gives what a search of the re-run for every stored record gives, with
        // iterations missing on either side, and finds the first iteration that differs.
        std::vector<IterationRecord> stored, rerun;
        for (int k = 0; k < 2000; ++k) {
            IterationRecord r;
            r.iteration = k;
            r.upper = 1.0 / (k + 1);
            r.lower = -r.upper;
            r.gap = r.upper - r.lower;
            if (k % 7 != 3) stored.push_back(r);
            if (k % 11 == 5) r.lower -= 1e-3 * k;  // iterations 5, 16, 27, ... differ
            if (k % 13 != 4 && k < 1500) rerun.push_back(r);
        }
        const StoredComparison walk = compareWithStored(stored, rerun);
        const StoredComparison search = quadraticComparison(stored, rerun);
        QCOMPARE(walk.iterations, search.iterations);
        QCOMPARE(walk.largestDifference, search.largestDifference);
        QCOMPARE(walk.firstDiffering, 5);  // both have iteration 5
        QVERIFY(!walk.same());
        QVERIFY2(walk.differsText().find("differs from the stored history at iteration 5 by ") == 0,
                 walk.differsText().c_str());
        QCOMPARE(compareWithStored(stored, stored).firstDiffering, -1);
        QVERIFY(compareWithStored(stored, stored).same());
        QCOMPARE(compareWithStored(stored, stored).iterations, int(stored.size()) - 1);
    }

    void historiesTakeMemoryFromOneBudget() {
        // What an unpacked history takes in memory (records, their columns, the snapshots'
        // bytes) comes out of the budget it is given, and a history that would take more is
        // refused before it is all read, leaving the budget as it was; the history is inflated
        // as it is read, never beyond what it declares.
        const StoredHistory h = *sampleSession("/p").runs[0].history;
        const std::string blob = packHistory(h);
        const std::string deflated = deflateBytes(blob);
        const std::int64_t declared = static_cast<std::int64_t>(blob.size());
        const std::int64_t needs = historyMemory(h);
        QVERIFY(needs > declared);  // in memory, a record takes more than its 76 packed bytes
        std::string why;
        std::int64_t budget = needs;
        const auto whole = inflateHistory(deflated, declared, &budget, &why);
        QVERIFY2(whole, why.c_str());
        QCOMPARE(budget, std::int64_t{0});
        QCOMPARE(historyMemory(*whole), needs);
        QCOMPARE(whole->snapshots, h.snapshots);
        budget = needs - 1;
        QVERIFY(!inflateHistory(deflated, declared, &budget, &why));
        QCOMPARE(budget, needs - 1);
        QVERIFY2(why.find("bytes of memory in total") != std::string::npos, why.c_str());
        budget = kMaxHistoryBytes;
        QVERIFY(!inflateHistory(deflated, declared - 1, &budget, &why));
        QVERIFY2(why.find("larger than the " + std::to_string(declared - 1) +
                          " bytes the session declares") != std::string::npos,
                 why.c_str());
        for (std::size_t n = 0; n + 1 < deflated.size(); n += 3) {
            QVERIFY(!inflateHistory(deflated.substr(0, n), declared, &budget, &why));
            QVERIFY(!why.empty());
        }
        QCOMPARE(budget, kMaxHistoryBytes);
        // A snapshot of 2^40 bytes declared in a blob of 100 is refused unallocated.
        StoredHistory one = h;
        one.snapshots = {snapshotBytes(0, "")};
        std::string huge = packHistory(one);
        const std::uint64_t length = std::uint64_t{1} << 40;
        std::memcpy(huge.data() + huge.size() - one.snapshots[0].size() - 8, &length, 8);
        QVERIFY(!inflateHistory(deflateBytes(huge), std::int64_t{1} << 41, &budget, &why));
        QCOMPARE(budget, kMaxHistoryBytes);
    }

    void sessionMemoryHasOneBudget() {
        // The ways a session asks for memory through its histories, each within one budget of
        // kMaxHistoryBytes for all runs, refused before anything large is allocated: records
        // that declare less than the budget packed but take more in memory (14 M records:
        // 1.07e9 bytes packed, 1.35e9 in memory), and a snapshot whose length, with what the
        // runs before took, goes beyond it though its declared size does not. A 1.4 MB session with
        // a 1 GB history took 2.1 GB.
        const auto history = [](const std::string& blob, std::int64_t declared) {
            const std::string deflated = deflateBytes(blob);
            return QJsonObject{
                {"encoding", "zlib+base64"},
                {"bytes", static_cast<double>(declared)},
                {"data", QString::fromLatin1(
                             QByteArray(deflated.data(), qsizetype(deflated.size())).toBase64())}};
        };
        const StoredHistory sample = *sampleSession("/p").runs[0].history;
        std::string manyRecords = packHistory(StoredHistory{{}, {}, sample.status});
        const std::size_t countAt = 4 + 4 + 4 + 8 + sample.status.message.size();
        const std::uint64_t records = kMaxHistoryBytes / 76 - 1;
        std::memcpy(manyRecords.data() + countAt, &records, 8);
        manyRecords.resize(countAt + 8);  // the records themselves are never read
        StoredHistory small = sample;
        const std::string smallBlob = packHistory(small);
        StoredHistory big = sample;
        big.snapshots = {snapshotBytes(0, "")};
        std::string bigSnapshot = packHistory(big);
        // Run 3 declares exactly what run 2 leaves of the budget, but takes more in memory.
        const std::size_t around = bigSnapshot.size() - big.snapshots[0].size();
        const std::uint64_t length =
            std::uint64_t(kMaxHistoryBytes - historyMemory(small)) - around;
        std::memcpy(bigSnapshot.data() + bigSnapshot.size() - big.snapshots[0].size() - 8, &length,
                    8);
        QJsonDocument document = QJsonDocument::fromJson(
            QByteArray::fromStdString(sessionJson(sampleSession("/p"), "/p")));
        QJsonObject root = document.object();
        QJsonArray runs;
        QJsonObject run = root["runs"].toArray()[0].toObject();
        run["history"] = history(manyRecords, std::int64_t(countAt + 8 + records * 76 + 8));
        runs.append(run);
        run["history"] = history(smallBlob, std::int64_t(smallBlob.size()));
        runs.append(run);
        run["history"] = history(
            bigSnapshot, std::int64_t(bigSnapshot.size() - big.snapshots[0].size() + length));
        runs.append(run);
        root["runs"] = runs;
        SessionNotes notes;
        std::string why;
        const auto back = parseSession(QJsonDocument(root).toJson().toStdString(), "/p",
                                       "memory.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(back->runs.size(), std::size_t{3});
        QVERIFY(!back->runs[0].history && back->runs[1].history && !back->runs[2].history);
        QCOMPARE(notes.size(), std::size_t{2});
        for (const std::string& note : notes)
            QVERIFY2(note.find("stored histories take more than 1073741824 bytes of memory in "
                               "total") != std::string::npos,
                     note.c_str());
        QVERIFY(notes[0].find("run 1") == 0 && notes[1].find("run 3") == 0);
    }

    void optionsLeftOutMakeOneNote() {
        // A run (or a problem) of ten thousand options that do not exist makes one note, which
        // names five of them, each cut to 40 characters.
        Session session = sampleSession("/p");
        session.runs.resize(1);
        for (int k = 0; k < 10000; ++k)
            session.runs[0]
                .options["warp_" + std::string(k == 0 ? 100 : 1, 'x') + std::to_string(k)] = "1";
        SessionNotes notes;
        std::string why;
        const auto back =
            parseSession(sessionJson(session, "/p"), "/p", "many.cplab", &notes, &why);
        QVERIFY2(back, why.c_str());
        QVERIFY(!back->complete);
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY2(notes[0].find("run 1 (ocas): options 'warp_") == 0 &&
                     notes[0].find(" and 9995 more no longer exist; they are left out") !=
                         std::string::npos &&
                     notes[0].size() < 400,
                 notes[0].c_str());
    }

    void uaiSiblingsAreNamedAndHashed() {
        // A UAI model read with its sibling <model>.evid (no evidence option) is saved naming
        // the sibling, hashed like any input: changed, the session says so and opens nothing.
        // A model without a sibling is saved with evidence "none": a sibling that appears later
        // is not read.
        QTemporaryDir dir;
        const QString source = QString(CPLAB_TEST_DATA_DIR) + "/map/uai2014/Grids_18.uai";
        QVERIFY(QFile::copy(source + ".gz", dir.filePath("model.uai.gz")));
        QVERIFY(QFile::copy(source + ".evid", dir.filePath("model.uai.evid")));
        QVERIFY(QFile::copy(source + ".gz", dir.filePath("bare.uai.gz")));
        Session session;
        session.family = "map";
        session.problem.data = DataSource(dir.filePath("model.uai.gz").toStdString(), "uai");
        std::string why;
        QVERIFY2(hashProblemFiles(session.problem, &session.files, &why), why.c_str());
        QCOMPARE(session.files.size(), std::size_t{2});
        QCOMPARE(session.files[1].role, std::string("evidence"));
        QCOMPARE(session.files[1].resolved, dir.filePath("model.uai.evid").toStdString());
        const std::string json = sessionJson(session, dir.path().toStdString());
        QVERIFY2(json.find("\"evidence\": \"model.uai.evid\"") != std::string::npos, json.c_str());
        QVERIFY2(json.find("\"reference\": \"none\"") != std::string::npos, json.c_str());
        SessionNotes notes;
        auto back = parseSession(json, dir.path().toStdString(), "sibling.cplab", &notes, &why);
        QVERIFY2(back && notes.empty(), why.c_str());
        QVERIFY2(makeSessionProblem(*back, &why), why.c_str());
        QFile changed(dir.filePath("model.uai.evid"));
        QVERIFY(changed.open(QIODevice::WriteOnly | QIODevice::Truncate));
        changed.write("1\n0 1\n");
        changed.close();
        QVERIFY(!makeSessionProblem(*back, &why));
        QVERIFY2(
            why.find("model.uai.evid: changed since the session was saved") != std::string::npos,
            why.c_str());
        QVERIFY(QFile::remove(dir.filePath("model.uai.evid")));
        QVERIFY(!makeSessionProblem(*back, &why));
        QVERIFY2(why.find("model.uai.evid: missing") != std::string::npos, why.c_str());

        Session bare;
        bare.family = "map";
        bare.problem.data = DataSource(dir.filePath("bare.uai.gz").toStdString(), "uai");
        QVERIFY2(hashProblemFiles(bare.problem, &bare.files, &why), why.c_str());
        QCOMPARE(bare.files.size(), std::size_t{1});
        const std::string bareJson = sessionJson(bare, dir.path().toStdString());
        QVERIFY2(bareJson.find("\"evidence\": \"none\"") != std::string::npos, bareJson.c_str());
    }
};

QTEST_MAIN(TestSessionFormat)
#include "test_session_format.moc"
