// SPDX-License-Identifier: GPL-3.0-or-later
#include "setup_panel.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "centre_area.h"
#include "log_panel.h"
#include "option_form.h"
#include "playback.h"
#include "plot_style.h"
#include "presentation.h"
#include "pseudocode_panel.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "timeline_bar.h"
#include "typed_problem_controls.h"
#include "window_context.h"

namespace cplab {

namespace {

// A combo box as narrow as the panel needs: long titles are cut in the box, whole in its list
// (sized to its longest item, one title would widen the whole left dock).
void allowNarrow(QComboBox* combo) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(24);
}

// A label's text colour by its palette (a style sheet would stop the window's font scale).
void setTextColour(QLabel* label, const QColor& colour) {
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, colour);
    label->setPalette(palette);
}

}  // namespace

QPushButton* controlButton(const QString& text, const QString& name, const QString& tip,
                           QWidget* parent) {
    auto* button = new QPushButton(text, parent);
    button->setObjectName(name);
    button->setToolTip(tip);
    return button;
}

void widenList(QComboBox* combo) {
    combo->view()->setMinimumWidth(combo->view()->sizeHintForColumn(0) +
                                   combo->view()->verticalScrollBar()->sizeHint().width());
}

// The dock: demo, problem, solver and options, which scroll, and below them, always in view,
// Add run / Apply and the runs with Remove run.
SetupPanel::SetupPanel(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {
    auto* leftPanel = new QWidget(ctx.window);
    auto* leftLayout = new QVBoxLayout(leftPanel);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    // The set-up above, the runs below a handle: a race of many runs can take more room.
    auto* leftSplitter = new QSplitter(Qt::Vertical, leftPanel);
    leftSplitter->setObjectName("leftSplitter");
    auto* scroll = new QScrollArea(leftSplitter);
    scroll->setObjectName("setupScroll");
    scroll->setWidget(buildSetupPanel(ctx.window));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    leftSplitter->addWidget(scroll);
    leftSplitter->addWidget(buildRunsPanel(ctx.window));
    leftSplitter->setStretchFactor(0, 1);
    leftSplitter->setStretchFactor(1, 0);
    leftSplitter->setChildrenCollapsible(false);
    leftLayout->addWidget(leftSplitter, 1);
    leftPanel->setMinimumWidth(320);
    auto* left = new QDockWidget(tr("Problem and solver"), ctx.window);
    left->setObjectName("problemDock");
    left->setWidget(leftPanel);
    left->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    ctx.window->addDockWidget(Qt::LeftDockWidgetArea, left);
}

QWidget* SetupPanel::buildSetupPanel(QWidget* parent) {
    auto* panel = new QWidget(parent);
    auto* panelLayout = new QVBoxLayout(panel);

    auto* demoBox = new QGroupBox(tr("Demo"), panel);
    auto* demoLayout = new QVBoxLayout(demoBox);
    demoCombo_ = new QComboBox(demoBox);
    demoCombo_->setObjectName("demoCombo");
    demoCombo_->addItem(tr("(choose a demo)"), QString());
    for (const auto& demo : demoCatalog()) {
        demoCombo_->addItem(QString::fromStdString(demo.title), QString::fromStdString(demo.name));
        demoCombo_->setItemData(demoCombo_->count() - 1, QString::fromStdString(demo.description),
                                Qt::ToolTipRole);
    }
    allowNarrow(demoCombo_);
    widenList(demoCombo_);
    demoLayout->addWidget(demoCombo_);
    panelLayout->addWidget(demoBox);

    auto* problemBox = new QGroupBox(tr("Problem"), panel);
    problemLayout_ = new QVBoxLayout(problemBox);
    problemCombo_ = new QComboBox(problemBox);
    problemCombo_->setObjectName("problemCombo");
    allowNarrow(problemCombo_);
    problemDescription_ = new QLabel(problemBox);
    problemDescription_->setWordWrap(true);
    setTextColour(problemDescription_, widgets::colors::kText);
    problemLayout_->addWidget(problemCombo_);
    problemLayout_->addWidget(problemDescription_);
    // Each family's own problem controls (a dataset's test split, a typed function's fields),
    // shown for its problems.
    ctx_.centre->addProblemControls(problemBox, problemLayout_);
    connectTypedProblems(problemBox);
    panelLayout->addWidget(problemBox);

    auto* solverBox = new QGroupBox(tr("Solver"), panel);
    auto* solverLayout = new QVBoxLayout(solverBox);
    solverCombo_ = new QComboBox(solverBox);
    solverCombo_->setObjectName("solverCombo");
    allowNarrow(solverCombo_);
    solverDescription_ = new QLabel(solverBox);
    solverDescription_->setWordWrap(true);
    setTextColour(solverDescription_, widgets::colors::kText);
    optionForm_ = new OptionForm(solverBox);
    optionForm_->setObjectName("optionForm");
    solverLayout->addWidget(solverCombo_);
    solverLayout->addWidget(solverDescription_);
    solverLayout->addWidget(optionForm_);
    panelLayout->addWidget(solverBox);
    panelLayout->addStretch(1);
    wheelOnlyWhenFocused(panel);  // the wheel scrolls the panel (the test fraction went to 0.10)
    connectSetup();
    return panel;
}

// The families' typed problems (widgets/common/typed_problem_controls.h, declared by their
// views): Enter or "Use this function" loads the problem with the fields' options (a message in
// the log when they cannot be read, before asking whether to discard the runs).
void SetupPanel::connectTypedProblems(QWidget* problemBox) {
    typedControls_ = problemBox->findChildren<widgets::TypedProblemControls*>();
    for (auto* typed : typedControls_) {
        connect(typed, &widgets::TypedProblemControls::loadRequested, this,
                [this](const QString& name) {
                    // Read first: a function or polygon that cannot be read is a message in the
                    // log, without asking to discard the runs it would not replace.
                    std::string why;
                    auto problem = makeProblem(name.toStdString(), problemOptions(), &why);
                    if (!problem)
                        ctx_.log->appendError(QString::fromStdString(why));
                    else if (confirmDiscardRuns())
                        setProblemWithRun(std::move(problem));
                });
    }
}

// The typed fields of the problem chosen in the list show, holding the loaded problem's options
// when it is that problem (a session's or a demo's).
void SetupPanel::showTypedProblems(const ProblemInstance* loaded) {
    const std::string chosen = problemCombo_->currentData().toString().toStdString();
    for (auto* typed : typedControls_) {
        const bool isLoaded =
            loaded && loaded->info.name == typed->problem() && loaded->info.name == chosen;
        typed->showChoice(chosen, isLoaded ? &loaded->origin.options : nullptr);
    }
}

void SetupPanel::connectSetup() {
    connect(demoCombo_, &QComboBox::activated, this, [this](int index) {
        const QString name = demoCombo_->itemData(index).toString();
        if (!name.isEmpty() && confirmDiscardRuns()) loadDemo(name);
    });
    connect(problemCombo_, &QComboBox::activated, this, [this](int index) {
        const QString name = problemCombo_->itemData(index).toString();
        showTypedProblems(nullptr);
        if (!name.isEmpty() && confirmDiscardRuns()) loadProblem(name);
    });
    connect(solverCombo_, &QComboBox::currentIndexChanged, this, &SetupPanel::onSolverChosen);
}

QWidget* SetupPanel::buildRunsPanel(QWidget* parent) {
    auto* panel = new QWidget(parent);
    auto* panelLayout = new QVBoxLayout(panel);
    auto* runButtons = new QHBoxLayout;
    addRunButton_ =
        controlButton(tr("Add run"), "addRunButton",
                      tr("Add a run of this solver with these options (a race)"), panel);
    applyButton_ =
        controlButton(tr("Apply to selected"), "applyButton",
                      tr("Restart the selected run with this solver and options"), panel);
    runButtons->addWidget(addRunButton_);
    runButtons->addWidget(applyButton_);
    panelLayout->addLayout(runButtons);

    auto* runsBox = new QGroupBox(tr("Runs (at the timeline's position)"), panel);
    auto* runsLayout = new QVBoxLayout(runsBox);
    runTable_ = new QTableWidget(0, kColumnCount, runsBox);
    runTable_->setWordWrap(false);
    runTable_->setObjectName("runTable");
    runTable_->setHorizontalHeaderLabels({tr("run"), tr("status"), tr("iter"), tr("gap")});
    runTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    runTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    runTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    runTable_->verticalHeader()->hide();
    runTable_->horizontalHeader()->setSectionResizeMode(kColRun, QHeaderView::Stretch);
    for (int c = kColStatus; c < kColumnCount; ++c)
        runTable_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    runTable_->setMinimumHeight(80);
    removeButton_ =
        controlButton(tr("Remove run"), "removeButton", tr("Remove the selected run"), runsBox);
    runsLayout->addWidget(runTable_);
    runsLayout->addWidget(removeButton_);
    panelLayout->addWidget(runsBox);
    connectRuns();
    return panel;
}

void SetupPanel::connectRuns() {
    // The names re-elide to the column when the table resizes.
    connect(runTable_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        if (column == kColRun) refreshRunRows();
    });
    connect(addRunButton_, &QPushButton::clicked, this, &SetupPanel::addRunFromForm);
    connect(applyButton_, &QPushButton::clicked, this, &SetupPanel::applyToSelected);
    connect(removeButton_, &QPushButton::clicked, this, &SetupPanel::removeSelected);
    connect(runTable_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = runTable_->selectionModel()->selectedRows();
        if (rows.isEmpty()) return;
        if (Run* r = ctx_.controller->run(rows.front().row()); r && r->id() != selectedId_) {
            selectedId_ = r->id();
            refreshSelection();
        }
    });
}

