// SPDX-License-Identifier: GPL-3.0-or-later
#include "point_editing.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QToolBar>
#include <QUndoStack>

#include "centre_area.h"
#include "family_view.h"
#include "log_panel.h"
#include "plot_style.h"
#include "point_editor.h"
#include "recent_files.h"
#include "run_controller.h"
#include "window_context.h"

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

QAction* PointEditing::addSavePointsAction(QMenu* file) {
    // File › Save points, after the exports.
    auto* save = new QAction(tr("Save &points as LIBSVM..."), ctx_.window);
    const QList<QAction*> fileActions = file->actions();
    file->insertAction(fileActions.at(fileActions.size() - 2), save);
    connect(save, &QAction::triggered, this, &PointEditing::savePointsDialog);
    return save;
}

void PointEditing::savePointsDialog() {
    const ProblemInstance* problem = ctx_.controller->problem();
    const QString suggested =
        (problem ? QString::fromStdString(problem->info.name) : QString("points")) +
        "_points.libsvm";
    const QString path = QFileDialog::getSaveFileName(ctx_.window, tr("Save points"),
                                                      inLastFolder("points", suggested),
                                                      tr("LIBSVM text (*.libsvm *.svm *.txt)"));
    if (path.isEmpty()) return;
    setLastFolder("points", path);
    QString why;
    if (pointEditor_->savePoints(path, &why)) {
        ctx_.log->appendMessage(
            tr("saved %1 points to %2").arg(pointEditor_->points().size()).arg(path));
    } else {
        ctx_.log->appendError(why);
        QMessageBox::warning(ctx_.window, tr("Save points failed"), why);
    }
}

PointEditing::PointEditing(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {
    pointEditor_ = new PointEditor(ctx.controller, ctx.window);
    for (const auto& [family, view] : ctx.centre->views())
        pointEditor_->attach(view);
    connect(pointEditor_, &PointEditor::message, this, [this](const QString& text, bool error) {
        if (error) {
            ctx_.log->appendError(text);
        } else {
            ctx_.log->appendMessage(text);
        }
    });
}

void PointEditing::buildEditMenu(QMenu* file) {
    QUndoStack* undo = pointEditor_->undoStack();

    QAction* save = addSavePointsAction(file);

    QMenu* edit = ctx_.window->menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName("editMenu");
    QAction* undoAction = undo->createUndoAction(ctx_.window, tr("&Undo"));
    undoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction* redoAction = undo->createRedoAction(ctx_.window, tr("&Redo"));
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

    auto* bar = ctx_.window->addToolBar(tr("Draw"));
    bar->setObjectName("drawToolBar");
    bar->addAction(draw);
    auto* classes = new QActionGroup(ctx_.window);
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
