// SPDX-License-Identifier: GPL-3.0-or-later
// A run's stored history in a session (session.h): its records and encoded snapshots as one
// binary blob, deflated (zlib) and base64-encoded into the session's JSON. Reading is bounded:
// the blob inflates to at most the size the session declares (itself at most
// kMaxHistoryBytes), and every count is checked against the bytes left before anything is
// allocated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "session.h"

namespace cplab {

// The history as a blob: "CPLH", a version, the status, the records, the snapshots.
std::string packHistory(const StoredHistory& history);
// The blob back; nullopt and *why ("truncated at byte 120") when it is not one.
std::optional<StoredHistory> unpackHistory(const std::string& blob, std::string* why);

// zlib deflate, and inflate to at most `limit` bytes (nullopt and *why beyond it or on
// corrupt data).
std::string deflateBytes(const std::string& bytes);
std::optional<std::string> inflateBytes(const std::string& bytes, std::int64_t limit,
                                        std::string* why);

}  // namespace cplab