void SetupPanel::populateProblems() {
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

OptionValues SetupPanel::problemOptions() const {
    const ProblemInfo* info =
        problemCombo_->currentIndex() >= 0
            ? findProblem(problemCombo_->currentData().toString().toStdString())
            : nullptr;
    return ctx_.centre->problemOptions(info ? info->family : std::string());
}

void SetupPanel::showProblem() {
    const ProblemInstance* p = ctx_.controller->problem();
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
    // The list's entry names the loaded problem's dimension (a typed function's is its own:
    // the catalogue says 1-D for the nonsmooth family's).
    if (shown >= 0) {
        problemCombo_->setItemText(shown, QString("%1  [%2, %3-D]")
                                              .arg(QString::fromStdString(p->info.name),
                                                   QString::fromStdString(p->info.family))
                                              .arg(p->info.dimension));
    }
    showTypedProblems(p);
    problemDescription_->setText(
        QString::fromStdString(p->info.title + "\n\n" + p->info.description));
}

void SetupPanel::populateSolvers() {
    QSignalBlocker block(solverCombo_);
    solverCombo_->clear();
    for (const SolverInfo* s : solversForFamily(ctx_.controller->problem()->info.family))
        solverCombo_->addItem(QString::fromStdString(s->title), QString::fromStdString(s->name));
    widenList(solverCombo_);
    solverCombo_->setCurrentIndex(0);
    onSolverChosen(0);
    // The family's problem controls are made when its first problem is shown.
    wheelOnlyWhenFocused(problemCombo_->parentWidget());
}

void SetupPanel::onSolverChosen(int index) {
    const SolverInfo* info = findSolver(solverCombo_->itemData(index).toString().toStdString());
    if (!info) return;
    solverDescription_->setText(QString::fromStdString(info->description));
    optionForm_->setOptions(info->options);
}

void SetupPanel::setProblemWithRun(ProblemPtr problem) {
    demoCombo_->setCurrentIndex(0);
    ctx_.controller->setProblem(std::move(problem));
    QString why;
    if (!ctx_.controller->addRun(solverCombo_->currentData().toString().toStdString(), {}, &why)) {
        ctx_.log->appendError(why);
    }
}

bool SetupPanel::loadProblem(const QString& name) {
    std::string why;
    auto problem = makeProblem(name.toStdString(), problemOptions(), &why);
    if (!problem) {
        ctx_.log->appendError(QString::fromStdString(why));
        return false;
    }
    setProblemWithRun(std::move(problem));
    return true;
}

bool SetupPanel::loadDemo(const QString& name) {
    const DemoInfo* demo = findDemo(name.toStdString());
    if (!demo) {
        ctx_.log->appendError(tr("unknown demo '%1'").arg(name));
        return false;
    }
    std::string why;
    auto problem = makeProblem(demo->problem, &why);
    if (!problem) {
        ctx_.log->appendError(QString::fromStdString(why));
        return false;
    }
    ctx_.controller->setProblem(std::move(problem));
    ctx_.presentation->setDemo(demo);
    showDemo(name);
    ctx_.log->appendMessage(tr("demo: %1").arg(QString::fromStdString(demo->title)));
    for (const auto& run : demo->runs) {
        QString message;
        if (!ctx_.controller->addRun(run.solver, run.options, &message))
            ctx_.log->appendError(message);
    }
    selectRun(0);
    return true;
}

void SetupPanel::showDemo(const QString& name) {
    demoCombo_->setCurrentIndex(demoCombo_->findData(name));
}

bool SetupPanel::confirmDiscardRuns() {
    // Only work would be lost: runs that have made steps.
    int worked = 0;
    for (int k = 0; k < ctx_.controller->runCount(); ++k)
        worked += ctx_.controller->run(k)->iteration() > 0 ? 1 : 0;
    if (worked == 0) return true;
    return QMessageBox::question(
               ctx_.window, tr("Discard the runs?"),
               tr("Opening another problem discards the %n run(s) that have made steps, with their "
                  "histories. Go on?",
                  nullptr, worked),
               QMessageBox::Discard | QMessageBox::Cancel,
               QMessageBox::Cancel) == QMessageBox::Discard;
}

// ---- runs -----------------------------------------------------------------------------------

void SetupPanel::addRunFromForm() {
    QString why;
    const std::string solver = solverCombo_->currentData().toString().toStdString();
    if (!ctx_.controller->addRun(solver, optionForm_->changedValues(), &why)) {
        QMessageBox::warning(ctx_.window, tr("Invalid options"), why);
    }
}

void SetupPanel::applyToSelected() {
    Run* r = selectedRun();
    if (!r) return;
    QString why;
    if (!ctx_.controller->restartRun(r->id(), solverCombo_->currentData().toString().toStdString(),
                                     optionForm_->changedValues(), &why)) {
        QMessageBox::warning(ctx_.window, tr("Invalid options"), why);
    }
}

void SetupPanel::removeSelected() {
    if (selectedId_ >= 0) ctx_.controller->removeRun(selectedId_);
}

Run* SetupPanel::selectedRun() const {
    return ctx_.controller->runById(selectedId_);
}

void SetupPanel::selectRun(int index) {
    Run* r = ctx_.controller->run(index);
    if (!r) return;
    selectedId_ = r->id();
    runTable_->selectRow(index);
    refreshSelection();
}

void SetupPanel::refreshSelection() {
    Run* r = selectedRun();
    if (!r) return;
    const SolverInfo* info = findSolver(r->solver());
    ctx_.pseudocode->setPseudocode(QString::fromStdString(info ? info->title : r->solver()),
                                   r->pseudocode());
    {
        QSignalBlocker block(solverCombo_);
        solverCombo_->setCurrentIndex(solverCombo_->findData(QString::fromStdString(r->solver())));
        onSolverChosen(solverCombo_->currentIndex());
    }
    optionForm_->setValues(r->options());
    ctx_.timeline->setLast(r->iteration());
    ctx_.playback->showFrame();
}

void SetupPanel::addRow(int id) {
    Run* r = ctx_.controller->runById(id);
    const int row = runTable_->rowCount();
    runTable_->insertRow(row);
    for (int c = 0; c < kColumnCount; ++c)
        runTable_->setItem(row, c, new QTableWidgetItem);
    ctx_.boundsPlot->addRun(id, ctx_.controller->runLegend(id), r->color());
    refreshRunNames();
    if (selectedId_ < 0) selectRun(row);
}

void SetupPanel::removeRow(int id) {
    ctx_.boundsPlot->removeRun(id);
    // Rows follow the controller's order: the removed run's row is the first that differs.
    const RunController& runs = *ctx_.controller;
    int row = 0;
    while (row < runTable_->rowCount() && row < runs.runCount() &&
           runTable_->item(row, kColRun)->data(Qt::UserRole).toInt() == runs.run(row)->id()) {
        ++row;
    }
    if (row < runTable_->rowCount()) runTable_->removeRow(row);
    refreshRunNames();  // what told the others apart may have gone with it
    if (id == selectedId_) {
        selectedId_ = -1;
        if (runs.runCount() > 0) {
            selectRun(std::min(row, runs.runCount() - 1));
        } else {
            ctx_.playback->clearRun();  // nothing left to show
        }
    }
}

void SetupPanel::replaceRow(int id) {
    Run* r = ctx_.controller->runById(id);
    ctx_.boundsPlot->addRun(id, ctx_.controller->runLegend(id), r->color());
    refreshRunNames();
    if (id == selectedId_) {
        ctx_.timeline->setLive(true);
        refreshSelection();
    }
}

void SetupPanel::clearRows() {
    selectedId_ = -1;
    runTable_->setRowCount(0);
}

void SetupPanel::refreshRunNames() {
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const int id = ctx_.controller->run(k)->id();
        ctx_.boundsPlot->setRunLabel(id, ctx_.controller->runLegend(id));
    }
    refreshRunRows();
}

