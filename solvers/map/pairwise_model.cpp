// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/pairwise_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/number_text.h"

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The two largest entries of in[0, k) and the index of the largest (second = −∞ when k = 1).
struct TopTwo {
    double first = -kInf;
    double second = -kInf;
    int at = -1;
};
TopTwo topTwo(const double* in, int k) {
    TopTwo t;
    for (int i = 0; i < k; ++i) {
        if (in[i] > t.first) {
            t.second = t.first;
            t.first = in[i];
            t.at = i;
        } else if (in[i] > t.second) {
            t.second = in[i];
        }
    }
    return t;
}

bool forbiddenOrFinite(double t) {
    return std::isfinite(t) || t == -kInf;
}

}  // namespace

PairwiseModel::PairwiseModel(const std::vector<int>& labelCounts) {
    labelCounts_.reserve(labelCounts.size());
    unaryOffset_.reserve(labelCounts.size() + 1);
    for (int k : labelCounts) {
        if (k < 1)
            throw std::invalid_argument("PairwiseModel: variable " +
                                        std::to_string(labelCounts_.size()) + " has " +
                                        std::to_string(k) + " labels; each needs >= 1");
        labelCounts_.push_back(k);
        unaryOffset_.push_back(unaryOffset_.back() + static_cast<std::size_t>(k));
        maxLabels_ = std::max(maxLabels_, k);
    }
    unary_.assign(unaryOffset_.back(), 0.0);
}

PairwiseModel PairwiseModel::fromTables(UaiTables tables) {
    if (tables.unary.size() != tables.cardinalities.size())
        throw std::invalid_argument(
            "PairwiseModel::fromTables: " + std::to_string(tables.unary.size()) +
            " unary tables for " + std::to_string(tables.cardinalities.size()) + " variables");
    PairwiseModel model(tables.cardinalities);
    for (int v = 0; v < model.variables(); ++v) {
        auto& from = tables.unary[static_cast<std::size_t>(v)];
        if (from.size() != static_cast<std::size_t>(model.labels(v)))
            throw std::invalid_argument("PairwiseModel::fromTables: the unary table of variable " +
                                        std::to_string(v) + " has " + std::to_string(from.size()) +
                                        " entries for " + std::to_string(model.labels(v)) +
                                        " labels");
        std::copy(from.begin(), from.end(), model.unary(v).begin());
        std::vector<double>().swap(from);
    }
    std::size_t total = 0;
    for (const auto& p : tables.pairs)
        total += p.table.size();
    model.tables_.reserve(total);
    model.edges_.reserve(tables.pairs.size());
    for (auto& p : tables.pairs) {
        model.addEdge(p.u, p.v, std::move(p.table));
    }
    for (auto& f : tables.factors) {
        model.addFactor(std::move(f.variables), std::move(f.table));
    }
    model.constant_ = tables.constant;
    return model;
}

UaiTables PairwiseModel::toTables() const {
    UaiTables tables;
    tables.cardinalities = labelCounts_;
    tables.unary.resize(labelCounts_.size());
    for (int v = 0; v < variables(); ++v) {
        const auto u = unary(v);
        tables.unary[static_cast<std::size_t>(v)].assign(u.begin(), u.end());
    }
    tables.pairs.reserve(edges_.size());
    for (int e = 0; e < edgeCount(); ++e) {
        const Edge& ed = edge(e);
        UaiTables::Pair p;
        p.u = ed.u;
        p.v = ed.v;
        const int ku = labels(ed.u);
        const int kv = labels(ed.v);
        p.table.resize(static_cast<std::size_t>(ku) * static_cast<std::size_t>(kv));
        for (int a = 0; a < ku; ++a)
            for (int b = 0; b < kv; ++b)
                p.table[static_cast<std::size_t>(a * kv + b)] = pairwise(e, a, b);
        tables.pairs.push_back(std::move(p));
    }
    for (int f = 0; f < factorCount(); ++f) {
        const auto vars = factorVariables(f);
        const auto table = factorTable(f);
        tables.factors.push_back({{vars.begin(), vars.end()}, {table.begin(), table.end()}});
    }
    tables.constant = constant_;
    return tables;
}

