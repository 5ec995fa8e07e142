// SPDX-License-Identifier: GPL-3.0-or-later
// The cutting-plane model f_t(x) = maxᵢ f(xᵢ) + ⟨gᵢ, x − xᵢ⟩ of a convex function over a box
// and its minimisation by the epigraph master LP (ALGORITHMS.md §1, eq. 7.6):
//
//     min y  subject to  y ≥ f(xᵢ) + ⟨gᵢ, x − xᵢ⟩  for every plane i,   l ≤ x ≤ u,
//
// solved with Clp and re-solved warm with the dual simplex after each added plane.
//
// Certified lower bound. For any λ in the simplex, weak duality gives
//     min_X f_t ≥ φ(λ) = Σᵢ λᵢ bᵢ + min_{x∈X} ⟨Σᵢ λᵢ gᵢ, x⟩   (bᵢ = f(xᵢ) − ⟨gᵢ, xᵢ⟩),
// and the inner minimum over a box has a closed form. We report φ at the LP's row duals, so
// the bound stays valid whatever tolerances the LP solver used.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cutting_plane_view.h"
#include "math/lp_master.h"

namespace cplab {

class CuttingPlaneModel {
  public:
    explicit CuttingPlaneModel(const Box& box);

    void addPlane(CuttingPlane plane);
    const std::vector<CuttingPlane>& planes() const { return planes_; }

    struct Minimum {
        bool ok = false;
        std::string message;      // why the master LP failed, when !ok
        Eigen::VectorXd x;        // LP minimiser (clamped into the box)
        double lpValue = 0.0;     // LP optimum as reported by the LP solver
        double lowerBound = 0.0;  // certified: ≤ min over the box of the model
    };
    // Minimises the model over the box. Requires at least one plane.
    Minimum minimize();

  private:
    // min over the box of ⟨slope, x⟩ + offset.
    double minimumOverBox(const Eigen::VectorXd& slope, double offset) const;

    Box box_;
    std::vector<CuttingPlane> planes_;
    LpMaster lp_;
};

// Checks the last of `planes` against the others both ways (its plane at their points, their
// planes at its point), with a relative slack for rounding; the first violation found.
std::optional<PlaneAboveF> lastPlaneAboveF(const std::vector<CuttingPlane>& planes);
// "f is not convex: the plane from x = 0.5 lies above f at x = -1 (f = 1, plane = 2.5)".
std::string planeAboveFText(const std::vector<CuttingPlane>& planes, const PlaneAboveF& v);

// Why `function` cannot be minimised by a cutting-plane method over its box (no function,
// wrong box dimension, an infinite or empty box), prefixed with `owner`; empty when it can.
std::string cuttingPlaneProblemError(const ConvexFunction* function, const std::string& owner);

}  // namespace cplab
