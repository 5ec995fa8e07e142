// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshot bytes (snapshot_codec.h): the header and the dispatch to each type's codec.
#include "snapshot_codec.h"

#include <array>
#include <exception>
#include <memory>

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

// One snapshot type: its tag in the bytes, its name for messages, and its codec.
struct TypeCodec {
    std::uint8_t tag;
    const char* name;
    bool (*is)(const Snapshot&);
    void (*encode)(const Snapshot&, ByteWriter&);
    SnapshotPtr (*decode)(ByteReader&, const Snapshot& base);
};

template <class T, void (*Encode)(const T&, ByteWriter&), void (*Decode)(ByteReader&, const T&, T&)>
constexpr TypeCodec codecOf(std::uint8_t tag, const char* name) {
    return {tag, name, [](const Snapshot& s) { return dynamic_cast<const T*>(&s) != nullptr; },
            [](const Snapshot& s, ByteWriter& out) { Encode(static_cast<const T&>(s), out); },
            [](ByteReader& in, const Snapshot& base) -> SnapshotPtr {
                auto snapshot = std::make_shared<T>();
                decodeSnapshotFields(in, *snapshot);
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
SnapshotPtr decodeBody(ByteReader& in, const Snapshot& base, const TypeCodec& codec) {
    SnapshotPtr snapshot = codec.decode(in, base);
    if (in.ok())
        in.expect(snapshot->solver == base.solver,
                  "a snapshot of solver '" + snapshot->solver + "', not of '" + base.solver + "'");
    if (in.ok() && !in.atEnd()) in.fail(std::to_string(in.left()) + " bytes after the snapshot");
    return in.ok() ? snapshot : nullptr;
}

SnapshotPtr decode(std::string_view bytes, const Snapshot& base, std::string* why) {
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
    SnapshotPtr snapshot = in.ok() ? decodeBody(in, base, *expected) : nullptr;
    if (!snapshot) *why = in.error();
    return snapshot;
}

}  // namespace

std::optional<std::string> encodeSnapshot(const Snapshot& snapshot) {
    const TypeCodec* codec = codecOfSnapshot(snapshot);
    if (!codec) return std::nullopt;
    ByteWriter out;
    out.u32(kMagic);
    out.u8(kVersion);
    out.u8(codec->tag);
    encodeSnapshotFields(snapshot, out);
    codec->encode(snapshot, out);
    return out.take();
}

SnapshotPtr decodeSnapshot(std::string_view bytes, const Snapshot& base, std::string* why) {
    std::string reason;
    SnapshotPtr snapshot;
    try {
        snapshot = decode(bytes, base, &reason);
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
