// SPDX-License-Identifier: GPL-3.0-or-later
#include "playback.h"

#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>
#include <cmath>
#include <limits>

#include "bounds_plot.h"
#include "centre_area.h"
#include "elided_label.h"
#include "family_view.h"
#include "gap_progress.h"
#include "log_panel.h"
#include "plot_style.h"
#include "presentation.h"
#include "pseudocode_panel.h"
#include "run.h"
#include "run_controller.h"
#include "setup_panel.h"
#include "timeline_bar.h"
#include "window_context.h"

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

// The x axes offered, in the order of the combo box.
const widgets::XAxisKind kAxes[] = {
    widgets::XAxisKind::Iteration,     widgets::XAxisKind::Seconds,
    widgets::XAxisKind::OracleCalls,   widgets::XAxisKind::Passes,
    widgets::XAxisKind::PathParameter, widgets::XAxisKind::LogPathParameter};

}  // namespace

int delayFromSlider(int position) {
    const double t = std::clamp(position, 0, kDelaySliderSteps) / double(kDelaySliderSteps);
    const int ms = static_cast<int>(std::lround(kMaxDelayMs * t * t));
    return ms < 20 ? ms : ms - ms % 10;  // round numbers past the first steps
}

int delaySliderPosition(int milliseconds) {
    const double t = std::sqrt(std::clamp(milliseconds, 0, kMaxDelayMs) / double(kMaxDelayMs));
    return static_cast<int>(std::lround(t * kDelaySliderSteps));
}

// The tool bar: run, pause, step, reset, cancel, the delay per step and the x axis.
Playback::Playback(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {
    QMainWindow* window = ctx.window;
    auto* controls = window->addToolBar(tr("Run controls"));
    controls->setObjectName("runControls");
    controls->setMovable(false);
    runButton_ = controlButton(tr("Run"), "runButton", tr("Run all runs until they stop"), window);
    pauseButton_ = controlButton(tr("Pause"), "pauseButton", tr("Pause all runs"), window);
    stepButton_ = controlButton(tr("Step"), "stepButton", tr("One iteration of every run"), window);
    step10Button_ =
        controlButton(tr("Step x10"), "step10Button", tr("Ten iterations of every run"), window);
    resetButton_ = controlButton(tr("Reset"), "resetButton",
                                 tr("Restart every run from iteration 0 with its options"), window);
    cancelButton_ =
        controlButton(tr("Cancel"), "cancelButton", tr("Stop every run for good"), window);
    for (QPushButton* b :
         {runButton_, pauseButton_, stepButton_, step10Button_, resetButton_, cancelButton_}) {
        controls->addWidget(b);
    }
    controls->addSeparator();
    controls->addWidget(new QLabel(tr(" Delay "), window));
    delaySlider_ = new QSlider(Qt::Horizontal, window);
    delaySlider_->setObjectName("delaySlider");
    delaySlider_->setRange(0, kDelaySliderSteps);
    delaySlider_->setSingleStep(10);
    delaySlider_->setPageStep(100);
    delaySlider_->setFixedWidth(120);
    delaySlider_->setToolTip(tr("Pause between iterations while running (0: full speed)"));
    controls->addWidget(delaySlider_);
    delayLabel_ = new QLabel(window);
    delayLabel_->setMinimumWidth(60);
    controls->addWidget(delayLabel_);
    controls->addSeparator();
    controls->addWidget(new QLabel(tr(" x axis "), window));
    xAxisCombo_ = new QComboBox(window);
    xAxisCombo_->setObjectName("xAxisCombo");
    for (const auto kind : kAxes)
        xAxisCombo_->addItem(widgets::axisLabel(kind));
    controls->addWidget(xAxisCombo_);
    connectControls();
}

void Playback::connectControls() {
    connect(ctx_.timeline, &widgets::TimelineBar::positionChosen, this, [this] { showFrame(); });
    connect(ctx_.timeline, &widgets::TimelineBar::liveChosen, this, [this] { showFrame(); });
    connect(runButton_, &QPushButton::clicked, this, &Playback::runAll);
    connect(pauseButton_, &QPushButton::clicked, this, &Playback::pauseAll);
    connect(stepButton_, &QPushButton::clicked, this, [this] { stepAll(1); });
    connect(step10Button_, &QPushButton::clicked, this, [this] { stepAll(10); });
    connect(resetButton_, &QPushButton::clicked, this, &Playback::resetAll);
    connect(cancelButton_, &QPushButton::clicked, this, &Playback::cancelAll);
    connect(delaySlider_, &QSlider::valueChanged, this,
            [this](int position) { setDelayMs(delayFromSlider(position)); });
    connect(xAxisCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0) return;
        ctx_.boundsPlot->setXAxis(kAxes[index]);
        showFrame();  // the marker and the other runs' rows follow the axis
    });
}

