// SPDX-License-Identifier: GPL-3.0-or-later
// The `svm` solver (solvers/kernel/svm.h) driven through solve(): it ends Converged by the KKT
// rule with the dual objective of the same SMO run directly and of LIBSVM (an independent
// implementation); its bounds are a primal/dual pair; its snapshot on ripley's 2-D data has
// a 60 × 60 decision grid whose values (and signs) are the classifier's own decisions; the
// error columns agree with a recount through KernelClassifier (the test error where it is
// recomputed, see svm.cpp); lists of two kernels and bad options are refused with messages.
#include <QtTest>
#include <cmath>
#include <memory>

#include "data/csv_format.h"
#include "data/libsvm_format.h"
#include "kernel/kernel_set.h"
#include "kernel/libsvm_solver.h"
#include "kernel/smo.h"
#include "kernel/svm.h"
#include "record_columns.h"
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

std::shared_ptr<const Dataset> dataset(const QString& name) {
    if (name == "ripley") return ripley("train");
    if (name == "sonar") return std::make_shared<Dataset>(loadCsv(kData + "/sonar.all-data"));
    return std::make_shared<Dataset>(loadLibsvm(kData + "/" + name.toStdString()));
}

SvmOptions svmOptions(const std::string& kernel, double C, double tolerance, int smoSteps) {
    SvmOptions o;
    o.kernel.kernels = kernel;
    o.kernel.C = C;
    o.kernel.kkt_tolerance = tolerance;
    o.smo_steps = smoSteps;
    return o;
}

}  // namespace

class TestSvmSolver : public QObject {
    Q_OBJECT

  private slots:
    void convergesLikeSmoAndLibsvm_data();
    void convergesLikeSmoAndLibsvm();
    void snapshotGridOnRipley();
    void errorsAgreeWithARecount();
    void refusesKernelLists_data();
    void refusesKernelLists();
    void optionsAreValidated();
};

void TestSvmSolver::convergesLikeSmoAndLibsvm_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::addColumn<bool>("shrinking");
    QTest::newRow("ripley gaussian:2 C=1") << "ripley"
                                           << "gaussian:2" << 1.0 << true;
    QTest::newRow("heart_scale gaussian:0.05 C=10") << "heart_scale"
                                                    << "gaussian:0.05" << 10.0 << true;
    QTest::newRow("heart_scale poly:2 C=0.1 no shrinking") << "heart_scale"
                                                           << "poly:2" << 0.1 << false;
    QTest::newRow("sonar gaussian:1 C=5") << "sonar"
                                          << "gaussian:1" << 5.0 << true;
    QTest::newRow("sonar linear C=1") << "sonar"
                                      << "linear" << 1.0 << true;
}

