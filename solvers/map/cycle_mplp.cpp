// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/cycle_mplp.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>

#include "map/cycle_search.h"
#include "map/local_search.h"

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Candidate cycles beyond this many are not collected (dense graphs have very many 4-cycles).
// The candidates' joint labelings summed: every tightening scores all candidates (one
// max-product over each cycle's states), so this bounds its cost (about 0.1 s) on dense graphs,
// where the cycles of a complete graph of 60 nodes with 11 labels would need 10^10.
constexpr double kMaxCandidateStates = 2e7;

enum Line { kInput, kInit, kRepeat, kEdges, kClusters, kTighten, kDecode, kUntil };

}  // namespace

int autoSweepsPerStep(const PairwiseModel& model, const MessagePassingOptions& options) {
    const bool balancedMoves =
        options.balanced_blocks && options.forest_moves > 0 && BalancedBlockMove::applies(model);
    return balancedMoves && model.variables() >= kAutoSweepsMinVariables ? kAutoSweepsPerStep : 1;
}

int autoClustersPerRound(const PairwiseModel& model, const MessagePassingOptions& options) {
    return autoSweepsPerStep(model, options) > 1 ? kAutoClustersLarge : kAutoClusters;
}

bool CycleMplpOptions::isValid(std::string* why) const {
    const char* owner = "CycleMplpOptions";
    return base.isValid(owner, why) &&
           require(
               tighten_sweeps > 0 && (base.stall_sweeps == 0 || tighten_sweeps < base.stall_sweeps),
               owner, "tighten_sweeps", tighten_sweeps,
               "must be > 0 and < stall_sweeps (unless stall_sweeps = 0)", why) &&
           require(std::isfinite(tighten_tolerance) && tighten_tolerance >= 0.0, owner,
                   "tighten_tolerance", tighten_tolerance, "must be a finite number >= 0", why) &&
           require(clusters_per_round > 0 || clusters_per_round == -1, owner, "clusters_per_round",
                   clusters_per_round, "must be > 0, or -1 (auto)", why) &&
           require(std::isfinite(min_decrease) && min_decrease >= 0.0, owner, "min_decrease",
                   min_decrease, "must be a finite number >= 0", why) &&
           require(max_cluster_states > 0, owner, "max_cluster_states", max_cluster_states,
                   "must be > 0", why);
}

CycleMplpSolver::CycleMplpSolver(std::shared_ptr<const PairwiseModel> model,
                                 CycleMplpOptions options)
    : MessagePassingSolver(std::move(model), options.base, "CycleMplpOptions", nullptr,
                           {.ownInitialRecord = true}),
      cycleOptions_(options) {
    if (!acceptOptions(cycleOptions_)) return;
    SetupTimer timer(*this);
    setAutoSweepsPerStep(autoSweepsPerStep(*model_, cycleOptions_.base));
    clustersPerRound_ = cycleOptions_.clusters_per_round > 0
                            ? cycleOptions_.clusters_per_round
                            : autoClustersPerRound(*model_, cycleOptions_.base);
    extra_.resize(static_cast<std::size_t>(model_->edgeCount()));
    findCandidates();
    findSeparators();
    resetInitialRecord();  // with the cluster columns
}

