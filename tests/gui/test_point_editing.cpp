// SPDX-License-Identifier: GPL-3.0-or-later
// Data you can draw: mouse events on the kernel view's decision plot (svm_2d: Ripley's set, SMO
// against LIBSVM) add points of two classes, drag one and delete one; after each edit the
// problem's training set is the drawn one (count, coordinates within a pixel, labels), the undo
// stack restores and re-applies the exact sets, the runs re-solve on the edited set and reach
// the optimum a cold solver finds on it; data that are not 2-D cannot be drawn.
#include <QAction>
#include <QSignalSpy>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "data/libsvm_format.h"
#include "families/dataset_family.h"
#include "family_view.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "point_editor.h"
#include "qcustomplot.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"

using cplab::DrawnPoint;
using cplab::MainWindow;
using cplab::testing::allReady;
using cplab::testing::waitFor;

namespace {

// The problem's training set as drawn points (x1, x2, label).
std::vector<DrawnPoint> problemPoints(const MainWindow& w) {
    const cplab::Dataset* data = cplab::trainingSet(*w.parts().controller->problem());
    std::vector<DrawnPoint> points;
    for (int i = 0; data && i < data->size(); ++i)
        points.push_back({data->row(i)(0), data->row(i)(1), data->labels(i)});
    return points;
}

bool allFinished(const MainWindow& w) {
    for (int k = 0; k < w.runCount(); ++k) {
        const cplab::Run* r = w.run(k);
        // problem() is the edited data from the moment of the edit; while the rebase is with the
        // worker, the status is still the previous data's (it may say converged).
        if (!r->ready() || r->rebasing() || !r->status().finished() ||
            r->problem() != w.parts().controller->problemPtr())
            return false;
    }
    return w.runCount() > 0;
}

}  // namespace

class TestPointEditing : public QObject {
    Q_OBJECT

    QCustomPlot* plot_ = nullptr;
    QCPAxisRect* rect_ = nullptr;

    QPoint toPixel(double x, double y) const {
        return QPointF(rect_->axis(QCPAxis::atBottom)->coordToPixel(x),
                       rect_->axis(QCPAxis::atLeft)->coordToPixel(y))
            .toPoint();
    }
    // One pixel's worth of data, the larger of the two axes' (plus rounding to whole pixels).
    double pixelWorth() const {
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        return std::max(x->range().size() / rect_->width(), y->range().size() / rect_->height());
    }
    // A pixel inside the plot at least 20 px from every point of `points`.
    QPoint emptyPixel(const std::vector<DrawnPoint>& points, int skip = 0) const {
        for (int py = rect_->top() + 30; py < rect_->bottom() - 30; py += 9) {
            for (int px = rect_->left() + 30; px < rect_->right() - 30; px += 9) {
                bool free = true;
                for (const DrawnPoint& p : points) {
                    const QPoint at = toPixel(p.x, p.y);
                    if (std::hypot(at.x() - px, at.y() - py) < 20) free = false;
                }
                if (free && skip-- <= 0) return {px, py};
            }
        }
        return {};
    }
    void checkPointsAt(const MainWindow& w, const cplab::DrawnPoints& expected) {
        const auto points = problemPoints(w);
        QCOMPARE(points.size(), expected.size());
        QVERIFY(points == expected);
        QVERIFY(w.parts().pointEditing->pointEditor()->points() == expected);
    }

