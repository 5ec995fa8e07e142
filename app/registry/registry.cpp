// SPDX-License-Identifier: GPL-3.0-or-later
#include "registry.h"

namespace cplab {

namespace {

template <class Info, class Getter>
std::vector<Info> gather(Getter get) {
    std::vector<Info> out;
    for (const Family* family : families()) {
        const auto& items = get(*family);
        out.insert(out.end(), items.begin(), items.end());
    }
    return out;
}

template <class Info>
const Info* findByName(const std::vector<Info>& items, const std::string& name) {
    for (const auto& item : items) {
        if (item.name == name) return &item;
    }
    return nullptr;
}

template <class Info>
std::string names(const std::vector<Info>& items) {
    std::vector<std::string> out;
    for (const auto& item : items)
        out.push_back(item.name);
    return joined(out);
}

}  // namespace

const std::vector<ProblemInfo>& problemCatalog() {
    static const auto catalog =
        gather<ProblemInfo>([](const Family& f) -> const auto& { return f.problems(); });
    return catalog;
}

const std::vector<SolverInfo>& solverCatalog() {
    static const auto catalog =
        gather<SolverInfo>([](const Family& f) -> const auto& { return f.solvers(); });
    return catalog;
}

const std::vector<DemoInfo>& demoCatalog() {
    static const auto catalog =
        gather<DemoInfo>([](const Family& f) -> const auto& { return f.demos(); });
    return catalog;
}

const ProblemInfo* findProblem(const std::string& name) {
    return findByName(problemCatalog(), name);
}

const SolverInfo* findSolver(const std::string& name) {
    return findByName(solverCatalog(), name);
}

const DemoInfo* findDemo(const std::string& name) {
    return findByName(demoCatalog(), name);
}

const Family* findFamily(const std::string& name) {
    for (const Family* family : families()) {
        if (family->name() == name) return family;
    }
    return nullptr;
}

const Family* familyOfSolver(const std::string& solver) {
    const SolverInfo* info = findSolver(solver);
    return info ? findFamily(info->family) : nullptr;
}

const Family* familyOfDemo(const DemoInfo& demo) {
    const ProblemInfo* info = findProblem(demo.problem);
    return info ? findFamily(info->family) : nullptr;
}

std::vector<const SolverInfo*> solversForFamily(const std::string& family) {
    std::vector<const SolverInfo*> out;
    for (const auto& s : solverCatalog()) {
        if (s.family == family) out.push_back(&s);
    }
    return out;
}

OptionGroup optionGroup(const std::string& option) {
    for (const SolverInfo& solver : solverCatalog())
        if (const auto it = solver.groups.find(option); it != solver.groups.end())
            return it->second;
    return OptionGroup::Method;
}

ProblemPtr makeProblem(const std::string& name, std::string* why) {
    return makeProblem(name, {}, why);
}

ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                       std::string* why) {
    const ProblemInfo* info = findProblem(name);
    if (!info) {
        if (why) {
            *why = "unknown problem '" + name + "'; built-in problems: " + names(problemCatalog());
        }
        return nullptr;
    }
    ProblemPtr made = findFamily(info->family)->makeProblem(name, problemOptions, why);
    if (!made) return nullptr;
    auto problem = std::make_shared<ProblemInstance>(*made);
    problem->origin = ProblemOrigin{name, {}, problemOptions, {}};
    return problem;
}

ReaderChoice chooseReader(const std::string& path, const std::string& preferredFamily,
                          std::string* why) {
    ReaderChoice choice;
    const auto matches = refusingThrows(why, [&] { return sniffFormats(readFilePrefix(path)); });
    if (matches.empty()) {
        if (why && why->empty()) *why = path + ": no family reads this kind of file";
        return choice;
    }
    const DataFormat& format = *matches.front().format;
    choice.source = {path, std::string(format.name)};
    const Family* preferred = findFamily(preferredFamily);
    if (preferred && preferred->readsFormat(choice.source.format)) {
        choice.family = preferred;
        return choice;
    }
    for (const Family* f : families()) {
        if (f->readsFormat(choice.source.format)) {
            choice.family = f;
            return choice;
        }
    }
    if (why) *why = path + ": a " + std::string(format.title) + " file, which no family reads";
    return choice;
}

ProblemPtr loadProblemFile(const std::string& path, const std::string& preferredFamily,
                           const OptionValues& problemOptions, std::string* why) {
    const ReaderChoice choice = chooseReader(path, preferredFamily, why);
    if (!choice.family) return nullptr;
    return choice.family->openFile(choice.source, problemOptions, why);
}

bool parseOptionAssignment(const std::string& text, OptionValues* values, std::string* why) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        if (why) *why = "expects key=value, got '" + text + "'";
        return false;
    }
    (*values)[text.substr(0, eq)] = text.substr(eq + 1);
    return true;
}

bool checkSolverOptions(const std::string& solver, const OptionValues& options, std::string* why) {
    const Family* family = familyOfSolver(solver);
    if (!family) {
        if (why) *why = "unknown solver '" + solver + "'; solvers: " + names(solverCatalog());
        return false;
    }
    return family->checkSolverOptions(solver, options, why);
}

std::unique_ptr<Solver> makeSolver(const std::string& solver, const ProblemInstance& problem,
                                   const OptionValues& options, std::string* why) {
    const Family* family = familyOfSolver(solver);
    if (!family) {
        if (why) *why = "unknown solver '" + solver + "'; solvers: " + names(solverCatalog());
        return nullptr;
    }
    return family->makeSolver(solver, problem, options, why);
}

}  // namespace cplab
