// SPDX-License-Identifier: GPL-3.0-or-later
// SMO (solvers/kernel/smo.h) against LIBSVM 3.24 (an independent implementation of the same
// algorithm) on real datasets: the dual objective, the bias and the signs of the decision
// function agree, with and without shrinking, for Gaussian, linear and polynomial kernels and
// two values of C. Also: the dual value SMO reports equals D(α) recomputed from kernel rows;
// D ≤ P at every stage and the gap closes as the tolerance shrinks; a run cut into chunks
// follows exactly the path of one run; warm starts (setAlpha, refreshGradient after new
// weights) reach LIBSVM's optimum for the new weights; a small cache gives the same solution
// as a whole one; cancellation and invalid input.
#include <QtTest>
#include <cmath>
#include <memory>

#include "data/csv_format.h"
#include "data/libsvm_format.h"
#include "kernel/kernel_set.h"
#include "kernel/kernel_spec.h"
#include "kernel/libsvm_solver.h"
#include "kernel/smo.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

std::shared_ptr<const Dataset> dataset(const QString& name) {
    Dataset data;
    if (name == "sonar") {
        data = loadCsv(kData + "/sonar.all-data");
    } else if (name == "heart_scale") {
        data = loadLibsvm(kData + "/heart_scale");
    } else {
        data = loadLibsvm(kData + "/kernel/" + name.toStdString());
    }
    data.makeBinaryLabels();
    return std::make_shared<Dataset>(std::move(data));
}

std::vector<KernelSpec> kernelList(const std::string& text, int dimension) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(text, dimension, &specs, &why)) qFatal("bad kernel list: %s", why.c_str());
    return specs;
}

// D(α) = Σα − ½ Σᵢⱼ αᵢαⱼ Qᵢⱼ from Q's rows, independently of SMO's gradient.
double dualFromRows(KernelQ& q, const Eigen::VectorXd& alpha) {
    double quadratic = 0.0;
    for (int i = 0; i < alpha.size(); ++i) {
        if (alpha[i] == 0.0) continue;
        const double* row = q.row(i);
        quadratic += alpha[i] * Eigen::Map<const Eigen::VectorXd>(row, alpha.size()).dot(alpha);
    }
    return alpha.sum() - 0.5 * quadratic;
}

// f(xᵢ) − b = Σⱼ αⱼ yⱼ K(j, i) over the training set.
Eigen::VectorXd scores(KernelSet& kernels, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha) {
    const int m = static_cast<int>(alpha.size());
    Eigen::VectorXd s = Eigen::VectorXd::Zero(m);
    for (int j = 0; j < m; ++j) {
        if (alpha[j] == 0.0) continue;
        s += alpha[j] * y[j] * Eigen::Map<const Eigen::VectorXd>(kernels.row(0, j), m);
    }
    return s;
}

struct Agreement {
    double relativeObjective = 0.0;
    double biasDifference = 0.0;
    double signAgreement = 0.0;  // fraction of training points
};

Agreement compare(KernelSet& kernels, const Eigen::VectorXd& y, const Smo& smo,
                  const LibsvmResult& reference) {
    Agreement a;
    a.relativeObjective =
        std::abs(smo.dualObjective() - reference.dualObjective) / std::abs(reference.dualObjective);
    a.biasDifference = std::abs(smo.bias() - reference.bias);
    const Eigen::VectorXd ours = scores(kernels, y, smo.alpha()).array() + smo.bias();
    const Eigen::VectorXd theirs = scores(kernels, y, reference.alpha).array() + reference.bias;
    int same = 0;
    for (int i = 0; i < ours.size(); ++i)
        same += (ours[i] > 0) == (theirs[i] > 0);
    a.signAgreement = static_cast<double>(same) / ours.size();
    return a;
}

}  // namespace

class TestSmo : public QObject {
    Q_OBJECT

  private slots:
    void matchesLibsvm_data();
    void matchesLibsvm();
    void dualBelowPrimalAndGapCloses();
    void chunkedRunFollowsOneRun();
    void warmStartReachesNewOptimum();
    void smallCacheGivesSameSolution();
    void cancellation();
    void invalidInput();
};

void TestSmo::matchesLibsvm_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::addColumn<bool>("shrinking");
    struct Case {
        const char* data;
        const char* kernel;
        double C;
    };
    const Case cases[] = {
        {"ionosphere_scale", "gaussian:1", 1.0},
        {"sonar", "gaussian:1", 1.0},
        {"breast-cancer_scale", "gaussian:1", 1.0},
        {"heart_scale", "gaussian:1", 1.0},
        {"a1a", "gaussian:1", 1.0},
        {"ionosphere_scale", "gaussian:1", 10.0},
        {"heart_scale", "gaussian:0.1", 10.0},
        {"a1a", "gaussian:0.05", 10.0},
        {"heart_scale", "linear", 1.0},
        {"sonar", "linear", 0.1},
        {"breast-cancer_scale", "poly:2,1", 1.0},
        {"ionosphere_scale", "poly:3,1", 0.1},
    };
    for (const Case& c : cases) {
        for (const bool shrinking : {false, true}) {
            QTest::addRow("%s %s C=%g %s", c.data, c.kernel, c.C,
                          shrinking ? "shrinking" : "no shrinking")
                << QString(c.data) << QString(c.kernel) << c.C << shrinking;
        }
    }
}

