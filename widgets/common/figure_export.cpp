// SPDX-License-Identifier: GPL-3.0-or-later
// Figures as PNG, PDF or SVG, and a view's pages as one figure (figure_export.h).
#include "figure_export.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <algorithm>
#include <cmath>
#include <map>

#include "coalesced_replot.h"
#include "core/output_file.h"

namespace cplab::widgets {

namespace {

constexpr int kTitleHeight = 30;  // the line of a page's title above it
constexpr int kPageGap = 12;      // between pages of the grid

// Paints on `device` (begun here) and ends; false when the device cannot be painted on.
bool paintOn(QPaintDevice* device, QSize size, bool vector,
             const std::function<void(QCPPainter&)>& paint) {
    QCPPainter painter;
    if (!painter.begin(device)) return false;
    if (vector) {
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    paint(painter);
    return painter.end();
}

bool writeFigure(FigureFormat format, const QString& file, const QString& title, QSize size,
                 const std::function<void(QCPPainter&)>& paint, double pixelRatio) {
    switch (format) {
        case FigureFormat::Png: {
            QImage image(QSize(static_cast<int>(std::ceil(size.width() * pixelRatio)),
                               static_cast<int>(std::ceil(size.height() * pixelRatio))),
                         QImage::Format_ARGB32_Premultiplied);
            image.setDevicePixelRatio(pixelRatio);
            image.fill(Qt::white);
            return paintOn(&image, size, false, paint) && image.save(file, "PNG");
        }
        case FigureFormat::Pdf: {
            QPdfWriter pdf(file);
            pdf.setCreator("cplab");
            pdf.setTitle(title);
            // One logical pixel per point, no margins: the page is the figure.
            pdf.setResolution(72);
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point, {}, QPageSize::ExactMatch));
            return paintOn(&pdf, size, true, paint);
        }
        case FigureFormat::Svg: {
            QSvgGenerator svg;
            svg.setFileName(file);
            svg.setTitle(title);
            svg.setDescription("cplab figure");
            svg.setSize(size);
            svg.setViewBox(QRect(QPoint(0, 0), size));
            return paintOn(&svg, size, true, paint);
        }
    }
    return false;
}

// Processes events for `milliseconds`: the coalesced replots of a page just shown land.
void letReplotsThrough(int milliseconds) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < milliseconds)
        QApplication::processEvents(QEventLoop::AllEvents, 10);
}

// Makes `widget` the current page of every tab widget it lies in; the tab widgets changed and
// their former pages go into *restore.
void bringToFront(QWidget* widget, std::map<QTabWidget*, int>* restore) {
    for (QWidget* child = widget; child && child->parentWidget(); child = child->parentWidget()) {
        QWidget* stack = child->parentWidget();
        auto* tabs = qobject_cast<QTabWidget*>(stack->parentWidget());
        if (!tabs || tabs->indexOf(child) < 0 || tabs->currentWidget() == child) continue;
        restore->emplace(tabs, tabs->currentIndex());
        tabs->setCurrentWidget(child);
    }
}

}  // namespace

bool figureFormat(const QString& path, FigureFormat* format, QString* why) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    static const std::map<QString, FigureFormat> formats = {
        {"png", FigureFormat::Png}, {"pdf", FigureFormat::Pdf}, {"svg", FigureFormat::Svg}};
    const auto it = formats.find(suffix);
    if (it == formats.end()) {
        if (why) *why = path + ": unknown export format '" + suffix + "' (use .png, .pdf or .svg)";
        return false;
    }
    *format = it->second;
    return true;
}

bool paintFigure(const QString& path, QSize size, const std::function<void(QCPPainter&)>& paint,
                 QString* why, double pixelRatio) {
    FigureFormat format;
    if (!figureFormat(path, &format, why)) return false;
    if (size.isEmpty()) {
        if (why) *why = path + ": nothing to draw (the figure has no size)";
        return false;
    }
    // Written beside the target and renamed over it when complete (core/output_file.h).
    AtomicOutput output(path.toStdString());
    if (output.temporaryPath().empty()) {
        if (why) *why = path + ": " + QString::fromStdString(output.error());
        return false;
    }
    const QString temporary = QString::fromStdString(output.temporaryPath());
    if (!writeFigure(format, temporary, QFileInfo(path).completeBaseName(), size, paint,
                     pixelRatio)) {
        if (why) *why = path + ": could not be written";
        return false;
    }
    if (const auto failure = output.commit()) {
        if (why) *why = path + ": " + QString::fromStdString(*failure);
        return false;
    }
    return true;
}

