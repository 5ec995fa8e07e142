// SPDX-License-Identifier: GPL-3.0-or-later
#include "polytope_view.h"

#include <QVBoxLayout>

#include "polytope_plot.h"

namespace cplab::widgets {

PolytopeView::PolytopeView(QWidget* parent) : FamilyView(parent), plot_(new PolytopePlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
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
