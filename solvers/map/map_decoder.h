// SPDX-License-Identifier: GPL-3.0-or-later
// The anytime decoder of the message-passing MAP solvers (message_passing.h): local search
// that turns a labeling decoded from the dual into a better one, on a budget of its own.
//
// ICM (iterated conditional modes, Besag 1986): each node in turn takes its best label given
// its neighbours'; a pass that moves no node ends it. One pass costs O(Σ_e k).
// Forest move (block coordinate ascent over an induced forest): a set B of nodes whose
// induced subgraph is a forest is grown greedily, a node joining B when its neighbours
// already in B lie in distinct trees of B. The nodes come in a given priority order first —
// the solvers pass the nodes the dual leaves undecided, where a part of the bound disagrees
// with the decoded labeling (an LP-guided search: that is where the labeling is most likely
// wrong) — then the others in a seeded random order, so that successive moves cover
// different blocks. With the labels outside B held fixed, E restricted to B is a
// tree-structured model; dynamic programming (max-product from the leaves, backtracking from
// the roots) maximises it exactly in O(Σ_{e⊂B} k²) (O(k) per Potts edge). E never
// decreases: the old labels of B are one of the candidates. On a grid B covers about two
// thirds of the nodes, so one move changes long runs of labels at once, which ICM cannot.
// Higher-order factors: ICM adds each factor's table at the other nodes' labels to a node's
// score; a node joins B only when no other node of any of its factors is in B, so that each
// factor is a unary term of at most one node of B and the move stays exact.
// Both work on θ' = max(θ, F) (pairwise_model.h, forbiddenFloor()), under which a labeling
// without a forbidden entry scores above every labeling with one: neither trades an
// allowed labeling for a forbidden one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/cancel_token.h"
#include "map/pairwise_model.h"

namespace cplab {

class BalancedBlockMove;

// One end of an edge at a node: the edge and the node's side in it (0: u, 1: v).
struct MapIncidence {
    int edge;
    int side;
};

// The incidence lists of a model's nodes (compressed rows, edges in index order).
class NodeIncidence {
  public:
    NodeIncidence() = default;
    explicit NodeIncidence(const PairwiseModel& model);

    std::span<const MapIncidence> of(int v) const {
        const auto i = static_cast<std::size_t>(v);
        return {entries_.data() + start_[i], start_[i + 1] - start_[i]};
    }
    // Bytes the lists of `model` take, before they are built.
    static double bytesFor(const PairwiseModel& model);

  private:
    std::vector<MapIncidence> entries_;
    std::vector<std::size_t> start_;  // variables + 1
};

// The order in which a move grows its block over n nodes: the nodes of `priority` first (in
// that order; repeats and nodes out of range ignored), then the others shuffled by `seed`
// (Fisher–Yates on PortableRandom, so a seed gives the same block everywhere). `queued` is
// work space (n flags, left marking the priority nodes).
void blockOrder(int n, std::span<const int> priority, std::uint64_t seed,
                std::vector<std::uint8_t>& queued, std::vector<int>& order);

class MapDecoder {
  public:
    // `model` and `incidence` must outlive the decoder; `floor` is the model's forbiddenFloor().
    MapDecoder(const PairwiseModel& model, const NodeIncidence& incidence, double floor);

    // What ICM polls (every 65,536 nodes) so that a time limit or a cancel ends it part-way,
    // x then a valid labeling, no worse than before (null: never stopped). Must outlive its use.
    void setInterrupt(const Interrupt* interrupt) { interrupt_ = interrupt; }
    bool interrupted() const { return interrupt_ && interrupt_->requested(); }

    // Up to `passes` passes of ICM on x, stopping after a pass that moves no node (or when
    // interrupted()).
    void icm(std::vector<int>& x, int passes);
    // One forest move on x: B grown from `priority` (nodes in that order, repeats ignored),
    // then from the other nodes shuffled by `seed`. Returns how many labels changed. With
    // balanced blocks on and a binary pairwise model, B is instead the balanced block of
    // local_search.h (a superset of what a forest can hold), maximised exactly by a min-cut.
    int forestMove(std::vector<int>& x, std::span<const int> priority, std::uint64_t seed);
    // Whether forestMove grows balanced blocks where the model allows it (binary, pairwise).
    void setBalancedBlocks(bool on);
    bool balancedBlocks() const { return balanced_ != nullptr; }

    // Large-neighbourhood kick: a ball of up to `size` nodes around a random node (breadth
    // first) gets random labels; the ball's nodes are left in `ball`. A forest move from the
    // ball then re-optimises it (the caller keeps the result only if E rose).
    void kick(std::vector<int>& x, int size, std::uint64_t seed, std::vector<int>& ball);

    ~MapDecoder();

  private:
    const Interrupt* interrupt_ = nullptr;
    std::unique_ptr<BalancedBlockMove> balanced_;  // null: forest moves
    // θ'_e(a, b) with the floor.
    double pairwise(int e, int a, int b) const;
    // θ'_v(a) + Σ over v's edges to nodes outside B of θ'_e at their labels, into value(v).
    void conditionalUnary(int v, const std::vector<int>& x);
    // Grows B (inBlock_) in the order of order_; the members in blockNodes_.
    void growForest(std::span<const int> priority, std::uint64_t seed);
    // Orders each tree of B from a root (tree_: node, parent, edge to it), sums the children's
    // max-marginals into their parents' values, then backtracks the maximiser into x.
    int solveForest(std::vector<int>& x);
    int findRoot(int v);
    double* value(int v) { return values_.data() + valueOffset_[static_cast<std::size_t>(v)]; }

    const PairwiseModel& model_;
    const NodeIncidence& incidence_;
    double floor_;
    std::vector<double> values_;            // per node of B: its DP values (k_v)
    std::vector<std::size_t> valueOffset_;  // variables + 1
    std::vector<double> scratch_;           // maxLabels()
    std::vector<int> order_;
    std::vector<std::uint8_t> inBlock_;
    std::vector<std::uint8_t> queued_;
    std::vector<int> union_;  // union-find parents over B
    std::vector<int> blockNodes_;
    struct TreeNode {
        int node;
        int parent;  // −1 at a root
        int edge;    // the edge to the parent
    };
    std::vector<TreeNode> tree_;
};

}  // namespace cplab
