// SPDX-License-Identifier: GPL-3.0-or-later
// Interleaved SILP (solvers/kernel/silp.h, `silp_interleaved`) and MKL's compact kernel
// storage (kernel_set.h), on real data (ionosphere, sonar), against independent answers:
//   * interleaved and plain SILP reach the same objective (1e-4 relative, both run to
//     tol_rel = 1e-5) and, where the optimum is unique (two kernels with a sharp interior
//     minimum, tests/solvers/kernel/test_mkl.cpp), the same weights;
//   * every plane of the interleaved run, taken from an α that SMO had not finished, is a
//     lower bound of D: its value at the final β* and at random β stays below D(β) from an
//     independent tight SVM solve (evaluateMklObjective); θ never decreases; L ≤ U;
//   * kernels stored in float (a cache that holds them in float, not in double) keep D(β)
//     within 1e-6 relative of the double storage at the same β, and SILP's objective too;
//   * MKL's whole storage (rows filled per feature group, Gaussians as powers of narrower
//     ones) gives the rows of plain per-row exp to 1e-12; Q's rows and products with kernels
//     over value classes combined per group match Σₖ βₖ K_k from each kernel's rows;
//   * pair-major whole storage (many kernels held per example: kernel_set.h, pairMajor()) gives
//     plain rows to 1e-12 in double (1e-6 in float), every kernel's vᵀKₖv, Σₖ βₖ Kₖ(i, ·) and
//     Q's rows and products as sums over plain rows, with a kernel over value classes beside;
//   * the plane's products Kₖ Yα (which the solvers turn into SMO's gradient at the next β)
//     match Σᵢ (Yα)ᵢ Kₖ(i, ·) from each kernel's rows, and their coefficients the triangle's;
//   * chunk_steps < 0 is refused with a message naming the field;
//   * master=level (the level method's projection, level_projection.h): exact and interleaved
//     reach plain SILP's objective (1e-4 relative), every plane of theirs is a lower bound of D
//     at random β and at β*; the projection itself matches a brute-force search over a fine
//     grid of the 3-simplex; master=other is refused;
//   * SimpleMKL with its default options (kkt 1e-3) reaches tol_rel = 1e-3 on ionosphere with
//     17 kernels, at SILP's objective;
//   * stopped early (max_iterations 1 to 6), the interleaved run reports the training error of
//     the classifier it saves, and its weights are that classifier's;
//   * whole pair-major storage and an LRU of rows (a cache too small for the kernels) give the
//     same D(β) to 1e-9 (SMO to kkt 1e-10 on each); the MKL default cache_mb holds generated
//     ringnorm-like 500 × 30 data with 300 kernels whole in float (the old 384 MB did not), and
//     pair-major kernels beyond 64 MB in double are held in float even where double fits.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <type_traits>

#include "data/csv_format.h"
#include "data/libsvm_format.h"
#include "kernel/kernel_set.h"
#include "kernel/level_projection.h"
#include "kernel/row_cache.h"
#include "kernel/silp.h"
#include "kernel/simplemkl.h"
#include "kernel/smo.h"
#include "ringnorm_like.h"
#include "test_printers.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;
constexpr double kC = 1.0;

std::shared_ptr<const Dataset> dataset(const std::string& name) {
    static std::map<std::string, std::shared_ptr<const Dataset>> cache;
    auto& slot = cache[name];
    if (!slot) {
        slot = name == "sonar"
                   ? std::make_shared<Dataset>(loadCsv(kData + "/sonar.all-data"))
                   : std::make_shared<Dataset>(loadLibsvm(kData + "/kernel/ionosphere_scale"));
    }
    return slot;
}

// The kernel sets of bench_mkl (17 and 19 kernels).
std::string kernelsOf(const std::string& name) {
    return name == "sonar" ? "gaussian:0.05,0.1,0.2,0.5,1,2,5,10;poly:2;linear;"
                             "gaussian:0.5,2,8@1-20;gaussian:0.5,2,8@21-40;gaussian:0.5,2,8@41-60"
                           : "gaussian:0.01,0.02,0.05,0.1,0.2,0.5,1,2,5,10;gaussian:0.5,2@1-17;"
                             "gaussian:0.5,2@18-34;poly:2;poly:3;linear";
}

template <class Options>
Options mklOptions(const std::string& kernels, double tolRel, double kkt, double cacheMb = 256) {
    Options o;
    o.kernel.kernels = kernels;
    o.kernel.C = kC;
    o.kernel.normalize = "trace";
    o.kernel.kkt_tolerance = kkt;
    o.kernel.cache_mb = cacheMb;
    o.stop.tol_rel = tolRel;
    o.stop.epsilon = 0.0;
    o.stop.max_iterations = 100000;
    // Plain SILP, Kelley's method, as the reference (the level method's tests set master).
    if constexpr (std::is_same_v<Options, SilpOptions>) o.master = "lp";
    return o;
}

std::shared_ptr<const KernelSnapshot> kernelSnapshot(const Solver& solver) {
    return std::dynamic_pointer_cast<const KernelSnapshot>(solver.snapshot());
}

KernelSetup tightSetup(const KernelSetup& setup) {
    KernelSetup tight = setup;
    tight.tolerance = 1e-8;
    return tight;
}

// Deterministic points on the simplex (exponential spacings of a fixed LCG).
std::vector<Eigen::VectorXd> simplexPoints(int K, int count) {
    std::vector<Eigen::VectorXd> points;
    std::uint64_t state = 12345;
    for (int p = 0; p < count; ++p) {
        Eigen::VectorXd beta(K);
        for (int k = 0; k < K; ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            beta[k] = -std::log((static_cast<double>(state >> 11) + 0.5) / 9007199254740992.0);
        }
        points.push_back(beta / beta.sum());
    }
    return points;
}

