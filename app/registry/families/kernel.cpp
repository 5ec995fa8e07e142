// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/kernel.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "builtin_datasets.h"
#include "data/data_error.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "data/precomputed_format.h"
#include "data/text_io.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_snapshot_codec.h"
#include "kernel/libsvm_solver.h"
#include "kernel/mkl_path.h"
#include "kernel/mkl_path_snapshot_codec.h"
#include "kernel/silp.h"
#include "kernel/simplemkl.h"
#include "kernel/svm.h"
#include "warm_start.h"

namespace cplab {

namespace {

// The family's built-in problems are the built-in datasets and the generated 2-D
// classification sets under the prefix "kernel_" (problem names are unique across families:
// the linear family has the plain names).
const std::string kKernelPrefix = "kernel_";

// Solvers check their kernel against the kind of data: a precomputed-kernel file takes the
// kernel "precomputed" (the default there), and only it takes that kernel.
bool kernelFitsData(const std::string& kernels, const KernelData& data, const std::string& problem,
                    std::string* why) {
    std::vector<KernelSpec> specs;
    std::string reason;
    const int dimension = data.kernel.train ? data.kernel.train->dimension() : 0;
    if (!parseKernelList(kernels, std::max(1, dimension), &specs, &reason)) return true;
    const bool precomputedKernel = specs.front().type == KernelType::Precomputed;
    if (precomputedKernel == data.precomputed) return true;
    if (why) {
        *why = data.precomputed
                   ? "'" + problem +
                         "' is a precomputed kernel (LIBSVM's '<label> 0:<serial> "
                         "1:K(x,x1) ...' rows); its solvers take the kernel "
                         "'precomputed', not " +
                         quotedKernelText(kernels)
                   : "kernel 'precomputed' needs a precomputed-kernel file (LIBSVM's '<label> "
                     "0:<serial> 1:K(x,x1) ...' rows), but '" +
                         problem + "' holds feature vectors";
    }
    return false;
}

// The kernel list of a solver's options: KernelOptions::kernels for the SVM and MKL solvers,
// the path's own `kernels`.
template <class Options>
const std::string& kernelListOf(const Options& options) {
    if constexpr (requires { options.kernel.kernels; }) {
        return options.kernel.kernels;
    } else {
        return options.kernels;
    }
}

KernelProblem kernelOf(const KernelData& data) {
    return data.kernel;
}

// A solver entry whose kernel fits the data: on a precomputed-kernel problem the kernel
// defaults to "precomputed", and a kernel that does not fit the kind of data is refused with a
// message saying which one does. `kernelKey` is the option that holds the kernel list.
template <class Options, class SolverType>
SolverEntry kernelSolver(SolverDeclaration declaration, const std::string& kernelKey) {
    return solverEntry<Options, SolverType>(
        std::move(declaration), &kernelOf,
        [kernelKey](OptionValues& values, const KernelData& data, const ProblemInfo& problem,
                    std::string* why) {
            if (data.precomputed && !values.count(kernelKey)) values[kernelKey] = "precomputed";
            Options options;
            // Options that do not parse are refused afterwards, with the parser's message.
            return !assignOptions(options, values, nullptr) ||
                   kernelFitsData(kernelListOf(options), data, problem.name, why);
        });
}

// What is solved (the kernels, C; the path's loss and where it ends) and, rarely touched, the
// kernel cache, SMO's tolerance and shrinking, SimpleMKL's line search and the path's Newton
// steps and memory.
const OptionGroups kKernelGroups = {
    {"kernel", "kernels", "C", "loss", "lambda_min"},
    {"cache_mb", "kkt_tolerance", "shrinking", "line_search_tol", "max_newton", "memory_mb"}};

// The SVM and the MKL solvers keep alpha (and beta, SILP's rows) after an edit; the path has
// its own options (no C: it follows every λ) and takes regression targets as well as two
// classes.
const std::vector<SolverEntry> kKernelSolvers = {
    kernelSolver<SvmOptions, SvmSolver>(
        {.name = "svm",
         .title = "SVM by SMO",
         .description =
             "The kernel SVM dual by SMO with second-order working-set selection and shrinking "
             "(Fan, Chen, Lin 2005, as LIBSVM): smo_steps pair updates per step, so that alpha "
             "and the decision function animate; converged when the maximal KKT violation is "
             "below kkt_tolerance. Bounds: primal objective and dual D(alpha).",
         .groups = kKernelGroups,
         .warmStart = warmStartOf<SvmSolver>()},
        "kernel"),
    kernelSolver<LibsvmOptions, LibsvmSolver>(
        {.name = "libsvm",
         .title = "LIBSVM (reference)",
         .description =
             "LIBSVM's svm_train with the same kernel, C, tolerance, shrinking and cache: the "
             "reference to race the step-wise SMO against (one step, the whole solve).",
         .groups = kKernelGroups},
        "kernel"),
    kernelSolver<SilpOptions, SilpSolver>(
        {.name = "silp",
         .title = "MKL by SILP (cutting planes)",
         .description =
             "Multiple kernel learning by cutting planes on the simplex (Sonnenburg et al. 2006, "
             "§7.3): each step solves the SVM for the current weights beta, adds the plane "
             "theta >= sum_k beta_k S_k(alpha) and re-solves the master LP. By default "
             "(master=level, Xu et al. 2008) the next beta is the projection of beta onto a "
             "level set of the planes, its level adapting to overshoots, instead of the LP's "
             "minimiser (master=lp, Kelley's method): far fewer planes with many kernels. "
             "Bounds: best D(beta) and the LP's theta.",
         .groups = kKernelGroups,
         .warmStart = warmStartOf<SilpSolver>()},
        "kernels"),
    kernelSolver<InterleavedSilpOptions, InterleavedSilpSolver>(
        {.name = "silp_interleaved",
         .title = "MKL by interleaved SILP (SMO chunks)",
         .description =
             "SILP without solving each SVM to optimality (Sonnenburg et al. 2006, Shogun's "
             "interleaved MKL): each step runs chunk_steps SMO updates at the current beta; the "
             "plane of that feasible alpha (still below D everywhere) enters the master LP and "
             "moves beta only when it cuts (master=level: the level method's projection, as "
             "silp). Bounds: the best primal value or converged D(beta), and the LP's theta.",
         .groups = kKernelGroups,
         .warmStart = warmStartOf<SilpSolver>()},
        "kernels"),
    kernelSolver<SimpleMklOptions, SimpleMklSolver>(
        {.name = "simplemkl",
         .title = "SimpleMKL (descent on the simplex)",
         .description =
             "Multiple kernel learning by descent on the simplex of kernel weights "
             "(Rakotomamonjy et al. 2008). direction=newton (default): each step goes to the "
             "minimiser of J's second-order model over the simplex (Chapelle & Rakotomamonjy "
             "2008), Armijo from the full step; direction=gradient: the paper's reduced "
             "gradient with its line search (Armijo from a quadratic first trial, or golden "
             "section). Each trial point is one warm-started SVM solve. Bounds: J(beta) and the "
             "cutting-plane LP over every SVM's plane (at least min_k S_k(alpha), the paper's "
             "duality gap).",
         .groups = kKernelGroups,
         .warmStart = warmStartOf<SimpleMklSolver>()},
        "kernels"),
    kernelSolver<MklPathOptions, MklPathSolver>(
        {.name = "mklpath",
         .title = "MKL regularisation path (Bach et al. 2004)",
         .description =
             "The block-1-norm MKL solution for all lambda (Bach, Thibaux, Jordan 2004): a "
             "log-barrier dual (weight mu) followed from lambda_0 down to lambda_min by "
             "predictor-corrector steps in log(lambda); squared loss (regression) or logistic "
             "loss (two classes). Each step is one point of the path with every kernel weight "
             "eta_j. Bounds: the primal and the dual objective at that lambda.",
         .groups = kKernelGroups},
        "kernels"),
};

// The checkerboard: neither a linear nor a degree-2 polynomial kernel can draw it (alone,
// their test errors are about 0.5), a Gaussian can; MKL puts all the weight on the Gaussian.
const OptionValues kChoiceOptions = {{"kernels", "linear;poly:2;gaussian:2"}, {"C", "10"}};
// SILP as the paper has it, Kelley's method (the default level method moves β by projections):
// the stories show the LP's minimiser jumping between corners and edges.
const OptionValues kChoiceKelley = {
    {"kernels", "linear;poly:2;gaussian:2"}, {"C", "10"}, {"master", "lp"}};
const OptionValues kWidthsKelley = {{"kernels", "gaussian:0.1,1,10"}, {"C", "1"}, {"master", "lp"}};
// The paper's reduced gradient, which the story shows (the default second-order steps reach
// the optimum of three weights in three steps).
const OptionValues kWidthsGradient = {
    {"kernels", "gaussian:0.1,1,10"}, {"C", "1"}, {"direction", "gradient"}};

// The demos, each with its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kKernelDemos = {
    {"kernel_choice_2d",
     "MKL: which kernel fits? (2-D checkerboard)",
     "A checkerboard: SILP and SimpleMKL weigh a linear, a degree-2 polynomial and "
     "a Gaussian kernel (trace-normalised). Only the Gaussian can draw the cells: "
     "watch the weights move to it, the cutting-plane model of D(beta) over the "
     "triangle of weights, and the decision function.",
     kKernelPrefix + "checkerboard",
     {{"silp", kChoiceKelley}, {"simplemkl", kChoiceOptions}},
     {{0, "",
       "A checkerboard and three kernels (linear, polynomial, Gaussian): weights start "
       "equal."},
      {1, "",
       "SILP solves an SVM and adds a plane to its model of D(beta) over the triangle of "
       "weights."},
      {3, "", "The weights move to the Gaussian kernel: only it can draw the cells."},
      {4, "kernel left", "A kernel left the active set: its weight fell to zero."},
      {0, "finished", "Converged: the decision function rests on the Gaussian kernel."}}},
    {"mkl_widths_2d",
     "MKL: three Gaussian widths on the simplex (2-D)",
     "Two overlapping Gaussian blobs and three Gaussian kernels (gamma 0.1, 1 and "
     "10): the best combination uses all three. SILP's planes build the model of "
     "D(beta) over the triangle of weights, its LP minimiser jumps between corners "
     "and edges before settling inside; SimpleMKL descends along the reduced "
     "gradient. Evaluate D(beta) on the grid to compare the model with D itself.",
     kKernelPrefix + "overlapping_blobs",
     {{"silp", kWidthsKelley}, {"simplemkl", kWidthsGradient}},
     {{0, "",
       "Two overlapping blobs, three Gaussian widths; beta starts at the triangle's "
       "centre."},
      {1, "", "SILP's first plane: its LP minimiser jumps to a corner of the triangle."},
      {3, "",
       "SILP's beta jumps between corners and edges; SimpleMKL descends along the reduced "
       "gradient."},
      {8, "", "beta settles inside the triangle: the best combination uses all three widths."},
      {0, "finished",
       "Converged. Evaluate D(beta) on the grid to compare the model with D itself."}}},
    {"ionosphere_features",
     "MKL: feature selection on ionosphere (34 kernels)",
     "One Gaussian kernel per feature of ionosphere (gaussian:1@each_feature, 34 "
     "kernels) learnt by SILP: the weights pick out the few features (3 to 7 above "
     "all) that separate the radar returns.",
     kKernelPrefix + "ionosphere_scale",
     {{"silp",
       {{"kernels", "gaussian:1@each_feature"},
        {"C", "1"},
        {"tol_rel", "1e-2"},
        {"master", "lp"}}}},
     {{0, "", "34 kernels, one per feature of ionosphere, equal weights to start."},
      {1, "", "Each step adds a plane; the LP puts the weight on a few features."},
      {2, "kernel entered", "A kernel entered the active set: another feature starts to count."},
      {6, "", "The weights concentrate on a handful of features (3 to 7 above all)."},
      {0, "finished", "Converged to tol_rel 1e-2: these features separate the radar returns."}}},
    // The regularisation path on Ripley's 2-D set (250 examples: each Newton step factors
    // a 250 × 250 matrix, the whole path takes a few seconds).
    {"mkl_path_2d",
     "MKL regularisation path: kernel weights against lambda (2-D)",
     "Ripley's 2-D set, logistic loss and six kernels (Gaussian widths 0.3 to 10, "
     "a degree-2 polynomial, linear): mklpath follows the block-1-norm MKL solution "
     "from lambda_0 (where w = 0) towards small lambda. Watch the "
     "kernel weights eta_j enter (not monotonically) and the training error fall "
     "(Errors and steps tab); click a point of the path to see the "
     "decision function at that lambda.",
     kKernelPrefix + "ripley_train",
     {{"mklpath", {{"kernels", "gaussian:0.3,1,3,10;poly:2;linear"}, {"loss", "logistic"}}}},
     {{0, "", "At lambda_0 every kernel weight is zero: w = 0."},
      {1, "", "The path runs toward small lambda: the first kernel enters."},
      {3, "kernel entered",
       "Another kernel entered the active set: the weights eta_j do not grow "
       "monotonically."},
      {15, "", "The training error falls as lambda shrinks (Errors and steps tab)."},
      {0, "finished",
       "The path reached lambda_min: click a point of it to see the decision function "
       "there."}}},
    {"svm_2d",
     "Kernel SVM by SMO, step by step (2-D)",
     "Ripley's 2-D set with a Gaussian kernel: five SMO pair updates per step, so "
     "the support vectors (free and at the bound C) and the decision function "
     "f = 0 with its margins f = +-1 settle as the duality gap closes (tol_rel "
     "1e-4 for both runs); LIBSVM solves the same SVM in one step.",
     kKernelPrefix + "ripley_train",
     {{"svm", {{"kernel", "gaussian:5"}, {"C", "10"}, {"smo_steps", "5"}, {"tol_rel", "1e-4"}}},
      {"libsvm", {{"kernel", "gaussian:5"}, {"C", "10"}, {"tol_rel", "1e-4"}}}},
     {{0, "",
       "Ripley's set, a Gaussian kernel: alpha = 0, no support vectors yet; LIBSVM solves "
       "the same SVM in one step."},
      {1, "", "Each step makes five SMO pair updates: points become support vectors (rings)."},
      {5, "", "Support vectors at the bound C (squares) mark where the classes overlap."},
      {15, "", "The line f = 0 and the margins f = +-1 settle as the duality gap closes."},
      {0, "finished", "Converged to tol_rel 1e-4: compare with LIBSVM's solution."}}},
};

class KernelFamily final : public DatasetFamily {
  public:
    KernelFamily() : DatasetFamily(kKernelPrefix, true) {
        addDatasetProblems(Builtins::TwoClassGenerated);
        addSolvers(kKernelSolvers);
        addSnapshotCodec(
            snapshotCodec<KernelSnapshot, encodeKernelSnapshot, decodeKernelSnapshot>(4, "kernel"));
        addSnapshotCodec(
            snapshotCodec<MklPathSnapshot, encodeMklPathSnapshot, decodeMklPathSnapshot>(
                5, "MKL path"));
        addDemos(kKernelDemos);
    }

