// SPDX-License-Identifier: GPL-3.0-or-later
// The MKL regularisation path (solvers/kernel/mkl_path.h), against independent answers:
//   * the kernel matrices are the kernels' formulas, and λ₀ and dⱼ follow their definitions
//     (eigenvalues counted by the test's own eigensolver; a linear kernel on 2-D data has
//     d = 2 for γ = 1, a near-identity Gaussian d = n);
//   * at sampled λ along the path, α equals a from-scratch damped Newton solve of the same
//     barrier problem written here (relative 1e-6), for the squared and the logistic loss,
//     with first- and second-order predictors;
//   * every corrected point's KKT residual R = ψ'(λα) + Σⱼ ηⱼKⱼα, recomputed here relative to
//     the terms it sums (maxᵢ |Rᵢ| / (1 + |ψ'ᵢ| + Σⱼ ηⱼ(|Kⱼ||α|)ᵢ)), is below the corrector
//     tolerance, and ηⱼ = 2μ/(λ(dⱼ² − αᵀKⱼα));
//   * one kernel: every point is the 2-norm (ridge) problem with kernel ηK, solved directly,
//     and η solves the barrier's scalar equation αᵀKα = d² − 2μ/(λη) (eigen-decomposition and
//     bisection);
//   * μ → 0: the dual objective D(α_μ) approaches the block-1-norm optimum P*, computed here
//     by projected Newton on the variational form min_{t ≥ 0} (λ/2)(yᵀ(Σ tⱼKⱼ + λI)⁻¹y +
//     Σ dⱼ²tⱼ) (SimpleMKL's formulation with the squared loss and a closed-form inner ridge),
//     within the barrier's bound 0 ≤ P* − D(α_μ) ≤ mμ;
//   * the trace: λ decreases, the run ends at lambda_min, at the step budget, or at zero
//     training error; L ≤ U; options and data are refused with messages.
// SILP and SimpleMKL themselves are not the reference for the μ → 0 test: they solve the
// hinge-loss MKL, whose ψ is neither strictly convex nor smooth (outside the path's losses).
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <QtTest>
#include <cmath>
#include <functional>
#include <map>
#include <memory>

#include "kernel/mkl_path.h"
#include "record_columns.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;

namespace {

// Deterministic uniform numbers in (0, 1) (SplitMix64).
struct Uniform {
    std::uint64_t state;
    double operator()() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
    }
};

// n points in [−2, 2]²: regression targets sin(x₁) + 0.3 x₂ + noise, or classes from the
// sign of x₁ x₂ + 0.3 x₁ with a fraction `flip` of labels flipped.
std::shared_ptr<const Dataset> makeData(int n, bool classification, std::uint64_t seed,
                                        double flip = 0.1) {
    Uniform u{seed};
    auto data = std::make_shared<Dataset>();
    data->name = classification ? "xor2d" : "sine2d";
    data->dense.resize(n, 2);
    data->labels.resize(n);
    for (int i = 0; i < n; ++i) {
        const double a = 4 * u() - 2, b = 4 * u() - 2;
        data->dense(i, 0) = a;
        data->dense(i, 1) = b;
        if (classification) {
            double label = a * b + 0.3 * a > 0 ? 1.0 : -1.0;
            if (u() < flip) label = -label;
            data->labels[i] = label;
        } else {
            data->labels[i] = std::sin(a) + 0.3 * b + 0.2 * (u() - 0.5);
        }
    }
    return data;
}

