// SPDX-License-Identifier: GPL-3.0-or-later
#include "libsvm_solver.h"

#include <libsvm/svm.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/number_text.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "LibsvmOptions";
// Beyond this many examples the precomputed route (m² kernel values) is refused.
constexpr int kMaxPrecomputedExamples = 20000;

// LIBSVM reports its iteration count only through its print function, which is global. Each
// thread collects what its own svm_train prints.
thread_local std::string* tCapture = nullptr;
void captureLibsvmOutput(const char* text) {
    if (tCapture) tCapture->append(text);
}
void installPrintFunction() {
    static std::once_flag once;
    std::call_once(once, [] { svm_set_print_string_function(&captureLibsvmOutput); });
}

long long iterationsFrom(const std::string& output) {
    const auto at = output.rfind("#iter = ");
    if (at == std::string::npos) return 0;
    return std::atoll(output.c_str() + at + 8);
}

// LIBSVM's sparse rows: (index, value) pairs with 1-based indices, ended by index −1. All the
// nodes live in one buffer.
struct LibsvmRows {
    std::vector<svm_node> nodes;
    std::vector<svm_node*> rows;
    std::vector<double> labels;
};

LibsvmRows nativeRows(const Dataset& data) {
    LibsvmRows out;
    const int m = data.size();
    out.nodes.reserve(static_cast<std::size_t>(data.nonZeros()) + static_cast<std::size_t>(m));
    std::vector<std::size_t> starts;
    starts.reserve(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
        starts.push_back(out.nodes.size());
        if (data.sparseStorage) {
            for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it)
                out.nodes.push_back({static_cast<int>(it.col()) + 1, it.value()});
        } else {
            for (int j = 0; j < data.dimension(); ++j) {
                const double v = data.dense(i, j);
                if (v != 0.0) out.nodes.push_back({j + 1, v});
            }
        }
        out.nodes.push_back({-1, 0.0});
    }
    for (std::size_t start : starts)
        out.rows.push_back(out.nodes.data() + start);
    out.labels.assign(data.labels.data(), data.labels.data() + m);
    return out;
}

// Precomputed rows "0:serial 1:K(i,1) … m:K(i,m)" from the KernelSet's normalised kernel.
LibsvmRows precomputedRows(KernelSet& kernels) {
    const int m = kernels.examples();
    if (m > kMaxPrecomputedExamples) {
        throw std::invalid_argument(
            "libsvm: this kernel needs LIBSVM's precomputed route, which "
            "holds m² values; " +
            std::to_string(m) + " examples is beyond its limit of " +
            std::to_string(kMaxPrecomputedExamples));
    }
    LibsvmRows out;
    const std::size_t width = static_cast<std::size_t>(m) + 2;
    out.nodes.resize(width * static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
        svm_node* row = out.nodes.data() + width * static_cast<std::size_t>(i);
        const double* k = kernels.row(0, i);
        row[0] = {0, static_cast<double>(i + 1)};
        for (int j = 0; j < m; ++j)
            row[j + 1] = {j + 1, k[j]};
        row[m + 1] = {-1, 0.0};
        out.rows.push_back(row);
    }
    const Dataset& train = kernels.train();
    out.labels.assign(train.labels.data(), train.labels.data() + m);
    return out;
}

struct ModelDeleter {
    void operator()(svm_model* model) const { svm_free_and_destroy_model(&model); }
};
using ModelPtr = std::unique_ptr<svm_model, ModelDeleter>;

void checkArguments(const Dataset& train, double C, double tolerance, double cacheMb) {
    if (!(C > 0) || !(tolerance > 0) || !(cacheMb >= 1)) {
        throw std::invalid_argument("libsvm: needs C > 0, tolerance > 0 and cache_mb >= 1");
    }
    const int m = train.size();
    for (int i = 0; i < m; ++i) {
        if (train.labels[i] != 1.0 && train.labels[i] != -1.0) {
            throw std::invalid_argument("libsvm: labels must be -1/+1 (example " +
                                        std::to_string(i + 1) + " has " +
                                        formatReal(train.labels[i]) + ")");
        }
    }
}

svm_parameter baseParameters(double C, double tolerance, bool shrinking, double cacheMb) {
    svm_parameter param{};
    param.svm_type = C_SVC;
    param.C = C;
    param.eps = tolerance;
    param.cache_size = cacheMb;
    param.shrinking = shrinking ? 1 : 0;
    param.probability = 0;
    param.nr_weight = 0;
    param.degree = 3;
    param.gamma = 1.0;
    param.coef0 = 0.0;
    return param;
}