    std::string name() const override { return "kernel"; }
    std::string title() const override { return "Kernel SVMs and MKL"; }
    BoundLabels boundLabels() const override {
        // SVMs: the primal and dual objectives; MKL: the best D(β) and the LP's θ (SILP) or
        // min_k S_k(α) (SimpleMKL).
        return {"upper bound U (primal, or best D)", "lower bound L (dual, or MKL bound)"};
    }

    std::shared_ptr<const ProblemData> datasetData(ExampleSets sets,
                                                   bool kernelRows) const override {
        return kernelData(std::move(sets), kernelRows);
    }

    bool writesModels() const override { return true; }

    bool writeModel(const Solver& solver, const std::string& path,
                    std::string* why) const override {
        const auto* kernel = dynamic_cast<const KernelSvmSolver*>(&solver);
        if (!kernel) {
            if (why) *why = "solver '" + solver.name() + "' has no kernel model to write";
            return false;
        }
        return refusingThrows(why, [&] {
            writeOutputFile(path, formatKernelModel(kernel->classifier()));
            return true;
        });
    }

    // LIBSVM's model file (kernel_model.h: formatLibsvmModel), for its svm-predict.
    std::vector<std::string> peerModelFormats() const override { return {"libsvm"}; }
    bool writePeerModel(const Solver& solver, const std::string& path, const std::string& format,
                        std::string* why) const override {
        const auto* kernel = dynamic_cast<const KernelSvmSolver*>(&solver);
        if (!kernel || format != "libsvm") return Family::writePeerModel(solver, path, format, why);
        return refusingThrows(why, [&] {
            writeOutputFile(path, formatLibsvmModel(kernel->classifier()));
            return true;
        });
    }

