// SPDX-License-Identifier: GPL-3.0-or-later
// A lecturer's own story and a student view (issue 49, app/gui/story.h, student_view.h): a
// caption edited and a beat added at the timeline's iteration survive saving and reopening the
// session, and the caption bar tells them when the timeline reaches them; a student view that
// hides a panel and a tab survives saving, reopening and presentation mode; a session with a
// 10 MB caption, 100,000 beats or a malformed story is refused with a message that says so.
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include "caption_bar.h"
#include "centre_area.h"
#include "family_view.h"
#include "gui_wait.h"
#include "log_panel.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "registry.h"
#include "session.h"
#include "session_actions.h"
#include "story.h"
#include "story_dialog.h"
#include "student_view.h"

using cplab::MainWindow;
using cplab::testing::allReady;
using cplab::testing::waitFor;

namespace {

// Opens `path` in `w`; true once it is open and its runs are ready (*ok: it opened).
bool openStorySession(MainWindow& w, const QString& path, bool* ok) {
    bool done = false;
    QObject::connect(&w, &MainWindow::sessionOpened, &w, [&](bool success, const QString&) {
        done = true;
        *ok = success;
    });
    w.openSession(path);
    return waitFor([&] { return done; }) && (!*ok || waitFor([&] { return allReady(w); }));
}

// Steps every run of `w` to `iteration` and shows it.
bool stepStoryTo(MainWindow& w, int iteration) {
    w.stepAll(iteration - w.run(0)->iteration());
    if (!waitFor([&] { return w.run(0)->iteration() >= iteration; })) return false;
    w.showIteration(iteration);
    QCoreApplication::processEvents();
    return true;
}

// The shown view's pages that are on screen (a view may stack several tab widgets).
QTabWidget* storyPages(const MainWindow& w) {
    for (QTabWidget* tabs : w.currentView()->findChildren<QTabWidget*>())
        if (tabs->isVisible()) return tabs;
    return nullptr;
}

int storyTabIndex(const QTabWidget* tabs, const QString& title) {
    for (int k = 0; k < tabs->count(); ++k)
        if (tabs->tabText(k).remove('&') == title) return k;
    return -1;
}

// A saved session's JSON with `story` set as given.
QByteArray withStory(const QByteArray& json, const QJsonValue& story) {
    QJsonObject root = QJsonDocument::fromJson(json).object();
    root.insert("story", story);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

}  // namespace

class TestStory : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("cplab-test");
        QVERIFY(dir_.isValid());
    }

    // The demo's own story, then a caption edited in the dialog and a beat added at the
    // iteration shown; both told at their iterations after saving and reopening.
    void editedStorySurvivesReopening() {
        QString sessionPath = dir_.filePath("story.cplab");
        const cplab::DemoInfo* demo = cplab::findDemo("kelley");
        QVERIFY(demo && demo->story.size() == 5 && demo->story[3].iteration == 6);
        {
            MainWindow w;
            w.show();
            w.setDelayMs(0);
            QVERIFY(w.loadDemo("kelley"));
            QVERIFY(waitFor([&] { return allReady(w); }));
            cplab::StoryHolder* story = w.parts().presentation->story();
            QCOMPARE(story->beatCount(), 5);
            QVERIFY(!story->edited());
            // The dialog: beat 3's caption typed anew.
            cplab::StoryDialog dialog(story->story(), 0);
            auto* table = dialog.findChild<QTableWidget*>("storyTable");
            QCOMPARE(table->rowCount(), 5);
            table->item(2, cplab::StoryDialog::kCaption)->setText("My own words on the kink.");
            QString why;
            QVERIFY2(dialog.readFields(&why), qPrintable(why));
            QVERIFY(story->setStory(dialog.story(), &why));
            QVERIFY(story->edited());
            // Demo > Add a beat here, at iteration 4 shown by the timeline.
            QVERIFY(stepStoryTo(w, 4));
            QCOMPARE(w.parts().playback->shownIteration(), 4);
            QCOMPARE(w.parts().presentation->addBeatHere("Iteration four, in my words."), 3);
            QCOMPARE(story->beatCount(), 6);
            QCOMPARE(story->beatIteration(3), 4);
            QCOMPARE(story->nextBeat(3), 3);
            QCOMPARE(story->nextBeat(4), 4);
            QVERIFY2(w.parts().caption->beatText() == "4/6  Iteration four, in my words.",
                     qPrintable(w.parts().caption->beatText()));
            QVERIFY2(w.saveSession(sessionPath, false, &why), qPrintable(why));
            // An edit before any step is work a close would lose: it asks (saving clears it).
            QVERIFY(!w.parts().sessions->unsavedWork());
            QVERIFY(w.loadDemo("kelley"));
            QVERIFY(waitFor([&] { return allReady(w); }));
            QVERIFY(!w.parts().sessions->unsavedWork());
            QVERIFY(w.parts().presentation->addBeatHere("Before any step.") >= 0);
            QVERIFY(w.parts().sessions->unsavedWork());
            QVERIFY(w.isWindowModified());
            QVERIFY2(w.saveSession(dir_.filePath("story2.cplab"), false, &why), qPrintable(why));
            QVERIFY(!w.parts().sessions->unsavedWork());
        }
        MainWindow w;
        w.show();
        w.setDelayMs(0);
        bool ok = false;
        QVERIFY(openStorySession(w, sessionPath, &ok));
        QVERIFY(ok);
        const cplab::StoryHolder* story = w.parts().presentation->story();
        QCOMPARE(story->beatCount(), 6);
        // Nothing stored but the story: the runs step again to the beats.
        QVERIFY(stepStoryTo(w, 3));
        QVERIFY2(w.parts().caption->beatText() == "3/6  My own words on the kink.",
                 qPrintable(w.parts().caption->beatText()));
        QVERIFY(stepStoryTo(w, 4));
        QVERIFY2(w.parts().caption->beatText() == "4/6  Iteration four, in my words.",
                 qPrintable(w.parts().caption->beatText()));
        // Scrubbed back, the story goes back with the timeline.
        w.showIteration(1);
        QVERIFY2(w.parts().caption->beatText().startsWith("2/6"),
                 qPrintable(w.parts().caption->beatText()));
    }

    // An older session (no story) keeps the demo's built-in story.
    void sessionWithoutStoryKeepsTheDemos() {
        QString why;
        const QString path = dir_.filePath("plain.cplab");
        {
            MainWindow w;
            w.show();
            QVERIFY(w.loadDemo("kelley"));
            QVERIFY(waitFor([&] { return allReady(w); }));
            QVERIFY2(w.saveSession(path, false, &why), qPrintable(why));
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("\"story\""));
        MainWindow w;
        w.show();
        bool ok = false;
        QVERIFY(openStorySession(w, path, &ok) && ok);
        const cplab::Story builtin = cplab::storyOfDemo(*cplab::findDemo("kelley"));
        QVERIFY(w.parts().presentation->story()->story() == builtin);
        QVERIFY(!w.parts().presentation->story()->edited());
    }

    // A panel and a tab hidden: still hidden after reopening and in presentation mode; Show
    // everything brings them back.
    void studentViewSurvivesReopeningAndPresenting() {
        const QString path = dir_.filePath("student.cplab");
        QString tab;
        {
            MainWindow w;
            w.resize(1280, 720);
            w.show();
            QVERIFY(w.loadDemo("svm_2d"));  // the kernel view's tabs
            QVERIFY(waitFor([&] { return allReady(w); }));
            QTabWidget* tabs = storyPages(w);
            QVERIFY(tabs && tabs->count() >= 2);
            tab = tabs->tabText(tabs->count() - 1).remove('&');
            QVERIFY(tabs->isTabVisible(tabs->count() - 1));
            // The checklist offers the panel and the tab.
            bool listed = false;
            for (const cplab::ViewControl& c : w.parts().presentation->studentView()->controls())
                listed = listed || c.name == "tab:kernel/" + tab;
            QVERIFY(listed);
            w.parts().presentation->studentView()->setHidden(
                {"panel:logDock", ("tab:kernel/" + tab).toStdString(), "tab:kernel/NoSuch",
                 "button:resetButton"});
            QVERIFY(!w.findChild<QDockWidget*>("logDock")->isVisible());
            QVERIFY(!tabs->isTabVisible(storyTabIndex(tabs, tab)));
            QString why;
            QVERIFY2(w.saveSession(path, false, &why), qPrintable(why));
        }
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.setDelayMs(0);
        bool ok = false;
        QVERIFY(openStorySession(w, path, &ok) && ok);
        const auto hidden = w.parts().presentation->studentView()->hidden();
        QCOMPARE(hidden.size(), std::size_t{4});  // the unknown tab kept for the session
        const auto* log = w.findChild<cplab::widgets::LogPanel*>("logPanel");
        QVERIFY2(log->toPlainText().contains("no control tab:kernel/NoSuch"),
                 qPrintable(log->toPlainText()));
        auto* logDock = w.findChild<QDockWidget*>("logDock");
        QTabWidget* tabs = storyPages(w);
        const int index = storyTabIndex(tabs, tab);
        QVERIFY(index >= 0);
        QVERIFY(!logDock->isVisible());
        QVERIFY(!logDock->toggleViewAction()->isEnabled());
        QVERIFY(w.findChild<QDockWidget*>("pseudocodeDock")->isVisible());
        QVERIFY(!tabs->isTabVisible(index));
        auto* reset = w.findChild<QWidget*>("resetButton");
        QVERIFY(reset && !reset->isVisible());  // a button of the run controls' tool bar
        // New frames (the view may show its tabs again for a snapshot) leave it hidden.
        QVERIFY(stepStoryTo(w, 3));
        QVERIFY(!tabs->isTabVisible(index));
        w.setPresentation(true, false);
        QVERIFY(!logDock->isVisible());
        QVERIFY(!tabs->isTabVisible(index));
        w.setPresentation(false, false);
        QVERIFY(w.findChild<QDockWidget*>("pseudocodeDock")->isVisible());
        QVERIFY(!logDock->isVisible());
        QVERIFY(!tabs->isTabVisible(index));
        // View > Student view > Show everything.
        w.parts().presentation->studentView()->setHidden({});
        QVERIFY(logDock->isVisible());
        QVERIFY(tabs->isTabVisible(index));
        QVERIFY(reset->isVisible());
    }

    // Sessions are untrusted: a story past its bounds refuses the session, saying why.
    void oversizedStoriesAreRefused_data() {
        QTest::addColumn<QByteArray>("story");
        QTest::addColumn<QString>("message");
        const QString huge(10 << 20, 'a');
        QJsonArray one{QJsonObject{{"iteration", 0}, {"caption", huge}}};
        QTest::newRow("10 MB caption")
            << QJsonDocument(QJsonObject{{"beats", one}}).toJson(QJsonDocument::Compact)
            << "story: beat 1: a caption of 10485760 characters; at most 2000";
        QJsonArray many;
        for (int k = 0; k < 100000; ++k)
            many.append(QJsonObject{{"iteration", k}, {"caption", "x"}});
        QTest::newRow("100,000 beats")
            << QJsonDocument(QJsonObject{{"beats", many}}).toJson(QJsonDocument::Compact)
            << "story: 100000 beats; at most 200";
        QJsonArray negative{QJsonObject{{"iteration", -3}, {"caption", "x"}}};
        QTest::newRow("negative iteration")
            << QJsonDocument(QJsonObject{{"beats", negative}}).toJson(QJsonDocument::Compact)
            << "story: beat 1: iteration is not a whole number";
        QTest::newRow("beats not a list")
            << QByteArray(R"({"beats": "many"})") << "story: beats is not a list";
    }

    void oversizedStoriesAreRefused() {
        QFETCH(QByteArray, story);
        QFETCH(QString, message);
        const QString base = dir_.filePath("base.cplab");
        {
            MainWindow w;
            QVERIFY(w.loadDemo("kelley"));
            QVERIFY(waitFor([&] { return allReady(w); }));
            QString why;
            QVERIFY2(w.saveSession(base, false, &why), qPrintable(why));
        }
        QFile file(base);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bad = withStory(file.readAll(), QJsonDocument::fromJson(story).object());
        cplab::SessionNotes notes;
        std::string why;
        const auto session = cplab::parseSession(bad.toStdString(), dir_.path().toStdString(),
                                                 "bad.cplab", &notes, &why);
        QVERIFY(!session);
        QVERIFY2(QString::fromStdString(why).startsWith("bad.cplab: " + message), why.c_str());
        QVERIFY(why.size() < 200);  // the text itself is not in the message
        // The window refuses it too, and says so.
        const QString path = dir_.filePath("bad.cplab");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(bad);
        out.close();
        MainWindow w;
        w.setScripted(true);
        bool ok = true;
        QVERIFY(openStorySession(w, path, &ok));
        QVERIFY(!ok);
    }

    // A student view's list is bounded; names of no known kind are left out with a note.
    void studentViewNamesAreChecked() {
        const QString base = dir_.filePath("names.cplab");
        {
            MainWindow w;
            QVERIFY(w.loadDemo("kelley"));
            QVERIFY(waitFor([&] { return allReady(w); }));
            QString why;
            QVERIFY2(w.saveSession(base, false, &why), qPrintable(why));
        }
        QFile file(base);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        root.insert("student_view",
                    QJsonObject{{"hidden", QJsonArray{"panel:logDock", "rm -rf:/", "tab:x/y"}}});
        cplab::SessionNotes notes;
        std::string why;
        auto session = cplab::parseSession(QJsonDocument(root).toJson().toStdString(),
                                           dir_.path().toStdString(), "names.cplab", &notes, &why);
        QVERIFY2(session, why.c_str());
        QCOMPARE(session->hiddenControls, (std::vector<std::string>{"panel:logDock", "tab:x/y"}));
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY2(QString::fromStdString(notes[0]).contains("'rm -rf:/'"), notes[0].c_str());
        QJsonArray many;
        for (int k = 0; k < 201; ++k)
            many.append(QString("panel:p%1").arg(k));
        root.insert("student_view", QJsonObject{{"hidden", many}});
        session = cplab::parseSession(QJsonDocument(root).toJson().toStdString(),
                                      dir_.path().toStdString(), "names.cplab", &notes, &why);
        QVERIFY(!session);
        QVERIFY2(QString::fromStdString(why).contains("201 hidden controls; at most 200"),
                 why.c_str());
    }

  private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestStory)
#include "test_story.moc"
