// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's centre (main_window.h): the demo's caption, one view per family in a stack
// (family_views.h), the timeline below it, and the race's bounds plot below a handle. The
// arrow keys move the timeline while the focus is anywhere in the centre.
#pragma once

#include <QObject>
#include <map>
#include <string>
#include <vector>

#include "core/options.h"

class QLabel;
class QShortcut;
class QStackedWidget;
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

  private:
    QWidget* buildTop(QWidget* parent);

    WindowContext& ctx_;
    QStackedWidget* viewStack_ = nullptr;
    QLabel* emptyView_ = nullptr;
    std::map<std::string, widgets::FamilyView*> views_;
    std::vector<QShortcut*> arrowKeys_;
};

}  // namespace cplab
