// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's centre (main_window.h): the demo's caption, one view per family in a stack
// (family_views.h), the timeline below it, and the race's bounds plot below a handle. The
// arrow keys move the timeline while the focus is anywhere in the centre.
#pragma once

#include <QList>
#include <QObject>
#include <map>
#include <string>
#include <vector>

#include "core/options.h"

class QLabel;
class QShortcut;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QVBoxLayout;
class QWidget;

namespace cplab {

struct WindowContext;

namespace widgets {
class FamilyView;
}

class CentreArea : public QObject {
    Q_OBJECT
  public:
    // Builds the centre into ctx.window (its central widget) and fills ctx's caption,
    // timeline and bounds plot.
    explicit CentreArea(WindowContext& ctx);

    // The view of `family` (every registered family has one), and the one shown.
    widgets::FamilyView* view(const std::string& family) const;
    widgets::FamilyView* current() const;
    const std::map<std::string, widgets::FamilyView*>& views() const { return views_; }
    // Shows the view of `family`, or the hint to choose a problem (no such view).
    void showFamily(const std::string& family);
    void clearViews();
    // The problem controls of `family`'s view as typed (empty: no such view).
    OptionValues problemOptions(const std::string& family) const;
    // Each family's problem controls into `layout` of `parent`, hidden until its problem.
    void addProblemControls(QWidget* parent, QVBoxLayout* layout);
    void showProblemControls(const std::string& family);
    // The held-out split for every family that reads datasets, as if typed in.
    void setTestSplit(double testFraction, int seed);
    // ← → within the centre (off while presenting: the window-wide keys take over).
    void setArrowKeysEnabled(bool on);
    // Presenting: the model view takes two thirds of the column below the caption, the
    // bounds the rest; back in the window, the column as it was.
    void setPresenting(bool on);
    // The tab widget of the shown view's pages (the outermost), or null.
    QTabWidget* pages() const;
    // The next (+1) or previous (−1) page of the shown view, round (Ctrl+Tab, Ctrl+PageDown).
    void turnPage(int direction);
    // Shows the page of the shown view that `text` names as "<title> tab" ("Gap and errors
    // tab: every run's gap", case aside); false if it names none.
    bool showPageNamedIn(const QString& text);

  private:
    QWidget* buildTop(QWidget* parent);
    void addPageKeys(QWidget* centre);

    WindowContext& ctx_;
    QSplitter* splitter_ = nullptr;
    QList<int> normalSizes_;  // the column's split before presenting
    bool presenting_ = false;
    bool splitByUser_ = false;  // the handle was dragged: the window keeps the user's split

    // A short column (150 % fonts on a 1280x720 screen: about 420 logical pixels) gives the
    // model view 72 % instead of 60 %, until the user drags the handle.
    bool eventFilter(QObject* watched, QEvent* event) override;
    void splitColumn();
    QStackedWidget* viewStack_ = nullptr;
    QLabel* emptyView_ = nullptr;
    std::map<std::string, widgets::FamilyView*> views_;
    std::vector<QShortcut*> arrowKeys_;
};

}  // namespace cplab
