// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/local_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cplab {

// ---- max-flow (Boykov & Kolmogorov 2004) ---------------------------------------------------

namespace {
constexpr int kInfinite = std::numeric_limits<int>::max();
}

void MaxFlow::reset(int nodes, int source, int sink) {
    const auto n = static_cast<std::size_t>(nodes);
    source_ = source;
    sink_ = sink;
    head_.assign(n, -1);
    next_.clear();
    to_.clear();
    capacity_.clear();
    fromSource_.assign(n, 0.0);
    toSink_.assign(n, 0.0);
    direct_ = 0.0;
}

void MaxFlow::addArc(int u, int v, double c, double reverse) {
    if (u == source_ || v == sink_ || v == source_ || u == sink_) {
        // Terminal arcs become terminal capacities; an arc into the source or out of the sink
        // carries no s–t flow (its reverse may).
        if (u == source_ && v == sink_) {
            direct_ += c;
        } else if (u == source_) {
            fromSource_[static_cast<std::size_t>(v)] += c;
        } else if (v == sink_) {
            toSink_[static_cast<std::size_t>(u)] += c;
        } else if (v == source_ && u != sink_) {
            fromSource_[static_cast<std::size_t>(u)] += reverse;
        } else if (u == sink_ && v != source_) {
            toSink_[static_cast<std::size_t>(v)] += reverse;
        }
        return;
    }
    const auto add = [this](int from, int to, double cap) {
        to_.push_back(to);
        capacity_.push_back(cap);
        next_.push_back(head_[static_cast<std::size_t>(from)]);
        head_[static_cast<std::size_t>(from)] = static_cast<int>(to_.size()) - 1;
    };
    add(u, v, c);
    add(v, u, reverse);
}

bool MaxFlow::onSourceSide(int v) const {
    if (v == source_) return true;
    if (v == sink_) return false;
    const auto i = static_cast<std::size_t>(v);
    return parent_[i] != kNone && !inSink_[i];
}

void MaxFlow::activate(int v) {
    if (active_[static_cast<std::size_t>(v)]) return;
    active_[static_cast<std::size_t>(v)] = 1;
    activeQueue_.push_back(v);
}

int MaxFlow::nextActive() {
    while (activeHead_ < activeQueue_.size()) {
        const int v = activeQueue_[activeHead_++];
        active_[static_cast<std::size_t>(v)] = 0;
        if (parent_[static_cast<std::size_t>(v)] != kNone) return v;
    }
    activeQueue_.clear();
    activeHead_ = 0;
    return -1;
}

int MaxFlow::grow(int v) {
    const auto i = static_cast<std::size_t>(v);
    const bool sink = inSink_[i];
    for (int a = head_[i]; a >= 0; a = next_[static_cast<std::size_t>(a)]) {
        // Source tree: residual v → w on a; sink tree: residual w → v on a's sister.
        if (capacity_[static_cast<std::size_t>(sink ? a ^ 1 : a)] <= tolerance_) continue;
        const auto j = static_cast<std::size_t>(to_[static_cast<std::size_t>(a)]);
        if (parent_[j] == kNone) {
            inSink_[j] = sink;
            parent_[j] = a ^ 1;
            stamp_[j] = stamp_[i];
            dist_[j] = dist_[i] + 1;
            activate(static_cast<int>(j));
        } else if (inSink_[j] != sink) {
            return sink ? a ^ 1 : a;  // the arc from the source tree to the sink tree
        } else if (stamp_[j] <= stamp_[i] && dist_[j] > dist_[i]) {
            parent_[j] = a ^ 1;  // a shorter way to the terminal
            stamp_[j] = stamp_[i];
            dist_[j] = dist_[i] + 1;
        }
    }
    return -1;
}

double MaxFlow::augment(int middle) {
    const auto cap = [this](int a) -> double& { return capacity_[static_cast<std::size_t>(a)]; };
    double b = cap(middle);
    // Source side: from the middle arc's tail up to the source; sink side: from its head.
    int v = to_[static_cast<std::size_t>(middle ^ 1)];
    for (int a; (a = parent_[static_cast<std::size_t>(v)]) != kTerminal; v = to_[std::size_t(a)])
        b = std::min(b, cap(a ^ 1));
    b = std::min(b, terminal_[static_cast<std::size_t>(v)]);
    v = to_[static_cast<std::size_t>(middle)];
    for (int a; (a = parent_[static_cast<std::size_t>(v)]) != kTerminal; v = to_[std::size_t(a)])
        b = std::min(b, cap(a));
    b = std::min(b, -terminal_[static_cast<std::size_t>(v)]);

    cap(middle) -= b;
    cap(middle ^ 1) += b;
    const auto orphan = [this](int w) {
        parent_[static_cast<std::size_t>(w)] = kOrphan;
        orphans_.push_back(w);
    };
    for (v = to_[static_cast<std::size_t>(middle ^ 1)];;) {
        const int a = parent_[static_cast<std::size_t>(v)];
        if (a == kTerminal) {
            if ((terminal_[static_cast<std::size_t>(v)] -= b) <= tolerance_) orphan(v);
            break;
        }
        cap(a) += b;
        const int up = to_[static_cast<std::size_t>(a)];
        if ((cap(a ^ 1) -= b) <= tolerance_) orphan(v);
        v = up;
    }
    for (v = to_[static_cast<std::size_t>(middle)];;) {
        const int a = parent_[static_cast<std::size_t>(v)];
        if (a == kTerminal) {
            if ((terminal_[static_cast<std::size_t>(v)] += b) >= -tolerance_) orphan(v);
            break;
        }
        cap(a ^ 1) += b;
        const int up = to_[static_cast<std::size_t>(a)];
        if ((cap(a) -= b) <= tolerance_) orphan(v);
        v = up;
    }
    return b;
}

