// SPDX-License-Identifier: GPL-3.0-or-later
// SMO for the C-SVM dual with bias (ALGORITHMS.md §4; Platt 1998; Fan, Chen, Lin 2005):
//
//     max_α  D(α) = Σᵢ αᵢ − ½ αᵀ Q α   s.t.  0 ≤ αᵢ ≤ C,  yᵀα = 0,   Q = Y K Y.
//
// Each step updates one pair (i, j) chosen by second-order working-set selection (WSS 2 of
// Fan et al.: i maximal violating, j maximising the second-order gain), with shrinking of
// variables stuck at a bound (and a full gradient reconstruction before declaring
// convergence), exactly as LIBSVM does, so that with the same kernel, C and tolerance both
// reach the same optimum. Convergence: maximal KKT violation
//     max_{i ∈ I_up} −yᵢ∇ᵢf − min_{j ∈ I_low} −yⱼ∇ⱼf ≤ tolerance   (LIBSVM's eps; f = −D).
// The decision function is f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b, b from the free variables (the
// midpoint of the bounds when none is free), as LIBSVM's −ρ.
#pragma once

#include <Eigen/Core>

#include "core/cancel_token.h"
#include "kernel_set.h"

namespace cplab {

struct SmoOptions {
    double C = 1.0;           // box, > 0
    double tolerance = 1e-3;  // maximal KKT violation at convergence, > 0 (LIBSVM -e)
    bool shrinking = true;    // LIBSVM -h
};

struct SmoProgress {
    long long steps = 0;        // pair updates done by this run() call
    double maxViolation = 0.0;  // after the call
    bool converged = false;
};

class Smo {
  public:
    // α = 0, gradient −1. Throws std::invalid_argument for C ≤ 0, tolerance ≤ 0, labels that
    // are not ±1 or of one class only.
    Smo(KernelQ& q, SmoOptions options);

    // Warm start from α (e.g. the solution for other kernel weights): it must be feasible
    // (0 ≤ αᵢ ≤ C, |yᵀα| ≤ 1e-9·C·m; throws std::invalid_argument otherwise). Recomputes the
    // gradient from the nonzero αᵢ (one Q row each).
    void setAlpha(const Eigen::VectorXd& alpha);
    // Keeps α and recomputes the gradient, after q's weights changed.
    void refreshGradient();
    // The same, given Qα (example order, length m) for the current α and q's new weights:
    // no product with Q is formed (an MKL solver has Σₖ βₖ Kₖ Yα from its plane).
    void refreshGradient(const Eigen::VectorXd& Qalpha);

    // At most maxSteps pair updates (≤ 0: until converged); returns early at convergence or
    // when `cancel` is set (checked every 1000 steps).
    SmoProgress run(long long maxSteps, const CancelToken* cancel = nullptr);
    // The same, polling `stop` (the user's cancel and the run's deadline) every 100 steps.
    SmoProgress run(long long maxSteps, const Interrupt& stop);

    const Eigen::VectorXd& alpha() const;
    const Eigen::VectorXd& gradient() const;  // ∇f = Qα − e, over all variables
    double bias() const;
    // f(xᵢ) = Σⱼ αⱼ yⱼ Q-kernel(xⱼ, xᵢ) + b on the training set, off the gradient: (Qα)ᵢ =
    // yᵢ (f(xᵢ) − b), so f(xᵢ) = yᵢ (∇ᵢf + 1) + b (no kernel row read).
    Eigen::VectorXd trainScores() const;
    double dualObjective() const;  // D(α) = Σα − ½αᵀQα
    // The primal objective ½‖w‖² + C Σ max(0, 1 − yᵢ f(xᵢ)) at the current α and b.
    double primalObjective() const;
    double maxViolation() const;
    long long totalSteps() const;
    int supportVectors() const;       // αᵢ > 0
    int boundSupportVectors() const;  // αᵢ = C
    const SmoOptions& options() const;
    // A new KKT tolerance (> 0) for the next run() (an outer solver that needs the SVM's
    // objective more accurately than it first asked).
    void setTolerance(double tolerance);

  private:
    template <class Stop>
    SmoProgress runPolling(long long maxSteps, const Stop& stopNow);

    struct Impl;
    std::unique_ptr<Impl> impl_;

  public:
    ~Smo();
    Smo(Smo&&) noexcept;
    Smo& operator=(Smo&&) noexcept;
};

}  // namespace cplab
