// SPDX-License-Identifier: GPL-3.0-or-later
#include "family_views.h"

#include "family_view.h"

namespace cplab::widgets {

#define CPLAB_FAMILY(name) FamilyView* name##View(QWidget* parent);
#include "families/family_list.h"
#undef CPLAB_FAMILY

std::vector<std::pair<std::string, FamilyView*>> createFamilyViews(QWidget* parent) {
    return {
#define CPLAB_FAMILY(name) {#name, name##View(parent)},
#include "families/family_list.h"
#undef CPLAB_FAMILY
    };
}

}  // namespace cplab::widgets
