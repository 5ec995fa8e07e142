// SPDX-License-Identifier: GPL-3.0-or-later
// The reduced-set baselines rs and mrs (solvers/sparse/reduced_set.h), each against an
// independent answer on Ripley's data:
//   * with Z = the full SVM's support vectors, eq. 47 gives back the SVM: ‖w − w_z‖² = 0 and the
//     decisions equal Σᵢ αᵢyᵢ k(xᵢ, x) + b summed here with the kernel module's kernelValue;
//   * the fixed point of the Gaussian pre-image iteration is a stationary point of
//     s(z)² = (Σ a_p k(p_p, z))², by central finite differences (and its start is not);
//   * along an rs run ‖w − w_z‖² never increases, and the reported value equals the triple
//     kernel sum ‖Σcφ(x) − Σβφ(z)‖² computed here; the first vector projects at least as much as
//     the best support vector; the errors are the classifier's;
//   * mrs places the same vectors as rs, and its restricted SVM's optimum equals LIBSVM's on the
//     precomputed kernel K̂ = Ψᵀ(K^z)⁻¹Ψ (eq. 40);
//   * options are validated with messages naming RsOptions / MrsOptions.
#include <Eigen/Cholesky>
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <memory>

#include "data/csv_format.h"
#include "kernel/kernel_set.h"
#include "kernel/libsvm_solver.h"
#include "record_columns.h"
#include "sparse/reduced_set.h"
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

Dataset rows(const Eigen::MatrixXd& M) {
    Dataset d;
    d.name = d.source = "rows";
    d.dense = M;
    d.labels = Eigen::VectorXd::Zero(M.rows());
    return d;
}

// K(A, B) by the kernel module's kernelValue (not the sparse module's XvKernel).
Eigen::MatrixXd gram(const KernelSpec& spec, const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    const Dataset a = rows(A), b = rows(B);
    Eigen::MatrixXd K(A.rows(), B.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < B.rows(); ++j)
            K(i, j) = kernelValue(spec, a, static_cast<int>(i), b, static_cast<int>(j));
    return K;
}

RsOptions options(const std::string& kernel, double C, int nz) {
    RsOptions o;
    o.kernel = kernel;
    o.C = C;
    o.expansion_vectors = nz;
    o.seed = 7;
    o.full_tolerance = 1e-6;
    o.inner_tolerance = 1e-8;
    return o;
}

}  // namespace

class TestReducedSet : public QObject {
    Q_OBJECT

  private slots:
    void supportVectorsReproduceTheSvm();
    void fixedPointIsStationary();
    void errorFallsAndEqualsKernelSums_data();
    void errorFallsAndEqualsKernelSums();
    void mrsIsLibsvmOnTheProjectedKernel();
    void optionsAreValidated();
};

void TestReducedSet::supportVectorsReproduceTheSvm() {
    const auto train = ripley("train");
    const auto test = ripley("test");
    const std::string kernel = "gaussian:2";
    RsSolver solver({train, test}, options(kernel, 10.0, 1));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    const KernelSpec spec = kernelSpec(kernel);
    const Eigen::MatrixXd& Xs = solver.supportVectorRows();
    const Eigen::VectorXd& c = solver.supportCoefficients();
    const double wNorm2 = c.dot(gram(spec, Xs, Xs) * c);
    QVERIFY(std::abs(wNorm2 - solver.wNormSquared()) <= 1e-10 * wNorm2);

    const XvKernel xv(spec);
    const ReducedSetFit fit = reducedSetCoefficients(xv, Xs, Xs, c, wNorm2, 1e-13);
    qInfo("Z = the %d SVs: |w - w_z|^2 = %.3g (|w|^2 = %.6g), |beta - c|/|c| = %.3g, floored %d",
          static_cast<int>(Xs.rows()), fit.error, wNorm2, (fit.beta - c).norm() / c.norm(),
          fit.flooredEigenvalues);
    QVERIFY2(fit.error <= 1e-8 * wNorm2, qPrintable(QString::number(fit.error)));

    // Decisions of Σ β_u k(z_u, x) + b against the full SVM summed by hand.
    const KernelClassifier reduced =
        sparseClassifier(spec, Xs, fit.beta, solver.fullSvm().bias, {0.0, 1.0});
    Eigen::MatrixXd testX(test->size(), 2);
    for (int i = 0; i < test->size(); ++i)
        testX.row(i) = test->row(i).transpose();
    const Eigen::VectorXd svm =
        gram(spec, testX, Xs) * c + Eigen::VectorXd::Constant(test->size(), solver.fullSvm().bias);
    const Eigen::VectorXd ours = reduced.decisions(*test);
    const double difference = (ours - svm).cwiseAbs().maxCoeff();
    qInfo("max |f_z(x) - f_svm(x)| over %d test points: %.3g", test->size(), difference);
    QVERIFY2(difference <= 1e-5, qPrintable(QString::number(difference)));
}