void SetupPanel::refreshRunRows() {
    for (int k = 0; k < ctx_.controller->runCount(); ++k)
        refreshRunRow(ctx_.controller->run(k)->id());
}

void SetupPanel::refreshRunRow(int id) {
    const int row = ctx_.controller->indexOf(id);
    Run* r = ctx_.controller->runById(id);
    if (row < 0 || !r || row >= runTable_->rowCount()) return;
    auto* name = runTable_->item(row, kColRun);
    // What tells the run apart from the others always readable; the rest of its options
    // elided to the column (in full on hover).
    const RunName runName = ctx_.controller->runName(id);
    // The text's room: the column less the swatch and the style's margins around it and the
    // text (the view's iconSize() is unset: the style's small icon).
    const QStyle* style = runTable_->style();
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, runTable_) + 1;
    const int iconAndPadding =
        style->pixelMetric(QStyle::PM_SmallIconSize, nullptr, runTable_) + 4 * margin + 4;
    name->setText(
        runName.fitted(runTable_->fontMetrics(), runTable_->columnWidth(kColRun) - iconAndPadding));
    name->setData(Qt::UserRole, id);
    QPixmap swatch(12, 12);
    swatch.fill(r->color());
    name->setIcon(QIcon(swatch));
    runTable_->item(row, kColStatus)->setToolTip(QString::fromStdString(r->status().message));
    const IterationRecord* record = &ctx_.playback->recordShown(*r);
    runTable_->item(row, kColStatus)->setText(r->stateText(record->iteration, true));
    runTable_->item(row, kColIteration)->setText(QString::number(record->iteration));
    const Family* family = ctx_.controller->family();
    const BoundLabels labels = family ? family->boundLabels() : BoundLabels{};
    const QString bounds =
        QString("%1 %2\n%3 %4")
            .arg(QString::fromStdString(labels.upper), QString::number(record->upper, 'g', 6),
                 QString::fromStdString(labels.lower), QString::number(record->lower, 'g', 6));
    name->setToolTip(runName.text() + "\n" + bounds);
    runTable_->item(row, kColGap)->setText(QString::number(record->gap, 'e', 2));
}

void SetupPanel::updateButtons() {
    applyButton_->setEnabled(selectedId_ >= 0);
    removeButton_->setEnabled(selectedId_ >= 0);
    addRunButton_->setEnabled(ctx_.controller->problem() != nullptr);
}

}  // namespace cplab
