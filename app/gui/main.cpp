// SPDX-License-Identifier: GPL-3.0-or-later
// cplab, the GUI. Opens on a ready-to-run demo. Options let scripts take screenshots:
//   cplab --demo kelley --steps 6 --screenshot shot.png
//   cplab --demo kelley_2d --steps 10 --timeline 3 --screenshot earlier.png
//   cplab --demo kelley --steps 40 --size 1280x720 --export-animation kelley.gif
//   cplab --data a9a.gz --test a9a.t.gz --solvers ocas:C=1,bmrm:C=1 --run --screenshot race.png
//   cplab cutting_planes.cplab-lecture --export-handout handout.pdf
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "animation_export.h"
#include "core/output_file.h"
#include "family_view.h"
#include "handout.h"
#include "lecture.h"
#include "lecture_controller.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "registry.h"
#include "run.h"
#include "scaled_style.h"
#include "version.h"

namespace {

// How long --steps may take before the script gives up (and exits 1, saying so).
constexpr int kStepsSeconds = 60;

// Waits (processing events) until every run has done `steps` iterations or stopped.
bool waitForSteps(const cplab::MainWindow& window, int steps, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        bool done = true;
        for (int k = 0; k < window.runCount(); ++k) {
            const cplab::Run* r = window.run(k);
            const bool finished = r->failed() || (r->ready() && r->status().finished());
            done = done && (finished || (r->ready() && r->iteration() >= steps));
        }
        if (done) return true;
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return false;
}

// "ocas:C=1:tol_rel=1e-3" → solver and options, with --set's key=value rule.
bool parseRunSpec(const QString& spec, std::string* solver, cplab::OptionValues* options,
                  std::string* why) {
    // "svm:kernel=gaussian:0.5:C=10": a ':' starts a new assignment only when what follows
    // has its own '=' (values such as kernel specs hold ':' themselves).
    const QStringList parts = spec.split(':');
    *solver = parts[0].toStdString();
    QStringList assignments;
    for (qsizetype k = 1; k < parts.size(); ++k) {
        if (parts[k].contains('=') || assignments.isEmpty()) {
            assignments << parts[k];
        } else {
            assignments.back() += ':' + parts[k];
        }
    }
    for (const QString& assignment : assignments) {
        if (!cplab::parseOptionAssignment(assignment.toStdString(), options, why)) return false;
    }
    return true;
}

// The runs of --solvers "ocas:C=1,silp:kernels=gaussian:0.1,1;linear": a ',' starts a new run
// only when a solver's name follows.
QStringList splitRuns(const QString& value) {
    QStringList runs;
    for (const QString& piece : value.split(',', Qt::SkipEmptyParts)) {
        const std::string name = piece.section(':', 0, 0).toStdString();
        if (runs.isEmpty() || cplab::familyOfSolver(name)) {
            runs << piece;
        } else {
            runs.back() += ',' + piece;
        }
    }
    return runs;
}

// The command line of cplab.
struct CommandLine {
    QCommandLineOption demo{"demo", "Open this built-in demo (default: kelley).", "name", "kelley"};
    QCommandLineOption steps{"steps", "Step every run this many iterations after opening.", "n"};
    QCommandLineOption run{"run", "Start running every run after opening."};
    QCommandLineOption delay{"delay", "Delay per step in milliseconds.", "ms"};
    QCommandLineOption screenshot{"screenshot",
                                  "Save a screenshot of the window to this PNG and quit.", "file"};
    QCommandLineOption size{"size", "Window size, e.g. 1440x900.", "WxH"};
    QCommandLineOption data{"data", "Open this data file instead of a demo.", "file"};
    QCommandLineOption test{"test", "Test file for --data.", "file"};
    QCommandLineOption solvers{"solvers",
                               "With --data: comma-separated runs, each SOLVER or "
                               "SOLVER:key=value:key=value (e.g. ocas:C=1,bmrm:C=1).",
                               "list"};
    QCommandLineOption timeline{"timeline",
                                "Show this iteration of the selected run (the timeline scrubbed "
                                "back).",
                                "iteration"};
    QCommandLineOption history{
        "history-mb", "Memory for the snapshots of all runs together (default 256).", "MB"};
    QCommandLineOption testFraction{
        "test-fraction", "With --data: hold out this fraction (0 to 0.9) as test set.", "F"};
    QCommandLineOption seed{"seed", "Seed of the --test-fraction split (default 1).", "S"};
    QCommandLineOption viewTab{"view-tab", "Show tab N (0 = first) of the model view.", "N"};
    QCommandLineOption exportView{"export-view",
                                  "Save the model view's plot (the tab shown) to this PNG, PDF or "
                                  "SVG (as File > Export) and quit.",
                                  "file"};
    QCommandLineOption exportFigure{
        "export-figure",
        "Save every tab of the model view as one figure (PNG, PDF or SVG) and quit.", "file"};
    QCommandLineOption exportBounds{
        "export-bounds",
        "Save the bounds plot of all runs (PNG, PDF or SVG), or its data: every run's records on "
        "the plot's x axis as CSV (.csv) or a pgfplots document (.tex); then quit.",
        "file"};
    QCommandLineOption problem{
        "problem", "Open this built-in problem (names: cplab-cli list) instead of a demo.", "name"};
    QCommandLineOption saveSession{"save-session",
                                   "After --steps/--run, save the session (with the runs' records "
                                   "and snapshots) to this .cplab file and quit.",
                                   "file"};
    QCommandLineOption withoutHistory{
        "without-history",
        "With --save-session: store no records or snapshots (the session reopens at iteration "
        "0)."};
    QCommandLineOption exportRuns{"export-runs", "Save the runs table as CSV and quit.", "file"};
    QCommandLineOption exportAnimation{
        "export-animation",
        "Save the selected run's kept snapshots, drawn through the window's centre, as an "
        "animated GIF (.gif) or PNG frames (a folder ending in '/', or a pattern such as "
        "frame-%04d.png), and quit.",
        "file"};
    QCommandLineOption animationFps{"animation-fps",
                                    "Frames per second of --export-animation (default 4).", "F"};
    QCommandLineOption animationRange{
        "animation-range",
        "Iterations FIRST:LAST of --export-animation (default: all; LAST may be empty).", "A:B"};
    QCommandLineOption animationHold{"animation-hold",
                                     "Seconds the animation's last frame stays (default 2).", "S"};
    QCommandLineOption animationArea{
        "animation-area", "What --export-animation draws: centre (default) or view.", "area"};
    QCommandLineOption follow{"follow",
                              "Follow the trace a `cplab-cli run --trace FILE` is writing (as "
                              "File > Follow a running trace), drawn beside the runs; repeatable.",
                              "file"};
    QCommandLineOption exportHandout{
        "export-handout",
        "With a lecture (FILE.cplab-lecture): walk it from its first slide to its end and write "
        "a PDF handout, one page per beat (the views as vector graphics, the caption under "
        "them, the slide's title on top), then quit.",
        "file"};
    QCommandLineOption presentation{
        "presentation",
        "Open in presentation mode (View > Presentation, F11): full screen, or at --size."};

