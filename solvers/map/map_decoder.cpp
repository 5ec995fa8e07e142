// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/map_decoder.h"

#include <algorithm>
#include <limits>

#include "data/portable_random.h"
#include "map/local_search.h"

namespace cplab {

NodeIncidence::NodeIncidence(const PairwiseModel& m) {
    const auto n = static_cast<std::size_t>(m.variables());
    start_.assign(n + 1, 0);
    for (const auto& ed : m.edges()) {
        ++start_[static_cast<std::size_t>(ed.u) + 1];
        ++start_[static_cast<std::size_t>(ed.v) + 1];
    }
    for (std::size_t v = 0; v < n; ++v)
        start_[v + 1] += start_[v];
    entries_.resize(start_.back());
    std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
    for (int e = 0; e < m.edgeCount(); ++e) {
        const auto& ed = m.edge(e);
        entries_[fill[static_cast<std::size_t>(ed.u)]++] = {e, 0};
        entries_[fill[static_cast<std::size_t>(ed.v)]++] = {e, 1};
    }
}

double NodeIncidence::bytesFor(const PairwiseModel& model) {
    return 2.0 * static_cast<double>(model.edgeCount()) * sizeof(MapIncidence) +
           (model.variables() + 1.0) * sizeof(std::size_t);
}

MapDecoder::MapDecoder(const PairwiseModel& model, const NodeIncidence& incidence, double floor)
    : model_(model), incidence_(incidence), floor_(floor) {
    const auto n = static_cast<std::size_t>(model.variables());
    valueOffset_.assign(n + 1, 0);
    for (std::size_t v = 0; v < n; ++v)
        valueOffset_[v + 1] = valueOffset_[v] + static_cast<std::size_t>(model.labels(int(v)));
    values_.assign(valueOffset_.back(), 0.0);
    scratch_.assign(static_cast<std::size_t>(std::max(1, model.maxLabels())), 0.0);
    inBlock_.assign(n, 0);
    queued_.assign(n, 0);
    union_.assign(n, 0);
}

double MapDecoder::pairwise(int e, int a, int b) const {
    return std::max(model_.pairwise(e, a, b), floor_);
}

void MapDecoder::icm(std::vector<int>& x, int passes) {
    double* score = scratch_.data();
    for (int pass = 0; pass < passes; ++pass) {
        bool moved = false;
        for (int v = 0; v < model_.variables(); ++v) {
            if ((v & 65535) == 65535 && interrupted()) return;
            const int k = model_.labels(v);
            const std::span<const double> theta = model_.unary(v);
            for (int a = 0; a < k; ++a)
                score[a] = std::max(theta[static_cast<std::size_t>(a)], floor_);
            for (const MapIncidence& inc : incidence_.of(v)) {
                const auto& ed = model_.edge(inc.edge);
                const int other = x[static_cast<std::size_t>(inc.side == 0 ? ed.v : ed.u)];
                for (int a = 0; a < k; ++a)
                    score[a] +=
                        inc.side == 0 ? pairwise(inc.edge, a, other) : pairwise(inc.edge, other, a);
            }
            for (const auto& at : model_.factorsAt(v))
                model_.addFactorConditional(at.factor, at.position, x, floor_, score);
            int& label = x[static_cast<std::size_t>(v)];
            const int top = static_cast<int>(std::max_element(score, score + k) - score);
            if (score[top] > score[label]) {  // strict: ICM never cycles
                label = top;
                moved = true;
            }
        }
        if (!moved) break;
    }
}

int MapDecoder::findRoot(int v) {
    auto i = static_cast<std::size_t>(v);
    while (union_[i] != static_cast<int>(i)) {
        union_[i] = union_[static_cast<std::size_t>(union_[i])];  // path halving
        i = static_cast<std::size_t>(union_[i]);
    }
    return static_cast<int>(i);
}

void blockOrder(int n, std::span<const int> priority, std::uint64_t seed,
                std::vector<std::uint8_t>& queued, std::vector<int>& order) {
    order.clear();
    queued.assign(static_cast<std::size_t>(n), 0);
    for (const int v : priority) {
        if (v < 0 || v >= n || queued[static_cast<std::size_t>(v)]) continue;
        queued[static_cast<std::size_t>(v)] = 1;
        order.push_back(v);
    }
    const std::size_t first = order.size();
    for (int v = 0; v < n; ++v)
        if (!queued[static_cast<std::size_t>(v)]) order.push_back(v);
    PortableRandom random(seed);
    for (std::size_t i = order.size(); i > first + 1; --i)  // Fisher–Yates on the rest
        std::swap(order[i - 1], order[first + random.below(i - first)]);
}

void MapDecoder::growForest(std::span<const int> priority, std::uint64_t seed) {
    blockOrder(model_.variables(), priority, seed, queued_, order_);
    std::fill(inBlock_.begin(), inBlock_.end(), 0);
    blockNodes_.clear();
    int seen[64];
    for (const int v : order_) {
        // v joins when its neighbours in B lie in distinct trees (no cycle, no parallel edge);
        // a node with more than 64 neighbours in B is left out.
        int count = 0;
        bool joins = true;
        for (const MapIncidence& inc : incidence_.of(v)) {
            const auto& ed = model_.edge(inc.edge);
            const int w = inc.side == 0 ? ed.v : ed.u;
            if (!inBlock_[static_cast<std::size_t>(w)]) continue;
            const int r = findRoot(w);
            if (count == 64 || std::find(seen, seen + count, r) != seen + count) {
                joins = false;
                break;
            }
            seen[count++] = r;
        }
        // A node of a higher-order factor joins only when no other node of that factor is in B:
        // with the others fixed, the factor is a unary term of it, and B stays a forest.
        for (const auto& at : model_.factorsAt(v)) {
            if (!joins) break;
            for (const int w : model_.factorVariables(at.factor))
                if (w != v && inBlock_[static_cast<std::size_t>(w)]) joins = false;
        }
        if (!joins) continue;
        inBlock_[static_cast<std::size_t>(v)] = 1;
        union_[static_cast<std::size_t>(v)] = v;
        for (int i = 0; i < count; ++i)
            union_[static_cast<std::size_t>(seen[i])] = v;
        blockNodes_.push_back(v);
    }
}

void MapDecoder::conditionalUnary(int v, const std::vector<int>& x) {
    const int k = model_.labels(v);
    const std::span<const double> theta = model_.unary(v);
    double* val = value(v);
    for (int a = 0; a < k; ++a)
        val[a] = std::max(theta[static_cast<std::size_t>(a)], floor_);
    for (const MapIncidence& inc : incidence_.of(v)) {
        const auto& ed = model_.edge(inc.edge);
        const int w = inc.side == 0 ? ed.v : ed.u;
        if (inBlock_[static_cast<std::size_t>(w)]) continue;
        const int other = x[static_cast<std::size_t>(w)];
        for (int a = 0; a < k; ++a)
            val[a] += inc.side == 0 ? pairwise(inc.edge, a, other) : pairwise(inc.edge, other, a);
    }
    for (const auto& at : model_.factorsAt(v))  // the factor's other nodes are outside B
        model_.addFactorConditional(at.factor, at.position, x, floor_, val);
}

int MapDecoder::solveForest(std::vector<int>& x) {
    // Breadth-first order of each tree (queued_ marks the nodes reached).
    tree_.clear();
    std::fill(queued_.begin(), queued_.end(), 0);
    for (const int root : blockNodes_) {
        if (queued_[static_cast<std::size_t>(root)]) continue;
        queued_[static_cast<std::size_t>(root)] = 1;
        std::size_t head = tree_.size();
        tree_.push_back({root, -1, -1});
        for (; head < tree_.size(); ++head) {
            const TreeNode t = tree_[head];
            for (const MapIncidence& inc : incidence_.of(t.node)) {
                const auto& ed = model_.edge(inc.edge);
                const int w = inc.side == 0 ? ed.v : ed.u;
                if (!inBlock_[static_cast<std::size_t>(w)] || queued_[static_cast<std::size_t>(w)])
                    continue;
                queued_[static_cast<std::size_t>(w)] = 1;
                tree_.push_back({w, t.node, inc.edge});
            }
        }
    }
    for (const TreeNode& t : tree_)
        conditionalUnary(t.node, x);
    // Leaves to roots: each node's max-marginal over its subtree into its parent's values.
    double* out = scratch_.data();
    for (auto it = tree_.rbegin(); it != tree_.rend(); ++it) {
        if (it->parent < 0) continue;
        const int toward = model_.edge(it->edge).u == it->parent ? 0 : 1;
        model_.maxMarginal(it->edge, toward, value(it->node), out, floor_);
        double* parent = value(it->parent);
        for (int a = 0; a < model_.labels(it->parent); ++a)
            parent[a] += out[a];
    }
    // Roots to leaves: each node's best label given its parent's.
    int changed = 0;
    for (const TreeNode& t : tree_) {
        const int k = model_.labels(t.node);
        const double* val = value(t.node);
        int best = 0;
        double top = -std::numeric_limits<double>::infinity();
        for (int b = 0; b < k; ++b) {
            double s = val[b];
            if (t.parent >= 0) {
                const int p = x[static_cast<std::size_t>(t.parent)];
                s += model_.edge(t.edge).u == t.parent ? pairwise(t.edge, p, b)
                                                       : pairwise(t.edge, b, p);
            }
            if (s > top) {
                top = s;
                best = b;
            }
        }
        int& label = x[static_cast<std::size_t>(t.node)];
        if (label != best) ++changed;
        label = best;
    }
    return changed;
}

void MapDecoder::kick(std::vector<int>& x, int size, std::uint64_t seed, std::vector<int>& ball) {
    ball.clear();
    const int n = model_.variables();
    if (n == 0 || size <= 0) return;
    PortableRandom random(seed);
    std::fill(queued_.begin(), queued_.end(), 0);
    const int start = static_cast<int>(random.below(static_cast<std::uint64_t>(n)));
    queued_[static_cast<std::size_t>(start)] = 1;
    ball.push_back(start);
    auto reach = [&](int w) {
        if (queued_[static_cast<std::size_t>(w)] || static_cast<int>(ball.size()) == size) return;
        queued_[static_cast<std::size_t>(w)] = 1;
        ball.push_back(w);
    };
    for (std::size_t head = 0; head < ball.size() && static_cast<int>(ball.size()) < size; ++head) {
        for (const MapIncidence& inc : incidence_.of(ball[head])) {
            const auto& ed = model_.edge(inc.edge);
            reach(inc.side == 0 ? ed.v : ed.u);
        }
        for (const auto& at : model_.factorsAt(ball[head]))  // neighbours through factors
            for (const int w : model_.factorVariables(at.factor))
                reach(w);
    }
    for (const int v : ball)
        x[static_cast<std::size_t>(v)] =
            static_cast<int>(random.below(static_cast<std::uint64_t>(model_.labels(v))));
}

MapDecoder::~MapDecoder() = default;

void MapDecoder::setBalancedBlocks(bool on) {
    if (on && BalancedBlockMove::applies(model_))
        balanced_ = std::make_unique<BalancedBlockMove>(model_, incidence_, floor_);
    else
        balanced_.reset();
}

int MapDecoder::forestMove(std::vector<int>& x, std::span<const int> priority, std::uint64_t seed) {
    if (balanced_) return balanced_->move(x, priority, seed);
    growForest(priority, seed);
    return solveForest(x);
}

}  // namespace cplab
