// SPDX-License-Identifier: GPL-3.0-or-later
// Balanced block moves (map/local_search.h) and the frustrated grids they are for
// (map/generators.h): the max-flow against every cut of small graphs; a move is the exact
// optimum (exhaustive search) when the whole model is balanced, never lowers E on frustrated
// and forbidden-entry models, grows a block with no frustrated cycle (checked by the test's
// own 2-colouring), and reaches the optimum of small frustrated grids from most starts; the
// generator's tables follow from its stream; the balanced_blocks option runs both ways.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "map/generators.h"
#include "map/local_search.h"
#include "map/map_decoder.h"
#include "map_test_models.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

// A binary W × H grid: fields uniform in [−1, 1], Ising couplings J_e·(a = b ? 1 : −1) with
// |J_e| uniform in [0, 2]; signs random (frustrated) or s_u·s_v for random node signs s
// (balanced: a gauge of a ferromagnet); with `forbidden`, some pair entries −∞.
Plain binaryGrid(int w, int h, unsigned seed, bool balanced, double forbidden = 0.0) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> field(-1.0, 1.0), magnitude(0.0, 2.0);
    std::bernoulli_distribution coin(0.5), ban(forbidden);
    Plain p;
    std::vector<int> sign;
    for (int v = 0; v < w * h; ++v) {
        p.k.push_back(2);
        const double f = field(rng);
        p.unary.push_back({-f, f});
        sign.push_back(coin(rng) ? 1 : -1);
    }
    auto edge = [&](int u, int v) {
        const double j = magnitude(rng) * (balanced ? sign[std::size_t(u)] * sign[std::size_t(v)]
                                                    : (coin(rng) ? 1 : -1));
        Plain::Edge e{u, v, {j, -j, -j, j}, false, 0.0};
        for (double& t : e.table)
            if (ban(rng)) t = -kInf;
        p.edges.push_back(e);
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (x + 1 < w) edge(y * w + x, y * w + x + 1);
            if (y + 1 < h) edge(y * w + x, (y + 1) * w + x);
        }
    return p;
}

std::vector<int> randomLabels(std::size_t n, std::mt19937& rng) {
    std::vector<int> x(n);
    for (int& a : x)
        a = std::bernoulli_distribution(0.5)(rng) ? 1 : 0;
    return x;
}

bool close(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// Whether the subgraph `block` induces in `p` has no cycle with an odd number of repulsive
// edges (A_e < 0), by 2-colouring it breadth first.
bool balancedSubgraph(const Plain& p, const std::vector<int>& block) {
    const std::size_t n = p.k.size();
    std::vector<int> in(n, 0), colour(n, -1);
    for (const int v : block)
        in[std::size_t(v)] = 1;
    for (const int start : block) {
        if (colour[std::size_t(start)] >= 0) continue;
        colour[std::size_t(start)] = 0;
        std::vector<int> queue{start};
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const int v = queue[head];
            for (const Plain::Edge& e : p.edges) {
                if (e.u != v && e.v != v) continue;
                const int w = e.u == v ? e.v : e.u;
                if (!in[std::size_t(w)]) continue;
                const auto t = [&](int i) { return std::max(e.table[std::size_t(i)], -1e300); };
                const double a = t(0) + t(3) - t(1) - t(2);
                if (a == 0.0) continue;
                const int want = colour[std::size_t(v)] ^ (a < 0.0 ? 1 : 0);
                if (colour[std::size_t(w)] < 0) {
                    colour[std::size_t(w)] = want;
                    queue.push_back(w);
                } else if (colour[std::size_t(w)] != want) {
                    return false;
                }
            }
        }
    }
    return true;
}

}  // namespace

class TestLocalSearch : public QObject {
    Q_OBJECT

  private slots:
    // The max-flow value equals the smallest cut over all 2^(n−2) source sets (7 to 12 nodes,
    // arcs into the source and out of the sink among them).
    void maxFlowEqualsTheMinimumCut() {
        for (unsigned seed = 1; seed <= 120; ++seed) {
            std::mt19937 rng(seed);
            const int n = 7 + int(seed % 6);  // source 0, sink n − 1
            std::uniform_real_distribution<double> cap(0.0, 3.0);
            std::bernoulli_distribution present(0.5);
            std::vector<std::vector<double>> c(n, std::vector<double>(n, 0.0));
            MaxFlow flow;
            flow.reset(n, 0, n - 1);
            for (int u = 0; u < n; ++u)
                for (int v = 0; v < n; ++v)
                    if (u != v && present(rng)) {
                        c[std::size_t(u)][std::size_t(v)] = cap(rng);
                        flow.addArc(u, v, c[std::size_t(u)][std::size_t(v)]);
                    }
            const double value = flow.solve();
            auto cutOf = [&](auto inS) {
                double cut = 0.0;
                for (int u = 0; u < n; ++u)
                    for (int v = 0; v < n; ++v)
                        if (inS(u) && !inS(v)) cut += c[std::size_t(u)][std::size_t(v)];
                return cut;
            };
            double best = kInf;
            for (int mask = 0; mask < (1 << (n - 2)); ++mask)
                best = std::min(best, cutOf([&](int v) {
                                    return v == 0 || (v < n - 1 && ((mask >> (v - 1)) & 1));
                                }));
            QVERIFY2(close(value, best),
                     qPrintable(QString("flow %1, cut %2").arg(value).arg(best)));
            // The residual graph's source side is a minimum cut.
            QVERIFY(close(cutOf([&](int v) { return flow.onSourceSide(v); }), best));
            QVERIFY(flow.onSourceSide(0));
            QVERIFY(!flow.onSourceSide(n - 1));
        }
    }

