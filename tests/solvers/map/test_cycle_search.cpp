// SPDX-License-Identifier: GPL-3.0-or-later
// Frustrated cycles of any length for MPLP tightening (cycle_search.h, cycle_mplp.h): the
// cycle DP's maximum and max-marginals against enumeration of every labeling, the search on
// signed rings whose frustration is known by construction, the bound of mplp_cycles with the
// search against the exhaustive optimum of small frustrated models (binary and 3-label) with
// a never-increasing dual, and on a 2-label frustrated grid the bound falling past the value at
// which the triangle-and-square search stalls (measured in the same test).
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "map/cycle_search.h"
#include "map/generators.h"
#include "map_test_models.h"
#include "record_columns.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

// Max and max-marginals of Σ g_i(x_i, x_{i+1}) around a cycle by enumerating every labeling.
double bruteCycle(const std::vector<int>& k, const std::vector<std::vector<double>>& g,
                  std::vector<std::vector<double>>& mm) {
    const std::size_t size = k.size();
    mm.assign(size, {});
    for (std::size_t i = 0; i < size; ++i)
        mm[i].assign(g[i].size(), -kInf);
    std::vector<int> x(size, 0);
    double best = -kInf;
    for (;;) {
        double sum = 0.0;
        std::vector<std::size_t> at(size);
        for (std::size_t i = 0; i < size; ++i) {
            at[i] = std::size_t(x[i] * k[(i + 1) % size] + x[(i + 1) % size]);
            sum += g[i][at[i]];
        }
        best = std::max(best, sum);
        for (std::size_t i = 0; i < size; ++i)
            mm[i][at[i]] = std::max(mm[i][at[i]], sum);
        std::size_t i = 0;
        while (i < size && ++x[i] == k[i])
            x[i++] = 0;
        if (i == size) break;
    }
    return best;
}

// A binary ring 0 … n−1 whose edges are attractive (+w) or repulsive (−w) as `repulsive` says:
// the edge belief is w on the preferred pairs, 0 on the others.
std::vector<BeliefEdge> signedRing(int n, const std::vector<bool>& repulsive, double w) {
    std::vector<BeliefEdge> edges;
    for (int i = 0; i < n; ++i) {
        const bool r = repulsive[std::size_t(i)];
        edges.push_back({i, (i + 1) % n,
                         r ? std::vector<double>{0, w, w, 0} : std::vector<double>{w, 0, 0, w}});
    }
    return edges;
}

// A W × H grid of k labels with Potts couplings of both signs and random unaries.
Plain frustratedGrid(int width, int height, int labels, unsigned seed) {
    std::mt19937 rng(seed);
    Plain p = withNodes(width * height, labels, rng, 0.3);
    std::uniform_real_distribution<double> w(-1.0, 1.0);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int v = y * width + x;
            if (x + 1 < width) p.addPotts(v, v + 1, w(rng));
            if (y + 1 < height) p.addPotts(v, v + width, w(rng));
        }
    return p;
}

CycleMplpOptions searchOptions(const std::string& search, bool squares) {
    CycleMplpOptions options;
    options.cycle_search = search;
    options.squares = squares;
    options.base.stop.max_iterations = 2000;
    options.base.stall_sweeps = 40;
    options.tighten_sweeps = 5;
    options.tighten_tolerance = 1e-4;
    return options;
}

}  // namespace

class TestCycleSearch : public QObject {
    Q_OBJECT