// The kernels "gaussian:g…;linear" by their formulas (no normalisation).
std::vector<Eigen::MatrixXd> ownKernels(const Dataset& data, const std::vector<double>& gammas,
                                        bool linear) {
    const int n = data.size();
    std::vector<Eigen::MatrixXd> K;
    for (double g : gammas) {
        Eigen::MatrixXd k(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                k(i, j) = std::exp(-g * (data.dense.row(i) - data.dense.row(j)).squaredNorm());
        K.push_back(k);
    }
    if (linear) K.push_back(data.dense * data.dense.transpose());
    return K;
}

MklPathOptions pathOptions(const std::string& kernels, const std::string& loss) {
    MklPathOptions o;
    o.kernels = kernels;
    o.loss = loss;
    o.normalize = "none";
    o.standardize = false;
    o.stop.max_iterations = 400;
    return o;
}

// The barrier problem max_α G(α, λ) = −Σψ(λα) + μ Σ log(dⱼ² − αᵀKⱼα), written out again.
struct Barrier {
    std::vector<Eigen::MatrixXd> K;
    Eigen::VectorXd y, d2;
    double mu = 1e-3;
    bool logistic = false;

    bool feasible(const Eigen::VectorXd& a, double lambda) const {
        for (const auto& k : K)
            if (!(a.dot(k * a) < d2[&k - &K[0]])) return false;
        if (logistic) {
            for (Eigen::Index i = 0; i < a.size(); ++i) {
                const double z = lambda * a[i] * y[i];
                if (!(z > -1 && z < 0)) return false;
            }
        }
        return true;
    }
    double value(const Eigen::VectorXd& a, double lambda) const {
        double g = 0.0;
        for (Eigen::Index i = 0; i < a.size(); ++i) {
            const double v = lambda * a[i];
            if (logistic) {
                const double z = v * y[i];
                g -= (1 + z) * std::log(1 + z) - z * std::log(-z);
            } else {
                g -= 0.5 * v * v + v * y[i];
            }
        }
        for (std::size_t j = 0; j < K.size(); ++j)
            g += mu * std::log(d2[static_cast<Eigen::Index>(j)] - a.dot(K[j] * a));
        return g;
    }
    double dualObjective(const Eigen::VectorXd& a, double lambda) const {
        Barrier plain = *this;
        plain.K.clear();
        return plain.value(a, lambda);
    }
    Eigen::VectorXd eta(const Eigen::VectorXd& a, double lambda) const {
        Eigen::VectorXd e(static_cast<Eigen::Index>(K.size()));
        for (std::size_t j = 0; j < K.size(); ++j)
            e[static_cast<Eigen::Index>(j)] =
                2 * mu / (lambda * (d2[static_cast<Eigen::Index>(j)] - a.dot(K[j] * a)));
        return e;
    }
    // ψ'(λα) + Σ ηⱼ Kⱼ α.
    Eigen::VectorXd kkt(const Eigen::VectorXd& a, double lambda) const {
        Eigen::VectorXd r(a.size());
        for (Eigen::Index i = 0; i < a.size(); ++i) {
            const double v = lambda * a[i];
            r[i] = logistic ? y[i] * (std::log(1 + v * y[i]) - std::log(-v * y[i])) : v + y[i];
        }
        const Eigen::VectorXd e = eta(a, lambda);
        for (std::size_t j = 0; j < K.size(); ++j)
            r += e[static_cast<Eigen::Index>(j)] * (K[j] * a);
        return r;
    }
    // maxᵢ |Rᵢ| / (1 + |ψ'ᵢ| + Σⱼ ηⱼ (|Kⱼ| |α|)ᵢ): R against the terms it sums.
    double kktRelative(const Eigen::VectorXd& a, double lambda) const {
        const Eigen::VectorXd r = kkt(a, lambda);
        const Eigen::VectorXd e = eta(a, lambda);
        double worst = 0;
        for (Eigen::Index i = 0; i < a.size(); ++i) {
            const double v = lambda * a[i];
            double scale =
                1 + std::abs(logistic ? std::log(1 + v * y[i]) - std::log(-v * y[i]) : v + y[i]);
            for (std::size_t j = 0; j < K.size(); ++j)
                for (Eigen::Index k = 0; k < a.size(); ++k)
                    scale += e[static_cast<Eigen::Index>(j)] * std::abs(K[j](i, k) * a[k]);
            worst = std::max(worst, std::abs(r[i]) / scale);
        }
        return worst;
    }
    // −∇²G.
    Eigen::MatrixXd curvature(const Eigen::VectorXd& a, double lambda) const {
        const Eigen::Index n = a.size();
        Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const double z = lambda * a[i] * y[i];
            M(i, i) = lambda * lambda * (logistic ? 1 / (1 + z) - 1 / z : 1.0);
        }
        for (std::size_t j = 0; j < K.size(); ++j) {
            const Eigen::VectorXd g = K[j] * a;
            const double s = d2[static_cast<Eigen::Index>(j)] - a.dot(g);
            M += 2 * mu / s * K[j] + 4 * mu / (s * s) * g * g.transpose();
        }
        return M;
    }
    // From scratch at λ, as an interior-point method would: damped Newton from a strictly
    // feasible multiple of β = argmin ψ with the barrier weight 10⁶μ, then 10⁵μ, …, μ.
    Eigen::VectorXd solve(double lambda) const {
        const Eigen::VectorXd beta = logistic ? Eigen::VectorXd(-0.5 * y) : Eigen::VectorXd(-y);
        double c = logistic ? 1.0 / lambda : 1e300;
        for (std::size_t j = 0; j < K.size(); ++j)
            c = std::min(c,
                         0.5 * std::sqrt(d2[static_cast<Eigen::Index>(j)] / beta.dot(K[j] * beta)));
        Eigen::VectorXd a = c * beta;
        Barrier stage = *this;
        for (int k = 6; k >= 0; --k) {
            stage.mu = mu * std::pow(10.0, k);
            stage.newton(a, lambda);
        }
        return a;
    }
    void newton(Eigen::VectorXd& a, double lambda) const {
        for (int iteration = 0; iteration < 500; ++iteration) {
            const Eigen::VectorXd r = kkt(a, lambda);
            const double rNorm = r.lpNorm<Eigen::Infinity>();
            if (rNorm <= 1e-11) return;
            const Eigen::VectorXd gradient = -lambda * r;
            const Eigen::VectorXd step = curvature(a, lambda).ldlt().solve(gradient);
            const double g0 = value(a, lambda);
            double t = 1.0;
            for (int halvings = 0; halvings < 80; ++halvings, t *= 0.5) {
                const Eigen::VectorXd trial = a + t * step;
                if (!feasible(trial, lambda)) continue;
                if (value(trial, lambda) >= g0 + 1e-4 * t * gradient.dot(step) ||
                    kkt(trial, lambda).lpNorm<Eigen::Infinity>() < rNorm) {
                    a = trial;
                    break;
                }
            }
            if (t < 1e-20) return;  // rounding: no further progress is measurable
        }
    }
};

