#include "cli.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "core/trace_csv.h"
#include "data/text_io.h"
#include "json_writer.h"
#include "registry.h"

namespace cplab {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitNumerical = 2;

bool parseDouble(const std::string& text, double& value) {
    return parseNumber(text, value) == NumberError::None;
}

const char* kUsage =
    "usage:\n"
    "  cplab-cli list [--json]\n"
    "  cplab-cli run SOLVER (--problem NAME | --data FILE) [--test FILE | --test-fraction F\n"
    "                [--seed S]] [--set key=value ...] [--trace out.csv] [--model out.txt]\n"
    "                [--json] [--quiet]\n"
    "  cplab-cli predict --model FILE --data FILE [--out predictions.txt] [--json]\n"
    "  cplab-cli demo NAME [--json] [--trace-prefix PREFIX] [--quiet]\n"
    "\n"
    "  list   problems, solvers with their options and defaults, and demos\n"
    "  run    run one solver; progress on stderr, summary on stdout (JSON with --json)\n"
    "  demo   run a built-in demo headless (all of its runs)\n"
    "  predict  apply a model written by 'run --model' to a data file\n"
    "\n"
    "exit status: 0 converged or limit reached, 1 invalid input or options, 2 numerical "
    "failure\n";

struct RunResult {
    std::string solver;
    OptionValues options;
    Status status;
    IterationRecord last;
    SummaryFields fields;
};

int exitCodeFor(const Status& status) {
    switch (status.code) {
        case StatusCode::Converged:
        case StatusCode::IterationLimit:
        case StatusCode::TimeLimit:
        case StatusCode::Cancelled:
        case StatusCode::Running:
            return kExitOk;
        case StatusCode::InvalidInput:
            return kExitInvalid;
        case StatusCode::NumericalFailure:
            return kExitNumerical;
    }
    return kExitNumerical;
}

void printProgress(std::ostream& err, const std::string& label, const IterationRecord& r) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s iter %6d  upper %.10g  lower %.10g  gap %.3e  oracle %lld  %.3fs\n",
                  label.c_str(), r.iteration, r.upper, r.lower, r.gap, r.oracleCalls, r.seconds);
    err << line;
}

// Runs `solver` to the end with throttled progress lines (the first 10 iterations, then at
// most about 5 per second, and the last).
RunResult runSolver(Solver& solver, const std::string& label, bool quiet, std::ostream& err) {
    using Clock = std::chrono::steady_clock;
    auto lastPrint = Clock::now();
    solve(solver, [&](const Solver&, const IterationRecord& r) {
        if (quiet) return;
        const auto now = Clock::now();
        if (r.iteration <= 10 || now - lastPrint >= std::chrono::milliseconds(200)) {
            printProgress(err, label, r);
            lastPrint = now;
        }
    });
    if (!quiet && !solver.trace().empty() && solver.trace().back().iteration > 10) {
        printProgress(err, label, solver.trace().back());
    }
    RunResult result;
    result.solver = solver.name();
    result.status = solver.status();
    result.last = solver.lastRecord();
    result.fields = solver.summary();
    return result;
}

void writeSummaryJson(JsonWriter& json, const RunResult& run, const ProblemInstance& problem) {
    const IterationRecord& r = run.last;
    json.beginObject();
    json.field("solver", run.solver);
    json.field("problem", problem.info.name);
    json.field("status", toString(run.status.code));
    json.field("message", run.status.message);
    json.field("iterations", r.iteration);
    json.field("seconds", r.seconds);
    json.field("oracle_calls", r.oracleCalls);
    json.field("upper", r.upper);
    json.field("lower", r.lower);
    json.field("gap", r.gap);
    json.field("rel_gap", r.relGap());
    for (const auto& [name, value] : problem.summary())
        json.field(name, value);
    for (const auto& [name, value] : run.fields)
        json.field(name, value);
    json.key("options");
    json.beginObject();
    for (const auto& [name, value] : run.options)
        json.field(name, value);
    json.endObject();
    json.endObject();
}

