// SPDX-License-Identifier: GPL-3.0-or-later
// The structural SVM solvers besides BCFW: batch Frank–Wolfe (fw), the stochastic subgradient
// method (ssg), the 1-slack (oneslack) and n-slack (nslack) cutting-plane methods.
//
// Independent answers: on a tiny random instance P* comes from the enumerated dual (every
// labelling of every word a corner) solved by accelerated projected gradient, an algorithm that
// shares nothing with the solvers or the Viterbi oracle, and P(w) from exhaustive enumeration
// with a dense Ψ written out from the documented layout; on the first 60 OCR training words
// P* comes from the n-slack QP run to a gap of 1e-9 and is cross-checked against the 1-slack
// method at the same tolerance (two different QPs: n blocks of labellings against one joint
// plane set), and every solver must reach it. SSG's first updates are checked against numbers
// worked out by hand.
#include <Eigen/Eigenvalues>
#include <QtTest>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <thread>

#include "chain_brute_force.h"
#include "data/sequence_format.h"
#include "structured/bcfw.h"
#include "structured/frank_wolfe_ssvm.h"
#include "structured/n_slack_ssvm.h"
#include "structured/one_slack_ssvm.h"
#include "structured/oracle_pass.h"
#include "structured/ssg_ssvm.h"
#include "structured/structured_snapshot.h"
#include "test_printers.h"

using namespace cplab;
using namespace cplab::testing;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

double seconds(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double column(const Solver& solver, const IterationRecord& record, const char* name) {
    const std::vector<std::string> names = solver.extraColumns();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::numeric_limits<double>::quiet_NaN();
    return record.extra[static_cast<std::size_t>(it - names.begin())];
}

// Properties every trace must have: bounds ordered, lower never decreasing, upper never
// increasing, one record per step.
void checkTrace(const Solver& solver) {
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    int iteration = 0;
    for (const IterationRecord& r : solver.trace()) {
        QCOMPARE(r.iteration, ++iteration);
        QVERIFY2(r.lower <= r.upper, solver.name().c_str());
        QVERIFY2(r.lower >= lower, solver.name().c_str());
        QVERIFY2(r.upper <= upper, solver.name().c_str());
        QCOMPARE(r.extra.size(), solver.extraColumns().size());
        lower = r.lower;
        upper = r.upper;
    }
}

// The first `count` words of OCR fold 0 (the training words of the usual protocol).
std::shared_ptr<const ChainModel> ocrWords(int count) {
    static const SequenceData train = loadLetterData(kOcr).splitByFold(0).first;
    std::vector<int> first(static_cast<std::size_t>(count));
    std::iota(first.begin(), first.end(), 0);
    return std::make_shared<ChainModel>(std::make_shared<SequenceData>(train.subset(first)));
}

}  // namespace

class TestStructuredSolvers : public QObject {
    Q_OBJECT

  private slots:
    void defaultOptionsAreValid() {
        std::string why;
        QVERIFY(FrankWolfeSsvmOptions{}.isValid(&why));
        QVERIFY(SsgOptions{}.isValid(&why));
        QVERIFY(OneSlackOptions{}.isValid(&why));
        QVERIFY(NSlackOptions{}.isValid(&why));
    }

