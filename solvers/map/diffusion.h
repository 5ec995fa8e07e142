// SPDX-License-Identifier: GPL-3.0-or-later
// Max-sum diffusion (Kovalevsky–Koval; Werner 2007, ALGORITHMS.md §8), in the notation of
// message_passing.h.
//
// Iteration: for each node u and each edge e = uv at it, make the belief θ̂_u(x_u) and the
// edge's max-marginal g(x_u) = max_{x_v} θ^φ_e(x_u, x_v) equal to their average for every
// x_u:  m_{e→u}(x_u) += ½ [g(x_u) − θ̂_u(x_u)]  (θ̂_u rises and g falls by the same amount).
// A higher-order factor f at u is treated alike (Werner 2010), with the max-marginal
// g(x_u) = max_{x_f∖x_u} [θ_f(x_f) − Σ_{j∈f} δ_{f→j}(x_j)] and δ_{f→u} += ½ [g − θ̂_u].
// U never increases; the fixed points are arc consistent (every node–edge pair agrees on its
// maximisers), which implies LP optimality on trees but not in general.
// One step() = one sweep over all nodes and their edges. Stopping and bounds:
// message_passing.h.
#pragma once

#include "map/message_passing.h"

namespace cplab {

using DiffusionOptions = MessagePassingOptions;

class DiffusionSolver final : public MessagePassingSolver {
  public:
    explicit DiffusionSolver(std::shared_ptr<const PairwiseModel> model,
                             DiffusionOptions options = {});

    std::string name() const override { return "diffusion"; }
    std::vector<std::string> pseudocode() const override;

  protected:
    void sweep() override;
    std::vector<int> stepLines() const override;

  private:
    // Averages θ̂_u (at bu) with factor f's max-marginal at its variable `position` = u.
    void diffuseFactor(int f, int position, double* bu);
};

}  // namespace cplab
