// SPDX-License-Identifier: GPL-3.0-or-later
#include "mkl_path.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/memory_budget.h"
#include "core/number_text.h"
#include "kernel_set.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "MklPathOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Newton steps allowed for the first point (from β/(2λ₀), farther away than a predictor).
constexpr int kStartNewtonSteps = 200;
constexpr int kStartMuDecades = 4;
// Halvings of a Newton step before the corrector gives up (feasibility, then sufficient ascent
// or a smaller residual).
constexpr int kMaxHalvings = 60;
// The smallest step in σ before the path is declared stuck.
constexpr double kMinSigmaStep = 1e-10;
// After a correction of at most kEasyCorrection Newton steps (a good prediction: quadratic
// convergence from ~1e-3 to the tolerance) the next step in σ grows by kGrowth; after more than
// kHardCorrection it shrinks by kShrink.
constexpr int kEasyCorrection = 3;
constexpr int kHardCorrection = 6;
constexpr double kGrowth = 1.5;
constexpr double kShrink = 0.7;
// lambda_min = 0 means λ₀ times this.
constexpr double kDefaultLambdaRatio = 1e-4;

enum Line { kInput, kStart, kStartNewton, kRepeat, kTangent, kPredict, kCorrect, kAdapt, kUntil };

bool parseLoss(const std::string& text, PathLoss* out) {
    if (text == "squared") {
        *out = PathLoss::Squared;
    } else if (text == "logistic") {
        *out = PathLoss::Logistic;
    } else {
        return false;
    }
    return true;
}

// Mean 0 and variance 1 per feature with the training set's statistics (constant features are
// only centred); dense copies. The test set is transformed with the same statistics.
void standardize(std::shared_ptr<const Dataset>& train, std::shared_ptr<const Dataset>& test,
                 Eigen::RowVectorXd* meanOut, Eigen::RowVectorXd* scaleOut) {
    auto dense = [](const Dataset& data) {
        auto copy = std::make_shared<Dataset>(data);
        copy->setSparseStorage(false);
        return copy;
    };
    auto x = dense(*train);
    const Eigen::RowVectorXd mean = x->dense.colwise().mean();
    Eigen::RowVectorXd scale =
        ((x->dense.rowwise() - mean).array().square().colwise().sum() / x->size()).sqrt();
    for (Eigen::Index j = 0; j < scale.size(); ++j)
        scale[j] = scale[j] > 0 ? 1.0 / scale[j] : 1.0;
    x->dense = ((x->dense.rowwise() - mean).array().rowwise() * scale.array()).matrix();
    train = x;
    if (test) {
        auto t = dense(*test);
        t->dense = ((t->dense.rowwise() - mean).array().rowwise() * scale.array()).matrix();
        test = t;
    }
    *meanOut = mean;
    *scaleOut = scale;
}

}  // namespace

// ---- options ----

void MklPathOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.text("kernels", kernels,
           "kernel list, e.g. gaussian:0.1,1,10;poly:2;linear or gaussian:1@each_feature");
    v.choice("normalize", normalize, {"none", "diagonal", "trace"},
             "scaling of each base kernel: none, unit diagonal, or mean diagonal 1 (trace)");
    v.boolean("standardize", standardize,
              "scale every feature, and the targets of the squared loss, to mean 0 and variance "
              "1 (training statistics) first");
    v.choice("loss", loss, {"squared", "logistic"},
             "squared (regression on the targets) or logistic (two classes)");
    v.real("gamma", gamma,
           "penalty weights d_j = (number of eigenvalues of K_j >= tr K_j / (2n))^gamma, "
           "in [0, 1]");
    v.real("mu", mu, "weight of the log-barrier, fixed along the path, in (0, 1000]");
    v.real("lambda_min", lambda_min, "the path stops at this lambda (>= 0; 0: lambda_0 * 1e-4)");
    v.integer("order", order, "order of the predictor, 1 (tangent) or 2 (with curvature)");
    v.real("sigma_step", sigma_step, "first step in sigma = log(lambda), > 0 (then adaptive)");
    v.integer("max_newton", max_newton,
              "corrector Newton steps per trial before the step in sigma is halved (>= 1)");
    v.real("kkt_tolerance", kkt_tolerance,
           "corrector stops when max_i |R_i| / (1 + |psi'_i| + sum_j eta_j (|K_j| |alpha|)_i) "
           "<= this, R = psi'(lambda alpha) + sum_j eta_j K_j alpha (> 0)");
    v.real("active_threshold", active_threshold,
           "kernel j counts as active when eta_j tr K_j is at least this share of "
           "sum_k eta_k tr K_k, in (0, 1)");
    v.real("memory_mb", memory_mb, "budget in MB for the dense kernel matrices (>= 1)");
}

bool MklPathOptions::isValid(std::string* why) const {
    PathLoss parsedLoss;
    KernelNormalization normalization;
    if (!stop.isValid(kOwner, why) ||
        !requireText(parseNormalization(normalize, &normalization), kOwner, "normalize", normalize,
                     "must be one of none, diagonal, trace", why) ||
        !requireText(parseLoss(loss, &parsedLoss), kOwner, "loss", loss,
                     "must be one of squared, logistic", why) ||
        !require(std::isfinite(gamma) && gamma >= 0 && gamma <= 1, kOwner, "gamma", gamma,
                 "must be in [0, 1]", why) ||
        !require(std::isfinite(mu) && mu > 0 && mu <= 1e3, kOwner, "mu", mu,
                 "must be a finite number in (0, 1000]", why) ||
        !require(std::isfinite(lambda_min) && lambda_min >= 0, kOwner, "lambda_min", lambda_min,
                 "must be a finite number >= 0 (0: lambda_0 * 1e-4)", why) ||
        !require(order == 1 || order == 2, kOwner, "order", order, "must be 1 or 2", why) ||
        !require(std::isfinite(sigma_step) && sigma_step > 0 && sigma_step <= 10, kOwner,
                 "sigma_step", sigma_step, "must be in (0, 10]", why) ||
        !require(max_newton >= 1 && max_newton <= 1000, kOwner, "max_newton", max_newton,
                 "must be in [1, 1000]", why) ||
        !require(std::isfinite(kkt_tolerance) && kkt_tolerance > 0, kOwner, "kkt_tolerance",
                 kkt_tolerance, "must be a finite number > 0", why) ||
        !require(std::isfinite(active_threshold) && active_threshold > 0 && active_threshold < 1,
                 kOwner, "active_threshold", active_threshold, "must be in (0, 1)", why) ||
        !require(std::isfinite(memory_mb) && memory_mb >= 1, kOwner, "memory_mb", memory_mb,
                 "must be a finite number >= 1 (MB)", why)) {
        return false;
    }
    // The grammar only (the data's dimension is checked at construction): a dimension large
    // enough for any '@' index the text names.
    std::vector<KernelSpec> specs;
    std::string reason;
    if (!parseKernelList(kernels, 1 << 20, &specs, &reason)) {
        if (why)
            *why =
                std::string(kOwner) + ": kernel list " + quotedKernelText(kernels) + ": " + reason;
        return false;
    }
    return true;
}

