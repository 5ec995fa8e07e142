// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/mplp.h"

namespace cplab {

namespace {

enum Line {
    kInput,
    kInit,
    kRepeat,
    kEdges,
    kSplit,
    kUpdate,
    kFactors,
    kFactorUpdate,
    kDecode,
    kUntil
};

}  // namespace

MplpSolver::MplpSolver(std::shared_ptr<const PairwiseModel> model, MplpOptions options)
    : MessagePassingSolver(std::move(model), options, "MplpOptions") {}

std::vector<std::string> MplpSolver::pseudocode() const {
    return {
        "input: model theta (edges, factors f of 3+ variables), tolerance eps",
        "m <- 0;  U <- sum_u max theta_u + sum_e max theta_e + sum_f max theta_f",
        "repeat",
        "  for each edge e = uv:",
        "    a <- b_u - m_{e->u};  b <- b_v - m_{e->v}          (beliefs without e)",
        "    m_{e->u} <- (max_xv [theta_e + b] - a)/2;  m_{e->v} likewise",
        "  for each factor f, each i in f:  l_i <- b_i - m_{f->i}   (beliefs without f)",
        "    m_{f->i} <- max_{x_f \\ x_i} [theta_f + sum_{j in f} l_j]/|f| - l_i",
        "  x_u <- argmax b_u;  U <- sum max b_u + sum_{e, f} max theta^m;  L <- max(L, E(x))",
        "until U - L <= eps or U stalls",
    };
}

std::vector<int> MplpSolver::stepLines() const {
    if (model_->factorCount() > 0)
        return {kRepeat, kEdges, kSplit, kUpdate, kFactors, kFactorUpdate, kDecode, kUntil};
    return {kRepeat, kEdges, kSplit, kUpdate, kDecode, kUntil};
}

void MplpSolver::sweep() {
    const PairwiseModel& m = *model_;
    const bool complete =
        mplpEdgeSweep([&m, floor = floor_](int e, int toward, const double* in, double* out) {
            m.maxMarginal(e, toward, in, out, floor);
        });
    if (!complete) return;
    for (int f = 0; f < m.factorCount(); ++f) {
        if ((f & 1023) == 1023 && cancelRequested()) return;
        updateFactor(f);
    }
}

void MplpSolver::updateFactor(int f) {
    // λ_i = θ̂_i − δ_{f→i} (beliefs without f), M_i = max-marginals of θ_f + Σ_j λ_j, then
    // δ_{f→i} = M_i/|f| − λ_i, so that θ̂_i = M_i/|f|.
    FactorWork& work = factorLambdas(f);
    model_->factorMaxMarginals(f, work.in.data(), work.out.data(), floor_);
    setFactorMessages(f, work, 1.0 / static_cast<double>(model_->factorVariables(f).size()));
}

}  // namespace cplab
