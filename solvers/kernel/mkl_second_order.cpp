// SPDX-License-Identifier: GPL-3.0-or-later
#include "mkl_second_order.h"

#include <Eigen/LU>
#include <vector>

namespace cplab {

namespace {

// α strictly inside the box by more than this fraction of C counts as free.
constexpr double kFreeMargin = 1e-10;
// Ridge on K_FF relative to its largest diagonal entry: two equal examples make K_FF singular.
constexpr double kRidge = 1e-10;

}  // namespace

MklSecondOrder mklSecondOrder(KernelQ& q, const Eigen::VectorXd& alpha, double C) {
    KernelSet& kernels = q.kernels();
    const Eigen::VectorXd& y = q.labels();
    const int K = kernels.kernels();
    const Eigen::VectorXd u = alpha.cwiseProduct(y);
    std::vector<int> support, free;
    for (Eigen::Index i = 0; i < alpha.size(); ++i) {
        if (!(alpha[i] > 0.0)) continue;
        support.push_back(static_cast<int>(i));
        if (alpha[i] > kFreeMargin * C && alpha[i] < (1.0 - kFreeMargin) * C)
            free.push_back(static_cast<int>(i));
    }
    MklSecondOrder out;
    out.gradient = -0.5 * kernels.quadratics(u, support);
    out.hessian = Eigen::MatrixXd::Zero(K, K);
    const auto n = static_cast<Eigen::Index>(free.size());
    out.freeVectors = static_cast<int>(n);
    if (n == 0) return out;
    // W = [(Kₖ u)_F]ₖ, and M = [K_FF 1; 1ᵀ 0] with K_FF from Q's rows (Q_ij = y_i y_j K_ij).
    const Eigen::MatrixXd W = kernels.rowProducts(u, support, free);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n + 1, n + 1);
    double largest = 0.0;
    for (Eigen::Index a = 0; a < n; ++a) {
        const int i = free[static_cast<std::size_t>(a)];
        const double* row = q.row(i);
        for (Eigen::Index b = 0; b < n; ++b) {
            const int j = free[static_cast<std::size_t>(b)];
            M(a, b) = y[i] * y[j] * row[j];
        }
        largest = std::max(largest, M(a, a));
        M(a, n) = M(n, a) = 1.0;
    }
    for (Eigen::Index a = 0; a < n; ++a)
        M(a, a) += kRidge * largest;
    Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + 1, K);
    rhs.topRows(n) = W;
    const Eigen::MatrixXd X = Eigen::PartialPivLU<Eigen::MatrixXd>(M).solve(rhs);
    out.hessian.noalias() = W.transpose() * X.topRows(n);
    out.hessian = 0.5 * (out.hessian + out.hessian.transpose()).eval();
    return out;
}

}  // namespace cplab