// ---- snapshot ----

std::size_t MklPathSnapshot::bytes() const {
    std::size_t n = Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot);
    for (const std::string& label : kernelLabels)
        n += sizeof(std::string) + label.capacity();
    n += sizeof(double) * static_cast<std::size_t>(d.size() + eta.size() + eta0.size());
    // The α and the pictures are shared with the solver: only the pointers count.
    return n + sizeof(std::shared_ptr<const Eigen::VectorXd>) * alphas.capacity() +
           sizeof(std::shared_ptr<const MklPathPicture>) * pictures.capacity();
}

Eigen::VectorXd MklPathModel::predict(const Eigen::MatrixXd& points, const Eigen::VectorXd& alpha,
                                      const Eigen::VectorXd& eta) const {
    if (precomputed || !kernels || !train) return {};
    Dataset z;
    z.dense = points;
    if (z.dense.cols() < train->dimension())
        z.dense.conservativeResize(Eigen::NoChange, train->dimension());
    z.labels = Eigen::VectorXd::Zero(z.dense.rows());
    if (standardized)
        z.dense =
            ((z.dense.rowwise() - featureMean).array().rowwise() * featureScale.array()).matrix();
    const int n = static_cast<int>(alpha.size());
    const int rows = static_cast<int>(z.dense.rows());
    Eigen::VectorXd f = Eigen::VectorXd::Zero(rows);
    for (int j = 0; j < kernels->kernels() && j < eta.size(); ++j) {
        for (int r = 0; r < rows; ++r) {
            double sum = 0.0;
            for (int i = 0; i < n; ++i)
                sum += alpha[i] * kernels->cross(j, z, r, i);
            f[r] -= eta[j] * sum;
        }
    }
    if (!classification) f = (targetMean + targetScale * f.array()).matrix();
    return f;
}

namespace {

// The path view's pictures: f at this many points of a line (1-D), on a grid of this many
// points per side (2-D).
constexpr int kCurvePoints = 200;
constexpr int kGridCells = 48;

// The smallest and largest value of feature c over `data`.
std::pair<double, double> featureRange(const Dataset& data, int c) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int i = 0; i < data.size(); ++i) {
        const double v = data.row(i)(c);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return {lo, hi};
}

}  // namespace

MklPathPicture MklPathModel::picture(const Eigen::VectorXd& alpha,
                                     const Eigen::VectorXd& eta) const {
    MklPathPicture picture;
    const int dimension = train ? train->dimension() : 0;
    if (precomputed || !kernels || (dimension != 1 && dimension != 2)) return picture;
    picture.dimension = dimension;
    if (dimension == 1) {
        const auto [lo, hi] = featureRange(*train, 0);
        const double pad = std::max(0.05 * (hi - lo), 1e-9);
        Eigen::MatrixXd points(kCurvePoints, 1);
        for (int t = 0; t < kCurvePoints; ++t)
            points(t, 0) = lo - pad + (hi - lo + 2 * pad) * t / (kCurvePoints - 1);
        const Eigen::VectorXd f = predict(points, alpha, eta);
        picture.n = kCurvePoints;
        picture.x0 = points(0, 0);
        picture.dx = (hi - lo + 2 * pad) / (kCurvePoints - 1);
        picture.values.assign(f.data(), f.data() + f.size());
        return picture;
    }
    // 2-D: the data's box padded by 5 %.
    auto [x0, x1] = featureRange(*train, 0);
    auto [y0, y1] = featureRange(*train, 1);
    const double px = std::max(0.05 * (x1 - x0), 1e-9), py = std::max(0.05 * (y1 - y0), 1e-9);
    x0 -= px;
    x1 += px;
    y0 -= py;
    y1 += py;
    const int n = kGridCells;
    Eigen::MatrixXd points(n * n, 2);
    for (int iy = 0; iy < n; ++iy) {
        for (int ix = 0; ix < n; ++ix) {
            points(iy * n + ix, 0) = x0 + (x1 - x0) * ix / (n - 1);
            points(iy * n + ix, 1) = y0 + (y1 - y0) * iy / (n - 1);
        }
    }
    const Eigen::VectorXd f = predict(points, alpha, eta);
    picture.n = n;
    picture.x0 = x0;
    picture.y0 = y0;
    picture.x1 = x1;
    picture.y1 = y1;
    picture.dx = (x1 - x0) / (n - 1);
    picture.dy = (y1 - y0) / (n - 1);
    picture.values.assign(f.data(), f.data() + f.size());
    if (classification) {
        GridSamples samples;
        samples.x0 = x0;
        samples.y0 = y0;
        samples.dx = picture.dx;
        samples.dy = picture.dy;
        samples.nx = samples.ny = n;
        samples.values = picture.values;
        picture.zero = contourLevel(samples, 0.0);
    }
    return picture;
}

// ---- the barrier problem ----

struct MklPathSolver::State {
    PathLoss loss = PathLoss::Squared;
    double mu = 1e-3;
    int n = 0;
    std::vector<KernelSpec> specs;
    std::vector<std::string> labels;
    std::vector<Eigen::MatrixXd> K;      // n × n, normalised
    std::vector<Eigen::MatrixXd> cross;  // n_test × n: Kⱼ(x_train, z_test)
    Eigen::VectorXd d2;                  // dⱼ²
    Eigen::VectorXd d;
    Eigen::VectorXd y;         // centred targets (squared) or ±1 (logistic)
    Eigen::VectorXd testY;     // the test set's targets, centred alike (or ±1)
    double targetMean = 0.0;   // added back to predictions (squared)
    double targetScale = 1.0;  // targets are divided by it (squared loss with standardize)
    double targetVariance = 1.0;
    double lambda0 = 0.0, lambdaMin = 0.0;

