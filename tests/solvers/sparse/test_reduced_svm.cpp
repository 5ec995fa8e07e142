// SPDX-License-Identifier: GPL-3.0-or-later
// The SLMC baselines with random fixed expansion vectors (solvers/sparse/reduced_svm.h), each
// against an independent answer on Ripley's data:
//   * rsvm = LIBSVM's linear SVM on the empirical kernel map ψ_z(x) (features built here with
//     the kernel module's kernelValue): same dual optimum, same β (= LIBSVM's w) and b;
//   * mrsvm = LIBSVM on the precomputed kernel K̂ = Ψᵀ(K^z)⁻¹Ψ (eq. 40, formed here by an LDLT
//     solve instead of the solver's eigen-decomposition): same dual optimum; and it is SLMC's
//     W at its (identical, same seed) starting point, which SLMC then lowers by moving Z;
//   * the bounds are a primal/dual pair at every iteration and the run ends by the KKT rule;
//   * options are validated with messages naming RsvmOptions / MrsvmOptions.
#include <Eigen/Cholesky>
#include <QtTest>
#include <cmath>
#include <memory>

#include "data/csv_format.h"
#include "kernel/kernel_set.h"
#include "kernel/libsvm_solver.h"
#include "record_columns.h"
#include "sparse/reduced_svm.h"
#include "sparse/slmc.h"
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

KernelSpec kernelSpec(const std::string& text) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(text, 2, &specs, &why)) qFatal("%s", why.c_str());
    return specs.front();
}

// Ψ = [k(z_u, x_i)] (N_z × n) by the kernel module's kernelValue, not the sparse module's.
Eigen::MatrixXd empiricalMap(const KernelSpec& spec, const Eigen::MatrixXd& Z,
                             const Dataset& train) {
    Dataset zs;
    zs.name = zs.source = "xvs";
    zs.dense = Z;
    zs.labels = Eigen::VectorXd::Zero(Z.rows());
    Eigen::MatrixXd Psi(Z.rows(), train.size());
    for (Eigen::Index u = 0; u < Z.rows(); ++u)
        for (int i = 0; i < train.size(); ++i)
            Psi(u, i) = kernelValue(spec, zs, static_cast<int>(u), train, i);
    return Psi;
}

RsvmOptions baseOptions(const std::string& kernel, double C, int nz, int seed) {
    RsvmOptions o;
    o.kernel = kernel;
    o.C = C;
    o.expansion_vectors = nz;
    o.seed = seed;
    o.kkt_tolerance = 1e-9;
    o.smo_steps = 20;
    return o;
}

void checkBoundsAndRule(const ReducedSvmSolver& solver) {
    QCOMPARE(solver.status().code, StatusCode::Converged);
    QVERIFY2(solver.status().message.find("KKT violation") != std::string::npos,
             solver.status().message.c_str());
    QVERIFY(solver.trace().size() >= 2);  // 20 pair updates per step: several steps
    double previous = 0.0;
    for (const IterationRecord& r : solver.trace()) {
        QVERIFY(r.lower <= r.upper + 1e-9 * std::abs(r.upper));
        QVERIFY(r.lower >= previous - 1e-12 * std::abs(previous));  // SMO never lowers D
        previous = r.lower;
    }
}

}  // namespace

class TestReducedSvm : public QObject {
    Q_OBJECT

  private slots:
    void rsvmIsLibsvmOnTheEmpiricalKernelMap_data();
    void rsvmIsLibsvmOnTheEmpiricalKernelMap();
    void mrsvmIsLibsvmOnTheProjectedKernel_data();
    void mrsvmIsLibsvmOnTheProjectedKernel();
    void optionsAreValidated();
};

void TestReducedSvm::rsvmIsLibsvmOnTheEmpiricalKernelMap_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::addColumn<int>("nz");
    QTest::newRow("gaussian:2 C=10 N_z=10") << "gaussian:2" << 10.0 << 10;
    QTest::newRow("poly:3 C=1 N_z=5") << "poly:3" << 1.0 << 5;
}

