// SPDX-License-Identifier: GPL-3.0-or-later
// Lectures (app/session/lecture.h, app/gui/lecture_controller.h, app/gui/handout.h): a lecture
// of three slides (two built-in demos and a session the test writes) walked to its end by key
// events as a presenter's clicker sends them, the slide and the beat checked against the demos'
// stories at every step; the way back, the blank screen; the lectures refused (malformed,
// missing or changed session, system folder, caps); the handout's pages, one per beat; the
// guide (F1) with its pages and links.
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include "caption_bar.h"
#include "centre_area.h"
#include "gui_wait.h"
#include "handout.h"
#include "help_browser.h"
#include "lecture.h"
#include "lecture_controller.h"
#include "main_window.h"
#include "presentation.h"
#include "registry.h"
#include "session.h"

using cplab::Lecture;
using cplab::LectureController;
using cplab::MainWindow;
using cplab::testing::allReady;
using cplab::testing::waitFor;

namespace {

// The walk's positions of a demo: its slide's start (beat 1) and each further beat.
int lectureBeats(const char* demo) {
    return static_cast<int>(cplab::findDemo(demo)->story.size());
}

QString lectureBeatText(const char* demo, int k) {
    return QString::fromStdString(cplab::findDemo(demo)->story[static_cast<std::size_t>(k)].text);
}

bool writeLectureText(const QString& path, const QByteArray& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

}  // namespace

class TestLectures : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("cplab-test");
        QVERIFY(dir_.isValid());
        // The session slide: the kelley_2d demo saved without history (it opens at iteration 0).
        MainWindow w;
        w.setScripted(true);
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.loadDemo("kelley_2d"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QString why;
        QVERIFY2(w.saveSession(path("bowl.cplab"), false, &why), qPrintable(why));
        std::string failure;
        sessionHash_ =
            QString::fromStdString(cplab::sha256OfFile(path("bowl.cplab").toStdString(), &failure));
        QCOMPARE(sessionHash_.size(), 64);
        QVERIFY(writeLectureText(path("three.cplab-lecture"), lectureText(sessionHash_)));
    }

