// SPDX-License-Identifier: GPL-3.0-or-later
#include "plane_set.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

namespace cplab {

namespace {

SimplexQpOptions qpOptions(const PlaneOptions& options) {
    SimplexQpOptions qp;
    qp.tolerance = options.qp_tolerance;
    return qp;
}

// Planes per storage block: about kBlockBytes, at most 64, at least one.
constexpr double kBlockBytes = 256.0 * 1024;

int blockWidthFor(Eigen::Index dimension) {
    const double fit =
        kBlockBytes / (8.0 * static_cast<double>(std::max<Eigen::Index>(1, dimension)));
    return static_cast<int>(std::clamp(fit, 1.0, 64.0));
}

}  // namespace

bool PlaneOptions::isValid(const char* owner, std::string* why) const {
    return require(inactive_limit >= 0, owner, "inactive_limit", inactive_limit, "must be >= 0",
                   why) &&
           require(max_planes == -1 || max_planes == 0 || max_planes >= 2, owner, "max_planes",
                   max_planes, "must be -1 (automatic), 0 (no cap) or >= 2", why) &&
           require(std::isfinite(qp_tolerance) && qp_tolerance > 0 && qp_tolerance < 1, owner,
                   "qp_tolerance", qp_tolerance, "must lie in (0, 1)", why);
}

int automaticMaxPlanes(Eigen::Index dimension, double budgetBytes) {
    const double budget = std::isfinite(budgetBytes) ? std::clamp(budgetBytes, 0.0, kAutoPlaneBytes)
                                                     : kAutoPlaneBytes;
    const double fit = budget / (8.0 * static_cast<double>(std::max<Eigen::Index>(1, dimension)));
    return static_cast<int>(
        std::clamp(fit, static_cast<double>(kAutoMinPlanes), static_cast<double>(kAutoMaxPlanes)));
}

double linearPlaneBudget(double dataBytes) {
    return std::max(kMinPlaneBudget, kPlaneShareOfData * dataBytes);
}

PlaneSet::PlaneSet(Eigen::Index dimension, double lambda, const PlaneOptions& options,
                   double autoBudgetBytes)
    : dimension_(dimension),
      lambda_(lambda),
      inactiveLimit_(options.inactive_limit),
      maxPlanes_(options.max_planes < 0 ? automaticMaxPlanes(dimension, autoBudgetBytes)
                                        : options.max_planes),
      qp_(qpOptions(options)),
      blockWidth_(blockWidthFor(dimension)),
      qpOptions_(qpOptions(options)) {
    const double most = maxPlanes_ > 0 ? maxPlanes_ : kAutoMaxPlanes;
    keepPoints_ = most * static_cast<double>(dimension) <= kCutPointDoubles;
    add(Eigen::VectorXd::Zero(dimension), 0.0);  // R ≥ 0
}

void PlaneSet::add(const Eigen::VectorXd& a, double b, const Eigen::VectorXd& point) {
    if (count_ == static_cast<int>(blocks_.size()) * blockWidth_)
        blocks_.emplace_back(dimension_, blockWidth_);
    // The new Gram column ⟨aᵢ, a⟩/λ, block by block.
    Eigen::VectorXd gram(count_ + 1);
    for (int start = 0; start < count_; start += blockWidth_) {
        const int width = std::min(blockWidth_, count_ - start);
        gram.segment(start, width).noalias() =
            blocks_[start / blockWidth_].leftCols(width).transpose() * a;
    }
    Eigen::Map<Eigen::VectorXd>(column(count_), dimension_) = a;
    gram(count_) = a.squaredNorm();
    gram /= lambda_;
    qp_.addVariable(gram, b);
    b_.push_back(b);
    inactiveFor_.push_back(0);
    if (keepPoints_) points_.push_back(point);
    ++count_;
}

SimplexQpResult PlaneSet::solve() {
    const SimplexQpResult result = qp_.solve();
    lastDropped_ = lastMerged_ = 0;
    const Eigen::VectorXd& alpha = qp_.alpha();
    for (int i = 0; i < count_; ++i)
        inactiveFor_[i] = alpha(i) > 0 ? 0 : inactiveFor_[i] + 1;
    if (inactiveLimit_ > 0) dropInactive();
    if (maxPlanes_ > 0 && count_ > maxPlanes_) aggregate();
    return result;
}

void PlaneSet::dropInactive() {
    std::vector<int> drop;
    for (int i = 1; i < count_; ++i) {  // plane 0 is R ≥ 0: kept
        if (inactiveFor_[i] >= inactiveLimit_) drop.push_back(i);
    }
    if (drop.empty()) return;
    dropped_ += static_cast<int>(drop.size());
    lastDropped_ = static_cast<int>(drop.size());
    removePlanes(drop);
}

void PlaneSet::removePlanes(const std::vector<int>& sorted) {
    if (sorted.empty()) return;
    qp_.removeVariables(sorted);
    int kept = 0;
    std::size_t next = 0;
    for (int i = 0; i < count_; ++i) {
        if (next < sorted.size() && sorted[next] == i) {
            ++next;
            continue;
        }
        if (kept != i) {
            std::copy_n(column(i), dimension_, column(kept));
            b_[kept] = b_[i];
            inactiveFor_[kept] = inactiveFor_[i];
            if (keepPoints_) points_[kept] = std::move(points_[i]);
        }
        ++kept;
    }
    count_ = kept;
    b_.resize(kept);
    inactiveFor_.resize(kept);
    if (keepPoints_) points_.resize(kept);
    releaseEmptyBlocks();
}

void PlaneSet::releaseEmptyBlocks() {
    // One empty block is kept: at the cap the count moves between maxPlanes_ and one more
    // every iteration, and freeing and allocating a block each time fragments the heap.
    const std::size_t needed =
        static_cast<std::size_t>((count_ + blockWidth_ - 1) / blockWidth_) + 1;
    if (blocks_.size() > needed) {
        blocks_.resize(needed);
        blocks_.shrink_to_fit();
    }
}

void PlaneSet::aggregate() {
    // Keeps plane 0, the newest plane and the most recent others; the oldest, planes 1..n_M,
    // become one plane ā = Σ αᵢaᵢ / α_M, b̄ likewise, with weight α_M = Σ αᵢ over them (dropped
    // outright when α_M = 0). ā is a convex combination of valid planes, so it is valid, and
    // Aα, bᵀα and so w and the dual value are those of before.
    const Eigen::VectorXd alpha = qp_.alpha();
    const int before = count_;
    const int mergeable = before - 1 - (maxPlanes_ >= 3 ? 1 : 0);    // not plane 0 or the newest
    const int merge = std::min(mergeable, before - maxPlanes_ + 1);  // leaves ≤ maxPlanes_
    std::vector<int> merged(static_cast<std::size_t>(merge));
    std::iota(merged.begin(), merged.end(), 1);
    const double weight = alpha.segment(1, merge).sum();
    double b = 0.0;
    Eigen::VectorXd a = Eigen::VectorXd::Zero(dimension_);
    for (int i = 1; i <= merge; ++i) {
        b += alpha(i) * b_[i];
        a += alpha(i) * Eigen::Map<const Eigen::VectorXd>(column(i), dimension_);
    }
    const int rest = before - 1 - merge;
    Eigen::VectorXd kept(before - merge + 1);
    kept(0) = alpha(0);
    kept.segment(1, rest) = alpha.tail(rest);
    removePlanes(merged);
    if (weight > 0) {
        add(a / weight, b / weight);
        kept(1 + rest) = weight;
        qp_.setAlpha(kept);
    } else {
        qp_.setAlpha(kept.head(1 + rest));
    }
    ++aggregations_;
    lastMerged_ = merge;
}

StepEvents PlaneSet::lastSolveEvents() const {
    StepEvents events;
    if (lastDropped_ > 0) {
        events.add(PlanesDropped,
                   std::to_string(lastDropped_) + (lastDropped_ == 1 ? " plane" : " planes") +
                       " dropped (inactive for " + std::to_string(inactiveLimit_) + " solves)");
    }
    if (lastMerged_ > 0) {
        events.add(PlanesAggregated, "the " + std::to_string(lastMerged_) +
                                         " oldest planes aggregated into one (cap " +
                                         std::to_string(maxPlanes_) + ")");
    }
    return events;
}

std::vector<Eigen::VectorXd> PlaneSet::cutPoints() const {
    std::vector<Eigen::VectorXd> points;
    for (const Eigen::VectorXd& point : points_) {
        if (point.size() == dimension_) points.push_back(point);
    }
    return points;
}

Eigen::VectorXd PlaneSet::combination(const Eigen::VectorXd& alpha) const {
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(dimension_);
    for (int start = 0; start < count_; start += blockWidth_) {
        const int width = std::min(blockWidth_, count_ - start);
        sum.noalias() += blocks_[start / blockWidth_].leftCols(width) * alpha.segment(start, width);
    }
    return sum;
}

Eigen::VectorXd PlaneSet::weights() const {
    if (count_ == 0) return Eigen::VectorXd::Zero(dimension_);
    return -combination(qp_.alpha()) / lambda_;
}

double PlaneSet::dualValue() const {
    if (count_ == 0) return -std::numeric_limits<double>::infinity();
    return -qp_.objective();
}

double PlaneSet::modelValue(const Eigen::VectorXd& w) const {
    double value = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < count_; ++i)
        value = std::max(value,
                         Eigen::Map<const Eigen::VectorXd>(column(i), dimension_).dot(w) + b_[i]);
    return value;
}

int PlaneSet::active() const {
    if (count_ == 0) return 0;
    return static_cast<int>((qp_.alpha().array() > 0).count());
}

}  // namespace cplab