    QCommandLineParser parser;
    // Numbers checked before anything opens.
    double fraction = 0, splitSeed = 1, tab = 0;
    double delayMs = 0, stepCount = 0, shownIteration = 0, historyMb = 256;
    double fps = 4, holdSeconds = 2;
    int animationFirst = 0, animationLast = -1;  // --animation-range
    int width = 0, height = 0;                   // --size, 0: not given

    explicit CommandLine(const QCoreApplication& app) {
        parser.setApplicationDescription(
            "Cutting-Plane Lab: optimisation methods of machine learning, step by step.");
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions(
            {demo,           steps,         run,           delay,           screenshot,
             size,           data,          test,          solvers,         timeline,
             history,        testFraction,  seed,          viewTab,         exportView,
             exportFigure,   exportBounds,  exportRuns,    exportAnimation, animationFps,
             animationRange, animationHold, animationArea, problem,         saveSession,
             withoutHistory, presentation,  follow,        exportHandout});
        parser.addPositionalArgument(
            "file",
            "A session (.cplab), a lecture (.cplab-lecture, opened at its first slide) or a data "
            "file to open (the same as --data file).",
            "[file]");
        parser.process(app);
    }
    bool isSet(const QCommandLineOption& option) const { return parser.isSet(option); }
    QString value(const QCommandLineOption& option) const { return parser.value(option); }
    bool grabs() const {
        return isSet(screenshot) || isSet(exportView) || isSet(exportFigure) ||
               isSet(exportBounds) || isSet(exportRuns) || isSet(exportAnimation) ||
               isSet(exportHandout);
    }
    // Saves or grabs something and quits: no dialogs, nothing remembered.
    bool finishes() const { return grabs() || isSet(saveSession); }

