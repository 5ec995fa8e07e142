// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of the fields every snapshot has (core/snapshot.h: solver, record with its extra
// columns and event mask, status, executed lines, event texts), for the per-family snapshot
// codecs (<family>/…_snapshot_codec.h) and app/registry/snapshot_codec.h.
#pragma once

#include "byte_stream.h"
#include "snapshot.h"

namespace cplab {

void encodeSnapshotFields(const Snapshot& snapshot, ByteWriter& out);
// Reads them into `snapshot`; on bad bytes `in` fails (the first failure says where).
void decodeSnapshotFields(ByteReader& in, Snapshot& snapshot);

}  // namespace cplab
