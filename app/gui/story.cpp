// SPDX-License-Identifier: GPL-3.0-or-later
#include "story.h"

#include <algorithm>

#include "core/events.h"
#include "family_view.h"
#include "registry.h"

namespace cplab {

namespace {

// True when some run of the race has reported `event` by its position (a name of
// core/events.h), or, for "finished", when every run has stopped there.
bool storyEventReached(const widgets::ViewFrame& frame, const std::string& event) {
    if (event == "finished") {
        return !frame.race.empty() &&
               std::all_of(frame.race.begin(), frame.race.end(), [](const auto& entry) {
                   return entry.snapshot && entry.snapshot->status.finished();
               });
    }
    // The event's bit, then one test per record (this runs for every frame drawn).
    std::uint32_t bit = 0;
    for (const Event e : kAllEvents)
        if (event == eventName(e)) bit = e;
    if (bit == 0) return false;
    for (const widgets::RaceEntry& entry : frame.race) {
        for (const IterationRecord& record : entry.records)
            if (record.events & bit) return true;
    }
    return false;
}

}  // namespace

int reachedBeat(const Story& story, const widgets::ViewFrame& frame, int iteration) {
    int reached = -1;
    for (std::size_t k = 0; k < story.beats.size(); ++k) {
        const StoryBeat& beat = story.beats[k];
        if (iteration >= beat.iteration &&
            (beat.event.empty() || storyEventReached(frame, beat.event)))
            reached = static_cast<int>(k);
    }
    return reached;
}

int reachedBeat(const DemoInfo& demo, const widgets::ViewFrame& frame, int iteration) {
    return reachedBeat(storyOfDemo(demo), frame, iteration);
}

StoryHolder::StoryHolder(QObject* parent) : QObject(parent) {}

int StoryHolder::beatIteration(int k) const {
    return k >= 0 && k < beatCount() ? story_.beats[k].iteration : -1;
}

int StoryHolder::nextBeat(int iteration) const {
    int next = -1;
    for (int k = 0; k < beatCount(); ++k) {
        const int at = story_.beats[k].iteration;
        if (at > iteration && (next < 0 || at < story_.beats[next].iteration)) next = k;
    }
    return next;
}

int StoryHolder::previousBeat(int iteration) const {
    int previous = -1;
    for (int k = 0; k < beatCount(); ++k) {
        const int at = story_.beats[k].iteration;
        if (at < iteration && (previous < 0 || at >= story_.beats[previous].iteration))
            previous = k;
    }
    return previous;
}

void StoryHolder::setDemo(const DemoInfo* demo) {
    hasDemo_ = demo != nullptr;
    demoStory_ = demo ? storyOfDemo(*demo) : Story{};
    story_ = demoStory_;
    shownBeat_ = -1;
    emit storyChanged();
}

bool StoryHolder::setStory(Story story, QString* why) {
    const std::string problem = storyProblem(story);
    if (!problem.empty()) {
        if (why) *why = tr("story: %1").arg(QString::fromStdString(problem));
        return false;
    }
    story_ = std::move(story);
    shownBeat_ = -1;
    emit storyChanged();
    return true;
}

bool StoryHolder::edited() const {
    return hasDemo_ ? story_ != demoStory_ : !empty();
}

int StoryHolder::addBeat(int iteration, const QString& caption) {
    if (beatCount() >= kMaxStoryBeats) return -1;
    auto& beats = story_.beats;
    // After every beat reached by `iteration`, before the first later one.
    const auto at = std::find_if(beats.begin(), beats.end(), [iteration](const StoryBeat& b) {
        return b.iteration > iteration;
    });
    const auto index = at - beats.begin();
    beats.insert(at, StoryBeat{std::max(0, iteration), {}, caption.toStdString(), {}});
    shownBeat_ = -1;
    emit storyChanged();
    return static_cast<int>(index);
}

}  // namespace cplab
