// SPDX-License-Identifier: GPL-3.0-or-later
// dlib's reduced2 as the sparse solver dlib_reduced2 (solvers/sparse/dlib_reduced2.h), each
// check against an independent answer on Ripley's data:
//   * the solver's decisions on the test set equal those of dlib's own decision_function,
//     trained here by calling dlib directly with the same settings (to 1e-9), and it keeps
//     N_z basis vectors (dlib's, in dlib's order);
//   * the reported upper bound is ½βᵀK^zβ + C Σ hinge summed here with the kernel module's
//     kernelValue, it lies above our full SVM's dual (the lower bound), and the errors are the
//     classifier's;
//   * its test error is within 5 points of rs and slmc with the same kernel, C and budget;
//   * expansion_ratio gives the same N_z as rs;
//   * bad options are refused with messages naming DlibReduced2Options and the field.
#include <dlib/svm.h>

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

#include "data/csv_format.h"
#include "kernel/kernel_set.h"
#include "record_columns.h"
#include "sparse/dlib_reduced2.h"
#include "sparse/reduced_set.h"
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

Eigen::MatrixXd dense(const Dataset& data) {
    Eigen::MatrixXd X(data.size(), data.dimension());
    for (int i = 0; i < data.size(); ++i)
        X.row(i) = data.row(i).transpose();
    return X;
}

using Sample = dlib::matrix<double, 0, 1>;
using RbfKernel = dlib::radial_basis_kernel<Sample>;

Sample sample(const Eigen::VectorXd& x) {
    Sample s(x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j)
        s(j) = x[j];
    return s;
}

// dlib alone: svm_c_trainer (RBF γ, C, epsilon) reduced by reduced2 to nz basis vectors.
dlib::decision_function<RbfKernel> dlibReference(const Dataset& train, double gamma, double C,
                                                 double svmEps, long nz, double eps) {
    std::vector<Sample> samples;
    std::vector<double> labels;
    for (int i = 0; i < train.size(); ++i) {
        samples.push_back(sample(train.row(i)));
        labels.push_back(train.labels[i] > 0 ? 1.0 : -1.0);
    }
    dlib::svm_c_trainer<RbfKernel> trainer;
    trainer.set_kernel(RbfKernel(gamma));
    trainer.set_c(C);
    trainer.set_epsilon(svmEps);
    return dlib::reduced2(trainer, nz, eps).train(samples, labels);
}

DlibReduced2Options options(const std::string& kernel, double C, int nz) {
    DlibReduced2Options o;
    o.kernel = kernel;
    o.C = C;
    o.expansion_vectors = nz;
    return o;
}

}  // namespace

class TestDlibReduced2 : public QObject {
    Q_OBJECT

  private slots:
    void decisionsAreDlibs_data();
    void decisionsAreDlibs();
    void boundsAndErrorsAreTheClassifiers();
    void testErrorNearRsAndSlmc_data();
    void testErrorNearRsAndSlmc();
    void ratioGivesRsBudget();
    void optionsAreValidated();
};

void TestDlibReduced2::decisionsAreDlibs_data() {
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("C");
    QTest::addColumn<int>("nz");
    QTest::newRow("gaussian:2 C=10 N_z=10") << 2.0 << 10.0 << 10;
    QTest::newRow("gaussian:0.5 C=1 N_z=5") << 0.5 << 1.0 << 5;
}

void TestDlibReduced2::decisionsAreDlibs() {
    QFETCH(double, gamma);
    QFETCH(double, C);
    QFETCH(int, nz);
    const auto train = ripley("train");
    const auto test = ripley("test");
    const std::string kernel = "gaussian:" + QString::number(gamma).toStdString();
    DlibReduced2Solver solver({train, test}, options(kernel, C, nz));
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    QCOMPARE(solver.expansionVectors().rows(), 0);
    const Status status = solve(solver);
    QVERIFY2(status.code == StatusCode::Converged, status.message.c_str());
    QCOMPARE(solver.iteration(), 1);
    QCOMPARE(static_cast<int>(solver.expansionVectors().rows()), nz);
    QCOMPARE(static_cast<int>(solver.beta().size()), nz);

    const auto reference = dlibReference(*train, gamma, C, 1e-3, nz, 1e-3);
    QCOMPARE(static_cast<int>(reference.basis_vectors.size()), nz);
    double vectorDifference = 0;
    for (long u = 0; u < reference.basis_vectors.size(); ++u)
        for (long j = 0; j < reference.basis_vectors(u).size(); ++j)
            vectorDifference =
                std::max(vectorDifference,
                         std::abs(reference.basis_vectors(u)(j) - solver.expansionVectors()(u, j)));
    QVERIFY2(vectorDifference <= 1e-12, qPrintable(QString::number(vectorDifference)));

    const Eigen::VectorXd ours = solver.classifier().decisions(*test);
    double difference = 0, scale = 0;
    for (int i = 0; i < test->size(); ++i) {
        const double theirs = reference(sample(test->row(i)));
        difference = std::max(difference, std::abs(ours[i] - theirs));
        scale = std::max(scale, std::abs(theirs));
    }
    qInfo(
        "%s C=%g N_z=%d: max |f_ours - f_dlib| over %d test points %.3g (max |f| %.3g); "
        "bias %.6g = -dlib b %.6g; test error %.4f",
        kernel.c_str(), C, nz, test->size(), difference, scale, solver.bias(), reference.b,
        column(solver, solver.lastRecord(), "test_error"));
    QVERIFY2(difference <= 1e-9, qPrintable(QString::number(difference)));
    QVERIFY(scale > 0.1);  // a real function, not two zeros
    QCOMPARE(solver.bias(), -reference.b);
}

