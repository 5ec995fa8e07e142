// SPDX-License-Identifier: GPL-3.0-or-later
// An immutable picture of a solver's state after an iteration: what the views need, by
// value. Families derive from Snapshot and add their plot data; each family's view casts to
// the types its solvers produce.
#pragma once

#include <cstddef>
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
    // What the last step did, one short line per event ("null step: the prox-centre stays at
    // f = 0.5312"), in the order the step did it; record.events holds their mask.
    std::vector<std::string> events;

    // Memory this snapshot holds of its own (not what it shares with the run's other
    // snapshots, such as the dataset or the sampled function), for the history budget.
    virtual std::size_t bytes() const {
        std::size_t eventBytes = events.capacity() * sizeof(std::string);
        for (const std::string& text : events)
            eventBytes += text.capacity();
        return sizeof(Snapshot) + solver.capacity() + executedLines.capacity() * sizeof(int) +
               record.extra.capacity() * sizeof(double) + eventBytes;
    }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace cplab
