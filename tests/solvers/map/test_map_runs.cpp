// SPDX-License-Identifier: GPL-3.0-or-later
// Running the MAP solvers: cancelling, the iteration limit, options and models refused with
// their messages, degenerate models (one variable, single labels, every labeling forbidden),
// and the snapshot and summary the views show.
#include <QtTest>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "map_test_models.h"
#include "record_columns.h"

using namespace cplab;
using namespace cplab::maptest;

class TestMapRuns : public QObject {
    Q_OBJECT

  private slots:
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

QTEST_APPLESS_MAIN(TestMapRuns)
#include "test_map_runs.moc"
