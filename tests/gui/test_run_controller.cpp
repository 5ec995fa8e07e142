// SPDX-License-Identifier: GPL-3.0-or-later
// Drives RunController and its runs offscreen: each run's worker thread through step, run,
// pause, resume, cancel, reset, restart and removal, the snapshot history and its budget, and
// the main window's clean-up when its runs go away or the window closes during a race.
#include <qcustomplot.h>

#include <QColor>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPointer>
#include <QSignalSpy>
#include <QTextDocument>
#include <QThread>
#include <QThreadPool>
#include <QtTest>
#include <atomic>
#include <map>
#include <set>
#include <vector>

#include "bounds_plot.h"
#include "family_view.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "plot_points.h"
#include "pseudocode_panel.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "test_printers.h"
#include "timeline_bar.h"

using cplab::IterationRecord;
using cplab::MainWindow;
using cplab::OptionValues;
using cplab::Run;
using cplab::RunController;
using cplab::StatusCode;

namespace {

constexpr int kTimeout = 20000;  // ms for anything the test waits for
constexpr int kQuietMs = 300;    // no signal for this long: nothing more happens

// Pegasos SGD has no lower bound, so no gap rule can end it, and this iteration cap is far
// beyond what a test reaches: a run that goes on until it is paused, cancelled or removed.
const char* const kEndlessProblem = "ripley_train";
OptionValues endless(int seed) {
    return {{"max_iterations", "100000000"}, {"seed", std::to_string(seed)}};
}

// Loads `problem` into `c` and adds runs of `solver` with `options`; false and *why on failure.
bool setUp(RunController& c, const std::string& problem,
           const std::vector<std::pair<std::string, OptionValues>>& runs, QString* why) {
    std::string message;
    auto instance = cplab::makeProblem(problem, &message);
    if (!instance) {
        *why = QString::fromStdString(message);
        return false;
    }
    c.setProblem(std::move(instance));
    for (const auto& [solver, options] : runs) {
        if (!c.addRun(solver, options, why)) return false;
    }
    return true;
}

// The problem and runs of built-in demo `name`.
bool setUpDemo(RunController& c, const char* name, QString* why) {
    const cplab::DemoInfo* demo = cplab::findDemo(name);
    if (!demo) {
        *why = QString("no demo %1").arg(name);
        return false;
    }
    std::vector<std::pair<std::string, OptionValues>> runs;
    for (const auto& run : demo->runs)
        runs.emplace_back(run.solver, run.options);
    return setUp(c, demo->problem, runs, why);
}

// `count` endless SGD runs (seeds 1, 2, …) on kEndlessProblem.
bool setUpEndless(RunController& c, int count, QString* why) {
    std::vector<std::pair<std::string, OptionValues>> runs;
    for (int k = 1; k <= count; ++k)
        runs.emplace_back("sgd", endless(k));
    return setUp(c, kEndlessProblem, runs, why);
}

bool controllerReady(const RunController& c) {
    for (int k = 0; k < c.runCount(); ++k) {
        if (!c.run(k)->ready()) return false;
    }
    return c.runCount() > 0;
}

std::vector<int> iterations(const RunController& c) {
    std::vector<int> result;
    for (int k = 0; k < c.runCount(); ++k)
        result.push_back(c.run(k)->iteration());
    return result;
}

bool allBeyond(const RunController& c, const std::vector<int>& floor) {
    for (int k = 0; k < c.runCount(); ++k) {
        if (c.run(k)->iteration() <= floor[static_cast<std::size_t>(k)]) return false;
    }
    return c.runCount() > 0;
}

std::vector<int> plus(std::vector<int> values, int delta) {
    for (int& v : values)
        v += delta;
    return values;
}

// Empty when the run's records are numbered 1, 2, …, n without a gap and iteration() is n;
// otherwise what is wrong.
QString traceProblem(const Run& run) {
    const auto& trace = run.trace();
    for (std::size_t i = 0; i < trace.size(); ++i) {
        if (trace[i].iteration != static_cast<int>(i) + 1) {
            return QString("run #%1: record %2 has iteration %3")
                .arg(run.id())
                .arg(i)
                .arg(trace[i].iteration);
        }
    }
    if (run.iteration() != static_cast<int>(trace.size())) {
        return QString("run #%1: iteration() %2 but %3 records")
            .arg(run.id())
            .arg(run.iteration())
            .arg(trace.size());
    }
    return {};
}

// Processes events until `spy` has received nothing for kQuietMs (the runs have settled
// after a pause); false when the signals keep coming for kTimeout.
bool settleSpy(QSignalSpy& spy) {
    QElapsedTimer clock;
    clock.start();
    while (spy.wait(kQuietMs)) {
        if (clock.elapsed() > kTimeout) return false;
    }
    return true;
}

using cplab::testing::drawnPoints;

QString plainText(const QString& html) {
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText().trimmed();
}

using cplab::testing::runThreadsAlive;

}  // namespace

