// SPDX-License-Identifier: GPL-3.0-or-later
// Live traces (core/live_trace.h): FILE.running grows a row per record and reads back to the
// same numbers as the finished trace (trace_csv.h); a second writer is refused while the first
// holds the file, a killed run's leftover is taken over, the user's own file of that name is
// left alone; the reader refuses what is not a trace with the reason.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/live_trace.h"
#include "core/trace_csv.h"

using namespace cplab;

namespace {

std::vector<IterationRecord> someRecords() {
    std::vector<IterationRecord> records;
    for (int k = 1; k <= 5; ++k) {
        IterationRecord r;
        r.iteration = k;
        r.seconds = 0.001 * k / 3.0;
        r.oracleCalls = 2 * k;
        r.upper = 1.0 / k + 1.0 / 7.0;
        r.lower = k == 1 ? -std::numeric_limits<double>::infinity() : 1.0 / 7.0 - 1.0 / (k * k);
        r.gap = r.upper - r.lower;
        r.passes = k * 0.25;
        r.extra = {static_cast<double>(k * k), std::sqrt(static_cast<double>(k))};
        records.push_back(r);
    }
    return records;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The records of trace text, through TraceCsvReader.
std::vector<IterationRecord> readBack(const std::string& text, std::string* why) {
    std::istringstream in(text);
    std::string line;
    TraceCsvReader reader;
    std::vector<IterationRecord> records;
    if (!std::getline(in, line) || !reader.readHeader(line, why)) return {};
    while (std::getline(in, line)) {
        IterationRecord r;
        if (!reader.readRow(line, r, why)) return {};
        records.push_back(r);
    }
    return records;
}

bool same(const IterationRecord& a, const IterationRecord& b) {
    return a.iteration == b.iteration && a.seconds == b.seconds && a.oracleCalls == b.oracleCalls &&
           a.upper == b.upper && a.lower == b.lower && a.gap == b.gap && a.passes == b.passes &&
           a.extra == b.extra;
}

}  // namespace

class TestLiveTrace : public QObject {
    Q_OBJECT
  private slots:
    void growsRowByRowAndIsRemovedAtTheEnd() {
        QTemporaryDir dir;
        const std::string trace = dir.filePath("t.csv").toStdString();
        const std::string running = runningTracePath(trace);
        const auto records = someRecords();
        LiveTrace live;
        QVERIFY(!live.start(trace));
        QVERIFY(live.active());
        QVERIFY(runningTraceWriterAlive(running));
        QCOMPARE(readAll(running), std::string());  // nothing until the columns are known
        live.columns({"k_squared", "root k"});
        for (std::size_t n = 0; n < records.size(); ++n) {
            live.append(records[n]);
            // Each row is in the file the moment it is appended.
            std::string why;
            const auto seen = readBack(readAll(running), &why);
            QVERIFY2(why.empty(), why.c_str());
            QCOMPARE(seen.size(), n + 1);
            QVERIFY(same(seen.back(), records[n]));
        }
        QVERIFY(!QFileInfo::exists(QString::fromStdString(trace)));  // FILE: only at the end
        std::string why;
        QVERIFY(writeTraceCsv(trace, records, {"k_squared", "root k"}, &why));
        QVERIFY(!live.finish());
        QVERIFY(!QFileInfo::exists(QString::fromStdString(running)));
        QVERIFY(!runningTraceWriterAlive(running));
        // The finished trace reads back to the same records, bit for bit.
        const auto finished = readBack(readAll(trace), &why);
        QCOMPARE(finished.size(), records.size());
        for (std::size_t n = 0; n < records.size(); ++n)
            QVERIFY(same(finished[n], records[n]));
    }

    void secondWriterIsRefusedAndLeftoversAreTakenOver() {
        QTemporaryDir dir;
        const std::string trace = dir.filePath("t.csv").toStdString();
        const std::string running = runningTracePath(trace);
        {
            LiveTrace first;
            QVERIFY(!first.start(trace));
            first.columns({});
            first.append(someRecords()[0]);
            LiveTrace second;
            const auto refused = second.start(trace);
            QVERIFY(refused);
            QVERIFY2(refused->find("another run is writing it") != std::string::npos,
                     refused->c_str());
            QVERIFY(refused->find(running) != std::string::npos);
            // A run that could not write its trace keeps the complete running file.
            QVERIFY(first.finish(true));
        }
        QVERIFY(QFileInfo::exists(QString::fromStdString(running)));
        QVERIFY(!runningTraceWriterAlive(running));  // as a killed run leaves it
        LiveTrace next;
        QVERIFY(!next.start(trace));  // taken over
        QCOMPARE(readAll(running), std::string());
        next.finish();
        QVERIFY(!QFileInfo::exists(QString::fromStdString(running)));
    }