void TestDlibReduced2::boundsAndErrorsAreTheClassifiers() {
    const auto train = ripley("train");
    const auto test = ripley("test");
    const std::string kernel = "gaussian:2";
    const double C = 10.0;
    DlibReduced2Options o = options(kernel, C, 8);
    o.full_svm = true;
    o.full_tolerance = 1e-6;
    DlibReduced2Solver solver({train, test}, o);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    QCOMPARE(solve(solver).code, StatusCode::Converged);
    QCOMPARE(static_cast<int>(solver.trace().size()), 1);
    QVERIFY(solver.trace().front().iteration == 1);

    // ½βᵀK^zβ + C Σ max(0, 1 − yᵢ f(xᵢ)) by kernelValue sums.
    const KernelSpec spec = kernelSpec(kernel);
    const Eigen::MatrixXd& Z = solver.expansionVectors();
    const Eigen::VectorXd& beta = solver.beta();
    const Eigen::VectorXd f = (gram(spec, dense(*train), Z) * beta).array() + solver.bias();
    const double norm = 0.5 * beta.dot(gram(spec, Z, Z) * beta);
    const double hinge = C * (1.0 - train->labels.array() * f.array()).max(0.0).sum();
    const IterationRecord& r = solver.lastRecord();
    qInfo(
        "upper %.10g (by kernel sums %.10g = %.6g + %.6g), lower (full SVM dual) %.10g, "
        "full SVM SVs %d",
        r.upper, norm + hinge, norm, hinge, r.lower, solver.fullSvmSupportVectors());
    QVERIFY(std::abs(r.upper - (norm + hinge)) <= 1e-9 * (norm + hinge));
    QCOMPARE(r.lower, solver.fullSvmObjective());
    QVERIFY(r.lower <= r.upper);

    const KernelClassifier model = solver.classifier();
    QCOMPARE(column(solver, r, "train_error"), model.error(*train));
    QCOMPARE(column(solver, r, "test_error"), model.error(*test));
    QCOMPARE(column(solver, r, "expansion_vectors"), 8.0);

    // The summary carries the keys every sparse solver has.
    std::vector<std::string> keys;
    for (const auto& [key, value] : solver.summary())
        keys.push_back(key);
    for (const char* key : {"objective", "expansion_vectors", "train_error", "test_error",
                            "full_svm_objective", "C", "kernel"})
        QVERIFY2(std::find(keys.begin(), keys.end(), key) != keys.end(), key);

    // The snapshot shows dlib's basis vectors as the XVs.
    const auto snapshot = std::dynamic_pointer_cast<const SparseSnapshot>(solver.snapshot());
    QVERIFY(snapshot);
    QCOMPARE(snapshot->xvs, Z);
    QCOMPARE(snapshot->beta, beta);
    QCOMPARE(static_cast<int>(snapshot->trail.size()), 1);
    QVERIFY(!snapshot->grid.values.empty());
    QCOMPARE(static_cast<int>(snapshot->fullSupportVectors.size()), solver.fullSvmSupportVectors());
}

void TestDlibReduced2::testErrorNearRsAndSlmc_data() {
    QTest::addColumn<int>("nz");
    QTest::newRow("N_z=5") << 5;
    QTest::newRow("N_z=10") << 10;
}

