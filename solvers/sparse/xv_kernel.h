// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels between expansion vectors (XVs) and data, with their gradients in the XV: what
// SLMC needs to move the XVs (ALGORITHMS.md §7). Dense throughout: Z is N_z × d (row u is
// z_u), X is n × d (row i is x_i).
//
// Supported kernel_spec.h kernels and the gradient in the first argument:
//     linear     k = ⟨z, x⟩                      ∇_z k = x
//     poly:p,c   k = (⟨z, x⟩ + c)^p              ∇_z k = p (⟨z, x⟩ + c)^(p−1) x
//     gaussian:γ k = exp(−γ‖z − x‖²)             ∇_z k = −2γ (z − x) k
// A precomputed kernel has no input space to move XVs in, and a feature scope ('@…') would
// move only some coordinates: both are refused by supports().
//
// Every kernel here is symmetric, so the total derivative of the diagonal k(z, z) is
// 2 ∇₁k(z, z); weightedGradient(Z, Z, …) relies on that (see slmc_objective.h).
#pragma once

#include <Eigen/Core>
#include <string>

#include "kernel/kernel_spec.h"

namespace cplab {

class XvKernel {
  public:
    // Precondition: supports(spec).
    explicit XvKernel(KernelSpec spec);

    // True when SLMC can move XVs under `spec`; else *why says why (no owner prefix).
    static bool supports(const KernelSpec& spec, std::string* why);

    const KernelSpec& spec() const { return spec_; }

    // K(A, B): |A| × |B| matrix of k(a_u, b_i). A and B have the same number of columns.
    Eigen::MatrixXd values(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;

    // Row u = Σ_i W_ui ∇₁k(a_u, b_i), an |A| × d matrix. `K` must be values(A, B) (reused,
    // not recomputed); W is |A| × |B|. Cost O(|A|·|B|·d) by two matrix products.
    Eigen::MatrixXd weightedGradient(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                     const Eigen::MatrixXd& K, const Eigen::MatrixXd& W) const;

  private:
    KernelSpec spec_;
};

}  // namespace cplab
