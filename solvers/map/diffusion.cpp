// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/diffusion.h"

namespace cplab {

namespace {

enum Line { kInput, kInit, kRepeat, kNodes, kMarginal, kAverage, kDecode, kUntil };

}  // namespace

DiffusionSolver::DiffusionSolver(std::shared_ptr<const PairwiseModel> model,
                                 DiffusionOptions options)
    : MessagePassingSolver(std::move(model), options, "DiffusionOptions") {}

std::vector<std::string> DiffusionSolver::pseudocode() const {
    return {
        "input: model theta (edges e, factors of 3+ variables), tolerance eps",
        "m <- 0;  U <- sum_u max theta_u + sum_e max theta_e",
        "repeat",
        "  for each node u, for each edge or factor e at u:",
        "    g(x_u) <- max_{x_e \\ x_u} theta_e^m(x_e)        (theta_e^m: theta_e - its m)",
        "    m_{e->u} += (g - b_u)/2               (b_u and g meet at their average)",
        "  x_u <- argmax b_u;  U <- sum max b_u + sum max theta_e^m;  L <- max(L, E(x))",
        "until U - L <= eps or U stalls",
    };
}

std::vector<int> DiffusionSolver::stepLines() const {
    return {kRepeat, kNodes, kMarginal, kAverage, kDecode, kUntil};
}

void DiffusionSolver::sweep() {
    const PairwiseModel& m = *model_;
    const std::size_t k = static_cast<std::size_t>(m.maxLabels());
    double* in = scratch_.data();
    double* g = in + k;
    for (int u = 0; u < m.variables(); ++u) {
        if ((u & 4095) == 4095 && cancelRequested()) return;
        recomputeBelief(u);
        double* bu = belief(u);
        const int ku = m.labels(u);
        for (const Incidence& inc : incident(u)) {
            const auto& ed = m.edge(inc.edge);
            double* mine = message(inc.edge, inc.side);
            const double* theirs = message(inc.edge, 1 - inc.side);
            const int kOther = m.labels(inc.side == 0 ? ed.v : ed.u);
            for (int y = 0; y < kOther; ++y)
                in[y] = -theirs[y];
            m.maxMarginal(inc.edge, inc.side, in, g, floor_);
            for (int x = 0; x < ku; ++x) {
                const double delta = 0.5 * (g[x] - mine[x] - bu[x]);
                mine[x] += delta;
                bu[x] += delta;
            }
        }
        for (const auto& at : m.factorsAt(u))
            diffuseFactor(at.factor, at.position, bu);
    }
}

void DiffusionSolver::diffuseFactor(int f, int position, double* bu) {
    // g(x_u) = max_{x_f∖x_u} θ'_f − Σ_j δ_{f→j}(x_j); δ_{f→u} += (g − θ̂_u)/2.
    const PairwiseModel& m = *model_;
    const auto vars = m.factorVariables(f);
    FactorWork& work = factorWork(f);
    for (std::size_t j = 0; j < vars.size(); ++j) {
        const double* delta = factorMessage(f, static_cast<int>(j));
        const int k = m.labels(vars[j]);
        for (int x = 0; x < k; ++x)
            work.inMutable[j][x] = -delta[x];
        if (static_cast<int>(j) != position) work.out[j] = nullptr;
    }
    m.factorMaxMarginals(f, work.in.data(), work.out.data(), floor_);
    const double* g = work.out[static_cast<std::size_t>(position)];
    double* mine = factorMessage(f, position);
    const int k = m.labels(vars[static_cast<std::size_t>(position)]);
    for (int x = 0; x < k; ++x) {
        const double delta = 0.5 * (g[x] - bu[x]);
        mine[x] += delta;
        bu[x] += delta;
    }
}

}  // namespace cplab
