// SPDX-License-Identifier: GPL-3.0-or-later
// What a solver's step did, for the GUI's log and caption: a bit mask of events in the
// iteration record (IterationRecord::events, cheap, kept in every record) and one short text
// per event in the snapshot (Snapshot::events: "null step: the prox-centre stays at f =
// 0.5312"). A solver notes its events in doStep() with Solver::noteEvent().
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cplab {

enum Event : std::uint32_t {
    // Proximal bundle: the prox-centre moved to the step's point / stayed. OCAS: the line
    // search moved w_b (k > 0) / left it where it was (k = 0).
    SeriousStep = 1u << 0,
    NullStep = 1u << 1,
    PlaneAdded = 1u << 2,        // a cutting plane joined the model
    PlanesDropped = 1u << 3,     // planes inactive for inactive_limit solves were removed
    PlanesAggregated = 1u << 4,  // the oldest planes were merged into one (plane cap)
    ConstraintsAdded = 1u << 5,  // n-slack: violated labellings joined their working sets
    // A kernel (an online-MKL group) joined / left the active set: its weight rose above the
    // solver's threshold of zero (mklpath: its share of the combined kernel reached
    // active_threshold) / fell to it.
    KernelEntered = 1u << 6,
    KernelLeft = 1u << 7,
    ClusterAdded = 1u << 8,           // MAP tightening: cycles joined the dual
    ExpansionVectorMoved = 1u << 9,   // SLMC: the expansion vectors moved (the one moved most)
    VertexAdded = 1u << 10,           // Frank–Wolfe: a vertex joined the active set
    AwayStep = 1u << 11,              // Frank–Wolfe: a step away from an active vertex
    DropStep = 1u << 12,              // Frank–Wolfe: an away step that removed its vertex
    ProxWeightChanged = 1u << 13,     // bundle: the adaptive rule changed ν
    ExpansionVectorAdded = 1u << 14,  // reduced set: a new expansion vector was placed
};

// Every event, in bit order.
inline constexpr Event kAllEvents[] = {
    SeriousStep,      NullStep,      PlaneAdded, PlanesDropped,     PlanesAggregated,
    ConstraintsAdded, KernelEntered, KernelLeft, ClusterAdded,      ExpansionVectorMoved,
    VertexAdded,      AwayStep,      DropStep,   ProxWeightChanged, ExpansionVectorAdded};

// Short human name of one event ("null step", "plane added"); "" for a value that is no event.
const char* eventName(Event event);
// The names of the events in `mask`, in bit order.
std::vector<std::string> eventNames(std::uint32_t mask);

struct StepEvents;

// KernelEntered and KernelLeft for the members of an active set (kernels, groups) whose flag
// changed from `before` to `after` (same sizes as `labels`, else nothing): "kernel
// gaussian:0.1 entered the active set (beta 0.1234)" with `weights` (the new weights, named
// `weightName`), or "5 kernels left the active set: a, b, c, ..." when more than three
// changed. `noun` names a member ("kernel", "group").
StepEvents activeSetEvents(const std::vector<bool>& before, const std::vector<bool>& after,
                           const std::vector<double>& weights,
                           const std::vector<std::string>& labels, const std::string& noun,
                           const std::string& weightName);

// The events of one step: the mask and one text per noted event, in the order noted.
struct StepEvents {
    std::uint32_t mask = 0;
    std::vector<std::string> texts;

    void add(Event event, std::string text) {
        mask |= event;
        texts.push_back(std::move(text));
    }
    void clear() {
        mask = 0;
        texts.clear();
    }
};

}  // namespace cplab
