// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/trws.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "map/trws_kernels.h"

namespace cplab {

namespace {

enum Line { kInput, kInit, kRepeat, kForward, kRound, kBackward, kDecode, kUntil };

// The message of a Potts edge of weight w < 0 into out, normalised to max 0, given
// in(a) = γ θ̂_u(a) − m_{e→u}(a) and first = max in:
// max_a [in(a) + w·[a = b]] = max(in(b) + w, the largest in(a) with a ≠ b), whose maximum over
// b is first (k ≥ 2). O(k), and branch-free (random data mispredicts the branches of a
// running top two). (w ≥ 0 needs no runner-up: the pass's pottsOut.)
void pottsMessageRepulsive(const double* in, double first, double weight, int k, double* out) {
    // The runner-up: the largest entry below `first`, or `first` itself when tied.
    constexpr double kLow = -std::numeric_limits<double>::infinity();
    double second = kLow;
    int ties = 0;
    int at = 0;
    for (int x = 0; x < k; ++x) {
        const bool isTop = in[x] == first;
        second = std::max(second, isTop ? kLow : in[x]);
        ties += isTop ? 1 : 0;
        at = isTop ? x : at;
    }
    if (ties > 1) second = first;
    const double top = k >= 2 ? first : first + weight;
    for (int y = 0; y < k; ++y)
        out[y] = std::max(in[y] + weight, first) - top;
    out[at] = std::max(first + weight, second) - top;
}

// What TRW-S holds besides the base's (message_passing.h, ExtraMemory): per edge, its two
// hops (32 B each), its chain link (8 B) and, while the chains are built, the (chain, link)
// made (12 B) and the arrival slots (2 × 4 B); per node, γ (8 B), the hop offsets (8 B), the
// rounded labeling (4 B), a chain's first node and offset (4 + 8 B, at most one chain per
// node) and, while building, the slot offsets (8 B) and arrival counts (4 B).
constexpr double kTrwsBytesPerEdge = 2 * 32 + 8 + 12 + 2 * 4;
constexpr double kTrwsBytesPerNode = 8 + 8 + 4 + 4 + 8 + 8 + 4;

std::atomic<bool> gVectorKernelsAllowed{true};

}  // namespace

void TrwsSolver::allowVectorKernels(bool allow) {
    gVectorKernelsAllowed.store(allow);
}

TrwsSolver::TrwsSolver(std::shared_ptr<const PairwiseModel> model, TrwsOptions options)
    : MessagePassingSolver(std::move(model), options, "TrwsOptions", "trws",
                           {.bytesPerEdge = kTrwsBytesPerEdge,
                            .bytesPerNode = kTrwsBytesPerNode,
                            .ownInitialRecord = true}) {
    if (rejected()) return;
#ifdef CPLAB_TRWS_X86
    avx2_ = gVectorKernelsAllowed.load() && __builtin_cpu_supports("avx2");
#endif
    SetupTimer timer(*this);
    const PairwiseModel& m = *model_;
    gamma_.assign(static_cast<std::size_t>(m.variables()), 1.0);
    for (int u = 0; u < m.variables(); ++u) {
        int before = 0;
        int after = 0;
        for (const Incidence& inc : incident(u)) {
            const auto& ed = m.edge(inc.edge);
            const int w = inc.side == 0 ? ed.v : ed.u;
            (w < u ? before : after) += 1;
        }
        const int chains = std::max(before, after);
        if (chains > 0) gamma_[static_cast<std::size_t>(u)] = 1.0 / chains;
    }
    proposal_.assign(static_cast<std::size_t>(m.variables()), 0);
    hopStart_.reserve(static_cast<std::size_t>(m.variables()) + 1);
    hopStart_.assign(1, 0);
    hops_.reserve(2 * static_cast<std::size_t>(m.edgeCount()));
    for (int u = 0; u < m.variables(); ++u) {
        for (const Incidence& inc : incident(u)) {
            const auto& ed = m.edge(inc.edge);
            hops_.push_back({message(inc.edge, inc.side), message(inc.edge, 1 - inc.side),
                             inc.side == 0 ? ed.v : ed.u, inc.edge,
                             ed.kind == PairwiseModel::EdgeKind::Potts
                                 ? ed.weight
                                 : std::numeric_limits<double>::quiet_NaN()});
        }
        hopStart_.push_back(hops_.size());
    }

    buildChains();
    std::size_t longest = 0;
    for (std::size_t t = 0; t + 1 < chainStart_.size(); ++t)
        longest = std::max(longest, chainStart_[t + 1] - chainStart_[t]);
    dp_.resize((longest + 1) * static_cast<std::size_t>(m.maxLabels()));
    backtrack_.resize(longest + 1);
    // The iteration-0 record with the chains' bound (the base made none).
    resetInitialRecord();
}

void TrwsSolver::buildChains() {
    // Monotonic chains: at each node (in order) the chains arriving from earlier neighbours go
    // on along the edges to later ones; extra edges start new chains, extra arrivals end.
    // Flat arrays of known sizes (a vector per node and per chain took 1.5 GB more on a
    // 4096 × 4096 grid): the chains arriving at w fill w's slots (one per incidence), and the
    // links, made in node order, are grouped by chain by a stable counting sort.
    const PairwiseModel& m = *model_;
    const auto n = static_cast<std::size_t>(m.variables());
    std::vector<std::size_t> slots(n + 1, 0);
    for (std::size_t u = 0; u < n; ++u)
        slots[u + 1] = slots[u] + incident(static_cast<int>(u)).size();
    std::vector<int> arriving(slots[n]);
    std::vector<int> arrived(n, 0);
    std::vector<std::pair<int, Link>> made;  // (chain, link) in the order they are made
    made.reserve(static_cast<std::size_t>(m.edgeCount()));
    for (int u = 0; u < m.variables(); ++u) {
        const auto at = static_cast<std::size_t>(u);
        const int* in = arriving.data() + slots[at];
        const int count = arrived[at];
        int used = 0;
        bool any = false;
        for (const Incidence& inc : incident(u)) {
            const auto& ed = m.edge(inc.edge);
            const int w = inc.side == 0 ? ed.v : ed.u;
            if (w < u) continue;
            any = true;
            int chain = 0;
            if (used < count) {
                chain = in[used++];
            } else {
                chain = static_cast<int>(chainFirst_.size());
                chainFirst_.push_back(u);
            }
            made.push_back({chain, {inc.edge, inc.side}});
            const auto to = static_cast<std::size_t>(w);
            arriving[slots[to] + static_cast<std::size_t>(arrived[to]++)] = chain;
        }
        if (!any && count == 0) chainFirst_.push_back(u);  // an isolated node: a chain
    }
    chainStart_.assign(chainFirst_.size() + 1, 0);
    for (const auto& entry : made)
        ++chainStart_[static_cast<std::size_t>(entry.first) + 1];
    for (std::size_t t = 0; t + 1 < chainStart_.size(); ++t)
        chainStart_[t + 1] += chainStart_[t];
    std::vector<std::size_t> next(chainStart_.begin(), chainStart_.end() - 1);
    chainLinks_.resize(made.size());
    for (const auto& [chain, link] : made)
        chainLinks_[next[static_cast<std::size_t>(chain)]++] = link;
}

double TrwsSolver::bound(std::vector<std::uint8_t>& disagreeing) const {
    if (chainStart_.empty()) return MessagePassingSolver::bound(disagreeing);
#ifdef CPLAB_TRWS_X86
    if (avx2_) return boundAvx2(disagreeing);
#endif
    return boundWith<trws_kernels::Portable>(disagreeing);
}

#ifdef CPLAB_TRWS_X86
[[gnu::target("avx2"), gnu::flatten]] double TrwsSolver::boundAvx2(
    std::vector<std::uint8_t>& disagreeing) const {
    return boundWith<trws_kernels::Avx2>(disagreeing);
}
#endif

template <class K>
double TrwsSolver::boundWith(std::vector<std::uint8_t>& disagreeing) const {
    const PairwiseModel& m = *model_;
    const auto k = static_cast<std::size_t>(m.maxLabels());
    const std::vector<int>& x = labeling();
    double* in = scratch_.data();
    double total = 0.0;
    for (std::size_t t = 0; t + 1 < chainStart_.size(); ++t) {
        // f_0 = γ θ̂ of the first node; f_{i+1}(y) = max_x [f_i(x) + θ^φ_e(x, y)] + γ θ̂(y).
        int node = chainFirst_[t];
        const std::size_t length = chainStart_[t + 1] - chainStart_[t];
        int kNode = m.labels(node);
        {
            const std::span<const double> b = beliefs(node);
            const double g = gamma_[static_cast<std::size_t>(node)];
            for (int a = 0; a < kNode; ++a)
                dp_[static_cast<std::size_t>(a)] = g * b[static_cast<std::size_t>(a)];
        }
        for (std::size_t i = 0; i < length; ++i) {
            if (i + kChainPrefetch < length)
                prefetchLink(chainLinks_[chainStart_[t] + i + kChainPrefetch]);
            const Link& link = chainLinks_[chainStart_[t] + i];
            const auto& ed = m.edge(link.edge);
            node = link.side == 0 ? ed.v : ed.u;
            chainStep<K>(link, kNode, dp_.data() + i * k, dp_.data() + (i + 1) * k, in);
            kNode = m.labels(node);
        }
        const double* last = dp_.data() + length * k;
        const auto top = std::max_element(last, last + kNode);
        total += *top;
        // Backtrack the chain's maximiser and compare it with the decoding.
        int label = static_cast<int>(top - last);
        if (label != x[static_cast<std::size_t>(node)])
            disagreeing[static_cast<std::size_t>(node)] = 1;
        for (std::size_t i = length; i-- > 0;) {
            const Link& link = chainLinks_[chainStart_[t] + i];
            const auto& ed = m.edge(link.edge);
            const int from = link.side == 0 ? ed.u : ed.v;
            label = chainArgmax<K>(link, m.labels(from), dp_.data() + i * k, label, in);
            if (label != x[static_cast<std::size_t>(from)])
                disagreeing[static_cast<std::size_t>(from)] = 1;
        }
    }
    return total;
}

void TrwsSolver::prefetchLink(const Link& link) const {
    // A chain across the rows of a grid jumps a row of nodes at each link, which the
    // hardware's prefetcher does not follow: 37 % of an evaluation went to waiting for the
    // messages and beliefs of the next link.
    const PairwiseModel& m = *model_;
    const auto& ed = m.edge(link.edge);
    const int next = link.side == 0 ? ed.v : ed.u;
    const double* messages = message(link.edge, 0);
    const std::size_t size = static_cast<std::size_t>(m.labels(ed.u) + m.labels(ed.v));
    for (std::size_t x = 0; x < size; x += 8)
        __builtin_prefetch(messages + x);
    const std::span<const double> b = beliefs(next);
    for (std::size_t x = 0; x < b.size(); x += 8)
        __builtin_prefetch(b.data() + x);
}

template <class K>
void TrwsSolver::chainStep(const Link& link, int kNode, const double* f, double* out,
                           double* in) const {
    const PairwiseModel& m = *model_;
    const auto& ed = m.edge(link.edge);
    const int next = link.side == 0 ? ed.v : ed.u;
    const double* mine = message(link.edge, link.side);
    const double* theirs = message(link.edge, 1 - link.side);
    const double* b = beliefs(next).data();
    const double g = gamma_[static_cast<std::size_t>(next)];
    const int kNext = m.labels(next);
    const double first = K::chainIn(f, mine, kNode, in);
    if (ed.kind == PairwiseModel::EdgeKind::Potts && ed.weight >= 0.0) {
        // maxMarginal's Potts value without the runner-up, as in the passes (w ≥ 0).
        K::chainPotts(in, ed.weight, first, g, b, theirs, kNext, out);
        return;
    }
    if (ed.kind == PairwiseModel::EdgeKind::Potts) {
        m.maxMarginal(link.edge, 1 - link.side, in, out, floor_);
    } else if (link.side == 0) {  // toward v: maxMarginal's max over the rows
        K::denseAlongRows(m.table(link.edge).data(), kNode, kNext, in, floor_, out);
    } else {
        K::denseAcrossRows(m.table(link.edge).data(), kNext, kNode, in, floor_, out);
    }
    K::chainAdd(g, b, theirs, kNext, out);
}

template <class K>
int TrwsSolver::chainArgmax(const Link& link, int kFrom, const double* f, int label,
                            double* in) const {
    const PairwiseModel& m = *model_;
    const auto& ed = m.edge(link.edge);
    const double* mine = message(link.edge, link.side);
    if (ed.kind == PairwiseModel::EdgeKind::Potts && floor_ < 0.0) {
        // θ'_e(x, label) is max(w, F) at x = label and max(0, F) = 0 elsewhere (x + 0 is x but
        // for the sign of a zero, which no comparison tells apart).
        K::chainIn(f, mine, kFrom, in);
        in[label] += std::max(ed.weight, floor_);
        return K::firstArgmax(in, kFrom);
    }
    const bool potts = ed.kind == PairwiseModel::EdgeKind::Potts;
    int best = 0;
    double bestValue = -std::numeric_limits<double>::infinity();
    for (int a = 0; a < kFrom; ++a) {
        const double pair = potts            ? (a == label ? ed.weight : 0.0)
                            : link.side == 0 ? m.pairwise(link.edge, a, label)
                                             : m.pairwise(link.edge, label, a);
        const double value = f[a] - mine[a] + std::max(pair, floor_);
        if (value > bestValue) {
            bestValue = value;
            best = a;
        }
    }
    return best;
}

std::vector<std::string> TrwsSolver::pseudocode() const {
    return {
        "input: pairwise model theta, tolerance eps; gamma_u = 1/max(#earlier, #later nbrs)",
        "m <- 0;  U <- sum_u max theta_u + sum_e max theta_e",
        "repeat",
        "  for u = 1..N:  b_u <- theta_u + sum m_{.->u};  for later w: m_{e->w} <- "
        "max_xu [gamma_u b_u - m_{e->u} + theta_e]",
        "    x_u <- argmax theta_u + sum_{earlier w} theta_e(x_w, .) + sum_{later w} m_{e->u}",
        "  for u = N..1:  the same toward earlier neighbours",
        "  U <- sum max b_u + sum max theta_e^m;  L <- max(L, E(x), E(argmax b))",
        "until U - L <= eps or U stalls",
    };
}

std::vector<int> TrwsSolver::stepLines() const {
    return {kRepeat, kForward, kRound, kBackward, kDecode, kUntil};
}

void TrwsSolver::roundLabel(int u, std::span<const double> theta, std::span<const Hop> hops,
                            double* score) {
    // Sequential rounding: earlier neighbours are labelled already.
    const PairwiseModel& m = *model_;
    const int ku = static_cast<int>(theta.size());
    for (int x = 0; x < ku; ++x)
        score[x] = std::max(theta[static_cast<std::size_t>(x)], floor_);
    for (const Hop& hop : hops) {
        const int w = hop.other;
        if (w > u) {
            for (int x = 0; x < ku; ++x)
                score[x] += hop.toMe[x];
        } else if (hop.pottsWeight == hop.pottsWeight) {
            // Potts: θ'_e(x, x_w) is max(w, F) at x = x_w and 0 elsewhere (F < 0), and adding
            // 0 changes no score.
            const int xw = proposal_[static_cast<std::size_t>(w)];
            score[xw] += std::max(hop.pottsWeight, floor_);
        } else {
            const bool first = m.edge(hop.edge).u == u;
            const int xw = proposal_[static_cast<std::size_t>(w)];
            for (int x = 0; x < ku; ++x)
                score[x] += std::max(
                    first ? m.pairwise(hop.edge, x, xw) : m.pairwise(hop.edge, xw, x), floor_);
        }
    }
    proposal_[static_cast<std::size_t>(u)] =
        static_cast<int>(std::max_element(score, score + ku) - score);
}

namespace {

// Asks the memory for the cache lines of k doubles from p (for writing when `write`).
[[gnu::always_inline]] inline void prefetchValues(const double* p, std::size_t k, bool write) {
    for (std::size_t x = 0; x < k; x += 8)
        write ? __builtin_prefetch(p + x, 1) : __builtin_prefetch(p + x);
    write ? __builtin_prefetch(p + k - 1, 1) : __builtin_prefetch(p + k - 1);
}

}  // namespace

[[gnu::always_inline]] inline void TrwsSolver::prefetchNode(int u, bool forward) const {
    // A pass is a stream of nodes whose loads the hardware's prefetcher starts too late: 60 %
    // of a Potts pass on a 256 x 256 x 16 grid waited for the messages from the nodes after u
    // (written by the previous pass, out of cache). The messages from the nodes before u were
    // written a moment ago and are still in cache.
    const std::span<const double> theta = model_->unary(u);
    prefetchValues(theta.data(), theta.size(), false);
    const auto at = static_cast<std::size_t>(u);
    for (std::size_t h = hopStart_[at]; h < hopStart_[at + 1]; ++h) {
        const Hop& hop = hops_[h];
        if (forward ? hop.other < u : hop.other > u) continue;
        prefetchValues(hop.toMe, theta.size(), false);
        prefetchValues(hop.toOther, static_cast<std::size_t>(model_->labels(hop.other)), true);
    }
}

template <class K>
bool TrwsSolver::passWith(bool forward) {
    const PairwiseModel& m = *model_;
    const int n = m.variables();
    const std::size_t k = static_cast<std::size_t>(m.maxLabels());
    double* in = scratch_.data();
    double* score = in + k;
    double* bu = score + k;
    const bool rounding = forward && lastSweepOfStep();
    for (int step = 0; step < n; ++step) {
        if ((step & 4095) == 4095 && cancelRequested()) return false;
        const int u = forward ? step : n - 1 - step;
        if (step + kPassPrefetch < n)
            prefetchNode(forward ? u + kPassPrefetch : u - kPassPrefetch, forward);
        // θ̂_u into scratch: the pass never needs the stored beliefs (evaluate() recomputes
        // them), and not writing them saves memory traffic on large grids.
        const std::span<const double> theta = m.unary(u);
        const int ku = static_cast<int>(theta.size());
        const std::span<const Hop> hops(hops_.data() + hopStart_[static_cast<std::size_t>(u)],
                                        hops_.data() + hopStart_[static_cast<std::size_t>(u) + 1]);
        K::belief(bu, theta.data(), floor_, ku, hops.data(), hops.size());
        const double gamma = gamma_[static_cast<std::size_t>(u)];
        if (rounding) roundLabel(u, theta, hops, score);
        for (const Hop& hop : hops) {
            const int w = hop.other;
            if (forward ? w < u : w > u) continue;
            const double* mine = hop.toMe;
            double* out = hop.toOther;
            const double first = K::lambdaMax(bu, mine, gamma, ku, in);
            const double weight = hop.pottsWeight;
            if (weight >= 0.0) {
                // max_a [in(a) + w·[a = y]] = max(in(y) + w, first), whose maximum over y is
                // first + w: O(k), no runner-up needed.
                K::pottsOut(in, weight, first, first + weight, ku, out);
            } else if (weight < 0.0) {
                pottsMessageRepulsive(in, first, weight, ku, out);
            } else {  // NaN: a dense edge
                const PairwiseModel::Edge& ed = m.edge(hop.edge);
                const double* table = m.table(hop.edge).data();
                if (ed.u == u)
                    K::denseAlongRows(table, ku, m.labels(w), in, floor_, out);
                else
                    K::denseAcrossRows(table, m.labels(w), ku, in, floor_, out);
                K::normalise(out, m.labels(w));
            }
        }
    }
    return true;
}

#ifdef CPLAB_TRWS_X86
[[gnu::target("avx2"), gnu::flatten]] bool TrwsSolver::passAvx2(bool forward) {
    return passWith<trws_kernels::Avx2>(forward);
}
#endif

bool TrwsSolver::pass(bool forward) {
#ifdef CPLAB_TRWS_X86
    if (avx2_) return passAvx2(forward);
#endif
    return passWith<trws_kernels::Portable>(forward);
}

void TrwsSolver::sweep() {
    if (pass(true)) pass(false);
}

}  // namespace cplab
