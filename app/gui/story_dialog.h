// SPDX-License-Identifier: GPL-3.0-or-later
// Demo › Edit story... (presentation.h): the story told in the caption bar (story.h) as a
// title, what to watch, and a table of beats — when each is reached (an iteration and,
// optionally, an event of core/events.h or "finished"), its caption and its own what to watch
// (empty: the story's) — with Add (at the timeline's iteration), Remove, Up and Down. OK
// checks the table as sessions check a story (storyProblem) and says what is wrong in the
// dialog; the story it gives is then within a session's bounds.
#pragma once

#include <QDialog>

#include "session.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;

namespace cplab {

class StoryDialog : public QDialog {
    Q_OBJECT
  public:
    // `story` to edit; a beat added goes to `iteration` (the timeline's).
    StoryDialog(const Story& story, int iteration, QWidget* parent = nullptr);

    // The story as edited (valid once the dialog is accepted).
    Story story() const { return story_; }
    // The table's columns.
    enum Column { kIteration, kEvent, kCaption, kWatch, kColumns };

    // Reads the fields into story(); false and *why when a field is not valid.
    bool readFields(QString* why);

  public slots:
    void accept() override;

  private:
    void addRow(const StoryBeat& beat);
    void moveRow(int direction);

    Story story_;
    int iteration_ = 0;
    QLineEdit* title_ = nullptr;
    QPlainTextEdit* watch_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* problem_ = nullptr;
};

}  // namespace cplab