Barrier barrierOf(const MklPathSolver& solver, const std::vector<Eigen::MatrixXd>& K, double mu) {
    Barrier b;
    b.K = K;
    b.y = solver.targets();
    b.d2 = solver.penaltyWeights().array().square();
    b.mu = mu;
    b.logistic = solver.loss() == PathLoss::Logistic;
    return b;
}

// min_{t ≥ 0} J(t) = (λ/2)(yᵀ(Σ tⱼKⱼ + λI)⁻¹y + Σ dⱼ² tⱼ) by projected Newton: the
// block-1-norm optimum P* for the squared loss (J(t) ≥ P* for every t ≥ 0).
double blockOneNormOptimum(const std::vector<Eigen::MatrixXd>& K, const Eigen::VectorXd& y,
                           const Eigen::VectorXd& d2, double lambda) {
    const int m = static_cast<int>(K.size());
    const Eigen::Index n = y.size();
    auto J = [&](const Eigen::VectorXd& t, Eigen::VectorXd* grad, Eigen::MatrixXd* hess) {
        Eigen::MatrixXd A = lambda * Eigen::MatrixXd::Identity(n, n);
        for (int j = 0; j < m; ++j)
            A += t[j] * K[j];
        const Eigen::LLT<Eigen::MatrixXd> llt(A);
        const Eigen::VectorXd c = llt.solve(y);
        if (grad) {
            grad->resize(m);
            std::vector<Eigen::VectorXd> Kc;
            for (int j = 0; j < m; ++j) {
                Kc.push_back(K[j] * c);
                (*grad)[j] = 0.5 * lambda * (d2[j] - c.dot(Kc.back()));
            }
            hess->resize(m, m);
            for (int j = 0; j < m; ++j) {
                const Eigen::VectorXd AKc = llt.solve(Kc[j]);
                for (int k = 0; k < m; ++k)
                    (*hess)(j, k) = lambda * Kc[k].dot(AKc);
            }
        }
        return 0.5 * lambda * (y.dot(c) + d2.dot(t));
    };
    Eigen::VectorXd t = Eigen::VectorXd::Constant(m, 1.0);
    double value = J(t, nullptr, nullptr);
    for (int iteration = 0; iteration < 200; ++iteration) {
        Eigen::VectorXd g;
        Eigen::MatrixXd H;
        value = J(t, &g, &H);
        // Free variables: positive, or at 0 with a descent direction into t > 0.
        std::vector<int> free;
        for (int j = 0; j < m; ++j)
            if (t[j] > 1e-14 || g[j] < 0) free.push_back(j);
        Eigen::VectorXd step = Eigen::VectorXd::Zero(m);
        if (!free.empty()) {
            const auto f = static_cast<Eigen::Index>(free.size());
            Eigen::MatrixXd Hf(f, f);
            Eigen::VectorXd gf(f);
            for (Eigen::Index a = 0; a < f; ++a) {
                gf[a] = g[free[a]];
                for (Eigen::Index b = 0; b < f; ++b)
                    Hf(a, b) = H(free[a], free[b]);
            }
            const Eigen::VectorXd sf = -Hf.ldlt().solve(gf);
            for (Eigen::Index a = 0; a < f; ++a)
                step[free[a]] = sf[a];
        }
        double s = 1.0;
        bool moved = false;
        for (int h = 0; h < 60 && !moved; ++h, s *= 0.5) {
            const Eigen::VectorXd trial = (t + s * step).cwiseMax(0.0);
            const double v = J(trial, nullptr, nullptr);
            if (v < value - 1e-4 * std::abs(g.dot(trial - t)) || (v < value && h > 40)) {
                t = trial;
                value = v;
                moved = true;
            }
        }
        if (!moved) break;
    }
    return value;
}

}  // namespace

