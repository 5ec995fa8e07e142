// SPDX-License-Identifier: GPL-3.0-or-later
#include "xv_kernel.h"

#include <cmath>
#include <utility>

#include "kernel/kernel_values.h"

namespace cplab {

XvKernel::XvKernel(KernelSpec spec) : spec_(std::move(spec)) {}

bool XvKernel::supports(const KernelSpec& spec, std::string* why) {
    if (spec.type == KernelType::Precomputed) {
        if (why)
            *why =
                "a precomputed kernel has no input space to move expansion vectors in; use "
                "linear, poly:d[,c] or gaussian:gamma";
        return false;
    }
    if (!spec.features.empty()) {
        if (why)
            *why = "kernel '" + spec.label() +
                   "' is restricted to a feature scope; expansion vectors move in the whole "
                   "input space, so the kernel must use every feature (drop the '@' scope)";
        return false;
    }
    return true;
}

Eigen::MatrixXd XvKernel::values(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
    Eigen::MatrixXd K = A * B.transpose();
    switch (spec_.type) {
        case KernelType::Linear:
            break;
        case KernelType::Polynomial:
            K = K.unaryExpr(
                [&](double dot) { return integerPower(dot + spec_.offset, spec_.degree); });
            break;
        case KernelType::Gaussian: {
            const Eigen::VectorXd a = A.rowwise().squaredNorm();
            const Eigen::VectorXd b = B.rowwise().squaredNorm();
            for (Eigen::Index i = 0; i < K.cols(); ++i) {
                for (Eigen::Index u = 0; u < K.rows(); ++u) {
                    // ‖a − b‖² from the inner product; rounding may make it slightly negative.
                    const double d2 = std::max(0.0, a[u] + b[i] - 2.0 * K(u, i));
                    K(u, i) = std::exp(-spec_.gamma * d2);
                }
            }
            break;
        }
        case KernelType::Precomputed:
            break;  // refused by supports()
    }
    return K;
}

Eigen::MatrixXd XvKernel::weightedGradient(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                           const Eigen::MatrixXd& K,
                                           const Eigen::MatrixXd& W) const {
    switch (spec_.type) {
        case KernelType::Linear:
            return W * B;
        case KernelType::Polynomial: {
            // P_ui = W_ui p (⟨a_u, b_i⟩ + c)^(p−1); row u of P B is Σ_i P_ui b_i.
            const Eigen::MatrixXd dots = A * B.transpose();
            const int p = spec_.degree;
            const Eigen::MatrixXd P = W.cwiseProduct(dots.unaryExpr(
                [&](double dot) { return p * integerPower(dot + spec_.offset, p - 1); }));
            return P * B;
        }
        case KernelType::Gaussian: {
            // Σ_i W_ui (−2γ)(a_u − b_i) k_ui = −2γ (a_u Σ_i P_ui − Σ_i P_ui b_i), P = W ∘ K.
            const Eigen::MatrixXd P = W.cwiseProduct(K);
            const Eigen::VectorXd rowSums = P.rowwise().sum();
            return -2.0 * spec_.gamma * (rowSums.asDiagonal() * A - P * B);
        }
        case KernelType::Precomputed:
            break;
    }
    return Eigen::MatrixXd::Zero(A.rows(), A.cols());
}

}  // namespace cplab
