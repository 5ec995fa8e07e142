#include "main_window.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QThread>
#include <QToolBar>
#include <QVBoxLayout>
#include <cmath>

#include "bounds_plot.h"
#include "cutting_plane_plot.h"
#include "gap_progress.h"
#include "linear_model_plot.h"
#include "log_panel.h"
#include "nonsmooth/cutting_plane_view.h"
#include "nonsmooth/frank_wolfe.h"
#include "option_form.h"
#include "plot_style.h"
#include "polytope_plot.h"
#include "pseudocode_panel.h"
#include "registry.h"
#include "run.h"

namespace cplab {

namespace {

enum RunColumn { kColRun, kColStatus, kColIteration, kColUpper, kColGap, kColumnCount };

QString number(double value) {
    if (!std::isfinite(value)) return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
    return QString::number(value, 'g', 8);
}

QPushButton* controlButton(const QString& text, const QString& name, const QString& tip,
                           QWidget* parent) {
    auto* button = new QPushButton(text, parent);
    button->setObjectName(name);
    button->setToolTip(tip);
    return button;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    registerRunMetaTypes();
    setWindowTitle("cplab - Cutting-Plane Lab");
    buildUi();
    buildMenus();
    populateProblems();
    resize(1440, 900);
}

MainWindow::~MainWindow() {
    clearRuns();
}

void MainWindow::buildUi() {
    // ---- Centre: the family's view above the race view.
    auto* splitter = new QSplitter(Qt::Vertical, this);
    viewStack_ = new QStackedWidget(splitter);
    emptyView_ = new QLabel(tr("Choose a demo or a problem on the left."), viewStack_);
    emptyView_->setAlignment(Qt::AlignCenter);
    cuttingPlanePlot_ = new widgets::CuttingPlanePlot(viewStack_);
    polytopePlot_ = new widgets::PolytopePlot(viewStack_);
    linearPlot_ = new widgets::LinearModelPlot(viewStack_);
    viewStack_->addWidget(emptyView_);
    viewStack_->addWidget(cuttingPlanePlot_);
    viewStack_->addWidget(polytopePlot_);
    viewStack_->addWidget(linearPlot_);
    boundsPlot_ = new widgets::BoundsPlot(splitter);
    splitter->addWidget(viewStack_);
    splitter->addWidget(boundsPlot_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    setCentralWidget(splitter);

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
    controls->addWidget(new QLabel(tr(" Delay per step "), this));
    delaySlider_ = new QSlider(Qt::Horizontal, this);
    delaySlider_->setObjectName("delaySlider");
    delaySlider_->setRange(0, 1000);
    delaySlider_->setSingleStep(10);
    delaySlider_->setPageStep(100);
    delaySlider_->setFixedWidth(160);
    delaySlider_->setValue(delayMs_);
    delaySlider_->setToolTip(tr("Pause between iterations while running (0: full speed)"));
    controls->addWidget(delaySlider_);
    delayLabel_ = new QLabel(this);
    delayLabel_->setMinimumWidth(60);
    controls->addWidget(delayLabel_);
    controls->addSeparator();
    controls->addWidget(new QLabel(tr(" x axis "), this));
    xAxisCombo_ = new QComboBox(this);
    xAxisCombo_->setObjectName("xAxisCombo");
    xAxisCombo_->addItems({tr("iteration"), tr("seconds"), tr("oracle calls")});
    controls->addWidget(xAxisCombo_);

    connect(runButton_, &QPushButton::clicked, this, &MainWindow::runAll);
    connect(pauseButton_, &QPushButton::clicked, this, &MainWindow::pauseAll);
    connect(stepButton_, &QPushButton::clicked, this, [this] { stepAll(1); });
    connect(step10Button_, &QPushButton::clicked, this, [this] { stepAll(10); });
    connect(resetButton_, &QPushButton::clicked, this, &MainWindow::resetAll);
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelAll);
    connect(delaySlider_, &QSlider::valueChanged, this, &MainWindow::setDelayMs);
    connect(xAxisCombo_, &QComboBox::currentIndexChanged, this,
            [this](int index) { boundsPlot_->setXAxis(static_cast<widgets::XAxisKind>(index)); });
    setDelayMs(delayMs_);

    // ---- Left dock: demo, problem, solver, options, runs.
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
    demoLayout->addWidget(demoCombo_);
    panelLayout->addWidget(demoBox);

    auto* problemBox = new QGroupBox(tr("Problem"), panel);
    auto* problemLayout = new QVBoxLayout(problemBox);
    problemCombo_ = new QComboBox(problemBox);
    problemCombo_->setObjectName("problemCombo");
    problemDescription_ = new QLabel(problemBox);
    problemDescription_->setWordWrap(true);
    problemDescription_->setStyleSheet("color: #444;");
    problemLayout->addWidget(problemCombo_);
    problemLayout->addWidget(problemDescription_);
    // Test split of linear problems: a held-out fraction (0: none) with its seed, applied when
    // a dataset is loaded (a test file can be given through File > Open data file).
    splitControls_ = new QWidget(problemBox);
    auto* splitRow = new QHBoxLayout(splitControls_);
    splitRow->setContentsMargins(0, 0, 0, 0);
    testFraction_ = new QDoubleSpinBox(splitControls_);
    testFraction_->setObjectName("testFraction");
    testFraction_->setRange(0.0, 0.9);
    testFraction_->setSingleStep(0.05);
    testFraction_->setDecimals(2);
    testFraction_->setToolTip(tr("Fraction of a dataset held out as test set (0: none)"));
    splitSeed_ = new QSpinBox(splitControls_);
    splitSeed_->setObjectName("splitSeed");
    splitSeed_->setRange(0, 1000000);
    splitSeed_->setValue(1);
    splitSeed_->setToolTip(tr("Seed of the held-out split"));
    splitRow->addWidget(new QLabel(tr("test fraction"), splitControls_));
    splitRow->addWidget(testFraction_);
    splitRow->addWidget(new QLabel(tr("seed"), splitControls_));
    splitRow->addWidget(splitSeed_);
    problemLayout->addWidget(splitControls_);
    splitControls_->setVisible(false);  // shown for linear problems
    panelLayout->addWidget(problemBox);

    auto* solverBox = new QGroupBox(tr("Solver"), panel);
    auto* solverLayout = new QVBoxLayout(solverBox);
    solverCombo_ = new QComboBox(solverBox);
    solverCombo_->setObjectName("solverCombo");
    solverDescription_ = new QLabel(solverBox);
    solverDescription_->setWordWrap(true);
    solverDescription_->setStyleSheet("color: #444;");
    optionForm_ = new OptionForm(solverBox);
    optionForm_->setObjectName("optionForm");
    auto* runButtons = new QHBoxLayout;
    addRunButton_ =
        controlButton(tr("Add run"), "addRunButton",
                      tr("Add a run of this solver with these options (a race)"), solverBox);
    applyButton_ =
        controlButton(tr("Apply to selected"), "applyButton",
                      tr("Restart the selected run with this solver and options"), solverBox);
    runButtons->addWidget(addRunButton_);
    runButtons->addWidget(applyButton_);
    solverLayout->addWidget(solverCombo_);
    solverLayout->addWidget(solverDescription_);
    solverLayout->addWidget(optionForm_);
    solverLayout->addLayout(runButtons);
    panelLayout->addWidget(solverBox);

    auto* runsBox = new QGroupBox(tr("Runs"), panel);
    auto* runsLayout = new QVBoxLayout(runsBox);
    runTable_ = new QTableWidget(0, kColumnCount, runsBox);
    runTable_->setWordWrap(false);
    runTable_->setObjectName("runTable");
    runTable_->setHorizontalHeaderLabels(
        {tr("run"), tr("status"), tr("iter"), tr("upper"), tr("gap")});
    runTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    runTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    runTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    runTable_->verticalHeader()->hide();
    runTable_->horizontalHeader()->setSectionResizeMode(kColRun, QHeaderView::Stretch);
    for (int c = kColStatus; c < kColumnCount; ++c) {
        runTable_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    runTable_->setMinimumHeight(120);
    removeButton_ =
        controlButton(tr("Remove run"), "removeButton", tr("Remove the selected run"), runsBox);
    runsLayout->addWidget(runTable_);
    runsLayout->addWidget(removeButton_);
    panelLayout->addWidget(runsBox, 1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(370);
    auto* left = new QDockWidget(tr("Problem and solver"), this);
    left->setObjectName("problemDock");
    left->setWidget(scroll);
    left->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, left);

    connect(demoCombo_, &QComboBox::activated, this, &MainWindow::onDemoChosen);
    connect(problemCombo_, &QComboBox::activated, this, &MainWindow::onProblemChosen);
    connect(solverCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::onSolverChosen);
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
        const int row = rows.front().row();
        if (row >= 0 && row < runCount()) {
            selectedId_ = runs_[static_cast<std::size_t>(row)]->id();
            refreshSelection();
        }
    });

