// SPDX-License-Identifier: GPL-3.0-or-later
// sweeps_per_step = -1 (auto, the default; message_passing.h, cycle_mplp.h): mplp_cycles
// makes several sweeps per step on large binary models whose decoder makes balanced block
// moves and one elsewhere (small models, several labels, forest moves, the other solvers); a
// number given is kept; and with several sweeps per step the bound stays above the exact
// optimum of a 2 × 2,048 ladder (4,096 binary variables, frustrated squares) computed here by
// dynamic programming over its columns, and every record's energy is its labeling's.
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "map/generators.h"
#include "map_test_models.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

// A 2 × n ladder with fields in [−1, 1] and Ising couplings ±J, J uniform in [−2, 2]: node
// (row r, column c) is 2c + r; the rungs (2c, 2c + 1), the rails (2c + r, 2c + 2 + r).
Plain ladder(int columns, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> field(-1.0, 1.0), coupling(-2.0, 2.0);
    Plain p;
    for (int v = 0; v < 2 * columns; ++v) {
        const double h = field(rng);
        p.k.push_back(2);
        p.unary.push_back({-h, h});
    }
    const auto ising = [&](int u, int v) {
        const double j = coupling(rng);
        p.edges.push_back({u, v, {j, -j, -j, j}, false, 0.0});
    };
    for (int c = 0; c < columns; ++c) {
        ising(2 * c, 2 * c + 1);
        if (c + 1 < columns) {
            ising(2 * c, 2 * c + 2);
            ising(2 * c + 1, 2 * c + 3);
        }
    }
    return p;
}

// The ladder's optimum by dynamic programming over its columns (4 states: the two labels).
double ladderOptimum(const Plain& p) {
    const int columns = static_cast<int>(p.k.size()) / 2;
    const auto table = [&p](std::size_t e, int a, int b) { return p.edges[e].table[2 * a + b]; };
    const auto column = [&](int c,
                            int s) {  // the column's own terms in state s = 2·x_top + x_bottom
        const auto top = static_cast<std::size_t>(2 * c);
        return p.unary[top][s >> 1] + p.unary[top + 1][s & 1] +
               table(static_cast<std::size_t>(3 * c), s >> 1, s & 1);
    };
    std::array<double, 4> best{};
    for (int s = 0; s < 4; ++s)
        best[s] = column(0, s);
    for (int c = 1; c < columns; ++c) {
        // Edges in ladder() order: rung 3c', then the rails 3c' + 1 (top) and 3c' + 2 (bottom).
        const auto rails = static_cast<std::size_t>(3 * (c - 1));
        std::array<double, 4> next{};
        for (int s = 0; s < 4; ++s) {
            next[s] = -kInf;
            for (int r = 0; r < 4; ++r)
                next[s] = std::max(next[s], best[r] + table(rails + 1, r >> 1, s >> 1) +
                                                table(rails + 2, r & 1, s & 1));
            next[s] += column(c, s);
        }
        best = next;
    }
    return *std::max_element(best.begin(), best.end());
}

std::shared_ptr<const PairwiseModel> grid(int width, int height, bool binary) {
    if (binary) {
        FrustratedGridOptions o;
        o.width = width;
        o.height = height;
        return frustratedGrid(o).model;
    }
    RandomGridOptions o;
    o.width = width;
    o.height = height;
    return randomGrid(o).model;
}

}  // namespace

class TestSweepsPerStep : public QObject {
    Q_OBJECT

