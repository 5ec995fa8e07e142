// SPDX-License-Identifier: GPL-3.0-or-later
#include "point_editor.h"

#include <qcustomplot.h>

#include <QMouseEvent>
#include <QPainter>
#include <QUndoCommand>
#include <QUndoStack>
#include <algorithm>
#include <cmath>

#include "data/libsvm_format.h"
#include "decision_map.h"
#include "families/dataset_family.h"
#include "plot_style.h"
#include "run_controller.h"

namespace cplab {

namespace {

// A press within this many pixels of a point takes that point (drag, delete): about the
// radius of the plots' markers.
constexpr double kHitPixels = 5.0;
// A press on a point that moves less than this is a click (it adds a point), not a drag.
constexpr double kDragPixels = 3.0;

// One edit: the points before and after. Moves of one drag merge into one command, so that
// undo puts the point back where the drag began.
class PointsCommand final : public QUndoCommand {
  public:
    PointsCommand(PointEditor* editor, const QString& text, DrawnPoints before, DrawnPoints after,
                  int drag = 0)
        : QUndoCommand(text),
          editor_(editor),
          before_(std::move(before)),
          after_(std::move(after)),
          drag_(drag) {}

    void undo() override { editor_->setPoints(before_); }
    void redo() override { editor_->setPoints(after_); }
    int id() const override { return drag_ > 0 ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* move = dynamic_cast<const PointsCommand*>(other);
        if (!move || move->drag_ != drag_) return false;
        after_ = move->after_;
        return true;
    }

  private:
    PointEditor* editor_;
    DrawnPoints before_;
    DrawnPoints after_;
    int drag_;
};

// The dragged point, drawn over the plot at once (the plot itself redraws the points when the
// runs' re-solve sends its first snapshot).
class DragMarker final : public QWidget {
  public:
    explicit DragMarker(QWidget* plot) : QWidget(plot) {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        hide();
    }
    void showAt(QPointF pixel) {
        at_ = pixel;
        setGeometry(parentWidget()->rect());
        raise();
        show();
        update();
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(widgets::colors::kOutline, 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(at_, 7.0, 7.0);
    }

  private:
    QPointF at_;
};

// The mouse on one plot: on its training-points rect, edits through the editor.
class PlotInput final : public QObject {
  public:
    static constexpr char kName[] = "pointEditorInput";

    PlotInput(PointEditor* editor, QCustomPlot* plot)
        : QObject(plot), editor_(editor), plot_(plot), marker_(new DragMarker(plot)) {
        setObjectName(kName);
        plot->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* /*watched*/, QEvent* event) override {
        switch (event->type()) {
            case QEvent::MouseButtonPress:
            case QEvent::MouseButtonDblClick:
                return press(static_cast<QMouseEvent*>(event));
            case QEvent::MouseMove:
                return move(static_cast<QMouseEvent*>(event));
            case QEvent::MouseButtonRelease:
                return release();
            default:
                return false;
        }
    }

  private:
    // The training-points rect under `pixel` while editing, or null.
    QCPAxisRect* rectAt(QPointF pixel) const {
        if (!editor_->editable() || !editor_->drawing()) return nullptr;
        QCPAxisRect* rect = plot_->axisRectAt(pixel);
        const bool points = rect && rect->visible() &&
                            rect->objectName() == widgets::kTrainingPointsRect &&
                            rect->property(widgets::kShowsTrainingPoints).toBool();
        return points ? rect : nullptr;
    }
    QPointF toData(QPointF pixel) const {
        return {rect_->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()),
                rect_->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())};
    }
    // The point nearest to `pixel` within kHitPixels, or −1.
    int pointAt(QPointF pixel) const {
        int best = -1;
        double bestDistance = kHitPixels;
        const DrawnPoints& points = editor_->points();
        for (std::size_t i = 0; i < points.size(); ++i) {
            const QPointF at(rect_->axis(QCPAxis::atBottom)->coordToPixel(points[i].x),
                             rect_->axis(QCPAxis::atLeft)->coordToPixel(points[i].y));
            const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
            if (distance <= bestDistance) {
                bestDistance = distance;
                best = static_cast<int>(i);
            }
        }
        return best;
    }

