// SPDX-License-Identifier: GPL-3.0-or-later
#include "family_views.h"

#include "family_view.h"
#include "kernel_view.h"
#include "objective_grid_job.h"
#include "registry.h"
#include "run_controller.h"
#include "typed_problem_controls.h"

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
        if (auto* typed = qobject_cast<TypedProblemControls*>(view->problemControls()))
            fillTypedDefaults(typed, family);
    }
    return views;
}

void fillTypedDefaults(TypedProblemControls* controls, const std::string& family) {
    const Family* f = findFamily(family);
    if (!f) return;
    OptionValues defaults;
    for (const auto& o : f->problemOptions())
        defaults[o.name] = o.defaultValue;
    controls->setDefaults(defaults);
}

void connectObjectiveGrid(KernelView* view, RunController* controller) {
    if (!controller) return;  // not wired: the requests go unanswered
    ObjectiveGridJobs* jobs = controller->objectiveGrids();
    QObject::connect(view, &KernelView::objectiveGridRequested, jobs, &ObjectiveGridJobs::evaluate);
    QObject::connect(view, &KernelView::objectiveGridCancelRequested, jobs,
                     &ObjectiveGridJobs::cancel);
    QObject::connect(jobs, &ObjectiveGridJobs::progress, view,
                     &KernelView::setObjectiveGridProgress);
    QObject::connect(jobs, &ObjectiveGridJobs::finished, view, &KernelView::finishObjectiveGrid);
}

}  // namespace cplab::widgets