    int modelAffinity(const std::string& head) const override {
        return head.rfind("# cplab kernel model", 0) == 0 ? 2 : 0;
    }

    std::optional<Prediction> predict(const std::string& modelPath, const std::string& dataPath,
                                      const std::string& outPath, std::string* why) const override {
        return refusingThrows(why, [&]() -> std::optional<Prediction> {
            const KernelClassifier model = parseKernelModel(readInputFile(modelPath), modelPath);
            const bool precomputed =
                model.specs.size() == 1 && model.specs[0].type == KernelType::Precomputed;
            LoadOptions options;
            options.dimension = model.features;
            const Dataset data = readExamples(
                sourceOfKind(dataPath, precomputed ? DataKind::KernelRows : DataKind::Examples),
                options);
            const double error = model.error(data);
            if (!outPath.empty()) {
                const Eigen::VectorXd f = model.decisions(data);
                std::string text;
                for (Eigen::Index i = 0; i < f.size(); ++i)
                    text += data.labelText(model.classes[f(i) > 0 ? 1 : 0]) + "\n";
                writeOutputFile(outPath, text);
            }
            return Prediction{data.size(), "error", error};
        });
    }
};

}  // namespace

const Family& kernelFamily() {
    static const KernelFamily family;
    return family;
}

}  // namespace cplab
