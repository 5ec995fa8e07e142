// SPDX-License-Identifier: GPL-3.0-or-later
#include "family.h"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "core/communicator.h"
#include "core/memory_budget.h"
#include "data/test_split.h"

namespace cplab {

const char* toString(Sense sense) {
    return sense == Sense::Maximize ? "maximize" : "minimize";
}

const std::vector<ProblemInfo>& Family::problems() const {
    return problems_;
}

const std::vector<SolverInfo>& Family::solvers() const {
    return solverInfos_;
}

const std::vector<DemoInfo>& Family::demos() const {
    return demos_;
}

void Family::addProblem(ProblemInfo info) {
    info.family = name();
    problems_.push_back(std::move(info));
}

void Family::addProblems(const std::vector<ProblemInfo>& problems) {
    for (const ProblemInfo& info : problems)
        addProblem(info);
}

void Family::addDemos(const std::vector<DemoInfo>& demos) {
    demos_.insert(demos_.end(), demos.begin(), demos.end());
}

void Family::addSolvers(const std::vector<SolverEntry>& solvers) {
    for (const SolverEntry& entry : solvers)
        addSolver(entry);
    // A group list may cover several solvers, but a name none of them has is a typo that would
    // silently leave an option in the Method group.
    for (const SolverEntry& entry : solvers) {
        const OptionGroups& groups = entry.declaration.groups;
        for (const auto* names : {&groups.common, &groups.advanced}) {
            for (const std::string& option : *names) {
                const bool known = std::any_of(
                    solverInfos_.begin(), solverInfos_.end(),
                    [&option](const SolverInfo& info) { return info.groups.count(option) > 0; });
                if (!known)
                    throw std::logic_error("the " + name() + " family groups an option '" + option +
                                           "' that none of its solvers has");
            }
        }
    }
}

namespace {

// The options of the solver contract (StopOptions) that every solver has: what is solved and
// when to stop.
const char* const kStopOptions[] = {"epsilon", "tol_rel", "max_iterations", "max_seconds"};

}  // namespace

OptionGroup SolverInfo::groupOf(const std::string& option) const {
    const auto it = groups.find(option);
    return it == groups.end() ? OptionGroup::Method : it->second;
}

void Family::addSolver(const SolverEntry& entry) {
    const SolverDeclaration& d = entry.declaration;
    SolverInfo info{d.name,           name(), d.title,     d.description,
                    entry.describe(), {},     d.warmStart, d.distributed};
    for (const OptionInfo& option : info.options)
        info.groups[option.name] = OptionGroup::Method;
    const auto place = [&info](const std::string& option, OptionGroup group) {
        if (const auto it = info.groups.find(option); it != info.groups.end()) it->second = group;
    };
    for (const char* option : kStopOptions)
        place(option, OptionGroup::Common);
    for (const std::string& option : d.groups.common)
        place(option, OptionGroup::Common);
    for (const std::string& option : d.groups.advanced)
        place(option, OptionGroup::Advanced);
    solverInfos_.push_back(std::move(info));
    solvers_.push_back(entry);
}

void Family::addSnapshotCodec(SnapshotCodec codec) {
    codecs_.push_back(codec);
}

const std::vector<SnapshotCodec>& Family::snapshotCodecs() const {
    return codecs_;
}

std::optional<std::string> Family::modelTextOf(const Solver& solver) const {
    const SolverEntry* entry = findEntry(solver.name());
    if (!entry || !entry->declaration.modelText) return std::nullopt;
    return entry->declaration.modelText(solver);
}

const SolverEntry* Family::findEntry(const std::string& solver) const {
    for (const auto& entry : solvers_) {
        if (entry.declaration.name == solver) return &entry;
    }
    return nullptr;
}

std::vector<const DataFormat*> Family::readFormats() const {
    const auto kinds = dataKinds();
    std::vector<const DataFormat*> formats;
    for (const DataFormat& format : dataFormats())
        if (std::find(kinds.begin(), kinds.end(), format.kind) != kinds.end())
            formats.push_back(&format);
    return formats;
}

bool Family::readsFormat(const std::string& format) const {
    const DataFormat* known = findDataFormat(format);
    const auto kinds = dataKinds();
    return known && std::find(kinds.begin(), kinds.end(), known->kind) != kinds.end();
}

std::string Family::fileFormats() const {
    // "LIBSVM/SVMlight (.libsvm, .svm), CSV (.csv) or LIBSVM precomputed kernel"
    const auto formats = readFormats();
    std::string text;
    for (std::size_t k = 0; k < formats.size(); ++k) {
        text += (k == 0                    ? ""
                 : k + 1 == formats.size() ? " or "
                                           : ", ") +
                std::string(formats[k]->title);
        std::string extensions;
        for (const auto extension : formats[k]->extensions)
            extensions += (extensions.empty() ? "" : ", ") + std::string(extension);
        if (!extensions.empty()) text += " (" + extensions + ")";
    }
    return text;
}

ProblemPtr Family::loadFile(const DataSource& source, const OptionValues& /*problemOptions*/,
                            std::string* why) const {
    if (why) *why = source.path + ": the " + name() + " family reads no data files";
    return nullptr;
}

ProblemPtr Family::sharedExamplesProblem(ExampleSets /*shares*/, const std::string& /*path*/,
                                         std::shared_ptr<Communicator> /*communicator*/) const {
    return nullptr;
}

ProblemPtr Family::sharedPassesProblem(const ProblemInstance& /*problem*/,
                                       std::shared_ptr<Communicator> /*communicator*/) const {
    return nullptr;
}

ProblemPtr Family::openFile(const DataSource& source, const OptionValues& problemOptions,
                            std::string* why) const {
    ProblemPtr loaded = loadFile(source, problemOptions, why);
    if (!loaded) return nullptr;
    auto problem = std::make_shared<ProblemInstance>(*loaded);
    problem->origin = ProblemOrigin{{}, source, problemOptions, {}};
    return problem;
}

void Family::hintOtherSolvers(const std::string& solver, const OptionValues& options,
                              std::string* why) const {
    if (!why) return;
    // "trws has no option tighten": say which solvers of the family have it.
    for (const auto& [option, value] : options) {
        if (why->rfind("unknown option '" + option + "'", 0) != 0) continue;
        std::string owners;
        for (const SolverInfo& info : solvers()) {
            if (info.name == solver) continue;
            for (const OptionInfo& o : info.options)
                if (o.name == option) owners += (owners.empty() ? "" : ", ") + info.name;
        }
        if (!owners.empty())
            *why = solver + ": " + *why + " ('" + option + "' is an option of " + owners + ")";
        return;
    }
}

bool Family::checkSolverOptions(const std::string& solver, const OptionValues& options,
                                std::string* why) const {
    const SolverEntry* entry = findEntry(solver);
    if (!entry) {
        if (why) *why = "unknown solver '" + solver + "' in the " + name() + " family";
        return false;
    }
    if (entry->check(options, why)) return true;
    hintOtherSolvers(solver, options, why);
    return false;
}

std::unique_ptr<Solver> Family::makeSolver(const std::string& solver,
                                           const ProblemInstance& problem,
                                           const OptionValues& options, std::string* why) const {
    const SolverEntry* entry = findEntry(solver);
    if (!entry) {
        if (why) *why = "unknown solver '" + solver + "' in the " + name() + " family";
        return nullptr;
    }
    if (problem.info.family != name()) {
        if (why) {
            *why = "solver '" + solver + "' works on " + name() + " problems, but '" +
                   problem.info.name + "' is a " + problem.info.family + " problem";
        }
        return nullptr;
    }
    // A solver that does work while it is built (a first oracle call, a first plane) may
    // throw; that ends here as a refusal with its message, never as an escaped exception.
    try {
        auto made = entry->create(problem, options, why);
        if (!made) hintOtherSolvers(solver, options, why);
        return made;
    } catch (const std::bad_alloc&) {
        if (why)
            *why = "solver '" + solver + "' could not start on '" + problem.info.name +
                   "': " + outOfMemoryMessage();
    } catch (const std::exception& e) {
        if (why)
            *why = "solver '" + solver + "' could not start on '" + problem.info.name +
                   "': " + e.what();
    } catch (...) {
        if (why) *why = "solver '" + solver + "' could not start on '" + problem.info.name + "'";
    }
    return nullptr;
}

bool Family::writeModel(const Solver& /*solver*/, const std::string& /*path*/,
                        std::string* why) const {
    if (why) *why = "the " + name() + " family writes no model files";
    return false;
}

bool Family::writeLabeling(const Solver& /*solver*/, const std::string& /*path*/,
                           std::string* why) const {
    if (why) *why = "the " + name() + " family writes no labelings";
    return false;
}

int Family::modelAffinity(const std::string& /*head*/) const {
    return 0;
}

std::optional<Prediction> Family::predict(const std::string& modelPath,
                                          const std::string& /*dataPath*/,
                                          const std::string& /*outPath*/, std::string* why) const {
    if (why) *why = modelPath + ": the " + name() + " family reads no model files";
    return std::nullopt;
}

}  // namespace cplab
