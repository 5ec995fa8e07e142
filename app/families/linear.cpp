// SPDX-License-Identifier: GPL-3.0-or-later
#include "linear.h"

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "bmrm/bmrm.h"
#include "bmrm/dcd.h"
#include "bmrm/libocas_solver.h"
#include "bmrm/linear_model.h"
#include "bmrm/ocas.h"
#include "bmrm/sgd.h"
#include "builtin_datasets.h"
#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "data/text_io.h"

namespace cplab {

std::string csvHeaderText(const Dataset& data) {
    std::vector<std::string> names = data.featureNames;
    if (!data.labelName.empty()) names.push_back(data.labelName + " (label)");
    return joined(names);
}

std::string LinearData::details() const {
    if (!linear.train) return {};
    const Dataset& train = *linear.train;
    std::string text = train.name + ": " + std::to_string(train.size()) + " examples, " +
                       std::to_string(train.dimension()) + " features" +
                       (train.sparseStorage ? ", sparse" : "");
    if (linear.test) text += "; test set " + std::to_string(linear.test->size()) + " examples";
    if (const std::string header = csvHeaderText(train); !header.empty())
        text += "; header: " + header;
    return text;
}

SummaryFields LinearData::summary() const {
    if (!linear.train) return {};
    if (const std::string header = csvHeaderText(*linear.train); !header.empty())
        return {{"header", header}};
    return {};
}

namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool looksLikeCsv(const std::string& path) {
    if (endsWith(path, ".csv") || endsWith(path, ".csv.gz")) return true;
    // Sniffed from the lines that are neither empty nor comments in the first 4 KB: the first
    // has a ',' or ';' and no LIBSVM "index:value" token (UCI files such as sonar.all-data are
    // CSV without the extension); or no line has a ':', every line has the same number (two or
    // more) of blank-separated fields and one at least holds numbers only: a whitespace table
    // such as housing.data (a LIBSVM line holds ':' in every token after its label, so a file
    // with one bad line stays LIBSVM and is reported as such).
    const std::string head = readInputHead(path);
    const bool whole = head.size() < 4096;
    std::size_t start = 0;
    int lines = 0;
    std::size_t fields = 0;
    bool numericRow = false;  // a line of numbers only (the others may be a header)
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        if (end == std::string::npos) {
            if (!whole) break;  // a line cut by the 4 KB window
            end = head.size();
        }
        const std::string_view line(head.data() + start, end - start);
        start = end + 1;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#') continue;
        if (lines == 0 && line.find_first_of(",;") != std::string_view::npos) {
            return line.find(':') == std::string_view::npos;
        }
        if (line.find(':') != std::string_view::npos) return false;
        std::size_t count = 0;
        bool numbers = true;
        for (std::size_t pos = 0;;) {
            const std::string_view token = nextToken(line, pos);
            if (token.empty()) break;
            double value = 0.0;
            numbers = numbers && parseReal(token, value) == NumberError::None;
            ++count;
        }
        numericRow = numericRow || numbers;
        if (lines > 0 && count != fields) return false;
        fields = count;
        ++lines;
    }
    return numericRow && fields >= 2;
}

Dataset loadDataFile(const std::string& path, const LoadOptions& options) {
    if (looksLikeCsv(path)) return loadCsv(path, {}, options);
    return loadLibsvm(path, options);
}