void PairwiseModel::checkVariable(int v, const char* what) const {
    if (v < 0 || v >= variables())
        throw std::invalid_argument(std::string("PairwiseModel: ") + what + " " +
                                    std::to_string(v) + " is not a variable (0 to " +
                                    std::to_string(variables() - 1) + ")");
}

int PairwiseModel::addEdge(int u, int v, std::vector<double> table) {
    checkVariable(u, "edge end");
    checkVariable(v, "edge end");
    if (u == v)
        throw std::invalid_argument("PairwiseModel: edge joins variable " + std::to_string(u) +
                                    " to itself");
    const std::size_t size =
        static_cast<std::size_t>(labels(u)) * static_cast<std::size_t>(labels(v));
    if (table.size() != size)
        throw std::invalid_argument(
            "PairwiseModel: the table of edge (" + std::to_string(u) + ", " + std::to_string(v) +
            ") has " + std::to_string(table.size()) + " entries; expected " + std::to_string(size));
    Edge edge;
    edge.u = u;
    edge.v = v;
    edge.kind = EdgeKind::Dense;
    edge.offset = tables_.size();
    tables_.insert(tables_.end(), table.begin(), table.end());
    edges_.push_back(edge);
    return edgeCount() - 1;
}

int PairwiseModel::addPottsEdge(int u, int v, double weight) {
    checkVariable(u, "edge end");
    checkVariable(v, "edge end");
    if (u == v)
        throw std::invalid_argument("PairwiseModel: edge joins variable " + std::to_string(u) +
                                    " to itself");
    if (labels(u) != labels(v))
        throw std::invalid_argument("PairwiseModel: a Potts edge needs equal label counts; " +
                                    std::to_string(u) + " has " + std::to_string(labels(u)) + ", " +
                                    std::to_string(v) + " has " + std::to_string(labels(v)));
    if (!std::isfinite(weight))
        throw std::invalid_argument("PairwiseModel: Potts weight " + formatReal(weight) +
                                    " is not finite");
    Edge edge;
    edge.u = u;
    edge.v = v;
    edge.kind = EdgeKind::Potts;
    edge.weight = weight;
    edges_.push_back(edge);
    return edgeCount() - 1;
}

int PairwiseModel::addEdgeSharing(int u, int v, int same) {
    checkVariable(u, "edge end");
    checkVariable(v, "edge end");
    if (u == v)
        throw std::invalid_argument("PairwiseModel: edge joins variable " + std::to_string(u) +
                                    " to itself");
    if (same < 0 || same >= edgeCount() || edge(same).kind != EdgeKind::Dense)
        throw std::invalid_argument("PairwiseModel: edge " + std::to_string(same) +
                                    " is not a dense edge whose table could be shared");
    const Edge& shared = edge(same);
    if (labels(u) != labels(shared.u) || labels(v) != labels(shared.v))
        throw std::invalid_argument(
            "PairwiseModel: edge (" + std::to_string(u) + ", " + std::to_string(v) +
            ") cannot share the " + std::to_string(labels(shared.u)) + " x " +
            std::to_string(labels(shared.v)) + " table of edge " + std::to_string(same));
    Edge edge;
    edge.u = u;
    edge.v = v;
    edge.kind = EdgeKind::Dense;
    edge.offset = shared.offset;
    edges_.push_back(edge);
    return edgeCount() - 1;
}

std::span<const double> PairwiseModel::table(int e) const {
    const Edge& ed = edge(e);
    if (ed.kind != EdgeKind::Dense) return {};
    return {tables_.data() + ed.offset,
            static_cast<std::size_t>(labels(ed.u)) * static_cast<std::size_t>(labels(ed.v))};
}

double PairwiseModel::energy(std::span<const int> labeling) const {
    if (labeling.size() != labelCounts_.size())
        throw std::invalid_argument("PairwiseModel::energy: the labeling has " +
                                    std::to_string(labeling.size()) + " labels for " +
                                    std::to_string(variables()) + " variables");
    double sum = constant_;
    for (int v = 0; v < variables(); ++v) {
        const int x = labeling[static_cast<std::size_t>(v)];
        if (x < 0 || x >= labels(v))
            throw std::invalid_argument("PairwiseModel::energy: label " + std::to_string(x) +
                                        " of variable " + std::to_string(v) +
                                        " is out of range (0 to " + std::to_string(labels(v) - 1) +
                                        ")");
        sum += unary(v)[static_cast<std::size_t>(x)];
    }
    for (int e = 0; e < edgeCount(); ++e) {
        const Edge& ed = edge(e);
        sum += pairwise(e, labeling[static_cast<std::size_t>(ed.u)],
                        labeling[static_cast<std::size_t>(ed.v)]);
    }
    for (int f = 0; f < factorCount(); ++f)
        sum += factorTable(f)[factorIndex(f, labeling)];
    return sum;
}

