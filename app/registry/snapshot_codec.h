// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshots to bytes and back, for sessions that store a run's kept snapshots so that it
// reopens exactly without re-running. The bytes are a magic number, the codec version, a type
// tag, the common fields (core/snapshot_fields_codec.h) and the type's own fields (the codec
// beside each snapshot type, e.g. kernel/kernel_snapshot_codec.h), every number bit-exact.
// What a run's snapshots share (the dataset, the sampled function, the pairwise model, ...)
// is not stored: decoding takes it from a snapshot of the same run's solver.
//
// Each family declares the codecs of the snapshot types its solvers produce
// (Family::addSnapshotCodec(snapshotCodec<T, encode, decode>(tag, name))); the tag is part of
// the bytes: a type keeps its tag forever, and a new type takes a tag no family uses.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/byte_stream.h"
#include "core/snapshot.h"
#include "core/snapshot_fields_codec.h"

namespace cplab {

// One snapshot type: its tag in the bytes, its name for messages, and its codec. `previous`
// (the run's snapshot kept before, or null) matters to the codecs that take it.
struct SnapshotCodec {
    std::uint8_t tag;
    const char* name;
    bool (*is)(const Snapshot&);
    void (*encode)(const Snapshot&, const Snapshot* previous, ByteWriter&);
    SnapshotPtr (*decode)(ByteReader&, const Snapshot& base, const Snapshot* previous);
};

// The codec of snapshot type T from the functions beside it (e.g. kernel_snapshot_codec.h):
// Encode(const T&, ByteWriter&) or Encode(const T&, const T* previous, ByteWriter&), and
// Decode(ByteReader&, const T& base, T&) or Decode(ByteReader&, const T& base, const T*
// previous, T&), which read the type's own fields after the common ones.
template <class T, auto Encode, auto Decode>
constexpr SnapshotCodec snapshotCodec(std::uint8_t tag, const char* name) {
    return {
        tag, name, [](const Snapshot& s) { return dynamic_cast<const T*>(&s) != nullptr; },
        [](const Snapshot& s, const Snapshot* previous, ByteWriter& out) {
            if constexpr (std::is_invocable_v<decltype(Encode), const T&, const T*, ByteWriter&>)
                Encode(static_cast<const T&>(s), dynamic_cast<const T*>(previous), out);
            else
                Encode(static_cast<const T&>(s), out);
        },
        [](ByteReader& in, const Snapshot& base, const Snapshot* previous) -> SnapshotPtr {
            auto snapshot = std::make_shared<T>();
            decodeSnapshotFields(in, *snapshot);
            if constexpr (std::is_invocable_v<decltype(Decode), ByteReader&, const T&, const T*,
                                              T&>)
                Decode(in, static_cast<const T&>(base), dynamic_cast<const T*>(previous),
                       *snapshot);
            else
                Decode(in, static_cast<const T&>(base), *snapshot);
            return snapshot;
        }};
}

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

// The iteration of a snapshot's bytes (the CPSN header, then the common fields with the
// record), read without its run's solver; nullopt and *why when the bytes do not start as a
// snapshot's.
std::optional<int> snapshotIteration(std::string_view bytes, std::string* why);

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
