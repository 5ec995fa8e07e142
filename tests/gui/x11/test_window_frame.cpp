// SPDX-License-Identifier: GPL-3.0-or-later
// The real window in a real X server under a window manager (in_x_server.sh: Xvfb and
// openbox; tests/CMakeLists.txt runs it at 1280×720, 1024×768, 1280×720 with 150 % fonts and
// 3840×2160): the whole window, its frame included, lies within the screen's work area with
// the status bar and the progress bar in view, and takes a good part of it; a geometry
// remembered from a larger screen is brought within it; presentation type is at least as
// large a share of the picture as at 1280×720, and the model view has at least half the
// height below the caption. The frame is read from the X server (xwininfo, xprop), not from
// Qt. Under another platform (offscreen) it skips.
#include <QDockWidget>
#include <QProcess>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QWindow>
#include <QtTest>

#include "caption_bar.h"
#include "family_view.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"

using cplab::MainWindow;
using cplab::testing::waitFor;

namespace {

// The numbers in what `program arguments` prints (empty if it fails).
QList<int> numbersFrom(const QString& program, const QStringList& arguments,
                       const QString& after = {}) {
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(5000) || process.exitCode() != 0) return {};
    QString text = QString::fromLocal8Bit(process.readAllStandardOutput());
    if (!after.isEmpty()) text = text.section(after, 1);
    QList<int> numbers;
    static const QRegularExpression number("-?\\d+");
    for (auto it = number.globalMatch(text); it.hasNext();)
        numbers << it.next().captured().toInt();
    return numbers;
}

// The work area the window manager leaves free, in the X server's pixels.
QRect workArea() {
    const QList<int> n = numbersFrom("xprop", {"-root", "_NET_WORKAREA"}, "=");
    return n.size() >= 4 ? QRect(n[0], n[1], n[2], n[3]) : QRect();
}

// The window's frame (title bar and borders around it), as the X server has it: the client's
// absolute position and size (xwininfo) grown by the frame extents the window manager
// announces (xprop _NET_FRAME_EXTENTS: left, right, top, bottom). Null until framed.
QRect frameOf(WId window) {
    const QString id = QString::number(window);
    const QList<int> extents = numbersFrom("xprop", {"-id", id, "_NET_FRAME_EXTENTS"}, "=");
    QProcess info;
    info.start("xwininfo", {"-id", id});
    if (extents.size() != 4 || !info.waitForFinished(5000)) return {};
    const QString text = QString::fromLocal8Bit(info.readAllStandardOutput());
    auto field = [&text](const char* name) {
        const QRegularExpression re(QString(name) + ":\\s+(-?\\d+)");
        return re.match(text).captured(1).toInt();
    };
    const QRect client(field("Absolute upper-left X"), field("Absolute upper-left Y"),
                       field("Width"), field("Height"));
    return client.adjusted(-extents[0], -extents[2], extents[1], extents[3]);
}

QString rectText(const QRect& r) {
    return QString("%1x%2+%3+%4").arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y());
}

// A widget's rectangle on the screen, in the X server's pixels.
QRect onScreen(const QWidget* w) {
    const qreal ratio = w->devicePixelRatioF();
    const QRect logical(w->mapToGlobal(QPoint(0, 0)), w->size());
    return QRect((logical.topLeft().toPointF() * ratio).toPoint(),
                 (QSizeF(logical.size()) * ratio).toSize());
}

}  // namespace

class TestWindowFrame : public QObject {
    Q_OBJECT

    // Waits until the window manager has framed `w` and the window has fitted itself, then
    // checks frame, status bar and progress bar against the work area.
    void checkWithinWorkArea(MainWindow& w) {
        const QRect area = workArea();
        QVERIFY2(area.isValid(), "no _NET_WORKAREA on the root window");
        // The window fits itself once the frame is known (within a few event-loop turns).
        waitFor([&] { return area.contains(frameOf(w.winId())); }, 5000);
        const QRect frame = frameOf(w.winId());
        QVERIFY2(frame.isValid(), "the window was not framed");
        QVERIFY2(
            area.contains(frame),
            qPrintable(
                QString("frame %1 outside the work area %2").arg(rectText(frame), rectText(area))));
        // The window takes a good part of the screen (not a stamp on a 4K projector).
        QVERIFY2(frame.width() >= area.width() * 0.6 && frame.height() >= area.height() * 0.6,
                 qPrintable(rectText(frame) + " in " + rectText(area)));
        const QWidget* progress = w.findChild<QWidget*>("gapProgress");
        for (const QWidget* part : {static_cast<const QWidget*>(w.statusBar()), progress}) {
            QVERIFY(part && part->isVisible());
            QVERIFY2(
                area.contains(onScreen(part)) && part->width() >= 40,
                qPrintable(QString("%1 at %2")
                               .arg(part->metaObject()->className(), rectText(onScreen(part)))));
        }
    }

  private slots:
    void initTestCase() {
        if (QGuiApplication::platformName() != "xcb")
            QSKIP("needs an X server with a window manager: ctest -R app.window_frame.");
        QCoreApplication::setOrganizationName("cplab-test-window-frame");
        QSettings().clear();
    }

    void opensWithinTheScreen() {
        MainWindow w;
        QVERIFY(w.loadDemo("kelley"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        checkWithinWorkArea(w);
    }

    // A geometry saved on a large screen (2600×1700 at 200,150) opens within this one.
    void restoredGeometryIsClamped() {
        {
            MainWindow large;
            large.setGeometry(QRect(200, 150, 2600, 1700));
            QSettings().setValue("window/geometry", large.saveGeometry());
        }
        MainWindow w;
        w.restoreLayout();
        QVERIFY(w.loadDemo("kelley"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        checkWithinWorkArea(w);
        QSettings().clear();
    }

    // The caption's type in presentation mode is at least the share of the screen's height
    // that 1.4 times the application's font has at 1280×720; the model view has at least half
    // of the height below the caption.
    void presentationIsReadable() {
        MainWindow w;
        QVERIFY(w.loadDemo("ocr_race"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setPresentation(true);
        const QRect screen = w.screen()->geometry();
        QVERIFY(waitFor([&] { return w.isFullScreen() && w.size() == screen.size(); }, 5000));
        cplab::testing::drawPending(w);
        QFont designed = QApplication::font();
        designed.setPointSizeF(designed.pointSizeF() * 1.4);
        const double at720 = QFontMetricsF(designed).height() / 720.0;
        const auto* caption = w.parts().caption;
        const double here = QFontMetricsF(caption->font()).height() / screen.height();
        QVERIFY2(here >= 0.97 * at720,
                 qPrintable(QString("type %1 of the height, %2 at 720p").arg(here).arg(at720)));
        const int top = caption->mapTo(&w, QPoint(0, caption->height())).y();
        const int below = w.centralWidget()->mapTo(&w, QPoint(0, w.centralWidget()->height())).y();
        QVERIFY2(
            w.currentView()->height() * 2 >= below - top,
            qPrintable(QString("view %1 of %2").arg(w.currentView()->height()).arg(below - top)));
    }
};

QTEST_MAIN(TestWindowFrame)
#include "test_window_frame.moc"
