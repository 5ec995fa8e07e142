// SPDX-License-Identifier: GPL-3.0-or-later
// The commands that run several runs on one problem: `demo` (a built-in demo) and `session` (a
// session saved by the app, compared with the numbers it stores).
#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <functional>

#include "cli.h"
#include "cli_commands.h"
#include "core/trace_csv.h"
#include "lecture.h"
#include "registry.h"
#include "session.h"
#include "version.h"

namespace cplab::cli_detail {

namespace {

// The parser of `demo` and `session`: --json, --quiet, --trace-prefix and one name.
struct BatchArguments {
    QCommandLineParser parser;
    QCommandLineOption json{"json", "JSON summary"};
    QCommandLineOption quiet{"quiet", "no progress lines"};
    QCommandLineOption tracePrefix{"trace-prefix", "trace files", "PREFIX"};
    std::string name;

    // False (with the message on `err`) when the arguments do not parse.
    bool parse(const std::vector<std::string>& args, const std::string& command,
               std::ostream& err) {
        parser.addOptions({json, quiet, tracePrefix});
        if (auto error = cli_detail::parse(parser, args, command)) {
            err << "cplab-cli: " << command << ": " << *error << '\n' << kUsage;
            return false;
        }
        const QStringList positional = parser.positionalArguments();
        if (positional.size() > 1) {
            err << "cplab-cli: " << command << ": unexpected argument '"
                << positional[1].toStdString() << "'\n"
                << kUsage;
            return false;
        }
        name = positional.isEmpty() ? std::string() : positional[0].toStdString();
        return true;
    }
};

// Runs of a demo or a session, one after the other on one problem.
struct Batch {
    std::vector<RunResult> results;
    int code = kExitOk;
};

// What a batch does with run k's records (iteration 0 first) before its solver goes: a
// session compares them with the stored ones, so no run's trace outlives its run.
using TraceSink = std::function<void(std::size_t k, const std::vector<IterationRecord>& trace)>;

// Runs `runs` on `problem` as `what` ("demo kelley") with progress on `err` unless `quiet`;
// with `prefix`, each run's trace goes to PREFIX<k>_<solver>.csv (every place checked first).
std::optional<Batch> runBatch(const std::string& what, const ProblemInstance& problem,
                              const std::vector<DemoRun>& runs, bool quiet,
                              const std::string& prefix, std::ostream& err,
                              const TraceSink& sink = {}) {
    const auto tracePath = [&](std::size_t k) {
        return prefix + std::to_string(k + 1) + "_" + runs[k].solver + ".csv";
    };
    if (!prefix.empty()) {
        std::vector<Output> traces;
        for (std::size_t k = 0; k < runs.size(); ++k)
            traces.push_back({"--trace-prefix", tracePath(k)});
        if (const auto error = outputsProblem(traces)) {
            err << "cplab-cli: " << what << ": " << *error << '\n';
            return std::nullopt;
        }
    }
    Batch batch;
    std::string why;
    const CleanStopSpan cleanStop;
    for (std::size_t k = 0; k < runs.size() && signalReceived() == 0; ++k) {
        auto solver = makeSolver(runs[k].solver, problem, runs[k].options, &why);
        if (!solver) {
            err << "cplab-cli: " << what << ": " << why << '\n';
            return std::nullopt;
        }
        const std::string label = runs[k].solver + "#" + std::to_string(k + 1);
        // Iteration 0 first, as a session stores it: its bounds are compared too.
        const IterationRecord initial = solver->lastRecord();
        batch.results.push_back(runSolver(*solver, label, quiet, err));
        batch.results.back().options = runs[k].options;
        if (sink) {
            std::vector<IterationRecord> trace{initial};
            trace.insert(trace.end(), solver->trace().begin(), solver->trace().end());
            sink(k, trace);
        }
        batch.code = std::max(batch.code, exitStatusFor(batch.results.back().status));
        if (!prefix.empty() &&
            !writeTraceCsv(tracePath(k), solver->trace(), solver->extraColumns(), &why)) {
            err << "cplab-cli: " << why << '\n';
            batch.code = std::max(batch.code, kExitInvalid);
        }
    }
    return batch;
}

// The exit status after a signal stopped a batch of `total` runs.
int signalled(const std::string& what, const Batch& batch, std::size_t total, std::ostream& err) {
    const int signal = signalReceived();
    if (!signal) return batch.code;
    err << "cplab-cli: " << what << ": stopped by " << signalName(signal) << " after "
        << batch.results.size() << " of " << total << " runs\n";
    return kExitSignalBase + signal;
}

// The stored history's agreement with a re-run: the iterations both have, the largest relative
// difference of their bounds (0: the same numbers), and the first iteration where they differ.
QJsonObject storedAgreement(const StoredHistory& stored, const std::vector<IterationRecord>& trace,
                            std::string* text) {
    const StoredComparison c = compareWithStored(stored.records, trace);
    *text = std::to_string(c.iterations) + " stored iterations, largest relative difference " +
            formatReal(c.largestDifference);
    if (!c.same()) *text += "; " + c.differsText();
    QJsonObject agreement{{"iterations", c.iterations},
                          {"largest_relative_difference", jsonNumber(c.largestDifference)},
                          {"same", c.same()}};
    if (!c.same()) {
        agreement.insert("differs_at", c.firstDiffering);
        agreement.insert("difference_there", jsonNumber(c.firstDifference));
    }
    return agreement;
}

}  // namespace

int commandDemo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    BatchArguments a;
    if (!a.parse(args, "demo", err)) return kExitInvalid;
    const DemoInfo* demo = findDemo(a.name);
    if (!demo) {
        std::vector<std::string> names;
        for (const auto& d : demoCatalog())
            names.push_back(d.name);
        err << "cplab-cli: unknown demo '" << a.name << "'; demos: " << joined(names) << '\n';
        return kExitInvalid;
    }
    std::string why;
    const auto problem = makeProblem(demo->problem, &why);
    if (!problem) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    const std::string what = "demo " + a.name;
    const auto batch = runBatch(what, *problem, demo->runs, a.parser.isSet(a.quiet),
                                a.parser.value(a.tracePrefix).toStdString(), err);
    if (!batch) return kExitInvalid;
    if (a.parser.isSet(a.json)) {
        QJsonArray runs;
        for (const auto& r : batch->results)
            runs.append(summaryJson(r, *problem));
        writeJson(out, QJsonObject{{"cplab_version", CPLAB_VERSION},
                                   {"demo", q(demo->name)},
                                   {"title", q(demo->title)},
                                   {"problem", q(demo->problem)},
                                   {"runs", runs}});
    } else {
        out << demo->title << "\n\n";
        for (std::size_t k = 0; k < batch->results.size(); ++k) {
            if (k) out << '\n';
            writeSummaryText(out, batch->results[k], *problem);
        }
    }
    return signalled(what, *batch, demo->runs.size(), err);
}