QString numbers(double a, double b) {
    return QString("%1 vs %2").arg(a, 0, 'g', 15).arg(b, 0, 'g', 15);
}

}  // namespace

class TestMklInterleaved : public QObject {
    Q_OBJECT

  private slots:
    void sameObjectiveAsSilp_data();
    void sameObjectiveAsSilp();
    void sameWeightsWhereUnique_data();
    void sameWeightsWhereUnique();
    void everyPlaneIsALowerBound_data();
    void everyPlaneIsALowerBound();
    void floatStorageKeepsTheObjective();
    void compactRowsMatchPlainRows();
    void classSumRowsMatchKernelSums();
    void planeProductsMatchRows();
    void pairMajorMatchesPlainRows();
    void badChunkIsRefused();
    void levelSameObjectiveAsSilp_data();
    void levelSameObjectiveAsSilp();
    void levelProjectionMatchesBruteForce();
    void badMasterIsRefused();
    void simpleMklDefaultsReachTolerance();
    void stoppedEarlyReportsItsModel();
    void wholeAndRowStorageSameObjective();
    void defaultCacheHoldsLargerSetsWhole();
    void adaptiveLevelMeetsSilpOnContinuousFeatures();
};

void TestMklInterleaved::sameObjectiveAsSilp_data() {
    QTest::addColumn<QString>("data");
    QTest::newRow("ionosphere 17 kernels") << "ionosphere";
    QTest::newRow("sonar 19 kernels") << "sonar";
}

void TestMklInterleaved::sameObjectiveAsSilp() {
    QFETCH(QString, data);
    const std::string name = data.toStdString();
    const KernelProblem problem{dataset(name), nullptr};
    SilpSolver silp(problem, mklOptions<SilpOptions>(kernelsOf(name), 1e-5, 1e-5));
    InterleavedSilpSolver interleaved(problem, [&] {
        auto options = mklOptions<InterleavedSilpOptions>(kernelsOf(name), 1e-5, 1e-5);
        options.master = "lp";  // level: levelSameObjectiveAsSilp
        return options;
    }());
    QCOMPARE(solve(silp).code, StatusCode::Converged);
    QCOMPARE(solve(interleaved).code, StatusCode::Converged);
    const double a = silp.lastRecord().upper;
    const double b = interleaved.lastRecord().upper;
    QVERIFY2(std::abs(a - b) <= 1e-4 * std::max(a, b), qPrintable(numbers(a, b)));
    // Each one's objective lies above the other's certified lower bound (up to the inner
    // SVM's accuracy, far below 1e-5 relative here).
    QVERIFY2(a >= interleaved.lastRecord().lower * (1 - 1e-6), qPrintable(numbers(a, b)));
    QVERIFY2(b >= silp.lastRecord().lower * (1 - 1e-6), qPrintable(numbers(a, b)));
    qInfo("%s: U silp %.10g (%d SVMs), U interleaved %.10g (%d chunks, %zu planes)",
          qPrintable(data), a, silp.iteration(), b, interleaved.iteration(),
          interleaved.planes().size());
}

void TestMklInterleaved::sameWeightsWhereUnique_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("kernels");
    // test_mkl.cpp shows by an independent golden-section search that these two have one
    // sharp interior minimum, which SILP finds.
    QTest::newRow("ionosphere gaussian:0.2,1") << "ionosphere"
                                               << "gaussian:0.2,1";
    QTest::newRow("sonar gaussian:1,2") << "sonar"
                                        << "gaussian:1,2";
}

void TestMklInterleaved::sameWeightsWhereUnique() {
    QFETCH(QString, data);
    QFETCH(QString, kernels);
    const KernelProblem problem{dataset(data.toStdString()), nullptr};
    SilpSolver silp(problem, mklOptions<SilpOptions>(kernels.toStdString(), 1e-6, 1e-7));
    InterleavedSilpSolver interleaved(problem, [&] {
        auto options = mklOptions<InterleavedSilpOptions>(kernels.toStdString(), 1e-6, 1e-7);
        options.master = "lp";
        return options;
    }());
    QCOMPARE(solve(silp).code, StatusCode::Converged);
    QCOMPARE(solve(interleaved).code, StatusCode::Converged);
    const Eigen::VectorXd a = silp.weights();
    const Eigen::VectorXd b = interleaved.weights();
    // test_mkl.cpp's curvatures put every β within tol_rel of D* inside ±0.01 of t*.
    QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 0.01,
             qPrintable(QString("silp beta_1 %1, interleaved %2").arg(a[0]).arg(b[0])));
    QVERIFY(std::abs(silp.lastRecord().upper - interleaved.lastRecord().upper) <=
            2e-6 * silp.lastRecord().upper);
    qInfo("%s %s: beta_1 silp %.5f, interleaved %.5f", qPrintable(data), qPrintable(kernels), a[0],
          b[0]);
}

void TestMklInterleaved::everyPlaneIsALowerBound_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<int>("chunk");  // −1: `silp` (exact SVMs)
    QTest::addColumn<QString>("master");
    QTest::newRow("ionosphere chunk 20") << "ionosphere" << 20 << "lp";
    QTest::newRow("ionosphere chunk auto") << "ionosphere" << 0 << "lp";
    QTest::newRow("sonar chunk 20") << "sonar" << 20 << "lp";
    QTest::newRow("ionosphere level chunk 20") << "ionosphere" << 20 << "level";
    QTest::newRow("sonar level chunk auto") << "sonar" << 0 << "level";
    QTest::newRow("ionosphere level exact") << "ionosphere" << -1 << "level";
}

