// SPDX-License-Identifier: GPL-3.0-or-later
// The cycle DP and the frustrated-cycle search of cycle_search.h.
#include "map/cycle_search.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// out(b) = max_a in(a) + g(a, b) (forward, g is ka × kb) or out(a) = max_b g(a, b) + in(b).
void forwardStep(const std::vector<double>& in, const std::vector<double>& g, int kb,
                 std::vector<double>& out) {
    out.assign(static_cast<std::size_t>(kb), -kInf);
    for (std::size_t a = 0; a < in.size(); ++a) {
        if (in[a] == -kInf) continue;
        const double* row = g.data() + a * static_cast<std::size_t>(kb);
        for (int b = 0; b < kb; ++b)
            out[static_cast<std::size_t>(b)] =
                std::max(out[static_cast<std::size_t>(b)], in[a] + row[b]);
    }
}

void backwardStep(const std::vector<double>& in, const std::vector<double>& g, int ka,
                  std::vector<double>& out) {
    const std::size_t kb = in.size();
    out.assign(static_cast<std::size_t>(ka), -kInf);
    for (int a = 0; a < ka; ++a) {
        const double* row = g.data() + static_cast<std::size_t>(a) * kb;
        double best = -kInf;
        for (std::size_t b = 0; b < kb; ++b)
            if (in[b] != -kInf) best = std::max(best, row[b] + in[b]);
        out[static_cast<std::size_t>(a)] = best;
    }
}

// Union–find over projection nodes that keeps each node's parity relative to its root.
class ParityForest {
  public:
    explicit ParityForest(int n) : parent_(static_cast<std::size_t>(n)), parity_(parent_.size()) {
        std::iota(parent_.begin(), parent_.end(), 0);
    }
    // (root, parity of x relative to it)
    std::pair<int, int> find(int x) {
        int parity = 0;
        int root = x;
        while (parent_[static_cast<std::size_t>(root)] != root) {
            parity ^= parity_[static_cast<std::size_t>(root)];
            root = parent_[static_cast<std::size_t>(root)];
        }
        // Path compression: point every node on the way at the root with its own parity.
        int p = parity;
        while (parent_[static_cast<std::size_t>(x)] != root) {
            const auto i = static_cast<std::size_t>(x);
            const int next = parent_[i];
            const int own = parity_[i];
            parent_[i] = root;
            parity_[i] = p;
            p ^= own;
            x = next;
        }
        return {root, parity};
    }
    void join(int ra, int rb, int parity) {
        parent_[static_cast<std::size_t>(ra)] = rb;
        parity_[static_cast<std::size_t>(ra)] = parity;
    }

  private:
    std::vector<int> parent_;
    std::vector<int> parity_;
};

struct ProjectionEdge {
    int a = 0;  // projection nodes
    int b = 0;
    double weight = 0.0;  // |ω|
    int odd = 0;          // 1: repulsive
};

struct Projection {
    std::vector<int> variable;  // per projection node
    std::vector<ProjectionEdge> edges;
};

// The k-projection graph of the belief edges; empty edges when it would cost more than
// max_work table reads.
Projection buildProjection(std::span<const int> labels, const std::vector<BeliefEdge>& edges,
                           double maxWork, double minWeight) {
    Projection p;
    std::vector<int> first(labels.size() + 1, 0);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const int count = labels[i] == 2 ? 1 : labels[i];
        first[i + 1] = first[i] + count;
        for (int s = 0; s < count; ++s)
            p.variable.push_back(static_cast<int>(i));
    }
    auto count = [&](int v) {
        return first[static_cast<std::size_t>(v) + 1] - first[static_cast<std::size_t>(v)];
    };
    double work = 0.0;
    for (const BeliefEdge& e : edges)
        work += static_cast<double>(count(e.u)) * count(e.v) * static_cast<double>(e.table.size());
    if (work > maxWork) return p;
    for (const BeliefEdge& e : edges) {
        const int ku = labels[static_cast<std::size_t>(e.u)];
        const int kv = labels[static_cast<std::size_t>(e.v)];
        for (int s = 0; s < count(e.u); ++s)
            for (int t = 0; t < count(e.v); ++t) {
                double pi[4] = {-kInf, -kInf, -kInf, -kInf};  // index 2·z_u + z_v
                for (int a = 0; a < ku; ++a)
                    for (int b = 0; b < kv; ++b) {
                        double& slot = pi[2 * (a == s) + (b == t)];
                        slot = std::max(slot, e.table[static_cast<std::size_t>(a * kv + b)]);
                    }
                const double omega = std::max(pi[3], pi[0]) - std::max(pi[1], pi[2]);
                if (!(std::abs(omega) > minWeight)) continue;
                p.edges.push_back({first[static_cast<std::size_t>(e.u)] + s,
                                   first[static_cast<std::size_t>(e.v)] + t, std::abs(omega),
                                   omega < 0.0 ? 1 : 0});
            }
    }
    std::stable_sort(
        p.edges.begin(), p.edges.end(),
        [](const ProjectionEdge& x, const ProjectionEdge& y) { return x.weight > y.weight; });
    return p;
}