int commandSession(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    BatchArguments a;
    if (!a.parse(args, "session", err)) return kExitInvalid;
    if (a.name.empty()) {
        err << "cplab-cli: session: missing FILE\n" << kUsage;
        return kExitInvalid;
    }
    SessionNotes notes;
    std::string why;
    const auto session = readSession(a.name, &notes, &why);
    for (const std::string& note : notes)
        err << "cplab-cli: " << a.name << ": " << note << '\n';
    if (session && !session->complete) {
        err << "cplab-cli: " << a.name
            << ": not re-run: it would not give the numbers saved (what was left out is said "
               "above)\n";
        return kExitInvalid;
    }
    const ProblemPtr problem = session ? makeSessionProblem(*session, &why) : nullptr;
    if (!problem) {
        err << "cplab-cli: " << (session ? a.name + ": " : "") << why << '\n';
        return kExitInvalid;
    }
    std::vector<DemoRun> runs;
    for (const SessionRun& r : session->runs)
        runs.push_back({r.solver, r.options});
    const std::string what = "session " + a.name;
    // Each run against its stored history as soon as it ends (its trace goes with its solver).
    std::vector<QJsonObject> agreements(runs.size());
    std::vector<std::string> agreementTexts(runs.size());
    const TraceSink compare = [&](std::size_t k, const std::vector<IterationRecord>& trace) {
        if (const auto& stored = session->runs[k].history)
            agreements[k] = storedAgreement(*stored, trace, &agreementTexts[k]);
    };
    const auto batch = runBatch(what, *problem, runs, a.parser.isSet(a.quiet),
                                a.parser.value(a.tracePrefix).toStdString(), err, compare);
    if (!batch) return kExitInvalid;
    QJsonArray results;
    for (std::size_t k = 0; k < batch->results.size(); ++k) {
        QJsonObject summary = summaryJson(batch->results[k], *problem);
        if (!agreementTexts[k].empty()) summary.insert("stored", agreements[k]);
        results.append(summary);
        if (a.parser.isSet(a.json)) continue;
        if (k) out << '\n';
        writeSummaryText(out, batch->results[k], *problem);
        if (!agreementTexts[k].empty()) printLine(out, "stored", agreementTexts[k]);
    }
    if (a.parser.isSet(a.json)) {
        writeJson(out, QJsonObject{{"cplab_version", CPLAB_VERSION},
                                   {"session", q(a.name)},
                                   {"problem", q(problem->info.name)},
                                   {"runs", results}});
    }
    return signalled(what, *batch, runs.size(), err);
}

int commandLecture(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    BatchArguments a;
    if (!a.parse(args, "lecture", err)) return kExitInvalid;
    if (a.name.empty()) {
        err << "cplab-cli: lecture: missing FILE\n" << kUsage;
        return kExitInvalid;
    }
    std::string why;
    const auto lecture = readLecture(a.name, &why);
    if (!lecture) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    if (a.parser.isSet(a.json)) {
        QJsonArray slides;
        for (const LectureSlide& slide : lecture->slides) {
            QJsonObject object{{"title", q(slide.title)}};
            if (slide.demo.empty()) {
                object.insert("session", q(slide.resolved));
                object.insert("sha256", q(slide.sha256));
            } else {
                object.insert("demo", q(slide.demo));
            }
            slides.append(object);
        }
        writeJson(out, QJsonObject{{"title", q(lecture->title)}, {"slides", slides}});
        return kExitOk;
    }
    out << lecture->title << ": " << lecture->slides.size() << " slides\n";
    for (std::size_t k = 0; k < lecture->slides.size(); ++k) {
        const LectureSlide& slide = lecture->slides[k];
        out << "  " << k + 1 << ". " << slide.title << "  ("
            << (slide.demo.empty() ? "session " + slide.session : "demo " + slide.demo) << ")\n";
    }
    return kExitOk;
}

}  // namespace cplab::cli_detail