// LIBSVM's own kernels when they are exactly ours; otherwise its precomputed route with our
// normalised values. Sets the kernel of `param` and returns the rows to train on.
LibsvmRows kernelRows(const Dataset& train, const KernelSpec& spec,
                      KernelNormalization normalization, KernelSet& kernels, svm_parameter& param) {
    const bool identity = normalization == KernelNormalization::None ||
                          (spec.type == KernelType::Gaussian && spec.features.empty());
    const bool native = identity && spec.features.empty() && spec.type != KernelType::Precomputed;
    if (!native) {
        param.kernel_type = PRECOMPUTED;
        return precomputedRows(kernels);
    }
    switch (spec.type) {
        case KernelType::Linear:
            param.kernel_type = LINEAR;
            break;
        case KernelType::Polynomial:
            param.kernel_type = POLY;
            param.degree = spec.degree;
            param.coef0 = spec.offset;
            break;
        case KernelType::Gaussian:
            param.kernel_type = RBF;
            param.gamma = spec.gamma;
            break;
        case KernelType::Precomputed:
            break;
    }
    return nativeRows(train);
}

// svm_train, with what it prints (for its iteration count) and its time.
ModelPtr trainModel(const svm_problem& problem, const svm_parameter& param, std::string& output,
                    double& seconds) {
    installPrintFunction();
    tCapture = &output;
    const auto start = std::chrono::steady_clock::now();
    ModelPtr model(svm_train(&problem, &param));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tCapture = nullptr;
    if (!model || model->nr_class != 2) {
        throw std::invalid_argument("libsvm: training needs examples of both classes");
    }
    return model;
}

// α, the bias and D(α) of LIBSVM's model.
LibsvmResult resultOf(const svm_model& model, int m, KernelSet& kernels) {
    // LIBSVM's decision is Σ sv_coef K − ρ for its first label (the first one in the data).
    const double sign = model.label[0] == 1 ? 1.0 : -1.0;
    LibsvmResult result;
    result.alpha = Eigen::VectorXd::Zero(m);
    result.bias = -sign * model.rho[0];
    result.supportVectors = model.l;
    std::vector<int> svs;
    std::vector<double> coefficients;
    for (int s = 0; s < model.l; ++s) {
        const int i = model.sv_indices[s] - 1;
        const double c = sign * model.sv_coef[0][s];  // αᵢ yᵢ
        result.alpha[i] = std::abs(c);
        svs.push_back(i);
        coefficients.push_back(c);
    }
    // D(α) = Σα − ½ Σᵢⱼ cᵢ cⱼ K(i, j), in double from the same normalised kernel.
    double quadratic = 0.0;
    for (std::size_t a = 0; a < svs.size(); ++a) {
        const double* row = kernels.row(0, svs[a]);
        double inner = 0.0;
        for (std::size_t b = 0; b < svs.size(); ++b)
            inner += coefficients[b] * row[svs[b]];
        quadratic += coefficients[a] * inner;
    }
    result.dualObjective = result.alpha.sum() - 0.5 * quadratic;
    return result;
}

}  // namespace

LibsvmResult solveWithLibsvm(const Dataset& train, const KernelSpec& spec,
                             KernelNormalization normalization, double C, double tolerance,
                             bool shrinking, double cacheMb) {
    checkArguments(train, C, tolerance, cacheMb);
    const int m = train.size();
    // The shared training set for the KernelSet (not copied: the deleter does nothing).
    std::shared_ptr<const Dataset> trainRef(&train, [](const Dataset*) {});
    KernelSet kernels(trainRef, {spec}, normalization, cacheMb);

    svm_parameter param = baseParameters(C, tolerance, shrinking, cacheMb);
    LibsvmRows rows = kernelRows(train, spec, normalization, kernels, param);
    svm_problem problem{};
    problem.l = m;
    problem.y = rows.labels.data();
    problem.x = rows.rows.data();
    if (const char* error = svm_check_parameter(&problem, &param)) {
        throw std::invalid_argument(std::string("libsvm: ") + error);
    }

    std::string output;
    double seconds = 0.0;
    const ModelPtr model = trainModel(problem, param, output, seconds);
    LibsvmResult result = resultOf(*model, m, kernels);
    result.iterations = iterationsFrom(output);
    result.trainSeconds = seconds;
    return result;
}