ProblemPtr makeLinearProblem(const std::string& path, const std::string& builtin,
                             const TestSetSpec& test, std::string* why, bool compact) {
    auto instance = std::make_shared<ProblemInstance>();
    auto data = std::make_shared<LinearData>();
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
        std::shared_ptr<Dataset> testSet;
        if (!test.file.empty()) {
            LoadOptions options;
            options.dimension = train.dimension();
            Dataset testData = loadDataFile(test.file, options);
            testData.useClassesOf(train);
            testSet = std::make_shared<Dataset>(std::move(testData));
        } else if (test.fraction > 0) {
            auto [trainPart, testPart] = train.split(test.fraction, test.seed);
            if (testPart.size() == 0 || trainPart.size() == 0) {
                throw std::invalid_argument(
                    "test fraction " + formatReal(test.fraction) + " of the " +
                    std::to_string(train.size()) + " examples of '" + train.name + "' leaves " +
                    (testPart.size() == 0 ? "no test example" : "no training example") +
                    "; choose a fraction between " + formatReal(1.0 / train.size()) + " and " +
                    formatReal(1.0 - 1.0 / train.size()));
            }
            train = std::move(trainPart);
            testSet = std::make_shared<Dataset>(std::move(testPart));
        }
        const ProblemInfo* known = nullptr;
        if (path.empty()) {
            for (const auto& info : linearFamily().problems()) {
                if (info.name == builtin) known = &info;
            }
        }
        if (known) {
            instance->info = *known;
        } else {
            instance->info = {train.name, "linear",
                              std::to_string(train.size()) + " examples from " + path,
                              "Dataset loaded from " + path + ".", train.dimension()};
        }
        checkMagnitudes(train);
        if (testSet) checkMagnitudes(*testSet);
        // Sparse data with a few features under large indices: solve over the features the
        // training set uses (the model file names them by their numbers in the file).
        if (compact) compactFeatures(train, testSet.get(), false);
        data->linear.train = std::make_shared<Dataset>(std::move(train));
        data->linear.test = std::move(testSet);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return nullptr;
    }
    instance->data = std::move(data);
    return instance;
}

namespace {

// The test split as an options struct (its help names the files `test` may be).
struct SplitOptions {
    const char* testFiles = "LIBSVM/SVMlight or CSV";
    std::string test;            // test file (LIBSVM/SVMlight or CSV), or empty
    double test_fraction = 0.0;  // held-out fraction of the training data, in [0, 1)
    std::int64_t seed = 1;       // seed of the held-out split, ≥ 0

    void visit(OptionVisitor& v) {
        const std::string help = std::string("test file (") + testFiles + "); empty: none";
        v.text("test", test, help.c_str());
        v.real("test_fraction", test_fraction,
               "fraction of the training data held out as test set, in [0, 1) (0: none)");
        v.seed("seed", seed, "seed of the held-out split (>= 0)");
    }
    bool isValid(std::string* why) const {
        return require(std::isfinite(test_fraction) && test_fraction >= 0 && test_fraction < 1,
                       "test split", "test_fraction", test_fraction, "must lie in [0, 1)", why) &&
               require(seed >= 0, "test split", "seed", static_cast<double>(seed), "must be >= 0",
                       why) &&
               requireText(test.empty() || test_fraction == 0, "test split", "test", test,
                           "give either a test file or a test fraction, not both", why);
    }
};

}  // namespace

bool parseTestSplit(const OptionValues& values, TestSetSpec* spec, std::string* why) {
    SplitOptions split;
    if (!assignOptions(split, values, why) || !split.isValid(why)) return false;
    *spec = {split.test, split.test_fraction, static_cast<std::uint64_t>(split.seed)};
    return true;
}

std::vector<OptionInfo> testSplitOptions(const char* testFiles) {
    SplitOptions split;
    split.testFiles = testFiles;
    return describeOptions(split);
}

