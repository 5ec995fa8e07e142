// SPDX-License-Identifier: GPL-3.0-or-later
// The step of the level method for MKL (Xu, Jin, King & Lyu, NIPS 2008, "An extended level
// method for efficient multiple kernel learning"; option master=level of `silp` and
// `silp_interleaved`): the Euclidean projection of the current β onto a level set of the
// cutting-plane model f(β) = maxᵢ Sᵢᵀβ,
//
//     β⁺ = argmin ½‖β − c‖²   subject to  β ∈ Δ (β ≥ 0, Σβ = 1),  Sᵢᵀβ ≤ ℓ for every plane i.
//
// Solved through its dual over λ ≥ 0 (one multiplier per plane): for λ fixed the minimiser
// over Δ is β(λ) = Π_Δ(c − Σᵢ λᵢ Sᵢ) (projection onto the simplex, by sorting), the dual
// g(λ) = ½‖β(λ) − c‖² + Σᵢ λᵢ (Sᵢᵀβ(λ) − ℓ) is concave with gradient Sᵢᵀβ(λ) − ℓ, Lipschitz
// with constant ‖S‖₂² (Π_Δ is 1-Lipschitz), and is maximised by accelerated projected
// gradient (FISTA) from the previous multipliers. On Δ, Sᵢᵀβ − ℓ = (Sᵢ − sᵢ1)ᵀβ − (ℓ − sᵢ)
// for any sᵢ: the rows are centred first, which makes ‖S‖ small and the ascent fast.
//
// The projection only chooses the next β: the bounds of the run (the LP's θ below, solved SVMs
// above) do not depend on its accuracy. Its result is always in Δ and in the level set: when
// the ascent stops with β(λ) still above ℓ, β is moved toward `inside` (a point of Δ with
// f(inside) ≤ ℓ, the LP's minimiser) far enough that f(β) ≤ ℓ by convexity.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace cplab {

// The Euclidean projection of v onto the simplex {β ≥ 0, Σβ = 1}.
Eigen::VectorXd projectOntoSimplex(const Eigen::VectorXd& v);

struct LevelProjection {
    Eigen::VectorXd beta;    // β⁺ ∈ Δ with maxᵢ Sᵢᵀβ⁺ ≤ ℓ (up to rounding)
    Eigen::VectorXd lambda;  // the dual multipliers (one per plane): the next call's warm start
    int iterations = 0;      // ascent steps
    bool converged = false;  // the ascent met its tolerance (no move toward `inside` needed)
};

// `planes` non-empty, all of c's length; `inside` ∈ Δ with maxᵢ Sᵢᵀinside ≤ level; `warm`
// (any length: entries beyond the planes are ignored, missing ones are 0) starts the ascent.
// `normVector`, when given, carries the power iteration's vector for ‖S‖₂ from one call to the
// next (the planes only grow between an MKL run's calls: a few products instead of dozens).
LevelProjection projectOntoLevelSet(const std::vector<Eigen::VectorXd>& planes,
                                    const Eigen::VectorXd& center, double level,
                                    const Eigen::VectorXd& inside, const Eigen::VectorXd& warm,
                                    int maxIterations = 2000,
                                    Eigen::VectorXd* normVector = nullptr);

}  // namespace cplab
