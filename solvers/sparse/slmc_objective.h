// SPDX-License-Identifier: GPL-3.0-or-later
// W(Z) and ∇W(Z) of the sparse large-margin classifier (ALGORITHMS.md §7; Wu, Schölkopf,
// Bakır 2006, §3.2–3.3, eqs. 28–46).
//
// For fixed expansion vectors Z = [z_1 … z_{N_z}] (rows of an N_z × d matrix) the SVM whose
// weight vector is restricted to span{φ(z_u)} is
//
//     min_{β,b,ξ} ½ βᵀ K^z β + C Σᵢ ξᵢ   s.t.  yᵢ(βᵀψ(xᵢ) + b) ≥ 1 − ξᵢ,  ξ ≥ 0     (28–30)
//
// with ψ(x) = [k(z_1,x) … k(z_{N_z},x)]ᵀ and K^z = k(Z, Z). With K^z = VΛVᵀ and the whitened
// features φ_z(x) = Λ^{-1/2}Vᵀψ(x) (eq. 41–42) it is a *linear* SVM with bias on φ_z, whose
// dual is
//
//     W(Z) = max_α Σα − ½ aᵀ (K^z)⁻¹ a,   a = Ψ Y α,  0 ≤ α ≤ C,  yᵀα = 0          (37–39, 44)
//
// (Ψ = k(Z, X), N_z × n). The linear SVM is solved by the kernel module's SMO (smo.h) on the
// linear kernel of φ_z, warm-started from the α of the previous evaluation; β = (K^z)⁻¹ a
// (eq. 45) and b is SMO's bias, so f(x) = βᵀψ(x) + b.
//
// Gradient (Corollary 2: α is held at its optimum, eq. 46). With β = (K^z)⁻¹a and c = Y α,
//
//     ∇_{z_u} W = −β_u Σᵢ cᵢ ∇₁k(z_u, xᵢ) − Σⱼ S_uj ∇₁k(z_u, z_j),   S = −ββᵀ,
//
// because d(aᵀK⁻¹a) = 2 (da)ᵀβ − βᵀ dK β and, k being symmetric, ⟨dK, S⟩ = 2Σⱼ S_uj
// ∇₁k(z_u, z_j)·dz_u (the diagonal k(z_u, z_u) included).
//
// Ill-conditioning guard. K^z is singular when two XVs coincide and ill-conditioned when
// they nearly do (or for a wide Gaussian). Every eigenvalue is floored at
// ρ·λ_max (ρ = eigenFloor): K̃ = V max(Λ, ρλ_max) Vᵀ replaces K^z in (28), a well-posed SVM
// that penalises the near-null directions of span{φ(z_u)} more (K̃ ⪰ K^z, so its objective
// is still an upper bound of the true objective at the same β, b). To keep the gradient the
// exact gradient of what is minimised, S is then the Daleckii–Krein form of d(aᵀ g(K) a),
// g(λ) = 1/max(λ, ρλ_max):  with ã = Vᵀa,
//
//     S = V (G ∘ ããᵀ) Vᵀ − (ρ / f²) (Σ_{floored i} ã_i²) v_max v_maxᵀ,   f = ρλ_max,
//     G_ij = (g(λ_i) − g(λ_j)) / (λ_i − λ_j),  G_ii = g′(λ_i)
//
// (the last term is the floor's own dependence on λ_max, dλ_max = v_maxᵀ dK v_max). Without
// floored eigenvalues G_ij = −1/(λ_iλ_j) and S = −ββᵀ, the paper's formula.
//
// Cost of one evaluation: Ψ in O(N_z n d), the eigen-decomposition O(N_z³), the features
// O(n N_z²), one SMO solve, the gradient O(N_z (n + N_z) d).
#pragma once

#include <Eigen/Core>
#include <memory>

#include "core/cancel_token.h"
#include "data/dataset.h"
#include "xv_kernel.h"