    // Every run's final bounds equal a cold solve's on the edited problem within the two
    // solvers' tolerances, and its trace is the new solver's alone (iterations 1, 2, ...).
    void checkColdOptimum(const MainWindow& w) {
        for (int k = 0; k < w.runCount(); ++k) {
            const cplab::Run* r = w.run(k);
            QVERIFY2(r->status().usable(), r->status().message.c_str());
            // The trace is the new solver's alone: iterations 1, 2, ... from the restart.
            for (std::size_t i = 0; i < r->trace().size(); ++i)
                QCOMPARE(r->trace()[i].iteration, static_cast<int>(i + 1));
            std::string why;
            auto cold = cplab::makeSolver(r->solver(), *w.parts().controller->problem(),
                                          r->options(), &why);
            QVERIFY2(cold, why.c_str());
            const cplab::Status status = cplab::solve(*cold);
            QVERIFY2(status.usable(), status.message.c_str());
            const double tolerance = r->gapTolerance() + cold->gapTolerance();
            const cplab::IterationRecord& warm = r->history().lastRecord();
            const cplab::IterationRecord& reference = cold->lastRecord();
            QVERIFY2(std::abs(warm.upper - reference.upper) <= tolerance,
                     qPrintable(QString("%1: U %2 vs %3")
                                    .arg(r->label())
                                    .arg(warm.upper)
                                    .arg(reference.upper)));
            QVERIFY2(std::abs(warm.lower - reference.lower) <= tolerance,
                     qPrintable(QString("%1: L %2 vs %3")
                                    .arg(r->label())
                                    .arg(warm.lower)
                                    .arg(reference.lower)));
        }
    }

  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("cplab-test");
        QCoreApplication::setApplicationName("point-editing");
    }

    void drawMoveDeleteUndoAndResolve() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QVERIFY(w.loadDemo("svm_2d"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        cplab::PointEditor* editor = w.parts().pointEditing->pointEditor();
        QVERIFY(editor->editable());
        plot_ = w.findChild<QCustomPlot*>("kernelDecisionPlot");
        QVERIFY(plot_);
        auto* tabs = qobject_cast<QTabWidget*>(plot_->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(plot_);
        QVERIFY(waitFor([&] { return plot_->isVisible() && plot_->graphCount() > 0; }));
        plot_->replot();
        rect_ = plot_->axisRect();
        QCOMPARE(rect_->objectName(), QString("trainingPoints"));

        const cplab::DrawnPoints original = problemPoints(w);
        QCOMPARE(original.size(), std::size_t(250));
        QVERIFY(editor->points() == original);
        QCOMPARE(editor->classCount(), 2);
        QCOMPARE(editor->classLabel(0), 1.0);
        QCOMPARE(editor->classLabel(1), -1.0);
        QSignalSpy messages(w.parts().controller, &cplab::RunController::message);

        // Key 1 and a click: a point of class +1 where the mouse was.
        QTest::keyClick(&w, Qt::Key_1);
        QCOMPARE(editor->currentClass(), 0);
        const QPoint first = emptyPixel(original);
        QVERIFY(!first.isNull());
        QTest::mouseClick(plot_, Qt::LeftButton, {}, first);
        auto points = problemPoints(w);
        QCOMPARE(points.size(), std::size_t(251));
        const double slack = 1.01 * pixelWorth();
        QVERIFY(std::abs(points.back().x -
                         rect_->axis(QCPAxis::atBottom)->pixelToCoord(first.x())) < slack);
        QVERIFY(std::abs(points.back().y - rect_->axis(QCPAxis::atLeft)->pixelToCoord(first.y())) <
                slack);
        QCOMPARE(points.back().label, 1.0);
        const cplab::DrawnPoints afterFirst = points;

        // Key 2 and a click elsewhere: class −1.
        QTest::keyClick(&w, Qt::Key_2);
        QCOMPARE(editor->currentClass(), 1);
        const QPoint second = emptyPixel(points, 40);
        QTest::mouseClick(plot_, Qt::LeftButton, {}, second);
        points = problemPoints(w);
        QCOMPARE(points.size(), std::size_t(252));
        QCOMPARE(points.back().label, -1.0);
        QVERIFY(std::abs(points.back().x -
                         rect_->axis(QCPAxis::atBottom)->pixelToCoord(second.x())) < slack);
        const cplab::DrawnPoints afterSecond = points;

        // A drag of an original point (in steps: many moves, one undo command).
        const int dragged = 17;
        const QPoint from = toPixel(points[dragged].x, points[dragged].y);
        const QPoint to = emptyPixel(points, 80);
        QTest::mousePress(plot_, Qt::LeftButton, {}, from);
        for (int k = 1; k <= 10; ++k) {
            QMouseEvent move(QEvent::MouseMove, QPointF(from + (to - from) * k / 10),
                             plot_->mapToGlobal(QPointF(from + (to - from) * k / 10)), Qt::NoButton,
                             Qt::LeftButton, {});
            QApplication::sendEvent(plot_, &move);
        }
        QTest::mouseRelease(plot_, Qt::LeftButton, {}, to);
        points = problemPoints(w);
        QCOMPARE(points.size(), std::size_t(252));
        QVERIFY(std::abs(points[dragged].x - rect_->axis(QCPAxis::atBottom)->pixelToCoord(to.x())) <
                slack);
        QVERIFY(std::abs(points[dragged].y - rect_->axis(QCPAxis::atLeft)->pixelToCoord(to.y())) <
                slack);
        QCOMPARE(points[dragged].label, afterSecond[dragged].label);
        const cplab::DrawnPoints afterDrag = points;

        // A right-click deletes the point under the mouse (the first one drawn).
        const DrawnPoint gone = afterFirst.back();
        QTest::mouseClick(plot_, Qt::RightButton, {}, toPixel(gone.x, gone.y));
        points = problemPoints(w);
        QCOMPARE(points.size(), std::size_t(251));
        QVERIFY(std::find(points.begin(), points.end(), gone) == points.end());
        const cplab::DrawnPoints afterDelete = points;

        // Undo restores each exact set, redo re-applies; the whole drag is one command.
        QUndoStack* undo = editor->undoStack();
        QCOMPARE(undo->count(), 4);
        undo->undo();
        checkPointsAt(w, afterDrag);
        undo->undo();
        checkPointsAt(w, afterSecond);
        undo->undo();
        checkPointsAt(w, afterFirst);
        undo->undo();
        checkPointsAt(w, original);
        for (const auto* expected : {&afterFirst, &afterSecond, &afterDrag, &afterDelete}) {
            undo->redo();
            checkPointsAt(w, *expected);
        }
        // Ctrl+Z goes through the Edit menu.
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        checkPointsAt(w, afterDrag);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        checkPointsAt(w, afterDelete);
        QVERIFY(!w.parts().controller->problem()->origin.points.empty());

        // Every run re-solves on the newest set by itself, and reaches the cold optimum.
        QVERIFY(waitFor([&] { return allFinished(w); }, 60000));
        checkColdOptimum(w);
        if (QTest::currentTestFailed()) return;
        // The log said how each run restarted.
        bool told = false;
        for (const QList<QVariant>& m : messages) {
            const QString text = m.at(0).toString();
            if (text.contains("on the edited points: warm start") ||
                text.contains("on the edited points: restarted cold"))
                told = true;
        }
        QVERIFY(told);
    }

    void otherDataCannotBeDrawn() {
        MainWindow w;
        QVERIFY(w.loadDemo("ionosphere_features"));  // 34 features
        QVERIFY(!w.parts().pointEditing->pointEditor()->editable());
        QVERIFY(!w.parts().pointEditing->pointEditor()->whyNotEditable().isEmpty());
        auto* bar = w.findChild<QToolBar*>("drawToolBar");
        QVERIFY(bar);
        for (QAction* action : bar->actions()) {
            QVERIFY(!action->isEnabled());
            QCOMPARE(action->toolTip(), w.parts().pointEditing->pointEditor()->whyNotEditable());
        }
        QVERIFY(w.loadDemo("kelley"));
        QVERIFY(!w.parts().pointEditing->pointEditor()->editable());
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        // The linear family's 2-D set: OCAS and BMRM re-solve on an added point.
        QVERIFY(w.loadDemo("ocas_vs_bmrm"));
        QVERIFY(waitFor([&] { return allReady(w); }));
        QVERIFY(w.parts().pointEditing->pointEditor()->editable());
        // A click on the linear view's data panel adds the point there.
        QCPAxisRect* rect = nullptr;
        for (QCPAxisRect* r : w.currentView()->findChildren<QCPAxisRect*>("trainingPoints"))
            rect = r;
        QVERIFY(rect);
        QVERIFY(waitFor([&] { return rect->property("showsTrainingPoints").toBool(); }));
        rect->parentPlot()->replot();
        rect_ = rect;
        QTest::keyClick(&w, Qt::Key_2);
        QTest::mouseClick(rect->parentPlot(), Qt::LeftButton, {}, toPixel(0.0, 0.2));
        const auto points = problemPoints(w);
        QCOMPARE(points.size(), std::size_t(251));
        QVERIFY(std::abs(points.back().x) < 1.01 * pixelWorth());
        QVERIFY(std::abs(points.back().y - 0.2) < 1.01 * pixelWorth());
        QCOMPARE(points.back().label, -1.0);
        QVERIFY(waitFor([&] { return allFinished(w); }, 60000));
        checkColdOptimum(w);
        QVERIFY(w.loadDemo("slmc_2d"));
        QVERIFY(w.parts().pointEditing->pointEditor()->editable());
        QCOMPARE(w.parts().pointEditing->pointEditor()->points().size(), std::size_t(250));
    }

    void savesPointsAsLibsvm() {
        MainWindow w;
        QVERIFY(w.loadDemo("svm_2d"));
        cplab::PointEditor* editor = w.parts().pointEditing->pointEditor();
        editor->addPoint({0.25, 0.5});
        QTemporaryDir dir;
        const QString path = dir.filePath("drawn.libsvm");
        QString why;
        QVERIFY2(editor->savePoints(path, &why), qPrintable(why));
        const cplab::Dataset read = cplab::loadLibsvm(path.toStdString());
        QCOMPARE(read.size(), 251);
        QCOMPARE(read.row(250)(0), 0.25);
        QCOMPARE(read.row(250)(1), 0.5);
        QCOMPARE(read.labels(250), 1.0);
        // The saved file opens as a problem with those points; saving over it is refused (an
        // output that is an input).
        QSignalSpy loaded(&w, &MainWindow::dataFileLoaded);
        w.openDataFile(path, {}, "kernel");
        QVERIFY(waitFor([&] { return !loaded.isEmpty(); }));
        QVERIFY2(loaded.front().at(0).toBool(), qPrintable(loaded.front().at(1).toString()));
        QVERIFY(w.parts().pointEditing->pointEditor()->editable());
        QCOMPARE(w.parts().pointEditing->pointEditor()->points().size(), std::size_t(251));
        const QByteArray before = [&] {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }();
        w.parts().pointEditing->pointEditor()->removePoint(0);
        QVERIFY(!w.parts().pointEditing->pointEditor()->savePoints(path, &why));
        QVERIFY2(why.contains(path) && why.contains("input"), qPrintable(why));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
    }
};

QTEST_MAIN(TestPointEditing)
#include "test_point_editing.moc"
