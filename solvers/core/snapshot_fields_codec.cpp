// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a snapshot's common fields (snapshot_fields_codec.h).
#include "snapshot_fields_codec.h"

namespace cplab {

namespace {

void encodeRecord(const IterationRecord& record, ByteWriter& out) {
    out.i32(record.iteration);
    out.f64(record.seconds);
    out.i64(record.oracleCalls);
    out.f64(record.upper);
    out.f64(record.lower);
    out.f64(record.gap);
    out.f64(record.passes);
    out.f64(record.pathParameter);
    out.doubles(record.extra);
    out.u32(record.events);
}

void decodeRecord(ByteReader& in, IterationRecord& record) {
    record.iteration = in.i32();
    in.expect(record.iteration >= 0, "a negative iteration");
    record.seconds = in.f64();
    record.oracleCalls = in.i64();
    record.upper = in.f64();
    record.lower = in.f64();
    record.gap = in.f64();
    record.passes = in.f64();
    record.pathParameter = in.f64();
    record.extra = in.doubles();
    record.events = in.u32();
}

}  // namespace

void encodeSnapshotFields(const Snapshot& snapshot, ByteWriter& out) {
    out.string(snapshot.solver);
    encodeRecord(snapshot.record, out);
    out.u8(static_cast<std::uint8_t>(snapshot.status.code));
    out.string(snapshot.status.message);
    out.ints(snapshot.executedLines);
    out.strings(snapshot.events);
}

void decodeSnapshotFields(ByteReader& in, Snapshot& snapshot) {
    snapshot.solver = in.string();
    decodeRecord(in, snapshot.record);
    const std::uint8_t code = in.u8();
    in.expect(code <= static_cast<std::uint8_t>(StatusCode::InvalidInput),
              "a status code of " + std::to_string(code));
    snapshot.status.code = static_cast<StatusCode>(code);
    snapshot.status.message = in.string();
    snapshot.executedLines = in.ints();
    for (int line : snapshot.executedLines) {
        if (!in.expect(line >= 0, "a negative pseudocode line")) break;
    }
    snapshot.events = in.strings();
}

}  // namespace cplab