void TestMklInterleaved::everyPlaneIsALowerBound() {
    QFETCH(QString, data);
    QFETCH(int, chunk);
    QFETCH(QString, master);
    const std::string name = data.toStdString();
    const KernelProblem problem{dataset(name), nullptr};
    std::unique_ptr<SilpSolver> owned;
    if (chunk < 0) {
        auto options = mklOptions<SilpOptions>(kernelsOf(name), 1e-3, 1e-3);
        options.master = master.toStdString();
        owned = std::make_unique<SilpSolver>(problem, options);
    } else {
        auto options = mklOptions<InterleavedSilpOptions>(kernelsOf(name), 1e-3, 1e-3);
        options.chunk_steps = chunk;
        options.master = master.toStdString();
        owned = std::make_unique<InterleavedSilpSolver>(problem, options);
    }
    SilpSolver& solver = *owned;
    double theta = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    solve(solver, [&](const Solver&, const IterationRecord& r) {
        QVERIFY(r.lower <= r.upper);
        QVERIFY(r.upper <= upper);
        upper = r.upper;
        theta = std::max(theta, r.lower);
        QVERIFY(r.lower >= theta - 1e-9 * std::abs(theta));  // θ never decreases
    });
    QCOMPARE(solver.status().code, StatusCode::Converged);
    const auto snapshot = kernelSnapshot(solver);
    QVERIFY(snapshot && snapshot->setup);
    const KernelSetup tight = tightSetup(*snapshot->setup);
    const int K = static_cast<int>(snapshot->kernelLabels.size());
    std::vector<Eigen::VectorXd> points = simplexPoints(K, 4);
    points.push_back(solver.weights());  // β*, where the planes are tightest
    int inexact = 0;
    for (std::size_t i = 0; i < snapshot->planes.size(); ++i)
        inexact += snapshot->dValues[i] < upper * (1 - 1e-3);
    for (const Eigen::VectorXd& beta : points) {
        const double D = evaluateMklObjective(tight, beta);
        for (std::size_t i = 0; i < snapshot->planes.size(); ++i) {
            const double plane = beta.dot(snapshot->planes[i]);
            QVERIFY2(plane <= D + 1e-7 * D,
                     qPrintable(QString("plane %1 at beta: %2").arg(i).arg(numbers(plane, D))));
        }
    }
    // The final D(β*) is within the run's gap of U and above L.
    const double dStar = evaluateMklObjective(tight, solver.weights());
    QVERIFY2(dStar >= solver.lastRecord().lower * (1 - 1e-7),
             qPrintable(numbers(dStar, solver.lastRecord().lower)));
    QVERIFY2(std::abs(dStar - solver.lastRecord().upper) <= 2e-3 * dStar,
             qPrintable(numbers(dStar, solver.lastRecord().upper)));
    // Short chunks: the test covers planes of unfinished SVMs (their height at βᵢ lies below
    // the final U by more than the gap).
    if (chunk > 0 && chunk <= 20) QVERIFY(inexact > 0);
    qInfo("%s %s chunk %d: %zu planes (%d from unfinished SVMs), %d steps, D(beta*) %.8g",
          qPrintable(data), qPrintable(master), chunk, snapshot->planes.size(), inexact,
          solver.iteration(), dStar);
}

void TestMklInterleaved::floatStorageKeepsTheObjective() {
    // Ionosphere with 17 kernels: 17 · 351² doubles are 16.0 MB, in float 8.0 MB. A solver
    // gives its KernelSet half of cache_mb: 20 MB holds them in float, 64 MB in double.
    const auto data = dataset("ionosphere");
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(parseKernelList(kernelsOf("ionosphere"), data->dimension(), &specs, &why));
    KernelSet narrow(data, specs, KernelNormalization::Trace, 10, KernelPrecision::Compact);
    KernelSet wide(data, specs, KernelNormalization::Trace, 32, KernelPrecision::Compact);
    KernelSet single(data, specs, KernelNormalization::Trace, 10);
    QCOMPARE(narrow.storage(), KernelStorage::WholeFloat);
    QCOMPARE(wide.storage(), KernelStorage::WholeDouble);
    QCOMPARE(single.storage(), KernelStorage::Rows);  // float only when asked for

    const KernelProblem problem{data, nullptr};
    SilpSolver silpFloat(problem, mklOptions<SilpOptions>(kernelsOf("ionosphere"), 1e-6, 1e-6, 20));
    SilpSolver silpDouble(problem,
                          mklOptions<SilpOptions>(kernelsOf("ionosphere"), 1e-6, 1e-6, 64));
    QCOMPARE(solve(silpFloat).code, StatusCode::Converged);
    QCOMPARE(solve(silpDouble).code, StatusCode::Converged);
    const double a = silpFloat.lastRecord().upper;
    const double b = silpDouble.lastRecord().upper;
    QVERIFY2(std::abs(a - b) <= 2e-6 * b, qPrintable(numbers(a, b)));

    // At the same β, D from an SMO on the float kernels against one on the doubles.
    const Eigen::VectorXd& y = data->labels;
    double worst = 0.0;
    for (const Eigen::VectorXd& beta : simplexPoints(static_cast<int>(specs.size()), 3)) {
        KernelQ qFloat(narrow, y, beta, 8);
        KernelQ qDouble(wide, y, beta, 8);
        Smo smoFloat(qFloat, SmoOptions{kC, 1e-9, true});
        Smo smoDouble(qDouble, SmoOptions{kC, 1e-9, true});
        QVERIFY(smoFloat.run(0).converged && smoDouble.run(0).converged);
        const double dFloat = smoFloat.dualObjective();
        const double dDouble = smoDouble.dualObjective();
        worst = std::max(worst, std::abs(dFloat - dDouble) / dDouble);
        QVERIFY2(std::abs(dFloat - dDouble) <= 1e-6 * dDouble,
                 qPrintable(numbers(dFloat, dDouble)));
    }
    qInfo(
        "float storage: SILP objective %.12g vs %.12g in double; D(beta) differs by at most "
        "%.2g relative at 3 random beta",
        a, b, worst);
}

