// SPDX-License-Identifier: GPL-3.0-or-later
// MPLP, max-product linear programming (Globerson & Jaakkola 2007; ALGORITHMS.md §8), the
// edge-based form of Sontag et al. 2008, in the notation of message_passing.h.
//
// Iteration: for each edge e = uv in turn, with the messages of the other edges held fixed,
//     a(x_u) = θ̂_u(x_u) − m_{e→u}(x_u),   b(x_v) = θ̂_v(x_v) − m_{e→v}(x_v)
//     m_{e→u}(x_u) ← ½ [max_{x_v} θ_e(x_u, x_v) + b(x_v)] − ½ a(x_u)
//     m_{e→v}(x_v) ← ½ [max_{x_u} θ_e(x_u, x_v) + a(x_u)] − ½ b(x_v)
// A higher-order factor f (3+ variables) is updated in its generalised form (Globerson &
// Jaakkola 2007), after the edges: with λ_i = θ̂_i − δ_{f→i} for each variable i of f,
//     δ_{f→i}(x_i) ← −λ_i(x_i) + (1/|f|) max_{x_f∖x_i} [θ_f(x_f) + Σ_{j∈f} λ_j(x_j)],
// which is the edge update above for |f| = 2.
// This minimises the dual U exactly over the two messages of e (block coordinate descent),
// so U never increases. Coordinate descent on a non-smooth dual can stop at a point that is
// not an LP optimum on loopy graphs; on trees it reaches the optimum (the tests check both
// trees and loopy instances against exhaustive search and Clp).
// One step() = one sweep over all edges (beliefs recomputed at its start). Stopping and
// bounds: message_passing.h.
#pragma once

#include "map/message_passing.h"

namespace cplab {

using MplpOptions = MessagePassingOptions;

class MplpSolver final : public MessagePassingSolver {
  public:
    explicit MplpSolver(std::shared_ptr<const PairwiseModel> model, MplpOptions options = {});

    std::string name() const override { return "mplp"; }
    std::vector<std::string> pseudocode() const override;

  protected:
    void sweep() override;
    std::vector<int> stepLines() const override;

  private:
    // The generalised MPLP update of the messages of higher-order factor f.
    void updateFactor(int f);
};

}  // namespace cplab
