// SPDX-License-Identifier: GPL-3.0-or-later
// MAP solvers (MPLP, TRW-S, max-sum diffusion, MPLP with cycles) against independent answers
// on small models (map_test_models.h): exhaustive search on random, frustrated, Potts and
// constrained models (the dual bound is never below the optimum, the reported energies are
// recomputed here from the test's own tables), exact optima on trees, the local-polytope LP
// solved directly by Clp on loopy models, tightening by cycles and its candidate cycles, the
// stall rule on a loose relaxation, the model's energy against the test's own sum, and
// TRW-S's Potts messages against the same tables written out dense. Reference instances:
// test_map_instances.cpp; running, refusing and degenerate models: test_map_runs.cpp.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/number_text.h"
#include "map_test_models.h"
#include "record_columns.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

// Runs mplp_cycles on one model and checks the ClusterAdded events of every step (see
// clusterEventsFollowTheClusters); counts the tightening rounds and those adding several.
void checkClusterEvents(const QString& kind, unsigned seed, int& rounds, int& multiple) {
    const Plain p = makeModel(kind, seed);
    MessagePassingOptions options;
    options.stop.max_iterations = 3000;
    auto s = makeSolver("mplp_cycles", p.model(), options);
    auto previous = std::dynamic_pointer_cast<const MapSnapshot>(s->snapshot());
    while (!s->status().finished()) {
        s->step();
        const auto snap = std::dynamic_pointer_cast<const MapSnapshot>(s->snapshot());
        const std::size_t before = previous->clusters.size(), now = snap->clusters.size();
        QVERIFY(now >= before);
        const bool added = now > before;
        QCOMPARE((snap->record.events & ClusterAdded) != 0, added);
        const auto& lines = snap->executedLines;
        QCOMPARE(std::find(lines.begin(), lines.end(), 5) != lines.end(), added);
        if (added) {
            ++rounds;
            multiple += now - before > 1;
            QCOMPARE(snap->events.size(), std::size_t(1));
            const std::string& text = snap->events.front();
            const std::string head =
                now - before == 1
                    ? "cluster of " + std::to_string(snap->clusters.back().size()) + " nodes"
                    : std::to_string(now - before) + " clusters added (";
            QVERIFY2(text.rfind(head, 0) == 0, text.c_str());
            const std::string tail = " -> " + formatShort(snap->record.upper);
            QVERIFY2(text.size() > tail.size() &&
                         text.compare(text.size() - tail.size(), tail.size(), tail) == 0,
                     text.c_str());
        } else {
            QVERIFY(snap->events.empty());
        }
        previous = snap;
    }
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

    // Tightening by cycles (triangles, 4-cycles and the frustrated cycles of any length the
    // search finds) on small models, many of whose local-polytope LPs are loose: the bound
    // stays above the exhaustive optimum at every record, and the run certifies the optimum
    // (converged, U = E(x) = optimum) on every instance, the "frustrated" seeds 3 and 5 among
    // them, whose frustrated cycle is the 5-cycle 0-3-6-7-8 that no triangle or 4-cycle of the
    // graph covers (with cycle_search=short they stall: test_cycle_search.cpp).
    void cyclesTighten_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<unsigned>("seed");
        for (const char* kind : {"frustrated", "potts", "random", "forbidden", "grid"})
            for (unsigned seed = 1; seed <= 6; ++seed)
                QTest::newRow(rowName("mplp_cycles", kind, seed)) << QString(kind) << seed;
    }
    void cyclesTighten() {
        QFETCH(QString, kind);
        QFETCH(unsigned, seed);
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
        QCOMPARE(statusName(s->status()), QString("converged"));
        QVERIFY(std::abs(s->lastRecord().upper - optimum) <= 1e-6);
        QCOMPARE(s->lastRecord().lower, optimum);
    }

    // ClusterAdded is reported exactly at the steps after which the snapshot holds more
    // clusters, with the pseudocode's tightening line (5) and a text giving the added
    // clusters' sizes and the bound before and after the step.
    void clusterEventsFollowTheClusters() {
        int rounds = 0, multiple = 0;
        for (const char* kind : {"frustrated", "potts", "random", "grid"})
            for (unsigned seed = 1; seed <= 6; ++seed)
                checkClusterEvents(kind, seed, rounds, multiple);
        qInfo("%d tightening rounds, %d of them adding several clusters", rounds, multiple);
        QVERIFY(rounds >= 5);
        QVERIFY(multiple > 0);
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
        options.base.stall_sweeps = 50;
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
};

QTEST_APPLESS_MAIN(TestMapSolvers)
#include "test_map_solvers.moc"
