// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's drawn-points entries (main_window.h, point_editor.h): Edit › Undo, Redo,
// Clear points, Draw points and the class to add (keys 1–3), the Draw tool bar with the same
// actions, and File › Save points as LIBSVM.
#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QToolBar>
#include <QUndoStack>

#include "family_view.h"
#include "log_panel.h"
#include "main_window.h"
#include "plot_style.h"
#include "point_editor.h"

namespace cplab {

namespace {

// A disc of the class's colour in the plots: +1 navy, −1 crimson, a third class green.
QIcon classIcon(int k) {
    const QColor colors[] = {widgets::colors::kModel, widgets::colors::kCandidate,
                             widgets::colors::kBest};
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colors[k % 3]);
    painter.drawEllipse(QRectF(3, 3, 10, 10));
    return QIcon(pixmap);
}

}  // namespace

QAction* MainWindow::addSavePointsAction(QMenu* file) {
    // File › Save points, after the exports.
    auto* save = new QAction(tr("Save &points as LIBSVM..."), this);
    const QList<QAction*> fileActions = file->actions();
    file->insertAction(fileActions.at(fileActions.size() - 2), save);
    connect(save, &QAction::triggered, this, [this] {
        const QString suggested =
            (problem() ? QString::fromStdString(problem()->info.name) : QString("points")) +
            "_points.libsvm";
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save points"), inLastFolder("points", suggested),
                                         tr("LIBSVM text (*.libsvm *.svm *.txt)"));
        if (path.isEmpty()) return;
        setLastFolder("points", path);
        QString why;
        if (pointEditor_->savePoints(path, &why)) {
            log_->appendMessage(
                tr("saved %1 points to %2").arg(pointEditor_->points().size()).arg(path));
        } else {
            log_->appendError(why);
            QMessageBox::warning(this, tr("Save points failed"), why);
        }
    });
    return save;
}

void MainWindow::buildEditMenu(QMenu* file) {
    pointEditor_ = new PointEditor(controller_, this);
    for (const auto& [family, view] : views_)
        pointEditor_->attach(view);
    connect(pointEditor_, &PointEditor::message, this, [this](const QString& text, bool error) {
        if (error) {
            log_->appendError(text);
        } else {
            log_->appendMessage(text);
        }
    });
    QUndoStack* undo = pointEditor_->undoStack();

    QAction* save = addSavePointsAction(file);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName("editMenu");
    QAction* undoAction = undo->createUndoAction(this, tr("&Undo"));
    undoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction* redoAction = undo->createRedoAction(this, tr("&Redo"));
    redoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    edit->addAction(undoAction);
    edit->addAction(redoAction);
    edit->addSeparator();
    QAction* clear = edit->addAction(tr("&Clear points"), pointEditor_, &PointEditor::clearPoints);
    QAction* draw = edit->addAction(tr("&Draw points with the mouse"));
    draw->setIconText(tr("Draw points"));
    draw->setCheckable(true);
    draw->setChecked(pointEditor_->drawing());
    connect(draw, &QAction::toggled, pointEditor_, &PointEditor::setDrawing);

    auto* bar = addToolBar(tr("Draw"));
    bar->setObjectName("drawToolBar");
    bar->addAction(draw);
    auto* classes = new QActionGroup(this);
    std::vector<QAction*> classActions;
    for (int k = 0; k < PointEditor::kMaxClasses; ++k) {
        QAction* action = edit->addAction(classIcon(k), QString());
        action->setShortcut(QKeySequence(Qt::Key_1 + k));
        action->setCheckable(true);
        classes->addAction(action);
        bar->addAction(action);
        connect(action, &QAction::triggered, pointEditor_,
                [this, k] { pointEditor_->setCurrentClass(k); });
        classActions.push_back(action);
    }
    // Enabled, named and told why not for the problem shown.
    const auto refresh = [this, save, clear, draw, classActions] {
        const bool on = pointEditor_->editable();
        const QString why = pointEditor_->whyNotEditable();
        for (QAction* a : {save, clear, draw}) {
            a->setEnabled(on);
            a->setToolTip(on ? a->text().remove('&') : why);
        }
        for (int k = 0; k < static_cast<int>(classActions.size()); ++k) {
            QAction* a = classActions[static_cast<std::size_t>(k)];
            const bool has = on && k < std::max(1, pointEditor_->classCount());
            a->setEnabled(has);
            a->setText(pointEditor_->classCount() > 0
                           ? tr("%1: add %2").arg(k + 1).arg(pointEditor_->className(k))
                           : tr("%1: add (x, y)").arg(k + 1));
            a->setToolTip(has  ? a->text()
                          : on ? tr("The data have %1 classes.").arg(pointEditor_->classCount())
                               : why);
            a->setChecked(k == pointEditor_->currentClass());
        }
    };
    connect(pointEditor_, &PointEditor::editableChanged, this, refresh);
    connect(pointEditor_, &PointEditor::currentClassChanged, this, refresh);
    refresh();
}

}  // namespace cplab
