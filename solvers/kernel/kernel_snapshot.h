// SPDX-License-Identifier: GPL-3.0-or-later
// What the kernel family's view draws (kernel_view.h): the snapshot of an SVM or MKL run —
// α, β, the decision function on a grid, the cutting-plane model of D(β) — and the setup of
// its SVM solves, which the D(β) grid evaluation reuses.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "core/snapshot.h"
#include "data/dataset.h"
#include "kernel_model.h"
#include "kernel_spec.h"

namespace cplab {

// What the parameters of one SVM solve are, so that a view can solve more SVMs on its own
// thread (D(β) on a grid) without touching the run's cache.
struct KernelSetup {
    std::shared_ptr<const Dataset> train;  // labels already ±1
    std::vector<KernelSpec> specs;
    KernelNormalization normalization = KernelNormalization::None;
    double C = 1.0;
    double tolerance = 1e-3;
    double cacheMb = 256.0;
};

struct KernelSnapshot final : Snapshot {
    std::shared_ptr<const KernelSetup> setup;  // shared by the run's snapshots
    std::vector<std::string> kernelLabels;     // K names, as KernelSpec::label()
    Eigen::VectorXd beta;                      // current weights (K)
    Eigen::VectorXd alpha;                     // current α (m): 0 < α < C free, α = C bound
    double bias = 0.0;
    std::shared_ptr<const KernelClassifier> classifier;  // f of the current iterate
    DecisionGrid grid;  // f on a grid for 2-D training data (empty otherwise), worker-side
    double trainError = 0.0;
    double testError = -1.0;  // −1 without a test set

    // The cutting-plane model of D over the simplex (SILP; SimpleMKL's points too): plane i
    // is β ↦ Σₖ βₖ planes[i][k], taken at betaIterates[i] where D = dValues[i].
    std::vector<Eigen::VectorXd> planes;
    std::vector<Eigen::VectorXd> betaIterates;
    std::vector<double> dValues;
    Eigen::VectorXd lpMinimiser;  // SILP's master-LP β (empty otherwise)
    double theta = 0.0;           // SILP's θ_t

    std::size_t bytes() const override;
};

}  // namespace cplab
