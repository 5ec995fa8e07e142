// SPDX-License-Identifier: GPL-3.0-or-later
// BCFW on the structural SVM dual: its duality gap against P(w) − D(α) computed here by
// exhaustive enumeration and a dense Ψ built from the documented layout; the gap as a
// certificate (≥ P(w) − P*, with P* from a run to gap 1e-9, itself checked against random
// perturbations); monotone bounds; options; determinism; and a run on the OCR training fold.
#include <Eigen/Eigenvalues>
#include <QtTest>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <thread>

#include "chain_brute_force.h"
#include "data/sequence_format.h"
#include "structured/bcfw.h"
#include "structured/structured_snapshot.h"

using namespace cplab;
using namespace cplab::testing;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

// argmax_y Δ(y_i, y) + ⟨w, Ψ(x_i, y)⟩ by enumeration (normalised Hamming loss); returns the
// maximum and sets yBest.
double bruteForceOracle(const SequenceData& data, const Eigen::VectorXd& w, int i,
                        std::vector<int>& yBest) {
    const int T = data.length(i), L = data.labelCount();
    const std::vector<int> yi = truthOf(data, i);
    std::vector<int> y(static_cast<std::size_t>(T), 0);
    double best = -std::numeric_limits<double>::infinity();
    for (;;) {
        int mistakes = 0;
        for (int t = 0; t < T; ++t)
            mistakes += y[t] != yi[t];
        const double v = double(mistakes) / T + w.dot(densePsi(data, i, y));
        if (v > best) {
            best = v;
            yBest = y;
        }
        int t = T - 1;
        while (t >= 0 && ++y[static_cast<std::size_t>(t)] == L)
            y[static_cast<std::size_t>(t--)] = 0;
        if (t < 0) return best;
    }
}

// P(w) = λ/2‖w‖² + (1/n) Σ Hᵢ(w) by enumeration.
double bruteForcePrimal(const SequenceData& data, const Eigen::VectorXd& w, double lambda) {
    double sum = 0.0;
    std::vector<int> y;
    for (int i = 0; i < data.size(); ++i)
        sum += bruteForceOracle(data, w, i, y) - w.dot(densePsi(data, i, truthOf(data, i)));
    return 0.5 * lambda * w.squaredNorm() + sum / data.size();
}

QString statusName(const Status& status) {
    return QString::fromLatin1(statusName(status.code));
}

double column(const BcfwSolver& solver, const IterationRecord& record, const char* name) {
    const std::vector<std::string> columns = solver.extraColumns();
    const auto at = std::find(columns.begin(), columns.end(), name) - columns.begin();
    return record.extra[static_cast<std::size_t>(at)];
}

// The BCFW paper's algorithm (Lacoste-Julien et al. 2013): Frank–Wolfe block steps in a random
// permutation, no cache (the defaults are Osokin et al.'s, tests/solvers/structured/
// test_bcfw_gap.cpp); the tests below that count oracle calls or follow its path use it.
void paperAlgorithm(BcfwOptions& options) {
    options.sampling = "permutation";
    options.pairwise = false;
    options.cache = 0;
}

}  // namespace

class TestBcfw : public QObject {
    Q_OBJECT

