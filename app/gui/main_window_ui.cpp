// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's widgets, panels and menus (main_window.h); main_window.cpp holds what
// they do.
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
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
#include <cmath>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "data/data_format.h"
#include "elided_label.h"
#include "family_view.h"
#include "family_views.h"
#include "gap_progress.h"
#include "log_panel.h"
#include "main_window.h"
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

QPushButton* controlButton(const QString& text, const QString& name, const QString& tip,
                           QWidget* parent) {
    auto* button = new QPushButton(text, parent);
    button->setObjectName(name);
    button->setToolTip(tip);
    return button;
}

// The x axes offered, in the order of the combo box.
const widgets::XAxisKind kAxes[] = {
    widgets::XAxisKind::Iteration,     widgets::XAxisKind::Seconds,
    widgets::XAxisKind::OracleCalls,   widgets::XAxisKind::Passes,
    widgets::XAxisKind::PathParameter, widgets::XAxisKind::LogPathParameter};

}  // namespace

// The list of a narrow combo box as wide as its longest item (call after filling it).
void widenList(QComboBox* combo) {
    combo->view()->setMinimumWidth(combo->view()->sizeHintForColumn(0) +
                                   combo->view()->verticalScrollBar()->sizeHint().width());
}

// The file dialogs' filter: every data file, then one entry per family with the formats it
// reads ("Linear SVM (LIBSVM/SVMlight, CSV) (*.svm *.csv …)"), then any file.
QString openFileFilter() {
    auto patternsOf = [](const DataFormat& format) {
        QStringList patterns;
        for (const auto extension : format.extensions) {
            patterns << "*" + QString::fromLatin1(extension.data(), extension.size());
            patterns << patterns.back() + ".gz";
        }
        return patterns;
    };
    QStringList all;
    for (const DataFormat& format : dataFormats())
        all << patternsOf(format);
    QStringList filters{QObject::tr("Data files") + " (" + all.join(' ') + ")"};
    for (const Family* family : families()) {
        QStringList titles, patterns;
        for (const DataFormat* format : family->readFormats()) {
            titles << QString::fromLatin1(format->title.data(), format->title.size());
            patterns << patternsOf(*format);
        }
        if (patterns.isEmpty()) continue;
        filters << QString("%1 - %2 (%3)")
                       .arg(QString::fromStdString(family->title()), titles.join(", "),
                            patterns.join(' '));
    }
    filters << QObject::tr("Any file") + " (*)";
    return filters.join(";;");
}

int delayFromSlider(int position) {
    const double t = std::clamp(position, 0, kDelaySliderSteps) / double(kDelaySliderSteps);
    const int ms = static_cast<int>(std::lround(kMaxDelayMs * t * t));
    return ms < 20 ? ms : ms - ms % 10;  // round numbers past the first steps
}

int delaySliderPosition(int milliseconds) {
    const double t = std::sqrt(std::clamp(milliseconds, 0, kMaxDelayMs) / double(kMaxDelayMs));
    return static_cast<int>(std::lround(t * kDelaySliderSteps));
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // The set-up dock takes a quarter of a wide window (run names stay readable), its minimum
    // on a narrow one; set once, so that the user's own splitter moves are kept.
    if (dockSized_) return;
    dockSized_ = true;
    if (auto* dock = findChild<QDockWidget*>("problemDock"))
        resizeDocks({dock}, {std::clamp(width() / 4, 320, 400)}, Qt::Horizontal);
    // The pseudocode and the log narrower on a small screen: the centre keeps half the width.
    if (auto* dock = findChild<QDockWidget*>("pseudocodeDock"))
        resizeDocks({dock}, {std::clamp(width() / 4 - 16, 230, 400)}, Qt::Horizontal);
}

void MainWindow::buildUi() {
    buildCentre();
    buildRunControls();
    buildDocks();
    // ---- Status bar: the shown run's state and its gap's progress toward the tolerance.
    statusLine_ = new widgets::ElidedLabel(this);
    statusLine_->setObjectName("statusLine");
    progress_ = new widgets::GapProgress(this);
    progress_->setMinimumWidth(300);
    statusBar()->addWidget(statusLine_, 1);
    statusBar()->addPermanentWidget(progress_);
}

