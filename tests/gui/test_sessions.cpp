// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions through the main window (app/session/session.h): a race of two solvers is saved and
// opened in a fresh window, which shows the same problem, runs, records, view state and bounds plot
// without running anything (with stored histories), or the same runs at iteration 0 that step
// to the same numbers (without); a restored run goes on from its stored iteration with the
// numbers a run never saved would have; `cplab-cli session` re-runs the file and finds the
// stored numbers; a session that names a changed file opens nothing and says why.
#include <qcustomplot.h>

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QJsonDocument>
#include <QMimeData>
#include <QTemporaryDir>
#include <QtTest>

#include "bounds_plot.h"
#include "cli_process.h"
#include "data/libsvm_format.h"
#include "families/dataset_family.h"
#include "family_view.h"
#include "gui_wait.h"
#include "log_panel.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "point_editor.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "session.h"
#include "session_history.h"
#include "timeline_bar.h"

using cplab::MainWindow;
using cplab::testing::allReady;
using cplab::testing::waitFor;

namespace {

constexpr int kSteps = 6;

// The records' numbers, bit for bit (iteration, bounds, gap, oracle calls).
bool sameRecords(const std::vector<cplab::IterationRecord>& a,
                 const std::vector<cplab::IterationRecord>& b, int count) {
    if (static_cast<int>(a.size()) < count || static_cast<int>(b.size()) < count) return false;
    for (int k = 0; k < count; ++k) {
        if (a[k].iteration != b[k].iteration || a[k].upper != b[k].upper ||
            a[k].lower != b[k].lower || a[k].gap != b[k].gap ||
            a[k].oracleCalls != b[k].oracleCalls)
            return false;
    }
    return true;
}

// Opens `path` in `w` and waits until it is open and every run is ready.
bool openAndWait(MainWindow& w, const QString& path, bool* ok) {
    bool done = false;
    QObject::connect(&w, &MainWindow::sessionOpened, &w, [&](bool success, const QString&) {
        done = true;
        *ok = success;
    });
    w.openSession(path);
    return waitFor([&] { return done; }) && (!*ok || waitFor([&] { return allReady(w); }));
}

// Reads the session at `from`, changes it, and writes it to `to` as it is (nothing checked).
template <class Change>
bool rewriteSession(const QString& from, const QString& to, Change change) {
    cplab::SessionNotes notes;
    std::string why;
    auto session = cplab::readSession(from.toStdString(), &notes, &why);
    if (!session || !notes.empty()) return false;
    change(*session);
    return cplab::writeSession(to.toStdString(), *session, &why);
}

// Snapshot bytes with another iteration (its common fields follow the 6-byte header and the
// solver's name, app/registry/snapshot_codec.h).
std::string withIteration(std::string bytes, std::int32_t iteration) {
    std::uint64_t nameLength = 0;
    std::memcpy(&nameLength, bytes.data() + 6, 8);
    std::memcpy(bytes.data() + 14 + nameLength, &iteration, 4);
    return bytes;
}

QString logText(MainWindow& w) {
    return w.findChild<cplab::widgets::LogPanel*>()->toPlainText();
}

}  // namespace