void TestMklInterleaved::compactRowsMatchPlainRows() {
    // MKL's whole storage fills a row for every kernel of its feature group at once and takes
    // a Gaussian's row as a power of the next narrower one's (kernel_set.cpp): against rows
    // computed one by one in double by exp, asked for in a scattered order, over all 17
    // kernels of ionosphere (ten Gaussians over the same features: nine by powers).
    const auto data = dataset("ionosphere");
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(parseKernelList(kernelsOf("ionosphere"), data->dimension(), &specs, &why));
    KernelSet compact(data, specs, KernelNormalization::Trace, 64, KernelPrecision::Compact);
    KernelSet plain(data, specs, KernelNormalization::Trace, 64);
    QCOMPARE(compact.storage(), KernelStorage::WholeDouble);
    const int m = data->size();
    const int K = static_cast<int>(specs.size());
    double worst = 0.0;
    for (int t = 0; t < m; ++t) {
        const int i = (t * 97) % m;  // 97 and 351 are coprime: every row once
        for (int k = (t * 5) % K, seen = 0; seen < K; k = (k + 7) % K, ++seen) {
            const Eigen::VectorXd a = Eigen::Map<const Eigen::VectorXd>(compact.row(k, i), m);
            const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), m);
            const double error =
                (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
            worst = std::max(worst, error);
            QVERIFY2(error <= 1e-12, qPrintable(QString("kernel %1 row %2: %3")
                                                    .arg(QString::fromStdString(specs[k].label()))
                                                    .arg(i)
                                                    .arg(error)));
        }
    }
    qInfo("compact rows against plain rows: at most %.2g relative", worst);
}

void TestMklInterleaved::classSumRowsMatchKernelSums() {
    // Kernels over value classes (categorical features) weighted together per feature group
    // in KernelQ: every row of Q and Q x against y_i y_j Σₖ βₖ K_k(i, j) from each kernel's row.
    auto data = std::make_shared<Dataset>();
    data->name = data->source = "categorical";
    const int m = 160;
    data->dense.resize(m, 3);
    data->labels.resize(m);
    std::uint64_t state = 99;
    const auto next = [&state](int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    };
    for (int i = 0; i < m; ++i) {
        data->dense(i, 0) = next(4);
        data->dense(i, 1) = 0.5 * next(6);
        data->dense(i, 2) = 0.01 * next(1000);  // continuous: held per example
        data->labels[i] = data->dense(i, 0) + data->dense(i, 2) > 2.5 ? 1.0 : -1.0;
    }
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(parseKernelList("gaussian:0.1,1,3@each_feature;linear", 3, &specs, &why));
    KernelSet kernels(data, specs, KernelNormalization::Trace, 64, KernelPrecision::Compact);
    KernelSet plain(data, specs, KernelNormalization::Trace, 64);
    const int K = kernels.kernels();
    int overClasses = 0;
    for (int k = 0; k < K; ++k)
        overClasses += kernels.classGroup(k) >= 0 ? 1 : 0;
    QCOMPARE(overClasses, 6);  // the Gaussians over the two categorical features
    const Eigen::VectorXd& y = data->labels;
    Eigen::VectorXd x(m);
    for (int i = 0; i < m; ++i)
        x[i] = next(3) == 0 ? 0.0 : 0.001 * next(1000);
    for (const Eigen::VectorXd& beta : simplexPoints(K, 3)) {
        KernelQ q(kernels, y, beta, 8);
        Eigen::VectorXd expectedProduct = Eigen::VectorXd::Zero(m);
        for (int i = 0; i < m; ++i) {
            Eigen::VectorXd expected = Eigen::VectorXd::Zero(m);
            for (int k = 0; k < K; ++k)
                expected += beta[k] * Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), m);
            expected = y[i] * y.cwiseProduct(expected);
            expectedProduct += expected * x[i];
            const Eigen::VectorXd got = Eigen::Map<const Eigen::VectorXd>(q.row(i), m);
            QVERIFY2((got - expected).cwiseAbs().maxCoeff() <= 1e-12,
                     qPrintable(QString("row %1").arg(i)));
        }
        const Eigen::VectorXd product = q.multiply(x);
        QVERIFY2((product - expectedProduct).cwiseAbs().maxCoeff() <=
                     1e-11 * std::max(1.0, expectedProduct.cwiseAbs().maxCoeff()),
                 "Q x");
    }
}

namespace {

// vᵀ K_k v and Σₖ βₖ K_k(i, ·) from a plain KernelSet's rows (double, one kernel at a time).
double plainQuadratic(KernelSet& plain, int k, const Eigen::VectorXd& v) {
    double sum = 0.0;
    for (int i = 0; i < plain.examples(); ++i)
        sum += v[i] * Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), plain.examples()).dot(v);
    return sum;
}

}  // namespace

