// SPDX-License-Identifier: GPL-3.0-or-later
// The student view (View › Student view): which panels, tabs, buttons and option groups of the
// main window show. A lecturer chooses them in a checklist (chooseDialog), a session keeps
// them (Session::hiddenControls, app/session/session.h) and opening it hides them again;
// View › Student view › Show everything turns it off. A hidden control stays hidden while
// presenting and whatever the window shows again by itself (a family view showing its tabs
// for a new snapshot, leaving presentation mode restoring the docks): enforce() hides it
// again, and the View menu's entry of a hidden panel is disabled.
//
// Controls are named "<kind>:<name>" (session.h's kControlKinds):
//   panel:<dock or tool bar's object name>, panel:caption, panel:timeline, panel:bounds
//   tab:<family>/<tab title>        a page of that family's view
//   button:<object name>            a run control or a set-up button (runButton, addRunButton)
//   group:<title>                   a group of the set-up panel (Demo, Problem, Solver, Runs)
// A name of no control in this window (a tab of a view that has no such tab) is said in the
// log once and kept, so that a session saved again keeps it. GUI thread only.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <string>
#include <utility>
#include <vector>

class QTabWidget;
class QWidget;

namespace cplab {

struct WindowContext;

// One control the student view can hide.
struct ViewControl {
    QString name;   // "panel:logDock"
    QString group;  // "Panels", "Tabs", "Buttons", "Option groups"
    QString title;  // as the window shows it ("Log")
};

class StudentView : public QObject {
    Q_OBJECT
  public:
    explicit StudentView(WindowContext& ctx);

    // Every control there is to hide now: the docks, tool bars, caption, timeline and bounds;
    // the tabs of the shown family view; the run controls' and set-up panel's buttons; the
    // set-up panel's groups.
    std::vector<ViewControl> controls() const;
    const std::vector<std::string>& hidden() const { return hidden_; }
    bool active() const { return !hidden_.empty(); }
    // Hides the controls named (what the previous choice hid and this one does not shows
    // again); names of no control here are said in the log and kept.
    void setHidden(std::vector<std::string> names);
    // Hides again what the window has shown since, and finds the controls of a view shown
    // since (call after a new problem or a new frame; cheap when nothing changed).
    void enforce();
    // View › Student view › Choose...: the checklist; true when accepted.
    bool chooseDialog();

  signals:
    void changed();

  private:
    // The widgets and tabs `hidden_` names in the window as it is now.
    void resolve();
    void showAgain();

    WindowContext& ctx_;
    std::vector<std::string> hidden_;
    std::vector<QPointer<QWidget>> widgets_;
    std::vector<std::pair<QPointer<QTabWidget>, QString>> tabs_;
    std::vector<std::string> missingSaid_;  // names of no control, said once
    bool resolved_ = false;
    const void* resolvedFor_ = nullptr;  // the family view shown when they were found
};

}  // namespace cplab
