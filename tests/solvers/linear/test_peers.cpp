// SPDX-License-Identifier: GPL-3.0-or-later
// The peers: LIBLINEAR as a reference optimum (solveWithLiblinear) and libocas raced step by
// step (LibocasSolver). The reference is itself checked independently — a duality certificate
// for the hinge loss, the gradient of F for the smooth losses, and brute-force minimisation of
// our own hand-written F on tiny problems — so that a wrong reference fails here instead of
// passing its error on to the solvers it judges.
#include <Eigen/Dense>
#include <QtTest>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include "data/libsvm_format.h"
#include "data/portable_random.h"
#include "linear/liblinear_reference.h"
#include "linear/libocas_solver.h"
#include "linear/ocas.h"
#include "record_columns.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::columnIndex;

namespace {

std::shared_ptr<const Dataset> heartScale(bool sparse = true) {
    static const auto sparseSet = std::make_shared<const Dataset>(
        loadLibsvm(std::string(CPLAB_TEST_DATA_DIR) + "/heart_scale"));
    if (sparse) return sparseSet;
    static const auto denseSet = [] {
        Dataset copy = *sparseSet;
        copy.setSparseStorage(false);
        return std::make_shared<const Dataset>(std::move(copy));
    }();
    return denseSet;
}

std::shared_ptr<const Dataset> makeDense(const std::vector<std::vector<double>>& x,
                                         const std::vector<double>& y, const char* name) {
    Dataset data;
    data.name = name;
    data.source = std::string("test:") + name;
    data.dense.resize(static_cast<Eigen::Index>(x.size()), static_cast<Eigen::Index>(x[0].size()));
    data.labels.resize(static_cast<Eigen::Index>(y.size()));
    for (std::size_t i = 0; i < x.size(); ++i) {
        for (std::size_t j = 0; j < x[i].size(); ++j)
            data.dense(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = x[i][j];
        data.labels(static_cast<Eigen::Index>(i)) = y[i];
    }
    return std::make_shared<const Dataset>(std::move(data));
}

// Tiny problems for brute force: 2-D binary, 1-D regression, 1-D three classes.
std::shared_ptr<const Dataset> tinyBinary() {
    return makeDense({{1.0, 2.0},
                      {2.0, 0.5},
                      {1.5, 1.5},
                      {0.2, 1.0},
                      {-1.0, -0.5},
                      {-0.5, -2.0},
                      {-1.5, 0.3},
                      {0.4, -1.0},
                      {0.8, 0.1},
                      {-0.3, 0.9}},
                     {1, 1, 1, 1, -1, -1, -1, -1, -1, 1}, "tiny_binary");
}

std::shared_ptr<const Dataset> tinyRegression() {
    return makeDense({{-2.0}, {-1.3}, {-0.7}, {0.0}, {0.4}, {1.1}, {1.6}, {2.2}},
                     {-3.4, -2.2, -0.6, 0.6, 1.1, 2.9, 3.5, 5.1}, "tiny_regression");
}

std::shared_ptr<const Dataset> tinyThreeClasses() {
    return makeDense({{-2.0}, {-1.5}, {-0.4}, {-0.1}, {0.3}, {0.2}, {1.4}, {2.1}, {0.9}},
                     {0, 0, 0, 1, 1, 1, 2, 2, 1}, "tiny_three_classes");
}

// Three Gaussian blobs in 2-D, 30 examples each, classes 0..2 (for libocas's multi-class).
std::shared_ptr<const Dataset> blobs() {
    PortableRandom random(7);
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    const double centres[3][2] = {{-1.5, 0.0}, {1.0, 1.2}, {0.8, -1.4}};
    for (int i = 0; i < 90; ++i) {
        const int k = i % 3;
        x.push_back({centres[k][0] + random.normal(), centres[k][1] + random.normal()});
        y.push_back(k);
    }
    return makeDense(x, y, "blobs");
}

// Our F(w) written out again, independently of Risk: λ/2‖w‖² + (1/m) Σ ℓ.
double handObjective(const Dataset& data, const std::string& risk, bool bias, double tube,
                     double lambda, const Eigen::VectorXd& w) {
    const int m = data.size();
    const int d = data.dimension();
    const int D = d + (bias ? 1 : 0);
    double sum = 0.0;
    for (int i = 0; i < m; ++i) {
        Eigen::VectorXd x(D);
        x.head(d) = data.row(i);
        if (bias) x(d) = 1.0;
        const double y = data.labels(i);
        if (risk == "multiclass") {
            const int K = static_cast<int>(w.size() / D);
            const int yi = static_cast<int>(y);
            const double own = w.segment(static_cast<Eigen::Index>(yi) * D, D).dot(x);
            double worst = 0.0;
            for (int k = 0; k < K; ++k) {
                if (k == yi) continue;
                worst = std::max(worst,
                                 1.0 + w.segment(static_cast<Eigen::Index>(k) * D, D).dot(x) - own);
            }
            sum += worst;
            continue;
        }
        const double s = w.dot(x);
        if (risk == "hinge") sum += std::max(0.0, 1.0 - y * s);
        if (risk == "squared_hinge") sum += std::pow(std::max(0.0, 1.0 - y * s), 2);
        if (risk == "logistic") sum += std::log1p(std::exp(-y * s));
        if (risk == "epsilon_insensitive") sum += std::max(0.0, std::abs(s - y) - tube);
    }
    return 0.5 * lambda * w.squaredNorm() + sum / m;
}

// Brute force for n ≤ 3 parameters: a 21-point grid per axis over a box, re-centred on the
// best point and shrunk fourfold, 26 times (F is convex, so the best grid point's
// neighbourhood keeps the minimiser).
double bruteForceMinimum(const std::function<double(const Eigen::VectorXd&)>& f, int n,
                         double halfWidth, Eigen::VectorXd* argmin) {
    Eigen::VectorXd centre = Eigen::VectorXd::Zero(n);
    double best = f(centre);
    int points = 1;
    for (int k = 0; k < n; ++k)
        points *= 21;
    for (int level = 0; level < 26; ++level) {
        Eigen::VectorXd bestPoint = centre;
        for (int index = 0; index < points; ++index) {
            Eigen::VectorXd w(n);
            int rest = index;
            for (int k = 0; k < n; ++k) {
                w(k) = centre(k) + halfWidth * ((rest % 21) / 10.0 - 1.0);
                rest /= 21;
            }
            const double value = f(w);
            if (value < best) {
                best = value;
                bestPoint = w;
            }
        }
        centre = bestPoint;
        halfWidth /= 4.0;
    }
    if (argmin) *argmin = centre;
    return best;
}

// The hinge loss's duality certificate for a candidate w (C-form dual
// D(α) = Σα − ½‖Σ αᵢyᵢx̃ᵢ‖², 0 ≤ α ≤ C): α = C where the margin is < 1, 0 where it is > 1,
// and on the margin the least-squares α that reproduces w, clipped to [0, C]. Any feasible α
// gives λ·D(α) ≤ min F, so F(w) − λD(α) ≥ F(w) − min F is a certified gap.
double hingeCertificateGap(const Dataset& data, bool bias, double lambda, const Eigen::VectorXd& w,
                           double* lowerBound) {
    const int m = data.size();
    const int d = data.dimension();
    const int D = d + (bias ? 1 : 0);
    const double C = 1.0 / (lambda * m);
    const double tau = 1e-6;
    Eigen::MatrixXd X(D, m);
    for (int i = 0; i < m; ++i) {
        X.col(i).head(d) = data.row(i) * data.labels(i);
        if (bias) X(d, i) = data.labels(i);
    }
    Eigen::VectorXd alpha = Eigen::VectorXd::Zero(m);
    std::vector<int> onMargin;
    for (int i = 0; i < m; ++i) {
        const double margin = X.col(i).dot(w);
        if (margin < 1.0 - tau) alpha(i) = C;
        if (std::abs(margin - 1.0) <= tau) onMargin.push_back(i);
    }
    if (!onMargin.empty()) {
        Eigen::MatrixXd A(D, static_cast<Eigen::Index>(onMargin.size()));
        for (std::size_t k = 0; k < onMargin.size(); ++k)
            A.col(static_cast<Eigen::Index>(k)) = X.col(onMargin[k]);
        const Eigen::VectorXd rhs = w - X * alpha;
        const Eigen::VectorXd free = A.completeOrthogonalDecomposition().solve(rhs);
        for (std::size_t k = 0; k < onMargin.size(); ++k)
            alpha(onMargin[k]) = std::clamp(free(static_cast<Eigen::Index>(k)), 0.0, C);
    }
    const Eigen::VectorXd wAlpha = X * alpha;
    const double dual = alpha.sum() - 0.5 * wAlpha.squaredNorm();
    *lowerBound = lambda * dual;
    return handObjective(data, "hinge", bias, 0.0, lambda, w) - *lowerBound;
}

LinearSvmOptions svmOptions(const std::string& risk, double C, bool bias) {
    LinearSvmOptions o;
    o.risk = risk;
    o.C = C;
    o.bias = bias;
    return o;
}

double relDiff(double a, double b) {
    return std::abs(a - b) / std::max(1.0, std::abs(b));
}

const SummaryValue* findField(const SummaryFields& fields, const std::string& name) {
    for (const auto& f : fields)
        if (f.first == name) return &f.second;
    return nullptr;
}

}  // namespace

class TestPeers : public QObject {
    Q_OBJECT
  private slots:
    // (a) libocas's final objective equals LIBLINEAR's optimum, which its bounds bracket at
    // every iteration.
    void libocasMatchesLiblinear_data() {
        QTest::addColumn<double>("C");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("sparse");
        for (const char* method : {"ocas", "bmrm"}) {
            for (double C : {1.0, 0.1}) {
                for (bool bias : {false, true}) {
                    const std::string row =
                        std::string(method) + "/C=" + formatReal(C) + (bias ? "/bias" : "/no_bias");
                    QTest::newRow(row.c_str()) << C << bias << QString(method) << true;
                }
            }
        }
        QTest::newRow("ocas/C=1/bias/dense") << 1.0 << true << QString("ocas") << false;
    }
    void libocasMatchesLiblinear() {
        QFETCH(double, C);
        QFETCH(bool, bias);
        QFETCH(QString, method);
        QFETCH(bool, sparse);
        const LinearProblem problem{heartScale(sparse), nullptr};
        const ReferenceSolution ref =
            solveWithLiblinear(problem, svmOptions("hinge", C, bias), 1e-10);
        QVERIFY(ref.solver.find("-s 3") != std::string::npos);

        LibocasOptions o;
        o.model = svmOptions("hinge", C, bias);
        o.stop.tol_rel = 1e-9;
        o.method = method.toStdString();
        o.stop.max_iterations = 3000;
        LibocasSolver solver(problem, o);
        QCOMPARE(solver.status().code, StatusCode::Running);
        const double fStar = ref.objective;
        // LIBLINEAR's F is an upper bound of min F; its slack is what (b) certifies.
        const double slack = 1e-9 * fStar;
        QVERIFY(solver.lastRecord().lower <= fStar && fStar <= solver.lastRecord().upper);
        double previousLower = -1.0, previousUpper = 2.0;
        const Status status = solve(solver, [&](const Solver&, const IterationRecord& r) {
            QVERIFY2(r.lower <= fStar * (1 + 1e-12),
                     qPrintable(QString("iteration %1: lower %2 > LIBLINEAR's %3")
                                    .arg(r.iteration)
                                    .arg(r.lower, 0, 'g', 17)
                                    .arg(fStar, 0, 'g', 17)));
            QVERIFY2(fStar <= r.upper + slack,
                     qPrintable(QString("iteration %1: upper %2 < LIBLINEAR's %3")
                                    .arg(r.iteration)
                                    .arg(r.upper, 0, 'g', 17)
                                    .arg(fStar, 0, 'g', 17)));
            QVERIFY(r.lower >= previousLower);
            QVERIFY(r.upper <= previousUpper);
            previousLower = r.lower;
            previousUpper = r.upper;
        });
        QVERIFY2(status.code == StatusCode::Converged, status.message.c_str());
        const double upper = solver.lastRecord().upper;
        QVERIFY2(relDiff(upper, fStar) <= 1e-6, qPrintable(QString("libocas %1 vs LIBLINEAR %2")
                                                               .arg(upper, 0, 'g', 17)
                                                               .arg(fStar, 0, 'g', 17)));
        // libocas's Q_P (from its incrementally updated outputs) is F of the w it returns.
        QVERIFY(relDiff(solver.objective(solver.bestWeights()), upper) <= 1e-9);
        QVERIFY(!solver.threadRunning());
        const auto summary = solver.summary();
        const auto* exitflag = findField(summary, "libocas_exitflag");
        QVERIFY(exitflag);
        const double flag = std::get<double>(*exitflag);
        QVERIFY(flag == 1.0 || flag == 2.0);
        QCOMPARE(std::get<double>(*findField(summary, "Q_P")), solver.state().qp);
        QVERIFY(relDiff(std::get<double>(*findField(summary, "objective_C")),
                        upper / solver.lambda()) <= 1e-15);
    }

