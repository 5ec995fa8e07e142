// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshot bytes (snapshot_codec.h): the header and the dispatch to each type's codec.
#include "snapshot_codec.h"

#include <exception>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/byte_stream.h"
#include "families/families.h"

namespace cplab {

namespace {

constexpr std::uint32_t kMagic = 0x4e535043;  // "CPSN" in the file's byte order
constexpr std::uint8_t kVersion = 1;

// Every family's codecs; a tag or a name two types claim is a logic error of the tables.
const std::vector<SnapshotCodec>& codecs() {
    static const std::vector<SnapshotCodec> all = [] {
        std::vector<SnapshotCodec> out;
        for (const Family* family : families()) {
            for (const SnapshotCodec& codec : family->snapshotCodecs()) {
                for (const SnapshotCodec& known : out)
                    if (known.tag == codec.tag || std::string_view(known.name) == codec.name)
                        throw std::logic_error("snapshot codec tag " + std::to_string(codec.tag) +
                                               " (" + codec.name + ") declared twice");
                out.push_back(codec);
            }
        }
        return out;
    }();
    return all;
}

const SnapshotCodec* codecOfSnapshot(const Snapshot& snapshot) {
    for (const SnapshotCodec& codec : codecs())
        if (codec.is(snapshot)) return &codec;
    return nullptr;
}

const SnapshotCodec* codecOfTag(std::uint8_t tag) {
    for (const SnapshotCodec& codec : codecs())
        if (codec.tag == tag) return &codec;
    return nullptr;
}

// The snapshot in `in` after the header, or null with in failed.
SnapshotPtr decodeBody(ByteReader& in, const Snapshot& base, const Snapshot* previous,
                       const SnapshotCodec& codec) {
    SnapshotPtr snapshot = codec.decode(in, base, previous);
    if (in.ok())
        in.expect(snapshot->solver == base.solver,
                  "a snapshot of solver '" + snapshot->solver + "', not of '" + base.solver + "'");
    if (in.ok() && !in.atEnd()) in.fail(std::to_string(in.left()) + " bytes after the snapshot");
    return in.ok() ? snapshot : nullptr;
}

SnapshotPtr decode(std::string_view bytes, const Snapshot& base, const Snapshot* previous,
                   std::string* why) {
    const SnapshotCodec* expected = codecOfSnapshot(base);
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
        const SnapshotCodec* found = codecOfTag(tag);
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
    const SnapshotCodec* codec = codecOfSnapshot(snapshot);
    if (!codec) return std::nullopt;
    ByteWriter out;
    out.u32(kMagic);
    out.u8(kVersion);
    out.u8(codec->tag);
    encodeSnapshotFields(snapshot, out);
    codec->encode(snapshot, previous, out);
    return out.take();
}

std::optional<int> snapshotIteration(std::string_view bytes, std::string* why) {
    ByteReader in(bytes);
    if (in.u32() != kMagic || !in.ok()) {
        if (why) *why = "not a snapshot (no CPSN header)";
        return std::nullopt;
    }
    in.u8();  // the codec's version and the type's tag: the fields come first in every one
    in.u8();
    Snapshot fields;
    try {
        decodeSnapshotFields(in, fields);
    } catch (const std::exception& e) {
        in.fail(e.what());
    }
    if (!in.ok()) {
        if (why) *why = "snapshot bytes: " + in.error();
        return std::nullopt;
    }
    return fields.record.iteration;
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
