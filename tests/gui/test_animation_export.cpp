// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline as an animation through the real main window (app/gui/animation_export.h):
// a GIF of a stepped Kelley run decoded with giflib (one frame per kept snapshot, the window's
// centre's size, frames that differ, each frame's pixels those of the PNG frame export up to
// the palette), a range and frame rate, the whole view and the race as figures and data, a
// cancelled export that leaves no file, and an output that is an input refused up front.
// Frames are streamed (one in memory at a time): the GIF stream on drawn frames (a local
// palette for a new colour, a failed frame that fails the export instead of freezing it, the
// GIF's size limit), a frame beyond the memory budget refused with its sizes, and PNG frames
// that never mix with an older sequence in their folder.
#include <gif_lib.h>

#include <QPainter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "animation_export.h"
#include "core/memory_budget.h"
#include "core/output_file.h"
#include "family_view.h"
#include "frame_sequence.h"
#include "gif_writer.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "run.h"
#include "timeline_bar.h"

using cplab::AnimationExport;
using cplab::AnimationSettings;
using cplab::MainWindow;
using cplab::testing::allReady;
using cplab::testing::waitFor;

namespace {

struct Outcome {
    bool done = false;
    bool ok = false;
    QString message;
};

// Runs an export to its end; the outcome (ok false and the reason when it could not start).
Outcome runExport(MainWindow& w, const AnimationSettings& settings, bool cancelAtOnce = false) {
    Outcome outcome;
    AnimationExport* job = w.exportAnimation(settings, &outcome.message);
    if (!job) return outcome;
    QObject::connect(job, &AnimationExport::finished, [&](bool ok, const QString& message) {
        outcome = {true, ok, message};
    });
    if (cancelAtOnce) {
        QObject::connect(job, &AnimationExport::progressed, job, &AnimationExport::cancel);
    }
    waitFor([&] { return outcome.done; }, 60000);
    return outcome;
}

// The frames of a GIF as shown: each composed over the ones before (transparent pixels keep
// what is there, as DISPOSE_DO_NOT says).
struct DecodedGif {
    QSize size;
    QList<QImage> frames;
    QList<int> delays;
    QList<QRect> rects;
    int colours = 0;
    QString error;
};
DecodedGif decodeGif(const QString& path) {
    DecodedGif result;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(QFile::encodeName(path).constData(), &error);
    if (!gif) {
        result.error = GifErrorString(error);
        return result;
    }
    if (DGifSlurp(gif) != GIF_OK) {
        result.error = GifErrorString(gif->Error);
        DGifCloseFile(gif, &error);
        return result;
    }
    result.size = QSize(gif->SWidth, gif->SHeight);
    result.colours = gif->SColorMap ? gif->SColorMap->ColorCount : 0;
    QImage canvas(result.size, QImage::Format_RGB32);
    canvas.fill(Qt::black);
    for (int k = 0; k < gif->ImageCount; ++k) {
        const SavedImage& image = gif->SavedImages[k];
        GraphicsControlBlock control{};
        DGifSavedExtensionToGCB(gif, k, &control);
        const ColorMapObject* map =
            image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : gif->SColorMap;
        const GifImageDesc& d = image.ImageDesc;
        for (int y = 0; y < d.Height; ++y) {
            for (int x = 0; x < d.Width; ++x) {
                const int index = image.RasterBits[y * d.Width + x];
                if (index == control.TransparentColor) continue;
                const GifColorType c = map->Colors[index];
                canvas.setPixel(d.Left + x, d.Top + y, qRgb(c.Red, c.Green, c.Blue));
            }
        }
        result.frames << canvas.copy();
        result.delays << control.DelayTime;
        result.rects << QRect(d.Left, d.Top, d.Width, d.Height);
    }
    DGifCloseFile(gif, &error);
    return result;
}

// The share of pixels of `a` and `b` whose channels differ by more than `tolerance`.
double differingShare(const QImage& a, const QImage& b, int tolerance) {
    if (a.size() != b.size()) return 1.0;
    long differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            if (std::abs(qRed(p) - qRed(q)) > tolerance ||
                std::abs(qGreen(p) - qGreen(q)) > tolerance ||
                std::abs(qBlue(p) - qBlue(q)) > tolerance)
                ++differing;
        }
    }
    return double(differing) / (double(a.width()) * a.height());
}

