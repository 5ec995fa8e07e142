// SPDX-License-Identifier: GPL-3.0-or-later
// The names of the step events (events.h).
#include "events.h"

#include <cstddef>

#include "number_text.h"

namespace cplab {

const char* eventName(Event event) {
    switch (event) {
        case SeriousStep:
            return "serious step";
        case NullStep:
            return "null step";
        case PlaneAdded:
            return "plane added";
        case PlanesDropped:
            return "planes dropped";
        case PlanesAggregated:
            return "planes aggregated";
        case ConstraintsAdded:
            return "constraints added";
        case KernelEntered:
            return "kernel entered";
        case KernelLeft:
            return "kernel left";
        case ClusterAdded:
            return "cluster added";
        case ExpansionVectorMoved:
            return "expansion vector moved";
        case VertexAdded:
            return "vertex added";
        case AwayStep:
            return "away step";
        case DropStep:
            return "drop step";
        case ProxWeightChanged:
            return "prox weight changed";
        case ExpansionVectorAdded:
            return "expansion vector added";
    }
    return "";
}

std::vector<std::string> eventNames(std::uint32_t mask) {
    std::vector<std::string> names;
    for (const Event event : kAllEvents)
        if (mask & event) names.emplace_back(eventName(event));
    return names;
}

namespace {

// Members listed by name in one line at most; more are counted.
constexpr std::size_t kListedMembers = 3;

void noteChanges(const std::vector<std::size_t>& changed, Event event, const char* verb,
                 const std::vector<double>& weights, const std::vector<std::string>& labels,
                 const std::string& noun, const std::string& weightName, StepEvents& events) {
    if (changed.empty()) return;
    if (changed.size() <= kListedMembers) {
        for (const std::size_t j : changed) {
            std::string text = noun + " " + labels[j] + " " + verb + " the active set";
            if (j < weights.size()) text += " (" + weightName + " " + formatShort(weights[j]) + ")";
            events.add(event, std::move(text));
        }
        return;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < kListedMembers; ++i)
        names.push_back(labels[changed[i]]);
    names.emplace_back("...");
    events.add(event, std::to_string(changed.size()) + " " + noun + "s " + verb +
                          " the active set: " + joined(names));
}

}  // namespace

StepEvents activeSetEvents(const std::vector<bool>& before, const std::vector<bool>& after,
                           const std::vector<double>& weights,
                           const std::vector<std::string>& labels, const std::string& noun,
                           const std::string& weightName) {
    StepEvents events;
    if (before.size() != labels.size() || after.size() != labels.size()) return events;
    std::vector<std::size_t> entered, left;
    for (std::size_t j = 0; j < labels.size(); ++j) {
        if (!before[j] && after[j]) entered.push_back(j);
        if (before[j] && !after[j]) left.push_back(j);
    }
    noteChanges(entered, KernelEntered, "entered", weights, labels, noun, weightName, events);
    noteChanges(left, KernelLeft, "left", weights, labels, noun, weightName, events);
    return events;
}

}  // namespace cplab
