// SPDX-License-Identifier: GPL-3.0-or-later
#include "holdout_controls.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "data/test_split.h"

namespace cplab::widgets {

HoldoutControls::HoldoutControls(QWidget* parent)
    : QWidget(parent), testFraction_(new QDoubleSpinBox(this)), splitSeed_(new QSpinBox(this)) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    testFraction_->setObjectName("testFraction");
    testFraction_->setRange(0.0, 0.9);
    testFraction_->setSingleStep(0.05);
    testFraction_->setDecimals(2);
    testFraction_->setToolTip(tr("Fraction of a dataset held out as test set (0: none)"));
    splitSeed_->setObjectName("splitSeed");
    splitSeed_->setRange(0, 1000000);
    splitSeed_->setValue(1);
    splitSeed_->setToolTip(tr("Seed of the held-out split"));
    row->addWidget(new QLabel(tr("test fraction"), this));
    row->addWidget(testFraction_);
    row->addWidget(new QLabel(tr("seed"), this));
    row->addWidget(splitSeed_);
}

OptionValues HoldoutControls::problemOptions() const {
    TestSplit split;
    split.fraction = testFraction_->value();
    split.seed = splitSeed_->value();
    return split.toOptions();
}

void HoldoutControls::setSplit(double testFraction, int seed) {
    testFraction_->setValue(testFraction);
    splitSeed_->setValue(seed);
}

}  // namespace cplab::widgets
