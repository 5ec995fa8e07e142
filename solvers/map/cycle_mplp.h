// SPDX-License-Identifier: GPL-3.0-or-later
// MPLP tightened by cycles, the dual cutting-plane method of Sontag et al. 2008 ("Tightening
// LP relaxations for MAP using message passing"; ALGORITHMS.md §8, "Tightening"), in the
// notation of message_passing.h.
//
// Clusters: a cluster c is a cycle of the graph — a triangle, or a 4-cycle (the faces of a
// grid) — with zero potential. It adds messages δ_{c→e}(x_e) to each of its edges e, and the
// dual becomes
//     U = c + Σ_u max θ̂_u + Σ_e max θ̂_e + Σ_c max θ̂_c,
//     θ̂_e = θ_e + Σ_{c∋e} δ_{c→e} − m_{e→u} − m_{e→v},     θ̂_c(x_c) = −Σ_{e∈c} δ_{c→e}(x_e).
// Every cluster enlarges the dual's domain (δ = 0 gives the old U), which in the primal is a
// cut of the local polytope toward the marginal polytope: U falls where a cycle is frustrated.
// Iteration (one step()): an MPLP sweep over the edges (mplp.h, with θ_e + Σ_c δ_{c→e} as the
// edge's table), then for each cluster the exact minimisation of U over its messages
// (generalised MPLP, Sontag et al. 2008):
//     λ_e(x_e) = θ̂_e(x_e) − δ_{c→e}(x_e)                                     (e ∈ c)
//     δ_{c→e}(x_e) ← −λ_e(x_e) + (1/|c|) max_{x_c ∖ x_e} Σ_{e'∈c} λ_{e'}(x_{e'}),
// so U never increases.
// Tightening: when the best U has fallen by less than tighten_tolerance·max(1, |U|) over
// tighten_sweeps sweeps and the gap is open, every candidate cycle c not yet added is scored
// by the decrease of U it guarantees on its own,
//     d(c) = Σ_{e∈c} max_{x_e} θ̂_e(x_e) − max_{x_c} Σ_{e∈c} θ̂_e(x_e)  ≥ 0,
// and the clusters_per_round best with d(c) > min_decrease are added (Sontag et al.
// 2008). Candidates: all triangles and (squares = true) 4-cycles of the graph whose joint
// labelings number at most max_cluster_states (at most a million cycles), listed once, which
// come first; and with cycle_search = any (the default), at every tightening where fewer than
// clusters_per_round listed ones qualify, the frustrated cycles of any length in the current
// edge beliefs θ̂_e (cycle_search.h, Sontag, Choe & Li 2012), up to 4·clusters_per_round of
// them, fill the round. Every max over x_c (d(c), the cluster update's max-marginals,
// the bound) is the cycle DP of cycle_search.h, O(L·k³) for a cycle of L nodes, so a long
// cycle costs no k^L. The clusters added are updated at once, best d(c) first, so the bound
// falls by at least the best d(c) of the round. When no candidate qualifies, the run stops as
// stalled once the stall rule of message_passing.h applies; a zero gap certifies the optimum.
// Higher-order factors (factor_tightening.cpp): a factor f sends messages δ_{f→i} to its
// variables as in MPLP (mplp.h), and once tightened also δ_{f→s}(x_s) to pair separators s
// = {i, j} ⊂ f: the pairs shared by two or more factors, or by a factor and an edge (Sontag et
// al. 2008 §3, clusters sending messages to their intersection sets). A separator over an edge
// e adds them to θ̂_e like a cycle's; any other has a table of its own,
//     θ̂_s(x_s) = Σ_{f∋s} δ_{f→s}(x_s),   θ̂_f = θ_f − Σ_{i∈f} δ_{f→i} − Σ_{s⊂f} δ_{f→s},
// and U gains Σ_f max θ̂_f + Σ_s max θ̂_s (the primal: every factor containing s has the
// same pair marginal on s). The factor update is generalised MPLP over f's intersection sets
// (its variables and its separators, n of them): with λ_t = θ̂_t − δ_{f→t} (t's belief
// without f) and M_t the max-marginal of θ_f + Σ_t λ_t onto t,
//     δ_{f→t} ← M_t / n − λ_t,
// the exact minimisation of U over f's messages, so U never increases. Separators are added
// at a tightening (separators = pursuit), the clusters_per_round best by the decrease a
// separator guarantees with all its factors' messages free,
//     d(s) = Σ_{f∋s} max θ̂_f + max θ̂_s − max_{x_s} [θ̂_s(x_s) + Σ_{f∋s} max_{x_f∖x_s} θ̂_f],
// and updated at once, then the round's cycles as above (a round of separators never keeps
// the cycles out); or all at the start (separators = all). With every separator added, the
// LP is the local polytope with factor marginals plus pair consistency.
// Record columns: those of message_passing.h plus "clusters" (added so far), "clusters_added"
// (by this step), "longest_cycle" (nodes of the longest cycle this step added, 0: none),
// "guaranteed_decrease" (the best d(c) this step added) and "tighten_decrease" (the measured
// fall of U by the added clusters' first updates, ≥ guaranteed_decrease); the ClusterAdded
// event gives each cluster's length and d(c).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "map/message_passing.h"