void TestReducedSvm::rsvmIsLibsvmOnTheEmpiricalKernelMap() {
    QFETCH(QString, kernel);
    QFETCH(double, C);
    QFETCH(int, nz);
    const auto train = ripley("train");
    const auto test = ripley("test");
    RsvmSolver solver({train, test}, baseOptions(kernel.toStdString(), C, nz, 3));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    solve(solver);
    checkBoundsAndRule(solver);

    const KernelSpec spec = kernelSpec(kernel.toStdString());
    const Eigen::MatrixXd& Z = solver.expansionVectors();
    QCOMPARE(static_cast<int>(Z.rows()), nz);
    Dataset features;
    features.name = features.source = "psi";
    features.dense = empiricalMap(spec, Z, *train).transpose();
    features.labels = train->labels;
    const LibsvmResult reference = solveWithLibsvm(features, kernelSpec("linear"),
                                                   KernelNormalization::None, C, 1e-12, true, 16);
    const double dual = solver.lastRecord().lower;
    const double relative =
        std::abs(dual - reference.dualObjective) / std::abs(reference.dualObjective);
    const Eigen::VectorXd w =
        features.dense.transpose() * reference.alpha.cwiseProduct(train->labels);
    const double betaError = (solver.beta() - w).norm() / w.norm();
    qInfo(
        "rsvm %s: dual %.12g, LIBSVM %.12g (relative %.3g); |beta - w|/|w| = %.3g, b %.8g vs "
        "%.8g; test error %.4f",
        qPrintable(kernel), dual, reference.dualObjective, relative, betaError, solver.bias(),
        reference.bias, column(solver, solver.lastRecord(), "test_error"));
    QVERIFY2(relative <= 1e-8, qPrintable(QString::number(relative)));
    QVERIFY2(betaError <= 1e-4, qPrintable(QString::number(betaError)));
    QVERIFY(std::abs(solver.bias() - reference.bias) <=
            1e-4 * std::max(1.0, std::abs(reference.bias)));
    // The reported errors are the classifier's f = Σ β_u k(z_u, ·) + b.
    const KernelClassifier model = solver.classifier();
    QCOMPARE(column(solver, solver.lastRecord(), "train_error"), model.error(*train));
    QCOMPARE(column(solver, solver.lastRecord(), "test_error"), model.error(*test));
}

void TestReducedSvm::mrsvmIsLibsvmOnTheProjectedKernel_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::addColumn<int>("nz");
    QTest::newRow("gaussian:2 C=10 N_z=10") << "gaussian:2" << 10.0 << 10;
    QTest::newRow("gaussian:0.5 C=1 N_z=6") << "gaussian:0.5" << 1.0 << 6;
}