void TestSmo::matchesLibsvm() {
    QFETCH(QString, data);
    QFETCH(QString, kernel);
    QFETCH(double, C);
    QFETCH(bool, shrinking);
    const auto train = dataset(data);
    const auto specs = kernelList(kernel.toStdString(), train->dimension());
    KernelSet kernels(train, specs, KernelNormalization::None, 256);
    KernelQ q(kernels, train->labels, Eigen::VectorXd::Ones(1), 256);
    Smo smo(q, SmoOptions{C, 1e-3, shrinking});
    const SmoProgress progress = smo.run(0);
    QVERIFY(progress.converged);
    QVERIFY(progress.maxViolation < 1e-3);
    QCOMPARE(progress.steps, smo.totalSteps());

    // The reported dual value is D(α) of the α held.
    const double direct = dualFromRows(q, smo.alpha());
    QVERIFY2(std::abs(smo.dualObjective() - direct) <= 1e-10 * std::abs(direct),
             qPrintable(QString("dual %1 vs recomputed %2").arg(smo.dualObjective()).arg(direct)));
    QVERIFY(smo.dualObjective() <= smo.primalObjective());
    // α is feasible.
    const Eigen::VectorXd& alpha = smo.alpha();
    QVERIFY(alpha.minCoeff() >= 0.0 && alpha.maxCoeff() <= C);
    QVERIFY(std::abs(alpha.dot(train->labels)) <= 1e-9 * C * alpha.size());

    const LibsvmResult reference =
        solveWithLibsvm(*train, specs.front(), KernelNormalization::None, C, 1e-3, shrinking, 256);
    const Agreement a = compare(kernels, train->labels, smo, reference);
    qInfo(
        "%s: D ours %.10g LIBSVM %.10g (rel %.2e), b ours %.8g LIBSVM %.8g (|Δb| %.2e), "
        "signs %.2f %%, steps ours %lld LIBSVM %lld",
        QTest::currentDataTag(), smo.dualObjective(), reference.dualObjective, a.relativeObjective,
        smo.bias(), reference.bias, a.biasDifference, 100.0 * a.signAgreement, smo.totalSteps(),
        reference.iterations);
    QVERIFY2(a.relativeObjective <= 1e-6, qPrintable(QString::number(a.relativeObjective)));
    QVERIFY2(a.biasDifference <= 1e-3, qPrintable(QString::number(a.biasDifference)));
    QVERIFY2(a.signAgreement >= 0.999, qPrintable(QString::number(a.signAgreement)));
}

void TestSmo::dualBelowPrimalAndGapCloses() {
    const auto train = dataset("ionosphere_scale");
    KernelSet kernels(train, kernelList("gaussian:1", train->dimension()),
                      KernelNormalization::None, 64);
    KernelQ q(kernels, train->labels, Eigen::VectorXd::Ones(1), 64);
    Smo smo(q, SmoOptions{1.0, 1e-3, true});
    QCOMPARE(smo.dualObjective(), 0.0);  // α = 0
    double previousDual = 0.0;
    bool converged = false;
    while (!converged) {
        converged = smo.run(25).converged;
        const double dual = smo.dualObjective();
        const double primal = smo.primalObjective();
        QVERIFY2(dual <= primal, qPrintable(QString("D %1 > P %2").arg(dual).arg(primal)));
        QVERIFY2(dual >= previousDual - 1e-12 * std::abs(dual),
                 qPrintable(QString("D fell from %1 to %2").arg(previousDual).arg(dual)));
        previousDual = dual;
    }
    const double gapLoose = smo.primalObjective() - smo.dualObjective();

    Smo tight(q, SmoOptions{1.0, 1e-7, true});
    QVERIFY(tight.run(0).converged);
    const double gapTight = tight.primalObjective() - tight.dualObjective();
    qInfo("relative gap at tolerance 1e-3: %.2e, at 1e-7: %.2e", gapLoose / smo.primalObjective(),
          gapTight / tight.primalObjective());
    QVERIFY(gapTight >= 0.0);
    QVERIFY(gapTight < 0.01 * gapLoose);
    QVERIFY(gapTight <= 1e-6 * tight.primalObjective());
}

