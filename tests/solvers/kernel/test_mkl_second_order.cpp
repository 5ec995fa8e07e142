// SPDX-License-Identifier: GPL-3.0-or-later
// SimpleMKL's second-order step (solvers/kernel/mkl_second_order.h, simplemkl.h
// direction = newton) against independent answers:
//   * KernelSet::rowProducts equals the sums over the kernels' rows read one by
//   one;
//   * the model's gradient is −½ uᵀKₖu summed from the rows, and its Hessian
//   times a direction
//     is the central finite difference of that gradient between two SVMs solved
//     to KKT 1e-12 at β ± h·d (the free support vectors stay free for so small
//     an h);
//   * SimpleMKL with the Newton step and with the paper's reduced gradient ends
//   at the
//     objective of SILP to 1e-6 relative, on sets stored per kernel and pair by
//     pair.
#include <Eigen/Eigenvalues>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "data/libsvm_format.h"
#include "kernel/kernel_spec.h"
#include "kernel/mkl_second_order.h"
#include "kernel/silp.h"
#include "kernel/simplemkl.h"
#include "kernel/smo.h"
#include "ringnorm_like.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

std::shared_ptr<const Dataset> ionosphere(int m) {
    Dataset all = loadLibsvm(kData + "/kernel/ionosphere_scale");
    auto data = std::make_shared<Dataset>();
    const Dataset::DenseMatrix dense =
        all.sparseStorage ? Dataset::DenseMatrix(all.sparse) : all.dense;
    data->dense = dense.topRows(m);
    data->labels = all.labels.head(m);
    return data;
}

// A set, its kernels, and whether they are stored pair by pair (40 kernels held
// per example: ten widths on four continuous features).
struct Case {
    std::shared_ptr<const Dataset> data;
    std::string kernels;
    double C = 1.0;
};

Case makeCase(const QString& name) {
    if (name == "ionosphere") return {ionosphere(200), "gaussian:0.05,0.2,1,5;poly:2", 10.0};
    return {ringnormLike(7, 80, 4),
            "gaussian:0.001,0.003,0.01,0.03,0.1,0.3,1,3,10,30@each_feature"};
}

std::unique_ptr<KernelSet> kernelSet(const Case& c) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(c.kernels, c.data->dimension(), &specs, &why)) qFatal("%s", why.c_str());
    return std::make_unique<KernelSet>(c.data, specs, KernelNormalization::Trace, 64.0,
                                       KernelPrecision::Compact);
}

// −½ uᵀKₖu from the kernels' rows, one at a time.
Eigen::VectorXd gradientFromRows(KernelSet& kernels, const Eigen::VectorXd& u) {
    Eigen::VectorXd g(kernels.kernels());
    const int m = kernels.examples();
    for (int k = 0; k < kernels.kernels(); ++k) {
        double sum = 0.0;
        for (int i = 0; i < m; ++i) {
            const double* row = kernels.row(k, i);
            for (int j = 0; j < m; ++j)
                sum += u[i] * row[j] * u[j];
        }
        g[k] = -0.5 * sum;
    }
    return g;
}

// An SVM solved to KKT 1e-12 at β; returns u = Y α.
Eigen::VectorXd solveAt(KernelQ& q, Smo& smo, const Eigen::VectorXd& beta) {
    q.setWeights(beta);
    smo.refreshGradient();
    smo.run(0);
    return smo.alpha().cwiseProduct(q.labels());
}

// `c`'s kernels and C, SVMs to KKT 1e-9 and the MKL to tol_rel, at most 5,000 steps.
template <class Options>
Options tightOptions(const Case& c, double tolRel) {
    Options o;
    o.kernel.kernels = c.kernels;
    o.kernel.kkt_tolerance = 1e-9;
    o.kernel.C = c.C;
    o.stop.tol_rel = tolRel;
    o.stop.max_iterations = 5000;
    return o;
}

}  // namespace

class TestMklSecondOrder : public QObject {
    Q_OBJECT

  private slots:
    void hessianMatchesFiniteDifferences_data();
    void hessianMatchesFiniteDifferences();
    void newtonEndsAtSilpsObjective_data();
    void newtonEndsAtSilpsObjective();
};

void TestMklSecondOrder::hessianMatchesFiniteDifferences_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("pairMajor");
    QTest::newRow("ionosphere 200, C = 10, 5 kernels") << "ionosphere" << false;
    QTest::newRow("ringnorm 80 x 4, 40 kernels pair by pair") << "ringnorm" << true;
}