// A closed walk of projection nodes with each step's parity, cut down to a simple cycle of
// distinct variables: while a variable repeats, keep the piece between the repeats or the
// rest, whichever has an odd parity. Empty when fewer than 3 variables remain.
std::vector<int> simpleCycle(std::vector<int> walk, std::vector<int> odd) {
    for (;;) {
        std::size_t i = 0, j = 0;
        bool repeated = false;
        for (std::size_t x = 0; x < walk.size() && !repeated; ++x)
            for (std::size_t y = x + 1; y < walk.size() && !repeated; ++y)
                if (walk[x] == walk[y]) {
                    i = x;
                    j = y;
                    repeated = true;
                }
        if (!repeated) break;
        int parity = 0;
        for (std::size_t x = i; x < j; ++x)
            parity ^= odd[x];
        if (parity) {
            walk = std::vector<int>(walk.begin() + static_cast<std::ptrdiff_t>(i),
                                    walk.begin() + static_cast<std::ptrdiff_t>(j));
            odd = std::vector<int>(odd.begin() + static_cast<std::ptrdiff_t>(i),
                                   odd.begin() + static_cast<std::ptrdiff_t>(j));
        } else {
            walk.erase(walk.begin() + static_cast<std::ptrdiff_t>(i),
                       walk.begin() + static_cast<std::ptrdiff_t>(j));
            odd.erase(odd.begin() + static_cast<std::ptrdiff_t>(i),
                      odd.begin() + static_cast<std::ptrdiff_t>(j));
        }
    }
    if (walk.size() < 3) return {};
    return walk;
}

// Rotated to start at its smallest variable, and turned so that the second is below the last.
std::vector<int> canonical(std::vector<int> cycle) {
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    if (cycle[1] > cycle.back()) std::reverse(cycle.begin() + 1, cycle.end());
    return cycle;
}

// Breadth-first search in the doubled graph (node, parity) over `adjacency` for the fewest-
// edge path from (from, 0) to (to, parity); returns the path's nodes and step parities, or
// empty nodes when there is none.
class DoubledSearch {
  public:
    explicit DoubledSearch(std::size_t nodes) : seen_(2 * nodes, 0), previous_(2 * nodes, -1) {}

    bool run(const std::vector<std::vector<std::pair<int, int>>>& adjacency, int from, int to,
             int parity, std::vector<int>& nodes, std::vector<int>& odd) {
        ++stamp_;
        std::deque<int> queue{2 * from};
        seen_[static_cast<std::size_t>(2 * from)] = stamp_;
        const int goal = 2 * to + parity;
        while (!queue.empty() && seen_[static_cast<std::size_t>(goal)] != stamp_) {
            const int state = queue.front();
            queue.pop_front();
            for (const auto& [next, edgeOdd] : adjacency[static_cast<std::size_t>(state / 2)]) {
                const int target = 2 * next + ((state & 1) ^ edgeOdd);
                if (seen_[static_cast<std::size_t>(target)] == stamp_) continue;
                seen_[static_cast<std::size_t>(target)] = stamp_;
                previous_[static_cast<std::size_t>(target)] = state;
                queue.push_back(target);
            }
        }
        if (seen_[static_cast<std::size_t>(goal)] != stamp_) return false;
        nodes.clear();
        odd.clear();
        for (int state = goal; state != 2 * from;
             state = previous_[static_cast<std::size_t>(state)]) {
            const int before = previous_[static_cast<std::size_t>(state)];
            nodes.push_back(before / 2);
            odd.push_back((before & 1) ^ (state & 1));
        }
        std::reverse(nodes.begin(), nodes.end());
        std::reverse(odd.begin(), odd.end());
        return true;
    }

  private:
    std::vector<int> seen_;
    std::vector<int> previous_;
    int stamp_ = 0;
};

}  // namespace

std::uint64_t cycleKey(std::span<const int> nodes) {
    std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a over the canonical node list
    for (int v : canonical(std::vector<int>(nodes.begin(), nodes.end()))) {
        hash ^= static_cast<std::uint32_t>(v);
        hash *= 1099511628211ULL;
    }
    return hash;
}

