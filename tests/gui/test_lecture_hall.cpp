// SPDX-License-Identifier: GPL-3.0-or-later
// The window in front of a class: the runs' state reads idle / running / paused / at
// iteration k, every demo tells a story of 3 to 6 beats in the caption bar as it advances,
// presentation mode hides the panels and takes single keys, type scales, run names keep
// their solver, the options form folds its advanced options, the log shows its newest line
// and brings errors into view, and the teaching delay reaches seconds.
#include <QComboBox>
#include <QDockWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "core/events.h"
#include "family_view.h"
#include "gap_progress.h"
#include "gui_wait.h"
#include "log_panel.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "option_form.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "timeline_bar.h"

using cplab::MainWindow;
using cplab::testing::allReady;
using cplab::testing::waitFor;

namespace {

QString stateOfRow(const MainWindow& w, int row) {
    const auto* table = w.findChild<QTableWidget*>("runTable");
    return table->item(row, cplab::kColStatus)->text();
}

bool visibleDocks(const MainWindow& w) {
    for (const QDockWidget* dock : w.findChildren<QDockWidget*>())
        if (dock->isVisible()) return true;
    return false;
}

}  // namespace

class TestLectureHall : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        // Scales are remembered between launches: this test starts from the designed ones.
        QCoreApplication::setOrganizationName("cplab-test");
        QSettings().clear();
    }

    void stateReadsIdlePausedRunning() {
        MainWindow w;
        w.show();
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("bundle_cb3"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QCOMPARE(stateOfRow(w, 0), QString("idle"));
        QVERIFY2(w.parts().playback->statusText().contains("[idle]"),
                 qPrintable(w.parts().playback->statusText()));
        w.stepAll(3);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 3; }));
        QTest::qWait(50);
        QCOMPARE(stateOfRow(w, 0), QString("paused"));
        // Running slowly, then paused: never "running" once paused.
        w.setDelayMs(200);
        w.runAll();
        QCOMPARE(stateOfRow(w, 0), QString("running"));
        QVERIFY(w.parts().controller->anyPlaying());
        QVERIFY(waitFor([&] { return w.run(0)->iteration() >= 5; }));
        w.parts().playback->pauseAll();
        QVERIFY(!w.parts().controller->anyPlaying());
        QCOMPARE(stateOfRow(w, 0), QString("paused"));
        // Scrubbed back: the state at that iteration, not the run's final one.
        w.showIteration(2);
        QCOMPARE(stateOfRow(w, 0), QString("earlier"));
        QVERIFY2(w.parts().playback->statusText().contains("[earlier]"),
                 qPrintable(w.parts().playback->statusText()));
        w.parts().playback->goLive();
        w.setDelayMs(0);
        w.runAll();
        QVERIFY(waitFor([&] { return w.run(0)->status().finished(); }));
        QTest::qWait(50);
        QCOMPARE(stateOfRow(w, 0), QString("converged"));
    }

    void everyDemoHasAStory() {
        // A beat's event is one the solvers report (core/events.h), or the runs' end.
        QStringList known{"finished"};
        for (const cplab::Event event : cplab::kAllEvents)
            known << cplab::eventName(event);
        for (const auto& demo : cplab::demoCatalog()) {
            for (const auto& beat : demo.story)
                QVERIFY2(beat.event.empty() || known.contains(QString::fromStdString(beat.event)),
                         beat.event.c_str());
            QVERIFY2(demo.story.size() >= 3 && demo.story.size() <= 6, demo.name.c_str());
            int last = 0;
            for (const auto& beat : demo.story) {
                QVERIFY2(!beat.text.empty(), demo.name.c_str());
                // Iteration beats in order; an event beat may come at any point.
                if (beat.event.empty()) {
                    QVERIFY2(beat.iteration >= last, demo.name.c_str());
                    last = beat.iteration;
                }
            }
            QVERIFY2(demo.story.front().iteration == 0 && demo.story.front().event.empty(),
                     demo.name.c_str());
        }
    }

    void captionTellsTheStory() {
        MainWindow w;
        w.show();
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("kelley"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        const cplab::DemoInfo* demo = cplab::findDemo("kelley");
        auto* caption = w.parts().caption;
        QVERIFY(caption->isVisible());
        // What to watch is in the window, not only a tooltip.
        QCOMPARE(caption->watchText(), QString::fromStdString(demo->description));
        auto* watch = caption->findChild<QLabel*>("captionWatch");
        QVERIFY(watch->isVisible() && watch->text().contains("plane by plane"));
        QVERIFY2(caption->beatText().startsWith("1/5"), qPrintable(caption->beatText()));
        w.stepAll(3);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 3; }));
        QVERIFY(waitFor([&] { return caption->beatText().startsWith("3/5"); }, 3000));
        QVERIFY(caption->beatText().contains(QString::fromStdString(demo->story[2].text)));
        // The timeline moves the story back with it.
        w.showIteration(1);
        QVERIFY2(caption->beatText().startsWith("2/5"), qPrintable(caption->beatText()));
        w.parts().playback->goLive();
        w.runAll();
        QVERIFY(waitFor([&] { return w.run(0)->status().finished(); }));
        QVERIFY(waitFor([&] { return caption->beatText().startsWith("5/5"); }, 3000));
        // A problem that is not a demo has no caption.
        QVERIFY(w.loadProblem("abs_quad"));
        QVERIFY(!caption->isVisible());
    }

    void eventsReachTheCaptionAndTheLog() {
        MainWindow w;
        w.show();
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("bundle_cb3"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        auto count = [&](cplab::Event event) {
            int n = 0;
            for (const auto& record : w.run(0)->trace())
                n += (record.events & event) ? 1 : 0;
            return n;
        };
        w.stepAll(4);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 4; }));
        QTest::qWait(50);
        // By iteration 4 the bundle has made serious and null steps (as cplab-cli's trace of
        // bundle on cb3 shows): the story has reached its null-step beat (from iteration 3).
        QVERIFY(count(cplab::SeriousStep) > 0 && count(cplab::NullStep) > 0);
        const QString beat = w.parts().caption->beatText();
        QVERIFY2(beat.startsWith("3/5") && beat.contains("null step"), qPrintable(beat));
        // What the shown step did, as the solver says it, in the caption and the log.
        const auto& events = w.run(0)->history().snapshot()->events;
        QVERIFY(!events.empty());
        QVERIFY2(w.parts().caption->eventsText().startsWith(
                     QString("iteration %1: ").arg(w.run(0)->iteration())),
                 qPrintable(w.parts().caption->eventsText()));
        const auto* log = w.findChild<cplab::widgets::LogPanel*>("logPanel");
        QVERIFY2(log->toPlainText().contains(
                     QString("#1 bundle, iteration %1: ").arg(w.run(0)->iteration())),
                 qPrintable(log->toPlainText()));
        QVERIFY(log->toPlainText().contains("null step"));
    }

    void longWatchTextTakesTwoLines() {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QVERIFY(w.loadDemo("map_grid"));  // nine lines of text at this width, whole
        QVERIFY(waitFor([&] { return allReady(w); }));
        QTest::qWait(50);
        auto* watch = w.parts().caption->findChild<QLabel*>("captionWatch");
        QVERIFY(watch->text().endsWith(QChar(0x2026)));
        QVERIFY2(watch->height() <= 2.6 * watch->fontMetrics().lineSpacing(),
                 qPrintable(QString::number(watch->height())));
        QVERIFY(watch->toolTip().contains("Red outlines mark the nodes"));
    }

    void presentationHidesPanelsAndTakesKeys() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("bundle_vs_kelley"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QVERIFY(visibleDocks(w));
        const int normalPoint = w.font().pointSize();
        w.setPresentation(true, false);
        QVERIFY(w.parts().presentation->presenting());
        QVERIFY(!visibleDocks(w));
        for (const QToolBar* bar : w.findChildren<QToolBar*>())
            QVERIFY(!bar->isVisible());
        QVERIFY(w.parts().caption->isVisible());
        QVERIFY(w.parts().boundsPlot->isVisible());
        QVERIFY(w.currentView()->isVisible());
        QVERIFY(w.font().pointSizeF() > normalPoint * 1.3);
        // Space steps every run, Home and End move the timeline, ← → step through it.
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 1 && w.run(1)->iteration() == 1; }));
        QTest::keyClick(&w, Qt::Key_Space);
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 3; }));
        QTest::keyClick(&w, Qt::Key_Home);
        QVERIFY(!w.parts().timeline->isLive());
        QCOMPARE(w.parts().playback->shownIteration(), 0);
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(w.parts().playback->shownIteration(), 1);
        QTest::keyClick(&w, Qt::Key_End);
        QVERIFY(w.parts().timeline->isLive());
        // R runs, R again pauses.
        w.setDelayMs(100);
        QTest::keyClick(&w, Qt::Key_R);
        QVERIFY(w.parts().controller->anyPlaying());
        QTest::keyClick(&w, Qt::Key_R);
        QVERIFY(!w.parts().controller->anyPlaying());
        // The scale goes up and down in steps, within bounds, and is remembered for this
        // screen once the window remembers anything (restoreLayout: the interactive app).
        w.restoreLayout();
        const double scale = w.parts().presentation->viewScale();
        w.parts().presentation->setViewScale(scale * 1.5);
        QCOMPARE(w.parts().presentation->viewScale(), scale * 1.5);
        const QString screenKey = cplab::Presentation::scaleKey(w.screen(), true);
        QVERIFY2(screenKey.contains(QString("%1x%2")
                                  .arg(w.screen()->geometry().width())
                                  .arg(w.screen()->geometry().height())),
                 qPrintable(screenKey));
        QCOMPARE(QSettings().value(screenKey).toDouble(), scale * 1.5);
        w.parts().presentation->setViewScale(100);
        QCOMPARE(w.parts().presentation->viewScale(), 6.0);
        // Esc leaves: the panels and the normal type come back; the keys are the forms' again.
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.parts().presentation->presenting());
        QVERIFY(visibleDocks(w));
        QCOMPARE(w.font().pointSize(), normalPoint);
        const int before = w.run(0)->iteration();
        QTest::keyClick(&w, Qt::Key_Space);
        QTest::qWait(100);
        QCOMPARE(w.run(0)->iteration(), before);
        w.parts().playback->cancelAll();
        // Help › Keyboard shortcuts names them.
        const QString keys = w.parts().presentation->shortcutsText();
        for (const char* key : {"F11", "View › Presentation", "Space", "Presentation: Step",
                                "Presentation: Run or pause", "Home", "Esc"})
            QVERIFY2(keys.contains(key), qPrintable(keys));
    }

    // The presentation size follows the screen: a size set on one screen is not used on
    // another, never by a scripted window, and never travels in a session.
    void scaleIsPerScreenNotScriptedNotInSessions() {
        QSettings().clear();
        QSettings().setValue("view/presentation_scale", 3.0);  // the old, global key
        QSettings().setValue("view/presentation_scale/OTHER_3840x2160", 5.0);
        const double designed =
            cplab::Presentation::defaultScale(QGuiApplication::primaryScreen(), true);
        QVERIFY(designed >= 1.4);
        QString sessionPath;
        QTemporaryDir dir;
        {
            MainWindow w;  // a scripted window: no restoreLayout
            w.resize(1280, 720);
            w.show();
            QVERIFY(w.loadDemo("kelley"));
            w.setPresentation(true, false);
            QCOMPARE(w.parts().presentation->viewScale(), designed);
            // Set for this screen, remembered by the interactive app only.
            w.parts().presentation->setViewScale(2.5);
            QVERIFY(!QSettings().contains(cplab::Presentation::scaleKey(w.screen(), true)));
            QVERIFY(waitFor([&] { return allReady(w); }));
            sessionPath = dir.filePath("scaled.cplab");
            QString why;
            QVERIFY2(w.saveSession(sessionPath, false, &why), qPrintable(why));
        }
        QFile file(sessionPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject view =
            QJsonDocument::fromJson(file.readAll()).object()["view"].toObject();
        QVERIFY2(
            !view.contains("presentation_scale") || view["presentation_scale"].toDouble() == 1.4,
            "the window's size went into the session");
        MainWindow w;
        w.restoreLayout();
        w.resize(1280, 720);
        w.show();
        w.setPresentation(true, false);
        QCOMPARE(w.parts().presentation->viewScale(), designed);
        w.parts().presentation->setViewScale(2.0);
        MainWindow again;
        again.restoreLayout();
        again.setPresentation(true, false);
        QCOMPARE(again.parts().presentation->viewScale(), 2.0);
        QSettings().clear();
    }

    void runNamesKeepTheirSolver() {
        const QFontMetrics metrics(QApplication::font());
        const QString label = "#3 oneslack (lambda=0.01, max_iterations=20)";
        QCOMPARE(cplab::widgets::elideRunLabel(label, metrics, 10000), label);
        const int head = metrics.horizontalAdvance("#3 oneslack");
        const QString cut =
            cplab::widgets::elideRunLabel(label, metrics, head + metrics.averageCharWidth() * 8);
        QVERIFY2(cut.startsWith("#3 oneslack (") && cut.contains(QChar(0x2026)), qPrintable(cut));
        QVERIFY(metrics.horizontalAdvance(cut) <= head + metrics.averageCharWidth() * 8);
        // Too narrow for any option: the head alone, whole.
        QCOMPARE(cplab::widgets::elideRunLabel(label, metrics, head + 2), QString("#3 oneslack"));

        // In the table of a five-run race at 1280x720 every solver's name reads in full.
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.loadDemo("ocr_race"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QTest::qWait(50);
        const auto* table = w.findChild<QTableWidget*>("runTable");
        for (int row = 0; row < w.runCount(); ++row) {
            const QString solver = QString("#%1 %2")
                                       .arg(w.run(row)->id())
                                       .arg(QString::fromStdString(w.run(row)->solver()));
            QVERIFY2(table->item(row, 0)->text().startsWith(solver),
                     qPrintable(table->item(row, 0)->text()));
            QVERIFY(table->item(row, 0)->toolTip().startsWith(w.run(row)->label()));
        }
    }

    void optionsAreGrouped() {
        using Group = cplab::OptionForm::Group;
        QCOMPARE(cplab::OptionForm::groupOf("C"), Group::Common);
        QCOMPARE(cplab::OptionForm::groupOf("tol_rel"), Group::Common);
        QCOMPARE(cplab::OptionForm::groupOf("threads"), Group::Advanced);
        QCOMPARE(cplab::OptionForm::groupOf("nu_rule"), Group::Method);
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.loadProblem("heart_scale"));
        // The run's start selects it and shows its solver's options: choose after that.
        QVERIFY(waitFor([&] { return allReady(w); }));
        QTest::qWait(20);
        auto* form = w.findChild<cplab::OptionForm*>("optionForm");
        auto* solvers = w.findChild<QComboBox*>("solverCombo");
        solvers->setCurrentIndex(solvers->findData("ocas"));
        // New fields of a shown form appear once the event loop has run.
        QVERIFY(waitFor([&] { return form->field("C")->isVisible(); }, 3000));
        QVERIFY(form->field("threads") && !form->field("threads")->isVisible());
        auto* toggle = form->findChild<QToolButton*>("advancedToggle");
        QVERIFY(toggle->isVisible() && toggle->text().startsWith("Advanced ("));
        toggle->click();
        QVERIFY(form->field("threads")->isVisible());
        // Every option is in exactly one place and reads back.
        QCOMPARE(form->values().size(), cplab::findSolver("ocas")->options.size());
    }

    void progressMeansSomething() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.setDelayMs(0);
        // SLMC stops on its gradient, not on a gap (tolerance 0): its progress is its
        // iterations toward max_iterations (80 in this demo) until it finishes.
        QVERIFY(w.loadDemo("slmc_2d"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        w.stepAll(8);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 8; }, 60000));
        QTest::qWait(50);
        auto* progress = w.findChild<cplab::widgets::GapProgress*>();
        QVERIFY(std::abs(progress->fraction() - 0.1) < 1e-9);
        QVERIFY2(progress->format().startsWith("iteration 8 of 80"),
                 qPrintable(progress->format()));
        // A finished run shows a full bar and how it ended, whatever its gap.
        w.selectRun(1);  // mrsvm, converged after its first steps
        QVERIFY(waitFor([&] { return w.run(1)->status().finished(); }, 60000));
        QTest::qWait(50);
        QVERIFY(progress->finished());
        QVERIFY2(progress->format().startsWith("converged"), qPrintable(progress->format()));
    }

    void delayReachesSeconds() {
        QCOMPARE(cplab::delayFromSlider(0), 0);
        QVERIFY(cplab::delayFromSlider(cplab::kDelaySliderSteps) >= 3000);
        for (const int ms : {0, 10, 100, 250, 1000, 3000, 5000})
            QVERIFY(std::abs(cplab::delayFromSlider(cplab::delaySliderPosition(ms)) - ms) <=
                    std::max(10, ms / 50));
        MainWindow w;
        w.setDelayMs(3000);
        QCOMPARE(w.parts().controller->delayMs(), 3000);
        w.setDelayMs(100000);
        QCOMPARE(w.parts().controller->delayMs(), cplab::kMaxDelayMs);
    }

    void logShowsNewestAndErrors() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* log = w.findChild<cplab::widgets::LogPanel*>("logPanel");
        for (int k = 0; k < 300; ++k)
            log->appendMessage(QString("line %1").arg(k));
        log->verticalScrollBar()->setValue(0);
        auto* dock = w.findChild<QDockWidget*>("logDock");
        dock->hide();
        log->appendError("something failed");
        QCOMPARE(log->verticalScrollBar()->value(), log->verticalScrollBar()->maximum());
        QVERIFY(dock->isVisible());
    }

    void logNumbersAreReadable() {
        QCOMPARE(cplab::readableNumbers("maximal KKT violation 0.0009084991898979933 <= 0.001"),
                 QString("maximal KKT violation 0.0009085 <= 0.001"));
        QCOMPARE(cplab::readableNumbers("gap 1.0875921052644344e-08 within tolerance after 8"),
                 QString("gap 1.088e-08 within tolerance after 8"));
        QCOMPARE(cplab::readableNumbers("U -420623.978212 at 3.5"), QString("U -420624 at 3.5"));
        // Names, versions and short numbers stay as they are.
        QCOMPARE(cplab::readableNumbers("file a1.123456.txt, 2.5, 1e-06"),
                 QString("file a1.123456.txt, 2.5, 1e-06"));
    }

    // Choosing another demo (as opening a file or a problem) asks before it discards runs that
    // have made steps: Cancel keeps them, Discard goes on.
    void askBeforeDiscardingRuns() {
        MainWindow w;
        w.show();
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("kelley"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        auto* demos = w.findChild<QComboBox*>("demoCombo");
        const int other = demos->findData("bundle_cb3");
        // No steps yet: nothing to lose, no question.
        emit demos->activated(other);
        QCOMPARE(w.parts().controller->problem()->info.name, std::string("cb3"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        w.stepAll(2);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 2; }));
        auto answer = [](QMessageBox::StandardButton button, QString* asked) {
            QTimer::singleShot(100, [button, asked] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    *asked = box->text();
                    box->button(button)->click();
                }
            });
        };
        QString asked;
        answer(QMessageBox::Cancel, &asked);
        emit demos->activated(demos->findData("kelley"));
        QVERIFY2(asked.contains("1 run"), qPrintable(asked));
        QCOMPARE(w.parts().controller->problem()->info.name, std::string("cb3"));
        QCOMPARE(w.run(0)->iteration(), 2);
        asked.clear();
        answer(QMessageBox::Discard, &asked);
        emit demos->activated(demos->findData("kelley"));
        QVERIFY(!asked.isEmpty());
        QCOMPARE(w.parts().controller->problem()->info.name, std::string("abs_quad"));
    }

    void fileFilterIsGroupedByFamily() {
        const QStringList entries = cplab::openFileFilter().split(";;");
        QVERIFY(entries.front().startsWith("Data files ("));
        QVERIFY(entries.back().startsWith("Any file"));
        int families = 0;
        for (const cplab::Family* family : cplab::families()) {
            if (family->readFormats().empty()) continue;
            ++families;
            QVERIFY2(entries.filter(QString::fromStdString(family->title()) + " - ").size() == 1,
                     family->name().c_str());
        }
        QCOMPARE(entries.size(), families + 2);
    }
};

QTEST_MAIN(TestLectureHall)
#include "test_lecture_hall.moc"