  private slots:
    void picks_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<int>("side");
        QTest::addColumn<bool>("binary");
        QTest::addColumn<QString>("change");
        QTest::addColumn<int>("expected");
        const int k = kAutoSweepsPerStep;
        QTest::newRow("cycles 64x64 binary") << "mplp_cycles" << 64 << true << "" << k;
        QTest::newRow("cycles 40x40 binary (1,600: one)") << "mplp_cycles" << 40 << true << "" << 1;
        QTest::newRow("cycles 20x20 binary (small)") << "mplp_cycles" << 20 << true << "" << 1;
        QTest::newRow("cycles 64x64 3 labels") << "mplp_cycles" << 64 << false << "" << 1;
        QTest::newRow("cycles 64x64 forest moves")
            << "mplp_cycles" << 64 << true << "balanced_blocks=false" << 1;
        QTest::newRow("cycles 64x64 no moves")
            << "mplp_cycles" << 64 << true << "forest_moves=0" << 1;
        QTest::newRow("cycles 64x64 given 2")
            << "mplp_cycles" << 64 << true << "sweeps_per_step=2" << 2;
        QTest::newRow("cycles 20x20 given 5")
            << "mplp_cycles" << 20 << true << "sweeps_per_step=5" << 5;
        QTest::newRow("mplp 64x64 binary") << "mplp" << 64 << true << "" << 1;
        QTest::newRow("trws 64x64 binary") << "trws" << 64 << true << "" << 1;
        QTest::newRow("diffusion 64x64 binary") << "diffusion" << 64 << true << "" << 1;
    }
    // The choice, and that a step then makes that many sweeps (one oracle call each).
    void picks() {
        QFETCH(QString, solver);
        QFETCH(int, side);
        QFETCH(bool, binary);
        QFETCH(QString, change);
        QFETCH(int, expected);
        MessagePassingOptions o;
        QCOMPARE(o.sweeps_per_step, MessagePassingOptions::kAuto);
        if (change == "balanced_blocks=false") o.balanced_blocks = false;
        if (change == "forest_moves=0") o.forest_moves = 0;
        if (change == "sweeps_per_step=2") o.sweeps_per_step = 2;
        if (change == "sweeps_per_step=5") o.sweeps_per_step = 5;
        o.stop.max_seconds = 0;
        auto s = makeSolver(solver, grid(side, side, binary), o);
        QVERIFY2(!s->status().finished(), s->status().message.c_str());
        QCOMPARE(s->sweepsPerStep(), expected);
        // clusters_per_round = -1: more cycles per tightening exactly where the sweeps are more.
        if (solver == "mplp_cycles") {
            const bool large = side * side >= 4096 && binary && change != "balanced_blocks=false" &&
                               change != "forest_moves=0";
            QCOMPARE(autoClustersPerRound(*grid(side, side, binary), o), large ? 100 : 20);
        }
        const long long before = s->lastRecord().oracleCalls;
        s->step();
        s->step();
        QCOMPARE(s->lastRecord().oracleCalls - before, 2LL * expected);
    }

    // -1 is valid (auto), 0 and -2 are not.
    void validation() {
        for (const int value : {-1, 1, 1000}) {
            MessagePassingOptions o;
            o.sweeps_per_step = value;
            std::string why;
            QVERIFY2(o.isValid("MplpOptions", &why), why.c_str());
        }
        for (const int value : {-2, 0, 1001}) {
            MessagePassingOptions o;
            o.sweeps_per_step = value;
            std::string why;
            QVERIFY(!o.isValid("MplpOptions", &why));
            QVERIFY2(why.find("MplpOptions::sweeps_per_step") != std::string::npos, why.c_str());
        }
    }

    // With kAutoSweepsPerStep sweeps per step (and kAutoClustersLarge clusters per round) on a
    // ladder of 4,096 binary nodes, every record's
    // bound is at least the exact optimum and its energy at most that, and the best labeling
    // scores the recorded energy in the test's own tables.
    void boundStaysValid() {
        for (const unsigned seed : {1u, 2u, 3u}) {
            const Plain p = ladder(kAutoSweepsMinVariables / 2, seed);
            const double optimum = ladderOptimum(p);
            MessagePassingOptions o;
            o.stop.max_iterations = 400;
            o.stop.max_seconds = 0;
            auto s = makeSolver("mplp_cycles", p.model(), o);
            QCOMPARE(s->sweepsPerStep(), kAutoSweepsPerStep);
            const double slack = 1e-9 * std::max(1.0, std::abs(optimum));
            while (!s->status().finished()) {
                s->step();
                const IterationRecord& r = s->lastRecord();
                QVERIFY2(r.upper >= optimum - slack,
                         qPrintable(QString("seed %1, step %2: U %3 below the optimum %4")
                                        .arg(seed)
                                        .arg(r.iteration)
                                        .arg(r.upper, 0, 'g', 17)
                                        .arg(optimum, 0, 'g', 17)));
                QVERIFY(r.lower <= optimum + slack);
                QVERIFY(std::abs(p.energy(s->bestLabeling()) - r.lower) <= slack);
            }
            qInfo("ladder seed %u: optimum %.6f, E %.6f, U %.6f after %lld steps (%s)", seed,
                  optimum, s->lastRecord().lower, s->lastRecord().upper,
                  static_cast<long long>(s->iteration()), s->status().message.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestSweepsPerStep)
#include "test_sweeps_per_step.moc"