    // The current corrected point.
    double sigma = 0.0;
    Eigen::VectorXd alpha;
    double step = 0.5;  // next trial step in σ
    long long factorizations = 0;
    long long newtonTotal = 0;

    std::vector<double> pathLambda;
    std::vector<Eigen::VectorXd> pathAlpha;
    std::vector<std::shared_ptr<const Eigen::VectorXd>> sharedAlpha;  // the same, for snapshots
    std::shared_ptr<MklPathModel> model;
    std::vector<Eigen::VectorXd> pathEta;
    // The predictor of every point, made by snapshot() for the points accepted since the last.
    std::vector<std::shared_ptr<const MklPathPicture>> pictures;
    std::vector<double> pathTestError;

    double lastTrainError = 0.0, lastTestError = kNaN;

    // Per-example ψ and its derivatives at u = λα (y the target).
    double psi(double u, double t) const {
        if (loss == PathLoss::Squared) return 0.5 * u * u + u * t;
        const double z = u * t;
        return (1 + z) * std::log1p(z) - z * std::log(-z);
    }
    double psi1(double u, double t) const {
        if (loss == PathLoss::Squared) return u + t;
        const double z = u * t;
        return t * (std::log1p(z) - std::log(-z));
    }
    double psi2(double u, double t) const {
        if (loss == PathLoss::Squared) return 1.0;
        const double z = u * t;
        return 1.0 / (1 + z) - 1.0 / z;
    }
    double psi3(double u, double t) const {
        if (loss == PathLoss::Squared) return 0.0;
        const double z = u * t;
        return t * (1.0 / (z * z) - 1.0 / ((1 + z) * (1 + z)));
    }
    bool inDomain(const Eigen::VectorXd& u) const {
        if (loss == PathLoss::Squared) return u.allFinite();
        for (int i = 0; i < n; ++i) {
            const double z = u[i] * y[i];
            if (!(z > -1.0 && z < 0.0)) return false;
        }
        return true;
    }

    // Kⱼα and sⱼ = dⱼ² − αᵀKⱼα at α.
    struct Point {
        std::vector<Eigen::VectorXd> g;
        Eigen::VectorXd s;
        bool feasible = false;
    };
    Point at(const Eigen::VectorXd& a, double lambda) const {
        Point p;
        p.s.resize(static_cast<Eigen::Index>(K.size()));
        p.feasible = inDomain(lambda * a);
        for (std::size_t j = 0; j < K.size(); ++j) {
            p.g.push_back(K[j] * a);
            p.s[static_cast<Eigen::Index>(j)] = d2[static_cast<Eigen::Index>(j)] - a.dot(p.g[j]);
            if (!(p.s[static_cast<Eigen::Index>(j)] > 0)) p.feasible = false;
        }
        return p;
    }
    Eigen::VectorXd etaOf(const Point& p, double lambda) const {
        return (2 * mu / lambda) * p.s.cwiseInverse();
    }
    // G(α, λ) at a feasible point.
    double objective(const Eigen::VectorXd& a, const Point& p, double lambda) const {
        double value = 0.0;
        for (int i = 0; i < n; ++i)
            value -= psi(lambda * a[i], y[i]);
        return value + mu * p.s.array().log().sum();
    }
    // R = ψ'(λα) + Σⱼ ηⱼ Kⱼα.
    Eigen::VectorXd residual(const Eigen::VectorXd& a, const Point& p, double lambda) const {
        Eigen::VectorXd r(n);
        for (int i = 0; i < n; ++i)
            r[i] = psi1(lambda * a[i], y[i]);
        const Eigen::VectorXd eta = etaOf(p, lambda);
        for (std::size_t j = 0; j < K.size(); ++j)
            r += eta[static_cast<Eigen::Index>(j)] * p.g[j];
        return r;
    }
    // The relative KKT residual maxᵢ |Rᵢ| / (1 + |ψ'ᵢ(λαᵢ)| + Σⱼ ηⱼ (|Kⱼ| |α|)ᵢ): R's size
    // against the terms it sums, whose rounding (large ηⱼ and αᵢ of both signs) sets a floor
    // under any absolute tolerance.
    double kktMeasure(const Eigen::VectorXd& a, const Point& p, double lambda,
                      const Eigen::VectorXd& r) const {
        Eigen::VectorXd scale(n);
        for (int i = 0; i < n; ++i)
            scale[i] = 1.0 + std::abs(psi1(lambda * a[i], y[i]));
        const Eigen::VectorXd eta = etaOf(p, lambda);
        const Eigen::VectorXd absAlpha = a.cwiseAbs();
        for (std::size_t j = 0; j < K.size(); ++j)
            scale.noalias() += eta[static_cast<Eigen::Index>(j)] * (K[j].cwiseAbs() * absAlpha);
        return r.cwiseAbs().cwiseQuotient(scale).maxCoeff();
    }
    double kktMeasure(const Eigen::VectorXd& a, double lambda) const {
        const Point p = at(a, lambda);
        return kktMeasure(a, p, lambda, residual(a, p, lambda));
    }
    // M = −∂²G/∂α² = λ² diag ψ'' + Σⱼ (2μ/sⱼ Kⱼ + 4μ/sⱼ² gⱼgⱼᵀ), positive definite.
    Eigen::MatrixXd negativeHessian(const Eigen::VectorXd& a, const Point& p, double lambda) const {
        Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
        for (int i = 0; i < n; ++i)
            M(i, i) = lambda * lambda * psi2(lambda * a[i], y[i]);
        for (std::size_t j = 0; j < K.size(); ++j) {
            const double s = p.s[static_cast<Eigen::Index>(j)];
            M.noalias() += (2 * mu / s) * K[j];
            M.selfadjointView<Eigen::Lower>().rankUpdate(p.g[j], 4 * mu / (s * s));
        }
        // rankUpdate wrote the lower triangle only.
        M.triangularView<Eigen::StrictlyUpper>() =
            M.transpose().triangularView<Eigen::StrictlyUpper>();
        return M;
    }