    void usersOwnFileIsLeftAlone() {
        QTemporaryDir dir;
        const std::string trace = dir.filePath("t.csv").toStdString();
        const std::string running = runningTracePath(trace);
        { std::ofstream(running) << "my notes\n"; }
        LiveTrace live;
        const auto refused = live.start(trace);
        QVERIFY(refused);
        QVERIFY2(refused->find("not a trace cplab wrote") != std::string::npos, refused->c_str());
        QCOMPARE(readAll(running), std::string("my notes\n"));
        // A folder of that name is not ours either.
        const std::string other = dir.filePath("u.csv").toStdString();
        QVERIFY(QDir().mkdir(QString::fromStdString(runningTracePath(other))));
        const auto folder = live.start(other);
        QVERIFY(folder);
        QVERIFY2(folder->find("not a trace cplab wrote") != std::string::npos, folder->c_str());
    }

    void aFileMovedOntoItIsLeftAlone() {
        // A file moved onto FILE.running during the run is not this run's: the run's end
        // leaves it (it used to be unlinked by its name).
        QTemporaryDir dir;
        const std::string trace = dir.filePath("t.csv").toStdString();
        const std::string running = runningTracePath(trace);
        const std::string notes = dir.filePath("notes.txt").toStdString();
        LiveTrace live;
        QVERIFY(!live.start(trace));
        live.columns({});
        live.append(someRecords()[0]);
        { std::ofstream(notes) << "my notes\n"; }
        QCOMPARE(std::rename(notes.c_str(), running.c_str()), 0);
        QVERIFY(!live.finish());
        QCOMPARE(readAll(running), std::string("my notes\n"));
    }

    void aDeviceHasNoRunningFile() {
        LiveTrace live;
        QVERIFY(!live.start("/dev/null"));
        QVERIFY(!live.active());
        live.columns({});
        live.append(someRecords()[0]);  // nothing happens
        QVERIFY(!QFileInfo::exists("/dev/null.running"));
    }

    void readerRefusesWhatIsNotATrace() {
        TraceCsvReader reader;
        std::string why;
        QVERIFY(!reader.readHeader("a,b,c", &why));
        QVERIFY(!reader.readHeader("iteration,seconds,oracle_calls,upper,lower,rel_gap,x", &why));
        QVERIFY2(why.find("no column 'gap'") != std::string::npos, why.c_str());
        QVERIFY(!reader.readHeader("iteration,seconds,oracle_calls,upper,lower,gap,gap", &why));
        QVERIFY2(why.find("twice") != std::string::npos, why.c_str());
        QVERIFY(!reader.readHeader("iteration,seconds,oracle_calls,upper,lower,gap,\"x", &why));
        QVERIFY(reader.readHeader(
            "iteration,seconds,oracle_calls,upper,lower,gap,rel_gap,\"beta:poly:2,1\"", &why));
        QCOMPARE(reader.extraColumns(), std::vector<std::string>{"beta:poly:2,1"});
        IterationRecord r;
        QVERIFY(reader.readRow("3,0.5,7,2,1,1,0.5,0.25", r, &why));
        QCOMPARE(r.iteration, 3);
        QCOMPARE(r.oracleCalls, 7LL);
        QCOMPARE(r.passes, 7.0);  // no passes column: one per oracle call
        QCOMPARE(r.extra, std::vector<double>{0.25});
        QVERIFY(reader.readRow("4,0.5,7,inf,-inf,inf,inf,nan\r", r, &why));
        QVERIFY(std::isinf(r.upper) && std::isnan(r.extra[0]));
        const std::pair<const char*, const char*> bad[] = {
            {"3,0.5,7,2,1,1,0.5", "expected 8 columns, found 7"},
            {"3,0.5,7,2,1,1,0.5,0.25,9", "expected 8 columns, found 9"},
            {"3,x,7,2,1,1,0.5,0.25", "seconds is not a number"},
            {"-1,0.5,7,2,1,1,0.5,0.25", "iteration is not a count"},
            {"1.5,0.5,7,2,1,1,0.5,0.25", "iteration is not a count"},
            {"1e12,0.5,7,2,1,1,0.5,0.25", "iteration is out of range"},
            {"3,0.5,7,2,1,1,0.5,", "beta:poly:2,1 is empty"}};
        for (const auto& [row, reason] : bad) {
            why.clear();
            QVERIFY2(!reader.readRow(row, r, &why), row);
            QVERIFY2(why.find(reason) != std::string::npos,
                     (std::string(row) + ": " + why).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestLiveTrace)
#include "test_live_trace.moc"
