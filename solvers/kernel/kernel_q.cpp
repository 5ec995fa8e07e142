// SPDX-License-Identifier: GPL-3.0-or-later
// KernelQ (kernel_set.h): the SVM's Hessian Y (Σₖ βₖ Kₖ) Y, row by row, over a KernelSet.
#include <Eigen/Core>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/number_text.h"
#include "kernel_set.h"
#include "row_cache.h"

namespace cplab {

// ---- KernelQ ----

struct KernelQ::Impl {
    KernelSet* kernels = nullptr;
    Eigen::VectorXd y;
    Eigen::VectorXd beta;
    Eigen::VectorXd diagonal;
    int m = 0;
    // One base kernel held whole: rows are y_i β y ∘ K_i formed in a ring of two buffers
    // instead of a second copy of the matrix.
    bool direct = false;
    std::vector<double> ring[2];
    int nextRing = 0;
    RowLru lru;
    long long rowsComputed = 0;
    // Σ βₖ Kₖ of the weighted kernels held over the same value classes, combined over the
    // classes when the weights are set: a row of Q then takes one gather of m values per
    // feature group instead of one per kernel (german: 19 groups for 190 kernels).
    struct ClassSum {
        const std::vector<int>* classOf = nullptr;
        Eigen::MatrixXd matrix;  // symmetric, classes × classes
    };
    std::vector<ClassSum> classSums;
    std::vector<int> perExample;  // the weighted kernels held per example

    void combineClasses() {
        classSums.clear();
        perExample.clear();
        std::vector<int> sumOfGroup;
        for (int k = 0; k < kernels->kernels(); ++k) {
            if (beta[k] == 0.0) continue;
            const int group = kernels->classGroup(k);
            if (group < 0) {
                perExample.push_back(k);
                continue;
            }
            if (group >= static_cast<int>(sumOfGroup.size())) sumOfGroup.resize(group + 1, -1);
            const Eigen::MatrixXd& matrix = kernels->classMatrix(k);
            if (sumOfGroup[group] < 0) {
                sumOfGroup[group] = static_cast<int>(classSums.size());
                classSums.push_back({&kernels->classOf(k), beta[k] * matrix});
            } else {
                classSums[sumOfGroup[group]].matrix += beta[k] * matrix;
            }
        }
    }