void CycleMplpSolver::findCandidates() {
    const PairwiseModel& m = *model_;
    const int n = m.variables();
    std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
    for (int e = 0; e < m.edgeCount(); ++e) {
        const auto& ed = m.edge(e);
        if (edgeOf_.try_emplace(pairKey(ed.u, ed.v), e).second) {
            neighbours[static_cast<std::size_t>(ed.u)].push_back(ed.v);
            neighbours[static_cast<std::size_t>(ed.v)].push_back(ed.u);
        }
    }
    for (auto& list : neighbours)
        std::sort(list.begin(), list.end());
    auto connected = [&](int a, int b) { return edgeOf_.count(pairKey(a, b)) > 0; };
    double budget = kMaxCandidateStates;
    bool full = false;  // a candidate did not fit what is left of the budget
    auto add = [&](std::vector<int> nodes) {
        double states = 1.0;
        for (int v : nodes)
            states *= m.labels(v);
        if (states > cycleOptions_.max_cluster_states) return;
        if (states > budget) {
            full = true;
            return;
        }
        budget -= states;
        known_.insert(cycleKey(nodes));
        candidates_.push_back(makeCycle(std::move(nodes)));
    };
    // Each cycle once: a is its smallest node; triangles a < b < c; 4-cycles a-b-c-d-a with
    // b < d the neighbours of a on the cycle and c the node opposite a. All triangles come
    // first, then squares, while the budget of states lasts.
    for (const bool squares : {false, true}) {
        if (squares && !cycleOptions_.squares) break;
        for (int a = 0; a < n && !full; ++a) {
            const auto& na = neighbours[static_cast<std::size_t>(a)];
            for (std::size_t i = 0; i < na.size() && !full; ++i) {
                const int b = na[i];
                if (b < a) continue;
                for (std::size_t j = i + 1; j < na.size() && !full; ++j) {
                    const int d = na[j];
                    if (!squares) {
                        if (connected(b, d)) add({a, b, d});
                        continue;
                    }
                    for (int c : neighbours[static_cast<std::size_t>(b)]) {
                        if (c <= a || c == d || !connected(c, d)) continue;
                        add({a, b, c, d});
                    }
                }
            }
        }
    }
}

CycleMplpSolver::Cycle CycleMplpSolver::makeCycle(std::vector<int> nodes) const {
    const PairwiseModel& m = *model_;
    Cycle cycle;
    const auto size = nodes.size();
    for (std::size_t i = 0; i < size; ++i) {
        const int a = nodes[i];
        const int b = nodes[(i + 1) % size];
        const int e = edgeOf_.at(pairKey(a, b));
        cycle.edges.push_back(e);
        const bool forward = m.edge(e).u == a;
        cycle.slotU.push_back(static_cast<int>(forward ? i : (i + 1) % size));
        cycle.slotV.push_back(static_cast<int>(forward ? (i + 1) % size : i));
    }
    cycle.nodes = std::move(nodes);
    return cycle;
}

std::vector<std::vector<int>> CycleMplpSolver::clusterNodes() const {
    std::vector<std::vector<int>> nodes;
    for (const Cluster& c : clusters_)
        nodes.push_back(c.cycle.nodes);
    for (const Separator& s : separators_)
        if (s.active) nodes.push_back({s.u, s.v});
    return nodes;
}

void CycleMplpSolver::addToSnapshot(MapSnapshot& snapshot) const {
    snapshot.clusters = clusterNodes();
}

std::vector<std::string> CycleMplpSolver::extraColumns() const {
    std::vector<std::string> columns = MessagePassingSolver::extraColumns();
    columns.insert(columns.end(), {"clusters", "clusters_added", "longest_cycle",
                                   "guaranteed_decrease", "tighten_decrease"});
    return columns;
}

void CycleMplpSolver::appendExtra(std::vector<double>& extra) const {
    extra.push_back(static_cast<double>(clusterCount()));
    extra.push_back(static_cast<double>(addedLastStep_ + separatorsAddedLastStep_));
    std::size_t longest = 0;
    for (std::size_t c = clusters_.size() - static_cast<std::size_t>(addedLastStep_);
         c < clusters_.size(); ++c)
        longest = std::max(longest, clusters_[c].cycle.nodes.size());
    extra.push_back(static_cast<double>(longest));
    extra.push_back(addedDecrease_.empty()
                        ? 0.0
                        : *std::max_element(addedDecrease_.begin(), addedDecrease_.end()));
    extra.push_back(tightenDecrease_);
}

