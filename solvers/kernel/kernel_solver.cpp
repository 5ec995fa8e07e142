// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_solver.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/number_text.h"

namespace cplab {

namespace {

// The grid of the 2-D decision function in snapshots (n × n values).
constexpr int kGridSize = 60;
// isValid() checks the grammar of a kernel list before the data is known: it parses with a
// dimension just large enough for the feature indices the text names, but never beyond this
// (a range up to 10⁹ would otherwise be expanded into a billion indices). The construction
// checks the list again against the real dimension.
constexpr long long kGrammarDimensionCap = 1000000;

// The largest integer written after an '@' in `text` (1 when there is none): the dimension
// that lets every feature index of the list pass, so that only the grammar is checked.
int dimensionNamedBy(const std::string& text) {
    long long largest = 1;
    bool inScope = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '@') {
            inScope = true;
        } else if (c == ';') {
            inScope = false;
        } else if (inScope && std::isdigit(static_cast<unsigned char>(c))) {
            long long value = 0;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
                value = std::min(value * 10 + (text[i] - '0'), kGrammarDimensionCap);
                ++i;
            }
            --i;
            largest = std::max(largest, value);
        }
    }
    return static_cast<int>(largest);
}

std::string classText(const Dataset& data, const std::vector<double>& classes) {
    std::vector<std::string> texts;
    for (double c : classes)
        texts.push_back(data.labelText(c));
    return joined(texts);
}

}  // namespace

std::shared_ptr<const Dataset> withPlusMinusLabels(const std::shared_ptr<const Dataset>& data,
                                                   const std::vector<double>& classes,
                                                   const char* owner) {
    if (!data) return data;
    bool already = true;
    for (Eigen::Index i = 0; i < data->labels.size() && already; ++i)
        already = data->labels(i) == -1.0 || data->labels(i) == 1.0;
    if (already && classes == std::vector<double>{-1.0, 1.0}) return data;
    auto copy = std::make_shared<Dataset>(*data);
    for (Eigen::Index i = 0; i < copy->labels.size(); ++i) {
        const double label = copy->labels(i);
        if (label == classes[0]) {
            copy->labels(i) = -1.0;
        } else if (label == classes[1]) {
            copy->labels(i) = 1.0;
        } else {
            throw std::invalid_argument(std::string(owner) + ": example " + std::to_string(i + 1) +
                                        " of '" + data->name + "' has label " +
                                        data->labelInMessage(label) +
                                        ", which the training set does not have");
        }
    }
    return copy;
}

// ---- KernelOptions ----

void KernelOptions::visit(OptionVisitor& v, const char* kernelKey, const char* kernelHelp) {
    v.text(kernelKey, kernels, kernelHelp);
    v.real("C", C, "box constraint of the SVM dual, 0 <= alpha_i <= C (> 0)");
    v.choice("normalize", normalize, {"none", "diagonal", "trace"},
             "scaling of each base kernel: none, unit diagonal, or mean diagonal 1 (trace)");
    v.real("cache_mb", cache_mb,
           "kernel cache budget in MB (>= 1): half for the base kernel (MKL: what the rows of Q "
           "leave)");
    v.real("kkt_tolerance", kkt_tolerance,
           "inner SMO stops when the maximal KKT violation is <= this (LIBSVM -e, > 0)");
    v.boolean("shrinking", shrinking, "SMO shrinking heuristic (LIBSVM -h)");
}

