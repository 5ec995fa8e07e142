// SPDX-License-Identifier: GPL-3.0-or-later
// A lecture in the main window (app/session/lecture.h has the file): File › Lecture opens,
// makes and edits one (New lecture, Open lecture, Add current state to the lecture, Slides:
// reorder and remove), and in presentation mode the keyboard walks it.
//
// The walk: Page Down (what a presenter's clicker sends), → ↓ and Space go to the next beat of
// the shown slide's story — the runs step until the beat is reached (its iteration, and its
// event when it has one, at most kMaxPursuitSteps steps more) — and after its last beat to the
// next slide (a key pressed while the runs are still on their way waits for them; pressed
// again, it goes on); Page Up, ← ↑ go back a beat (the timeline scrubbed back to where that beat
// was shown), and from a slide's first beat to the previous slide. B blanks the screen (black); B
// again or any walk key shows it again. The caption bar names the slide ("3/5 - Bundle methods").
// The keys are taken (before the window's own shortcuts: Space steps, ← → scrub) only while
// presenting with a lecture open; Ctrl+Page Down still turns the view's tabs.
#pragma once

#include <QObject>
#include <QString>
#include <vector>

#include "lecture.h"

class QMenu;
class QTimer;
class QWidget;

namespace cplab {

class MainWindow;
struct WindowContext;

class LectureController : public QObject {
    Q_OBJECT
  public:
    // Steps a walk takes past a beat's iteration waiting for its event.
    static constexpr int kMaxPursuitSteps = 500;

    explicit LectureController(WindowContext& ctx);

    // File › Lecture: New lecture, Open lecture, Add current state, Slides.
    void addFileActions(QMenu* file);

    // Reads the lecture at `path` (lecture.h: refused whole when anything in it is wrong) and
    // opens its first slide; false and *why otherwise (the lecture open before stays).
    bool openLecture(const QString& path, QString* why);
    void closeLecture();
    bool hasLecture() const { return !path_.isEmpty(); }
    const Lecture& lecture() const { return lecture_; }
    QString path() const { return path_; }
    // The slide shown (-1: none) and the beat the walk is at (-1: none yet).
    int slide() const { return slide_; }
    int beat() const { return beat_; }
    // Opening a slide's session, or runs stepping toward a beat: the walk waits.
    bool busy() const;

    // Opens slide `index` at its start (slideOpened reports when it is there).
    void openSlide(int index);
    // One walk forward or back; false at the lecture's end or start (nothing happens).
    bool next();
    bool previous();
    void setBlank(bool blank);
    bool blank() const { return blank_; }

    // Saves the current state as a session beside the lecture (no history: it opens at
    // iteration 0) and adds it as the last slide titled `title`; false and *why on failure.
    bool addCurrentState(const QString& title, QString* why);
    // Moves slide `from` to `to`, or removes slide `index`; the lecture file is written.
    bool moveSlide(int from, int to, QString* why);
    bool removeSlide(int index, QString* why);
    // Writes a new empty lecture titled `title` at `path` and opens it.
    bool newLecture(const QString& path, const QString& title, QString* why);

  signals:
    // Slide `index` opened (ok) or could not be (message says why).
    void slideOpened(int index, bool ok, const QString& message);
    void lectureChanged();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    enum class Walk { None, Next, Previous, Blank };
    Walk walkOf(int key, Qt::KeyboardModifiers modifiers) const;
    bool walking() const;
    void act(Walk walk);
    void finishOpening(bool ok, const QString& message);
    void showSlideCaption();
    // The story's beats: their iterations, and the event each waits for ("": none).
    std::vector<int> beatIterations() const;
    std::vector<QString> beatEvents() const;
    int shownBeat() const;
    int newestIteration() const;
    bool runsStopped() const;
    void goToBeat(int k);
    void reach(int iteration);
    void pursue();
    bool save(QString* why);
    MainWindow* mainWindow() const;
    // The menu's dialogs.
    void askNewLecture();
    void askOpenLecture();
    void askAddCurrentState();
    void editSlides();

    WindowContext& ctx_;
    Lecture lecture_;
    QString path_;
    int slide_ = -1;
    int beat_ = -1;
    int firstBeat_ = -1;            // the beat shown when the slide opened
    std::vector<int> beatShownAt_;  // per beat: the iteration the walk showed it at
    int requested_ = 0;             // the iteration the runs were asked to reach
    int pursuing_ = -1;             // the beat the runs step toward (-1: none)
    int pursuitSteps_ = 0;          // steps taken past its iteration for its event
    bool hurried_ = false;          // a walk key came while the runs were on their way
    bool loading_ = false;          // a slide's session is opening
    bool blank_ = false;
    QWidget* blackout_ = nullptr;
    QTimer* pursuit_ = nullptr;
    QAction* addAction_ = nullptr;
    QAction* slidesAction_ = nullptr;
};

}  // namespace cplab