void TestSvmSolver::convergesLikeSmoAndLibsvm() {
    QFETCH(QString, data);
    QFETCH(QString, kernel);
    QFETCH(double, C);
    QFETCH(bool, shrinking);
    const auto train = dataset(data);
    const double tolerance = 1e-5;
    SvmOptions options = svmOptions(kernel.toStdString(), C, tolerance, 50);
    options.kernel.shrinking = shrinking;
    SvmSolver solver({train, nullptr}, options);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    const Status status = solve(solver);
    QCOMPARE(status.code, StatusCode::Converged);
    QVERIFY2(status.message.find("KKT violation") != std::string::npos, status.message.c_str());
    const IterationRecord& last = solver.lastRecord();
    QVERIFY(column(solver, last, "kkt_violation") <= tolerance);
    QCOMPARE(column(solver, last, "dual_objective"), last.lower);
    QCOMPARE(column(solver, last, "svm_calls"), 1.0);
    QCOMPARE(column(solver, last, "beta:" + solver.specs().front().label()), 1.0);

    // The bounds are a primal/dual pair: L ≤ U at every iteration, and SMO never lowers D.
    double previous = 0.0;
    for (const IterationRecord& r : solver.trace()) {
        QVERIFY2(r.lower <= r.upper + 1e-9 * std::abs(r.upper),
                 qPrintable(QString("iteration %1: dual %2 above primal %3")
                                .arg(r.iteration)
                                .arg(r.lower, 0, 'g', 17)
                                .arg(r.upper, 0, 'g', 17)));
        QVERIFY2(r.lower >= previous - 1e-12 * std::abs(previous),
                 qPrintable(QString("iteration %1: dual fell from %2 to %3")
                                .arg(r.iteration)
                                .arg(previous, 0, 'g', 17)
                                .arg(r.lower, 0, 'g', 17)));
        previous = r.lower;
    }

    // The same SMO run directly, in one call.
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(parseKernelList(kernel.toStdString(), train->dimension(), &specs, &why));
    auto plusMinus = std::make_shared<Dataset>(*train);
    if (plusMinus->classes() != std::vector<double>{-1.0, 1.0}) plusMinus->makeBinaryLabels();
    KernelSet kernels(plusMinus, specs, KernelNormalization::None, 64);
    KernelQ q(kernels, plusMinus->labels, Eigen::VectorXd::Ones(1), 64);
    Smo smo(q, SmoOptions{C, tolerance, shrinking});
    QVERIFY(smo.run(0).converged);
    const double direct = smo.dualObjective();
    QVERIFY2(std::abs(last.lower - direct) <= 1e-9 * std::abs(direct),
             qPrintable(QString("svm solver's dual %1, SMO run directly %2")
                            .arg(last.lower, 0, 'g', 17)
                            .arg(direct, 0, 'g', 17)));

    // LIBSVM's optimum, an independent implementation with the same stopping rule: both duals
    // lie within the KKT tolerance's reach of D*, far closer than 1e-5 relative.
    const LibsvmResult reference =
        solveWithLibsvm(*plusMinus, specs.front(), KernelNormalization::None, C, 1e-8, true, 64);
    QVERIFY2(
        std::abs(last.lower - reference.dualObjective) <= 1e-5 * std::abs(reference.dualObjective),
        qPrintable(QString("svm solver's dual %1, LIBSVM's (eps 1e-8) %2")
                       .arg(last.lower, 0, 'g', 17)
                       .arg(reference.dualObjective, 0, 'g', 17)));
    // The primal objective at the end closes the gap to the KKT tolerance's order.
    QVERIFY2(last.upper - last.lower <= 1e-3 * std::abs(last.lower),
             qPrintable(QString("primal %1, dual %2").arg(last.upper).arg(last.lower)));
}

void TestSvmSolver::snapshotGridOnRipley() {
    const auto train = ripley("train");
    SvmSolver solver({train, nullptr}, svmOptions("gaussian:5", 10.0, 1e-3, 20));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());

    // Mid-run (after one step of 20 pair updates) and at the end.
    for (int round = 0; round < 2; ++round) {
        if (round == 0) {
            solver.step();
        } else {
            QCOMPARE(solve(solver).code, StatusCode::Converged);
        }
        const auto snapshot = std::dynamic_pointer_cast<const KernelSnapshot>(solver.snapshot());
        QVERIFY(snapshot);
        QCOMPARE(snapshot->solver, std::string("svm"));
        QCOMPARE(snapshot->kernelLabels, std::vector<std::string>{"gaussian:5"});
        QVERIFY(!snapshot->executedLines.empty());
        const int m = train->size();
        QCOMPARE(static_cast<int>(snapshot->alpha.size()), m);
        QVERIFY(snapshot->alpha.minCoeff() >= 0.0);
        QVERIFY(snapshot->alpha.maxCoeff() <= 10.0);
        QVERIFY(std::abs(snapshot->alpha.dot(train->labels)) <= 1e-9 * 10.0 * m);
        QCOMPARE(snapshot->alpha, solver.smo().alpha());
        const int support = static_cast<int>((snapshot->alpha.array() > 0).count());
        QCOMPARE(support, static_cast<int>(column(solver, solver.lastRecord(), "support_vectors")));

        // The grid: 60 × 60 over the data's box padded by 5 %.
        const DecisionGrid& grid = snapshot->grid;
        QCOMPARE(grid.n, 60);
        QCOMPARE(static_cast<int>(grid.values.size()), 60 * 60);
        const Eigen::VectorXd x = train->dense.col(0);
        const Eigen::VectorXd y = train->dense.col(1);
        const double padX = 0.05 * (x.maxCoeff() - x.minCoeff());
        const double padY = 0.05 * (y.maxCoeff() - y.minCoeff());
        QVERIFY(std::abs(grid.x0 - (x.minCoeff() - padX)) <= 1e-12);
        QVERIFY(std::abs(grid.x1 - (x.maxCoeff() + padX)) <= 1e-12);
        QVERIFY(std::abs(grid.y0 - (y.minCoeff() - padY)) <= 1e-12);
        QVERIFY(std::abs(grid.y1 - (y.maxCoeff() + padY)) <= 1e-12);

        // Every grid value is the classifier's decision at that point (and so has its sign).
        Dataset points;
        points.name = points.source = "grid";
        points.dense.resize(grid.n * grid.n, 2);
        points.labels = Eigen::VectorXd::Zero(grid.n * grid.n);
        for (int iy = 0; iy < grid.n; ++iy) {
            for (int ix = 0; ix < grid.n; ++ix) {
                points.dense(iy * grid.n + ix, 0) =
                    grid.x0 + ix * (grid.x1 - grid.x0) / (grid.n - 1);
                points.dense(iy * grid.n + ix, 1) =
                    grid.y0 + iy * (grid.y1 - grid.y0) / (grid.n - 1);
            }
        }
        const Eigen::VectorXd f = solver.classifier().decisions(points);
        QVERIFY(snapshot->classifier);
        int positive = 0;
        for (int p = 0; p < grid.n * grid.n; ++p) {
            const double v = grid.values[static_cast<std::size_t>(p)];
            QVERIFY2(std::abs(v - f[p]) <= 1e-9 * std::max(1.0, std::abs(f[p])),
                     qPrintable(QString("grid point %1: %2, decision %3").arg(p).arg(v).arg(f[p])));
            QCOMPARE(v > 0, f[p] > 0);
            positive += v > 0;
        }
        if (round == 1) {
            // Ripley's classes meet inside the box: both signs appear on the grid.
            QVERIFY(positive > 0 && positive < grid.n * grid.n);
        }
    }
}

