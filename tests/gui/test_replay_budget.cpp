// SPDX-License-Identifier: GPL-3.0-or-later
// A replay of a stored history (run.h, run_history.h) within the history budget: the replay's
// records are compared with the stored ones as they come and written over them (the stored
// records are never held beside the replay's), and its snapshots count in the history's bytes
// and are thinned with the stored ones (they were held outside the budget until the replay
// ended: a long stored history replayed in step mode kept a second set of snapshots). The
// expected comparisons and sizes are worked out here from the numbers written.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/memory_budget.h"
#include "run_history.h"
#include "session.h"

using cplab::IterationRecord;
using cplab::RunHistory;
using cplab::Snapshot;
using cplab::SnapshotPtr;
using cplab::StoredComparison;

// Named, not anonymous: the group is a unity build.
namespace replay_budget_test {

IterationRecord replayRecord(int iteration, double upper, double lower) {
    IterationRecord r;
    r.iteration = iteration;
    r.upper = upper;
    r.lower = lower;
    r.gap = upper - lower;
    return r;
}

// A snapshot of `iteration` holding about `payload` bytes of its own (an event text).
SnapshotPtr replaySnapshot(int iteration, std::size_t payload) {
    auto s = std::make_shared<Snapshot>();
    s->record = replayRecord(iteration, 10.0 / (iteration + 1), 0.0);
    s->events.push_back(std::string(payload, 'x'));
    return s;
}

// A stored history of iterations 0 … n, U = 10/(k+1), L = 0, a snapshot at every iteration.
void restoreStoredHistory(RunHistory& h, int n, std::size_t payload) {
    std::vector<IterationRecord> records;
    std::vector<SnapshotPtr> snapshots;
    for (int k = 0; k <= n; ++k) {
        records.push_back(replayRecord(k, 10.0 / (k + 1), 0.0));
        snapshots.push_back(replaySnapshot(k, payload));
    }
    QVERIFY(h.restore(std::move(records), std::move(snapshots)));
}

// A session of `runs` bmrm runs on the built-in ripley_train, each with a stored history of
// 400 records of 2,500 extra columns (about 8 MB in memory each, kilobytes deflated).
cplab::Session heavySession(int runs) {
    cplab::Session s;
    s.family = "linear";
    s.problem.builtin = "ripley_train";
    cplab::StoredHistory history;
    for (int k = 0; k < 400; ++k) {
        IterationRecord r = replayRecord(k, 10.0 / (k + 1), 0.0);
        r.extra.assign(2500, 0.5);
        history.records.push_back(r);
    }
    history.status = cplab::Status::make(cplab::StatusCode::IterationLimit, "max_iterations");
    for (int k = 0; k < runs; ++k)
        s.runs.push_back({"bmrm", {{"C", std::to_string(k + 1)}}, history});
    return s;
}

}  // namespace replay_budget_test

namespace rbt = replay_budget_test;

class TestReplayBudget : public QObject {
    Q_OBJECT

  private slots:
    // The replay's records overwrite the stored ones as they come, compared on the way: the
    // first differing iteration and its relative difference, and no second trace.
    void recordsAreComparedAndReplacedInPlace() {
        RunHistory h;
        rbt::restoreStoredHistory(h, 6, 100);
        StoredComparison c;
        std::vector<IterationRecord> replay;
        for (int k = 1; k <= 3; ++k)
            replay.push_back(rbt::replayRecord(k, 10.0 / (k + 1), 0.0));
        h.addReplayed(replay, &c);
        QVERIFY(c.same());
        QCOMPARE(c.iterations, 3);
        QCOMPARE(h.replayed(), 3);
        QCOMPARE(h.trace().size(), std::size_t(6));  // overwritten, not appended
        // Iteration 4 differs: U = 3 instead of 2, relative 1/3 (the gap by as much).
        h.addReplayed({rbt::replayRecord(4, 3.0, 0.0), rbt::replayRecord(5, 10.0 / 6, 0.0)}, &c);
        QCOMPARE(c.firstDiffering, 4);
        QCOMPARE(c.firstDifference, 1.0 / 3.0);
        QCOMPARE(h.recordAt(4).upper, 3.0);
        QCOMPARE(h.trace().size(), std::size_t(6));
        // Records past the stored ones are not the replay's (the run shows them as usual).
        h.addReplayed({rbt::replayRecord(7, 1.0, 0.0)}, &c);
        QCOMPARE(h.replayed(), 5);
        // The replay ended at 5: the stored iteration 6 goes, iteration 0 is the solver's.
        h.replaceByReplay(rbt::replaySnapshot(0, 100));
        QCOMPARE(h.trace().size(), std::size_t(5));
        QCOMPARE(h.lastRecord().iteration, 5);
        QCOMPARE(h.recordAt(4).upper, 3.0);
        QCOMPARE(h.replayed(), 0);
    }

