// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/sparse.h"

#include <optional>
#include <stdexcept>

#include "builtin_datasets.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "data/text_io.h"
#include "kernel/kernel_model.h"
#include "sparse/dlib_reduced2.h"
#include "sparse/one_vs_rest.h"
#include "sparse/reduced_set.h"
#include "sparse/reduced_svm.h"
#include "sparse/slmc.h"
#include "sparse/sparse_snapshot_codec.h"
#include "warm_start.h"

namespace cplab {

namespace {

// Problem names are unique across families: the sparse family's are "sparse_<dataset>".
const std::string kSparsePrefix = "sparse_";

// The kernel family's model file of a run of S (nullopt for another type: a one-vs-rest
// machine writes none).
template <class S>
std::optional<std::string> kernelModelText(const Solver& solver) {
    const auto* s = dynamic_cast<const S*>(&solver);
    if (!s) return std::nullopt;
    return formatKernelModel(s->classifier());
}

// A solver entry that refuses a precomputed-kernel problem (expansion vectors are points of the
// input space), trains one machine per class against the rest on multi-class data
// (one_vs_rest.h), each with the same options, and writes the kernel family's model file.
template <class Options, class SolverType>
SolverEntry slmcSolver(SolverDeclaration declaration) {
    const std::string name = declaration.name;
    declaration.modelText = &kernelModelText<SolverType>;
    return solverEntry<Options, KernelData>(
        std::move(declaration),
        [name](const KernelData& data, const Options& options) -> std::unique_ptr<Solver> {
            if (data.kernel.train && data.kernel.train->classes().size() > 2) {
                return std::make_unique<OneVsRestSolver>(
                    name, data.kernel, options.stop,
                    [options](const KernelProblem& binary,
                              const StopOptions& stop) -> std::unique_ptr<Solver> {
                        Options machine = options;
                        machine.stop = stop;  // max_seconds: what is left of the run's
                        return std::make_unique<SolverType>(binary, machine);
                    },
                    [](const Solver& machine) {
                        return static_cast<const SolverType&>(machine).classifier();
                    });
            }
            return std::make_unique<SolverType>(data.kernel, options);
        },
        [](OptionValues&, const KernelData& data, const ProblemInfo& problem, std::string* why) {
            if (!data.precomputed) return true;
            if (why)
                *why = "'" + problem.name +
                       "' is a precomputed kernel; expansion vectors need the feature vectors "
                       "themselves";
            return false;
        });
}

// What is solved (the kernel, C, the budget of expansion vectors) and, rarely touched, seeds,
// caches and the inner solvers' tolerances, floors and memories.
const OptionGroups kSparseGroups = {
    {"kernel", "C", "expansion_vectors"},
    {"seed", "cache_mb", "kkt_tolerance", "inner_tolerance", "full_tolerance", "svm_eps",
     "eigen_floor", "lbfgs_memory", "max_line_search", "gradient_tolerance", "decrease_tolerance",
     "fixed_point_iterations", "fixed_point_tolerance"}};

// SLMC keeps its expansion vectors after an edit; the baselines restart.
const std::vector<SolverEntry> kSparseSolvers = {
    slmcSolver<SlmcOptions, SlmcSolver>(
        {.name = "slmc",
         .title = "SLMC: moving expansion vectors (Wu et al. 2006)",
         .description =
             "A kernel classifier f(x) = sum_u beta_u k(z_u, x) + b with a fixed budget of "
             "expansion vectors Z: W(Z), the optimal value of the SVM restricted to the span "
             "of phi(z_u), is minimised over Z by L-BFGS (one iteration per step; each W is an "
             "inner SVM on the whitened features, warm-started). Watch the expansion vectors "
             "move and W fall. Bounds: W(Z) and, with full_svm, the full SVM's dual objective "
             "(W(Z) can only reach it with as many expansion vectors as support vectors).",
         .groups = kSparseGroups,
         .warmStart = warmStartOf<SlmcSolver>()}),
    slmcSolver<RsvmOptions, RsvmSolver>(
        {.name = "rsvm",
         .title = "Reduced SVM: random, fixed expansion vectors",
         .description =
             "The baseline of the SLMC paper (Lee & Mangasarian 2001): N_z training points "
             "drawn at random are the expansion vectors and stay put; beta and b are a linear "
             "SVM on the empirical kernel map [k(z_1, x) ... k(z_Nz, x)], solved by SMO. Its "
             "regulariser is |beta|^2 rather than the RKHS norm.",
         .groups = kSparseGroups}),
    slmcSolver<MrsvmOptions, MrsvmSolver>(
        {.name = "mrsvm",
         .title = "Modified reduced SVM (SLMC at its random start)",
         .description =
             "The exact SVM restricted to the span of phi(z_u) for N_z random training points "
             "(the SLMC paper's MRSVM): W(Z) at SLMC's starting point, with Z never moved. "
             "Race it against slmc with the same seed to see what moving the vectors buys.",
         .groups = kSparseGroups}),
    slmcSolver<RsOptions, RsSolver>(
        {.name = "rs",
         .title = "Reduced set: approximate the full SVM's w by N_z vectors",
         .description =
             "The reduced set method (Burges 1996; Schoelkopf et al. 1999), the SLMC paper's RS "
             "baseline: the full SVM is solved first, then one vector per step is added where "
             "the residual w - sum_j beta_j phi(z_j) projects most (Gaussian fixed-point "
             "iteration from several starts), and beta is refitted by least squares (eq. 47). "
             "Bound U is |w - w_z|^2, which falls with every vector; the full SVM's bias b is "
             "kept.",
         .groups = kSparseGroups}),
    slmcSolver<MrsOptions, MrsSolver>(
        {.name = "mrs",
         .title = "Modified reduced set (RS vectors, SVM coefficients)",
         .description =
             "The SLMC paper's MRS: the same vectors as rs (same options give the same Z), "
             "but beta and b come from the exact SVM restricted to their span (eq. 45), solved "
             "after every added vector. Bound U is that SVM's objective; L the full SVM's.",
         .groups = kSparseGroups}),
    slmcSolver<DlibReduced2Options, DlibReduced2Solver>(
        {.name = "dlib_reduced2",
         .title = "dlib reduced2: a budget of basis vectors optimised by gradient (King, dlib)",
         .description =
             "The peer from dlib (Davis King): dlib's own SVM (svm_c_trainer, same kernel and "
             "C) is reduced to N_z basis vectors, which start on linearly independent training "
             "points; then vectors and weights together are moved by L-BFGS to minimise "
             "|w - w_z|^2 (a reduced-set method like rs, with the vectors optimised jointly "
             "rather than one by one), and the bias is shifted to keep the mean decision. "
             "dlib trains in one go, so the run is a single step that cannot be interrupted. "
             "Bound U is the SVM objective of the result (comparable with slmc, mrs and "
             "mrsvm); L the full SVM's dual with full_svm.",
         .groups = kSparseGroups}),
};

// The demo with its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kSparseDemos = {
    // Ripley's set with six expansion vectors: they start on training points and move
    // to where the boundary needs them.
    {"slmc_2d",
     "SLMC: six expansion vectors find their places (2-D)",
     "Ripley's 2-D set, Gaussian kernel: the full SVM needs 77 support vectors "
     "(grey rings); SLMC keeps six expansion vectors (bold, with their "
     "trails) and moves them by L-BFGS on W(Z). The decision function with six "
     "terms comes close to the full machine's; MRSVM, the same six starting points "
     "kept fixed, shows what moving them buys.",
     kSparsePrefix + "ripley_train",
     {{"slmc",
       {{"kernel", "gaussian:5"},
        {"C", "10"},
        {"expansion_vectors", "6"},
        {"full_svm", "true"},
        {"max_iterations", "80"}}},
      {"mrsvm",
       {{"kernel", "gaussian:5"}, {"C", "10"}, {"expansion_vectors", "6"}, {"full_svm", "true"}}}},
     {{0, "",
       "The full SVM needs 77 support vectors (grey rings); SLMC keeps six expansion "
       "vectors."},
      {1, "", "L-BFGS moves the six vectors to lower W(Z): follow their trails."},
      {2, "expansion vector moved",
       "The expansion vector that moved most drags the six-term decision function with it."},
      {10, "", "MRSVM keeps the same six starting points fixed: compare what moving them buys."},
      {0, "finished", "Converged: six terms come close to the full machine's decision function."}}},
};

class SparseFamily final : public DatasetFamily {
  public:
    // The two-class problems among the built-in datasets and the generated 2-D sets. Data
    // files are the linear and kernel families' first; `cplab-cli run slmc --data FILE` (or
    // the GUI with an SLMC run asked for) loads them here.
    SparseFamily() : DatasetFamily(kSparsePrefix, false) {
        addDatasetProblems(Builtins::TwoClasses);
        addSolvers(kSparseSolvers);
        addSnapshotCodec(
            snapshotCodec<SparseSnapshot, encodeSparseSnapshot, decodeSparseSnapshot>(7, "sparse"));
        addDemos(kSparseDemos);
    }

    std::string name() const override { return "sparse"; }
    std::string title() const override { return "Sparse kernel machines"; }
    BoundLabels boundLabels() const override {
        return {
            "upper bound U (slmc, mrs, rsvm, mrsvm: the restricted SVM's objective W(Z); "
            "dlib_reduced2: the SVM objective of its result; rs: |w - w_z|^2)",
            "lower bound L (slmc, mrs, dlib_reduced2: the full SVM's dual; rsvm, mrsvm: their "
            "own; rs: 0)"};
    }

    std::shared_ptr<const ProblemData> datasetData(ExampleSets sets,
                                                   bool kernelRows) const override {
        return kernelData(std::move(sets), kernelRows);
    }

    // The kernel family's model format (its `predict` reads it back).
    bool writesModels() const override { return true; }
    bool writeModel(const Solver& solver, const std::string& path,
                    std::string* why) const override {
        return refusingThrows(why, [&] {
            const std::optional<std::string> text = modelTextOf(solver);
            if (!text)
                throw std::invalid_argument("solver '" + solver.name() + "' has no model to write");
            writeOutputFile(path, *text);
            return true;
        });
    }
};

}  // namespace

const Family& sparseFamily() {
    static const SparseFamily family;
    return family;
}

}  // namespace cplab
