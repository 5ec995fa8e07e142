// SPDX-License-Identifier: GPL-3.0-or-later
// Lectures: an ordered list of slides, each a built-in demo or a session, with a title each, in
// one file (docs/sessions.md, "Lectures", has the format).
//
// A lecture is a JSON document ("format": "cplab-lecture", "version": 1, a title and its
// slides). A slide names a demo ({"title": ..., "demo": "kelley"}) or a session file by its
// path relative to the lecture's folder with the SHA-256 of its bytes ({"title": ...,
// "session": "typed.cplab", "sha256": "…"}).
//
// A lecture is untrusted input, as a session is: its size, its number of slides and the length
// of its texts are capped; a session it names must be a regular file outside the system's
// folders (session.h's rule) with the hash written; a demo must exist. Anything else refuses
// the whole lecture with one message naming the file and the line (a syntax error) or the
// slide ("slide 2 (“Bundle”): typed.cplab: changed since the lecture was written").
//
// Qt Core only (JSON): the GUI opens lectures, tests and the handout read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cplab {

inline constexpr int kLectureVersion = 1;
inline constexpr std::int64_t kMaxLectureBytes = std::int64_t{1} << 20;
inline constexpr int kMaxLectureSlides = 200;
inline constexpr int kMaxLectureTextChars = 500;  // a title, a demo's name, a path
inline constexpr const char* kLectureSuffix = ".cplab-lecture";

struct LectureSlide {
    std::string title;
    std::string demo;      // a built-in demo's name, or empty for a session
    std::string session;   // the session's path as written (relative to the lecture's folder)
    std::string resolved;  // that path resolved (absolute), set when read
    std::string sha256;    // of the session's bytes
};

struct Lecture {
    std::string title;
    std::vector<LectureSlide> slides;
};

// True when `path` ends in .cplab-lecture.
bool isLecturePath(const std::string& path);

// Reads the lecture at `path` and checks every slide (a demo that exists, a session that is
// there with its hash). Null and *why when anything is wrong.
std::optional<Lecture> readLecture(const std::string& path, std::string* why);
// The same from the document's bytes; `folder` resolves relative paths, `name` starts messages.
std::optional<Lecture> parseLecture(const std::string& bytes, const std::string& folder,
                                    const std::string& name, std::string* why);

// The lecture as JSON, session paths relative to `folder` where they lie below it.
std::string lectureJson(const Lecture& lecture, const std::string& folder);
// Writes the lecture atomically (core/output_file.h); false and *why on failure.
bool writeLecture(const std::string& path, const Lecture& lecture, std::string* why);

}  // namespace cplab
