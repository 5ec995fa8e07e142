// SPDX-License-Identifier: GPL-3.0-or-later
#include "cutting_plane_model.h"

#include <cmath>
#include <limits>

#include "core/number_text.h"

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

LpMaster makeMaster(const Box& box) {
    const int n = box.dimension();
    Eigen::VectorXd objective = Eigen::VectorXd::Zero(n + 1);
    objective(n) = 1.0;  // minimise y
    Eigen::VectorXd lower(n + 1), upper(n + 1);
    lower << box.lower, -kInf;
    upper << box.upper, kInf;
    return LpMaster(objective, lower, upper);
}

}  // namespace

double CuttingPlaneModel::minimumOverBox(const Eigen::VectorXd& slope, double offset) const {
    double value = offset;
    for (int j = 0; j < slope.size(); ++j) {
        value += std::min(slope(j) * box_.lower(j), slope(j) * box_.upper(j));
    }
    return value;
}

CuttingPlaneModel::CuttingPlaneModel(const Box& box) : box_(box), lp_(makeMaster(box)) {}

void CuttingPlaneModel::addPlane(CuttingPlane plane) {
    const int n = box_.dimension();
    // y − ⟨g, x⟩ ≥ f(xᵢ) − ⟨g, xᵢ⟩
    Eigen::VectorXd row(n + 1);
    row << -plane.gradient, 1.0;
    lp_.addRow(row, plane.offset(), kInf);
    planes_.push_back(std::move(plane));
}

CuttingPlaneModel::Minimum CuttingPlaneModel::minimize() {
    Minimum result;
    const LpStatus status = lp_.solve();
    if (status != LpStatus::Optimal) {
        result.message = "master LP: " + lp_.lastMessage();
        return result;
    }
    const int n = box_.dimension();
    result.ok = true;
    result.lpValue = lp_.objective();
    result.x = lp_.solution().head(n).cwiseMax(box_.lower).cwiseMin(box_.upper);

    // φ(λ) at the normalised row duals.
    const Eigen::VectorXd& duals = lp_.rowDuals();
    double total = 0.0;
    for (int i = 0; i < duals.size(); ++i)
        total += std::abs(duals(i));
    if (!(total > 0.0) || !std::isfinite(total)) {
        // No usable duals. Still certified, if weaker: f_t ≥ planeᵢ for every i, so
        // min_X f_t ≥ maxᵢ min_X planeᵢ.
        result.lowerBound = -kInf;
        for (const auto& plane : planes_) {
            result.lowerBound =
                std::max(result.lowerBound, minimumOverBox(plane.gradient, plane.offset()));
        }
        return result;
    }
    Eigen::VectorXd slope = Eigen::VectorXd::Zero(n);
    double bound = 0.0;
    for (int i = 0; i < duals.size(); ++i) {
        const double weight = std::abs(duals(i)) / total;
        bound += weight * planes_[static_cast<std::size_t>(i)].offset();
        slope += weight * planes_[static_cast<std::size_t>(i)].gradient;
    }
    result.lowerBound = minimumOverBox(slope, bound);
    return result;
}

std::optional<PlaneAboveF> lastPlaneAboveF(const std::vector<CuttingPlane>& planes) {
    if (planes.size() < 2) return std::nullopt;
    const std::size_t last = planes.size() - 1;
    // A plane above f at `point` by more than rounding can explain.
    auto above = [&](std::size_t plane, std::size_t point) -> std::optional<PlaneAboveF> {
        const CuttingPlane& p = planes[plane];
        const CuttingPlane& q = planes[point];
        // Planes of a decoded snapshot are checked here before their sizes are (codec).
        if (p.gradient.size() != p.point.size() || q.point.size() != p.point.size())
            return std::nullopt;
        const double value = p.at(q.point);
        const double slack = 1e-9 * (1 + std::abs(q.value) + std::abs(p.value) +
                                     p.gradient.norm() * (q.point - p.point).norm());
        if (value > q.value + slack) return PlaneAboveF{plane, point, q.value, value};
        return std::nullopt;
    };
    for (std::size_t i = 0; i < last; ++i) {
        if (auto v = above(last, i)) return v;
        if (auto v = above(i, last)) return v;
    }
    return std::nullopt;
}

std::string planeAboveFText(const std::vector<CuttingPlane>& planes, const PlaneAboveF& v) {
    const bool oneD = planes[v.plane].point.size() == 1;
    const std::string at = oneD ? "x = " : "(x, y) = ";
    return "f is not convex: the plane from " + at + pointText(planes[v.plane].point) +
           " lies above f at " + at + pointText(planes[v.point].point) +
           // + 0.0: -0 (f = -x^2 at 0) is written 0.
           " (f = " + formatShort(v.f + 0.0, 6) +
           ", plane = " + formatShort(v.planeValue + 0.0, 6) + ")";
}

std::string cuttingPlaneProblemError(const ConvexFunction* function, const std::string& owner) {
    if (!function) return owner + ": no function given";
    const Box box = function->box();
    if (box.dimension() != function->dimension() || box.dimension() < 1 || !box.lower.allFinite() ||
        !box.upper.allFinite() || !(box.lower.array() <= box.upper.array()).all()) {
        return owner + ": the function's box must be finite with lower <= upper";
    }
    return {};
}

}  // namespace cplab
