// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/linear.h"

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "builtin_datasets.h"
#include "core/communicator.h"
#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "data/text_io.h"
#include "linear/bmrm.h"
#include "linear/dcd.h"
#include "linear/libocas_solver.h"
#include "linear/linear_model.h"
#include "linear/linear_svm_snapshot_codec.h"
#include "linear/ocas.h"
#include "linear/sgd.h"
#include "warm_start.h"

namespace cplab {

namespace {

LinearProblem linearOf(const LinearData& data) {
    return data.linear;
}

// The linear SVM's model (LinearSvmOptions) is what is solved; threads, seeds, the reduced
// problem's and libocas's buffers and tolerances and DCD's shrinking are rarely touched.
const OptionGroups kLinearGroups = {{"lambda", "C", "risk", "bias", "tube"},
                                    {"threads", "seed", "shrinking", "inactive_limit", "max_planes",
                                     "qp_tolerance", "buf_size", "qp_limit_stop"}};

// BMRM and OCAS keep their planes' points after an edit and run over several processes (the
// examples shared); DCD keeps alpha.
const std::vector<SolverEntry> kLinearSolvers = {
    solverEntry<BmrmOptions, BmrmSolver>(
        {.name = "bmrm",
         .title = "BMRM",
         .description =
             "Bundle method for regularised risk minimisation (Alg. 7.3): one cutting plane of "
             "the risk per iteration, reduced problem solved in its dual over the simplex.",
         .groups = kLinearGroups,
         .warmStart = warmStartOf<BmrmSolver>(),
         .distributed = Distributed::ExampleShares},
        &linearOf),
    solverEntry<OcasOptions, OcasSolver>(
        {.name = "ocas",
         .title = "OCAS (LS-BMRM)",
         .description =
             "Optimised cutting planes (Alg. 7.4): BMRM plus an exact line search towards the "
             "reduced problem's solution and planes at w_c = (1 - theta) w_b + theta w_t.",
         .groups = kLinearGroups,
         .warmStart = warmStartOf<OcasSolver>(),
         .distributed = Distributed::ExampleShares},
        &linearOf),
    solverEntry<LibocasOptions, LibocasSolver>(
        {.name = "libocas",
         .title = "libocas (reference)",
         .description =
             "The authors' own C library (libocas, Franc & Sonnenburg) run step by step through "
             "its per-iteration callback: the reference implementation to race against; hinge "
             "and multiclass risks.",
         .groups = kLinearGroups},
        &linearOf),
    solverEntry<DcdOptions, DcdSolver>(
        {.name = "dcd",
         .title = "Dual coordinate descent",
         .description =
             "Dual coordinate descent (Hsieh et al. 2008, LIBLINEAR's -s 3 / -s 1): one epoch "
             "over the dual variables per step; lower bound from the dual objective.",
         .groups = kLinearGroups,
         .warmStart = warmStartOf<DcdSolver>()},
        &linearOf),
    solverEntry<SgdOptions, SgdSolver>(
        {.name = "sgd",
         .title = "Pegasos SGD",
         .description =
             "Stochastic subgradient descent with step 1/(lambda t) (Pegasos): one epoch per "
             "step; no lower bound.",
         .groups = kLinearGroups},
        &linearOf),
};

// The demo with its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kLinearDemos = {
    {"ocas_vs_bmrm",
     "Linear SVM: OCAS vs BMRM (2-D)",
     "Ripley's 2-D set, C = 10 with a bias: watch the separating lines of w_b, w_t "
     "and w_c, the line search slice, and how many fewer planes OCAS needs than "
     "BMRM.",
     "ripley_train",
     {{"ocas", {{"C", "10"}, {"bias", "true"}, {"tol_rel", "1e-4"}}},
      {"bmrm", {{"C", "10"}, {"bias", "true"}, {"tol_rel", "1e-4"}}}},
     {{0, "", "A linear SVM on Ripley's 2-D set: the lines are the models' decision boundaries."},
      {1, "", "Both methods add a cutting plane of the risk per step."},
      {3, "",
       "OCAS searches the line from its best w_b to the master solution w_c (the slice "
       "plot) and keeps the best point."},
      {8, "", "BMRM's w_t jumps around; OCAS's w_b moves steadily and needs far fewer planes."},
      {0, "finished", "Converged to tol_rel 1e-4: compare the iterations in the runs table."}}},
};

class LinearFamily final : public DatasetFamily {
  public:
    LinearFamily() : DatasetFamily({}, false) {
        addDatasetProblems(Builtins::All);
        addSolvers(kLinearSolvers);
        addSnapshotCodec(
            snapshotCodec<LinearSvmSnapshot, encodeLinearSvmSnapshot, decodeLinearSvmSnapshot>(
                3, "linear SVM"));
        addDemos(kLinearDemos);
    }

