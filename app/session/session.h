// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions: what is on screen as a file that reopens it (docs/sessions.md has the format).
//
// A session is a JSON document ("format": "cplab-session", "version": 1) holding the problem
// (a built-in's name, or data files with their format, reader options, problem options and a
// SHA-256 of each file; points drawn in the GUI as LIBSVM text), every run with its solver and
// options (the seed made explicit), the view (tab, x axis, zoom, timeline, presentation scale,
// delay) and — optionally — each run's records and kept snapshots, compressed, so that it
// reopens exactly without running anything.
//
// A session is data, never instructions: reading one runs nothing and writes nothing; its
// paths are resolved relative to the session's folder; a file in a system folder, a number out
// of range, an unknown option or an oversized blob is refused with a message naming the session
// and what was expected. What cannot be opened (a missing or changed file, a solver or option
// that no longer exists, a newer format) is reported in SessionNotes while the rest opens.
//
// Qt Core only (JSON, hashing): the CLI (`cplab-cli session`) and the GUI share it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "core/options.h"
#include "core/snapshot.h"
#include "core/status.h"
#include "family.h"

namespace cplab {

inline constexpr int kSessionVersion = 1;
// The largest session file read, and the largest size the stored histories of all its runs
// together may unpack to.
inline constexpr std::int64_t kMaxSessionBytes = std::int64_t{512} << 20;
inline constexpr std::int64_t kMaxHistoryBytes = std::int64_t{1} << 30;

// A run's stored history: its records and its kept snapshots, encoded
// (app/registry/snapshot_codec.h).
struct StoredHistory {
    std::vector<IterationRecord> records;  // iteration 0 (the initial record) first
    std::vector<std::string> snapshots;    // encoded, ascending iterations
    Status status;
};

struct SessionRun {
    std::string solver;
    OptionValues options;  // as given, with the seed made explicit where the solver has one
    std::optional<StoredHistory> history;
};

// What the views showed.
struct SessionView {
    int selectedRun = 0;  // index into the runs
    int tab = 0;          // page of the family view
    std::string xAxis = "iteration";
    int timeline = -1;  // the iteration shown, −1: live
    // The family view's main plot and the bounds plot as zoomed: x and y ranges (empty: as
    // drawn by default).
    std::vector<double> viewRange, boundsRange;
    int delayMs = 0;
};

// One file the problem reads, as saved: the path as written in the session (relative to its
// folder when it was saved there or below), where that resolves to, and its content hash.
struct SessionFile {
    std::string role;  // "data", "test", or the problem option naming it ("evidence", ...)
    std::string path;
    std::string resolved;
    std::string sha256;
};

// A story told in the caption bar (app/gui/story.h): a demo's, copied from it when it loads
// (storyOfDemo), or a session's as a lecturer wrote it. Beat k is reached at iteration
// `iteration` of the shown position and, with `event`, once a run of the race has reported
// that event by then (DemoBeat's rules: a name of core/events.h, or "finished"); the caption
// shows the last beat reached, in the order of the list. A beat's `watch`, when not empty,
// replaces the story's "what to watch" while it is the beat shown.
struct StoryBeat {
    int iteration = 0;
    std::string event;
    std::string caption;
    std::string watch;
    bool operator==(const StoryBeat&) const = default;
};
struct Story {
    std::string title;
    std::string watch;  // what to watch, under the beat
    std::vector<StoryBeat> beats;
    bool operator==(const Story&) const = default;
};
// A session's story and student view are bounded: more beats, longer texts, a later iteration
// or more hidden controls refuse the session (a 10 MB caption is no lecture).
inline constexpr int kMaxStoryBeats = 200;
inline constexpr int kMaxStoryTextChars = 2000;  // a title, caption or what to watch
inline constexpr int kMaxStoryIteration = 1000000000;
inline constexpr int kMaxHiddenControls = 200;
inline constexpr int kMaxControlNameChars = 200;
// The kinds of control a student view hides, as the prefix of its names ("panel:logDock",
// "tab:nonsmooth/Model", "button:stepButton", "group:Solver"; app/gui/student_view.h).
inline constexpr const char* kControlKinds[] = {"panel", "tab", "button", "group"};

// The story a demo tells (its beats as captions, its description as what to watch).
Story storyOfDemo(const DemoInfo& demo);
// Why `story` breaks the bounds above or names an unknown event ("beat 3: ..."), or empty.
std::string storyProblem(const Story& story);

struct Session {
    std::string family;
    ProblemOrigin problem;           // data paths resolved (absolute) once read
    std::vector<SessionFile> files;  // data and test files with their hashes
    std::string demo;                // the demo it was, or empty
    std::vector<SessionRun> runs;
    SessionView view;
    std::string cplabVersion;  // of the cplab that wrote it
    // The story told, when it is not the demo's own (none: the demo's built-in story).
    std::optional<Story> story;
    // The student view: the controls hidden (names "<kind>:<name>", kControlKinds); empty:
    // everything shows.
    std::vector<std::string> hiddenControls;
    // False when a run, a solver option or a problem option was left out (SessionNotes say
    // which): re-running it would not give the numbers saved.
    bool complete = true;
};

// What a session could not give, one line each, for a dialog or stderr.
using SessionNotes = std::vector<std::string>;

// Reads the session at `path`. Null and *why when the file cannot be read or is not a session
// of a version this cplab reads at all; otherwise the session with what it could not give in
// *notes (a run whose solver or option is unknown is left out and noted; a changed or missing
// data file is noted and the problem left empty).
std::optional<Session> readSession(const std::string& path, SessionNotes* notes, std::string* why);
// The same from the document's bytes; `folder` resolves relative paths.
std::optional<Session> parseSession(const std::string& bytes, const std::string& folder,
                                    const std::string& name, SessionNotes* notes, std::string* why);

// The session as JSON (paths relative to the folder of `path` where below it), written
// atomically; false and *why on failure (an output that is an input is refused).
bool writeSession(const std::string& path, const Session& session, std::string* why);
std::string sessionJson(const Session& session, const std::string& folder);

// The files of `origin` (the data, the test file and the files its problem options name, a UAI
// model's sibling <model>.evid and <model>.MAP included when those options are empty: sessions
// name them) with their SHA-256, for saving; false and *why when one cannot be read. A file in
// `known` (absolute path → SHA-256, hashed when it was loaded: the data the runs used) is not read
// again.
bool hashProblemFiles(const ProblemOrigin& origin, std::vector<SessionFile>* files,
                      std::string* why, const std::map<std::string, std::string>& known = {});
std::string sha256OfFile(const std::string& path, std::string* why);
// True when `canonicalPath` (symbolic links resolved) lies in one of the system's own folders
// (/etc, /proc, /sys, /dev, /boot, /run), which a session or a lecture may not name.
bool isInSystemFolder(const std::string& canonicalPath);

// The problem of a session, made again: the built-in, or the data files (checked against
// their hashes), with the drawn points when there are any. Null and *why otherwise.
ProblemPtr makeSessionProblem(const Session& session, std::string* why);

// A run's options with its solver's seed made explicit (a later default cannot change it).
OptionValues withExplicitSeed(const std::string& solver, const OptionValues& options);

// A re-run's records against the records stored in a session: how many iterations both have
// (past iteration 0), the largest relative difference of their bounds and gaps (iteration 0
// included when both have it), and the first iteration where they differ beyond kTolerance.
// Linear in the records (both are in ascending iterations); allocates nothing.
struct StoredComparison {
    // The relative difference, |a − b| / max(1, |a|, |b|), beyond which two numbers differ.
    static constexpr double kTolerance = 1e-9;
    int iterations = 0;
    double largestDifference = 0.0;
    int firstDiffering = -1;  // −1: none
    double firstDifference = 0.0;
    bool same() const { return firstDiffering < 0; }
    // One more iteration that both have.
    void add(const IterationRecord& stored, const IterationRecord& rerun);
    // "differs from the stored history at iteration k by r" (empty when the same).
    std::string differsText() const;
};
StoredComparison compareWithStored(const std::vector<IterationRecord>& stored,
                                   const std::vector<IterationRecord>& rerun);

// The command lines that reproduce the problem and runs: `cplab …` and one `cplab-cli run …`
// per run, quoted for a POSIX shell.
std::string guiCommandLine(const Session& session);
std::vector<std::string> cliCommandLines(const Session& session);

}  // namespace cplab