    // ---- Right dock: pseudocode; bottom dock: log.
    pseudocode_ = new widgets::PseudocodePanel(this);
    pseudocode_->setObjectName("pseudocodePanel");
    auto* right = new QDockWidget(tr("Pseudocode"), this);
    right->setObjectName("pseudocodeDock");
    right->setWidget(pseudocode_);
    pseudocode_->setMinimumWidth(420);
    addDockWidget(Qt::RightDockWidgetArea, right);

    log_ = new widgets::LogPanel(this);
    auto* bottom = new QDockWidget(tr("Log"), this);
    bottom->setObjectName("logDock");
    bottom->setWidget(log_);
    addDockWidget(Qt::RightDockWidgetArea, bottom);
    splitDockWidget(right, bottom, Qt::Vertical);

    // ---- Status bar: the selected run's state and its gap's progress toward epsilon.
    statusLine_ = new QLabel(this);
    statusLine_->setObjectName("statusLine");
    progress_ = new widgets::GapProgress(this);
    progress_->setMinimumWidth(340);
    statusBar()->addWidget(statusLine_, 1);
    statusBar()->addPermanentWidget(progress_);
    updateButtons();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* demos = file->addMenu(tr("Load &demo"));
    for (const auto& demo : demoCatalog()) {
        const QString name = QString::fromStdString(demo.name);
        demos->addAction(QString::fromStdString(demo.title), this,
                         [this, name] { loadDemo(name); });
    }
    file->addSeparator();
    file->addAction(tr("&Open data file..."), QKeySequence::Open, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open data file"), QString(),
                                         tr("LIBSVM/SVMlight or CSV (*);;CSV (*.csv *.csv.gz)"));
        if (path.isEmpty()) return;
        const QString test =
            QFileDialog::getOpenFileName(this, tr("Test file (cancel: use the test fraction)"),
                                         QFileInfo(path).path(), tr("LIBSVM/SVMlight or CSV (*)"));
        QString why;
        if (!loadDataFile(path, test, &why)) QMessageBox::warning(this, tr("Open data file"), why);
    });
    file->addSeparator();
    file->addAction(tr("Export &model plot (PNG/PDF)..."), this, [this] { exportDialog("model"); });
    file->addAction(tr("Export &bounds plot (PNG/PDF)..."), this,
                    [this] { exportDialog("bounds"); });
    file->addAction(tr("Export &trace of the selected run (CSV)..."), this,
                    [this] { exportDialog("trace"); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &MainWindow::runAll);
    run->addAction(tr("&Pause"), QKeySequence(Qt::Key_F6), this, &MainWindow::pauseAll);
    run->addAction(tr("&Step"), QKeySequence(Qt::Key_F10), this, [this] { stepAll(1); });
    run->addAction(tr("Step x&10"), QKeySequence(Qt::SHIFT | Qt::Key_F10), this,
                   [this] { stepAll(10); });
    run->addAction(tr("R&eset"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::resetAll);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About cplab"), this, [this] {
        QMessageBox::about(
            this, tr("About cplab"),
            tr("<b>cplab</b> - Cutting-Plane Lab<br>Step-wise optimisation methods of machine "
               "learning, live-plotted: cutting planes, bundle methods, Frank-Wolfe.<br><br>"
               "Command-line twin: <tt>cplab-cli</tt>."));
    });
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
    problemCombo_->setCurrentIndex(-1);
}