// The centre: the caption, the family's view, the timeline, and the race view below a handle.
void MainWindow::buildCentre() {
    auto* splitter = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(splitter);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    viewStack_ = new QStackedWidget(top);
    emptyView_ = new QLabel(tr("Choose a demo or a problem on the left."), viewStack_);
    emptyView_->setAlignment(Qt::AlignCenter);
    viewStack_->addWidget(emptyView_);
    for (const auto& [family, view] : widgets::createFamilyViews(viewStack_, controller_)) {
        view->setObjectName(QString::fromStdString(family + "View"));
        viewStack_->addWidget(view);
        views_[family] = view;
    }
    timeline_ = new widgets::TimelineBar(top);
    caption_ = new widgets::CaptionBar(top);
    topLayout->addWidget(caption_);
    topLayout->addWidget(viewStack_, 1);
    topLayout->addWidget(timeline_);
    boundsPlot_ = new widgets::BoundsPlot(splitter);
    splitter->addWidget(top);
    splitter->addWidget(boundsPlot_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // The race view gets two fifths of the column (at least a third), whatever the window.
    splitter->setSizes({600, 400});
    splitter->setChildrenCollapsible(false);
    // A handle one can see and grab between the model view and the bounds.
    splitter->setObjectName("centreSplitter");
    splitter->setHandleWidth(7);
    // Shaded by the palette, not a style sheet: one on the splitter would stop the window's
    // font, and so the presentation scale, from reaching the views.
    QPalette handle = splitter->palette();
    handle.setColor(QPalette::Window, handle.color(QPalette::Mid));
    splitter->handle(1)->setPalette(handle);
    splitter->handle(1)->setAutoFillBackground(true);
    setCentralWidget(splitter);
    connect(timeline_, &widgets::TimelineBar::positionChosen, this, [this] { showFrame(); });
    connect(timeline_, &widgets::TimelineBar::liveChosen, this, [this] { showFrame(); });
    // ← and → step through history wherever the focus is in the centre (not in the forms).
    auto* back = new QShortcut(QKeySequence(Qt::Key_Left), splitter);
    back->setContext(Qt::WidgetWithChildrenShortcut);
    connect(back, &QShortcut::activated, timeline_, &widgets::TimelineBar::stepBack);
    auto* forward = new QShortcut(QKeySequence(Qt::Key_Right), splitter);
    forward->setContext(Qt::WidgetWithChildrenShortcut);
    connect(forward, &QShortcut::activated, timeline_, &widgets::TimelineBar::stepForward);
    centreKeys_ = {back, forward};
}

// The docks: on the left demo, problem, solver and options, which scroll, and below them,
// always in view, Add run / Apply and the runs with Remove run; on the right the pseudocode
// and below it the log.
void MainWindow::buildDocks() {
    auto* leftPanel = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(leftPanel);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    // The set-up above, the runs below a handle: a race of many runs can take more room.
    auto* leftSplitter = new QSplitter(Qt::Vertical, leftPanel);
    leftSplitter->setObjectName("leftSplitter");
    auto* scroll = new QScrollArea(leftSplitter);
    scroll->setObjectName("setupScroll");
    scroll->setWidget(buildSetupPanel());
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    leftSplitter->addWidget(scroll);
    leftSplitter->addWidget(buildRunsPanel());
    leftSplitter->setStretchFactor(0, 1);
    leftSplitter->setStretchFactor(1, 0);
    leftSplitter->setChildrenCollapsible(false);
    leftLayout->addWidget(leftSplitter, 1);
    leftPanel->setMinimumWidth(320);
    auto* left = new QDockWidget(tr("Problem and solver"), this);
    left->setObjectName("problemDock");
    left->setWidget(leftPanel);
    left->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, left);

    pseudocode_ = new widgets::PseudocodePanel(this);
    pseudocode_->setObjectName("pseudocodePanel");
    auto* right = new QDockWidget(tr("Pseudocode"), this);
    right->setObjectName("pseudocodeDock");
    right->setWidget(pseudocode_);
    pseudocode_->setMinimumWidth(220);
    addDockWidget(Qt::RightDockWidgetArea, right);
    log_ = new widgets::LogPanel(this);
    log_->setObjectName("logPanel");
    auto* bottom = new QDockWidget(tr("Log"), this);
    bottom->setObjectName("logDock");
    bottom->setWidget(log_);
    addDockWidget(Qt::RightDockWidgetArea, bottom);
    splitDockWidget(right, bottom, Qt::Vertical);
    // An error is not left in a hidden or scrolled log: the log comes into view and the
    // status bar says it for a while.
    connect(log_, &widgets::LogPanel::errorAppended, this, [this, bottom](const QString& text) {
        if (!presenting_) {
            bottom->show();
            bottom->raise();
        }
        statusBar()->showMessage(tr("Error: %1").arg(text), 15000);
    });
}