namespace {

LinearProblem linearOf(const LinearData& data) {
    return data.linear;
}

class LinearFamily final : public Family {
  public:
    LinearFamily() {
        for (const auto& file : builtinDatasetFiles()) {
            const Dataset data = parseLibsvm(file.bytes, "builtin:" + std::string(file.name));
            addProblem({std::string(file.name),
                        {},
                        std::to_string(data.size()) + " examples, built-in dataset",
                        "Real dataset compiled into cplab (see resources/datasets/README.md).",
                        data.dimension()});
        }
        for (const auto& name : generatorNames()) {
            addProblem({name,
                        {},
                        std::to_string(kGeneratedExamples) + " generated examples (seed " +
                            std::to_string(kGeneratedSeed) + ")",
                        generatorDescription(name),
                        name == "sinc_1d" ? 1 : 2});
        }
        addSolver<BmrmOptions, BmrmSolver>(
            {"bmrm",
             {},
             "BMRM",
             "Bundle method for regularised risk minimisation (Alg. 7.3): one cutting plane of "
             "the risk per iteration, reduced problem solved in its dual over the simplex.",
             {}},
            &linearOf);
        addSolver<OcasOptions, OcasSolver>(
            {"ocas",
             {},
             "OCAS (LS-BMRM)",
             "Optimised cutting planes (Alg. 7.4): BMRM plus an exact line search towards the "
             "reduced problem's solution and planes at w_c = (1 - theta) w_b + theta w_t.",
             {}},
            &linearOf);
        addSolver<LibocasOptions, LibocasSolver>(
            {"libocas",
             {},
             "libocas (reference)",
             "The authors' own C library (libocas, Franc & Sonnenburg) run step by step through "
             "its per-iteration callback: the reference implementation to race against; hinge "
             "and multiclass risks.",
             {}},
            &linearOf);
        addSolver<DcdOptions, DcdSolver>(
            {"dcd",
             {},
             "Dual coordinate descent",
             "Dual coordinate descent (Hsieh et al. 2008, LIBLINEAR's -s 3 / -s 1): one epoch "
             "over the dual variables per step; lower bound from the dual objective.",
             {}},
            &linearOf);
        addSolver<SgdOptions, SgdSolver>(
            {"sgd",
             {},
             "Pegasos SGD",
             "Stochastic subgradient descent with step 1/(lambda t) (Pegasos): one epoch per "
             "step; no lower bound.",
             {}},
            &linearOf);
        addDemo({"ocas_vs_bmrm",
                 "Linear SVM: OCAS vs BMRM (2-D)",
                 "Ripley's 2-D set, C = 10 with a bias: watch the separating lines of w_b, w_t "
                 "and w_c, the line search slice, and how many fewer planes OCAS needs than "
                 "BMRM.",
                 "ripley_train",
                 {{"ocas", {{"C", "10"}, {"bias", "true"}, {"tol_rel", "1e-4"}}},
                  {"bmrm", {{"C", "10"}, {"bias", "true"}, {"tol_rel", "1e-4"}}}}});
    }

    std::string name() const override { return "linear"; }
    std::string title() const override { return "Linear models (regularised risk)"; }

    std::vector<OptionInfo> problemOptions() const override { return testSplitOptions(); }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                           std::string* why) const override {
        TestSetSpec test;
        if (!parseTestSplit(problemOptions, &test, why)) return nullptr;
        bool known = false;
        for (const auto& info : problems())
            known = known || info.name == name;
        if (!known) {
            if (why) *why = "unknown linear problem '" + name + "'";
            return nullptr;
        }
        return makeLinearProblem({}, name, test, why);
    }

    int fileAffinity(const std::string& path) const override {
        // Any text file may be LIBSVM/SVMlight; CSV by its name or its content.
        return looksLikeCsv(path) ? 2 : 1;
    }
    std::string fileFormats() const override { return "LIBSVM/SVMlight or CSV"; }

    ProblemPtr loadFile(const std::string& path, const OptionValues& problemOptions,
                        std::string* why) const override {
        TestSetSpec test;
        if (!parseTestSplit(problemOptions, &test, why)) return nullptr;
        return makeLinearProblem(path, {}, test, why);
    }

    bool writesModels() const override { return true; }

    bool writeModel(const Solver& solver, const std::string& path,
                    std::string* why) const override {
        const auto* linear = dynamic_cast<const LinearSvmSolver*>(&solver);
        if (!linear) {
            if (why) *why = "solver '" + solver.name() + "' has no linear model to write";
            return false;
        }
        try {
            writeLinearModel(path, linear->model());
        } catch (const std::exception& e) {
            if (why) *why = e.what();
            return false;
        }
        return true;
    }

    int modelAffinity(const std::string& head) const override {
        // Our model files start with "# cplab linear model" (or, hand-written, "risk <name>").
        return head.rfind("# cplab linear model", 0) == 0 || head.rfind("risk ", 0) == 0 ? 2 : 1;
    }

    std::optional<Prediction> predict(const std::string& modelPath, const std::string& dataPath,
                                      const std::string& outPath, std::string* why) const override {
        try {
            const LinearModel model = readLinearModel(modelPath);
            LoadOptions options;
            options.dimension = model.features;
            Dataset data = loadDataFile(dataPath, options);
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
        } catch (const std::exception& e) {
            if (why) *why = e.what();
            return std::nullopt;
        }
    }
};

}  // namespace

const Family& linearFamily() {
    static const LinearFamily family;
    return family;
}

}  // namespace cplab
