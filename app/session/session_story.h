// SPDX-License-Identifier: GPL-3.0-or-later
// The story and the student view of a session file (docs/sessions.md, "story" and
// "student_view"): reading them from the session's JSON with their bounds (kMaxStoryBeats and
// the others in session.h) and writing them back. Internal to cplab_session: session.cpp
// reads and writes the rest of the document; the types, storyOfDemo and storyProblem are
// declared in session.h.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <optional>
#include <string>
#include <vector>

#include "session.h"

namespace cplab {

// The session's story: none when it has none; *why when it is malformed or too large (the
// session is refused); a beat of an event this cplab does not know is left out with a note.
std::optional<Story> storyFrom(const QJsonValue& value, SessionNotes* notes, std::string* why);
QJsonObject storyJson(const Story& story);

// The student view's hidden controls into *hidden; false and *why when the list is malformed or
// too long (the session is refused); a name of a kind this cplab does not know is left out with
// a note (a name of a known kind that names no control is the window's to say:
// app/gui/student_view.h).
bool hiddenFrom(const QJsonValue& value, std::vector<std::string>* hidden, SessionNotes* notes,
                std::string* why);
// The "student_view" object of the hidden controls `hidden` (not empty).
QJsonObject studentViewJson(const std::vector<std::string>& hidden);

}  // namespace cplab
