// SPDX-License-Identifier: GPL-3.0-or-later
// The window fits a lecture hall's projector: every demo opens at 1280×720 and at 1024×768
// with the window at exactly that size (no minimum size forces it wider or taller), every
// visible widget lies within the window (what a scroll area scrolls is judged by the scroll
// area), and Add run, Remove run and the runs table are in view without scrolling. In
// presentation mode (larger type, no side panels) the same holds for the caption, the view,
// the timeline and the bounds.
#include <QAbstractScrollArea>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QtTest>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "family_view.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "plot_style.h"
#include "registry.h"

using cplab::MainWindow;
using cplab::Run;

namespace {

// True when `w` is (inside) the scrolled contents of a scroll area of `window`.
bool insideScrolledContents(const QWidget* w, const QWidget* window) {
    for (const QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget()) {
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(p->parentWidget());
            area && p == area->viewport())
            return true;
    }
    return false;
}

// The visible widgets of `window` not wholly inside it, described.
QStringList outside(const QWidget& window) {
    QStringList found;
    const QRect bounds = window.rect();
    for (const QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisible() || w->isWindow() || insideScrolledContents(w, &window)) continue;
        const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
        if (!bounds.contains(r)) {
            found << QString("%1 '%2' at %3,%4 %5x%6")
                         .arg(w->metaObject()->className(), w->objectName())
                         .arg(r.x())
                         .arg(r.y())
                         .arg(r.width())
                         .arg(r.height());
        }
    }
    return found;
}

// Ink in `r` of `image` (pixels not white).
int inkIn(const QImage& image, const QRect& r) {
    int ink = 0;
    const QRect inside = r.intersected(image.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            ink += (image.pixel(x, y) & 0xffffff) != 0xffffff ? 1 : 0;
    return ink;
}

// Where an element of `size` sits in `area` at `alignment`.
QRect placedAt(const QRect& area, QSize size, Qt::Alignment alignment) {
    int x = area.left(), y = area.top();
    if (alignment & Qt::AlignRight) x = area.right() + 1 - size.width();
    if (alignment & Qt::AlignHCenter) x = area.center().x() - size.width() / 2;
    if (alignment & Qt::AlignBottom) y = area.bottom() + 1 - size.height();
    return {QPoint(x, y), size};
}

// The name of the first plottable in `legend`.
QString legendName(QCPLegend* legend) {
    auto* item =
        legend->itemCount() ? qobject_cast<QCPPlottableLegendItem*>(legend->item(0)) : nullptr;
    return item ? item->plottable()->name() : QString();
}

// Legends never cover data where a place would not: each visible legend over an axis rect
// covers no more of the data's ink than at the emptiest of the places it may take (corners,
// edge centres), judged by a picture of the plot drawn without grid, axes and legends. (A
// legend as tall as its panel, the linear view's planes in a squeezed window, is left out.)
QStringList legendsOnData(QWidget& window) {
    QStringList found;
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
        if (!plot->isVisible() || plot->width() < 50) continue;
        std::vector<QCPLegend*> legends;
        std::vector<std::pair<QCPLayer*, bool>> layers;
        for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
            for (QCPAxisRect* rect : plot->axisRects()) {
                if (element != rect) continue;
                QCPLayoutInset* inset = rect->insetLayout();
                for (int i = 0; i < inset->elementCount(); ++i)
                    if (auto* legend = qobject_cast<QCPLegend*>(inset->elementAt(i));
                        legend && legend->realVisibility() && legend->itemCount() > 0)
                        legends.push_back(legend);
            }
        }
        if (legends.empty()) continue;
        for (const char* name : {"background", "grid", "axes", "legend", "overlay"}) {
            if (QCPLayer* layer = plot->layer(name)) {
                layers.emplace_back(layer, layer->visible());
                layer->setVisible(false);
            }
        }
        for (QCPLegend* legend : legends)
            legend->setVisible(false);
        const QImage data = plot->toPixmap(plot->width(), plot->height(), 1.0).toImage();
        for (QCPLegend* legend : legends)
            legend->setVisible(true);
        for (const auto& [layer, visible] : layers)
            layer->setVisible(visible);
        for (QCPLegend* legend : legends) {
            const QRect at = legend->outerRect();
            auto* rect = qobject_cast<QCPAxisRect*>(legend->layout()->parentLayerable());
            // A legend as tall as its panel covers its lines wherever it is: no place to judge.
            if (!rect || at.height() >= 0.9 * rect->rect().height()) continue;
            int fewest = inkIn(data, at);
            for (const Qt::Alignment place : cplab::widgets::kLegendPlaces)
                fewest = std::min(fewest, inkIn(data, placedAt(rect->rect(), at.size(), place)));
            const int here = inkIn(data, at);
            // Room for how a picture and the window's estimate differ (lines drawn over each
            // other are ink once in the picture).
            if (here > fewest + std::max({20, at.width() * at.height() / 30, fewest / 4}))
                found << QString("%1 legend of '%2' covers %3 px of data, %4 at its emptiest place")
                             .arg(plot->objectName(), legendName(legend))
                             .arg(here)
                             .arg(fewest);
        }
    }
    return found;
}

}  // namespace

