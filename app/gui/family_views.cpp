// SPDX-License-Identifier: GPL-3.0-or-later
#include "family_views.h"

#include "family_view.h"
#include "kernel_view.h"
#include "run_controller.h"

namespace cplab::widgets {

#define CPLAB_FAMILY(name) FamilyView* name##View(QWidget* parent);
#include "families/family_list.h"
#undef CPLAB_FAMILY

std::vector<std::pair<std::string, FamilyView*>> createFamilyViews(QWidget* parent,
                                                                   RunController* controller) {
    std::vector<std::pair<std::string, FamilyView*>> views = {
#define CPLAB_FAMILY(name) {#name, name##View(parent)},
#include "families/family_list.h"
#undef CPLAB_FAMILY
    };
    for (const auto& [family, view] : views) {
        if (auto* kernel = qobject_cast<KernelView*>(view))
            connectObjectiveGrid(kernel, controller);
    }
    return views;
}

void connectObjectiveGrid(KernelView* view, RunController* controller) {
    QObject::connect(view, &KernelView::objectiveGridRequested, controller,
                     &RunController::evaluateObjectiveGrid);
    QObject::connect(view, &KernelView::objectiveGridCancelRequested, controller,
                     &RunController::cancelObjectiveGrid);
    QObject::connect(controller, &RunController::objectiveGridProgress, view,
                     &KernelView::setObjectiveGridProgress);
    QObject::connect(controller, &RunController::objectiveGridFinished, view,
                     &KernelView::finishObjectiveGrid);
}

}  // namespace cplab::widgets
