// SPDX-License-Identifier: GPL-3.0-or-later
// The MAP solver tests' own models and answers, independent of the model class: Plain (dense
// tables, Potts edges expanded; its energy and exhaustive optimum), the families of small
// models the tests draw from (makeModel), the local-polytope LP optimum solved directly by
// Clp, and the solvers by name (makeSolver). Header-only, for tests/solvers/map.
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>
#include <algorithm>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "map/cycle_mplp.h"
#include "map/diffusion.h"
#include "map/mplp.h"
#include "map/trws.h"
#include "math/lp_master.h"

namespace cplab::maptest {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// The test's own copy of a model: dense tables only (a Potts edge is also expanded here), so
// that energies are computed without the model class.
struct Plain {
    struct Edge {
        int u, v;
        std::vector<double> table;  // row-major, u's label major
        bool potts = false;
        double weight = 0.0;
    };
    std::vector<int> k;
    std::vector<std::vector<double>> unary;
    std::vector<Edge> edges;

    double energy(const std::vector<int>& x) const {
        double sum = 0.0;
        for (std::size_t v = 0; v < k.size(); ++v)
            sum += unary[v][static_cast<std::size_t>(x[v])];
        for (const Edge& e : edges)
            sum += e.table[static_cast<std::size_t>(x[std::size_t(e.u)] * k[std::size_t(e.v)] +
                                                    x[std::size_t(e.v)])];
        return sum;
    }

    // The optimum and an optimal labeling by enumerating every labeling.
    std::pair<double, std::vector<int>> exhaustive() const {
        std::vector<int> x(k.size(), 0);
        double best = -kInf;
        std::vector<int> arg = x;
        for (;;) {
            const double e = energy(x);
            if (e > best) {
                best = e;
                arg = x;
            }
            std::size_t v = 0;
            while (v < x.size() && ++x[v] == k[v])
                x[v++] = 0;
            if (v == x.size()) break;
        }
        return {best, arg};
    }

    std::shared_ptr<const PairwiseModel> model() const {
        auto m = std::make_shared<PairwiseModel>(k);
        for (std::size_t v = 0; v < k.size(); ++v)
            std::copy(unary[v].begin(), unary[v].end(), m->unary(static_cast<int>(v)).begin());
        for (const Edge& e : edges) {
            if (e.potts)
                m->addPottsEdge(e.u, e.v, e.weight);
            else
                m->addEdge(e.u, e.v, e.table);
        }
        return m;
    }

