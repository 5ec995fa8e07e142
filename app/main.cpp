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

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Cutting-Plane Lab: optimisation methods of machine learning, step by step.");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption demo("demo", "Open this built-in demo (default: kelley).", "name", "kelley");
    QCommandLineOption steps("steps", "Step every run this many iterations after opening.", "n");
    QCommandLineOption run("run", "Start running every run after opening.");
    QCommandLineOption delay("delay", "Delay per step in milliseconds.", "ms");
    QCommandLineOption screenshot("screenshot",
                                  "Save a screenshot of the window to this PNG and quit.", "file");
    QCommandLineOption size("size", "Window size, e.g. 1440x900.", "WxH");
    QCommandLineOption data("data", "Open this data file instead of a demo.", "file");
    QCommandLineOption test("test", "Test file for --data.", "file");
    QCommandLineOption solvers("solvers",
                               "With --data: comma-separated runs, each SOLVER or "
                               "SOLVER:key=value:key=value (e.g. ocas:C=1,bmrm:C=1).",
                               "list");
    QCommandLineOption timeline("timeline",
                                "Show this iteration of the selected run (the timeline scrubbed "
                                "back) before a screenshot.",
                                "iteration");
    QCommandLineOption history(
        "history-mb", "Memory for the snapshots of all runs together (default 256).", "MB");
    QCommandLineOption testFraction(
        "test-fraction", "With --data: hold out this fraction (0 to 0.9) as test set.", "F");
    QCommandLineOption seed("seed", "Seed of the --test-fraction split (default 1).", "S");
    QCommandLineOption viewTab("view-tab",
                               "Show tab N (0 = first) of the model view before a screenshot or "
                               "--export-view.",
                               "N");
    QCommandLineOption exportView(
        "export-view", "Save the model view's plot to this PNG or PDF (as File > Export) and quit.",
        "file");
    parser.addOptions({demo, steps, run, delay, screenshot, size, data, test, solvers, timeline,
                       history, testFraction, seed, viewTab, exportView});
    parser.addPositionalArgument("file", "A data file to open (the same as --data file).",
                                 "[file]");
    parser.process(app);
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1 || (files.size() == 1 && parser.isSet(data))) {
        std::fprintf(stderr, "cplab: give one data file (as FILE or --data FILE)\n");
        return 1;
    }
    const QString dataFile = files.isEmpty() ? parser.value(data) : files.front();

    // Numbers given on the command line, checked before anything opens.
    auto number = [&](const QCommandLineOption& option, double low, double high, double* value) {
        if (!parser.isSet(option)) return true;
        bool ok = false;
        *value = parser.value(option).toDouble(&ok);
        if (ok && *value >= low && *value <= high) return true;
        std::fprintf(stderr, "cplab: --%s %s: expected a number in [%g, %g]\n",
                     qPrintable(option.names().first()), qPrintable(parser.value(option)), low,
                     high);
        return false;
    };
    double fraction = 0, splitSeed = 1, tab = 0;
    if (!number(testFraction, 0.0, 0.9, &fraction) || !number(seed, 0, 1000000, &splitSeed) ||
        !number(viewTab, 0, 100, &tab))
        return 1;
    const bool grabs = parser.isSet(screenshot) || parser.isSet(exportView);

    cplab::MainWindow window;
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split('x');
        if (parts.size() == 2) window.resize(parts[0].toInt(), parts[1].toInt());
    } else if (grabs) {
        // A scripted picture has the documented size whatever the screen (the window itself
        // opens at most as large as the screen's free area).
        window.resize(1440, 900);
    }
    if (parser.isSet(delay)) window.setDelayMs(parser.value(delay).toInt());
    if (parser.isSet(testFraction) || parser.isSet(seed))
        window.setTestSplit(fraction, static_cast<int>(splitSeed));
    if (parser.isSet(history)) window.setHistoryBudgetMb(parser.value(history).toInt());

    // What the options ask for once the problem is open; -1: go on interactively.
    auto script = [&]() -> int {
        if (!dataFile.isEmpty() && parser.isSet(solvers)) {
            window.removeAllRuns();
            for (const QString& spec : splitRuns(parser.value(solvers))) {
                std::string solver, why;
                cplab::OptionValues options;
                QString message;
                if (!parseRunSpec(spec, &solver, &options, &why)) {
                    std::fprintf(stderr, "cplab: --solvers: %s\n", why.c_str());
                    return 1;
                }
                if (!window.addRun(solver, options, &message)) {
                    std::fprintf(stderr, "cplab: %s\n", qPrintable(message));
                    return 1;
                }
            }
        }
        if (parser.isSet(steps)) {
            const int n = parser.value(steps).toInt();
            waitForSteps(window, 0, 10000);
            window.stepAll(n);
            waitForSteps(window, n, 60000);
        }
        if (parser.isSet(run)) {
            window.runAll();
            // A scripted screenshot shows the runs' end (at most two minutes).
            if (grabs) waitForSteps(window, std::numeric_limits<int>::max(), 120000);
        }
        if (!grabs) return -1;
        // Let queued snapshots and replots land before scrubbing and grabbing.
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 400)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        if (parser.isSet(timeline)) {
            window.showIteration(parser.value(timeline).toInt());
            settle.restart();
            while (settle.elapsed() < 200)
                QApplication::processEvents(QEventLoop::AllEvents, 20);
        }
        if (parser.isSet(viewTab)) {
            if (!window.currentView() || !window.currentView()->showPage(static_cast<int>(tab))) {
                std::fprintf(stderr, "cplab: --view-tab %d: the view has no such tab\n",
                             static_cast<int>(tab));
                return 1;
            }
            settle.restart();
            while (settle.elapsed() < 200)
                QApplication::processEvents(QEventLoop::AllEvents, 20);
        }
        if (parser.isSet(exportView)) {
            const QString path = parser.value(exportView);
            QString why;
            if (!window.exportModelPlot(path, &why)) {
                std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
                return 1;
            }
            std::printf("%s\n", qPrintable(path));
        }
        if (parser.isSet(screenshot)) {
            const QString path = parser.value(screenshot);
            cplab::AtomicOutput output(path.toStdString());
            const bool saved = !output.temporaryPath().empty() &&
                               window.grab().save(QString::fromStdString(output.temporaryPath()));
            const auto failure =
                saved ? output.commit() : std::optional<std::string>(output.error());
            if (failure) {
                std::fprintf(stderr, "cplab: %s: %s\n", qPrintable(path),
                             failure->empty() ? "could not be written" : failure->c_str());
                return 1;
            }
            std::printf("%s\n", qPrintable(path));
        }
        return 0;
    };

    if (!dataFile.isEmpty()) {
        // The file loads on a background thread; the script goes on when it is there.
        QObject::connect(&window, &cplab::MainWindow::dataFileLoaded, &app,
                         [&](bool ok, const QString& message) {
                             if (!ok) {
                                 std::fprintf(stderr, "cplab: %s\n", qPrintable(message));
                                 QApplication::exit(1);
                                 return;
                             }
                             const int code = script();
                             if (code >= 0) QApplication::exit(code);
                         });
        window.show();
        // Files several families read open in the family of the first solver asked for.
        QString family;
        if (parser.isSet(solvers)) {
            std::string solver, why;
            cplab::OptionValues options;
            const QString first = splitRuns(parser.value(solvers)).value(0);
            if (parseRunSpec(first, &solver, &options, &why)) {
                if (const cplab::Family* f = cplab::familyOfSolver(solver))
                    family = QString::fromStdString(f->name());
            }
        }
        window.openDataFile(dataFile, parser.value(test), family);
        return QApplication::exec();
    }
    if (!window.loadDemo(parser.value(demo))) {
        std::fprintf(stderr, "cplab: unknown demo '%s'\n", qPrintable(parser.value(demo)));
        return 1;
    }
    window.show();
    const int code = script();
    return code >= 0 ? code : QApplication::exec();
}
