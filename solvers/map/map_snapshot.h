// SPDX-License-Identifier: GPL-3.0-or-later
// What the MAP family's view draws (map_view.h): the snapshot of a message-passing run —
// the decoded labelings, where the bound disagrees, the clusters added, the picture.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/snapshot.h"
#include "map/pairwise_model.h"

namespace cplab {

struct GridPicture;  // generators.h

struct MapSnapshot final : Snapshot {
    std::shared_ptr<const PairwiseModel> model;
    std::vector<int> labeling;      // decoded from the current beliefs
    std::vector<int> bestLabeling;  // the labeling whose energy is record.lower
    // Per node: 1 where a part of the bound containing it (an edge or a cycle cluster; a
    // chain for TRW-S) does not attain its maximum at `labeling` (see the header), else 0.
    std::vector<std::uint8_t> disagreeing;
    // The nodes of each cluster added by tightening (cycle_mplp.h), in cycle order; empty
    // for the other solvers.
    std::vector<std::vector<int>> clusters;
    double dual = 0.0;    // the bound at the current messages (record.upper: best so far)
    double energy = 0.0;  // the best E of the labelings decoded by the last sweep
    // The image behind a generated grid model (generators.h), or null; with a ground truth,
    // the fraction of its known nodes that `labeling` gets wrong (−1 without a truth).
    std::shared_ptr<const GridPicture> picture;
    double badPixels = -1.0;

    std::size_t bytes() const override {
        return Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot) +
               (labeling.capacity() + bestLabeling.capacity()) * sizeof(int) +
               disagreeing.capacity() + clusters.capacity() * sizeof(std::vector<int>) +
               clusters.size() * 4 * sizeof(int);
    }
};

}  // namespace cplab