void MainWindow::onDemoChosen(int index) {
    const QString name = demoCombo_->itemData(index).toString();
    if (!name.isEmpty()) loadDemo(name);
}

void MainWindow::onProblemChosen(int index) {
    const QString name = problemCombo_->itemData(index).toString();
    if (!name.isEmpty()) loadProblem(name);
}

void MainWindow::setProblem(std::shared_ptr<const ProblemInstance> problem) {
    clearRuns();
    problem_ = std::move(problem);
    const int index = problemCombo_->findData(QString::fromStdString(problem_->info.name));
    problemCombo_->setCurrentIndex(index);
    problemDescription_->setText(
        QString::fromStdString(problem_->info.title + "\n\n" + problem_->info.description));
    populateSolvers();
    boundsPlot_->clear();
    for (const auto& [name, value] : problem_->summary()) {
        if (name == "f_star") {
            boundsPlot_->setReference(std::get<double>(value), tr("known optimum f*"));
        }
    }
    cuttingPlanePlot_->clear();
    polytopePlot_->clear();
    linearPlot_->clear();
    const std::string& family = problem_->info.family;
    splitControls_->setVisible(family == kFamilyLinear);
    viewStack_->setCurrentWidget(family == kFamilyPolytope ? static_cast<QWidget*>(polytopePlot_)
                                 : family == kFamilyLinear
                                     ? static_cast<QWidget*>(linearPlot_)
                                     : static_cast<QWidget*>(cuttingPlanePlot_));
    if (problem_->linear.train) {
        const Dataset& train = *problem_->linear.train;
        QString text = tr("%1: %2 examples, %3 features%4")
                           .arg(QString::fromStdString(train.name))
                           .arg(train.size())
                           .arg(train.dimension())
                           .arg(train.sparseStorage ? tr(", sparse") : QString());
        if (problem_->linear.test) {
            text += tr("; test set %1 examples").arg(problem_->linear.test->size());
        }
        log_->appendMessage(text);
    }
    pseudocode_->clear();
    log_->appendMessage(tr("problem %1: %2")
                            .arg(QString::fromStdString(problem_->info.name),
                                 QString::fromStdString(problem_->info.title)));
}

