// SPDX-License-Identifier: GPL-3.0-or-later
// What the linear family's views draw (linear_view.h, linear_model_plot.h): the snapshot of a
// linear SVM run.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "core/snapshot.h"
#include "data/dataset.h"

namespace cplab {

// What the linear-model views draw: the current weight vectors (for 2-D data the separating
// lines), counts of planes, errors, and the line-search slice of OCAS.
struct LinearSvmSnapshot final : Snapshot {
    std::shared_ptr<const Dataset> train;  // for 2-D scatter plots
    bool bias = false;
    int outputs = 1;  // K
    double lambda = 0.0;
    Eigen::VectorXd wBest;    // w^b: the best point, F(w^b) = U
    Eigen::VectorXd wModel;   // w_t: the reduced problem's minimiser (empty if none)
    Eigen::VectorXd wCut;     // w^c: where the last plane was taken (empty if none)
    int planes = 0;           // stored planes (cutting-plane methods), else 0
    int activePlanes = 0;     // planes with α > 0
    double trainError = 0.0;  // of w^b
    double testError = -1.0;  // of w^b; −1 without a test set

    // OCAS's line search of the last step: f(k) sampled at ks, its breakpoints (possibly a
    // capped sample), and the chosen k_t. Empty ks when the step had no line search.
    std::vector<double> ks, fks, breakpoints;
    double kChosen = 0.0;
    double fAtChosen = 0.0;

    std::size_t bytes() const override {
        return Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot) +
               sizeof(double) *
                   static_cast<std::size_t>(wBest.size() + wModel.size() + wCut.size()) +
               sizeof(double) * (ks.capacity() + fks.capacity() + breakpoints.capacity());
    }
};

}  // namespace cplab