class TestMklPath : public QObject {
    Q_OBJECT

  private slots:
    void kernelsAndStartFollowDefinitions();
    void penaltyWeightsCountEigenvalues();
    void pathMatchesScratchNewton_data();
    void pathMatchesScratchNewton();
    void oneKernelIsRidgeAtEveryPoint();
    void smallMuApproachesBlockOneNorm();
    void traceAndStopRules();
    void zeroTrainingErrorStops();
    void heldOutErrorAndSummary();
    void rejectsBadOptionsAndData();
};

void TestMklPath::kernelsAndStartFollowDefinitions() {
    const auto data = makeData(30, false, 7);
    MklPathSolver solver({data, nullptr}, pathOptions("gaussian:0.5,2;linear", "squared"));
    QVERIFY2(solver.status().code == StatusCode::Running, solver.status().message.c_str());
    const auto own = ownKernels(*data, {0.5, 2}, true);
    QCOMPARE(solver.kernelMatrices().size(), own.size());
    for (std::size_t j = 0; j < own.size(); ++j)
        QVERIFY((solver.kernelMatrices()[j] - own[j]).norm() <= 1e-12 * own[j].norm());
    // Centred targets; λ₀ = maxⱼ ‖y‖_{Kⱼ} / dⱼ with d = 1.
    const Eigen::VectorXd y = data->labels.array() - data->labels.mean();
    QVERIFY((solver.targets() - y).norm() <= 1e-12 * y.norm());
    double lambda0 = 0;
    for (const auto& k : own)
        lambda0 = std::max(lambda0, std::sqrt(y.dot(k * y)));
    QVERIFY(std::abs(solver.lambda0() - lambda0) <= 1e-12 * lambda0);
    QCOMPARE(solver.lastRecord().pathParameter, solver.lambda0());
    QCOMPARE(solver.lambdaMin(), 1e-4 * solver.lambda0());
}

void TestMklPath::penaltyWeightsCountEigenvalues() {
    const auto data = makeData(25, false, 11);
    MklPathOptions options = pathOptions("linear;gaussian:1000;gaussian:1", "squared");
    options.gamma = 1.0;
    MklPathSolver solver({data, nullptr}, options);
    QVERIFY2(solver.status().code == StatusCode::Running, solver.status().message.c_str());
    const Eigen::VectorXd d = solver.penaltyWeights();
    QCOMPARE(d[0], 2.0);   // rank 2, both eigenvalues well above tr/(2n)
    QCOMPARE(d[1], 25.0);  // K ≈ I: every eigenvalue ≈ 1 = tr/n
    const auto own = ownKernels(*data, {1}, false);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(own[0], Eigen::EigenvaluesOnly);
    const double count =
        static_cast<double>((eigen.eigenvalues().array() >= own[0].trace() / 50.0).count());
    QCOMPARE(d[2], count);
    QVERIFY(count > 2 && count < 25);

    options.gamma = 0.5;
    MklPathSolver half({data, nullptr}, options);
    QVERIFY(std::abs(half.penaltyWeights()[1] - 5.0) <= 1e-12);
    // λ₀ uses dⱼ: maxⱼ ‖y‖_{Kⱼ} / dⱼ.
    const auto all = ownKernels(*data, {1000, 1}, true);
    const Eigen::VectorXd y = solver.targets();
    const double expected =
        std::max({std::sqrt(y.dot(all[2] * y)) / 2.0, std::sqrt(y.dot(all[0] * y)) / 25.0,
                  std::sqrt(y.dot(all[1] * y)) / count});
    QVERIFY(std::abs(solver.lambda0() - expected) <= 1e-12 * expected);
}

void TestMklPath::pathMatchesScratchNewton_data() {
    QTest::addColumn<QString>("loss");
    QTest::addColumn<int>("order");
    QTest::newRow("squared, order 2") << "squared" << 2;
    QTest::newRow("squared, order 1") << "squared" << 1;
    QTest::newRow("logistic, order 2") << "logistic" << 2;
    QTest::newRow("logistic, order 1") << "logistic" << 1;
}

