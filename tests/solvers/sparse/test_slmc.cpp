// SPDX-License-Identifier: GPL-3.0-or-later
// SLMC (solvers/sparse/slmc.h, slmc_objective.h), each checked against an independent answer:
//   * ∇W(Z) against central finite differences of W on small random problems (n = 40, d = 3,
//     N_z = 4), Gaussian and polynomial kernels — two of them with a pair of nearly equal XVs,
//     so that K^z's eigenvalue floor is active and its own gradient terms are checked too
//     (dropping them makes those cases fail at ~4e-4);
//   * the paper's Example 1: with Z = the support vectors of the full SVM, W(Z) is the full
//     SVM's optimum (solved by LIBSVM, another implementation) and f is the full SVM's f;
//   * on Ripley's data, L-BFGS lowers W at every iteration, the lower bound (the full SVM's
//     dual) stays below, the errors are those of the classifier recounted by hand, the trail
//     ends at the current Z, and the run reaches a usable classifier;
//   * deterministic initialisation (random and k-means) for a seed, without duplicate XVs; the
//     trail's memory bound;
//   * bad options and data are refused with messages naming the field.
#include <QtTest>
#include <chrono>
#include <cmath>
#include <memory>

#include "core/number_text.h"
#include "data/csv_format.h"
#include "data/portable_random.h"
#include "kernel/libsvm_solver.h"
#include "record_columns.h"
#include "sparse/slmc.h"
#include "sparse/slmc_objective.h"
#include "sparse/xv_init.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

std::shared_ptr<const Dataset> ripley(const char* part) {
    LoadOptions options;
    options.binaryLabels = true;  // 0/1 → −1/+1
    const std::string base = kData + "/ripley_" + part;
    return std::make_shared<Dataset>(
        loadTableWithLabels(base + "_data.asc", base + "_labels.asc", {}, options));
}

// n points in d dimensions, N(0, 1) features, labels by the sign of a quadratic with label
// noise, so that no linear or Gaussian SVM separates them exactly (bounded and free α).
std::shared_ptr<const Dataset> randomProblem(int n, int d, std::uint64_t seed) {
    PortableRandom random(seed);
    auto data = std::make_shared<Dataset>();
    data->name = data->source = "random";
    data->dense.resize(n, d);
    data->labels.resize(n);
    for (int i = 0; i < n; ++i) {
        double score = -0.5;
        for (int j = 0; j < d; ++j) {
            data->dense(i, j) = random.normal();
            score += data->dense(i, j) * data->dense(i, j) / d + 0.3 * data->dense(i, j);
        }
        score += 0.3 * random.normal();
        data->labels[i] = score > 0 ? 1.0 : -1.0;
    }
    return data;
}

KernelSpec kernelSpec(const std::string& text, int dimension) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(text, dimension, &specs, &why)) qFatal("%s", why.c_str());
    return specs.front();
}

SummaryValue field(const SummaryFields& summary, const std::string& name) {
    for (const auto& [key, value] : summary)
        if (key == name) return value;
    return SummaryValue{};
}

}  // namespace

class TestSlmc : public QObject {
    Q_OBJECT

  private slots:
    void gradientMatchesFiniteDifferences_data();
    void gradientMatchesFiniteDifferences();
    void example1SupportVectorsGiveTheFullSvm_data();
    void example1SupportVectorsGiveTheFullSvm();
    void lbfgsDecreasesWOnRipley();
    void initialisationIsDeterministicAndDistinct();
    void trailStaysBoundedAndEven();
    void reportsTheVectorThatMovedMost();
    void optionsAreValidated();
    void badProblemsAreRefused();
};

void TestSlmc::gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<int>("seed");
    // XV 1 placed 0.005 from XV 0: K^z has an eigenvalue ~1e-5 of the largest, below a floor
    // of 1e-3, and the gradient includes the floor's terms (slmc_objective.h).
    QTest::addColumn<bool>("nearDuplicate");
    QTest::addColumn<double>("floor");
    QTest::newRow("gaussian:0.5 seed 1") << "gaussian:0.5" << 1 << false << 1e-10;
    QTest::newRow("gaussian:0.5 seed 2") << "gaussian:0.5" << 2 << false << 1e-10;
    QTest::newRow("gaussian:2 seed 3") << "gaussian:2" << 3 << false << 1e-10;
    QTest::newRow("poly:2 seed 4") << "poly:2" << 4 << false << 1e-10;
    QTest::newRow("poly:3,0.5 seed 5") << "poly:3,0.5" << 5 << false << 1e-10;
    QTest::newRow("gaussian:0.5 floored") << "gaussian:0.5" << 6 << true << 1e-3;
    QTest::newRow("poly:2 floored") << "poly:2" << 7 << true << 1e-3;
}

