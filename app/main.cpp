// SPDX-License-Identifier: GPL-3.0-or-later
// cplab, the GUI. Opens on a ready-to-run demo. Options let scripts take screenshots:
//   cplab --demo kelley --steps 6 --screenshot shot.png
//   cplab --demo kelley_2d --steps 10 --timeline 3 --screenshot earlier.png
//   cplab --data a9a.gz --test a9a.t.gz --solvers ocas:C=1,bmrm:C=1 --run --screenshot race.png
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/output_file.h"
#include "family_view.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "registry.h"
#include "run.h"
#include "version.h"

namespace {

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
    QCommandLineOption exportView{
        "export-view", "Save the model view's plot to this PNG or PDF (as File > Export) and quit.",
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
    QCommandLineOption presentation{
        "presentation",
        "Open in presentation mode (View > Presentation, F11): full screen, or at --size."};

    QCommandLineParser parser;
    // Numbers checked before anything opens.
    double fraction = 0, splitSeed = 1, tab = 0;
    double delayMs = 0, stepCount = 0, shownIteration = 0, historyMb = 256;
    int width = 0, height = 0;  // --size, 0: not given

    explicit CommandLine(const QCoreApplication& app) {
        parser.setApplicationDescription(
            "Cutting-Plane Lab: optimisation methods of machine learning, step by step.");
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({demo, steps, run, delay, screenshot, size, data, test, solvers, timeline,
                           history, testFraction, seed, viewTab, exportView, problem, saveSession,
                           withoutHistory, presentation});
        parser.addPositionalArgument(
            "file", "A session (.cplab) or a data file to open (the same as --data file).",
            "[file]");
        parser.process(app);
    }
    bool isSet(const QCommandLineOption& option) const { return parser.isSet(option); }
    QString value(const QCommandLineOption& option) const { return parser.value(option); }
    bool grabs() const { return isSet(screenshot) || isSet(exportView); }
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
            !number(history, 1, 65536, &historyMb))
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
};

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

// --export-view, --screenshot and --save-session; 0, or 1 when a file could not be written.
int grabPictures(cplab::MainWindow& window, const CommandLine& cli) {
    if (cli.isSet(cli.saveSession)) {
        const QString path = cli.value(cli.saveSession);
        QString why;
        if (!window.saveSession(path, !cli.isSet(cli.withoutHistory), &why)) {
            std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    if (cli.isSet(cli.exportView)) {
        const QString path = cli.value(cli.exportView);
        QString why;
        if (!window.exportModelPlot(path, &why)) {
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
    return 0;
}

// What the options ask for once the problem is open: the exit status, or -1 to go on
// interactively.
int script(cplab::MainWindow& window, const CommandLine& cli, bool replaceRuns) {
    if (replaceRuns && cli.isSet(cli.solvers) && !addRuns(window, cli)) return 1;
    if (cli.isSet(cli.steps)) {
        const int n = static_cast<int>(cli.stepCount);
        waitForSteps(window, 0, 10000);
        window.stepAll(n);
        waitForSteps(window, n, 60000);
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
    QApplication::setApplicationName("cplab");
    QApplication::setApplicationVersion(CPLAB_VERSION);
    QApplication::setOrganizationName("cplab");

    CommandLine cli(app);
    const QStringList files = cli.parser.positionalArguments();
    if (files.size() > 1 || (files.size() == 1 && cli.isSet(cli.data))) {
        std::fprintf(stderr, "cplab: give one data file (as FILE or --data FILE)\n");
        return 1;
    }
    const QString dataFile = files.isEmpty() ? cli.value(cli.data) : files.front();
    if (!cli.checkNumbers()) return 1;

    cplab::MainWindow window;
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
    if (!cli.finishes() && !cli.isSet(cli.size) && !cli.isSet(cli.presentation))
        window.restoreLayout();
    const auto go = [&](bool replaceRuns) {
        const int code = script(window, cli, replaceRuns);
        if (code >= 0) QApplication::exit(code);
    };
    const auto failed = [](const QString& message) {
        std::fprintf(stderr, "cplab: %s\n", qPrintable(message));
        QApplication::exit(1);
    };
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