    // A factorisation of M (Cholesky; LDLᵀ when rounding makes Cholesky fail).
    struct Factor {
        Eigen::LLT<Eigen::MatrixXd> llt;
        Eigen::LDLT<Eigen::MatrixXd> ldlt;
        bool useLdlt = false;
        bool ok = false;
        Eigen::VectorXd solve(const Eigen::VectorXd& b) const {
            return useLdlt ? Eigen::VectorXd(ldlt.solve(b)) : Eigen::VectorXd(llt.solve(b));
        }
    };
    Factor factor(const Eigen::MatrixXd& M) {
        ++factorizations;
        Factor f;
        f.llt.compute(M);
        if (f.llt.info() == Eigen::Success) {
            f.ok = true;
            return f;
        }
        f.useLdlt = true;
        f.ldlt.compute(M);
        f.ok = f.ldlt.info() == Eigen::Success && f.ldlt.isPositive();
        return f;
    }

    // Damped Newton on G at λ from a feasible α: stops when the relative KKT residual is
    // ≤ tolerance (true) or after maxSteps or when no step improves (false). A trial step is
    // accepted on sufficient ascent of G or a smaller ‖R‖∞ (near the solution G's changes drown
    // in rounding). *steps counts the Newton steps taken.
    bool correct(Eigen::VectorXd& a, double lambda, int maxSteps, double tolerance, int* steps,
                 const CancelToken* cancel) {
        *steps = 0;
        Point p = at(a, lambda);
        if (!p.feasible) return false;
        Eigen::VectorXd r = residual(a, p, lambda);
        double rNorm = r.lpNorm<Eigen::Infinity>();
        while (kktMeasure(a, p, lambda, r) > tolerance) {
            if (*steps >= maxSteps || (cancel && cancel->cancelled())) return false;
            const Factor f = factor(negativeHessian(a, p, lambda));
            if (!f.ok) return false;
            // Ascent direction Δ = M⁻¹ ∇G, ∇G = −λR.
            const Eigen::VectorXd delta = f.solve(-lambda * r);
            if (!delta.allFinite()) return false;
            const double slope = -lambda * r.dot(delta);  // ∇Gᵀ Δ > 0
            const double g0 = objective(a, p, lambda);
            double t = 1.0;
            bool accepted = false;
            for (int h = 0; h < kMaxHalvings && !accepted; ++h, t *= 0.5) {
                Eigen::VectorXd trial = a + t * delta;
                Point q = at(trial, lambda);
                if (!q.feasible) continue;
                const Eigen::VectorXd rq = residual(trial, q, lambda);
                const double rqNorm = rq.lpNorm<Eigen::Infinity>();
                if (objective(trial, q, lambda) >= g0 + 1e-4 * t * slope || rqNorm < rNorm) {
                    a = std::move(trial);
                    p = std::move(q);
                    r = rq;
                    rNorm = rqNorm;
                    accepted = true;
                }
            }
            ++*steps;
            ++newtonTotal;
            if (!accepted) return false;
        }
        return true;
    }

    // α'(σ) and, at order 2, α''(σ) at the corrected point (α, λ = e^σ).
    bool tangent(const Eigen::VectorXd& a, double lambda, int order, Eigen::VectorXd* v,
                 Eigen::VectorXd* curvature) {
        const Point p = at(a, lambda);
        const Factor f = factor(negativeHessian(a, p, lambda));
        if (!f.ok) return false;
        // F_σ = −λ(ψ'(u) + u ψ''(u)), u = λα;  α' = M⁻¹ F_σ.
        Eigen::VectorXd Fs(n);
        for (int i = 0; i < n; ++i) {
            const double u = lambda * a[i];
            Fs[i] = -lambda * (psi1(u, y[i]) + u * psi2(u, y[i]));
        }
        *v = f.solve(Fs);
        if (!v->allFinite()) return false;
        if (order < 2) {
            *curvature = Eigen::VectorXd::Zero(n);
            return true;
        }
        // w = d²/dt² F(α + t α', σ + t) at t = 0 without the α'' term; α'' = M⁻¹ w.
        Eigen::VectorXd w(n);
        const Eigen::VectorXd va = a + *v, vb = a + 2 * *v;
        for (int i = 0; i < n; ++i) {
            const double u = lambda * a[i];
            const double ua = lambda * va[i], ub = lambda * vb[i];
            w[i] = -lambda * (psi1(u, y[i]) + 2 * psi2(u, y[i]) * ua + psi3(u, y[i]) * ua * ua +
                              psi2(u, y[i]) * ub);
        }
        for (std::size_t j = 0; j < K.size(); ++j) {
            const double s = p.s[static_cast<Eigen::Index>(j)];
            const Eigen::VectorXd Kv = K[j] * *v;
            const double sDot = -2 * v->dot(p.g[j]);
            const double sDdot = -2 * v->dot(Kv);
            w -= 2 * mu *
                 (-2 * sDot / (s * s) * Kv +
                  (2 * sDot * sDot / (s * s * s) - sDdot / (s * s)) * p.g[j]);
        }
        *curvature = f.solve(w);
        return curvature->allFinite();
    }

    // f = −Σⱼ ηⱼ Kⱼα on the training set and on the test set.
    Eigen::VectorXd trainScores(const Point& p, const Eigen::VectorXd& eta) const {
        Eigen::VectorXd f = Eigen::VectorXd::Zero(n);
        for (std::size_t j = 0; j < K.size(); ++j)
            f -= eta[static_cast<Eigen::Index>(j)] * p.g[j];
        return f;
    }
    Eigen::VectorXd testScores(const Eigen::VectorXd& a, const Eigen::VectorXd& eta) const {
        Eigen::VectorXd f = Eigen::VectorXd::Zero(testY.size());
        for (std::size_t j = 0; j < cross.size(); ++j)
            f.noalias() -= eta[static_cast<Eigen::Index>(j)] * (cross[j] * a);
        return f;
    }
    // Kernels whose share ηⱼ tr Kⱼ of the combined kernel's trace is at least `threshold`.
    int activeKernels(const Eigen::VectorXd& eta, double threshold) const {
        Eigen::VectorXd share(eta.size());
        for (Eigen::Index j = 0; j < eta.size(); ++j)
            share[j] = eta[j] * std::max(0.0, K[static_cast<std::size_t>(j)].trace());
        const double total = share.sum();
        if (!(total > 0)) return 0;
        return static_cast<int>((share.array() >= threshold * total).count());
    }
    // Misclassification rate (logistic) or mean squared error (squared).
    double error(const Eigen::VectorXd& f, const Eigen::VectorXd& t) const {
        if (t.size() == 0) return kNaN;
        // In the targets' own units.
        if (loss == PathLoss::Squared)
            return targetScale * targetScale * (t - f).squaredNorm() /
                   static_cast<double>(t.size());
        int wrong = 0;
        for (Eigen::Index i = 0; i < t.size(); ++i)
            wrong += (f[i] > 0) != (t[i] > 0);
        return static_cast<double>(wrong) / static_cast<double>(t.size());
    }
    double primalLoss(const Eigen::VectorXd& f) const {
        double value = 0.0;
        for (int i = 0; i < n; ++i) {
            if (loss == PathLoss::Squared) {
                value += 0.5 * (y[i] - f[i]) * (y[i] - f[i]);
            } else {
                const double margin = y[i] * f[i];
                value += std::log1p(std::exp(-std::abs(margin))) + std::max(0.0, -margin);
            }
        }
        return value;
    }
};

