// SPDX-License-Identifier: GPL-3.0-or-later
// The story and the student view of a session (session_story.h).
#include "session_story.h"

#include <QJsonArray>
#include <QString>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/events.h"
#include "qt_text.h"

namespace cplab {

namespace {

bool isStoryEvent(const std::string& event) {
    if (event.empty() || event == "finished") return true;
    return std::any_of(std::begin(kAllEvents), std::end(kAllEvents),
                       [&](Event e) { return event == eventName(e); });
}

// A text of the story: a string of at most kMaxStoryText characters; false and *why else.
bool storyText(const QJsonObject& object, const char* key, const std::string& where,
               std::string* text, std::string* why) {
    const QJsonValue v = object.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) return true;
    if (!v.isString()) {
        *why = where + key + " is not a text";
        return false;
    }
    const QString value = v.toString();
    if (value.size() > kMaxStoryTextChars) {
        *why = where + "a " + key + " of " + std::to_string(value.size()) +
               " characters; at most " + std::to_string(kMaxStoryTextChars) + " are read";
        return false;
    }
    *text = s(value);
    return true;
}

// One beat of the session's story; false and *why when it is malformed.
bool beatFrom(const QJsonValue& value, int index, StoryBeat* beat, std::string* why) {
    const std::string where = "story: beat " + std::to_string(index + 1) + ": ";
    if (!value.isObject()) {
        *why = where + "expected an object with iteration, event, caption and watch";
        return false;
    }
    const QJsonObject object = value.toObject();
    const QJsonValue iteration = object.value("iteration");
    const double k = iteration.toDouble(-1);
    if (!iteration.isUndefined() &&
        !(iteration.isDouble() && k >= 0 && k <= kMaxStoryIteration && k == std::floor(k))) {
        *why = where + "iteration is not a whole number in [0, " +
               std::to_string(kMaxStoryIteration) + "]";
        return false;
    }
    beat->iteration = iteration.isUndefined() ? 0 : static_cast<int>(k);
    return storyText(object, "event", where, &beat->event, why) &&
           storyText(object, "caption", where, &beat->caption, why) &&
           storyText(object, "watch", where, &beat->watch, why);
}

}  // namespace

std::optional<Story> storyFrom(const QJsonValue& value, SessionNotes* notes, std::string* why) {
    if (value.isUndefined() || value.isNull()) return std::nullopt;
    if (!value.isObject()) {
        *why = "story: expected an object with title, watch and beats";
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    Story story;
    if (!storyText(object, "title", "story: ", &story.title, why) ||
        !storyText(object, "watch", "story: ", &story.watch, why))
        return std::nullopt;
    const QJsonValue beats = object.value("beats");
    if (!beats.isUndefined() && !beats.isArray()) {
        *why = "story: beats is not a list";
        return std::nullopt;
    }
    const QJsonArray array = beats.toArray();
    if (array.size() > kMaxStoryBeats) {
        *why = "story: " + std::to_string(array.size()) + " beats; at most " +
               std::to_string(kMaxStoryBeats) + " are read";
        return std::nullopt;
    }
    for (qsizetype k = 0; k < array.size(); ++k) {
        StoryBeat beat;
        if (!beatFrom(array[k], static_cast<int>(k), &beat, why)) return std::nullopt;
        if (!isStoryEvent(beat.event)) {
            notes->push_back("story: beat " + std::to_string(k + 1) + ": no event '" +
                             beat.event.substr(0, 40) + "' in this cplab; the beat is left out");
            continue;
        }
        story.beats.push_back(std::move(beat));
    }
    return story;
}

QJsonObject storyJson(const Story& story) {
    QJsonArray beats;
    for (const StoryBeat& b : story.beats) {
        QJsonObject beat{{"iteration", b.iteration}, {"caption", q(b.caption)}};
        if (!b.event.empty()) beat.insert("event", q(b.event));
        if (!b.watch.empty()) beat.insert("watch", q(b.watch));
        beats.append(beat);
    }
    return {{"title", q(story.title)}, {"watch", q(story.watch)}, {"beats", beats}};
}

bool hiddenFrom(const QJsonValue& value, std::vector<std::string>* hidden, SessionNotes* notes,
                std::string* why) {
    if (value.isUndefined() || value.isNull()) return true;
    const QJsonValue list = value.toObject().value("hidden");
    if (!value.isObject() || !(list.isArray() || list.isUndefined())) {
        *why = "student_view: expected an object with a list \"hidden\" of control names";
        return false;
    }
    const QJsonArray array = list.toArray();
    if (array.size() > kMaxHiddenControls) {
        *why = "student_view: " + std::to_string(array.size()) + " hidden controls; at most " +
               std::to_string(kMaxHiddenControls) + " are read";
        return false;
    }
    std::vector<std::string> unknown;
    for (const QJsonValue& v : array) {
        const QString name = v.toString();
        if (!v.isString() || name.isEmpty() || name.size() > kMaxControlNameChars) {
            *why = "student_view: a hidden control is not a name of 1 to " +
                   std::to_string(kMaxControlNameChars) + " characters";
            return false;
        }
        const QString kind = name.section(':', 0, 0);
        const bool known =
            name.contains(':') && std::any_of(std::begin(kControlKinds), std::end(kControlKinds),
                                              [&](const char* k) { return kind == k; });
        if (!known) {
            unknown.push_back(s(name));
        } else if (std::find(hidden->begin(), hidden->end(), s(name)) == hidden->end()) {
            hidden->push_back(s(name));
        }
    }
    if (!unknown.empty()) {
        // One note however many; the first name cut to 40 characters.
        const QString first = q(unknown.front()).left(40);
        notes->push_back("student_view: " + std::to_string(unknown.size()) +
                         " hidden control(s) of no known kind, e.g. '" + s(first) +
                         "' (expected panel:, tab:, button: or group:); left out");
    }
    return true;
}

QJsonObject studentViewJson(const std::vector<std::string>& hidden) {
    QJsonArray names;
    for (const std::string& name : hidden)
        names.append(q(name));
    return QJsonObject{{"hidden", names}};
}

Story storyOfDemo(const DemoInfo& demo) {
    Story story{demo.title, demo.description, {}};
    for (const DemoBeat& beat : demo.story)
        story.beats.push_back({beat.iteration, beat.event, beat.text, {}});
    return story;
}

std::string storyProblem(const Story& story) {
    if (story.beats.size() > static_cast<std::size_t>(kMaxStoryBeats))
        return std::to_string(story.beats.size()) + " beats; at most " +
               std::to_string(kMaxStoryBeats);
    const auto tooLong = [](const std::string& text) {
        return q(text).size() > kMaxStoryTextChars;
    };
    if (tooLong(story.title) || tooLong(story.watch))
        return "a title or what to watch longer than " + std::to_string(kMaxStoryTextChars) +
               " characters";
    for (std::size_t k = 0; k < story.beats.size(); ++k) {
        const StoryBeat& b = story.beats[k];
        const std::string where = "beat " + std::to_string(k + 1) + ": ";
        if (b.iteration < 0 || b.iteration > kMaxStoryIteration)
            return where + "iteration not in [0, " + std::to_string(kMaxStoryIteration) + "]";
        if (tooLong(b.caption) || tooLong(b.watch) || tooLong(b.event))
            return where + "a text longer than " + std::to_string(kMaxStoryTextChars) +
                   " characters";
        if (!isStoryEvent(b.event)) return where + "no event '" + b.event + "'";
    }
    return {};
}

}  // namespace cplab
