#include "linear_view.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "bmrm/linear_svm.h"
#include "linear_model_plot.h"

namespace cplab::widgets {

LinearView::LinearView(QWidget* parent)
    : FamilyView(parent), plot_(new LinearModelPlot(this)), splitControls_(new QWidget) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    // Test split: a held-out fraction (0: none) with its seed, applied when a dataset is loaded
    // (a test file can be given through File > Open data file). The main window places the
    // controls in its problem panel and owns them from then on.
    auto* row = new QHBoxLayout(splitControls_);
    row->setContentsMargins(0, 0, 0, 0);
    testFraction_ = new QDoubleSpinBox(splitControls_);
    testFraction_->setObjectName("testFraction");
    testFraction_->setRange(0.0, 0.9);
    testFraction_->setSingleStep(0.05);
    testFraction_->setDecimals(2);
    testFraction_->setToolTip(tr("Fraction of a dataset held out as test set (0: none)"));
    splitSeed_ = new QSpinBox(splitControls_);
    splitSeed_->setObjectName("splitSeed");
    splitSeed_->setRange(0, 1000000);
    splitSeed_->setValue(1);
    splitSeed_->setToolTip(tr("Seed of the held-out split"));
    row->addWidget(new QLabel(tr("test fraction"), splitControls_));
    row->addWidget(testFraction_);
    row->addWidget(new QLabel(tr("seed"), splitControls_));
    row->addWidget(splitSeed_);
}

bool LinearView::showFrame(const ViewFrame& frame) {
    auto snapshot = std::dynamic_pointer_cast<const LinearSvmSnapshot>(frame.snapshot);
    if (!snapshot) return false;
    plot_->setSnapshot(std::move(snapshot));
    plot_->setTrace(frame.records, frame.columns, frame.runId);
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
    if (testFraction_->value() <= 0) return {};
    return {{"test_fraction", QString::number(testFraction_->value()).toStdString()},
            {"seed", std::to_string(splitSeed_->value())}};
}

FamilyView* linearView(QWidget* parent) {
    return new LinearView(parent);
}

}  // namespace cplab::widgets