    // (b) LIBLINEAR's hinge optimum carries a duality certificate; a perturbed w does not.
    void liblinearHingeIsCertified_data() {
        QTest::addColumn<double>("C");
        QTest::addColumn<bool>("bias");
        for (double C : {1.0, 0.1}) {
            for (bool bias : {false, true}) {
                const std::string row = "C=" + formatReal(C) + (bias ? "/bias" : "/no_bias");
                QTest::newRow(row.c_str()) << C << bias;
            }
        }
        // LIBLINEAR's -s 3 needs examples repeated 1024 times here (see liblinear_reference.h).
        QTest::newRow("C=10/no_bias") << 10.0 << false;
    }
    void liblinearHingeIsCertified() {
        QFETCH(double, C);
        QFETCH(bool, bias);
        const auto data = heartScale();
        const LinearSvmOptions o = svmOptions("hinge", C, bias);
        const ReferenceSolution ref = solveWithLiblinear({data, nullptr}, o, 1e-10);
        const double lambda = o.lambdaFor(data->size());
        QVERIFY(relDiff(handObjective(*data, "hinge", bias, 0, lambda, ref.w), ref.objective) <=
                1e-13);
        double lower = 0.0;
        const double gap = hingeCertificateGap(*data, bias, lambda, ref.w, &lower);
        QVERIFY2(gap >= -1e-14 && gap <= 1e-8 * ref.objective,
                 qPrintable(QString("certified gap %1 at F = %2").arg(gap).arg(ref.objective)));
        // The certificate can fail: a w 1% off the optimum shows a real gap.
        double lowerOff = 0.0;
        const Eigen::VectorXd off = 1.01 * ref.w;
        QVERIFY(hingeCertificateGap(*data, bias, lambda, off, &lowerOff) > 1e-6 * ref.objective);
    }