std::vector<std::string> CycleMplpSolver::pseudocode() const {
    return {
        "input: model theta, listed cycles C (triangles, 4-cycles), pair separators S, eps",
        "m <- 0;  clusters <- {};  U <- sum_u max theta_u + sum_e max theta_e",
        "repeat",
        "  MPLP sweep over the edges (theta_e + sum_c delta_{c->e}) and factors (to nodes, S)",
        "  for each cluster c: delta_{c->e} <- -lambda_e + max_{x_c \\ x_e} sum lambda / |c|",
        "  if U flat for k sweeps: add the best of S, and of C + frustrated cycles of b, by "
        "d(c) = sum max b_e - max_x_c sum b_e",
        "  x_u <- argmax b_u;  U <- sum max b_u + sum max b_e + sum max b_c;  L <- max(L, E(x))",
        "until U - L <= eps or no cycle lowers U",
    };
}

std::vector<int> CycleMplpSolver::stepLines() const {
    std::vector<int> lines = {kRepeat, kEdges, kClusters};
    if (addedLastStep_ + separatorsAddedLastStep_ > 0) lines.push_back(kTighten);
    lines.insert(lines.end(), {kDecode, kUntil});
    return lines;
}

double CycleMplpSolver::edgeBelief(int e, int a, int b) const {
    const PairwiseModel& m = *model_;
    double t = std::max(m.pairwise(e, a, b), floor_) - message(e, 0)[a] - message(e, 1)[b];
    const auto& extra = extra_[static_cast<std::size_t>(e)];
    if (!extra.empty())
        t += extra[static_cast<std::size_t>(a) * static_cast<std::size_t>(m.labels(m.edge(e).v)) +
                   static_cast<std::size_t>(b)];
    return t;
}

void CycleMplpSolver::edgeMaxMarginal(int e, int toward, const double* in, double* out) const {
    const PairwiseModel& m = *model_;
    const auto& extra = extra_[static_cast<std::size_t>(e)];
    if (extra.empty()) {
        m.maxMarginal(e, toward, in, out, floor_);
        return;
    }
    const int ku = m.labels(m.edge(e).u);
    const int kv = m.labels(m.edge(e).v);
    std::fill(out, out + (toward == 0 ? ku : kv), -kInf);
    for (int a = 0; a < ku; ++a)
        for (int b = 0; b < kv; ++b) {
            const double t =
                std::max(m.pairwise(e, a, b), floor_) + extra[static_cast<std::size_t>(a * kv + b)];
            if (toward == 0)
                out[a] = std::max(out[a], t + in[b]);
            else
                out[b] = std::max(out[b], t + in[a]);
        }
}

double CycleMplpSolver::cycleMax(const Cycle& cycle, const std::vector<std::vector<double>>& f,
                                 std::vector<std::vector<double>>* maxOut) const {
    const PairwiseModel& m = *model_;
    const std::size_t size = cycle.nodes.size();
    std::vector<int>& k = cycleLabels_;
    k.resize(size);
    for (std::size_t i = 0; i < size; ++i)
        k[i] = m.labels(cycle.nodes[i]);
    // The cycle DP reads g_i(x_i, x_{i+1}) along the cycle: an edge stored as (i+1, i) is
    // transposed, and so is its max-marginal on the way back. The tables are the solver's
    // work space (their capacity kept: this runs for every cluster in every sweep).
    auto transpose = [](const std::vector<double>& t, std::size_t rows, std::size_t columns,
                        std::vector<double>& out) {
        out.resize(t.size());
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < columns; ++c)
                out[c * rows + r] = t[r * columns + c];
    };
    std::vector<std::vector<double>>& g = cycleTables_;
    if (g.size() < size) g.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
        const auto ki = static_cast<std::size_t>(k[i]);
        const auto kj = static_cast<std::size_t>(k[(i + 1) % size]);
        if (cycle.slotU[i] == static_cast<int>(i))
            g[i].assign(f[i].begin(), f[i].end());
        else
            transpose(f[i], kj, ki, g[i]);
    }
    const double best = cycleMaxDp(k, std::span<const std::vector<double>>(g.data(), size), maxOut);
    if (maxOut)
        for (std::size_t i = 0; i < size; ++i)
            if (cycle.slotU[i] != static_cast<int>(i)) {
                transpose((*maxOut)[i], static_cast<std::size_t>(k[i]),
                          static_cast<std::size_t>(k[(i + 1) % size]), transposed_);
                (*maxOut)[i].swap(transposed_);
            }
    return best;
}