void MainWindow::populateSolvers() {
    QSignalBlocker block(solverCombo_);
    solverCombo_->clear();
    for (const SolverInfo* s : solversForFamily(problem_->info.family)) {
        solverCombo_->addItem(QString::fromStdString(s->title), QString::fromStdString(s->name));
    }
    solverCombo_->setCurrentIndex(0);
    onSolverChosen(0);
}

void MainWindow::onSolverChosen(int index) {
    const SolverInfo* info = findSolver(solverCombo_->itemData(index).toString().toStdString());
    if (!info) return;
    solverDescription_->setText(QString::fromStdString(info->description));
    optionForm_->setOptions(info->options);
}

bool MainWindow::loadDataFile(const QString& path, const QString& testPath, QString* why) {
    std::string message;
    const TestSetSpec test{testPath.toStdString(),
                           testPath.isEmpty() ? testFraction_->value() : 0.0,
                           static_cast<std::uint64_t>(splitSeed_->value())};
    // Parsing a large file takes seconds: it runs on a thread of its own while this one keeps
    // painting (user input waits, so nothing can change under the load).
    std::shared_ptr<const ProblemInstance> problem;
    QThread* loader = QThread::create([&problem, &message, &test, file = path.toStdString()] {
        problem = makeLinearProblem(file, {}, test, &message);
    });
    QEventLoop waiting;
    connect(loader, &QThread::finished, &waiting, &QEventLoop::quit);
    statusBar()->showMessage(tr("Loading %1 ...").arg(QFileInfo(path).fileName()));
    loader->start();
    waiting.exec(QEventLoop::ExcludeUserInputEvents);
    loader->wait();
    delete loader;
    statusBar()->clearMessage();
    if (!problem) {
        log_->appendError(QString::fromStdString(message));
        if (why) *why = QString::fromStdString(message);
        return false;
    }
    demoCombo_->setCurrentIndex(0);
    setProblem(std::move(problem));
    QString runMessage;
    const std::string solver = solverCombo_->currentData().toString().toStdString();
    if (!addRun(solver, {}, &runMessage)) log_->appendError(runMessage);
    return true;
}

