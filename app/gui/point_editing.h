// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's drawn points (main_window.h, point_editor.h): Edit › Undo, Redo, Clear
// points, Draw points and the class to add (keys 1–3), the Draw tool bar with the same
// actions, and File › Save points as LIBSVM; each enabled, named and told why not for the
// problem shown.
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace cplab {

class PointEditor;
struct WindowContext;

class PointEditing : public QObject {
    Q_OBJECT
  public:
    // The editor, attached to every family view (after the centre is built).
    explicit PointEditing(WindowContext& ctx);

    // The Edit menu and the Draw tool bar, and File › Save points before `file`'s last
    // separator (call once File holds Quit).
    void buildEditMenu(QMenu* file);
    PointEditor* pointEditor() const { return pointEditor_; }

  private:
    QAction* addSavePointsAction(QMenu* file);
    void savePointsDialog();

    WindowContext& ctx_;
    PointEditor* pointEditor_ = nullptr;
};

}  // namespace cplab
