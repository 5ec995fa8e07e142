// SPDX-License-Identifier: GPL-3.0-or-later
// TRW-S, sequential tree-reweighted message passing (Kolmogorov 2006; ALGORITHMS.md
// §8), in the notation of message_passing.h (Kolmogorov's M_{wu} is our m_{e→u}).
//
// Nodes are taken in index order. Each node u lies in n_u = max(#neighbours before u,
// #neighbours after u) monotonic chains of the implicit chain decomposition, and keeps the
// share γ_u = 1/n_u of its belief for each of them.
// Iteration: a forward pass over u = 0 … N−1, then a backward pass over u = N−1 … 0; at u,
//     θ̂_u = θ_u + Σ_{e∋u} m_{e→u}                                       (fresh)
//     for each edge e = uw with w later in the pass:
//         m_{e→w}(x_w) ← max_{x_u} [γ_u θ̂_u(x_u) − m_{e→u}(x_u) + θ_e(x_u, x_w)],
//         normalised to max 0 (a constant shift leaves U unchanged).
// Rounding (as in Kolmogorov 2006): during the forward pass x_u maximises θ_u(x_u) +
// Σ_{w before u} θ_e(x_w, x_u) + Σ_{w after u} m_{e→u}(x_u), given the labels already fixed;
// it is scored besides the argmax of the beliefs, the better one kept.
// Bound: the value of the chain decomposition: the graph's edges are split into monotonic
// chains (each edge in one chain, node u in n_u of them), chain T gets
// θ^T = Σ_{u∈T} γ_u θ̂_u + Σ_{e∈T} θ^φ_e, so that Σ_T θ^T(x) = E(x) for every x, and
//     U_TRW = c + Σ_T max_x θ^T(x)  ≥  max_x E(x),
// each max by dynamic programming along the chain. TRW-S never increases U_TRW (Kolmogorov
// 2006; the tests check it on every record). It is not the node–edge U of
// message_passing.h, which is looser at the same messages (the node beliefs of TRW-S are
// max-marginals, not agreeing halves). A node disagrees when the maximiser of a chain through
// it (by backtracking) gives it another label than the decoding; a zero gap means every
// chain's maximum is attained at the decoded x. TRW-S converges to a weak-tree-agreement
// point: the LP optimum on trees and on binary models, on most others too, not on all.
// One step() = one forward and one backward pass. Stopping: message_passing.h.
// Speed (issue 50): the passes' and the chain bound's inner loops are vectorised
// (trws_kernels.h: AVX2 where the CPU has it, else the portable build; the same numbers,
// solvers.trws_reference), a node's incidences are resolved once into hops_, a pass prefetches
// the unary and messages of the node kPassPrefetch ahead (the hardware's prefetcher does not
// follow the streams of a pass: without it 60 % of a Potts pass waited on memory), and the
// chain bound prefetches its next links.
#pragma once

#include "map/message_passing.h"

namespace cplab {

using TrwsOptions = MessagePassingOptions;

class TrwsSolver final : public MessagePassingSolver {
  public:
    explicit TrwsSolver(std::shared_ptr<const PairwiseModel> model, TrwsOptions options = {});

    std::string name() const override { return "trws"; }
    std::vector<std::string> pseudocode() const override;

    // Whether the passes use the AVX2 build of their inner loops (trws_kernels.h): on a CPU
    // that has AVX2, unless turned off; otherwise the portable one. The same numbers either
    // way.
    bool vectorised() const { return avx2_; }
    // Lets solvers made from now on use AVX2 where the CPU has it (the default), or not: for
    // the tests that compare both builds. Thread-safe.
    static void allowVectorKernels(bool allow);

  protected:
    void sweep() override;
    std::vector<int> stepLines() const override;

    double bound(std::vector<std::uint8_t>& disagreeing) const override;

  private:
    // One pass in index order (forward) or against it; false when cancelled. passWith<K> is
    // the pass with the inner loops of K (trws_kernels.h), built once per target.
    bool pass(bool forward);
    template <class K>
    bool passWith(bool forward);
    bool passAvx2(bool forward);
    // Asks the memory for what the pass reads and writes at node u (its unary, the messages of
    // its edges toward the nodes after it in the pass), kPassPrefetch nodes ahead.
    void prefetchNode(int u, bool forward) const;
    static constexpr int kPassPrefetch = 10;

    // Builds chainFirst_, chainStart_ and chainLinks_ (the monotonic chains of the set-up).
    void buildChains();

    // A chain: its first node, then its links (edge, side of the node the link leaves).
    struct Link {
        int edge;
        int side;
    };
    // Node u's incidences for the passes (hops_[hopStart_[u] ...], in incidence order): the
    // messages toward u and toward the neighbour, resolved once (they never move), so a pass
    // reads one compact array instead of the incidence, edge and offset tables.
    struct Hop {
        const double* toMe;
        double* toOther;
        int other;
        int edge;
        double pottsWeight;  // NaN for a dense edge
    };
    // The forward pass's sequential rounding of node u (unary θ_u, its hops): proposal_[u]
    // maximises θ'_u plus the pairwise terms to the labelled earlier neighbours and the
    // messages from the later ones; `score` is scratch (k_u values).
    void roundLabel(int u, std::span<const double> theta, std::span<const Hop> hops, double* score);

    // The chain bound with the inner loops of K (trws_kernels.h), as passWith.
    template <class K>
    double boundWith(std::vector<std::uint8_t>& disagreeing) const;
    double boundAvx2(std::vector<std::uint8_t>& disagreeing) const;
    // One link of a chain's dynamic programme (bound()): out(y) = max_x [f(x) − m_mine(x) +
    // θ'_e(x, y)] + γ θ̂(y) − m_theirs(y) for the node the link enters; `in` is scratch.
    template <class K>
    void chainStep(const Link& link, int kNode, const double* f, double* out, double* in) const;
    // Asks the memory for what chainStep of `link` reads, kChainPrefetch links ahead.
    void prefetchLink(const Link& link) const;
    static constexpr std::size_t kChainPrefetch = 8;
    // The backtracking step: the first x maximising f(x) − m_mine(x) + θ'_e(x, label); `in` is
    // scratch.
    template <class K>
    int chainArgmax(const Link& link, int kFrom, const double* f, int label, double* in) const;

    std::vector<Hop> hops_;
    std::vector<std::size_t> hopStart_;
    std::vector<double> gamma_;            // γ_u
    std::vector<int> chainFirst_;          // first node of each chain
    std::vector<std::size_t> chainStart_;  // links of chain t: chainLinks_[chainStart_[t] ...]
    std::vector<Link> chainLinks_;
    mutable std::vector<double> dp_;  // DP values along the longest chain
    mutable std::vector<int> backtrack_;
    bool avx2_ = false;
};

}  // namespace cplab