void TestReducedSet::fixedPointIsStationary() {
    const auto train = ripley("train");
    const std::string kernel = "gaussian:2";
    RsSolver solver({train, nullptr}, options(kernel, 10.0, 1));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    const KernelSpec spec = kernelSpec(kernel);
    const Eigen::MatrixXd& Xs = solver.supportVectorRows();
    const Eigen::VectorXd& c = solver.supportCoefficients();
    const XvKernel xv(spec);
    // g(z) = (Σ cᵢ k(xᵢ, z))² by kernelValue sums, its gradient by central differences.
    const auto g = [&](const Eigen::VectorXd& z) {
        const double s = (gram(spec, z.transpose(), Xs) * c)(0);
        return s * s;
    };
    const auto fdGradient = [&](const Eigen::VectorXd& z) {
        Eigen::VectorXd grad(z.size());
        const double h = 1e-6;
        for (Eigen::Index j = 0; j < z.size(); ++j) {
            Eigen::VectorXd p = z, m = z;
            p[j] += h;
            m[j] -= h;
            grad[j] = (g(p) - g(m)) / (2 * h);
        }
        return grad;
    };
    int checked = 0;
    for (Eigen::Index start = 0; start < Xs.rows() && checked < 5; start += 7) {
        const PreimageResult r =
            gaussianPreimage(xv, Xs, c, Xs.row(start).transpose(), 1000, 1e-12);
        if (!r.converged) continue;
        ++checked;
        const double atFixed = fdGradient(r.z).norm();
        const double atStart = fdGradient(Xs.row(start).transpose()).norm();
        qInfo(
            "start %d: %d iterations, s(z)^2 = %.6g; |grad g| at the fixed point %.3g, at the "
            "start %.3g",
            static_cast<int>(start), r.iterations, g(r.z), atFixed, atStart);
        QVERIFY(std::abs(r.projection * r.projection - g(r.z)) <= 1e-10 * g(r.z));
        QVERIFY2(atFixed <= 1e-6 * std::max(1.0, g(r.z)), qPrintable(QString::number(atFixed)));
        QVERIFY(atStart > 1e3 * atFixed);
    }
    QVERIFY2(checked >= 2, "too few starts converged");
}

void TestReducedSet::errorFallsAndEqualsKernelSums_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::addColumn<int>("nz");
    QTest::newRow("gaussian:2 C=10 N_z=8") << "gaussian:2" << 10.0 << 8;
    QTest::newRow("gaussian:0.5 C=1 N_z=5") << "gaussian:0.5" << 1.0 << 5;
}

void TestReducedSet::errorFallsAndEqualsKernelSums() {
    QFETCH(QString, kernel);
    QFETCH(double, C);
    QFETCH(int, nz);
    const auto train = ripley("train");
    const auto test = ripley("test");
    RsSolver solver({train, test}, options(kernel.toStdString(), C, nz));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    const Status status = solve(solver);
    QCOMPARE(status.code, StatusCode::Converged);
    QCOMPARE(solver.iteration(), nz);
    QCOMPARE(static_cast<int>(solver.expansionVectors().rows()), nz);
    double previous = solver.wNormSquared() * (1 + 1e-12);
    for (const IterationRecord& r : solver.trace()) {
        QCOMPARE(r.events, std::uint32_t(ExpansionVectorAdded));  // one vector per step
        const double e = column(solver, r, "approximation_error");
        QVERIFY2(e <= previous * (1 + 1e-9), qPrintable(QString("%1 > %2").arg(e).arg(previous)));
        QCOMPARE(r.upper, e);
        previous = e;
    }
    // The first vector projects at least as much as the best support vector.
    const double first = column(solver, solver.trace().front(), "projection");
    const KernelSpec spec = kernelSpec(kernel.toStdString());
    const Eigen::MatrixXd& Xs = solver.supportVectorRows();
    const Eigen::VectorXd& c = solver.supportCoefficients();
    const Eigen::VectorXd atSvs = gram(spec, Xs, Xs) * c;
    QVERIFY(first * first >= atSvs.cwiseAbs2().maxCoeff() * (1 - 1e-12));

    // ρ = cᵀK^{xx}c − 2 βᵀK^{zx}c + βᵀK^zβ by kernelValue sums.
    const Eigen::MatrixXd& Z = solver.expansionVectors();
    const Eigen::VectorXd& beta = solver.beta();
    const double rho = c.dot(gram(spec, Xs, Xs) * c) - 2 * beta.dot(gram(spec, Z, Xs) * c) +
                       beta.dot(gram(spec, Z, Z) * beta);
    qInfo(
        "rs %s N_z = %d of %d SVs: |w - w_z|^2 = %.8g (by kernel sums %.8g), relative %.4g; "
        "test error %.4f",
        qPrintable(kernel), nz, static_cast<int>(Xs.rows()), solver.approximationError(), rho,
        solver.approximationError() / solver.wNormSquared(),
        column(solver, solver.lastRecord(), "test_error"));
    QVERIFY(std::abs(rho - solver.approximationError()) <= 1e-8 * solver.wNormSquared());
    const std::vector<std::string> events = solver.snapshot()->events;
    QCOMPARE(events.size(), std::size_t(1));
    const std::string head = "expansion vector " + std::to_string(nz) + " of " + std::to_string(nz);
    QVERIFY2(events.front().rfind(head, 0) == 0, events.front().c_str());
    QVERIFY(solver.approximationError() < 0.5 * solver.wNormSquared());
    const KernelClassifier model = solver.classifier();
    QCOMPARE(column(solver, solver.lastRecord(), "train_error"), model.error(*train));
    QCOMPARE(column(solver, solver.lastRecord(), "test_error"), model.error(*test));
}

