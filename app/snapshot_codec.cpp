// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshot bytes (snapshot_codec.h): the header and the dispatch to each type's codec.
#include "snapshot_codec.h"

#include <array>
#include <exception>
#include <memory>
#include <type_traits>

#include "bmrm/linear_svm_snapshot_codec.h"
#include "core/byte_stream.h"
#include "core/snapshot_fields_codec.h"
#include "kernel/kernel_snapshot_codec.h"
#include "kernel/mkl_path_snapshot_codec.h"
#include "map/map_snapshot_codec.h"
#include "nonsmooth/cutting_plane_snapshot_codec.h"
#include "nonsmooth/frank_wolfe_snapshot_codec.h"
#include "sparse/sparse_snapshot_codec.h"
#include "structured/structured_snapshot_codec.h"

namespace cplab {

namespace {

constexpr std::uint32_t kMagic = 0x4e535043;  // "CPSN" in the file's byte order
constexpr std::uint8_t kVersion = 1;

// One snapshot type: its tag in the bytes, its name for messages, and its codec. `previous`
// (the run's snapshot kept before, or null) matters to the codecs that take it.
struct TypeCodec {
    std::uint8_t tag;
    const char* name;
    bool (*is)(const Snapshot&);
    void (*encode)(const Snapshot&, const Snapshot* previous, ByteWriter&);
    SnapshotPtr (*decode)(ByteReader&, const Snapshot& base, const Snapshot* previous);
};

template <class T, auto Encode, auto Decode>
constexpr TypeCodec codecOf(std::uint8_t tag, const char* name) {
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

// Tags are part of the format: never renumber, only append.
constexpr std::array kCodecs = {
    codecOf<CuttingPlaneSnapshot, encodeCuttingPlaneSnapshot, decodeCuttingPlaneSnapshot>(
        1, "cutting-plane"),
    codecOf<FrankWolfeSnapshot, encodeFrankWolfeSnapshot, decodeFrankWolfeSnapshot>(2,
                                                                                    "Frank-Wolfe"),
    codecOf<LinearSvmSnapshot, encodeLinearSvmSnapshot, decodeLinearSvmSnapshot>(3, "linear SVM"),
    codecOf<KernelSnapshot, encodeKernelSnapshot, decodeKernelSnapshot>(4, "kernel"),
    codecOf<MklPathSnapshot, encodeMklPathSnapshot, decodeMklPathSnapshot>(5, "MKL path"),
    codecOf<StructuredSnapshot, encodeStructuredSnapshot, decodeStructuredSnapshot>(6,
                                                                                    "structured"),
    codecOf<SparseSnapshot, encodeSparseSnapshot, decodeSparseSnapshot>(7, "sparse"),
    codecOf<MapSnapshot, encodeMapSnapshot, decodeMapSnapshot>(8, "MAP"),
};

const TypeCodec* codecOfSnapshot(const Snapshot& snapshot) {
    for (const TypeCodec& codec : kCodecs)
        if (codec.is(snapshot)) return &codec;
    return nullptr;
}

const TypeCodec* codecOfTag(std::uint8_t tag) {
    for (const TypeCodec& codec : kCodecs)
        if (codec.tag == tag) return &codec;
    return nullptr;
}

// The snapshot in `in` after the header, or null with in failed.
SnapshotPtr decodeBody(ByteReader& in, const Snapshot& base, const Snapshot* previous,
                       const TypeCodec& codec) {
    SnapshotPtr snapshot = codec.decode(in, base, previous);
    if (in.ok())
        in.expect(snapshot->solver == base.solver,
                  "a snapshot of solver '" + snapshot->solver + "', not of '" + base.solver + "'");
    if (in.ok() && !in.atEnd()) in.fail(std::to_string(in.left()) + " bytes after the snapshot");
    return in.ok() ? snapshot : nullptr;
}

SnapshotPtr decode(std::string_view bytes, const Snapshot& base, const Snapshot* previous,
                   std::string* why) {
    const TypeCodec* expected = codecOfSnapshot(base);
    if (!expected) {
        *why = "the run's snapshots are of a type sessions cannot store";
        return nullptr;
    }
    ByteReader in(bytes);
    if (in.u32() != kMagic && in.ok()) {
        *why = "not a snapshot (no CPSN header)";
        return nullptr;
    }
    const std::uint8_t version = in.u8();
    if (in.ok() && version != kVersion) {
        *why = "snapshot codec version " + std::to_string(version) + ", expected " +
               std::to_string(kVersion) + " (written by another cplab)";
        return nullptr;
    }
    const std::uint8_t tag = in.u8();
    if (in.ok() && tag != expected->tag) {
        const TypeCodec* found = codecOfTag(tag);
        *why = std::string(found ? std::string("a ") + found->name + " snapshot"
                                 : "type tag " + std::to_string(tag)) +
               ", not a " + expected->name + " snapshot";
        return nullptr;
    }
    SnapshotPtr snapshot = in.ok() ? decodeBody(in, base, previous, *expected) : nullptr;
    if (!snapshot) *why = in.error();
    return snapshot;
}

}  // namespace

std::optional<std::string> encodeSnapshot(const Snapshot& snapshot) {
    return encodeSnapshot(snapshot, nullptr);
}

std::optional<std::string> encodeSnapshot(const Snapshot& snapshot, const Snapshot* previous) {
    const TypeCodec* codec = codecOfSnapshot(snapshot);
    if (!codec) return std::nullopt;
    ByteWriter out;
    out.u32(kMagic);
    out.u8(kVersion);
    out.u8(codec->tag);
    encodeSnapshotFields(snapshot, out);
    codec->encode(snapshot, previous, out);
    return out.take();
}

SnapshotPtr decodeSnapshot(std::string_view bytes, const Snapshot& base, std::string* why) {
    return decodeSnapshot(bytes, base, nullptr, why);
}

SnapshotPtr decodeSnapshot(std::string_view bytes, const Snapshot& base, const Snapshot* previous,
                           std::string* why) {
    std::string reason;
    SnapshotPtr snapshot;
    try {
        snapshot = decode(bytes, base, previous, &reason);
    } catch (const std::exception& e) {
        reason = e.what();
        snapshot = nullptr;
    } catch (...) {
        reason = "an unknown error";
        snapshot = nullptr;
    }
    if (!snapshot && why) *why = "snapshot bytes: " + reason;
    return snapshot;
}

}  // namespace cplab