MklPathSolver::MklPathSolver(const KernelProblem& problem, MklPathOptions options)
    : Solver(options.stop), options_(std::move(options)) {
    std::string why;
    if (!problem.train) {
        reject(std::string(kOwner) + ": no training set given");
        return;
    }
    if (problem.train->size() == 0) {
        reject(std::string(kOwner) + ": the training set '" + problem.train->name +
               "' has no examples");
        return;
    }
    if (!options_.isValid(&why)) {
        reject(why);
        return;
    }
    SetupTimer timer(*this);
    auto s = std::make_unique<State>();
    parseLoss(options_.loss, &s->loss);
    s->mu = options_.mu;
    std::shared_ptr<const Dataset> train = problem.train, test = problem.test;
    const Dataset& given = *train;
    s->n = given.size();
    const int n = s->n;
    if (!parseKernelList(options_.kernels, given.dimension(), &s->specs, &why)) {
        reject(std::string(kOwner) + ": kernel list " + quotedKernelText(options_.kernels) +
               " on '" + given.name + "' (" + std::to_string(given.dimension()) +
               " features): " + why);
        return;
    }
    const bool precomputed = s->specs.front().type == KernelType::Precomputed;
    const int m = static_cast<int>(s->specs.size());
    const int nTest = test ? test->size() : 0;
    const double megabytes = 8.0 * m * n * (static_cast<double>(n) + nTest) / (1024.0 * 1024.0);
    if (megabytes > options_.memory_mb) {
        reject(std::string(kOwner) + ": " + std::to_string(m) + " dense kernel matrices over " +
               std::to_string(n) + " training" +
               (nTest ? " and " + std::to_string(nTest) + " test" : std::string()) +
               " examples take " + formatReal(std::round(megabytes)) +
               " MB, more than memory_mb = " + formatReal(options_.memory_mb) +
               " (the path keeps every kernel matrix dense)");
        return;
    }
    if (const std::string shortfall = memoryShortfall(
            megabytes * 1024.0 * 1024.0, sizeProduct({{double(m), "kernels"},
                                                      {double(n), "training examples"},
                                                      {double(n) + nTest, "examples"}}) +
                                             " x 8 B (every kernel matrix dense)");
        !shortfall.empty()) {
        reject(std::string(kOwner) + ": " + shortfall);
        return;
    }
    if (test) {
        const int need = precomputed ? n : given.dimension();
        const int have = test->dimension();
        if (precomputed ? have != need : have > need) {
            reject(std::string(kOwner) + ": the test set '" + test->name + "' has " +
                   std::to_string(have) + (precomputed ? " kernel columns" : " features") +
                   ", the training set " + std::to_string(need) +
                   (precomputed ? " examples" : " features (a test set may have fewer)"));
            return;
        }
        if (!precomputed && have < need) {
            auto padded = std::make_shared<Dataset>(*test);
            padded->setDimension(need);
            test = padded;
        }
    }
    try {
        if (s->loss == PathLoss::Logistic) {
            const std::vector<double> classes = given.classes();
            if (classes.size() != 2) {
                reject(std::string(kOwner) + ": loss = logistic needs two label values, but '" +
                       given.name + "' has " + std::to_string(classes.size()) +
                       "; use loss = squared for regression");
                return;
            }
            train = withPlusMinusLabels(train, classes, kOwner);
            if (test) test = withPlusMinusLabels(test, classes, kOwner);
        }
        s->model = std::make_shared<MklPathModel>();
        s->model->train = problem.train;
        s->model->precomputed = precomputed;
        s->model->classification = s->loss == PathLoss::Logistic;
        if (options_.standardize && !precomputed) {
            standardize(train, test, &s->model->featureMean, &s->model->featureScale);
            s->model->standardized = true;
        }
        KernelNormalization normalization = KernelNormalization::None;
        parseNormalization(options_.normalize, &normalization);
        auto kernelSet = std::make_shared<KernelSet>(train, s->specs, normalization, 1.0);
        KernelSet& kernels = *kernelSet;
        s->model->kernels = kernelSet;
        for (int j = 0; j < m; ++j) {
            Eigen::MatrixXd Kj(n, n);
            for (int i = 0; i < n; ++i)
                Kj.row(i) = Eigen::Map<const Eigen::RowVectorXd>(kernels.row(j, i), n);
            Kj = 0.5 * (Kj + Kj.transpose()).eval();
            if (!Kj.allFinite()) {
                reject(std::string(kOwner) + ": kernel " + s->specs[j].label() +
                       " has values that are not finite on '" + given.name + "'");
                return;
            }
            s->K.push_back(std::move(Kj));
            if (test) {
                Eigen::MatrixXd C(nTest, n);
                for (int i = 0; i < nTest; ++i)
                    for (int k = 0; k < n; ++k)
                        C(i, k) = kernels.cross(j, *test, i, k);
                s->cross.push_back(std::move(C));
            }
            s->labels.push_back(s->specs[j].label());
        }
    } catch (const std::exception& e) {
        reject(std::string(kOwner) + ": " + e.what());
        return;
    }

    try {
        // Targets: centred for the squared loss (the model has no intercept) and, with
        // `standardize`, scaled to variance 1 (so that μ weighs the barrier against a loss of the
        // same size on every data set); ±1 for logistic.
        s->y = train->labels;
        if (s->loss == PathLoss::Squared) {
            s->targetMean = s->y.mean();
            s->y.array() -= s->targetMean;
            s->targetVariance = s->y.squaredNorm() / n;
            if (options_.standardize && s->targetVariance > 0)
                s->targetScale = std::sqrt(s->targetVariance);
            s->y /= s->targetScale;
        }
        if (test) {
            s->testY = test->labels;
            if (s->loss == PathLoss::Squared)
                s->testY = (s->testY.array() - s->targetMean) / s->targetScale;
        }

        // Penalty weights.
        s->d = Eigen::VectorXd::Ones(m);
        if (options_.gamma > 0) {
            for (int j = 0; j < m; ++j) {
                Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(s->K[j],
                                                                     Eigen::EigenvaluesOnly);
                const double threshold = s->K[j].trace() / (2.0 * n);
                const Eigen::Index count = (eigen.eigenvalues().array() >= threshold).count();
                s->d[j] =
                    std::pow(static_cast<double>(std::max<Eigen::Index>(count, 1)), options_.gamma);
            }
        }
        s->d2 = s->d.array().square();

        // λ₀ = maxⱼ (βᵀKⱼβ)^{1/2} / dⱼ with β = argmin ψ.
        const Eigen::VectorXd beta =
            s->loss == PathLoss::Squared ? Eigen::VectorXd(-s->y) : Eigen::VectorXd(-0.5 * s->y);
        double lambda0 = 0.0;
        for (int j = 0; j < m; ++j)
            lambda0 =
                std::max(lambda0, std::sqrt(std::max(0.0, beta.dot(s->K[j] * beta))) / s->d[j]);
        if (!(lambda0 > 0) || !std::isfinite(lambda0)) {
            reject(
                std::string(kOwner) + ": lambda_0 = max_j (beta' K_j beta)^(1/2) / d_j is " +
                formatReal(lambda0) + " on '" + given.name +
                "': the targets are constant or every kernel vanishes on them; there is no path");
            return;
        }
        s->lambda0 = lambda0;
        s->lambdaMin =
            options_.lambda_min > 0 ? options_.lambda_min : kDefaultLambdaRatio * lambda0;
        s->sigma = std::log(lambda0);
        s->step = options_.sigma_step;
        // The first point by an interior-point method at λ₀: Newton from β/(2λ₀) with the barrier
        // weight 10⁴μ, then 10³μ, …, μ (a small μ alone lets damped Newton jam at the boundary).
        s->alpha = beta / (2 * lambda0);
        int steps = 0;
        bool started = true;
        for (int k = kStartMuDecades; k >= 0 && started; --k) {
            s->mu = options_.mu * std::pow(10.0, k);
            int stageSteps = 0;
            started = s->correct(s->alpha, lambda0, kStartNewtonSteps, options_.kkt_tolerance,
                                 &stageSteps, nullptr);
            steps += stageSteps;
        }
        s->mu = options_.mu;
        if (!started) {
            reject(std::string(kOwner) + ": Newton's method found no barrier point at lambda_0 = " +
                   formatReal(lambda0) + " within " + std::to_string(kStartNewtonSteps) +
                   " steps per barrier weight (mu = " + formatReal(options_.mu) +
                   "; try a larger mu)");
            return;
        }
        state_ = std::move(s);

        IterationRecord initial;
        initial.pathParameter = lambda0;
        state_->pathLambda.push_back(lambda0);
        state_->pathAlpha.push_back(state_->alpha);
        state_->sharedAlpha.push_back(std::make_shared<const Eigen::VectorXd>(state_->alpha));
        state_->model->targetMean = state_->targetMean;
        state_->model->targetScale = state_->targetScale;
        // Fill the columns as a step does (no predictor: step 0, trials 0).
        {
            State& st = *state_;
            const State::Point p = st.at(st.alpha, lambda0);
            const Eigen::VectorXd eta = st.etaOf(p, lambda0);
            const Eigen::VectorXd f = st.trainScores(p, eta);
            st.lastTrainError = st.error(f, st.y);
            st.lastTestError = test ? st.error(st.testScores(st.alpha, eta), st.testY) : kNaN;
            st.pathEta.push_back(eta);
            st.pathTestError.push_back(st.lastTestError);
            double dual = 0.0;
            for (int i = 0; i < n; ++i)
                dual -= st.psi(lambda0 * st.alpha[i], st.y[i]);
            double penalty = 0.0;
            for (int j = 0; j < m; ++j)
                penalty += st.d[j] * eta[j] * std::sqrt(std::max(0.0, st.d2[j] - p.s[j]));
            const int active = st.activeKernels(eta, options_.active_threshold);
            initial.upper = st.primalLoss(f) + lambda0 * penalty;
            initial.lower = dual;
            initial.oracleCalls = st.factorizations;
            std::vector<double> extra = {lambda0,
                                         std::log10(lambda0),
                                         0.0,
                                         static_cast<double>(steps),
                                         0.0,
                                         st.kktMeasure(st.alpha, lambda0),
                                         st.lastTrainError,
                                         st.lastTestError,
                                         static_cast<double>(active),
                                         dual,
                                         initial.upper};
            for (int j = 0; j < m; ++j)
                extra.push_back(eta[j]);
            initial.extra = std::move(extra);
        }
        setInitialRecord(initial);
    } catch (const std::exception& e) {
        // A failed allocation (the budget check bounds the kernels, not everything) or an
        // error of Eigen's: the solver is refused instead of throwing into the caller.
        state_.reset();
        reject(std::string(kOwner) + ": " + e.what());
    }
}

