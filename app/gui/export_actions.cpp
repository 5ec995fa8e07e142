// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_actions.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <optional>

#include "animation_export.h"
#include "bounds_plot.h"
#include "centre_area.h"
#include "core/output_file.h"
#include "family_view.h"
#include "figure_export.h"
#include "log_panel.h"
#include "playback.h"
#include "plot_style.h"
#include "race_tables.h"
#include "recent_files.h"
#include "run.h"
#include "run_controller.h"
#include "setup_panel.h"
#include "window_context.h"

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

// The Export animation dialog's answer for run `r`: GIF or PNG frames, and the settings but
// the path (asked for next); nothing when cancelled.
struct AnimationChoice {
    bool gif = true;
    AnimationSettings settings;
};

std::optional<AnimationChoice> askAnimation(QWidget* parent, const Run* r, const QString& name) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export animation of %1").arg(name));
    auto* form = new QFormLayout(&dialog);
    auto* format = new QComboBox;
    format->addItems({QObject::tr("Animated GIF"), QObject::tr("PNG frames (into a folder)")});
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
    hold->setSuffix(QObject::tr(" s"));
    auto* area = new QComboBox;
    area->addItems(
        {QObject::tr("Centre: view, timeline and bounds"), QObject::tr("The family view only")});
    auto* scale = new QComboBox;
    scale->addItems({"100 %", "75 %", "50 %"});
    form->addRow(QObject::tr("Format"), format);
    form->addRow(QObject::tr("From iteration"), first);
    form->addRow(QObject::tr("To iteration"), last);
    form->addRow(QObject::tr("Frames per second"), fps);
    form->addRow(QObject::tr("Hold the last frame"), hold);
    form->addRow(QObject::tr("Area"), area);
    form->addRow(QObject::tr("Size"), scale);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    AnimationChoice choice;
    choice.gif = format->currentIndex() == 0;
    AnimationSettings& settings = choice.settings;
    settings.first = first->value();
    settings.last = std::max(first->value(), last->value());
    settings.framesPerSecond = fps->value();
    settings.holdSeconds = hold->value();
    settings.viewOnly = area->currentIndex() == 1;
    settings.scale = 1.0 - 0.25 * scale->currentIndex();
    return choice;
}

}  // namespace

ExportActions::ExportActions(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {}

void ExportActions::addFileActions(QMenu* file) {
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

bool ExportActions::exportModelPlot(const QString& path, QString* why) {
    widgets::FamilyView* view = ctx_.centre->current();
    if (!view) {
        if (why) *why = tr("no problem shown");
        return false;
    }
    return view->exportImage(path, why);
}

bool ExportActions::exportWholeView(const QString& path, QString* why) {
    widgets::FamilyView* view = ctx_.centre->current();
    if (!view) {
        if (why) *why = tr("no problem shown");
        return false;
    }
    return widgets::exportPages(view->pages(), path, why);
}

bool ExportActions::exportBoundsPlot(const QString& path, QString* why) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "csv" && suffix != "tex") {
        ctx_.boundsPlot->replotNow();
        return widgets::exportPlot(ctx_.boundsPlot->plot(), path, why);
    }
    // Every run's whole trace, as the bounds plot draws it.
    std::vector<widgets::RaceSeries> runs;
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const Run* r = ctx_.controller->run(k);
        if (r->ready())
            runs.push_back({ctx_.controller->runLegend(r->id()), r->color(), r->trace()});
    }
    const widgets::RaceAxes axes{ctx_.boundsPlot->xAxis(), ctx_.boundsPlot->upperLabel(),
                                 ctx_.boundsPlot->lowerLabel()};
    return writeText(path, suffix == "csv" ? raceCsv(runs, axes) : racePgfplots(runs, axes), why);
}

bool ExportActions::exportSelectedTrace(const QString& path, QString* why) {
    Run* r = ctx_.setup->selectedRun();
    if (!r) {
        if (why) *why = tr("no run selected");
        return false;
    }
    return r->exportTrace(path, why);
}

bool ExportActions::exportRunsTable(const QString& path, QString* why) {
    // The runs' labels in full (the table elides their options); rows are the runs in order.
    const auto fullLabel = [this](int row, int column) {
        return column == kColRun && row < ctx_.controller->runCount()
                   ? ctx_.controller->runLabel(ctx_.controller->run(row)->id())
                   : QString();
    };
    return writeText(path, widgets::tableCsv(*ctx_.setup->runTable(), fullLabel), why);
}

namespace {

// Why an animation of `frames` frames of `area` cannot be made, before any is drawn: a frame
// too large for the target or for memory (the sizes named), or a folder holding frames of the
// pattern that the export would not replace (widgets::foreignFrames). Empty when it can.
QString animationRefusal(const QWidget& area, const AnimationSettings& settings,
                         widgets::AnimationTarget target, int frames) {
    const QSize grabbed = area.size() * area.devicePixelRatioF();
    const QSize frame = settings.scale < 1 ? grabbed * settings.scale : grabbed;
    if (const QString why = widgets::animationSizeProblem(target, grabbed, frame); !why.isEmpty())
        return settings.path + ": " + why;
    if (target == widgets::AnimationTarget::PngFrames)
        return widgets::foreignFrames(settings.path, frames);
    return {};
}

}  // namespace