void TestMklPath::pathMatchesScratchNewton() {
    QFETCH(QString, loss);
    QFETCH(int, order);
    const bool logistic = loss == "logistic";
    const auto data = makeData(40, logistic, 21, 0.15);
    MklPathOptions options = pathOptions("gaussian:0.5,2;linear", loss.toStdString());
    options.order = order;
    options.lambda_min = 0;  // λ₀ · 1e-4
    MklPathSolver solver({data, nullptr}, options);
    QVERIFY2(solver.status().code == StatusCode::Running, solver.status().message.c_str());
    solve(solver);
    QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
    const Barrier barrier = barrierOf(solver, ownKernels(*data, {0.5, 2}, true), options.mu);
    const auto& lambdas = solver.pathLambdas();
    const auto& alphas = solver.pathAlphas();
    QCOMPARE(lambdas.size(), solver.trace().size() + 1);
    // Every KKT residual within the corrector tolerance (the test's own formula), every η
    // column = 2μ/(λ sⱼ).
    for (std::size_t p = 0; p < lambdas.size(); ++p) {
        const double r = barrier.kktRelative(alphas[p], lambdas[p]);
        QVERIFY2(r <= options.kkt_tolerance * (1 + 1e-6) + 1e-13,
                 qPrintable(QString("point %1: residual %2").arg(p).arg(r)));
        QVERIFY(barrier.feasible(alphas[p], lambdas[p]));
        if (p == 0) continue;
        const IterationRecord& rec = solver.trace()[p - 1];
        QCOMPARE(rec.pathParameter, lambdas[p]);
        const Eigen::VectorXd eta = barrier.eta(alphas[p], lambdas[p]);
        const std::vector<std::string> labels = {"gaussian:0.5", "gaussian:2", "linear"};
        for (int j = 0; j < 3; ++j) {
            const double got = column(solver, rec, "eta:" + labels[static_cast<std::size_t>(j)]);
            QVERIFY(std::abs(got - eta[j]) <= 1e-8 * eta[j]);
        }
        QVERIFY(column(solver, rec, "kkt_residual") <= options.kkt_tolerance);
    }
    // Sampled points against a from-scratch Newton solve.
    const std::size_t every = std::max<std::size_t>(1, lambdas.size() / 6);
    int compared = 0;
    for (std::size_t p = 0; p < lambdas.size(); p += every) {
        const Eigen::VectorXd reference = barrier.solve(lambdas[p]);
        const double rr = barrier.kkt(reference, lambdas[p]).lpNorm<Eigen::Infinity>();
        QVERIFY2(rr <= 1e-10,
                 qPrintable(QString("lambda %1 (point %2 of %3): reference residual %4")
                                .arg(lambdas[p])
                                .arg(p)
                                .arg(lambdas.size())
                                .arg(rr)));
        const double relative = (alphas[p] - reference).norm() / reference.norm();
        QVERIFY2(
            relative <= 1e-6,
            qPrintable(QString("lambda %1: relative difference %2").arg(lambdas[p]).arg(relative)));
        ++compared;
    }
    QVERIFY(compared >= 5);
    qInfo("%s order %d: %d path points, %lld factorisations, %.3f s", qPrintable(loss), order,
          solver.iteration(), solver.lastRecord().oracleCalls, solver.lastRecord().seconds);
}

void TestMklPath::oneKernelIsRidgeAtEveryPoint() {
    const auto data = makeData(35, false, 5);
    MklPathOptions options = pathOptions("gaussian:1", "squared");
    options.mu = 1e-4;
    MklPathSolver solver({data, nullptr}, options);
    solve(solver);
    QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
    const Eigen::MatrixXd K = ownKernels(*data, {1}, false)[0];
    const Eigen::VectorXd y = solver.targets();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(K);
    const Eigen::VectorXd ev = eigen.eigenvalues().cwiseMax(0.0);
    const Eigen::VectorXd uy = eigen.eigenvectors().transpose() * y;
    const auto& lambdas = solver.pathLambdas();
    for (std::size_t p = 1; p < lambdas.size(); ++p) {
        const double lambda = lambdas[p];
        const Eigen::VectorXd alpha = solver.pathAlphas()[p];
        const double eta = 2 * options.mu / (lambda * (1.0 - alpha.dot(K * alpha)));
        // The 2-norm problem with kernel ηK and ridge λ: α = −(ηK + λI)⁻¹ y.
        const Eigen::MatrixXd A = eta * K + lambda * Eigen::MatrixXd::Identity(y.size(), y.size());
        const Eigen::VectorXd ridge = -A.ldlt().solve(y);
        QVERIFY2((alpha - ridge).norm() <= 1e-6 * ridge.norm(),
                 qPrintable(QString("lambda %1").arg(lambda)));
        // η from the scalar equation q(η) = αᵀKα = Σ ev (uᵀy)²/(η ev + λ)² = 1 − 2μ/(λη),
        // q decreasing and the right side increasing in η: bisection on their difference.
        auto excess = [&](double e) {
            double q = 0;
            for (Eigen::Index k = 0; k < ev.size(); ++k)
                q += ev[k] * uy[k] * uy[k] / ((e * ev[k] + lambda) * (e * ev[k] + lambda));
            return q - (1.0 - 2 * options.mu / (lambda * e));
        };
        double lo = 1e-300, hi = 1.0;
        while (excess(hi) > 0)
            hi *= 2;
        for (int i = 0; i < 200; ++i) {
            const double mid = std::sqrt(lo * hi) > 0 ? 0.5 * (lo + hi) : hi;
            (excess(mid) > 0 ? lo : hi) = mid;
        }
        QVERIFY2(std::abs(eta - hi) <= 1e-6 * hi,
                 qPrintable(QString("lambda %1: eta %2 vs %3").arg(lambda).arg(eta).arg(hi)));
    }
    QVERIFY(lambdas.size() > 5);
}

