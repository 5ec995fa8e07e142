// SPDX-License-Identifier: GPL-3.0-or-later
// A graphical model for MAP inference (ALGORITHMS.md §8), max-sum convention:
//
//     E(x) = c + Σ_v θ_v(x_v) + Σ_{e=uv} θ_e(x_u, x_v) + Σ_f θ_f(x_f),
//     MAP: maximise E over labelings x.
//
// Unary and pairwise terms have the representation below (with its fast paths); factors f of
// 3 or more variables (higher-order factors) are optional: a dense table each, row-major in
// the order the variables are listed (the last one changes fastest), at most kMaxFactorEntries
// entries each and kMaxTotalFactorEntries over all. A model without them costs nothing more.
//
// θ are log-potentials (the UAI log scale: θ = log of a table entry); −∞ forbids a label or a
// label pair (a hard constraint, log 0), and E(x) = −∞ for a labeling that uses one. Each
// variable has its own label count. An edge table is either
//   * dense: k_u·k_v numbers, row-major with the FIRST variable's label major,
//     θ_e(a, b) = table[a·k_v + b]; or
//   * Potts: one weight w, θ_e(a, b) = w·[a = b] (k_u = k_v), stored in O(1) and maximised
//     over in O(k) instead of O(k²) — the form of segmentation and denoising grids.
// A dense edge may share the table of an earlier dense edge (addEdgeSharing): a stereo grid's
// truncated-linear table is stored once, not once per edge.
// Memory is that of the tables (plus a few integers per edge).
//
// Message-passing solvers use the two max-marginal primitives below, which take a floor:
// −∞ is replaced by a finite number F below every finite value (forbiddenFloor()). With
// θ' = max(θ, F) ≥ θ entry-wise, every bound computed on θ' is also a bound on θ, and F is low
// enough that a labeling using a forbidden entry scores below every allowed one under θ' too.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "data/uai_format.h"

namespace cplab {

class PairwiseModel {
  public:
    enum class EdgeKind { Dense, Potts };
    struct Edge {
        int u = 0;  // first variable (row index of a dense table)
        int v = 0;  // second variable
        EdgeKind kind = EdgeKind::Dense;
        double weight = 0.0;     // Potts weight w
        std::size_t offset = 0;  // start of a dense table in the table storage
    };

    PairwiseModel() = default;
    // Variables with the given label counts (each ≥ 1), zero unaries and no edges. Throws
    // std::invalid_argument for a count < 1.
    explicit PairwiseModel(const std::vector<int>& labelCounts);
    // The model of UAI/libDAI tables (dense edges); the tables are moved in, not copied
    // twice. Throws std::invalid_argument when they break the UaiTables contract.
    static PairwiseModel fromTables(UaiTables tables);
    // The tables of this model (Potts edges expanded), e.g. for writeUai.
    UaiTables toTables() const;

    int variables() const { return static_cast<int>(labelCounts_.size()); }
    int labels(int v) const { return labelCounts_[static_cast<std::size_t>(v)]; }
    const std::vector<int>& labelCounts() const { return labelCounts_; }
    int maxLabels() const { return maxLabels_; }
    int edgeCount() const { return static_cast<int>(edges_.size()); }
    const Edge& edge(int e) const { return edges_[static_cast<std::size_t>(e)]; }
    const std::vector<Edge>& edges() const { return edges_; }

    std::span<const double> unary(int v) const {
        const auto i = static_cast<std::size_t>(v);
        return {unary_.data() + unaryOffset_[i], unaryOffset_[i + 1] - unaryOffset_[i]};
    }
    std::span<double> unary(int v) {
        const auto i = static_cast<std::size_t>(v);
        return {unary_.data() + unaryOffset_[i], unaryOffset_[i + 1] - unaryOffset_[i]};
    }
    double constant() const { return constant_; }
    void setConstant(double c) { constant_ = c; }

    // Adds a dense edge (u ≠ v, table of k_u·k_v entries, row-major with u's label major);
    // a Potts edge (k_u = k_v, finite w). Return the edge's index. Throw
    // std::invalid_argument for a bad variable, size or weight.
    int addEdge(int u, int v, std::vector<double> table);
    int addPottsEdge(int u, int v, double weight);
    // A dense edge (u, v) whose table is that of the dense edge `same` (stored once; equal
    // label counts at both ends required). Throws std::invalid_argument otherwise.
    int addEdgeSharing(int u, int v, int same);
    // The dense table of edge e (empty for a Potts edge).
    std::span<const double> table(int e) const;
    double pairwise(int e, int a, int b) const {
        const Edge& ed = edges_[static_cast<std::size_t>(e)];
        if (ed.kind == EdgeKind::Potts) return a == b ? ed.weight : 0.0;
        return tables_[ed.offset +
                       static_cast<std::size_t>(a) *
                           static_cast<std::size_t>(labelCounts_[static_cast<std::size_t>(ed.v)]) +
                       static_cast<std::size_t>(b)];
    }

    // E(x) with the raw θ (−∞ for a forbidden entry). Throws std::invalid_argument when the
    // labeling has the wrong size or a label out of range.
    double energy(std::span<const int> labeling) const;

    // "" when the model is usable by a solver, else why not: NaN or +∞ in a table, a
    // non-finite Potts weight or constant, no variables.
    std::string contractViolation() const;

