// SPDX-License-Identifier: GPL-3.0-or-later
// What the regularisation-path view draws (mkl_path_view.h): the snapshot of an `mklpath` run,
// its points so far and the model to evaluate their predictors with.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "core/snapshot.h"
#include "data/dataset.h"
#include "math/contours.h"

namespace cplab {

class KernelSet;

// The predictor of one accepted point of the path as the path view draws it, made on the
// solver's thread (MklPathModel::picture): 1-D data f at `n` evenly spaced x over the data's
// range (padded by 5 %); 2-D data f on an n × n grid over the data's box (padded by 5 %,
// values[iy·n + ix]) and, for the logistic loss, its level set f = 0. Without features to
// evaluate f at (a precomputed kernel, other dimensions) `dimension` is 0.
struct MklPathPicture {
    int dimension = 0;
    int n = 0;
    double x0 = 0, y0 = 0, dx = 0, dy = 0;  // point (ix, iy) at (x0 + ix·dx, y0 + iy·dy)
    double x1 = 0, y1 = 0;                  // the far corner of the box (2-D)
    std::vector<double> values;
    ContourLevel zero;  // 2-D classification: f = 0
};

// What a view needs to evaluate the predictor of any accepted point (built once by the
// constructor, immutable, shared by a run's snapshots): the data and the kernels.
struct MklPathModel {
    std::shared_ptr<const Dataset> train;      // the training set as given (raw features)
    std::shared_ptr<const KernelSet> kernels;  // the normalised kernels over the (standardised)
                                               // training set
    bool standardized = false;  // features were standardised: z = (x − mean) ⊙ scale
    Eigen::RowVectorXd featureMean, featureScale;
    bool precomputed = false;  // a precomputed kernel: no features to evaluate f at
    bool classification = false;
    double targetMean = 0.0, targetScale = 1.0;  // squared loss: f in the targets' units
    // The predictor of the point (α, η) at the rows of `points` (raw features, the training
    // set's dimension): f(x) = −Σⱼ ηⱼ Σᵢ αᵢ Kⱼ(xᵢ, x), for the squared loss mapped back to the
    // targets' units (targetMean + targetScale · f); the logistic loss's class is +1 for f > 0
    // (the larger label value). Empty for a precomputed kernel.
    Eigen::VectorXd predict(const Eigen::MatrixXd& points, const Eigen::VectorXd& alpha,
                            const Eigen::VectorXd& eta) const;
    // The predictor of (α, η) as the view draws it (see MklPathPicture).
    MklPathPicture picture(const Eigen::VectorXd& alpha, const Eigen::VectorXd& eta) const;
};

// What the path view draws beyond the records (which hold λ, every ηⱼ, errors and steps).
struct MklPathSnapshot final : Snapshot {
    std::vector<std::string> kernelLabels;
    Eigen::VectorXd d;     // penalty weights dⱼ
    Eigen::VectorXd eta;   // ηⱼ at the current point
    Eigen::VectorXd eta0;  // ηⱼ at λ₀ (point 0, which has no record)
    double lambda = 0.0;
    double lambda0 = 0.0;
    double lambdaMin = 0.0;
    bool classification = false;
    // α of every accepted point so far (λ₀ first; shared with the solver, never changed; the
    // λ and ηⱼ of point p ≥ 1 are in record p), and the model to evaluate their predictors with.
    std::vector<std::shared_ptr<const Eigen::VectorXd>> alphas;
    std::shared_ptr<const MklPathModel> model;
    // The predictor of every accepted point, as alphas (made once per point, shared).
    std::vector<std::shared_ptr<const MklPathPicture>> pictures;
    std::size_t bytes() const override;
};

}  // namespace cplab