std::string PairwiseModel::contractViolation() const {
    if (labelCounts_.empty()) return "the model has no variables";
    if (!std::isfinite(constant_))
        return "the constant " + formatReal(constant_) + " is not finite";
    for (int v = 0; v < variables(); ++v) {
        const auto u = unary(v);
        if (!std::all_of(u.begin(), u.end(), forbiddenOrFinite))
            return "the unary table of variable " + std::to_string(v) + " holds NaN or +inf";
    }
    for (int e = 0; e < edgeCount(); ++e) {
        const Edge& ed = edge(e);
        if (ed.kind == EdgeKind::Potts) {
            if (!std::isfinite(ed.weight))
                return "the Potts weight of edge " + std::to_string(e) + " is not finite";
            continue;
        }
        const auto t = table(e);
        if (!std::all_of(t.begin(), t.end(), forbiddenOrFinite))
            return "the table of edge " + std::to_string(e) + " (" + std::to_string(ed.u) + ", " +
                   std::to_string(ed.v) + ") holds NaN or +inf";
    }
    for (int f = 0; f < factorCount(); ++f) {
        const auto t = factorTable(f);
        if (!std::all_of(t.begin(), t.end(), forbiddenOrFinite))
            return "the table of factor " + std::to_string(f) + " holds NaN or +inf";
    }
    return {};
}

namespace {

// The labels a labeling of finite energy may give each variable, as AC-3 narrows them down.
struct Domains {
    std::vector<std::vector<char>> allowed;  // per variable and label
    std::vector<int> left;                   // allowed labels per variable
};

// The labels each variable's unary allows (θ_v > −∞); "" or why no labeling is allowed.
std::string unaryDomains(const PairwiseModel& m, Domains& d) {
    const int n = m.variables();
    d.allowed.assign(static_cast<std::size_t>(n), {});
    d.left.assign(static_cast<std::size_t>(n), 0);
    for (int v = 0; v < n; ++v) {
        const auto u = m.unary(v);
        auto& a = d.allowed[static_cast<std::size_t>(v)];
        a.resize(u.size());
        for (std::size_t x = 0; x < u.size(); ++x) {
            a[x] = u[x] != -kInf;
            d.left[static_cast<std::size_t>(v)] += a[x];
        }
        if (d.left[static_cast<std::size_t>(v)] == 0)
            return "variable " + std::to_string(v) + ": its unary table forbids every label";
    }
    for (int f = 0; f < m.factorCount(); ++f) {
        const auto t = m.factorTable(f);
        if (std::all_of(t.begin(), t.end(), [](double x) { return x == -kInf; }))
            return "factor " + std::to_string(f) + " of " +
                   std::to_string(m.factorVariables(f).size()) +
                   " variables: its table forbids every labeling of them";
    }
    return {};
}

// AC-3's revision of edge e at its end `side` (0: u): removes the allowed labels of that end
// that no allowed label of the other end may form a pair of θ_e > −∞ with; adds the pair
// lookups to *checks. True when it removed any.
bool revise(const PairwiseModel& m, int e, int side, Domains& d, long long* checks) {
    const PairwiseModel::Edge& ed = m.edge(e);
    const int x = side == 0 ? ed.u : ed.v, y = side == 0 ? ed.v : ed.u;
    auto& ax = d.allowed[static_cast<std::size_t>(x)];
    const auto& ay = d.allowed[static_cast<std::size_t>(y)];
    bool pruned = false;
    for (int a = 0; a < m.labels(x); ++a) {
        if (!ax[static_cast<std::size_t>(a)]) continue;
        bool supported = false;
        for (int b = 0; b < m.labels(y) && !supported; ++b)
            supported = ay[static_cast<std::size_t>(b)] &&
                        (side == 0 ? m.pairwise(e, a, b) : m.pairwise(e, b, a)) != -kInf;
        *checks += m.labels(y);
        if (!supported) {
            ax[static_cast<std::size_t>(a)] = 0;
            --d.left[static_cast<std::size_t>(x)];
            pruned = true;
        }
    }
    return pruned;
}

// Why variable x has no label left: its unary and the hard edges `hardAtX` at it.
std::string wipedOut(const PairwiseModel& m, int x, const std::vector<int>& hardAtX) {
    std::string neighbours;
    for (const int f : hardAtX) {
        const int other = m.edge(f).u == x ? m.edge(f).v : m.edge(f).u;
        neighbours += (neighbours.empty() ? "" : ", ") + std::to_string(other);
    }
    return "variable " + std::to_string(x) +
           ": every label is forbidden by its unary table or by the pairs it may "
           "form with its neighbours' remaining labels (neighbours " +
           neighbours + ")";
}

}  // namespace

