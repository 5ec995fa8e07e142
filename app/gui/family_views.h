// SPDX-License-Identifier: GPL-3.0-or-later
// One view per registered family (families/family_list.h), each created by its
// widgets::<family>View(parent) from widgets/<family>_view.{h,cpp}, and wired to the run
// controller for the work it asks for (the kernel view's D(β) on a grid).
#pragma once

#include <string>
#include <utility>
#include <vector>

class QWidget;

namespace cplab {
class RunController;
}

namespace cplab::widgets {

class FamilyView;
class KernelView;

// `controller` null: the views are not wired (their requests go unanswered).
std::vector<std::pair<std::string, FamilyView*>> createFamilyViews(
    QWidget* parent, RunController* controller = nullptr);
// The kernel view's requests for D(β) on a grid go to `controller`, its reports come back.
void connectObjectiveGrid(KernelView* view, RunController* controller);

}  // namespace cplab::widgets