bool MainWindow::loadProblem(const QString& name) {
    std::string why;
    const ProblemInfo* info = findProblem(name.toStdString());
    if (info && info->family == kFamilyLinear && testFraction_->value() > 0) {
        const TestSetSpec test{
            {}, testFraction_->value(), static_cast<std::uint64_t>(splitSeed_->value())};
        auto split = makeLinearProblem({}, info->name, test, &why);
        if (!split) {
            log_->appendError(QString::fromStdString(why));
            return false;
        }
        demoCombo_->setCurrentIndex(0);
        setProblem(std::move(split));
        QString message;
        if (!addRun(solverCombo_->currentData().toString().toStdString(), {}, &message)) {
            log_->appendError(message);
        }
        return true;
    }
    auto problem = makeProblem(name.toStdString(), &why);
    if (!problem) {
        log_->appendError(QString::fromStdString(why));
        return false;
    }
    demoCombo_->setCurrentIndex(0);
    setProblem(std::move(problem));
    QString message;
    const std::string solver = solverCombo_->currentData().toString().toStdString();
    if (!addRun(solver, {}, &message)) log_->appendError(message);
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
    setProblem(std::move(problem));
    demoCombo_->setCurrentIndex(demoCombo_->findData(name));
    log_->appendMessage(tr("demo: %1").arg(QString::fromStdString(demo->title)));
    for (const auto& run : demo->runs) {
        QString message;
        if (!addRun(run.solver, run.options, &message)) log_->appendError(message);
    }
    selectRun(0);
    return true;
}

std::unique_ptr<Run> MainWindow::createRun(int id, const std::string& solver,
                                           const OptionValues& options) {
    auto run = std::make_unique<Run>(id, problem_, solver, options, widgets::runColor(id - 1));
    Run* raw = run.get();
    connect(raw, &Run::becameReady, this, &MainWindow::onRunReady);
    connect(raw, &Run::snapshotChanged, this, &MainWindow::onRunSnapshot);
    connect(raw, &Run::statusChanged, this, &MainWindow::onRunStatus);
    connect(raw, &Run::recordsAppended, this,
            [this](int runId, const std::vector<IterationRecord>& records) {
                boundsPlot_->appendRecords(runId, records);
            });
    connect(raw, &Run::failedToStart, this, [this](int runId, const QString& message) {
        log_->appendError(tr("run #%1: %2").arg(runId).arg(message));
    });
    boundsPlot_->addRun(id, raw->label(), raw->color());
    raw->setDelayMs(delayMs_);
    return run;
}