int MaxFlow::originDistance(int v) {
    int d = 0;
    for (int w = v;;) {
        const auto j = static_cast<std::size_t>(w);
        if (stamp_[j] == time_) return d + dist_[j];
        const int a = parent_[j];
        ++d;
        if (a == kTerminal) {
            stamp_[j] = time_;
            dist_[j] = 1;
            return d;
        }
        if (a == kOrphan || a == kNone) return kInfinite;
        w = to_[static_cast<std::size_t>(a)];
    }
}

void MaxFlow::adopt(int v) {
    const auto i = static_cast<std::size_t>(v);
    const bool sink = inSink_[i];
    int best = -1;
    int bestDistance = kInfinite;
    for (int a = head_[i]; a >= 0; a = next_[static_cast<std::size_t>(a)]) {
        // A parent w must reach v (source tree: residual w → v) or be reached (sink tree).
        if (capacity_[static_cast<std::size_t>(sink ? a : a ^ 1)] <= tolerance_) continue;
        const int w = to_[static_cast<std::size_t>(a)];
        const auto j = static_cast<std::size_t>(w);
        if (inSink_[j] != sink || parent_[j] == kNone) continue;
        int d = originDistance(w);
        if (d == kInfinite) continue;
        if (d < bestDistance) {
            best = a;
            bestDistance = d;
        }
        for (int k = w; stamp_[static_cast<std::size_t>(k)] != time_;
             k = to_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(k)])]) {
            stamp_[static_cast<std::size_t>(k)] = time_;
            dist_[static_cast<std::size_t>(k)] = d--;
        }
    }
    if (best >= 0) {
        parent_[i] = best;
        stamp_[i] = time_;
        dist_[i] = bestDistance + 1;
        return;
    }
    // No parent: v leaves its tree; its neighbours that could reach it become active, its
    // children orphans.
    for (int a = head_[i]; a >= 0; a = next_[static_cast<std::size_t>(a)]) {
        const int w = to_[static_cast<std::size_t>(a)];
        const auto j = static_cast<std::size_t>(w);
        const int pa = parent_[j];
        if (inSink_[j] != sink || pa == kNone) continue;
        if (capacity_[static_cast<std::size_t>(sink ? a : a ^ 1)] > tolerance_) activate(w);
        if (pa >= 0 && to_[static_cast<std::size_t>(pa)] == v) {
            parent_[j] = kOrphan;
            orphans_.push_back(w);
        }
    }
    parent_[i] = kNone;
}

double MaxFlow::solve() {
    const std::size_t n = head_.size();
    double largest = 0.0;
    for (const double c : capacity_)
        largest = std::max(largest, c);
    double flow = direct_;
    terminal_.assign(n, 0.0);
    for (std::size_t v = 0; v < n; ++v) {
        const double both = std::min(fromSource_[v], toSink_[v]);
        flow += both;  // s → v → t saturated at once
        terminal_[v] = fromSource_[v] - toSink_[v];
        largest = std::max(largest, std::abs(terminal_[v]));
    }
    tolerance_ = 1e-12 * largest;
    parent_.assign(n, kNone);
    inSink_.assign(n, 0);
    active_.assign(n, 0);
    stamp_.assign(n, 0);
    dist_.assign(n, 0);
    activeQueue_.clear();
    activeHead_ = 0;
    orphans_.clear();
    time_ = 0;
    for (std::size_t v = 0; v < n; ++v) {
        if (terminal_[v] > tolerance_ || terminal_[v] < -tolerance_) {
            parent_[v] = kTerminal;
            inSink_[v] = terminal_[v] < 0.0;
            dist_[v] = 1;
            activate(static_cast<int>(v));
        }
    }
    int current = -1;
    for (;;) {
        const int v = current >= 0 && parent_[static_cast<std::size_t>(current)] != kNone
                          ? current
                          : nextActive();
        if (v < 0) break;
        const int middle = grow(v);
        ++time_;
        if (middle < 0) {
            current = -1;
            continue;
        }
        current = v;  // v may have more paths: grow from it again
        flow += augment(middle);
        while (!orphans_.empty()) {  // first in, first out, as the paper's
            batch_.clear();
            batch_.swap(orphans_);
            for (const int o : batch_)
                adopt(o);
        }
    }
    return flow;
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
    blockOrder(model_.variables(), priority, seed, queued_, order_);
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
    std::vector<std::uint8_t>& flip = flip_;
    flip.resize(block_.size());
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
    before_.assign(x.begin(), x.end());
    const double old = model_.energy(x);
    const int changed = solve(x);
    // The cut is exact up to rounding; never hand back a labeling that rounding made worse.
    if (changed > 0 && model_.energy(x) < old) {
        x.assign(before_.begin(), before_.end());
        return 0;
    }
    return changed;
}

}  // namespace cplab
