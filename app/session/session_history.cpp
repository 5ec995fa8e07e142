// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_history.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "core/memory_budget.h"
#include "snapshot_codec.h"

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

// The blob in memory.
class BlobSource {
  public:
    explicit BlobSource(const std::string& in) : in_(in) {}
    bool read(void* p, std::size_t n) {
        if (n > left()) return false;
        std::memcpy(p, in_.data() + at_, n);
        at_ += n;
        return true;
    }
    // The bytes there may still be.
    std::uint64_t left() const { return in_.size() - at_; }
    std::uint64_t at() const { return at_; }
    bool done() const { return at_ == in_.size(); }
    std::string error() const { return {}; }

  private:
    const std::string& in_;
    std::size_t at_ = 0;
};

// The blob inflated 64 KB at a time as it is read: never more than `declared` bytes.
class InflatingSource {
  public:
    InflatingSource(const std::string& deflated, std::uint64_t declared) : declared_(declared) {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
        z_.avail_in = static_cast<uInt>(deflated.size());
        ready_ = deflated.size() <= std::numeric_limits<uInt>::max() && inflateInit(&z_) == Z_OK;
        if (!ready_) error_ = "stored history is not valid compressed data";
    }
    ~InflatingSource() {
        if (ready_) inflateEnd(&z_);
    }
    InflatingSource(const InflatingSource&) = delete;
    InflatingSource& operator=(const InflatingSource&) = delete;

    bool read(void* p, std::size_t n) {
        char* out = static_cast<char*>(p);
        while (n > 0) {
            if (pos_ == have_ && !fill()) return false;
            const std::size_t take = std::min(n, have_ - pos_);
            std::memcpy(out, buffer_.data() + pos_, take);
            pos_ += take;
            at_ += take;
            out += take;
            n -= take;
        }
        return true;
    }
    std::uint64_t left() const { return declared_ - at_; }
    std::uint64_t at() const { return at_; }
    // Everything inflated was read, and the compressed data end there.
    bool done() { return pos_ == have_ && !fill() && ended_ && error_.empty(); }
    // Why reading stopped short, when the compressed data were at fault.
    const std::string& error() const { return error_; }

  private:
    bool fill() {
        pos_ = have_ = 0;
        while (have_ == 0 && !ended_ && error_.empty()) {
            z_.next_out = reinterpret_cast<Bytef*>(buffer_.data());
            z_.avail_out = static_cast<uInt>(buffer_.size());
            const uInt before = z_.avail_in;
            const int status = inflate(&z_, Z_NO_FLUSH);
            have_ = buffer_.size() - z_.avail_out;
            ended_ = status == Z_STREAM_END;
            const bool stuck = have_ == 0 && z_.avail_in == before;
            if ((status != Z_OK && !ended_) || (stuck && !ended_))
                error_ = "stored history is not valid compressed data";
            if (inflated_ + have_ > declared_) {
                error_ = "stored history larger than the " + std::to_string(declared_) +
                         " bytes the session declares";
                have_ = 0;
            }
            inflated_ += have_;
        }
        return have_ > 0;
    }

    z_stream z_{};
    bool ready_ = false;
    bool ended_ = false;
    std::string error_;
    std::array<char, 1 << 16> buffer_{};
    std::size_t pos_ = 0, have_ = 0;
    std::uint64_t declared_, at_ = 0, inflated_ = 0;
};

// Reads the blob's fields from a source, charging what it allocates to a memory budget.
template <class Source>
class Unpacker {
  public:
    Unpacker(Source& in, std::int64_t budget) : in_(in), budget_(budget) {}
    bool u32(std::uint32_t& v) { return in_.read(&v, 4); }
    bool u64(std::uint64_t& v) { return in_.read(&v, 8); }
    bool real(double& v) {
        std::uint64_t bits = 0;
        if (!u64(bits)) return false;
        v = std::bit_cast<double>(bits);
        return true;
    }
    // A text, appended as its bytes arrive (a length the data do not hold allocates nothing).
    bool text(std::string& s) {
        std::uint64_t n = 0;
        if (!u64(n) || n > in_.left() || !charge(n)) return false;
        char chunk[1 << 12];
        for (std::uint64_t done = 0; done < n;) {
            const std::size_t take =
                static_cast<std::size_t>(std::min<std::uint64_t>(n - done, sizeof chunk));
            if (!in_.read(chunk, take)) return false;
            s.append(chunk, take);
            done += take;
        }
        return true;
    }
    // A count of items of at least `itemBytes` each: refused when the bytes left cannot hold it.
    bool count(std::uint64_t& n, std::size_t itemBytes) {
        return u64(n) && n <= in_.left() / itemBytes;
    }
    // Takes `bytes` of memory from the budget; false (noted) when it has not that much left.
    bool charge(std::uint64_t bytes) {
        if (bytes > static_cast<std::uint64_t>(budget_)) {
            overBudget_ = true;
            return false;
        }
        budget_ -= static_cast<std::int64_t>(bytes);
        return true;
    }
    bool overBudget() const { return overBudget_; }
    std::int64_t budget() const { return budget_; }
    std::uint64_t at() const { return in_.at(); }
    bool done() { return in_.done(); }
    std::string sourceError() const { return in_.error(); }