void TestSlmc::gradientMatchesFiniteDifferences() {
    QFETCH(QString, kernel);
    QFETCH(int, seed);
    QFETCH(bool, nearDuplicate);
    QFETCH(double, floor);
    const int n = 40, d = 3, nz = 4;
    const auto data = randomProblem(n, d, static_cast<std::uint64_t>(seed));
    const KernelSpec spec = kernelSpec(kernel.toStdString(), d);
    // The inner SVM solved far beyond the differences' resolution: W's error is second order
    // in α's, so a KKT tolerance of 1e-11 leaves W exact to ~1e-15 relative.
    const SlmcObjective objective(data, spec, SlmcObjectiveOptions{1.0, 1e-11, floor, 16});
    // XVs off the training points: N(0, 1) draws of another stream.
    PortableRandom random(static_cast<std::uint64_t>(seed) + 100);
    Eigen::MatrixXd Z(nz, d);
    for (int u = 0; u < nz; ++u)
        for (int j = 0; j < d; ++j)
            Z(u, j) = random.normal();
    if (nearDuplicate) Z.row(1) = Z.row(0) + 0.005 * Z.row(2).normalized();
    const SlmcEvaluation e = objective.evaluate(Z);
    QVERIFY(e.converged);
    QCOMPARE(e.flooredEigenvalues > 0, nearDuplicate);
    // α in the interior of the box for some examples and at C for others: a genuine SVM.
    QVERIFY2(e.supportVectors > 0, "no support vector");
    QVERIFY(std::abs(e.primal - e.value) <= 1e-8 * std::abs(e.value));

    const double h = 1e-5;
    Eigen::MatrixXd numeric(nz, d);
    for (int u = 0; u < nz; ++u) {
        for (int j = 0; j < d; ++j) {
            Eigen::MatrixXd plus = Z, minus = Z;
            plus(u, j) += h;
            minus(u, j) -= h;
            numeric(u, j) = (objective.evaluate(plus, &e.alpha).value -
                             objective.evaluate(minus, &e.alpha).value) /
                            (2 * h);
        }
    }
    const double relative = (numeric - e.gradient).norm() / e.gradient.norm();
    const double worst = (numeric - e.gradient).cwiseAbs().maxCoeff() / e.gradient.norm();
    qInfo("%s: W = %.10g, |grad W| = %.6g, relative error %.3g (worst entry %.3g), floored %d",
          qPrintable(kernel), e.value, e.gradient.norm(), relative, worst, e.flooredEigenvalues);
    QVERIFY2(e.gradient.norm() > 1e-6, "a vanishing gradient tests nothing");
    QVERIFY2(relative < 1e-4, qPrintable(QString("analytic\n%1\nnumeric\n%2")
                                             .arg(e.gradient(0, 0), 0, 'g', 12)
                                             .arg(numeric(0, 0), 0, 'g', 12)));
}

void TestSlmc::example1SupportVectorsGiveTheFullSvm_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::newRow("ripley gaussian:1 C=1") << "gaussian:1" << 1.0;
    QTest::newRow("ripley gaussian:10 C=10") << "gaussian:10" << 10.0;
    QTest::newRow("ripley poly:3 C=1") << "poly:3" << 1.0;
}

