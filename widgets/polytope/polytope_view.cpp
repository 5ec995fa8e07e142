// SPDX-License-Identifier: GPL-3.0-or-later
#include "polytope_view.h"

#include <QVBoxLayout>

#include "polytope_plot.h"
#include "typed_problem_controls.h"

namespace cplab::widgets {

PolytopeView::PolytopeView(QWidget* parent) : FamilyView(parent), plot_(new PolytopePlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    typed_ = new TypedProblemControls(
        "typed_polygon",
        {{"function", tr("f ="),
          tr("a smooth convex f of x and y: numbers, + - * / ^, sqrt, exp, log, pi, e "
             "(abs, max, min only away from their kinks)")},
         {"polygon", tr("polygon"),
          tr("the convex polygon's vertices x,y separated by blanks, e.g. 0,0 4,0 3,3 "
             "0,2; Frank-Wolfe starts at the first")}},
        this);
    typed_->setVisible(false);
}

QWidget* PolytopeView::problemControls() {
    return typed_;
}

OptionValues PolytopeView::problemOptions() const {
    return typed_ ? typed_->problemOptions() : OptionValues{};
}

bool PolytopeView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    plot_->setSnapshot(std::move(snapshot), frame.race, frame.runId);
    return true;
}

void PolytopeView::clear() {
    plot_->clear();
}

QCustomPlot* PolytopeView::plot() const {
    return plot_->plot();
}

FamilyView* polytopeView(QWidget* parent) {
    return new PolytopeView(parent);
}

}  // namespace cplab::widgets
