// SPDX-License-Identifier: GPL-3.0-or-later
// One view per registered family (families/family_list.h), each created by its
// widgets::<family>View(parent) from widgets/<family>_view.{h,cpp}.
#pragma once

#include <string>
#include <utility>
#include <vector>

class QWidget;

namespace cplab::widgets {

class FamilyView;

std::vector<std::pair<std::string, FamilyView*>> createFamilyViews(QWidget* parent);

}  // namespace cplab::widgets