void TestMklInterleaved::pairMajorMatchesPlainRows() {
    // Sonar (every value distinct) with feature 1 rounded to three values (its kernels are held
    // over value classes) and the others held per example, three of them powers of a narrower
    // Gaussian: pair-major whole storage against rows computed one by one in double, and in
    // float.
    auto edited = std::make_shared<Dataset>(*dataset("sonar"));
    for (int i = 0; i < edited->size(); ++i)
        edited->dense(i, 0) = std::round(2.0 * edited->dense(i, 0));
    const std::shared_ptr<const Dataset> data = edited;
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(
        parseKernelList("gaussian:1@1;gaussian:0.1,0.2,0.5,3@2;gaussian:0.5,2@3-9;poly:2@10-12;"
                        "linear@13;gaussian:0.04,0.4,4,40@each_feature",
                        data->dimension(), &specs, &why));
    specs.resize(45);  // 36 of the last item's 240 kernels are enough
    const int m = data->size();
    const int K = static_cast<int>(specs.size());
    KernelSet pair(data, specs, KernelNormalization::Trace, 64, KernelPrecision::Compact);
    int perExample = 0;
    for (int k = 0; k < K; ++k)
        perExample += pair.classGroup(k) < 0 ? 1 : 0;
    // A budget that holds them in float, not in double.
    const std::size_t values = static_cast<std::size_t>(perExample) * m * m;
    const double floatMb = RowMemory<float>::footprint(values) / 1048576.0 + 0.01;
    QVERIFY(RowMemory<double>::footprint(values) / 1048576.0 > floatMb);
    KernelSet narrow(data, specs, KernelNormalization::Trace, std::max(1.0, floatMb),
                     KernelPrecision::Compact);
    KernelSet plain(data, specs, KernelNormalization::Trace, 64);
    QVERIFY(pair.pairMajor() && !plain.pairMajor() && narrow.pairMajor());
    QCOMPARE(pair.storage(), KernelStorage::WholeDouble);
    QCOMPARE(narrow.storage(), KernelStorage::WholeFloat);
    QVERIFY(pair.classGroup(0) >= 0 && pair.classGroup(1) < 0);
    double worstFloat = 0.0;
    for (int t = 0; t < m; ++t) {
        const int i = (t * 67) % m;  // 67 and 208 are coprime: every row once, scattered
        const int k = (t * 5) % K;
        const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), m);
        const Eigen::VectorXd a = Eigen::Map<const Eigen::VectorXd>(pair.row(k, i), m);
        const Eigen::VectorXd f = Eigen::Map<const Eigen::VectorXd>(narrow.row(k, i), m);
        const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
        QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 1e-12 * scale, qPrintable(QString::number(k)));
        worstFloat = std::max(worstFloat, (f - b).cwiseAbs().maxCoeff() / scale);
    }
    QVERIFY2(worstFloat <= 1e-6, qPrintable(QString::number(worstFloat)));

    // v = Yα on a support of every third example; β on the simplex with some zeros.
    Eigen::VectorXd v = Eigen::VectorXd::Zero(m);
    std::vector<int> support;
    for (int i = 0; i < m; i += 3) {
        v[i] = data->labels[i] * (0.1 + 0.9 * ((i * 37) % 11) / 10.0);
        support.push_back(i);
    }
    const Eigen::VectorXd quadratics = pair.quadratics(v, support);
    for (int k = 0; k < K; ++k) {
        const double expected = plainQuadratic(plain, k, v);
        QVERIFY2(std::abs(quadratics[k] - expected) <= 1e-12 * std::abs(expected),
                 qPrintable(numbers(quadratics[k], expected)));
        QVERIFY(std::abs(pair.quadratic(k, v, support) - expected) <= 1e-12 * std::abs(expected));
    }
    Eigen::VectorXd beta = simplexPoints(K, 1).front();
    beta[3] = beta[7] = 0.0;
    beta /= beta.sum();
    KernelQ q(pair, data->labels, beta, 8);
    const Eigen::VectorXd& y = data->labels;
    Eigen::VectorXd expectedQx = Eigen::VectorXd::Zero(m);
    for (const int i : {0, 5, 100, m - 1}) {
        Eigen::VectorXd held = Eigen::VectorXd::Zero(m), all = Eigen::VectorXd::Zero(m);
        for (int k = 0; k < K; ++k) {
            const Eigen::VectorXd row =
                beta[k] * Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), m);
            all += row;
            if (pair.classGroup(k) < 0) held += row;
        }
        Eigen::VectorXd got = Eigen::VectorXd::Zero(m);
        pair.addWeightedRow(i, beta, got.data());
        QVERIFY((got - held).cwiseAbs().maxCoeff() <= 1e-12);
        const Eigen::VectorXd qRow = Eigen::Map<const Eigen::VectorXd>(q.row(i), m);
        QVERIFY((qRow - y[i] * y.cwiseProduct(all)).cwiseAbs().maxCoeff() <= 1e-12);
    }
    // Q x from Q's rows against Σᵢ xᵢ Q(i, ·) from the plain rows.
    const Eigen::VectorXd x = v.cwiseAbs();
    for (int i = 0; i < m; ++i) {
        if (x[i] == 0.0) continue;
        Eigen::VectorXd all = Eigen::VectorXd::Zero(m);
        for (int k = 0; k < K; ++k)
            all += beta[k] * Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), m);
        expectedQx += x[i] * y[i] * y.cwiseProduct(all);
    }
    QVERIFY((q.multiply(x) - expectedQx).cwiseAbs().maxCoeff() <=
            1e-12 * expectedQx.cwiseAbs().maxCoeff());
    qInfo("pair-major: %d kernels (%d over value classes), rows to 1e-12 in double, %.2g in float",
          K, K - perExample, worstFloat);
}