    void addDense(int u, int v, std::mt19937& rng, double scale, double forbidden = 0.0) {
        std::uniform_real_distribution<double> theta(-scale, scale);
        std::bernoulli_distribution ban(forbidden);
        Edge e{u, v, {}, false, 0.0};
        for (int i = 0; i < k[std::size_t(u)] * k[std::size_t(v)]; ++i)
            e.table.push_back(ban(rng) ? -kInf : theta(rng));
        edges.push_back(e);
    }
    void addPotts(int u, int v, double w) {
        Edge e{u, v, {}, true, w};
        for (int a = 0; a < k[std::size_t(u)]; ++a)
            for (int b = 0; b < k[std::size_t(v)]; ++b)
                e.table.push_back(a == b ? w : 0.0);
        edges.push_back(e);
    }
};

inline Plain withNodes(int n, int labels, std::mt19937& rng, double scale,
                       bool varyLabels = false) {
    Plain p;
    std::uniform_real_distribution<double> theta(-scale, scale);
    for (int v = 0; v < n; ++v) {
        p.k.push_back(varyLabels ? std::uniform_int_distribution<int>(2, labels)(rng) : labels);
        std::vector<double> u;
        for (int x = 0; x < p.k.back(); ++x)
            u.push_back(theta(rng));
        p.unary.push_back(u);
    }
    return p;
}

// The families of small models the tests draw from.
inline Plain makeModel(const QString& kind, unsigned seed) {
    std::mt19937 rng(seed);
    if (kind == "random") {  // 8 nodes, 2–3 labels, random graph, random dense tables
        Plain p = withNodes(8, 3, rng, 1.0, true);
        for (int u = 0; u < 8; ++u)
            for (int v = u + 1; v < 8; ++v)
                if (std::bernoulli_distribution(0.45)(rng)) p.addDense(u, v, rng, 2.0);
        return p;
    }
    if (kind == "forbidden") {  // as random, with 15% of pair entries −∞
        Plain p = withNodes(7, 3, rng, 1.0, true);
        for (int u = 0; u < 7; ++u)
            for (int v = u + 1; v < 7; ++v)
                if (std::bernoulli_distribution(0.5)(rng)) p.addDense(u, v, rng, 2.0, 0.15);
        return p;
    }
    if (kind == "frustrated") {  // binary ring + chords, couplings J·(±1), odd number of J < 0
        const int n = 9;
        Plain p = withNodes(n, 2, rng, 0.2);
        std::uniform_real_distribution<double> magnitude(0.5, 2.0);
        int negatives = 0;
        for (int i = 0; i < n; ++i) {
            double J = magnitude(rng);
            if (i == n - 1 ? negatives % 2 == 0 : std::bernoulli_distribution(0.5)(rng)) {
                J = -J;
                ++negatives;
            }
            Plain::Edge e{i, (i + 1) % n, {J, -J, -J, J}, false, 0.0};
            if (e.u > e.v) std::swap(e.u, e.v);
            p.edges.push_back(e);
        }
        for (int i = 0; i + 3 < n; i += 3) {
            const double J = -magnitude(rng);
            p.edges.push_back({i, i + 3, {J, -J, -J, J}, false, 0.0});
        }
        return p;
    }
    if (kind == "potts") {  // 3x3 grid, 3 labels, Potts weights of both signs
        Plain p = withNodes(9, 3, rng, 1.0);
        std::uniform_real_distribution<double> w(-1.5, 1.5);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                if (c + 1 < 3) p.addPotts(3 * r + c, 3 * r + c + 1, w(rng));
                if (r + 1 < 3) p.addPotts(3 * r + c, 3 * r + c + 3, w(rng));
            }
        return p;
    }
    if (kind == "chain") {  // 10 nodes, 3 labels
        Plain p = withNodes(10, 3, rng, 1.0);
        for (int v = 0; v + 1 < 10; ++v)
            p.addDense(v, v + 1, rng, 2.0);
        return p;
    }
    if (kind == "star") {  // centre 3, 7 leaves, 2–4 labels; edges in both orientations
        Plain p = withNodes(8, 4, rng, 1.0, true);
        for (int v = 0; v < 8; ++v)
            if (v != 3) v % 2 ? p.addDense(3, v, rng, 2.0) : p.addDense(v, 3, rng, 2.0);
        return p;
    }
    if (kind == "potts chain") {  // attractive and repulsive Potts along a chain
        Plain p = withNodes(9, 4, rng, 1.0);
        std::uniform_real_distribution<double> w(-1.0, 1.0);
        for (int v = 0; v + 1 < 9; ++v)
            p.addPotts(v, v + 1, w(rng));
        return p;
    }
    if (kind == "grid") {  // 3x3 grid, 3 labels, dense tables
        Plain p = withNodes(9, 3, rng, 1.0);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                if (c + 1 < 3) p.addDense(3 * r + c, 3 * r + c + 1, rng, 1.0);
                if (r + 1 < 3) p.addDense(3 * r + c, 3 * r + c + 3, rng, 1.0);
            }
        return p;
    }
    qFatal("unknown model kind");
}