    // (c) The smooth losses: ∇F(w) = 0 at LIBLINEAR's w, computed by hand.
    void liblinearSmoothLossesHaveZeroGradient_data() {
        QTest::addColumn<QString>("risk");
        QTest::addColumn<bool>("bias");
        for (const char* risk : {"logistic", "squared_hinge"}) {
            for (bool bias : {false, true}) {
                QTest::newRow((std::string(risk) + (bias ? "/bias" : "/no_bias")).c_str())
                    << QString(risk) << bias;
            }
        }
    }
    void liblinearSmoothLossesHaveZeroGradient() {
        QFETCH(QString, risk);
        QFETCH(bool, bias);
        const auto data = heartScale();
        const LinearSvmOptions o = svmOptions(risk.toStdString(), 1.0, bias);
        const ReferenceSolution ref = solveWithLiblinear({data, nullptr}, o, 1e-10);
        const double lambda = o.lambdaFor(data->size());
        const int m = data->size();
        const int d = data->dimension();
        auto gradient = [&](const Eigen::VectorXd& w) {
            Eigen::VectorXd g = lambda * w;
            for (int i = 0; i < m; ++i) {
                Eigen::VectorXd x(w.size());
                x.head(d) = data->row(i);
                if (bias) x(d) = 1.0;
                const double y = data->labels(i);
                const double margin = y * w.dot(x);
                const double dLoss = risk == "logistic" ? -1.0 / (1.0 + std::exp(margin))
                                                        : -2.0 * std::max(0.0, 1.0 - margin);
                g += (dLoss * y / m) * x;
            }
            return g;
        };
        const double scale = lambda * std::max(1.0, ref.w.norm());
        const double norm = gradient(ref.w).norm();
        QVERIFY2(norm <= 1e-6 * scale,
                 qPrintable(QString("|grad F| = %1 (scale %2)").arg(norm).arg(scale)));
        QVERIFY(gradient(1.01 * ref.w).norm() > 1e-4 * scale);  // the check can fail
        QVERIFY(relDiff(handObjective(*data, risk.toStdString(), bias, 0, lambda, ref.w),
                        ref.objective) <= 1e-13);
    }

