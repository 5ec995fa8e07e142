// SPDX-License-Identifier: GPL-3.0-or-later
// Balanced block moves: exact maximisation of a binary pairwise model over a large block of
// nodes with the others fixed (ALGORITHMS.md §11), the anytime decoder's move on binary
// models (map_decoder.h) — the cluster-exact approximation of Hartmann (1996) for spin
// glasses, a fusion move (Lempitsky et al. 2010) whose proposal is every block node's other
// label, solved exactly instead of by QPBO's roof dual.
//
// Problem: given a labeling x of a model whose variables all have 2 labels and that has no
// factors of 3+ variables, and a block B of nodes, maximise E over the labels of B with the
// labels outside B held at x.
// Block: B is grown greedily — the nodes in a priority order first, then the rest in a seeded
// random order — a node joining when the subgraph B induces stays *balanced*: no cycle of it
// has an odd number of repulsive edges, an edge e being repulsive when
//     A_e = θ'_e(0,0) + θ'_e(1,1) − θ'_e(0,1) − θ'_e(1,0) < 0
// (θ' = max(θ, floor), pairwise_model.h's forbiddenFloor()). A union–find with parities
// decides it in O(α(n)) per edge (the same test as cycle_search.h's). Every forest is
// balanced, so B covers at least what the forest move's block does, and on a frustrated grid
// far more: cycles whose plaquettes are not frustrated stay in.
// Solve: a balanced subgraph is switched to an attractive one by flipping the labels of one
// side of each component (z_v = x_v ⊕ f_v, the union–find's parity f_v), where −E restricted
// to B is submodular: its minimum is a minimum s–t cut (Kolmogorov & Zabih 2004; max-flow by
// Boykov & Kolmogorov's algorithm). E never decreases: B's old labels are one of the candidates.
// Cost: O(n α(n)) to grow B plus the max-flow on |B| + 2 nodes and about 3|B| arcs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "map/map_decoder.h"
#include "map/pairwise_model.h"

namespace cplab {

// Max-flow by Boykov & Kolmogorov's algorithm (IEEE PAMI 2004: two search trees, from the
// source and from the sink, grown and reused across augmentations; orphans re-adopted with
// their distance marks), the fastest known on the grid graphs of vision. Real capacities;
// arcs to the sink and from the source are kept as one signed terminal capacity per node.
class MaxFlow {
  public:
    // Clears the graph to `nodes` nodes, source and sink among them.
    void reset(int nodes, int source, int sink);
    // An arc u → v of capacity c ≥ 0 (and its reverse of capacity `reverse` ≥ 0). Arcs into
    // the source or out of the sink carry no s–t flow and are dropped.
    void addArc(int u, int v, double c, double reverse = 0.0);
    // Pushes a maximum flow; returns its value.
    double solve();
    // After solve(): whether v is reachable from the source in the residual graph (the source
    // side of a minimum cut).
    bool onSourceSide(int v) const;

  private:
    static constexpr int kNone = -1;      // a free node's parent
    static constexpr int kTerminal = -2;  // the parent of a node joined to its terminal
    static constexpr int kOrphan = -3;
    void activate(int v);
    int nextActive();
    // The arc from the source tree to the sink tree found by growing from v, or −1.
    int grow(int v);
    double augment(int middle);
    void adopt(int v);
    // Distance of v's tree origin, following parents (kInfinite when it meets an orphan).
    int originDistance(int v);

    int source_ = 0;
    int sink_ = 0;
    double tolerance_ = 0.0;  // residual capacities at or below it count as none
    std::vector<int> head_;   // per node: its first arc, or −1
    std::vector<int> next_;   // per arc
    std::vector<int> to_;
    std::vector<double> capacity_;
    std::vector<double> fromSource_;  // per node: capacity of source → v
    std::vector<double> toSink_;      // per node: capacity of v → sink
    double direct_ = 0.0;             // capacity of source → sink
    std::vector<double> terminal_;    // residual: > 0 from the source, < 0 to the sink
    std::vector<int> parent_;         // the arc to the parent (from v), or kNone/kTerminal/kOrphan
    std::vector<std::uint8_t> inSink_;
    std::vector<std::uint8_t> active_;
    std::vector<int> stamp_;  // the time of v's distance mark
    std::vector<int> dist_;
    std::vector<int> activeQueue_;
    std::size_t activeHead_ = 0;
    std::vector<int> orphans_;
    std::vector<int> batch_;  // the orphans being adopted
    int time_ = 0;
};

class BalancedBlockMove {
  public:
    // `model` and `incidence` must outlive the move; `floor` is the model's forbiddenFloor().
    BalancedBlockMove(const PairwiseModel& model, const NodeIncidence& incidence, double floor);

    // Whether the move applies: every variable has 2 labels and there is no factor of 3+
    // variables.
    static bool applies(const PairwiseModel& model);

    // One move on x: B grown from `priority` (nodes in that order, repeats and nodes out of
    // range ignored), then from the other nodes shuffled by `seed`; x's labels on B replaced
    // by a maximiser. Returns how many labels changed.
    int move(std::vector<int>& x, std::span<const int> priority, std::uint64_t seed);
    // The block of the last move (its nodes, in the order they joined).
    const std::vector<int>& block() const { return block_; }

  private:
    double pairwise(int e, int a, int b) const;
    // Root of v's component, with v's parity relative to it in *parity.
    int find(int v, int* parity);
    void grow(std::span<const int> priority, std::uint64_t seed);
    // Whether v can join B; if so, joins it.
    bool join(int v);
    int solve(std::vector<int>& x);

    const PairwiseModel& model_;
    const NodeIncidence& incidence_;
    double floor_;
    std::vector<std::uint8_t> repulsive_;  // per edge: A_e < 0
    std::vector<std::uint8_t> modular_;    // per edge: A_e = 0 (no constraint)
    std::vector<int> order_;
    std::vector<std::uint8_t> queued_;
    std::vector<std::uint8_t> inBlock_;
    std::vector<int> parent_;           // union–find over B
    std::vector<std::uint8_t> parity_;  // relative to the parent
    std::vector<int> index_;            // node → its index in block_, −1 outside
    std::vector<int> block_;
    std::vector<double> slope_;  // per block node: cost of z = 1 minus cost of z = 0
    struct Demand {
        int root;
        int parity;
    };
    std::vector<Demand> demands_;
    std::vector<std::uint8_t> flip_;  // per block node: its parity f_v
    std::vector<int> before_;         // x before the move
    MaxFlow flow_;
};

}  // namespace cplab
