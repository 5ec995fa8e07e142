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
    for (int v = 0; v < m.variables(); ++v)
        recomputeBelief(v);
    const std::size_t k = static_cast<std::size_t>(m.maxLabels());
    double* a = scratch_.data();
    double* b = a + k;
    double* gu = b + k;
    double* gv = gu + k;
    for (int e = 0; e < m.edgeCount(); ++e) {
        if ((e & 4095) == 4095 && cancelRequested()) return;
        const auto& ed = m.edge(e);
        const int ku = m.labels(ed.u);
        const int kv = m.labels(ed.v);
        double* mu = message(e, 0);
        double* mv = message(e, 1);
        double* bu = belief(ed.u);
        double* bv = belief(ed.v);
        for (int x = 0; x < ku; ++x)
            a[x] = bu[x] - mu[x];
        for (int y = 0; y < kv; ++y)
            b[y] = bv[y] - mv[y];
        m.maxMarginal(e, 0, b, gu, floor_);
        m.maxMarginal(e, 1, a, gv, floor_);
        for (int x = 0; x < ku; ++x) {
            mu[x] = 0.5 * (gu[x] - a[x]);
            bu[x] = a[x] + mu[x];
        }
        for (int y = 0; y < kv; ++y) {
            mv[y] = 0.5 * (gv[y] - b[y]);
            bv[y] = b[y] + mv[y];
        }
    }
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
