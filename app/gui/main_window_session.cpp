// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's sessions (app/session.h) and what it remembers between launches: File >
// Save session / Open session / Recent, "Copy as command line", files dropped on the window,
// the window's layout and the last folder of each dialog (QSettings).
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
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTabWidget>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "data/test_split.h"
#include "family_view.h"
#include "log_panel.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "run.h"
#include "run_controller.h"
#include "session.h"
#include "snapshot_codec.h"
#include "timeline_bar.h"

namespace cplab {

HashedFiles hashLoadedFiles(const ProblemOrigin& origin) {
    HashedFiles hashed;
    std::vector<SessionFile> files;
    std::string why;
    // The stamps first: a file that changes while it is hashed counts as changed.
    std::map<std::string, QFileInfo> before;
    std::vector<std::string> paths{origin.data.path};
    if (const auto test = origin.options.find(TestSplit::kFileKey); test != origin.options.end())
        paths.push_back(test->second);
    for (const std::string& path : paths) {
        if (path.empty()) continue;
        const QFileInfo info(QString::fromStdString(path));
        before.emplace(info.absoluteFilePath().toStdString(), info);
    }
    if (!hashProblemFiles(origin, &files, &why)) return hashed;
    for (const SessionFile& f : files) {
        const auto stamp = before.find(f.resolved);
        if (stamp == before.end()) continue;
        hashed[f.resolved] = {f.sha256, stamp->second.size(), stamp->second.lastModified()};
    }
    return hashed;
}

namespace {

constexpr int kRecentFiles = 8;
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

Session MainWindow::currentSession(bool withHistory) const {
    Session session;
    const ProblemInstance* p = problem();
    if (!p) return session;
    session.family = p->info.family;
    session.problem = p->origin;
    session.demo = demo_ ? demo_->name : std::string();
    for (int k = 0; k < runCount(); ++k) {
        const Run* r = run(k);
        SessionRun saved{r->solver(), withExplicitSeed(r->solver(), r->options()), std::nullopt};
        if (withHistory && r->ready() && !r->failed()) {
            StoredHistory history;
            history.records.push_back(r->recordAt(0));
            history.records.insert(history.records.end(), r->trace().begin(), r->trace().end());
            history.status = r->status();
            const Snapshot* previous = nullptr;
            for (const SnapshotPtr& snapshot : r->history()) {
                if (auto bytes = encodeSnapshot(*snapshot, previous))
                    history.snapshots.push_back(std::move(*bytes));
                previous = snapshot.get();
            }
            saved.history = std::move(history);
        }
        session.runs.push_back(std::move(saved));
        if (r->id() == selectedId_) session.view.selectedRun = k;
    }
    SessionView& view = session.view;
    if (const QTabWidget* pages = pagesOf(currentView())) view.tab = pages->currentIndex();
    for (const AxisWord& axis : kAxisWords) {
        if (axis.kind == boundsPlot_->xAxis()) view.xAxis = axis.word;
    }
    view.timeline = timeline_->isLive() ? -1 : shownIteration();
    view.viewRange = plotRange(currentView() ? currentView()->plot() : nullptr);
    view.boundsRange = plotRange(boundsPlot_->plot());
    view.presentationScale = presentationScale_;
    view.delayMs = controller_->delayMs();
    return session;
}

std::size_t MainWindow::historyBytes() const {
    std::size_t bytes = 0;
    for (int k = 0; k < runCount(); ++k)
        bytes += run(k)->historyBytes() + run(k)->trace().size() * sizeof(IterationRecord);
    return bytes;
}

bool MainWindow::saveSession(const QString& path, bool withHistory, QString* why) {
    if (!problem()) {
        if (why) *why = tr("no problem to save");
        return false;
    }
    Session session = currentSession(withHistory);
    std::string message;
    // The hashes of the data as loaded (the runs' data), not of the files as they are now.
    std::map<std::string, std::string> known;
    for (const auto& [file, hashed] : hashedFiles_)
        known[file] = hashed.sha256;
    if (!hashProblemFiles(session.problem, &session.files, &message, known) ||
        !writeSession(path.toStdString(), session, &message)) {
        if (why) *why = QString::fromStdString(message);
        return false;
    }
    for (const SessionFile& f : session.files) {
        const auto hashed = hashedFiles_.find(f.resolved);
        const QFileInfo now(QString::fromStdString(f.resolved));
        if (hashed != hashedFiles_.end() &&
            (now.size() != hashed->second.size || now.lastModified() != hashed->second.modified))
            log_->appendError(tr("%1 has changed since it was loaded: the session keeps the hash "
                                 "of the data the runs used, and opening it will say the file "
                                 "changed")
                                  .arg(now.filePath()));
    }
    rememberFile("sessions", path);
    log_->appendMessage(tr("session saved to %1").arg(path));
    return true;
}

void MainWindow::openSession(const QString& path) {
    if (loading()) {
        emit sessionOpened(false, tr("still loading another file"));
        return;
    }
    auto loaded = std::make_shared<Loaded>();
    loaded->path = path;
    loaded->isSession = true;
    startLoading(tr("Opening session %1 ...").arg(QFileInfo(path).fileName()), [loaded] {
        loaded->read = true;
        loaded->session = readSession(loaded->path.toStdString(), &loaded->notes, &loaded->why);
        if (loaded->session) loaded->problem = makeSessionProblem(*loaded->session, &loaded->why);
        if (loaded->problem) loaded->hashed = hashLoadedFiles(loaded->problem->origin);
        return loaded;
    });
}

void MainWindow::onSessionLoaded(const std::shared_ptr<Loaded>& loaded) {
    QStringList notes;
    for (const std::string& note : loaded->notes)
        notes << QString::fromStdString(note);
    if (!loaded->problem) notes.prepend(QString::fromStdString(loaded->why));
    for (const QString& note : notes)
        log_->appendError(loaded->path + ": " + note);
    if (!notes.isEmpty() && isVisible() && !scripted_) {
        QMessageBox::warning(this, tr("Session"),
                             tr("%1 could not be opened in full:\n\n%2")
                                 .arg(QFileInfo(loaded->path).fileName(), notes.join("\n")));
    }
    if (!loaded->problem) {
        emit sessionOpened(false, QString::fromStdString(loaded->why));
        return;
    }
    for (auto& [file, hashed] : loaded->hashed)
        hashedFiles_[file] = std::move(hashed);
    rememberFile("sessions", loaded->path);
    applySession(*loaded->session, loaded->problem);
    emit sessionOpened(true, loaded->path);
}

void MainWindow::applySession(const Session& session, ProblemPtr problem) {
    controller_->setProblem(std::move(problem));
    if (const DemoInfo* demo = findDemo(session.demo)) {
        demo_ = demo;
        caption_->setDemo(QString::fromStdString(demo->title),
                          QString::fromStdString(demo->description));
        demoCombo_->setCurrentIndex(demoCombo_->findData(QString::fromStdString(demo->name)));
    }
    pendingSession_ = std::make_shared<Session>(session);
    for (const SessionRun& r : session.runs) {
        QString why;
        if (!addRun(r.solver, r.options, &why)) log_->appendError(why);
    }
    setDelayMs(session.view.delayMs);
    presentationScale_ = session.view.presentationScale;
    if (presenting_) applyViewScale();
    restorePendingSession();
}

// The stored snapshots of run `r`, decoded against its solver's first snapshot; those that
// cannot be read are left out and said in the log.
std::vector<SnapshotPtr> MainWindow::decodeHistory(const Run& r,
                                                   const std::vector<std::string>& stored) {
    std::vector<SnapshotPtr> snapshots;
    const SnapshotPtr base = r.snapshot();
    if (!base) return snapshots;
    for (const std::string& bytes : stored) {
        std::string why;
        const Snapshot* previous = snapshots.empty() ? nullptr : snapshots.back().get();
        SnapshotPtr decoded = decodeSnapshot(bytes, *base, previous, &why);
        if (!decoded) {
            log_->appendError(tr("%1: a stored snapshot is left out: %2")
                                  .arg(r.label(), QString::fromStdString(why)));
            continue;
        }
        snapshots.push_back(std::move(decoded));
    }
    return snapshots;
}

// Once every run is ready: their stored histories, the selection, the axes and the timeline.
void MainWindow::restorePendingSession() {
    if (!pendingSession_) return;
    for (int k = 0; k < runCount(); ++k) {
        if (!run(k)->ready() && !run(k)->failed()) return;
    }
    const std::shared_ptr<Session> session = std::move(pendingSession_);
    for (int k = 0; k < runCount() && k < static_cast<int>(session->runs.size()); ++k) {
        Run* r = run(k);
        const auto& history = session->runs[k].history;
        if (!history || r->failed()) continue;
        r->restore(history->records, decodeHistory(*r, history->snapshots), history->status);
    }
    const SessionView& view = session->view;
    selectRun(std::min(view.selectedRun, runCount() - 1));
    for (int k = 0; k < static_cast<int>(std::size(kAxisWords)); ++k) {
        if (view.xAxis == kAxisWords[k].word) xAxisCombo_->setCurrentIndex(k);
    }
    if (view.timeline >= 0) showIteration(view.timeline);
    if (currentView()) currentView()->showPage(view.tab);
    setPlotRange(currentView() ? currentView()->plot() : nullptr, view.viewRange);
    setPlotRange(boundsPlot_->plot(), view.boundsRange);
    log_->appendMessage(runCount() == 1 ? tr("session opened: 1 run")
                                        : tr("session opened: %1 runs").arg(runCount()));
}

void MainWindow::saveSessionDialog() {
    if (!problem()) return;
    QFileDialog dialog(this, tr("Save session"), lastFolder("session"), tr(kSessionFilter));
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
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return;
    const QString path = dialog.selectedFiles().front();
    setLastFolder("session", path);
    QString why;
    if (!saveSession(path, store->isChecked(), &why)) {
        log_->appendError(why);
        QMessageBox::warning(this, tr("Session not saved"), why);
    }
}

void MainWindow::openSessionDialog() {
    if (!confirmDiscardRuns()) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"),
                                                      lastFolder("session"), tr(kSessionFilter));
    if (path.isEmpty()) return;
    setLastFolder("session", path);
    openSession(path);
}

QString MainWindow::commandLines() const {
    if (!problem()) return {};
    const Session session = currentSession(false);
    if (!session.problem.points.empty()) {
        return tr("# The points were drawn: save them (File > Save points) and open that file.");
    }
    QStringList lines{QString::fromStdString(guiCommandLine(session))};
    for (const std::string& line : cliCommandLines(session))
        lines << QString::fromStdString(line);
    return lines.join('\n');
}

void MainWindow::copyCommandLine() {
    const QString text = commandLines();
    if (text.isEmpty()) return;
    QApplication::clipboard()->setText(text);
    log_->appendMessage(tr("copied to the clipboard:\n%1").arg(text));
}

// ---- remembered between launches -------------------------------------------------------------

QString MainWindow::lastFolder(const QString& dialog) const {
    return QSettings().value("folders/" + dialog).toString();
}

QString MainWindow::inLastFolder(const QString& dialog, const QString& name) const {
    const QString folder = lastFolder(dialog);
    return folder.isEmpty() ? name : QDir(folder).filePath(name);
}

void MainWindow::setLastFolder(const QString& dialog, const QString& path) {
    QSettings().setValue("folders/" + dialog, QFileInfo(path).absolutePath());
}

void MainWindow::rememberFile(const QString& kind, const QString& path) {
    if (scripted_) return;
    QSettings settings;
    QStringList files = settings.value("recent/" + kind).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kRecentFiles)
        files.removeLast();
    settings.setValue("recent/" + kind, files);
}

