// SPDX-License-Identifier: GPL-3.0-or-later
// MAP models whose answer would not be finite: generator weights beyond ±1e100 are refused
// (bounds stay finite up to it), contradictory evidence is a parse error naming both lines,
// a model whose every labeling has probability zero is refused (arc consistency) or ends
// without a labeling (InvalidInput with the dual-bound certificate, or NumericalFailure),
// never "stalled" with a labeling of energy −inf; and memory is estimated before allocating.
#include <QtTest>
#include <cmath>
#include <limits>
#include <memory>

#include "core/memory_budget.h"
#include "data/data_error.h"
#include "data/uai_format.h"
#include "map/cycle_mplp.h"
#include "map/generators.h"
#include "map/mplp.h"
#include "map/trws.h"

using namespace cplab;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// x_u = x_v allowed only (a hard equality), 2 labels.
std::vector<double> equal2() {
    return {0.0, -kInf, -kInf, 0.0};
}
// x_u ≠ x_v allowed only, 2 labels.
std::vector<double> different2() {
    return {-kInf, 0.0, 0.0, -kInf};
}

Status runToEnd(Solver& solver) {
    return solve(solver, {});
}

}  // namespace

class TestMapLimits : public QObject {
    Q_OBJECT

  private slots:
    void generatorWeightsBounded_data() {
        QTest::addColumn<QString>("which");
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("ok");
        QTest::newRow("grid coupling 1e308") << "grid coupling" << 1e308 << false;
        QTest::newRow("grid coupling 1e100") << "grid coupling" << 1e100 << true;
        QTest::newRow("grid unary 1e101") << "grid unary" << 1e101 << false;
        QTest::newRow("complete coupling 1e308") << "complete coupling" << 1e308 << false;
        QTest::newRow("potts smoothness 1e308") << "potts smoothness" << 1e308 << false;
        QTest::newRow("stereo smoothness 1e308") << "stereo smoothness" << 1e308 << false;
        QTest::newRow("stereo data_truncation 1e200") << "stereo data_truncation" << 1e200 << false;
    }
    void generatorWeightsBounded() {
        QFETCH(QString, which);
        QFETCH(double, value);
        QFETCH(bool, ok);
        std::string why;
        bool valid = false;
        if (which == "grid coupling" || which == "grid unary") {
            RandomGridOptions o;
            (which == "grid coupling" ? o.coupling : o.unary) = value;
            valid = o.isValid(&why);
        } else if (which == "complete coupling") {
            CompleteGraphOptions o;
            o.coupling = value;
            valid = o.isValid(&why);
        } else if (which == "potts smoothness") {
            PottsImageOptions o;
            o.smoothness = value;
            valid = o.isValid(&why);
        } else {
            StereoOptions o;
            (which == "stereo smoothness" ? o.smoothness : o.data_truncation) = value;
            valid = o.isValid(&why);
        }
        QCOMPARE(valid, ok);
        if (!ok) QVERIFY2(QString::fromStdString(why).contains("1e+100"), why.c_str());
    }

    void largestWeightsKeepBoundsFinite() {
        // The largest weights allowed, on a frustrated grid: every bound and energy finite.
        RandomGridOptions o;
        o.width = 6;
        o.height = 5;
        o.coupling = 1e100;
        o.unary = 1e100;
        const GeneratedModel generated = randomGrid(o);
        for (const char* name : {"trws", "mplp"}) {
            MessagePassingOptions options;
            options.stop.max_iterations = 30;
            std::unique_ptr<MessagePassingSolver> solver;
            if (QString(name) == "trws")
                solver = std::make_unique<TrwsSolver>(generated.model, options);
            else
                solver = std::make_unique<MplpSolver>(generated.model, options);
            const Status status = runToEnd(*solver);
            QVERIFY2(status.code != StatusCode::NumericalFailure, status.message.c_str());
            for (const IterationRecord& r : solver->trace()) {
                QVERIFY(std::isfinite(r.upper));
                QVERIFY(std::isfinite(r.lower));
                QVERIFY(r.upper >= r.lower - 1e-6 * std::abs(r.upper));
            }
        }
    }