    // On a balanced model (a ferromagnet in disguise) the block is the whole grid, so one move
    // from any labeling is the exact maximum.
    void moveIsExactOnBalancedGrids() {
        for (unsigned seed = 1; seed <= 20; ++seed) {
            const Plain p = binaryGrid(4, 4, seed, true);
            const auto model = p.model();
            const NodeIncidence incidence(*model);
            BalancedBlockMove move(*model, incidence, model->forbiddenFloor());
            std::mt19937 rng(seed);
            std::vector<int> x = randomLabels(p.k.size(), rng);
            move.move(x, {}, seed);
            QCOMPARE(move.block().size(), p.k.size());
            const double optimum = p.exhaustive().first;
            QVERIFY2(close(p.energy(x), optimum),
                     qPrintable(QString("E %1, optimum %2").arg(p.energy(x)).arg(optimum)));
        }
    }

    // On frustrated grids (some with forbidden pairs): no move lowers E, every block is
    // balanced and holds every node of the priority list it can, and moves from random starts
    // end at the exhaustive optimum on most of the 4 × 4 grids.
    void movesNeverLowerEnergyAndOftenFindTheOptimum() {
        int optimal = 0;
        const int grids = 20;
        for (unsigned seed = 1; seed <= grids; ++seed) {
            const Plain p = binaryGrid(4, 4, seed, false, seed % 4 == 0 ? 0.1 : 0.0);
            const auto model = p.model();
            const NodeIncidence incidence(*model);
            BalancedBlockMove move(*model, incidence, model->forbiddenFloor());
            std::mt19937 rng(seed);
            std::vector<int> x = randomLabels(p.k.size(), rng);
            for (int k = 0; k < 30; ++k) {
                const double before = p.energy(x);
                const std::vector<int> priority = {int(rng() % 16), int(rng() % 16)};
                move.move(x, priority, seed * 1000 + unsigned(k));
                QVERIFY(p.energy(x) >= before || !std::isfinite(before));
                QVERIFY(balancedSubgraph(p, move.block()));
                QVERIFY(std::find(move.block().begin(), move.block().end(), priority[0]) !=
                        move.block().end());
            }
            const double optimum = p.exhaustive().first;
            QVERIFY(p.energy(x) <= optimum + 1e-9);
            optimal += close(p.energy(x), optimum);
        }
        qInfo("balanced block moves: the optimum on %d of %d frustrated 4x4 grids", optimal, grids);
        QVERIFY2(optimal >= grids * 3 / 4, qPrintable(QString::number(optimal)));
    }

    // A model with 3 labels (or higher-order factors) keeps the forest moves.
    void appliesToBinaryPairwiseModelsOnly() {
        const Plain binary = binaryGrid(3, 3, 1, false);
        QVERIFY(BalancedBlockMove::applies(*binary.model()));
        const Plain three = makeModel("grid", 1);
        QVERIFY(!BalancedBlockMove::applies(*three.model()));
        const auto model = binary.model();
        const NodeIncidence incidence(*model);
        MapDecoder decoder(*model, incidence, model->forbiddenFloor());
        QVERIFY(!decoder.balancedBlocks());
        decoder.setBalancedBlocks(true);
        QVERIFY(decoder.balancedBlocks());
        const auto other = three.model();
        const NodeIncidence otherIncidence(*other);
        MapDecoder forest(*other, otherIncidence, other->forbiddenFloor());
        forest.setBalancedBlocks(true);
        QVERIFY(!forest.balancedBlocks());
    }

