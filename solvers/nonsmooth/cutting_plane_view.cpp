// SPDX-License-Identifier: GPL-3.0-or-later
#include "cutting_plane_view.h"

#include <cmath>
#include <limits>

#include "core/number_text.h"

namespace cplab {

std::shared_ptr<const FunctionView> makeFunctionView(const ConvexFunction& function, int resolution,
                                                     int contourCount) {
    auto view = std::make_shared<FunctionView>();
    view->name = function.name();
    view->title = function.title();
    view->dimension = function.dimension();
    view->box = function.box();
    view->minimum = function.minimumValue();
    view->minimizer = function.minimizer();
    const Box& box = view->box;
    const int n = std::max(resolution, 2);
    if (view->dimension == 1) {
        Eigen::VectorXd x(1);
        for (int i = 0; i < n; ++i) {
            x(0) = box.lower(0) + (box.upper(0) - box.lower(0)) * i / (n - 1);
            view->xs.push_back(x(0));
            view->fs.push_back(function.evaluate(x, nullptr));
        }
    } else if (view->dimension == 2) {
        GridSamples& grid = view->grid;
        grid.nx = grid.ny = n;
        grid.x0 = box.lower(0);
        grid.y0 = box.lower(1);
        grid.dx = (box.upper(0) - box.lower(0)) / (n - 1);
        grid.dy = (box.upper(1) - box.lower(1)) / (n - 1);
        grid.values.resize(static_cast<std::size_t>(n) * n);
        Eigen::VectorXd x(2);
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                x << grid.x(i), grid.y(j);
                grid.values[static_cast<std::size_t>(j) * n + i] = function.evaluate(x, nullptr);
            }
        }
        for (double level : quantileLevels(grid, contourCount)) {
            view->contours.push_back(contourLevel(grid, level));
        }
    }
    return view;
}

std::string pointText(const Eigen::VectorXd& x) {
    if (x.size() == 1) return formatShort(x[0]);
    std::vector<std::string> parts;
    for (Eigen::Index i = 0; i < x.size(); ++i)
        parts.push_back(formatShort(x[i]));
    return "(" + joined(parts) + ")";
}

std::string planeAddedText(std::size_t count, const Eigen::VectorXd& x, double f) {
    return "plane " + std::to_string(count) + " added at x = " + pointText(x) +
           ": f = " + formatShort(f);
}

double modelValue(const std::vector<CuttingPlane>& planes, const Eigen::VectorXd& x) {
    double best = -std::numeric_limits<double>::infinity();
    for (const auto& plane : planes)
        best = std::max(best, plane.at(x));
    return best;
}

std::vector<double> modelCurve(const std::vector<CuttingPlane>& planes,
                               const std::vector<double>& xs) {
    std::vector<double> out;
    out.reserve(xs.size());
    Eigen::VectorXd x(1);
    for (double value : xs) {
        x(0) = value;
        out.push_back(modelValue(planes, x));
    }
    return out;
}

namespace {

using Polygon = std::vector<Eigen::Vector2d>;

// Sutherland–Hodgman: keeps the part of `polygon` where ⟨normal, x⟩ + offset ≥ 0.
Polygon clip(const Polygon& polygon, const Eigen::Vector2d& normal, double offset) {
    Polygon out;
    const std::size_t n = polygon.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Eigen::Vector2d& a = polygon[k];
        const Eigen::Vector2d& b = polygon[(k + 1) % n];
        const double sa = normal.dot(a) + offset;
        const double sb = normal.dot(b) + offset;
        if (sa >= 0) out.push_back(a);
        if ((sa >= 0) != (sb >= 0)) out.push_back(a + (sa / (sa - sb)) * (b - a));
    }
    return out;
}

}  // namespace

std::vector<std::vector<Eigen::Vector2d>> modelCells(const std::vector<CuttingPlane>& planes,
                                                     const Box& box) {
    std::vector<Polygon> cells(planes.size());
    if (box.dimension() != 2) return cells;
    const Polygon square = {{box.lower(0), box.lower(1)},
                            {box.upper(0), box.lower(1)},
                            {box.upper(0), box.upper(1)},
                            {box.lower(0), box.upper(1)}};
    for (std::size_t k = 0; k < planes.size(); ++k) {
        Polygon cell = square;
        const Eigen::Vector2d gk = planes[k].gradient.head<2>();
        const double bk = planes[k].offset();
        for (std::size_t j = 0; j < planes.size() && !cell.empty(); ++j) {
            if (j == k) continue;
            // plane k ≥ plane j  ⇔  ⟨g_k − g_j, x⟩ + (b_k − b_j) ≥ 0. Identical planes: the
            // earlier one owns the cell.
            const Eigen::Vector2d normal = gk - planes[j].gradient.head<2>();
            const double offset = bk - planes[j].offset();
            if (normal.squaredNorm() == 0.0) {
                if (offset < 0 || (offset == 0 && j < k)) cell.clear();
                continue;
            }
            cell = clip(cell, normal, offset);
        }
        // Drop repeated vertices (a vertex on a clipping line comes out twice) and cells of
        // (numerically) zero area: a plane that is the max at one point or along a segment only.
        Polygon clean;
        const double scale = (box.upper - box.lower).cwiseAbs().maxCoeff();
        for (const Eigen::Vector2d& p : cell) {
            if (clean.empty() || (p - clean.back()).norm() > 1e-12 * scale) clean.push_back(p);
        }
        while (clean.size() > 1 && (clean.front() - clean.back()).norm() <= 1e-12 * scale) {
            clean.pop_back();
        }
        double area = 0.0;
        for (std::size_t v = 0; v < clean.size(); ++v) {
            const Eigen::Vector2d& a = clean[v];
            const Eigen::Vector2d& b = clean[(v + 1) % clean.size()];
            area += a.x() * b.y() - a.y() * b.x();
        }
        if (clean.size() >= 3 && std::abs(area) > 1e-14 * scale * scale)
            cells[k] = std::move(clean);
    }
    return cells;
}

std::size_t CuttingPlaneSnapshot::bytes() const {
    auto vector = [](const Eigen::VectorXd& v) {
        return sizeof(double) * static_cast<std::size_t>(v.size());
    };
    std::size_t total = Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot);
    for (const auto& plane : planes)
        total += sizeof(CuttingPlane) + vector(plane.point) + vector(plane.gradient);
    for (const auto& x : iterates)
        total += sizeof(Eigen::VectorXd) + vector(x);
    total += vector(candidate) + vector(modelMinimizer) + vector(best) + vector(proxCenter);
    total +=
        serious.capacity() / 8 + sizeof(double) * (modelCurve.capacity() + proxCurve.capacity());
    for (const auto& cell : modelCells)
        total += sizeof(cell) + cell.capacity() * sizeof(Eigen::Vector2d);
    return total;
}

}  // namespace cplab
