// SPDX-License-Identifier: GPL-3.0-or-later
// Online proximal MKL (structured/online_mkl.h, structured/group_prox.h) against independent
// answers: the Moreau projection of Alg. 2 against the exact minimiser of ½‖z − b‖² + (τ/2)‖z‖₁²
// found by enumerating its support (thousands of random vectors with ties and zeros) and its
// limits; one explicit group with the l2 regulariser step for step against an explicit SGD
// written here; a linear kernel group against the explicit group on the same features
// (norms and scores, relative 1e-9); the maintained kernel scores and norms of polynomial and
// Gaussian groups against fresh kernel sums; pruning and the group weights; bad options.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "core/memory_budget.h"
#include "data/sequence_format.h"
#include "structured/group_prox.h"
#include "structured/n_slack_ssvm.h"
#include "structured/online_mkl.h"
#include "structured/ssg_ssvm.h"
#include "structured/structured_snapshot.h"

using namespace cplab;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

double squaredL1Objective(const std::vector<double>& z, const std::vector<double>& b, double tau) {
    double fit = 0.0, l1 = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k) {
        fit += (z[k] - b[k]) * (z[k] - b[k]);
        l1 += std::abs(z[k]);
    }
    return 0.5 * fit + 0.5 * tau * l1 * l1;
}

// The minimiser of ½‖z − b‖² + (τ/2)‖z‖₁² for b ≥ 0 by enumerating the support S: on S the
// stationarity z_S = b_S − τ·Σz gives Σz = Σb_S/(1 + τ|S|); S is right when every z_S > 0
// and b_k ≤ τ·Σz off S (KKT). The problem is strictly convex, so exactly one S passes.
std::vector<double> exactProx(const std::vector<double>& b, double tau) {
    const int K = static_cast<int>(b.size());
    for (int mask = 0; mask < (1 << K); ++mask) {
        double sumB = 0.0;
        int size = 0;
        for (int k = 0; k < K; ++k)
            if (mask >> k & 1) {
                sumB += b[static_cast<std::size_t>(k)];
                ++size;
            }
        const double total = sumB / (1.0 + tau * size);
        std::vector<double> z(b.size(), 0.0);
        bool ok = true;
        for (int k = 0; k < K && ok; ++k) {
            const double bk = b[static_cast<std::size_t>(k)];
            if (mask >> k & 1) {
                z[static_cast<std::size_t>(k)] = bk - tau * total;
                ok = z[static_cast<std::size_t>(k)] > 0;
            } else {
                ok = bk <= tau * total + 1e-12 * (1 + bk);
            }
        }
        if (ok) return z;
    }
    return {};
}

// The first `count` words of fold 0 (training) and the first `testCount` of the others.
StructuredProblem ocrProblem(int count, int testCount) {
    static const auto folds = loadLetterData(kOcr).splitByFold(0);
    auto take = [](const SequenceData& data, int k) {
        std::vector<int> first(static_cast<std::size_t>(k));
        std::iota(first.begin(), first.end(), 0);
        return std::make_shared<SequenceData>(data.subset(first));
    };
    StructuredProblem problem;
    problem.train = std::make_shared<ChainModel>(take(folds.first, count));
    if (testCount > 0) problem.test = std::make_shared<ChainModel>(take(folds.second, testCount));
    return problem;
}

double relative(double a, double b) {
    return std::abs(a - b) / std::max({1e-300, std::abs(a), std::abs(b)});
}

}  // namespace

class TestOnlineMkl : public QObject {
    Q_OBJECT