  private slots:
    // The DP's maximum and every edge's max-marginal equal enumeration on random cycles of
    // 3 … 8 nodes with 2 … 4 labels (different per node).
    void dpMatchesEnumeration() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> theta(-2.0, 2.0);
        for (int length = 3; length <= 8; ++length)
            for (int trial = 0; trial < 6; ++trial) {
                std::vector<int> k(std::size_t(length), 0);
                for (int& labels : k)
                    labels = std::uniform_int_distribution<int>(2, length <= 6 ? 4 : 3)(rng);
                std::vector<std::vector<double>> g(k.size());
                for (std::size_t i = 0; i < k.size(); ++i)
                    for (int j = 0; j < k[i] * k[(i + 1) % k.size()]; ++j)
                        g[i].push_back(theta(rng));
                std::vector<std::vector<double>> expected, got;
                const double best = bruteCycle(k, g, expected);
                QCOMPARE(cycleMaxDp(k, g, &got), best);
                QCOMPARE(cycleMaxDp(k, g), best);
                QCOMPARE(got.size(), expected.size());
                for (std::size_t i = 0; i < got.size(); ++i)
                    for (std::size_t j = 0; j < got[i].size(); ++j)
                        QVERIFY2(std::abs(got[i][j] - expected[i][j]) <= 1e-12,
                                 qPrintable(QString("length %1 edge %2 entry %3: %4 vs %5")
                                                .arg(length)
                                                .arg(i)
                                                .arg(j)
                                                .arg(got[i][j])
                                                .arg(expected[i][j])));
            }
    }

    // A ring with an odd number of repulsive edges is frustrated and found whole, in ring
    // order; with an even number it is not frustrated and nothing is found. With a chord that
    // splits an 8-ring into two 5-cycles, only the frustrated half is returned, whatever the
    // order of the strongest edges.
    void findsFrustratedRings() {
        for (int n : {3, 5, 9, 20}) {
            std::vector<bool> repulsive(std::size_t(n), false);
            repulsive[2 % std::size_t(n)] = true;
            const std::vector<int> labels(std::size_t(n), 2);
            auto cycles = findFrustratedCycles(labels, signedRing(n, repulsive, 1.0), {});
            QCOMPARE(cycles.size(), std::size_t(1));
            auto cycle = cycles.front();
            QCOMPARE(cycle.size(), std::size_t(n));
            std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
            if (cycle[1] != 1) std::reverse(cycle.begin() + 1, cycle.end());
            for (int i = 0; i < n; ++i)
                QCOMPARE(cycle[std::size_t(i)], i);
            repulsive[0] = true;  // two repulsive edges: consistent
            QVERIFY(findFrustratedCycles(labels, signedRing(n, repulsive, 1.0), {}).empty());
        }
        // 8-ring 0 … 7 plus the chord 0–4 (attractive); one repulsive edge, 1–2, in the half
        // 0-1-2-3-4: that 5-cycle is the one frustrated cycle through the chord.
        std::vector<bool> repulsive(8, false);
        repulsive[1] = true;
        auto edges = signedRing(8, repulsive, 1.0);
        edges.push_back({0, 4, {2, 0, 0, 2}});
        const auto cycles = findFrustratedCycles(std::vector<int>(8, 2), edges, {});
        QVERIFY(!cycles.empty());
        auto nodes = cycles.front();
        std::sort(nodes.begin(), nodes.end());
        QCOMPARE(nodes, (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(cycleKey(std::vector<int>{3, 1, 4, 0}), cycleKey(std::vector<int>{0, 4, 1, 3}));
        QVERIFY(cycleKey(std::vector<int>{0, 1, 3, 4}) != cycleKey(std::vector<int>{0, 3, 1, 4}));
    }

    // 3 labels: on a triangle whose Potts couplings are all repulsive, the single-label
    // projections of one label form a frustrated triangle.
    void findsFrustrationInProjections() {
        std::vector<BeliefEdge> edges;
        for (auto [u, v] : {std::pair{0, 1}, {1, 2}, {0, 2}}) {
            BeliefEdge e{u, v, {}};
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    e.table.push_back(a == 0 && b == 0 ? -1.0 : a == 0 || b == 0 ? 1.0 : 0.0);
            edges.push_back(e);
        }
        const auto cycles = findFrustratedCycles(std::vector<int>{3, 3, 3}, edges, {});
        QCOMPARE(cycles.size(), std::size_t(1));
        QCOMPARE(cycles.front().size(), std::size_t(3));
    }

    // Every record of mplp_cycles with the search, on small frustrated models: the bound is
    // at least the exhaustive optimum, the current dual never increases, the measured fall of
    // each tightening is at least its guaranteed d(c), and the best energy is the recomputed
    // energy of the best labeling.
    void boundHoldsOnSmallModels_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("labels");
        QTest::addColumn<unsigned>("seed");
        for (unsigned seed = 1; seed <= 6; ++seed) {
            QTest::newRow(qPrintable(QString("4x4 binary %1").arg(seed))) << 4 << 4 << 2 << seed;
            QTest::newRow(qPrintable(QString("4x3 3-label %1").arg(seed))) << 4 << 3 << 3 << seed;
        }
    }
    void boundHoldsOnSmallModels() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, labels);
        QFETCH(unsigned, seed);
        const Plain p = frustratedGrid(width, height, labels, seed);
        const double optimum = p.exhaustive().first;
        for (bool squares : {false, true}) {
            CycleMplpSolver s(p.model(), searchOptions("any", squares));
            double dual = s.dual();
            int longest = 0;
            while (!s.status().finished()) {
                s.step();
                const IterationRecord& r = s.lastRecord();
                QVERIFY2(r.upper >= optimum - 1e-9,
                         qPrintable(QString("U %1 < optimum %2").arg(r.upper).arg(optimum)));
                QVERIFY2(s.dual() <= dual + 1e-9 * std::max(1.0, std::abs(dual)),
                         qPrintable(QString("dual rose %1 -> %2").arg(dual).arg(s.dual())));
                dual = s.dual();
                const double guaranteed = test::column(s, r, "guaranteed_decrease");
                const double measured = test::column(s, r, "tighten_decrease");
                QVERIFY(guaranteed >= 0.0);
                QVERIFY2(measured >= guaranteed - 1e-9,
                         qPrintable(QString("%1 < %2").arg(measured).arg(guaranteed)));
                longest = std::max(longest, int(test::column(s, r, "longest_cycle")));
                QCOMPARE(r.lower, p.energy(s.bestLabeling()));
                QVERIFY(r.lower <= optimum + 1e-9);
            }
            if (!squares) QVERIFY(longest == 0 || longest >= 4);  // no triangles in a grid
        }
    }

    // The "frustrated" test models of seeds 3 and 5 (map_test_models.h), whose frustrated
    // cycle is a 5-cycle no triangle or 4-cycle covers: with cycle_search=short the run stalls
    // above the optimum saying that no candidate helps; with the search it finds a 5-cycle and
    // certifies the optimum.
    void searchReachesTheFiveCycle() {
        for (unsigned seed : {3u, 5u}) {
            const Plain p = makeModel("frustrated", seed);
            const double optimum = p.exhaustive().first;
            CycleMplpOptions options;
            options.base.stop.max_iterations = 3000;
            options.cycle_search = "short";
            CycleMplpSolver listed(p.model(), options);
            solve(listed);
            QCOMPARE(statusName(listed.status()), QString("stalled"));
            QVERIFY(listed.status().message.find("no candidate cycle") != std::string::npos);
            QVERIFY(listed.lastRecord().upper > optimum + 1e-3);
            options.cycle_search = "any";
            CycleMplpSolver searched(p.model(), options);
            solve(searched);
            QCOMPARE(statusName(searched.status()), QString("converged"));
            QVERIFY(std::abs(searched.lastRecord().upper - optimum) <= 1e-6);
            QCOMPARE(searched.lastRecord().lower, optimum);
            bool five = false;
            for (const auto& nodes : searched.clusterNodes())
                five = five || nodes.size() == 5;
            QVERIFY(five);
        }
    }

    // A 2-label frustrated grid (the generator's random grid, 16 × 16): with triangles and
    // squares only, tightening stalls (a fixed point, no square lowers the bound) with the gap
    // open; the search for frustrated cycles of any length lowers the bound past that value
    // (here to the optimum, certified), adding cycles longer than 4.
    void longCyclesLowerTheStalledBound() {
        RandomGridOptions grid;
        grid.width = 16;
        grid.height = 16;
        grid.labels = 2;
        grid.unary = 0.1;  // weak unaries: the couplings' frustration decides
        grid.seed = 1;
        const auto model = randomGrid(grid).model;
        auto run = [&](const std::string& search, int& longest, Status& status) {
            CycleMplpSolver s(model, searchOptions(search, true));
            longest = 0;
            while (!s.status().finished()) {
                s.step();
                longest = std::max(longest, int(test::column(s, s.lastRecord(), "longest_cycle")));
            }
            qInfo("cycle_search=%s: U %.6f, E %.6f, %d clusters, %s", search.c_str(),
                  s.lastRecord().upper, s.lastRecord().lower, s.clusters(),
                  s.status().message.c_str());
            status = s.status();
            return s.lastRecord();
        };
        int longestShort = 0, longestAny = 0;
        Status shortStatus, anyStatus;
        const IterationRecord stalled = run("short", longestShort, shortStatus);
        const IterationRecord searched = run("any", longestAny, anyStatus);
        QCOMPARE(statusName(shortStatus), QString("stalled"));
        QVERIFY(shortStatus.message.find("no candidate cycle") != std::string::npos);
        QCOMPARE(longestShort, 4);
        QVERIFY(longestAny > 4);
        QVERIFY2(stalled.gap > 0.05, qPrintable(QString::number(stalled.gap)));
        QVERIFY2(searched.upper < stalled.upper - 0.5 * stalled.gap,
                 qPrintable(QString("%1 vs %2").arg(searched.upper).arg(stalled.upper)));
        QVERIFY(searched.upper >= searched.lower - 1e-9);
    }
};

QTEST_APPLESS_MAIN(TestCycleSearch)
#include "test_cycle_search.moc"