void TestSlmc::example1SupportVectorsGiveTheFullSvm() {
    QFETCH(QString, kernel);
    QFETCH(double, C);
    const auto train = ripley("train");
    const KernelSpec spec = kernelSpec(kernel.toStdString(), 2);
    // The full SVM by LIBSVM, solved tightly.
    const LibsvmResult full =
        solveWithLibsvm(*train, spec, KernelNormalization::None, C, 1e-10, true, 64);
    std::vector<int> sv;
    for (Eigen::Index i = 0; i < full.alpha.size(); ++i)
        if (full.alpha[i] > 0) sv.push_back(static_cast<int>(i));
    const Eigen::MatrixXd X = train->dense;
    Eigen::MatrixXd Z(static_cast<Eigen::Index>(sv.size()), 2);
    for (std::size_t k = 0; k < sv.size(); ++k)
        Z.row(static_cast<Eigen::Index>(k)) = X.row(sv[k]);

    const SlmcObjective objective(train, spec,
                                  SlmcObjectiveOptions{C, 1e-10, SlmcOptions{}.eigen_floor, 64});
    const SlmcEvaluation e = objective.evaluate(Z);
    const double relative = std::abs(e.value - full.dualObjective) / std::abs(full.dualObjective);
    qInfo(
        "%s C=%g: %d SVs, W(SVs) = %.12g, full SVM dual (LIBSVM) = %.12g, relative %.3g, "
        "floored eigenvalues %d",
        qPrintable(kernel), C, static_cast<int>(sv.size()), e.value, full.dualObjective, relative,
        e.flooredEigenvalues);
    QVERIFY2(relative <= 1e-6, qPrintable(QString::number(relative)));
    // And the classifier is the full SVM's: β_u = α_u y_u of the support vector z_u, the
    // decision values agree on the training set.
    Eigen::VectorXd coefficients(static_cast<Eigen::Index>(sv.size()));
    for (std::size_t k = 0; k < sv.size(); ++k)
        coefficients[static_cast<Eigen::Index>(k)] = full.alpha[sv[k]] * train->labels[sv[k]];
    const double scoreError =
        (e.trainScores -
         (objective.kernel().values(Z, X).transpose() * coefficients).array().matrix() -
         Eigen::VectorXd::Constant(X.rows(), full.bias))
            .cwiseAbs()
            .maxCoeff();
    qInfo("max |f_SLMC(x_i) - f_SVM(x_i)| = %.3g", scoreError);
    QVERIFY2(scoreError <= 1e-4, qPrintable(QString::number(scoreError)));
}

