// SPDX-License-Identifier: GPL-3.0-or-later
// Data you can draw (svm-toy, done right): the training points of a 2-D problem of a dataset
// family (linear, kernel, sparse), edited by mouse on the views' scatter plots. A click adds a
// point of the current class (1-D regression data: the point (x, y) itself), a drag moves one, a
// right-click deletes one; every edit is a command on a QUndoStack. After each edit (and undo
// or redo) the edited set becomes a new problem (dataset_family.h's editedProblem) on which
// the run controller re-solves every run (RunController::rebase; a drag's many moves are
// coalesced there, the newest is solved).
//
// The plots are found by the object name of their axis rect (widgets/common/decision_map.h's
// kTrainingPointsRect), so that no family is named here; the editor reads the mouse through
// an event filter and maps pixels to data through that rect's axes.
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>
#include <vector>

#include "data/dataset.h"

class QUndoStack;

namespace cplab {

class RunController;

// How the plot's (x, y) are an example: two features and a class (Plane), or one feature and
// its real target (Curve); None when the data cannot be drawn.
enum class PointLayout { None, Plane, Curve };

struct DrawnPoint {
    double x = 0.0;
    double y = 0.0;
    double label = 0.0;  // the class (Plane) or y again (Curve)

    bool operator==(const DrawnPoint&) const = default;
};
using DrawnPoints = std::vector<DrawnPoint>;

class PointEditor : public QObject {
    Q_OBJECT
  public:
    // Up to this many classes have keys (1, 2, 3).
    static constexpr int kMaxClasses = 3;

    explicit PointEditor(RunController* controller, QObject* parent = nullptr);
    ~PointEditor() override;

    // Reads the mouse on every plot below `view` that draws training points.
    void attach(QWidget* view);

    // The current problem's points can be drawn; else why not (for tooltips).
    bool editable() const { return layout_ != PointLayout::None; }
    QString whyNotEditable() const { return whyNot_; }
    PointLayout layout() const { return layout_; }
    // Mouse editing on (the default) or off (the plots pan and zoom as before).
    bool drawing() const { return drawing_; }
    void setDrawing(bool on);

    const DrawnPoints& points() const { return points_; }
    QUndoStack* undoStack() const { return undo_; }
    // The classes a click can add (Plane): label values, +1 before −1.
    int classCount() const { return static_cast<int>(classes_.size()); }
    double classLabel(int k) const { return classes_.at(static_cast<std::size_t>(k)); }
    QString className(int k) const;
    int currentClass() const { return current_; }
    void setCurrentClass(int k);

    // The edits, each an undoable command that re-solves the runs. `at` is in data
    // coordinates of the plot (x1, x2; Curve: x, y).
    void addPoint(QPointF at);
    // Moves of one drag (the same `drag` number) merge into one command.
    void movePoint(int index, QPointF to, int drag);
    void removePoint(int index);
    void clearPoints();
    // A new drag's number for movePoint.
    int newDrag() { return ++drags_; }

    // The drawn points as the problem's training set.
    Dataset trainingSet() const;
    // Writes trainingSet() as LIBSVM text to `path` (atomically; never over an input file);
    // false and *why on failure.
    bool savePoints(const QString& path, QString* why) const;

    // The commands' effect: shows `points` and re-solves on them.
    void setPoints(DrawnPoints points);

  signals:
    void pointsChanged();
    // The problem changed: whether its points can be drawn (and the classes).
    void editableChanged(bool editable);
    void currentClassChanged(int k);
    // A line for the log.
    void message(const QString& text, bool error);

  private:
    void reset();

    RunController* controller_;
    QUndoStack* undo_;
    PointLayout layout_ = PointLayout::None;
    QString whyNot_;
    bool drawing_ = true;
    DrawnPoints points_;
    Dataset template_;  // the problem's training set without examples: names and features
    std::vector<double> classes_;
    int current_ = 0;
    int drags_ = 0;
};

}  // namespace cplab