void TestMklInterleaved::planeProductsMatchRows() {
    // α of an SVM at β = (1/K, …) on sonar (19 kernels, 179 of 208 examples support vectors);
    // products asked for every other kernel.
    const auto data = dataset("sonar");
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(parseKernelList(kernelsOf("sonar"), data->dimension(), &specs, &why));
    KernelSet kernels(data, specs, KernelNormalization::Trace, 64, KernelPrecision::Compact);
    KernelSet plain(data, specs, KernelNormalization::Trace, 64);
    const int m = data->size();
    const int K = static_cast<int>(specs.size());
    KernelQ q(kernels, data->labels, Eigen::VectorXd::Constant(K, 1.0 / K), 8);
    Smo smo(q, SmoOptions{1.0, 1e-3, true});
    QVERIFY(smo.run(0).converged);
    const Eigen::VectorXd alpha = smo.alpha();
    const Eigen::VectorXd v = alpha.cwiseProduct(data->labels);
    std::vector<char> wanted(static_cast<std::size_t>(K));
    for (int k = 0; k < K; k += 2)
        wanted[static_cast<std::size_t>(k)] = 1;
    std::vector<Eigen::VectorXd> products;
    const Eigen::VectorXd S = mklPlane(kernels, alpha, &wanted, &products);
    const Eigen::VectorXd triangle = mklPlane(kernels, alpha);
    QCOMPARE(static_cast<int>(products.size()), K);
    for (int k = 0; k < K; ++k) {
        QVERIFY2(std::abs(S[k] - triangle[k]) <= 1e-10 * std::abs(triangle[k]),
                 qPrintable(QString("kernel %1: %2 vs %3").arg(k).arg(S[k]).arg(triangle[k])));
        if (!wanted[static_cast<std::size_t>(k)]) {
            QCOMPARE(products[static_cast<std::size_t>(k)].size(), Eigen::Index(0));
            continue;
        }
        Eigen::VectorXd expected = Eigen::VectorXd::Zero(m);
        for (int i = 0; i < m; ++i)
            expected += v[i] * Eigen::Map<const Eigen::VectorXd>(plain.row(k, i), m);
        const double error =
            (products[static_cast<std::size_t>(k)] - expected).cwiseAbs().maxCoeff();
        QVERIFY2(error <= 1e-11 * std::max(1.0, expected.cwiseAbs().maxCoeff()),
                 qPrintable(QString("kernel %1: product off by %2").arg(k).arg(error)));
    }
}

void TestMklInterleaved::badChunkIsRefused() {
    auto options = mklOptions<InterleavedSilpOptions>("gaussian:0.1,1", 1e-3, 1e-3);
    options.chunk_steps = -1;
    InterleavedSilpSolver solver(KernelProblem{dataset("ionosphere"), nullptr}, options);
    QCOMPARE(solver.status().code, StatusCode::InvalidInput);
    const std::string message = solver.status().message;
    QVERIFY2(message.find("InterleavedSilpOptions::chunk_steps = -1") != std::string::npos,
             message.c_str());
}

void TestMklInterleaved::levelSameObjectiveAsSilp_data() {
    sameObjectiveAsSilp_data();
}

// The level method moves β differently from Kelley's, not the bounds: to tol_rel = 1e-5 both
// of its variants meet plain SILP's objective.
void TestMklInterleaved::levelSameObjectiveAsSilp() {
    QFETCH(QString, data);
    const std::string name = data.toStdString();
    const KernelProblem problem{dataset(name), nullptr};
    SilpSolver silp(problem, mklOptions<SilpOptions>(kernelsOf(name), 1e-5, 1e-5));
    auto exactOptions = mklOptions<SilpOptions>(kernelsOf(name), 1e-5, 1e-5);
    exactOptions.master = "level";
    SilpSolver level(problem, exactOptions);
    auto chunkOptions = mklOptions<InterleavedSilpOptions>(kernelsOf(name), 1e-5, 1e-5);
    chunkOptions.master = "level";
    InterleavedSilpSolver interleaved(problem, chunkOptions);
    QCOMPARE(solve(silp).code, StatusCode::Converged);
    QCOMPARE(solve(level).code, StatusCode::Converged);
    QCOMPARE(solve(interleaved).code, StatusCode::Converged);
    const double a = silp.lastRecord().upper;
    for (const SilpSolver* other : {&level, static_cast<SilpSolver*>(&interleaved)}) {
        const double b = other->lastRecord().upper;
        QVERIFY2(std::abs(a - b) <= 1e-4 * std::max(a, b), qPrintable(numbers(a, b)));
        QVERIFY2(a >= other->lastRecord().lower * (1 - 1e-6), qPrintable(numbers(a, b)));
        QVERIFY2(b >= silp.lastRecord().lower * (1 - 1e-6), qPrintable(numbers(a, b)));
    }
    qInfo(
        "%s: U silp %.10g (%d SVMs), level %.10g (%d SVMs), interleaved level %.10g (%d "
        "chunks, %zu planes)",
        qPrintable(data), a, silp.iteration(), level.lastRecord().upper, level.iteration(),
        interleaved.lastRecord().upper, interleaved.iteration(), interleaved.planes().size());
}