std::string PairwiseModel::noAllowedLabeling() const {
    const int n = variables();
    Domains d;
    if (std::string why = unaryDomains(*this, d); !why.empty()) return why;
    // The dense edges holding a −∞ entry, and those at each variable.
    std::vector<int> hard;
    for (int e = 0; e < edgeCount(); ++e) {
        const auto t = table(e);
        if (std::find(t.begin(), t.end(), -kInf) != t.end()) hard.push_back(e);
    }
    std::vector<std::vector<int>> hardAt(static_cast<std::size_t>(n));
    for (const int e : hard) {
        hardAt[static_cast<std::size_t>(edge(e).u)].push_back(e);
        hardAt[static_cast<std::size_t>(edge(e).v)].push_back(e);
    }
    // AC-3: remove the labels of one end that no remaining label of the other end allows.
    // Bounded work: past kMaxChecks pair lookups it gives up (""), leaving the proof to the
    // solvers' dual bound (MessagePassingSolver ends such a run without a labeling).
    constexpr long long kMaxChecks = 200'000'000;
    long long checks = 0;
    std::vector<int> queue = hard;
    std::vector<char> queued(static_cast<std::size_t>(edgeCount()), 0);
    for (const int e : hard)
        queued[static_cast<std::size_t>(e)] = 1;
    while (!queue.empty()) {
        const int e = queue.back();
        queue.pop_back();
        queued[static_cast<std::size_t>(e)] = 0;
        for (int side = 0; side < 2; ++side) {
            const int x = side == 0 ? edge(e).u : edge(e).v;
            const bool pruned = revise(*this, e, side, d, &checks);
            if (checks > kMaxChecks) return {};
            if (!pruned) continue;
            if (d.left[static_cast<std::size_t>(x)] == 0)
                return wipedOut(*this, x, hardAt[static_cast<std::size_t>(x)]);
            for (const int f : hardAt[static_cast<std::size_t>(x)]) {
                if (f != e && !queued[static_cast<std::size_t>(f)]) {
                    queued[static_cast<std::size_t>(f)] = 1;
                    queue.push_back(f);
                }
            }
        }
    }
    return {};
}

double PairwiseModel::lowestAllowedEnergy() const {
    double sum = constant_;
    auto lowestFinite = [](std::span<const double> values) {
        double lo = kInf;
        for (const double t : values)
            if (t != -kInf) lo = std::min(lo, t);
        return lo;
    };
    for (int v = 0; v < variables(); ++v)
        sum += lowestFinite(unary(v));
    for (int e = 0; e < edgeCount(); ++e) {
        const Edge& ed = edge(e);
        sum += ed.kind == EdgeKind::Potts ? std::min(0.0, ed.weight) : lowestFinite(table(e));
    }
    for (int f = 0; f < factorCount(); ++f)
        sum += lowestFinite(factorTable(f));
    return sum;
}

