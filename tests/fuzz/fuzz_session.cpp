// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the session reader (parseSession, app/session/session.h) from bytes: the JSON, the
// problem, the runs with their options, the view and the stored histories (base64, zlib, the
// history blob). Expected: a session (with notes) or a refusal with a message; no exception, no
// crash, no allocation beyond what the bytes justify. Findings: a crash or sanitizer report, an
// exception, a refusal without a message, or an accepted session that breaks its own limits
// (more runs than allowed, a selected run out of range, a view number out of its range).
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"
#include "session.h"

using namespace cplab;
using namespace cplab::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(asText(data, size));
    SessionNotes notes;
    std::string why;
    const auto session = parseSession(bytes, "/nonexistent/fuzz", "fuzz.cplab", &notes, &why);
    if (!session) {
        require(!why.empty(), "a refused session without a message");
        return 0;
    }
    require(session->runs.size() <= 64, "more than 64 runs accepted");
    require(session->view.selectedRun >= 0 &&
                (session->runs.empty() || session->view.selectedRun < int(session->runs.size())),
            "selected run out of range");
    require(session->view.tab >= 0 && session->view.tab <= 100, "tab out of range");
    require(session->view.presentationScale >= 0.75 && session->view.presentationScale <= 3,
            "presentation scale out of range");
    for (const SessionRun& run : session->runs) {
        if (!run.history) continue;
        for (const IterationRecord& r : run.history->records)
            require(r.iteration >= 0, "a negative iteration accepted");
    }
    // What was accepted writes and reads back to the same runs.
    const std::string again = sessionJson(*session, "/nonexistent/fuzz");
    SessionNotes notes2;
    const auto back = parseSession(again, "/nonexistent/fuzz", "again.cplab", &notes2, &why);
    require(back && back->runs.size() == session->runs.size(),
            "a saved session does not read back");
    return 0;
}