void TestMklSecondOrder::hessianMatchesFiniteDifferences() {
    QFETCH(QString, name);
    QFETCH(bool, pairMajor);
    const Case c = makeCase(name);
    auto kernels = kernelSet(c);
    QCOMPARE(kernels->pairMajor(), pairMajor);
    const int K = kernels->kernels();
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> uniform(0.5, 1.5);
    Eigen::VectorXd beta(K);
    for (int k = 0; k < K; ++k)
        beta[k] = uniform(random);
    beta /= beta.sum();
    const double C = c.C;
    KernelQ q(*kernels, c.data->labels, beta, 32.0);
    Smo smo(q, SmoOptions{C, 1e-12, false});
    const Eigen::VectorXd u = solveAt(q, smo, beta);
    const MklSecondOrder model = mklSecondOrder(q, smo.alpha(), C);
    QVERIFY(model.freeVectors > 0);

    // rowProducts against row-by-row sums.
    std::vector<int> support, rows;
    for (int i = 0; i < u.size(); ++i)
        if (u[i] != 0.0) support.push_back(i);
    for (int i = 0; i < u.size(); i += 7)
        rows.push_back(i);
    const Eigen::MatrixXd P = kernels->rowProducts(u, support, rows);
    for (int k = 0; k < K; ++k) {
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const double* row = kernels->row(k, rows[r]);
            double sum = 0.0;
            for (const int j : support)
                sum += row[j] * u[j];
            QVERIFY2(
                std::abs(P(static_cast<Eigen::Index>(r), k) - sum) <= 1e-9 * (1.0 + std::abs(sum)),
                qPrintable(QString("kernel %1 row %2: %3 vs %4")
                               .arg(k)
                               .arg(rows[r])
                               .arg(P(static_cast<Eigen::Index>(r), k))
                               .arg(sum)));
        }
    }

    const Eigen::VectorXd g = gradientFromRows(*kernels, u);
    QVERIFY2((model.gradient - g).norm() <= 1e-9 * g.norm(),
             qPrintable(QString("gradient off by %1").arg((model.gradient - g).norm())));
    QVERIFY((model.hessian - model.hessian.transpose()).norm() <= 1e-12 * model.hessian.norm());
    QVERIFY(
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(model.hessian).eigenvalues().minCoeff() >=
        -1e-9 * model.hessian.norm());

    // H d against (g(β + h d) − g(β − h d)) / 2h, d a zero-sum direction.
    Eigen::VectorXd d(K);
    for (int k = 0; k < K; ++k)
        d[k] = uniform(random) - 1.0;
    d.array() -= d.mean();
    d *= 0.1 / d.cwiseAbs().maxCoeff();
    const double h = 1e-4;
    const Eigen::VectorXd up = gradientFromRows(*kernels, solveAt(q, smo, beta + h * d));
    const Eigen::VectorXd down = gradientFromRows(*kernels, solveAt(q, smo, beta - h * d));
    const Eigen::VectorXd fd = (up - down) / (2.0 * h);
    const Eigen::VectorXd Hd = model.hessian * d;
    const double error = (fd - Hd).norm() / fd.norm();
    qInfo(
        "%s: %d kernels, %d free support vectors, |Hd| %.6g, |FD| %.6g, "
        "relative difference "
        "%.2g",
        qPrintable(name), K, model.freeVectors, Hd.norm(), fd.norm(), error);
    QVERIFY(fd.norm() > 0.0);
    QVERIFY2(error <= 1e-4, qPrintable(QString("H d vs finite differences: %1").arg(error)));
}

void TestMklSecondOrder::newtonEndsAtSilpsObjective_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("direction");
    for (const char* set : {"ionosphere", "ringnorm"}) {
        for (const char* direction : {"newton", "gradient"})
            QTest::newRow((std::string(set) + " " + direction).c_str()) << set << direction;
    }
}

void TestMklSecondOrder::newtonEndsAtSilpsObjective() {
    QFETCH(QString, name);
    QFETCH(QString, direction);
    const Case c = makeCase(name);
    const KernelProblem problem{c.data, nullptr};
    SilpSolver silp(problem, tightOptions<SilpOptions>(c, 1e-8));
    solve(silp);
    QCOMPARE(silp.status().code, StatusCode::Converged);
    auto mo = tightOptions<SimpleMklOptions>(c, 1e-7);
    mo.direction = direction.toStdString();
    SimpleMklSolver simple(problem, mo);
    solve(simple);
    QCOMPARE(simple.status().code, StatusCode::Converged);
    const double a = silp.lastRecord().upper, b = simple.lastRecord().upper;
    qInfo(
        "%s %s: %d steps, %lld SVMs, U %.12g; silp %d planes, U %.12g, "
        "relative difference "
        "%.2g",
        qPrintable(name), qPrintable(direction), simple.iteration(),
        simple.lastRecord().oracleCalls, b, silp.iteration(), a, std::abs(a - b) / a);
    QVERIFY2(std::abs(a - b) <= 1e-6 * a, qPrintable(QString("%1 vs %2").arg(b).arg(a)));
}

QTEST_GUILESS_MAIN(TestMklSecondOrder)
#include "test_mkl_second_order.moc"