bool KernelOptions::isValid(const char* owner, std::string* why) const {
    KernelNormalization normalization;
    // Beyond 1e15 the primal C·Σ hinge and the dual's box lose all digits of the other terms.
    if (!require(std::isfinite(C) && C > 0, owner, "C", C, "must be a finite number > 0", why) ||
        !require(C <= 1e15, owner, "C", C, "must be <= 1e15", why) ||
        !requireText(parseNormalization(normalize, &normalization), owner, "normalize", normalize,
                     "must be one of none, diagonal, trace", why) ||
        !require(std::isfinite(cache_mb) && cache_mb >= 1, owner, "cache_mb", cache_mb,
                 "must be a finite number >= 1 (MB)", why) ||
        !require(std::isfinite(kkt_tolerance) && kkt_tolerance > 0, owner, "kkt_tolerance",
                 kkt_tolerance, "must be a finite number > 0", why)) {
        return false;
    }
    std::vector<KernelSpec> specs;
    std::string reason;
    if (!parseKernelList(kernels, dimensionNamedBy(kernels), &specs, &reason)) {
        if (why)
            *why =
                std::string(owner) + ": kernel list " + quotedKernelText(kernels) + ": " + reason;
        return false;
    }
    return true;
}

// ---- D(β) by an independent solve ----

double evaluateMklObjective(const KernelSetup& setup, const Eigen::VectorXd& beta,
                            const CancelToken* cancel) {
    if (!setup.train) throw std::invalid_argument("evaluateMklObjective: no training set");
    if (beta.size() != static_cast<Eigen::Index>(setup.specs.size())) {
        throw std::invalid_argument("evaluateMklObjective: " + std::to_string(beta.size()) +
                                    " weights for " + std::to_string(setup.specs.size()) +
                                    " kernels");
    }
    const double half = std::max(1.0, 0.5 * setup.cacheMb);
    KernelSet kernels(setup.train, setup.specs, setup.normalization, half);
    KernelQ q(kernels, setup.train->labels, beta, half);
    Smo smo(q, SmoOptions{setup.C, setup.tolerance, true});
    smo.run(0, cancel);
    return smo.dualObjective();
}

Eigen::VectorXd carriedAlpha(const Eigen::VectorXd& previousAlpha,
                             const std::vector<int>& previousIndex, const Eigen::VectorXd& y,
                             double C) {
    Eigen::VectorXd alpha = Eigen::VectorXd::Zero(y.size());
    double positive = 0.0, negative = 0.0;
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const int j = previousIndex[static_cast<std::size_t>(i)];
        if (j < 0 || j >= previousAlpha.size()) continue;
        alpha[i] = std::clamp(previousAlpha[j], 0.0, C);
        (y[i] > 0 ? positive : negative) += alpha[i];
    }
    // Scale the class of the larger sum down to the other's.
    const double larger = std::max(positive, negative);
    if (larger > 0 && positive != negative) {
        const double keep = std::min(positive, negative) / larger;
        const double side = positive > negative ? 1.0 : -1.0;
        for (Eigen::Index i = 0; i < y.size(); ++i) {
            if (y[i] * side > 0) alpha[i] *= keep;
        }
    }
    return alpha;
}

void startFromBestMultiple(Smo& smo, const Eigen::VectorXd& alpha) {
    smo.setAlpha(alpha);
    // ∇f = Qα − e, so αᵀQα = αᵀ(∇f + e).
    const double curvature = alpha.dot((smo.gradient().array() + 1.0).matrix());
    const double sum = alpha.sum();
    if (curvature > 0 && sum < curvature) smo.setAlpha(alpha * (sum / curvature));
}

bool KernelSvmSolver::warmCompatible(const KernelSvmSolver& previous,
                                     const std::vector<int>& previousIndex,
                                     std::string* why) const {
    auto fail = [why](const std::string& text) {
        if (why) *why = text;
        return false;
    };
    if (!valid() || !previous.valid()) return fail("a run was refused");
    if (iteration() != 0) return fail("the new run has already taken a step");
    if (previousIndex.size() != static_cast<std::size_t>(problem_.train->size()))
        return fail("the example correspondence does not fit the training set");
    if (previous.kernels_->kernels() != kernels_->kernels()) {
        return fail(std::to_string(kernels_->kernels()) + " kernels now, " +
                    std::to_string(previous.kernels_->kernels()) + " before");
    }
    return true;
}