void TestMklPath::smallMuApproachesBlockOneNorm() {
    // P* at λ = λ₀/20 by the test's own solver; the path ends there (lambda_min) for each μ.
    const auto data = makeData(40, false, 3);
    const auto K = ownKernels(*data, {0.5, 2}, true);
    double previousGap = 1e300;
    for (double mu : {1e-2, 1e-3, 1e-4, 1e-5}) {
        MklPathOptions options = pathOptions("gaussian:0.5,2;linear", "squared");
        options.mu = mu;
        MklPathSolver probe({data, nullptr}, options);
        options.lambda_min = probe.lambda0() / 20;
        MklPathSolver solver({data, nullptr}, options);
        solve(solver);
        QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
        QCOMPARE(solver.lambda(), options.lambda_min);
        const double lambda = solver.lambda();
        const Barrier barrier = barrierOf(solver, K, mu);
        const double dual = barrier.dualObjective(solver.alpha(), lambda);
        const double optimum = blockOneNormOptimum(K, solver.targets(), barrier.d2, lambda);
        // −D is the record's lower bound with the opposite sign convention: D(α) ≤ P*.
        QVERIFY(std::abs(solver.lastRecord().lower - dual) <= 1e-9 * std::abs(dual));
        const double gap = optimum - dual;
        qInfo("mu %g: P* - D(alpha_mu) = %.3e (bound m mu = %.1e), U - L = %.3e", mu, gap, 3 * mu,
              solver.lastRecord().gap);
        QVERIFY2(gap >= -1e-9 * std::abs(optimum), qPrintable(QString::number(gap)));
        QVERIFY2(gap <= 3 * mu + 1e-9 * std::abs(optimum), qPrintable(QString::number(gap)));
        QVERIFY(gap < previousGap);
        QVERIFY(solver.lastRecord().lower <= optimum + 1e-9 * std::abs(optimum));
        QVERIFY(solver.lastRecord().upper >= optimum - 1e-9 * std::abs(optimum));
        previousGap = gap;
    }
    QVERIFY(previousGap <= 1e-4);
}

void TestMklPath::traceAndStopRules() {
    const auto data = makeData(30, false, 9);
    MklPathOptions options = pathOptions("gaussian:0.5,2;linear", "squared");
    options.stop.max_iterations = 3;
    MklPathSolver capped({data, nullptr}, options);
    solve(capped);
    QCOMPARE(capped.status().code, StatusCode::IterationLimit);
    QCOMPARE(capped.trace().size(), std::size_t(3));

    options.stop.max_iterations = 400;
    MklPathSolver solver({data, nullptr}, options);
    const auto start = std::dynamic_pointer_cast<const MklPathSnapshot>(solver.snapshot());
    solve(solver);
    QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
    QVERIFY(solver.status().message.find("lambda_min") != std::string::npos);
    // KernelEntered / KernelLeft where a kernel's share ηⱼ tr Kⱼ of the combined trace
    // crosses active_threshold between consecutive points.
    const std::vector<Eigen::MatrixXd> K = ownKernels(*data, {0.5, 2}, true);
    const auto active = [&](const Eigen::VectorXd& eta) {
        std::vector<bool> flags;
        double total = 0;
        for (std::size_t j = 0; j < K.size(); ++j)
            total += eta[static_cast<Eigen::Index>(j)] * K[j].trace();
        for (std::size_t j = 0; j < K.size(); ++j)
            flags.push_back(eta[static_cast<Eigen::Index>(j)] * K[j].trace() >=
                            options.active_threshold * total);
        return flags;
    };
    std::vector<bool> was = active(start->eta0);
    int changes = 0;
    for (const IterationRecord& r : solver.trace()) {
        Eigen::VectorXd eta(3);
        for (int j = 0; j < 3; ++j)
            eta[j] = column(solver, r, "eta:" + start->kernelLabels[static_cast<std::size_t>(j)]);
        const std::vector<bool> is = active(eta);
        bool in = false, out = false;
        for (std::size_t j = 0; j < is.size(); ++j) {
            in = in || (!was[j] && is[j]);
            out = out || (was[j] && !is[j]);
        }
        QCOMPARE((r.events & KernelEntered) != 0, in);
        QCOMPARE((r.events & KernelLeft) != 0, out);
        changes += in || out;
        was = is;
    }
    qInfo("%d of %zu path points changed the active set", changes, solver.trace().size());
    QVERIFY(changes > 0);
    double previous = solver.lambda0();
    for (const IterationRecord& r : solver.trace()) {
        QVERIFY(r.pathParameter < previous);
        QVERIFY(r.lower <= r.upper + 1e-9 * std::abs(r.upper));
        // U − L ≤ mμ, up to the corrector's residual.
        QVERIFY2(r.gap <= 3 * options.mu * 1.01 + 1e-6,
                 qPrintable(QString("gap %1 at lambda %2").arg(r.gap).arg(r.pathParameter)));
        QVERIFY(column(solver, r, "newton_steps") <= options.max_newton);
        QVERIFY(column(solver, r, "sigma_step") > 0);
        QCOMPARE(column(solver, r, "lambda"), r.pathParameter);
        previous = r.pathParameter;
    }
    QCOMPARE(solver.lambda(), solver.lambdaMin());
    // The training error falls to (nearly) 0 as λ → 0 (regression: mean squared error).
    QVERIFY(column(solver, solver.lastRecord(), "train_error") <
            0.05 * column(solver, solver.trace().front(), "train_error"));
    // lambda_min above λ₀: the path is its start.
    options.lambda_min = 2 * solver.lambda0();
    MklPathSolver none({data, nullptr}, options);
    solve(none);
    QCOMPARE(none.status().code, StatusCode::Converged);
    QVERIFY(none.status().message.find("already") != std::string::npos);
}