void TestSmo::chunkedRunFollowsOneRun() {
    const auto train = dataset("heart_scale");
    KernelSet kernels(train, kernelList("gaussian:0.5", train->dimension()),
                      KernelNormalization::None, 64);
    KernelQ q(kernels, train->labels, Eigen::VectorXd::Ones(1), 64);
    Smo whole(q, SmoOptions{1.0, 1e-3, true});
    QVERIFY(whole.run(0).converged);

    Smo chunked(q, SmoOptions{1.0, 1e-3, true});
    long long steps = 0;
    int calls = 0;
    for (;;) {
        const SmoProgress p = chunked.run(37);
        QVERIFY(p.steps <= 37);
        steps += p.steps;
        ++calls;
        // Reading the state between chunks must not change the path.
        QVERIFY(chunked.dualObjective() <= chunked.primalObjective());
        if (p.converged) break;
        QCOMPARE(p.steps, 37LL);
    }
    QVERIFY(calls > 2);
    QCOMPARE(steps, whole.totalSteps());
    QCOMPARE(chunked.totalSteps(), whole.totalSteps());
    QVERIFY((chunked.alpha() - whole.alpha()).lpNorm<Eigen::Infinity>() == 0.0);
    QCOMPARE(chunked.bias(), whole.bias());
    // A converged solver does nothing more.
    const SmoProgress again = chunked.run(0);
    QCOMPARE(again.steps, 0LL);
    QVERIFY(again.converged);
}

void TestSmo::warmStartReachesNewOptimum() {
    // Two Gaussian kernels; first β = (½, ½), then β = (0, 1), whose optimum is LIBSVM's for
    // gaussian:1 alone.
    const auto train = dataset("ionosphere_scale");
    const auto specs = kernelList("gaussian:0.1,1", train->dimension());
    KernelSet kernels(train, specs, KernelNormalization::None, 64);
    Eigen::VectorXd half(2);
    half << 0.5, 0.5;
    Eigen::VectorXd second(2);
    second << 0.0, 1.0;
    const LibsvmResult reference =
        solveWithLibsvm(*train, specs[1], KernelNormalization::None, 1.0, 1e-3, true, 64);

    KernelQ q(kernels, train->labels, half, 64);
    Smo smo(q, SmoOptions{1.0, 1e-3, true});
    QVERIFY(smo.run(0).converged);
    const Eigen::VectorXd first = smo.alpha();
    const long long coldFirst = smo.totalSteps();

    // (a) the same Smo after new weights: refreshGradient.
    q.setWeights(second);
    QVERIFY(q.diagonal(0) == 1.0);  // Gaussian: Σ βₖ Kₖ(i, i) = 1
    smo.refreshGradient();
    QVERIFY(smo.alpha() == first);  // α kept
    QVERIFY(smo.run(0).converged);
    const double relA =
        std::abs(smo.dualObjective() - reference.dualObjective) / reference.dualObjective;

    // (b) a new Smo started from the first α.
    KernelQ q2(kernels, train->labels, second, 64);
    Smo warm(q2, SmoOptions{1.0, 1e-3, true});
    warm.setAlpha(first);
    QVERIFY(warm.alpha() == first);
    QVERIFY(warm.run(0).converged);
    const double relB =
        std::abs(warm.dualObjective() - reference.dualObjective) / reference.dualObjective;
    const double dualB = dualFromRows(q2, warm.alpha());
    QVERIFY(std::abs(dualB - warm.dualObjective()) <= 1e-10 * std::abs(dualB));

    // (c) the same Smo after new weights, given Qα (what an MKL solver forms from its
    // plane's products): the gradient is Qα − 1 from Q's rows, and the optimum LIBSVM's.
    KernelQ q3(kernels, train->labels, half, 64);
    Smo given(q3, SmoOptions{1.0, 1e-3, true});
    QVERIFY(given.run(0).converged);
    const Eigen::VectorXd alpha3 = given.alpha();
    q3.setWeights(second);
    const int m = train->size();
    Eigen::VectorXd Qa = Eigen::VectorXd::Zero(m);
    for (int j = 0; j < m; ++j)
        if (alpha3[j] != 0.0) Qa += alpha3[j] * Eigen::Map<const Eigen::VectorXd>(q3.row(j), m);
    given.refreshGradient(Qa);
    QVERIFY(given.alpha() == alpha3);
    QVERIFY((given.gradient() - (Qa.array() - 1.0).matrix()).cwiseAbs().maxCoeff() <= 1e-12);
    QVERIFY(given.run(0).converged);
    const double relC =
        std::abs(given.dualObjective() - reference.dualObjective) / reference.dualObjective;
    QVERIFY(relC <= 1e-6);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, given.refreshGradient(Qa.head(m - 1)));

    qInfo(
        "warm start: %lld steps (cold first solve %lld, LIBSVM cold %lld); relative "
        "difference to LIBSVM's optimum %.2e (refreshGradient), %.2e (setAlpha); |Δb| %.2e",
        warm.totalSteps(), coldFirst, reference.iterations, relA, relB,
        std::abs(warm.bias() - reference.bias));
    QVERIFY(relA <= 1e-6);
    QVERIFY(relB <= 1e-6);
    QVERIFY(std::abs(warm.bias() - reference.bias) <= 1e-3);
}

