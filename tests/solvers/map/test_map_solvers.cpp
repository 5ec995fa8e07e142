// SPDX-License-Identifier: GPL-3.0-or-later
// MAP solvers (MPLP, TRW-S, max-sum diffusion) against independent answers: exhaustive search
// on small random, frustrated, Potts and constrained models (the dual bound is never below the
// optimum, the reported energies are recomputed here from the test's own tables), exact
// optima on trees, the local-polytope LP solved directly by Clp on loopy models, libDAI's
// exact MAP of testfast.fg and the UAI 2014 reference labeling of Segmentation_11; options and
// models refused with their messages; the stall rule; a 100x100 Potts grid.
#include <QtTest>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "data/uai_format.h"
#include "map/cycle_mplp.h"
#include "map/diffusion.h"
#include "map/mplp.h"
#include "map/trws.h"
#include "math/lp_master.h"
#include "record_columns.h"

using namespace cplab;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::string kUai = std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";
const std::string kLibdai = std::string(CPLAB_TEST_DATA_DIR) + "/map/libdai";

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

Plain withNodes(int n, int labels, std::mt19937& rng, double scale, bool varyLabels = false) {
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
Plain makeModel(const QString& kind, unsigned seed) {
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
double localPolytopeOptimum(const Plain& p) {
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

std::unique_ptr<MessagePassingSolver> makeSolver(const QString& name,
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
const char* rowName(const char* solver, const char* kind, unsigned seed) {
    static QByteArray name;
    name = QString("%1 %2 %3").arg(solver, kind).arg(seed).toUtf8();
    return name.constData();
}

// The status code's name: QCOMPARE on QStrings prints both sides. (tests/common's
// test_printers.h is not used: its QTest::toString loses to cplab::toString(StatusCode) by
// argument-dependent lookup, whose static string Qt Test then frees, aborting on a failure.)
QString statusName(const Status& status) {
    return QString(statusName(status.code));
}

}  // namespace

class TestMapSolvers : public QObject {
    Q_OBJECT

  private slots:
    // Every record of every solver: the dual bound is at least the exhaustive optimum, the
    // best labeling's energy (recomputed from the test's tables) is the record's lower bound,
    // the energy of the current decoding never exceeds it, and the current dual never
    // increases (MPLP and diffusion are block coordinate descent on U; TRW-S's chain bound is
    // monotone by Kolmogorov 2006).
    void boundsHoldAtEveryIteration_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<unsigned>("seed");
        for (const char* solver : {"mplp", "trws", "diffusion", "mplp_cycles"})
            for (const char* kind : {"random", "forbidden", "frustrated", "potts"})
                for (unsigned seed = 1; seed <= 4; ++seed)
                    QTest::newRow(rowName(solver, kind, seed))
                        << QString(solver) << QString(kind) << seed;
    }
    void boundsHoldAtEveryIteration() {
        QFETCH(QString, solver);
        QFETCH(QString, kind);
        QFETCH(unsigned, seed);
        const Plain p = makeModel(kind, seed);
        const double optimum = p.exhaustive().first;
        QVERIFY(std::isfinite(optimum));
        MessagePassingOptions options;
        options.stop.max_iterations = 150;
        options.stop.epsilon = 1e-9;
        auto s = makeSolver(solver, p.model(), options);
        QCOMPARE(statusName(s->status()), QString("running"));
        const double slack = 1e-9 * std::max(1.0, std::abs(optimum));
        double previousDual = kInf;
        int rises = 0;
        while (!s->status().finished()) {
            s->step();
            const IterationRecord& r = s->lastRecord();
            QVERIFY2(r.upper >= optimum - slack,
                     qPrintable(QString("iteration %1: U = %2 < optimum %3")
                                    .arg(r.iteration)
                                    .arg(r.upper, 0, 'g', 17)
                                    .arg(optimum, 0, 'g', 17)));
            QVERIFY(test::column(*s, r, "dual") >= optimum - slack);
            QCOMPARE(r.lower, p.energy(s->bestLabeling()));
            QVERIFY(r.lower <= optimum + slack);
            QVERIFY(test::column(*s, r, "energy") <= r.lower);
            const double dual = test::column(*s, r, "dual");
            if (dual > previousDual + 1e-9 * std::max(1.0, std::abs(dual))) ++rises;
            previousDual = dual;
        }
        QVERIFY2(s->status().usable(), s->status().message.c_str());
        QCOMPARE(rises, 0);
    }

    // On trees the local polytope is the marginal polytope: TRW-S, MPLP and diffusion reach
    // the optimum, certified (bound = optimum within 1e-6, decoded labeling optimal).
    void exactOnTrees_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<unsigned>("seed");
        for (const char* solver : {"trws", "mplp", "diffusion", "mplp_cycles"})
            for (const char* kind : {"chain", "star", "potts chain"})
                for (unsigned seed = 1; seed <= 3; ++seed)
                    QTest::newRow(rowName(solver, kind, seed))
                        << QString(solver) << QString(kind) << seed;
    }
    void exactOnTrees() {
        QFETCH(QString, solver);
        QFETCH(QString, kind);
        QFETCH(unsigned, seed);
        const Plain p = makeModel(kind, seed);
        const auto [optimum, argmax] = p.exhaustive();
        MessagePassingOptions options;
        options.stop.epsilon = 1e-7;
        options.stop.max_iterations = 2000;
        auto s = makeSolver(solver, p.model(), options);
        solve(*s);
        QCOMPARE(statusName(s->status()), QString("converged"));
        QVERIFY2(std::abs(s->lastRecord().upper - optimum) <= 1e-6,
                 qPrintable(QString("U = %1, optimum %2")
                                .arg(s->lastRecord().upper, 0, 'g', 17)
                                .arg(optimum, 0, 'g', 17)));
        QCOMPARE(p.energy(s->bestLabeling()), optimum);
        QCOMPARE(s->bestLabeling(), argmax);
        qInfo("%s on %s %u: %d sweeps", qPrintable(solver), qPrintable(kind), seed, s->iteration());
    }

    // On small loopy models the bound at convergence equals the local-polytope LP optimum
    // computed by Clp (relative 1e-6). These instances and sweep counts are ones where the
    // methods do converge to it; MPLP and diffusion can stop at other fixed points on others.
    void matchesLocalPolytopeLp_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<unsigned>("seed");
        for (const char* solver : {"trws", "mplp", "diffusion"})
            for (const char* kind : {"grid", "frustrated", "potts"})
                for (unsigned seed = 1; seed <= 3; ++seed)
                    QTest::newRow(rowName(solver, kind, seed))
                        << QString(solver) << QString(kind) << seed;
    }
    void matchesLocalPolytopeLp() {
        QFETCH(QString, solver);
        QFETCH(QString, kind);
        QFETCH(unsigned, seed);
        const Plain p = makeModel(kind, seed);
        const double lp = localPolytopeOptimum(p);
        const double optimum = p.exhaustive().first;
        QVERIFY(lp >= optimum - 1e-9);
        MessagePassingOptions options;
        options.stop.epsilon = 0.0;
        options.stop.max_iterations = 3000;
        options.stall_sweeps = 20;
        options.stall_tolerance = 1e-13;
        auto s = makeSolver(solver, p.model(), options);
        solve(*s);
        QVERIFY2(s->status().usable(), s->status().message.c_str());
        const double U = s->lastRecord().upper;
        qInfo("%s on %s %u: LP %.10g, optimum %.10g, U %.10g after %d sweeps (%s)",
              qPrintable(solver), qPrintable(kind), seed, lp, optimum, U, s->iteration(),
              statusName(s->status().code));
        QVERIFY(U >= lp - 1e-6 * std::max(1.0, std::abs(lp)));
        QVERIFY2(U - lp <= 1e-6 * std::max(1.0, std::abs(lp)),
                 qPrintable(QString("U = %1, LP %2").arg(U, 0, 'g', 17).arg(lp, 0, 'g', 17)));
    }

    // Tightening by cycles (triangles and 4-cycles of the graph) on small models, many of
    // whose local-polytope LPs are loose: the bound stays above the exhaustive optimum at
    // every record, and the run certifies the optimum (converged, U = E(x) = optimum) on every
    // instance but two "frustrated" ones (seeds 3 and 5), where the frustrated cycle is the
    // 5-cycle 0-3-6-7-8 that no triangle or 4-cycle of the graph covers: there the run stalls
    // below the LP value or at it, saying that no candidate cycle helps (measured; Sontag et
    // al. 2008 triangulate with zero edges to reach such cycles, which this solver does not).
    void cyclesTighten_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<bool>("certifies");
        for (const char* kind : {"frustrated", "potts", "random", "forbidden", "grid"})
            for (unsigned seed = 1; seed <= 6; ++seed)
                QTest::newRow(rowName("mplp_cycles", kind, seed))
                    << QString(kind) << seed
                    << !(QString(kind) == "frustrated" && (seed == 3 || seed == 5));
    }
    void cyclesTighten() {
        QFETCH(QString, kind);
        QFETCH(unsigned, seed);
        QFETCH(bool, certifies);
        const Plain p = makeModel(kind, seed);
        const double optimum = p.exhaustive().first;
        const double lp = localPolytopeOptimum(p);
        MessagePassingOptions options;
        options.stop.max_iterations = 3000;
        auto s = makeSolver("mplp_cycles", p.model(), options);
        double previous = kInf;
        solve(*s, [&](const Solver& solver, const IterationRecord& r) {
            QVERIFY(r.upper >= optimum - 1e-9 * std::max(1.0, std::abs(optimum)));
            const double dual = test::column(solver, r, "dual");
            QVERIFY(dual <= previous + 1e-9 * std::max(1.0, std::abs(dual)));
            previous = dual;
        });
        const auto& solver = static_cast<const CycleMplpSolver&>(*s);
        qInfo(
            "%s %u: optimum %.10g, LP %.10g, U %.10g, E %.10g, %d clusters of %d "
            "candidates, %s after %d sweeps",
            qPrintable(kind), seed, optimum, lp, s->lastRecord().upper, s->lastRecord().lower,
            solver.clusters(), solver.clusters() + solver.candidates(),
            statusName(s->status().code), s->iteration());
        QCOMPARE(test::column(*s, s->lastRecord(), "clusters"), double(solver.clusters()));
        QVERIFY(s->lastRecord().upper <= lp + 1e-6 * std::max(1.0, std::abs(lp)));
        if (certifies) {
            QCOMPARE(statusName(s->status()), QString("converged"));
            QVERIFY(std::abs(s->lastRecord().upper - optimum) <= 1e-6);
            QCOMPARE(s->lastRecord().lower, optimum);
        } else {
            QCOMPARE(statusName(s->status()), QString("stalled"));
            QVERIFY2(s->status().message.find("no candidate cycle") != std::string::npos,
                     s->status().message.c_str());
        }
    }

    // Candidate cycles: a 3x3 grid has its 4 faces and no triangle; K4 has 4 triangles and 3
    // 4-cycles (4 without squares); a tree has none.
    void cycleCandidates() {
        const auto grid = makeModel("grid", 1).model();
        QCOMPARE(CycleMplpSolver(grid).candidates(), 4);
        Plain k4 = makeModel("chain", 1);
        k4.k.resize(4);
        k4.unary.resize(4);
        k4.edges.clear();
        std::mt19937 rng(1);
        for (int u = 0; u < 4; ++u)
            for (int v = u + 1; v < 4; ++v)
                k4.addDense(u, v, rng, 1.0);
        QCOMPARE(CycleMplpSolver(k4.model()).candidates(), 7);
        CycleMplpOptions options;
        options.squares = false;
        QCOMPARE(CycleMplpSolver(k4.model(), options).candidates(), 4);
        options.max_cluster_states = 26;  // 3^3 = 27 joint labelings per triangle
        QCOMPARE(CycleMplpSolver(k4.model(), options).candidates(), 0);
        QCOMPARE(CycleMplpSolver(makeModel("star", 1).model()).candidates(), 0);
        options = {};
        options.tighten_sweeps = 50;
        CycleMplpSolver bad(grid, options);
        QCOMPARE(QString::fromStdString(bad.status().message),
                 QString("CycleMplpOptions::tighten_sweeps = 50: must be > 0 and < stall_sweeps "
                         "(unless stall_sweeps = 0)"));
        options = {};
        options.clusters_per_round = 0;
        QVERIFY(CycleMplpSolver(grid, options)
                    .status()
                    .message.find("CycleMplpOptions::clusters_per_round = 0") == 0);
    }

    // A frustrated cycle whose LP relaxation is not tight: the gap stays open, and the run
    // stops as stalled at the LP value, not as converged.
    void stallsOnLooseRelaxation() {
        Plain p;
        p.k = {2, 2, 2};
        p.unary = {{0, 0}, {0, 0}, {0, 0}};
        // Three repulsive edges: at most two of them can be satisfied; LP = 3, optimum = 1.
        for (auto [u, v] : {std::pair{0, 1}, {1, 2}, {0, 2}})
            p.edges.push_back({u, v, {-1, 1, 1, -1}, false, 0.0});
        QCOMPARE(p.exhaustive().first, 1.0);
        QCOMPARE(localPolytopeOptimum(p), 3.0);
        // One triangle cluster brings the bound down to the optimum. (Every label is tied in
        // the beliefs of this symmetric model, so the decoding does not certify it; with
        // unaries that break the tie, it does.)
        auto tightened = makeSolver("mplp_cycles", p.model());
        solve(*tightened);
        QVERIFY(std::abs(tightened->lastRecord().upper - 1.0) <= 1e-6);
        Plain tilted = p;
        tilted.unary = {{0, 0.01}, {0.02, 0}, {0, 0.03}};
        const double optimum = tilted.exhaustive().first;
        QVERIFY(localPolytopeOptimum(tilted) > optimum + 1.0);
        tightened = makeSolver("mplp_cycles", tilted.model());
        solve(*tightened);
        QCOMPARE(statusName(tightened->status()), QString("converged"));
        QCOMPARE(tightened->lastRecord().lower, optimum);
        QVERIFY(std::abs(tightened->lastRecord().upper - optimum) <= 1e-6);
        for (const char* name : {"mplp", "trws", "diffusion"}) {
            MessagePassingOptions options;
            options.stall_sweeps = 5;
            auto s = makeSolver(name, p.model(), options);
            solve(*s);
            QCOMPARE(statusName(s->status()), QString("stalled"));
            QVERIFY(std::abs(s->lastRecord().upper - 3.0) <= 1e-9);
            // Every label is tied in the beliefs of this symmetric model: the decoding
            // is a labeling, not necessarily the optimum.
            QVERIFY(s->lastRecord().lower <= 1.0);
            QVERIFY(s->disagreeingNodes() > 0);
            QCOMPARE(static_cast<int>(s->trace().size()), s->iteration());
        }
    }

    // Cancelling stops the run after the step in progress, with its records kept.
    void cancel() {
        const Plain p = makeModel("frustrated", 2);
        MessagePassingOptions options;
        options.stop.epsilon = 0.0;
        options.stall_sweeps = 0;
        for (const char* name : {"mplp", "trws", "diffusion"}) {
            auto s = makeSolver(name, p.model(), options);
            CancelToken token;
            s->setCancelToken(token);
            solve(*s, [&](const Solver&, const IterationRecord& r) {
                if (r.iteration == 3) token.cancel();
            });
            QCOMPARE(statusName(s->status()), QString("cancelled"));
            QCOMPARE(static_cast<int>(s->trace().size()), 3);
            QVERIFY(s->status().usable());
        }
    }

    // Stopping at max_iterations leaves exactly that many records and says so.
    void iterationLimit() {
        const Plain p = makeModel("frustrated", 3);
        MessagePassingOptions options;
        options.stop.max_iterations = 7;
        options.stop.epsilon = 0.0;
        options.stall_sweeps = 0;
        for (const char* name : {"mplp", "trws", "diffusion"}) {
            auto s = makeSolver(name, p.model(), options);
            solve(*s);
            if (s->status().code == StatusCode::Converged) continue;  // certified early
            QCOMPARE(statusName(s->status()), QString("iteration_limit"));
            QCOMPARE(static_cast<int>(s->trace().size()), 7);
        }
    }

    void refusesBadOptionsAndModels() {
        const auto model = makeModel("chain", 1).model();
        QVERIFY(MessagePassingOptions{}.isValid("X", nullptr));
        MessagePassingOptions options;
        options.stall_sweeps = -1;
        MplpSolver a(model, options);
        QCOMPARE(statusName(a.status()), QString("invalid_input"));
        QCOMPARE(QString::fromStdString(a.status().message),
                 QString("MplpOptions::stall_sweeps = -1: must be >= 0 (0: never stop as "
                         "stalled)"));
        options = {};
        options.stall_tolerance = -1;
        TrwsSolver b(model, options);
        QVERIFY(b.status().message.find("TrwsOptions::stall_tolerance = -1") == 0);
        options = {};
        options.stop.max_iterations = 0;
        DiffusionSolver c(model, options);
        QVERIFY(c.status().message.find("DiffusionOptions::max_iterations = 0") == 0);
        TrwsSolver d(nullptr);
        QCOMPARE(QString::fromStdString(d.status().message),
                 QString("TrwsOptions: no model given"));
        auto bad = std::make_shared<PairwiseModel>(std::vector<int>{2, 2});
        bad->unary(1)[0] = std::nan("");
        MplpSolver e(bad);
        QCOMPARE(QString::fromStdString(e.status().message),
                 QString("MplpOptions: invalid model: the unary table of variable 1 holds NaN or "
                         "+inf"));
        QCOMPARE(statusName(e.step()), QString("invalid_input"));
        QVERIFY(e.trace().empty());
        // Bad model building is refused at once.
        PairwiseModel m(std::vector<int>{2, 3});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.addPottsEdge(0, 1, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.addEdge(0, 1, {1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.addEdge(0, 0, {1, 2, 3, 4}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.energy(std::vector<int>{0, 3}));
    }

    // ICM changes no message, so the bounds are the same sweep by sweep, and the best
    // energy with it is never lower than without it (and higher somewhere on Grids_26).
    void icmImprovesLabelings() {
        const auto model = std::make_shared<PairwiseModel>(
            PairwiseModel::fromTables(loadUai(kUai + "/Grids_26.uai.gz")));
        for (const char* name : {"mplp", "trws", "diffusion"}) {
            MessagePassingOptions options;
            options.stop.max_iterations = 50;
            auto plain = makeSolver(name, model, options);
            options.icm_passes = 3;
            auto icm = makeSolver(name, model, options);
            solve(*plain);
            solve(*icm);
            QCOMPARE(icm->trace().size(), plain->trace().size());
            for (std::size_t i = 0; i < plain->trace().size(); ++i) {
                QCOMPARE(icm->trace()[i].upper, plain->trace()[i].upper);
                QVERIFY(icm->trace()[i].lower >= plain->trace()[i].lower);
            }
            QVERIFY(icm->lastRecord().lower > plain->lastRecord().lower);
            QCOMPARE(icm->lastRecord().lower, model->energy(icm->bestLabeling()));
            qInfo("%s on Grids_26, 50 sweeps: E %.6f without ICM, %.6f with 3 passes", name,
                  plain->lastRecord().lower, icm->lastRecord().lower);
        }
        MessagePassingOptions options;
        options.icm_passes = -1;
        QVERIFY(MplpSolver(model, options)
                    .status()
                    .message.find("MplpOptions::icm_passes = -1: must be >= 0") == 0);
    }

    // Degenerate models: one variable, single-label variables, and a model where every
    // labeling is forbidden (E = −∞): the bound stays finite, the best energy −∞, and the run
    // ends as invalid input — the dual bound falls below the lowest energy an allowed
    // labeling could have, which proves there is none — never as "stalled" with a labeling of
    // energy −∞ for an answer.
    void degenerateModels() {
        for (const char* name : {"mplp", "trws", "diffusion", "mplp_cycles"}) {
            auto single = std::make_shared<PairwiseModel>(std::vector<int>{3});
            std::copy_n(std::vector<double>{1, 5, 2}.begin(), 3, single->unary(0).begin());
            auto s = makeSolver(name, single);
            solve(*s);
            QCOMPARE(statusName(s->status()), QString("converged"));
            QCOMPARE(s->lastRecord().upper, 5.0);
            QCOMPARE(s->bestLabeling(), std::vector<int>{1});

            auto ones = std::make_shared<PairwiseModel>(std::vector<int>{1, 1, 2});
            ones->addPottsEdge(0, 1, 2.0);
            ones->addEdge(1, 2, {0.5, -1.0});
            ones->setConstant(1.0);
            s = makeSolver(name, ones);
            solve(*s);
            QCOMPARE(statusName(s->status()), QString("converged"));
            QCOMPARE(s->lastRecord().lower, 3.5);

            auto impossible = std::make_shared<PairwiseModel>(std::vector<int>{2, 2});
            impossible->addEdge(0, 1, std::vector<double>(4, -kInf));
            MessagePassingOptions options;
            options.stall_sweeps = 3;
            s = makeSolver(name, impossible, options);
            solve(*s);
            QCOMPARE(statusName(s->status()), QString("invalid_input"));
            QVERIFY2(QString::fromStdString(s->status().message)
                         .startsWith("every labeling has probability zero"),
                     s->status().message.c_str());
            QVERIFY(std::isfinite(s->lastRecord().upper));
            QCOMPARE(s->lastRecord().lower, -kInf);
        }
    }

    // The model's energy() against the test's own sum, Potts and −∞ included; UAI tables
    // through the model and back keep energies.
    void modelEnergyAndTables() {
        std::mt19937 rng(11);
        for (const char* kind : {"random", "forbidden", "potts", "star"}) {
            const Plain p = makeModel(kind, 5);
            const auto model = p.model();
            const PairwiseModel back = PairwiseModel::fromTables(model->toTables());
            for (int trial = 0; trial < 100; ++trial) {
                std::vector<int> x(p.k.size());
                for (std::size_t v = 0; v < x.size(); ++v)
                    x[v] = std::uniform_int_distribution<int>(0, p.k[v] - 1)(rng);
                QCOMPARE(model->energy(x), p.energy(x));
                QCOMPARE(back.energy(x), p.energy(x));
            }
        }
    }

    // libDAI's testfast.fg (4x4 binary grid with couplings of both signs), whose exact MAP
    // libDAI's junction tree found (checked against exhaustive search in test_uai_format):
    // its LP relaxation is not tight (U = 9.80827 against 9.79958), so the local-polytope
    // solvers do not certify it, but every record's bound stays above its energy; MPLP with
    // 4-cycles closes the gap and finds that labeling.
    void libdaiTestfast() {
        const auto model = std::make_shared<PairwiseModel>(
            PairwiseModel::fromTables(loadLibdaiFactorGraph(kLibdai + "/testfast.fg")));
        const std::vector<int> reference = {1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0};
        const double optimum = model->energy(reference);
        for (const char* name : {"trws", "mplp", "diffusion", "mplp_cycles"}) {
            auto s = makeSolver(name, model);
            solve(*s, [&](const Solver&, const IterationRecord& r) {
                QVERIFY(r.upper >= optimum - 1e-9);
                QVERIFY(r.lower <= optimum + 1e-9);
            });
            qInfo("%s on testfast: %s after %d sweeps, U %.10g, E %.10g (MAP %.10g)", name,
                  statusName(s->status().code), s->iteration(), s->lastRecord().upper,
                  s->lastRecord().lower, optimum);
            QVERIFY(s->status().usable());
            QVERIFY(s->lastRecord().upper - optimum < 0.05);
            if (std::string(name) == "mplp_cycles") {  // 4-cycles close the gap: certified
                QCOMPARE(statusName(s->status()), QString("converged"));
                QCOMPARE(s->bestLabeling(), reference);
            }
        }
    }

    // Segmentation_11 (228 nodes, 21 labels): the bound stays above the energy of the UAI
    // 2014 reference labeling and TRW-S's labeling is at least as good as it after 200 sweeps.
    void segmentation11() {
        const UaiTables tables = loadUai(kUai + "/Segmentation_11.uai.gz");
        const std::vector<int> reference =
            loadUaiResult(kUai + "/Segmentation_11.uai.MAP", tables.cardinalities);
        const auto model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(tables));
        const double referenceEnergy = model->energy(reference);
        QVERIFY(std::isfinite(referenceEnergy));
        MessagePassingOptions options;
        options.stop.max_iterations = 200;
        TrwsSolver s(model, options);
        solve(s, [&](const Solver&, const IterationRecord& r) {
            QVERIFY(r.upper >= referenceEnergy - 1e-9 * std::abs(referenceEnergy));
        });
        qInfo("Segmentation_11: reference E %.10g; TRW-S U %.10g, E %.10g, %s after %d sweeps",
              referenceEnergy, s.lastRecord().upper, s.lastRecord().lower,
              statusName(s.status().code), s.iteration());
        QVERIFY(s.status().usable());
        QVERIFY(s.lastRecord().lower >= referenceEnergy - 1e-6);
    }

    // Grids_26 of UAI 2014 (a 20x20 binary toroidal grid, 800 edges): TRW-S, MPLP and
    // diffusion reach the local-polytope optimum that Clp computes (3830.308406, relative
    // 1e-7), which is far above the reference labeling's energy; MPLP with 4-cycles goes
    // below the LP optimum within 300 sweeps while staying above that energy.
    void grids26() {
        UaiTables tables = loadUai(kUai + "/Grids_26.uai.gz");
        const std::vector<int> reference =
            loadUaiResult(kUai + "/Grids_26.uai.MAP", tables.cardinalities);
        Plain p;
        p.k = tables.cardinalities;
        p.unary = tables.unary;
        for (const auto& pair : tables.pairs)
            p.edges.push_back({pair.u, pair.v, pair.table, false, 0.0});
        const double lp = localPolytopeOptimum(p);
        const auto model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(tables));
        const double referenceEnergy = model->energy(reference);
        QCOMPARE(referenceEnergy, p.energy(reference));
        for (const char* name : {"trws", "mplp", "diffusion"}) {
            MessagePassingOptions options;
            options.stop.max_iterations = 3000;
            options.stall_sweeps = 200;
            auto s = makeSolver(name, model, options);
            solve(*s);
            qInfo("%s on Grids_26: LP %.10g, U %.10g, E %.10g (reference %.10g), %d sweeps", name,
                  lp, s->lastRecord().upper, s->lastRecord().lower, referenceEnergy,
                  s->iteration());
            QVERIFY(std::abs(s->lastRecord().upper - lp) <= 1e-7 * std::abs(lp));
        }
        MessagePassingOptions options;
        options.stop.max_iterations = 300;
        auto s = makeSolver("mplp_cycles", model, options);
        solve(*s, [&](const Solver&, const IterationRecord& r) {
            QVERIFY(r.upper >= referenceEnergy);
        });
        qInfo("mplp_cycles on Grids_26: U %.10g, E %.10g, %g clusters after %d sweeps",
              s->lastRecord().upper, s->lastRecord().lower,
              test::column(*s, s->lastRecord(), "clusters"), s->iteration());
        QVERIFY(s->lastRecord().upper < lp - 1.0);
    }

    // A 100x100 Potts grid with 8 labels (segmentation-like): the bound falls, stays above
    // the best labeling, and the sweeps per second are reported.
    void pottsGrid() {
        const int side = 100;
        const int labels = 8;
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> noise(0.0, 1.0);
        auto model = std::make_shared<PairwiseModel>(std::vector<int>(side * side, labels));
        for (int r = 0; r < side; ++r)
            for (int c = 0; c < side; ++c) {
                const int v = r * side + c;
                const int truth = (r / 25 + c / 25) % labels;
                for (int x = 0; x < labels; ++x)
                    model->unary(v)[std::size_t(x)] = (x == truth ? 0.5 : 0.0) + noise(rng);
                if (c + 1 < side) model->addPottsEdge(v, v + 1, 0.6);
                if (r + 1 < side) model->addPottsEdge(v, v + side, 0.6);
            }
        for (const char* name : {"trws", "mplp", "diffusion"}) {
            MessagePassingOptions options;
            options.stop.max_iterations = 30;
            options.stop.epsilon = 0.0;
            options.stall_sweeps = 0;
            auto s = makeSolver(name, model, options);
            const double initial = s->lastRecord().upper;
            const auto start = std::chrono::steady_clock::now();
            solve(*s);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            qInfo(
                "%s on a 100x100 Potts grid, 8 labels: %d sweeps in %.3f s (%.1f sweeps/s), "
                "U %.6f -> %.6f, E %.6f",
                name, s->iteration(), seconds, s->iteration() / seconds, initial,
                s->lastRecord().upper, s->lastRecord().lower);
            QVERIFY(s->lastRecord().upper < initial);
            QVERIFY(s->lastRecord().upper >= s->lastRecord().lower - 1e-9 * initial);
            QCOMPARE(s->lastRecord().lower, model->energy(s->bestLabeling()));
        }
    }

    // TRW-S's O(k) Potts messages against the same model with the Potts tables written out
    // dense (the O(k²) path): identical bounds sweep by sweep, with ties (equal unaries), a
    // negative weight and one label; and k sweeps per step give the messages of k steps.
    void trwsPottsPathAndSweepsPerStep() {
        std::mt19937 rng(17);
        int batched = 0;
        for (const double weight : {0.7, -0.4}) {
            for (const int labels : {1, 2, 5}) {
                Plain p = withNodes(16, labels, rng, 1.0);
                for (int v = 0; v < 16; v += 3)  // ties in the beliefs
                    std::fill(p.unary[std::size_t(v)].begin(), p.unary[std::size_t(v)].end(), 0.25);
                for (int r = 0; r < 4; ++r)
                    for (int c = 0; c < 4; ++c) {
                        if (c + 1 < 4) p.addPotts(r * 4 + c, r * 4 + c + 1, weight);
                        if (r + 1 < 4) p.addPotts(r * 4 + c, r * 4 + c + 4, weight);
                    }
                Plain dense = p;
                for (auto& e : dense.edges)
                    e.potts = false;
                MessagePassingOptions one;
                one.stop.max_iterations = 12;
                one.stop.epsilon = 0.0;
                one.stall_sweeps = 0;
                TrwsSolver a(p.model(), one);
                TrwsSolver b(dense.model(), one);
                while (!a.step().finished()) {
                    b.step();
                    for (int v = 0; v < 16; ++v)
                        for (int x = 0; x < labels; ++x)
                            QVERIFY2(std::abs(a.beliefs(v)[std::size_t(x)] -
                                              b.beliefs(v)[std::size_t(x)]) <= 1e-12,
                                     qPrintable(QString("w %1, k %2, sweep %3, belief %4(%5)")
                                                    .arg(weight)
                                                    .arg(labels)
                                                    .arg(a.iteration())
                                                    .arg(v)
                                                    .arg(x)));
                    QVERIFY2(std::abs(a.lastRecord().extra[0] - b.lastRecord().extra[0]) <=
                                 1e-12 * std::max(1.0, std::abs(b.lastRecord().extra[0])),
                             qPrintable(QString("w %1, k %2, sweep %3: Potts %4, dense %5")
                                            .arg(weight)
                                            .arg(labels)
                                            .arg(a.iteration())
                                            .arg(a.lastRecord().extra[0], 0, 'g', 17)
                                            .arg(b.lastRecord().extra[0], 0, 'g', 17)));
                }
                if (a.iteration() < 12) continue;  // solved early (one label): nothing to batch
                ++batched;
                MessagePassingOptions four = one;
                four.sweeps_per_step = 4;
                four.stop.max_iterations = 3;
                TrwsSolver c(p.model(), four);
                solve(c);
                QCOMPARE(c.iteration(), 3);
                QCOMPARE(c.lastRecord().oracleCalls, 12LL);
                QVERIFY(std::abs(c.lastRecord().extra[0] - a.lastRecord().extra[0]) <=
                        1e-12 * std::max(1.0, std::abs(a.lastRecord().extra[0])));
            }
        }
        QVERIFY(batched >= 4);
        MessagePassingOptions bad;
        bad.sweeps_per_step = 0;
        std::string why;
        QVERIFY(!bad.isValid("TrwsOptions", &why));
        QVERIFY2(why.find("sweeps_per_step") != std::string::npos, why.c_str());
    }

    void snapshotAndSummary() {
        const Plain p = makeModel("potts", 2);
        TrwsSolver s(p.model());
        s.step();
        const auto snap = std::dynamic_pointer_cast<const MapSnapshot>(s.snapshot());
        QVERIFY(snap);
        QCOMPARE(snap->solver, std::string("trws"));
        QCOMPARE(snap->bestLabeling, s.bestLabeling());
        QCOMPARE(snap->labeling.size(), p.k.size());
        QCOMPARE(snap->disagreeing.size(), p.k.size());
        QCOMPARE(snap->record.iteration, 1);
        QCOMPARE(snap->dual, test::column(s, s.lastRecord(), "dual"));
        QVERIFY(!snap->executedLines.empty());
        QVERIFY(snap->executedLines.back() < static_cast<int>(s.pseudocode().size()));
        QCOMPARE(std::get<double>(s.summary().front().second), s.bestEnergy());
        QVERIFY(snap->clusters.empty());
        // MPLP with cycles shows its clusters: on the tilted frustrated triangle, one.
        Plain triangle;
        triangle.k = {2, 2, 2};
        triangle.unary = {{0, 0.01}, {0.02, 0}, {0, 0.03}};
        for (auto [u, v] : {std::pair{0, 1}, {1, 2}, {0, 2}})
            triangle.edges.push_back({u, v, {-1, 1, 1, -1}, false, 0.0});
        auto cycles = makeSolver("mplp_cycles", triangle.model());
        solve(*cycles);
        const auto tightened = std::dynamic_pointer_cast<const MapSnapshot>(cycles->snapshot());
        QCOMPARE(tightened->clusters, (std::vector<std::vector<int>>{{0, 1, 2}}));
        QCOMPARE(tightened->solver, std::string("mplp_cycles"));
    }
};

QTEST_APPLESS_MAIN(TestMapSolvers)
#include "test_map_solvers.moc"