class TestSessions : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("cplab-test");
        QSettings().clear();
        QVERIFY(dir_.isValid());
        // A race of OCAS and BMRM, 6 steps, the second run selected, the timeline at 4, the
        // x axis on oracle calls.
        original_.setScripted(true);
        original_.resize(1280, 720);
        original_.show();
        QVERIFY(original_.loadDemo("ocas_vs_bmrm"));
        QVERIFY(waitFor([&] { return allReady(original_); }));
        original_.stepAll(kSteps);
        QVERIFY(waitFor([&] {
            return original_.run(0)->iteration() >= kSteps &&
                   original_.run(1)->iteration() >= kSteps;
        }));
        original_.selectRun(1);
        original_.findChild<QComboBox*>("xAxisCombo")->setCurrentIndex(2);
        original_.showIteration(4);
        cplab::testing::drawPending(original_);
        QString why;
        QVERIFY2(original_.saveSession(path("with.cplab"), true, &why), qPrintable(why));
        QVERIFY2(original_.saveSession(path("without.cplab"), false, &why), qPrintable(why));
    }

    void reopensExactlyWithStoredHistory() {
        MainWindow w;
        w.setScripted(true);
        w.resize(1280, 720);
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, path("with.cplab"), &ok));
        QVERIFY(ok);
        cplab::testing::drawPending(w);
        cplab::testing::drawPending(original_);
        QCOMPARE(w.parts().controller->problem()->origin,
                 original_.parts().controller->problem()->origin);
        QCOMPARE(w.parts().controller->problem()->info.name,
                 original_.parts().controller->problem()->info.name);
        QCOMPARE(w.runCount(), 2);
        for (int k = 0; k < 2; ++k) {
            QCOMPARE(w.run(k)->solver(), original_.run(k)->solver());
            QCOMPARE(w.run(k)->options(), cplab::withExplicitSeed(original_.run(k)->solver(),
                                                                  original_.run(k)->options()));
            QCOMPARE(w.run(k)->iteration(), original_.run(k)->iteration());
            QVERIFY(sameRecords(w.run(k)->trace(), original_.run(k)->trace(), kSteps));
            QCOMPARE(w.run(k)->status().code, original_.run(k)->status().code);
        }
        // Nothing ran: the solvers are still at iteration 0, and only a replay would move them.
        QVERIFY(w.run(0)->replayPending() == kSteps);
        QCOMPARE(w.parts().setup->selectedRun(), w.run(1));
        QCOMPARE(w.parts().playback->shownIteration(), 4);
        QCOMPARE(w.findChild<QComboBox*>("xAxisCombo")->currentIndex(), 2);
        // The bounds plot draws the same picture.
        const QImage before = original_.parts().boundsPlot->plot()->toPixmap(600, 300).toImage();
        const QImage after = w.parts().boundsPlot->plot()->toPixmap(600, 300).toImage();
        QCOMPARE(after, before);
        // The model view draws the stored snapshots: the same pixels at the same iteration.
        QCOMPARE(w.currentView()->grab().toImage(), original_.currentView()->grab().toImage());
        w.showIteration(2);
        original_.showIteration(2);
        cplab::testing::drawPending(w);
        cplab::testing::drawPending(original_);
        QCOMPARE(w.currentView()->grab().toImage(), original_.currentView()->grab().toImage());
        original_.showIteration(4);
    }

    // One demo per family: saved after a few steps and reopened, the model view and the bounds
    // plot draw the same pixels.
    void everyFamilyReopensExactly_data() {
        QTest::addColumn<QString>("demo");
        for (const char* demo : {"kelley_2d", "frank_wolfe", "kernel_choice_2d", "mkl_path_2d",
                                 "slmc_2d", "ocr_bcfw", "map_frustrated"})
            QTest::newRow(demo) << demo;
    }
    void everyFamilyReopensExactly() {
        QFETCH(QString, demo);
        MainWindow first;
        first.setScripted(true);
        first.resize(1280, 720);
        first.show();
        QVERIFY(first.loadDemo(demo));
        QVERIFY(waitFor([&] { return allReady(first); }));
        first.stepAll(4);
        QVERIFY(waitFor(
            [&] {
                for (int k = 0; k < first.runCount(); ++k) {
                    const cplab::Run* r = first.run(k);
                    if (r->iteration() < 4 && !r->status().finished()) return false;
                }
                return true;
            },
            60000));
        cplab::testing::drawPending(first);
        QString why;
        QVERIFY2(first.saveSession(path(demo + ".cplab"), true, &why), qPrintable(why));
        MainWindow second;
        second.setScripted(true);
        second.resize(1280, 720);
        second.show();
        bool ok = false;
        QVERIFY(openAndWait(second, path(demo + ".cplab"), &ok));
        QVERIFY(ok);
        cplab::testing::drawPending(second);
        cplab::testing::drawPending(first);
        QCOMPARE(second.runCount(), first.runCount());
        QCOMPARE(second.currentView()->grab().toImage(), first.currentView()->grab().toImage());
        QCOMPARE(second.parts().boundsPlot->plot()->toPixmap(600, 300).toImage(),
                 first.parts().boundsPlot->plot()->toPixmap(600, 300).toImage());
    }

    void reopensAtIterationZeroWithoutHistory() {
        MainWindow w;
        w.setScripted(true);
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, path("without.cplab"), &ok));
        QVERIFY(ok);
        QCOMPARE(w.runCount(), 2);
        QCOMPARE(w.run(0)->iteration(), 0);
        QCOMPARE(w.run(0)->replayPending(), 0);
        w.stepAll(kSteps);
        QVERIFY(waitFor(
            [&] { return w.run(0)->iteration() >= kSteps && w.run(1)->iteration() >= kSteps; }));
        for (int k = 0; k < 2; ++k)
            QVERIFY(sameRecords(w.run(k)->trace(), original_.run(k)->trace(), kSteps));
    }

    void restoredRunGoesOnWithTheSameNumbers() {
        MainWindow w;
        w.setScripted(true);
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, path("with.cplab"), &ok));
        QVERIFY(ok);
        // Two more steps: the solver first replays the 6 stored ones, silently.
        w.stepAll(2);
        QVERIFY(waitFor([&] {
            return w.run(0)->iteration() >= kSteps + 2 && w.run(1)->iteration() >= kSteps + 2;
        }));
        QCOMPARE(w.run(0)->replayPending(), 0);
        // The same 8 records as a solver that was never saved.
        for (int k = 0; k < 2; ++k) {
            std::string why;
            auto solver = cplab::makeSolver(w.run(k)->solver(), *w.parts().controller->problem(),
                                            w.run(k)->options(), &why);
            QVERIFY2(solver, why.c_str());
            for (int i = 0; i < kSteps + 2 && !solver->status().finished(); ++i)
                solver->step();
            QVERIFY(sameRecords(w.run(k)->trace(), solver->trace(), kSteps + 2));
            QCOMPARE(static_cast<int>(w.run(k)->trace().size()), kSteps + 2);
        }
    }

    void cliReproducesTheStoredNumbers() {
        const QStringList arguments{"session", path("with.cplab"), "--json", "--quiet"};
        const auto r = cplab::clitest::runCli(arguments);
        QVERIFY2(r.exitCode == 0, qPrintable(cplab::clitest::describe(arguments, r)));
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        const QJsonArray runs = json.value("runs").toArray();
        QCOMPARE(runs.size(), 2);
        for (const QJsonValue& run : runs) {
            const QJsonObject stored = run.toObject().value("stored").toObject();
            QCOMPARE(stored.value("iterations").toInt(), kSteps);
            QCOMPARE(stored.value("largest_relative_difference").toDouble(-1), 0.0);
            QVERIFY(stored.value("same").toBool());
        }
    }

    void snapshotBeyondTheRecordsIsRefused() {
        // A stored snapshot of iteration 100 in a history of 6 iterations (the views crashed on
        // it, also for a run not selected): that run's history is left out when the session is
        // read, with a note naming the file, the run and the snapshot; the other run opens with
        // its history, and every view draws.
        for (int run : {0, 1}) {
            const QString edited = path(QString("beyond%1.cplab").arg(run));
            QVERIFY(rewriteSession(path("with.cplab"), edited, [&](cplab::Session& session) {
                auto& snapshots = session.runs[std::size_t(run)].history->snapshots;
                snapshots.back() = withIteration(snapshots.back(), 100);
            }));
            MainWindow w;
            w.setScripted(true);
            w.resize(1280, 720);
            w.show();
            bool ok = false;
            QVERIFY(openAndWait(w, edited, &ok));
            QVERIFY(ok);
            for (int k = 0; k < 2; ++k)
                w.selectRun(k), cplab::testing::drawPending(w);
            const QString expected =
                edited + QString(
                             ": run %1: stored history: snapshot %2 is iteration 100, "
                             "beyond the history's records (iterations 0 to %3)")
                             .arg(run + 1)
                             .arg(kSteps)
                             .arg(kSteps);
            QVERIFY2(logText(w).contains(expected), qPrintable(logText(w)));
            QCOMPARE(w.run(run)->iteration(), 0);
            QCOMPARE(w.run(1 - run)->iteration(), kSteps);
            QVERIFY(sameRecords(w.run(1 - run)->trace(), original_.run(1 - run)->trace(), kSteps));
        }
        // A run refuses such a history itself (the views take the records up to a snapshot's
        // iteration), leaving what it shows as it was.
        MainWindow w;
        w.setScripted(true);
        bool ok = false;
        QVERIFY(openAndWait(w, path("with.cplab"), &ok));
        QVERIFY(ok);
        std::vector<cplab::IterationRecord> records{w.run(0)->history().recordAt(0)};
        records.insert(records.end(), w.run(0)->trace().begin(), w.run(0)->trace().end());
        std::vector<cplab::SnapshotPtr> snapshots = w.run(0)->history().snapshots();
        auto beyond = std::make_shared<cplab::Snapshot>(*snapshots.back());
        beyond->record.iteration = 100;
        snapshots.back() = beyond;
        QVERIFY(!w.run(0)->restore(records, snapshots, w.run(0)->status()));
        records[3].iteration = 100;
        QVERIFY(!w.run(0)->restore(records, w.run(0)->history().snapshots(), w.run(0)->status()));
        QCOMPARE(w.run(0)->iteration(), kSteps);
        QCOMPARE(w.run(0)->history().snapshots().back()->record.iteration, kSteps);
    }

    void replayReplacesTheStoredNumbers() {
        // A session edited to U = -1e300 and gap 0 at run 1's iteration 3: shown as stored
        // until Step replays the run; then the replay's records replace the stored ones
        // everywhere (the run's trace, the bounds plot and its export, a session saved again),
        // and the run is marked: the log and the runs table say where and by how much it
        // differs. Run 2, unedited, replays to the stored numbers, unmarked.
        const QString edited = path("edited.cplab");
        QVERIFY(rewriteSession(path("with.cplab"), edited, [](cplab::Session& session) {
            cplab::IterationRecord& r = session.runs[0].history->records[3];
            r.upper = -1e300;
            r.gap = 0;
        }));
        MainWindow w;
        w.setScripted(true);
        w.resize(1280, 720);
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, edited, &ok));
        QVERIFY(ok);
        QCOMPARE(w.run(0)->trace()[2].upper, -1e300);
        w.stepAll(1);
        QVERIFY(waitFor([&] {
            return w.run(0)->iteration() >= kSteps + 1 && w.run(1)->iteration() >= kSteps + 1;
        }));
        cplab::testing::drawPending(w);
        for (int k = 0; k < 2; ++k)
            QVERIFY(sameRecords(w.run(k)->trace(), original_.run(k)->trace(), kSteps));
        const QString differs = "replayed: differs from the stored history at iteration 3 by 1";
        QVERIFY2(logText(w).contains(differs), qPrintable(logText(w)));
        QVERIFY2(logText(w).contains("replayed to iteration 6: the stored numbers"),
                 qPrintable(logText(w)));
        QCOMPARE(w.run(0)->replayDifference(), differs);
        QVERIFY(w.run(1)->replayDifference().isEmpty());
        QVERIFY(w.run(0)->stateText(kSteps + 1, true).contains("differs from stored"));
        QVERIFY(!w.run(1)->stateText(kSteps + 1, true).contains("differs"));

        QString why;
        QVERIFY2(w.exportBoundsPlot(path("edited_bounds.csv"), &why), qPrintable(why));
        QFile csv(path("edited_bounds.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray bounds = csv.readAll();
        QVERIFY2(!bounds.contains("e+300") && !bounds.contains("e300"), bounds.constData());
        // The bounds plot drew the replay's records in place of the stored ones, not beside
        // them: one point more than the original's 6 iterations for each run.
        for (int k = 0; k < 2; ++k)
            QCOMPARE(w.parts().boundsPlot->pointCount(w.run(k)->id()),
                     original_.parts().boundsPlot->pointCount(original_.run(k)->id()) + 1);
        QVERIFY2(w.saveSession(path("resaved.cplab"), true, &why), qPrintable(why));
        cplab::SessionNotes notes;
        std::string message;
        const auto resaved =
            cplab::readSession(path("resaved.cplab").toStdString(), &notes, &message);
        QVERIFY2(resaved, message.c_str());
        const auto& records = resaved->runs[0].history->records;
        QCOMPARE(records[3].upper, original_.run(0)->trace()[2].upper);
        QCOMPARE(records[3].gap, original_.run(0)->trace()[2].gap);
    }

    void changedDataFileIsReportedNotUsed() {
        // A session of a data file, then the file changes.
        const QString data = path("heart_scale");
        QVERIFY(QFile::copy(QStringLiteral(CPLAB_TEST_DATA_DIR) + "/heart_scale", data));
        MainWindow source;
        source.setScripted(true);
        bool loaded = false;
        QObject::connect(&source, &MainWindow::dataFileLoaded, &source,
                         [&](bool ok, const QString&) { loaded = ok; });
        source.openDataFile(data);
        QVERIFY(waitFor([&] { return loaded && allReady(source); }));
        QString why;
        QVERIFY2(source.saveSession(path("data.cplab"), false, &why), qPrintable(why));
        QFile file(data);
        QVERIFY(file.open(QIODevice::Append));
        file.write("+1 1:0.5\n");
        file.close();

        MainWindow w;
        w.setScripted(true);
        bool ok = true;
        QVERIFY(openAndWait(w, path("data.cplab"), &ok));
        QVERIFY(!ok);
        QVERIFY(w.parts().controller->problem() == nullptr);
        QVERIFY(w.findChild<cplab::widgets::LogPanel*>()->toPlainText().contains(
            "changed since the session was saved"));

        // Saved after the file changed under the loaded problem, a session keeps the hash of
        // the data the runs use (taken when it was loaded, off the GUI thread) and says the
        // file changed; it does not claim the new file is the runs' data.
        QVERIFY2(source.saveSession(path("after.cplab"), false, &why), qPrintable(why));
        QVERIFY(source.findChild<cplab::widgets::LogPanel*>()->toPlainText().contains(
            "has changed since it was loaded"));
        QFile saved(path("data.cplab")), after(path("after.cplab"));
        QVERIFY(saved.open(QIODevice::ReadOnly) && after.open(QIODevice::ReadOnly));
        const auto hashOf = [](QFile& f) {
            return QJsonDocument::fromJson(f.readAll())["files"][0]["sha256"].toString();
        };
        const QString before = hashOf(saved);
        QCOMPARE(before.size(), 64);
        QCOMPARE(hashOf(after), before);
        ok = true;
        QVERIFY(openAndWait(w, path("after.cplab"), &ok));
        QVERIFY(!ok);
    }

    void sessionPathsAreRelativeToItsFolder() {
        QFile file(path("data.cplab"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("\"path\": \"heart_scale\""));
        QVERIFY(!text.contains(dir_.path().toUtf8()));
    }

    void copyAsCommandLine() {
        const QString lines = original_.parts().sessions->commandLines();
        QVERIFY(lines.startsWith("cplab --problem ripley_train --solvers ocas:"));
        QVERIFY(lines.contains("\ncplab-cli run ocas --problem ripley_train --set C=10"));
        QVERIFY(lines.contains("\ncplab-cli run bmrm --problem ripley_train"));
    }

    void drawnPointsComeBack() {
        MainWindow first;
        first.setScripted(true);
        first.show();
        QVERIFY(first.loadDemo("svm_2d"));
        QVERIFY(waitFor([&] { return allReady(first); }));
        cplab::PointEditor* editor = first.parts().pointEditing->pointEditor();
        QVERIFY(editor->editable());
        const int before = static_cast<int>(editor->points().size());
        editor->setCurrentClass(0);
        editor->addPoint(QPointF(0.7, -0.1));
        editor->setCurrentClass(1);
        editor->addPoint(QPointF(-0.4, 0.3));
        QVERIFY(waitFor([&] {
            return first.parts().controller->problem()->origin.points.size() > 0 &&
                   static_cast<int>(editor->points().size()) == before + 2;
        }));
        QVERIFY(waitFor([&] { return allReady(first); }));
        QString why;
        QVERIFY2(first.saveSession(path("drawn.cplab"), false, &why), qPrintable(why));

        MainWindow second;
        second.setScripted(true);
        second.show();
        bool ok = false;
        QVERIFY(openAndWait(second, path("drawn.cplab"), &ok));
        QVERIFY(ok);
        QCOMPARE(second.parts().controller->problem()->origin,
                 first.parts().controller->problem()->origin);
        const cplab::Dataset* a = cplab::trainingSet(*first.parts().controller->problem());
        const cplab::Dataset* b = cplab::trainingSet(*second.parts().controller->problem());
        QVERIFY(a && b);
        QCOMPARE(b->size(), a->size());
        QCOMPARE(cplab::formatLibsvm(*b), cplab::formatLibsvm(*a));
        QCOMPARE(second.parts().pointEditing->pointEditor()->points(), editor->points());
        // The command line cannot carry drawn points: it says how instead.
        QVERIFY(second.parts().sessions->commandLines().contains("Save points"));
    }

    void remembersBetweenLaunches() {
        QSettings().clear();
        {
            MainWindow w;
            w.restoreLayout();  // the interactive app: remembered from here on
            w.show();
            w.setDelayMs(700);
            w.findChild<QComboBox*>("xAxisCombo")->setCurrentIndex(1);
            w.setHistoryBudgetMb(32);
            w.close();
        }
        MainWindow again;
        again.restoreLayout();
        QCOMPARE(again.parts().controller->delayMs(), 700);
        QCOMPARE(again.findChild<QComboBox*>("xAxisCombo")->currentIndex(), 1);
        QCOMPARE(again.parts().controller->historyBudget(), std::size_t{32} << 20);
        // A scripted window neither reads nor changes them.
        MainWindow scripted;
        scripted.setScripted(true);
        QCOMPARE(scripted.parts().controller->delayMs() == 700, false);
    }

    void droppedSessionOpensAndIsRecent() {
        QSettings().clear();
        MainWindow w;
        w.show();
        bool opened = false;
        QObject::connect(&w, &MainWindow::sessionOpened, &w,
                         [&](bool ok, const QString&) { opened = ok; });
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path("with.cplab"))});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(waitFor([&] { return opened && allReady(w); }));
        QCOMPARE(w.runCount(), 2);
        const QStringList recent = QSettings().value("recent/sessions").toStringList();
        QCOMPARE(recent.value(0), QFileInfo(path("with.cplab")).absoluteFilePath());
    }

  private:
    QString path(const QString& name) const { return dir_.filePath(name); }

    QTemporaryDir dir_;
    MainWindow original_;
};

QTEST_MAIN(TestSessions)
#include "test_sessions.moc"
