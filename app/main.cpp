// cplab, the GUI. Opens on a ready-to-run demo. Options let scripts take screenshots:
//   cplab --demo kelley --steps 6 --screenshot shot.png
//   cplab --data a9a.gz --test a9a.t.gz --solvers ocas:C=1,bmrm:C=1 --run --screenshot race.png
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QScreen>
#include <QTimer>
#include <cstdio>
#include <limits>

#include "main_window.h"
#include "run.h"

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

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("cplab");
    QApplication::setApplicationVersion("0.1.0");
    QApplication::setOrganizationName("cplab");

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Cutting-Plane Lab: optimisation methods of machine "
        "learning, step by step.");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption demo("demo", "Open this built-in demo (default: kelley).", "name", "kelley");
    QCommandLineOption steps("steps", "Step every run this many iterations after opening.", "n");
    QCommandLineOption run("run", "Start running every run after opening.");
    QCommandLineOption delay("delay", "Delay per step in milliseconds.", "ms");
    QCommandLineOption screenshot("screenshot",
                                  "Save a screenshot of the window to this PNG and quit.", "file");
    QCommandLineOption size("size", "Window size, e.g. 1440x900.", "WxH");
    QCommandLineOption data(
        "data", "Open this data file (LIBSVM/SVMlight or CSV) instead of a demo.", "file");
    QCommandLineOption test("test", "Test file for --data.", "file");
    QCommandLineOption solvers("solvers",
                               "With --data: comma-separated runs, each SOLVER or "
                               "SOLVER:key=value:key=value (e.g. ocas:C=1,bmrm:C=1).",
                               "list");
    parser.addOptions({demo, steps, run, delay, screenshot, size, data, test, solvers});
    parser.process(app);

    cplab::MainWindow window;
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split('x');
        if (parts.size() == 2) window.resize(parts[0].toInt(), parts[1].toInt());
    }
    if (parser.isSet(delay)) window.setDelayMs(parser.value(delay).toInt());
    if (parser.isSet(data)) {
        QString why;
        if (!window.loadDataFile(parser.value(data), parser.value(test), &why)) {
            std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
            return 1;
        }
        if (parser.isSet(solvers)) {
            window.clearRunsOnly();
            for (const QString& spec : parser.value(solvers).split(',', Qt::SkipEmptyParts)) {
                const QStringList parts = spec.split(':');
                cplab::OptionValues options;
                for (qsizetype k = 1; k < parts.size(); ++k) {
                    const qsizetype eq = parts[k].indexOf('=');
                    if (eq <= 0) {
                        std::fprintf(stderr, "cplab: --solvers: expected key=value, got '%s'\n",
                                     qPrintable(parts[k]));
                        return 1;
                    }
                    options[parts[k].left(eq).toStdString()] = parts[k].mid(eq + 1).toStdString();
                }
                if (!window.addRun(parts[0].toStdString(), options, &why)) {
                    std::fprintf(stderr, "cplab: %s\n", qPrintable(why));
                    return 1;
                }
            }
        }
    } else if (!window.loadDemo(parser.value(demo))) {
        std::fprintf(stderr, "cplab: unknown demo '%s'\n", qPrintable(parser.value(demo)));
        return 1;
    }
    window.show();

    if (parser.isSet(steps)) {
        const int n = parser.value(steps).toInt();
        waitForSteps(window, 0, 10000);
        window.stepAll(n);
        waitForSteps(window, n, 60000);
    }
    if (parser.isSet(run)) {
        window.runAll();
        // A scripted screenshot shows the runs' end (at most two minutes).
        if (parser.isSet(screenshot)) waitForSteps(window, std::numeric_limits<int>::max(), 120000);
    }
    if (parser.isSet(screenshot)) {
        // Let queued replots land before grabbing.
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 400)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        const QString path = parser.value(screenshot);
        if (!window.grab().save(path)) {
            std::fprintf(stderr, "cplab: could not write %s\n", qPrintable(path));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
        return 0;
    }
    return QApplication::exec();
}
