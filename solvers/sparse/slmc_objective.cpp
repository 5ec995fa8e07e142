// SPDX-License-Identifier: GPL-3.0-or-later
#include "slmc_objective.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/memory_budget.h"
#include "core/number_text.h"
#include "kernel/kernel_set.h"
#include "kernel/smo.h"

namespace cplab {

Eigen::MatrixXd whitening(const Eigen::MatrixXd& Kz, double eigenFloor, int* floored) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Kz);
    if (eig.info() != Eigen::Success)
        throw std::runtime_error("the eigen-decomposition of K^z failed");
    const Eigen::VectorXd& lambda = eig.eigenvalues();
    const double lambdaMax = lambda[lambda.size() - 1];
    if (!(lambdaMax > 0) || !std::isfinite(lambdaMax)) {
        throw std::runtime_error("K^z has no positive eigenvalue (largest " +
                                 formatReal(lambdaMax) +
                                 "): the expansion vectors span nothing in feature space");
    }
    const double floor = eigenFloor * lambdaMax;
    const Eigen::VectorXd clamped = lambda.cwiseMax(floor);
    if (floored) *floored = static_cast<int>((lambda.array() < floor).count());
    return eig.eigenvectors() * clamped.cwiseSqrt().cwiseInverse().asDiagonal();
}

SlmcObjective::SlmcObjective(std::shared_ptr<const Dataset> train, const KernelSpec& kernel,
                             SlmcObjectiveOptions options)
    : train_(std::move(train)), kernel_(kernel), options_(options) {
    std::string why;
    if (!train_) throw std::invalid_argument("SlmcObjective: no training set");
    if (!XvKernel::supports(kernel, &why)) throw std::invalid_argument("SlmcObjective: " + why);
    if (!(options_.C > 0) || !(options_.tolerance > 0) ||
        !(options_.eigenFloor > 0 && options_.eigenFloor < 1) || !(options_.cacheMb >= 1)) {
        throw std::invalid_argument(
            "SlmcObjective: C and tolerance must be > 0, eigenFloor in (0, 1), cacheMb >= 1");
    }
    const Dataset& data = *train_;
    const double entries = double(data.size()) * double(data.dimension());
    if (entries > kMaxDenseEntries) {
        throw std::invalid_argument(
            "the training set as a dense matrix needs " + formatReal(entries * 8e-9) + " GB (" +
            std::to_string(data.size()) + " examples x " + std::to_string(data.dimension()) +
            " features); expansion vectors live in a dense input space, so at most " +
            formatReal(kMaxDenseEntries) + " values are accepted");
    }
    requireMemory(
        8.0 * entries,
        sizeProduct({{double(data.size()), "examples"}, {double(data.dimension()), "features"}}) +
            " as a dense matrix, 8 B each",
        "the training set ");
    X_.resize(data.size(), data.dimension());
    for (int i = 0; i < data.size(); ++i)
        X_.row(i) = data.row(i).transpose();
    y_ = data.labels;
}

namespace {

// K^z = VΛVᵀ (eigenvalues ascending) with the eigenvalues below f = ρ λ_max floored: Λ̃.
struct FlooredSpectrum {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig;
    double floor = 0.0;          // f
    Eigen::VectorXd clamped;     // the diagonal of Λ̃
    std::vector<bool> floored;   // λ_i < f
    int flooredEigenvalues = 0;  // how many are
};

FlooredSpectrum flooredSpectrum(const Eigen::MatrixXd& Kz, double eigenFloor) {
    FlooredSpectrum s;
    s.eig.compute(Kz);
    if (s.eig.info() != Eigen::Success)
        throw std::runtime_error("the eigen-decomposition of K^z failed");
    const Eigen::VectorXd& lambda = s.eig.eigenvalues();
    const Eigen::Index nz = lambda.size();
    const double lambdaMax = lambda[nz - 1];
    if (!(lambdaMax > 0) || !std::isfinite(lambdaMax)) {
        throw std::runtime_error("K^z has no positive eigenvalue (largest " +
                                 formatReal(lambdaMax) +
                                 "): the expansion vectors span nothing in feature space");
    }
    s.floor = eigenFloor * lambdaMax;
    s.clamped.resize(nz);
    s.floored.resize(static_cast<std::size_t>(nz));
    for (Eigen::Index i = 0; i < nz; ++i) {
        s.floored[static_cast<std::size_t>(i)] = lambda[i] < s.floor;
        s.clamped[i] = s.floored[static_cast<std::size_t>(i)] ? s.floor : lambda[i];
        s.flooredEigenvalues += s.floored[static_cast<std::size_t>(i)];
    }
    return s;
}

// S of the gradient: −ββᵀ without floored eigenvalues, else the Daleckii–Krein form (see the
// header), from ã = Vᵀa.
Eigen::MatrixXd curvatureTerm(const FlooredSpectrum& s, const Eigen::VectorXd& beta,
                              const Eigen::VectorXd& at, double eigenFloor) {
    if (s.flooredEigenvalues == 0) return -beta * beta.transpose();
    const Eigen::VectorXd& lambda = s.eig.eigenvalues();
    const Eigen::MatrixXd& V = s.eig.eigenvectors();
    const Eigen::Index nz = lambda.size();
    Eigen::MatrixXd G(nz, nz);
    double flooredMass = 0.0;
    for (Eigen::Index i = 0; i < nz; ++i) {
        const bool fi = s.floored[static_cast<std::size_t>(i)];
        if (fi) flooredMass += at[i] * at[i];
        for (Eigen::Index j = 0; j < nz; ++j) {
            const bool fj = s.floored[static_cast<std::size_t>(j)];
            if (fi && fj) {
                G(i, j) = 0.0;
            } else if (!fi && !fj) {
                G(i, j) = -1.0 / (lambda[i] * lambda[j]);
            } else {
                // One floored, one not: λ_i ≠ λ_j since one is below f and one is not.
                G(i, j) = (1.0 / s.clamped[i] - 1.0 / s.clamped[j]) / (lambda[i] - lambda[j]);
            }
        }
    }
    Eigen::MatrixXd S = V * G.cwiseProduct(at * at.transpose()) * V.transpose();
    const Eigen::VectorXd vmax = V.col(nz - 1);
    S -= (eigenFloor / (s.floor * s.floor)) * flooredMass * (vmax * vmax.transpose());
    return S;
}

}  // namespace