bool MainWindow::addRun(const std::string& solver, const OptionValues& options, QString* why) {
    if (!problem_) {
        if (why) *why = tr("no problem loaded");
        return false;
    }
    std::string message;
    if (!checkSolverOptions(solver, options, &message)) {
        if (why) *why = QString::fromStdString(message);
        log_->appendError(QString::fromStdString(message));
        return false;
    }
    const int id = nextRunId_++;
    runs_.push_back(createRun(id, solver, options));
    const int row = runTable_->rowCount();
    runTable_->insertRow(row);
    for (int c = 0; c < kColumnCount; ++c)
        runTable_->setItem(row, c, new QTableWidgetItem);
    refreshRunRow(id);
    log_->appendMessage(tr("added %1").arg(runs_.back()->label()));
    if (selectedId_ < 0) selectRun(row);
    updateButtons();
    emit runsChanged();
    return true;
}

void MainWindow::clearRuns() {
    runs_.clear();  // each Run cancels and joins its worker
    finishedLogged_.clear();
    if (runTable_) runTable_->setRowCount(0);
    selectedId_ = -1;
    nextRunId_ = 1;
    if (boundsPlot_) boundsPlot_->clear();
    updateButtons();
}

Run* MainWindow::run(int index) const {
    if (index < 0 || index >= runCount()) return nullptr;
    return runs_[static_cast<std::size_t>(index)].get();
}

Run* MainWindow::runById(int id) const {
    for (const auto& r : runs_) {
        if (r->id() == id) return r.get();
    }
    return nullptr;
}

int MainWindow::rowOf(int id) const {
    for (int k = 0; k < runCount(); ++k) {
        if (runs_[static_cast<std::size_t>(k)]->id() == id) return k;
    }
    return -1;
}

Run* MainWindow::selectedRun() const {
    return runById(selectedId_);
}

void MainWindow::selectRun(int index) {
    if (index < 0 || index >= runCount()) return;
    selectedId_ = runs_[static_cast<std::size_t>(index)]->id();
    runTable_->selectRow(index);
    refreshSelection();
}

void MainWindow::refreshSelection() {
    Run* r = selectedRun();
    if (!r) return;
    const SolverInfo* info = findSolver(r->solver());
    pseudocode_->setPseudocode(QString::fromStdString(info ? info->title : r->solver()), [&] {
        std::vector<std::string> lines;
        for (const auto& l : r->pseudocode())
            lines.push_back(l.toStdString());
        return lines;
    }());
    {
        QSignalBlocker block(solverCombo_);
        solverCombo_->setCurrentIndex(solverCombo_->findData(QString::fromStdString(r->solver())));
        onSolverChosen(solverCombo_->currentIndex());
    }
    optionForm_->setValues(r->options());
    progress_->reset(r->epsilon());
    for (const auto& rec : r->trace())
        progress_->setGap(rec.gap);
    onRunSnapshot(r->id());
    updateStatusLine();
}

void MainWindow::onRunReady(int id) {
    if (id == selectedId_) refreshSelection();
    refreshRunRow(id);
}

void MainWindow::onRunSnapshot(int id) {
    if (id != selectedId_) return;
    Run* r = runById(id);
    if (!r || !r->snapshot()) return;
    const SnapshotPtr snapshot = r->snapshot();
    if (auto cp = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(snapshot)) {
        viewStack_->setCurrentWidget(cuttingPlanePlot_);
        cuttingPlanePlot_->setSnapshot(cp);
    } else if (auto fw = std::dynamic_pointer_cast<const FrankWolfeSnapshot>(snapshot)) {
        viewStack_->setCurrentWidget(polytopePlot_);
        polytopePlot_->setSnapshot(fw);
    } else if (auto lin = std::dynamic_pointer_cast<const LinearSvmSnapshot>(snapshot)) {
        viewStack_->setCurrentWidget(linearPlot_);
        linearPlot_->setSnapshot(lin);
        linearPlot_->setTrace(r->trace(), r->extraColumns());
    }
    pseudocode_->setExecuted(snapshot->executedLines);
}

