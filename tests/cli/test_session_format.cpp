// SPDX-License-Identifier: GPL-3.0-or-later
// The session format (app/session/session.h) without a window: a session written and read back
// gives the same problem, runs, view and stored history, bit for bit; paths are written relative to
// the session's folder and resolved against it; every truncation and a thousand random byte
// changes of a real session either read or are refused with a message (never a crash); the
// stored history refuses counts its bytes cannot hold and data that inflate beyond what they
// declare.
#include <QDir>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>

#include "registry.h"
#include "session.h"
#include "session_history.h"

using namespace cplab;

namespace {

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
    history.snapshots = {std::string("\0\1\2binary", 9), "second"};
    history.status = Status::make(StatusCode::IterationLimit, "max_iterations = 3 reached");
    s.runs.push_back({"ocas", {{"C", "10"}}, history});
    s.runs.push_back({"bmrm", {{"C", "1"}, {"tol_rel", "1e-4"}}, std::nullopt});
    s.view.selectedRun = 1;
    s.view.tab = 2;
    s.view.xAxis = "oracle_calls";
    s.view.timeline = 2;
    s.view.viewRange = {-1, 1, 0.25, 3};
    s.view.presentationScale = 2;
    s.view.delayMs = 300;
    return s;
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
        QCOMPARE(back->view.presentationScale, 2.0);
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
};

QTEST_MAIN(TestSessionFormat)
#include "test_session_format.moc"