void TestDlibReduced2::testErrorNearRsAndSlmc() {
    QFETCH(int, nz);
    const auto train = ripley("train");
    const auto test = ripley("test");
    const std::string kernel = "gaussian:2";
    const double C = 10.0;
    // How much worse than rs and slmc dlib's test error may be (Ripley's test set: 1000
    // points, so 5 points = 50 errors; the full SVM errs on about 9 %).
    const double tolerance = 0.05;

    DlibReduced2Solver dlibSolver({train, test}, options(kernel, C, nz));
    QCOMPARE(solve(dlibSolver).code, StatusCode::Converged);
    RsOptions ro;
    ro.kernel = kernel;
    ro.C = C;
    ro.expansion_vectors = nz;
    RsSolver rs({train, test}, ro);
    QCOMPARE(solve(rs).code, StatusCode::Converged);
    SlmcOptions so;
    so.kernel = kernel;
    so.C = C;
    so.expansion_vectors = nz;
    SlmcSolver slmc({train, test}, so);
    const Status slmcStatus = solve(slmc);
    QVERIFY2(slmcStatus.usable(), slmcStatus.message.c_str());

    const double dlibError = column(dlibSolver, dlibSolver.lastRecord(), "test_error");
    const double rsError = column(rs, rs.lastRecord(), "test_error");
    const double slmcError = column(slmc, slmc.lastRecord(), "test_error");
    qInfo(
        "N_z = %d: test error dlib_reduced2 %.4f, rs %.4f, slmc %.4f; SVM objective of the "
        "result dlib %.6g, slmc %.6g",
        nz, dlibError, rsError, slmcError, dlibSolver.lastRecord().upper, slmc.lastRecord().upper);
    QVERIFY2(dlibError <= rsError + tolerance,
             qPrintable(QString("dlib %1 vs rs %2").arg(dlibError).arg(rsError)));
    QVERIFY2(dlibError <= slmcError + tolerance,
             qPrintable(QString("dlib %1 vs slmc %2").arg(dlibError).arg(slmcError)));
}

void TestDlibReduced2::ratioGivesRsBudget() {
    const auto train = ripley("train");
    DlibReduced2Options o = options("gaussian:2", 10.0, 0);
    o.expansion_ratio = 0.1;
    DlibReduced2Solver solver({train, nullptr}, o);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    RsOptions ro;
    ro.kernel = "gaussian:2";
    ro.C = 10.0;
    ro.expansion_vectors = 0;
    ro.expansion_ratio = 0.1;
    RsSolver rs({train, nullptr}, ro);
    QVERIFY2(rs.status().code != StatusCode::InvalidInput, rs.status().message.c_str());
    QCOMPARE(solver.targetExpansionVectors(), rs.targetExpansionVectors());
    QCOMPARE(solver.fullSvmSupportVectors(), static_cast<int>(rs.fullSvm().supportVectors.size()));
    QCOMPARE(solve(solver).code, StatusCode::Converged);
    QCOMPARE(static_cast<int>(solver.expansionVectors().rows()), rs.targetExpansionVectors());
}

void TestDlibReduced2::optionsAreValidated() {
    std::string why;
    QVERIFY2(DlibReduced2Options{}.isValid(&why), why.c_str());
    const auto train = ripley("train");
    const auto refused = [&](const DlibReduced2Options& o, const std::string& expected) {
        std::string message;
        if (o.isValid(&message)) return std::string("accepted");
        if (message.find(expected) == std::string::npos) return "message: " + message;
        DlibReduced2Solver solver({train, nullptr}, o);
        if (solver.status().code != StatusCode::InvalidInput) return std::string("solver ran");
        if (solver.status().message != message) return "solver: " + solver.status().message;
        if (!solver.summary().empty()) return std::string("summary of a refused solver");
        if (solver.step().code != StatusCode::InvalidInput) return std::string("step ran");
        return std::string();
    };
    const auto check = [&](const DlibReduced2Options& o, const std::string& expected) {
        const std::string problem = refused(o, expected);
        QVERIFY2(problem.empty(), (expected + ": " + problem).c_str());
    };
    DlibReduced2Options o;
    o.kernel = "poly:2";
    check(o,
          "DlibReduced2Options::kernel = 'poly:2': dlib's reduced2 is run with its "
          "radial_basis_kernel, so the kernel must be Gaussian");
    o.kernel = "linear";
    check(o, "DlibReduced2Options::kernel = 'linear'");
    o = {};
    o.C = 0;
    check(o, "DlibReduced2Options::C = 0: must be a finite number > 0");
    o.C = -1;
    check(o, "DlibReduced2Options::C = -1: must be a finite number > 0");
    o = {};
    o.expansion_vectors = 0;
    check(o, "DlibReduced2Options::expansion_vectors = 0");
    o.expansion_vectors = -3;
    check(o, "DlibReduced2Options::expansion_vectors = -3: must be >= 1");
    o = {};
    o.eps = 0;
    check(o, "DlibReduced2Options::eps = 0: must be a finite number > 0");
    o = {};
    o.svm_eps = -1;
    check(o, "DlibReduced2Options::svm_eps = -1: must be a finite number > 0");
}

QTEST_GUILESS_MAIN(TestDlibReduced2)
#include "test_dlib_reduced2.moc"