void MainWindow::onRunStatus(int id) {
    refreshRunRow(id);
    Run* r = runById(id);
    if (!r) return;
    if (id == selectedId_) {
        progress_->setGap(r->lastRecord().gap);
        updateStatusLine();
    }
    if (r->status().finished() && !finishedLogged_[id]) {
        finishedLogged_[id] = true;
        const QString text = tr("%1: %2 - %3")
                                 .arg(r->label(), QString(toString(r->status().code)),
                                      QString::fromStdString(r->status().message));
        if (r->status().usable()) {
            log_->appendMessage(text);
        } else {
            log_->appendError(text);
        }
    }
    updateButtons();
}

void MainWindow::refreshRunRow(int id) {
    const int row = rowOf(id);
    Run* r = runById(id);
    if (row < 0 || !r) return;
    auto* name = runTable_->item(row, kColRun);
    name->setText(r->label());
    QPixmap swatch(12, 12);
    swatch.fill(r->color());
    name->setIcon(QIcon(swatch));
    name->setToolTip(r->label());
    const QString state = r->failed()   ? tr("failed")
                          : !r->ready() ? tr("starting")
                                        : QString(toString(r->status().code));
    runTable_->item(row, kColStatus)->setText(state);
    runTable_->item(row, kColStatus)->setToolTip(QString::fromStdString(r->status().message));
    runTable_->item(row, kColIteration)->setText(QString::number(r->iteration()));
    runTable_->item(row, kColUpper)->setText(number(r->lastRecord().upper));
    runTable_->item(row, kColGap)->setText(QString::number(r->lastRecord().gap, 'e', 2));
}

void MainWindow::updateStatusLine() {
    Run* r = selectedRun();
    if (!r) {
        statusLine_->clear();
        return;
    }
    const IterationRecord& rec = r->lastRecord();
    statusLine_->setText(
        tr("%1   iteration %2   upper %3   lower %4   gap %5   oracles %6   "
           "%7 s   [%8]")
            .arg(QString("#%1 %2").arg(r->id()).arg(QString::fromStdString(r->solver())))
            .arg(rec.iteration)
            .arg(number(rec.upper), number(rec.lower))
            .arg(rec.gap, 0, 'e', 3)
            .arg(rec.oracleCalls)
            .arg(rec.seconds, 0, 'f', 3)
            .arg(QString(toString(r->status().code))));
    // Linear models: the λ-form bounds above, and the C-form objective P = U/λ beside them.
    if (auto lin = std::dynamic_pointer_cast<const LinearSvmSnapshot>(r->snapshot());
        lin && lin->lambda > 0 && std::isfinite(rec.upper)) {
        statusLine_->setText(statusLine_->text() +
                             tr("   C-form U/lambda %2 (lambda %1)")
                                 .arg(number(lin->lambda), number(rec.upper / lin->lambda)));
    }
}

void MainWindow::applyToSelected() {
    Run* r = selectedRun();
    if (!r) return;
    const std::string solver = solverCombo_->currentData().toString().toStdString();
    const OptionValues options = optionForm_->changedValues();
    std::string message;
    if (!checkSolverOptions(solver, options, &message)) {
        QMessageBox::warning(this, tr("Invalid options"), QString::fromStdString(message));
        log_->appendError(QString::fromStdString(message));
        return;
    }
    const int id = r->id();
    const int row = rowOf(id);
    runs_[static_cast<std::size_t>(row)].reset();
    finishedLogged_.erase(id);
    runs_[static_cast<std::size_t>(row)] = createRun(id, solver, options);
    refreshRunRow(id);
    log_->appendMessage(tr("restarted %1").arg(runs_[static_cast<std::size_t>(row)]->label()));
    refreshSelection();
}