    // The generator's tables follow from its stream: fields, then couplings in edge order
    // (right, then down, then the torus's wrap-around edges).
    void frustratedGridFollowsItsStream() {
        for (const bool torus : {false, true}) {
            FrustratedGridOptions o;
            o.width = 5;
            o.height = 4;
            o.field = 1.0;
            o.coupling = 2.0;
            o.torus = torus;
            o.seed = 7;
            const auto model = frustratedGrid(o).model;
            QCOMPARE(model->edgeCount(), torus ? 2 * 20 : 2 * 20 - 5 - 4);
            std::mt19937_64 g(7);
            auto u = [&g] { return static_cast<double>(g() >> 11) * 0x1.0p-53; };
            for (int v = 0; v < 20; ++v) {
                const double h = 1.0 * (2.0 * u() - 1.0);
                QCOMPARE(model->unary(v)[0], -h);
                QCOMPARE(model->unary(v)[1], h);
            }
            int negative = 0;
            for (int e = 0; e < model->edgeCount(); ++e) {
                const double j = 2.0 * (2.0 * u() - 1.0);
                QCOMPARE(model->pairwise(e, 0, 0), j);
                QCOMPARE(model->pairwise(e, 1, 1), j);
                QCOMPARE(model->pairwise(e, 0, 1), -j);
                QCOMPARE(model->pairwise(e, 1, 0), -j);
                negative += j < 0;
            }
            QVERIFY(negative > 0 && negative < model->edgeCount());
            QCOMPARE(model->edge(0).u, 0);
            QCOMPARE(model->edge(0).v, 1);
            if (torus) {
                const auto& wrap = model->edge(31);  // the first wrap-around edge: row 0
                QCOMPARE(std::min(wrap.u, wrap.v), 0);
                QCOMPARE(std::max(wrap.u, wrap.v), 4);
            }
        }
        FrustratedGridOptions bad;
        bad.torus = true;
        bad.width = 2;
        std::string why;
        QVERIFY(!bad.isValid(&why));
        QCOMPARE(
            QString::fromStdString(why),
            QString("FrustratedGridOptions::width = 2: must be between 3 and 4096 on a torus"));
        bad = {};
        bad.coupling = -1.0;
        QVERIFY(!bad.isValid(&why));
        QVERIFY(why.find("FrustratedGridOptions::coupling = -1") == 0);
    }

    // competition_order lays the edges out as the UAI 2014 Grids files do (Grids_18/19/26:
    // each row's edges to the right and its wrap-around, then each column's edges down and
    // its wrap-around), the couplings drawn in that order; the same edge set as the default.
    void frustratedGridCompetitionOrder() {
        for (const bool torus : {true, false}) {
            FrustratedGridOptions o;
            o.width = 4;
            o.height = 3;
            o.coupling = 10.0;
            o.torus = torus;
            o.competition_order = true;
            o.seed = 11;
            const auto model = frustratedGrid(o).model;
            // Written out by hand from the file layout (4 × 3: nodes 0..11, row-major).
            const std::vector<std::pair<int, int>> expected =
                torus
                    ? std::vector<std::pair<int, int>>{{0, 1},   {1, 2},  {2, 3},  {0, 3}, {4, 5},
                                                       {5, 6},   {6, 7},  {4, 7},  {8, 9}, {9, 10},
                                                       {10, 11}, {8, 11}, {0, 4},  {4, 8}, {0, 8},
                                                       {1, 5},   {5, 9},  {1, 9},  {2, 6}, {6, 10},
                                                       {2, 10},  {3, 7},  {7, 11}, {3, 11}}
                    : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3},  {4, 5},   {5, 6},
                                                       {6, 7}, {8, 9}, {9, 10}, {10, 11}, {0, 4},
                                                       {4, 8}, {1, 5}, {5, 9},  {2, 6},   {6, 10},
                                                       {3, 7}, {7, 11}};
            QCOMPARE(model->edgeCount(), static_cast<int>(expected.size()));
            std::mt19937_64 g(11);
            auto u = [&g] { return static_cast<double>(g() >> 11) * 0x1.0p-53; };
            for (int v = 0; v < 12; ++v)
                u();
            for (int e = 0; e < model->edgeCount(); ++e) {
                QCOMPARE(model->edge(e).u, expected[static_cast<std::size_t>(e)].first);
                QCOMPARE(model->edge(e).v, expected[static_cast<std::size_t>(e)].second);
                const double j = 10.0 * (2.0 * u() - 1.0);
                QCOMPARE(model->pairwise(e, 0, 0), j);
                QCOMPARE(model->pairwise(e, 0, 1), -j);
            }
        }
    }

    // On by default; off, a binary model's decoder keeps the forest moves.
    void balancedBlocksOption() {
        MessagePassingOptions options;
        QVERIFY(options.balanced_blocks);
        const Plain p = binaryGrid(4, 4, 3, false);
        options.stop.max_iterations = 3;
        for (const bool on : {true, false}) {
            options.balanced_blocks = on;
            auto s = makeSolver("mplp", p.model(), options);
            while (!s->status().finished())
                s->step();
            QVERIFY(s->lastRecord().lower <= p.exhaustive().first + 1e-9);
        }
    }
};

QTEST_APPLESS_MAIN(TestLocalSearch)
#include "test_local_search.moc"