namespace cplab {

// What sweeps_per_step = kAuto (the default) means for mplp_cycles: kAutoSweepsPerStep sweeps
// per step on a binary pairwise model of at least kAutoSweepsMinVariables variables whose
// decoder makes balanced block moves (balanced_blocks, forest_moves > 0), else 1. There one
// evaluation (the bound over the clusters, ICM, a max-flow move over about 70 % of the nodes)
// costs about two sweeps, so with one sweep per step two thirds of the time go to evaluating;
// on smaller models an evaluation takes under a millisecond and one sweep per step keeps what
// a viewer steps through (the demos). Chosen on generated grids (docs/map.md, issue 50).
//
// The threshold was 1,000 variables when chosen; the confirmation on the shared 40 × 40 grids
// (1,600 variables) failed there: Grids_19 stalled at a fixed point of the cycle search 0.10
// above its optimum, which one sweep per step certifies at 15 s, and on the 40 × 40 tuning tori
// with |J| up to 10 or 15 three sweeps had changed E by −0.07 … +0.08 % only. So the 40 × 40
// grids keep one sweep per step, and the large grids (80 × 80: 6,400 variables) take three.
inline constexpr int kAutoSweepsPerStep = 3;
inline constexpr int kAutoSweepsMinVariables = 4096;
int autoSweepsPerStep(const PairwiseModel& model, const MessagePassingOptions& options);
// clusters_per_round = -1 (the default): kAutoClustersLarge where autoSweepsPerStep takes
// three sweeps (on the 80 × 80 tuning grids, seeds 1001–1003, E at 30 s 10686.5 / 10751.4 /
// 10640.2 with 20 clusters, 10695.2 / 10763.6 / 10647.1 with 50, 10706.7 / 10777.5 / 10662.9
// with 100: the bound of 6,400 variables closes only with more cycles per round), else
// kAutoClusters, the count before issue 50.
inline constexpr int kAutoClusters = 20;
inline constexpr int kAutoClustersLarge = 100;
int autoClustersPerRound(const PairwiseModel& model, const MessagePassingOptions& options);

struct CycleMplpOptions {
    MessagePassingOptions base;  // stop rules and the stall rule
    // Sweeps with a flat bound before clusters are added; > 0 and < stall_sweeps (when the
    // stall rule is on), so that tightening is tried before the run gives up.
    int tighten_sweeps = 5;
    // "Flat": the best bound fell by less than this times max(1, |U|) over tighten_sweeps.
    double tighten_tolerance = 1e-6;
    int clusters_per_round = -1;     // clusters added at most per tightening, > 0; -1: auto
    double min_decrease = 1e-6;      // a cycle is added only if d(c) > min_decrease, ≥ 0
    int max_cluster_states = 65536;  // candidate cycles with more joint labelings are skipped
    bool squares = true;             // 4-cycles as candidates besides triangles
    // "any": also search the frustrated cycles of any length at each tightening; "short": the
    // listed triangles and 4-cycles only (the method before the search).
    std::string cycle_search = "any";
    // Pair separators of higher-order factors: "pursuit" adds them when the bound stalls, best
    // d(s) first; "all" adds every one at the start; "none" never.
    std::string separators = "pursuit";

