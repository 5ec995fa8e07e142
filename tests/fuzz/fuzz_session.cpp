// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the session reader (parseSession, app/session/session.h) in two modes.
//
// JSON (any input not starting with byte 0x01): the bytes are the session's JSON: the problem,
// the runs with their options, the view and the stored histories (base64, zlib, the history
// blob).
//
// History and paths (byte 0x01, then one byte, then a path up to a NUL, then a history blob):
// the blob, mutated as it is (the records, the snapshots' bytes, every count), is deflated and
// base64-coded into a session whose history declares the blob's size plus the signed second
// byte, and whose problem names the path as its test file. So the fuzzer mutates what a session
// stores after decoding, not only the text around it. Seeds: tests/fuzz/corpus/session/
// history_*, the stored histories of demo sessions saved by the app.
//
// Expected: a session (with notes) or a refusal with a message; no exception, no crash, no
// allocation beyond what the bytes justify. Findings: a crash or sanitizer report, an
// exception, a refusal without a message, or an accepted session that breaks its own limits
// (more runs than allowed, a selected run out of range, a view number out of its range, a record
// that is not its iteration, a snapshot not of one of the records' iterations in ascending
// order, a history beyond the memory budget, a path not resolved to an absolute clean path), an
// accepted history that is not the blob it was read from, a blob read one way (in memory) and
// refused the other (inflated as it is read) or the reverse, or a session that does not write
// and read back to the same problem options and histories.
#include <QByteArray>
#include <QDir>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_common.h"
#include "session.h"
#include "session_history.h"
#include "snapshot_codec.h"

using namespace cplab;
using namespace cplab::fuzz;

// A session of a typed function reads it with GiNaC, whose CLN leaks a few dozen bytes when
// it throws (fuzz_typed_function says more): the library's, not ours.
extern "C" const char* __lsan_default_suppressions() {
    return "leak:libcln.so\n";
}