// ---- LibsvmOptions and the solver ----

void LibsvmOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    kernel.visit(v, "kernel", "one kernel: linear, poly:d[,c] or gaussian:gamma (LIBSVM's own)");
}

bool LibsvmOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && kernel.isValid(kOwner, why);
}

namespace {

enum Line { kInput, kTrain, kReadBack, kReport };

}  // namespace

LibsvmSolver::LibsvmSolver(const KernelProblem& problem, LibsvmOptions options)
    : KernelSvmSolver(problem, options.kernel, options.stop, kOwner, /*singleKernel=*/true),
      libsvmOptions_(std::move(options)) {
    if (!valid()) return;
    IterationRecord initial;
    initial.extra = commonExtras(0.0, std::numeric_limits<double>::quiet_NaN());
    setInitialRecord(initial);
}

std::vector<std::string> LibsvmSolver::pseudocode() const {
    return {"input: kernel K, C, tolerance eps, labels y",
            "svm_train (LIBSVM's SMO with WSS2 and shrinking, in one call)",
            "read back alpha, b = -rho, support vectors",
            "report primal and dual objective, errors"};
}

Status LibsvmSolver::doStep(IterationRecord& record) {
    const Dataset& train = *problem_.train;
    result_ = solveWithLibsvm(train, specs_.front(), kernels_->normalization(), options_.C,
                              options_.kkt_tolerance, options_.shrinking, options_.cache_mb);
    svmCalls_ = 1;
    smoIterations_ = result_->iterations;

    // Scores f(xᵢ) − b = Σⱼ αⱼ yⱼ K(j, i) from the support vectors' rows, for the primal
    // objective and the KKT violation.
    const int m = train.size();
    Eigen::VectorXd scores = Eigen::VectorXd::Zero(m);
    for (int j = 0; j < m; ++j) {
        if (result_->alpha[j] == 0.0) continue;
        const double c = result_->alpha[j] * train.labels[j];
        const double* row = kernels_->row(0, j);
        for (int i = 0; i < m; ++i)
            scores[i] += c * row[i];
    }
    double hinge = 0.0;
    double up = -std::numeric_limits<double>::infinity();
    double low = std::numeric_limits<double>::infinity();
    for (int i = 0; i < m; ++i) {
        const double y = train.labels[i];
        hinge += std::max(0.0, 1.0 - y * (scores[i] + result_->bias));
        // −yᵢ∇ᵢf with ∇f = Qα − e: −yᵢ(yᵢ scoresᵢ − 1) = yᵢ − scoresᵢ.
        const double v = y - scores[i];
        const double a = result_->alpha[i];
        const bool inUp = (y > 0 && a < options_.C) || (y < 0 && a > 0);
        const bool inLow = (y > 0 && a > 0) || (y < 0 && a < options_.C);
        if (inUp) up = std::max(up, v);
        if (inLow) low = std::min(low, v);
    }
    const double quadratic = 2.0 * (result_->alpha.sum() - result_->dualObjective);
    const double primal = 0.5 * quadratic + options_.C * hinge;
    const double violation = std::max(0.0, up - low);

    record.oracleCalls = 1;
    record.upper = primal;
    record.lower = result_->dualObjective;
    record.extra = commonExtras(result_->dualObjective, violation);
    return Status::make(StatusCode::Converged,
                        "LIBSVM finished after " + std::to_string(result_->iterations) +
                            " iterations (maximal KKT violation " + formatReal(violation) + ")");
}

KernelClassifier LibsvmSolver::classifier() const {
    if (!result_)
        return makeClassifier(Eigen::VectorXd::Zero(problem_.train->size()), 0.0,
                              Eigen::VectorXd::Ones(1));
    return makeClassifier(result_->alpha, result_->bias, Eigen::VectorXd::Ones(1));
}

SnapshotPtr LibsvmSolver::snapshot() const {
    auto snapshot = std::make_shared<KernelSnapshot>();
    fillKernelSnapshot(*snapshot);
    snapshot->executedLines =
        result_ ? std::vector<int>{kTrain, kReadBack, kReport} : std::vector<int>{kInput};
    return snapshot;
}

}  // namespace cplab
