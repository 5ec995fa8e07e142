// SPDX-License-Identifier: GPL-3.0-or-later
// What the Frank–Wolfe view draws (polytope_plot.h): the snapshot of a `frankwolfe` run on its
// polygon.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "core/snapshot.h"
#include "polytope_problem.h"

namespace cplab {

struct FrankWolfeSnapshot final : Snapshot {
    std::shared_ptr<const PolytopeView> view;
    std::vector<Eigen::Vector2d> iterates;               // x₀ … x_t
    Eigen::Vector2d gradient = Eigen::Vector2d::Zero();  // ∇f at the point the step started from
    int fwVertex = -1;    // s_t of the last step (index into the vertices)
    int awayVertex = -1;  // a_t of the last step when it was an away step, else −1
    bool awayStep = false;
    bool dropStep = false;  // an away step that removed a vertex from the active set
    double stepSize = 0.0;
    double fwGap = 0.0;
    std::vector<double> weights;  // active-set weight per vertex (away variant), else empty

    std::size_t bytes() const override {
        return Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot) +
               iterates.capacity() * sizeof(Eigen::Vector2d) + weights.capacity() * sizeof(double);
    }
};

}  // namespace cplab
