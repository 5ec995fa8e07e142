// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_history.h"

#include <zlib.h>

#include <bit>
#include <cstring>
#include <limits>

namespace cplab {

namespace {

constexpr char kMagic[] = "CPLH";
constexpr std::uint32_t kHistoryVersion = 1;

class Packer {
  public:
    void u32(std::uint32_t v) { raw(&v, 4); }
    void u64(std::uint64_t v) { raw(&v, 8); }
    void real(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
    void text(const std::string& s) {
        u64(s.size());
        out_.append(s);
    }
    std::string take() { return std::move(out_); }
    // Little-endian on every machine cplab builds for (x86-64, arm64).
    void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }

  private:
    std::string out_;
};

class Unpacker {
  public:
    explicit Unpacker(const std::string& in) : in_(in) {}
    bool u32(std::uint32_t& v) { return raw(&v, 4); }
    bool u64(std::uint64_t& v) { return raw(&v, 8); }
    bool real(double& v) {
        std::uint64_t bits = 0;
        if (!u64(bits)) return false;
        v = std::bit_cast<double>(bits);
        return true;
    }
    bool text(std::string& s) {
        std::uint64_t n = 0;
        if (!u64(n) || n > left()) return fail();
        s.assign(in_, at_, n);
        at_ += n;
        return true;
    }
    // A count of items of at least `itemBytes` each: refused when the bytes left cannot hold it.
    bool count(std::uint64_t& n, std::size_t itemBytes) {
        return u64(n) && (n <= left() / itemBytes || fail());
    }
    std::size_t at() const { return at_; }
    bool done() const { return at_ == in_.size(); }

  private:
    std::size_t left() const { return in_.size() - at_; }
    bool fail() { return false; }
    bool raw(void* p, std::size_t n) {
        if (n > left()) return false;
        std::memcpy(p, in_.data() + at_, n);
        at_ += n;
        return true;
    }
    const std::string& in_;
    std::size_t at_ = 0;
};

void packRecord(Packer& p, const IterationRecord& r) {
    p.u64(static_cast<std::uint64_t>(r.iteration));
    p.real(r.seconds);
    p.u64(static_cast<std::uint64_t>(r.oracleCalls));
    for (double v : {r.upper, r.lower, r.gap, r.passes, r.pathParameter})
        p.real(v);
    p.u32(r.events);
    p.u64(r.extra.size());
    for (double v : r.extra)
        p.real(v);
}

bool unpackRecord(Unpacker& u, IterationRecord& r) {
    std::uint64_t iteration = 0, calls = 0, extras = 0;
    if (!u.u64(iteration) || !u.real(r.seconds) || !u.u64(calls)) return false;
    if (iteration > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return false;
    r.iteration = static_cast<int>(iteration);
    r.oracleCalls = static_cast<long long>(calls);
    for (double* v : {&r.upper, &r.lower, &r.gap, &r.passes, &r.pathParameter}) {
        if (!u.real(*v)) return false;
    }
    if (!u.u32(r.events) || !u.count(extras, sizeof(double))) return false;
    r.extra.resize(extras);
    for (double& v : r.extra) {
        if (!u.real(v)) return false;
    }
    return true;
}

}  // namespace

std::string packHistory(const StoredHistory& history) {
    Packer p;
    p.raw(kMagic, 4);
    p.u32(kHistoryVersion);
    p.u32(static_cast<std::uint32_t>(history.status.code));
    p.text(history.status.message);
    p.u64(history.records.size());
    for (const IterationRecord& r : history.records)
        packRecord(p, r);
    p.u64(history.snapshots.size());
    for (const std::string& s : history.snapshots)
        p.text(s);
    return p.take();
}

std::optional<StoredHistory> unpackHistory(const std::string& blob, std::string* why) {
    Unpacker u(blob);
    const auto refuse = [&](const std::string& what) -> std::optional<StoredHistory> {
        if (why) *why = "stored history: " + what + " at byte " + std::to_string(u.at());
        return std::nullopt;
    };
    std::uint32_t magic = 0, version = 0, code = 0;
    if (!u.u32(magic) || std::memcmp(&magic, kMagic, 4) != 0) return refuse("not a history");
    if (!u.u32(version) || version != kHistoryVersion)
        return refuse("history version " + std::to_string(version) + " unknown");
    StoredHistory history;
    if (!u.u32(code) || code > static_cast<std::uint32_t>(StatusCode::InvalidInput))
        return refuse("no status");
    history.status.code = static_cast<StatusCode>(code);
    std::uint64_t records = 0, snapshots = 0;
    // A record takes at least 76 bytes, a snapshot at least its 8-byte length.
    if (!u.text(history.status.message) || !u.count(records, 76)) return refuse("truncated");
    history.records.resize(records);
    for (std::size_t k = 0; k < history.records.size(); ++k) {
        IterationRecord& r = history.records[k];
        if (!unpackRecord(u, r)) return refuse("truncated record");
        // The views index the trace by iteration: record k is iteration k.
        if (r.iteration != static_cast<int>(k))
            return refuse("record " + std::to_string(k) + " is iteration " +
                          std::to_string(r.iteration) + ", expected " + std::to_string(k));
    }
    if (!u.count(snapshots, 8)) return refuse("truncated");
    history.snapshots.resize(snapshots);
    for (std::string& s : history.snapshots) {
        if (!u.text(s)) return refuse("truncated snapshot");
    }
    if (!u.done()) return refuse("trailing bytes");
    return history;
}

std::string deflateBytes(const std::string& bytes) {
    uLongf size = compressBound(static_cast<uLong>(bytes.size()));
    std::string out(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                  reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uLong>(bytes.size()),
                  Z_BEST_COMPRESSION) != Z_OK)
        return {};
    out.resize(size);
    return out;
}

std::optional<std::string> inflateBytes(const std::string& bytes, std::int64_t limit,
                                        std::string* why) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) {
        if (why) *why = "cannot inflate";
        return std::nullopt;
    }
    std::string out;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    int status = Z_OK;
    char chunk[1 << 16];
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(chunk);
        z.avail_out = sizeof chunk;
        status = inflate(&z, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END) break;
        out.append(chunk, sizeof chunk - z.avail_out);
        if (static_cast<std::int64_t>(out.size()) > limit) {
            inflateEnd(&z);
            if (why)
                *why = "stored history larger than the " + std::to_string(limit) +
                       " bytes the session declares";
            return std::nullopt;
        }
        if (status == Z_OK && z.avail_in == 0 && z.avail_out != 0) status = Z_DATA_ERROR;
    }
    inflateEnd(&z);
    if (status != Z_STREAM_END) {
        if (why) *why = "stored history is not valid compressed data";
        return std::nullopt;
    }
    return out;
}

}  // namespace cplab