void Playback::buildStatusBar() {
    statusLine_ = new widgets::ElidedLabel(ctx_.window);
    statusLine_->setObjectName("statusLine");
    progress_ = new widgets::GapProgress(ctx_.window);
    progress_->setMinimumWidth(300);
    ctx_.window->statusBar()->addWidget(statusLine_, 1);
    ctx_.window->statusBar()->addPermanentWidget(progress_);
}

void Playback::addRunMenu(QMenu* run) {
    run->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &Playback::runAll);
    run->addAction(tr("&Pause"), QKeySequence(Qt::Key_F6), this, &Playback::pauseAll);
    run->addAction(tr("&Step"), QKeySequence(Qt::Key_F10), this, [this] { stepAll(1); });
    run->addAction(tr("Step x&10"), QKeySequence(Qt::SHIFT | Qt::Key_F10), this,
                   [this] { stepAll(10); });
    run->addAction(tr("R&eset"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &Playback::resetAll);
    run->addSeparator();
    run->addAction(tr("&Live (follow the newest iteration)"), QKeySequence(Qt::Key_End), this,
                   &Playback::goLive);
    run->addAction(tr("History &budget..."), this, [this] {
        bool ok = false;
        const int mb = QInputDialog::getInt(
            ctx_.window, tr("History budget"),
            tr("Memory for the snapshots of all runs together (MB); past it old snapshots are "
               "thinned:"),
            static_cast<int>(ctx_.controller->historyBudget() >> 20), 1, 65536, 16, &ok);
        if (ok) setHistoryBudgetMb(mb);
    });
}

// ---- controls -------------------------------------------------------------------------------

void Playback::runAll() {
    ctx_.controller->runAll();
}

void Playback::pauseAll() {
    ctx_.controller->pauseAll();
}

void Playback::stepAll(int count) {
    ctx_.controller->stepAll(count);
}

void Playback::cancelAll() {
    ctx_.controller->cancelAll();
}

void Playback::resetAll() {
    ctx_.controller->resetAll();
    updateButtons();
    ctx_.setup->updateButtons();
}

void Playback::setDelayMs(int milliseconds) {
    milliseconds = std::clamp(milliseconds, 0, kMaxDelayMs);
    ctx_.controller->setDelayMs(milliseconds);
    delayLabel_->setText(milliseconds == 0     ? tr("full speed")
                         : milliseconds < 1000 ? tr("%1 ms").arg(milliseconds)
                                               : tr("%1 s").arg(milliseconds / 1000.0, 0, 'g', 2));
    const QSignalBlocker block(delaySlider_);
    delaySlider_->setValue(delaySliderPosition(milliseconds));
}

void Playback::setHistoryBudgetMb(int megabytes) {
    ctx_.controller->setHistoryBudget(static_cast<std::size_t>(std::max(1, megabytes)) << 20);
    ctx_.log->appendMessage(tr("history budget %1 MB for all runs").arg(megabytes));
}

int Playback::xAxisIndex() const {
    return xAxisCombo_->currentIndex();
}

void Playback::setXAxisIndex(int index) {
    if (index >= 0 && index < xAxisCombo_->count()) xAxisCombo_->setCurrentIndex(index);
}

void Playback::updateButtons() {
    const bool anyActive = ctx_.controller->anyActive();
    for (QPushButton* b : {runButton_, pauseButton_, stepButton_, step10Button_, cancelButton_})
        b->setEnabled(anyActive);
    resetButton_->setEnabled(ctx_.controller->runCount() > 0);
}

// ---- what the controller reports ------------------------------------------------------------

void Playback::onRecords(int id) {
    if (id != ctx_.setup->selectedId()) {
        if (!ctx_.timeline->isLive()) ctx_.setup->refreshRunRow(id);
        return;
    }
    Run* r = ctx_.setup->selectedRun();
    ctx_.timeline->setLast(r->iteration());
    if (!ctx_.timeline->isLive()) showFrame();  // the caption's count and the run rows
}

void Playback::onSnapshot(int id) {
    logEvents(id);
    // Any run's new picture: the views that draw a race show every run.
    if (ctx_.timeline->isLive()) showFrame();
}

void Playback::onStatus(int id) {
    ctx_.setup->refreshRunRow(id);
    Run* r = ctx_.controller->runById(id);
    if (r && id == ctx_.setup->selectedId() && ctx_.timeline->isLive()) showFrame();
}

void Playback::forgetEvents(int id) {
    eventsLogged_.erase(id);
}

