// SPDX-License-Identifier: GPL-3.0-or-later
#include "handout.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextOption>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "core/output_file.h"
#include "family_view.h"
#include "figure_export.h"
#include "lecture_controller.h"
#include "main_window.h"
#include "run.h"
#include "window_context.h"

namespace cplab {

namespace {

// Page layout in points (1/72 inch) on A4 portrait.
constexpr int kHandoutMargin = 28;
constexpr int kHandoutTitleHeight = 34;
constexpr int kHandoutCaptionHeight = 92;
constexpr int kHandoutGap = 10;
constexpr int kHandoutSettleMs = 400;

void settleHandout(int milliseconds) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < milliseconds)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
}

// Waits until the walk's position is there: the slide open, its runs ready and at the beat.
bool waitForHandoutPosition(MainWindow& window, const LectureController& lectures) {
    window.setDelayMs(0);  // a slide's session may bring its teaching delay
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < kHandoutPageSeconds * 1000) {
        bool ready = !lectures.busy();
        for (int k = 0; ready && k < window.runCount(); ++k)
            ready = window.run(k)->ready() || window.run(k)->failed();
        if (ready) {
            settleHandout(kHandoutSettleMs);  // the last snapshots drawn, the caption told
            return true;
        }
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return false;
}

// Draws `widget` into `area` (points), scaled to fit and centred across, plots as vectors; the
// height it took.
double drawHandoutView(QCPPainter& painter, QWidget* widget, const QRectF& area) {
    if (!widget || widget->width() <= 0 || widget->height() <= 0) return 0;
    const double scale = std::min(area.width() / widget->width(), area.height() / widget->height());
    const QSizeF drawn(widget->width() * scale, widget->height() * scale);
    painter.save();
    painter.translate(area.x() + (area.width() - drawn.width()) / 2, area.y());
    painter.scale(scale, scale);
    widgets::drawWidget(painter, widget);
    painter.restore();
    return drawn.height();
}

void drawHandoutPage(QCPPainter& painter, const QRectF& page, const MainWindow& window,
                     const LectureController& lectures) {
    const WindowContext& ctx = window.parts();
    const QRectF inner =
        page.adjusted(kHandoutMargin, kHandoutMargin, -kHandoutMargin, -kHandoutMargin);
    QFont title("Sans", 16, QFont::Bold);
    painter.setFont(title);
    painter.setPen(Qt::black);
    painter.drawText(QRectF(inner.topLeft(), QSizeF(inner.width(), kHandoutTitleHeight)),
                     Qt::AlignLeft | Qt::AlignVCenter, ctx.caption->slideText());
    painter.setFont(QFont("Sans", 9));
    painter.drawText(QRectF(inner.topLeft(), QSizeF(inner.width(), kHandoutTitleHeight)),
                     Qt::AlignRight | Qt::AlignVCenter,
                     QString::fromStdString(lectures.lecture().title));
    const double top = inner.top() + kHandoutTitleHeight + kHandoutGap;
    const double viewsHeight =
        inner.height() - kHandoutTitleHeight - kHandoutCaptionHeight - 2 * kHandoutGap;
    // The model view across the page, the bounds plot under it in what is left.
    const double viewHeight =
        drawHandoutView(painter, window.currentView(),
                        QRectF(inner.left(), top, inner.width(), viewsHeight * 0.62));
    const double boundsTop = top + viewHeight + kHandoutGap;
    const double boundsHeight = drawHandoutView(
        painter, ctx.boundsPlot,
        QRectF(inner.left(), boundsTop, inner.width(), top + viewsHeight - boundsTop));
    // The caption right under the views (the space left stays below it, for notes).
    const QRectF caption(inner.left(), boundsTop + boundsHeight + 2 * kHandoutGap, inner.width(),
                         kHandoutCaptionHeight);
    painter.setPen(QColor(200, 200, 200));
    painter.drawLine(caption.topLeft(), caption.topRight());
    QTextOption wrap;
    wrap.setWrapMode(QTextOption::WordWrap);
    painter.setPen(Qt::black);
    painter.setFont(QFont("Sans", 12, QFont::Bold));
    painter.drawText(caption.adjusted(0, 6, 0, 0), ctx.caption->beatText(), wrap);
    painter.setFont(QFont("Sans", 9));
    painter.setPen(QColor(60, 60, 60));
    QStringList more;
    if (!ctx.caption->eventsText().isEmpty()) more << ctx.caption->eventsText();
    if (!ctx.caption->watchText().isEmpty()) more << ctx.caption->watchText();
    painter.drawText(caption.adjusted(0, 44, 0, 0), more.join("\n"), wrap);
}

// Why `path` may not be the handout: it is the lecture or one of its sessions.
QString handoutInputProblem(const LectureController& lectures, const QString& path) {
    QStringList inputs = {lectures.path()};
    for (const LectureSlide& slide : lectures.lecture().slides)
        if (!slide.resolved.empty()) inputs << QString::fromStdString(slide.resolved);
    for (const QString& input : inputs) {
        if (QFileInfo(path).absoluteFilePath() == QFileInfo(input).absoluteFilePath() ||
            sameFile(path.toStdString(), input.toStdString()))
            return QObject::tr("%1: is %2, an input of the handout; give the handout its own file")
                .arg(path, input);
    }
    return {};
}

}  // namespace

bool exportHandout(MainWindow& window, LectureController& lectures, const QString& path, int* pages,
                   QString* why) {
    *pages = 0;
    const auto fail = [why](const QString& message) {
        *why = message;
        return false;
    };
    if (lectures.lecture().slides.empty())
        return fail(QObject::tr("%1: the lecture has no slides").arg(lectures.path()));
    if (const QString problem = handoutInputProblem(lectures, path); !problem.isEmpty())
        return fail(problem);
    AtomicOutput output(path.toStdString());
    if (output.temporaryPath().empty())
        return fail(path + ": " + QString::fromStdString(output.error()));
    {
        QPdfWriter writer(QString::fromStdString(output.temporaryPath()));
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageOrientation(QPageLayout::Portrait);
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(72);  // one unit per point
        writer.setTitle(QString::fromStdString(lectures.lecture().title));
        writer.setCreator("cplab");
        QCPPainter painter(&writer);
        const QRectF page(QPointF(0, 0), QSizeF(writer.width(), writer.height()));
        QString refused;  // a slide that could not be opened
        const QMetaObject::Connection watch = QObject::connect(
            &lectures, &LectureController::slideOpened,
            [&refused](int index, bool ok, const QString& message) {
                if (!ok) refused = QObject::tr("slide %1: %2").arg(index + 1).arg(message);
            });
        if (lectures.slide() != 0) lectures.openSlide(0);
        for (;;) {
            if (!waitForHandoutPosition(window, lectures))
                return fail(QObject::tr("%1: slide %2 did not reach its beat within %3 s")
                                .arg(path)
                                .arg(lectures.slide() + 1)
                                .arg(kHandoutPageSeconds));
            if (!refused.isEmpty()) break;
            if (*pages > 0) writer.newPage();
            drawHandoutPage(painter, page, window, lectures);
            ++*pages;
            if (!lectures.next()) break;
        }
        QObject::disconnect(watch);
        if (!refused.isEmpty()) return fail(path + ": " + refused);
    }
    if (const auto failure = output.commit())
        return fail(path + ": " + QString::fromStdString(*failure));
    return true;
}

}  // namespace cplab