class TestRunController : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void stepAdvancesEveryRunByExactlyOne();
    void runPauseResumeAndStepWhilePaused();
    void cancelWhileRunningFlatOut();
    void removeRunWhileRunningClearsTheViews();
    void closingTheWindowStopsEveryThread();
    void resetDuringARunReturnsToIterationZero();
    void restartWithInvalidOptionsKeepsTheRun();
    void thinHistoryKeepsFirstLastAndEveryKth();
    void historyBudgetThinsAndSaysSo();
};

void TestRunController::initTestCase() {
    cplab::registerRunMetaTypes();
    qRegisterMetaType<std::vector<IterationRecord>>("std::vector<cplab::IterationRecord>");
}

void TestRunController::stepAdvancesEveryRunByExactlyOne() {
    RunController c;
    QString why;
    QVERIFY2(setUpDemo(c, "bundle_vs_kelley", &why), qPrintable(why));
    QCOMPARE(c.runCount(), 2);
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    QSignalSpy records(&c, &RunController::recordsAppended);
    QSignalSpy snapshots(&c, &RunController::snapshotChanged);
    QVERIFY(records.isValid() && snapshots.isValid());
    // Ready and paused at iteration 0: nothing arrives on its own.
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(iterations(c), std::vector<int>({0, 0}));

    for (int step = 1; step <= 3; ++step) {
        records.clear();
        snapshots.clear();
        c.stepAll(1);
        // One update per run carrying one record, numbered `step`, and its snapshot.
        QTRY_COMPARE_WITH_TIMEOUT(records.count(), 2, kTimeout);
        QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), 2, kTimeout);
        std::set<int> ids;
        for (const QList<QVariant>& arguments : records) {
            ids.insert(arguments.at(0).toInt());
            const auto batch = arguments.at(1).value<std::vector<IterationRecord>>();
            QCOMPARE(batch.size(), std::size_t(1));
            QCOMPARE(batch.front().iteration, step);
        }
        QCOMPARE(ids, std::set<int>({c.run(0)->id(), c.run(1)->id()}));
        for (int k = 0; k < c.runCount(); ++k) {
            const Run* run = c.run(k);
            QCOMPARE(run->iteration(), step);
            QVERIFY2(traceProblem(*run).isEmpty(), qPrintable(traceProblem(*run)));
            QCOMPARE(run->history().snapshot()->record.iteration, step);
            QCOMPARE(run->status().code, StatusCode::Running);
        }
        // Nothing more happens afterwards.
        QVERIFY(!records.wait(kQuietMs));
        QCOMPARE(records.count(), 2);
        QCOMPARE(iterations(c), std::vector<int>({step, step}));
    }

    // Step ×4: exactly four more, however the worker batches them.
    c.stepAll(4);
    QTRY_VERIFY_WITH_TIMEOUT(iterations(c) == std::vector<int>({7, 7}), kTimeout);
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(iterations(c), std::vector<int>({7, 7}));
    for (int k = 0; k < c.runCount(); ++k)
        QVERIFY2(traceProblem(*c.run(k)).isEmpty(), qPrintable(traceProblem(*c.run(k))));
}

