#include "map/trws.h"

#include <algorithm>
#include <limits>

namespace cplab {

namespace {

enum Line { kInput, kInit, kRepeat, kForward, kRound, kBackward, kDecode, kUntil };

}  // namespace

TrwsSolver::TrwsSolver(std::shared_ptr<const PairwiseModel> model, TrwsOptions options)
    : MessagePassingSolver(std::move(model), options, "TrwsOptions") {
    if (rejected()) return;
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

    // Monotonic chains: at each node (in order) the chains arriving from earlier neighbours go
    // on along the edges to later ones; extra edges start new chains, extra arrivals end.
    std::vector<std::vector<std::pair<int, Link>>> links;  // per chain, in order
    std::vector<std::vector<int>> arriving(static_cast<std::size_t>(m.variables()));
    for (int u = 0; u < m.variables(); ++u) {
        const auto& in = arriving[static_cast<std::size_t>(u)];
        std::size_t used = 0;
        bool any = false;
        for (const Incidence& inc : incident(u)) {
            const auto& ed = m.edge(inc.edge);
            const int w = inc.side == 0 ? ed.v : ed.u;
            if (w < u) continue;
            any = true;
            int chain = 0;
            if (used < in.size()) {
                chain = in[used++];
            } else {
                chain = static_cast<int>(chainFirst_.size());
                chainFirst_.push_back(u);
                links.emplace_back();
            }
            links[static_cast<std::size_t>(chain)].push_back({w, {inc.edge, inc.side}});
            arriving[static_cast<std::size_t>(w)].push_back(chain);
        }
        if (!any && in.empty()) {  // an isolated node is a chain of its own
            chainFirst_.push_back(u);
            links.emplace_back();
        }
    }
    chainStart_.push_back(0);
    std::size_t longest = 0;
    for (const auto& chain : links) {
        for (const auto& link : chain)
            chainLinks_.push_back(link.second);
        chainStart_.push_back(chainLinks_.size());
        longest = std::max(longest, chain.size());
    }
    dp_.resize((longest + 1) * static_cast<std::size_t>(m.maxLabels()));
    backtrack_.resize(longest + 1);
    // The initial record was made with the default bound; redo it with the chains'.
    resetInitialRecord();
}

double TrwsSolver::bound(std::vector<std::uint8_t>& disagreeing) const {
    if (chainStart_.empty()) return MessagePassingSolver::bound(disagreeing);
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
            const Link& link = chainLinks_[chainStart_[t] + i];
            const auto& ed = m.edge(link.edge);
            const int next = link.side == 0 ? ed.v : ed.u;
            const double* f = dp_.data() + i * k;
            const double* mine = message(link.edge, link.side);
            const double* theirs = message(link.edge, 1 - link.side);
            for (int a = 0; a < kNode; ++a)
                in[a] = f[a] - mine[a];
            double* out = dp_.data() + (i + 1) * k;
            m.maxMarginal(link.edge, 1 - link.side, in, out, floor_);
            const std::span<const double> b = beliefs(next);
            const double g = gamma_[static_cast<std::size_t>(next)];
            const int kNext = m.labels(next);
            for (int y = 0; y < kNext; ++y)
                out[y] += g * b[static_cast<std::size_t>(y)] - theirs[y];
            node = next;
            kNode = kNext;
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
            const double* f = dp_.data() + i * k;
            const double* mine = message(link.edge, link.side);
            int best = 0;
            double bestValue = -std::numeric_limits<double>::infinity();
            for (int a = 0; a < m.labels(from); ++a) {
                const double pair = link.side == 0 ? m.pairwise(link.edge, a, label)
                                                   : m.pairwise(link.edge, label, a);
                const double value = f[a] - mine[a] + std::max(pair, floor_);
                if (value > bestValue) {
                    bestValue = value;
                    best = a;
                }
            }
            label = best;
            if (label != x[static_cast<std::size_t>(from)])
                disagreeing[static_cast<std::size_t>(from)] = 1;
        }
    }
    return total;
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

bool TrwsSolver::pass(bool forward) {
    const PairwiseModel& m = *model_;
    const int n = m.variables();
    const std::size_t k = static_cast<std::size_t>(m.maxLabels());
    double* in = scratch_.data();
    double* score = in + k;
    for (int step = 0; step < n; ++step) {
        if ((step & 4095) == 4095 && cancelRequested()) return false;
        const int u = forward ? step : n - 1 - step;
        recomputeBelief(u);
        const double* bu = belief(u);
        const int ku = m.labels(u);
        const double gamma = gamma_[static_cast<std::size_t>(u)];
        if (forward) {
            // Sequential rounding: earlier neighbours are labelled already.
            for (int x = 0; x < ku; ++x)
                score[x] = floorUnary(u, x);
            for (const Incidence& inc : incident(u)) {
                const auto& ed = m.edge(inc.edge);
                const int w = inc.side == 0 ? ed.v : ed.u;
                if (w > u) {
                    const double* mine = message(inc.edge, inc.side);
                    for (int x = 0; x < ku; ++x)
                        score[x] += mine[x];
                } else {
                    const int xw = proposal_[static_cast<std::size_t>(w)];
                    for (int x = 0; x < ku; ++x)
                        score[x] += std::max(inc.side == 0 ? m.pairwise(inc.edge, x, xw)
                                                           : m.pairwise(inc.edge, xw, x),
                                             floor_);
                }
            }
            proposal_[static_cast<std::size_t>(u)] =
                static_cast<int>(std::max_element(score, score + ku) - score);
        }
        for (const Incidence& inc : incident(u)) {
            const auto& ed = m.edge(inc.edge);
            const int w = inc.side == 0 ? ed.v : ed.u;
            if (forward ? w < u : w > u) continue;
            const double* mine = message(inc.edge, inc.side);
            for (int x = 0; x < ku; ++x)
                in[x] = gamma * bu[x] - mine[x];
            double* out = message(inc.edge, 1 - inc.side);
            m.maxMarginal(inc.edge, 1 - inc.side, in, out, floor_);
            const int kw = m.labels(w);
            const double top = *std::max_element(out, out + kw);
            for (int y = 0; y < kw; ++y)
                out[y] -= top;
        }
    }
    return true;
}

void TrwsSolver::sweep() {
    if (pass(true)) pass(false);
}

}  // namespace cplab