    // "" unless arc consistency on the forbidden (−∞) entries proves that every labeling has
    // E = −∞ (probability 0: contradictory evidence, a table of zeros (a factor's too), hard
    // constraints that exclude each other); then why, naming a variable left without a label
    // ("variable 3: its unary table forbids every label", "variable 3: every label is forbidden by
    // its unary table or by the pairs it may form with its neighbours' remaining labels (neighbours
    // 2, 4)"). O(E·k²) per pruning round, at most 2·10⁸ lookups in all (then ""); O(size) for a
    // model without −∞.
    std::string noAllowedLabeling() const;
    // The lowest energy a labeling with E > −∞ can have: c + Σ over tables of the smallest
    // finite entry (0 for a Potts edge of weight ≥ 0, w otherwise). A dual (upper) bound
    // below it proves that no labeling has E > −∞.
    double lowestAllowedEnergy() const;
    // F of the header: min over tables of their smallest finite entry, minus 1 + the sum over
    // tables of (largest − smallest finite entry). Tables without −∞ do not need it; it is
    // −1 when the model has no finite entry at all.
    double forbiddenFloor() const;

    // Max-marginals of edge e with a vector added on the other side, θ' = max(θ, floor):
    //   toward u (toward = 0):  out[a] = max_b θ'_e(a, b) + in[b]   (in: k_v, out: k_u)
    //   toward v (toward = 1):  out[b] = max_a θ'_e(a, b) + in[a]   (in: k_u, out: k_v)
    void maxMarginal(int e, int toward, const double* in, double* out, double floor) const;
    // max_{a,b} θ'_e(a, b) − mu[a] − mv[b], the edge's term of the dual bound.
    double maxReparametrised(int e, const double* mu, const double* mv, double floor) const;

    // --- higher-order factors (higher_order.cpp) ---
    static constexpr std::size_t kMaxFactorEntries = std::size_t(1) << 24;
    static constexpr std::size_t kMaxTotalFactorEntries = std::size_t(1) << 26;
    // One factor at a node: the factor and the node's position among its variables.
    struct FactorIncidence {
        int factor;
        int position;
    };
    int factorCount() const { return static_cast<int>(factorOffset_.size()) - 1; }
    std::span<const int> factorVariables(int f) const {
        const auto i = static_cast<std::size_t>(f);
        return {factorVariables_.data() + factorVarOffset_[i],
                factorVarOffset_[i + 1] - factorVarOffset_[i]};
    }
    std::span<const double> factorTable(int f) const {
        const auto i = static_cast<std::size_t>(f);
        return {factorTables_.data() + factorOffset_[i], factorOffset_[i + 1] - factorOffset_[i]};
    }
    // The factors a node belongs to (empty for every node of a model without factors).
    std::span<const FactorIncidence> factorsAt(int v) const {
        if (factorsAt_.empty()) return {};
        return factorsAt_[static_cast<std::size_t>(v)];
    }
    // Adds a factor of 3 or more distinct variables with a table of Π k_v entries (row-major,
    // the last variable fastest). Returns its index. Throws std::invalid_argument for a bad
    // variable, a repeated one, fewer than 3, a wrong size or a table over the caps.
    int addFactor(std::vector<int> variables, std::vector<double> table);
    // Entry index of the factor's table at labeling x (all variables' labels).
    std::size_t factorIndex(int f, std::span<const int> x) const;
    // out[a] += θ'_f(x with x_v = a) for the variable at `position`, θ' = max(θ, floor).
    void addFactorConditional(int f, int position, std::span<const int> x, double floor,
                              double* out) const;
    // Max-marginals of factor f with vectors added: for each position i (with `out[i]` not
    // null), out[i][a] = max over x_f with x_i = a of θ'_f(x_f) + Σ_j in[j][x_j]. Returns the
    // maximum over all x_f. O(table · arity).
    double factorMaxMarginals(int f, const double* const* in, double* const* out,
                              double floor) const;
    // A term of factor f over the pair of its variables at positions (first, second): a table
    // of k_first·k_second entries, the first one's label major. `in` (or null) is added to θ'_f;
    // `out` (or null) receives the pair's max-marginal.
    struct FactorPairTerm {
        int first = 0;
        int second = 0;
        const double* in = nullptr;
        double* out = nullptr;
    };
    // factorMaxMarginals with pair terms besides the node vectors: the maximum over x_f of
    // θ'_f(x_f) + Σ_j in[j][x_j] + Σ_p pairs[p].in(x_first, x_second), and its max-marginals
    // onto the nodes (out[j] not null) and the pairs (pairs[p].out not null).
    // O(table · (arity + pairs)).
    double factorMaxMarginals(int f, const double* const* in, double* const* out,
                              std::span<const FactorPairTerm> pairs, double floor) const;

    // Memory held by the tables and edges.
    std::size_t bytes() const;

  private:
    void checkVariable(int v, const char* what) const;

    std::vector<int> labelCounts_;
    std::vector<std::size_t> unaryOffset_{0};  // variables() + 1 entries
    std::vector<double> unary_;
    std::vector<Edge> edges_;
    std::vector<double> tables_;  // dense edge tables, back to back
    double constant_ = 0.0;
    int maxLabels_ = 0;
    // Higher-order factors: variables and tables back to back (factorCount() + 1 offsets).
    std::vector<int> factorVariables_;
    std::vector<std::size_t> factorVarOffset_{0};
    std::vector<double> factorTables_;
    std::vector<std::size_t> factorOffset_{0};
    std::vector<std::vector<FactorIncidence>> factorsAt_;  // per node, once a factor exists
};

}  // namespace cplab
