// SPDX-License-Identifier: GPL-3.0-or-later
// LS-BMRM / OCAS, the optimised cutting-plane algorithm (Franc & Sonnenburg 2008, 2010;
// Alg. 7.4 of the chapter; ALGORITHMS.md §3).
//
// Problem:    min_w F(w) = λ/2‖w‖² + R(w), as BMRM (any risk of Risk; the line search is
//             exact for the piecewise linear/quadratic losses, see risk/line_search.h).
// Iteration:  w_t = argmin of the reduced problem (PlaneSet, dual QP over the simplex);
//             k_t = argmin_{k ≥ 0} F(w^b + k(w_t − w^b)) by the exact line search on cached
//             scores; w^b ← w^b + k_t(w_t − w^b); w^c = (1 − θ)w^b + θw_t; the next plane is
//             taken at w^c.
// Cost:       one pass for the scores X w_t, one for the subgradient at w^c (the scores of
//             w^b and w^c are combinations of cached ones), plus the O(m log m) line search.
// Bounds:     upper U = F(w^b) (monotone); lower L = the reduced problem's dual value;
//             stop when U − L ≤ ε or ≤ tol_rel·U (libocas's TolRel).
// Oracle calls: one per iteration (the risk and subgradient at w^c).
#pragma once

#include <memory>

#include "bmrm.h"

namespace cplab {

struct OcasOptions : CuttingPlaneOptions {
    double theta = 0.1;  // w^c = (1 − θ)w^b + θ w_t, θ ∈ (0, 1]

    void visit(OptionVisitor& v) {
        stop.visit(v);
        model.visit(v);
        v.real("theta", theta, "cutting point w_c = (1 - theta) w_b + theta w_t, 0 < theta <= 1");
        planes.visit(v);
    }
    bool isValid(std::string* why) const;
    static bool checkGiven(const OptionValues& given, std::string* why) {
        return LinearSvmOptions::checkGiven(given, "OcasOptions", why);
    }
};

class OcasSolver final : public LinearSvmSolver {
  public:
    OcasSolver(const LinearProblem& problem, OcasOptions options = {});

    std::string name() const override { return "ocas"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;
    const Eigen::VectorXd& bestWeights() const override { return wBest_; }
    const PlaneSet* planes() const { return planes_.get(); }

    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: w^b of `previous` is kept, with the planes of the new risk at w^b and at `previous`'s
    // cut points (when it kept them, plane_set.h) besides the plane at 0 of the constructor;
    // the first record holds U = F(w^b) and the reduced problem's certified L. False when the
    // runs do not fit (*why says why); the run is then left for the caller to discard.
    bool warmStartFrom(const OcasSolver& previous, std::string* why);

  protected:
    Status doStep(IterationRecord& record) override;
    SummaryFields familySummary() const override;
    int storedPlanes() const override { return planes_ ? planes_->size() : 0; }
    int activeStoredPlanes() const override { return planes_ ? planes_->active() : 0; }

  private:
    // Takes the plane at w^c from its scores in work_ (one pass for the subgradient; work_
    // then holds the loss's derivatives).
    bool cutAt(const Eigen::VectorXd& w);
    // work_ = base_ + k·dir_, the scores of w^b_old + kΔ.
    void combineScores(double k);

    OcasOptions ocasOptions_;
    std::unique_ptr<PlaneSet> planes_;
    Eigen::VectorXd wBest_, wModel_, wCut_;
    // Three m × K score matrices, OCAS's largest working memory after the planes (0.58 MB each
    // on ten-class usps):
    //   base_   X w^b before the last step (the line search's S),
    //   dir_    X (w_t − w^b) of the last step (its D); X w^b now is base_ + lastK_·dir_,
    //   work_   scratch: the scores of w^b for the errors, then those of w^c = base_ +
    //           ((1 − θ)k + θ)·dir_, overwritten by the loss's derivatives.
    // base_ and dir_ stay as the last line search left them, for the slice view.
    Eigen::MatrixXd base_, dir_, work_;
    Eigen::VectorXd gradient_;
    double riskCut_ = 0.0;
    double lastWw_ = 0.0, lastWd_ = 0.0, lastDd_ = 0.0;
    double lastK_ = 0.0, lastFk_ = 0.0;
    std::vector<double> lastBreakpoints_;
    bool haveLineSearch_ = false;
};

}  // namespace cplab
