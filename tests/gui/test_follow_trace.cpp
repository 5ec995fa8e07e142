// SPDX-License-Identifier: GPL-3.0-or-later
// File › Follow a running trace (app/gui/trace_follower.h): a trace written row by row by a
// live writer (core/live_trace.h) is drawn in the bounds plot as it grows, with the numbers the
// solver reported, beside the local runs; it ends when FILE replaces FILE.running (rows written
// between two polls are read from FILE); a writer that died, a row that is not a trace's and a
// new run over the followed one are told apart; and a real `cplab-cli run --trace` is followed
// to its end with the very numbers of its finished trace.
#include <qcustomplot.h>
#include <sys/stat.h>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "bounds_plot.h"
#include "cli_process.h"
#include "core/live_trace.h"
#include "core/solver.h"
#include "core/trace_csv.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "registry.h"
#include "trace_follower.h"

using cplab::IterationRecord;
using cplab::LiveTrace;
using cplab::MainWindow;
using cplab::TraceFollower;
using cplab::testing::waitFor;

namespace {

// A real solver's records: BMRM on the built-in heart_scale, `count` iterations.
std::vector<IterationRecord> solverRecords(int count, std::vector<std::string>* extra) {
    std::string why;
    const auto problem = cplab::makeProblem("heart_scale", &why);
    auto solver = cplab::makeSolver("bmrm", *problem, {}, &why);
    while (static_cast<int>(solver->trace().size()) < count && !solver->status().finished())
        solver->step();
    *extra = solver->extraColumns();
    return solver->trace();
}

bool same(const std::vector<IterationRecord>& a, const std::vector<IterationRecord>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (a[k].iteration != b[k].iteration || a[k].upper != b[k].upper ||
            a[k].lower != b[k].lower || a[k].gap != b[k].gap || a[k].seconds != b[k].seconds ||
            a[k].oracleCalls != b[k].oracleCalls || a[k].extra != b[k].extra)
            return false;
    }
    return true;
}

void writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

}  // namespace

class TestFollowTrace : public QObject {
    Q_OBJECT
  private slots:
    void followsALiveTraceToItsEnd() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("run.csv");
        std::vector<std::string> extra;
        const auto records = solverRecords(8, &extra);
        QCOMPARE(records.size(), std::size_t(8));