// The projection onto {β ∈ Δ : Sᵢᵀβ ≤ ℓ} in three dimensions against the best point of a
// grid of step 1/2000 on the simplex (independent: no multipliers, no FISTA).
void TestMklInterleaved::levelProjectionMatchesBruteForce() {
    const Eigen::Vector3d v(0.7, 0.5, -0.4);
    const Eigen::VectorXd onSimplex = projectOntoSimplex(v);
    QVERIFY((onSimplex - Eigen::Vector3d(0.6, 0.4, 0.0)).norm() <= 1e-12);

    const std::vector<Eigen::VectorXd> planes = {Eigen::Vector3d(3.0, 1.0, 2.0),
                                                 Eigen::Vector3d(1.0, 3.0, 2.5),
                                                 Eigen::Vector3d(2.0, 2.0, 1.0)};
    const Eigen::Vector3d center(0.8, 0.15, 0.05);  // the first plane is 2.65 there
    // The model's minimum is 2.0 at (1/2, 1/2, 0) (all three planes): the LP's minimiser.
    const Eigen::Vector3d lpMin(0.5, 0.5, 0.0);
    const double level = 2.2;
    const int n = 2000;
    double best = std::numeric_limits<double>::infinity();
    Eigen::Vector3d argBest = lpMin;
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; i + j <= n; ++j) {
            const Eigen::Vector3d beta(double(i) / n, double(j) / n, double(n - i - j) / n);
            bool feasible = true;
            for (const Eigen::VectorXd& S : planes)
                feasible = feasible && S.dot(beta) <= level;
            if (feasible && (beta - center).squaredNorm() < best) {
                best = (beta - center).squaredNorm();
                argBest = beta;
            }
        }
    }
    QVERIFY(best < std::numeric_limits<double>::infinity());
    for (const Eigen::VectorXd& S : planes)
        QVERIFY(S.dot(lpMin) <= level);
    const LevelProjection p = projectOntoLevelSet(planes, center, level, lpMin, Eigen::VectorXd());
    QVERIFY(p.converged);
    QVERIFY(std::abs(p.beta.sum() - 1.0) <= 1e-12 && p.beta.minCoeff() >= 0.0);
    for (const Eigen::VectorXd& S : planes)
        QVERIFY2(S.dot(p.beta) <= level + 1e-9, qPrintable(numbers(S.dot(p.beta), level)));
    QVERIFY2((p.beta - argBest).norm() <= 2e-3,
             qPrintable(QString("projection (%1, %2, %3), grid (%4, %5, %6)")
                            .arg(p.beta[0])
                            .arg(p.beta[1])
                            .arg(p.beta[2])
                            .arg(argBest[0])
                            .arg(argBest[1])
                            .arg(argBest[2])));
    // Not farther than the grid's best (which is feasible): the projection is the nearest.
    QVERIFY((p.beta - center).squaredNorm() <= best + 1e-9);
    qInfo("level projection: (%.5f, %.5f, %.5f) in %d steps; grid (%.4f, %.4f, %.4f)", p.beta[0],
          p.beta[1], p.beta[2], p.iterations, argBest[0], argBest[1], argBest[2]);
}

void TestMklInterleaved::badMasterIsRefused() {
    auto options = mklOptions<SilpOptions>("gaussian:0.1,1", 1e-3, 1e-3);
    options.master = "bundle";
    SilpSolver solver(KernelProblem{dataset("ionosphere"), nullptr}, options);
    QCOMPARE(solver.status().code, StatusCode::InvalidInput);
    const std::string message = solver.status().message;
    QVERIFY2(
        message.find("master") != std::string::npos && message.find("bundle") != std::string::npos,
        message.c_str());
    // A C whose planes the master LP cannot resolve is refused by both solvers up front (it
    // ran to the iteration limit with L = 0); the smallest C allowed still converges, with
    // U - L inside the stopping rule.
    auto tiny = mklOptions<SilpOptions>("gaussian:1;linear", 1e-3, 1e-3);
    tiny.kernel.C = 1e-15;
    const KernelProblem small{ringnormLike(1, 20, 2), nullptr};
    SilpSolver refused(small, tiny);
    auto tinyChunks = mklOptions<InterleavedSilpOptions>("gaussian:1;linear", 1e-3, 1e-3);
    tinyChunks.kernel.C = 1e-15;
    InterleavedSilpSolver refusedToo(small, tinyChunks);
    for (const Solver* s :
         {static_cast<const Solver*>(&refused), static_cast<const Solver*>(&refusedToo)}) {
        QCOMPARE(s->status().code, StatusCode::InvalidInput);
        QVERIFY2(s->status().message.find("C = 1e-15: must be >= 1e-12") != std::string::npos,
                 s->status().message.c_str());
    }
    tiny.kernel.C = 1e-12;
    SilpSolver smallest(small, tiny);
    QCOMPARE(solve(smallest).code, StatusCode::Converged);
    const IterationRecord& r = smallest.lastRecord();
    QVERIFY2(r.upper - r.lower <= 1e-3 * r.upper, qPrintable(numbers(r.upper, r.lower)));
}

// A newcomer's run: SimpleMKL with nothing but the kernels set reaches its tol_rel = 1e-3
// (converged, not its step limit) at SILP's objective.
void TestMklInterleaved::simpleMklDefaultsReachTolerance() {
    const KernelProblem problem{dataset("ionosphere"), nullptr};
    SimpleMklOptions options;
    options.kernel.kernels = kernelsOf("ionosphere");
    SimpleMklSolver simple(problem, options);
    QCOMPARE(solve(simple).code, StatusCode::Converged);
    const IterationRecord& r = simple.lastRecord();
    QVERIFY2(r.upper - r.lower <= 1e-3 * r.upper, qPrintable(numbers(r.upper, r.lower)));
    SilpSolver silp(problem, mklOptions<SilpOptions>(kernelsOf("ionosphere"), 1e-6, 1e-6));
    QCOMPARE(solve(silp).code, StatusCode::Converged);
    const double dStar = silp.lastRecord().upper;
    QVERIFY2(std::abs(r.upper - dStar) <= 1.5e-3 * dStar, qPrintable(numbers(r.upper, dStar)));
    QVERIFY2(r.lower <= dStar * (1 + 1e-5), qPrintable(numbers(r.lower, dStar)));
    qInfo("simplemkl defaults: %d steps, %lld SVM calls, U %.8g, L %.8g; SILP D* %.8g",
          simple.iteration(), r.oracleCalls, r.upper, r.lower, dStar);
}