void TestRunController::runPauseResumeAndStepWhilePaused() {
    RunController c;
    QString why;
    QVERIFY2(setUpEndless(c, 2, &why), qPrintable(why));
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    QSignalSpy records(&c, &RunController::recordsAppended);

    // Flat out: both grow.
    c.runAll();
    QTRY_VERIFY_WITH_TIMEOUT(allBeyond(c, {10, 10}), kTimeout);

    // Pause: once the last update is in, nothing more arrives and the count stays.
    c.pauseAll();
    QVERIFY2(settleSpy(records), "records keep arriving after pauseAll");
    const std::vector<int> paused = iterations(c);
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(iterations(c), paused);
    for (int k = 0; k < c.runCount(); ++k) {
        QCOMPARE(c.run(k)->status().code, StatusCode::Running);
        QVERIFY2(traceProblem(*c.run(k)).isEmpty(), qPrintable(traceProblem(*c.run(k))));
    }

    // Resume: both grow again from where they stood.
    c.runAll();
    QTRY_VERIFY_WITH_TIMEOUT(allBeyond(c, plus(paused, 10)), kTimeout);
    c.pauseAll();
    QVERIFY2(settleSpy(records), "records keep arriving after the second pauseAll");
    const std::vector<int> pausedAgain = iterations(c);

    // Step while paused: exactly one more each, in one update each, then nothing.
    records.clear();
    c.stepAll(1);
    QTRY_COMPARE_WITH_TIMEOUT(records.count(), 2, kTimeout);
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(iterations(c), plus(pausedAgain, 1));
    for (int k = 0; k < c.runCount(); ++k) {
        const Run* run = c.run(k);
        QVERIFY2(traceProblem(*run).isEmpty(), qPrintable(traceProblem(*run)));
        QCOMPARE(run->history().snapshot()->record.iteration, run->iteration());
    }
}

void TestRunController::cancelWhileRunningFlatOut() {
    RunController c;
    QString why;
    QVERIFY2(setUpEndless(c, 2, &why), qPrintable(why));
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    // The status each statusChanged reported, as the run had it at that moment.
    std::map<int, StatusCode> reported;
    connect(&c, &RunController::statusChanged, this,
            [&](int id) { reported[id] = c.runById(id)->status().code; });
    QSignalSpy messages(&c, &RunController::message);
    c.runAll();
    QTRY_VERIFY_WITH_TIMEOUT(allBeyond(c, {10, 10}), kTimeout);

    c.cancelAll();
    QTRY_VERIFY_WITH_TIMEOUT(reported[c.run(0)->id()] == StatusCode::Cancelled &&
                                 reported[c.run(1)->id()] == StatusCode::Cancelled,
                             kTimeout);
    QVERIFY(!c.anyActive());
    for (int k = 0; k < c.runCount(); ++k) {
        const Run* run = c.run(k);
        QCOMPARE(run->status().code, StatusCode::Cancelled);
        QVERIFY(run->iteration() > 10);
        QVERIFY2(traceProblem(*run).isEmpty(), qPrintable(traceProblem(*run)));
        // The final snapshot is of the last record.
        QCOMPARE(run->history().snapshot()->record.iteration, run->iteration());
    }
    // The log says so, once per run.
    int cancelledLines = 0;
    for (const QList<QVariant>& arguments : messages)
        cancelledLines += arguments.at(0).toString().contains("cancelled") ? 1 : 0;
    QCOMPARE(cancelledLines, 2);

    // Stepping or running a cancelled run does nothing.
    const std::vector<int> stopped = iterations(c);
    QSignalSpy records(&c, &RunController::recordsAppended);
    c.stepAll(1);
    c.stepAll(5);
    c.runAll();
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(iterations(c), stopped);
    QCOMPARE(c.run(0)->status().code, StatusCode::Cancelled);
    QCOMPARE(c.run(1)->status().code, StatusCode::Cancelled);
}