std::string summaryText(const SummaryValue& v) {
    if (const double* d = std::get_if<double>(&v)) return formatReal(*d);
    if (const std::string* s = std::get_if<std::string>(&v)) return *s;
    std::string out = "[";
    for (double x : std::get<std::vector<double>>(v)) {
        out += (out.size() > 1 ? ", " : "") + formatReal(x);
    }
    return out + "]";
}

void writeSummaryText(std::ostream& out, const RunResult& run, const ProblemInstance& problem) {
    const IterationRecord& r = run.last;
    auto line = [&out](const std::string& name, const std::string& value) {
        out << name << std::string(name.size() < 14 ? 14 - name.size() : 1, ' ') << value << '\n';
    };
    line("solver", run.solver);
    line("problem", problem.info.name);
    line("status", std::string(toString(run.status.code)) + " (" + run.status.message + ")");
    line("iterations", std::to_string(r.iteration));
    line("seconds", formatReal(r.seconds));
    line("oracle_calls", std::to_string(r.oracleCalls));
    line("upper", formatReal(r.upper));
    line("lower", formatReal(r.lower));
    line("gap", formatReal(r.gap));
    line("rel_gap", formatReal(r.relGap()));
    for (const auto& [name, value] : problem.summary())
        line(name, summaryText(value));
    for (const auto& [name, value] : run.fields)
        line(name, summaryText(value));
}