    void invalidOptions_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("message");
        QTest::newRow("fw lambda") << "fw"
                                   << "FrankWolfeSsvmOptions::lambda = 0: must be > 0";
        QTest::newRow("fw eval_every") << "fw"
                                       << "FrankWolfeSsvmOptions::eval_every = 0";
        QTest::newRow("fw threads") << "fw"
                                    << "FrankWolfeSsvmOptions::threads = -1";
        QTest::newRow("ssg averaging")
            << "ssg"
            << "SsgOptions::averaging = 'mean': must be none, uniform or weighted";
        QTest::newRow("ssg sampling") << "ssg"
                                      << "SsgOptions::sampling = 'cyclic'";
        QTest::newRow("ssg seed") << "ssg"
                                  << "SsgOptions::seed = -3: must be >= 0";
        QTest::newRow("oneslack qp") << "oneslack"
                                     << "OneSlackOptions::qp_tolerance = 2";
        QTest::newRow("oneslack planes") << "oneslack"
                                         << "OneSlackOptions::max_planes = 1";
        QTest::newRow("nslack epsilon") << "nslack"
                                        << "NSlackOptions::epsilon_constraint = -0.1: must be >= 0";
        QTest::newRow("nslack qp") << "nslack"
                                   << "NSlackOptions::qp_tolerance = 0: must lie";
        QTest::newRow("nslack sweeps") << "nslack"
                                       << "NSlackOptions::max_sweeps = 0";
        QTest::newRow("nslack stop") << "nslack"
                                     << "NSlackOptions::max_iterations = 0";
    }
    void invalidOptions() {
        QFETCH(QString, solver);
        QFETCH(QString, message);
        const auto model = std::make_shared<ChainModel>(tinyData(3, 3, 2, 1));
        const std::string row = QTest::currentDataTag();
        std::unique_ptr<Solver> s;
        if (solver == "fw") {
            FrankWolfeSsvmOptions o;
            if (row == "fw lambda") o.lambda = 0;
            if (row == "fw eval_every") o.eval_every = 0;
            if (row == "fw threads") o.threads = -1;
            s = std::make_unique<FrankWolfeSsvmSolver>(StructuredProblem{model}, o);
        } else if (solver == "ssg") {
            SsgOptions o;
            if (row == "ssg averaging") o.averaging = "mean";
            if (row == "ssg sampling") o.sampling = "cyclic";
            if (row == "ssg seed") o.seed = -3;
            s = std::make_unique<SsgSolver>(StructuredProblem{model}, o);
        } else if (solver == "oneslack") {
            OneSlackOptions o;
            if (row == "oneslack qp") o.planes.qp_tolerance = 2;
            if (row == "oneslack planes") o.planes.max_planes = 1;
            s = std::make_unique<OneSlackSolver>(StructuredProblem{model}, o);
        } else {
            NSlackOptions o;
            if (row == "nslack epsilon") o.epsilon_constraint = -0.1;
            if (row == "nslack qp") o.qp_tolerance = 0;
            if (row == "nslack sweeps") o.max_sweeps = 0;
            if (row == "nslack stop") o.stop.max_iterations = 0;
            s = std::make_unique<NSlackSolver>(StructuredProblem{model}, o);
        }
        QCOMPARE(s->status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(s->status().message).contains(message),
                 s->status().message.c_str());
        QCOMPARE(s->step().code, StatusCode::InvalidInput);
        QVERIFY(s->trace().empty());
    }

    // No training words, or test words of another layout.
    void rejectsBadProblems() {
        const auto model = std::make_shared<ChainModel>(tinyData(4, 3, 4, 1));
        const auto other = std::make_shared<ChainModel>(tinyData(4, 3, 5, 2));
        FrankWolfeSsvmSolver fw({model, other});
        SsgSolver ssg({model, other});
        OneSlackSolver one({model, other});
        NSlackSolver nslack({nullptr});
        for (const Solver* s : std::initializer_list<const Solver*>{&fw, &ssg, &one})
            QVERIFY2(QString::fromStdString(s->status().message).contains("5 features against 4"),
                     s->status().message.c_str());
        QCOMPARE(nslack.status().code, StatusCode::InvalidInput);
        QVERIFY(QString::fromStdString(nslack.status().message).contains("no training words"));
    }

    // SSG on one word of one token (T = 1, L = 3, d = 2, x = (1, 2), y = label 0) at λ = 0.5,
    // worked out by hand. At w = 0 every label scores 0, so the loss-augmented decoding picks
    // a wrong label, the smallest (1) by the tie rule: ψ = Ψ(x, 0) − Ψ(x, 1) puts +x, +1 on
    // label 0's emission and bias and −x, −1 on label 1's. Update 1 (γ = 1): w₁ = ψ/λ = 2ψ:
    //   emission (2, 4 | −2, −4 | 0, 0), bias (2, −2, 0), no transition (T = 1).
    //   P(w₁) = λ/2‖w₁‖² + H(w₁) = 0.25·48 + max(12 − 12, 1 − 12 − 12, 1 + 0 − 12) = 12.
    // Update 2: at w₁ the truth wins (12 against −11 and 1), ψ = 0, γ = ½: w₂ = w₁/2, P = 3.
    // Averages after update 2: weighted ρ = 2/3: w̄ = w₁/3 + 2w₂/3 = 2w₁/3 (P = 0.25·(4/9)·48
    // = 16/3); uniform ρ = ½: w̄ = 3w₁/4 (P = 0.25·(9/16)·48 = 6.75); in both H(w̄) = 0.
    void ssgFirstStepsByHand() {
        auto data = std::make_shared<SequenceData>();
        data->sequenceStart = {0, 1};
        data->labels = {0};
        data->features = sparseFromTriplets(1, 2, {{0, 0, 1.0}, {0, 1, 2.0}});
        data->labelNames = {"a", "b", "c"};
        data->name = data->source = "one token";
        const auto model = std::make_shared<ChainModel>(data);
        QCOMPARE(model->dimension(), 3 * 2 + 3 + 9);
        Eigen::VectorXd w1 = Eigen::VectorXd::Zero(18);
        w1.head(9) << 2, 4, -2, -4, 0, 0, 2, -2, 0;
        const struct {
            const char* averaging;
            double factor;  // w̄ after update 2 = factor·w₁
            double primal;
        } cases[] = {
            {"none", 0.5, 3.0}, {"weighted", 2.0 / 3.0, 16.0 / 3.0}, {"uniform", 0.75, 6.75}};
        for (const auto& c : cases) {
            SsgOptions options;
            options.lambda = 0.5;
            options.averaging = c.averaging;
            SsgSolver ssg({model}, options);
            QCOMPARE(ssg.lastRecord().upper, 1.0);  // P(0) = H(0) = 1
            QVERIFY(std::isinf(ssg.lastRecord().lower) && ssg.lastRecord().lower < 0);
            ssg.step();
            QVERIFY((ssg.weights() - w1).cwiseAbs().maxCoeff() < 1e-15);
            QVERIFY((ssg.reportedWeights() - w1).cwiseAbs().maxCoeff() < 1e-15);
            QCOMPARE(column(ssg, ssg.lastRecord(), "primal"), 12.0);
            QCOMPARE(column(ssg, ssg.lastRecord(), "mean_step"), 1.0);
            QVERIFY(std::isnan(column(ssg, ssg.lastRecord(), "duality_gap")));
            QCOMPARE(ssg.lastRecord().upper, 1.0);  // the best P is still P(0)
            ssg.step();
            QVERIFY((ssg.weights() - 0.5 * w1).cwiseAbs().maxCoeff() < 1e-15);
            QVERIFY((ssg.reportedWeights() - c.factor * w1).cwiseAbs().maxCoeff() < 1e-14);
            QVERIFY(std::abs(column(ssg, ssg.lastRecord(), "primal") - c.primal) < 1e-12);
            QCOMPARE(ssg.updates(), 2LL);
            QCOMPARE(ssg.lastRecord().oracleCalls, 5LL);  // P(0), 2 updates, 2 evaluations
            QVERIFY(std::isinf(ssg.lastRecord().gap));
        }
    }

    // FW on a tiny instance: at every step the duality_gap column equals P(w) − D(α) with P(w)
    // by enumeration and D = −λ/2‖w‖² + ℓ, the primal column P(w), and gap ≥ P(w) − P* for
    // the P* of the enumerated dual; D(α) ≤ P*; D never decreases.
    void frankWolfeGapIsTheDualityGap() {
        const auto data = tinyData(8, 3, 4, 21);
        const auto model = std::make_shared<ChainModel>(data);
        const double lambda = 0.1;
        const DualQp qp(*data, lambda);
        double pUpper = 0, pLower = 0;
        Eigen::VectorXd wStar;
        QVERIFY(qp.solve(1e-11, pUpper, pLower, wStar) > 0);
        FrankWolfeSsvmOptions options;
        options.lambda = lambda;
        options.stop.epsilon = 0.0;
        options.stop.max_iterations = 200;
        FrankWolfeSsvmSolver fw({model}, options);
        double previousDual = fw.dualValue();
        int positive = 0;
        auto check = [&](const IterationRecord& r) {
            const Eigen::VectorXd& w = fw.weights();
            const double primal = qp.primal(w);
            const double dual = -0.5 * lambda * w.squaredNorm() + fw.dualLoss();
            QVERIFY(std::abs(column(fw, r, "primal") - primal) < 1e-12);
            QVERIFY(std::abs(column(fw, r, "dual") - dual) < 1e-12);
            QVERIFY(std::abs(column(fw, r, "duality_gap") - (primal - dual)) < 1e-12);
            QVERIFY(column(fw, r, "duality_gap") >= primal - pUpper - 1e-12);
            QVERIFY(dual <= pUpper + 1e-12);
            positive += column(fw, r, "duality_gap") > 1e-6;
        };
        check(fw.lastRecord());
        while (!fw.step().finished()) {
            check(fw.lastRecord());
            QVERIFY(fw.dualValue() >= previousDual - 1e-15);
            previousDual = fw.dualValue();
        }
        checkTrace(fw);
        QCOMPARE(fw.status().code, StatusCode::IterationLimit);
        QVERIFY(positive > 10);  // the check has teeth: the gap is open for a while
        QCOMPARE(fw.lastRecord().oracleCalls, 8LL * 201);
        qInfo("fw: 200 passes, gap %.3e, P - P* = %.3e", fw.gap(), fw.lastRecord().upper - pLower);
    }

    // Every solver against the enumerated dual's P* on a tiny instance.
    void tinyInstanceAgainstEnumeratedDual() {
        const auto data = tinyData(10, 3, 4, 5);
        const auto model = std::make_shared<ChainModel>(data);
        const double lambda = 0.1;
        const DualQp qp(*data, lambda);
        double pUpper = 0, pLower = 0;
        Eigen::VectorXd wStar;
        QVERIFY(qp.solve(1e-11, pUpper, pLower, wStar) > 0);
        qInfo("tiny: %d corners, P* in [%.12f, %.12f]", static_cast<int>(qp.corners.cols()), pLower,
              pUpper);

        NSlackOptions nOptions;
        nOptions.lambda = lambda;
        nOptions.stop.epsilon = 1e-10;
        nOptions.qp_tolerance = 1e-12;
        NSlackSolver nslack({model}, nOptions);
        solve(nslack);
        OneSlackOptions oOptions;
        oOptions.lambda = lambda;
        oOptions.stop.epsilon = 1e-10;
        oOptions.planes.qp_tolerance = 1e-13;
        OneSlackSolver oneslack({model}, oOptions);
        solve(oneslack);
        FrankWolfeSsvmOptions fOptions;
        fOptions.lambda = lambda;
        // The FW gap certifies P(w) − P* ≤ gap: stop at 1e-4 relative.
        fOptions.stop.epsilon = 0.0;
        fOptions.stop.tol_rel = 1e-4;
        fOptions.stop.max_iterations = 100000;
        fOptions.eval_every = 1000;
        FrankWolfeSsvmSolver fw({model}, fOptions);
        solve(fw);
        SsgOptions sOptions;
        sOptions.lambda = lambda;
        sOptions.stop.max_iterations = 20000;
        sOptions.eval_every = 100;
        SsgSolver ssg({model}, sOptions);
        solve(ssg);
        for (const Solver* s :
             std::initializer_list<const Solver*>{&nslack, &oneslack, &fw, &ssg}) {
            const IterationRecord& r = s->lastRecord();
            qInfo("%-8s %-15s %6d steps  U = %.12f  L = %.12f  (U - P*)/P* = %.2e",
                  s->name().c_str(), statusName(s->status().code), r.iteration, r.upper, r.lower,
                  (r.upper - pLower) / pLower);
            checkTrace(*s);
            QVERIFY2(r.lower <= pUpper + 1e-12, s->name().c_str());
            QVERIFY2(r.upper >= pLower - 1e-12, s->name().c_str());
            QVERIFY2(r.upper - pLower <= 1e-4 * pLower, s->name().c_str());
        }
        QCOMPARE(nslack.status().code, StatusCode::Converged);
        QCOMPARE(oneslack.status().code, StatusCode::Converged);
        QCOMPARE(fw.status().code, StatusCode::Converged);
        QVERIFY((nslack.bestWeights() - wStar).norm() <= 1e-4 * wStar.norm());
        QVERIFY((oneslack.bestWeights() - wStar).norm() <= 1e-4 * wStar.norm());
    }

    // The first 60 OCR training words (fold 0) at λ = 10, where the hinge terms stay active
    // (P* ≈ 0.74 against P(0) = 1; at λ ≤ 0.1 these 60 words are separable with 4,030
    // weights and P* is all regulariser). P* from the n-slack QP to a gap of 1e-9, checked
    // against the 1-slack method at the same tolerance; then every solver must come within
    // 1e-4 (relative) of P*, and the FW and BCFW gaps must certify P(w) − P* at every pass.
    void ocrWordsEverySolverReachesPStar() {
        const auto model = ocrWords(60);
        const double lambda = 10.0;
        auto start = std::chrono::steady_clock::now();
        NSlackOptions nOptions;
        nOptions.lambda = lambda;
        nOptions.stop.epsilon = 1e-9;
        nOptions.qp_tolerance = 1e-11;
        NSlackSolver nslack({model}, nOptions);
        solve(nslack);
        const double nSeconds = seconds(start);
        start = std::chrono::steady_clock::now();
        OneSlackOptions oOptions;
        oOptions.lambda = lambda;
        oOptions.stop.epsilon = 1e-9;
        oOptions.planes.qp_tolerance = 1e-13;
        OneSlackSolver oneslack({model}, oOptions);
        solve(oneslack);
        const double oSeconds = seconds(start);
        QCOMPARE(nslack.status().code, StatusCode::Converged);
        QCOMPARE(oneslack.status().code, StatusCode::Converged);
        checkTrace(nslack);
        checkTrace(oneslack);
        // P* is bracketed by both runs: the two brackets must overlap.
        const double pLower = std::max(nslack.lastRecord().lower, oneslack.lastRecord().lower);
        const double pUpper = std::min(nslack.lastRecord().upper, oneslack.lastRecord().upper);
        QVERIFY(pLower <= pUpper + 1e-12);
        QVERIFY(pUpper - pLower <= 1e-9);
        const double pStar = pUpper;
        const Eigen::VectorXd& wN = nslack.bestWeights();
        const double wDistance = (oneslack.bestWeights() - wN).norm() / wN.norm();
        qInfo(
            "P* = %.12f (nslack: %d passes, %lld constraints, %.2f s; oneslack: %d passes, %d "
            "planes, %.2f s); |w_1 - w_n| / |w_n| = %.2e",
            pStar, nslack.iteration(), nslack.constraintCount(), nSeconds, oneslack.iteration(),
            oneslack.planes().size(), oSeconds, wDistance);
        QVERIFY(wDistance <= 1e-3);
        QVERIFY(wN.norm() > 0.1);  // not the trivial w = 0
        QVERIFY(nslack.workingSetGap() <= 1e-9);

        // The first-order methods, until their best P is within 1e-4 of P*.
        const double target = pStar + 1e-4 * pStar;
        start = std::chrono::steady_clock::now();
        FrankWolfeSsvmOptions fOptions;
        fOptions.lambda = lambda;
        fOptions.stop.epsilon = 0.0;
        fOptions.stop.max_iterations = 20000;
        fOptions.eval_every = 1000;
        FrankWolfeSsvmSolver fw({model}, fOptions);
        while (fw.lastRecord().upper > target && !fw.step().finished()) {
            const IterationRecord& r = fw.lastRecord();
            QVERIFY(column(fw, r, "duality_gap") >= column(fw, r, "primal") - pUpper - 1e-12);
            QVERIFY(r.lower <= pUpper + 1e-12);
        }
        const double fSeconds = seconds(start);
        start = std::chrono::steady_clock::now();
        BcfwOptions bOptions;
        bOptions.lambda = lambda;
        bOptions.stop.epsilon = 0.0;
        bOptions.stop.max_iterations = 20000;
        BcfwSolver bcfw({model}, bOptions);
        while (bcfw.lastRecord().upper > target && !bcfw.step().finished()) {
            const IterationRecord& r = bcfw.lastRecord();
            QVERIFY(column(bcfw, r, "duality_gap") >= column(bcfw, r, "primal") - pUpper - 1e-12);
            QVERIFY(r.lower <= pUpper + 1e-12);
        }
        const double bSeconds = seconds(start);
        start = std::chrono::steady_clock::now();
        SsgOptions sOptions;
        sOptions.lambda = lambda;
        sOptions.stop.max_iterations = 20000;
        sOptions.eval_every = 10;
        SsgSolver ssg({model}, sOptions);
        while (ssg.lastRecord().upper > target && !ssg.step().finished()) {
        }
        const double sSeconds = seconds(start);
        const struct {
            const Solver* solver;
            double seconds;
        } runs[] = {{&fw, fSeconds}, {&bcfw, bSeconds}, {&ssg, sSeconds}};
        for (const auto& run : runs) {
            const IterationRecord& r = run.solver->lastRecord();
            qInfo("%-5s %5d passes, %.2f s: P = %.12f, (P - P*)/P* = %.2e, gap %.3e",
                  run.solver->name().c_str(), r.iteration, run.seconds, r.upper,
                  (r.upper - pStar) / pStar, r.gap);
            checkTrace(*run.solver);
            QVERIFY2(r.upper <= target, run.solver->name().c_str());
            QVERIFY2(r.upper >= pLower - 1e-12, run.solver->name().c_str());
        }
    }

    // The decodings of a pass on two threads give the traces of one, bit for bit.
    void threadsDoNotChangeResults() {
        const auto model = ocrWords(60);
        auto records = [&](int threads) {
            FrankWolfeSsvmOptions f;
            f.lambda = 1.0;
            f.threads = threads;
            f.stop.max_iterations = 5;
            OneSlackOptions o;
            o.lambda = 1.0;
            o.threads = threads;
            o.stop.max_iterations = 5;
            NSlackOptions n;
            n.lambda = 1.0;
            n.threads = threads;
            n.stop.max_iterations = 5;
            SsgOptions s;
            s.lambda = 1.0;
            s.threads = threads;
            s.stop.max_iterations = 5;
            FrankWolfeSsvmSolver fw({model, model}, f);
            OneSlackSolver one({model}, o);
            NSlackSolver nslack({model}, n);
            SsgSolver ssg({model}, s);
            std::vector<double> values;
            for (Solver* solver : std::initializer_list<Solver*>{&fw, &one, &nslack, &ssg}) {
                solve(*solver);
                for (const IterationRecord& r : solver->trace()) {
                    values.insert(values.end(), {r.upper, r.lower, double(r.oracleCalls)});
                    values.insert(values.end(), r.extra.begin(), r.extra.end());
                }
            }
            return values;
        };
        const std::vector<double> one = records(1), two = records(2);
        QCOMPARE(one.size(), two.size());
        for (std::size_t k = 0; k < one.size(); ++k)
            QVERIFY(one[k] == two[k] || (std::isnan(one[k]) && std::isnan(two[k])));
    }

    // The n-slack run's records: oracle calls, constraints, and the Stalled rule when
    // epsilon_constraint leaves a gap the stop rule does not accept.
    void nSlackStallsAtItsEpsilon() {
        const auto model = std::make_shared<ChainModel>(tinyData(10, 3, 4, 5));
        NSlackOptions options;
        options.lambda = 0.1;
        options.epsilon_constraint = 0.05;
        options.stop.epsilon = 1e-9;
        NSlackSolver nslack({model}, options);
        solve(nslack);
        QCOMPARE(nslack.status().code, StatusCode::Stalled);
        QVERIFY2(QString::fromStdString(nslack.status().message).contains("epsilon_constraint"),
                 nslack.status().message.c_str());
        const IterationRecord& r = nslack.lastRecord();
        QCOMPARE(column(nslack, r, "added"), 0.0);
        QCOMPARE(r.oracleCalls, 10LL * (1 + r.iteration));
        QCOMPARE(static_cast<long long>(column(nslack, r, "constraints")),
                 nslack.constraintCount());
        // Tsochantaridis et al.: no constraint violated by more than ε, so P(w) − D ≤ ε (+ the
        // QP's tolerance).
        QVERIFY(r.gap <= 0.05 + 1e-9);
        QVERIFY(r.gap > 1e-9);
        checkTrace(nslack);
    }

    // 1-slack: a plane every step, PlanesDropped exactly when its plane set dropped some
    // (inactive_limit 2). n-slack: ConstraintsAdded exactly when its "added" column is > 0,
    // with the count in the text and the pseudocode's "add" line (8).
    void planeAndConstraintEvents() {
        const auto model = ocrWords(20);
        OneSlackOptions one;
        one.lambda = 0.01;
        one.planes.inactive_limit = 2;
        one.stop.max_iterations = 40;
        OneSlackSolver oneSlack({model}, one);
        long long dropped = 0;
        int dropSteps = 0;
        while (!oneSlack.status().finished()) {
            oneSlack.step();
            const SnapshotPtr snap = oneSlack.snapshot();
            QVERIFY(snap->record.events & PlaneAdded);
            long long now = -1;
            for (const auto& [key, value] : oneSlack.summary())
                if (key == "dropped_planes") now = std::get<long long>(value);
            QCOMPARE((snap->record.events & PlanesDropped) != 0, now > dropped);
            dropSteps += now > dropped;
            dropped = now;
        }
        QVERIFY(dropSteps > 0);

        NSlackOptions n;
        n.lambda = 0.01;
        n.stop.max_iterations = 40;
        NSlackSolver nslack({model}, n);
        while (!nslack.status().finished()) {
            nslack.step();
            const SnapshotPtr snap = nslack.snapshot();
            const int added = static_cast<int>(column(nslack, snap->record, "added"));
            QCOMPARE((snap->record.events & ConstraintsAdded) != 0, added > 0);
            const auto& lines = snap->executedLines;
            QCOMPARE(std::find(lines.begin(), lines.end(), 8) != lines.end(), added > 0);
            if (added > 0) {
                QCOMPARE(snap->events.size(), std::size_t(1));
                QVERIFY(snap->events.front().rfind(std::to_string(added) + " constraint", 0) == 0);
            }
        }
    }

    void snapshotsAndSummaries() {
        const auto model = std::make_shared<ChainModel>(tinyData(6, 3, 4, 5));
        FrankWolfeSsvmSolver fw({model});
        SsgSolver ssg({model});
        OneSlackSolver one({model});
        NSlackSolver nslack({model});
        for (Solver* solver : std::initializer_list<Solver*>{&fw, &ssg, &one, &nslack}) {
            const auto initial =
                std::dynamic_pointer_cast<const StructuredSnapshot>(solver->snapshot());
            QVERIFY(initial);
            QCOMPARE(initial->executedLines.front(), 0);
            solver->step();
            const auto snap =
                std::dynamic_pointer_cast<const StructuredSnapshot>(solver->snapshot());
            QCOMPARE(snap->labels, 3);
            QCOMPARE(snap->features, 4);
            QCOMPARE(snap->w.size(), static_cast<Eigen::Index>(model->dimension()));
            QCOMPARE(snap->record.iteration, 1);
            const int lines = static_cast<int>(solver->pseudocode().size());
            for (const int line : snap->executedLines)
                QVERIFY(line >= 0 && line < lines);
            QCOMPARE(solver->summary().front().first, std::string("lambda"));
            QCOMPARE(solver->extraColumns().size(), solver->lastRecord().extra.size());
        }
    }

    // Cancelled from another thread (the GUI's stop button), inside a pass or between two:
    // the run ends Cancelled with valid bounds.
    // The set-up's pass at w = 0 without decoding (for thousands of labels) is the decoded one:
    // the same Hᵢ(0) and mean loss for every word (normalised and plain Hamming loss, with and
    // without transitions), and its labellings attain them (their score at w = 0 is 0).
    void zeroWeightPassIsTheDecodedPass() {
        static const SequenceData train = loadLetterData(kOcr).splitByFold(0).first;
        std::vector<int> first(40);
        std::iota(first.begin(), first.end(), 0);
        const auto data = std::make_shared<SequenceData>(train.subset(first));
        for (const bool normalize : {true, false}) {
            for (const bool transitions : {true, false}) {
                const ChainModel model(data, ChainModelOptions{normalize, transitions});
                const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.dimension());
                OraclePass decoded, closed;
                QVERIFY(runOraclePass(model, zero, nullptr, nullptr, decoded));
                zeroWeightPass(model, closed);
                for (int i = 0; i < model.size(); ++i) {
                    const auto k = static_cast<std::size_t>(i);
                    QVERIFY(std::abs(closed.hinge[k] - decoded.hinge[k]) <= 1e-12);
                    QCOMPARE(closed.loss[k], model.loss(i, closed.labelling(model, i)));
                    QVERIFY(std::abs(closed.loss[k] - decoded.hinge[k]) <= 1e-12);
                }
                QVERIFY(std::abs(closed.meanHinge - decoded.meanHinge) <= 1e-12);
                QVERIFY(std::abs(closed.meanLoss - decoded.meanLoss) <= 1e-12);
            }
        }
        QVERIFY(!costlyDecoding(*ocrWords(626)));  // the OCR words are decoded as always
    }

    void cancelFromAnotherThread() {
        const auto model = ocrWords(626);
        FrankWolfeSsvmOptions f;
        f.stop.max_iterations = 100000;
        f.eval_every = 100000;
        NSlackOptions n;
        n.stop.max_iterations = 100000;
        n.eval_every = 100000;
        SsgOptions s;
        s.stop.max_iterations = 100000;
        s.eval_every = 100000;
        FrankWolfeSsvmSolver fw({model}, f);
        NSlackSolver nslack({model}, n);
        SsgSolver ssg({model}, s);
        for (Solver* solver : std::initializer_list<Solver*>{&fw, &nslack, &ssg}) {
            CancelToken token;
            solver->setCancelToken(token);
            std::thread stopper([token] {
                std::this_thread::sleep_for(std::chrono::milliseconds(30));
                token.cancel();
            });
            const Status status = solve(*solver);
            stopper.join();
            qInfo("%s: %s (%.2f passes)", solver->name().c_str(), status.message.c_str(),
                  solver->lastRecord().passes);
            QCOMPARE(status.code, StatusCode::Cancelled);
            QVERIFY(solver->lastRecord().lower <= solver->lastRecord().upper);
            QVERIFY(solver->lastRecord().passes > 0.0);
        }
        QVERIFY(fw.dualValue() <= fw.lastRecord().upper);
        QVERIFY(nslack.dualValue() <= nslack.lastRecord().upper);
    }
};

QTEST_GUILESS_MAIN(TestStructuredSolvers)
#include "test_structured_solvers.moc"
