// SPDX-License-Identifier: GPL-3.0-or-later
// The main window in front of a class (main_window.h): View › Presentation (F11: full screen,
// only the caption, the family view, the timeline and the bounds, larger type and lines), the
// scale of type and lines in each mode (remembered between launches), the single keys that
// drive a demo while presenting, and the caption bar telling the story (story.h: the open
// demo's, a session's, or as the lecturer edited it in the Demo menu). It holds the student
// view (student_view.h, View › Student view): what it hides stays hidden while presenting.
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <vector>

#include "story.h"

class QAction;
class QMenu;
class QScreen;

namespace cplab {

struct DemoInfo;
struct WindowContext;

class StudentView;

namespace widgets {
struct ViewFrame;
}

class Presentation : public QObject {
    Q_OBJECT
  public:
    explicit Presentation(WindowContext& ctx);

    // The View menu's entries and the presentation keys; the scales remembered are applied.
    void addViewActions(QMenu* view);
    // `fullScreen` false: the window as it is, for scripted pictures. Space steps, R runs or
    // pauses, ← → move the timeline, Home and End go to the first iteration and live, Esc
    // leaves.
    void setPresentation(bool on, bool fullScreen = true);
    bool presenting() const { return presenting_; }
    // The size of type, lines and markers in the current mode. By default it follows the
    // window's screen (defaultScale); a size set here (Ctrl++, Ctrl+−) holds for that screen,
    // and is remembered between launches for that screen (its name and geometry) once
    // restoreScales() has run: the interactive app, never scripted windows or sessions.
    double viewScale() const;
    void setViewScale(double scale);
    // Ctrl+0: the screen's default again (and nothing remembered for it).
    void resetViewScale();
    // The default on `screen`: in presentation mode type as large a share of the picture at
    // 3840×2160 or 1920×1080 as 1.4 gives at 1280×720 (a projected picture is as large at any
    // resolution); in the normal window 1 up to 1440 logical pixels high, larger beyond.
    static double defaultScale(const QScreen* screen, bool presenting);
    // Reads the sizes remembered for the window's screen and remembers new ones from here on.
    void restoreScales();
    // The settings key of `screen`'s scale in a mode ("view/presentation_scale/HDMI-1_1920x1080").
    static QString scaleKey(const QScreen* screen, bool presenting);
    // Help › Keyboard shortcuts: every menu action with a shortcut, as an HTML table.
    QString shortcutsText() const;

    // The demo open, or null; setDemo tells its own story.
    const DemoInfo* demo() const { return demo_; }
    void setDemo(const DemoInfo* demo);
    void updateCaption(const widgets::ViewFrame& frame, int iteration);
    // The story told (a session's replaces the demo's: story()->setStory).
    StoryHolder* story() const { return story_; }
    // The Demo menu: Edit story..., Add a beat here, Restore the demo's story.
    void addDemoMenu(QMenu* demo);
    // Demo › Add a beat here without its dialog: a beat at the iteration the timeline shows;
    // its index, or -1 when the story is full.
    int addBeatHere(const QString& caption);
    // The student view (View › Student view).
    StudentView* studentView() const { return studentView_; }

  signals:
    // The lecturer changed the story or the student view (work a close must not lose).
    void lessonEdited();

  private:
    void addPresentationKeys();
    void addStudentViewMenu(QMenu* view);
    void applyViewScale();
    // The story replaced or edited: the caption's title and what to watch, the frame again.
    void tellStory();
    void editStory();
    void addBeatDialog();

    WindowContext& ctx_;
    const DemoInfo* demo_ = nullptr;
    StoryHolder* story_ = nullptr;
    StudentView* studentView_ = nullptr;
    QString shownWatch_;  // the caption's what to watch (the story's or the beat's own)
    bool presenting_ = false;
    bool wasMaximized_ = false;
    QByteArray normalState_;  // docks and tool bars before presenting
    // The sizes set for the window's screen in each mode (0: its default).
    double normalScale_ = 0;
    double presentationScale_ = 0;
    bool rememberScales_ = false;  // restoreScales() has run
    QFont baseFont_;
    QAction* presentAction_ = nullptr;
    std::vector<QAction*> presentationKeys_;  // enabled while presenting
};

}  // namespace cplab
