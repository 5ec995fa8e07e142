// SPDX-License-Identifier: GPL-3.0-or-later
#include "centre_area.h"

#include <QLabel>
#include <QMainWindow>
#include <QResizeEvent>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "family_view.h"
#include "family_views.h"
#include "timeline_bar.h"
#include "window_context.h"

namespace cplab {

namespace {

// The views and the bounds may shrink to this on a small screen (1280×720 with 150 % fonts
// leaves 853×480 logical pixels for the whole window): a plot's own minimum, set for a
// roomier window, would push the window's bottom off the screen.
constexpr int kSmallestPlotWidth = 240;
constexpr int kSmallestPlotHeight = 110;

void letShrink(QWidget* root) {
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const QSize least = w->minimumSize();
        const QSize capped = least.boundedTo(QSize(kSmallestPlotWidth, kSmallestPlotHeight));
        if (capped != least) w->setMinimumSize(capped);
    }
}

}  // namespace

CentreArea::CentreArea(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {
    auto* splitter = new QSplitter(Qt::Vertical, ctx.window);
    splitter_ = splitter;
    QWidget* top = buildTop(splitter);
    ctx.boundsPlot = new widgets::BoundsPlot(splitter);
    splitter->addWidget(top);
    splitter->addWidget(ctx.boundsPlot);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // The race view gets two fifths of the column (at least a third), whatever the window; a
    // short column gives it less (eventFilter).
    splitter->setSizes({600, 400});
    splitter->installEventFilter(this);
    connect(splitter, &QSplitter::splitterMoved, this, [this] { splitByUser_ = true; });
    splitter->setChildrenCollapsible(false);
    letShrink(splitter);
    // A handle one can see and grab between the model view and the bounds.
    splitter->setObjectName("centreSplitter");
    splitter->setHandleWidth(7);
    // Shaded by the palette, not a style sheet: one on the splitter would stop the window's
    // font, and so the presentation scale, from reaching the views.
    QPalette handle = splitter->palette();
    handle.setColor(QPalette::Window, handle.color(QPalette::Mid));
    splitter->handle(1)->setPalette(handle);
    splitter->handle(1)->setAutoFillBackground(true);
    ctx.window->setCentralWidget(splitter);
    // ← and → step through history wherever the focus is in the centre (not in the forms).
    auto* back = new QShortcut(QKeySequence(Qt::Key_Left), splitter);
    back->setContext(Qt::WidgetWithChildrenShortcut);
    connect(back, &QShortcut::activated, ctx.timeline, &widgets::TimelineBar::stepBack);
    auto* forward = new QShortcut(QKeySequence(Qt::Key_Right), splitter);
    forward->setContext(Qt::WidgetWithChildrenShortcut);
    connect(forward, &QShortcut::activated, ctx.timeline, &widgets::TimelineBar::stepForward);
    arrowKeys_ = {back, forward};
    addPageKeys(splitter);
}

// Ctrl+Tab and Ctrl+PageDown turn to the view's next page, with Shift or PageUp back, from
// anywhere in the window (presenting, the centre has no focus to give to a tab bar).
void CentreArea::addPageKeys(QWidget* centre) {
    const std::pair<QKeySequence, int> keys[] = {
        {QKeySequence(Qt::CTRL | Qt::Key_Tab), 1},
        {QKeySequence(Qt::CTRL | Qt::Key_PageDown), 1},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), -1},
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab), -1},
        {QKeySequence(Qt::CTRL | Qt::Key_PageUp), -1}};
    for (const auto& [key, direction] : keys) {
        auto* shortcut = new QShortcut(key, centre);
        shortcut->setContext(Qt::WindowShortcut);
        connect(shortcut, &QShortcut::activated, this, [this, d = direction] { turnPage(d); });
    }
}

QTabWidget* CentreArea::pages() const {
    QWidget* view = current();
    if (!view) return nullptr;
    // The outermost tab widget on show: a kernel view holds its MKL path's tabs too, hidden
    // unless a path is shown (Ctrl+Tab turned those for the SVM demos).
    QTabWidget* hidden = nullptr;
    for (QTabWidget* tabs : view->findChildren<QTabWidget*>()) {
        bool outermost = true;
        for (QWidget* p = tabs->parentWidget(); p && p != view; p = p->parentWidget())
            outermost = outermost && !qobject_cast<QTabWidget*>(p);
        if (!outermost) continue;
        if (tabs->isVisibleTo(view)) return tabs;
        if (!hidden) hidden = tabs;
    }
    return hidden;
}