void TestMklPath::zeroTrainingErrorStops() {
    const auto data = makeData(40, true, 17, 0.0);  // separable by x₁x₂ + 0.3x₁
    MklPathOptions options = pathOptions("gaussian:0.5,2;linear", "logistic");
    options.lambda_min = 1e-12;
    MklPathSolver solver({data, nullptr}, options);
    solve(solver);
    QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
    QVERIFY2(solver.status().message.find("training error 0") != std::string::npos,
             solver.status().message.c_str());
    QCOMPARE(column(solver, solver.lastRecord(), "train_error"), 0.0);
    // The predictor f = −Σ ηⱼ Kⱼ α classifies every training example correctly.
    const auto K = ownKernels(*data, {0.5, 2}, true);
    const Eigen::VectorXd eta = solver.eta();
    Eigen::VectorXd f = Eigen::VectorXd::Zero(data->size());
    for (int j = 0; j < 3; ++j)
        f -= eta[j] * (K[static_cast<std::size_t>(j)] * solver.alpha());
    for (int i = 0; i < data->size(); ++i)
        QVERIFY((f[i] > 0) == (data->labels[i] > 0));
}

void TestMklPath::heldOutErrorAndSummary() {
    const auto train = makeData(40, false, 31);
    const auto test = makeData(30, false, 32);
    MklPathOptions options = pathOptions("gaussian:0.5,2;linear", "squared");
    MklPathSolver solver({train, test}, options);
    solve(solver);
    QVERIFY2(solver.status().code == StatusCode::Converged, solver.status().message.c_str());
    // The held-out error of the final point, recomputed: f(z) = ȳ − Σⱼ ηⱼ Σᵢ αᵢ Kⱼ(xᵢ, z).
    const Eigen::VectorXd eta = solver.eta();
    const std::vector<double> gammas = {0.5, 2};
    double sse = 0;
    for (int t = 0; t < test->size(); ++t) {
        double f = train->labels.mean();
        for (int i = 0; i < train->size(); ++i) {
            const double d2 = (train->dense.row(i) - test->dense.row(t)).squaredNorm();
            const double k = eta[0] * std::exp(-0.5 * d2) + eta[1] * std::exp(-2 * d2) +
                             eta[2] * train->dense.row(i).dot(test->dense.row(t));
            f -= solver.alpha()[i] * k;
        }
        sse += (test->labels[t] - f) * (test->labels[t] - f);
    }
    const double testError = column(solver, solver.lastRecord(), "test_error");
    QVERIFY2(std::abs(testError - sse / test->size()) <= 1e-9 * testError,
             qPrintable(QString("%1 vs %2").arg(testError).arg(sse / test->size())));
    // Summary: the path arrays and the λ of the lowest held-out error.
    const SummaryFields summary = solver.summary();
    std::map<std::string, SummaryValue> fields(summary.begin(), summary.end());
    QVERIFY(fields.count("path") && fields.count("best_lambda"));
    const NamedSeries path = std::get<NamedSeries>(fields["path"]);
    QCOMPARE(path.size(), std::size_t(4));
    QCOMPARE(path[0].first, std::string("lambda"));
    QCOMPARE(path[0].second, solver.pathLambdas());
    QCOMPARE(path[3].first, std::string("linear"));
    QCOMPARE(path[3].second.size(), solver.pathLambdas().size());
    double best = 1e300, bestLambda = 0;
    for (const IterationRecord& r : solver.trace()) {
        const double e = column(solver, r, "test_error");
        if (e < best) best = e, bestLambda = r.pathParameter;
    }
    QVERIFY(std::isfinite(column(solver, solver.trace().front(), "test_error")));
    QCOMPARE(std::get<double>(fields["best_lambda"]), bestLambda);
    QCOMPARE(std::get<double>(fields["best_test_error"]), best);
    // The canonical shape: the best held-out error is inside the path, below both ends.
    QVERIFY(best < testError);
}

