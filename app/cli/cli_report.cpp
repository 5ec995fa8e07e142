// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

#include "registry.h"
#include "version.h"

namespace cplab {

namespace {

std::string summaryText(const SummaryValue& value) {
    struct Visitor {
        std::string operator()(double x) const { return formatReal(x); }
        std::string operator()(long long x) const { return std::to_string(x); }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(const std::vector<double>& xs) const {
            std::vector<std::string> items;
            for (double x : xs)
                items.push_back(formatReal(x));
            return "[" + joined(items) + "]";
        }
        std::string operator()(const NamedValues& map) const {
            std::vector<std::string> items;
            for (const auto& [name, x] : map)
                items.push_back(name + ": " + formatReal(x));
            return "{" + joined(items) + "}";
        }
        std::string operator()(const NamedSeries& series) const {
            std::vector<std::string> items;
            for (const auto& [name, xs] : series)
                items.push_back(name + ": " + (*this)(xs));
            return "{" + joined(items) + "}";
        }
    };
    return std::visit(Visitor{}, value);
}

QJsonArray optionsJson(const std::vector<OptionInfo>& options) {
    QJsonArray array;
    for (const auto& o : options) {
        QJsonObject option{{"name", q(o.name)},
                           {"type", toString(o.kind)},
                           {"default", q(o.defaultValue)},
                           {"help", q(o.help)}};
        if (!o.choices.empty()) {
            QJsonArray choices;
            for (const auto& c : o.choices)
                choices.append(q(c));
            option.insert("choices", choices);
        }
        array.append(option);
    }
    return array;
}

}  // namespace

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

// ---- JSON ----------------------------------------------------------------------------------

QJsonValue jsonNumber(double value) {
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonValue toJson(const SummaryValue& value) {
    struct Visitor {
        QJsonValue operator()(double x) const { return jsonNumber(x); }
        QJsonValue operator()(long long x) const { return QJsonValue(static_cast<qint64>(x)); }
        QJsonValue operator()(const std::string& s) const { return q(s); }
        QJsonValue operator()(const std::vector<double>& xs) const {
            QJsonArray array;
            for (double x : xs)
                array.append(jsonNumber(x));
            return array;
        }
        QJsonValue operator()(const NamedValues& map) const {
            QJsonObject object;
            for (const auto& [name, x] : map)
                object.insert(q(name), jsonNumber(x));
            return object;
        }
        QJsonValue operator()(const NamedSeries& series) const {
            QJsonObject object;
            for (const auto& [name, xs] : series)
                object.insert(q(name), (*this)(xs));
            return object;
        }
    };
    return std::visit(Visitor{}, value);
}

void writeJson(std::ostream& out, const QJsonObject& object) {
    out << QJsonDocument(object).toJson(QJsonDocument::Indented).toStdString();
}

// ---- text ----------------------------------------------------------------------------------

void printLine(std::ostream& out, const std::string& name, const std::string& value) {
    out << name << std::string(name.size() < 14 ? 14 - name.size() : 1, ' ') << value << '\n';
}

void printProgress(std::ostream& err, const std::string& label, const IterationRecord& r) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s iter %6d  upper %.10g  lower %.10g  gap %.3e  oracle %lld  %.3fs\n",
                  label.c_str(), r.iteration, r.upper, r.lower, r.gap, r.oracleCalls, r.seconds);
    err << line;
}

QJsonObject summaryJson(const RunResult& run, const ProblemInstance& problem) {
    const IterationRecord& r = run.last;
    const Family* family = findFamily(problem.info.family);
    QJsonObject json;
    json.insert("cplab_version", CPLAB_VERSION);
    json.insert("solver", q(run.solver));
    json.insert("problem", q(problem.info.name));
    json.insert("family", q(problem.info.family));
    json.insert("status", statusName(run.status.code));
    json.insert("message", q(run.status.message));
    json.insert("iterations", r.iteration);
    json.insert("seconds", jsonNumber(r.seconds));
    json.insert("oracle_calls", static_cast<qint64>(r.oracleCalls));
    json.insert("passes", jsonNumber(r.passes));
    json.insert("upper", jsonNumber(r.upper));
    json.insert("lower", jsonNumber(r.lower));
    json.insert("gap", jsonNumber(r.gap));
    json.insert("rel_gap", jsonNumber(r.relGap()));
    if (r.hasPathParameter()) json.insert("path_parameter", jsonNumber(r.pathParameter));
    if (family) {
        const BoundLabels labels = family->boundLabels();
        json.insert("sense", toString(family->sense()));
        json.insert("bounds", QJsonObject{{"upper", q(labels.upper)}, {"lower", q(labels.lower)}});
    }
    for (const auto& [name, value] : problem.summary())
        json.insert(q(name), toJson(value));
    for (const auto& [name, value] : run.fields)
        json.insert(q(name), toJson(value));
    QJsonObject options;
    for (const auto& [name, value] : run.options)
        options.insert(q(name), q(value));
    json.insert("options", options);
    return json;
}

