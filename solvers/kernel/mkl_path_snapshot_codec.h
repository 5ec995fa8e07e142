// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of an MklPathSnapshot's own fields (η, λ, the α of every accepted point and the
// pictures of their predictors). The path model (data and kernels) is not stored: the decoded
// snapshot shares the one of a snapshot of the same run (`base`). A run's snapshots share their
// points; encoded relative to the previous kept snapshot, each point is stored once per run.
#pragma once

#include "core/byte_stream.h"
#include "mkl_path_snapshot.h"

namespace cplab {

// `previous`: the snapshot kept before this one in the same run, or null. The points (α and
// picture) this snapshot shares with it, the same objects, are not stored again: the bytes
// say how many, and decoding takes them from the previous decoded snapshot.
void encodeMklPathSnapshot(const MklPathSnapshot& snapshot, const MklPathSnapshot* previous,
                           ByteWriter& out);
// Reads the fields into `snapshot` and checks the sizes of α and η against base's; on bad
// bytes, or bytes that share more points than `previous` has, `in` fails.
void decodeMklPathSnapshot(ByteReader& in, const MklPathSnapshot& base,
                           const MklPathSnapshot* previous, MklPathSnapshot& snapshot);

}  // namespace cplab
