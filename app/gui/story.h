// SPDX-License-Identifier: GPL-3.0-or-later
// The story the window tells in its caption bar (presentation.h): a value the window holds,
// copied from the demo when one loads (storyOfDemo, app/session/session.h), replaced by a
// session's when the session has one, and edited by the lecturer (Demo › Edit story...,
// Demo › Add a beat here: story_dialog.h). The presentation asks it which beat a frame has
// reached and tells that beat; a lecture (app/gui/lecture*) asks it where the next beat is.
//
// A beat is reached at its iteration of the shown position and, with an event, once a run of
// the race has reported that event by then ("finished": every run has stopped); the caption
// shows the last beat of the list reached. GUI thread only.
#pragma once

#include <QObject>

#include "session.h"

namespace cplab {

struct DemoInfo;

namespace widgets {
struct ViewFrame;
}

// The last beat of `story` that `frame` at `iteration` has reached (-1: none yet).
int reachedBeat(const Story& story, const widgets::ViewFrame& frame, int iteration);
// The same for a demo's own story.
int reachedBeat(const DemoInfo& demo, const widgets::ViewFrame& frame, int iteration);

class StoryHolder : public QObject {
    Q_OBJECT
  public:
    explicit StoryHolder(QObject* parent = nullptr);

    const Story& story() const { return story_; }
    // No beats and no title: nothing to tell (the caption bar hides).
    bool empty() const { return story_.beats.empty() && story_.title.empty(); }
    int beatCount() const { return static_cast<int>(story_.beats.size()); }
    // The iteration at which beat k is reached (its event aside); -1 when there is no beat k.
    int beatIteration(int k) const;
    // The first beat whose iteration is later than `iteration` (-1: none): where a lecture's
    // "next beat" moves the timeline from `iteration` (the beats of one iteration are told as
    // one: the caption shows the last of them).
    int nextBeat(int iteration) const;
    // The last beat whose iteration is earlier than `iteration` (-1: none): "previous beat".
    int previousBeat(int iteration) const;
    // The beat the caption shows (-1: none yet), as the presentation last told it.
    int shownBeat() const { return shownBeat_; }
    void setShownBeat(int k) { shownBeat_ = k; }

    // The demo's own story (none: an empty story); not edited.
    void setDemo(const DemoInfo* demo);
    // A session's or an edited story (bounded as sessions are: storyProblem); false and *why
    // when it is not.
    bool setStory(Story story, QString* why = nullptr);
    // The story differs from the demo's own (or there is no demo and it has beats): a session
    // saves it.
    bool edited() const;

    // Adds a beat at `iteration` with `caption`, after the beats reached by then (the list
    // stays in the order of iterations where it was); its index, or -1 when the story is full.
    int addBeat(int iteration, const QString& caption);

  signals:
    // The story was replaced or edited (the caption is told again).
    void storyChanged();

  private:
    Story story_;
    Story demoStory_;  // the loaded demo's own, to tell an edited story from it
    bool hasDemo_ = false;
    int shownBeat_ = -1;
};

}  // namespace cplab