MklPathSolver::~MklPathSolver() = default;

std::vector<std::string> MklPathSolver::extraColumns() const {
    std::vector<std::string> columns = {"lambda",         "log10_lambda",    "sigma_step",
                                        "newton_steps",   "trials",          "kkt_residual",
                                        "train_error",    "test_error",      "active_kernels",
                                        "dual_objective", "primal_objective"};
    if (state_) {
        for (const std::string& label : state_->labels)
            columns.push_back("eta:" + label);
    }
    return columns;
}

std::vector<std::string> MklPathSolver::pseudocode() const {
    return {
        "input: kernels K_1..K_m, targets y, loss psi, mu, gamma, lambda_min",
        "d_j <- (#eig(K_j) >= tr K_j / 2n)^gamma;  beta <- argmin psi;  "
        "lambda_0 <- max_j sqrt(beta' K_j beta) / d_j",
        "alpha <- Newton on G(., lambda_0) from beta / (2 lambda_0)",
        "repeat  (sigma = log lambda, step h)",
        "  alpha' <- -(dF/dalpha)^-1 dF/dsigma;  alpha'' from F's second derivative (order 2)",
        "  predict alpha(sigma - h) ~ alpha - h alpha' + h^2/2 alpha''",
        "  correct: Newton on G until R = psi'(lambda alpha) + sum_j eta_j K_j alpha ~ 0 "
        "(relative <= tol); else h <- h/2 and predict again",
        "  eta_j <- 2 mu / (lambda (d_j^2 - alpha' K_j alpha));  h <- 1.5 h after an easy "
        "correction, 0.7 h after a hard one",
        "until lambda <= lambda_min, training error 0, or the step budget",
    };
}