  private slots:
    void options_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("lambda 0") << "lambda"
                                  << "0"
                                  << "BcfwOptions::lambda = 0: must be > 0";
        QTest::newRow("lambda -1") << "lambda"
                                   << "-1"
                                   << "BcfwOptions::lambda = -1: must be > 0";
        QTest::newRow("sampling") << "sampling"
                                  << "cyclic"
                                  << "must be permutation, uniform or gap";
        QTest::newRow("eval_every") << "eval_every"
                                    << "0"
                                    << "BcfwOptions::eval_every = 0: must be >= 1";
        QTest::newRow("seed") << "seed"
                              << "-2"
                              << "BcfwOptions::seed = -2: must be >= 0";
        QTest::newRow("epsilon") << "epsilon"
                                 << "-1"
                                 << "epsilon";
    }

    void options() {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, message);
        const auto model = std::make_shared<ChainModel>(tinyData(5, 3, 4, 1));
        std::string why;
        QVERIFY(BcfwOptions{}.isValid(&why));
        BcfwOptions options;
        if (field == "sampling")  // a choice: assignOptions refuses other texts itself
            options.sampling = value.toStdString();
        else
            QVERIFY(assignOptions(options, {{field.toStdString(), value.toStdString()}}, &why));
        BcfwSolver solver({model}, options);
        QCOMPARE(statusName(solver.status()), QString("invalid_input"));
        QVERIFY2(QString::fromStdString(solver.status().message).contains(message),
                 solver.status().message.c_str());
        QCOMPARE(statusName(solver.step()), QString("invalid_input"));
    }

    void rejectsMissingModel() {
        BcfwSolver solver(StructuredProblem{});
        QCOMPARE(statusName(solver.status()), QString("invalid_input"));
    }

    // Σᵢ gapᵢ = P(w(α)) − D(α), all computed here from the blocks the solver exposes, with the
    // oracle and Ψ by enumeration; each gapᵢ ≥ 0; the solver's gap column agrees.
    void gapIsPrimalMinusDual() {
        const auto data = tinyData(20, 4, 5, 2);
        const auto model = std::make_shared<ChainModel>(data);
        const double lambda = 0.05;
        BcfwOptions options;
        options.lambda = lambda;
        options.stop.epsilon = 0.0;
        BcfwSolver solver({model}, options);
        const int n = data->size();
        for (int pass = 1; pass <= 4; ++pass) {
            QCOMPARE(statusName(solver.step()), QString("running"));
            Eigen::VectorXd w = Eigen::VectorXd::Zero(model->dimension());
            double loss = 0.0;
            for (int i = 0; i < n; ++i) {
                w += solver.blockWeights(i);
                loss += solver.blockLoss(i);
            }
            QVERIFY((w - solver.weights()).cwiseAbs().maxCoeff() < 1e-14);
            const double dual = -0.5 * lambda * w.squaredNorm() + loss;
            const double primal = bruteForcePrimal(*data, w, lambda);
            double gapSum = 0.0;
            std::vector<int> y;
            for (int i = 0; i < n; ++i) {
                const double oracle = bruteForceOracle(*data, w, i, y);
                const Eigen::VectorXd corner =
                    (densePsi(*data, i, truthOf(*data, i)) - densePsi(*data, i, y)) / (lambda * n);
                int mistakes = 0;
                for (int t = 0; t < data->length(i); ++t)
                    mistakes += y[t] != data->labels[data->first(i) + t];
                const double gap = lambda * (solver.blockWeights(i) - corner).dot(w) -
                                   solver.blockLoss(i) + double(mistakes) / data->length(i) / n;
                QVERIFY2(gap >= -1e-13, qPrintable(QString::number(gap)));
                gapSum += gap;
                QVERIFY(std::isfinite(oracle));
            }
            const IterationRecord& record = solver.lastRecord();
            qInfo("pass %d: P = %.12f, D = %.12f, sum gap_i = %.3e, P - D = %.3e", pass, primal,
                  dual, gapSum, primal - dual);
            QVERIFY(std::abs(gapSum - (primal - dual)) < 1e-12);
            QVERIFY(std::abs(column(solver, record, "primal") - primal) < 1e-12);
            QVERIFY(std::abs(column(solver, record, "dual") - dual) < 1e-12);
            QVERIFY(std::abs(column(solver, record, "duality_gap") - gapSum) < 1e-12);
            const std::vector<double> gaps = solver.blockGaps();
            double solverSum = 0.0;
            for (const double g : gaps)
                solverSum += g;
            QVERIFY(std::abs(solverSum - gapSum) < 1e-12);
            QVERIFY(gapSum > 0.0);  // not converged after a few passes: the check has teeth
        }
    }

    // The gap as a certificate: at every pass duality_gap ≥ P(w) − P*, D ≤ P* ≤ P, the bounds
    // monotone. P* comes from the enumerated dual solved here by accelerated projected
    // gradient to a gap of 1e-11 (BCFW itself, a Frank–Wolfe method, closes the gap only at
    // the sublinear O(1/t) rate: on this instance 2·10⁵ passes leave ~1e-6, so a BCFW "P*" at
    // 1e-9 would need ~10⁸ passes). A long BCFW run must then bracket that P*.
    void gapCertifiesSuboptimality() {
        const auto data = tinyData(12, 3, 4, 3);
        const auto model = std::make_shared<ChainModel>(data);
        const double lambda = 0.1;
        const DualQp qp(*data, lambda);
        const auto start = std::chrono::steady_clock::now();
        double pUpper = 0.0, pLower = 0.0;
        Eigen::VectorXd wStar;
        const int iterations = qp.solve(1e-11, pUpper, pLower, wStar);
        qInfo(
            "reference: %d corners, P* in [%.15f, %.15f] after %d projected-gradient "
            "iterations (%.2f s)",
            static_cast<int>(qp.corners.cols()), pLower, pUpper, iterations,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        QVERIFY(pUpper - pLower <= 1e-11);

        for (const bool averaging : {false, true}) {
            BcfwOptions options;
            options.lambda = lambda;
            options.seed = 7;
            options.stop.max_iterations = 60;
            options.stop.epsilon = 0.0;
            options.averaging = averaging;
            paperAlgorithm(options);
            BcfwSolver solver({model}, options);
            double previousLower = solver.lastRecord().lower;
            double previousUpper = solver.lastRecord().upper;
            double previousDual = solver.dualValue();
            double smallestSlack = std::numeric_limits<double>::infinity();
            while (!solver.step().finished()) {
                const IterationRecord& record = solver.lastRecord();
                const double primal = column(solver, record, "primal");
                const double gap = column(solver, record, "duality_gap");
                // P* ≤ pUpper, so P(w) − P* ≥ P(w) − pUpper: the certificate must cover that.
                // The reported pair: (w, α), or with averaging (w̄, ᾱ).
                const Eigen::VectorXd& w = solver.averagedWeights();
                QVERIFY(std::abs(primal - qp.primal(w)) < 1e-12);
                const double dual = -0.5 * lambda * w.squaredNorm() + solver.averagedLoss();
                QVERIFY(std::abs(column(solver, record, "dual") - dual) < 1e-12);
                QVERIFY(std::abs(gap - (primal - dual)) < 1e-12);
                QVERIFY(dual <= pUpper + 1e-12);
                QVERIFY(gap >= primal - pUpper - 1e-12);
                smallestSlack = std::min(smallestSlack, gap - (primal - pLower));
                QVERIFY(record.lower <= pUpper + 1e-12);
                QVERIFY(record.upper >= pLower - 1e-12);
                QVERIFY(record.lower >= previousLower);
                QVERIFY(record.upper <= previousUpper);
                // D(α) itself never decreases (exact line search per block).
                QVERIFY(solver.dualValue() >= previousDual - 1e-15);
                QVERIFY(record.lower >= std::min(solver.dualValue(), record.upper));
                previousDual = solver.dualValue();
                previousLower = record.lower;
                previousUpper = record.upper;
            }
            qInfo(
                "averaging %s, after 60 passes: gap %.3e, P - P* %.3e; smallest gap - (P - "
                "P*) %.3e (>= 0)",
                averaging ? "on" : "off", solver.lastRecord().gap,
                solver.lastRecord().upper - pLower, smallestSlack);
            QCOMPARE(statusName(solver.status()), QString("iteration_limit"));
            QCOMPARE(static_cast<int>(solver.trace().size()), 60);
            QCOMPARE(solver.lastRecord().passes, 60.0);
            QCOMPARE(solver.lastRecord().oracleCalls, 12LL * (1 + 2 * 60));
        }

        // A long BCFW run closes in on P* and brackets it.
        BcfwOptions longRun;
        longRun.lambda = lambda;
        longRun.seed = 7;
        longRun.stop.max_iterations = 20000;
        longRun.eval_every = 100;
        longRun.stop.epsilon = 1e-9;
        paperAlgorithm(longRun);
        BcfwSolver reference({model}, longRun);
        solve(reference);
        qInfo("BCFW: %s after %d passes, gap %.3e", reference.status().message.c_str(),
              reference.iteration(), reference.lastRecord().gap);
        QVERIFY(reference.lastRecord().lower <= pUpper + 1e-12);
        QVERIFY(reference.lastRecord().upper >= pLower - 1e-12);
        QVERIFY(reference.lastRecord().gap < 1e-4);
    }

    // Same seed, same trace; uniform sampling also closes the gap; eval_every skips the primal.
    void samplingAndEvaluation() {
        const auto model = std::make_shared<ChainModel>(tinyData(15, 3, 4, 4));
        BcfwOptions options;
        options.lambda = 0.1;
        options.stop.max_iterations = 30;
        options.stop.epsilon = 0.0;
        paperAlgorithm(options);
        BcfwSolver a({model}, options), b({model}, options);
        solve(a);
        solve(b);
        QVERIFY(a.weights() == b.weights());
        QCOMPARE(a.lastRecord().upper, b.lastRecord().upper);

        options.sampling = "uniform";
        BcfwSolver uniform({model}, options);
        solve(uniform);
        QVERIFY(uniform.lastRecord().gap < 0.1 * uniform.trace().front().gap);
        QVERIFY(uniform.weights() != a.weights());

        options.sampling = "permutation";
        options.eval_every = 3;
        BcfwSolver sparse({model}, options);
        for (int pass = 1; pass <= 6; ++pass) {
            sparse.step();
            const double primal = column(sparse, sparse.lastRecord(), "primal");
            QCOMPARE(std::isnan(primal), pass % 3 != 0);
        }
        QCOMPARE(sparse.lastRecord().oracleCalls, 15LL * (1 + 6 + 2));
        // Same block order, so the same dual iterate as a run evaluated after every pass.
        BcfwOptions everyPass = options;
        everyPass.eval_every = 1;
        everyPass.stop.max_iterations = 6;
        BcfwSolver again({model}, everyPass);
        solve(again);
        QVERIFY((sparse.weights() - again.weights()).cwiseAbs().maxCoeff() < 1e-12);
    }

    // Averaging on a single word, where a pass is one block step: w̄ after K steps is
    // Σ_{k=1..K} 2k/(K(K+1)) w^(k) (iterate k weighs ∝ k), and ℓ̄ likewise, computed here from
    // the iterates of a run without averaging (which follows the same path).
    void averagingWeighsIteratesByStep() {
        const auto data = tinyData(1, 3, 4, 11);
        const auto model = std::make_shared<ChainModel>(data);
        BcfwOptions options;
        options.lambda = 0.05;
        options.stop.epsilon = 0.0;
        paperAlgorithm(options);
        BcfwSolver plain({model}, options);
        options.averaging = true;
        BcfwSolver averaged({model}, options);
        Eigen::VectorXd sumW = Eigen::VectorXd::Zero(model->dimension());
        double sumLoss = 0.0;
        for (int K = 1; K <= 25; ++K) {
            plain.step();
            averaged.step();
            QVERIFY(plain.weights() == averaged.weights());
            sumW += K * plain.weights();
            sumLoss += K * plain.blockLoss(0);
            const double norm = 2.0 / (K * (K + 1.0));
            QVERIFY((averaged.averagedWeights() - norm * sumW).cwiseAbs().maxCoeff() < 1e-13);
            QVERIFY(std::abs(averaged.averagedLoss() - norm * sumLoss) < 1e-14);
            QCOMPARE(averaged.blockSteps(), static_cast<long long>(K));
            const double primal = bruteForcePrimal(*data, averaged.averagedWeights(), 0.05);
            QVERIFY(std::abs(column(averaged, averaged.lastRecord(), "primal") - primal) < 1e-12);
        }
        QVERIFY(averaged.averagedWeights() != averaged.weights());
        QVERIFY(plain.averagedWeights() == plain.weights());
    }

    void snapshotAndSummary() {
        const auto model = std::make_shared<ChainModel>(tinyData(6, 3, 4, 5));
        BcfwSolver solver({model});
        auto initial = std::dynamic_pointer_cast<const StructuredSnapshot>(solver.snapshot());
        QVERIFY(initial);
        QCOMPARE(initial->executedLines, (std::vector<int>{0, 1}));
        solver.step();
        const auto snap = std::dynamic_pointer_cast<const StructuredSnapshot>(solver.snapshot());
        QCOMPARE(snap->labels, 3);
        QCOMPARE(snap->features, 4);
        QVERIFY(snap->w == solver.weights());
        QCOMPARE(snap->record.iteration, 1);
        QCOMPARE(static_cast<int>(solver.pseudocode().size()), 12);
        QVERIFY(snap->executedLines.back() < 12);
        const SummaryFields summary = solver.summary();
        QCOMPARE(summary.front().first, std::string("lambda"));
    }

    // The OCR training fold (626 words) at the BCFW paper's λ = 0.01, with the other folds as
    // test words; two evaluation threads give the numbers of one.
    void ocrTrainingFold() {
        const auto [train, test] = loadLetterData(kOcr).splitByFold(0);
        const auto model = std::make_shared<ChainModel>(std::make_shared<SequenceData>(train));
        const auto testModel = std::make_shared<ChainModel>(std::make_shared<SequenceData>(test));
        BcfwOptions options;
        options.lambda = 0.01;
        options.stop.max_iterations = 20;
        options.stop.epsilon = 0.0;
        options.eval_every = 5;
        paperAlgorithm(options);
        BcfwSolver solver({model, testModel}, options);
        // At w = 0 every labelling scores 0, so Hᵢ(0) = max Δ = 1 (all letters wrong): P(0) = 1.
        QCOMPARE(solver.lastRecord().upper, 1.0);
        QCOMPARE(solver.lastRecord().lower, 0.0);
        double previousGap = solver.lastRecord().gap;
        const auto start = std::chrono::steady_clock::now();
        while (!solver.step().finished()) {
            const IterationRecord& r = solver.lastRecord();
            if (r.iteration % 5 == 0) {
                qInfo(
                    "pass %2d: P = %.6f  D = %.6f  gap = %.3e  train error %.4f  test error "
                    "%.4f  (%.3f s)",
                    r.iteration, r.upper, r.lower, column(solver, r, "duality_gap"),
                    column(solver, r, "train_error"), column(solver, r, "test_error"), r.seconds);
            }
            QVERIFY(r.gap <= previousGap);
            previousGap = r.gap;
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // The test error of the last w, counted here letter by letter.
        ChainWorkspace ws;
        std::vector<int> y;
        long long wrong = 0;
        for (int i = 0; i < testModel->size(); ++i) {
            testModel->decode(solver.weights(), i, y, ws);
            for (int t = 0; t < testModel->length(i); ++t)
                wrong += y[t] != testModel->truth(i)[t];
        }
        const double testError = double(wrong) / test.tokenCount();
        const IterationRecord& last = solver.lastRecord();
        QCOMPARE(column(solver, last, "test_error"), testError);
        qInfo("20 passes in %.2f s (4 evaluations with the test words); test error %.4f", seconds,
              testError);
        // Measured 0.221 after 20 passes (0.066 after 100, 0.039 after 180: the O(1/t) of
        // Frank–Wolfe); 0.3 leaves room for another block order, not for a broken step.
        QVERIFY(last.gap < 0.3);
        QVERIFY(testError < 0.35);
        QVERIFY(column(solver, last, "train_error") < testError);

        // Averaging (the paper's default): a lower P at the averaged w̄ after the same passes
        // (measured 0.259 against 0.296) and a lower test error (0.217 against 0.233), the
        // paper's observation; the dual bound is D(α)'s, as without averaging.
        BcfwOptions averagedOptions = options;
        averagedOptions.averaging = true;
        BcfwSolver averaged({model, testModel}, averagedOptions);
        solve(averaged);
        const double averagedTestError = column(averaged, averaged.lastRecord(), "test_error");
        qInfo("averaging: P(w_avg) = %.6f against P(w) = %.6f, test error %.4f",
              averaged.lastRecord().upper, last.upper, averagedTestError);
        QVERIFY(averaged.lastRecord().upper < last.upper);
        QCOMPARE(averaged.lastRecord().lower, last.lower);
        QVERIFY(averagedTestError < testError);

        options.threads = 2;
        BcfwSolver threaded({model, testModel}, options);
        solve(threaded);
        QCOMPARE(threaded.lastRecord().upper, last.upper);
        QCOMPARE(threaded.lastRecord().lower, last.lower);
        QCOMPARE(column(threaded, threaded.lastRecord(), "test_error"), testError);
    }

    // Cancelled from another thread (the GUI's stop button), during a pass or between two:
    // the run ends Cancelled with valid bounds and a consistent dual iterate.
    void cancelFromAnotherThread() {
        // 2,000 words: a pass (~50 ms) is long enough for the cancel to land inside one.
        std::vector<int> first(2000);
        std::iota(first.begin(), first.end(), 0);
        const auto model = std::make_shared<ChainModel>(
            std::make_shared<SequenceData>(loadLetterData(kOcr).subset(first)));
        BcfwOptions options;
        options.stop.max_iterations = 100000;
        options.eval_every = 1000;
        BcfwSolver solver({model}, options);
        CancelToken token;
        solver.setCancelToken(token);
        std::thread stopper([token] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            token.cancel();
        });
        const Status status = solve(solver);
        stopper.join();
        qInfo("%s (%.2f passes)", status.message.c_str(), solver.lastRecord().passes);
        QCOMPARE(statusName(status), QString("cancelled"));
        QVERIFY(solver.lastRecord().lower <= solver.lastRecord().upper);
        QVERIFY(solver.lastRecord().lower > 0.0);
        Eigen::VectorXd w = Eigen::VectorXd::Zero(model->dimension());
        for (int i = 0; i < model->size(); ++i)
            w += solver.blockWeights(i);
        QVERIFY((w - solver.weights()).cwiseAbs().maxCoeff() < 1e-9);
    }

    // Test words must share the training words' layout.
    void rejectsOtherLayout() {
        const auto model = std::make_shared<ChainModel>(tinyData(5, 3, 4, 1));
        const auto other = std::make_shared<ChainModel>(tinyData(5, 3, 5, 2));
        BcfwSolver solver({model, other});
        QCOMPARE(statusName(solver.status()), QString("invalid_input"));
        QVERIFY2(QString::fromStdString(solver.status().message)
                     .contains("5 features against 4; give both files the same '# dimension:' "
                               "header"),
                 solver.status().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestBcfw)
#include "test_bcfw.moc"