    // The option's value into *out when it is set; false (with a message) when it is not a
    // number in [low, high].
    bool number(const QCommandLineOption& option, double low, double high, double* out) const {
        if (!isSet(option)) return true;
        bool ok = false;
        *out = value(option).toDouble(&ok);
        if (ok && *out >= low && *out <= high) return true;
        std::fprintf(stderr, "cplab: --%s %s: expected a number in [%g, %g]\n",
                     qPrintable(option.names().first()), qPrintable(value(option)), low, high);
        return false;
    }
    bool checkNumbers() {
        if (!number(testFraction, 0.0, 0.9, &fraction) || !number(seed, 0, 1000000, &splitSeed) ||
            !number(viewTab, 0, 100, &tab) || !number(delay, 0, cplab::kMaxDelayMs, &delayMs) ||
            !number(steps, 0, 10000000, &stepCount) ||
            !number(timeline, 0, 1000000000, &shownIteration) ||
            !number(history, 1, 65536, &historyMb) || !number(animationFps, 0.1, 50, &fps) ||
            !number(animationHold, 0, 60, &holdSeconds) || !checkAnimation() ||
            !checkOutputsDistinct())
            return false;
        if (!isSet(size)) return true;
        const QStringList parts = value(size).split('x');
        bool wide = false, tall = false;
        if (parts.size() == 2) {
            width = parts[0].toInt(&wide);
            height = parts[1].toInt(&tall);
        }
        if (wide && tall && width >= 320 && height >= 240 && width <= 16384 && height <= 16384)
            return true;
        std::fprintf(stderr,
                     "cplab: --size %s: expected WIDTHxHEIGHT in pixels, from 320x240 to "
                     "16384x16384\n",
                     qPrintable(value(size)));
        return false;
    }
    bool checkAnimation();
    bool checkOutputsDistinct() const;
};

// Two outputs that are one file (by any spelling, or a link to the same file) would lose one:
// refused before anything opens, as cplab-cli refuses them.
bool CommandLine::checkOutputsDistinct() const {
    const QCommandLineOption* outputs[] = {&saveSession,     &exportView,   &exportFigure,
                                           &exportBounds,    &exportRuns,   &screenshot,
                                           &exportAnimation, &exportHandout};
    std::vector<std::pair<const QCommandLineOption*, QString>> named;
    for (const QCommandLineOption* option : outputs) {
        if (!isSet(*option)) continue;
        const QString path = value(*option);
        for (const auto& [other, otherPath] : named) {
            const bool same =
                QFileInfo(path).absoluteFilePath() == QFileInfo(otherPath).absoluteFilePath() ||
                cplab::sameFile(path.toStdString(), otherPath.toStdString());
            if (!same) continue;
            std::fprintf(stderr, "cplab: --%s %s and --%s %s are one file; give each its own\n",
                         qPrintable(other->names().first()), qPrintable(otherPath),
                         qPrintable(option->names().first()), qPrintable(path));
            return false;
        }
        named.emplace_back(option, path);
    }
    return true;
}

// --animation-range A:B and --animation-area.
bool CommandLine::checkAnimation() {
    if (isSet(animationArea) && value(animationArea) != "centre" &&
        value(animationArea) != "view") {
        std::fprintf(stderr, "cplab: --animation-area %s: expected centre or view\n",
                     qPrintable(value(animationArea)));
        return false;
    }
    if (!isSet(animationRange)) return true;
    const QStringList parts = value(animationRange).split(':');
    bool firstOk = false, lastOk = parts.size() == 2 && parts[1].isEmpty();
    if (parts.size() == 2) {
        animationFirst = parts[0].toInt(&firstOk);
        if (!lastOk) animationLast = parts[1].toInt(&lastOk);
    }
    if (firstOk && lastOk && animationFirst >= 0 &&
        (animationLast < 0 ? parts[1].isEmpty() : animationLast >= animationFirst))
        return true;
    std::fprintf(stderr,
                 "cplab: --animation-range %s: expected FIRST:LAST iterations with 0 <= FIRST <= "
                 "LAST (LAST may be empty: the newest)\n",
                 qPrintable(value(animationRange)));
    return false;
}

// Processes events for `milliseconds` (queued snapshots and replots land).
void settle(int milliseconds) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < milliseconds)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
}