        MainWindow w;
        w.setScripted(true);
        QVERIFY(w.loadDemo("ocas_vs_bmrm"));
        LiveTrace live;
        QVERIFY(!live.start(trace.toStdString()));
        // The user may pick FILE.running itself.
        TraceFollower* f = w.followTrace(trace + ".running");
        QCOMPARE(f->tracePath(), trace);
        QCOMPARE(f->state(), TraceFollower::State::Following);
        live.columns(extra);
        QSignalSpy appended(f, &TraceFollower::recordsAppended);
        for (int k = 0; k < 3; ++k)
            live.append(records[std::size_t(k)]);
        f->poll();
        QCOMPARE(appended.count(), 1);
        QVERIFY(same(f->records(), {records.begin(), records.begin() + 3}));
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), 3);
        QVERIFY(w.parts().boundsPlot->runLabel(-1) == "run.csv (following)");
        for (int k = 3; k < 6; ++k)
            live.append(records[std::size_t(k)]);
        f->poll();
        QVERIFY(same(f->records(), {records.begin(), records.begin() + 6}));
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), 6);

        // A new problem keeps the followed trace in the plot.
        QVERIFY(w.loadDemo("svm_2d"));
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), 6);

        // The run ends: its last two rows reach only FILE, which replaces FILE.running.
        std::string why;
        QVERIFY(cplab::writeTraceCsv(trace.toStdString(), records, extra, &why));
        live.finish();
        f->poll();
        QCOMPARE(f->state(), TraceFollower::State::Ended);
        QVERIFY2(f->stateText().contains("ended after 8 iterations"), qPrintable(f->stateText()));
        QVERIFY(same(f->records(), records));
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), 8);
        QVERIFY(w.parts().boundsPlot->runLabel(-1) == "run.csv (ended)");

        // A finished run's trace, given as FILE, is read once.
        TraceFollower* g = w.followTrace(trace);
        QCOMPARE(g->state(), TraceFollower::State::Ended);
        QVERIFY(same(g->records(), records));
        QCOMPARE(w.parts().following->followedTraces().size(), std::size_t(2));
        w.parts().following->stopFollowing();
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), 0);
        QVERIFY(w.parts().following->followedTraces().empty());
    }

    // cplab --follow drew an a9a trace with the Kelley demo's "known optimum", and a linear
    // trace beside a MAP problem was labelled with the MAP bounds' names: while a trace is
    // followed the plot names the bounds as the trace's columns are (the local family's names
    // in parentheses) and draws no optimum; both come back when following stops.
    void aTraceIsNotNamedOrScaledByTheLocalProblem() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("linear.csv");
        std::vector<std::string> extra;
        std::string why;
        QVERIFY(cplab::writeTraceCsv(trace.toStdString(), solverRecords(5, &extra), extra, &why));
        MainWindow w;
        w.setScripted(true);
        cplab::widgets::BoundsPlot& plot = *w.parts().boundsPlot;
        const auto optimumDrawn = [&] {
            for (int k = 0; k < plot.plot()->graphCount(); ++k) {
                if (plot.plot()->graph(k)->name().startsWith("known optimum")) return true;
            }
            return false;
        };
        QVERIFY(w.loadDemo("kelley"));
        QVERIFY(optimumDrawn());  // abs_quad's, while only its runs are drawn
        w.followTrace(trace);
        QVERIFY(!optimumDrawn());
        QCOMPARE(plot.upperLabel(), QString("upper bound U"));
        // A MAP problem opened while following: its names only for its own runs.
        QVERIFY(w.loadDemo("map_segmentation"));
        QCOMPARE(plot.upperLabel(), QString("upper bound U (local runs: dual bound U)"));
        QCOMPARE(plot.lowerLabel(), QString("lower bound L (local runs: E(best labeling))"));
        QVERIFY(w.loadDemo("kelley"));
        QVERIFY(!optimumDrawn());
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), 5);
        w.parts().following->stopFollowing();
        QVERIFY(optimumDrawn());
        QVERIFY(w.loadDemo("map_segmentation"));
        QCOMPARE(plot.upperLabel(), QString("dual bound U"));
    }

    // After a demo is loaded the bounds plot shows nothing of the previous problem's ranges
    // (they stayed until the first step): its axes are a fresh window's for that demo.
    void theBoundsPlotIsClearedOnLoad() {
        const auto ranges = [](const MainWindow& w) {
            QStringList out;
            for (QCPAxisRect* rect : w.parts().boundsPlot->plot()->axisRects()) {
                for (QCPAxis* axis : rect->axes()) {
                    out << QString("%1..%2").arg(axis->range().lower).arg(axis->range().upper);
                }
            }
            return out;
        };
        MainWindow fresh;
        fresh.setScripted(true);
        fresh.resize(1280, 720);
        QVERIFY(fresh.loadDemo("ocr_bcfw"));
        cplab::testing::drawPending(fresh);

        MainWindow w;
        w.setScripted(true);
        w.resize(1280, 720);
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("bundle_cb3"));
        QVERIFY(waitFor([&] { return cplab::testing::allReady(w); }));
        w.stepAll(10);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() >= 10; }));
        cplab::testing::drawPending(w);
        const QStringList stepped = ranges(w);
        // A zoom too: the new problem's plot follows its data again.
        w.parts().boundsPlot->plot()->axisRects().front()->axis(QCPAxis::atLeft)->scaleRange(3.0);
        QVERIFY(w.loadDemo("ocr_bcfw"));
        cplab::testing::drawPending(w);
        QVERIFY(ranges(w) != stepped);
        QCOMPARE(ranges(w), ranges(fresh));
        QVERIFY(w.parts().boundsPlot->autoScaling());
    }

    void tellsAKilledWriterABadRowAndANewRunApart() {
        QTemporaryDir dir;
        MainWindow w;
        w.setScripted(true);
        QVERIFY(w.loadDemo("kelley"));
        const QByteArray header = "iteration,seconds,oracle_calls,upper,lower,gap,rel_gap\n";

        // A running file no process holds: the run that wrote it was killed.
        writeText(dir.filePath("killed.csv.running"), header + "1,0.1,1,3,1,2,0.66\n");
        TraceFollower* killed = w.followTrace(dir.filePath("killed.csv"));
        QCOMPARE(killed->records().size(), std::size_t(1));
        QVERIFY(waitFor([&] { return killed->state() == TraceFollower::State::Stopped; }, 15000));
        QVERIFY2(killed->stateText().contains("killed"), qPrintable(killed->stateText()));

        // A row that is not a trace's: the file and its line.
        writeText(dir.filePath("bad.csv.running"),
                  header + "1,0.1,1,3,1,2,0.66\n2,0.2,2,2.5,oops,1,0.4\n");
        TraceFollower* bad = w.followTrace(dir.filePath("bad.csv"));
        QCOMPARE(bad->state(), TraceFollower::State::Failed);
        QVERIFY2(bad->stateText().contains("bad.csv.running:3: lower is not a number"),
                 qPrintable(bad->stateText()));
        writeText(dir.filePath("back.csv.running"),
                  header + "2,0.1,1,3,1,2,0.66\n1,0.2,2,2.5,2,1,0.4\n");
        TraceFollower* back = w.followTrace(dir.filePath("back.csv"));
        QVERIFY2(back->stateText().contains("back.csv.running:3: iteration 1 after 2"),
                 qPrintable(back->stateText()));

        // A device or a FIFO is refused, not read (a FIFO would block the GUI in open()).
        TraceFollower* device = w.followTrace("/dev/zero");
        QCOMPARE(device->state(), TraceFollower::State::Failed);
        QVERIFY2(device->stateText().contains("not a regular file"),
                 qPrintable(device->stateText()));
        const QString fifo = dir.filePath("pipe.csv");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        TraceFollower* pipe = w.followTrace(fifo);
        QCOMPARE(pipe->state(), TraceFollower::State::Failed);

        // A new run over the followed one: the records start again.
        const QString again = dir.filePath("again.csv.running");
        writeText(again, header + "1,0.1,1,3,1,2,0.66\n2,0.2,2,2.5,2,0.5,0.2\n");
        TraceFollower* restarted = w.followTrace(again);
        QCOMPARE(restarted->records().size(), std::size_t(2));
        QSignalSpy restarts(restarted, &TraceFollower::restarted);
        writeText(again, header + "1,0.5,1,9,1,8,0.9\n");
        restarted->poll();
        QCOMPARE(restarts.count(), 1);
        QCOMPARE(restarted->records().size(), std::size_t(1));
        QCOMPARE(restarted->records()[0].upper, 9.0);
    }

    void followsTheRealCommandLine() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("ocas.csv");
        MainWindow w;
        w.setScripted(true);
        QVERIFY(w.loadDemo("kelley"));
        TraceFollower* f = w.followTrace(trace);  // before the run starts: it waits
        QCOMPARE(f->state(), TraceFollower::State::Waiting);
        QProcess cli;
        cli.start(QStringLiteral(CPLAB_CLI_PATH), {"run", "bmrm", "--problem", "heart_scale",
                                                   "--set", "C=100", "--trace", trace, "--quiet"});
        QVERIFY(cli.waitForStarted(10000));
        QVERIFY(waitFor([&] { return f->state() == TraceFollower::State::Ended; }, 120000));
        if (cli.state() != QProcess::NotRunning) QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY(!QFileInfo::exists(trace + ".running"));
        // The records are the finished trace's, read by a second follower from FILE alone.
        TraceFollower* finished = w.followTrace(trace);
        QCOMPARE(finished->state(), TraceFollower::State::Ended);
        QVERIFY(finished->records().size() > 10);
        QVERIFY(same(f->records(), finished->records()));
        QCOMPARE(w.parts().boundsPlot->pointCount(-1), int(finished->records().size()));
    }
};

QTEST_MAIN(TestFollowTrace)
#include "test_follow_trace.moc"