void TestSlmc::lbfgsDecreasesWOnRipley() {
    const auto train = ripley("train");
    const auto test = ripley("test");
    SlmcOptions options;
    options.kernel = "gaussian:2";
    options.C = 10.0;
    options.expansion_vectors = 10;
    options.seed = 7;
    options.full_svm = true;
    options.stop.max_iterations = 40;
    SlmcSolver solver({train, test}, options);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    QCOMPARE(solver.expansionVectors(), 10);
    const double full = solver.fullSvmObjective();
    QVERIFY(std::isfinite(full));

    const IterationRecord initial = solver.lastRecord();
    QCOMPARE(initial.lower, full);
    const auto start = std::chrono::steady_clock::now();
    const Status status = solve(solver);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY2(status.usable(), status.message.c_str());
    const auto& trace = solver.trace();
    QVERIFY(!trace.empty());
    qInfo(
        "%d iterations (%s), %.1f ms per step, %lld W evaluations; W %.8g -> %.8g, full SVM "
        "%.8g (%d SVs); test error %.4f",
        static_cast<int>(trace.size()), status.message.c_str(), 1e3 * seconds / trace.size(),
        trace.back().oracleCalls, initial.upper, trace.back().upper, full,
        solver.fullSvmSupportVectors(), column(solver, trace.back(), "test_error"));

    double previousDual = column(solver, initial, "inner_dual");
    double previousUpper = initial.upper;
    for (const IterationRecord& r : trace) {
        const double dual = column(solver, r, "inner_dual");
        // The line search's Armijo condition: W never increases.
        QVERIFY2(dual <= previousDual, qPrintable(QString("iteration %1: W rose from %2 to %3")
                                                      .arg(r.iteration)
                                                      .arg(previousDual, 0, 'g', 17)
                                                      .arg(dual, 0, 'g', 17)));
        // The reported upper bound is the inner primal: W up to the inner SMO's accuracy.
        QVERIFY(r.upper >= dual - 1e-9 * std::abs(dual));
        QVERIFY2(r.upper <= previousUpper + 1e-4 * std::abs(previousUpper),
                 qPrintable(QString("iteration %1: upper rose from %2 to %3")
                                .arg(r.iteration)
                                .arg(previousUpper)
                                .arg(r.upper)));
        // SLMC is the full SVM plus a constraint: its objective never goes below the full one.
        QVERIFY(r.lower == full);
        QVERIFY(r.lower <= dual);
        QCOMPARE(column(solver, r, "expansion_vectors"), 10.0);
        previousDual = dual;
        previousUpper = r.upper;
    }
    // Moving the XVs pays: W falls by a good part of its distance to the full SVM.
    const double last = trace.back().upper;
    QVERIFY2(initial.upper - last >= 0.2 * (initial.upper - full),
             qPrintable(QString("W %1 -> %2, full %3").arg(initial.upper).arg(last).arg(full)));

    // Errors recounted through the classifier (f = Σ β_u k(z_u, ·) + b).
    const KernelClassifier model = solver.classifier();
    QCOMPARE(column(solver, trace.back(), "train_error"), model.error(*train));
    QCOMPARE(column(solver, trace.back(), "test_error"), model.error(*test));
    // Ripley's Bayes error is about 8 %: ten moving XVs get close to it.
    QVERIFY2(model.error(*test) < 0.13, qPrintable(QString::number(model.error(*test))));

    const SummaryFields summary = solver.summary();
    QCOMPARE(std::get<double>(field(summary, "objective")), last);
    QCOMPARE(std::get<long long>(field(summary, "expansion_vectors")), 10LL);
    QCOMPARE(std::get<double>(field(summary, "test_error")), model.error(*test));
    QCOMPARE(std::get<double>(field(summary, "train_error")), model.error(*train));

    const auto snapshot = std::dynamic_pointer_cast<const SparseSnapshot>(solver.snapshot());
    QVERIFY(snapshot);
    QCOMPARE(snapshot->xvs, solver.current().Z);
    QVERIFY(!snapshot->trail.empty());
    QCOMPARE(snapshot->trail.size(), snapshot->trailIterations.size());
    QCOMPARE(snapshot->trail.back(), solver.current().Z);
    QCOMPARE(snapshot->trailIterations.front(), 0);
    QCOMPARE(snapshot->trailIterations.back(), solver.iteration());
    QCOMPARE(static_cast<int>(snapshot->fullSupportVectors.size()), solver.fullSvmSupportVectors());
    QCOMPARE(snapshot->grid.n, 60);
    QVERIFY(!snapshot->executedLines.empty());
    // The grid is the classifier's decision function: its value at a corner.
    Dataset corner;
    corner.name = corner.source = "corner";
    corner.dense.resize(1, 2);
    corner.dense << snapshot->grid.x0, snapshot->grid.y0;
    corner.labels = Eigen::VectorXd::Zero(1);
    QVERIFY(std::abs(snapshot->grid.values.front() - model.decision(corner, 0)) <= 1e-12);
}

void TestSlmc::initialisationIsDeterministicAndDistinct() {
    // A data set with duplicates: every point three times.
    const auto base = ripley("train");
    std::vector<int> rows;
    for (int copy = 0; copy < 3; ++copy)
        for (int i = 0; i < base->size(); ++i)
            rows.push_back(i);
    const Eigen::MatrixXd X = base->subset(rows).dense;
    const std::vector<int> distinct = distinctRows(X);
    QCOMPARE(distinct.size(), distinctRows(base->dense).size());
    for (int i : distinct)
        QVERIFY(i < base->size());  // the first occurrences
    for (const bool kmeans : {false, true}) {
        const auto init = [&](std::uint64_t seed) {
            return kmeans ? kmeansExpansionVectors(X, distinct, 50, seed)
                          : randomExpansionVectors(X, distinct, 50, seed);
        };
        const Eigen::MatrixXd a = init(3), b = init(3), c = init(4);
        QCOMPARE(a, b);
        QVERIFY(a != c);
        QCOMPARE(static_cast<int>(distinctRows(a).size()), 50);
    }
    // All distinct points requested: a permutation of them, no duplicate.
    const Eigen::MatrixXd all =
        randomExpansionVectors(X, distinct, static_cast<int>(distinct.size()), 9);
    QCOMPARE(distinctRows(all).size(), distinct.size());
}