void writeListJson(std::ostream& out) {
    JsonWriter json(out);
    json.beginObject();
    json.key("problems");
    json.beginArray();
    for (const auto& p : problemCatalog()) {
        json.beginObject();
        json.field("name", p.name);
        json.field("family", p.family);
        json.field("title", p.title);
        json.field("dimension", p.dimension);
        json.field("description", p.description);
        json.endObject();
    }
    json.endArray();
    json.key("solvers");
    json.beginArray();
    for (const auto& s : solverCatalog()) {
        json.beginObject();
        json.field("name", s.name);
        json.field("family", s.family);
        json.field("title", s.title);
        json.field("description", s.description);
        json.key("options");
        json.beginArray();
        for (const auto& o : s.options) {
            json.beginObject();
            json.field("name", o.name);
            json.field("type", toString(o.kind));
            json.field("default", o.defaultValue);
            json.field("help", o.help);
            if (!o.choices.empty()) {
                json.key("choices");
                json.beginArray();
                for (const auto& c : o.choices)
                    json.value(c);
                json.endArray();
            }
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.key("demos");
    json.beginArray();
    for (const auto& d : demoCatalog()) {
        json.beginObject();
        json.field("name", d.name);
        json.field("title", d.title);
        json.field("problem", d.problem);
        json.key("solvers");
        json.beginArray();
        for (const auto& run : d.runs)
            json.value(run.solver);
        json.endArray();
        json.field("description", d.description);
        json.endObject();
    }
    json.endArray();
    json.endObject();
}

void writeListText(std::ostream& out) {
    out << "problems:\n";
    for (const auto& p : problemCatalog()) {
        out << "  " << p.name << std::string(p.name.size() < 20 ? 20 - p.name.size() : 1, ' ')
            << p.family << ", " << p.dimension << "-D: " << p.title << '\n';
    }
    out << "\nsolvers:\n";
    for (const auto& s : solverCatalog()) {
        out << "  " << s.name << " (" << s.family << "): " << s.title << '\n';
        for (const auto& o : s.options) {
            out << "      " << o.name << '=' << o.defaultValue << "  " << o.help << '\n';
        }
    }
    out << "\ndemos:\n";
    for (const auto& d : demoCatalog()) {
        out << "  " << d.name << std::string(d.name.size() < 20 ? 20 - d.name.size() : 1, ' ')
            << d.title << '\n';
    }
}

struct RunArguments {
    std::string solver;
    std::string problem;
    std::string data;
    std::string test;
    double testFraction = 0.0;
    std::uint64_t seed = 1;
    std::string model;
    OptionValues options;
    std::string trace;
    bool json = false;
    bool quiet = false;
};

// Parses run arguments; returns an error message or nothing.
std::optional<std::string> parseRunArguments(const std::vector<std::string>& args,
                                             RunArguments& a) {
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto next = [&](const char* what) -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            (void)what;
            return args[++i];
        };
        if (arg == "--json") {
            a.json = true;
        } else if (arg == "--quiet") {
            a.quiet = true;
        } else if (arg == "--problem" || arg == "--data" || arg == "--test" || arg == "--trace" ||
                   arg == "--set" || arg == "--test-fraction" || arg == "--seed" ||
                   arg == "--model") {
            const auto value = next(arg.c_str());
            if (!value) return arg + " needs a value";
            if (arg == "--test-fraction") {
                double f = 0.0;
                if (!parseDouble(*value, f) || !(f > 0 && f < 1)) {
                    return "--test-fraction expects a number in (0, 1), got '" + *value + "'";
                }
                a.testFraction = f;
            }
            if (arg == "--seed") {
                double s = 0.0;
                if (!parseDouble(*value, s) || s < 0 || s != std::floor(s) || s > 9e15) {
                    return "--seed expects a non-negative integer, got '" + *value + "'";
                }
                a.seed = static_cast<std::uint64_t>(s);
            }
            if (arg == "--model") a.model = *value;
            if (arg == "--problem") a.problem = *value;
            if (arg == "--data") a.data = *value;
            if (arg == "--test") a.test = *value;
            if (arg == "--trace") a.trace = *value;
            if (arg == "--set") {
                const auto eq = value->find('=');
                if (eq == std::string::npos || eq == 0) {
                    return "--set expects key=value, got '" + *value + "'";
                }
                a.options[value->substr(0, eq)] = value->substr(eq + 1);
            }
        } else if (!arg.empty() && arg[0] == '-') {
            return "unknown argument '" + arg + "'";
        } else if (a.solver.empty()) {
            a.solver = arg;
        } else {
            return "unexpected argument '" + arg + "'";
        }
    }
    if (a.solver.empty()) return std::string("run: missing SOLVER (see 'cplab-cli list')");
    return std::nullopt;
}