// Stopped early, before any SMO chunk converged, the interleaved run's classifier (the model
// it saves) is the newest SMO iterate with the β that iterate was computed at, and the training
// error it reports is that classifier's, counted here from its decisions. (It used to pair the
// α of β_t with the LP's next β: 0.063 in `predict`, 0.022 reported, on heart_scale.)
void TestMklInterleaved::stoppedEarlyReportsItsModel() {
    const KernelProblem problem{dataset("ionosphere"), nullptr};
    const Dataset& train = *problem.train;
    for (int iterations = 1; iterations <= 6; ++iterations) {
        auto options = mklOptions<InterleavedSilpOptions>(kernelsOf("ionosphere"), 1e-6, 1e-6);
        options.stop.max_iterations = iterations;
        InterleavedSilpSolver solver(problem, options);
        QCOMPARE(solve(solver).code, StatusCode::IterationLimit);
        const auto snapshot = kernelSnapshot(solver);
        QVERIFY(snapshot && snapshot->classifier);
        const Eigen::VectorXd f = solver.classifier().decisions(train);
        int wrong = 0;
        for (int i = 0; i < train.size(); ++i)
            wrong += (f[i] > 0) != (train.labels[i] > 0);
        const double error = static_cast<double>(wrong) / train.size();
        QVERIFY2(std::abs(snapshot->trainError - error) < 0.5 / train.size(),
                 qPrintable(QString("after %1 chunks: reported %2, the model's %3")
                                .arg(iterations)
                                .arg(snapshot->trainError)
                                .arg(error)));
        QCOMPARE(solver.weights(), solver.classifier().beta);
    }
}

void TestMklInterleaved::wholeAndRowStorageSameObjective() {
    // Sonar, 40 Gaussians one per feature and width (continuous features: every kernel held per
    // example, 40 · 208² doubles = 13.8 MB): whole pair-major in double at 64 MB, rows at 1 MB.
    const auto data = dataset("sonar");
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(
        parseKernelList("gaussian:0.04,0.4,4,40@each_feature", data->dimension(), &specs, &why));
    specs.resize(40);
    KernelSet whole(data, specs, KernelNormalization::Trace, 64, KernelPrecision::Compact);
    KernelSet rows(data, specs, KernelNormalization::Trace, 1, KernelPrecision::Compact);
    QVERIFY(whole.pairMajor());
    QCOMPARE(whole.storage(), KernelStorage::WholeDouble);
    QCOMPARE(rows.storage(), KernelStorage::Rows);
    for (const Eigen::VectorXd& beta : simplexPoints(40, 3)) {
        double d[2];
        KernelSet* sets[2] = {&whole, &rows};
        for (int s = 0; s < 2; ++s) {
            KernelQ q(*sets[s], data->labels, beta, 8);
            Smo smo(q, SmoOptions{kC, 1e-10, true});
            smo.run(0, nullptr);
            d[s] = smo.dualObjective();
        }
        QVERIFY2(std::abs(d[0] - d[1]) <= 1e-9 * std::abs(d[1]), qPrintable(numbers(d[0], d[1])));
    }
}

void TestMklInterleaved::defaultCacheHoldsLargerSetsWhole() {
    // Ringnorm-like data (bench_mkl's), ten widths per feature: the MKL solvers' KernelSet
    // budget at the default cache_mb.
    const std::string widths = "gaussian:0.001,0.003,0.01,0.03,0.1,0.3,1,3,10,30@each_feature";
    for (const auto& [m, d] : {std::pair{500, 30}, std::pair{400, 20}}) {
        const std::shared_ptr<const Dataset> data = ringnormLike(7, m, d);
        std::vector<KernelSpec> specs;
        std::string why;
        QVERIFY(parseKernelList(widths, d, &specs, &why));
        // 300 kernels: 300 MB in float, 600 in double; 200: 128 and 256 MB (double fits, but a
        // pair-major block beyond 64 MB is held in float).
        KernelSet kernels(data, specs, KernelNormalization::Trace, mklKernelCacheMb(kMklCacheMb, m),
                          KernelPrecision::Compact);
        QCOMPARE(kernels.storage(), KernelStorage::WholeFloat);
        QVERIFY(kernels.pairMajor());
        if (m == 500) {  // half of the former default, 384 MB, left them to rows
            KernelSet former(data, specs, KernelNormalization::Trace, 192,
                             KernelPrecision::Compact);
            QCOMPARE(former.storage(), KernelStorage::Rows);
        }
    }
}

// On continuous features with many kernels the level method overshoots (planes with D_t > U):
// the interleaved solver's λ rises there (silp.h), and the run still ends at plain SILP's
// objective, with every lower bound below it.
void TestMklInterleaved::adaptiveLevelMeetsSilpOnContinuousFeatures() {
    const std::string widths = "gaussian:0.01,0.1,1,10@each_feature";
    const KernelProblem problem{ringnormLike(3, 160, 8), nullptr};
    SilpSolver silp(problem, mklOptions<SilpOptions>(widths, 1e-5, 1e-5));
    InterleavedSilpSolver interleaved(problem,
                                      mklOptions<InterleavedSilpOptions>(widths, 1e-5, 1e-5));
    QCOMPARE(interleaved.levelFraction(), kLevelFraction);
    QCOMPARE(solve(silp).code, StatusCode::Converged);
    const double a = silp.lastRecord().upper;
    double highest = 0.0;
    solve(interleaved, [&](const Solver&, const IterationRecord& r) {
        const double lambda = interleaved.levelFraction();
        QVERIFY(lambda >= kLevelFraction && lambda <= kLevelFractionMax);
        highest = std::max(highest, lambda);
        QVERIFY2(r.lower <= a * (1 + 1e-6), qPrintable(numbers(r.lower, a)));
    });
    QCOMPARE(interleaved.status().code, StatusCode::Converged);
    const double b = interleaved.lastRecord().upper;
    QVERIFY2(std::abs(a - b) <= 1e-4 * std::max(a, b), qPrintable(numbers(a, b)));
    QVERIFY2(b >= silp.lastRecord().lower * (1 - 1e-6), qPrintable(numbers(a, b)));
    QVERIFY2(highest >= 0.5, qPrintable(QString("highest lambda %1").arg(highest)));
    qInfo("U silp %.10g (%d SVMs), interleaved %.10g (%d chunks, %zu planes, lambda up to %.3f)", a,
          silp.iteration(), b, interleaved.iteration(), interleaved.planes().size(), highest);
}

QTEST_GUILESS_MAIN(TestMklInterleaved)
#include "test_mkl_interleaved.moc"