double cycleMaxDp(std::span<const int> labels, std::span<const std::vector<double>> g,
                  std::vector<std::vector<double>>* maxOut) {
    const std::size_t size = labels.size();
    auto k = [&](std::size_t i) { return labels[i % size]; };
    if (maxOut) {
        if (maxOut->size() < size) maxOut->resize(size);  // only grown: capacity kept
        for (std::size_t i = 0; i < size; ++i)
            (*maxOut)[i].assign(g[i].size(), -kInf);
    }
    // Work space kept between calls: the MPLP sweep runs this DP for every cluster, every
    // sweep, and fresh vectors cost as much as the DP on binary cycles (forwardStep and
    // backwardStep assign into them, reusing their capacity).
    thread_local std::vector<std::vector<double>> forward, backward;
    if (forward.size() < size) forward.resize(size);
    if (backward.size() < size + 1) backward.resize(size + 1);
    double best = -kInf;
    for (int s = 0; s < labels[0]; ++s) {
        forward[0].assign(static_cast<std::size_t>(labels[0]), -kInf);
        forward[0][static_cast<std::size_t>(s)] = 0.0;
        for (std::size_t i = 0; i + 1 < size; ++i)
            forwardStep(forward[i], g[i], k(i + 1), forward[i + 1]);
        backward[size] = forward[0];
        for (std::size_t i = size - 1; i >= 1; --i)
            backwardStep(backward[i + 1], g[i], k(i), backward[i]);
        for (std::size_t a = 0; a < forward[size - 1].size(); ++a)
            best = std::max(best, forward[size - 1][a] + backward[size - 1][a]);
        if (!maxOut) continue;
        for (std::size_t i = 0; i < size; ++i) {
            const auto kb = static_cast<std::size_t>(k(i + 1));
            const std::vector<double>& in = forward[i];
            const std::vector<double>& out = backward[i + 1];
            auto& mm = (*maxOut)[i];
            for (std::size_t a = 0; a < in.size(); ++a) {
                if (in[a] == -kInf) continue;
                for (std::size_t b = 0; b < kb; ++b)
                    if (out[b] != -kInf)
                        mm[a * kb + b] =
                            std::max(mm[a * kb + b], in[a] + g[i][a * kb + b] + out[b]);
            }
        }
    }
    return best;
}

std::vector<std::vector<int>> findFrustratedCycles(std::span<const int> labels,
                                                   const std::vector<BeliefEdge>& edges,
                                                   const CycleSearchLimits& limits) {
    const Projection p = buildProjection(labels, edges, limits.max_work, limits.min_weight);
    std::vector<std::vector<int>> cycles;
    if (p.edges.empty() || limits.wanted <= 0) return cycles;
    const std::size_t nodes = p.variable.size();
    ParityForest forest(static_cast<int>(nodes));
    std::vector<std::vector<std::pair<int, int>>> taken(nodes);  // (neighbour, odd)
    DoubledSearch search(nodes);
    std::set<std::vector<int>> found;
    std::vector<int> path, odd;
    // Each search costs O(edges); a few more than `wanted` allow for repeats and rejects.
    int searches = 4 * limits.wanted + 64;
    for (const ProjectionEdge& e : p.edges) {
        const auto [ra, pa] = forest.find(e.a);
        const auto [rb, pb] = forest.find(e.b);
        if (ra != rb) {
            forest.join(ra, rb, pa ^ pb ^ e.odd);
        } else if ((pa ^ pb) != e.odd && searches-- > 0 &&
                   search.run(taken, e.a, e.b, 1 ^ e.odd, path, odd)) {
            // path a … b (parity 1 ^ odd) closed by e (b → a): an odd cycle.
            std::vector<int> walk;
            for (int node : path)
                walk.push_back(p.variable[static_cast<std::size_t>(node)]);
            walk.push_back(p.variable[static_cast<std::size_t>(e.b)]);
            odd.push_back(e.odd);
            std::vector<int> cycle = simpleCycle(std::move(walk), std::move(odd));
            if (!cycle.empty() && found.insert(canonical(cycle)).second) {
                cycles.push_back(std::move(cycle));
                if (static_cast<int>(cycles.size()) >= limits.wanted) break;
            }
        }
        taken[static_cast<std::size_t>(e.a)].emplace_back(e.b, e.odd);
        taken[static_cast<std::size_t>(e.b)].emplace_back(e.a, e.odd);
    }
    return cycles;
}

}  // namespace cplab