void TestSvmSolver::errorsAgreeWithARecount() {
    const auto train = ripley("train");
    const auto test = ripley("test");
    SvmSolver solver({train, test}, svmOptions("gaussian:2", 100.0, 1e-3, 30));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    int checked = 0;
    int testUpdates = 0;
    // The initial record (α = 0) has the errors of its classifier too.
    double previousTest = column(solver, solver.lastRecord(), "test_error");
    QCOMPARE(previousTest, solver.classifier().error(*test));
    while (!solver.status().finished()) {
        solver.step();
        const KernelClassifier model = solver.classifier();
        // Recount: decisions of the classifier against the labels, by hand.
        const auto recount = [&](const Dataset& data) {
            const Eigen::VectorXd f = model.decisions(data);
            int wrong = 0;
            for (int i = 0; i < data.size(); ++i)
                wrong += (f[i] > 0) != (data.labels[i] > 0);
            return static_cast<double>(wrong) / data.size();
        };
        // The training error is the current classifier's at every iteration (read off SMO's
        // gradient, so this also checks that gradient against the classifier).
        const double trainError = column(solver, solver.lastRecord(), "train_error");
        QCOMPARE(trainError, recount(*train));
        QCOMPARE(trainError, model.error(*train));
        // The test error is the current classifier's, or the previous record's held while
        // its cost is spread over SMO steps; at the end it is the final classifier's.
        const double testError = column(solver, solver.lastRecord(), "test_error");
        const double current = recount(*test);
        QCOMPARE(current, model.error(*test));
        if (testError == current) {
            testUpdates += testError != previousTest;
        } else {
            QCOMPARE(testError, previousTest);
        }
        previousTest = testError;
        ++checked;
    }
    QCOMPARE(column(solver, solver.lastRecord(), "test_error"), solver.classifier().error(*test));
    QVERIFY2(testUpdates >= 2, qPrintable(QString::number(testUpdates)));
    qInfo("%d iterations, test error recomputed %d times", checked, testUpdates);
    QCOMPARE(solver.status().code, StatusCode::Converged);
    QVERIFY(checked >= 2);
    // Ripley's Bayes error is about 8 %: a trained Gaussian SVM is close to it.
    const double testError = column(solver, solver.lastRecord(), "test_error");
    QVERIFY2(testError > 0.05 && testError < 0.15, qPrintable(QString::number(testError)));
    const SummaryFields summary = solver.summary();
    const auto field = [&](const std::string& name) {
        for (const auto& [key, value] : summary)
            if (key == name) return value;
        return SummaryValue{};
    };
    QCOMPARE(std::get<double>(field("test_error")), testError);
    QCOMPARE(std::get<long long>(field("svm_calls")), 1LL);
    QCOMPARE(std::get<double>(field("objective")), solver.lastRecord().upper);
    const NamedValues weights = std::get<NamedValues>(field("weights"));
    QCOMPARE(weights.size(), std::size_t(1));
    QCOMPARE(weights[0].first, std::string("gaussian:2"));
    QCOMPARE(weights[0].second, 1.0);
}