    // (c) Every supported risk on a tiny problem: LIBLINEAR's F equals a brute-force minimum
    // of our hand-written F.
    void liblinearMatchesBruteForce_data() {
        QTest::addColumn<QString>("risk");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<double>("C");
        QTest::newRow("hinge") << QString("hinge") << false << 1.0;
        QTest::newRow("hinge/C=10") << QString("hinge") << false << 10.0;
        QTest::newRow("squared_hinge") << QString("squared_hinge") << false << 1.0;
        QTest::newRow("logistic") << QString("logistic") << false << 1.0;
        QTest::newRow("epsilon_insensitive/bias") << QString("epsilon_insensitive") << true << 1.0;
        QTest::newRow("multiclass") << QString("multiclass") << false << 1.0;
    }
    void liblinearMatchesBruteForce() {
        QFETCH(QString, risk);
        QFETCH(bool, bias);
        QFETCH(double, C);
        const std::string r = risk.toStdString();
        const auto data = r == "multiclass"            ? tinyThreeClasses()
                          : r == "epsilon_insensitive" ? tinyRegression()
                                                       : tinyBinary();
        LinearSvmOptions o = svmOptions(r, C, bias);
        o.tube = 0.3;
        const ReferenceSolution ref = solveWithLiblinear({data, nullptr}, o, 1e-10);
        const double lambda = o.lambdaFor(data->size());
        auto f = [&](const Eigen::VectorXd& w) {
            return handObjective(*data, r, bias, o.tube, lambda, w);
        };
        QVERIFY(relDiff(f(ref.w), ref.objective) <= 1e-13);
        QVERIFY(ref.w.size() <= 3);
        QVERIFY(ref.w.cwiseAbs().maxCoeff() < 6.0);  // inside the brute force's box
        Eigen::VectorXd argmin;
        const double brute = bruteForceMinimum(f, static_cast<int>(ref.w.size()), 8.0, &argmin);
        QVERIFY2(std::abs(ref.objective - brute) <= 1e-8 * std::max(1.0, brute),
                 qPrintable(QString("%1: LIBLINEAR %2, brute force %3")
                                .arg(risk)
                                .arg(ref.objective, 0, 'g', 17)
                                .arg(brute, 0, 'g', 17)));
    }