void TestMklPath::rejectsBadOptionsAndData() {
    std::string why;
    MklPathOptions defaults;
    QVERIFY2(defaults.isValid(&why), why.c_str());
    struct Case {
        std::function<void(MklPathOptions&)> change;
        std::string message;
    };
    const std::vector<Case> cases = {
        {[](MklPathOptions& o) { o.mu = 0; }, "MklPathOptions::mu = 0: must be"},
        {[](MklPathOptions& o) { o.gamma = 1.5; },
         "MklPathOptions::gamma = 1.5: must be in [0, 1]"},
        {[](MklPathOptions& o) { o.lambda_min = -1; }, "MklPathOptions::lambda_min = -1"},
        {[](MklPathOptions& o) { o.order = 3; }, "MklPathOptions::order = 3: must be 1 or 2"},
        {[](MklPathOptions& o) { o.loss = "hinge"; }, "MklPathOptions::loss = 'hinge'"},
        {[](MklPathOptions& o) { o.sigma_step = 0; }, "MklPathOptions::sigma_step = 0"},
        {[](MklPathOptions& o) { o.max_newton = 0; }, "MklPathOptions::max_newton = 0"},
        {[](MklPathOptions& o) { o.kkt_tolerance = -1; }, "MklPathOptions::kkt_tolerance = -1"},
        {[](MklPathOptions& o) { o.kernels = "gaussian:-1"; }, "kernel list 'gaussian:-1'"},
        {[](MklPathOptions& o) { o.active_threshold = 1; }, "MklPathOptions::active_threshold"},
    };
    const auto data = makeData(20, false, 1);
    for (const Case& c : cases) {
        MklPathOptions o;
        c.change(o);
        QVERIFY(!o.isValid(&why));
        QVERIFY2(why.find(c.message) != std::string::npos, why.c_str());
        MklPathSolver solver({data, nullptr}, o);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QCOMPARE(solver.status().message, why);
        QCOMPARE(solver.step().code, StatusCode::InvalidInput);
    }
    // Regression targets with the logistic loss.
    MklPathSolver logistic({data, nullptr}, pathOptions("linear", "logistic"));
    QCOMPARE(logistic.status().code, StatusCode::InvalidInput);
    QVERIFY2(logistic.status().message.find("two label values") != std::string::npos,
             logistic.status().message.c_str());
    // Constant targets: no path.
    auto flat = std::make_shared<Dataset>(*data);
    flat->labels.setConstant(3.0);
    MklPathSolver constant({flat, nullptr}, pathOptions("linear", "squared"));
    QCOMPARE(constant.status().code, StatusCode::InvalidInput);
    QVERIFY2(constant.status().message.find("no path") != std::string::npos,
             constant.status().message.c_str());
    // The memory budget.
    MklPathOptions big = pathOptions("gaussian:1,2,3", "squared");
    big.memory_mb = 1;
    auto large = makeData(300, false, 2);
    MklPathSolver tooBig({large, nullptr}, big);
    QCOMPARE(tooBig.status().code, StatusCode::InvalidInput);
    QVERIFY2(tooBig.status().message.find("memory_mb") != std::string::npos,
             tooBig.status().message.c_str());
    // A feature index beyond the data, no training set, a test set with more features.
    MklPathSolver beyond({data, nullptr}, pathOptions("gaussian:1@5", "squared"));
    QCOMPARE(beyond.status().code, StatusCode::InvalidInput);
    MklPathSolver empty({nullptr, nullptr}, pathOptions("linear", "squared"));
    QCOMPARE(empty.status().code, StatusCode::InvalidInput);
    auto wide = std::make_shared<Dataset>(*data);
    wide->setDimension(3);
    MklPathSolver wider({data, wide}, pathOptions("linear", "squared"));
    QCOMPARE(wider.status().code, StatusCode::InvalidInput);
    QVERIFY(wider.status().message.find("test set") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestMklPath)
#include "test_mkl_path.moc"