double CycleMplpSolver::cycleValue(const Cycle& cycle, const std::vector<std::vector<double>>& f,
                                   const std::vector<int>& x) const {
    const PairwiseModel& m = *model_;
    double sum = 0.0;
    for (std::size_t i = 0; i < cycle.edges.size(); ++i) {
        const auto& ed = m.edge(cycle.edges[i]);
        const int a = x[static_cast<std::size_t>(ed.u)];
        const int b = x[static_cast<std::size_t>(ed.v)];
        sum += f[i][static_cast<std::size_t>(a) * static_cast<std::size_t>(m.labels(ed.v)) +
                    static_cast<std::size_t>(b)];
    }
    return sum;
}

void CycleMplpSolver::updateCluster(Cluster& cluster) {
    const PairwiseModel& m = *model_;
    const Cycle& cycle = cluster.cycle;
    const std::size_t size = cycle.edges.size();
    // λ_e = θ̂_e − δ_{c→e}.
    std::vector<std::vector<double>>& lambda = lambda_;
    if (lambda.size() < size) lambda.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
        const int e = cycle.edges[i];
        const int ku = m.labels(m.edge(e).u);
        const int kv = m.labels(m.edge(e).v);
        lambda[i].resize(static_cast<std::size_t>(ku * kv));
        for (int a = 0; a < ku; ++a)
            for (int b = 0; b < kv; ++b) {
                const auto j = static_cast<std::size_t>(a * kv + b);
                lambda[i][j] = edgeBelief(e, a, b) - cluster.delta[i][j];
            }
    }
    std::vector<std::vector<double>>& maxMarginals = maxMarginals_;
    cycleMax(cycle, lambda, &maxMarginals);
    const double share = 1.0 / static_cast<double>(size);
    for (std::size_t i = 0; i < size; ++i) {
        auto& extra = extra_[static_cast<std::size_t>(cycle.edges[i])];
        for (std::size_t j = 0; j < cluster.delta[i].size(); ++j) {
            const double updated = share * maxMarginals[i][j] - lambda[i][j];
            extra[j] += updated - cluster.delta[i][j];
            cluster.delta[i][j] = updated;
        }
    }
}

void CycleMplpSolver::sweep() {
    const PairwiseModel& m = *model_;
    // The MPLP edge updates of mplp.cpp, on the edge tables augmented by the clusters.
    const bool complete = mplpEdgeSweep([this](int e, int toward, const double* in, double* out) {
        edgeMaxMarginal(e, toward, in, out);
    });
    if (!complete) return;
    for (std::size_t c = 0; c < clusters_.size(); ++c) {
        if ((c & 1023) == 1023 && cancelRequested()) return;
        updateCluster(clusters_[c]);
    }
    for (int f = 0; f < m.factorCount(); ++f) {
        if ((f & 1023) == 1023 && cancelRequested()) return;
        updateFactor(f);
    }
}

double CycleMplpSolver::guaranteedDecrease(const Cycle& cycle) const {
    const PairwiseModel& m = *model_;
    std::vector<std::vector<double>>& f = scoreTables_;
    f.resize(cycle.edges.size());
    double separate = 0.0;
    for (std::size_t i = 0; i < cycle.edges.size(); ++i) {
        const int e = cycle.edges[i];
        const int ku = m.labels(m.edge(e).u);
        const int kv = m.labels(m.edge(e).v);
        f[i].resize(static_cast<std::size_t>(ku * kv));
        double top = -kInf;
        for (int a = 0; a < ku; ++a)
            for (int b = 0; b < kv; ++b) {
                const double t = edgeBelief(e, a, b);
                f[i][static_cast<std::size_t>(a * kv + b)] = t;
                top = std::max(top, t);
            }
        separate += top;
    }
    return separate - (cycle.nodes.size() <= 4 ? shortCycleMax(cycle, f) : cycleMax(cycle, f));
}