    // LIBLINEAR's multi-class layout and label order map back to ours (also for −1/+1 labels,
    // which Risk reads as classes 0/1): libocas's msvm_ocas_solver reaches the same optimum.
    void multiclassPeersAgree_data() {
        QTest::addColumn<QString>("data");
        QTest::addColumn<bool>("bias");
        QTest::newRow("blobs") << QString("blobs") << false;
        QTest::newRow("blobs/bias") << QString("blobs") << true;
        QTest::newRow("heart_scale/bias") << QString("heart_scale") << true;
    }
    void multiclassPeersAgree() {
        QFETCH(QString, data);
        QFETCH(bool, bias);
        const LinearProblem problem{data == "blobs" ? blobs() : heartScale(), nullptr};
        const LinearSvmOptions svm = svmOptions("multiclass", 1.0, bias);
        const ReferenceSolution ref = solveWithLiblinear(problem, svm, 1e-10);
        QVERIFY(ref.solver.find("-s 4") != std::string::npos);
        LibocasOptions o;
        o.model = svm;
        o.stop.tol_rel = 1e-9;
        LibocasSolver solver(problem, o);
        const Status status = solve(solver, [&](const Solver&, const IterationRecord& r) {
            QVERIFY(r.lower <= ref.objective * (1 + 1e-12));
            QVERIFY(ref.objective <= r.upper + 1e-9 * ref.objective);
        });
        QVERIFY2(status.code == StatusCode::Converged, status.message.c_str());
        QVERIFY2(relDiff(solver.lastRecord().upper, ref.objective) <= 1e-6,
                 qPrintable(QString("libocas %1 vs LIBLINEAR %2")
                                .arg(solver.lastRecord().upper, 0, 'g', 17)
                                .arg(ref.objective, 0, 'g', 17)));
        QVERIFY((solver.bestWeights() - ref.w).norm() <= 1e-3 * std::max(1.0, ref.w.norm()));
    }