  private:
    Source& in_;
    std::int64_t budget_;
    bool overBudget_ = false;
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

template <class Source>
bool unpackRecord(Unpacker<Source>& u, IterationRecord& r) {
    std::uint64_t iteration = 0, calls = 0, extras = 0;
    if (!u.u64(iteration) || !u.real(r.seconds) || !u.u64(calls)) return false;
    if (iteration > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return false;
    r.iteration = static_cast<int>(iteration);
    r.oracleCalls = static_cast<long long>(calls);
    for (double* v : {&r.upper, &r.lower, &r.gap, &r.passes, &r.pathParameter}) {
        if (!u.real(*v)) return false;
    }
    if (!u.u32(r.events) || !u.count(extras, sizeof(double)) || !u.charge(extras * sizeof(double)))
        return false;
    r.extra.resize(extras);
    for (double& v : r.extra) {
        if (!u.real(v)) return false;
    }
    return true;
}

// A record takes at least 76 bytes packed, a snapshot at least its 8-byte length.
constexpr std::size_t kPackedRecord = 76;

template <class Source>
std::optional<StoredHistory> unpack(Unpacker<Source>& u, std::string* why) {
    const auto refuse = [&](const std::string& what) -> std::optional<StoredHistory> {
        if (why) {
            if (u.overBudget())
                *why = "the session's stored histories take more than " +
                       std::to_string(kMaxHistoryBytes) + " bytes of memory in total";
            else if (!u.sourceError().empty())
                *why = u.sourceError();
            else
                *why = "stored history: " + what + " at byte " + std::to_string(u.at());
        }
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
    if (!u.text(history.status.message) || !u.count(records, kPackedRecord) ||
        !u.charge(records * sizeof(IterationRecord)))
        return refuse("truncated");
    history.records.resize(records);
    for (std::size_t k = 0; k < history.records.size(); ++k) {
        IterationRecord& r = history.records[k];
        if (!unpackRecord(u, r)) return refuse("truncated record");
        // The views index the trace by iteration: record k is iteration k.
        if (r.iteration != static_cast<int>(k))
            return refuse("record " + std::to_string(k) + " is iteration " +
                          std::to_string(r.iteration) + ", expected " + std::to_string(k));
    }
    if (!u.count(snapshots, 8) || !u.charge(snapshots * sizeof(std::string)))
        return refuse("truncated");
    history.snapshots.resize(snapshots);
    int previous = -1;
    for (std::size_t k = 0; k < history.snapshots.size(); ++k) {
        if (!u.text(history.snapshots[k])) return refuse("truncated snapshot");
        // The views show the snapshot of an iteration with the records up to it: a snapshot
        // is of one of the records' iterations, each later than the one before.
        std::string bad;
        const auto at = snapshotIteration(history.snapshots[k], &bad);
        const std::string which = "snapshot " + std::to_string(k);
        if (!at) return refuse(which + ": " + bad);
        const int last = static_cast<int>(history.records.size()) - 1;
        if (*at > last)
            return refuse(which + " is iteration " + std::to_string(*at) +
                          (last < 0 ? ", but the history has no records"
                                    : ", beyond the history's records (iterations 0 to " +
                                          std::to_string(last) + ")"));
        if (*at <= previous)
            return refuse(which + " is iteration " + std::to_string(*at) +
                          ", not after the snapshot before it (iteration " +
                          std::to_string(previous) + ")");
        previous = *at;
    }
    if (!u.done()) return refuse("trailing bytes");
    return history;
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
    BlobSource source(blob);
    Unpacker<BlobSource> u(source, kMaxHistoryBytes);
    return unpack(u, why);
}

std::optional<StoredHistory> inflateHistory(const std::string& deflated, std::int64_t declared,
                                            std::int64_t* memoryBudget, std::string* why) {
    InflatingSource source(deflated,
                           static_cast<std::uint64_t>(std::max<std::int64_t>(declared, 0)));
    // Within what is left of the session's total (kMaxHistoryBytes less what the runs before
    // took), and of half the memory the process may take (memory_budget.h) less the same: a
    // replay holds about as much again beside the stored history until it has replaced it.
    // (Memory the runs before took may be counted twice, once in MemAvailable: stricter.)
    const std::int64_t left = std::max<std::int64_t>(*memoryBudget, 0);
    const std::int64_t half = static_cast<std::int64_t>(cplab::memoryBudget() / 2);
    const std::int64_t room = std::max<std::int64_t>(1, half - (kMaxHistoryBytes - left));
    const bool roomBinds = half > 0 && room < left;
    const std::int64_t cap = roomBinds ? room : left;
    Unpacker<InflatingSource> u(source, cap);
    auto history = unpack(u, why);
    if (history) *memoryBudget = left - (cap - u.budget());
    if (!history && roomBinds && u.overBudget() && why) {
        *why = "the session's stored histories take more than half the memory available (" +
               byteText(double(half)) + " of about " + byteText(double(cplab::memoryBudget())) +
               "; a replay needs as much again): open it on a machine with more memory, or "
               "save it without histories";
    }
    return history;
}

std::int64_t historyMemory(const StoredHistory& history) {
    std::int64_t bytes = static_cast<std::int64_t>(
        history.status.message.size() + history.records.size() * sizeof(IterationRecord) +
        history.snapshots.size() * sizeof(std::string));
    for (const IterationRecord& r : history.records)
        bytes += static_cast<std::int64_t>(r.extra.size() * sizeof(double));
    for (const std::string& s : history.snapshots)
        bytes += static_cast<std::int64_t>(s.size());
    return bytes;
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