void TestRunController::removeRunWhileRunningClearsTheViews() {
    MainWindow w;
    w.show();
    QVERIFY(w.loadProblem(kEndlessProblem));
    w.removeAllRuns();
    QString why;
    QVERIFY2(w.addRun("sgd", endless(1), &why), qPrintable(why));
    QVERIFY2(w.addRun("sgd", endless(2), &why), qPrintable(why));
    RunController* c = w.parts().controller;
    QCOMPARE(c->runCount(), 2);
    w.selectRun(0);
    w.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(*c), kTimeout);
    w.runAll();
    QTRY_VERIFY_WITH_TIMEOUT(allBeyond(*c, {10, 10}), kTimeout);

    // The views show the selected run.
    cplab::widgets::FamilyView* view = w.currentView();
    QVERIFY(view);
    QCOMPARE(view, w.parts().centre->view("linear"));
    QTRY_VERIFY_WITH_TIMEOUT(drawnPoints(view->plot()) > 0, kTimeout);
    QTRY_VERIFY_WITH_TIMEOUT(w.parts().pseudocode->currentLine() >= 0, kTimeout);
    QVERIFY(!plainText(w.parts().pseudocode->html()).isEmpty());
    QVERIFY(!w.parts().playback->statusText().isEmpty());

    QSignalSpy removed(c, &RunController::runRemoved);
    QSignalSpy snapshots(c, &RunController::snapshotChanged);
    const int first = w.parts().setup->selectedRun()->id();
    const int second = c->run(1)->id();
    QTRY_VERIFY_WITH_TIMEOUT(w.parts().boundsPlot->pointCount(first) > 0, kTimeout);
    QPointer<Run> firstRun = w.parts().setup->selectedRun();
    QElapsedTimer clock;
    clock.start();
    w.parts().setup->removeSelected();
    const qint64 firstMs = clock.elapsed();
    QVERIFY2(firstMs < 2000, qPrintable(QString("removeRun took %1 ms").arg(firstMs)));
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.front().at(0).toInt(), first);
    QVERIFY(firstRun.isNull());
    QCOMPARE(c->runById(first), nullptr);
    QCOMPARE(c->runCount(), 1);
    QCOMPARE(w.parts().boundsPlot->pointCount(first), 0);

    // The other run goes on and is shown now.
    QVERIFY(w.parts().setup->selectedRun());
    QCOMPARE(w.parts().setup->selectedRun()->id(), second);
    const int before = w.parts().setup->selectedRun()->iteration();
    QTRY_VERIFY_WITH_TIMEOUT(w.parts().setup->selectedRun()->iteration() > before, kTimeout);
    QVERIFY(drawnPoints(view->plot()) > 0);
    QVERIFY(w.parts().playback->statusText().contains(QString("#%1").arg(second)));

    // Removing the last one, still running: every view, the pseudocode and the status clear.
    QPointer<Run> secondRun = w.parts().setup->selectedRun();
    QVERIFY(secondRun->threadRunning());
    QVERIFY(secondRun->status().code == StatusCode::Running);
    clock.restart();
    w.parts().setup->removeSelected();
    const qint64 secondMs = clock.elapsed();
    QVERIFY2(secondMs < 2000, qPrintable(QString("removeRun took %1 ms").arg(secondMs)));
    QCOMPARE(removed.count(), 2);
    QCOMPARE(removed.back().at(0).toInt(), second);
    QVERIFY(secondRun.isNull());
    QCOMPARE(c->runCount(), 0);
    QCOMPARE(w.parts().setup->selectedRun(), nullptr);
    const auto cleared = [&] {
        QStringList wrong;
        for (const cplab::Family* family : cplab::families()) {
            cplab::widgets::FamilyView* v = w.parts().centre->view(family->name());
            if (v && drawnPoints(v->plot()) != 0)
                wrong << QString::fromStdString(family->name() + " view still draws data");
        }
        if (drawnPoints(w.parts().boundsPlot->plot()) != 0) wrong << "bounds plot still draws data";
        if (w.parts().pseudocode->currentLine() != -1) wrong << "pseudocode has a current line";
        if (!plainText(w.parts().pseudocode->html()).isEmpty()) wrong << "pseudocode has lines";
        if (!w.parts().playback->statusText().isEmpty())
            wrong << "status: " + w.parts().playback->statusText();
        if (w.parts().timeline->last() != 0) wrong << "timeline not at 0";
        return wrong.join("; ");
    };
    QVERIFY2(cleared().isEmpty(), qPrintable(cleared()));
    // No late update of a removed run draws again.
    QVERIFY(!snapshots.wait(kQuietMs));
    QVERIFY2(cleared().isEmpty(), qPrintable(cleared()));
}