    void setWeights(const Eigen::VectorXd& b) {
        const int K = kernels->kernels();
        if (b.size() != K) {
            throw std::invalid_argument("KernelQ: " + std::to_string(b.size()) + " weights for " +
                                        std::to_string(K) + " kernels");
        }
        for (int k = 0; k < K; ++k) {
            if (!(b[k] >= 0.0) || !std::isfinite(b[k])) {
                throw std::invalid_argument("KernelQ: weight " + std::to_string(k + 1) + " = " +
                                            formatReal(b[k]) + ": must be finite and >= 0");
            }
        }
        beta = b;
        diagonal = Eigen::VectorXd::Zero(m);
        for (int k = 0; k < K; ++k) {
            if (beta[k] == 0.0) continue;
            for (int i = 0; i < m; ++i)
                diagonal[i] += beta[k] * kernels->diagonal(k, i);
        }
        combineClasses();
        lru.clear();
    }
    const double* row(int i);  // KernelQ::row
};

KernelQ::KernelQ(KernelSet& kernels, Eigen::VectorXd y, Eigen::VectorXd beta, double cacheMb)
    : impl_(std::make_unique<Impl>()) {
    Impl& d = *impl_;
    d.kernels = &kernels;
    d.m = kernels.examples();
    if (y.size() != d.m) {
        throw std::invalid_argument("KernelQ: " + std::to_string(y.size()) + " labels for " +
                                    std::to_string(d.m) + " examples");
    }
    for (int i = 0; i < d.m; ++i) {
        if (y[i] != 1.0 && y[i] != -1.0) {
            throw std::invalid_argument("KernelQ: labels must be -1/+1 (example " +
                                        std::to_string(i + 1) + " has " + formatReal(y[i]) + ")");
        }
    }
    if (!(cacheMb >= 1.0)) {
        throw std::invalid_argument("KernelQ: cache_mb = " + formatReal(cacheMb) +
                                    ": must be >= 1");
    }
    d.y = std::move(y);
    d.direct = kernels.kernels() == 1 && kernels.fullyCached();
    if (d.direct) {
        d.ring[0].resize(static_cast<std::size_t>(d.m));
        d.ring[1].resize(static_cast<std::size_t>(d.m));
    } else {
        const double rowBytes = static_cast<double>(d.m) * sizeof(double);
        const double rows = std::min(cacheBudgetBytes(cacheMb) / rowBytes, double(d.m));
        d.lru.configure(std::max(2, static_cast<int>(rows)), d.m);
    }
    d.setWeights(beta);
}

KernelQ::~KernelQ() = default;

int KernelQ::size() const {
    return impl_->m;
}
KernelSet& KernelQ::kernels() const {
    return *impl_->kernels;
}
const Eigen::VectorXd& KernelQ::labels() const {
    return impl_->y;
}
const Eigen::VectorXd& KernelQ::weights() const {
    return impl_->beta;
}
void KernelQ::setWeights(const Eigen::VectorXd& beta) {
    impl_->setWeights(beta);
}

const double* KernelQ::row(int i) {
    return impl_->row(i);
}

const double* KernelQ::Impl::row(int i) {
    Impl& d = *this;
    const int m = d.m;
    const double yi = d.y[i];
    if (d.direct) {
        double* out = d.ring[d.nextRing].data();
        d.nextRing ^= 1;
        const double factor = yi * d.beta[0];
        Eigen::Map<Eigen::ArrayXd> q(out, m);
        const Eigen::Map<const Eigen::ArrayXd> base(d.kernels->row(0, i), m);
        q = factor * d.y.array() * base;
        return out;
    }
    if (double* hit = d.lru.find(i)) return hit;
    double* out = d.lru.insert(i);
    Eigen::Map<Eigen::ArrayXd> q(out, m);
    q.setZero();
    for (const Impl::ClassSum& sum : d.classSums) {
        const std::vector<int>& classOf = *sum.classOf;
        const double* column = sum.matrix.col(classOf[static_cast<std::size_t>(i)]).data();
        for (int j = 0; j < m; ++j)
            out[j] += column[classOf[static_cast<std::size_t>(j)]];
    }
    if (d.kernels->pairMajor()) {
        if (!d.perExample.empty()) d.kernels->addWeightedRow(i, d.beta, out);
    } else {
        // Over the weighted kernels held per example only (addWeightedRow visits all K: 200 on
        // german for its 10 held per example).
        for (const int k : d.perExample)
            d.kernels->addRow(k, i, d.beta[k], out);
    }
    q *= yi * d.y.array();
    ++d.rowsComputed;
    return out;
}

Eigen::VectorXd KernelQ::multiply(const Eigen::VectorXd& x) const {
    const Impl& d = *impl_;
    if (d.kernels->pairMajor()) {
        // Q x = Σᵢ xᵢ Q(i, ·) from the rows of Q (cached: SMO then reads the support's rows,
        // which a pair-major KernelSet forms in one pass over pairs, from the cache).
        Eigen::VectorXd out = Eigen::VectorXd::Zero(d.m);
        for (int i = 0; i < d.m; ++i)
            if (x[i] != 0.0) out += x[i] * Eigen::Map<const Eigen::VectorXd>(impl_->row(i), d.m);
        return out;
    }
    const Eigen::VectorXd v = d.y.cwiseProduct(x);
    std::vector<int> support;
    for (int i = 0; i < d.m; ++i)
        if (v[i] != 0.0) support.push_back(i);
    Eigen::VectorXd out = Eigen::VectorXd::Zero(d.m);
    // K v = P (K_classes (Pᵀ v)) over value classes, P the examples' class indicators.
    for (const Impl::ClassSum& sum : d.classSums) {
        const std::vector<int>& classOf = *sum.classOf;
        Eigen::VectorXd w = Eigen::VectorXd::Zero(sum.matrix.rows());
        for (const int i : support)
            w[classOf[static_cast<std::size_t>(i)]] += v[i];
        const Eigen::VectorXd z = sum.matrix * w;
        for (int j = 0; j < d.m; ++j)
            out[j] += z[classOf[static_cast<std::size_t>(j)]];
    }
    for (const int k : d.perExample)
        d.kernels->addProduct(k, d.beta[k], v, support, out.data());
    return d.y.cwiseProduct(out);
}

double KernelQ::diagonal(int i) const {
    return impl_->diagonal[i];
}

long long KernelQ::rowsComputed() const {
    return impl_->direct ? impl_->kernels->rowsComputed() : impl_->rowsComputed;
}

}  // namespace cplab
