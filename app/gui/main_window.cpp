// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QWindow>
#include <algorithm>

#include "bounds_plot.h"
#include "caption_bar.h"
#include "centre_area.h"
#include "export_actions.h"
#include "family_view.h"
#include "file_loader.h"
#include "focus_ring.h"
#include "help_browser.h"
#include "lecture_controller.h"
#include "log_panel.h"
#include "playback.h"
#include "point_editing.h"
#include "presentation.h"
#include "pseudocode_panel.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "session_actions.h"
#include "setup_panel.h"
#include "timeline_bar.h"
#include "trace_following.h"
#include "version.h"

namespace cplab {

namespace {

// Every panel and the run controls can be hidden and brought back from here (not only by a
// right-click on a tool bar), then presentation mode and the scale.
void addViewMenu(QMainWindow* window, Presentation* presentation) {
    QMenu* view = window->menuBar()->addMenu(QObject::tr("&View"));
    view->setObjectName("viewMenu");
    for (QDockWidget* dock : window->findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    for (QToolBar* bar : window->findChildren<QToolBar*>())
        view->addAction(bar->toggleViewAction());
    presentation->addViewActions(view);
}

void showAbout(QWidget* parent) {
    QStringList familyTitles;
    for (const Family* f : families())
        familyTitles << QString::fromStdString(f->title()).toHtmlEscaped();
    QMessageBox::about(
        parent, QObject::tr("About cplab"),
        QObject::tr(
            "<b>cplab %1</b> - Cutting-Plane Lab<br>Step-wise optimisation methods of machine "
            "learning, live-plotted.<br><br>Families: %2.<br><br>Command-line twin: "
            "<tt>cplab-cli</tt>.<br><br>Licence: GNU GPL version 3 or later (cplab links "
            "libocas and QCustomPlot, both GPLv3). Peers it is checked and raced against: "
            "libocas, LIBLINEAR, LIBSVM, dlib, toulbar2. Built-in datasets (LIBSVM collection, "
            "UCI, Taskar's OCR words, UAI 2014, Middlebury) and their sources: Help > Guide "
            "(F1), page \"Built-in demo datasets\".")
            .arg(CPLAB_VERSION, familyTitles.join(", ")));
}

void addHelpMenu(QMainWindow* window, const Presentation* presentation) {
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    // The README and docs/ inside the app (help_browser.h).
    help->addAction(QObject::tr("&Guide"), QKeySequence::HelpContents, window,
                    [window] { HelpBrowser::open(window); });
    help->addAction(QObject::tr("&Keyboard shortcuts"), window, [window, presentation] {
        QMessageBox::information(window, QObject::tr("Keyboard shortcuts"),
                                 presentation->shortcutsText());
    });
    help->addAction(QObject::tr("&About cplab"), window, [window] { showAbout(window); });
}

}  // namespace

// The parts in the order the window is built: the centre, the run controls, the set-up dock,
// the pseudocode and the log, the status bar, then the menus.
MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    ctx_.window = this;
    ctx_.controller = new RunController(this);
    setWindowTitle("cplab - Cutting-Plane Lab");
    setAcceptDrops(true);
    ctx_.presentation = new Presentation(ctx_);
    ctx_.files = new FileLoader(ctx_);
    ctx_.sessions = new SessionActions(ctx_);
    ctx_.exports = new ExportActions(ctx_);
    ctx_.following = new TraceFollowing(ctx_);
    ctx_.centre = new CentreArea(ctx_);
    ctx_.playback = new Playback(ctx_);
    ctx_.setup = new SetupPanel(ctx_);
    buildRightDocks();
    ctx_.playback->buildStatusBar();
    buildMenus();
    ctx_.setup->populateProblems();
    connect(ctx_.files, &FileLoader::dataFileLoaded, this, &MainWindow::dataFileLoaded);
    connect(ctx_.sessions, &SessionActions::sessionOpened, this, &MainWindow::sessionOpened);
    connect(ctx_.sessions, &SessionActions::modifiedChanged, this, &MainWindow::updateTitle);
    connectController();
    setDelayMs(ctx_.controller->delayMs());
    updateButtons();
    connect(ctx_.controller, &RunController::runAdded, this, &MainWindow::updateTitle);
    connect(ctx_.controller, &RunController::problemChanged, this, &MainWindow::updateTitle);
    updateTitle();
    new widgets::FocusRing(this);
    resize(firstSize(screen()));
    fitToScreen();
}

MainWindow::~MainWindow() {
    ctx_.files->waitForFinished();
    // The runs stop and join before the views they report to go away.
    ctx_.controller->removeAll();
}

void MainWindow::buildRightDocks() {
    ctx_.pseudocode = new widgets::PseudocodePanel(this);
    ctx_.pseudocode->setObjectName("pseudocodePanel");
    auto* right = new QDockWidget(tr("Pseudocode"), this);
    right->setObjectName("pseudocodeDock");
    right->setWidget(ctx_.pseudocode);
    ctx_.pseudocode->setMinimumWidth(220);
    addDockWidget(Qt::RightDockWidgetArea, right);
    ctx_.log = new widgets::LogPanel(this);
    ctx_.log->setObjectName("logPanel");
    auto* bottom = new QDockWidget(tr("Log"), this);
    bottom->setObjectName("logDock");
    bottom->setWidget(ctx_.log);
    addDockWidget(Qt::RightDockWidgetArea, bottom);
    splitDockWidget(right, bottom, Qt::Vertical);
    // An error is not left in a hidden or scrolled log: the log comes into view and the
    // status bar says it for a while.
    connect(ctx_.log, &widgets::LogPanel::errorAppended, this, [this, bottom](const QString& text) {
        if (!ctx_.presentation->presenting()) {
            bottom->show();
            bottom->raise();
        }
        statusBar()->showMessage(tr("Error: %1").arg(text), 15000);
    });
}

void MainWindow::buildMenus() {
    buildFileMenu();
    ctx_.playback->addRunMenu(menuBar()->addMenu(tr("&Run")));
    ctx_.presentation->addDemoMenu(menuBar()->addMenu(tr("&Demo")));
    addViewMenu(this, ctx_.presentation);
    addHelpMenu(this, ctx_.presentation);
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* demos = file->addMenu(tr("Load &demo"));
    for (const auto& demo : demoCatalog()) {
        const QString name = QString::fromStdString(demo.name);
        demos->addAction(QString::fromStdString(demo.title), this, [this, name] {
            if (ctx_.setup->confirmDiscardRuns()) loadDemo(name);
        });
    }
    file->addSeparator();
    ctx_.files->addOpenAction(file);
    ctx_.sessions->addRecentMenu(file);
    file->addSeparator();
    ctx_.sessions->addSessionActions(file);
    (new LectureController(ctx_))->addFileActions(file);
    file->addSeparator();
    ctx_.following->addFileActions(file);
    file->addSeparator();
    ctx_.exports->addFileActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    ctx_.pointEditing = new PointEditing(ctx_);
    ctx_.pointEditing->buildEditMenu(file);
}

// What the controller reports goes to the parts that show it.
void MainWindow::connectController() {
    RunController* controller = ctx_.controller;
    connect(controller, &RunController::problemChanged, this, &MainWindow::onProblemChanged);
    connect(controller, &RunController::runAdded, this, [this](int id) {
        ctx_.setup->addRow(id);
        updateButtons();
        emit runsChanged();
    });
    connect(controller, &RunController::runRemoved, this, [this](int id) {
        ctx_.playback->forgetEvents(id);
        ctx_.setup->removeRow(id);
        updateButtons();
        emit runsChanged();
    });
    connect(controller, &RunController::runReplaced, this, [this](int id) {
        ctx_.playback->forgetEvents(id);  // the new run starts again from iteration 0
        ctx_.setup->replaceRow(id);
        updateButtons();
    });
    connect(controller, &RunController::runReady, this, [this](int id) {
        if (id == ctx_.setup->selectedId()) ctx_.setup->refreshSelection();
        ctx_.setup->refreshRunRow(id);
        ctx_.sessions->restorePendingSession();
    });
    connect(controller, &RunController::recordsAppended, this,
            [this](int id, const std::vector<IterationRecord>& records) {
                ctx_.boundsPlot->appendRecords(id, records);
                ctx_.playback->onRecords(id);
            });
    connect(controller, &RunController::snapshotChanged, ctx_.playback, &Playback::onSnapshot);
    connect(controller, &RunController::statusChanged, this, [this](int id) {
        ctx_.playback->onStatus(id);
        updateButtons();
    });
    connect(controller, &RunController::message, this, [this](const QString& text, bool error) {
        if (error) {
            ctx_.log->appendError(text);
        } else {
            ctx_.log->appendMessage(text);
        }
    });
}

void MainWindow::onProblemChanged() {
    const ProblemInstance* p = ctx_.controller->problem();
    ctx_.setup->clearRows();
    ctx_.boundsPlot->clear();
    ctx_.following->addAllToPlot();
    ctx_.playback->clearProblem();
    ctx_.presentation->setDemo(nullptr);
    if (!p) {
        ctx_.centre->showFamily({});
        updateButtons();
        return;
    }
    ctx_.setup->showProblem();
    if (const Family* family = ctx_.controller->family()) {
        const BoundLabels labels = family->boundLabels();
        ctx_.boundsPlot->setBoundLabels(QString::fromStdString(labels.upper),
                                        QString::fromStdString(labels.lower));
    }
    if (p->data) {
        if (const auto optimum = p->data->knownOptimum())
            ctx_.boundsPlot->setReference(*optimum, tr("known optimum"));
        const std::string details = p->data->details();
        if (!details.empty()) ctx_.log->appendMessage(QString::fromStdString(details));
    }
    ctx_.centre->showProblemControls(p->info.family);
    ctx_.centre->showFamily(p->info.family);
    ctx_.setup->populateSolvers();
    ctx_.log->appendMessage(
        tr("problem %1: %2")
            .arg(QString::fromStdString(p->info.name), QString::fromStdString(p->info.title)));
    updateButtons();
}

void MainWindow::updateButtons() {
    ctx_.playback->updateButtons();
    ctx_.setup->updateButtons();
}

QSize MainWindow::firstSize(const QScreen* screen) {
    const QSize designed(1440, 900);
    if (!screen) return designed;
    const QSize free = screen->availableGeometry().size();
    return designed.expandedTo(free * 3 / 4).boundedTo(free);
}

QSize MainWindow::roomOnScreen() const {
    const QScreen* s = screen();
    if (!s) return size();
    QMargins frame = windowHandle() ? windowHandle()->frameMargins() : QMargins();
    // Not framed yet: a title bar and thin borders, as window managers draw them.
    if (frame.isNull() && QGuiApplication::platformName() != "offscreen")
        frame = QMargins(2, 30, 2, 2);
    return s->availableGeometry().size().shrunkBy(frame);
}

void MainWindow::arrangeDocks() {
    auto* setup = findChild<QDockWidget*>("problemDock");
    auto* pseudocode = findChild<QDockWidget*>("pseudocodeDock");
    auto* log = findChild<QDockWidget*>("logDock");
    if (!setup || !pseudocode || !log || minimumSizeHint().width() <= roomOnScreen().width())
        return;
    if (tabifiedDockWidgets(setup).contains(pseudocode)) return;
    tabifyDockWidget(setup, pseudocode);
    tabifyDockWidget(setup, log);
    setup->raise();
}

void MainWindow::fitToScreen() {
    // The offscreen platform's screen is a stand-in (800×600): scripted pictures and tests
    // keep the size they ask for.
    if (isMaximized() || isFullScreen() || QGuiApplication::platformName() == "offscreen") return;
    const QScreen* s = screen();
    if (!s) return;
    arrangeDocks();
    const QSize room = roomOnScreen();
    if (!room.isValid()) return;
    if (width() > room.width() || height() > room.height()) resize(size().boundedTo(room));
    fittedSize_ = size();
    // The frame's top left (pos() and move() place the frame) such that the frame is inside.
    const QRect free = s->availableGeometry();
    const QSize outer = free.size() - room + size();
    const QPoint at(
        std::clamp(pos().x(), free.left(), std::max(free.left(), free.right() + 1 - outer.width())),
        std::clamp(pos().y(), free.top(),
                   std::max(free.top(), free.bottom() + 1 - outer.height())));
    if (at != pos()) move(at);
}

void MainWindow::fitWhenFramed(int triesLeft) {
    QTimer::singleShot(50, this, [this, triesLeft] {
        if (!isVisible() || !windowHandle()) return;
        if (windowHandle()->frameMargins().isNull()) {
            if (triesLeft > 0) fitWhenFramed(triesLeft - 1);
            return;
        }
        if (size() == fittedSize_ || size() == fittedSize_.expandedTo(minimumSizeHint()))
            fitToScreen();
    });
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!ctx_.sessions->confirmClose()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::updateTitle() {
    const QString name = ctx_.sessions->sessionName();
    const QString title =
        name.isEmpty() ? tr("cplab - Cutting-Plane Lab[*]") : tr("%1[*] - cplab").arg(name);
    if (windowTitle() != title) setWindowTitle(title);
    setWindowModified(ctx_.sessions->unsavedWork());
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!shownOnce_) {
        shownOnce_ = true;
        // Not resized since by the caller (--size, a test): fitted again as shown, and once
        // more when the window manager has put its frame around it.
        if (size() == fittedSize_ || size() == fittedSize_.expandedTo(minimumSizeHint())) {
            fitToScreen();
            fitWhenFramed(40);
        }
    }
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

// ---- the window's own API: each call is its part's ----------------------------------------

bool MainWindow::loadDemo(const QString& name) {
    return ctx_.setup->loadDemo(name);
}

bool MainWindow::loadProblem(const QString& name) {
    return ctx_.setup->loadProblem(name);
}

void MainWindow::openDataFile(const QString& path, const QString& testPath,
                              const QString& preferredFamily, bool askForTest) {
    ctx_.files->openDataFile(path, testPath, preferredFamily, askForTest);
}

bool MainWindow::saveSession(const QString& path, bool withHistory, QString* why) {
    return ctx_.sessions->saveSession(path, withHistory, why);
}

void MainWindow::openSession(const QString& path) {
    ctx_.sessions->openSession(path);
}

bool MainWindow::isSessionFile(const QString& path) {
    return SessionActions::isSessionFile(path);
}

void MainWindow::setScripted(bool scripted) {
    ctx_.sessions->setScripted(scripted);
}

void MainWindow::restoreLayout() {
    ctx_.sessions->restoreLayout(&dockSized_);
    ctx_.presentation->restoreScales();
    fitToScreen();
}

bool MainWindow::addRun(const std::string& solver, const OptionValues& options, QString* why) {
    return ctx_.controller->addRun(solver, options, why) != nullptr;
}

void MainWindow::removeAllRuns() {
    ctx_.controller->removeAll();
}

int MainWindow::runCount() const {
    return ctx_.controller->runCount();
}

Run* MainWindow::run(int index) const {
    return ctx_.controller->run(index);
}

void MainWindow::selectRun(int index) {
    ctx_.setup->selectRun(index);
}

widgets::FamilyView* MainWindow::currentView() const {
    return ctx_.centre->current();
}

bool MainWindow::exportModelPlot(const QString& path, QString* why) {
    return ctx_.exports->exportModelPlot(path, why);
}

bool MainWindow::exportWholeView(const QString& path, QString* why) {
    return ctx_.exports->exportWholeView(path, why);
}

bool MainWindow::exportBoundsPlot(const QString& path, QString* why) {
    return ctx_.exports->exportBoundsPlot(path, why);
}

bool MainWindow::exportRunsTable(const QString& path, QString* why) {
    return ctx_.exports->exportRunsTable(path, why);
}

AnimationExport* MainWindow::exportAnimation(const AnimationSettings& settings, QString* why) {
    return ctx_.exports->exportAnimation(settings, why);
}

TraceFollower* MainWindow::followTrace(const QString& path) {
    return ctx_.following->followTrace(path);
}

void MainWindow::runAll() {
    ctx_.playback->runAll();
}

void MainWindow::stepAll(int count) {
    ctx_.playback->stepAll(count);
}

void MainWindow::setDelayMs(int milliseconds) {
    ctx_.playback->setDelayMs(milliseconds);
}

void MainWindow::setHistoryBudgetMb(int megabytes) {
    ctx_.playback->setHistoryBudgetMb(megabytes);
}

void MainWindow::showIteration(int iteration) {
    ctx_.playback->showIteration(iteration);
}

void MainWindow::setTestSplit(double testFraction, int seed) {
    ctx_.centre->setTestSplit(testFraction, seed);
}

void MainWindow::setPresentation(bool on, bool fullScreen) {
    ctx_.presentation->setPresentation(on, fullScreen);
}

}  // namespace cplab