int commandRun(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    RunArguments a;
    if (const auto error = parseRunArguments(args, a)) {
        err << "cplab-cli: " << *error << '\n' << kUsage;
        return kExitInvalid;
    }
    const SolverInfo* solverInfo = findSolver(a.solver);
    if (!solverInfo) {
        std::string why;
        makeSolver(a.solver, ProblemInstance{}, {}, &why);
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    const bool linear = solverInfo->family == kFamilyLinear;
    if (!linear && (!a.data.empty() || !a.test.empty() || a.testFraction > 0)) {
        err << "cplab-cli: solver '" << a.solver << "' works on built-in " << solverInfo->family
            << " problems, not data files: use --problem NAME (see 'cplab-cli list')\n";
        return kExitInvalid;
    }
    if (!a.model.empty() && !linear) {
        err << "cplab-cli: --model is for linear models (solvers of the linear family)\n";
        return kExitInvalid;
    }
    if (!a.test.empty() && a.testFraction > 0) {
        err << "cplab-cli: give either --test FILE or --test-fraction F, not both\n";
        return kExitInvalid;
    }
    if (!a.data.empty() && !a.problem.empty()) {
        err << "cplab-cli: give either --problem NAME or --data FILE, not both\n";
        return kExitInvalid;
    }
    if (a.problem.empty() && (!linear || a.data.empty())) {
        std::string names;
        for (const auto& p : problemCatalog()) {
            if (p.family == solverInfo->family) names += (names.empty() ? "" : ", ") + p.name;
        }
        err << "cplab-cli: run " << a.solver << ": missing --problem NAME; " << solverInfo->family
            << " problems: " << names << '\n';
        return kExitInvalid;
    }
    std::string why;
    std::shared_ptr<const ProblemInstance> problem;
    if (linear) {
        const ProblemInfo* info = a.problem.empty() ? nullptr : findProblem(a.problem);
        if (!a.problem.empty() && (!info || info->family != kFamilyLinear)) {
            problem = makeProblem(a.problem, &why);  // for the message
            if (problem) {
                why = "solver '" + a.solver + "' works on linear problems, but '" + a.problem +
                      "' is a " + problem->info.family + " problem";
                problem.reset();
            }
        } else {
            problem = makeLinearProblem(a.data, a.problem, {a.test, a.testFraction, a.seed}, &why);
        }
    } else {
        problem = makeProblem(a.problem, &why);
    }
    if (!problem) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    auto solver = makeSolver(a.solver, *problem, a.options, &why);
    if (!solver) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    RunResult result = runSolver(*solver, a.solver, a.quiet, err);
    result.options = a.options;
    int code = exitCodeFor(result.status);
    if (!a.trace.empty() &&
        !writeTraceCsv(a.trace, solver->trace(), solver->extraColumns(), &why)) {
        err << "cplab-cli: " << why << '\n';
        code = std::max(code, kExitInvalid);
    }
    if (!a.model.empty()) {
        try {
            writeLinearModel(a.model, dynamic_cast<const LinearSvmSolver&>(*solver).model());
        } catch (const std::exception& e) {
            err << "cplab-cli: " << e.what() << '\n';
            code = std::max(code, kExitInvalid);
        }
    }
    if (a.json) {
        JsonWriter json(out);
        writeSummaryJson(json, result, *problem);
    } else {
        writeSummaryText(out, result, *problem);
    }
    if (result.status.code == StatusCode::NumericalFailure) {
        err << "cplab-cli: " << result.status.message << '\n';
    }
    return code;
}

int commandPredict(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string modelPath, dataPath, outPath;
    bool json = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--json") {
            json = true;
        } else if ((arg == "--model" || arg == "--data" || arg == "--out") && i + 1 < args.size()) {
            (arg == "--model" ? modelPath : arg == "--data" ? dataPath : outPath) = args[++i];
        } else {
            err << "cplab-cli: predict: unexpected argument '" << arg << "'\n" << kUsage;
            return kExitInvalid;
        }
    }
    if (modelPath.empty() || dataPath.empty()) {
        err << "cplab-cli: predict needs --model FILE and --data FILE\n" << kUsage;
        return kExitInvalid;
    }
    try {
        const LinearModel model = readLinearModel(modelPath);
        LoadOptions options;
        options.dimension = model.features;
        const Dataset data = loadDataFile(dataPath, options);
        const Eigen::VectorXd predicted = model.predict(data);
        const bool regression = model.risk == LossKind::EpsilonInsensitive;
        double error = 0.0;
        for (Eigen::Index i = 0; i < predicted.size(); ++i) {
            error += regression ? std::abs(predicted(i) - data.labels(i))
                                : (predicted(i) != data.labels(i) ? 1.0 : 0.0);
        }
        error /= std::max<Eigen::Index>(1, predicted.size());
        if (!outPath.empty()) {
            std::string text;
            for (Eigen::Index i = 0; i < predicted.size(); ++i) {
                text += data.labelText(predicted(i)) + "\n";
            }
            writeOutputFile(outPath, text);
        }
        const char* measure = regression ? "mean_absolute_error" : "error";
        if (json) {
            JsonWriter writer(out);
            writer.beginObject();
            writer.field("model", modelPath);
            writer.field("data", dataPath);
            writer.field("examples", static_cast<double>(predicted.size()));
            writer.field(measure, error);
            writer.endObject();
        } else {
            const std::string name = measure;
            out << "examples" << std::string(14 - 8, ' ') << predicted.size() << '\n'
                << name << std::string(name.size() < 14 ? 14 - name.size() : 1, ' ')
                << formatReal(error) << '\n';
        }
    } catch (const std::exception& e) {
        err << "cplab-cli: " << e.what() << '\n';
        return kExitInvalid;
    }
    return kExitOk;
}