void TestReducedSvm::mrsvmIsLibsvmOnTheProjectedKernel() {
    QFETCH(QString, kernel);
    QFETCH(double, C);
    QFETCH(int, nz);
    const auto train = ripley("train");
    MrsvmOptions options;
    static_cast<RsvmOptions&>(options) = baseOptions(kernel.toStdString(), C, nz, 5);
    MrsvmSolver solver({train, nullptr}, options);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    solve(solver);
    checkBoundsAndRule(solver);
    QCOMPARE(column(solver, solver.lastRecord(), "floored_eigenvalues"), 0.0);

    // K̂ = Ψᵀ (K^z)⁻¹ Ψ by an LDLT solve, given to LIBSVM as a precomputed kernel.
    const KernelSpec spec = kernelSpec(kernel.toStdString());
    const Eigen::MatrixXd& Z = solver.expansionVectors();
    const Eigen::MatrixXd Psi = empiricalMap(spec, Z, *train);
    Dataset zs;
    zs.name = zs.source = "xvs";
    zs.dense = Z;
    zs.labels = Eigen::VectorXd::Zero(Z.rows());
    const Eigen::MatrixXd Kz = empiricalMap(spec, Z, zs);
    Eigen::MatrixXd Khat = Psi.transpose() * Kz.ldlt().solve(Psi);
    Khat = 0.5 * (Khat + Khat.transpose()).eval();
    Dataset precomputed;
    precomputed.name = precomputed.source = "projected kernel";
    precomputed.dense = Khat;
    precomputed.labels = train->labels;
    KernelSpec pre;
    pre.type = KernelType::Precomputed;
    const LibsvmResult reference =
        solveWithLibsvm(precomputed, pre, KernelNormalization::None, C, 1e-12, true, 16);
    const double dual = solver.lastRecord().lower;
    const double relative =
        std::abs(dual - reference.dualObjective) / std::abs(reference.dualObjective);
    qInfo("mrsvm %s: dual %.12g, LIBSVM on K-hat %.12g (relative %.3g)", qPrintable(kernel), dual,
          reference.dualObjective, relative);
    QVERIFY2(relative <= 1e-7, qPrintable(QString::number(relative)));

    // SLMC with the same seed starts at the same Z with W = this optimum, and moving Z lowers it.
    SlmcOptions slmc;
    slmc.kernel = kernel.toStdString();
    slmc.C = C;
    slmc.expansion_vectors = nz;
    slmc.seed = 5;
    slmc.inner_tolerance = 1e-10;
    slmc.stop.max_iterations = 20;
    SlmcSolver moving({train, nullptr}, slmc);
    QVERIFY2(moving.status().code != StatusCode::InvalidInput, moving.status().message.c_str());
    QCOMPARE(moving.current().Z, Z);
    const double start = column(moving, moving.lastRecord(), "inner_dual");
    QVERIFY2(std::abs(start - reference.dualObjective) <= 1e-7 * reference.dualObjective,
             qPrintable(QString("SLMC's W at start %1, MRSVM %2").arg(start).arg(dual)));
    QVERIFY(solve(moving).usable());
    const double moved = column(moving, moving.lastRecord(), "inner_dual");
    qInfo("SLMC from the same Z: W %.10g -> %.10g after %d iterations", start, moved,
          moving.iteration());
    QVERIFY(moved < start - 1e-3 * start);
}

void TestReducedSvm::optionsAreValidated() {
    std::string why;
    QVERIFY2(RsvmOptions{}.isValid(&why), why.c_str());
    QVERIFY2(MrsvmOptions{}.isValid(&why), why.c_str());
    const auto train = ripley("train");
    {
        RsvmOptions o;
        o.smo_steps = 0;
        QVERIFY(!o.isValid(&why));
        QVERIFY2(why.find("RsvmOptions::smo_steps = 0: must be >= 1") != std::string::npos,
                 why.c_str());
        RsvmSolver solver({train, nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QCOMPARE(solver.status().message, why);
        QCOMPARE(solver.step().code, StatusCode::InvalidInput);
        QVERIFY(solver.summary().empty());
    }
    {
        MrsvmOptions o;
        o.eigen_floor = 0;
        QVERIFY(!o.isValid(&why));
        QVERIFY2(
            why.find("MrsvmOptions::eigen_floor = 0: must lie in (0, 0.01]") != std::string::npos,
            why.c_str());
        MrsvmSolver solver({train, nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QCOMPARE(solver.status().message, why);
    }
    {
        MrsvmOptions o;
        o.kkt_tolerance = -1;
        MrsvmSolver solver({train, nullptr}, o);
        QVERIFY2(
            solver.status().message.find("MrsvmOptions::kkt_tolerance = -1") != std::string::npos,
            solver.status().message.c_str());
    }
    {
        RsvmOptions o;
        o.kernel = "precomputed";
        RsvmSolver solver({train, nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(solver.status().message.find("RsvmOptions::kernel = 'precomputed'") !=
                     std::string::npos,
                 solver.status().message.c_str());
    }
    {
        RsvmOptions o;
        o.expansion_vectors = 1000;
        RsvmSolver solver({train, nullptr}, o);
        QVERIFY2(
            solver.status().message.find("1000 expansion vectors requested") != std::string::npos,
            solver.status().message.c_str());
    }
}

QTEST_GUILESS_MAIN(TestReducedSvm)
#include "test_reduced_svm.moc"