Status MklPathSolver::doStep(IterationRecord& record) {
    State& s = *state_;
    const int m = static_cast<int>(s.K.size());
    const double sigmaMin = std::log(s.lambdaMin);
    if (s.sigma <= sigmaMin) {
        record.extra = lastRecord().extra;
        return Status::make(StatusCode::Converged,
                            "lambda_0 = " + formatReal(s.lambda0) +
                                " is already <= lambda_min = " + formatReal(s.lambdaMin));
    }
    const double lambda = std::exp(s.sigma);
    Eigen::VectorXd v, curvature;
    if (!s.tangent(s.alpha, lambda, options_.order, &v, &curvature)) {
        record.extra = lastRecord().extra;
        return Status::make(
            StatusCode::NumericalFailure,
            "the Hessian of the barrier dual is singular at lambda = " + formatReal(lambda));
    }
    double h = std::min(s.step, s.sigma - sigmaMin);
    int trials = 0, newtonSteps = 0;
    Eigen::VectorXd next;
    while (true) {
        if (cancelToken().cancelled()) {
            record.extra = lastRecord().extra;
            return Status::make(StatusCode::Cancelled, "stopped by the user");
        }
        if (h < kMinSigmaStep) {
            record.extra = lastRecord().extra;
            return Status::make(StatusCode::NumericalFailure,
                                "the step in log(lambda) fell below " + formatReal(kMinSigmaStep) +
                                    " at lambda = " + formatReal(lambda) +
                                    " (the corrector does not converge; try a larger mu)");
        }
        ++trials;
        const double t = -h;
        next = s.alpha + t * v + 0.5 * t * t * curvature;
        const double target = std::exp(s.sigma - h);
        if (s.correct(next, target, options_.max_newton, options_.kkt_tolerance, &newtonSteps,
                      &cancelToken())) {
            break;
        }
        h *= 0.5;
    }
    const bool clamped = s.sigma - h <= sigmaMin + 1e-12;
    s.sigma = clamped ? sigmaMin : s.sigma - h;
    const double newLambda = clamped ? s.lambdaMin : std::exp(s.sigma);
    s.alpha = std::move(next);
    if (!clamped || trials > 1) {
        s.step = newtonSteps <= kEasyCorrection  ? kGrowth * h
                 : newtonSteps > kHardCorrection ? kShrink * h
                                                 : h;
    }

    const State::Point p = s.at(s.alpha, newLambda);
    const Eigen::VectorXd eta = s.etaOf(p, newLambda);
    const Eigen::VectorXd f = s.trainScores(p, eta);
    s.lastTrainError = s.error(f, s.y);
    s.lastTestError = s.testY.size() ? s.error(s.testScores(s.alpha, eta), s.testY) : kNaN;
    s.pathLambda.push_back(newLambda);
    s.pathAlpha.push_back(s.alpha);
    s.sharedAlpha.push_back(std::make_shared<const Eigen::VectorXd>(s.alpha));
    s.pathEta.push_back(eta);
    s.pathTestError.push_back(s.lastTestError);

    double dual = 0.0;
    for (int i = 0; i < s.n; ++i)
        dual -= s.psi(newLambda * s.alpha[i], s.y[i]);
    double penalty = 0.0;
    for (int j = 0; j < m; ++j)
        penalty += s.d[j] * eta[j] * std::sqrt(std::max(0.0, s.d2[j] - p.s[j]));
    const int active = s.activeKernels(eta, options_.active_threshold);
    record.pathParameter = newLambda;
    record.upper = s.primalLoss(f) + newLambda * penalty;
    record.lower = dual;
    record.oracleCalls = s.factorizations;
    std::vector<double> extra = {newLambda,
                                 std::log10(newLambda),
                                 h,
                                 static_cast<double>(newtonSteps),
                                 static_cast<double>(trials),
                                 s.kktMeasure(s.alpha, newLambda),
                                 s.lastTrainError,
                                 s.lastTestError,
                                 static_cast<double>(active),
                                 dual,
                                 record.upper};
    for (int j = 0; j < m; ++j)
        extra.push_back(eta[j]);
    record.extra = std::move(extra);

    if (clamped) {
        return Status::make(StatusCode::Converged,
                            "reached lambda_min = " + formatReal(s.lambdaMin) + " after " +
                                std::to_string(s.pathLambda.size() - 1) + " path steps");
    }
    const bool perfect = s.loss == PathLoss::Logistic
                             ? s.lastTrainError == 0.0
                             : s.lastTrainError <= 1e-12 * s.targetVariance;
    if (perfect) {
        return Status::make(StatusCode::Converged,
                            "training error 0 at lambda = " + formatReal(newLambda));
    }
    return Status::running();
}