void TestSmo::smallCacheGivesSameSolution() {
    // a1a: 1605² doubles (20 MB) do not fit 1 MB, so both caches work row by row (LRU).
    const auto train = dataset("a1a");
    const auto specs = kernelList("gaussian:0.05", train->dimension());
    KernelSet wholeSet(train, specs, KernelNormalization::None, 64);
    KernelQ wholeQ(wholeSet, train->labels, Eigen::VectorXd::Ones(1), 64);
    Smo whole(wholeQ, SmoOptions{1.0, 1e-3, true});
    QVERIFY(whole.run(0).converged);

    KernelSet smallSet(train, specs, KernelNormalization::None, 1);
    QVERIFY(!smallSet.fullyCached());
    KernelQ smallQ(smallSet, train->labels, Eigen::VectorXd::Ones(1), 1);
    Smo small(smallQ, SmoOptions{1.0, 1e-3, true});
    QVERIFY(small.run(0).converged);
    QCOMPARE(small.totalSteps(), whole.totalSteps());
    QVERIFY((small.alpha() - whole.alpha()).lpNorm<Eigen::Infinity>() == 0.0);
    QCOMPARE(small.bias(), whole.bias());
    QVERIFY(smallSet.bytes() <= std::size_t(1) << 20);
    qInfo("a1a with 1 MB caches: %lld kernel rows computed (whole matrix: %lld)",
          smallSet.rowsComputed(), wholeSet.rowsComputed());
}

void TestSmo::cancellation() {
    const auto train = dataset("heart_scale");
    KernelSet kernels(train, kernelList("gaussian:1", train->dimension()),
                      KernelNormalization::None, 16);
    KernelQ q(kernels, train->labels, Eigen::VectorXd::Ones(1), 16);
    Smo smo(q, SmoOptions{});
    CancelToken token;
    token.cancel();
    const SmoProgress stopped = smo.run(0, &token);
    QCOMPARE(stopped.steps, 0LL);
    QVERIFY(!stopped.converged);
    token.reset();
    QVERIFY(smo.run(0, &token).converged);
}

void TestSmo::invalidInput() {
    const auto train = dataset("heart_scale");
    KernelSet kernels(train, kernelList("gaussian:1", train->dimension()),
                      KernelNormalization::None, 16);
    KernelQ q(kernels, train->labels, Eigen::VectorXd::Ones(1), 16);
    auto message = [](auto&& call) -> QString {
        try {
            call();
        } catch (const std::invalid_argument& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    };
    QVERIFY(message([&] { Smo(q, SmoOptions{0.0, 1e-3, true}); }).contains("C = 0: must be > 0"));
    QVERIFY(message([&] {
                Smo(q, SmoOptions{1.0, -1.0, true});
            }).contains("tolerance = -1: must be > 0"));

    // One class only.
    Dataset oneClass = *train;
    oneClass.labels.setOnes();
    auto oneClassPtr = std::make_shared<const Dataset>(oneClass);
    KernelSet oneSet(oneClassPtr, kernels.specs(), KernelNormalization::None, 16);
    KernelQ oneQ(oneSet, oneClassPtr->labels, Eigen::VectorXd::Ones(1), 16);
    QVERIFY(message([&] { Smo(oneQ, SmoOptions{}); }).contains("only one class"));

    // Infeasible warm starts.
    Smo smo(q, SmoOptions{1.0, 1e-3, true});
    const int m = train->size();
    Eigen::VectorXd outside = Eigen::VectorXd::Zero(m);
    outside[3] = 1.5;
    QVERIFY(message([&] { smo.setAlpha(outside); }).contains("outside [0, C = 1]"));
    Eigen::VectorXd unbalanced = Eigen::VectorXd::Zero(m);
    unbalanced[0] = 0.5;
    QVERIFY(message([&] { smo.setAlpha(unbalanced); }).contains("is not 0"));
    QVERIFY(message([&] { smo.setAlpha(Eigen::VectorXd::Zero(3)); }).contains("3 values"));
    // Labels that are not ±1 are refused by KernelQ.
    Eigen::VectorXd labels = train->labels;
    labels[5] = 2.0;
    QVERIFY(message([&] {
                KernelQ(kernels, labels, Eigen::VectorXd::Ones(1), 16);
            }).contains("example 6 has 2"));
}

QTEST_GUILESS_MAIN(TestSmo)
#include "test_smo.moc"