// The runs of --solvers replace the data file's default run; false (with a message) when one
// is not valid.
bool addRuns(cplab::MainWindow& window, const CommandLine& cli) {
    window.removeAllRuns();
    for (const QString& spec : splitRuns(cli.value(cli.solvers))) {
        std::string solver, why;
        cplab::OptionValues options;
        QString message;
        if (!parseRunSpec(spec, &solver, &options, &why)) {
            std::fprintf(stderr, "cplab: --solvers: %s\n", why.c_str());
            return false;
        }
        if (!window.addRun(solver, options, &message)) {
            std::fprintf(stderr, "cplab: %s\n", qPrintable(message));
            return false;
        }
    }
    return true;
}

// --export-animation: draws the frames and waits for the encoder; 0, or 1 on failure.
int animate(cplab::MainWindow& window, const CommandLine& cli) {
    cplab::AnimationSettings settings;
    settings.path = cli.value(cli.exportAnimation);
    settings.first = cli.animationFirst;
    settings.last = cli.animationLast;
    settings.framesPerSecond = cli.fps;
    settings.holdSeconds = cli.holdSeconds;
    settings.viewOnly = cli.value(cli.animationArea) == "view";
    QString message;
    cplab::AnimationExport* job = window.exportAnimation(settings, &message);
    bool ok = false;
    if (job) {
        QEventLoop loop;
        QObject::connect(job, &cplab::AnimationExport::finished, &loop,
                         [&](bool done, const QString& outcome) {
                             ok = done;
                             message = outcome;
                             loop.quit();
                         });
        loop.exec();
    }
    if (!ok) {
        std::fprintf(stderr, "cplab: %s\n", qPrintable(message));
        return 1;
    }
    std::printf("%s\n", qPrintable(settings.path));
    return 0;
}

