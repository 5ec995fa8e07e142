// SPDX-License-Identifier: GPL-3.0-or-later
// The main window in front of a class (main_window.h): View › Presentation (F11: full screen,
// only the caption, the family view, the timeline and the bounds, larger type and lines), the
// scale of type and lines in each mode (remembered between launches), the single keys that
// drive a demo while presenting, and the caption bar telling the open demo's story.
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <vector>

class QAction;
class QMenu;

namespace cplab {

struct DemoInfo;
struct WindowContext;

namespace widgets {
struct ViewFrame;
}

// The last beat of `demo`'s story that `frame` at `iteration` has reached (-1: none yet).
int reachedBeat(const DemoInfo& demo, const widgets::ViewFrame& frame, int iteration);

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
    // The size of type, lines and markers in the current mode (1: as designed; presenting
    // starts at 1.4), remembered per mode between launches.
    double viewScale() const;
    void setViewScale(double scale);
    // The presentation mode's scale as a session stores it (applied at once when presenting).
    double presentationScale() const { return presentationScale_; }
    void setPresentationScale(double scale);
    // Help › Keyboard shortcuts: every menu action with a shortcut, as an HTML table.
    QString shortcutsText() const;

    // The demo open (its story in the caption), or null.
    const DemoInfo* demo() const { return demo_; }
    void setDemo(const DemoInfo* demo);
    void updateCaption(const widgets::ViewFrame& frame, int iteration);

  private:
    void addPresentationKeys();
    void applyViewScale();

    WindowContext& ctx_;
    const DemoInfo* demo_ = nullptr;
    bool presenting_ = false;
    bool wasMaximized_ = false;
    QByteArray normalState_;  // docks and tool bars before presenting
    double normalScale_ = 1.0;
    double presentationScale_ = 1.4;
    QFont baseFont_;
    QAction* presentAction_ = nullptr;
    std::vector<QAction*> presentationKeys_;  // enabled while presenting
};

}  // namespace cplab
