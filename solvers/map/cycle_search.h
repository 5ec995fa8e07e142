// SPDX-License-Identifier: GPL-3.0-or-later
// Cycles for MPLP tightening (cycle_mplp.h): the maximum of a sum of edge tables around a
// cycle by dynamic programming, and the search for frustrated cycles of any length in the
// current dual (Sontag, Choe & Li, UAI 2012, "Efficiently searching for frustrated cycles in
// MAP inference").
//
// Cycle DP: nodes 0 … L−1 (L ≥ 3) with k_i labels, tables g_i(x_i, x_{i+1}) (indices mod L).
// For each label s of node 0: forward F_{i+1}(b) = max_a F_i(a) + g_i(a, b) from F_0 = [x_0 = s],
// backward B_i(a) = max_b g_i(a, b) + B_{i+1}(b) from B_L = [x_0 = s]; the max over x with
// x_0 = s is max_a F_{L−1}(a) + B_{L−1}(a), and edge i's max-marginal is the max over s of
// F_i(a) + g_i(a, b) + B_{i+1}(b). Cost O(k_0 · Σ_i k_i k_{i+1}) = O(L·k³), never the k^L
// joint labelings.
//
// Search: the k-projection graph of the edge beliefs θ̂_e (single-label partitions): one
// projection node (i, s) per variable i and label s (a binary variable has just (i, 0)), and
// per edge uv and projection pair ((u, s), (v, t)) the projected belief
//     θ^π(z_u, z_v) = max { θ̂_e(a, b) : [a = s] = z_u, [b = t] = z_v },
// whose weight ω = max(θ^π(1,1), θ^π(0,0)) − max(θ^π(1,0), θ^π(0,1)) calls the edge attractive
// (ω > 0: it prefers equal z) or repulsive (ω < 0), |ω| how strongly. A cycle with an odd number
// of repulsive edges is frustrated: no labeling attains every edge's maximum on it, so
// a cluster on it lowers the bound. As the paper's fast variant, the edges are taken in order
// of decreasing |ω| into a union–find that tracks parity (Kruskal's order); an edge that closes
// an odd cycle reveals a frustrated cycle whose every edge has |ω| at least its own, and a
// breadth-first search in the doubled graph (node, parity) over the edges taken so far finds
// the fewest-edge one through it. Its variables, shortened to a simple cycle of ≥ 3 distinct
// variables, are a candidate; the caller scores candidates exactly (d(c) by the cycle DP).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cplab {

// max_x Σ_i g_i(x_i, x_{i+1}) around the cycle; g[i] is labels[i] × labels[(i+1) mod L]
// row-major. With maxOut, each g_i's max-marginal (the max over the other variables, same
// layout) in (*maxOut)[i]; a longer *maxOut keeps its entries past L (a caller's work space
// keeps its capacity). labels.size() ≥ 3 and equal to g.size().
double cycleMaxDp(std::span<const int> labels, std::span<const std::vector<double>> g,
                  std::vector<std::vector<double>>* maxOut = nullptr);

// A hash of the cycle through `nodes` that does not depend on where the list starts nor on
// its direction (the same cycle gives the same key).
std::uint64_t cycleKey(std::span<const int> nodes);

// An edge of the model with its current belief θ̂_e, labels(u) × labels(v) row-major.
struct BeliefEdge {
    int u = 0;
    int v = 0;
    std::vector<double> table;
};

struct CycleSearchLimits {
    int wanted = 80;          // cycles returned at most
    double min_weight = 0.0;  // edges with |ω| at most this are ignored (ties say nothing)
    // The search is skipped (returns nothing) when building the projection graph would take
    // more table reads than this (many labels on many edges).
    double max_work = 4e7;
};

// Frustrated cycles of the belief graph, strongest first (by their weakest edge), each as its
// variables in cycle order (≥ 3 distinct ones, consecutive ones joined by an edge of `edges`,
// the last to the first). `labels` are the variables' label counts. No cycle twice.
std::vector<std::vector<int>> findFrustratedCycles(std::span<const int> labels,
                                                   const std::vector<BeliefEdge>& edges,
                                                   const CycleSearchLimits& limits);

}  // namespace cplab
