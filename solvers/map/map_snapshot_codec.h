// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a MapSnapshot's own fields (labelings, disagreement, clusters, bounds). The
// pairwise model and the picture are not stored: the decoded snapshot shares those of a
// snapshot of the same run (`base`).
#pragma once

#include "core/byte_stream.h"
#include "map_snapshot.h"

namespace cplab {

void encodeMapSnapshot(const MapSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks the labelings and clusters against base's
// model; on bad bytes `in` fails.
void decodeMapSnapshot(ByteReader& in, const MapSnapshot& base, MapSnapshot& snapshot);

}  // namespace cplab
