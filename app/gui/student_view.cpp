// SPDX-License-Identifier: GPL-3.0-or-later
#include "student_view.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QScreen>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "centre_area.h"
#include "family_view.h"
#include "log_panel.h"
#include "presentation.h"
#include "timeline_bar.h"
#include "window_context.h"

namespace cplab {

namespace {

// A control of the window by its name, with its widget (a tab: its tab widget and title).
struct FoundControl {
    ViewControl control;
    QWidget* widget = nullptr;
    QTabWidget* tabs = nullptr;
};

QString plainTitle(QString text) {
    text.remove('&');
    // "Runs (at the timeline's position)" is the group "Runs".
    const qsizetype paren = text.indexOf(" (");
    return paren > 0 ? text.left(paren) : text;
}

// The outermost tab widgets of a family view (its pages; a view may stack several, as the
// kernel view's SVM and MKL-path pages).
QList<QTabWidget*> pagesOfView(QWidget* view) {
    QList<QTabWidget*> pages;
    if (!view) return pages;
    for (QTabWidget* tabs : view->findChildren<QTabWidget*>()) {
        bool outermost = true;
        for (QWidget* p = tabs->parentWidget(); p && p != view; p = p->parentWidget())
            outermost = outermost && !qobject_cast<QTabWidget*>(p);
        if (outermost) pages << tabs;
    }
    return pages;
}

std::vector<FoundControl> panelsOf(const WindowContext& ctx) {
    const QString kind = QObject::tr("Panels");
    std::vector<FoundControl> found;
    for (QDockWidget* dock : ctx.window->findChildren<QDockWidget*>())
        found.push_back({{"panel:" + dock->objectName(), kind, dock->windowTitle()}, dock});
    for (QToolBar* bar : ctx.window->findChildren<QToolBar*>())
        found.push_back({{"panel:" + bar->objectName(), kind, bar->windowTitle()}, bar});
    const std::pair<const char*, QWidget*> centre[] = {
        {"caption", ctx.caption}, {"timeline", ctx.timeline}, {"bounds", ctx.boundsPlot}};
    const QString titles[] = {QObject::tr("Caption (the demo's story)"), QObject::tr("Timeline"),
                              QObject::tr("Bounds of the race")};
    for (std::size_t k = 0; k < std::size(centre); ++k)
        if (centre[k].second)
            found.push_back(
                {{QString("panel:") + centre[k].first, kind, titles[k]}, centre[k].second});
    return found;
}

// The tabs of `family`'s view; `shownOnly`: of its pages shown now.
std::vector<FoundControl> tabsOf(const WindowContext& ctx, const std::string& family,
                                 bool shownOnly) {
    std::vector<FoundControl> found;
    QWidget* view = ctx.centre ? ctx.centre->view(family) : nullptr;
    for (QTabWidget* tabs : pagesOfView(view)) {
        if (shownOnly && !tabs->isVisibleTo(view)) continue;
        for (int k = 0; k < tabs->count(); ++k) {
            const QString title = tabs->tabText(k).remove('&');
            found.push_back({{QString("tab:%1/%2").arg(QString::fromStdString(family), title),
                              QObject::tr("Tabs"), title},
                             nullptr,
                             tabs});
        }
    }
    return found;
}

std::vector<FoundControl> buttonsAndGroupsOf(const WindowContext& ctx) {
    std::vector<FoundControl> found;
    // The run controls' buttons and the set-up panel's (not the family views' own).
    QList<QAbstractButton*> buttons;
    for (const char* holder : {"runControls", "problemDock"})
        if (QWidget* parent = ctx.window->findChild<QWidget*>(holder))
            buttons += parent->findChildren<QAbstractButton*>();
    for (QAbstractButton* button : buttons) {
        const QString name = button->objectName();
        if (!name.endsWith("Button") && name != "advancedToggle") continue;
        if (std::any_of(found.begin(), found.end(),
                        [&](const FoundControl& f) { return f.widget == button; }))
            continue;
        QString title = plainTitle(button->text());
        if (title.isEmpty()) title = button->toolTip();
        if (title.isEmpty()) title = name;
        found.push_back({{"button:" + name, QObject::tr("Buttons"), title}, button});
    }
    if (QWidget* dock = ctx.window->findChild<QDockWidget*>("problemDock")) {
        for (QGroupBox* box : dock->findChildren<QGroupBox*>()) {
            const QString title = plainTitle(box->title());
            found.push_back({{"group:" + title, QObject::tr("Option groups"), title}, box});
        }
        // Each family that takes a typed function has its own box (nonsmooth, polytope): one
        // control hides them all.
        for (QWidget* typed : dock->findChildren<QWidget*>("typedFunctionBox"))
            found.push_back({{"group:Typed function", QObject::tr("Option groups"),
                              QObject::tr("Typed function")},
                             typed});
    }
    return found;
}

// The family of the shown view ("nonsmoothView" shows the family "nonsmooth"), or empty.
std::string shownFamily(const WindowContext& ctx) {
    if (!ctx.centre) return {};
    for (const auto& [family, view] : ctx.centre->views())
        if (view == ctx.centre->current()) return family;
    return {};
}

// The QAction that shows or hides a dock or tool bar from the View menu, or null.
QAction* toggleOf(QWidget* widget) {
    if (auto* dock = qobject_cast<QDockWidget*>(widget)) return dock->toggleViewAction();
    if (auto* bar = qobject_cast<QToolBar*>(widget)) return bar->toggleViewAction();
    return nullptr;
}

// A widget in a tool bar shows and hides by its action (the tool bar's layout shows the
// widget of a visible action again); any other by itself.
QAction* toolBarActionOf(QWidget* widget) {
    auto* bar = qobject_cast<QToolBar*>(widget->parentWidget());
    if (!bar) return nullptr;
    for (QAction* action : bar->actions())
        if (bar->widgetForAction(action) == widget) return action;
    return nullptr;
}

void setShown(QWidget* widget, bool shown) {
    if (QAction* action = toolBarActionOf(widget)) {
        if (action->isVisible() != shown) action->setVisible(shown);
    } else if (widget->isHidden() == shown) {
        widget->setVisible(shown);
    }
}

}  // namespace

StudentView::StudentView(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {}

std::vector<ViewControl> StudentView::controls() const {
    std::vector<ViewControl> all;
    for (const FoundControl& f : panelsOf(ctx_))
        all.push_back(f.control);
    for (const FoundControl& f : tabsOf(ctx_, shownFamily(ctx_), true))
        all.push_back(f.control);
    for (const FoundControl& f : buttonsAndGroupsOf(ctx_))
        all.push_back(f.control);
    // One entry per name (two buttons of one name are one control).
    std::vector<ViewControl> unique;
    for (ViewControl& c : all)
        if (std::none_of(unique.begin(), unique.end(),
                         [&](const ViewControl& u) { return u.name == c.name; }))
            unique.push_back(std::move(c));
    return unique;
}

void StudentView::setHidden(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (names.size() > static_cast<std::size_t>(kMaxHiddenControls))
        names.resize(kMaxHiddenControls);
    showAgain();
    hidden_ = std::move(names);
    missingSaid_.clear();
    resolved_ = false;
    enforce();
    emit changed();
}

// What this view hid shows again (a dock or tool bar with its View menu entry).
void StudentView::showAgain() {
    for (const QPointer<QWidget>& widget : widgets_) {
        if (!widget) continue;
        if (QAction* toggle = toggleOf(widget)) toggle->setEnabled(true);
        // While presenting the docks and tool bars stay hidden (presentation.h restores them).
        const bool presentingHides =
            toggleOf(widget) && ctx_.presentation && ctx_.presentation->presenting();
        if (!presentingHides) setShown(widget, true);
    }
    for (const auto& [tabs, title] : tabs_) {
        for (int k = 0; tabs && k < tabs->count(); ++k)
            if (tabs->tabText(k).remove('&') == title) tabs->setTabVisible(k, true);
    }
    widgets_.clear();
    tabs_.clear();
}

void StudentView::resolve() {
    widgets_.clear();
    tabs_.clear();
    std::vector<FoundControl> all = panelsOf(ctx_);
    for (FoundControl& f : buttonsAndGroupsOf(ctx_))
        all.push_back(std::move(f));
    for (const auto& [family, view] :
         ctx_.centre ? ctx_.centre->views() : std::map<std::string, widgets::FamilyView*>{})
        for (FoundControl& f : tabsOf(ctx_, family, false))
            all.push_back(std::move(f));
    QStringList missing;
    for (const std::string& name : hidden_) {
        const QString wanted = QString::fromStdString(name);
        bool any = false;
        for (const FoundControl& f : all) {
            if (f.control.name != wanted) continue;
            any = true;
            if (f.tabs)
                tabs_.emplace_back(f.tabs, f.control.title);
            else
                widgets_.emplace_back(f.widget);
        }
        if (!any &&
            std::find(missingSaid_.begin(), missingSaid_.end(), name) == missingSaid_.end()) {
            missingSaid_.push_back(name);
            missing << wanted.left(60);
        }
    }
    if (!missing.isEmpty() && ctx_.log)
        ctx_.log->appendMessage(tr("student view: no control %1 in this window; kept for the "
                                   "session, nothing hidden for it")
                                    .arg(missing.join(", ")));
    resolvedFor_ = ctx_.centre ? ctx_.centre->current() : nullptr;
    resolved_ = true;
}

void StudentView::enforce() {
    if (hidden_.empty()) return;
    const void* shown = ctx_.centre ? ctx_.centre->current() : nullptr;
    if (!resolved_ || resolvedFor_ != shown) resolve();
    for (const QPointer<QWidget>& widget : widgets_) {
        if (!widget) continue;
        if (QAction* toggle = toggleOf(widget)) toggle->setEnabled(false);
        setShown(widget, false);
    }
    for (const auto& [tabs, title] : tabs_) {
        for (int k = 0; tabs && k < tabs->count(); ++k)
            if (tabs->isTabVisible(k) && tabs->tabText(k).remove('&') == title)
                tabs->setTabVisible(k, false);
    }
}

bool StudentView::chooseDialog() {
    QDialog dialog(ctx_.window);
    dialog.setObjectName("studentViewDialog");
    dialog.setFont(ctx_.window->font());  // the window's scale (a 4K screen, presenting)
    dialog.setWindowTitle(tr("Student view"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro = new QLabel(tr("Ticked controls show; the others are hidden, also while "
                                "presenting. The session saves the choice."),
                             &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* list = new QTreeWidget(&dialog);
    list->setObjectName("studentViewList");
    list->setHeaderHidden(true);
    std::map<QString, QTreeWidgetItem*> groups;
    for (const ViewControl& c : controls()) {
        QTreeWidgetItem*& group = groups[c.group];
        if (!group) {
            group = new QTreeWidgetItem(list, {c.group});
            group->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
            group->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(group, {c.title});
        item->setData(0, Qt::UserRole, c.name);
        item->setToolTip(0, c.name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const bool hidden =
            std::find(hidden_.begin(), hidden_.end(), c.name.toStdString()) != hidden_.end();
        item->setCheckState(0, hidden ? Qt::Unchecked : Qt::Checked);
    }
    layout->addWidget(list, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QPushButton* all = buttons->addButton(tr("Show everything"), QDialogButtonBox::ResetRole);
    connect(all, &QPushButton::clicked, &dialog, [list] {
        for (int k = 0; k < list->topLevelItemCount(); ++k)
            list->topLevelItem(k)->setCheckState(0, Qt::Checked);
    });
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    const QFontMetrics metrics = dialog.fontMetrics();
    QSize size = dialog.sizeHint().expandedTo(
        QSize(metrics.averageCharWidth() * 60, metrics.lineSpacing() * 32));
    if (const QScreen* screen = ctx_.window->screen())
        size = size.boundedTo(screen->availableGeometry().size() * 9 / 10);
    dialog.resize(size);
    if (dialog.exec() != QDialog::Accepted) return false;
    // Names the list does not show (another family's tabs) are kept.
    std::vector<std::string> names;
    std::vector<std::string> listed;
    for (QTreeWidgetItemIterator it(list); *it; ++it) {
        const QString name = (*it)->data(0, Qt::UserRole).toString();
        if (name.isEmpty()) continue;
        listed.push_back(name.toStdString());
        if ((*it)->checkState(0) == Qt::Unchecked) names.push_back(name.toStdString());
    }
    for (const std::string& name : hidden_)
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) names.push_back(name);
    setHidden(std::move(names));
    return true;
}

}  // namespace cplab
