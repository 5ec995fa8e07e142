// SPDX-License-Identifier: GPL-3.0-or-later
#include "linear_view.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "holdout_controls.h"
#include "linear/linear_svm_snapshot.h"
#include "linear_model_plot.h"

namespace cplab::widgets {

LinearView::LinearView(QWidget* parent)
    : FamilyView(parent), plot_(new LinearModelPlot(this)), splitControls_(new HoldoutControls) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
}

bool LinearView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const LinearSvmSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    plot_->setSnapshot(std::move(snapshot));
    plot_->setTrace(frame.records, frame.columns, frame.runId);
    plot_->setRace(frame.race, frame.runId);
    return true;
}

void LinearView::clear() {
    plot_->clear();
}

QCustomPlot* LinearView::plot() const {
    return plot_->plot();
}

QString LinearView::statusText(const ViewFrame& frame) const {
    // The bounds are in the λ-form; the C-form objective P = U/λ is what libocas and LIBLINEAR
    // report.
    const auto* linear = dynamic_cast<const LinearSvmSnapshot*>(frame.snapshot.get());
    if (!linear || !(linear->lambda > 0) || !std::isfinite(linear->record.upper)) return {};
    return tr("C-form U/lambda %1 (lambda %2)")
        .arg(linear->record.upper / linear->lambda, 0, 'g', 8)
        .arg(linear->lambda, 0, 'g', 6);
}

OptionValues LinearView::problemOptions() const {
    return splitControls_->problemOptions();
}

bool LinearView::setTestSplit(double testFraction, int seed) {
    splitControls_->setSplit(testFraction, seed);
    return true;
}

LinearView::~LinearView() {
    if (splitControls_ && !splitControls_->parent()) delete splitControls_;
}

FamilyView* linearView(QWidget* parent) {
    return new LinearView(parent);
}

}  // namespace cplab::widgets