void CentreArea::turnPage(int direction) {
    QTabWidget* tabs = pages();
    if (!tabs || tabs->count() < 2) return;
    // Round the shown tabs (a kernel view hides the weights of a single kernel).
    for (int k = 1; k <= tabs->count(); ++k) {
        const int index = ((tabs->currentIndex() + direction * k) % tabs->count() + tabs->count()) %
                          tabs->count();
        if (tabs->isTabVisible(index) && tabs->isTabEnabled(index)) {
            tabs->setCurrentIndex(index);
            return;
        }
    }
}

bool CentreArea::showPageNamedIn(const QString& text) {
    QTabWidget* tabs = pages();
    for (int k = 0; tabs && k < tabs->count(); ++k) {
        const QString title = tabs->tabText(k).remove('&');
        // "<title> tab": a beat that says which tab to look at (not any word of a title, as
        // "compare the bounds" or "the labeling" in a beat about another tab).
        if (!title.isEmpty() && text.contains(title + " tab", Qt::CaseInsensitive) &&
            tabs->isTabVisible(k)) {
            tabs->setCurrentIndex(k);
            return true;
        }
    }
    return false;
}

bool CentreArea::eventFilter(QObject* watched, QEvent* event) {
    if (watched == splitter_ && event->type() == QEvent::Resize && !presenting_ && !splitByUser_)
        QMetaObject::invokeMethod(this, &CentreArea::splitColumn, Qt::QueuedConnection);
    return QObject::eventFilter(watched, event);
}

// Once the splitter has taken its new size (queued): below 560 logical pixels the model view
// squeezed to 130 px under its caption, tabs and timeline while the bounds kept two fifths.
void CentreArea::splitColumn() {
    if (presenting_ || splitByUser_) return;
    const int total = splitter_->height() - splitter_->handleWidth();
    if (total <= 0) return;
    const int top = total < 560 ? total * 72 / 100 : total * 3 / 5;
    splitter_->setSizes({top, total - top});
}

void CentreArea::setPresenting(bool on) {
    presenting_ = on;
    if (on) {
        normalSizes_ = splitter_->sizes();
        const int total = normalSizes_.value(0) + normalSizes_.value(1);
        splitter_->setSizes({total * 7 / 10, total - total * 7 / 10});
    } else if (normalSizes_.size() == 2) {
        splitter_->setSizes(normalSizes_);
    }
}

// Above the handle: the caption, the family's view and the timeline.
QWidget* CentreArea::buildTop(QWidget* parent) {
    auto* top = new QWidget(parent);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    viewStack_ = new QStackedWidget(top);
    emptyView_ = new QLabel(tr("Choose a demo or a problem on the left."), viewStack_);
    emptyView_->setAlignment(Qt::AlignCenter);
    viewStack_->addWidget(emptyView_);
    for (const auto& [family, view] : widgets::createFamilyViews(viewStack_, ctx_.controller)) {
        view->setObjectName(QString::fromStdString(family + "View"));
        viewStack_->addWidget(view);
        views_[family] = view;
    }
    ctx_.timeline = new widgets::TimelineBar(top);
    ctx_.caption = new widgets::CaptionBar(top);
    topLayout->addWidget(ctx_.caption);
    topLayout->addWidget(viewStack_, 1);
    topLayout->addWidget(ctx_.timeline);
    return top;
}

widgets::FamilyView* CentreArea::view(const std::string& family) const {
    const auto it = views_.find(family);
    return it == views_.end() ? nullptr : it->second;
}

widgets::FamilyView* CentreArea::current() const {
    return qobject_cast<widgets::FamilyView*>(viewStack_->currentWidget());
}

void CentreArea::showFamily(const std::string& family) {
    const auto it = views_.find(family);
    viewStack_->setCurrentWidget(it == views_.end() ? static_cast<QWidget*>(emptyView_)
                                                    : it->second);
}

void CentreArea::clearViews() {
    for (const auto& [family, view] : views_)
        view->clear();
}

OptionValues CentreArea::problemOptions(const std::string& family) const {
    const auto it = views_.find(family);
    return it == views_.end() ? OptionValues{} : it->second->problemOptions();
}

void CentreArea::addProblemControls(QWidget* parent, QVBoxLayout* layout) {
    for (const auto& [family, view] : views_) {
        if (QWidget* controls = view->problemControls()) {
            controls->setParent(parent);
            controls->setVisible(false);
            layout->addWidget(controls);
        }
    }
}

void CentreArea::showProblemControls(const std::string& family) {
    for (const auto& [name, view] : views_) {
        if (QWidget* controls = view->problemControls()) controls->setVisible(name == family);
    }
}

void CentreArea::setTestSplit(double testFraction, int seed) {
    for (auto& [name, view] : views_)
        view->setTestSplit(testFraction, seed);
}

void CentreArea::setArrowKeysEnabled(bool on) {
    for (QShortcut* shortcut : arrowKeys_)
        shortcut->setEnabled(on);
}

}  // namespace cplab