Eigen::VectorXd mklPlane(KernelSet& kernels, const Eigen::VectorXd& alpha,
                         const std::vector<char>* wanted, std::vector<Eigen::VectorXd>* products) {
    // v = Y α; vᵀ K_k v from the upper triangle of the support vectors' rows (contiguous
    // reads: 200 kernels on 400 examples stored in float take a few ms).
    const Eigen::VectorXd v = alpha.cwiseProduct(kernels.train().labels);
    std::vector<int> sv;
    for (Eigen::Index i = 0; i < alpha.size(); ++i)
        if (alpha[i] > 0) sv.push_back(static_cast<int>(i));
    const double sum = alpha.sum();
    Eigen::VectorXd S(kernels.kernels());
    if (kernels.pairMajor() && !products) {
        // All kernels in one pass over the support's pairs.
        return (sum - 0.5 * kernels.quadratics(v, sv).array()).matrix();
    }
    // Over value classes vᵀ K_k v = wᵀ K_classes w, w the sums of v over each class: one w per
    // class group (kernels over the same feature share it).
    std::vector<Eigen::VectorXd> classSums;
    if (products) products->assign(static_cast<std::size_t>(kernels.kernels()), Eigen::VectorXd());
    for (int k = 0; k < kernels.kernels(); ++k) {
        if (products && wanted && (*wanted)[static_cast<std::size_t>(k)]) {
            Eigen::VectorXd& product = (*products)[static_cast<std::size_t>(k)];
            product = Eigen::VectorXd::Zero(alpha.size());
            kernels.addProduct(k, 1.0, v, sv, product.data());
            S[k] = sum - 0.5 * v.dot(product);
            continue;
        }
        const int group = kernels.classGroup(k);
        if (group < 0) {
            S[k] = sum - 0.5 * kernels.quadratic(k, v, sv);
            continue;
        }
        const Eigen::MatrixXd& matrix = kernels.classMatrix(k);
        if (group >= static_cast<int>(classSums.size())) classSums.resize(group + 1);
        Eigen::VectorXd& w = classSums[group];
        if (w.size() == 0) {
            const std::vector<int>& classOf = kernels.classOf(k);
            w = Eigen::VectorXd::Zero(matrix.rows());
            for (const int i : sv)
                w[classOf[static_cast<std::size_t>(i)]] += v[i];
        }
        S[k] = sum - 0.5 * w.dot(matrix * w);
    }
    return S;
}

// ---- KernelSnapshot ----

std::size_t KernelSnapshot::bytes() const {
    std::size_t n = Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot);
    for (const std::string& label : kernelLabels)
        n += sizeof(std::string) + label.capacity();
    n += sizeof(double) * static_cast<std::size_t>(beta.size() + alpha.size() + lpMinimiser.size());
    n += grid.heapBytes();
    for (const Eigen::VectorXd& v : planes)
        n += sizeof(Eigen::VectorXd) + sizeof(double) * static_cast<std::size_t>(v.size());
    for (const Eigen::VectorXd& v : betaIterates)
        n += sizeof(Eigen::VectorXd) + sizeof(double) * static_cast<std::size_t>(v.size());
    n += sizeof(double) * dValues.capacity();
    if (classifier) {
        // The snapshot owns its classifier (built for it alone).
        const KernelClassifier& c = *classifier;
        n += sizeof(KernelClassifier) +
             sizeof(double) * static_cast<std::size_t>(c.beta.size() + c.coefficients.size()) +
             sizeof(int) * c.serials.capacity() + sizeof(double) * c.scales.capacity();
        const Dataset& sv = c.supportVectors;
        n += sv.sparseStorage
                 ? static_cast<std::size_t>(sv.sparse.nonZeros()) * (sizeof(double) + sizeof(int))
                 : sizeof(double) * static_cast<std::size_t>(sv.dense.size());
    }
    return n;
}

// ---- KernelSvmSolver ----

