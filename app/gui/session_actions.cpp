// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_actions.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTabWidget>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "centre_area.h"
#include "data/test_split.h"
#include "family_view.h"
#include "file_loader.h"
#include "log_panel.h"
#include "playback.h"
#include "presentation.h"
#include "recent_files.h"
#include "run.h"
#include "run_controller.h"
#include "session.h"
#include "setup_panel.h"
#include "snapshot_codec.h"
#include "student_view.h"
#include "timeline_bar.h"
#include "window_context.h"

namespace cplab {

namespace {

const char* const kSessionFilter = "cplab sessions (*.cplab)";

// The bounds plot's x axes by the words sessions store.
struct AxisWord {
    widgets::XAxisKind kind;
    const char* word;
};
constexpr AxisWord kAxisWords[] = {{widgets::XAxisKind::Iteration, "iteration"},
                                   {widgets::XAxisKind::Seconds, "seconds"},
                                   {widgets::XAxisKind::OracleCalls, "oracle_calls"},
                                   {widgets::XAxisKind::Passes, "passes"},
                                   {widgets::XAxisKind::PathParameter, "path"},
                                   {widgets::XAxisKind::LogPathParameter, "log_path"}};

std::vector<double> plotRange(const QCustomPlot* plot) {
    if (!plot) return {};
    return {plot->xAxis->range().lower, plot->xAxis->range().upper, plot->yAxis->range().lower,
            plot->yAxis->range().upper};
}

void setPlotRange(QCustomPlot* plot, const std::vector<double>& range) {
    if (!plot || range.size() != 4) return;
    plot->xAxis->setRange(range[0], range[1]);
    plot->yAxis->setRange(range[2], range[3]);
    plot->replot();
}

QTabWidget* pagesOf(QWidget* view) {
    return view ? view->findChild<QTabWidget*>() : nullptr;
}

}  // namespace

// ---- sessions -------------------------------------------------------------------------------

SessionActions::SessionActions(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {
    ctx.window->installEventFilter(this);
    // A new problem is a new, unnamed session; any step is work a close would lose.
    connect(ctx.controller, &RunController::problemChanged, this, [this] {
        sessionPath_.clear();
        setModified(false);
        emit modifiedChanged();
    });
    connect(ctx.controller, &RunController::recordsAppended, this, [this] { setModified(true); });
    // An edited story or student view is work too, with or without steps.
    connect(ctx.presentation, &Presentation::lessonEdited, this, [this] {
        lessonEdited_ = true;
        setModified(true);
        emit modifiedChanged();
    });
}

void SessionActions::setModified(bool modified) {
    if (!modified) lessonEdited_ = false;
    if (modified_ == modified) return;
    modified_ = modified;
    emit modifiedChanged();
}

QString SessionActions::sessionName() const {
    if (!sessionPath_.isEmpty()) return QFileInfo(sessionPath_).fileName();
    if (const DemoInfo* demo = ctx_.presentation->demo()) return QString::fromStdString(demo->name);
    const ProblemInstance* p = ctx_.controller->problem();
    return p ? QString::fromStdString(p->info.name) : QString();
}

bool SessionActions::unsavedWork() const {
    if (!modified_ || scripted_) return false;
    if (lessonEdited_) return true;
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        if (ctx_.controller->run(k)->iteration() > 0) return true;
    }
    return false;
}

bool SessionActions::confirmClose() {
    if (!unsavedWork()) return true;
    QMessageBox box(QMessageBox::Question, tr("Save the session?"),
                    tr("The runs of %1 have made steps that are not saved. Save the session "
                       "before closing?")
                        .arg(sessionName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, ctx_.window);
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
        case QMessageBox::Discard:
            return true;
        case QMessageBox::Save:
            break;
        default:
            return false;
    }
    if (sessionPath_.isEmpty()) return saveSessionDialog();
    QString why;
    if (saveSession(sessionPath_, true, &why)) return true;
    ctx_.log->appendError(why);
    QMessageBox::warning(ctx_.window, tr("Session not saved"), why);
    return false;
}

void SessionActions::addRecentMenu(QMenu* file) {
    QMenu* recent = file->addMenu(tr("Open &recent"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentMenu(recent); });
}

void SessionActions::addSessionActions(QMenu* file) {
    file->addAction(tr("Open &session..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                    &SessionActions::openSessionDialog);
    file->addAction(tr("Sa&ve session..."), QKeySequence::Save, this,
                    &SessionActions::saveSessionDialog);
    file->addAction(tr("&Copy as command line"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                    this, &SessionActions::copyCommandLine);
}

Session SessionActions::currentSession(bool withHistory) const {
    Session session;
    const ProblemInstance* p = ctx_.controller->problem();
    if (!p) return session;
    session.family = p->info.family;
    session.problem = p->origin;
    session.demo = ctx_.presentation->demo() ? ctx_.presentation->demo()->name : std::string();
    // The story when it is not the demo's own, and the student view (presentation.h).
    if (ctx_.presentation->story()->edited()) session.story = ctx_.presentation->story()->story();
    session.hiddenControls = ctx_.presentation->studentView()->hidden();
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const Run* r = ctx_.controller->run(k);
        SessionRun saved{r->solver(), withExplicitSeed(r->solver(), r->options()), std::nullopt};
        if (withHistory && r->ready() && !r->failed()) {
            StoredHistory history;
            history.records.push_back(r->history().recordAt(0));
            history.records.insert(history.records.end(), r->trace().begin(), r->trace().end());
            history.status = r->status();
            const Snapshot* previous = nullptr;
            for (const SnapshotPtr& snapshot : r->history().snapshots()) {
                if (auto bytes = encodeSnapshot(*snapshot, previous))
                    history.snapshots.push_back(std::move(*bytes));
                previous = snapshot.get();
            }
            saved.history = std::move(history);
        }
        session.runs.push_back(std::move(saved));
        if (r->id() == ctx_.setup->selectedId()) session.view.selectedRun = k;
    }
    SessionView& view = session.view;
    if (const QTabWidget* pages = pagesOf(ctx_.centre->current())) view.tab = pages->currentIndex();
    for (const AxisWord& axis : kAxisWords) {
        if (axis.kind == ctx_.boundsPlot->xAxis()) view.xAxis = axis.word;
    }
    view.timeline = ctx_.timeline->isLive() ? -1 : ctx_.playback->shownIteration();
    view.viewRange = plotRange(ctx_.centre->current() ? ctx_.centre->current()->plot() : nullptr);
    view.boundsRange = plotRange(ctx_.boundsPlot->plot());
    view.delayMs = ctx_.controller->delayMs();
    return session;
}

std::size_t SessionActions::historyBytes() const {
    std::size_t bytes = 0;
    for (int k = 0; k < ctx_.controller->runCount(); ++k)
        bytes += ctx_.controller->run(k)->history().bytes() +
                 ctx_.controller->run(k)->trace().size() * sizeof(IterationRecord);
    return bytes;
}

bool SessionActions::saveSession(const QString& path, bool withHistory, QString* why) {
    if (!ctx_.controller->problem()) {
        if (why) *why = tr("no problem to save");
        return false;
    }
    Session session = currentSession(withHistory);
    std::string message;
    // The hashes of the data as loaded (the runs' data), not of the files as they are now.
    std::map<std::string, std::string> known;
    for (const auto& [file, hashed] : ctx_.files->hashedFiles())
        known[file] = hashed.sha256;
    if (!hashProblemFiles(session.problem, &session.files, &message, known) ||
        !writeSession(path.toStdString(), session, &message)) {
        if (why) *why = QString::fromStdString(message);
        return false;
    }
    for (const SessionFile& f : session.files) {
        const auto hashed = ctx_.files->hashedFiles().find(f.resolved);
        const QFileInfo now(QString::fromStdString(f.resolved));
        if (hashed != ctx_.files->hashedFiles().end() &&
            (now.size() != hashed->second.size || now.lastModified() != hashed->second.modified))
            ctx_.log->appendError(
                tr("%1 has changed since it was loaded: the session keeps the hash "
                   "of the data the runs used, and opening it will say the file "
                   "changed")
                    .arg(now.filePath()));
    }
    rememberFile("sessions", path);
    ctx_.log->appendMessage(tr("session saved to %1").arg(path));
    sessionPath_ = path;
    modified_ = false;
    lessonEdited_ = false;
    emit modifiedChanged();
    return true;
}

void SessionActions::openSession(const QString& path) {
    if (ctx_.files->loading()) {
        emit sessionOpened(false, tr("still loading another file"));
        return;
    }
    auto loaded = std::make_shared<LoadedFile>();
    loaded->path = path;
    loaded->isSession = true;
    ctx_.files->start(tr("Opening session %1 ...").arg(QFileInfo(path).fileName()), [loaded] {
        loaded->read = true;
        loaded->session = readSession(loaded->path.toStdString(), &loaded->notes, &loaded->why);
        if (loaded->session) loaded->problem = makeSessionProblem(*loaded->session, &loaded->why);
        if (loaded->problem) loaded->hashed = hashLoadedFiles(loaded->problem->origin);
        return loaded;
    });
}

void SessionActions::onSessionLoaded(const std::shared_ptr<LoadedFile>& loaded) {
    QStringList notes;
    for (const std::string& note : loaded->notes)
        notes << QString::fromStdString(note);
    if (!loaded->problem) notes.prepend(QString::fromStdString(loaded->why));
    for (const QString& note : notes)
        ctx_.log->appendError(loaded->path + ": " + note);
    if (!notes.isEmpty() && ctx_.window->isVisible() && !scripted_) {
        QMessageBox::warning(ctx_.window, tr("Session"),
                             tr("%1 could not be opened in full:\n\n%2")
                                 .arg(QFileInfo(loaded->path).fileName(), notes.join("\n")));
    }
    if (!loaded->problem) {
        emit sessionOpened(false, QString::fromStdString(loaded->why));
        return;
    }
    ctx_.files->keepHashes(loaded->hashed);
    rememberFile("sessions", loaded->path);
    // The loaded session is moved, not copied: its stored histories may take up to the 1 GB
    // budget, which a copy would double.
    applySession(std::move(*loaded->session), loaded->problem);
    sessionPath_ = loaded->path;
    emit modifiedChanged();
    emit sessionOpened(true, loaded->path);
}

void SessionActions::applySession(Session session, ProblemPtr problem) {
    ctx_.controller->setProblem(std::move(problem));
    if (const DemoInfo* demo = findDemo(session.demo)) {
        ctx_.presentation->setDemo(demo);
        ctx_.setup->showDemo(QString::fromStdString(demo->name));
    }
    if (session.story) ctx_.presentation->story()->setStory(*session.story);
    ctx_.presentation->studentView()->setHidden(session.hiddenControls);
    const auto pending = std::make_shared<Session>(std::move(session));
    pendingSession_ = pending;
    for (const SessionRun& r : pending->runs) {
        QString why;
        if (!ctx_.controller->addRun(r.solver, r.options, &why)) ctx_.log->appendError(why);
    }
    ctx_.playback->setDelayMs(pending->view.delayMs);
    restorePendingSession();
}

// The stored snapshots of run `r`, decoded against its solver's first snapshot; those that
// cannot be read are left out and said in the log.
std::vector<SnapshotPtr> SessionActions::decodeHistory(const Run& r,
                                                       const std::vector<std::string>& stored) {
    std::vector<SnapshotPtr> snapshots;
    const SnapshotPtr base = r.history().snapshot();
    if (!base) return snapshots;
    for (const std::string& bytes : stored) {
        std::string why;
        const Snapshot* previous = snapshots.empty() ? nullptr : snapshots.back().get();
        SnapshotPtr decoded = decodeSnapshot(bytes, *base, previous, &why);
        if (!decoded) {
            ctx_.log->appendError(
                tr("%1: a stored snapshot is left out: %2")
                    .arg(ctx_.controller->runLabel(r.id()), QString::fromStdString(why)));
            continue;
        }
        snapshots.push_back(std::move(decoded));
    }
    return snapshots;
}

// Once every run is ready: their stored histories, the selection, the axes and the timeline.
void SessionActions::restorePendingSession() {
    if (!pendingSession_) return;
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        if (!ctx_.controller->run(k)->ready() && !ctx_.controller->run(k)->failed()) return;
    }
    const std::shared_ptr<Session> session = std::move(pendingSession_);
    for (int k = 0; k < ctx_.controller->runCount() && k < static_cast<int>(session->runs.size());
         ++k) {
        Run* r = ctx_.controller->run(k);
        const auto& history = session->runs[k].history;
        if (!history || r->failed()) continue;
        r->restore(history->records, decodeHistory(*r, history->snapshots), history->status);
    }
    const SessionView& view = session->view;
    ctx_.setup->selectRun(std::min(view.selectedRun, ctx_.controller->runCount() - 1));
    for (int k = 0; k < static_cast<int>(std::size(kAxisWords)); ++k) {
        if (view.xAxis == kAxisWords[k].word) ctx_.playback->setXAxisIndex(k);
    }
    if (view.timeline >= 0) ctx_.playback->showIteration(view.timeline);
    if (ctx_.centre->current()) ctx_.centre->current()->showPage(view.tab);
    setPlotRange(ctx_.centre->current() ? ctx_.centre->current()->plot() : nullptr, view.viewRange);
    setPlotRange(ctx_.boundsPlot->plot(), view.boundsRange);
    ctx_.log->appendMessage(ctx_.controller->runCount() == 1
                                ? tr("session opened: 1 run")
                                : tr("session opened: %1 runs").arg(ctx_.controller->runCount()));
    // The restored histories are the session as saved, not new work.
    setModified(false);
}

bool SessionActions::saveSessionDialog() {
    if (!ctx_.controller->problem()) return false;
    QFileDialog dialog(ctx_.window, tr("Save session"), lastFolder("session"), tr(kSessionFilter));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix("cplab");
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    const std::size_t bytes = historyBytes();
    const QString size = bytes < (1u << 20) ? tr("%1 KB").arg((bytes + 1023) >> 10)
                                            : tr("%1 MB").arg((bytes + (1u << 19)) >> 20);
    auto* store = new QCheckBox(tr("Store the runs' records and snapshots (about %1 before "
                                   "compression): reopens exactly, without running")
                                    .arg(size),
                                &dialog);
    store->setChecked(bytes < (std::size_t{64} << 20));
    if (auto* grid = qobject_cast<QGridLayout*>(dialog.layout()))
        grid->addWidget(store, grid->rowCount(), 0, 1, grid->columnCount());
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return false;
    const QString path = dialog.selectedFiles().front();
    setLastFolder("session", path);
    QString why;
    if (saveSession(path, store->isChecked(), &why)) return true;
    ctx_.log->appendError(why);
    QMessageBox::warning(ctx_.window, tr("Session not saved"), why);
    return false;
}

void SessionActions::openSessionDialog() {
    if (!ctx_.setup->confirmDiscardRuns()) return;
    const QString path = QFileDialog::getOpenFileName(ctx_.window, tr("Open session"),
                                                      lastFolder("session"), tr(kSessionFilter));
    if (path.isEmpty()) return;
    setLastFolder("session", path);
    openSession(path);
}

QString SessionActions::commandLines() const {
    if (!ctx_.controller->problem()) return {};
    const Session session = currentSession(false);
    if (!session.problem.points.empty()) {
        return tr("# The points were drawn: save them (File > Save points) and open that file.");
    }
    QStringList lines{QString::fromStdString(guiCommandLine(session))};
    for (const std::string& line : cliCommandLines(session))
        lines << QString::fromStdString(line);
    return lines.join('\n');
}

void SessionActions::copyCommandLine() {
    const QString text = commandLines();
    if (text.isEmpty()) return;
    QApplication::clipboard()->setText(text);
    ctx_.log->appendMessage(tr("copied to the clipboard:\n%1").arg(text));
}

// ---- remembered between launches -------------------------------------------------------------

void SessionActions::rememberFile(const QString& kind, const QString& path) {
    if (!scripted_) cplab::rememberFile(kind, path);
}

void SessionActions::fillRecentMenu(QMenu* menu) {
    menu->clear();
    bool any = false;
    for (const QString& kind : {QStringLiteral("sessions"), QStringLiteral("data")}) {
        for (const QString& path : recentFiles(kind)) {
            QAction* action = menu->addAction(QFileInfo(path).fileName(), this, [this, path] {
                if (ctx_.setup->confirmDiscardRuns()) openAnyFile(path);
            });
            action->setToolTip(path);
            action->setEnabled(QFileInfo(path).isFile());
            any = true;
        }
        menu->addSeparator();
    }
    if (!any) menu->addAction(tr("(none yet)"))->setEnabled(false);
}

void SessionActions::openAnyFile(const QString& path) {
    if (isSessionFile(path)) {
        openSession(path);
    } else {
        ctx_.files->openDataFile(path, {}, {}, !scripted_);
    }
}

bool SessionActions::isSessionFile(const QString& path) {
    if (path.endsWith(".cplab", Qt::CaseInsensitive)) return true;
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly)) return false;
    return file.read(256).contains("\"cplab-session\"");
}