    void liblinearRejectsBadInput() {
        const auto data = heartScale();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 solveWithLiblinear({nullptr, nullptr}, {}, 1e-8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 solveWithLiblinear({data, nullptr}, {}, 0.0));
        // Labels the risk does not accept (Risk's check).
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 solveWithLiblinear({tinyRegression(), nullptr},
                                                    svmOptions("multiclass", 1.0, false), 1e-8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 solveWithLiblinear({tinyThreeClasses(), nullptr},
                                                    svmOptions("hinge", 1.0, false), 1e-8));
        LinearSvmOptions negative = svmOptions("hinge", -1.0, false);
        try {
            solveWithLiblinear({data, nullptr}, negative, 1e-8);
            QFAIL("C < 0 accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("C = -1") != std::string::npos, e.what());
        }
    }

    // (d) One record per libocas iteration, on sparse and dense storage alike.
    void steppingGivesOneRecordPerIteration_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("sparse");
        QTest::newRow("ocas/sparse") << QString("ocas") << true;
        QTest::newRow("ocas/dense") << QString("ocas") << false;
        QTest::newRow("bmrm/sparse") << QString("bmrm") << true;
    }
    void steppingGivesOneRecordPerIteration() {
        QFETCH(QString, method);
        QFETCH(bool, sparse);
        LibocasOptions o;
        o.model = svmOptions("hinge", 1.0, true);
        o.stop.tol_rel = 1e-7;
        o.method = method.toStdString();
        LibocasSolver solver({heartScale(sparse), nullptr}, o);
        const int iterColumn = columnIndex(solver, "libocas_iter");
        const int planesColumn = columnIndex(solver, "planes");
        QVERIFY(iterColumn >= 0 && planesColumn >= 0);
        QCOMPARE(solver.lastRecord().upper, 1.0);  // F(0)
        QVERIFY(!solver.threadRunning());
        int steps = 0;
        while (!solver.status().finished()) {
            solver.step();
            ++steps;
            QCOMPARE(static_cast<int>(solver.trace().size()), steps);
            const IterationRecord& r = solver.lastRecord();
            QCOMPARE(r.iteration, steps);
            QCOMPARE(r.extra.size(), solver.extraColumns().size());
            QCOMPARE(static_cast<int>(r.extra[iterColumn]), steps);
            QCOMPARE(static_cast<int>(r.extra[planesColumn]), steps);  // one cut per iteration
            QCOMPARE(r.oracleCalls, static_cast<long long>(steps));
            QCOMPARE(solver.state().iterations, steps);
            QCOMPARE(solver.threadRunning(), !solver.status().finished());
        }
        QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
        QVERIFY(steps > 3);
        // The snapshot carries w after the last iteration.
        const auto snapshot = std::dynamic_pointer_cast<const LinearSvmSnapshot>(solver.snapshot());
        QVERIFY(snapshot);
        QCOMPARE(snapshot->wBest, solver.bestWeights());
        QCOMPARE(snapshot->planes, steps);
        QVERIFY(!snapshot->executedLines.empty());
    }

    // (d) Destroying mid-run stops libocas; afterwards libocas is free again. How promptly,
    // and that records' seconds leave out the waits for step(): tests/bench/
    // bench_responsiveness (timings are not asserted in unit tests).
    void destroyingMidRunFreesLibocas() {
        LibocasOptions o;
        o.model = svmOptions("hinge", 1.0, false);
        o.stop.tol_rel = 1e-12;
        auto solver = std::make_unique<LibocasSolver>(LinearProblem{heartScale(), nullptr}, o);
        for (int k = 0; k < 3; ++k)
            QCOMPARE(solver->step().code, StatusCode::Running);
        QVERIFY(solver->threadRunning());
        solver.reset();
        LibocasSolver next({heartScale(), nullptr}, o);
        QCOMPARE(next.step().code, StatusCode::Running);
    }

