// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a MapSnapshot (map_snapshot_codec.h).
#include "map_snapshot_codec.h"

namespace cplab {

namespace {

// A labeling of every variable of `model` (or none), each label within its variable's range.
void checkLabeling(ByteReader& in, const std::vector<int>& labeling, const PairwiseModel& model) {
    if (!in.expectSize(labeling.size(), static_cast<std::size_t>(model.variables()), "a labeling",
                       true))
        return;
    for (std::size_t v = 0; v < labeling.size(); ++v) {
        const int label = labeling[v];
        if (!in.expect(label >= 0 && label < model.labels(static_cast<int>(v)),
                       "label " + std::to_string(label) + " of variable " + std::to_string(v)))
            return;
    }
}

void checkSizes(ByteReader& in, const MapSnapshot& s) {
    const int n = s.model->variables();
    checkLabeling(in, s.labeling, *s.model);
    checkLabeling(in, s.bestLabeling, *s.model);
    in.expectSize(s.disagreeing.size(), static_cast<std::size_t>(n), "the disagreement flags",
                  true);
    for (const std::vector<int>& cluster : s.clusters)
        for (int v : cluster)
            if (!in.expect(v >= 0 && v < n, "cluster node " + std::to_string(v))) return;
}

}  // namespace

void encodeMapSnapshot(const MapSnapshot& s, ByteWriter& out) {
    out.packedInts(s.labeling);
    out.packedInts(s.bestLabeling);
    out.bytes(s.disagreeing);
    out.count(s.clusters.size());
    for (const std::vector<int>& cluster : s.clusters)
        out.ints(cluster);
    for (double v : {s.dual, s.energy, s.badPixels})
        out.f64(v);
}

void decodeMapSnapshot(ByteReader& in, const MapSnapshot& base, MapSnapshot& s) {
    s.model = base.model;
    s.picture = base.picture;
    s.labeling = in.packedInts();
    s.bestLabeling = in.packedInts();
    s.disagreeing = in.bytes();
    s.clusters.resize(in.count(8));
    for (std::vector<int>& cluster : s.clusters)
        cluster = in.ints();
    for (double* v : {&s.dual, &s.energy, &s.badPixels})
        *v = in.f64();
    if (in.ok() && s.model) checkSizes(in, s);
}

}  // namespace cplab
