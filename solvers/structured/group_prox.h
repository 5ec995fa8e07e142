// SPDX-License-Identifier: GPL-3.0-or-later
// The proximal steps of online MKL (Martins, Smith, Aguiar & Figueiredo 2011, "Online learning
// of structured predictors with multiple kernels", §3.2; seed 002; ALGORITHMS.md §6) on the
// vector b = (‖w₁‖, …, ‖w_K‖) of group norms. By their Prop. 1 the prox of a regulariser of
// the group norms, Ω(w) = φ(‖w₁‖, …, ‖w_K‖), scales each group: wₖ ← (b̃ₖ/bₖ) wₖ with
// b̃ = prox_φ(b). Three regularisers, τ = η_t·λ:
//
//   squared_l1   φ = (τ/2)‖b‖₁²   (MKL). Alg. 2, the Moreau projection: sort b into
//                u₁ ≥ … ≥ u_K, ρ = max{ j : u_j − τ/(1 + jτ) Σ_{r≤j} u_r > 0 },
//                s = τ/(1 + ρτ) Σ_{r≤ρ} u_r, b̃ₖ = max(0, bₖ − s). (For the ρ groups kept,
//                b̃ₖ = bₖ − τ‖b̃‖₁; summing them gives s.) O(K log K).
//   group_lasso  φ = τ‖b‖₁: soft threshold at s = τ (group truncated gradient).
//   l2           φ = (τ/2)‖b‖₂²: b̃ = b/(1 + τ), no group ever reaches 0 (no threshold).
//
// Inputs must be finite and ≥ 0 (norms), τ ≥ 0 and finite; the functions throw
// std::invalid_argument otherwise.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace cplab {

enum class GroupRegulariser { SquaredL1, GroupLasso, L2 };

// "squared_l1", "group_lasso", "l2"; parse returns false on anything else.
const char* toString(GroupRegulariser regulariser);
bool parseGroupRegulariser(const std::string& text, GroupRegulariser* out);

struct GroupProx {
    std::vector<double> shrunk;  // b̃
    double threshold = 0.0;      // s (NaN for l2, which has none)
    int active = 0;              // groups with b̃ₖ > 0
};

GroupProx proxGroupNorms(GroupRegulariser regulariser, std::span<const double> b, double tau);

// The regulariser's value at the group norms b, without τ: ½‖b‖₁², ‖b‖₁ or ½‖b‖₂² — so the
// objective is λ·regulariserValue(b) + the mean loss.
double regulariserValue(GroupRegulariser regulariser, std::span<const double> b);

}  // namespace cplab
