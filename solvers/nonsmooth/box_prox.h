// SPDX-License-Identifier: GPL-3.0-or-later
// The proximal bundle method's subproblem over a box:
//
//     x* = argmin_{l ≤ x ≤ u}  ν/2 ‖x − x̂‖² + maxᵢ (⟨aᵢ, x⟩ + bᵢ),
//
// solved through its dual over the simplex. For weights α ∈ Δ the inner minimum over the box
// is attained at x(α) = clip(x̂ − Aα/ν, l, u), which gives the concave dual
//     φ(α) = Σᵢ αᵢ (⟨aᵢ, x(α)⟩ + bᵢ) + ν/2 ‖x(α) − x̂‖²   with   ∇φ(α)ᵢ = ⟨aᵢ, x(α)⟩ + bᵢ.
// On the set of α with a fixed clipping pattern (coordinates J at a bound, F free), φ is the
// quadratic −½ αᵀ(A_Fᵀ A_F/ν)α + cᵀα, cᵢ = bᵢ + Σ_{j∈J} a_ij x_j + Σ_{j∈F} a_ij x̂_j, so we
// alternate: solve that simplex QP, recompute the pattern of x(α), until the pattern repeats
// (then α is dual optimal and x(α) primal optimal: KKT hold). Should the patterns cycle, an
// accelerated projected-gradient ascent on φ finishes the job. Without a box (u = −l = ∞)
// the first QP is the whole answer.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "convex_function.h"
#include "cutting_plane_view.h"

namespace cplab {

struct BoxProxResult {
    Eigen::VectorXd x;              // the minimiser x*
    Eigen::VectorXd alpha;          // dual weights of the planes (on the simplex)
    double model = 0.0;             // f_t(x*)
    double primal = 0.0;            // ν/2‖x* − x̂‖² + f_t(x*)
    double dual = 0.0;              // φ(α) ≤ primal; equal at the optimum
    int rounds = 0;                 // pattern rounds (simplex QPs solved)
    bool patternConverged = false;  // false: the projected-gradient fallback was used
};

// `warmAlpha` (any length; entries beyond the plane count are ignored, missing ones are 0)
// warm-starts the dual. Requires at least one plane and ν > 0.
BoxProxResult solveBoxProx(const std::vector<CuttingPlane>& planes, const Eigen::VectorXd& center,
                           double nu, const Box& box, const Eigen::VectorXd& warmAlpha);

}  // namespace cplab
