// SPDX-License-Identifier: GPL-3.0-or-later
// The anytime decoder of the MAP solvers (map/map_decoder.h) and the defaults it serves: a
// forest move is exact on trees (against exhaustive search) and never lowers E on loopy
// models; ICM ends at a labeling no single change improves (checked with the test's own
// tables); a kick relabels a connected ball; with no options at all, TRW-S and MPLP end on
// Grids_26 by the stall rule, not a limit, with a labeling close to the competition's.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "data/uai_format.h"
#include "map/map_decoder.h"
#include "map_test_models.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

const std::string kUai = std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";

std::vector<int> randomLabeling(const Plain& p, std::mt19937& rng) {
    std::vector<int> x(p.k.size());
    for (std::size_t v = 0; v < x.size(); ++v)
        x[v] = std::uniform_int_distribution<int>(0, p.k[v] - 1)(rng);
    return x;
}

}  // namespace

class TestMapDecoder : public QObject {
    Q_OBJECT

  private slots:
    // On a tree every node joins the forest, so one move is the exact maximisation of E.
    void forestMoveIsExactOnTrees_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<unsigned>("seed");
        for (const char* kind : {"chain", "star", "potts chain"})
            for (unsigned seed = 1; seed <= 5; ++seed)
                QTest::newRow(rowName("forest", kind, seed)) << QString(kind) << seed;
    }
    void forestMoveIsExactOnTrees() {
        QFETCH(QString, kind);
        QFETCH(unsigned, seed);
        const Plain p = makeModel(kind, seed);
        const auto model = p.model();
        const NodeIncidence incidence(*model);
        MapDecoder decoder(*model, incidence, model->forbiddenFloor());
        std::mt19937 rng(seed);
        std::vector<int> x = randomLabeling(p, rng);
        const std::vector<int> priority = {2, 5};
        decoder.forestMove(x, priority, seed);
        const double optimum = p.exhaustive().first;
        QVERIFY2(std::abs(p.energy(x) - optimum) <= 1e-9 * std::max(1.0, std::abs(optimum)),
                 qPrintable(QString("E %1, optimum %2").arg(p.energy(x)).arg(optimum)));
    }

    // On loopy models a move never lowers E, keeps every label in range, and from many seeds
    // reaches the optimum of these small models at least once.
    void forestMoveNeverLowersEnergy_data() {
        QTest::addColumn<QString>("kind");
        for (const char* kind : {"random", "forbidden", "frustrated", "potts", "grid"})
            QTest::newRow(kind) << QString(kind);
    }
    void forestMoveNeverLowersEnergy() {
        QFETCH(QString, kind);
        int optimal = 0;
        for (unsigned seed = 1; seed <= 6; ++seed) {
            const Plain p = makeModel(kind, seed);
            const auto model = p.model();
            const NodeIncidence incidence(*model);
            MapDecoder decoder(*model, incidence, model->forbiddenFloor());
            const double optimum = p.exhaustive().first;
            std::mt19937 rng(seed);
            std::vector<int> x = randomLabeling(p, rng);
            std::vector<int> ball;
            for (int move = 0; move < 40; ++move) {
                const double before = p.energy(x);
                if (move % 2) {
                    decoder.kick(x, 3, seed * 100 + unsigned(move), ball);
                    QVERIFY(ball.size() <= 3);
                }
                decoder.forestMove(x, ball, seed * 100 + unsigned(move));
                for (std::size_t v = 0; v < x.size(); ++v)
                    QVERIFY(x[v] >= 0 && x[v] < p.k[v]);
                // A kicked labeling may be worse than the one before the kick, an unkicked
                // move may not be.
                if (move % 2 == 0 && std::isfinite(before)) QVERIFY(p.energy(x) >= before - 1e-12);
            }
            optimal += std::abs(p.energy(x) - optimum) <= 1e-9 * std::max(1.0, std::abs(optimum));
            QVERIFY(p.energy(x) <= optimum + 1e-9);
        }
        QVERIFY2(optimal > 0, qPrintable(kind));
    }

    // ICM stops at a labeling that no change of one label improves (the test's own energy).
    void icmEndsAtALocalOptimum() {
        for (unsigned seed = 1; seed <= 5; ++seed) {
            const Plain p = makeModel("grid", seed);
            const auto model = p.model();
            const NodeIncidence incidence(*model);
            MapDecoder decoder(*model, incidence, model->forbiddenFloor());
            std::mt19937 rng(seed);
            std::vector<int> x = randomLabeling(p, rng);
            const double start = p.energy(x);
            decoder.icm(x, 1000);
            QVERIFY(p.energy(x) >= start);
            for (std::size_t v = 0; v < x.size(); ++v)
                for (int a = 0; a < p.k[v]; ++a) {
                    std::vector<int> y = x;
                    y[v] = a;
                    QVERIFY(p.energy(y) <= p.energy(x) + 1e-12);
                }
        }
    }

    // The kick's ball is connected: on a chain, consecutive nodes around the start.
    void kickRelabelsAConnectedBall() {
        const Plain p = makeModel("chain", 3);
        const auto model = p.model();
        const NodeIncidence incidence(*model);
        MapDecoder decoder(*model, incidence, model->forbiddenFloor());
        std::vector<int> x(p.k.size(), 0), ball;
        decoder.kick(x, 4, 11, ball);
        QCOMPARE(ball.size(), std::size_t(4));
        const auto [lo, hi] = std::minmax_element(ball.begin(), ball.end());
        QCOMPARE(*hi - *lo, 3);
        for (std::size_t v = 0; v < x.size(); ++v)
            if (std::find(ball.begin(), ball.end(), int(v)) == ball.end()) QCOMPARE(x[v], 0);
    }

    // With no options, on a frustrated grid whose LP is loose: the run ends by the stall rule
    // (never by an iteration or time limit) with a labeling within 2 % of the competition's
    // reference, the record's E is the best labeling's, and it never falls. The old defaults
    // stopped TRW-S after 77 sweeps 14 % below the reference.
    void defaultsServeANewcomer_data() {
        QTest::addColumn<QString>("solver");
        for (const char* solver : {"trws", "mplp", "diffusion"})
            QTest::newRow(solver) << QString(solver);
    }
    void defaultsServeANewcomer() {
        QFETCH(QString, solver);
        UaiTables tables = loadUai(kUai + "/Grids_26.uai.gz");
        const auto model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(tables));
        const double reference =
            model->energy(loadUaiResult(kUai + "/Grids_26.uai.MAP", model->labelCounts()));
        auto s = makeSolver(solver, model, MessagePassingOptions{});
        QCOMPARE(statusName(s->status()), QString("running"));
        double previous = -kInf;
        while (!s->status().finished()) {
            s->step();
            QVERIFY(s->lastRecord().lower >= previous);
            previous = s->lastRecord().lower;
        }
        QCOMPARE(statusName(s->status()), QString("stalled"));
        QVERIFY(s->status().message.find("best energy rose by less than") != std::string::npos);
        const double e = s->lastRecord().lower;
        QCOMPARE(e, model->energy(s->bestLabeling()));
        QVERIFY2(e >= reference - 0.02 * std::abs(reference),
                 qPrintable(QString("E %1, reference %2").arg(e).arg(reference)));
        qInfo(
            "%s with defaults on Grids_26: %s after %d sweeps in %.2f s, E %.4f (reference "
            "%.4f), U %.4f",
            qPrintable(solver), qPrintable(statusName(s->status())), s->lastRecord().iteration,
            s->lastRecord().seconds, e, reference, s->lastRecord().upper);
    }

    void forestMovesOption() {
        const Plain p = makeModel("grid", 1);
        MessagePassingOptions options;
        std::string why;
        QVERIFY2(options.isValid("MplpOptions", &why), why.c_str());
        QCOMPARE(options.stop.max_seconds, 10.0);
        options.forest_moves = 101;
        QVERIFY(makeSolver("mplp", p.model(), options)
                    ->status()
                    .message.find("MplpOptions::forest_moves = 101: must be in 0..100") == 0);
    }
};

QTEST_APPLESS_MAIN(TestMapDecoder)
#include "test_map_decoder.moc"