void TestSlmc::trailStaysBoundedAndEven() {
    // Capacity 8 over 1000 iterations: never more than 8 entries, always from iteration 0 to the
    // newest, on the current stride in between (so evenly spread), each entry the Z added then.
    XvTrail trail(8);
    for (int it = 0; it <= 1000; ++it) {
        trail.add(it, Eigen::MatrixXd::Constant(2, 3, it));
        const std::vector<int>& iterations = trail.iterations();
        QVERIFY(iterations.size() <= 8);
        QCOMPARE(iterations.size(), trail.entries().size());
        QCOMPARE(iterations.front(), 0);
        QCOMPARE(iterations.back(), it);
        for (std::size_t k = 0; k + 1 < iterations.size(); ++k) {
            QCOMPARE(iterations[k] % trail.stride(), 0);
            QVERIFY(iterations[k] < iterations[k + 1]);
            QCOMPARE(trail.entries()[k](1, 2), double(iterations[k]));
        }
        if (it >= 16) QVERIFY(iterations.size() >= 4);  // capacity/2 at least once full
    }
    QCOMPARE(trail.stride(), 256);  // 1000 / 256 + 1 = 4 on-stride entries, plus the newest
}

void TestSlmc::optionsAreValidated() {
    std::string why;
    QVERIFY2(SlmcOptions{}.isValid(&why), why.c_str());
    // The options as the CLI and the GUI see them, and parsed from text.
    std::vector<std::string> names;
    for (const OptionInfo& info : describeOptions<SlmcOptions>())
        names.push_back(info.name);
    for (const char* name : {"kernel", "C", "expansion_vectors", "expansion_ratio", "init", "seed",
                             "max_iterations", "inner_tolerance", "eigen_floor"}) {
        QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(), name);
    }
    SlmcOptions parsed;
    QVERIFY2(assignOptions(parsed,
                           {{"init", "kmeans"},
                            {"expansion_vectors", "0"},
                            {"expansion_ratio", "0.05"},
                            {"kernel", "gaussian:0.5"}},
                           &why),
             why.c_str());
    QCOMPARE(parsed.init, std::string("kmeans"));
    QCOMPARE(parsed.expansion_ratio, 0.05);
    QVERIFY2(parsed.isValid(&why), why.c_str());
    struct Case {
        SlmcOptions options;
        const char* expected;
    };
    std::vector<Case> cases;
    const auto add = [&](auto change, const char* expected) {
        SlmcOptions o;
        change(o);
        cases.push_back({o, expected});
    };
    add([](SlmcOptions& o) { o.C = 0; }, "SlmcOptions::C = 0: must be a finite number > 0");
    add([](SlmcOptions& o) { o.expansion_vectors = -1; },
        "SlmcOptions::expansion_vectors = -1: must be >= 1");
    add([](SlmcOptions& o) { o.expansion_ratio = 0.1; },
        "set either expansion_vectors or expansion_ratio, not both");
    add(
        [](SlmcOptions& o) {
            o.expansion_vectors = 0;
            o.expansion_ratio = 1.5;
        },
        "SlmcOptions::expansion_ratio = 1.5: must lie in (0, 1]");
    add([](SlmcOptions& o) { o.expansion_vectors = 0; },
        "SlmcOptions::expansion_vectors = 0: is 0 and expansion_ratio is 0");
    add([](SlmcOptions& o) { o.init = "spectral"; },
        "SlmcOptions::init = 'spectral': must be random or kmeans");
    add([](SlmcOptions& o) { o.seed = -2; }, "SlmcOptions::seed = -2: must be >= 0");
    add([](SlmcOptions& o) { o.inner_tolerance = 0; },
        "SlmcOptions::inner_tolerance = 0: must be a finite number > 0");
    add([](SlmcOptions& o) { o.eigen_floor = 0.5; },
        "SlmcOptions::eigen_floor = 0.5: must lie in (0, 0.01]");
    add([](SlmcOptions& o) { o.lbfgs_memory = 0; },
        "SlmcOptions::lbfgs_memory = 0: must lie in [1, 100]");
    add([](SlmcOptions& o) { o.max_line_search = 1; },
        "SlmcOptions::max_line_search = 1: must lie in [2, 100]");
    add([](SlmcOptions& o) { o.gradient_tolerance = -1; }, "SlmcOptions::gradient_tolerance = -1");
    add([](SlmcOptions& o) { o.cache_mb = 0.5; }, "SlmcOptions::cache_mb = 0.5");
    add([](SlmcOptions& o) { o.stop.max_iterations = 0; },
        "SlmcOptions::max_iterations = 0: must be > 0");
    add([](SlmcOptions& o) { o.kernel = "gaussian:1;linear"; }, "2 kernels; one kernel is needed");
    add([](SlmcOptions& o) { o.kernel = "gauss:1"; }, "SlmcOptions::kernel = 'gauss:1'");
    add([](SlmcOptions& o) { o.kernel = "gaussian:-1"; }, "gamma");
    add([](SlmcOptions& o) { o.kernel = "precomputed"; }, "no input space");
    add([](SlmcOptions& o) { o.kernel = "gaussian:1@1"; }, "drop the '@' scope");
    const auto train = ripley("train");
    for (const Case& c : cases) {
        why.clear();
        QVERIFY(!c.options.isValid(&why));
        QVERIFY2(why.find(c.expected) != std::string::npos, why.c_str());
        SlmcSolver solver({train, nullptr}, c.options);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(solver.status().message.find(c.expected) != std::string::npos,
                 solver.status().message.c_str());
        // An inert solver: step() does nothing and says why.
        QCOMPARE(solver.step().code, StatusCode::InvalidInput);
        QVERIFY(solver.trace().empty());
        QVERIFY(solver.summary().empty());
    }
}

