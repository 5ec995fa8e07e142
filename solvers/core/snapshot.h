// An immutable picture of a solver's state after an iteration: what the views need, by
// value. Families derive from Snapshot and add their plot data; the views dynamic_cast.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "iteration_record.h"
#include "status.h"

namespace cplab {

struct Snapshot {
    virtual ~Snapshot() = default;

    std::string solver;      // registry name of the solver ("kelley")
    IterationRecord record;  // the latest record (iteration 0 before the first step)
    Status status;
    // Lines of the solver's pseudocode (0-based, see pseudocode()) executed by the last step,
    // in order; the last one is where the step ended.
    std::vector<int> executedLines;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace cplab