namespace {

// Why the training set's label values do not make a binary problem ("" when they do).
std::string classesError(const Dataset& train, const std::vector<double>& classes,
                         const char* owner) {
    if (classes.size() < 2) {
        return std::string(owner) + ": the training set '" + train.name +
               "' has only one class (label " + train.labelInMessage(classes.front()) +
               "); an SVM needs examples of two classes";
    }
    if (classes.size() > 2) {
        return std::string(owner) + ": the training set '" + train.name + "' has " +
               std::to_string(classes.size()) + " classes (" + classText(train, classes) +
               "); the kernel solvers are binary classifiers and need exactly two label values";
    }
    return {};
}

// The kernel list on the training set into `specs`; why not ("" when it parses, and is one
// kernel for a single-kernel solver).
std::string readKernelList(const std::string& kernels, const Dataset& train, bool singleKernel,
                           const char* owner, std::vector<KernelSpec>& specs) {
    std::string why;
    if (!parseKernelList(kernels, train.dimension(), &specs, &why)) {
        return std::string(owner) + ": kernel list " + quotedKernelText(kernels) + " on '" +
               train.name + "' (" + std::to_string(train.dimension()) + " features): " + why;
    }
    if (singleKernel && specs.size() > 1) {
        return std::string(owner) + ": kernel list " + quotedKernelText(kernels) + " is " +
               std::to_string(specs.size()) +
               " kernels; this solver takes one kernel; silp or simplemkl learn a combination";
    }
    return {};
}

// The test set made to fit the training set: a precomputed test row holds a kernel value per
// training example; otherwise it may have fewer features (padded), not more; its labels are
// mapped to ±1 as the training set's. Returns why it does not fit ("" when it does).
std::string fitTestSet(std::shared_ptr<const Dataset>& test, const Dataset& train,
                       const std::vector<double>& classes, bool precomputed, const char* owner) {
    const int need = precomputed ? train.size() : train.dimension();
    const int have = test->dimension();
    if (precomputed ? have != need : have > need) {
        return std::string(owner) + ": the test set '" + test->name + "' has " +
               std::to_string(have) + (precomputed ? " kernel columns" : " features") +
               ", the training set " + std::to_string(need) +
               (precomputed ? " examples (a precomputed test row holds K(z, x_j) for every "
                              "training example x_j)"
                            : " features (a test set may have fewer, not more)");
    }
    try {
        auto fitted = withPlusMinusLabels(test, classes, owner);
        if (!precomputed && have < need) {
            auto padded = std::make_shared<Dataset>(*fitted);
            padded->setDimension(need);
            fitted = padded;
        }
        test = fitted;
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

KernelSvmSolver::KernelSvmSolver(const KernelProblem& problem, const KernelOptions& options,
                                 const StopOptions& stop, const char* owner, bool singleKernel)
    : Solver(stop), problem_(problem), options_(options) {
    std::string why;
    if (!problem_.train) {
        reject(std::string(owner) + ": no training set given");
        return;
    }
    const Dataset& train = *problem_.train;
    if (train.size() == 0) {
        reject(std::string(owner) + ": the training set '" + train.name + "' has no examples");
        return;
    }
    if (!stop.isValid(owner, &why) || !options_.isValid(owner, &why)) {
        reject(why);
        return;
    }
    classes_ = train.classes();
    std::vector<KernelSpec> specs;
    why = classesError(train, classes_, owner);
    if (why.empty()) why = readKernelList(options_.kernels, train, singleKernel, owner, specs);
    if (!why.empty()) {
        reject(why);
        return;
    }
    const bool precomputed = specs.front().type == KernelType::Precomputed;
    KernelNormalization normalization = KernelNormalization::None;
    parseNormalization(options_.normalize, &normalization);
    try {
        problem_.train = withPlusMinusLabels(problem_.train, classes_, owner);
        // KernelSet checks the kernels against the data (a precomputed matrix's size and
        // symmetry, feature indices).
        // MKL's kernels may be stored in float when double does not fit (kernel_set.h), in
        // what Q's rows leave of cache_mb; one kernel in half of it.
        const int m = problem_.train->size();
        kernels_ = std::make_unique<KernelSet>(
            problem_.train, specs, normalization,
            singleKernel ? std::max(1.0, 0.5 * options_.cache_mb)
                         : mklKernelCacheMb(options_.cache_mb, m),
            singleKernel ? KernelPrecision::Double : KernelPrecision::Compact);
    } catch (const std::exception& e) {
        kernels_.reset();
        reject(std::string(owner) + ": " + e.what());
        return;
    }
    if (problem_.test) {
        why = fitTestSet(problem_.test, train, classes_, precomputed, owner);
        if (!why.empty()) {
            kernels_.reset();
            reject(why);
            return;
        }
    }
    specs_ = std::move(specs);
    auto setup = std::make_shared<KernelSetup>();
    setup->train = problem_.train;
    setup->specs = specs_;
    setup->normalization = normalization;
    setup->C = options_.C;
    setup->tolerance = options_.kkt_tolerance;
    setup->cacheMb = options_.cache_mb;
    setup_ = std::move(setup);
}

std::vector<std::string> KernelSvmSolver::extraColumns() const {
    std::vector<std::string> columns = {"dual_objective", "kkt_violation",   "svm_calls",
                                        "smo_iterations", "support_vectors", "train_error",
                                        "test_error"};
    for (const KernelSpec& spec : specs_)
        columns.push_back("beta:" + spec.label());
    return columns;
}

std::vector<double> KernelSvmSolver::previousExtrasWithCounts() const {
    std::vector<double> extra = lastRecord().extra;
    if (extra.size() > 3) {  // svm_calls and smo_iterations are the third and fourth columns
        extra[2] = static_cast<double>(svmCalls_);
        extra[3] = static_cast<double>(smoIterations_);
    }
    return extra;
}

std::vector<double> KernelSvmSolver::commonExtras(double dualObjective, double kktViolation,
                                                  const Eigen::VectorXd* trainScores,
                                                  bool testDue) {
    const KernelClassifier model = classifier();
    const int m = problem_.train->size();
    Eigen::VectorXd rowScores;
    if (!trainScores) {
        // f(xᵢ) = Σ_s c_s Σ_k β_k K_k(x_s, xᵢ) + b from the kernel rows of the support vectors
        // (cached by the KernelSet): no kernel evaluation when the rows are cached.
        rowScores = Eigen::VectorXd::Constant(m, model.bias);
        for (std::size_t s = 0; s < model.serials.size(); ++s) {
            const double c = model.coefficients[static_cast<Eigen::Index>(s)];
            for (int k = 0; k < kernels_->kernels(); ++k) {
                const double w = c * model.beta[k];
                if (w == 0.0) continue;
                const double* row = kernels_->row(k, model.serials[s]);
                for (int i = 0; i < m; ++i)
                    rowScores[i] += w * row[i];
            }
        }
        trainScores = &rowScores;
    }
    const Eigen::VectorXd& f = *trainScores;
    int wrong = 0;
    for (int i = 0; i < m; ++i)
        wrong += (f[i] > 0) != (problem_.train->labels[i] > 0);
    lastTrainError_ = static_cast<double>(wrong) / m;
    // The test labels are mapped to ±1 like the training labels: compare signs.
    if (testDue && problem_.test) {
        const Eigen::VectorXd g = model.decisions(*problem_.test);
        int testWrong = 0;
        for (int i = 0; i < problem_.test->size(); ++i)
            testWrong += (g[i] > 0) != (problem_.test->labels[i] > 0);
        lastTestError_ =
            problem_.test->size() ? static_cast<double>(testWrong) / problem_.test->size() : 0.0;
    } else if (testDue) {
        lastTestError_ = -1.0;
    }

    std::vector<double> extras = {dualObjective,
                                  kktViolation,
                                  static_cast<double>(svmCalls_),
                                  static_cast<double>(smoIterations_),
                                  static_cast<double>(model.serials.size()),
                                  lastTrainError_,
                                  lastTestError_};
    const Eigen::VectorXd beta = weights();
    for (Eigen::Index k = 0; k < beta.size(); ++k)
        extras.push_back(beta[k]);
    return extras;
}

void KernelSvmSolver::fillKernelSnapshot(KernelSnapshot& snapshot) const {
    fillSnapshot(snapshot);
    if (!valid()) return;
    snapshot.setup = setup_;
    for (const KernelSpec& spec : specs_)
        snapshot.kernelLabels.push_back(spec.label());
    auto model = std::make_shared<KernelClassifier>(classifier());
    snapshot.beta = model->beta;
    snapshot.alpha = Eigen::VectorXd::Zero(problem_.train->size());
    for (std::size_t s = 0; s < model->serials.size(); ++s)
        snapshot.alpha[model->serials[s]] =
            std::abs(model->coefficients[static_cast<Eigen::Index>(s)]);
    snapshot.bias = model->bias;
    snapshot.trainError = lastTrainError_;
    snapshot.testError = lastTestError_;
    if (problem_.train->dimension() == 2 && specs_.front().type != KernelType::Precomputed)
        snapshot.grid = decisionGrid(*model, *problem_.train, kGridSize);
    snapshot.classifier = std::move(model);
}

void KernelSvmSolver::noteKernelChanges(const Eigen::VectorXd& before,
                                        const Eigen::VectorXd& after) {
    const auto active = [](const Eigen::VectorXd& beta) {
        std::vector<bool> flags;
        for (Eigen::Index k = 0; k < beta.size(); ++k)
            flags.push_back(beta[k] > kZeroKernelWeight);
        return flags;
    };
    std::vector<std::string> labels;
    for (const KernelSpec& spec : specs_)
        labels.push_back(spec.label());
    noteEvents(activeSetEvents(active(before), active(after),
                               std::vector<double>(after.data(), after.data() + after.size()),
                               labels, "kernel", "beta"));
}

KernelClassifier KernelSvmSolver::makeClassifier(const Eigen::VectorXd& alpha, double bias,
                                                 const Eigen::VectorXd& beta) const {
    KernelClassifier model;
    model.specs = specs_;
    model.normalization = kernels_->normalization();
    for (int k = 0; k < kernels_->kernels(); ++k)
        model.scales.push_back(kernels_->scale(k));
    model.beta = beta;
    model.bias = bias;
    model.classes = classes_;
    const Dataset& train = *problem_.train;
    const bool precomputed = specs_.front().type == KernelType::Precomputed;
    model.features = precomputed ? train.size() : train.dimension();
    std::vector<double> coefficients;
    for (Eigen::Index i = 0; i < alpha.size(); ++i) {
        if (alpha[i] > 0) {
            model.serials.push_back(static_cast<int>(i));
            coefficients.push_back(alpha[i] * train.labels[i]);
        }
    }
    model.coefficients = Eigen::Map<const Eigen::VectorXd>(
        coefficients.data(), static_cast<Eigen::Index>(coefficients.size()));
    if (!precomputed) model.supportVectors = train.subset(model.serials);
    return model;
}

SummaryFields KernelSvmSolver::summary() const {
    if (!valid()) return {};
    NamedValues weightsByLabel;
    const Eigen::VectorXd beta = weights();
    for (std::size_t k = 0; k < specs_.size(); ++k)
        weightsByLabel.emplace_back(specs_[k].label(), beta[static_cast<Eigen::Index>(k)]);
    SummaryFields fields = {
        {"weights", weightsByLabel},
        {"objective", lastRecord().upper},
        {"svm_calls", svmCalls_},
        {"smo_iterations", smoIterations_},
        {"support_vectors", static_cast<long long>(classifier().serials.size())},
        {"train_error", lastTrainError_}};
    if (problem_.test) fields.emplace_back("test_error", lastTestError_);
    fields.emplace_back("C", options_.C);
    fields.emplace_back("kernels", options_.kernels);
    for (auto& f : familySummary())
        fields.push_back(std::move(f));
    return fields;
}

}  // namespace cplab