void TestSlmc::badProblemsAreRefused() {
    const auto train = ripley("train");
    {
        SlmcOptions o;
        o.expansion_vectors = 251;  // ripley has 250 distinct points
        SlmcSolver solver({train, nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(
            solver.status().message.find("251 expansion vectors requested") != std::string::npos &&
                solver.status().message.find("250 distinct points") != std::string::npos,
            solver.status().message.c_str());
    }
    {
        auto oneClass = std::make_shared<Dataset>(train->subset({0, 2, 4}));
        SlmcSolver solver({oneClass, nullptr}, SlmcOptions{});
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(solver.status().message.find("only one class") != std::string::npos,
                 solver.status().message.c_str());
    }
    {
        auto wide = std::make_shared<Dataset>(*train);
        wide->setDimension(3);
        SlmcSolver solver({train, wide}, SlmcOptions{});
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(solver.status().message.find("a test set may have fewer, not more") !=
                     std::string::npos,
                 solver.status().message.c_str());
    }
    {
        // expansion_ratio: N_z follows the full SVM's support vectors.
        SlmcOptions o;
        o.kernel = "gaussian:2";
        o.expansion_vectors = 0;
        o.expansion_ratio = 0.1;
        o.stop.max_iterations = 1;
        SlmcSolver solver({train, nullptr}, o);
        QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
        const int expected =
            std::max(1, static_cast<int>(std::lround(0.1 * solver.fullSvmSupportVectors())));
        QCOMPARE(solver.expansionVectors(), expected);
        QVERIFY(solver.fullSvmSupportVectors() > 10);
    }
}

void TestSlmc::reportsTheVectorThatMovedMost() {
    // Each step that moves Z names the expansion vector with the largest displacement between
    // the consecutive snapshots' xvs, and how far it moved.
    SlmcOptions options;
    options.kernel = "gaussian:2";
    options.C = 10.0;
    options.expansion_vectors = 6;
    options.seed = 3;
    options.stop.max_iterations = 15;
    SlmcSolver solver({ripley("train"), nullptr}, options);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    auto previous = std::dynamic_pointer_cast<const SparseSnapshot>(solver.snapshot());
    int moves = 0;
    while (!solver.status().finished()) {
        solver.step();
        const auto snap = std::dynamic_pointer_cast<const SparseSnapshot>(solver.snapshot());
        const Eigen::VectorXd displacement = (snap->xvs - previous->xvs).rowwise().norm();
        Eigen::Index most = 0;
        const double largest = displacement.maxCoeff(&most);
        QCOMPARE((snap->record.events & ExpansionVectorMoved) != 0, largest > 0);
        if (largest > 0) {
            ++moves;
            QCOMPARE(snap->events.size(), std::size_t(1));
            const std::string expected = "expansion vector " + std::to_string(most + 1) + " of 6" +
                                         " moved most (" + formatShort(largest) + ";";
            QCOMPARE(QString::fromStdString(snap->events.front().substr(0, expected.size())),
                     QString::fromStdString(expected));
        }
        previous = snap;
    }
    QVERIFY(moves >= 5);
}

QTEST_GUILESS_MAIN(TestSlmc)
#include "test_slmc.moc"
