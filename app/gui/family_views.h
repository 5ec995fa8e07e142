// SPDX-License-Identifier: GPL-3.0-or-later
// One view per registered family (families/family_list.h), each created by its
// widgets::<family>View(parent) from widgets/<family>_view.{h,cpp}, and wired to the run
// controller for the work it asks for (the kernel view's D(β) on a grid) and to the registry
// for the defaults of its problem controls (a typed function's fields).
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
class TypedProblemControls;

// `controller` null: the views are not wired (their requests go unanswered).
std::vector<std::pair<std::string, FamilyView*>> createFamilyViews(
    QWidget* parent, RunController* controller = nullptr);
// A view's typed problem fields (its family's "typed" problem) start with the family's
// defaults of those problem options (the registry's, not the view's own copy).
void fillTypedDefaults(TypedProblemControls* controls, const std::string& family);
// The kernel view's requests for D(β) on a grid go to `controller`, its reports come back.
void connectObjectiveGrid(KernelView* view, RunController* controller);

}  // namespace cplab::widgets