void TestRunController::closingTheWindowStopsEveryThread() {
    QVERIFY(runThreadsAlive() <= 0);  // none left over from earlier tests
    auto* w = new MainWindow;
    w->show();
    QVERIFY(w->loadProblem(kEndlessProblem));
    w->removeAllRuns();
    QString why;
    for (int seed = 1; seed <= 3; ++seed)
        QVERIFY2(w->addRun("sgd", endless(seed), &why), qPrintable(why));
    RunController* c = w->parts().controller;
    w->setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(*c), kTimeout);
    w->runAll();
    QTRY_VERIFY_WITH_TIMEOUT(allBeyond(*c, {10, 10, 10}), kTimeout);

    // Each run's own thread, running.
    std::vector<QPointer<QThread>> threads;
    std::atomic<int> finished{0};
    for (int k = 0; k < c->runCount(); ++k) {
        const Run* run = c->run(k);
        QVERIFY(run->threadRunning());
        const auto own = run->findChildren<QThread*>();
        QCOMPARE(own.size(), qsizetype(1));
        QVERIFY(own.front()->isRunning());
        QVERIFY(own.front() != QThread::currentThread());
        connect(
            own.front(), &QThread::finished, own.front(), [&finished] { ++finished; },
            Qt::DirectConnection);
        threads.emplace_back(own.front());
    }
    if (runThreadsAlive() >= 0) QCOMPARE(runThreadsAlive(), 3);

    QElapsedTimer clock;
    clock.start();
    delete w;
    const qint64 ms = clock.elapsed();
    QVERIFY2(ms < 5000, qPrintable(QString("closing took %1 ms").arg(ms)));
    // Every thread finished (its finished signal came) before its QThread was destroyed.
    QCOMPARE(finished.load(), 3);
    for (const auto& thread : threads)
        QVERIFY(thread.isNull());
    if (runThreadsAlive() >= 0) QTRY_COMPARE_WITH_TIMEOUT(runThreadsAlive(), 0, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(QThreadPool::globalInstance()->activeThreadCount(), 0, 5000);
}

void TestRunController::resetDuringARunReturnsToIterationZero() {
    RunController c;
    QString why;
    QVERIFY2(setUpEndless(c, 2, &why), qPrintable(why));
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    c.runAll();
    QTRY_VERIFY_WITH_TIMEOUT(allBeyond(c, {10, 10}), kTimeout);

    std::vector<QPointer<Run>> old;
    std::vector<int> ids;
    std::vector<QColor> colors;
    for (int k = 0; k < c.runCount(); ++k) {
        old.emplace_back(c.run(k));
        ids.push_back(c.run(k)->id());
        colors.push_back(c.run(k)->color());
    }
    QSignalSpy replaced(&c, &RunController::runReplaced);
    QSignalSpy records(&c, &RunController::recordsAppended);
    c.resetAll();
    QCOMPARE(replaced.count(), 2);
    for (int k = 0; k < c.runCount(); ++k) {
        QCOMPARE(replaced.at(k).at(0).toInt(), ids[static_cast<std::size_t>(k)]);
        QVERIFY(old[static_cast<std::size_t>(k)].isNull());  // the old run and its thread are gone
        const Run* run = c.run(k);
        QCOMPARE(run->id(), ids[static_cast<std::size_t>(k)]);
        QCOMPARE(run->color(), colors[static_cast<std::size_t>(k)]);
        QCOMPARE(run->options(), endless(k + 1));
        QCOMPARE(run->iteration(), 0);
        QVERIFY(run->trace().empty());
    }
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    for (int k = 0; k < c.runCount(); ++k) {
        const Run* run = c.run(k);
        QCOMPARE(run->iteration(), 0);
        QVERIFY(run->trace().empty());
        QCOMPARE(run->history().snapshots().size(), std::size_t(1));
        QCOMPARE(run->history().snapshot()->record.iteration, 0);
        QCOMPARE(run->status().code, StatusCode::Running);
    }
    // The new runs wait at iteration 0 (no record of the old ones leaks in) and can step.
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(records.count(), 0);
    c.stepAll(1);
    QTRY_COMPARE_WITH_TIMEOUT(records.count(), 2, kTimeout);
    QVERIFY(!records.wait(kQuietMs));
    QCOMPARE(iterations(c), std::vector<int>({1, 1}));
    for (int k = 0; k < c.runCount(); ++k) {
        const Run* run = c.run(k);
        QCOMPARE(run->trace().size(), std::size_t(1));
        QCOMPARE(run->trace().front().iteration, 1);
        QCOMPARE(run->history().snapshot()->record.iteration, 1);
    }
}