double CycleMplpSolver::shortCycleMax(const Cycle& cycle,
                                      const std::vector<std::vector<double>>& f) const {
    // Every joint labeling, the sum in the order of the cycle DP (the same value to the bit).
    const std::size_t size = cycle.nodes.size();
    int k[4] = {}, x[4] = {};
    for (std::size_t i = 0; i < size; ++i)
        k[i] = model_->labels(cycle.nodes[i]);
    double best = -kInf;
    for (;;) {
        double sum = 0.0;
        for (std::size_t i = 0; i < size; ++i) {
            const auto u = static_cast<std::size_t>(cycle.slotU[i]);
            const auto v = static_cast<std::size_t>(cycle.slotV[i]);
            sum += f[i][static_cast<std::size_t>(x[u] * k[v] + x[v])];
        }
        best = std::max(best, sum);
        std::size_t j = 0;
        while (j < size && ++x[j] == k[j])
            x[j++] = 0;
        if (j == size) return best;
    }
}

std::vector<CycleMplpSolver::Cycle> CycleMplpSolver::searchCycles() const {
    std::vector<Cycle> cycles;
    if (cycleOptions_.cycle_search != "any") return cycles;
    const PairwiseModel& m = *model_;
    std::vector<int> labels(static_cast<std::size_t>(m.variables()));
    for (int v = 0; v < m.variables(); ++v)
        labels[static_cast<std::size_t>(v)] = m.labels(v);
    std::vector<BeliefEdge> edges;
    for (int e = 0; e < m.edgeCount(); ++e) {
        const auto& ed = m.edge(e);
        if (edgeOf_.at(pairKey(ed.u, ed.v)) != e) continue;  // a parallel edge: the first only
        BeliefEdge belief{ed.u, ed.v, {}};
        for (int a = 0; a < m.labels(ed.u); ++a)
            for (int b = 0; b < m.labels(ed.v); ++b)
                belief.table.push_back(edgeBelief(e, a, b));
        edges.push_back(std::move(belief));
    }
    CycleSearchLimits limits;
    limits.wanted =
        static_cast<int>(std::min(4LL * clustersPerRound_, static_cast<long long>(1 << 20)));
    limits.min_weight = cycleOptions_.min_decrease;
    for (std::vector<int>& nodes : findFrustratedCycles(labels, edges, limits))
        if (known_.count(cycleKey(nodes)) == 0) cycles.push_back(makeCycle(std::move(nodes)));
    return cycles;
}