int commandDemo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string name, tracePrefix;
    bool json = false, quiet = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--json") {
            json = true;
        } else if (args[i] == "--quiet") {
            quiet = true;
        } else if (args[i] == "--trace-prefix" && i + 1 < args.size()) {
            tracePrefix = args[++i];
        } else if (!args[i].empty() && args[i][0] != '-' && name.empty()) {
            name = args[i];
        } else {
            err << "cplab-cli: demo: unexpected argument '" << args[i] << "'\n" << kUsage;
            return kExitInvalid;
        }
    }
    const DemoInfo* demo = findDemo(name);
    if (!demo) {
        std::string names;
        for (const auto& d : demoCatalog())
            names += (names.empty() ? "" : ", ") + d.name;
        err << "cplab-cli: unknown demo '" << name << "'; demos: " << names << '\n';
        return kExitInvalid;
    }
    std::string why;
    const auto problem = makeProblem(demo->problem, &why);
    if (!problem) {
        err << "cplab-cli: " << why << '\n';
        return kExitInvalid;
    }
    std::vector<RunResult> results;
    int code = kExitOk;
    for (std::size_t k = 0; k < demo->runs.size(); ++k) {
        const DemoRun& run = demo->runs[k];
        auto solver = makeSolver(run.solver, *problem, run.options, &why);
        if (!solver) {
            err << "cplab-cli: demo " << name << ": " << why << '\n';
            return kExitInvalid;
        }
        const std::string label = run.solver + "#" + std::to_string(k + 1);
        results.push_back(runSolver(*solver, label, quiet, err));
        results.back().options = run.options;
        code = std::max(code, exitCodeFor(results.back().status));
        if (!tracePrefix.empty()) {
            const std::string path =
                tracePrefix + std::to_string(k + 1) + "_" + run.solver + ".csv";
            if (!writeTraceCsv(path, solver->trace(), solver->extraColumns(), &why)) {
                err << "cplab-cli: " << why << '\n';
                code = std::max(code, kExitInvalid);
            }
        }
    }
    if (json) {
        JsonWriter writer(out);
        writer.beginObject();
        writer.field("demo", demo->name);
        writer.field("title", demo->title);
        writer.field("problem", demo->problem);
        writer.key("runs");
        writer.beginArray();
        for (const auto& r : results)
            writeSummaryJson(writer, r, *problem);
        writer.endArray();
        writer.endObject();
    } else {
        out << demo->title << "\n\n";
        for (std::size_t k = 0; k < results.size(); ++k) {
            if (k) out << '\n';
            writeSummaryText(out, results[k], *problem);
        }
    }
    return code;
}

}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? err : out) << kUsage;
        return args.empty() ? kExitInvalid : kExitOk;
    }
    const std::string& command = args[0];
    if (command == "list") {
        bool json = false;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--json") {
                json = true;
            } else {
                err << "cplab-cli: list: unexpected argument '" << args[i] << "'\n";
                return kExitInvalid;
            }
        }
        if (json) {
            writeListJson(out);
        } else {
            writeListText(out);
        }
        return kExitOk;
    }
    if (command == "run") return commandRun(args, out, err);
    if (command == "demo") return commandDemo(args, out, err);
    if (command == "predict") return commandPredict(args, out, err);
    err << "cplab-cli: unknown command '" << command << "'\n" << kUsage;
    return kExitInvalid;
}

}  // namespace cplab