// --save-session, --export-view, --export-figure, --export-bounds, --export-runs, --screenshot
// and --export-animation; 0, or 1 when a file could not be written.
int grabPictures(cplab::MainWindow& window, const CommandLine& cli) {
    using Export = bool (cplab::MainWindow::*)(const QString&, QString*);
    const std::pair<const QCommandLineOption*, Export> exports[] = {
        {&cli.exportView, &cplab::MainWindow::exportModelPlot},
        {&cli.exportFigure, &cplab::MainWindow::exportWholeView},
        {&cli.exportBounds, &cplab::MainWindow::exportBoundsPlot},
        {&cli.exportRuns, &cplab::MainWindow::exportRunsTable}};
    if (cli.isSet(cli.saveSession)) {
        const QString path = cli.value(cli.saveSession);
        QString why;
        if (!window.saveSession(path, !cli.isSet(cli.withoutHistory), &why)) {
            std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    for (const auto& [option, function] : exports) {
        if (!cli.isSet(*option)) continue;
        const QString path = cli.value(*option);
        QString why;
        if (!(window.*function)(path, &why)) {
            std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    if (cli.isSet(cli.screenshot)) {
        const QString path = cli.value(cli.screenshot);
        cplab::AtomicOutput output(path.toStdString());
        const bool saved = !output.temporaryPath().empty() &&
                           window.grab().save(QString::fromStdString(output.temporaryPath()));
        const auto failure = saved ? output.commit() : std::optional<std::string>(output.error());
        if (failure) {
            std::fprintf(stderr, "cplab: %s: %s\n", qPrintable(path),
                         failure->empty() ? "could not be written" : failure->c_str());
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    return cli.isSet(cli.exportAnimation) ? animate(window, cli) : 0;
}

// What the options ask for once the problem is open: the exit status, or -1 to go on
// interactively.
int script(cplab::MainWindow& window, const CommandLine& cli, bool replaceRuns) {
    if (replaceRuns && cli.isSet(cli.solvers) && !addRuns(window, cli)) return 1;
    if (cli.isSet(cli.steps)) {
        const int n = static_cast<int>(cli.stepCount);
        waitForSteps(window, 0, 10000);
        window.stepAll(n);
        if (!waitForSteps(window, n, kStepsSeconds * 1000)) {
            int reached = n;
            for (int k = 0; k < window.runCount(); ++k)
                reached = std::min(reached, window.run(k)->iteration());
            std::fprintf(stderr,
                         "cplab: --steps %d: stopped after %d s with a run at iteration %d "
                         "(fewer steps, or --run, which ends when the runs do)\n",
                         n, kStepsSeconds, reached);
            return 1;
        }
    }
    if (cli.isSet(cli.run)) {
        window.runAll();
        // A scripted picture shows the runs' end (at most two minutes).
        if (cli.finishes()) waitForSteps(window, std::numeric_limits<int>::max(), 120000);
    }
    if (cli.isSet(cli.timeline) || cli.isSet(cli.viewTab) || cli.finishes()) settle(400);
    if (cli.isSet(cli.timeline)) {
        window.showIteration(static_cast<int>(cli.shownIteration));
        settle(200);
    }
    if (cli.isSet(cli.viewTab)) {
        if (!window.currentView() || !window.currentView()->showPage(static_cast<int>(cli.tab))) {
            std::fprintf(stderr, "cplab: --view-tab %d: the view has no such tab\n",
                         static_cast<int>(cli.tab));
            return 1;
        }
        settle(200);
    }
    return cli.finishes() ? grabPictures(window, cli) : -1;
}

// The family of the first solver of --solvers (a file several families read opens in it).
QString familyOfFirstRun(const CommandLine& cli) {
    if (!cli.isSet(cli.solvers)) return {};
    std::string solver, why;
    cplab::OptionValues options;
    const QString first = splitRuns(cli.value(cli.solvers)).value(0);
    if (!parseRunSpec(first, &solver, &options, &why)) return {};
    const cplab::Family* family = cplab::familyOfSolver(solver);
    return family ? QString::fromStdString(family->name()) : QString();
}

// The window's size, settings and followed traces as the options ask, before it opens.
void configureWindow(cplab::MainWindow& window, const CommandLine& cli) {
    if (cli.width > 0) {
        window.resize(cli.width, cli.height);
    } else if (cli.grabs()) {
        // A scripted picture has the documented size whatever the screen (the window itself
        // opens at most as large as the screen's free area).
        window.resize(1440, 900);
    }
    if (cli.isSet(cli.delay)) window.setDelayMs(static_cast<int>(cli.delayMs));
    if (cli.isSet(cli.testFraction) || cli.isSet(cli.seed))
        window.setTestSplit(cli.fraction, static_cast<int>(cli.splitSeed));
    if (cli.isSet(cli.history)) window.setHistoryBudgetMb(static_cast<int>(cli.historyMb));
    window.setScripted(cli.finishes());
    // The interactive app (presenting too) remembers; scripts and --size neither use nor change
    // what it remembers.
    if (!cli.finishes() && !cli.isSet(cli.size)) window.restoreLayout();
    for (const QString& trace : cli.parser.values(cli.follow))
        window.followTrace(trace);
}

// `cplab LECTURE`: the lecture opens at its first slide, then the script runs (or
// --export-handout walks it); the exit status, or -1 to go on interactively.
int openLecture(cplab::MainWindow& window, const CommandLine& cli, const QString& path) {
    if (!cplab::isLecturePath(path.toStdString())) {
        std::fprintf(stderr, "cplab: --export-handout needs a lecture (FILE.cplab-lecture)\n");
        return 1;
    }
    window.show();
    if (cli.isSet(cli.presentation)) window.setPresentation(true, !cli.isSet(cli.size));
    auto* lectures = window.findChild<cplab::LectureController*>("lectureController");
    QString why;
    if (cli.isSet(cli.test) || cli.isSet(cli.solvers)) {
        std::fprintf(stderr, "cplab: %s: a lecture takes neither --test nor --solvers\n",
                     qPrintable(path));
        return 1;
    }
    if (!lectures->openLecture(path, &why)) {
        std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
        return 1;
    }
    if (lectures->lecture().slides.empty() && !cli.isSet(cli.exportHandout)) return -1;
    if (!lectures->lecture().slides.empty()) {
        QEventLoop opened;
        QObject::connect(lectures, &cplab::LectureController::slideOpened, &opened,
                         [&](int, bool ok, const QString& message) {
                             why = ok ? QString() : message;
                             opened.quit();
                         });
        if (lectures->busy()) opened.exec();
        if (!why.isEmpty()) {
            std::fprintf(stderr, "cplab: %s: slide 1: %s\n", qPrintable(path), qPrintable(why));
            return 1;
        }
    }
    if (!cli.isSet(cli.exportHandout)) return script(window, cli, false);
    const QString out = cli.value(cli.exportHandout);
    int pages = 0;
    if (!cplab::exportHandout(window, *lectures, out, &pages, &why)) {
        std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
        return 1;
    }
    std::printf("%s\n", qPrintable(out));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // --version answers without a display (package scripts and the man page ask it).
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
            std::printf("cplab %s\n", CPLAB_VERSION);
            return 0;
        }
    }
    QApplication app(argc, argv);
    // Check boxes, scroll bars and sliders grow with the presentation scale's type.
    QApplication::setStyle(new cplab::ScaledStyle);
    QApplication::setApplicationName("cplab");
    QApplication::setApplicationVersion(CPLAB_VERSION);
    QApplication::setOrganizationName("cplab");
    // Desktops match the window to the installed desktop entry (and its icon) by this name.
    QGuiApplication::setDesktopFileName("org.cplab.cplab");
    QApplication::setWindowIcon(QIcon::fromTheme("cplab", QIcon(":/cplab/cplab.svg")));

    CommandLine cli(app);
    const QStringList files = cli.parser.positionalArguments();
    if (files.size() > 1 || (files.size() == 1 && cli.isSet(cli.data))) {
        std::fprintf(stderr, "cplab: give one data file (as FILE or --data FILE)\n");
        return 1;
    }
    const QString dataFile = files.isEmpty() ? cli.value(cli.data) : files.front();
    if (!cli.checkNumbers()) return 1;

    cplab::MainWindow window;
    configureWindow(window, cli);
    const auto go = [&](bool replaceRuns) {
        const int code = script(window, cli, replaceRuns);
        if (code >= 0) QApplication::exit(code);
    };
    const auto failed = [](const QString& message) {
        std::fprintf(stderr, "cplab: %s\n", qPrintable(message));
        QApplication::exit(1);
    };
    if (cli.isSet(cli.exportHandout) || cplab::isLecturePath(dataFile.toStdString())) {
        const int code = openLecture(window, cli, dataFile);
        return code >= 0 ? code : QApplication::exec();
    }
    if (!dataFile.isEmpty()) {
        // The file loads on a background thread; the script goes on when it is there.
        const bool session = cplab::MainWindow::isSessionFile(dataFile);
        QObject::connect(&window, &cplab::MainWindow::dataFileLoaded, &app,
                         [&](bool ok, const QString& message) { ok ? go(true) : failed(message); });
        QObject::connect(
            &window, &cplab::MainWindow::sessionOpened, &app,
            [&](bool ok, const QString& message) { ok ? go(false) : failed(message); });
        window.show();
        if (cli.isSet(cli.presentation)) window.setPresentation(true, !cli.isSet(cli.size));
        if (session) {
            window.openSession(dataFile);
        } else {
            window.openDataFile(dataFile, cli.value(cli.test), familyOfFirstRun(cli));
        }
        return QApplication::exec();
    }
    if (cli.isSet(cli.problem)) {
        if (!window.loadProblem(cli.value(cli.problem))) {
            std::fprintf(stderr, "cplab: unknown problem '%s' (names: cplab-cli list)\n",
                         qPrintable(cli.value(cli.problem)));
            return 1;
        }
        window.show();
        if (cli.isSet(cli.presentation)) window.setPresentation(true, !cli.isSet(cli.size));
        const int code = script(window, cli, true);
        return code >= 0 ? code : QApplication::exec();
    }
    if (!window.loadDemo(cli.value(cli.demo))) {
        std::fprintf(stderr, "cplab: unknown demo '%s'\n", qPrintable(cli.value(cli.demo)));
        return 1;
    }
    window.show();
    if (cli.isSet(cli.presentation)) window.setPresentation(true, !cli.isSet(cli.size));
    const int code = script(window, cli, false);
    return code >= 0 ? code : QApplication::exec();
}
