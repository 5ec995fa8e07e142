// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's exports: the view's plot, the whole view, the bounds plot and its data, the
// selected run's trace, the runs table, and the timeline as an animation; the File menu's
// entries for them and their dialogs.
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>

#include "animation_export.h"
#include "bounds_plot.h"
#include "family_view.h"
#include "figure_export.h"
#include "log_panel.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "plot_style.h"
#include "race_tables.h"
#include "run.h"

namespace cplab {

namespace {

// Writes `text` to `path` atomically; false with *why naming the path.
bool writeText(const QString& path, const std::string& text, QString* why) {
    if (const auto failure = writeFileAtomically(path.toStdString(), text)) {
        if (why) *why = path + ": " + QString::fromStdString(*failure);
        return false;
    }
    return true;
}

// The export dialog's file types and default suffix of each kind of export.
struct ExportKind {
    const char* what;
    const char* filter;
    const char* suffix;
};
constexpr ExportKind kExportKinds[] = {
    {"model", "SVG (*.svg);;PNG image (*.png);;PDF (*.pdf)", "_model.svg"},
    {"view", "SVG (*.svg);;PNG image (*.png);;PDF (*.pdf)", "_view.svg"},
    {"bounds", "SVG (*.svg);;PNG image (*.png);;PDF (*.pdf)", "_bounds.svg"},
    {"race data", "CSV (*.csv);;pgfplots (*.tex)", "_bounds.csv"},
    {"trace", "CSV (*.csv)", "_trace.csv"},
    {"runs", "CSV (*.csv)", "_runs.csv"},
};

}  // namespace

void MainWindow::addExportActions(QMenu* file) {
    file->addAction(tr("Export &model plot (SVG/PNG/PDF)..."), this,
                    [this] { exportDialog("model"); });
    file->addAction(tr("Export &whole view (SVG/PNG/PDF)..."), this,
                    [this] { exportDialog("view"); });
    file->addAction(tr("Export &bounds plot (SVG/PNG/PDF)..."), this,
                    [this] { exportDialog("bounds"); });
    file->addAction(tr("Export bounds &data (CSV/pgfplots)..."), this,
                    [this] { exportDialog("race data"); });
    file->addAction(tr("Export &trace of the selected run (CSV)..."), this,
                    [this] { exportDialog("trace"); });
    file->addAction(tr("Export r&uns table (CSV)..."), this, [this] { exportDialog("runs"); });
    file->addAction(tr("Export &animation (GIF/PNG frames)..."), this,
                    [this] { exportAnimationDialog(); });
}

bool MainWindow::exportModelPlot(const QString& path, QString* why) {
    widgets::FamilyView* view = currentView();
    if (!view) {
        if (why) *why = tr("no problem shown");
        return false;
    }
    return view->exportImage(path, why);
}

bool MainWindow::exportWholeView(const QString& path, QString* why) {
    widgets::FamilyView* view = currentView();
    if (!view) {
        if (why) *why = tr("no problem shown");
        return false;
    }
    return widgets::exportPages(view->pages(), path, why);
}

bool MainWindow::exportBoundsPlot(const QString& path, QString* why) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "csv" && suffix != "tex") {
        boundsPlot_->replotNow();
        return widgets::exportPlot(boundsPlot_->plot(), path, why);
    }
    // Every run's whole trace, as the bounds plot draws it.
    std::vector<widgets::RaceSeries> runs;
    for (int k = 0; k < runCount(); ++k) {
        const Run* r = run(k);
        if (r->ready()) runs.push_back({r->label(), r->color(), r->trace()});
    }
    const widgets::RaceAxes axes{boundsPlot_->xAxis(), boundsPlot_->upperLabel(),
                                 boundsPlot_->lowerLabel()};
    return writeText(path, suffix == "csv" ? raceCsv(runs, axes) : racePgfplots(runs, axes), why);
}

bool MainWindow::exportSelectedTrace(const QString& path, QString* why) {
    Run* r = selectedRun();
    if (!r) {
        if (why) *why = tr("no run selected");
        return false;
    }
    return r->exportTrace(path, why);
}

bool MainWindow::exportRunsTable(const QString& path, QString* why) {
    // The runs' labels in full (the table elides their options); rows are the runs in order.
    const auto fullLabel = [this](int row, int column) {
        return column == kColRun && row < runCount() ? run(row)->label() : QString();
    };
    return writeText(path, widgets::tableCsv(*runTable_, fullLabel), why);
}

AnimationExport* MainWindow::exportAnimation(const AnimationSettings& settings, QString* why) {
    const Run* r = selectedRun();
    if (!r || !r->ready() || r->history().empty()) {
        if (why) *why = settings.path + ": " + tr("no run with snapshots is selected");
        return nullptr;
    }
    QString problem = checkAnimationSettings(settings);
    // An output that is an input (or write-protected) is refused before anything is drawn.
    widgets::AnimationTarget target;
    if (problem.isEmpty() && widgets::animationTarget(settings.path, &target, why)) {
        const QString first = target == widgets::AnimationTarget::Gif
                                  ? settings.path
                                  : widgets::framePath(settings.path, 1);
        if (const auto refusal = outputProblem(first.toStdString()))
            problem = first + ": " + QString::fromStdString(*refusal);
    }
    std::vector<int> iterations;
    for (const SnapshotPtr& snapshot : r->history()) {
        const int at = snapshot->record.iteration;
        if (at >= settings.first && (settings.last < 0 || at <= settings.last))
            iterations.push_back(at);
    }
    if (problem.isEmpty() && iterations.empty())
        problem = settings.path + ": " +
                  tr("no kept snapshot of %1 in iterations %2 to %3")
                      .arg(r->label())
                      .arg(settings.first)
                      .arg(settings.last);
    if (!problem.isEmpty()) {
        if (why) *why = problem;
        return nullptr;
    }
    QWidget* area = settings.viewOnly ? static_cast<QWidget*>(currentView()) : centralWidget();
    auto* job = new AnimationExport(this, area, std::move(iterations), settings);
    connect(job, &AnimationExport::finished, job, &QObject::deleteLater);
    // Started from the event loop: the caller connects to finished() first.
    QTimer::singleShot(0, job, &AnimationExport::start);
    return job;
}

