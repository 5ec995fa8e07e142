// SPDX-License-Identifier: GPL-3.0-or-later
#include "nonsmooth_view.h"

#include <QVBoxLayout>

#include "cutting_plane_plot.h"

namespace cplab::widgets {

NonsmoothView::NonsmoothView(QWidget* parent)
    : FamilyView(parent), plot_(new CuttingPlanePlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
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