void MainWindow::fillRecentMenu(QMenu* menu) {
    menu->clear();
    QSettings settings;
    bool any = false;
    for (const QString& kind : {QStringLiteral("sessions"), QStringLiteral("data")}) {
        for (const QString& path : settings.value("recent/" + kind).toStringList()) {
            QAction* action = menu->addAction(QFileInfo(path).fileName(), this, [this, path] {
                if (confirmDiscardRuns()) openAnyFile(path);
            });
            action->setToolTip(path);
            action->setEnabled(QFileInfo(path).isFile());
            any = true;
        }
        menu->addSeparator();
    }
    if (!any) menu->addAction(tr("(none yet)"))->setEnabled(false);
}

void MainWindow::openAnyFile(const QString& path) {
    if (isSessionFile(path)) {
        openSession(path);
    } else {
        openDataFile(path, {}, {}, !scripted_);
    }
}

bool MainWindow::isSessionFile(const QString& path) {
    if (path.endsWith(".cplab", Qt::CaseInsensitive)) return true;
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly)) return false;
    return file.read(256).contains("\"cplab-session\"");
}

void MainWindow::setScripted(bool scripted) {
    scripted_ = scripted;
}

void MainWindow::restoreLayout() {
    QSettings settings;
    if (restoreGeometry(settings.value("window/geometry").toByteArray()))
        dockSized_ = restoreState(settings.value("window/state").toByteArray());
    rememberLayout_ = true;
    const int delay = settings.value("run/delay_ms", -1).toInt();
    if (delay >= 0) setDelayMs(std::min(delay, kMaxDelayMs));
    const int axis = settings.value("view/x_axis", 0).toInt();
    if (axis >= 0 && axis < xAxisCombo_->count()) xAxisCombo_->setCurrentIndex(axis);
    const int history = settings.value("run/history_mb", 0).toInt();
    if (history >= 1 && history <= 65536) setHistoryBudgetMb(history);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (rememberLayout_ && !presenting_) {
        QSettings settings;
        settings.setValue("window/geometry", saveGeometry());
        settings.setValue("window/state", saveState());
        settings.setValue("run/delay_ms", controller_->delayMs());
        settings.setValue("view/x_axis", xAxisCombo_->currentIndex());
        settings.setValue("run/history_mb", static_cast<int>(controller_->historyBudget() >> 20));
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return;
    event->acceptProposedAction();
    const QString path = urls.front().toLocalFile();
    if (confirmDiscardRuns()) openAnyFile(path);
}

}  // namespace cplab