    void visit(OptionVisitor& v) {
        base.visit(v);
        v.integer("tighten_sweeps", tighten_sweeps,
                  "sweeps with a flat bound before cycles are added (> 0, < stall_sweeps)");
        v.real("tighten_tolerance", tighten_tolerance,
               "flat: the bound fell by less than this times max(1, |U|) (>= 0)");
        v.integer("clusters_per_round", clusters_per_round,
                  "cycles added at most per tightening (> 0; -1: auto, 100 on binary models of "
                  "4,096+ variables, else 20)");
        v.real("min_decrease", min_decrease,
               "a cycle is added only if it guarantees a bound decrease above this (>= 0)");
        v.integer("max_cluster_states", max_cluster_states,
                  "skip candidate cycles with more joint labelings than this (> 0)");
        v.boolean("squares", squares, "use 4-cycles (grid faces) as well as triangles");
        v.choice("cycle_search", cycle_search, {"any", "short"},
                 "any: also search frustrated cycles of any length in the current dual at "
                 "each tightening; short: triangles and 4-cycles only");
        v.choice("separators", separators, {"pursuit", "all", "none"},
                 "higher-order factors: pairs of variables shared by two factors (or a factor "
                 "and an edge) on which they must agree; pursuit: added when the bound stalls, "
                 "best first; all: every one at the start; none: never");
    }
    bool isValid(std::string* why) const;
};

class CycleMplpSolver final : public MessagePassingSolver {
  public:
    explicit CycleMplpSolver(std::shared_ptr<const PairwiseModel> model,
                             CycleMplpOptions options = {});