namespace {

constexpr const char* kFolder = "/nonexistent/fuzz";

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameHistories(const StoredHistory& a, const StoredHistory& b) {
    if (a.records.size() != b.records.size() || a.snapshots != b.snapshots ||
        a.status.code != b.status.code || a.status.message != b.status.message)
        return false;
    for (std::size_t k = 0; k < a.records.size(); ++k) {
        const IterationRecord &x = a.records[k], &y = b.records[k];
        if (x.iteration != y.iteration || x.oracleCalls != y.oracleCalls || x.events != y.events ||
            x.extra.size() != y.extra.size())
            return false;
        for (auto [p, q] : {std::pair{x.seconds, y.seconds},
                            {x.upper, y.upper},
                            {x.lower, y.lower},
                            {x.gap, y.gap},
                            {x.passes, y.passes},
                            {x.pathParameter, y.pathParameter}})
            if (!sameBits(p, q)) return false;
        for (std::size_t i = 0; i < x.extra.size(); ++i)
            if (!sameBits(x.extra[i], y.extra[i])) return false;
    }
    return true;
}

// What every stored history a session accepted must be.
void requireValidHistory(const StoredHistory& history) {
    for (std::size_t k = 0; k < history.records.size(); ++k)
        require(history.records[k].iteration == static_cast<int>(k),
                "record " + std::to_string(k) + " accepted as iteration " +
                    std::to_string(history.records[k].iteration));
    int previous = -1;
    for (const std::string& bytes : history.snapshots) {
        std::string why;
        const auto at = snapshotIteration(bytes, &why);
        require(at.has_value(), "a stored snapshot accepted that is none: " + why);
        require(*at > previous && *at < static_cast<int>(history.records.size()),
                "a stored snapshot of iteration " + std::to_string(*at) + " accepted after " +
                    std::to_string(previous) + " with " + std::to_string(history.records.size()) +
                    " records");
        previous = *at;
    }
    require(historyMemory(history) <= kMaxHistoryBytes, "a history beyond the memory budget");
}

void requireLimits(const Session& session) {
    require(session.runs.size() <= 64, "more than 64 runs accepted");
    require(session.view.selectedRun >= 0 &&
                (session.runs.empty() || session.view.selectedRun < int(session.runs.size())),
            "selected run out of range");
    require(session.view.tab >= 0 && session.view.tab <= 100, "tab out of range");
    std::int64_t memory = 0;
    for (const SessionRun& run : session.runs) {
        if (!run.history) continue;
        requireValidHistory(*run.history);
        memory += historyMemory(*run.history);
    }
    require(memory <= kMaxHistoryBytes, "histories beyond the memory budget in total");
}

// What was accepted writes and reads back to the same runs and histories, and with `options`
// the same problem options (a UAI model's siblings are made explicit when written: not for a
// JSON session of any family).
void requireRoundTrip(const Session& session, bool options) {
    const std::string again = sessionJson(session, kFolder);
    SessionNotes notes;
    std::string why;
    const auto back = parseSession(again, kFolder, "again.cplab", &notes, &why);
    require(back && back->runs.size() == session.runs.size(),
            "a saved session does not read back: " + why);
    require(!options || back->problem.options == session.problem.options,
            "a saved session's problem options (its paths) do not read back");
    for (std::size_t k = 0; k < session.runs.size(); ++k) {
        const auto &a = session.runs[k].history, &b = back->runs[k].history;
        require(a.has_value() == b.has_value() && (!a || sameHistories(*a, *b)),
                "a stored history does not read back");
    }
}

std::string jsonString(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// Mode 0x01: [0x01][declared size change, signed][path][NUL][history blob].
void historyAndPath(std::string_view input) {
    const auto change = static_cast<std::int8_t>(input.size() > 1 ? input[1] : 0);
    input.remove_prefix(std::min<std::size_t>(input.size(), 2));
    const std::size_t nul = input.find('\0');
    const std::string_view path = input.substr(0, std::min(nul, input.size()));
    const std::string blob(nul == std::string_view::npos ? std::string_view()
                                                         : input.substr(nul + 1));
    const std::int64_t declared = static_cast<std::int64_t>(blob.size()) + change;
    const std::string deflated = deflateBytes(blob);
    const QByteArray base64 =
        QByteArray::fromRawData(deflated.data(), static_cast<qsizetype>(deflated.size()))
            .toBase64();
    const std::string json =
        std::string("{\"format\": \"cplab-session\", \"version\": 1, \"family\": \"linear\", ") +
        "\"problem\": {\"builtin\": \"ripley_train\", \"options\": {\"test\": " + jsonString(path) +
        "}}, \"runs\": [{\"solver\": \"ocas\", \"options\": {\"C\": \"10\"}, \"history\": " +
        "{\"encoding\": \"zlib+base64\", \"bytes\": " + std::to_string(declared) +
        ", \"data\": \"" + base64.toStdString() + "\"}}]}";
    SessionNotes notes;
    std::string why;
    const auto session = parseSession(json, kFolder, "fuzz.cplab", &notes, &why);
    if (!session) {
        require(!why.empty(), "a refused session without a message");
        return;
    }
    requireLimits(*session);
    // A path is resolved against the session's folder to an absolute, clean path.
    const auto test = session->problem.options.find("test");
    if (test != session->problem.options.end() && !test->second.empty() && test->second != "none") {
        const QString resolved = QString::fromStdString(test->second);
        require(resolved.startsWith('/') && QDir::cleanPath(resolved) == resolved,
                "a path resolved to '" + test->second + "'");
    }
    // The history read while it inflates is the one read from the whole blob, and it is that
    // blob exactly (one encoding per history).
    std::string whole;
    const auto inMemory = unpackHistory(blob, &whole);
    const bool fits = declared >= static_cast<std::int64_t>(blob.size());
    if (session->runs.size() == 1 && fits) {
        const auto& history = session->runs[0].history;
        require(history.has_value() == inMemory.has_value(),
                "a history read one way and refused the other: " + whole);
        require(!history || (sameHistories(*history, *inMemory) && packHistory(*history) == blob),
                "an accepted history that is not its blob");
    }
    requireRoundTrip(*session, true);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input = asText(data, size);
    if (!input.empty() && input[0] == '\x01') {
        historyAndPath(input);
        return 0;
    }
    const std::string bytes(input);
    SessionNotes notes;
    std::string why;
    const auto session = parseSession(bytes, kFolder, "fuzz.cplab", &notes, &why);
    if (!session) {
        require(!why.empty(), "a refused session without a message");
        return 0;
    }
    requireLimits(*session);
    requireRoundTrip(*session, false);
    return 0;
}
