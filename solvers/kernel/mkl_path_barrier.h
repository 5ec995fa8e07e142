// SPDX-License-Identifier: GPL-3.0-or-later
// The barrier problem of the MKL regularisation path (mkl_path.h, which states it; names as
// there): the dual G(α, λ) = −Σᵢ ψᵢ(λαᵢ) + μ Σⱼ log(dⱼ² − αᵀKⱼα) with ψ and its derivatives, the
// KKT residual R and its relative measure, the damped Newton corrector, the tangent (and
// curvature) of the predictor, the interior-point start, and the bounds and errors of a point.
// The numerical core of MklPathSolver (mkl_path.cpp), which adds the path's bookkeeping.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "core/cancel_token.h"
#include "kernel/mkl_path.h"

namespace cplab {

struct MklPathBarrier {
    PathLoss loss = PathLoss::Squared;
    double mu = 1e-3;
    int n = 0;
    std::vector<Eigen::MatrixXd> K;      // n × n, normalised
    std::vector<Eigen::MatrixXd> cross;  // n_test × n: Kⱼ(x_train, z_test)
    Eigen::VectorXd d2;                  // dⱼ²
    Eigen::VectorXd d;
    Eigen::VectorXd y;         // centred targets (squared) or ±1 (logistic)
    Eigen::VectorXd testY;     // the test set's targets, centred alike (or ±1)
    double targetScale = 1.0;  // targets are divided by it (squared loss with standardize)
    long long factorizations = 0;
    long long newtonTotal = 0;

    // Per-example ψ and its derivatives at u = λα (y the target).
    double psi(double u, double t) const;
    double psi1(double u, double t) const;
    double psi2(double u, double t) const;
    double psi3(double u, double t) const;
    bool inDomain(const Eigen::VectorXd& u) const;
    // Kⱼα and sⱼ = dⱼ² − αᵀKⱼα at α.
    struct Point {
        std::vector<Eigen::VectorXd> g;
        Eigen::VectorXd s;
        bool feasible = false;
    };
    Point at(const Eigen::VectorXd& a, double lambda) const;
    Eigen::VectorXd etaOf(const Point& p, double lambda) const;
    // G(α, λ) at a feasible point.
    double objective(const Eigen::VectorXd& a, const Point& p, double lambda) const;
    // R = ψ'(λα) + Σⱼ ηⱼ Kⱼα.
    Eigen::VectorXd residual(const Eigen::VectorXd& a, const Point& p, double lambda) const;
    // The relative KKT residual maxᵢ |Rᵢ| / (1 + |ψ'ᵢ(λαᵢ)| + Σⱼ ηⱼ (|Kⱼ| |α|)ᵢ): R's size
    // against the terms it sums, whose rounding (large ηⱼ and αᵢ of both signs) sets a floor
    // under any absolute tolerance.
    double kktMeasure(const Eigen::VectorXd& a, const Point& p, double lambda,
                      const Eigen::VectorXd& r) const;
    double kktMeasure(const Eigen::VectorXd& a, double lambda) const;
    // M = −∂²G/∂α² = λ² diag ψ'' + Σⱼ (2μ/sⱼ Kⱼ + 4μ/sⱼ² gⱼgⱼᵀ), positive definite.
    Eigen::MatrixXd negativeHessian(const Eigen::VectorXd& a, const Point& p, double lambda) const;
    // A factorisation of M (Cholesky; LDLᵀ when rounding makes Cholesky fail). The Cholesky
    // factor L (lower triangle) is Eigen's blocked LLT step for step (the same blocks, the
    // same kernels: the same bits), with `stop` polled between blocks (about 30 of them at
    // n = 4,000, a factorisation there takes about 1.4 s): `interrupted` when it ended it.
    struct Factor {
        Eigen::MatrixXd L;
        Eigen::LDLT<Eigen::MatrixXd> ldlt;
        bool useLdlt = false;
        bool ok = false;
        bool interrupted = false;
        Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
    };
    Factor factor(const Eigen::MatrixXd& M, const Interrupt* stop = nullptr);
    // Damped Newton on G at λ from a feasible α: stops when the relative KKT residual is
    // ≤ tolerance (true) or after maxSteps or when no step improves (false). A trial step is
    // accepted on sufficient ascent of G or a smaller ‖R‖∞ (near the solution G's changes drown
    // in rounding). *steps counts the Newton steps taken. `stop` (the user's cancel, the run's
    // deadline) is polled before every Newton step and inside its factorisation: false when
    // it ended the correction (α stays feasible: the last accepted Newton iterate).
    bool correct(Eigen::VectorXd& a, double lambda, int maxSteps, double tolerance, int* steps,
                 const Interrupt* stop);
    // α'(σ) and, at order 2, α''(σ) at the corrected point (α, λ = e^σ); false also when
    // `stop` ended its factorisation.
    bool tangent(const Eigen::VectorXd& a, double lambda, int order, Eigen::VectorXd* v,
                 Eigen::VectorXd* curvature, const Interrupt* stop = nullptr);
    // f = −Σⱼ ηⱼ Kⱼα on the training set and on the test set.
    Eigen::VectorXd trainScores(const Point& p, const Eigen::VectorXd& eta) const;
    Eigen::VectorXd testScores(const Eigen::VectorXd& a, const Eigen::VectorXd& eta) const;
    // Kernels whose share ηⱼ tr Kⱼ of the combined kernel's trace is at least `threshold`.
    int activeKernels(const Eigen::VectorXd& eta, double threshold) const;
    // Which kernels are active (the rule of activeKernels).
    std::vector<bool> activeSet(const Eigen::VectorXd& eta, double threshold) const;
    // Misclassification rate (logistic) or mean squared error (squared).
    double error(const Eigen::VectorXd& f, const Eigen::VectorXd& t) const;
    double primalLoss(const Eigen::VectorXd& f) const;

    // The barrier point at λ by an interior-point method: `correct` from a (feasible) with the
    // barrier weight 10⁴μ₀, then 10³μ₀, …, μ₀ (a small μ alone lets damped Newton jam at the
    // boundary), at most maxStepsPerStage Newton steps each; μ is μ₀ afterwards. *steps gets
    // the Newton steps of all stages. False when a stage fails.
    // `stop` is polled as by `correct` (false when it ended a stage; `a` stays feasible).
    bool interiorPoint(Eigen::VectorXd& a, double lambda, double mu0, int maxStepsPerStage,
                       double tolerance, int* steps, const Interrupt* stop = nullptr);

    // What a record shows of the corrected point (α, λ): ηⱼ, the errors, the bounds L = D(α)
    // and U = P(w(α)), the active kernels and the relative KKT residual.
    struct Measures {
        Eigen::VectorXd eta;
        double trainError = 0.0;
        double testError = 0.0;  // NaN without test examples
        double dual = 0.0;
        double primal = 0.0;
        int active = 0;
        double kkt = 0.0;
    };
    Measures measure(const Eigen::VectorXd& a, double lambda, double activeThreshold) const;
};

}  // namespace cplab
