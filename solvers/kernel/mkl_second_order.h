// SPDX-License-Identifier: GPL-3.0-or-later
// The second-order model of the MKL objective at an SVM solution (Chapelle & Rakotomamonjy,
// "Second order optimization of kernel parameters", NIPS workshop on kernel learning 2008):
//
//     J(β) = max_α Σα − ½ uᵀ (Σₖ βₖ Kₖ) u,   u = Y α,
//     ∂J/∂βₖ = −½ uᵀ Kₖ u,
//     ∂²J/∂βₖ∂βₗ = wₖᵀ M⁻¹ wₗ,   wₖ = [(Kₖ u)_F; 0],   M = [K_FF(β)  1; 1ᵀ  0],
//
// F the free support vectors (0 < αᵢ < C). On F the SVM's optimality conditions read
// K(β)_F· u + b = y_F with Σ u = 0, α at the bounds stays there for a small move of β, so
// differentiating them gives du_F/dβₗ = −[M⁻¹ wₗ]_F, and ∂gₖ/∂βₗ = −(Kₖ u)_Fᵀ du_F/dβₗ. H is
// symmetric positive semidefinite (J is convex in β) and of rank at most |F|. The products
// Kₖ u on F cost one pass over the free rows' support pairs for all kernels
// (KernelSet::rowProducts), M's factorisation O(|F|³), H O(|F|² K + |F| K²).
#pragma once

#include <Eigen/Core>

#include "kernel_set.h"

namespace cplab {

struct MklSecondOrder {
    Eigen::VectorXd gradient;  // ∂J/∂βₖ = −½ uᵀ Kₖ u
    Eigen::MatrixXd hessian;   // K × K, symmetric positive semidefinite
    int freeVectors = 0;       // |F|
};

// The model at the SVM solution `alpha` (box [0, C]) for the weights q.weights(); q's rows give
// K(β) on F (the rows SMO just read, usually cached).
MklSecondOrder mklSecondOrder(KernelQ& q, const Eigen::VectorXd& alpha, double C);

}  // namespace cplab