    // (d) A cancelled token stops a parked libocas by itself and ends the run.
    void cancellingStopsLibocas() {
        LibocasOptions o;
        o.model = svmOptions("hinge", 1.0, true);
        o.stop.tol_rel = 1e-12;
        LibocasSolver solver({heartScale(), nullptr}, o);
        CancelToken token;
        solver.setCancelToken(token);
        QCOMPARE(solver.step().code, StatusCode::Running);
        QCOMPARE(solver.step().code, StatusCode::Running);
        token.cancel();
        // The parked thread notices the token and returns, freeing libocas for others.
        bool freed = false;
        for (int k = 0; k < 100 && !freed; ++k) {
            LibocasSolver other({heartScale(), nullptr}, LibocasOptions{});
            freed = other.step().code != StatusCode::NumericalFailure;
            if (!freed) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        QVERIFY(freed);
        QCOMPARE(solver.step().code, StatusCode::Cancelled);
        QCOMPARE(static_cast<int>(solver.trace().size()), 2);
    }

    // (d) Cancelling from another thread while a step computes (a9a, 32561 examples). The
    // latency from cancel() to the end of solve(): tests/bench/bench_responsiveness.
    void cancellingFromAnotherThread() {
        const auto a9a = std::make_shared<const Dataset>(
            loadLibsvm(std::string(CPLAB_TEST_DATA_DIR) + "/a9a.gz"));
        LibocasOptions o;
        o.model = svmOptions("hinge", 1.0, true);
        // About 2 s in all, each iteration under 25 ms: at much tighter tol_rel libqp's
        // solves (which nothing can interrupt) grow to a second each.
        o.stop.tol_rel = 1e-7;
        LibocasSolver solver({a9a, nullptr}, o);
        CancelToken token;
        solver.setCancelToken(token);
        Status status;
        std::thread worker([&] { status = solve(solver); });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // into the run
        token.cancel();
        worker.join();
        QCOMPARE(status.code, StatusCode::Cancelled);
        QVERIFY(!solver.threadRunning());
        QVERIFY(solver.trace().size() >= 1);
    }

    // Every way a run ends leaves no libocas thread behind and says why.
    void limitsEndTheRun_data() {
        QTest::addColumn<QString>("limit");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("max_iterations")
            << QString("max_iterations") << static_cast<int>(StatusCode::IterationLimit)
            << QString("max_iterations = 5");
        QTest::newRow("buf_size") << QString("buf_size")
                                  << static_cast<int>(StatusCode::IterationLimit)
                                  << QString("buf_size = 3");
        QTest::newRow("epsilon") << QString("epsilon") << static_cast<int>(StatusCode::Converged)
                                 << QString("Q_P - Q_D <= TolAbs (exitflag 2)");
        QTest::newRow("max_seconds")
            << QString("max_seconds") << static_cast<int>(StatusCode::TimeLimit)
            << QString("max_seconds = 0.001");
    }
    void limitsEndTheRun() {
        QFETCH(QString, limit);
        QFETCH(int, code);
        QFETCH(QString, message);
        LibocasOptions o;
        o.stop.tol_rel = 1e-12;
        if (limit == "max_iterations") o.stop.max_iterations = 5;
        if (limit == "buf_size") o.buf_size = 3;
        if (limit == "epsilon") o.stop.epsilon = 1e-3;
        if (limit == "max_seconds") o.stop.max_seconds = 1e-3;
        LibocasSolver solver({heartScale(), nullptr}, o);
        const Status status = solve(solver);
        QCOMPARE(static_cast<int>(status.code), code);
        QVERIFY2(status.message.find(message.toStdString()) != std::string::npos,
                 status.message.c_str());
        QVERIFY(!solver.threadRunning());
        if (limit == "max_iterations") QCOMPARE(static_cast<int>(solver.trace().size()), 5);
        if (limit == "buf_size") {
            QCOMPARE(static_cast<int>(solver.trace().size()), 3);
            QCOMPARE(solver.exitflag(), -1);
        }
        if (limit == "epsilon") QVERIFY(solver.lastRecord().gap <= 1e-3);
        // The run is over: libocas is free for the next one.
        LibocasSolver next({heartScale(), nullptr}, o);
        QCOMPARE(next.step().code == StatusCode::NumericalFailure, false);
    }

    // Badly scaled data: libocas's inner QP ends at its iteration limit (libqp exitflag 0) at
    // every iteration and its bounds creep (two examples, one without features: 0.0025 per
    // iteration, each slower than the last, for minutes). The run stops after qp_limit_stop
    // such iterations in a row and says why; with qp_limit_stop = 0 it goes on. Our OCAS
    // solves the same data (the independent check that the data are solvable).
    void innerQpAtItsLimitStopsTheRun() {
        const auto data =
            std::make_shared<const Dataset>(parseLibsvm("1\n-1 172:31701.25\n", "creep.txt"));
        LibocasSolver solver({data, nullptr});
        const Status status = solve(solver);
        QCOMPARE(status.code, StatusCode::NumericalFailure);
        QVERIFY2(
            status.message.find("inner QP ended at its iteration limit") != std::string::npos &&
                status.message.find("reach 31701.25") != std::string::npos,
            status.message.c_str());
        QCOMPARE(static_cast<int>(solver.trace().size()), 6);  // the first QP converges
        QVERIFY(!solver.threadRunning());
        QVERIFY(solver.lastRecord().gap > 0.4);

        LibocasOptions o;
        o.qp_limit_stop = 0;
        o.stop.max_iterations = 8;
        LibocasSolver patient({data, nullptr}, o);
        QCOMPARE(solve(patient).code, StatusCode::IterationLimit);

        OcasSolver ocas({data, nullptr});
        QCOMPARE(solve(ocas).code, StatusCode::Converged);
        // The optimum is 1/2 (example 1 always costs 1, m = 2) plus λ/2 w² ≈ 2.5e-10.
        QVERIFY(ocas.lastRecord().lower > 0.4995 && ocas.lastRecord().upper < 0.5001);
    }

    // libocas keeps its buffers in statics: a second live run is refused, with a reason.
    void overlappingRunsAreRefused() {
        LibocasOptions o;
        o.stop.tol_rel = 1e-12;
        auto first = std::make_unique<LibocasSolver>(LinearProblem{heartScale(), nullptr}, o);
        QCOMPARE(first->step().code, StatusCode::Running);
        LibocasSolver second({heartScale(), nullptr}, o);
        const Status refused = second.step();
        QCOMPARE(refused.code, StatusCode::NumericalFailure);
        QVERIFY2(refused.message.find("another libocas run") != std::string::npos,
                 refused.message.c_str());
        first.reset();
        LibocasSolver third({heartScale(), nullptr}, o);
        QCOMPARE(third.step().code, StatusCode::Running);
    }

    void defaultOptionsAreValid() {
        std::string why;
        QVERIFY2(LibocasOptions{}.isValid(&why), why.c_str());
        LibocasSolver solver({heartScale(), nullptr});
        QCOMPARE(solver.status().code, StatusCode::Running);
        QCOMPARE(solver.name(), std::string("libocas"));
        QVERIFY(solve(solver).code == StatusCode::Converged);
    }

    void invalidOptionsAreRejected_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("logistic") << QString("risk") << QString("logistic")
                                  << QString("LibocasOptions::risk = 'logistic'");
        QTest::newRow("squared_hinge") << QString("risk") << QString("squared_hinge")
                                       << QString("LibocasOptions::risk = 'squared_hinge'");
        QTest::newRow("C<0") << QString("C") << QString("-1") << QString("LibocasOptions::C = -1");
        QTest::newRow("method") << QString("method") << QString("newton")
                                << QString("LibocasOptions::method = 'newton'");
        QTest::newRow("buf_size") << QString("buf_size") << QString("1")
                                  << QString("LibocasOptions::buf_size = 1");
        QTest::newRow("max_iterations") << QString("max_iterations") << QString("0")
                                        << QString("LibocasOptions::max_iterations = 0");
        QTest::newRow("qp_limit_stop") << QString("qp_limit_stop") << QString("-1")
                                       << QString("LibocasOptions::qp_limit_stop = -1");
    }
    void invalidOptionsAreRejected() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        LibocasOptions o;
        if (key == "risk") o.model.risk = value.toStdString();
        if (key == "C") o.model.C = value.toDouble();
        if (key == "method") o.method = value.toStdString();
        if (key == "buf_size") o.buf_size = value.toInt();
        if (key == "max_iterations") o.stop.max_iterations = value.toInt();
        if (key == "qp_limit_stop") o.qp_limit_stop = value.toInt();
        std::string why;
        QVERIFY(!o.isValid(&why));
        QVERIFY2(why.find(expected.toStdString()) == 0, why.c_str());
        LibocasSolver solver({heartScale(), nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QVERIFY2(solver.status().message.find(expected.toStdString()) == 0,
                 solver.status().message.c_str());
        QCOMPARE(solver.step().code, StatusCode::InvalidInput);
        QVERIFY(solver.trace().empty());
        QVERIFY(!solver.threadRunning());
    }

    void optionsRoundTrip() {
        LibocasOptions o;
        std::string why;
        QVERIFY2(assignOptions(o, {{"method", "bmrm"}, {"buf_size", "50"}, {"C", "0.5"}}, &why),
                 why.c_str());
        QCOMPARE(o.method, std::string("bmrm"));
        QCOMPARE(o.bufferSize(), 50u);
        QCOMPARE(o.model.C, 0.5);
        QCOMPARE(LibocasOptions{}.bufferSize(), 1001u);  // max_iterations + 1
    }
};

QTEST_GUILESS_MAIN(TestPeers)
#include "test_peers.moc"
