#include "registry.h"

#include <functional>
#include <stdexcept>

#include "bmrm/bmrm.h"
#include "bmrm/dcd.h"
#include "bmrm/libocas_solver.h"
#include "bmrm/ocas.h"
#include "bmrm/sgd.h"
#include "builtin_datasets.h"
#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "nonsmooth/bundle.h"
#include "nonsmooth/frank_wolfe.h"
#include "nonsmooth/kelley.h"
#include "nonsmooth/polytope_problem.h"
#include "nonsmooth/test_functions.h"

namespace cplab {

namespace {

using Factory = std::function<std::unique_ptr<Solver>(const ProblemInstance&, const OptionValues&,
                                                      std::string*)>;

using Checker = std::function<bool(const OptionValues&, std::string*)>;

struct SolverEntry {
    SolverInfo info;
    Checker check;
    Factory create;
};

template <class Options>
Checker checker() {
    return [](const OptionValues& values, std::string* why) {
        Options options;
        return assignOptions(options, values, why) && options.isValid(why);
    };
}

// Parses `values` into Options, validates them, and builds the solver from the problem.
template <class Options, class SolverType, class Argument>
Factory factory(Argument ProblemInstance::*member) {
    return [member](const ProblemInstance& problem, const OptionValues& values,
                    std::string* why) -> std::unique_ptr<Solver> {
        Options options;
        if (!assignOptions(options, values, why)) return nullptr;
        if (!options.isValid(why)) return nullptr;
        auto solver = std::make_unique<SolverType>(problem.*member, options);
        if (solver->status().code == StatusCode::InvalidInput) {
            if (why) *why = solver->status().message;
            return nullptr;
        }
        return solver;
    };
}

const std::vector<SolverEntry>& solverEntries() {
    static const std::vector<SolverEntry> entries = {
        {{"kelley", kFamilyNonsmooth, "Kelley cutting planes",
          "Cutting-plane method (Alg. 7.2): minimise the piecewise-linear model over the box by "
          "an LP, add the plane at its minimiser.",
          describeOptions<KelleyOptions>()},
         checker<KelleyOptions>(),
         factory<KelleyOptions, KelleySolver>(&ProblemInstance::function)},
        {{"bundle", kFamilyNonsmooth, "Proximal bundle",
          "Proximal bundle method (§7.1.2): the model plus a prox term nu/2 |x - xc|^2; "
          "serious and null steps.",
          describeOptions<BundleOptions>()},
         checker<BundleOptions>(),
         factory<BundleOptions, BundleSolver>(&ProblemInstance::function)},
        {{"frank_wolfe", kFamilyPolytope, "Frank-Wolfe",
          "Conditional gradient over a polygon with its duality (FW) gap; standard or "
          "line-search steps, optional away steps.",
          describeOptions<FrankWolfeOptions>()},
         checker<FrankWolfeOptions>(),
         factory<FrankWolfeOptions, FrankWolfeSolver>(&ProblemInstance::polytope)},
        {{"bmrm", kFamilyLinear, "BMRM",
          "Bundle method for regularised risk minimisation (Alg. 7.3): one cutting plane of the "
          "risk per iteration, reduced problem solved in its dual over the simplex.",
          describeOptions<BmrmOptions>()},
         checker<BmrmOptions>(),
         factory<BmrmOptions, BmrmSolver>(&ProblemInstance::linear)},
        {{"ocas", kFamilyLinear, "OCAS (LS-BMRM)",
          "Optimised cutting planes (Alg. 7.4): BMRM plus an exact line search towards the "
          "reduced problem's solution and planes at w_c = (1 - theta) w_b + theta w_t.",
          describeOptions<OcasOptions>()},
         checker<OcasOptions>(),
         factory<OcasOptions, OcasSolver>(&ProblemInstance::linear)},
        {{"libocas", kFamilyLinear, "libocas (reference)",
          "The authors' own C library (libocas, Franc & Sonnenburg) run step by step through its "
          "per-iteration callback: the reference implementation to race against; hinge and "
          "multiclass risks.",
          describeOptions<LibocasOptions>()},
         checker<LibocasOptions>(),
         factory<LibocasOptions, LibocasSolver>(&ProblemInstance::linear)},
        {{"dcd", kFamilyLinear, "Dual coordinate descent",
          "Dual coordinate descent (Hsieh et al. 2008, LIBLINEAR's -s 3 / -s 1): one epoch over "
          "the dual variables per step; lower bound from the dual objective.",
          describeOptions<DcdOptions>()},
         checker<DcdOptions>(),
         factory<DcdOptions, DcdSolver>(&ProblemInstance::linear)},
        {{"sgd", kFamilyLinear, "Pegasos SGD",
          "Stochastic subgradient descent with step 1/(lambda t) (Pegasos): one epoch per step; "
          "no lower bound.",
          describeOptions<SgdOptions>()},
         checker<SgdOptions>(),
         factory<SgdOptions, SgdSolver>(&ProblemInstance::linear)},
    };
    return entries;
}

std::vector<ProblemInfo> buildProblemCatalog() {
    std::vector<ProblemInfo> out;
    for (const auto& name : testFunctionNames()) {
        const auto f = makeTestFunction(name);
        out.push_back({name, kFamilyNonsmooth, f->title(), f->description(), f->dimension()});
    }
    for (const auto& name : polytopeProblemNames()) {
        const auto p = makePolytopeProblem(name);
        out.push_back({name, kFamilyPolytope, p->title, p->description, 2});
    }
    for (const auto& file : builtinDatasetFiles()) {
        const Dataset data = parseLibsvm(file.bytes, "builtin:" + std::string(file.name));
        out.push_back({std::string(file.name), kFamilyLinear,
                       std::to_string(data.size()) + " examples, built-in dataset",
                       "Real dataset compiled into cplab (see resources/datasets/README.md).",
                       data.dimension()});
    }
    for (const auto& name : generatorNames()) {
        out.push_back({name, kFamilyLinear,
                       std::to_string(kGeneratedExamples) + " generated examples (seed " +
                           std::to_string(kGeneratedSeed) + ")",
                       generatorDescription(name), name == "sinc_1d" ? 1 : 2});
    }
    return out;
}

}  // namespace

SummaryFields ProblemInstance::summary() const {
    if (function) {
        const Eigen::VectorXd x = function->minimizer();
        return {{"f_star", function->minimumValue()},
                {"x_star", std::vector<double>(x.data(), x.data() + x.size())}};
    }
    if (polytope) {
        const Eigen::Vector2d x = polytope->minimizer();
        return {{"f_star", polytope->value(x)}, {"x_star", std::vector<double>{x.x(), x.y()}}};
    }
    return {};
}

const std::vector<ProblemInfo>& problemCatalog() {
    static const std::vector<ProblemInfo> catalog = buildProblemCatalog();
    return catalog;
}

const std::vector<SolverInfo>& solverCatalog() {
    static const std::vector<SolverInfo> catalog = [] {
        std::vector<SolverInfo> out;
        for (const auto& entry : solverEntries())
            out.push_back(entry.info);
        return out;
    }();
    return catalog;
}

const std::vector<DemoInfo>& demoCatalog() {
    static const std::vector<DemoInfo> catalog = {
        {"kelley",
         "Kelley cutting planes (1-D)",
         "Watch the cutting-plane model of |x - 1| + x^2/2 grow plane by plane while the upper "
         "and lower bounds close.",
         "abs_quad",
         {{"kelley", {}}}},
        {"kelley_2d",
         "Kelley's zig-zag in 2-D",
         "Kelley's method on an ill-conditioned bowl: iterates jump between far corners of the "
         "model, many planes are wasted.",
         "zigzag_quadratic",
         {{"kelley", {}}}},
        {"bundle_vs_kelley",
         "Bundle vs Kelley (race)",
         "The same bowl, raced: the proximal bundle method's prox term keeps its steps short "
         "and closes the gap with about 30 % fewer oracle calls.",
         "zigzag_quadratic",
         {{"kelley", {}}, {"bundle", {{"nu_rule", "adaptive"}}}}},
        {"bundle_cb3",
         "Proximal bundle on CB3",
         "The classic nonsmooth test CB3: serious steps move the prox-centre, null steps "
         "enrich the model.",
         "cb3",
         {{"bundle", {}}}},
        {"frank_wolfe",
         "Frank-Wolfe vs away steps",
         "Minimiser on an edge of a triangle: plain Frank-Wolfe zig-zags, away steps converge "
         "linearly; the FW gap certifies both.",
         "triangle_edge",
         {{"frank_wolfe", {{"variant", "plain"}}}, {"frank_wolfe", {{"variant", "away"}}}}},
        {"ocas_vs_bmrm",
         "Linear SVM: OCAS vs BMRM (2-D)",
         "Ripley's 2-D set, C = 10 with a bias: watch the separating lines of w_b, w_t and w_c, "
         "the line search slice, and how many fewer planes OCAS needs than BMRM.",
         "ripley_train",
         {{"ocas", {{"C", "10"}, {"bias", "true"}, {"tol_rel", "1e-4"}}},
          {"bmrm", {{"C", "10"}, {"bias", "true"}, {"tol_rel", "1e-4"}}}}},
    };
    return catalog;
}

const ProblemInfo* findProblem(const std::string& name) {
    for (const auto& p : problemCatalog()) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

const SolverInfo* findSolver(const std::string& name) {
    for (const auto& s : solverCatalog()) {
        if (s.name == name) return &s;
    }
    return nullptr;
}

const DemoInfo* findDemo(const std::string& name) {
    for (const auto& d : demoCatalog()) {
        if (d.name == name) return &d;
    }
    return nullptr;
}

std::vector<const SolverInfo*> solversForFamily(const std::string& family) {
    std::vector<const SolverInfo*> out;
    for (const auto& s : solverCatalog()) {
        if (s.family == family) out.push_back(&s);
    }
    return out;
}

std::shared_ptr<const ProblemInstance> makeProblem(const std::string& name, std::string* why) {
    const ProblemInfo* info = findProblem(name);
    if (!info) {
        if (why) {
            std::string known;
            for (const auto& p : problemCatalog())
                known += (known.empty() ? "" : ", ") + p.name;
            *why = "unknown problem '" + name + "'; built-in problems: " + known;
        }
        return nullptr;
    }
    if (info->family == kFamilyLinear) return makeLinearProblem({}, name, {}, why);
    auto instance = std::make_shared<ProblemInstance>();
    instance->info = *info;
    if (info->family == kFamilyNonsmooth) instance->function = makeTestFunction(name);
    if (info->family == kFamilyPolytope) instance->polytope = makePolytopeProblem(name);
    return instance;
}

namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Dataset loadDataFile(const std::string& path, const LoadOptions& options) {
    if (endsWith(path, ".csv") || endsWith(path, ".csv.gz")) return loadCsv(path, {}, options);
    return loadLibsvm(path, options);
}

std::shared_ptr<const ProblemInstance> makeLinearProblem(const std::string& path,
                                                         const std::string& builtin,
                                                         const TestSetSpec& test,
                                                         std::string* why) {
    auto instance = std::make_shared<ProblemInstance>();
    try {
        Dataset train;
        if (!path.empty()) {
            train = loadDataFile(path, {});
        } else if (const BuiltinFile* file = findBuiltinDataset(builtin)) {
            train = parseLibsvm(file->bytes, "builtin:" + builtin);
            train.name = builtin;
        } else {
            train = generate(builtin, kGeneratedExamples, kGeneratedSeed);
        }
        std::shared_ptr<const Dataset> testSet;
        if (!test.file.empty()) {
            LoadOptions options;
            options.dimension = train.dimension();
            testSet = std::make_shared<Dataset>(loadDataFile(test.file, options));
        } else if (test.fraction > 0) {
            auto [trainPart, testPart] = train.split(test.fraction, test.seed);
            train = std::move(trainPart);
            testSet = std::make_shared<Dataset>(std::move(testPart));
        }
        if (const ProblemInfo* info = path.empty() ? findProblem(builtin) : nullptr) {
            instance->info = *info;
        } else {
            instance->info = {train.name, kFamilyLinear,
                              std::to_string(train.size()) + " examples from " + path,
                              "Dataset loaded from " + path + ".", train.dimension()};
        }
        instance->linear.train = std::make_shared<Dataset>(std::move(train));
        instance->linear.test = std::move(testSet);
    } catch (const DataError& e) {
        if (why) *why = e.what();
        return nullptr;
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return nullptr;
    }
    return instance;
}

bool checkSolverOptions(const std::string& solver, const OptionValues& options, std::string* why) {
    for (const auto& entry : solverEntries()) {
        if (entry.info.name == solver) return entry.check(options, why);
    }
    if (why) *why = "unknown solver '" + solver + "'";
    return false;
}

std::unique_ptr<Solver> makeSolver(const std::string& solver, const ProblemInstance& problem,
                                   const OptionValues& options, std::string* why) {
    for (const auto& entry : solverEntries()) {
        if (entry.info.name != solver) continue;
        if (entry.info.family != problem.info.family) {
            if (why) {
                *why = "solver '" + solver + "' works on " + entry.info.family +
                       " problems, but '" + problem.info.name + "' is a " + problem.info.family +
                       " problem";
            }
            return nullptr;
        }
        return entry.create(problem, options, why);
    }
    if (why) {
        std::string known;
        for (const auto& s : solverCatalog())
            known += (known.empty() ? "" : ", ") + s.name;
        *why = "unknown solver '" + solver + "'; solvers: " + known;
    }
    return nullptr;
}

}  // namespace cplab
