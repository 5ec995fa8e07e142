// SPDX-License-Identifier: GPL-3.0-or-later
// What the sparse family's view draws (sparse_view.h): the snapshot of a sparse kernel
// machine — its expansion vectors, their trail, and the decision function on a grid.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "core/snapshot.h"
#include "data/dataset.h"
#include "kernel/kernel_model.h"

namespace cplab {

struct SparseSnapshot final : Snapshot {
    std::shared_ptr<const Dataset> train;  // ±1 labels; shared by the run's snapshots
    std::string kernelLabel;
    Eigen::MatrixXd xvs;   // current Z, N_z × d (row u = z_u)
    Eigen::VectorXd beta;  // expansion coefficients (N_z)
    double bias = 0.0;
    double objective = 0.0;     // the record's upper bound (W(Z) for SLMC)
    double gradientNorm = 0.0;  // ‖∇W(Z)‖ (SLMC; 0 for the solvers that do not move Z)
    // Z at earlier iterations, oldest first, with their iteration numbers (bounded by the
    // solver, see slmc.h); the newest entry is the current Z. One entry when Z never moves.
    std::vector<Eigen::MatrixXd> trail;
    std::vector<int> trailIterations;
    std::vector<int> fullSupportVectors;  // training indices of the full SVM's SVs (if solved)
    std::shared_ptr<const KernelClassifier> classifier;  // f of the current Z, β, b
    DecisionGrid grid;  // f on a grid for 2-D training data (empty otherwise), worker-side
    double trainError = 0.0;
    double testError = -1.0;  // −1 without a test set

    std::size_t bytes() const override;
};

}  // namespace cplab