int CycleMplpSolver::tighten() {
    const PairwiseModel& m = *model_;
    const std::size_t listed = candidates_.size();
    const auto perRound = static_cast<std::size_t>(clustersPerRound_);
    // d(c) of every candidate at the current messages; the qualifying ones, best first.
    std::vector<double> decrease(listed);
    auto qualifying = [&](std::size_t from, std::size_t to, auto&& cycleAt) {
        std::vector<std::size_t> order;
        for (std::size_t c = from; c < to; ++c) {
            decrease[c] = guaranteedDecrease(cycleAt(c));
            if (decrease[c] > cycleOptions_.min_decrease) order.push_back(c);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t i, std::size_t j) { return decrease[i] > decrease[j]; });
        return order;
    };
    std::vector<std::size_t> order =
        qualifying(0, listed, [&](std::size_t c) -> Cycle& { return candidates_[c]; });
    // The listed triangles and squares come first (cheap, and on grids usually enough); the
    // search fills a round they leave short, and goes on where they stall.
    std::vector<Cycle> found;
    if (order.size() < perRound) {
        found = searchCycles();
        decrease.resize(listed + found.size());
        const std::vector<std::size_t> more =
            qualifying(listed, listed + found.size(),
                       [&](std::size_t c) -> Cycle& { return found[c - listed]; });
        order.insert(order.end(), more.begin(), more.end());
    }
    if (order.size() > perRound) order.resize(perRound);
    auto cycleAt = [&](std::size_t c) -> Cycle& {
        return c < listed ? candidates_[c] : found[c - listed];
    };
    std::vector<char> taken(listed, 0);
    const std::size_t first = clusters_.size();
    for (const std::size_t c : order) {
        Cluster cluster;
        cluster.cycle = std::move(cycleAt(c));
        known_.insert(cycleKey(cluster.cycle.nodes));
        for (int e : cluster.cycle.edges) {
            const std::size_t entries = static_cast<std::size_t>(m.labels(m.edge(e).u)) *
                                        static_cast<std::size_t>(m.labels(m.edge(e).v));
            cluster.delta.emplace_back(entries, 0.0);
            auto& extra = extra_[static_cast<std::size_t>(e)];
            if (extra.empty()) extra.assign(entries, 0.0);
        }
        clusters_.push_back(std::move(cluster));
        addedDecrease_.push_back(decrease[c]);
        if (c < listed) taken[c] = 1;
    }
    const std::size_t added = clusters_.size() - first;
    if (added == 0) return 0;
    std::size_t kept = 0;
    for (std::size_t c = 0; c < listed; ++c) {
        if (taken[c]) continue;
        // Never a self-move: it would leave the candidate empty (a cycle of no nodes).
        if (kept != c) candidates_[kept] = std::move(candidates_[c]);
        ++kept;
    }
    candidates_.resize(kept);
    // The new clusters' first updates, best d(c) first: U falls by at least that d(c) (the
    // update attains it exactly on the cluster's own edges), measured here.
    const double before = currentBound();
    for (std::size_t c = first; c < clusters_.size(); ++c)
        updateCluster(clusters_[c]);
    tightenDecrease_ = before - currentBound();
    return static_cast<int>(added);
}

double CycleMplpSolver::bound(std::vector<std::uint8_t>& disagreeing) const {
    return boundAt(labeling(), disagreeing);
}

double CycleMplpSolver::boundAt(const std::vector<int>& x,
                                std::vector<std::uint8_t>& disagreeing) const {
    const PairwiseModel& m = *model_;
    double sum = factorBound(x, disagreeing);
    for (int v = 0; v < m.variables(); ++v)
        sum += beliefs(v)[static_cast<std::size_t>(x[static_cast<std::size_t>(v)])];
    for (int e = 0; e < m.edgeCount(); ++e) {
        const auto& ed = m.edge(e);
        double top = 0.0;
        if (extra_[static_cast<std::size_t>(e)].empty()) {
            top = m.maxReparametrised(e, message(e, 0), message(e, 1), floor_);
        } else {
            top = -kInf;
            for (int a = 0; a < m.labels(ed.u); ++a)
                for (int b = 0; b < m.labels(ed.v); ++b)
                    top = std::max(top, edgeBelief(e, a, b));
        }
        sum += top;
        const double at =
            edgeBelief(e, x[static_cast<std::size_t>(ed.u)], x[static_cast<std::size_t>(ed.v)]);
        if (at < top - 1e-9 * std::max(1.0, std::abs(top))) {
            disagreeing[static_cast<std::size_t>(ed.u)] = 1;
            disagreeing[static_cast<std::size_t>(ed.v)] = 1;
        }
    }
    // θ̂_c = −Σ δ_{c→e}.
    std::vector<std::vector<double>>& f = boundTables_;
    for (const Cluster& cluster : clusters_) {
        if (f.size() < cluster.delta.size()) f.resize(cluster.delta.size());
        for (std::size_t i = 0; i < cluster.delta.size(); ++i) {
            f[i].resize(cluster.delta[i].size());
            for (std::size_t j = 0; j < f[i].size(); ++j)
                f[i][j] = -cluster.delta[i][j];
        }
        const double top = cycleMax(cluster.cycle, f);
        const double atValue = cycleValue(cluster.cycle, f, x);
        sum += top;
        if (atValue < top - 1e-9 * std::max(1.0, std::abs(top)))
            for (int v : cluster.cycle.nodes)
                disagreeing[static_cast<std::size_t>(v)] = 1;
    }
    return sum;
}

