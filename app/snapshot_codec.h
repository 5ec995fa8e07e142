// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshots to bytes and back, for sessions that store a run's kept snapshots so that it
// reopens exactly without re-running. The bytes are a magic number, the codec version, a type
// tag, the common fields (core/snapshot_fields_codec.h) and the type's own fields (the codec
// beside each snapshot type, e.g. kernel/kernel_snapshot_codec.h), every number bit-exact.
// What a run's snapshots share (the dataset, the sampled function, the pairwise model, ...)
// is not stored: decoding takes it from a snapshot of the same run's solver.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/snapshot.h"

namespace cplab {

// The bytes of `snapshot` (any family's snapshot type), every number bit-exact; nullopt for a
// type it does not know.
std::optional<std::string> encodeSnapshot(const Snapshot& snapshot);

// The snapshot back. `base` is a snapshot of the same run's solver (at iteration 0: the solver
// made again when a session opens): the decoded snapshot shares base's shared parts (datasets,
// function and polygon views, kernel setups, MKL path models, words, pictures, the pairwise
// model) and the derived parts are stored or rebuilt so that views draw it as the original.
// Null and *why ("snapshot bytes: truncated at byte 1234", "snapshot bytes: a map snapshot,
// not a kernel snapshot") for bytes that are not a snapshot of base's type and solver, or
// whose sizes disagree with base's shared parts. Never throws; allocates no more than the
// bytes left justify.
SnapshotPtr decodeSnapshot(std::string_view bytes, const Snapshot& base, std::string* why);

// For a session that stores every kept snapshot of a run: the bytes of `snapshot` relative to
// `previous`, the snapshot kept just before it in the same run (null: as above). What the two
// share, the same objects, is stored once, in the earlier one's bytes: an MKL path's points
// (α and predictor picture per point), which every later snapshot of the run holds again. For
// the other types the bytes are those of encodeSnapshot(snapshot). (mkl_path_2d to its end:
// 73 snapshots, 62 MB each stored whole, under 2 MB relative to the previous.)
std::optional<std::string> encodeSnapshot(const Snapshot& snapshot, const Snapshot* previous);
// Bytes of either encodeSnapshot back; `previous` is the snapshot decoded just before from the
// same run (it may be null only for bytes encoded without one: else null and *why says how
// many points the bytes take from it).
SnapshotPtr decodeSnapshot(std::string_view bytes, const Snapshot& base, const Snapshot* previous,
                           std::string* why);

}  // namespace cplab
