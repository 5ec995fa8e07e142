// SPDX-License-Identifier: GPL-3.0-or-later
// A run's stored history in a session (session.h): its records and encoded snapshots as one
// binary blob, deflated (zlib) and base64-encoded into the session's JSON. Reading is bounded:
// the blob inflates to at most the size the session declares (itself at most
// kMaxHistoryBytes), it is unpacked while it inflates (the inflated blob is never held whole),
// every count is checked against the bytes left before anything is allocated, and what the
// unpacked records and snapshots take in memory comes out of one budget for all the runs of a
// session together.
//
// Every stored number the views use as an index is checked here: record k is iteration k, and
// each snapshot's iteration (in its common fields) is one of the records', in ascending order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "session.h"

namespace cplab {

// The history as a blob: "CPLH", a version, the status, the records, the snapshots.
std::string packHistory(const StoredHistory& history);
// The blob back; nullopt and *why ("truncated at byte 120") when it is not one, or when its
// records and snapshots would take more than kMaxHistoryBytes of memory.
std::optional<StoredHistory> unpackHistory(const std::string& blob, std::string* why);
// The same from the blob deflated, inflated while it is unpacked: at most `declared` bytes are
// inflated, and the memory the unpacked history takes (historyMemory) comes out of
// *memoryBudget (what is left of kMaxHistoryBytes for the session's runs together), and must
// fit in half the memory the process may take less what the runs before took (core/
// memory_budget.h: a replay holds about as much again); nullopt and *why (and *memoryBudget
// unchanged) beyond any.
std::optional<StoredHistory> inflateHistory(const std::string& deflated, std::int64_t declared,
                                            std::int64_t* memoryBudget, std::string* why);
// What an unpacked history takes in memory: its records with their extra columns and its
// snapshots' bytes.
std::int64_t historyMemory(const StoredHistory& history);

// zlib deflate, and inflate to at most `limit` bytes (nullopt and *why beyond it or on
// corrupt data).
std::string deflateBytes(const std::string& bytes);
std::optional<std::string> inflateBytes(const std::string& bytes, std::int64_t limit,
                                        std::string* why);

}  // namespace cplab