void TestSvmSolver::refusesKernelLists_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QString>("expected");
    QTest::newRow("two kernels") << "gaussian:1;linear"
                                 << "one kernel";
    QTest::newRow("two gammas") << "gaussian:0.1,1"
                                << "one kernel";
    QTest::newRow("each feature") << "linear@each_feature"
                                  << "one kernel";
    QTest::newRow("unknown word") << "gauss:1"
                                  << "gauss";
    QTest::newRow("gamma <= 0") << "gaussian:-1"
                                << "gamma";
    QTest::newRow("feature beyond d") << "linear@3"
                                      << "outside 1..2";
}

void TestSvmSolver::refusesKernelLists() {
    QFETCH(QString, kernel);
    QFETCH(QString, expected);
    SvmSolver solver({ripley("train"), nullptr}, svmOptions(kernel.toStdString(), 1.0, 1e-3, 10));
    QCOMPARE(solver.status().code, StatusCode::InvalidInput);
    QVERIFY2(solver.status().message.find(expected.toStdString()) != std::string::npos,
             solver.status().message.c_str());
    QVERIFY2(solver.status().message.find("SvmOptions") != std::string::npos,
             solver.status().message.c_str());
    // An inert solver: step() does nothing and says why.
    QCOMPARE(solver.step().code, StatusCode::InvalidInput);
    QVERIFY(solver.trace().empty());
    QVERIFY(solver.summary().empty());
}

void TestSvmSolver::optionsAreValidated() {
    std::string why;
    QVERIFY2(SvmOptions{}.isValid(&why), why.c_str());
    struct Case {
        SvmOptions options;
        const char* expected;
    };
    std::vector<Case> cases;
    {
        SvmOptions o;
        o.smo_steps = 0;
        cases.push_back({o, "SvmOptions::smo_steps = 0: must be >= 1"});
    }
    {
        SvmOptions o;
        o.kernel.C = 0;
        cases.push_back({o, "SvmOptions::C = 0: must be a finite number > 0"});
    }
    {
        SvmOptions o;
        o.kernel.kkt_tolerance = -1e-3;
        cases.push_back({o, "SvmOptions::kkt_tolerance = -0.001"});
    }
    {
        SvmOptions o;
        o.kernel.cache_mb = 0.5;
        cases.push_back({o, "SvmOptions::cache_mb = 0.5: must be a finite number >= 1"});
    }
    {
        SvmOptions o;
        o.kernel.normalize = "unit";
        cases.push_back({o, "SvmOptions::normalize = 'unit'"});
    }
    {
        SvmOptions o;
        o.kernel.kernels = "";
        cases.push_back({o, "empty kernel list"});
    }
    for (const Case& c : cases) {
        why.clear();
        QVERIFY(!c.options.isValid(&why));
        QVERIFY2(why.find(c.expected) != std::string::npos, why.c_str());
        SvmSolver solver({ripley("train"), nullptr}, c.options);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(solver.status().message.find(c.expected) != std::string::npos,
                 solver.status().message.c_str());
    }
    // One class only.
    auto oneClass = std::make_shared<Dataset>(ripley("train")->subset({0, 2, 4}));
    SvmSolver solver({oneClass, nullptr}, SvmOptions{});
    QCOMPARE(solver.status().code, StatusCode::InvalidInput);
    QVERIFY2(solver.status().message.find("only one class") != std::string::npos,
             solver.status().message.c_str());
}

QTEST_GUILESS_MAIN(TestSvmSolver)
#include "test_svm_solver.moc"
