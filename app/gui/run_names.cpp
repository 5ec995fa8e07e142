// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_names.h"

#include <QObject>
#include <map>
#include <set>

#include "registry.h"

namespace cplab {

namespace {

// The value run `spec` uses for `option`: the one it gives, else its solver's default.
std::string valueOf(const RunSpec& spec, const std::string& option) {
    if (const auto it = spec.options.find(option); it != spec.options.end()) return it->second;
    if (const SolverInfo* info = findSolver(spec.solver)) {
        for (const OptionInfo& o : info->options)
            if (o.name == option) return o.defaultValue;
    }
    return {};
}

bool isBoolean(const std::string& solver, const std::string& option) {
    if (const SolverInfo* info = findSolver(solver)) {
        for (const OptionInfo& o : info->options)
            if (o.name == option) return o.kind == OptionInfo::Kind::Boolean;
    }
    return false;
}

QString compactValue(const RunSpec& spec, const std::string& option, const std::string& value) {
    const QString name = QString::fromStdString(option);
    if (isBoolean(spec.solver, option)) {
        const bool on = value == "true" || value == "1";
        return on ? name : QObject::tr("no %1").arg(name);
    }
    return QString::fromStdString(value);
}

// The options whose values differ among the runs of `solver` (none with fewer than two).
std::set<std::string> differingOptions(const std::vector<RunSpec>& runs,
                                       const std::string& solver) {
    std::vector<const RunSpec*> same;
    std::set<std::string> given;
    for (const RunSpec& r : runs) {
        if (r.solver != solver) continue;
        same.push_back(&r);
        for (const auto& option : r.options)
            given.insert(option.first);
    }
    std::set<std::string> differing;
    if (same.size() < 2) return differing;
    for (const std::string& option : given) {
        const std::string first = valueOf(*same.front(), option);
        for (const RunSpec* r : same) {
            if (valueOf(*r, option) != first) differing.insert(option);
        }
    }
    return differing;
}

QString withOptions(const QString& head, const QStringList& options) {
    return options.isEmpty() ? head : head + " (" + options.join(", ") + ")";
}

}  // namespace

QString RunName::text() const {
    return withOptions(QString("#%1 %2").arg(id).arg(solver), distinguishing + rest);
}

QString RunName::brief() const {
    return withOptions(QString("#%1 %2").arg(id).arg(solver), distinguishing);
}

QString RunName::legend() const {
    if (distinguishing.isEmpty()) return text();
    return withOptions(QString("#%1 %2").arg(id).arg(solver), distinguishingValues);
}

QString RunName::viewLegend() const {
    if (distinguishing.isEmpty()) return text();
    return QString("#%1 %2: %3").arg(id).arg(solver, distinguishingValues.join(", "));
}

QString RunName::fitted(const QFontMetrics& metrics, int width) const {
    const QString head = QString("#%1 %2").arg(id).arg(solver);
    const QString ellipsis(QChar(0x2026));
    std::vector<QString> tries{text()};
    // The distinguishing options, then as many of the others as fit, then "…".
    for (auto kept = rest.size() - 1; kept >= 0; --kept)
        tries.push_back(withOptions(head, distinguishing + rest.mid(0, kept) << ellipsis));
    if (!distinguishing.isEmpty()) {
        tries.push_back(withOptions(head, distinguishing));
        tries.push_back(withOptions(head, distinguishingValues));
    } else {
        tries.push_back(head);
    }
    for (const QString& t : tries) {
        if (metrics.horizontalAdvance(t) <= width) return t;
    }
    // Nothing fits whole: the solver's name is cut before what tells the run apart
    // ("#1 frank_w… (plain)"), and that too if it must.
    if (!distinguishing.isEmpty()) {
        const QString apart = " (" + distinguishingValues.join(", ") + ")";
        const int room = width - metrics.horizontalAdvance(apart);
        const QString cutHead = metrics.elidedText(head, Qt::ElideRight, room);
        if (cutHead.size() > QString("#%1 ").arg(id).size() + 1) return cutHead + apart;
    }
    return metrics.elidedText(tries.back(), Qt::ElideRight, width);
}

std::vector<RunName> runNames(const std::vector<RunSpec>& runs) {
    std::map<std::string, std::set<std::string>> differing;  // by solver
    for (const RunSpec& r : runs) {
        if (!differing.count(r.solver)) differing[r.solver] = differingOptions(runs, r.solver);
    }
    std::vector<RunName> names;
    names.reserve(runs.size());
    for (const RunSpec& r : runs) {
        RunName name;
        name.id = r.id;
        name.solver = QString::fromStdString(r.solver);
        const std::set<std::string>& apart = differing[r.solver];
        for (const std::string& option : apart) {
            const std::string value = valueOf(r, option);
            name.distinguishing << QString::fromStdString(option + "=" + value);
            name.distinguishingValues << compactValue(r, option, value);
        }
        for (const auto& [option, value] : r.options) {
            if (!apart.count(option)) name.rest << QString::fromStdString(option + "=" + value);
        }
        names.push_back(std::move(name));
    }
    return names;
}

}  // namespace cplab