namespace cplab {

struct SlmcObjectiveOptions {
    double C = 1.0;             // SVM box, > 0
    double tolerance = 1e-6;    // inner SMO's maximal KKT violation at convergence, > 0
    double eigenFloor = 1e-10;  // ρ: eigenvalues of K^z are floored at ρ·λ_max, in (0, 1)
    double cacheMb = 64.0;      // kernel cache of the inner SMO (MB), ≥ 1
};

// One evaluation of W at Z.
struct SlmcEvaluation {
    Eigen::MatrixXd Z;         // N_z × d, where it was evaluated
    double value = 0.0;        // W(Z) as the inner dual D_Z(α) (what L-BFGS minimises)
    double primal = 0.0;       // inner primal ½βᵀK̃β + C Σ hinge at (β, b) (≥ value)
    Eigen::MatrixXd gradient;  // ∇W(Z), N_z × d
    Eigen::VectorXd alpha;     // inner SVM dual (n)
    Eigen::VectorXd beta;      // expansion coefficients (N_z), eq. 45
    double bias = 0.0;
    Eigen::VectorXd trainScores;  // f(xᵢ) = βᵀψ(xᵢ) + b
    int supportVectors = 0;       // αᵢ > 0
    int flooredEigenvalues = 0;   // eigenvalues of K^z raised to the floor
    double kktViolation = 0.0;    // inner SMO's at the end
    long long smoSteps = 0;
    // False when the interrupt (cancel or deadline) stopped the inner SMO, or SMO reached its step
    // limit (max(10⁷, 100 n)) before the tolerance.
    bool converged = false;
};

// B = V Λ̃^{-1/2} for K^z = VΛVᵀ with eigenvalues floored at eigenFloor·λ_max (as above), so
// that φ_z(x) = Bᵀψ_z(x) and B Bᵀ = K̃⁻¹. *floored (optional) receives the number of floored
// eigenvalues. Throws std::runtime_error when K^z has no positive eigenvalue.
Eigen::MatrixXd whitening(const Eigen::MatrixXd& Kz, double eigenFloor, int* floored = nullptr);

class SlmcObjective {
  public:
    // The XVs are dense points of the input space, so the training set is held dense too: at
    // most this many values n·d (800 MB).
    static constexpr double kMaxDenseEntries = 1e8;

    // `train`: labels ±1 of two classes, any storage (copied dense). Throws
    // std::invalid_argument when the kernel is not supported (XvKernel::supports), the
    // options are out of range or n·d > kMaxDenseEntries.
    SlmcObjective(std::shared_ptr<const Dataset> train, const KernelSpec& kernel,
                  SlmcObjectiveOptions options);

    int examples() const { return static_cast<int>(X_.rows()); }
    int dimension() const { return static_cast<int>(X_.cols()); }
    const Eigen::MatrixXd& X() const { return X_; }  // n × d
    const Eigen::VectorXd& y() const { return y_; }
    const XvKernel& kernel() const { return kernel_; }
    const SlmcObjectiveOptions& options() const { return options_; }

    // W, ∇W, β, b at Z (N_z × d). `warmAlpha`, when given and feasible, starts SMO there.
    // SMO polls `stop` (the user's cancel and a deadline) every 100 steps; stopped, the
    // evaluation is SMO's last iterate (converged false): a feasible α whose β, b and primal
    // are a consistent model, W and ∇W inexact. Throws std::runtime_error when K^z has no
    // positive eigenvalue (e.g. Z = 0 under a linear kernel).
    SlmcEvaluation evaluate(const Eigen::MatrixXd& Z, const Eigen::VectorXd* warmAlpha = nullptr,
                            const Interrupt* stop = nullptr) const;

  private:
    // The linear SVM on the whitened `features` (n × N_z), warm-started from warmAlpha when it
    // fits: its solution, dual, primal and convergence into e.
    void solveInnerSvm(Eigen::MatrixXd features, const Eigen::VectorXd* warmAlpha,
                       const Interrupt* stop, SlmcEvaluation& e) const;

    std::shared_ptr<const Dataset> train_;
    Eigen::MatrixXd X_;
    Eigen::VectorXd y_;
    XvKernel kernel_;
    SlmcObjectiveOptions options_;
};

}  // namespace cplab