void SlmcObjective::solveInnerSvm(Eigen::MatrixXd features, const Eigen::VectorXd* warmAlpha,
                                  const Interrupt* stop, SlmcEvaluation& e) const {
    auto data = std::make_shared<Dataset>();
    data->name = "slmc whitened features";
    data->source = "generator:slmc";
    data->dense = std::move(features);
    data->labels = y_;
    KernelSpec linear;
    linear.type = KernelType::Linear;
    const double half = std::max(1.0, 0.5 * options_.cacheMb);
    KernelSet kernels(data, {linear}, KernelNormalization::None, half);
    KernelQ q(kernels, y_, Eigen::VectorXd::Ones(1), half);
    Smo smo(q, SmoOptions{options_.C, options_.tolerance, true});
    if (warmAlpha && warmAlpha->size() == X_.rows()) {
        try {
            smo.setAlpha(*warmAlpha);
        } catch (const std::invalid_argument&) {
            // An infeasible warm start (never produced by SMO itself): start from α = 0.
        }
    }
    const SmoProgress progress = stop ? smo.run(0, *stop) : smo.run(0);
    e.converged = progress.converged;
    e.kktViolation = progress.maxViolation;
    e.smoSteps = smo.totalSteps();
    e.alpha = smo.alpha();
    e.bias = smo.bias();
    e.value = smo.dualObjective();
    e.primal = smo.primalObjective();
    e.supportVectors = smo.supportVectors();
}

SlmcEvaluation SlmcObjective::evaluate(const Eigen::MatrixXd& Z, const Eigen::VectorXd* warmAlpha,
                                       const Interrupt* stop) const {
    if (Z.cols() != X_.cols() || Z.rows() < 1) {
        throw std::invalid_argument("SlmcObjective::evaluate: Z is " + std::to_string(Z.rows()) +
                                    " x " + std::to_string(Z.cols()) + ", expected N_z x " +
                                    std::to_string(X_.cols()) + " with N_z >= 1");
    }
    SlmcEvaluation e;
    e.Z = Z;
    const Eigen::MatrixXd Kz = kernel_.values(Z, Z);
    const FlooredSpectrum spectrum = flooredSpectrum(Kz, options_.eigenFloor);
    const Eigen::MatrixXd& V = spectrum.eig.eigenvectors();
    e.flooredEigenvalues = spectrum.flooredEigenvalues;

    // Whitened features Φ = Ψᵀ V Λ̃^{-1/2} (n × N_z), as a dense Dataset for SMO's linear kernel.
    const Eigen::MatrixXd Psi = kernel_.values(Z, X_);  // N_z × n
    const Eigen::MatrixXd T =
        V * spectrum.clamped.cwiseSqrt().cwiseInverse().asDiagonal();  // N_z × N_z
    solveInnerSvm(Psi.transpose() * T, warmAlpha, stop, e);

    // a = Ψ Y α, ã = Vᵀa, β = V Λ̃⁻¹ ã = K̃⁻¹ a (eq. 45).
    const Eigen::VectorXd c = y_.cwiseProduct(e.alpha);
    const Eigen::VectorXd a = Psi * c;
    const Eigen::VectorXd at = V.transpose() * a;
    e.beta = V * at.cwiseQuotient(spectrum.clamped);
    e.trainScores = (Psi.transpose() * e.beta).array() + e.bias;
    const Eigen::MatrixXd S = curvatureTerm(spectrum, e.beta, at, options_.eigenFloor);

    // ∇_{z_u} W = −β_u Σᵢ cᵢ ∇₁k(z_u, xᵢ) − Σⱼ S_uj ∇₁k(z_u, z_j).
    const Eigen::MatrixXd weightsX = e.beta * c.transpose();  // N_z × n
    e.gradient =
        -kernel_.weightedGradient(Z, X_, Psi, weightsX) - kernel_.weightedGradient(Z, Z, Kz, S);
    return e;
}

}  // namespace cplab