    std::string name() const override { return "mplp_cycles"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    int clusterCount() const override { return clusters() + activeSeparators(); }

    // Cycle clusters added.
    int clusters() const { return static_cast<int>(clusters_.size()); }
    int candidates() const { return static_cast<int>(candidates_.size()); }
    // Pair separators of higher-order factors: candidates in all, and added.
    int separatorCount() const { return static_cast<int>(separators_.size()); }
    int activeSeparators() const { return activeSeparators_; }
    // The nodes of each added cluster, in cycle order, then of each added pair separator.
    std::vector<std::vector<int>> clusterNodes() const;

  protected:
    void sweep() override;
    std::vector<int> stepLines() const override;
    double bound(std::vector<std::uint8_t>& disagreeing) const override;
    void appendExtra(std::vector<double>& extra) const override;
    void addToSnapshot(MapSnapshot& snapshot) const override;
    Status doStep(IterationRecord& record) override;

  private:
    // A cycle: its nodes in order and its edges, edge i joining nodes i and i+1 (mod size).
    struct Cycle {
        std::vector<int> nodes;
        std::vector<int> edges;
        std::vector<int> slotU;  // per edge: position of the edge's u in `nodes`
        std::vector<int> slotV;  // and of its v
    };
    struct Cluster {
        Cycle cycle;
        std::vector<std::vector<double>> delta;  // δ_{c→e}, per edge in its row-major layout
    };

    // A pair separator s = {u, v} of higher-order factors (factor_tightening.cpp).
    struct Member {
        int factor;
        int first;   // position of u in the factor
        int second;  // position of v
    };
    struct Separator {
        int u = 0;
        int v = 0;
        int edge = -1;              // the edge over u, v (its θ̂_e takes δ_{f→s}), or −1
        std::vector<double> table;  // otherwise θ̂_s = Σ_f δ_{f→s}, u's label major
        std::vector<Member> members;
        bool active = false;
    };
    // A factor's message to a separator it belongs to.
    struct Link {
        int separator;
        int first;
        int second;
        std::vector<double> delta;
    };

    // The key of the unordered node pair {a, b}.
    static std::uint64_t pairKey(int a, int b) {
        const auto lo = static_cast<std::uint32_t>(std::min(a, b));
        const auto hi = static_cast<std::uint32_t>(std::max(a, b));
        return (std::uint64_t(lo) << 32) | hi;
    }
    void findCandidates();
    // Lists the pair separators of the higher-order factors.
    void findSeparators();
    // θ̂_s(a, b) of separator s at the current messages.
    double separatorBelief(const Separator& s, int a, int b) const;
    // The generalised MPLP update of factor f's messages (to its variables and separators).
    void updateFactor(int f);
    // max θ̂_f, with the max-marginal of θ̂_f onto the pair at (first, second) in `pairOut` if
    // not null; marks the factor's variables in `disagreeing` (if not null) when labeling x
    // misses its maximum.
    double factorTerm(int f, const std::vector<int>* x, std::vector<std::uint8_t>* disagreeing,
                      const Member* pair = nullptr, double* pairOut = nullptr) const;
    // d(s) of separator s at the current messages.
    double separatorDecrease(const Separator& s) const;
    void activateSeparator(int s);
    // Adds the best separators of a tightening (at most clusters_per_round); returns how many.
    int addSeparators();
    // U without c and the cycle clusters at labeling x: the factor and separator terms.
    double factorBound(const std::vector<int>& x, std::vector<std::uint8_t>& disagreeing) const;
    // U without c at the current beliefs (their argmax, not the last decoded labeling).
    double currentBound() const;
    // bound() at labeling x.
    double boundAt(const std::vector<int>& x, std::vector<std::uint8_t>& disagreeing) const;
    // The cycle through `nodes` (consecutive ones and the last and first joined by an edge).
    Cycle makeCycle(std::vector<int> nodes) const;
    // Frustrated cycles of the current edge beliefs not yet known (cycle_search.h).
    std::vector<Cycle> searchCycles() const;
    // d(c) of a cycle at the current messages.
    double guaranteedDecrease(const Cycle& cycle) const;
    // cycleMax without max-marginals for a cycle of at most 4 nodes, by enumeration.
    double shortCycleMax(const Cycle& cycle, const std::vector<std::vector<double>>& f) const;
    // Notes the ClusterAdded event of a step that added clusters.
    void noteClusters(double boundBefore, double boundAfter);
    // θ̂_e(a, b) of edge e at the current messages (beliefs not needed).
    double edgeBelief(int e, int a, int b) const;
    // max_{x_c} Σ_{e∈c} f_e(x_e) by the cycle DP, f_e given as dense tables in each edge's
    // layout; with `maxOut`, also each edge's max-marginal (the max over the rest of x_c).
    double cycleMax(const Cycle& cycle, const std::vector<std::vector<double>>& f,
                    std::vector<std::vector<double>>* maxOut = nullptr) const;
    // Σ_{e∈c} f_e at the labeling x of the whole graph.
    double cycleValue(const Cycle& cycle, const std::vector<std::vector<double>>& f,
                      const std::vector<int>& x) const;
    // Max-marginal of edge e's table θ' + Σ_c δ_{c→e} (as PairwiseModel::maxMarginal).
    void edgeMaxMarginal(int e, int toward, const double* in, double* out) const;
    void updateCluster(Cluster& cluster);
    // Adds the best candidates; returns how many.
    int tighten();

    CycleMplpOptions cycleOptions_;
    int clustersPerRound_ = kAutoClusters;           // cycleOptions_.clusters_per_round resolved
    std::unordered_map<std::uint64_t, int> edgeOf_;  // node pair → its first edge
    std::unordered_set<std::uint64_t> known_;        // hashes of the candidates and clusters
    std::vector<Cycle> candidates_;                  // listed, not yet added
    std::vector<Cluster> clusters_;
    std::vector<std::vector<double>> extra_;  // per edge: Σ_c δ_{c→e} (empty: none)
    std::vector<double> history_;             // best bound after each sweep
    mutable std::vector<std::vector<double>> scoreTables_;  // guaranteedDecrease's θ̂_e
    // Work space of cycleMax and updateCluster (capacity kept between clusters and sweeps).
    mutable std::vector<int> cycleLabels_;
    mutable std::vector<std::vector<double>> cycleTables_;
    mutable std::vector<double> transposed_;
    mutable std::vector<std::vector<double>> boundTables_;  // boundAt's θ̂_c
    std::vector<std::vector<double>> lambda_;
    std::vector<std::vector<double>> maxMarginals_;
    int addedLastStep_ = 0;
    std::vector<double> addedDecrease_;  // d(c) of the clusters added by this step
    double tightenDecrease_ = 0.0;       // measured fall of U by their first updates
    bool tightenFoundNone_ = false;
    std::vector<Separator> separators_;
    std::vector<std::vector<Link>> links_;  // per higher-order factor
    int activeSeparators_ = 0;
    int separatorsAddedLastStep_ = 0;
    double separatorsDecrease_ = 0.0;  // measured fall of U by this step's separators
    // Work space of the factor updates: per link, λ_s and M_s.
    mutable std::vector<double> pairWork_;
    mutable std::vector<PairwiseModel::FactorPairTerm> pairTerms_;
};

}  // namespace cplab