SummaryFields MklPathSolver::summary() const {
    if (!state_) return {};
    const State& s = *state_;
    const int m = static_cast<int>(s.K.size());
    NamedSeries path;
    path.emplace_back("lambda", s.pathLambda);
    for (int j = 0; j < m; ++j) {
        std::vector<double> series;
        for (const Eigen::VectorXd& eta : s.pathEta)
            series.push_back(eta[j]);
        path.emplace_back(s.labels[static_cast<std::size_t>(j)], std::move(series));
    }
    NamedValues weights, penalties;
    const Eigen::VectorXd eta = s.pathEta.back();
    for (int j = 0; j < m; ++j) {
        weights.emplace_back(s.labels[static_cast<std::size_t>(j)], eta[j]);
        penalties.emplace_back(s.labels[static_cast<std::size_t>(j)], s.d[j]);
    }
    const IterationRecord& r = lastRecord();
    SummaryFields fields = {{"weights", weights},
                            {"lambda", lambda()},
                            {"lambda_0", s.lambda0},
                            {"lambda_min", s.lambdaMin},
                            {"path_points", static_cast<long long>(s.pathLambda.size())},
                            {"newton_steps", s.newtonTotal},
                            {"factorizations", s.factorizations},
                            {"penalty_weights", penalties},
                            {"train_error", s.lastTrainError}};
    if (s.testY.size()) fields.emplace_back("test_error", s.lastTestError);
    if (r.extra.size() > 8) fields.emplace_back("active_kernels", r.extra[8]);
    fields.emplace_back(
        "error_measure",
        std::string(s.loss == PathLoss::Squared ? "mean squared error" : "misclassification rate"));
    if (s.testY.size() && !s.pathTestError.empty()) {
        const auto best = std::min_element(s.pathTestError.begin(), s.pathTestError.end());
        const auto index = static_cast<std::size_t>(best - s.pathTestError.begin());
        fields.emplace_back("best_lambda", s.pathLambda[index]);
        fields.emplace_back("best_test_error", *best);
    }
    fields.emplace_back("loss", options_.loss);
    fields.emplace_back("kernels", options_.kernels);
    fields.emplace_back("path", std::move(path));
    return fields;
}

SnapshotPtr MklPathSolver::snapshot() const {
    auto snapshot = std::make_shared<MklPathSnapshot>();
    fillSnapshot(*snapshot);
    if (!state_) return snapshot;
    const State& s = *state_;
    snapshot->kernelLabels = s.labels;
    snapshot->d = s.d;
    snapshot->eta = s.pathEta.back();
    snapshot->eta0 = s.pathEta.front();
    snapshot->lambda = lambda();
    snapshot->lambda0 = s.lambda0;
    snapshot->lambdaMin = s.lambdaMin;
    snapshot->classification = s.loss == PathLoss::Logistic;
    snapshot->alphas = s.sharedAlpha;
    snapshot->model = s.model;
    // The pictures of the points accepted since the last snapshot: made once, then shared.
    State& cache = *state_;
    while (s.model && cache.pictures.size() < s.sharedAlpha.size() &&
           cache.pictures.size() < s.pathEta.size()) {
        const std::size_t p = cache.pictures.size();
        cache.pictures.push_back(std::make_shared<const MklPathPicture>(
            s.model->picture(*s.sharedAlpha[p], s.pathEta[p])));
    }
    snapshot->pictures = cache.pictures;
    if (iteration() == 0) {
        snapshot->executedLines = {kInput, kStart, kStartNewton};
    } else {
        snapshot->executedLines = {kRepeat, kTangent, kPredict, kCorrect, kAdapt, kUntil};
    }
    return snapshot;
}

double MklPathSolver::lambda() const {
    return state_ ? state_->pathLambda.back() : kNaN;
}
double MklPathSolver::lambda0() const {
    return state_ ? state_->lambda0 : kNaN;
}
double MklPathSolver::lambdaMin() const {
    return state_ ? state_->lambdaMin : kNaN;
}
const Eigen::VectorXd& MklPathSolver::alpha() const {
    static const Eigen::VectorXd none;
    return state_ ? state_->alpha : none;
}
Eigen::VectorXd MklPathSolver::eta() const {
    return state_ ? state_->pathEta.back() : Eigen::VectorXd();
}
const Eigen::VectorXd& MklPathSolver::penaltyWeights() const {
    static const Eigen::VectorXd none;
    return state_ ? state_->d : none;
}
double MklPathSolver::kktResidual() const {
    if (!state_) return kNaN;
    const double l = lambda();
    return state_->kktMeasure(state_->alpha, l);
}
const Eigen::VectorXd& MklPathSolver::targets() const {
    static const Eigen::VectorXd none;
    return state_ ? state_->y : none;
}
const std::vector<Eigen::MatrixXd>& MklPathSolver::kernelMatrices() const {
    static const std::vector<Eigen::MatrixXd> none;
    return state_ ? state_->K : none;
}
const std::vector<KernelSpec>& MklPathSolver::specs() const {
    static const std::vector<KernelSpec> none;
    return state_ ? state_->specs : none;
}
PathLoss MklPathSolver::loss() const {
    return state_ ? state_->loss : PathLoss::Squared;
}
const std::vector<double>& MklPathSolver::pathLambdas() const {
    static const std::vector<double> none;
    return state_ ? state_->pathLambda : none;
}
const std::vector<Eigen::VectorXd>& MklPathSolver::pathAlphas() const {
    static const std::vector<Eigen::VectorXd> none;
    return state_ ? state_->pathAlpha : none;
}

MklPathSolver::ColdSolve MklPathSolver::solveFromScratch(double lambda, int maxStepsPerStage) {
    ColdSolve out;
    if (!state_ || !(lambda > 0) || !(lambda <= state_->lambda0) || maxStepsPerStage < 1)
        return out;
    State& s = *state_;
    const long long factorizations = s.factorizations, newtonTotal = s.newtonTotal;
    const Eigen::VectorXd beta =
        s.loss == PathLoss::Squared ? Eigen::VectorXd(-s.y) : Eigen::VectorXd(-0.5 * s.y);
    out.alpha = beta / (2 * s.lambda0);
    out.ok = true;
    for (int k = kStartMuDecades; k >= 0 && out.ok; --k) {
        s.mu = options_.mu * std::pow(10.0, k);
        int steps = 0;
        out.ok =
            s.correct(out.alpha, lambda, maxStepsPerStage, options_.kkt_tolerance, &steps, nullptr);
    }
    s.mu = options_.mu;
    out.newtonSteps = s.newtonTotal - newtonTotal;
    out.factorizations = s.factorizations - factorizations;
    s.factorizations = factorizations;
    s.newtonTotal = newtonTotal;
    return out;
}

}  // namespace cplab