void MainWindow::exportDialog(const QString& what) {
    const ExportKind* kind = &kExportKinds[0];
    for (const ExportKind& k : kExportKinds) {
        if (what == k.what) kind = &k;
    }
    QString suggested = problem() ? QString::fromStdString(problem()->info.name) : "cplab";
    suggested += kind->suffix;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(what), inLastFolder("export", suggested), tr(kind->filter));
    if (path.isEmpty()) return;
    setLastFolder("export", path);
    QString why;
    bool ok = false;
    if (what == "trace") {
        ok = exportSelectedTrace(path, &why);
    } else if (what == "runs") {
        ok = exportRunsTable(path, &why);
    } else if (what == "view") {
        ok = exportWholeView(path, &why);
    } else if (what == "model") {
        ok = exportModelPlot(path, &why);
    } else {
        ok = exportBoundsPlot(path, &why);
    }
    if (ok) {
        log_->appendMessage(tr("exported %1").arg(path));
    } else {
        log_->appendError(why);
        QMessageBox::warning(this, tr("Export failed"), why);
    }
}

void MainWindow::exportAnimationDialog() {
    const Run* r = selectedRun();
    if (!r || !r->ready()) {
        QMessageBox::information(this, tr("Export animation"), tr("Select a run first."));
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export animation of %1").arg(r->label()));
    auto* form = new QFormLayout(&dialog);
    auto* format = new QComboBox;
    format->addItems({tr("Animated GIF"), tr("PNG frames (into a folder)")});
    auto* first = new QSpinBox;
    auto* last = new QSpinBox;
    for (QSpinBox* box : {first, last})
        box->setRange(0, r->iteration());
    last->setValue(r->iteration());
    auto* fps = new QDoubleSpinBox;
    fps->setRange(0.1, 50);
    fps->setValue(4);
    auto* hold = new QDoubleSpinBox;
    hold->setRange(0, 60);
    hold->setValue(2);
    hold->setSuffix(tr(" s"));
    auto* area = new QComboBox;
    area->addItems({tr("Centre: view, timeline and bounds"), tr("The family view only")});
    auto* scale = new QComboBox;
    scale->addItems({"100 %", "75 %", "50 %"});
    form->addRow(tr("Format"), format);
    form->addRow(tr("From iteration"), first);
    form->addRow(tr("To iteration"), last);
    form->addRow(tr("Frames per second"), fps);
    form->addRow(tr("Hold the last frame"), hold);
    form->addRow(tr("Area"), area);
    form->addRow(tr("Size"), scale);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;

    AnimationSettings settings;
    const QString name = problem() ? QString::fromStdString(problem()->info.name) : "cplab";
    if (format->currentIndex() == 0) {
        settings.path = QFileDialog::getSaveFileName(this, tr("Export animation"),
                                                     inLastFolder("export", name + ".gif"),
                                                     tr("Animated GIF (*.gif)"));
    } else {
        const QString folder = QFileDialog::getExistingDirectory(
            this, tr("Folder for the PNG frames"), lastFolder("export"));
        if (!folder.isEmpty()) settings.path = folder + '/';
    }
    if (settings.path.isEmpty()) return;
    setLastFolder("export", settings.path.endsWith('/') ? settings.path + "x" : settings.path);
    settings.first = first->value();
    settings.last = std::max(first->value(), last->value());
    settings.framesPerSecond = fps->value();
    settings.holdSeconds = hold->value();
    settings.viewOnly = area->currentIndex() == 1;
    settings.scale = 1.0 - 0.25 * scale->currentIndex();
    startAnimationExport(settings);
}

void MainWindow::startAnimationExport(const AnimationSettings& settings) {
    QString why;
    AnimationExport* job = exportAnimation(settings, &why);
    if (!job) {
        log_->appendError(why);
        QMessageBox::warning(this, tr("Export failed"), why);
        return;
    }
    auto* progress =
        new QProgressDialog(tr("Drawing and encoding %n frame(s)...", nullptr, job->frameCount()),
                            tr("Cancel"), 0, 2 * job->frameCount(), this);
    progress->setWindowTitle(tr("Export animation"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAutoReset(false);
    progress->setAutoClose(false);
    connect(job, &AnimationExport::progressed, progress, &QProgressDialog::setValue);
    connect(progress, &QProgressDialog::canceled, job, &AnimationExport::cancel);
    connect(job, &AnimationExport::finished, this,
            [this, progress](bool ok, const QString& message) {
                const bool byUser = progress->wasCanceled();
                progress->deleteLater();
                if (ok) {
                    log_->appendMessage(tr("exported %1").arg(message));
                } else {
                    log_->appendError(message);
                    if (!byUser) QMessageBox::warning(this, tr("Export failed"), message);
                }
            });
}

}  // namespace cplab
