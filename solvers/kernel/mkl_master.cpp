// SPDX-License-Identifier: GPL-3.0-or-later
// The MKL master LP (mkl_master.h) over Clp (math/lp_master.h).
#include "mkl_master.h"

#include <limits>

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Eigen::VectorXd objective(int K) {
    Eigen::VectorXd c = Eigen::VectorXd::Zero(K + 1);
    c[K] = 1.0;  // min θ
    return c;
}

Eigen::VectorXd columnLower(int K) {
    Eigen::VectorXd l = Eigen::VectorXd::Zero(K + 1);
    l[K] = -kInf;  // θ free
    return l;
}

Eigen::VectorXd columnUpper(int K) {
    Eigen::VectorXd u = Eigen::VectorXd::Ones(K + 1);
    u[K] = kInf;
    return u;
}

}  // namespace

MklMasterLp::MklMasterLp(int kernels)
    : K_(kernels), lp_(objective(kernels), columnLower(kernels), columnUpper(kernels)) {
    // Σβ = 1 (θ's coefficient 0).
    Eigen::VectorXd ones = Eigen::VectorXd::Ones(K_ + 1);
    ones[K_] = 0.0;
    lp_.addRow(ones, 1.0, 1.0);
}

void MklMasterLp::addPlane(const Eigen::VectorXd& S) {
    Eigen::VectorXd row(K_ + 1);
    row.head(K_) = -S;
    row[K_] = 1.0;
    lp_.addRow(row, 0.0, kInf);
    ++planes_;
}

bool MklMasterLp::solve() {
    return lp_.solve() == LpStatus::Optimal;
}

double MklMasterLp::theta() const {
    return lp_.solution()[K_];
}

// β from the LP's columns: clipped to ≥ 0 and rescaled to sum 1 (the LP's tolerances leave
// ~1e-12 outside the simplex).
Eigen::VectorXd MklMasterLp::beta() const {
    Eigen::VectorXd beta = lp_.solution().head(K_).cwiseMax(0.0);
    const double sum = beta.sum();
    if (sum > 0) beta /= sum;
    return beta;
}

}  // namespace cplab
