// SPDX-License-Identifier: GPL-3.0-or-later
// D(β) on a grid of kernel weights, as the kernel view asks for it and gets it back: the view
// picks the points of the simplex and draws the values; the application solves the SVMs
// (app/gui/objective_grid_job.h, owned by the run controller) on a worker thread.
#pragma once

#include <Eigen/Core>
#include <QtGlobal>
#include <memory>
#include <string>
#include <vector>

#include "kernel/kernel_snapshot.h"

namespace cplab::widgets {

// Solve D(β) = max_α Σₖ βₖ Sₖ(α) afresh at every point with the run's setup.
struct ObjectiveGridRequest {
    int runId = 0;
    std::shared_ptr<const KernelSetup> setup;
    std::vector<Eigen::VectorXd> points;
};

struct ObjectiveGridResult {
    int runId = 0;
    std::vector<double> values;  // D at the request's points (NaN where none was solved)
    std::string error;           // why the evaluation failed, or empty
    bool cancelled = false;
    qint64 milliseconds = 0;
};

// A finished evaluation as the view keeps and draws it. Triangle lattices (three kernels)
// store point (i/n, j/n, 1 − (i + j)/n) at index i(n + 1) − i(i − 1)/2 + j; `divisions` is n
// (0 for the line of two kernels).
struct ObjectiveGridValues {
    std::shared_ptr<const KernelSetup> setup;
    std::vector<Eigen::VectorXd> points;
    std::vector<double> values;
    int divisions = 0;
};

}  // namespace cplab::widgets