  private slots:
    void squaredL1ProxIsTheExactMinimiser() {
        std::mt19937 rng(11);
        std::uniform_int_distribution<int> size(1, 8), kind(0, 3);
        std::uniform_real_distribution<double> value(0.0, 3.0), logTau(-4.0, 2.0);
        int cases = 0, pruned = 0;
        for (int trial = 0; trial < 4000; ++trial) {
            const int K = size(rng);
            std::vector<double> b(static_cast<std::size_t>(K));
            for (double& x : b) {
                switch (kind(rng)) {
                    case 0:
                        x = 0.0;  // zeros
                        break;
                    case 1:
                        x = 1.5;  // ties
                        break;
                    default:
                        x = value(rng);
                }
            }
            const double tau = std::pow(10.0, logTau(rng));
            const GroupProx prox = proxGroupNorms(GroupRegulariser::SquaredL1, b, tau);
            const std::vector<double> exact = exactProx(b, tau);
            QCOMPARE(exact.size(), b.size());
            for (int k = 0; k < K; ++k) {
                const std::size_t s = static_cast<std::size_t>(k);
                QVERIFY2(std::abs(prox.shrunk[s] - exact[s]) <= 1e-12 * (1 + b[s]),
                         qPrintable(QString("trial %1 k %2: %3 vs %4")
                                        .arg(trial)
                                        .arg(k)
                                        .arg(prox.shrunk[s])
                                        .arg(exact[s])));
                // The threshold form: b̃ = max(0, b − s).
                QVERIFY(std::abs(prox.shrunk[s] - std::max(0.0, b[s] - prox.threshold)) <= 1e-12);
            }
            // No feasible perturbation does better.
            const double best = squaredL1Objective(prox.shrunk, b, tau);
            for (int k = 0; k < K; ++k) {
                for (const double step : {1e-4, -1e-4}) {
                    std::vector<double> z = prox.shrunk;
                    z[static_cast<std::size_t>(k)] =
                        std::max(0.0, z[static_cast<std::size_t>(k)] + step);
                    QVERIFY(squaredL1Objective(z, b, tau) >= best - 1e-12);
                }
            }
            ++cases;
            pruned += prox.active < std::count_if(
                                        b.begin(), b.end(), [](double x) { return x > 0; });
        }
        qInfo("%d random vectors, %d with a group pruned beyond the zeros", cases, pruned);
        QVERIFY(pruned > cases / 10);
    }