    std::string name() const override { return "linear"; }
    std::string title() const override { return "Linear models (regularised risk)"; }

    // Sparse data with a few features under large indices: solve over the features the
    // training set uses (the model file names them by their numbers in the file).
    std::shared_ptr<const ProblemData> datasetData(ExampleSets sets,
                                                   bool /*kernelRows*/) const override {
        compactFeatures(*sets.train, sets.test.get(), false);
        auto data = std::make_shared<LinearData>();
        data->linear = {std::move(sets.train), std::move(sets.test)};
        return data;
    }

    // Every process's share of the examples (data/shares.h), the risk summed over the
    // processes. No features are compacted here: loadSharedExamples compacted the shares on the
    // union of their features, the same on every process.
    ProblemPtr sharedExamplesProblem(ExampleSets shares, const std::string& path,
                                     std::shared_ptr<Communicator> communicator) const override {
        const std::string processes = std::to_string(communicator->size());
        auto data = std::make_shared<LinearData>();
        data->linear = {std::move(shares.train), std::move(shares.test), std::move(communicator)};
        const Dataset& train = *data->linear.train;
        auto problem = std::make_shared<ProblemInstance>();
        problem->info = {
            train.name, name(), "examples from " + path + " shared by " + processes + " processes",
            "Dataset loaded from " + path + " by " + processes + " processes, each its share.",
            train.dimension()};
        problem->data = std::move(data);
        return problem;
    }

    bool writesModels() const override { return true; }

    bool writeModel(const Solver& solver, const std::string& path,
                    std::string* why) const override {
        const auto* linear = dynamic_cast<const LinearSvmSolver*>(&solver);
        if (!linear) {
            if (why) *why = "solver '" + solver.name() + "' has no linear model to write";
            return false;
        }
        return refusingThrows(why, [&] {
            writeLinearModel(path, linear->model());
            return true;
        });
    }

    // LIBLINEAR's model file (linear_model.h: formatLiblinearModel), for its predict.
    std::vector<std::string> peerModelFormats() const override { return {"liblinear"}; }
    bool writePeerModel(const Solver& solver, const std::string& path, const std::string& format,
                        std::string* why) const override {
        const auto* linear = dynamic_cast<const LinearSvmSolver*>(&solver);
        if (!linear || format != "liblinear")
            return Family::writePeerModel(solver, path, format, why);
        return refusingThrows(why, [&] {
            writeOutputFile(path, formatLiblinearModel(linear->model()));
            return true;
        });
    }

    int modelAffinity(const std::string& head) const override {
        // Our model files start with "# cplab linear model" (or, hand-written, "risk <name>").
        return head.rfind("# cplab linear model", 0) == 0 || head.rfind("risk ", 0) == 0 ? 2 : 1;
    }

    std::optional<Prediction> predict(const std::string& modelPath, const std::string& dataPath,
                                      const std::string& outPath, std::string* why) const override {
        return refusingThrows(why, [&]() -> std::optional<Prediction> {
            const LinearModel model = readLinearModel(modelPath);
            LoadOptions options;
            options.dimension = model.features;
            Dataset data = readExamples(sourceOfKind(dataPath, DataKind::Examples), options);
            checkMagnitudes(data);
            model.matchLabels(data);
            const Eigen::VectorXd predicted = model.predict(data);
            const bool regression = model.risk == LossKind::EpsilonInsensitive;
            double error = 0.0;
            for (Eigen::Index i = 0; i < predicted.size(); ++i) {
                error += regression ? std::abs(predicted(i) - data.labels(i))
                                    : (predicted(i) != data.labels(i) ? 1.0 : 0.0);
            }
            error /= static_cast<double>(std::max<Eigen::Index>(1, predicted.size()));
            if (!outPath.empty()) {
                std::string text;
                for (Eigen::Index i = 0; i < predicted.size(); ++i)
                    text += data.labelText(predicted(i)) + "\n";
                writeOutputFile(outPath, text);
            }
            return Prediction{static_cast<long long>(predicted.size()),
                              regression ? "mean_absolute_error" : "error", error};
        });
    }
};

}  // namespace

const Family& linearFamily() {
    static const LinearFamily family;
    return family;
}

}  // namespace cplab