AnimationExport* ExportActions::exportAnimation(const AnimationSettings& settings, QString* why) {
    const Run* r = ctx_.setup->selectedRun();
    if (!r || !r->ready() || r->history().snapshots().empty()) {
        if (why) *why = settings.path + ": " + tr("no run with snapshots is selected");
        return nullptr;
    }
    QString problem = checkAnimationSettings(settings);
    // An output that is an input (or write-protected) is refused before anything is drawn.
    widgets::AnimationTarget target = widgets::AnimationTarget::Gif;
    if (problem.isEmpty() && widgets::animationTarget(settings.path, &target, why)) {
        const QString first = target == widgets::AnimationTarget::Gif
                                  ? settings.path
                                  : widgets::framePath(settings.path, 1);
        if (const auto refusal = outputProblem(first.toStdString()))
            problem = first + ": " + QString::fromStdString(*refusal);
    }
    std::vector<int> iterations;
    for (const SnapshotPtr& snapshot : r->history().snapshots()) {
        const int at = snapshot->record.iteration;
        if (at >= settings.first && (settings.last < 0 || at <= settings.last))
            iterations.push_back(at);
    }
    if (problem.isEmpty() && iterations.empty())
        problem = settings.path + ": " +
                  tr("no kept snapshot of %1 in iterations %2 to %3")
                      .arg(ctx_.controller->runLabel(r->id()))
                      .arg(settings.first)
                      .arg(settings.last);
    QWidget* area = settings.viewOnly ? static_cast<QWidget*>(ctx_.centre->current())
                                      : ctx_.window->centralWidget();
    if (problem.isEmpty())
        problem = animationRefusal(*area, settings, target, static_cast<int>(iterations.size()));
    if (!problem.isEmpty()) {
        if (why) *why = problem;
        return nullptr;
    }
    auto* job =
        new AnimationExport(ctx_.playback, ctx_.boundsPlot, area, std::move(iterations), settings);
    connect(job, &AnimationExport::finished, job, &QObject::deleteLater);
    // Started from the event loop: the caller connects to finished() first.
    QTimer::singleShot(0, job, &AnimationExport::start);
    return job;
}

QString ExportActions::problemName(const QString& fallback) const {
    const ProblemInstance* problem = ctx_.controller->problem();
    return problem ? QString::fromStdString(problem->info.name) : fallback;
}

void ExportActions::exportDialog(const QString& what) {
    const ExportKind* kind = &kExportKinds[0];
    for (const ExportKind& k : kExportKinds) {
        if (what == k.what) kind = &k;
    }
    QString suggested = problemName("cplab");
    suggested += kind->suffix;
    const QString path =
        QFileDialog::getSaveFileName(ctx_.window, tr("Export %1").arg(what),
                                     inLastFolder("export", suggested), tr(kind->filter));
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
        ctx_.log->appendMessage(tr("exported %1").arg(path));
    } else {
        ctx_.log->appendError(why);
        QMessageBox::warning(ctx_.window, tr("Export failed"), why);
    }
}

void ExportActions::exportAnimationDialog() {
    const Run* r = ctx_.setup->selectedRun();
    if (!r || !r->ready()) {
        QMessageBox::information(ctx_.window, tr("Export animation"), tr("Select a run first."));
        return;
    }
    const std::optional<AnimationChoice> choice =
        askAnimation(ctx_.window, r, ctx_.controller->runLabel(r->id()));
    if (!choice) return;
    AnimationSettings settings = choice->settings;
    const QString name = problemName("cplab");
    if (choice->gif) {
        settings.path = QFileDialog::getSaveFileName(ctx_.window, tr("Export animation"),
                                                     inLastFolder("export", name + ".gif"),
                                                     tr("Animated GIF (*.gif)"));
    } else {
        const QString folder = QFileDialog::getExistingDirectory(
            ctx_.window, tr("Folder for the PNG frames"), lastFolder("export"));
        if (!folder.isEmpty()) settings.path = folder + '/';
    }
    if (settings.path.isEmpty()) return;
    setLastFolder("export", settings.path.endsWith('/') ? settings.path + "x" : settings.path);
    startAnimationExport(settings);
}

void ExportActions::startAnimationExport(const AnimationSettings& settings) {
    QString why;
    AnimationExport* job = exportAnimation(settings, &why);
    if (!job) {
        ctx_.log->appendError(why);
        QMessageBox::warning(ctx_.window, tr("Export failed"), why);
        return;
    }
    auto* progress =
        new QProgressDialog(tr("Drawing and encoding %n frame(s)...", nullptr, job->frameCount()),
                            tr("Cancel"), 0, 2 * job->frameCount(), ctx_.window);
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
                    ctx_.log->appendMessage(tr("exported %1").arg(message));
                } else {
                    ctx_.log->appendError(message);
                    if (!byUser) QMessageBox::warning(ctx_.window, tr("Export failed"), message);
                }
            });
}

}  // namespace cplab