// The tool bar: run, pause, step, reset, cancel, the delay per step and the x axis.
void MainWindow::buildRunControls() {
    // ---- Run controls.
    auto* controls = addToolBar(tr("Run controls"));
    controls->setObjectName("runControls");
    controls->setMovable(false);
    runButton_ = controlButton(tr("Run"), "runButton", tr("Run all runs until they stop"), this);
    pauseButton_ = controlButton(tr("Pause"), "pauseButton", tr("Pause all runs"), this);
    stepButton_ = controlButton(tr("Step"), "stepButton", tr("One iteration of every run"), this);
    step10Button_ =
        controlButton(tr("Step x10"), "step10Button", tr("Ten iterations of every run"), this);
    resetButton_ = controlButton(tr("Reset"), "resetButton",
                                 tr("Restart every run from iteration 0 with its options"), this);
    cancelButton_ =
        controlButton(tr("Cancel"), "cancelButton", tr("Stop every run for good"), this);
    for (QPushButton* b :
         {runButton_, pauseButton_, stepButton_, step10Button_, resetButton_, cancelButton_}) {
        controls->addWidget(b);
    }
    controls->addSeparator();
    controls->addWidget(new QLabel(tr(" Delay "), this));
    delaySlider_ = new QSlider(Qt::Horizontal, this);
    delaySlider_->setObjectName("delaySlider");
    delaySlider_->setRange(0, kDelaySliderSteps);
    delaySlider_->setSingleStep(10);
    delaySlider_->setPageStep(100);
    delaySlider_->setFixedWidth(120);
    delaySlider_->setToolTip(tr("Pause between iterations while running (0: full speed)"));
    controls->addWidget(delaySlider_);
    delayLabel_ = new QLabel(this);
    delayLabel_->setMinimumWidth(60);
    controls->addWidget(delayLabel_);
    controls->addSeparator();
    controls->addWidget(new QLabel(tr(" x axis "), this));
    xAxisCombo_ = new QComboBox(this);
    xAxisCombo_->setObjectName("xAxisCombo");
    for (const auto kind : kAxes)
        xAxisCombo_->addItem(widgets::axisLabel(kind));
    controls->addWidget(xAxisCombo_);

    connect(runButton_, &QPushButton::clicked, this, &MainWindow::runAll);
    connect(pauseButton_, &QPushButton::clicked, this, &MainWindow::pauseAll);
    connect(stepButton_, &QPushButton::clicked, this, [this] { stepAll(1); });
    connect(step10Button_, &QPushButton::clicked, this, [this] { stepAll(10); });
    connect(resetButton_, &QPushButton::clicked, this, &MainWindow::resetAll);
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelAll);
    connect(delaySlider_, &QSlider::valueChanged, this,
            [this](int position) { setDelayMs(delayFromSlider(position)); });
    connect(xAxisCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0) return;
        boundsPlot_->setXAxis(kAxes[index]);
        showFrame();  // the marker and the other runs' rows follow the axis
    });
}