QStringList filesIn(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestAnimationExport : public QObject {
    Q_OBJECT
  private:
    MainWindow* window_ = nullptr;
    const int steps_ = 6;

  private slots:
    void initTestCase() {
        window_ = new MainWindow;
        window_->resize(900, 640);
        window_->show();
        QVERIFY(window_->loadDemo("kelley"));
        QVERIFY(waitFor([&] { return allReady(*window_); }));
        window_->stepAll(steps_);
        QVERIFY(waitFor([&] { return window_->run(0)->iteration() >= steps_; }));
        QTest::qWait(200);
    }
    void cleanupTestCase() { delete window_; }

    void gifMatchesPngFrames() {
        MainWindow& w = *window_;
        const int kept = int(w.run(0)->history().snapshots().size());
        QCOMPARE(kept, steps_ + 1);  // iterations 0 … 6, none thinned
        QTemporaryDir dir;
        AnimationSettings settings;
        settings.path = dir.filePath("kelley.gif");
        settings.framesPerSecond = 5;
        settings.holdSeconds = 1.5;
        const Outcome gif = runExport(w, settings);
        QVERIFY2(gif.ok, qPrintable(gif.message));
        QVERIFY(w.parts().timeline->isLive());  // the timeline is back where it was
        const DecodedGif decoded = decodeGif(settings.path);
        QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
        QCOMPARE(decoded.frames.size(), kept);
        QCOMPARE(decoded.size, w.centralWidget()->size());
        QCOMPARE(decoded.colours, 256);
        QCOMPARE(decoded.delays.first(), 20);  // 5 frames per second
        QCOMPARE(decoded.delays.last(), 150);  // the hold
        // Every frame shows a step: it differs from the one before, and only a part of the
        // window is encoded again.
        for (int k = 1; k < decoded.frames.size(); ++k) {
            QVERIFY2(decoded.frames[k] != decoded.frames[k - 1], qPrintable(QString::number(k)));
            QVERIFY(decoded.rects[k].width() * decoded.rects[k].height() <
                    decoded.size.width() * decoded.size.height());
        }

        settings.path = dir.filePath("frames") + '/';
        QVERIFY(QDir(dir.path()).mkdir("frames"));
        const Outcome png = runExport(w, settings);
        QVERIFY2(png.ok, qPrintable(png.message));
        const QStringList names = filesIn(dir.filePath("frames"));
        QCOMPARE(names.size(), kept);
        QCOMPARE(names.first(), QString("frame0001.png"));
        for (int k = 0; k < kept; ++k) {
            const QImage frame(dir.filePath("frames/" + names[k]));
            QCOMPARE(frame.size(), decoded.size);
            // The same picture up to the palette: nearly every pixel close, none far off in
            // bulk (antialiased edges take the nearest of 255 colours).
            const double off = differingShare(frame, decoded.frames[k], 24);
            QVERIFY2(off < 0.01, qPrintable(QString("frame %1: %2").arg(k).arg(off)));
            QVERIFY(differingShare(frame, decoded.frames[k], 80) < 0.001);
        }
    }

    void rangeAndArea() {
        MainWindow& w = *window_;
        QTemporaryDir dir;
        AnimationSettings settings;
        settings.path = dir.filePath("shot-%03d.png");
        settings.first = 2;
        settings.last = 4;
        settings.viewOnly = true;
        settings.scale = 0.5;
        const Outcome outcome = runExport(w, settings);
        QVERIFY2(outcome.ok, qPrintable(outcome.message));
        QCOMPARE(filesIn(dir.path()),
                 QStringList({"shot-001.png", "shot-002.png", "shot-003.png"}));
        // Half the view's width; the view's height follows the caption's lines, the frames
        // all take the first one's size.
        const QImage first(dir.filePath("shot-001.png"));
        QCOMPARE(first.width(), qRound(w.currentView()->width() * 0.5));
        QCOMPARE(QImage(dir.filePath("shot-003.png")).size(), first.size());
        // A range with no kept snapshot, a bad rate and a path of no known kind are refused.
        QString why;
        settings.first = 50;
        settings.last = 60;
        QVERIFY(!w.exportAnimation(settings, &why));
        QVERIFY2(why.contains("no kept snapshot"), qPrintable(why));
        settings = {};
        settings.path = dir.filePath("a.gif");
        settings.framesPerSecond = 0;
        QVERIFY(!w.exportAnimation(settings, &why));
        QVERIFY2(why.contains("frame rate 0"), qPrintable(why));
        settings.framesPerSecond = 4;
        settings.path = dir.filePath("a.mp4");
        QVERIFY(!w.exportAnimation(settings, &why));
        QVERIFY2(why.contains("a.mp4: expected an animated GIF"), qPrintable(why));
    }

    void cancelledExportWritesNothing() {
        MainWindow& w = *window_;
        QTemporaryDir dir;
        AnimationSettings settings;
        settings.path = dir.filePath("cancelled.gif");
        const Outcome gif = runExport(w, settings, true);
        QVERIFY(gif.done && !gif.ok);
        QVERIFY2(gif.message.contains("cancelled"), qPrintable(gif.message));
        settings.path = dir.path() + '/';
        const Outcome png = runExport(w, settings, true);
        QVERIFY(png.done && !png.ok);
        QCOMPARE(filesIn(dir.path()), QStringList());  // no file, no temporary left behind
        QVERIFY(w.parts().timeline->isLive());
    }

    // Frames written into a folder never mix with older ones: a folder holding a longer
    // sequence of the pattern is refused before any frame is drawn, naming the files, and
    // nothing in it changes; so is a pattern whose older frames are numbered otherwise. With
    // only the frames the export replaces (and a user's own file) it is written, the user's
    // file untouched.
    void pngFramesNeverMix() {
        MainWindow& w = *window_;
        const int kept = int(w.run(0)->history().snapshots().size());
        QTemporaryDir dir;
        const auto put = [&](const QString& name) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("older");
        };
        const auto frame = [](int k) { return QString("frame%1.png").arg(k, 4, 10, QChar('0')); };
        for (int k = 1; k <= kept + 3; ++k)
            put(frame(k));
        put("notes.txt");
        AnimationSettings settings;
        settings.path = dir.path() + '/';
        QString why;
        QVERIFY(!w.exportAnimation(settings, &why));
        QVERIFY2(why.contains("3 frame file(s)") && why.contains(frame(kept + 1)) &&
                     why.contains(frame(kept + 3)) && why.contains("would mix"),
                 qPrintable(why));
        QCOMPARE(filesIn(dir.path()).size(), kept + 4);  // nothing written, nothing removed
        settings.path = dir.filePath("shot-%d.png");
        put("shot-01.png");
        QVERIFY(!w.exportAnimation(settings, &why));
        QVERIFY2(why.contains("(shot-01.png)"), qPrintable(why));
        QVERIFY(QFile::remove(dir.filePath("shot-01.png")));
        // The user removes the older frames beyond the new sequence: the export replaces
        // frames 1 to kept and nothing else.
        for (int k = kept + 1; k <= kept + 3; ++k)
            QVERIFY(QFile::remove(dir.filePath(frame(k))));
        settings.path = dir.path() + '/';
        const Outcome png = runExport(w, settings);
        QVERIFY2(png.ok, qPrintable(png.message));
        QStringList expected;
        for (int k = 1; k <= kept; ++k)
            expected << frame(k);
        expected << "notes.txt";
        QCOMPARE(filesIn(dir.path()), expected);
        QVERIFY(!QImage(dir.filePath(frame(kept))).isNull());  // a PNG now
        QFile notes(dir.filePath("notes.txt"));
        QVERIFY(notes.open(QIODevice::ReadOnly));
        QCOMPARE(notes.readAll(), QByteArray("older"));
    }

    // A frame that cannot fit the memory budget is refused before any is drawn, with its sizes.
    void frameBeyondMemoryIsRefused() {
        MainWindow& w = *window_;
        QTemporaryDir dir;
        AnimationSettings settings;
        settings.path = dir.filePath("big.gif");
        const QSize size = w.centralWidget()->size() * w.centralWidget()->devicePixelRatioF();
        QString why;
        cplab::setMemoryBudget(32u << 20);  // less than the palette caches alone
        const bool started = w.exportAnimation(settings, &why) != nullptr;
        cplab::setMemoryBudget(0);
        QVERIFY(!started);
        const QString sizes = QString::fromStdString(cplab::sizeProduct(
            {{double(size.width()), ""}, {double(size.height()), "pixels x 21 B"}}));
        QVERIFY2(why.startsWith(settings.path + ": one frame needs ") && why.contains(sizes) &&
                     why.contains("32 MB available"),
                 qPrintable(why));
        QCOMPARE(filesIn(dir.path()), QStringList());
    }

    // The GIF stream on drawn frames, decoded by giflib: a colour the first frame lacks gets a
    // local palette and every frame comes out exact (flat colours); an unchanged frame is one
    // transparent pixel.
    void gifStreamFrames() {
        QImage a(160, 90, QImage::Format_RGB32);
        a.fill(Qt::white);
        QPainter(&a).fillRect(10, 10, 40, 30, QColor(30, 60, 200));
        QImage b = a.copy();
        QPainter(&b).fillRect(80, 40, 60, 20, QColor(0, 200, 40));  // a new colour
        const QImage c = b.copy();
        QImage d = c.copy();
        {
            QPainter painter(&d);
            painter.fillRect(10, 10, 40, 30, Qt::white);
            painter.fillRect(20, 50, 40, 30, QColor(30, 60, 200));
        }
        const QList<QImage> frames{a, b, c, d};
        QTemporaryDir dir;
        const QString path = dir.filePath("stream.gif");
        cplab::widgets::GifStream gif(path, int(frames.size()), {});
        QString why;
        for (const QImage& frame : frames)
            QVERIFY2(gif.add(frame, &why), qPrintable(why));
        QVERIFY2(gif.finish(&why), qPrintable(why));
        QCOMPARE(gif.localPalettes(), 1);
        const DecodedGif decoded = decodeGif(path);
        QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
        QCOMPARE(decoded.frames.size(), frames.size());
        for (int k = 0; k < frames.size(); ++k)
            QVERIFY2(differingShare(decoded.frames[k], frames[k], 0) == 0,
                     qPrintable(QString::number(k)));
        QCOMPARE(decoded.rects[1], QRect(80, 40, 60, 20));
        QCOMPARE(decoded.rects[2], QRect(0, 0, 1, 1));
    }

    // A frame that could not be drawn (a null image: a failed allocation, as at 16384² where
    // frames 3 to 35 came out frozen with exit status 0) fails the export with a message and
    // leaves no file; so does a frame of another size; a GIF side above 65,535 is refused up
    // front, and a frame beyond the budget names its sizes.
    void gifStreamFailures() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fail.gif");
        QImage a(64, 48, QImage::Format_RGB32);
        a.fill(Qt::white);
        QString why;
        {
            cplab::widgets::GifStream gif(path, 3, {});
            QVERIFY2(gif.add(a, &why), qPrintable(why));
            QVERIFY(!gif.add(QImage(), &why));
            QVERIFY2(why == path + ": frame 2 could not be drawn (out of memory?)",
                     qPrintable(why));
            QVERIFY(!gif.finish(&why));
            QVERIFY2(why.contains("1 of 3 frames written"), qPrintable(why));
        }
        QCOMPARE(filesIn(dir.path()), QStringList());
        {
            cplab::widgets::GifStream gif(path, 2, {});
            QVERIFY2(gif.add(a, &why), qPrintable(why));
            QVERIFY(!gif.add(a.scaled(32, 24), &why));
            QVERIFY2(why.contains("frame 2 is 32 x 24 pixels, not the first's 64 x 48"),
                     qPrintable(why));
        }
        QCOMPARE(filesIn(dir.path()), QStringList());
        using cplab::widgets::AnimationTarget;
        const QSize wide(70000, 10);
        why = cplab::widgets::animationSizeProblem(AnimationTarget::Gif, wide, wide);
        QVERIFY2(why.contains("70,000 x 10 pixels") && why.contains("at most 65,535"),
                 qPrintable(why));
        {
            cplab::widgets::GifStream gif(path, 1, {});
            QImage strip(70000, 1, QImage::Format_RGB32);
            strip.fill(Qt::white);
            QVERIFY(!gif.add(strip, &why));
            QVERIFY2(why.contains("at most 65535 pixels on a side"), qPrintable(why));
        }
        QCOMPARE(filesIn(dir.path()), QStringList());
        const QSize huge(16384, 16384);
        cplab::setMemoryBudget(std::size_t{2} << 30);
        why = cplab::widgets::animationSizeProblem(AnimationTarget::Gif, huge, huge);
        const QString png =
            cplab::widgets::animationSizeProblem(AnimationTarget::PngFrames, huge / 2, huge / 4);
        cplab::setMemoryBudget(0);
        QVERIFY2(why ==
                     "one frame needs 5.3 GB: 16,384 x 16,384 pixels x 21 B + 64 MB of palette "
                     "caches; about 2 GB available",
                 qPrintable(why));
        QVERIFY2(png.isEmpty(), qPrintable(png));  // 8192² grabbed, 4096² framed: 0.8 GB
    }

    void inputIsRefused() {
        MainWindow& w = *window_;
        QTemporaryDir dir;
        const QString input = dir.filePath("data.gif");
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("GIF89a data");
        file.close();
        cplab::noteInputFile(input.toStdString());  // within the window's InputFileScope
        AnimationSettings settings;
        settings.path = input;
        QString why;
        QVERIFY(!w.exportAnimation(settings, &why));
        QVERIFY2(why.contains("an output never replaces an input"), qPrintable(why));
        QFile again(input);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray("GIF89a data"));
    }

    // The whole view, the race and the runs table through the window.
    void figuresAndData() {
        MainWindow& w = *window_;
        QTemporaryDir dir;
        QString why;
        // Kelley's view has no tabs: one page, its plot as vectors.
        QCOMPARE(int(w.currentView()->pages().size()), 1);
        QVERIFY2(w.exportWholeView(dir.filePath("view.svg"), &why), qPrintable(why));
        QFile viewSvg(dir.filePath("view.svg"));
        QVERIFY(viewSvg.open(QIODevice::ReadOnly));
        QVERIFY(viewSvg.readAll().contains("f(x)"));
        QVERIFY2(w.exportBoundsPlot(dir.filePath("bounds.svg"), &why), qPrintable(why));
        QFile svg(dir.filePath("bounds.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray bounds = svg.readAll();
        QVERIFY(bounds.contains("<svg") && bounds.contains("#1"));
        QVERIFY2(w.exportBoundsPlot(dir.filePath("bounds.csv"), &why), qPrintable(why));
        QFile csv(dir.filePath("bounds.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + int(w.run(0)->trace().size()));
        QVERIFY(lines[0].startsWith("iteration,#1 "));
        QVERIFY2(w.exportBoundsPlot(dir.filePath("bounds.tex"), &why), qPrintable(why));
        QVERIFY2(w.exportRunsTable(dir.filePath("runs.csv"), &why), qPrintable(why));
        QFile runs(dir.filePath("runs.csv"));
        QVERIFY(runs.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = runs.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 1 + w.runCount());
        QCOMPARE(rows[0], QByteArray("run,status,iter,gap"));
        QVERIFY(rows[1].startsWith("#1 "));
    }

    // A view with tabs: every tab in the figure under its title, the tab shown kept.
    void wholeViewOfTabs() {
        MainWindow& w = *window_;
        QVERIFY(w.loadDemo("map_grid"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        w.stepAll(2);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() >= 2; }));
        const auto pages = w.currentView()->pages();
        QCOMPARE(int(pages.size()), 2);
        QCOMPARE(pages[0].title, QString("Labeling"));
        QCOMPARE(pages[1].title, QString("Bounds"));
        QTemporaryDir dir;
        QString why;
        QVERIFY2(w.exportWholeView(dir.filePath("map.svg"), &why), qPrintable(why));
        QFile svg(dir.filePath("map.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("Labeling") && text.contains("Bounds"));
        const auto* tabs = w.currentView()->findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->currentIndex(), 0);
    }
};

QTEST_MAIN(TestAnimationExport)
#include "test_animation_export.moc"
