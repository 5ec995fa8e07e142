#include "plane_set.h"

#include <cmath>
#include <limits>

namespace cplab {

PlaneSet::PlaneSet(Eigen::Index dimension, double lambda, int inactiveLimit, int maxPlanes,
                   SimplexQpOptions qp)
    : dimension_(dimension),
      lambda_(lambda),
      inactiveLimit_(inactiveLimit),
      maxPlanes_(maxPlanes),
      qp_(qp),
      A_(dimension, 16),
      qpOptions_(qp) {}

void PlaneSet::add(const Eigen::VectorXd& a, double b) {
    if (count_ == A_.cols()) A_.conservativeResize(Eigen::NoChange, 2 * A_.cols());
    A_.col(count_) = a;
    Eigen::VectorXd column(count_ + 1);
    if (count_ > 0) column.head(count_).noalias() = A_.leftCols(count_).transpose() * a;
    column(count_) = a.squaredNorm();
    column /= lambda_;
    qp_.addVariable(column, b);
    b_.push_back(b);
    inactiveFor_.push_back(0);
    ++count_;
}

SimplexQpResult PlaneSet::solve() {
    const SimplexQpResult result = qp_.solve();
    const Eigen::VectorXd& alpha = qp_.alpha();
    for (int i = 0; i < count_; ++i)
        inactiveFor_[i] = alpha(i) > 0 ? 0 : inactiveFor_[i] + 1;
    if (inactiveLimit_ > 0) dropInactive();
    if (maxPlanes_ > 0 && count_ > maxPlanes_) aggregate();
    return result;
}

void PlaneSet::dropInactive() {
    std::vector<int> drop;
    for (int i = 0; i < count_; ++i) {
        if (inactiveFor_[i] >= inactiveLimit_) drop.push_back(i);
    }
    if (drop.empty() || static_cast<int>(drop.size()) == count_) return;
    qp_.removeVariables(drop);
    int kept = 0;
    std::size_t next = 0;
    for (int i = 0; i < count_; ++i) {
        if (next < drop.size() && drop[next] == i) {
            ++next;
            continue;
        }
        if (kept != i) {
            A_.col(kept) = A_.col(i);
            b_[kept] = b_[i];
            inactiveFor_[kept] = inactiveFor_[i];
        }
        ++kept;
    }
    dropped_ += count_ - kept;
    count_ = kept;
    b_.resize(kept);
    inactiveFor_.resize(kept);
}

void PlaneSet::aggregate() {
    const Eigen::VectorXd alpha = qp_.alpha();
    const Eigen::VectorXd a = A_.leftCols(count_) * alpha;
    double b = 0.0;
    for (int i = 0; i < count_; ++i)
        b += alpha(i) * b_[i];
    qp_ = SimplexQp(qpOptions_);
    count_ = 0;
    b_.clear();
    inactiveFor_.clear();
    add(a, b);  // α = 1 on the aggregate: the same w and dual value as before
    ++aggregations_;
}

Eigen::VectorXd PlaneSet::weights() const {
    if (count_ == 0) return Eigen::VectorXd::Zero(dimension_);
    return -(A_.leftCols(count_) * qp_.alpha()) / lambda_;
}

double PlaneSet::dualValue() const {
    if (count_ == 0) return -std::numeric_limits<double>::infinity();
    return -qp_.objective();
}

double PlaneSet::modelValue(const Eigen::VectorXd& w) const {
    double value = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < count_; ++i)
        value = std::max(value, A_.col(i).dot(w) + b_[i]);
    return value;
}

int PlaneSet::active() const {
    if (count_ == 0) return 0;
    return static_cast<int>((qp_.alpha().array() > 0).count());
}

}  // namespace cplab