    // The stored histories of all runs together come out of half the memory the process may
    // still take (a replay needs as much again): a session of 6 runs of about 8 MB each is
    // read with 200 MB to spare and refused with 40 MB, naming the memory; with 70 MB its
    // first four runs would fit (32 MB of 35), the whole session not.
    void storedHistoriesFitHalfTheMemory() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("heavy.cplab").toStdString();
        std::string why;
        QVERIFY2(cplab::writeSession(path, rbt::heavySession(6), &why), why.c_str());
        const std::size_t one = std::size_t(400) * (sizeof(IterationRecord) + 2500 * 8);
        cplab::SessionNotes notes;
        cplab::setMemoryBudget(std::size_t(200) << 20);
        auto read = cplab::readSession(path, &notes, &why);
        QVERIFY2(read && read->runs.size() == 6 && read->runs[5].history, why.c_str());
        for (const std::size_t mb : {40, 70}) {
            cplab::setMemoryBudget(mb << 20);
            notes.clear();
            why.clear();
            read = cplab::readSession(path, &notes, &why);
            std::string said = why;
            for (const std::string& note : notes)
                said += "\n" + note;
            const bool refused =
                !read || std::any_of(read->runs.begin(), read->runs.end(),
                                     [](const cplab::SessionRun& r) { return !r.history; });
            QVERIFY2(refused, qPrintable(QString("%1 MB: read whole").arg(mb)));
            QVERIFY2(said.find("half the memory available") != std::string::npos, said.c_str());
            QVERIFY(6 * one > (mb << 20) / 2);  // the independent answer: it cannot fit
        }
        cplab::setMemoryBudget(0);
    }

    // The replay's snapshots count in bytes() beside the stored ones, are thinned by the
    // budget's rule with them, and within the last budget as they come; at the end they are
    // the history's snapshots and the stored ones are gone.
    void snapshotsCountInTheBudget() {
        constexpr std::size_t kPayload = 10000;
        constexpr int kStored = 64;
        RunHistory h;
        rbt::restoreStoredHistory(h, kStored, kPayload);
        const std::size_t stored = h.bytes();
        QVERIFY(stored >= (kStored + 1) * kPayload);
        for (int k = 1; k <= kStored; ++k)
            h.keepReplayed(rbt::replaySnapshot(k, kPayload));
        // Held beside the stored ones, and counted: twice the stored bytes, less iteration 0.
        QVERIFY2(h.bytes() >= 2 * stored - 2 * kPayload,
                 qPrintable(QString("%1 of %2").arg(h.bytes()).arg(stored)));
        QCOMPARE(h.snapshots().size(), std::size_t(kStored + 1));  // the views see the stored

        // The controller's budget (RunController::enforceBudget): the stored bytes. Both sets
        // are thinned to every k-th iteration until they fit.
        QVERIFY(h.thin(stored) > 1);
        QVERIFY(h.bytes() <= stored);
        const std::size_t after = h.snapshots().size();
        QVERIFY(after < std::size_t(kStored + 1));
        QCOMPARE(h.snapshots().front()->record.iteration, 0);
        QCOMPARE(h.snapshots().back()->record.iteration, kStored);

        // More replay snapshots (a longer replay) stay within that budget as they come.
        RunHistory longer;
        rbt::restoreStoredHistory(longer, 4 * kStored, kPayload);
        const std::size_t budget = longer.bytes();
        QVERIFY(longer.thin(budget) == 1);  // fits: nothing dropped, the budget remembered
        for (int k = 1; k <= 4 * kStored; ++k) {
            longer.keepReplayed(rbt::replaySnapshot(k, kPayload));
            QVERIFY2(longer.bytes() <= budget + kPayload + 1000,
                     qPrintable(QString("%1 > %2 at replay iteration %3")
                                    .arg(longer.bytes())
                                    .arg(budget)
                                    .arg(k)));
        }
        // Replaced: the solver's iteration 0, then the replay's kept snapshots, all of them
        // of the replay (none of the stored ones is left).
        StoredComparison c;
        std::vector<IterationRecord> replay;
        for (int k = 1; k <= 4 * kStored; ++k)
            replay.push_back(rbt::replayRecord(k, 10.0 / (k + 1), 0.0));
        longer.addReplayed(replay, &c);
        QVERIFY(c.same());
        const SnapshotPtr initial = rbt::replaySnapshot(0, kPayload);
        longer.replaceByReplay(initial);
        QCOMPARE(longer.snapshots().front(), initial);
        QCOMPARE(longer.snapshots().back()->record.iteration, 4 * kStored);
        QVERIFY(longer.bytes() <= budget + kPayload + 1000);
        QCOMPARE(longer.trace().size(), std::size_t(4 * kStored));
    }
};

QTEST_GUILESS_MAIN(TestReplayBudget)
#include "test_replay_budget.moc"