void drawWidget(QCPPainter& painter, QWidget* widget) {
    QList<QCustomPlot*> plots = widget->findChildren<QCustomPlot*>();
    if (auto* plot = qobject_cast<QCustomPlot*>(widget)) plots.prepend(plot);
    QRegion rest(widget->rect());
    std::vector<std::pair<QCustomPlot*, QPoint>> shown;
    for (QCustomPlot* plot : plots) {
        if (plot != widget && !plot->isVisibleTo(widget)) continue;
        const QPoint at = plot == widget ? QPoint(0, 0) : plot->mapTo(widget, QPoint(0, 0));
        rest -= QRect(at, plot->size());
        shown.emplace_back(plot, at);
    }
    // What is not a plot (labels, controls) as pixels; the plots as what they draw.
    if (!rest.isEmpty())
        widget->render(&painter, QPoint(0, 0), rest,
                       QWidget::DrawChildren | QWidget::DrawWindowBackground);
    for (const auto& [plot, at] : shown) {
        painter.save();
        painter.translate(at);
        painter.setClipRect(QRect(QPoint(0, 0), plot->size()));
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.restore();
    }
}

int figureColumns(int pageCount) {
    return pageCount <= 1 ? 1 : pageCount <= 4 ? 2 : 3;
}

QSize figureSize(int pageCount, QSize pageSize, bool titled) {
    const int columns = figureColumns(pageCount);
    const int rows = (pageCount + columns - 1) / columns;
    return {columns * pageSize.width() + (columns - 1) * kPageGap,
            rows * (pageSize.height() + (titled ? kTitleHeight : 0)) + (rows - 1) * kPageGap};
}

bool exportPages(const std::vector<FigurePage>& pages, const QString& path, QString* why) {
    FigureFormat format;
    if (!figureFormat(path, &format, why)) return false;
    if (pages.empty()) {
        if (why) *why = path + ": the view has no pages to export";
        return false;
    }
    QSize pageSize;
    for (const FigurePage& page : pages)
        pageSize = pageSize.expandedTo(page.widget->size());
    // A view without tabs is one page without a title line.
    const bool titled = std::any_of(pages.begin(), pages.end(),
                                    [](const FigurePage& page) { return !page.title.isEmpty(); });
    const int titleHeight = titled ? kTitleHeight : 0;
    std::map<QTabWidget*, int> restore;
    const auto paint = [&](QCPPainter& painter) {
        const int columns = figureColumns(static_cast<int>(pages.size()));
        QFont titleFont = painter.font();
        titleFont.setPointSize(12);
        titleFont.setBold(true);
        for (std::size_t k = 0; k < pages.size(); ++k) {
            bringToFront(pages[k].widget, &restore);
            letReplotsThrough(CoalescedReplot::kIntervalMs + 30);
            const int column = static_cast<int>(k) % columns;
            const int row = static_cast<int>(k) / columns;
            const QPoint origin(column * (pageSize.width() + kPageGap),
                                row * (pageSize.height() + titleHeight + kPageGap));
            painter.setFont(titleFont);
            painter.setPen(QColor(40, 40, 40));
            painter.drawText(QRect(origin, QSize(pageSize.width(), titleHeight)),
                             Qt::AlignLeft | Qt::AlignVCenter, pages[k].title);
            painter.save();
            painter.translate(origin + QPoint(0, titleHeight));
            drawWidget(painter, pages[k].widget);
            painter.restore();
        }
    };
    const bool ok =
        paintFigure(path, figureSize(static_cast<int>(pages.size()), pageSize, titled), paint, why);
    for (const auto& [tabs, index] : restore)
        tabs->setCurrentIndex(index);
    return ok;
}

}  // namespace cplab::widgets