void Playback::logEvents(int id) {
    const Run* r = ctx_.controller->runById(id);
    if (!r) return;
    int& logged = eventsLogged_[id];
    const auto& history = r->history().snapshots();
    // Stepped or slowed down, every step's events are told; flat out they would flood the
    // log, so only the run's end is.
    const bool teaching = !r->playing() || ctx_.controller->delayMs() > 0;
    auto first = history.end();
    while (first != history.begin() && (*(first - 1))->record.iteration > logged)
        --first;
    for (auto it = first; it != history.end(); ++it) {
        const Snapshot& s = **it;
        if (s.events.empty() || (!teaching && it + 1 != history.end())) continue;
        QStringList texts;
        for (const std::string& text : s.events)
            texts << QString::fromStdString(text);
        ctx_.log->appendMessage(QString("%1, iteration %2: %3")
                                    .arg(ctx_.controller->runName(id).brief())
                                    .arg(s.record.iteration)
                                    .arg(readableNumbers(texts.join("; "))));
    }
    if (!history.empty()) logged = std::max(logged, history.back()->record.iteration);
}

void Playback::clearProblem() {
    ctx_.boundsPlot->resetAxes();  // not the previous problem's ranges until the first step
    ctx_.pseudocode->clear();
    statusLine_->setFullText({});
    ctx_.timeline->setLast(0);
    ctx_.timeline->setLive(true);
    ctx_.timeline->setCaption({});
    ctx_.centre->clearViews();
    shownSnapshots_.clear();
    shownRun_ = -1;
}

void Playback::clearRun() {
    // Nothing left to show: every view, the pseudocode and the status line clear.
    ctx_.centre->clearViews();
    shownSnapshots_.clear();
    shownRun_ = -1;
    ctx_.pseudocode->clear();
    statusLine_->setFullText({});
    progress_->reset(1.0);
    ctx_.timeline->setLast(0);
    ctx_.timeline->setLive(true);
    ctx_.timeline->setCaption({});
    ctx_.boundsPlot->setMarker(qQNaN());
}

// ---- what the views show --------------------------------------------------------------------

int Playback::shownIteration() const {
    const Run* r = ctx_.setup->selectedRun();
    if (!r) return 0;
    return ctx_.timeline->isLive() ? r->iteration()
                                   : std::min(ctx_.timeline->position(), r->iteration());
}

bool Playback::live() const {
    return ctx_.timeline->isLive();
}

void Playback::showIteration(int iteration) {
    ctx_.timeline->setPosition(iteration);
    if (ctx_.timeline->isLive()) showFrame();
}

void Playback::goLive() {
    ctx_.timeline->setLive(true);
    showFrame();
}

const IterationRecord& Playback::recordAtKey(const Run& run, double key) const {
    const widgets::XAxisKind axis = ctx_.boundsPlot->xAxis();
    if (axis == widgets::XAxisKind::Iteration) return run.history().recordAt(static_cast<int>(key));
    const auto& trace = run.trace();
    if (axis == widgets::XAxisKind::PathParameter || axis == widgets::XAxisKind::LogPathParameter) {
        // A path may run either way: the point nearest to the key.
        const IterationRecord* best = &run.history().recordAt(0);
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
    return it == trace.begin() ? run.history().recordAt(0) : *(it - 1);
}

const IterationRecord& Playback::recordShown(const Run& run) const {
    // Live: the newest record; scrubbed back: the record at the timeline's position (the
    // selected run's iteration, or the same time, calls or passes for the others).
    const IterationRecord* record = &run.history().lastRecord();
    if (!ctx_.timeline->isLive()) {
        if (Run* shown = ctx_.setup->selectedRun()) {
            const IterationRecord& at = shown->history().recordAt(shownIteration());
            record = run.id() == ctx_.setup->selectedId()
                         ? &at
                         : &recordAtKey(run, widgets::axisKey(ctx_.boundsPlot->xAxis(), at));
        }
    }
    return *record;
}

// The selected run at `iteration` and every ready run at the same position (the race).
widgets::ViewFrame Playback::frameOf(const Run& r, int iteration) const {
    const bool live = ctx_.timeline->isLive();
    widgets::ViewFrame frame;
    frame.runId = r.id();
    frame.snapshot = live ? r.history().snapshot() : r.history().snapshotAt(iteration);
    frame.records =
        std::span<const IterationRecord>(r.trace().data(), static_cast<std::size_t>(iteration));
    frame.columns = r.extraColumns();
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const Run* other = ctx_.controller->run(k);
        if (!other->ready()) continue;
        // The same position for every run: live, or the selected run's iteration.
        const int at = live ? other->iteration() : std::min(iteration, other->iteration());
        widgets::RaceEntry entry;
        entry.runId = other->id();
        entry.label = ctx_.controller->runName(other->id()).viewLegend();
        entry.colour = other->color();
        entry.marker = other->id() - 1;
        entry.snapshot = live ? other->history().snapshot() : other->history().snapshotAt(at);
        entry.records =
            std::span<const IterationRecord>(other->trace().data(), static_cast<std::size_t>(at));
        entry.columns = other->extraColumns();
        frame.race.push_back(std::move(entry));
    }
    return frame;
}