    void contradictoryEvidenceNamesBothLines() {
        const std::vector<int> cards = {2, 3, 2};
        // Same label twice: fine.
        QCOMPARE(parseUaiEvidence("2\n1 2\n1 2\n", "e.evid", cards).size(), std::size_t(2));
        try {
            parseUaiEvidence("3\n0 1\n1 2\n0 0\n", "e.evid", cards);
            QFAIL("contradictory evidence was accepted");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString("e.evid"));
            QCOMPARE(e.line(), 4);
            QVERIFY2(QString::fromStdString(e.detail()).contains("variable 0") &&
                         QString::fromStdString(e.detail()).contains("line 2") &&
                         QString::fromStdString(e.detail()).contains("contradictory evidence"),
                     e.what());
        }
    }

    void arcConsistencyFindsTheVariable() {
        // Unary of variable 1 forbids every label.
        {
            PairwiseModel m({2, 2});
            m.unary(1)[0] = -kInf;
            m.unary(1)[1] = -kInf;
            QVERIFY(QString::fromStdString(m.noAllowedLabeling())
                        .startsWith("variable 1: its unary table forbids every label"));
        }
        // A chain 0 = 1 = 2 with x0 clamped to 0 (evidence) and x2 = 0 forbidden.
        {
            PairwiseModel m({2, 2, 2});
            m.unary(0)[1] = -kInf;
            m.unary(2)[0] = -kInf;
            m.addEdge(0, 1, equal2());
            m.addEdge(1, 2, equal2());
            const std::string why = m.noAllowedLabeling();
            QVERIFY2(why.find("every label is forbidden") != std::string::npos, why.c_str());
        }
        // Satisfiable hard constraints, and a model without −inf: "".
        {
            PairwiseModel m({2, 2, 2});
            m.addEdge(0, 1, different2());
            m.addEdge(1, 2, different2());
            QCOMPARE(QString::fromStdString(m.noAllowedLabeling()), QString());
            PairwiseModel soft({3, 3});
            soft.addPottsEdge(0, 1, -2.0);
            QCOMPARE(QString::fromStdString(soft.noAllowedLabeling()), QString());
        }
    }

    void lowestAllowedEnergy() {
        PairwiseModel m({2, 2});
        m.unary(0)[0] = 1.0;
        m.unary(0)[1] = -kInf;
        m.unary(1)[0] = -3.0;
        m.unary(1)[1] = 2.0;
        m.addEdge(0, 1, {0.5, -kInf, -1.5, 4.0});
        m.addPottsEdge(0, 1, -0.25);
        m.setConstant(10.0);
        // 10 + 1 + (-3) + (-1.5) + min(0, -0.25).
        QCOMPARE(m.lowestAllowedEnergy(), 10.0 + 1.0 - 3.0 - 1.5 - 0.25);
    }

    void frustratedHardTriangleEndsWithoutLabeling_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<int>("code");
        // The local polytope holds the half-half point, so plain message passing never proves
        // infeasibility: it ends as a numerical failure, not "stalled" with E = −inf. The
        // cycle cluster closes the relaxation, and the dual bound then proves it.
        QTest::newRow("trws") << "trws" << int(StatusCode::NumericalFailure);
        QTest::newRow("mplp") << "mplp" << int(StatusCode::NumericalFailure);
        QTest::newRow("mplp_cycles") << "mplp_cycles" << int(StatusCode::InvalidInput);
    }
    void frustratedHardTriangleEndsWithoutLabeling() {
        QFETCH(QString, solver);
        QFETCH(int, code);
        auto m = std::make_shared<PairwiseModel>(std::vector<int>{2, 2, 2});
        m->addEdge(0, 1, different2());
        m->addEdge(1, 2, different2());
        m->addEdge(0, 2, different2());
        QCOMPARE(QString::fromStdString(m->noAllowedLabeling()), QString());  // AC passes
        MessagePassingOptions options;
        options.stop.max_iterations = 200;
        options.stall_sweeps = 10;
        std::unique_ptr<MessagePassingSolver> s;
        if (solver == "trws") {
            s = std::make_unique<TrwsSolver>(m, options);
        } else if (solver == "mplp") {
            s = std::make_unique<MplpSolver>(m, options);
        } else {
            CycleMplpOptions cycles;
            cycles.base = options;
            cycles.tighten_sweeps = 3;
            s = std::make_unique<CycleMplpSolver>(m, cycles);
        }
        const Status status = runToEnd(*s);
        QVERIFY2(int(status.code) == code, status.message.c_str());
        QVERIFY2(QString::fromStdString(status.message).contains("probability"),
                 status.message.c_str());
    }

    void solverMemoryRefusedUpFront() {
        RandomGridOptions o;
        o.width = 200;
        o.height = 200;
        const GeneratedModel generated = randomGrid(o);
        setMemoryBudget(1 << 20);  // 1 MB: the messages of 80,000 edges x 3 labels do not fit
        TrwsSolver solver(generated.model, {});
        setMemoryBudget(0);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(solver.status().message)
                     .contains("79,600 edges x 2 directions x 3 labels"),
                 solver.status().message.c_str());
        QVERIFY(QString::fromStdString(solver.status().message).contains("about 1 MB available"));
        // The generator too.
        o.width = 1000;
        o.height = 1000;
        setMemoryBudget(1 << 20);
        QVERIFY_THROWS_EXCEPTION(MemoryLimitError, randomGrid(o));
        setMemoryBudget(0);
    }
};

QTEST_APPLESS_MAIN(TestMapLimits)
#include "test_map_limits.moc"