// max Σθ·μ over the local polytope, solved by Clp: variables μ_v(a) and μ_e(a, b) in [0, 1],
// Σ_a μ_v(a) = 1, Σ_b μ_e(a, b) = μ_u(a), Σ_a μ_e(a, b) = μ_v(b). −∞ entries get upper
// bound 0 (the pair is impossible).
inline double localPolytopeOptimum(const Plain& p) {
    std::vector<int> nodeStart{0};
    for (int k : p.k)
        nodeStart.push_back(nodeStart.back() + k);
    std::vector<int> edgeStart{nodeStart.back()};
    for (const auto& e : p.edges)
        edgeStart.push_back(edgeStart.back() + static_cast<int>(e.table.size()));
    const int columns = edgeStart.back();
    Eigen::VectorXd c = Eigen::VectorXd::Zero(columns), lower = Eigen::VectorXd::Zero(columns),
                    upper = Eigen::VectorXd::Ones(columns);
    auto setCost = [&](int j, double theta) {
        if (theta == -kInf)
            upper[j] = 0.0;
        else
            c[j] = -theta;  // LpMaster minimises
    };
    for (std::size_t v = 0; v < p.k.size(); ++v)
        for (int a = 0; a < p.k[v]; ++a)
            setCost(nodeStart[v] + a, p.unary[v][std::size_t(a)]);
    for (std::size_t e = 0; e < p.edges.size(); ++e)
        for (std::size_t i = 0; i < p.edges[e].table.size(); ++i)
            setCost(edgeStart[e] + static_cast<int>(i), p.edges[e].table[i]);
    LpMaster lp(c, lower, upper);
    for (std::size_t v = 0; v < p.k.size(); ++v) {
        Eigen::VectorXd row = Eigen::VectorXd::Zero(columns);
        row.segment(nodeStart[v], p.k[v]).setOnes();
        lp.addRow(row, 1.0, 1.0);
    }
    for (std::size_t e = 0; e < p.edges.size(); ++e) {
        const auto& ed = p.edges[e];
        const int ku = p.k[std::size_t(ed.u)];
        const int kv = p.k[std::size_t(ed.v)];
        for (int a = 0; a < ku; ++a) {
            Eigen::VectorXd row = Eigen::VectorXd::Zero(columns);
            for (int b = 0; b < kv; ++b)
                row[edgeStart[e] + a * kv + b] = 1.0;
            row[nodeStart[std::size_t(ed.u)] + a] = -1.0;
            lp.addRow(row, 0.0, 0.0);
        }
        for (int b = 0; b < kv; ++b) {
            Eigen::VectorXd row = Eigen::VectorXd::Zero(columns);
            for (int a = 0; a < ku; ++a)
                row[edgeStart[e] + a * kv + b] = 1.0;
            row[nodeStart[std::size_t(ed.v)] + b] = -1.0;
            lp.addRow(row, 0.0, 0.0);
        }
    }
    if (lp.solve() != LpStatus::Optimal) qFatal("the local-polytope LP was not solved");
    return -lp.objective();
}

inline std::unique_ptr<MessagePassingSolver> makeSolver(const QString& name,
                                                        std::shared_ptr<const PairwiseModel> model,
                                                        MessagePassingOptions options = {}) {
    if (name == "mplp") return std::make_unique<MplpSolver>(std::move(model), options);
    if (name == "trws") return std::make_unique<TrwsSolver>(std::move(model), options);
    if (name == "diffusion") return std::make_unique<DiffusionSolver>(std::move(model), options);
    if (name == "mplp_cycles") {
        CycleMplpOptions cycles;
        cycles.base = options;
        if (options.stall_sweeps > 0)
            cycles.tighten_sweeps = std::min(cycles.tighten_sweeps, options.stall_sweeps - 1);
        if (cycles.tighten_sweeps == 0) cycles.tighten_sweeps = 1, cycles.base.stall_sweeps = 2;
        return std::make_unique<CycleMplpSolver>(std::move(model), cycles);
    }
    qFatal("unknown solver");
}

// "<solver> <kind> <seed>", a data row's name.
inline const char* rowName(const char* solver, const char* kind, unsigned seed) {
    static QByteArray name;
    name = QString("%1 %2 %3").arg(solver, kind).arg(seed).toUtf8();
    return name.constData();
}

// The status code's name: QCOMPARE on QStrings prints both sides. (tests/common's
// test_printers.h is not used: its QTest::toString loses to cplab::toString(StatusCode) by
// argument-dependent lookup, whose static string Qt Test then frees, aborting on a failure.)
inline QString statusName(const Status& status) {
    return QString(statusName(status.code));
}

}  // namespace cplab::maptest