void MainWindow::removeSelected() {
    const int row = rowOf(selectedId_);
    if (row < 0) return;
    boundsPlot_->removeRun(selectedId_);
    runs_.erase(runs_.begin() + row);
    runTable_->removeRow(row);
    selectedId_ = -1;
    if (runCount() > 0) {
        selectRun(std::min(row, runCount() - 1));
    } else {
        cuttingPlanePlot_->clear();
        polytopePlot_->clear();
        pseudocode_->clear();
        statusLine_->clear();
    }
    updateButtons();
    emit runsChanged();
}

void MainWindow::runAll() {
    for (const auto& r : runs_)
        r->start();
}

void MainWindow::pauseAll() {
    for (const auto& r : runs_)
        r->pause();
}

void MainWindow::stepAll(int count) {
    for (const auto& r : runs_)
        r->step(count);
}

void MainWindow::cancelAll() {
    for (const auto& r : runs_)
        r->cancel();
}

void MainWindow::resetAll() {
    for (auto& r : runs_) {
        const int id = r->id();
        const std::string solver = r->solver();
        const OptionValues options = r->options();
        r.reset();
        finishedLogged_.erase(id);
        r = createRun(id, solver, options);
        refreshRunRow(id);
    }
    log_->appendMessage(tr("reset all runs to iteration 0"));
    refreshSelection();
    updateButtons();
}

void MainWindow::setDelayMs(int milliseconds) {
    delayMs_ = milliseconds;
    delayLabel_->setText(milliseconds == 0 ? tr("full speed") : tr("%1 ms").arg(milliseconds));
    if (delaySlider_->value() != milliseconds) delaySlider_->setValue(milliseconds);
    for (const auto& r : runs_)
        r->setDelayMs(milliseconds);
}

void MainWindow::updateButtons() {
    bool anyActive = false;
    for (const auto& r : runs_)
        anyActive = anyActive || !r->status().finished();
    for (QPushButton* b : {runButton_, pauseButton_, stepButton_, step10Button_, cancelButton_}) {
        if (b) b->setEnabled(anyActive);
    }
    if (resetButton_) resetButton_->setEnabled(!runs_.empty());
    if (applyButton_) applyButton_->setEnabled(selectedId_ >= 0);
    if (removeButton_) removeButton_->setEnabled(selectedId_ >= 0);
    if (addRunButton_) addRunButton_->setEnabled(problem_ != nullptr);
}

QWidget* MainWindow::currentView() const {
    return viewStack_->currentWidget();
}

bool MainWindow::exportModelPlot(const QString& path, QString* why) {
    QCustomPlot* plot = currentView() == polytopePlot_ ? polytopePlot_->plot()
                        : currentView() == linearPlot_ ? linearPlot_->plot()
                                                       : cuttingPlanePlot_->plot();
    return widgets::exportPlot(plot, path, why);
}

bool MainWindow::exportBoundsPlot(const QString& path, QString* why) {
    boundsPlot_->replotNow();
    return widgets::exportPlot(boundsPlot_->plot(), path, why);
}

bool MainWindow::exportSelectedTrace(const QString& path, QString* why) {
    Run* r = selectedRun();
    if (!r) {
        if (why) *why = tr("no run selected");
        return false;
    }
    return r->exportTrace(path, why);
}

void MainWindow::exportDialog(const QString& what) {
    const bool trace = what == "trace";
    const QString filter = trace ? tr("CSV (*.csv)") : tr("PNG image (*.png);;PDF (*.pdf)");
    QString suggested = problem_ ? QString::fromStdString(problem_->info.name) : "cplab";
    suggested += trace ? "_trace.csv" : "_" + what + ".png";
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), suggested, filter);
    if (path.isEmpty()) return;
    QString why;
    const bool ok =
        trace ? exportSelectedTrace(path, &why)
              : (what == "model" ? exportModelPlot(path, &why) : exportBoundsPlot(path, &why));
    if (ok) {
        log_->appendMessage(tr("exported %1").arg(path));
    } else {
        log_->appendError(why);
        QMessageBox::warning(this, tr("Export failed"), why);
    }
}

}  // namespace cplab
