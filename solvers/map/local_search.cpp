// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/local_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "data/portable_random.h"

namespace cplab {

// ---- max-flow -------------------------------------------------------------------------------

void MaxFlow::reset(int nodes, int source, int sink) {
    source_ = source;
    sink_ = sink;
    head_.assign(static_cast<std::size_t>(nodes), -1);
    next_.clear();
    to_.clear();
    capacity_.clear();
    level_.assign(static_cast<std::size_t>(nodes), -1);
    current_.assign(static_cast<std::size_t>(nodes), -1);
}

void MaxFlow::addArc(int u, int v, double c, double reverse) {
    const auto add = [this](int from, int to, double cap) {
        to_.push_back(to);
        capacity_.push_back(cap);
        next_.push_back(head_[static_cast<std::size_t>(from)]);
        head_[static_cast<std::size_t>(from)] = static_cast<int>(to_.size()) - 1;
    };
    add(u, v, c);
    add(v, u, reverse);
}

bool MaxFlow::levels() {
    std::fill(level_.begin(), level_.end(), -1);
    queue_.clear();
    queue_.push_back(source_);
    level_[static_cast<std::size_t>(source_)] = 0;
    for (std::size_t head = 0; head < queue_.size(); ++head) {
        const int v = queue_[head];
        for (int a = head_[static_cast<std::size_t>(v)]; a >= 0;
             a = next_[static_cast<std::size_t>(a)]) {
            const auto w = static_cast<std::size_t>(to_[static_cast<std::size_t>(a)]);
            if (level_[w] >= 0 || capacity_[static_cast<std::size_t>(a)] <= tolerance_) continue;
            level_[w] = level_[static_cast<std::size_t>(v)] + 1;
            queue_.push_back(static_cast<int>(w));
        }
    }
    return level_[static_cast<std::size_t>(sink_)] >= 0;
}

double MaxFlow::augment() {
    // Depth-first along the level graph, iteratively (paths can be thousands of arcs long);
    // current_ remembers each node's next arc to try, so the phase is O(V·E).
    current_ = head_;
    path_.clear();
    double total = 0.0;
    int v = source_;
    for (;;) {
        if (v == sink_) {
            double f = std::numeric_limits<double>::infinity();
            for (const int a : path_)
                f = std::min(f, capacity_[static_cast<std::size_t>(a)]);
            for (const int a : path_) {
                capacity_[static_cast<std::size_t>(a)] -= f;
                capacity_[static_cast<std::size_t>(a ^ 1)] += f;
            }
            total += f;
            std::size_t k = 0;  // back to the tail of the first saturated arc
            while (k < path_.size() && capacity_[static_cast<std::size_t>(path_[k])] > tolerance_)
                ++k;
            path_.resize(k);
            v = k == 0 ? source_ : to_[static_cast<std::size_t>(path_[k - 1])];
            continue;
        }
        int& a = current_[static_cast<std::size_t>(v)];
        const int next = level_[static_cast<std::size_t>(v)] + 1;
        while (a >= 0 &&
               !(capacity_[static_cast<std::size_t>(a)] > tolerance_ &&
                 level_[static_cast<std::size_t>(to_[static_cast<std::size_t>(a)])] == next))
            a = next_[static_cast<std::size_t>(a)];
        if (a >= 0) {
            path_.push_back(a);
            v = to_[static_cast<std::size_t>(a)];
            continue;
        }
        level_[static_cast<std::size_t>(v)] = -1;  // a dead end for the rest of the phase
        if (path_.empty()) return total;
        const int back = path_.back();
        path_.pop_back();
        v = to_[static_cast<std::size_t>(back ^ 1)];
        int& tried = current_[static_cast<std::size_t>(v)];
        tried = next_[static_cast<std::size_t>(tried)];
    }
}

double MaxFlow::solve() {
    double largest = 0.0;
    for (const double c : capacity_)
        largest = std::max(largest, c);
    tolerance_ = 1e-12 * largest;
    double flow = 0.0;
    while (levels())
        flow += augment();
    return flow;  // the last levels() left the residual graph's source side marked
}

// ---- balanced block move --------------------------------------------------------------------

BalancedBlockMove::BalancedBlockMove(const PairwiseModel& model, const NodeIncidence& incidence,
                                     double floor)
    : model_(model), incidence_(incidence), floor_(floor) {
    const auto n = static_cast<std::size_t>(model.variables());
    const auto m = static_cast<std::size_t>(model.edgeCount());
    repulsive_.assign(m, 0);
    modular_.assign(m, 0);
    if (applies(model))
        for (int e = 0; e < model.edgeCount(); ++e) {
            const double a =
                pairwise(e, 0, 0) + pairwise(e, 1, 1) - pairwise(e, 0, 1) - pairwise(e, 1, 0);
            repulsive_[static_cast<std::size_t>(e)] = a < 0.0;
            modular_[static_cast<std::size_t>(e)] = a == 0.0;
        }
    queued_.assign(n, 0);
    inBlock_.assign(n, 0);
    parent_.assign(n, 0);
    parity_.assign(n, 0);
    index_.assign(n, -1);
}

bool BalancedBlockMove::applies(const PairwiseModel& model) {
    if (model.factorCount() > 0) return false;
    for (int v = 0; v < model.variables(); ++v)
        if (model.labels(v) != 2) return false;
    return true;
}

double BalancedBlockMove::pairwise(int e, int a, int b) const {
    return std::max(model_.pairwise(e, a, b), floor_);
}

int BalancedBlockMove::find(int v, int* parity) {
    int p = 0;
    int r = v;
    while (parent_[static_cast<std::size_t>(r)] != r) {
        p ^= parity_[static_cast<std::size_t>(r)];
        r = parent_[static_cast<std::size_t>(r)];
    }
    // Path compression: every node on the way points at the root with its parity to it.
    int at = v;
    int pa = p;
    while (at != r) {
        const int up = parent_[static_cast<std::size_t>(at)];
        const int pu = pa ^ parity_[static_cast<std::size_t>(at)];
        parent_[static_cast<std::size_t>(at)] = r;
        parity_[static_cast<std::size_t>(at)] = static_cast<std::uint8_t>(pa);
        at = up;
        pa = pu;
    }
    *parity = p;
    return r;
}

bool BalancedBlockMove::join(int v) {
    // Each neighbour w in B asks for v's flip relative to w's root: f_v = f_w ⊕ repulsive(e).
    // Two asks of one component that differ close an odd cycle of repulsive edges.
    demands_.clear();
    for (const MapIncidence& inc : incidence_.of(v)) {
        const auto e = static_cast<std::size_t>(inc.edge);
        const auto& ed = model_.edge(inc.edge);
        const int w = inc.side == 0 ? ed.v : ed.u;
        if (!inBlock_[static_cast<std::size_t>(w)] || modular_[e]) continue;
        int pw = 0;
        const int root = find(w, &pw);
        const int want = pw ^ repulsive_[e];
        const auto same = std::find_if(demands_.begin(), demands_.end(),
                                       [root](const Demand& d) { return d.root == root; });
        if (same == demands_.end())
            demands_.push_back({root, want});
        else if (same->parity != want)
            return false;
    }
    const auto i = static_cast<std::size_t>(v);
    inBlock_[i] = 1;
    parent_[i] = v;
    parity_[i] = 0;
    for (const Demand& d : demands_) {  // v becomes the root of the components it joins
        parent_[static_cast<std::size_t>(d.root)] = v;
        parity_[static_cast<std::size_t>(d.root)] = static_cast<std::uint8_t>(d.parity);
    }
    block_.push_back(v);
    return true;
}

void BalancedBlockMove::grow(std::span<const int> priority, std::uint64_t seed) {
    const int n = model_.variables();
    order_.clear();
    std::fill(queued_.begin(), queued_.end(), 0);
    for (const int v : priority) {
        if (v < 0 || v >= n || queued_[static_cast<std::size_t>(v)]) continue;
        queued_[static_cast<std::size_t>(v)] = 1;
        order_.push_back(v);
    }
    const std::size_t first = order_.size();
    for (int v = 0; v < n; ++v)
        if (!queued_[static_cast<std::size_t>(v)]) order_.push_back(v);
    PortableRandom random(seed);
    for (std::size_t i = order_.size(); i > first + 1; --i)  // Fisher–Yates on the rest
        std::swap(order_[i - 1], order_[first + random.below(i - first)]);
    std::fill(inBlock_.begin(), inBlock_.end(), 0);
    block_.clear();
    for (const int v : order_)
        join(v);
}

int BalancedBlockMove::solve(std::vector<int>& x) {
    // z_v = x'_v ⊕ f_v with f_v the parity to v's root: every internal edge is attractive in
    // z, and the cost −E over B is submodular. Nodes 0..|B|−1, source |B|, sink |B| + 1; a
    // node on the sink side takes z = 1 (Kolmogorov & Zabih 2004's construction).
    const int b = static_cast<int>(block_.size());
    std::vector<std::uint8_t> flip(block_.size());
    slope_.assign(block_.size(), 0.0);
    for (int i = 0; i < b; ++i) {
        const int v = block_[static_cast<std::size_t>(i)];
        index_[static_cast<std::size_t>(v)] = i;
        int f = 0;
        find(v, &f);
        flip[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(f);
        double cost[2];
        for (int z = 0; z < 2; ++z) {
            const int a = z ^ f;
            double c = -std::max(model_.unary(v)[static_cast<std::size_t>(a)], floor_);
            for (const MapIncidence& inc : incidence_.of(v)) {
                const auto& ed = model_.edge(inc.edge);
                const int w = inc.side == 0 ? ed.v : ed.u;
                if (inBlock_[static_cast<std::size_t>(w)]) continue;
                const int xw = x[static_cast<std::size_t>(w)];
                c -= inc.side == 0 ? pairwise(inc.edge, a, xw) : pairwise(inc.edge, xw, a);
            }
            cost[z] = c;
        }
        slope_[static_cast<std::size_t>(i)] = cost[1] - cost[0];
    }
    flow_.reset(b + 2, b, b + 1);
    for (int e = 0; e < model_.edgeCount(); ++e) {
        const auto& ed = model_.edge(e);
        const int iu = index_[static_cast<std::size_t>(ed.u)];
        const int iv = index_[static_cast<std::size_t>(ed.v)];
        if (iu < 0 || iv < 0 || !inBlock_[static_cast<std::size_t>(ed.u)] ||
            !inBlock_[static_cast<std::size_t>(ed.v)])
            continue;
        const int fu = flip[static_cast<std::size_t>(iu)];
        const int fv = flip[static_cast<std::size_t>(iv)];
        const double c00 = -pairwise(e, fu, fv);
        const double c01 = -pairwise(e, fu, 1 ^ fv);
        const double c10 = -pairwise(e, 1 ^ fu, fv);
        const double c11 = -pairwise(e, 1 ^ fu, 1 ^ fv);
        slope_[static_cast<std::size_t>(iu)] += c10 - c00;
        slope_[static_cast<std::size_t>(iv)] += c11 - c10;
        // C = c00 + (c10 − c00) z_u + (c11 − c10) z_v + (c01 + c10 − c00 − c11)(1 − z_u) z_v.
        const double w = std::max(0.0, c01 + c10 - c00 - c11);
        if (w > 0.0) flow_.addArc(iu, iv, w);
    }
    for (int i = 0; i < b; ++i) {
        const double s = slope_[static_cast<std::size_t>(i)];
        if (s > 0.0)
            flow_.addArc(b, i, s);  // cut (paid) when i is on the sink side: z = 1
        else if (s < 0.0)
            flow_.addArc(i, b + 1, -s);  // paid when z = 0
    }
    flow_.solve();
    int changed = 0;
    for (int i = 0; i < b; ++i) {
        const int v = block_[static_cast<std::size_t>(i)];
        const int z = flow_.onSourceSide(i) ? 0 : 1;
        const int label = z ^ flip[static_cast<std::size_t>(i)];
        if (x[static_cast<std::size_t>(v)] != label) ++changed;
        x[static_cast<std::size_t>(v)] = label;
        index_[static_cast<std::size_t>(v)] = -1;
    }
    return changed;
}

int BalancedBlockMove::move(std::vector<int>& x, std::span<const int> priority,
                            std::uint64_t seed) {
    if (!applies(model_) || model_.variables() == 0) return 0;
    grow(priority, seed);
    const std::vector<int> before = x;
    const double old = model_.energy(x);
    const int changed = solve(x);
    // The cut is exact up to rounding; never hand back a labeling that rounding made worse.
    if (changed > 0 && model_.energy(x) < old) {
        x = before;
        return 0;
    }
    return changed;
}

}  // namespace cplab