void CycleMplpSolver::noteClusters(double boundBefore, double boundAfter) {
    const std::string bound =
        ": bound " + formatShort(boundBefore) + " -> " + formatShort(boundAfter);
    const auto separators = static_cast<std::ptrdiff_t>(separatorsAddedLastStep_);
    if (separators > 0) {
        const bool one = separators == 1;
        const double best =
            *std::max_element(addedDecrease_.begin(), addedDecrease_.begin() + separators);
        noteEvent(ClusterAdded, std::to_string(separators) + " pair separator" + (one ? "" : "s") +
                                    " of factors added (" + (one ? "d(s) " : "best d(s) ") +
                                    formatShort(best) + ", measured " +
                                    formatShort(separatorsDecrease_) + ")" +
                                    (addedLastStep_ > 0 ? "" : bound));
        if (addedLastStep_ == 0) return;
    }
    const double best =
        *std::max_element(addedDecrease_.begin() + separators, addedDecrease_.end());
    std::map<std::size_t, int> lengths;  // cycle length → clusters of it added
    for (std::size_t c = clusters_.size() - static_cast<std::size_t>(addedLastStep_);
         c < clusters_.size(); ++c)
        ++lengths[clusters_[c].cycle.nodes.size()];
    const std::string decrease = (addedLastStep_ == 1 ? "d(c) " : "best d(c) ") +
                                 formatShort(best) + ", measured " + formatShort(tightenDecrease_);
    if (addedLastStep_ == 1) {
        noteEvent(ClusterAdded, "cluster of " + std::to_string(lengths.begin()->first) +
                                    " nodes added (" + decrease + ")" + bound);
        return;
    }
    std::vector<std::string> counts;  // "12 of 4 nodes", "3 of 14", …
    for (const auto& [length, number] : lengths)
        counts.push_back(std::to_string(number) + " of " + std::to_string(length) +
                         (counts.empty() ? " nodes" : ""));
    noteEvent(ClusterAdded, std::to_string(addedLastStep_) + " clusters added (" + joined(counts) +
                                "; " + decrease + ")" + bound);
}

Status CycleMplpSolver::doStep(IterationRecord& record) {
    addedLastStep_ = 0;
    separatorsAddedLastStep_ = 0;
    separatorsDecrease_ = 0.0;
    addedDecrease_.clear();
    tightenDecrease_ = 0.0;
    const IterationRecord& last = lastRecord();
    history_.push_back(last.upper);
    const auto window = stepsFor(cycleOptions_.tighten_sweeps);
    if (history_.size() > window && !stopOptions().gapReached(last.gap, last.upper)) {
        const double before = history_[history_.size() - 1 - window];
        if (before - last.upper <=
            cycleOptions_.tighten_tolerance * std::max(1.0, std::abs(last.upper))) {
            // Pair separators of factors, then cycles, each up to clusters_per_round: the
            // separators are cheap, and a round of them must not keep the cycles out.
            separatorsAddedLastStep_ = addSeparators();
            separatorsDecrease_ = tightenDecrease_;
            addedLastStep_ = tighten();
            if (addedLastStep_ > 0) tightenDecrease_ += separatorsDecrease_;
            tightenFoundNone_ = addedLastStep_ + separatorsAddedLastStep_ == 0;
            history_.clear();
        }
    }
    Status status = MessagePassingSolver::doStep(record);
    if (addedLastStep_ + separatorsAddedLastStep_ > 0) noteClusters(last.upper, record.upper);
    if (status.code == StatusCode::Stalled && tightenFoundNone_)
        status.message += std::string("; no candidate cycle") +
                          (separators_.empty() ? "" : " or pair separator") +
                          " would lower the bound by more than " +
                          formatReal(cycleOptions_.min_decrease);
    return status;
}

}  // namespace cplab