double PairwiseModel::forbiddenFloor() const {
    double lowest = kInf;
    double spread = 0.0;
    auto visit = [&](std::span<const double> values) {
        double lo = kInf;
        double hi = -kInf;
        for (double t : values) {
            if (!std::isfinite(t)) continue;
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
        if (lo <= hi) {
            lowest = std::min(lowest, lo);
            spread += hi - lo;
        }
    };
    for (int v = 0; v < variables(); ++v)
        visit(unary(v));
    for (int e = 0; e < edgeCount(); ++e) {
        const Edge& ed = edge(e);
        if (ed.kind == EdgeKind::Potts) {
            const double values[2] = {ed.weight, 0.0};
            visit(values);
        } else {
            visit(table(e));
        }
    }
    for (int f = 0; f < factorCount(); ++f)
        visit(factorTable(f));
    if (lowest == kInf) return -1.0;
    return lowest - 1.0 - spread;
}

void PairwiseModel::maxMarginal(int e, int toward, const double* in, double* out,
                                double floor) const {
    const Edge& ed = edge(e);
    const int ku = labels(ed.u);
    const int kv = labels(ed.v);
    if (ed.kind == EdgeKind::Potts) {
        // max_b w·[a = b] + in[b] = max(in[a] + w, max_{b ≠ a} in[b]): the same for both
        // directions, O(k) with the two largest entries of `in`.
        const TopTwo t = topTwo(in, ku);
        for (int a = 0; a < ku; ++a)
            out[a] = std::max(in[a] + ed.weight, a == t.at ? t.second : t.first);
        return;
    }
    const double* table = tables_.data() + ed.offset;
    if (toward == 0) {
        for (int a = 0; a < ku; ++a) {
            const double* row = table + static_cast<std::size_t>(a) * static_cast<std::size_t>(kv);
            double best = -kInf;
            for (int b = 0; b < kv; ++b)
                best = std::max(best, std::max(row[b], floor) + in[b]);
            out[a] = best;
        }
    } else {
        std::fill(out, out + kv, -kInf);
        for (int a = 0; a < ku; ++a) {
            const double* row = table + static_cast<std::size_t>(a) * static_cast<std::size_t>(kv);
            const double add = in[a];
            for (int b = 0; b < kv; ++b)
                out[b] = std::max(out[b], std::max(row[b], floor) + add);
        }
    }
}

double PairwiseModel::maxReparametrised(int e, const double* mu, const double* mv,
                                        double floor) const {
    const Edge& ed = edge(e);
    const int ku = labels(ed.u);
    const int kv = labels(ed.v);
    if (ed.kind == EdgeKind::Potts) {
        // max( max_a w − mu[a] − mv[a],  max_{a ≠ b} −mu[a] − mv[b] ).
        double diagonal = -kInf;
        for (int a = 0; a < ku; ++a)
            diagonal = std::max(diagonal, ed.weight - mu[a] - mv[a]);
        if (ku == 1) return diagonal;
        // The two largest −mu and −mv: the off-diagonal maximum pairs the largest of each
        // unless they sit on the same label.
        TopTwo p;
        TopTwo q;
        for (int a = 0; a < ku; ++a) {
            const double x = -mu[a];
            if (x > p.first) {
                p.second = p.first;
                p.first = x;
                p.at = a;
            } else if (x > p.second) {
                p.second = x;
            }
            const double y = -mv[a];
            if (y > q.first) {
                q.second = q.first;
                q.first = y;
                q.at = a;
            } else if (y > q.second) {
                q.second = y;
            }
        }
        const double off =
            p.at != q.at ? p.first + q.first : std::max(p.first + q.second, p.second + q.first);
        return std::max(diagonal, off);
    }
    const double* table = tables_.data() + ed.offset;
    double best = -kInf;
    for (int a = 0; a < ku; ++a) {
        const double* row = table + static_cast<std::size_t>(a) * static_cast<std::size_t>(kv);
        double rowBest = -kInf;
        for (int b = 0; b < kv; ++b)
            rowBest = std::max(rowBest, std::max(row[b], floor) - mv[b]);
        best = std::max(best, rowBest - mu[a]);
    }
    return best;
}

std::size_t PairwiseModel::bytes() const {
    return sizeof(*this) + labelCounts_.capacity() * sizeof(int) +
           unaryOffset_.capacity() * sizeof(std::size_t) + unary_.capacity() * sizeof(double) +
           edges_.capacity() * sizeof(Edge) + tables_.capacity() * sizeof(double) +
           factorVariables_.capacity() * sizeof(int) + factorTables_.capacity() * sizeof(double) +
           (factorVarOffset_.capacity() + factorOffset_.capacity()) * sizeof(std::size_t) +
           factorsAt_.capacity() * sizeof(std::vector<FactorIncidence>) +
           factorVariables_.size() * sizeof(FactorIncidence);
}

}  // namespace cplab