QWidget* MainWindow::buildSetupPanel() {
    auto* panel = new QWidget(this);
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
    // Each family's own problem controls (a dataset's test split), shown for its problems.
    for (const auto& [family, view] : views_) {
        if (QWidget* controls = view->problemControls()) {
            controls->setParent(problemBox);
            controls->setVisible(false);
            problemLayout_->addWidget(controls);
        }
    }
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

    connect(demoCombo_, &QComboBox::activated, this, [this](int index) {
        const QString name = demoCombo_->itemData(index).toString();
        if (!name.isEmpty() && confirmDiscardRuns()) loadDemo(name);
    });
    connect(problemCombo_, &QComboBox::activated, this, [this](int index) {
        const QString name = problemCombo_->itemData(index).toString();
        if (!name.isEmpty() && confirmDiscardRuns()) loadProblem(name);
    });
    connect(solverCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::onSolverChosen);
    return panel;
}

QWidget* MainWindow::buildRunsPanel() {
    auto* panel = new QWidget(this);
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
    // The names re-elide to the column when the table resizes.
    connect(runTable_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        if (column == kColRun) refreshRunRows();
    });
    removeButton_ =
        controlButton(tr("Remove run"), "removeButton", tr("Remove the selected run"), runsBox);
    runsLayout->addWidget(runTable_);
    runsLayout->addWidget(removeButton_);
    panelLayout->addWidget(runsBox);
    connect(addRunButton_, &QPushButton::clicked, this, [this] {
        QString why;
        const std::string solver = solverCombo_->currentData().toString().toStdString();
        if (!addRun(solver, optionForm_->changedValues(), &why)) {
            QMessageBox::warning(this, tr("Invalid options"), why);
        }
    });
    connect(applyButton_, &QPushButton::clicked, this, &MainWindow::applyToSelected);
    connect(removeButton_, &QPushButton::clicked, this, &MainWindow::removeSelected);
    connect(runTable_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = runTable_->selectionModel()->selectedRows();
        if (rows.isEmpty()) return;
        if (Run* r = controller_->run(rows.front().row()); r && r->id() != selectedId_) {
            selectedId_ = r->id();
            refreshSelection();
        }
    });
    return panel;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* demos = file->addMenu(tr("Load &demo"));
    for (const auto& demo : demoCatalog()) {
        const QString name = QString::fromStdString(demo.name);
        demos->addAction(QString::fromStdString(demo.title), this, [this, name] {
            if (confirmDiscardRuns()) loadDemo(name);
        });
    }
    file->addSeparator();
    file->addAction(tr("&Open data file..."), QKeySequence::Open, this, [this] {
        if (!confirmDiscardRuns()) return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open data file"),
                                                          lastFolder("data"), openFileFilter());
        if (path.isEmpty()) return;
        setLastFolder("data", path);
        // A test file is asked for once the format is known, and only when it can have one.
        openDataFile(path, {}, {}, true);
    });
    QMenu* recent = file->addMenu(tr("Open &recent"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { fillRecentMenu(recent); });
    file->addSeparator();
    file->addAction(tr("Open &session..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                    &MainWindow::openSessionDialog);
    file->addAction(tr("Sa&ve session..."), QKeySequence::Save, this,
                    &MainWindow::saveSessionDialog);
    file->addAction(tr("&Copy as command line"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                    this, &MainWindow::copyCommandLine);
    file->addSeparator();
    addFollowActions(file);
    file->addSeparator();
    addExportActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    buildEditMenu(file);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &MainWindow::runAll);
    run->addAction(tr("&Pause"), QKeySequence(Qt::Key_F6), this, &MainWindow::pauseAll);
    run->addAction(tr("&Step"), QKeySequence(Qt::Key_F10), this, [this] { stepAll(1); });
    run->addAction(tr("Step x&10"), QKeySequence(Qt::SHIFT | Qt::Key_F10), this,
                   [this] { stepAll(10); });
    run->addAction(tr("R&eset"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::resetAll);
    run->addSeparator();
    run->addAction(tr("&Live (follow the newest iteration)"), QKeySequence(Qt::Key_End), this,
                   &MainWindow::goLive);
    run->addAction(tr("History &budget..."), this, [this] {
        bool ok = false;
        const int mb = QInputDialog::getInt(
            this, tr("History budget"),
            tr("Memory for the snapshots of all runs together (MB); past it old snapshots are "
               "thinned:"),
            static_cast<int>(controller_->historyBudget() >> 20), 1, 65536, 16, &ok);
        if (ok) setHistoryBudgetMb(mb);
    });

    // Every panel and the run controls can be hidden and brought back from here (not only by
    // a right-click on a tool bar).
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName("viewMenu");
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    for (QToolBar* bar : findChildren<QToolBar*>())
        view->addAction(bar->toggleViewAction());
    buildPresentationActions(view);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        QMessageBox::information(this, tr("Keyboard shortcuts"), shortcutsText());
    });
    help->addAction(tr("&About cplab"), this, [this] {
        QStringList familyTitles;
        for (const Family* f : families())
            familyTitles << QString::fromStdString(f->title()).toHtmlEscaped();
        QMessageBox::about(
            this, tr("About cplab"),
            tr("<b>cplab %1</b> - Cutting-Plane Lab<br>Step-wise optimisation methods of machine "
               "learning, live-plotted.<br><br>Families: %2.<br><br>Command-line twin: "
               "<tt>cplab-cli</tt>.<br><br>Licence: GNU GPL version 3 or later (cplab links "
               "libocas and QCustomPlot, both GPLv3). Peers it is checked and raced against: "
               "libocas, LIBLINEAR, LIBSVM, dlib, toulbar2. Built-in datasets: see "
               "resources/datasets/README.md (LIBSVM collection, UCI, Taskar's OCR words, "
               "UAI 2014, Middlebury).")
                .arg(CPLAB_VERSION, familyTitles.join(", ")));
    });
}

bool MainWindow::confirmDiscardRuns() {
    // Only work would be lost: runs that have made steps.
    int worked = 0;
    for (int k = 0; k < runCount(); ++k)
        worked += run(k)->iteration() > 0 ? 1 : 0;
    if (worked == 0) return true;
    return QMessageBox::question(
               this, tr("Discard the runs?"),
               tr("Opening another problem discards the %n run(s) that have made steps, with their "
                  "histories. Go on?",
                  nullptr, worked),
               QMessageBox::Discard | QMessageBox::Cancel,
               QMessageBox::Cancel) == QMessageBox::Discard;
}

QString MainWindow::shortcutsText() const {
    // Every menu action with a shortcut, by menu, and the timeline's arrow keys.
    QStringList lines;
    for (QAction* menu : menuBar()->actions()) {
        if (!menu->menu()) continue;
        for (QAction* action : menu->menu()->actions()) {
            if (action->shortcut().isEmpty()) continue;
            lines << "<tr><td><b>" + action->shortcut().toString(QKeySequence::NativeText) +
                         "</b></td><td>" + menu->text().remove('&') + " › " +
                         action->text().remove('&') + "</td></tr>";
        }
    }
    lines << "<tr><td><b>← →</b></td><td>" + tr("Timeline: one iteration back, forward") +
                 "</td></tr>";
    for (const QAction* action : presentationKeys_) {
        if (action->shortcut() == QKeySequence(Qt::Key_Left) ||
            action->shortcut() == QKeySequence(Qt::Key_Right))
            continue;
        lines << "<tr><td><b>" + action->shortcut().toString(QKeySequence::NativeText) +
                     "</b></td><td>" + tr("Presentation: %1").arg(action->text()) + "</td></tr>";
    }
    return "<table>" + lines.join("") + "</table>";
}

}  // namespace cplab