void TestRunController::restartWithInvalidOptionsKeepsTheRun() {
    RunController c;
    QString why;
    QVERIFY2(setUpDemo(c, "kelley", &why), qPrintable(why));
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    c.stepAll(2);
    QTRY_COMPARE_WITH_TIMEOUT(c.run(0)->iteration(), 2, kTimeout);
    const int id = c.run(0)->id();
    QPointer<Run> run = c.run(0);
    QSignalSpy replaced(&c, &RunController::runReplaced);
    QSignalSpy messages(&c, &RunController::message);

    struct Case {
        std::string solver;
        OptionValues options;
        QString named;  // what the message must name
    };
    const std::vector<Case> cases = {
        {"kelley", {{"max_iterations", "-3"}}, "max_iterations"},
        {"kelley", {{"epsilon", "abc"}}, "epsilon"},
        {"kelley", {{"no_such_option", "1"}}, "no_such_option"},
        {"sgd", {}, "sgd"},  // a linear solver on a nonsmooth problem
    };
    for (const Case& bad : cases) {
        why.clear();
        messages.clear();
        QCOMPARE(c.restartRun(id, bad.solver, bad.options, &why), nullptr);
        QVERIFY2(why.contains(bad.named), qPrintable(why));
        // The log gets the same message, as an error.
        QCOMPARE(messages.count(), 1);
        QCOMPARE(messages.front().at(0).toString(), why);
        QCOMPARE(messages.front().at(1).toBool(), true);
        // The old run stays, as it was.
        QCOMPARE(replaced.count(), 0);
        QVERIFY(!run.isNull());
        QCOMPARE(c.runCount(), 1);
        QCOMPARE(c.runById(id), run.data());
        QCOMPARE(run->iteration(), 2);
        QVERIFY(run->options().empty());
    }
    QCOMPARE(c.restartRun(id + 100, "kelley", {}, &why), nullptr);  // no such run
    QCOMPARE(c.runById(id), run.data());

    // The kept run still steps.
    c.stepAll(1);
    QTRY_COMPARE_WITH_TIMEOUT(run->iteration(), 3, kTimeout);

    // A valid restart replaces it: same id, iteration 0, the new options.
    const OptionValues good{{"max_iterations", "5"}};
    Run* fresh = c.restartRun(id, "kelley", good, &why);
    QVERIFY2(fresh, qPrintable(why));
    QVERIFY(run.isNull());
    QCOMPARE(replaced.count(), 1);
    QCOMPARE(fresh->id(), id);
    QCOMPARE(fresh->options(), good);
    QCOMPARE(fresh->iteration(), 0);
}

void TestRunController::thinHistoryKeepsFirstLastAndEveryKth() {
    RunController c;
    QString why;
    QVERIFY2(setUpDemo(c, "kelley_2d", &why), qPrintable(why));
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    Run* run = c.run(0);
    QCOMPARE(run->history().snapshots().size(), std::size_t(1));

    // Stepping one at a time: one snapshot per iteration, 0 … n.
    const int n = 21;
    for (int i = 1; i <= n; ++i) {
        c.stepAll(1);
        QTRY_COMPARE_WITH_TIMEOUT(run->iteration(), i, kTimeout);
        QTRY_COMPARE_WITH_TIMEOUT(run->history().snapshots().size(), std::size_t(i + 1), kTimeout);
    }
    QCOMPARE(run->status().code, StatusCode::Running);  // Kelley needs ~35 here
    std::size_t total = 0;
    for (int i = 0; i <= n; ++i) {
        const auto& snapshot = run->history().snapshots()[static_cast<std::size_t>(i)];
        QCOMPARE(snapshot->record.iteration, i);
        QCOMPARE(run->history().snapshotAt(i), snapshot);
        QCOMPARE(run->history().recordAt(i).iteration, i);
        total += snapshot->bytes();
    }
    QCOMPARE(run->history().bytes(), total);

    // Thinning with every k-th kept, computed here from the snapshots' own sizes.
    const auto keptAt = [&](int k) {
        std::vector<int> kept;
        for (int i = 0; i <= n; ++i) {
            if (i == 0 || i == n || i % k == 0) kept.push_back(i);
        }
        return kept;
    };
    const auto bytesAt = [&](int k) {
        std::size_t bytes = 0;
        for (int i : keptAt(k))
            bytes += run->history().snapshots()[static_cast<std::size_t>(i)]->bytes();
        return bytes;
    };
    const std::size_t budget = bytesAt(4);
    QVERIFY(bytesAt(2) > budget);  // k = 2 is not enough, k = 4 is

    // Within the budget already: nothing is dropped.
    QCOMPARE(run->thinHistory(total), 1);
    QCOMPARE(run->history().snapshots().size(), std::size_t(n + 1));

    QCOMPARE(run->thinHistory(budget), 4);
    std::vector<int> kept;
    for (const auto& snapshot : run->history().snapshots())
        kept.push_back(snapshot->record.iteration);
    QCOMPARE(kept, std::vector<int>({0, 4, 8, 12, 16, 20, 21}));
    QCOMPARE(kept, keptAt(4));
    QCOMPARE(run->history().bytes(), budget);

    // snapshotAt: the newest kept at or before the iteration.
    for (int i = 0; i <= n + 5; ++i) {
        const int expected = i >= n ? n : i - i % 4;
        QVERIFY(run->history().snapshotAt(i));
        QCOMPARE(run->history().snapshotAt(i)->record.iteration, expected);
    }
    // The records are untouched.
    QVERIFY2(traceProblem(*run).isEmpty(), qPrintable(traceProblem(*run)));
    QCOMPARE(run->history().recordAt(n + 10).iteration, n);

    // New snapshots are kept after the thinned ones.
    c.stepAll(1);
    QTRY_COMPARE_WITH_TIMEOUT(run->history().snapshots().size(), std::size_t(8), kTimeout);
    QCOMPARE(run->history().snapshots().back()->record.iteration, n + 1);
    QCOMPARE(run->history().snapshotAt(n + 1)->record.iteration, n + 1);
    QCOMPARE(run->history().snapshotAt(n)->record.iteration, n);
}