class TestScreenFit : public QObject {
    Q_OBJECT
    // Opens `demo` at `size` (presenting: in presentation mode at that size, as on a projector
    // of that size), steps twice, and checks the window's size and that it holds every widget.
    void openAndCheck(MainWindow& w, const QString& demo, QSize size, bool presenting) {
        w.setDelayMs(0);
        w.resize(size);
        w.show();
        QVERIFY(w.loadDemo(demo));
        QVERIFY(cplab::testing::waitFor([&] { return cplab::testing::allReady(w); }));
        if (presenting) w.setPresentation(true, false);
        w.stepAll(2);
        // The steps' snapshots drawn (a MAP grid lays out on its first).
        QVERIFY(cplab::testing::waitFor([&] {
            for (int k = 0; k < w.runCount(); ++k) {
                const Run& run = *w.run(k);
                if (run.iteration() < 2 && !run.status().finished() && !run.failed()) return false;
            }
            return true;
        }));
        cplab::testing::drawPending(w);
        QCOMPARE(w.size(), size);
        const QStringList bad = outside(w);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        const QStringList covering = legendsOnData(w);
        QVERIFY2(covering.isEmpty(), qPrintable(covering.join("\n")));
    }

  private slots:
    void everyDemoFits_data() {
        QTest::addColumn<QString>("demo");
        QTest::addColumn<QSize>("size");
        for (const QSize size : {QSize(1280, 720), QSize(1024, 768)}) {
            for (const auto& d : cplab::demoCatalog()) {
                QTest::addRow("%s %dx%d", d.name.c_str(), size.width(), size.height())
                    << QString::fromStdString(d.name) << size;
            }
        }
    }
    void everyDemoFits() {
        QFETCH(QString, demo);
        QFETCH(QSize, size);
        MainWindow w;
        openAndCheck(w, demo, size, false);
        if (QTest::currentTestFailed()) return;
        // The set-up panel scrolls vertically only: nothing cut behind a horizontal bar.
        const auto* scroll = w.findChild<QScrollArea*>("setupScroll");
        QVERIFY(scroll);
        QVERIFY2(scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
                 qPrintable(QString("needs %1 px, has %2")
                                .arg(scroll->widget()->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
        // The run controls of the set-up panel are in view, not in its scrolled part.
        for (const char* name : {"addRunButton", "applyButton", "removeButton", "runTable"}) {
            const auto* widget = w.findChild<QWidget*>(name);
            QVERIFY2(widget && widget->isVisible(), name);
            QVERIFY2(!insideScrolledContents(widget, &w), name);
            QVERIFY2(
                widget->height() >= widget->minimumSizeHint().height() || widget->height() >= 20,
                name);
        }
    }

    void presentationFits_data() { everyDemoFits_data(); }
    void presentationFits() {
        QFETCH(QString, demo);
        QFETCH(QSize, size);
        MainWindow w;
        openAndCheck(w, demo, size, true);
        if (QTest::currentTestFailed()) return;
        for (const QWidget* widget : {static_cast<const QWidget*>(w.currentView()),
                                      static_cast<const QWidget*>(w.parts().boundsPlot)}) {
            QVERIFY(widget->isVisible());
            QVERIFY2(widget->height() >= 140, qPrintable(QString::number(widget->height())));
        }
        // The model view has at least half of the column below the caption.
        const auto* caption = w.parts().caption;
        const int top =
            caption->mapTo(&w, QPoint(0, caption->isVisible() ? caption->height() : 0)).y();
        const int bottom = w.centralWidget()->mapTo(&w, QPoint(0, w.centralWidget()->height())).y();
        QVERIFY2(
            2 * w.currentView()->height() >= bottom - top,
            qPrintable(QString("view %1 of %2").arg(w.currentView()->height()).arg(bottom - top)));
    }
};

QTEST_MAIN(TestScreenFit)
#include "test_screen_fit.moc"