    void proxLimitsAndOtherRegularisers() {
        const std::vector<double> b = {0.3, 2.0, 0.0, 1.1, 0.7};
        // τ → 0 gives b back.
        const GroupProx small = proxGroupNorms(GroupRegulariser::SquaredL1, b, 1e-12);
        for (std::size_t k = 0; k < b.size(); ++k)
            QVERIFY(std::abs(small.shrunk[k] - b[k]) < 1e-10);
        // Large τ keeps only the largest, at b_max/(1 + τ).
        const double tau = 1e6;
        const GroupProx large = proxGroupNorms(GroupRegulariser::SquaredL1, b, tau);
        QCOMPARE(large.active, 1);
        QVERIFY(relative(large.shrunk[1], 2.0 / (1 + tau)) < 1e-9);
        // τ so large that b_max/(1 + τ) rounds away: every group goes to (within rounding of) 0.
        const GroupProx huge = proxGroupNorms(GroupRegulariser::SquaredL1, b, 1e300);
        for (const double z : huge.shrunk)
            QVERIFY(z <= 1e-290);
        // Group lasso: soft threshold at τ; l2: b/(1 + τ) with no threshold.
        const GroupProx lasso = proxGroupNorms(GroupRegulariser::GroupLasso, b, 0.5);
        const std::vector<double> soft = {0.0, 1.5, 0.0, 0.6, 0.2};
        for (std::size_t k = 0; k < b.size(); ++k)
            QVERIFY(std::abs(lasso.shrunk[k] - soft[k]) < 1e-15);
        QCOMPARE(lasso.active, 3);
        const GroupProx ridge = proxGroupNorms(GroupRegulariser::L2, b, 0.25);
        for (std::size_t k = 0; k < b.size(); ++k)
            QCOMPARE(ridge.shrunk[k], b[k] / 1.25);
        QVERIFY(std::isnan(ridge.threshold));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            proxGroupNorms(GroupRegulariser::SquaredL1, std::vector<double>{-1.0}, 0.1));
        QCOMPARE(regulariserValue(GroupRegulariser::SquaredL1, b), 0.5 * 4.1 * 4.1);
    }

    // One explicit group, l2, no transitions, one word per step: the solver's weights equal an
    // explicit SGD w ← (w − η_t g_t)/(1 + η_t λ) run here on the normalised pixels, and its
    // reported average the mean of those iterates.
    // λ = 5 shrinks the scale s_g below 10⁻³ within a few rounds, so the folds of s_g into
    // the coefficients (and of the average into its offsets) are exercised too.
    void explicitGroupIsPlainSgd_data() {
        QTest::addColumn<double>("lambda");
        QTest::newRow("lambda 0.05") << 0.05;
        QTest::newRow("lambda 5 (scale folds)") << 5.0;
    }

    void explicitGroupIsPlainSgd() {
        QFETCH(double, lambda);
        const StructuredProblem problem = ocrProblem(12, 0);
        OnlineMklOptions o;
        o.kernels = "";
        o.pixels = true;
        o.transitions = false;
        o.regulariser = "l2";
        o.lambda = lambda;
        o.eta0 = 0.7;
        o.chunks = 12;
        o.epochs = 3;
        OnlineMklSolver solver(problem, o);
        QVERIFY2(!solver.status().finished(), solver.status().message.c_str());
        const SequenceData& data = problem.train->data();
        const int L = problem.train->labelCount(), d = problem.train->featureDimension();
        Eigen::MatrixXd w = Eigen::MatrixXd::Zero(L, d), sum = Eigen::MatrixXd::Zero(L, d);
        const Eigen::MatrixXd X(data.features);
        long long t = 0;
        for (int epoch = 0; epoch < 3; ++epoch) {
            const std::vector<int> order = solver.epochOrder();
            for (int k = 0; k < data.size(); ++k) {
                const int i = order[static_cast<std::size_t>(k)];
                ++t;
                const double eta = o.eta0 / std::sqrt(double(t));
                const int T = data.length(i);
                Eigen::MatrixXd grad = Eigen::MatrixXd::Zero(L, d);
                for (int p = 0; p < T; ++p) {
                    const int token = data.first(i) + p;
                    const Eigen::RowVectorXd phi = X.row(token) / X.row(token).norm();
                    const int y = data.labels[static_cast<std::size_t>(token)];
                    int best = 0;
                    double bestScore = -std::numeric_limits<double>::infinity();
                    for (int l = 0; l < L; ++l) {
                        const double score = w.row(l).dot(phi) + (l != y ? 1.0 / T : 0.0);
                        if (score > bestScore) {
                            bestScore = score;
                            best = l;
                        }
                    }
                    if (best != y) {
                        grad.row(best) += phi;
                        grad.row(y) -= phi;
                    }
                }
                w = (w - eta * grad) / (1.0 + eta * o.lambda);
                sum += w;
                solver.step();
                const Eigen::MatrixXd ours = solver.pixelWeights();
                QVERIFY2((ours - w).cwiseAbs().maxCoeff() <= 1e-12 * (1 + w.cwiseAbs().maxCoeff()),
                         qPrintable(QString("round %1").arg(t)));
                const Eigen::MatrixXd average = solver.pixelWeights(true);
                QVERIFY((average - sum / double(t)).cwiseAbs().maxCoeff() <=
                        1e-11 * (1 + w.cwiseAbs().maxCoeff()));
            }
        }
        QCOMPARE(solver.rounds(), 36LL);
        QCOMPARE(statusName(solver.status().code), std::string("iteration_limit"));
        QVERIFY(w.norm() > 0);
    }

    // The l2 regulariser on the explicit features (unnormalised) and the transitions group is
    // the structured family's objective λ/2‖w‖² + mean hinge: the online solver's objective
    // equals the chain model's P of its weights in chain layout (1e-9), and with Pegasos's step
    // 1/(λt) it gets, after 40 epochs, at least as close to the n-slack optimum P* as the
    // structured family's ssg (the same step) after 40 passes.
    void l2IsTheStructuredObjectiveLikeSsg() {
        const StructuredProblem problem = ocrProblem(40, 0);
        const double lambda = 0.1;
        OnlineMklOptions o;
        o.kernels = "";
        o.pixels = true;
        o.normalize = "none";
        o.regulariser = "l2";
        o.lambda = lambda;
        o.learning_rate = "pegasos";
        o.averaging = false;  // the early iterates w ≈ g/(λt) would weigh on an average
        o.epochs = 40;
        o.chunks = 1;
        OnlineMklSolver online(problem, o);
        while (!online.step().finished()) {
        }
        const auto snap = std::dynamic_pointer_cast<const StructuredSnapshot>(online.snapshot());
        QVERIFY(snap);
        const Eigen::VectorXd& w = snap->w;  // features, biases, transitions: ChainModel's layout
        QCOMPARE(w.size(), static_cast<Eigen::Index>(problem.train->dimension()));
        const double chainP = 0.5 * lambda * w.squaredNorm() + meanHinge(*problem.train, w);
        const double onlineP = online.objective();
        QVERIFY2(relative(onlineP, chainP) < 1e-9,
                 qPrintable(QString("%1 vs %2").arg(onlineP).arg(chainP)));

        SsgOptions so;
        so.lambda = lambda;
        so.stop.max_iterations = 40;
        SsgSolver ssg(problem, so);
        while (!ssg.step().finished()) {
        }
        const double ssgP = 0.5 * lambda * ssg.reportedWeights().squaredNorm() +
                            meanHinge(*problem.train, ssg.reportedWeights());
        NSlackOptions no;
        no.lambda = lambda;
        no.stop.epsilon = 1e-7;
        NSlackSolver nslack(problem, no);
        while (!nslack.step().finished()) {
        }
        const double pStar = nslack.lastRecord().lower;
        QCOMPARE(nslack.status().code, StatusCode::Converged);
        qInfo("P*  %.6f  online l2 %.6f (+%.2f %%)  ssg %.6f (+%.2f %%)", pStar, onlineP,
              100 * (onlineP - pStar) / pStar, ssgP, 100 * (ssgP - pStar) / pStar);
        QVERIFY(onlineP >= pStar - 1e-9 && ssgP >= pStar - 1e-9);
        QVERIFY(onlineP - pStar <= ssgP - pStar);
    }

    // A linear kernel group and the explicit group on the same features get the same updates:
    // their norms and scores agree (1e-9); the kernel groups' maintained scores and norms
    // agree with fresh kernel sums.
    void kernelAndExplicitGroupsAgree() {
        OnlineMklOptions o;
        o.kernels = "linear;poly:2;gaussian:0.02";
        o.pixels = true;
        o.lambda = 1e-3;
        o.chunks = 8;
        o.epochs = 2;
        OnlineMklSolver solver(ocrProblem(40, 10), o);
        QVERIFY2(!solver.status().finished(), solver.status().message.c_str());
        QCOMPARE(solver.groupCount(), 5);
        QCOMPARE(solver.groupName(0), std::string("linear"));
        QCOMPARE(solver.groupName(3), std::string("features"));
        QCOMPARE(solver.groupName(4), std::string("transitions"));
        for (int step = 0; step < 12; ++step) {
            solver.step();
            QVERIFY(relative(solver.groupNorm(0), solver.groupNorm(3)) < 1e-9);
            const Eigen::MatrixXd kernel = solver.groupTrainScores(0);
            const Eigen::MatrixXd explicitScores = solver.groupTrainScores(3);
            QVERIFY((kernel - explicitScores).cwiseAbs().maxCoeff() <=
                    1e-9 * explicitScores.cwiseAbs().maxCoeff());
            for (int g = 0; g < 3; ++g) {
                QVERIFY(relative(solver.groupNorm(g), solver.groupNormFromScratch(g)) < 1e-9);
                const Eigen::MatrixXd kept = solver.groupTrainScores(g);
                const Eigen::MatrixXd fresh = solver.groupTrainScoresFromScratch(g);
                QVERIFY((kept - fresh).cwiseAbs().maxCoeff() <=
                        1e-9 * (1 + fresh.cwiseAbs().maxCoeff()));
            }
        }
        QVERIFY(solver.groupNorm(2) > 0);
    }

    // The squared l1 with a large λ prunes all groups but the largest after every round (Alg.
    // 2's limit); β sums to 1 over the rest; the records carry one beta column per group and
    // the number of active groups.
    void pruningAndGroupWeights() {
        OnlineMklOptions o;
        o.kernels = "linear;poly:2;gaussian:0.02";
        o.lambda = 200;
        o.chunks = 4;
        o.epochs = 1;
        OnlineMklSolver solver(ocrProblem(40, 0), o);
        while (!solver.step().finished()) {
        }
        const auto columns = solver.extraColumns();
        const auto at = [&](const std::string& name) {
            return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                            columns.begin());
        };
        QVERIFY(at("beta:gaussian:0.02") < columns.size());
        const IterationRecord& last = solver.lastRecord();
        double sum = 0.0;
        int positive = 0;
        for (int g = 0; g < solver.groupCount(); ++g) {
            const double beta = last.extra[at("beta:" + solver.groupName(g))];
            sum += beta;
            positive += beta > 0;
            QCOMPARE(beta > 0, solver.groupNorm(g) > 0);
        }
        QCOMPARE(static_cast<int>(last.extra[at("active_groups")]), positive);
        QCOMPARE(positive, 1);
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
        QCOMPARE(solver.lastProx().active, positive);
    }

    // A group enters the active set in the steps after which its β column turns positive and
    // leaves it in those after which it returns to 0 (the prox pruned it).
    void groupEventsFollowTheWeights() {
        OnlineMklOptions o;
        o.kernels = "linear;poly:2;gaussian:0.02";
        o.lambda = 200;
        o.chunks = 4;
        o.epochs = 2;
        OnlineMklSolver solver(ocrProblem(40, 0), o);
        const auto columns = solver.extraColumns();
        const auto betaColumn = [&](int g) {
            return static_cast<std::size_t>(
                std::find(columns.begin(), columns.end(), "beta:" + solver.groupName(g)) -
                columns.begin());
        };
        std::vector<bool> active(static_cast<std::size_t>(solver.groupCount()), false);
        int entered = 0, left = 0;
        while (!solver.status().finished()) {
            solver.step();
            const SnapshotPtr snap = solver.snapshot();
            int in = 0, out = 0;
            for (int g = 0; g < solver.groupCount(); ++g) {
                const bool now = snap->record.extra[betaColumn(g)] > 0;
                const auto i = static_cast<std::size_t>(g);
                in += !active[i] && now;
                out += active[i] && !now;
                if (active[i] != now) {
                    const std::string name = "group " + solver.groupName(g) + " ";
                    QVERIFY(
                        std::any_of(snap->events.begin(), snap->events.end(),
                                    [&](const std::string& t) { return t.rfind(name, 0) == 0; }));
                }
                active[i] = now;
            }
            QCOMPARE((snap->record.events & KernelEntered) != 0, in > 0);
            QCOMPARE((snap->record.events & KernelLeft) != 0, out > 0);
            QCOMPARE(static_cast<int>(snap->events.size()), in + out);
            entered += in;
            left += out;
        }
        qInfo("%d groups entered, %d left over %d steps", entered, left, solver.iteration());
        QVERIFY(entered > 0);
        QVERIFY(left > 0);
    }

    void rejectsBadOptions() {
        const StructuredProblem problem = ocrProblem(5, 0);
        auto message = [&](auto edit) {
            OnlineMklOptions o;
            edit(o);
            OnlineMklSolver solver(problem, o);
            return solver.status().message;
        };
        QVERIFY(message([](OnlineMklOptions& o) { o.kernels = "gaussian:-1"; }).find("kernels") !=
                std::string::npos);
        QVERIFY(message([](OnlineMklOptions& o) {
                    o.kernels = "linear@1-3";
                }).find("on all token features") != std::string::npos);
        QVERIFY(message([](OnlineMklOptions& o) {
                    o.kernels = "";
                    o.transitions = false;
                }).find("no group") != std::string::npos);
        QVERIFY(message([](OnlineMklOptions& o) { o.eta0 = 0; }).find("eta0") != std::string::npos);
        QVERIFY(message([](OnlineMklOptions& o) { o.regulariser = "l3"; }).find("regulariser") !=
                std::string::npos);
        QVERIFY(message([](OnlineMklOptions& o) { o.epochs = 0; }).find("epochs") !=
                std::string::npos);
    }

    void memoryRefusedUpFront() {
        // N tokens x 128 features and 4 N x 26 tables per kernel group, against a 64 KB budget.
        const StructuredProblem problem = ocrProblem(5, 0);
        OnlineMklOptions o;
        o.kernels = "linear;poly:2";
        setMemoryBudget(64 << 10);
        OnlineMklSolver refused(problem, o);
        setMemoryBudget(0);
        QCOMPARE(refused.status().code, StatusCode::InvalidInput);
        const QString why = QString::fromStdString(refused.status().message);
        QVERIFY2(why.contains("tokens x 128 features") &&
                     why.contains("2 kernel groups x 4 tables x") && why.contains("x 26 labels") &&
                     why.contains("about 64 KB available"),
                 qPrintable(why));
        OnlineMklSolver runs(problem, o);
        QCOMPARE(runs.status().code, StatusCode::Running);
    }
};

QTEST_GUILESS_MAIN(TestOnlineMkl)
#include "test_online_mkl.moc"