void TestRunController::historyBudgetThinsAndSaysSo() {
    RunController c;
    QString why;
    QVERIFY2(setUpDemo(c, "bundle_vs_kelley", &why), qPrintable(why));
    c.setDelayMs(0);
    QTRY_VERIFY_WITH_TIMEOUT(controllerReady(c), kTimeout);
    const int n = 12;
    for (int i = 1; i <= n; ++i) {
        c.stepAll(1);
        QTRY_VERIFY_WITH_TIMEOUT(c.run(0)->history().snapshots().size() == std::size_t(i + 1) &&
                                     c.run(1)->history().snapshots().size() == std::size_t(i + 1),
                                 kTimeout);
    }
    std::size_t total = 0;
    for (int k = 0; k < c.runCount(); ++k)
        total += c.run(k)->history().bytes();
    QCOMPARE(c.historyBytes(), total);

    // A budget as large as the history: nothing happens.
    QSignalSpy messages(&c, &RunController::message);
    c.setHistoryBudget(total);
    QCOMPARE(messages.count(), 0);
    QCOMPARE(c.run(0)->history().snapshots().size(), std::size_t(n + 1));

    // A tiny one: each run keeps only its first and its last snapshot (k = 16 for 0 … 12),
    // and the log says so, once per run, naming the budget.
    const std::size_t tiny = 1;
    c.setHistoryBudget(tiny);
    QCOMPARE(c.historyBudget(), tiny);
    QCOMPARE(messages.count(), 2);
    for (int k = 0; k < c.runCount(); ++k) {
        const Run* run = c.run(k);
        QCOMPARE(run->history().snapshots().size(), std::size_t(2));
        QCOMPARE(run->history().snapshots().front()->record.iteration, 0);
        QCOMPARE(run->history().snapshots().back()->record.iteration, n);
        QCOMPARE(run->history().snapshotAt(n - 1)->record.iteration, 0);
        const QString text = messages.at(k).at(0).toString();
        QCOMPARE(messages.at(k).at(1).toBool(), false);
        QVERIFY2(text.contains(c.runLabel(run->id())), qPrintable(text));
        QVERIFY2(text.contains("MB budget"), qPrintable(text));
        QVERIFY2(text.contains("every 16"), qPrintable(text));
    }
    QCOMPARE(c.historyBytes(), c.run(0)->history().bytes() + c.run(1)->history().bytes());
    QVERIFY(c.historyBytes() < total);
}

QTEST_MAIN(TestRunController)
#include "test_run_controller.moc"
