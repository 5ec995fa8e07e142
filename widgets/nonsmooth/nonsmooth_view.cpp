// SPDX-License-Identifier: GPL-3.0-or-later
#include "nonsmooth_view.h"

#include <QVBoxLayout>

#include "cutting_plane_plot.h"
#include "typed_problem_controls.h"

namespace cplab::widgets {

NonsmoothView::NonsmoothView(QWidget* parent)
    : FamilyView(parent), plot_(new CuttingPlanePlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    typed_ = new TypedProblemControls(
        "typed",
        {{"function", tr("f ="),
          tr("f of x (and y): numbers, + - * / ^, abs, sqrt, exp, log, max, min, pi, e")},
         {"domain", tr("domain"), tr("the box: lo:hi for x, or lo:hi,lo:hi for x and y")}},
        this);
    typed_->setVisible(false);
}

QWidget* NonsmoothView::problemControls() {
    return typed_;
}

OptionValues NonsmoothView::problemOptions() const {
    return typed_ ? typed_->problemOptions() : OptionValues{};
}

bool NonsmoothView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    plot_->setSnapshot(std::move(snapshot), frame.race, frame.runId);
    return true;
}

void NonsmoothView::clear() {
    plot_->clear();
}

QCustomPlot* NonsmoothView::plot() const {
    return plot_->plot();
}

FamilyView* nonsmoothView(QWidget* parent) {
    return new NonsmoothView(parent);
}

}  // namespace cplab::widgets