// The view redraws only for another picture (records alone arrive 25 times a second).
void Playback::drawFrame(const Run& r, const widgets::ViewFrame& frame) {
    std::vector<SnapshotPtr> shown{frame.snapshot};
    for (const widgets::RaceEntry& entry : frame.race)
        shown.push_back(entry.snapshot);
    if (!frame.snapshot || (shown == shownSnapshots_ && r.id() == shownRun_)) return;
    shownSnapshots_ = std::move(shown);
    shownRun_ = r.id();
    if (widgets::FamilyView* view = ctx_.centre->current(); view && !view->showFrame(frame)) {
        ctx_.log->appendError(
            tr("%1: the %2 view cannot draw this run's snapshots")
                .arg(ctx_.controller->runLabel(r.id()),
                     QString::fromStdString(ctx_.controller->problem()->info.family)));
    }
    ctx_.pseudocode->setExecuted(frame.snapshot->executedLines);
}

void Playback::showFrame() {
    Run* r = ctx_.setup->selectedRun();
    if (!r || !r->ready()) {
        ctx_.setup->refreshRunRows();
        return;
    }
    const int iteration = shownIteration();
    const widgets::ViewFrame frame = frameOf(*r, iteration);
    drawFrame(*r, frame);
    const IterationRecord& record = r->history().recordAt(iteration);
    updateProgress(*r, record, frame, iteration);
    updateStatusLine(record, frame);
    ctx_.presentation->updateCaption(frame, iteration);
    const bool live = ctx_.timeline->isLive();
    ctx_.timeline->setCaption(live ? tr("iteration %1 (live)").arg(iteration)
                                   : tr("iteration %1 of %2").arg(iteration).arg(r->iteration()));
    ctx_.boundsPlot->setMarker(live ? qQNaN() : widgets::axisKey(ctx_.boundsPlot->xAxis(), record));
    ctx_.setup->refreshRunRows();
}

void Playback::redraw() {
    shownSnapshots_.clear();  // the views redraw their graphs
    showFrame();
}

// The gap's progress toward the run's tolerance at the shown iteration; a path run's
// progress along its parameter.
void Playback::updateProgress(const Run& r, const IterationRecord& record,
                              const widgets::ViewFrame& frame, int iteration) {
    if (r.status().finished() && iteration >= r.iteration()) {
        // A finished run: a full bar and how it ended (a path's or SLMC's gap never reaches
        // a tolerance, and a finished run is done whatever its gap).
        progress_->setFinished(
            QString("%1: gap %2").arg(statusName(r.status().code)).arg(record.gap, 0, 'g', 3));
    } else if (!(r.gapTolerance() > 0) && r.maxIterations() > 0) {
        progress_->setIterations(iteration, r.maxIterations());
    } else if (r.followsPath() && std::isfinite(r.pathEnd()) && record.hasPathParameter()) {
        progress_->setPath(r.history().recordAt(0).pathParameter, record.pathParameter,
                           r.pathEnd());
    } else {
        progress_->reset(r.gapTolerance());
        for (const auto& rec : frame.records) {
            if (std::isfinite(rec.gap) && rec.gap > 0) {
                progress_->setGap(rec.gap);
                break;
            }
        }
        progress_->setGap(record.gap);
    }
}

void Playback::updateStatusLine(const IterationRecord& rec, const widgets::ViewFrame& frame) {
    Run* r = ctx_.setup->selectedRun();
    const Family* family = ctx_.controller->family();
    const BoundLabels labels = family ? family->boundLabels() : BoundLabels{};
    QString text = tr("%1   iteration %2   %3 %4   %5 %6   gap %7   oracles %8   %9 s   [%10]")
                       .arg(ctx_.controller->runName(r->id()).brief())
                       .arg(rec.iteration)
                       .arg(boundHead(labels.upper), number(rec.upper), boundHead(labels.lower),
                            number(rec.lower))
                       .arg(rec.gap, 0, 'e', 3)
                       .arg(rec.oracleCalls)
                       .arg(rec.seconds, 0, 'f', 3)
                       .arg(r->stateText(rec.iteration, true));  // the runs table's word
    if (rec.hasPathParameter()) text += tr("   path parameter %1").arg(number(rec.pathParameter));
    if (widgets::FamilyView* view = ctx_.centre->current(); view && frame.snapshot) {
        const QString extra = view->statusText(frame);
        if (!extra.isEmpty()) text += "   " + extra;
    }
    statusLine_->setFullText(text);
}

QString Playback::statusText() const {
    return statusLine_->fullText();
}

}  // namespace cplab
