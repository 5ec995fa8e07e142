// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <limits>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "data/test_split.h"
#include "elided_label.h"
#include "family_view.h"
#include "family_views.h"
#include "gap_progress.h"
#include "log_panel.h"
#include "main_window_parts.h"
#include "option_form.h"
#include "plot_style.h"
#include "pseudocode_panel.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "timeline_bar.h"
#include "version.h"

namespace cplab {

namespace {

QString number(double value) {
    if (!std::isfinite(value)) return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
    return QString::number(value, 'g', 8);
}

// A bound's name for the status line: in full when short, else its head ("upper bound U" of
// "upper bound U (slmc, ...: ...)"); the bounds plot's tooltip has it in full.
QString boundHead(const std::string& name) {
    const QString text = QString::fromStdString(name);
    return text.size() <= 40 ? text : widgets::boundNameHead(text);
}

// A combo box as narrow as the panel needs: long titles are cut in the box, whole in its list
// (sized to its longest item, one title would widen the whole left dock).
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), controller_(new RunController(this)) {
    setWindowTitle("cplab - Cutting-Plane Lab");
    setAcceptDrops(true);
    baseFont_ = font();
    buildUi();
    buildMenus();
    populateProblems();

    connect(controller_, &RunController::problemChanged, this, &MainWindow::onProblemChanged);
    connect(controller_, &RunController::runAdded, this, &MainWindow::onRunAdded);
    connect(controller_, &RunController::runRemoved, this, &MainWindow::onRunRemoved);
    connect(controller_, &RunController::runReplaced, this, &MainWindow::onRunReplaced);
    connect(controller_, &RunController::runReady, this, [this](int id) {
        if (id == selectedId_) refreshSelection();
        refreshRunRow(id);
        restorePendingSession();
    });
    connect(controller_, &RunController::recordsAppended, this,
            [this](int id, const std::vector<IterationRecord>& records) {
                boundsPlot_->appendRecords(id, records);
                onRecords(id);
            });
    connect(controller_, &RunController::snapshotChanged, this, &MainWindow::onRunSnapshot);
    connect(controller_, &RunController::statusChanged, this, &MainWindow::onRunStatus);
    connect(controller_, &RunController::message, this, [this](const QString& text, bool error) {
        if (error) {
            log_->appendError(text);
        } else {
            log_->appendMessage(text);
        }
    });
    setDelayMs(controller_->delayMs());
    updateButtons();
    // 1440×900, or the screen's free area where it is smaller (a 1280×720 projector).
    const QScreen* screen = QGuiApplication::primaryScreen();
    resize(screen ? QSize(1440, 900).boundedTo(screen->availableGeometry().size())
                  : QSize(1440, 900));
}

MainWindow::~MainWindow() {
    if (loader_) loader_->waitForFinished();
    // The runs stop and join before the views they report to go away.
    controller_->removeAll();
}

void MainWindow::populateProblems() {
    problemCombo_->clear();
    for (const auto& p : problemCatalog()) {
        problemCombo_->addItem(
            QString("%1  [%2, %3-D]")
                .arg(QString::fromStdString(p.name), QString::fromStdString(p.family))
                .arg(p.dimension),
            QString::fromStdString(p.name));
        problemCombo_->setItemData(problemCombo_->count() - 1, QString::fromStdString(p.title),
                                   Qt::ToolTipRole);
    }
    widenList(problemCombo_);
    problemCombo_->setCurrentIndex(-1);
}

// ---- problems -------------------------------------------------------------------------------

const ProblemInstance* MainWindow::problem() const {
    return controller_->problem();
}

OptionValues MainWindow::problemOptions() const {
    const ProblemInfo* info =
        problemCombo_->currentIndex() >= 0
            ? findProblem(problemCombo_->currentData().toString().toStdString())
            : nullptr;
    const std::string family = info ? info->family : std::string();
    const auto it = views_.find(family);
    return it == views_.end() ? OptionValues{} : it->second->problemOptions();
}

void MainWindow::onProblemChanged() {
    const ProblemInstance* p = controller_->problem();
    selectedId_ = -1;
    runTable_->setRowCount(0);
    boundsPlot_->clear();
    for (std::size_t k = 0; k < followers_.size(); ++k)
        addFollowedToPlot(k);
    pseudocode_->clear();
    statusLine_->setFullText({});
    timeline_->setLast(0);
    timeline_->setLive(true);
    timeline_->setCaption({});
    for (const auto& [family, view] : views_)
        view->clear();
    shownSnapshots_.clear();
    shownRun_ = -1;
    demo_ = nullptr;
    caption_->clear();
    if (!p) {
        viewStack_->setCurrentWidget(emptyView_);
        updateButtons();
        return;
    }
    // The built-in problem of that name and family, or none (a loaded file may share a
    // built-in's name: usps.gz of the sparse family is not the linear built-in `usps`).
    int shown = -1;
    for (const auto& entry : problemCatalog()) {
        if (entry.name == p->info.name && entry.family == p->info.family)
            shown = problemCombo_->findData(QString::fromStdString(entry.name));
    }
    problemCombo_->setPlaceholderText(
        QString("%1  [%2, %3-D, file]")
            .arg(QString::fromStdString(p->info.name), QString::fromStdString(p->info.family))
            .arg(p->info.dimension));
    problemCombo_->setCurrentIndex(shown);
    problemDescription_->setText(
        QString::fromStdString(p->info.title + "\n\n" + p->info.description));
    const Family* family = controller_->family();
    if (family) {
        const BoundLabels labels = family->boundLabels();
        boundsPlot_->setBoundLabels(QString::fromStdString(labels.upper),
                                    QString::fromStdString(labels.lower));
    }
    if (p->data) {
        if (const auto optimum = p->data->knownOptimum())
            boundsPlot_->setReference(*optimum, tr("known optimum"));
        const std::string details = p->data->details();
        if (!details.empty()) log_->appendMessage(QString::fromStdString(details));
    }
    for (const auto& [name, view] : views_) {
        if (QWidget* controls = view->problemControls())
            controls->setVisible(name == p->info.family);
    }
    const auto it = views_.find(p->info.family);
    viewStack_->setCurrentWidget(it == views_.end() ? static_cast<QWidget*>(emptyView_)
                                                    : it->second);
    populateSolvers();
    log_->appendMessage(
        tr("problem %1: %2")
            .arg(QString::fromStdString(p->info.name), QString::fromStdString(p->info.title)));
    updateButtons();
}

void MainWindow::populateSolvers() {
    QSignalBlocker block(solverCombo_);
    solverCombo_->clear();
    for (const SolverInfo* s : solversForFamily(problem()->info.family))
        solverCombo_->addItem(QString::fromStdString(s->title), QString::fromStdString(s->name));
    widenList(solverCombo_);
    solverCombo_->setCurrentIndex(0);
    onSolverChosen(0);
}

void MainWindow::onSolverChosen(int index) {
    const SolverInfo* info = findSolver(solverCombo_->itemData(index).toString().toStdString());
    if (!info) return;
    solverDescription_->setText(QString::fromStdString(info->description));
    optionForm_->setOptions(info->options);
}

void MainWindow::setProblemWithRun(ProblemPtr problem) {
    demoCombo_->setCurrentIndex(0);
    controller_->setProblem(std::move(problem));
    QString why;
    if (!addRun(solverCombo_->currentData().toString().toStdString(), {}, &why)) {
        log_->appendError(why);
    }
}

bool MainWindow::loadProblem(const QString& name) {
    std::string why;
    auto problem = makeProblem(name.toStdString(), problemOptions(), &why);
    if (!problem) {
        log_->appendError(QString::fromStdString(why));
        return false;
    }
    setProblemWithRun(std::move(problem));
    return true;
}

bool MainWindow::loadDemo(const QString& name) {
    const DemoInfo* demo = findDemo(name.toStdString());
    if (!demo) {
        log_->appendError(tr("unknown demo '%1'").arg(name));
        return false;
    }
    std::string why;
    auto problem = makeProblem(demo->problem, &why);
    if (!problem) {
        log_->appendError(QString::fromStdString(why));
        return false;
    }
    controller_->setProblem(std::move(problem));
    demo_ = demo;
    caption_->setDemo(QString::fromStdString(demo->title),
                      QString::fromStdString(demo->description));
    demoCombo_->setCurrentIndex(demoCombo_->findData(name));
    log_->appendMessage(tr("demo: %1").arg(QString::fromStdString(demo->title)));
    for (const auto& run : demo->runs) {
        QString message;
        if (!addRun(run.solver, run.options, &message)) log_->appendError(message);
    }
    selectRun(0);
    return true;
}

void MainWindow::openDataFile(const QString& path, const QString& testPath,
                              const QString& preferredFamily, bool askForTest) {
    if (loading()) {
        log_->appendError(tr("%1: still loading another file").arg(path));
        emit dataFileLoaded(false, tr("still loading another file"));
        return;
    }
    // The reader is chosen off the GUI thread (sniffing a FIFO may wait for its writer), by
    // registry.h's one rule, with the family asked for (the first solver's on the command
    // line) as the preferred one.
    const std::string preferred = preferredFamily.toStdString();
    auto loaded = std::make_shared<Loaded>();
    loaded->path = path;
    loaded->testPath = testPath;
    loaded->askForTest = askForTest && testPath.isEmpty();
    startLoading(tr("Opening %1 ...").arg(QFileInfo(path).fileName()), [loaded, preferred] {
        loaded->reader = chooseReader(loaded->path.toStdString(), preferred, &loaded->why);
        return loaded;
    });
}

void MainWindow::startLoading(const QString& message,
                              std::function<std::shared_ptr<Loaded>()> work) {
    loader_ = new QFutureWatcher<std::shared_ptr<Loaded>>(this);
    connect(loader_, &QFutureWatcher<std::shared_ptr<Loaded>>::finished, this,
            &MainWindow::onDataLoaded);
    statusBar()->showMessage(message);
    loader_->setFuture(QtConcurrent::run([work = std::move(work)] {
        try {
            return work();
        } catch (const std::exception& e) {
            auto failed = std::make_shared<Loaded>();
            failed->why = e.what();
            return failed;
        }
    }));
}

// The chosen family reads the file with its problem controls (or the test file given).
void MainWindow::readChosenFile(const std::shared_ptr<Loaded>& loaded) {
    const Family* family = loaded->reader.family;
    OptionValues options;
    if (const auto it = views_.find(family->name()); it != views_.end())
        options = it->second->problemOptions();
    bool takesTest = false;
    for (const OptionInfo& o : family->problemOptions())
        takesTest = takesTest || o.name == TestSplit::kFileKey;
    if (takesTest && loaded->askForTest) {
        loaded->testPath =
            QFileDialog::getOpenFileName(this, tr("Test file (cancel: use the test fraction)"),
                                         QFileInfo(loaded->path).path(), openFileFilter());
    }
    if (takesTest && !loaded->testPath.isEmpty()) {
        options.erase(TestSplit::kFractionKey);
        options[TestSplit::kFileKey] = loaded->testPath.toStdString();
    }
    startLoading(tr("Loading %1 ...").arg(QFileInfo(loaded->path).fileName()), [loaded, options] {
        loaded->read = true;
        loaded->problem =
            loaded->reader.family->openFile(loaded->reader.source, options, &loaded->why);
        if (loaded->problem) loaded->hashed = hashLoadedFiles(loaded->problem->origin);
        return loaded;
    });
}

bool MainWindow::loading() const {
    return loader_ != nullptr;
}

void MainWindow::onDataLoaded() {
    const std::shared_ptr<Loaded> loaded = loader_->result();
    loader_->deleteLater();
    loader_ = nullptr;
    statusBar()->clearMessage();
    if (loaded->isSession) {
        onSessionLoaded(loaded);
        return;
    }
    if (loaded->reader.family && !loaded->read) {
        readChosenFile(loaded);  // the reader is chosen: now read
        return;
    }
    if (!loaded->problem) {
        const QString why = QString::fromStdString(
            loaded->why.empty() ? loaded->path.toStdString() + ": not read" : loaded->why);
        log_->appendError(why);
        emit dataFileLoaded(false, why);
        return;
    }
    for (auto& [path, hashed] : loaded->hashed)
        hashedFiles_[path] = std::move(hashed);
    setProblemWithRun(loaded->problem);
    rememberFile("data", loaded->path);
    emit dataFileLoaded(true, loaded->path);
}

// ---- runs -----------------------------------------------------------------------------------

bool MainWindow::addRun(const std::string& solver, const OptionValues& options, QString* why) {
    return controller_->addRun(solver, options, why) != nullptr;
}

void MainWindow::removeAllRuns() {
    controller_->removeAll();
}

int MainWindow::runCount() const {
    return controller_->runCount();
}

Run* MainWindow::run(int index) const {
    return controller_->run(index);
}

Run* MainWindow::selectedRun() const {
    return controller_->runById(selectedId_);
}

void MainWindow::selectRun(int index) {
    Run* r = controller_->run(index);
    if (!r) return;
    selectedId_ = r->id();
    runTable_->selectRow(index);
    refreshSelection();
}

void MainWindow::onRunAdded(int id) {
    Run* r = controller_->runById(id);
    const int row = runTable_->rowCount();
    runTable_->insertRow(row);
    for (int c = 0; c < kColumnCount; ++c)
        runTable_->setItem(row, c, new QTableWidgetItem);
    boundsPlot_->addRun(id, r->label(), r->color());
    refreshRunRow(id);
    if (selectedId_ < 0) selectRun(row);
    updateButtons();
    emit runsChanged();
}

void MainWindow::onRunRemoved(int id) {
    eventsLogged_.erase(id);
    boundsPlot_->removeRun(id);
    // Rows follow the controller's order: the removed run's row is the first that differs.
    int row = 0;
    while (row < runTable_->rowCount() && row < runCount() &&
           runTable_->item(row, kColRun)->data(Qt::UserRole).toInt() == run(row)->id()) {
        ++row;
    }
    if (row < runTable_->rowCount()) runTable_->removeRow(row);
    if (id == selectedId_) {
        selectedId_ = -1;
        if (runCount() > 0) {
            selectRun(std::min(row, runCount() - 1));
        } else {
            // Nothing left to show: every view, the pseudocode and the status line clear.
            for (const auto& [family, view] : views_)
                view->clear();
            shownSnapshots_.clear();
            shownRun_ = -1;
            pseudocode_->clear();
            statusLine_->setFullText({});
            progress_->reset(1.0);
            timeline_->setLast(0);
            timeline_->setLive(true);
            timeline_->setCaption({});
            boundsPlot_->setMarker(qQNaN());
        }
    }
    updateButtons();
    emit runsChanged();
}

void MainWindow::onRunReplaced(int id) {
    eventsLogged_.erase(id);  // the new run starts again from iteration 0
    Run* r = controller_->runById(id);
    boundsPlot_->addRun(id, r->label(), r->color());
    refreshRunRow(id);
    if (id == selectedId_) {
        timeline_->setLive(true);
        refreshSelection();
    }
    updateButtons();
}

void MainWindow::removeSelected() {
    if (selectedId_ >= 0) controller_->removeRun(selectedId_);
}

void MainWindow::applyToSelected() {
    Run* r = selectedRun();
    if (!r) return;
    QString why;
    if (!controller_->restartRun(r->id(), solverCombo_->currentData().toString().toStdString(),
                                 optionForm_->changedValues(), &why)) {
        QMessageBox::warning(this, tr("Invalid options"), why);
    }
}

void MainWindow::refreshSelection() {
    Run* r = selectedRun();
    if (!r) return;
    const SolverInfo* info = findSolver(r->solver());
    pseudocode_->setPseudocode(QString::fromStdString(info ? info->title : r->solver()),
                               r->pseudocode());
    {
        QSignalBlocker block(solverCombo_);
        solverCombo_->setCurrentIndex(solverCombo_->findData(QString::fromStdString(r->solver())));
        onSolverChosen(solverCombo_->currentIndex());
    }
    optionForm_->setValues(r->options());
    timeline_->setLast(r->iteration());
    showFrame();
}

void MainWindow::onRecords(int id) {
    if (id != selectedId_) {
        if (!timeline_->isLive()) refreshRunRow(id);
        return;
    }
    Run* r = selectedRun();
    timeline_->setLast(r->iteration());
    if (!timeline_->isLive()) showFrame();  // the caption's count and the run rows
}

void MainWindow::onRunSnapshot(int id) {
    logEvents(id);
    // Any run's new picture: the views that draw a race show every run.
    if (timeline_->isLive()) showFrame();
}

void MainWindow::logEvents(int id) {
    const Run* r = controller_->runById(id);
    if (!r) return;
    int& logged = eventsLogged_[id];
    const auto& history = r->history();
    // Stepped or slowed down, every step's events are told; flat out they would flood the
    // log, so only the run's end is.
    const bool teaching = !r->playing() || controller_->delayMs() > 0;
    auto first = history.end();
    while (first != history.begin() && (*(first - 1))->record.iteration > logged)
        --first;
    for (auto it = first; it != history.end(); ++it) {
        const Snapshot& s = **it;
        if (s.events.empty() || (!teaching && it + 1 != history.end())) continue;
        QStringList texts;
        for (const std::string& text : s.events)
            texts << QString::fromStdString(text);
        log_->appendMessage(QString("#%1 %2, iteration %3: %4")
                                .arg(id)
                                .arg(QString::fromStdString(r->solver()))
                                .arg(s.record.iteration)
                                .arg(readableNumbers(texts.join("; "))));
    }
    if (!history.empty()) logged = std::max(logged, history.back()->record.iteration);
}

void MainWindow::onRunStatus(int id) {
    refreshRunRow(id);
    Run* r = controller_->runById(id);
    if (r && id == selectedId_ && timeline_->isLive()) showFrame();
    updateButtons();
}

// ---- what the views show --------------------------------------------------------------------

int MainWindow::shownIteration() const {
    const Run* r = selectedRun();
    if (!r) return 0;
    return timeline_->isLive() ? r->iteration() : std::min(timeline_->position(), r->iteration());
}

void MainWindow::showIteration(int iteration) {
    timeline_->setPosition(iteration);
    if (timeline_->isLive()) showFrame();
}

void MainWindow::goLive() {
    timeline_->setLive(true);
    showFrame();
}

const IterationRecord& MainWindow::recordAtKey(const Run& run, double key) const {
    const widgets::XAxisKind axis = boundsPlot_->xAxis();
    if (axis == widgets::XAxisKind::Iteration) return run.recordAt(static_cast<int>(key));
    const auto& trace = run.trace();
    if (axis == widgets::XAxisKind::PathParameter || axis == widgets::XAxisKind::LogPathParameter) {
        // A path may run either way: the point nearest to the key.
        const IterationRecord* best = &run.recordAt(0);
        double distance = std::numeric_limits<double>::infinity();
        for (const auto& r : trace) {
            const double d = std::abs(widgets::axisKey(axis, r) - key);
            if (d < distance) {
                distance = d;
                best = &r;
            }
        }
        return *best;
    }
    // Counting axes grow with the iterations: the last record at or before the key.
    const auto it = std::upper_bound(trace.begin(), trace.end(), key,
                                     [axis](double value, const IterationRecord& r) {
                                         return value < widgets::axisKey(axis, r);
                                     });
    return it == trace.begin() ? run.recordAt(0) : *(it - 1);
}

void MainWindow::showFrame() {
    Run* r = selectedRun();
    if (!r || !r->ready()) {
        refreshRunRows();
        return;
    }
    const int iteration = shownIteration();
    widgets::ViewFrame frame;
    frame.runId = r->id();
    frame.snapshot = timeline_->isLive() ? r->snapshot() : r->snapshotAt(iteration);
    frame.records =
        std::span<const IterationRecord>(r->trace().data(), static_cast<std::size_t>(iteration));
    frame.columns = r->extraColumns();
    std::vector<SnapshotPtr> shown{frame.snapshot};
    for (int k = 0; k < runCount(); ++k) {
        const Run* other = run(k);
        if (!other->ready()) continue;
        // The same position for every run: live, or the selected run's iteration.
        const int at =
            timeline_->isLive() ? other->iteration() : std::min(iteration, other->iteration());
        widgets::RaceEntry entry;
        entry.runId = other->id();
        entry.label = other->label();
        entry.colour = other->color();
        entry.marker = other->id() - 1;
        entry.snapshot = timeline_->isLive() ? other->snapshot() : other->snapshotAt(at);
        entry.records =
            std::span<const IterationRecord>(other->trace().data(), static_cast<std::size_t>(at));
        entry.columns = other->extraColumns();
        shown.push_back(entry.snapshot);
        frame.race.push_back(std::move(entry));
    }
    // The view redraws only for another picture (records alone arrive 25 times a second).
    if (frame.snapshot && (shown != shownSnapshots_ || r->id() != shownRun_)) {
        shownSnapshots_ = std::move(shown);
        shownRun_ = r->id();
        if (widgets::FamilyView* view = currentView(); view && !view->showFrame(frame)) {
            log_->appendError(tr("%1: the %2 view cannot draw this run's snapshots")
                                  .arg(r->label(), QString::fromStdString(problem()->info.family)));
        }
        pseudocode_->setExecuted(frame.snapshot->executedLines);
    }
    const IterationRecord& record = r->recordAt(iteration);
    // The gap's progress toward the run's tolerance at the shown iteration; a path run's
    // progress along its parameter.
    if (r->status().finished() && iteration >= r->iteration()) {
        // A finished run: a full bar and how it ended (a path's or SLMC's gap never reaches
        // a tolerance, and a finished run is done whatever its gap).
        progress_->setFinished(
            QString("%1: gap %2").arg(statusName(r->status().code)).arg(record.gap, 0, 'g', 3));
    } else if (!(r->gapTolerance() > 0) && r->maxIterations() > 0) {
        progress_->setIterations(iteration, r->maxIterations());
    } else if (r->followsPath() && std::isfinite(r->pathEnd()) && record.hasPathParameter()) {
        progress_->setPath(r->recordAt(0).pathParameter, record.pathParameter, r->pathEnd());
    } else {
        progress_->reset(r->gapTolerance());
        for (const auto& rec : frame.records) {
            if (std::isfinite(rec.gap) && rec.gap > 0) {
                progress_->setGap(rec.gap);
                break;
            }
        }
        progress_->setGap(record.gap);
    }
    updateStatusLine(record, frame);
    updateCaption(frame, iteration);
    timeline_->setCaption(timeline_->isLive()
                              ? tr("iteration %1 (live)").arg(iteration)
                              : tr("iteration %1 of %2").arg(iteration).arg(r->iteration()));
    boundsPlot_->setMarker(timeline_->isLive() ? qQNaN()
                                               : widgets::axisKey(boundsPlot_->xAxis(), record));
    refreshRunRows();
}

void MainWindow::refreshRunRows() {
    for (int k = 0; k < runCount(); ++k)
        refreshRunRow(run(k)->id());
}

void MainWindow::refreshRunRow(int id) {
    const int row = controller_->indexOf(id);
    Run* r = controller_->runById(id);
    if (row < 0 || !r || row >= runTable_->rowCount()) return;
    auto* name = runTable_->item(row, kColRun);
    // The solver always readable; the options elided to the column (in full on hover).
    const int iconAndPadding = runTable_->iconSize().width() + 16;
    name->setText(widgets::elideRunLabel(r->label(), runTable_->fontMetrics(),
                                         runTable_->columnWidth(kColRun) - iconAndPadding));
    name->setData(Qt::UserRole, id);
    QPixmap swatch(12, 12);
    swatch.fill(r->color());
    name->setIcon(QIcon(swatch));
    runTable_->item(row, kColStatus)->setToolTip(QString::fromStdString(r->status().message));
    // Live: the newest record; scrubbed back: the record at the timeline's position (the
    // selected run's iteration, or the same time, calls or passes for the others).
    const IterationRecord* record = &r->lastRecord();
    if (!timeline_->isLive()) {
        if (Run* shown = selectedRun()) {
            const IterationRecord& at = shown->recordAt(shownIteration());
            record = id == selectedId_
                         ? &at
                         : &recordAtKey(*r, widgets::axisKey(boundsPlot_->xAxis(), at));
        }
    }
    runTable_->item(row, kColStatus)->setText(r->stateText(record->iteration, true));
    runTable_->item(row, kColIteration)->setText(QString::number(record->iteration));
    const Family* family = controller_->family();
    const BoundLabels labels = family ? family->boundLabels() : BoundLabels{};
    const QString bounds =
        QString("%1 %2\n%3 %4")
            .arg(QString::fromStdString(labels.upper), QString::number(record->upper, 'g', 6),
                 QString::fromStdString(labels.lower), QString::number(record->lower, 'g', 6));
    name->setToolTip(r->label() + "\n" + bounds);
    runTable_->item(row, kColGap)->setText(QString::number(record->gap, 'e', 2));
}

void MainWindow::updateStatusLine(const IterationRecord& rec, const widgets::ViewFrame& frame) {
    Run* r = selectedRun();
    const Family* family = controller_->family();
    const BoundLabels labels = family ? family->boundLabels() : BoundLabels{};
    QString text = tr("%1   iteration %2   %3 %4   %5 %6   gap %7   oracles %8   %9 s   [%10]")
                       .arg(QString("#%1 %2").arg(r->id()).arg(QString::fromStdString(r->solver())))
                       .arg(rec.iteration)
                       .arg(boundHead(labels.upper), number(rec.upper), boundHead(labels.lower),
                            number(rec.lower))
                       .arg(rec.gap, 0, 'e', 3)
                       .arg(rec.oracleCalls)
                       .arg(rec.seconds, 0, 'f', 3)
                       .arg(r->stateText(rec.iteration));
    if (rec.hasPathParameter()) text += tr("   path parameter %1").arg(number(rec.pathParameter));
    if (widgets::FamilyView* view = currentView(); view && frame.snapshot) {
        const QString extra = view->statusText(frame);
        if (!extra.isEmpty()) text += "   " + extra;
    }
    statusLine_->setFullText(text);
}

QString MainWindow::statusText() const {
    return statusLine_->fullText();
}

widgets::FamilyView* MainWindow::view(const std::string& family) const {
    const auto it = views_.find(family);
    return it == views_.end() ? nullptr : it->second;
}

widgets::FamilyView* MainWindow::currentView() const {
    return qobject_cast<widgets::FamilyView*>(viewStack_->currentWidget());
}

void MainWindow::updateButtons() {
    const bool anyActive = controller_->anyActive();
    for (QPushButton* b : {runButton_, pauseButton_, stepButton_, step10Button_, cancelButton_})
        b->setEnabled(anyActive);
    resetButton_->setEnabled(runCount() > 0);
    applyButton_->setEnabled(selectedId_ >= 0);
    removeButton_->setEnabled(selectedId_ >= 0);
    addRunButton_->setEnabled(problem() != nullptr);
}

// ---- controls and exports -------------------------------------------------------------------

void MainWindow::runAll() {
    controller_->runAll();
}

void MainWindow::pauseAll() {
    controller_->pauseAll();
}

void MainWindow::stepAll(int count) {
    controller_->stepAll(count);
}

void MainWindow::cancelAll() {
    controller_->cancelAll();
}

void MainWindow::resetAll() {
    controller_->resetAll();
    updateButtons();
}

void MainWindow::setDelayMs(int milliseconds) {
    milliseconds = std::clamp(milliseconds, 0, kMaxDelayMs);
    controller_->setDelayMs(milliseconds);
    delayLabel_->setText(milliseconds == 0     ? tr("full speed")
                         : milliseconds < 1000 ? tr("%1 ms").arg(milliseconds)
                                               : tr("%1 s").arg(milliseconds / 1000.0, 0, 'g', 2));
    const QSignalBlocker block(delaySlider_);
    delaySlider_->setValue(delaySliderPosition(milliseconds));
}

void MainWindow::setHistoryBudgetMb(int megabytes) {
    controller_->setHistoryBudget(static_cast<std::size_t>(std::max(1, megabytes)) << 20);
    log_->appendMessage(tr("history budget %1 MB for all runs").arg(megabytes));
}

void MainWindow::setTestSplit(double testFraction, int seed) {
    for (auto& [name, view] : views_)
        view->setTestSplit(testFraction, seed);
}

}  // namespace cplab
