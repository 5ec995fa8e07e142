// SPDX-License-Identifier: GPL-3.0-or-later
// MAP solvers on reference instances: libDAI's exact MAP of testfast.fg, the UAI 2014
// reference labelings of Segmentation_11 and Grids_26 (whose local-polytope optimum Clp
// computes), ICM on Grids_26, and a 100x100 Potts grid with its sweeps per second.
#include <QtTest>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "data/uai_format.h"
#include "map_test_models.h"
#include "record_columns.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

const std::string kUai = std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";
const std::string kLibdai = std::string(CPLAB_TEST_DATA_DIR) + "/map/libdai";

}  // namespace

class TestMapInstances : public QObject {
    Q_OBJECT

  private slots:
    // ICM changes no message, so the bounds are the same sweep by sweep, and the best
    // energy with it is never lower than without it (and higher somewhere on Grids_26).
    void icmImprovesLabelings() {
        const auto model = std::make_shared<PairwiseModel>(
            PairwiseModel::fromTables(loadUai(kUai + "/Grids_26.uai.gz")));
        for (const char* name : {"mplp", "trws", "diffusion"}) {
            MessagePassingOptions options;
            options.stop.max_iterations = 50;
            options.icm_passes = 0;  // the decoder off: ICM alone against the plain decoding
            options.forest_moves = 0;
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
};

QTEST_APPLESS_MAIN(TestMapInstances)
#include "test_map_instances.moc"