void SessionActions::restoreLayout(bool* dockSized) {
    QSettings settings;
    if (ctx_.window->restoreGeometry(settings.value("window/geometry").toByteArray()))
        *dockSized = ctx_.window->restoreState(settings.value("window/state").toByteArray());
    rememberLayout_ = true;
    const int delay = settings.value("run/delay_ms", -1).toInt();
    if (delay >= 0) ctx_.playback->setDelayMs(std::min(delay, kMaxDelayMs));
    ctx_.playback->setXAxisIndex(settings.value("view/x_axis", 0).toInt());
    const int history = settings.value("run/history_mb", 0).toInt();
    if (history >= 1 && history <= 65536) ctx_.playback->setHistoryBudgetMb(history);
}

void SessionActions::saveLayout() {
    if (!rememberLayout_ || ctx_.presentation->presenting()) return;
    QSettings settings;
    settings.setValue("window/geometry", ctx_.window->saveGeometry());
    settings.setValue("window/state", ctx_.window->saveState());
    settings.setValue("run/delay_ms", ctx_.controller->delayMs());
    settings.setValue("view/x_axis", ctx_.playback->xAxisIndex());
    settings.setValue("run/history_mb", static_cast<int>(ctx_.controller->historyBudget() >> 20));
}

// The window closing (its layout remembered), and a file dropped on it (opened as File › Open
// recent would); the window goes on handling both as usual.
bool SessionActions::eventFilter(QObject* watched, QEvent* event) {
    if (watched != ctx_.window) return false;
    if (event->type() == QEvent::Close) saveLayout();
    if (event->type() != QEvent::DragEnter && event->type() != QEvent::Drop) return false;
    auto* drop = static_cast<QDropEvent*>(event);
    const QList<QUrl> urls = drop->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return false;
    drop->acceptProposedAction();
    if (event->type() == QEvent::Drop && ctx_.setup->confirmDiscardRuns())
        openAnyFile(urls.front().toLocalFile());
    return false;
}

}  // namespace cplab