    // Every PgDn goes to the next beat, then the next slide; the caption names the slide and
    // tells the beat of the demo's story at each step, to the lecture's end.
    void walksThreeSlidesWithTheClicker() {
        MainWindow w;
        w.setScripted(true);
        w.resize(1280, 720);
        w.show();
        LectureController* lectures = controllerOf(w);
        QString why;
        QVERIFY2(lectures->openLecture(path("three.cplab-lecture"), &why), qPrintable(why));
        w.setPresentation(true, false);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const struct {
            const char* demo;
            const char* title;
        } slides[] = {
            {"kelley", "Kelley's planes"}, {"ocas_vs_bmrm", "OCAS"}, {"kelley_2d", "Bowl"}};
        const Qt::Key keys[] = {Qt::Key_PageDown, Qt::Key_Right, Qt::Key_Down, Qt::Key_Space};
        int pressed = 0;
        for (int s = 0; s < 3; ++s) {
            for (int b = 0; b < lectureBeats(slides[s].demo); ++b) {
                if (s + b > 0) QTest::keyClick(&w, keys[pressed++ % 4]);
                QVERIFY(waitFor([&] { return !lectures->busy() && allReady(w); }, 60000));
                cplab::testing::drawPending(w);
                const QString slide = QString("Slide %1 of 3:  %2").arg(s + 1).arg(slides[s].title);
                QCOMPARE(w.parts().caption->slideText(), slide);
                QCOMPARE(lectures->slide(), s);
                QCOMPARE(lectures->beat(), b);
                // The caption tells the beat the walk reached (its own caption and number).
                const QString told = QString("%1/%2  %3")
                                         .arg(b + 1)
                                         .arg(lectureBeats(slides[s].demo))
                                         .arg(lectureBeatText(slides[s].demo, b));
                QVERIFY(waitFor([&] { return w.parts().caption->beatText() == told; }, 20000));
            }
        }
        // The end: another PgDn does nothing.
        QVERIFY(!lectures->next());
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lectures->slide(), 2);
        QCOMPARE(lectures->beat(), lectureBeats("kelley_2d") - 1);
    }

    // PgUp and ← go back a beat (the timeline scrubbed back), then to the previous slide; B
    // blanks and a walk key shows the screen again without walking; Ctrl+PgDn still turns
    // the view's tabs.
    void walksBackBlanksAndKeepsCtrlPageDown() {
        MainWindow w;
        w.setScripted(true);
        w.resize(1280, 720);
        w.show();
        LectureController* lectures = controllerOf(w);
        QString why;
        QVERIFY2(lectures->openLecture(path("three.cplab-lecture"), &why), qPrintable(why));
        w.setPresentation(true, false);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(waitFor([&] { return allReady(w); }));
        for (int k = 0; k < 3; ++k) {
            QTest::keyClick(&w, Qt::Key_PageDown);
            QVERIFY(waitFor([&] { return !lectures->busy(); }, 60000));
        }
        QCOMPARE(lectures->beat(), 3);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 6; }));
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(lectures->beat(), 2);
        QCOMPARE(w.parts().playback->shownIteration(), 3);
        QTest::keyClick(&w, Qt::Key_Left);
        QTest::keyClick(&w, Qt::Key_Up);
        QCOMPARE(lectures->beat(), 0);
        QCOMPARE(lectures->slide(), 0);
        // B blanks; PgDn shows the screen again and stays at the beat.
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(lectures->blank());
        QWidget* black = w.findChild<QWidget*>("lectureBlackout");
        QVERIFY(black && black->isVisible());
        QCOMPARE(black->geometry(), w.rect());
        QTest::keyClick(&w, Qt::Key_PageDown);
        QVERIFY(!lectures->blank());
        QVERIFY(!black->isVisible());
        QCOMPARE(lectures->beat(), 0);
        QTest::keyClick(&w, Qt::Key_B);
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(!lectures->blank());
        // Ctrl+PgDn turns the view's tab and does not walk (the OCR race's view has tabs;
        // the lecture stays open and walking).
        QVERIFY(w.loadDemo("ocr_race"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QTabWidget* tabs = w.parts().centre->pages();
        QVERIFY(tabs && tabs->count() > 1);
        const int tab = tabs->currentIndex();
        QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), (tab + 1) % tabs->count());
        QCOMPARE(lectures->slide(), 0);
        QCOMPARE(lectures->beat(), 0);
        // Leaving presentation mode gives Space back to stepping.
        w.setPresentation(false);
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lectures->beat(), 0);
    }

    void refusesBadLectures_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QByteArray head = "{\"format\": \"cplab-lecture\", \"version\": 1, \"slides\": ";
        QTest::newRow("syntax") << QByteArray(
                                       "{\"format\": \"cplab-lecture\",\n \"version\": 1,\n "
                                       "\"slides\": [}\n")
                                << "line 3, column 14";
        QTest::newRow("not a lecture")
            << QByteArray("{\"format\": \"cplab-session\"}") << "not a cplab lecture";
        QTest::newRow("newer")
            << QByteArray("{\"format\": \"cplab-lecture\", \"version\": 2, \"slides\": []}")
            << "written by a newer cplab (version 2";
        QTest::newRow("no title") << head + "[{\"demo\": \"kelley\"}]}"
                                  << "slide 1: no title";
        QTest::newRow("both")
            << head + "[{\"title\": \"a\", \"demo\": \"kelley\", \"session\": \"x\"}]}"
            << "slide 1: expected either a demo or a session";
        QTest::newRow("unknown demo")
            << head +
                   "[{\"title\": \"a\", \"demo\": \"kelley\"},\n"
                   "            {\"title\": \"b\", \"demo\": \"no_such_demo\"}]}"
            << "slide 2 (\"b\"): no built-in demo 'no_such_demo'";
        QTest::newRow("unknown key")
            << head + "[{\"title\": \"a\", \"demo\": \"kelley\", \"x\": \"1\"}]}"
            << "slide 1: unknown key 'x'";
        const QByteArray hash = QByteArray(64, 'a');
        QTest::newRow("missing session")
            << head + "[{\"title\": \"a\", \"session\": \"gone.cplab\", \"sha256\": \"" + hash +
                   "\"}]}"
            << "slide 1 (\"a\"): gone.cplab: missing";
        QTest::newRow("no hash") << head + "[{\"title\": \"a\", \"session\": \"bowl.cplab\"}]}"
                                 << "bowl.cplab: expected its sha256";
        QTest::newRow("changed session")
            << head + "[{\"title\": \"a\", \"session\": \"bowl.cplab\", \"sha256\": \"" + hash +
                   "\"}]}"
            << "slide 1 (\"a\"): bowl.cplab: changed since the lecture was written";
        QTest::newRow("system folder")
            << head + "[{\"title\": \"a\", \"session\": \"/etc/passwd\", \"sha256\": \"" + hash +
                   "\"}]}"
            << "in a system folder";
        QByteArray many = head + "[";
        for (int k = 0; k <= cplab::kMaxLectureSlides; ++k)
            many += QByteArray(k ? "," : "") + "{\"title\": \"a\", \"demo\": \"kelley\"}";
        QTest::newRow("too many slides") << many + "]}"
                                         << "more than 200 slides";
        QTest::newRow("too large") << head + "[]," + QByteArray(1100000, ' ') + "}"
                                   << "larger than 1 MB";
        QTest::newRow("long title")
            << head + "[{\"title\": \"" + QByteArray(600, 'x') + "\", \"demo\": \"kelley\"}]}"
            << "title: longer than 500 characters";
    }

    void refusesBadLectures() {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString file = path("bad.cplab-lecture");
        QVERIFY(writeLectureText(file, text));
        std::string why;
        QVERIFY(!cplab::readLecture(file.toStdString(), &why));
        QVERIFY2(QString::fromStdString(why).startsWith(file + ": "), why.c_str());
        QVERIFY2(QString::fromStdString(why).contains(expected), why.c_str());
    }

    // A lecture whose session changes after it was read: the slide is refused when it opens.
    void refusesASessionChangedAfterReading() {
        QVERIFY(QFile::copy(path("bowl.cplab"), path("copy.cplab")));
        std::string failure;
        const QString hash =
            QString::fromStdString(cplab::sha256OfFile(path("copy.cplab").toStdString(), &failure));
        QByteArray text = lectureText(hash);
        text.replace("bowl.cplab", "copy.cplab");
        QVERIFY(writeLectureText(path("copy.cplab-lecture"), text));
        MainWindow w;
        w.setScripted(true);
        w.show();
        LectureController* lectures = controllerOf(w);
        QString why;
        QVERIFY2(lectures->openLecture(path("copy.cplab-lecture"), &why), qPrintable(why));
        QFile session(path("copy.cplab"));
        QVERIFY(session.open(QIODevice::Append));
        session.write(" ");
        session.close();
        QString message;
        bool opened = true;
        connect(lectures, &LectureController::slideOpened, this,
                [&](int, bool ok, const QString& said) {
                    opened = ok;
                    message = said;
                });
        lectures->openSlide(2);
        QVERIFY(!opened);
        QVERIFY2(message.contains("copy.cplab: changed since the lecture was written"),
                 qPrintable(message));
    }

    // The handout has one page per beat of the three slides' stories.
    void handoutHasAPagePerBeat() {
        MainWindow w;
        w.setScripted(true);
        w.resize(1440, 900);
        w.show();
        LectureController* lectures = controllerOf(w);
        QString why;
        QVERIFY2(lectures->openLecture(path("three.cplab-lecture"), &why), qPrintable(why));
        int pages = 0;
        QVERIFY2(cplab::exportHandout(w, *lectures, path("handout.pdf"), &pages, &why),
                 qPrintable(why));
        const int beats =
            lectureBeats("kelley") + lectureBeats("ocas_vs_bmrm") + lectureBeats("kelley_2d");
        QCOMPARE(pages, beats);
        QFile pdf(path("handout.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        // Its page objects counted in the file itself ("/Type /Pages" is the page tree).
        const QRegularExpression page("/Type\\s*/Page\\b");
        QCOMPARE(static_cast<int>(QString::fromLatin1(bytes).count(page)), beats);
        // The handout may not replace the lecture or one of its sessions.
        QVERIFY(!cplab::exportHandout(w, *lectures, path("bowl.cplab"), &pages, &why));
        QVERIFY2(why.contains("an input of the handout"), qPrintable(why));
        QVERIFY(!cplab::exportHandout(w, *lectures, path("three.cplab-lecture"), &pages, &why));
        QVERIFY2(why.contains("an input of the handout"), qPrintable(why));
    }

    // New lecture, Add current state (a session beside the lecture), reorder, remove: every
    // change written and read back.
    void makesALecture() {
        MainWindow w;
        w.setScripted(true);
        w.show();
        LectureController* lectures = controllerOf(w);
        QString why;
        const QString file = path("made.cplab-lecture");
        QVERIFY2(lectures->newLecture(file, "Made", &why), qPrintable(why));
        QVERIFY(w.loadDemo("kelley"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QVERIFY2(lectures->addCurrentState("First", &why), qPrintable(why));
        QVERIFY(w.loadDemo("bundle_cb3"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QVERIFY2(lectures->addCurrentState("Second", &why), qPrintable(why));
        QVERIFY(QFile::exists(path("made-1.cplab")));
        QVERIFY(QFile::exists(path("made-2.cplab")));
        QVERIFY2(lectures->moveSlide(1, 0, &why), qPrintable(why));
        std::string failure;
        auto read = cplab::readLecture(file.toStdString(), &failure);
        QVERIFY2(read, failure.c_str());
        QCOMPARE(read->title, std::string("Made"));
        QCOMPARE(read->slides.size(), std::size_t{2});
        QCOMPARE(read->slides[0].title, std::string("Second"));
        QCOMPARE(read->slides[0].session, std::string("made-2.cplab"));  // relative
        QVERIFY2(lectures->removeSlide(0, &why), qPrintable(why));
        read = cplab::readLecture(file.toStdString(), &failure);
        QVERIFY2(read, failure.c_str());
        QCOMPARE(read->slides.size(), std::size_t{1});
        QCOMPARE(read->slides[0].title, std::string("First"));
    }

    // F1 opens the guide at the README; a link between pages opens the page; pictures load.
    void guideShowsTheDocs() {
        QVERIFY(cplab::HelpBrowser::pages().contains("docs/gui.md"));
        QVERIFY(cplab::HelpBrowser::pages().contains("docs/sessions.md"));
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_F1);
        auto* guide = w.findChild<cplab::HelpBrowser*>("helpBrowser");
        QVERIFY(guide && guide->isVisible());
        QCOMPARE(guide->currentPage(), QString("README.md"));
        QVERIFY(guide->browser()->toPlainText().contains("A tour of the app"));
        emit guide->browser()->anchorClicked(QUrl("docs/nonsmooth.md"));
        QCOMPARE(guide->currentPage(), QString("docs/nonsmooth.md"));
        QVERIFY(guide->browser()->toPlainText().contains("Kelley"));
        const QVariant picture = guide->browser()->document()->resource(
            QTextDocument::ImageResource, QUrl("qrc:/guide/docs/screenshot.png"));
        QVERIFY(!picture.isNull());
        emit guide->browser()->anchorClicked(QUrl("../README.md"));
        QCOMPARE(guide->currentPage(), QString("README.md"));
    }

  private:
    QString path(const QString& name) const { return dir_.filePath(name); }

    static LectureController* controllerOf(const MainWindow& w) {
        return w.findChild<LectureController*>("lectureController");
    }

    static QByteArray lectureText(const QString& hash) {
        return QByteArray(
                   "{\"format\": \"cplab-lecture\", \"version\": 1, \"title\": \"Three\",\n"
                   " \"slides\": [\n"
                   "  {\"title\": \"Kelley's planes\", \"demo\": \"kelley\"},\n"
                   "  {\"title\": \"OCAS\", \"demo\": \"ocas_vs_bmrm\"},\n"
                   "  {\"title\": \"Bowl\", \"session\": \"bowl.cplab\", \"sha256\": \"") +
               hash.toLatin1() + "\"}]}\n";
    }

    QTemporaryDir dir_;
    QString sessionHash_;
};

QTEST_MAIN(TestLectures)
#include "test_lectures.moc"