void writeSummaryText(std::ostream& out, const RunResult& run, const ProblemInstance& problem) {
    const IterationRecord& r = run.last;
    const Family* family = findFamily(problem.info.family);
    const BoundLabels labels = family ? family->boundLabels() : BoundLabels{};
    printLine(out, "solver", run.solver);
    printLine(out, "problem", problem.info.name);
    printLine(out, "status",
              std::string(statusName(run.status.code)) + " (" + run.status.message + ")");
    printLine(out, "iterations", std::to_string(r.iteration));
    printLine(out, "seconds", formatReal(r.seconds));
    printLine(out, "oracle_calls", std::to_string(r.oracleCalls));
    printLine(out, "upper", formatReal(r.upper) + "  (" + labels.upper + ")");
    printLine(out, "lower", formatReal(r.lower) + "  (" + labels.lower + ")");
    printLine(out, "gap", formatReal(r.gap));
    printLine(out, "rel_gap", formatReal(r.relGap()));
    if (r.hasPathParameter()) printLine(out, "path_parameter", formatReal(r.pathParameter));
    for (const auto& [name, value] : problem.summary())
        printLine(out, name, summaryText(value));
    for (const auto& [name, value] : run.fields)
        printLine(out, name, summaryText(value));
}

void writeListJson(std::ostream& out) {
    QJsonArray familyArray;
    for (const Family* f : families()) {
        const BoundLabels labels = f->boundLabels();
        familyArray.append(QJsonObject{
            {"name", q(f->name())},
            {"title", q(f->title())},
            {"sense", toString(f->sense())},
            {"bounds", QJsonObject{{"upper", q(labels.upper)}, {"lower", q(labels.lower)}}},
            {"data_files", q(f->fileFormats())},
            {"problem_options", optionsJson(f->problemOptions())},
            {"models", f->writesModels()},
            {"labelings", f->writesLabelings()}});
    }
    QJsonArray problems;
    for (const auto& p : problemCatalog()) {
        problems.append(QJsonObject{{"name", q(p.name)},
                                    {"family", q(p.family)},
                                    {"title", q(p.title)},
                                    {"dimension", p.dimension},
                                    {"description", q(p.description)}});
    }
    QJsonArray solvers;
    for (const auto& s : solverCatalog()) {
        solvers.append(QJsonObject{{"name", q(s.name)},
                                   {"family", q(s.family)},
                                   {"title", q(s.title)},
                                   {"description", q(s.description)},
                                   {"options", optionsJson(s.options)}});
    }
    QJsonArray demos;
    for (const auto& d : demoCatalog()) {
        QJsonArray runs;
        for (const auto& run : d.runs)
            runs.append(q(run.solver));
        demos.append(QJsonObject{{"name", q(d.name)},
                                 {"title", q(d.title)},
                                 {"problem", q(d.problem)},
                                 {"solvers", runs},
                                 {"description", q(d.description)}});
    }
    writeJson(out, QJsonObject{{"families", familyArray},
                               {"problems", problems},
                               {"solvers", solvers},
                               {"demos", demos}});
}

void writeListText(std::ostream& out) {
    auto padded = [](const std::string& name) {
        return name + std::string(name.size() < 20 ? 20 - name.size() : 1, ' ');
    };
    out << "families:\n";
    for (const Family* f : families()) {
        out << "  " << padded(f->name()) << f->title() << " (" << toString(f->sense()) << ")\n";
        for (const auto& o : f->problemOptions())
            out << "      problem option " << o.name << '=' << o.defaultValue << "  " << o.help
                << '\n';
    }
    out << "\nproblems:\n";
    for (const auto& p : problemCatalog()) {
        out << "  " << padded(p.name) << p.family << ", " << p.dimension << "-D: " << p.title
            << '\n';
    }
    out << "\nsolvers:\n";
    for (const auto& s : solverCatalog()) {
        out << "  " << s.name << " (" << s.family << "): " << s.title << '\n';
        for (const auto& o : s.options)
            out << "      " << o.name << '=' << o.defaultValue << "  " << o.help << '\n';
    }
    out << "\ndemos:\n";
    for (const auto& d : demoCatalog())
        out << "  " << padded(d.name) << d.title << '\n';
}

}  // namespace cplab