    bool press(QMouseEvent* event) {
        const QPointF pixel = event->position();
        rect_ = rectAt(pixel);
        if (!rect_) return false;
        // Keys 1-3 choose the class next, not a digit for a text field that had the focus.
        plot_->setFocus(Qt::MouseFocusReason);
        const int hit = pointAt(pixel);
        if (event->button() == Qt::RightButton) {
            if (hit < 0) return false;  // the plot's own menu, if any
            editor_->removePoint(hit);
            return true;
        }
        if (event->button() != Qt::LeftButton) return false;
        pressed_ = pixel;
        drag_ = editor_->newDrag();
        if (hit >= 0) {
            // A drag moves that point; a click without a drag adds one there (release).
            dragged_ = hit;
            moved_ = false;
            return true;
        }
        // A new point; held down, the drag moves it.
        editor_->addPoint(toData(pixel));
        dragged_ = static_cast<int>(editor_->points().size()) - 1;
        moved_ = true;
        marker_->showAt(pixel);
        return true;
    }

    bool move(QMouseEvent* event) {
        if (dragged_ < 0 || !rect_) return false;
        const QPointF pixel = event->position();
        if (!moved_ && std::hypot(pixel.x() - pressed_.x(), pixel.y() - pressed_.y()) < kDragPixels)
            return true;
        moved_ = true;
        if (dragged_ >= static_cast<int>(editor_->points().size())) {
            dragged_ = -1;
            marker_->hide();
            return true;
        }
        marker_->showAt(pixel);
        editor_->movePoint(dragged_, toData(pixel), drag_);
        return true;
    }

    bool release() {
        const bool dragging = dragged_ >= 0;
        if (dragging && !moved_ && rect_) editor_->addPoint(toData(pressed_));
        dragged_ = -1;
        marker_->hide();
        return dragging;
    }

    PointEditor* editor_;
    QCustomPlot* plot_;
    DragMarker* marker_;
    QCPAxisRect* rect_ = nullptr;
    QPointF pressed_;
    bool moved_ = false;  // the press on a point became a drag
    int dragged_ = -1;
    int drag_ = 0;
};

// How the points of `data` are drawn, or None with *why.
PointLayout layoutOf(const ProblemInstance* problem, const Dataset* data, QString* why) {
    const auto* kernel = problem ? problem->as<KernelData>() : nullptr;
    if (!data) {
        *why = QObject::tr(
            "Only the points of datasets (linear, kernel and sparse problems) can "
            "be drawn.");
    } else if (kernel && kernel->precomputed) {
        *why = QObject::tr("The features are a precomputed kernel, not points.");
    } else if (data->dimension() == 2 && data->classes().size() <= PointEditor::kMaxClasses) {
        return PointLayout::Plane;
    } else if (data->dimension() == 2) {
        *why = QObject::tr(
            "The labels are real numbers (regression on two features): a click "
            "could not set them.");
    } else if (data->dimension() == 1 && data->classes().size() > PointEditor::kMaxClasses) {
        return PointLayout::Curve;
    } else {
        *why = QObject::tr(
                   "Points can be drawn for 2-D data (and 1-D regression), not for %1 "
                   "features.")
                   .arg(data->dimension());
    }
    return PointLayout::None;
}

}  // namespace

PointEditor::PointEditor(RunController* controller, QObject* parent)
    : QObject(parent), controller_(controller), undo_(new QUndoStack(this)) {
    connect(controller_, &RunController::problemChanged, this, &PointEditor::reset);
    reset();
}

PointEditor::~PointEditor() = default;

void PointEditor::attach(QWidget* view) {
    for (QCPAxisRect* rect : view->findChildren<QCPAxisRect*>(widgets::kTrainingPointsRect)) {
        QCustomPlot* plot = rect->parentPlot();
        if (plot && !plot->findChild<QObject*>(PlotInput::kName, Qt::FindDirectChildrenOnly))
            new PlotInput(this, plot);
    }
}

