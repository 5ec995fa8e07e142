// SPDX-License-Identifier: GPL-3.0-or-later
// BMRM, bundle methods for regularised risk minimisation (Teo, Vishwanathan, Smola, Le 2010;
// Alg. 7.3 of the chapter; ALGORITHMS.md §3).
//
// Problem:    min_w F(w) = λ/2‖w‖² + R(w) for any risk of Risk (see linear_svm.h).
// Iteration:  the oracle at w_{t−1} gives R and a ∈ ∂R: the plane aₜ, bₜ = R(w_{t−1}) −
//             ⟨aₜ, w_{t−1}⟩; the reduced problem min λ/2‖w‖² + maxᵢ ⟨aᵢ,w⟩ + bᵢ is solved in
//             its dual over the simplex (PlaneSet), w_t = −Aα/λ.
// Bounds:     upper U = minᵢ F(wᵢ) over the oracle points; lower L = the dual value of the
//             reduced problem (weak duality, certified); stop when U − L ≤ ε or ≤ tol_rel·U.
// One step() = one pass over the data (the oracle) plus one warm-started QP.
#pragma once

#include <memory>

#include "linear_svm.h"
#include "plane_set.h"

namespace cplab {

// What BMRM and OCAS (LS-BMRM, ocas.h) share: the stop rule, the model and the stored planes,
// with libocas's defaults.
struct CuttingPlaneOptions {
    StopOptions stop;
    LinearSvmOptions model;
    PlaneOptions planes;

    CuttingPlaneOptions() {
        stop.epsilon = 0.0;  // the relative rule tol_rel is the default, as libocas
        stop.tol_rel = 1e-3;
        stop.max_iterations = 10000;  // BMRM may need thousands of planes at tight tolerances
    }
};

struct BmrmOptions : CuttingPlaneOptions {
    void visit(OptionVisitor& v) {
        stop.visit(v);
        model.visit(v);
        planes.visit(v);
    }
    bool isValid(std::string* why) const;
    static bool checkGiven(const OptionValues& given, std::string* why) {
        return LinearSvmOptions::checkGiven(given, "BmrmOptions", why);
    }
};

// Adds the planes of `risk` taken at `points` to `planes` (one oracle call each): after the
// training set changed, the planes of the new risk at the old cut points (the old planes bound
// the old risk only). False when the risk or its subgradient is not finite at a point.
bool addRiskPlanesAt(const Risk& risk, const std::vector<Eigen::VectorXd>& points,
                     PlaneSet& planes);

class BmrmSolver final : public LinearSvmSolver {
  public:
    BmrmSolver(const LinearProblem& problem, BmrmOptions options = {});

    std::string name() const override { return "bmrm"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;
    const Eigen::VectorXd& bestWeights() const override { return best_; }
    const Eigen::VectorXd& weights() const { return w_; }
    const PlaneSet* planes() const { return planes_.get(); }

    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: w_best of `previous` is kept (its plane, F and training error are taken here), the
    // planes of the new risk at `previous`'s cut points (when it kept them, plane_set.h) start the
    // model, and the reduced problem is solved, so that the first record holds U = F(w_best)
    // and the certified L of those planes. False when the runs do not fit (*why says why); the
    // run is then left for the caller to discard.
    bool warmStartFrom(const BmrmSolver& previous, std::string* why);

  protected:
    Status doStep(IterationRecord& record) override;
    SummaryFields familySummary() const override;
    int storedPlanes() const override { return planes_ ? planes_->size() : 0; }
    int activeStoredPlanes() const override { return planes_ ? planes_->active() : 0; }

  private:
    // The oracle at w_: R, the plane (added with w_ as its point) and the training error.
    // False when R or the subgradient is not finite.
    bool oracle(double* r, double* trainError);

    BmrmOptions bmrmOptions_;
    std::unique_ptr<PlaneSet> planes_;
    Eigen::VectorXd w_;         // w_t, the next oracle point
    Eigen::VectorXd best_;      // argmin of F over the oracle points
    Eigen::VectorXd previous_;  // w_{t−1}, where the last plane was taken (for the views)
    Eigen::MatrixXd scores_;    // X w_{t−1}, then the loss's derivatives there
    Eigen::VectorXd gradient_;
    double qpGap_ = 0.0;
    int qpIterations_ = 0;
};

}  // namespace cplab