void TestReducedSet::mrsIsLibsvmOnTheProjectedKernel() {
    const auto train = ripley("train");
    const std::string kernel = "gaussian:2";
    const double C = 10.0;
    RsSolver rs({train, nullptr}, options(kernel, C, 6));
    MrsOptions mo;
    static_cast<ReducedSetOptions&>(mo) = options(kernel, C, 6);
    MrsSolver mrs({train, nullptr}, mo);
    QVERIFY2(mrs.status().code != StatusCode::InvalidInput, mrs.status().message.c_str());
    QCOMPARE(solve(rs).code, StatusCode::Converged);
    QCOMPARE(solve(mrs).code, StatusCode::Converged);
    QCOMPARE(mrs.expansionVectors(), rs.expansionVectors());
    // Bounds: the restricted SVM's primal ≥ the full SVM's dual at every step.
    for (const IterationRecord& r : mrs.trace())
        QVERIFY(r.lower <= r.upper + 1e-9 * std::abs(r.upper));

    const KernelSpec spec = kernelSpec(kernel);
    const Eigen::MatrixXd& Z = mrs.expansionVectors();
    Eigen::MatrixXd X(train->size(), 2);
    for (int i = 0; i < train->size(); ++i)
        X.row(i) = train->row(i).transpose();
    const Eigen::MatrixXd Psi = gram(spec, Z, X);
    Eigen::MatrixXd Khat = Psi.transpose() * gram(spec, Z, Z).ldlt().solve(Psi);
    Khat = 0.5 * (Khat + Khat.transpose()).eval();
    Dataset precomputed;
    precomputed.name = precomputed.source = "projected kernel";
    precomputed.dense = Khat;
    precomputed.labels = train->labels;
    KernelSpec pre;
    pre.type = KernelType::Precomputed;
    const LibsvmResult reference =
        solveWithLibsvm(precomputed, pre, KernelNormalization::None, C, 1e-12, true, 16);
    const double dual = column(mrs, mrs.lastRecord(), "inner_dual");
    const double relative =
        std::abs(dual - reference.dualObjective) / std::abs(reference.dualObjective);
    qInfo(
        "mrs: restricted dual %.12g, LIBSVM on K-hat %.12g (relative %.3g); train error mrs "
        "%.4f, rs %.4f",
        dual, reference.dualObjective, relative, column(mrs, mrs.lastRecord(), "train_error"),
        column(rs, rs.lastRecord(), "train_error"));
    QVERIFY2(relative <= 1e-6, qPrintable(QString::number(relative)));
}

void TestReducedSet::optionsAreValidated() {
    std::string why;
    QVERIFY2(RsOptions{}.isValid(&why), why.c_str());
    QVERIFY2(MrsOptions{}.isValid(&why), why.c_str());
    const auto train = ripley("train");
    {
        RsOptions o;
        o.kernel = "poly:2";
        QVERIFY(!o.isValid(&why));
        QVERIFY2(why.find("RsOptions::kernel = 'poly:2': the reduced-set fixed-point iteration "
                          "needs a Gaussian kernel") != std::string::npos,
                 why.c_str());
        RsSolver solver({train, nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QCOMPARE(solver.status().message, why);
        QVERIFY(solver.summary().empty());
    }
    {
        MrsOptions o;
        o.restarts = -1;
        QVERIFY(!o.isValid(&why));
        QVERIFY2(why.find("MrsOptions::restarts = -1: must lie in [0, 1000]") != std::string::npos,
                 why.c_str());
        MrsSolver solver({train, nullptr}, o);
        QCOMPARE(solver.status().message, why);
    }
    {
        RsOptions o;
        o.fixed_point_tolerance = 0;
        RsSolver solver({train, nullptr}, o);
        QVERIFY2(solver.status().message.find("RsOptions::fixed_point_tolerance = 0") !=
                     std::string::npos,
                 solver.status().message.c_str());
    }
    {
        // N_z from the ratio of the full SVM's support vectors.
        RsOptions o;
        o.kernel = "gaussian:2";
        o.C = 10;
        o.expansion_vectors = 0;
        o.expansion_ratio = 0.1;
        RsSolver solver({train, nullptr}, o);
        QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
        const int nsv = static_cast<int>(solver.fullSvm().supportVectors.size());
        QCOMPARE(solver.targetExpansionVectors(),
                 std::max(1, static_cast<int>(std::lround(0.1 * nsv))));
    }
}

QTEST_GUILESS_MAIN(TestReducedSet)
#include "test_reduced_set.moc"