void PointEditor::reset() {
    undo_->clear();
    points_.clear();
    classes_.clear();
    whyNot_.clear();
    const ProblemInstance* problem = controller_->problem();
    const Dataset* data = problem ? cplab::trainingSet(*problem) : nullptr;
    layout_ = layoutOf(problem, data, &whyNot_);
    template_ = Dataset{};
    if (layout_ != PointLayout::None) {
        template_ = *data;
        template_.sparseStorage = false;
        template_.sparse = {};
        template_.dense.resize(0, data->dimension());
        template_.labels.resize(0);
        template_.lines.clear();
        for (int i = 0; i < data->size(); ++i) {
            const Eigen::VectorXd x = data->row(i);
            const double label = data->labels(i);
            points_.push_back(layout_ == PointLayout::Plane ? DrawnPoint{x(0), x(1), label}
                                                            : DrawnPoint{x(0), label, label});
        }
        if (layout_ == PointLayout::Plane) classes_ = data->classes();
        // +1 first, as the plots' legends have it.
        std::reverse(classes_.begin(), classes_.end());
    }
    current_ = 0;
    emit editableChanged(editable());
    emit currentClassChanged(current_);
    emit pointsChanged();
}

void PointEditor::setDrawing(bool on) {
    drawing_ = on;
}

QString PointEditor::className(int k) const {
    if (k < 0 || k >= classCount()) return tr("class %1 (none in the data)").arg(k + 1);
    const double label = classLabel(k);
    return tr("class %1").arg(QString::fromStdString(template_.labelText(label)));
}

void PointEditor::setCurrentClass(int k) {
    if (k < 0 || k >= std::max(1, classCount())) return;
    current_ = k;
    emit currentClassChanged(k);
}

void PointEditor::addPoint(QPointF at) {
    if (!editable()) return;
    DrawnPoints after = points_;
    const double label = layout_ == PointLayout::Curve ? at.y()
                         : classes_.empty()            ? 1.0
                                                       : classLabel(current_);
    after.push_back({at.x(), at.y(), label});
    undo_->push(new PointsCommand(this, tr("Add point"), points_, std::move(after)));
}

void PointEditor::movePoint(int index, QPointF to, int drag) {
    if (!editable() || index < 0 || index >= static_cast<int>(points_.size())) return;
    DrawnPoints after = points_;
    DrawnPoint& p = after[static_cast<std::size_t>(index)];
    p.x = to.x();
    p.y = to.y();
    if (layout_ == PointLayout::Curve) p.label = to.y();
    undo_->push(new PointsCommand(this, tr("Move point"), points_, std::move(after), drag));
}

void PointEditor::removePoint(int index) {
    if (!editable() || index < 0 || index >= static_cast<int>(points_.size())) return;
    DrawnPoints after = points_;
    after.erase(after.begin() + index);
    undo_->push(new PointsCommand(this, tr("Delete point"), points_, std::move(after)));
}

void PointEditor::clearPoints() {
    if (!editable() || points_.empty()) return;
    undo_->push(new PointsCommand(this, tr("Clear points"), points_, {}));
}

Dataset PointEditor::trainingSet() const {
    Dataset data = template_;
    const int m = static_cast<int>(points_.size());
    data.dense.resize(m, layout_ == PointLayout::Plane ? 2 : 1);
    data.labels.resize(m);
    for (int i = 0; i < m; ++i) {
        const DrawnPoint& p = points_[static_cast<std::size_t>(i)];
        data.dense(i, 0) = p.x;
        if (layout_ == PointLayout::Plane) data.dense(i, 1) = p.y;
        data.labels(i) = p.label;
    }
    return data;
}

bool PointEditor::savePoints(const QString& path, QString* why) const {
    std::string message;
    const bool ok = refusingThrows(&message, [&] {
        if (!editable()) throw std::invalid_argument(whyNot_.toStdString());
        writeLibsvm(path.toStdString(), trainingSet());
        return true;
    });
    if (!ok && why) *why = QString::fromStdString(message);
    return ok;
}

void PointEditor::setPoints(DrawnPoints points) {
    points_ = std::move(points);
    emit pointsChanged();
    const ProblemInstance* problem = controller_->problem();
    if (!problem) return;
    std::string why;
    if (ProblemPtr edited = editedProblem(*problem, trainingSet(), &why)) {
        controller_->rebase(std::move(edited));
    } else {
        emit message(tr("the runs keep the previous points: %1").arg(QString::fromStdString(why)),
                     true);
    }
}

}  // namespace cplab
