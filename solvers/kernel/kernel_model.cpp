// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "data/data_error.h"
#include "data/text_io.h"
#include "kernel_set.h"

namespace cplab {

namespace {

bool isPrecomputed(const KernelClassifier& model) {
    return model.specs.size() == 1 && model.specs[0].type == KernelType::Precomputed;
}

// Number of support vectors, checking that the model's parts agree (a hand-built model may
// not): K specs, weights and scales; n coefficients and support vectors (or serials).
int checkedSupportVectors(const KernelClassifier& model) {
    const std::size_t k = model.specs.size();
    if (k == 0) throw std::invalid_argument("kernel model: no kernel");
    if (static_cast<std::size_t>(model.beta.size()) != k || model.scales.size() != k) {
        throw std::invalid_argument("kernel model: " + std::to_string(k) + " kernels but " +
                                    std::to_string(model.beta.size()) + " weights and " +
                                    std::to_string(model.scales.size()) + " scales");
    }
    const bool precomputed = isPrecomputed(model);
    const long long n = precomputed ? static_cast<long long>(model.serials.size())
                                    : static_cast<long long>(model.supportVectors.size());
    if (model.coefficients.size() != n) {
        throw std::invalid_argument("kernel model: " + std::to_string(n) + " support vectors but " +
                                    std::to_string(model.coefficients.size()) + " coefficients");
    }
    if (precomputed) {
        for (int s : model.serials) {
            if (s < 0 || s >= model.features) {
                throw std::invalid_argument("kernel model: support vector serial " +
                                            std::to_string(s + 1) + " outside 1.." +
                                            std::to_string(model.features));
            }
        }
        if (model.normalization == KernelNormalization::Diagonal) {
            // k(z, z) of a test example is not in its precomputed row.
            throw std::invalid_argument(
                "kernel model: a precomputed kernel cannot be evaluated with the diagonal "
                "normalisation (a precomputed row does not hold k(z, z)); use none or trace");
        }
    } else if (model.supportVectors.size() > 0 &&
               model.supportVectors.dimension() != model.features) {
        throw std::invalid_argument("kernel model: support vectors of dimension " +
                                    std::to_string(model.supportVectors.dimension()) +
                                    " but features " + std::to_string(model.features));
    }
    return static_cast<int>(n);
}

// Evaluates f over the examples of one dataset: the support vectors' own kernel values
// k(xⱼ, xⱼ) (for the diagonal normalisation) are computed once.
class Evaluator {
  public:
    Evaluator(const KernelClassifier& model, const Dataset& data)
        : model_(model), n_(checkedSupportVectors(model)), data_(&data) {
        if (isPrecomputed(model)) {
            if (data.dimension() != model.features) {
                throw DataError(data.source, 0,
                                "the precomputed kernel rows have " +
                                    std::to_string(data.dimension()) +
                                    " columns but the model was trained on " +
                                    std::to_string(model.features) + " examples");
            }
        } else if (data.dimension() != model.features) {
            if (data.dimension() > model.features) {
                throw DataError(data.source, 0,
                                "the data have " + std::to_string(data.dimension()) +
                                    " features but the model only " +
                                    std::to_string(model.features));
            }
            // Features the data never mention are zero (LIBSVM files end early).
            padded_ = data;
            padded_.setDimension(model.features);
            data_ = &padded_;
        }
        if (model.normalization == KernelNormalization::Diagonal) {
            svSelf_.assign(model.specs.size(), std::vector<double>(static_cast<std::size_t>(n_)));
            for (std::size_t k = 0; k < model.specs.size(); ++k) {
                if (model.beta(static_cast<Eigen::Index>(k)) == 0.0) continue;
                for (int j = 0; j < n_; ++j) {
                    svSelf_[k][static_cast<std::size_t>(j)] = kernelValue(
                        model.specs[k], model.supportVectors, j, model.supportVectors, j);
                }
            }
        }
    }

    double operator()(int i) const {
        const Dataset& z = *data_;
        double f = model_.bias;
        for (std::size_t k = 0; k < model_.specs.size(); ++k) {
            const double beta = model_.beta(static_cast<Eigen::Index>(k));
            if (beta == 0.0) continue;
            const KernelSpec& spec = model_.specs[k];
            double sum = 0.0;
            if (spec.type == KernelType::Precomputed) {
                for (int j = 0; j < n_; ++j) {
                    sum += model_.coefficients(j) *
                           kernelValue(spec, z, i, z, model_.serials[static_cast<std::size_t>(j)]);
                }
            } else if (model_.normalization == KernelNormalization::Diagonal) {
                const double zz = kernelValue(spec, z, i, z, i);
                for (int j = 0; j < n_; ++j) {
                    const double norm = std::sqrt(svSelf_[k][static_cast<std::size_t>(j)] * zz);
                    // A zero vector under a linear kernel: k(x, ·) = 0, and so is its
                    // normalised value.
                    if (!(norm > 0)) continue;
                    sum += model_.coefficients(j) *
                           kernelValue(spec, model_.supportVectors, j, z, i) / norm;
                }
            } else {
                for (int j = 0; j < n_; ++j)
                    sum +=
                        model_.coefficients(j) * kernelValue(spec, model_.supportVectors, j, z, i);
            }
            if (model_.normalization == KernelNormalization::Trace) sum *= model_.scales[k];
            f += beta * sum;
        }
        return f;
    }

    int size() const { return data_->size(); }

  private:
    const KernelClassifier& model_;
    int n_;
    const Dataset* data_;
    Dataset padded_;
    std::vector<std::vector<double>> svSelf_;  // [k][j] = k_k(xⱼ, xⱼ), diagonal only
};

// The label of example i as ±1 in the model's classes: a label equal to one of the two class
// values, or — for data whose labels were already mapped to ±1 (Dataset::makeBinaryLabels,
// which records the old values in classNames) — the mapped value when the recorded text is
// the model's class value.
double signedLabel(const KernelClassifier& model, const Dataset& data, int i) {
    const double label = data.labels(i);
    if (label == model.classes[1]) return 1.0;
    if (label == model.classes[0]) return -1.0;
    if ((label == 1.0 || label == -1.0) && data.classNames.size() == 2) {
        const std::size_t k = label > 0 ? 1 : 0;
        double recorded = 0.0;
        if (parseReal(data.classNames[k], recorded) == NumberError::None &&
            recorded == model.classes[k]) {
            return label;
        }
    }
    throw DataError(data.source, 0,
                    "example " + std::to_string(i + 1) + " has label " + data.labelText(label) +
                        ", which is neither of the model's classes " +
                        formatReal(model.classes[0]) + " and " + formatReal(model.classes[1]));
}

}  // namespace

double KernelClassifier::decision(const Dataset& data, int i) const {
    if (i < 0 || i >= data.size()) {
        throw std::out_of_range("KernelClassifier::decision: example " + std::to_string(i) +
                                " of " + std::to_string(data.size()));
    }
    return Evaluator(*this, data)(i);
}

Eigen::VectorXd KernelClassifier::decisions(const Dataset& data) const {
    const Evaluator f(*this, data);
    Eigen::VectorXd out(f.size());
    for (int i = 0; i < f.size(); ++i)
        out(i) = f(i);
    return out;
}

double KernelClassifier::error(const Dataset& data) const {
    if (classes.size() != 2) {
        throw std::invalid_argument("kernel model: " + std::to_string(classes.size()) +
                                    " class values; a binary classifier has two");
    }
    if (data.size() == 0) return 0.0;
    const Eigen::VectorXd f = decisions(data);
    long long wrong = 0;
    for (int i = 0; i < data.size(); ++i) {
        const double predicted = f(i) > 0 ? 1.0 : -1.0;
        if (predicted != signedLabel(*this, data, i)) ++wrong;
    }
    return static_cast<double>(wrong) / data.size();
}

DecisionGrid decisionGrid(const KernelClassifier& model, const Dataset& data, int n) {
    if (data.dimension() != 2 || data.size() == 0) {
        throw std::invalid_argument("decisionGrid: needs 2-D data with examples, got " +
                                    std::to_string(data.size()) + " examples of dimension " +
                                    std::to_string(data.dimension()));
    }
    if (n < 2) throw std::invalid_argument("decisionGrid: n = " + std::to_string(n) + " < 2");
    double lo[2] = {std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity()};
    double hi[2] = {-lo[0], -lo[1]};
    for (int i = 0; i < data.size(); ++i) {
        const Eigen::VectorXd x = data.row(i);
        for (int c = 0; c < 2; ++c) {
            lo[c] = std::min(lo[c], x(c));
            hi[c] = std::max(hi[c], x(c));
        }
    }
    for (int c = 0; c < 2; ++c) {
        // A flat box (all examples on one line) still gets a width.
        const double pad = 0.05 * (hi[c] > lo[c] ? hi[c] - lo[c] : std::max(1.0, std::abs(lo[c])));
        lo[c] -= pad;
        hi[c] += pad;
    }
    DecisionGrid grid;
    grid.x0 = lo[0];
    grid.x1 = hi[0];
    grid.y0 = lo[1];
    grid.y1 = hi[1];
    grid.n = n;
    Dataset points;
    points.name = "decision grid";
    points.source = data.source;
    points.dense.resize(static_cast<Eigen::Index>(n) * n, 2);
    points.labels = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n) * n);
    for (int iy = 0; iy < n; ++iy) {
        const double y = grid.y0 + iy * (grid.y1 - grid.y0) / (n - 1);
        for (int ix = 0; ix < n; ++ix) {
            const Eigen::Index row = static_cast<Eigen::Index>(iy) * n + ix;
            points.dense(row, 0) = grid.x0 + ix * (grid.x1 - grid.x0) / (n - 1);
            points.dense(row, 1) = y;
        }
    }
    const Eigen::VectorXd f = model.decisions(points);
    grid.values.assign(f.data(), f.data() + f.size());
    GridSamples samples;
    samples.x0 = grid.x0;
    samples.y0 = grid.y0;
    samples.dx = (grid.x1 - grid.x0) / (n - 1);
    samples.dy = (grid.y1 - grid.y0) / (n - 1);
    samples.nx = samples.ny = n;
    samples.values = grid.values;
    grid.zero = contourLevel(samples, 0.0);
    grid.margins = {contourLevel(samples, 1.0), contourLevel(samples, -1.0)};
    return grid;
}

std::size_t DecisionGrid::heapBytes() const {
    std::size_t n = sizeof(double) * values.capacity();
    n += sizeof(zero.segments[0]) * zero.segments.capacity();
    for (const ContourLevel& level : margins)
        n += sizeof(ContourLevel) + sizeof(level.segments[0]) * level.segments.capacity();
    return n;
}

// ---- the model file ----------------------------------------------------------------------

std::string formatKernelModel(const KernelClassifier& model) {
    const int n = checkedSupportVectors(model);
    const bool precomputed = isPrecomputed(model);
    std::string text = "# cplab kernel model\n";
    std::vector<std::string> labels;
    for (const auto& spec : model.specs)
        labels.push_back(spec.label());
    text += "kernels " + joined(labels, ";") + "\n";
    text += std::string("normalize ") + toString(model.normalization) + "\n";
    text += "scales";
    for (double s : model.scales)
        text += " " + formatReal(s);
    text += "\nbeta";
    for (Eigen::Index k = 0; k < model.beta.size(); ++k)
        text += " " + formatReal(model.beta(k));
    text += "\nbias " + formatReal(model.bias) + "\n";
    text += "classes";
    for (double c : model.classes)
        text += " " + formatReal(c);
    text += "\nfeatures " + std::to_string(model.features) + "\n";
    text += "support_vectors " + std::to_string(n) + "\n";
    for (int j = 0; j < n; ++j) {
        appendReal(text, model.coefficients(j));
        if (precomputed) {
            // LIBSVM's precomputed format numbers the training examples from 1.
            text += " 0:" + std::to_string(model.serials[static_cast<std::size_t>(j)] + 1);
        } else {
            const Dataset& sv = model.supportVectors;
            auto entry = [&text](int index, double value) {
                if (value == 0.0) return;
                text += " " + std::to_string(index + 1) + ":";
                appendReal(text, value);
            };
            if (sv.sparseStorage) {
                for (Dataset::SparseMatrix::InnerIterator it(sv.sparse, j); it; ++it)
                    entry(static_cast<int>(it.col()), it.value());
            } else {
                for (int c = 0; c < sv.dimension(); ++c)
                    entry(c, sv.dense(j, c));
            }
        }
        text += '\n';
    }
    return text;
}

namespace {

// A class value as LIBSVM's integer label; std::invalid_argument when it is not one.
std::string libsvmLabel(double value) {
    if (!(value == std::floor(value) && std::abs(value) < 2e9))
        throw std::invalid_argument(
            "LIBSVM's class labels are integers; this model has the class " + formatReal(value) +
            ": write the cplab model");
    return std::to_string(static_cast<long long>(value));
}

// The one kernel with β > 0, its index; std::invalid_argument when LIBSVM cannot express the
// combination.
std::size_t libsvmKernel(const KernelClassifier& model) {
    std::vector<std::string> used;
    std::size_t index = 0;
    for (std::size_t k = 0; k < model.specs.size(); ++k) {
        if (model.beta(static_cast<Eigen::Index>(k)) == 0.0) continue;
        used.push_back(model.specs[k].label());
        index = k;
    }
    if (used.size() != 1)
        throw std::invalid_argument("LIBSVM's model holds one kernel; this one combines " +
                                    std::to_string(used.size()) + " with weight beta > 0 (" +
                                    joined(used, ", ") +
                                    "): refit with a single kernel, or write the cplab model");
    const KernelSpec& spec = model.specs[index];
    if (!spec.features.empty())
        throw std::invalid_argument("LIBSVM's kernels use every feature; '" + spec.label() +
                                    "' uses a subset: write the cplab model");
    if (model.normalization == KernelNormalization::Diagonal && spec.type != KernelType::Gaussian)
        throw std::invalid_argument("LIBSVM has no diagonal normalisation of the kernel '" +
                                    spec.label() + "': write the cplab model");
    return index;
}

}  // namespace

std::string formatLibsvmModel(const KernelClassifier& model) {
    const int n = checkedSupportVectors(model);
    if (model.classes.size() != 2)
        throw std::invalid_argument("LIBSVM model: the model has " +
                                    std::to_string(model.classes.size()) +
                                    " classes; expected two");
    const std::size_t k = libsvmKernel(model);
    const KernelSpec& spec = model.specs[k];
    const double factor =
        model.beta(static_cast<Eigen::Index>(k)) *
        (model.normalization == KernelNormalization::Trace ? model.scales[k] : 1.0);
    std::string text = "svm_type c_svc\n";
    switch (spec.type) {
        case KernelType::Linear:
            text += "kernel_type linear\n";
            break;
        case KernelType::Polynomial:
            text += "kernel_type polynomial\ndegree " + std::to_string(spec.degree) +
                    "\ngamma 1\ncoef0 " + formatReal(spec.offset) + "\n";
            break;
        case KernelType::Gaussian:
            text += "kernel_type rbf\ngamma " + formatReal(spec.gamma) + "\n";
            break;
        case KernelType::Precomputed:
            text += "kernel_type precomputed\n";
            break;
    }
    // Support vectors of the first label (coefficient > 0, f > 0: classes[1]) first, as LIBSVM
    // groups them; a zero coefficient adds nothing and is left out.
    std::vector<int> order;
    for (int sign : {1, -1})
        for (int j = 0; j < n; ++j)
            if (model.coefficients(j) * sign > 0) order.push_back(j);
    const auto positives =
        std::count_if(order.begin(), order.end(), [&](int j) { return model.coefficients(j) > 0; });
    text += "nr_class 2\ntotal_sv " + std::to_string(order.size()) + "\nrho " +
            formatReal(-model.bias) + "\nlabel " + libsvmLabel(model.classes[1]) + " " +
            libsvmLabel(model.classes[0]) + "\nnr_sv " + std::to_string(positives) + " " +
            std::to_string(order.size() - static_cast<std::size_t>(positives)) + "\nSV\n";
    const Dataset& sv = model.supportVectors;
    for (int j : order) {
        appendReal(text, model.coefficients(j) * factor);
        if (spec.type == KernelType::Precomputed) {
            text += " 0:" + std::to_string(model.serials[static_cast<std::size_t>(j)] + 1);
        } else {
            const Eigen::VectorXd x = sv.row(j);
            for (Eigen::Index c = 0; c < x.size(); ++c) {
                if (x(c) == 0.0) continue;
                text += " " + std::to_string(c + 1) + ":";
                appendReal(text, x(c));
            }
        }
        text += '\n';
    }
    return text;
}

namespace {

// Blank-separated tokens of a key's value.
std::vector<std::string> tokensOf(std::string_view value) {
    std::vector<std::string> out;
    std::istringstream in{std::string(value)};
    std::string token;
    while (in >> token)
        out.push_back(token);
    return out;
}

// Reads a kernel model file in two passes: the lines (keys in any order, then the announced
// support vectors), then the checks that need every key (the kernel list against beta and
// scales, the support vectors' indices against features).
class KernelModelParser {
  public:
    KernelModelParser(const std::string& text, const std::string& sourceName)
        : reader_(text, sourceName), sourceName_(sourceName) {}

    KernelClassifier parse() {
        readLines();
        checkComplete();
        readKernels();
        readSupportVectors();
        return std::move(model_);
    }

  private:
    struct Row {
        int line;
        double coefficient;
        std::vector<std::pair<int, double>> entries;  // (1-based index, value)
    };

    // Keys in any order before support_vectors; each at most once (its line kept for messages).
    static const std::vector<std::string>& keys() {
        static const std::vector<std::string> list = {"kernels",  "normalize",      "scales",
                                                      "beta",     "bias",           "classes",
                                                      "features", "support_vectors"};
        return list;
    }
    int lineOf(const char* key) const {
        return seenAt_[static_cast<std::size_t>(std::find(keys().begin(), keys().end(), key) -
                                                keys().begin())];
    }
    double number(std::string_view token, const char* what) const {
        return reader_.number(token, what);
    }
    int integer(std::string_view token, const char* what, int low) const {
        return reader_.integer(token, what, low);
    }

    void readLines() {
        std::string_view line;
        while (reader_.next(line)) {
            const auto first = line.find_first_not_of(" \t");
            if (first == std::string_view::npos || line[first] == '#') continue;
            line = line.substr(first);
            if (announced_ >= 0) {
                readSupportVectorLine(line);
            } else {
                readKeyLine(line);
            }
        }
    }

    // A support vector: "c j:v j:v …" (or "c 0:serial"). Indices are checked against
    // `features` once all keys are known (features may follow kernels in a hand-made file,
    // but never support_vectors).
    void readSupportVectorLine(std::string_view line) {
        if (static_cast<int>(rows_.size()) == announced_) {
            reader_.fail("more support vector lines than support_vectors " +
                         std::to_string(announced_) + " announced (line " +
                         std::to_string(lineOf("support_vectors")) + ")");
        }
        const std::vector<std::string> parts = tokensOf(line);
        Row row{reader_.lineNumber(), number(parts[0], "support vector coefficient"), {}};
        for (std::size_t t = 1; t < parts.size(); ++t) {
            const std::string& token = parts[t];
            const auto colon = token.find(':');
            if (colon == std::string::npos) {
                reader_.fail("feature " + inQuotes(token) + " is not index:value");
            }
            const int index = integer(std::string_view(token).substr(0, colon), "feature index", 0);
            const double value = number(std::string_view(token).substr(colon + 1), "feature value");
            if (!row.entries.empty() && index <= row.entries.back().first) {
                reader_.fail("feature index " + std::to_string(index) + " after index " +
                             std::to_string(row.entries.back().first) + "; indices must increase");
            }
            row.entries.emplace_back(index, value);
        }
        rows_.push_back(std::move(row));
    }

    // "key value": the key must be known and new.
    void readKeyLine(std::string_view line) {
        const std::size_t space = line.find_first_of(" \t");
        const std::string key(line.substr(0, space));
        const std::string_view value =
            space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        const auto known = std::find(keys().begin(), keys().end(), key);
        if (known == keys().end()) {
            reader_.fail("unknown key " + inQuotes(key) +
                         "; expected kernels, normalize, scales, beta, bias, classes, features "
                         "or support_vectors");
        }
        int& seen = seenAt_[static_cast<std::size_t>(known - keys().begin())];
        if (seen) {
            reader_.fail("key " + inQuotes(key) + " given twice (first on line " +
                         std::to_string(seen) + ")");
        }
        seen = reader_.lineNumber();
        readKeyValue(key, value);
    }

    void readKeyValue(const std::string& key, std::string_view value) {
        if (key == "kernels") {
            kernelText_ = std::string(value);
            if (tokensOf(value).empty()) reader_.fail("kernels: expected a kernel list");
        } else if (key == "normalize") {
            const std::vector<std::string> words = tokensOf(value);
            if (words.size() != 1 || !parseNormalization(words[0], &model_.normalization)) {
                reader_.fail("normalize " + inQuotes(value) + ": expected none, diagonal or trace");
            }
        } else if (key == "scales") {
            for (const auto& token : tokensOf(value)) {
                scales_.push_back(number(token, "scale"));
                if (!(scales_.back() > 0))
                    reader_.fail("scale " + inQuotes(token) + " must be > 0");
            }
        } else if (key == "beta") {
            for (const auto& token : tokensOf(value)) {
                beta_.push_back(number(token, "kernel weight"));
                if (!(beta_.back() >= 0)) {
                    reader_.fail("kernel weight " + inQuotes(token) + " must be >= 0");
                }
            }
        } else if (key == "bias") {
            const std::vector<std::string> words = tokensOf(value);
            if (words.size() != 1) reader_.fail("bias: expected one number");
            model_.bias = number(words[0], "bias");
        } else if (key == "classes") {
            for (const auto& token : tokensOf(value))
                model_.classes.push_back(number(token, "class value"));
            if (model_.classes.size() != 2 || !(model_.classes[0] < model_.classes[1])) {
                reader_.fail("classes: expected two class values, the smaller first");
            }
        } else if (key == "features") {
            const std::vector<std::string> words = tokensOf(value);
            if (words.size() != 1) reader_.fail("features: expected one integer");
            model_.features = integer(words[0], "features", 1);
        } else {  // support_vectors
            const std::vector<std::string> words = tokensOf(value);
            if (words.size() != 1) reader_.fail("support_vectors: expected one integer");
            announced_ = integer(words[0], "support_vectors", 0);
        }
    }

    // Every required key given, and as many support vector lines as announced.
    void checkComplete() const {
        for (const char* key :
             {"kernels", "beta", "bias", "classes", "features", "support_vectors"}) {
            if (!lineOf(key)) {
                throw DataError(sourceName_, reader_.lineNumber(),
                                std::string("incomplete model: no '") + key +
                                    "' line (expected kernels, beta, bias, classes, features and "
                                    "support_vectors; is this a cplab kernel model?)");
            }
        }
        if (static_cast<int>(rows_.size()) != announced_) {
            throw DataError(sourceName_, reader_.lineNumber(),
                            "support_vectors " + std::to_string(announced_) + " (line " +
                                std::to_string(lineOf("support_vectors")) + ") announced, found " +
                                std::to_string(rows_.size()) + " support vector lines");
        }
    }

    // The kernel list, with one weight and one scale per kernel.
    void readKernels() {
        std::string why;
        if (!parseKernelList(kernelText_, model_.features, &model_.specs, &why)) {
            throw DataError(sourceName_, lineOf("kernels"), "kernels: " + why);
        }
        const std::size_t k = model_.specs.size();
        if (beta_.size() != k) {
            throw DataError(sourceName_, lineOf("beta"),
                            "expected " + std::to_string(k) +
                                " kernel weights (one per kernel of '" + kernelText_ +
                                "'), found " + std::to_string(beta_.size()));
        }
        if (lineOf("scales")) {
            if (scales_.size() != k) {
                throw DataError(sourceName_, lineOf("scales"),
                                "expected " + std::to_string(k) +
                                    " scales (one per kernel), found " +
                                    std::to_string(scales_.size()));
            }
        } else if (model_.normalization == KernelNormalization::Trace) {
            throw DataError(
                sourceName_, lineOf("normalize"),
                "normalize trace needs a 'scales' line with the kernels' trace factors");
        } else {
            scales_.assign(k, 1.0);
        }
        model_.scales = std::move(scales_);
        model_.beta = Eigen::Map<const Eigen::VectorXd>(beta_.data(), static_cast<Eigen::Index>(k));
    }

    // The coefficients, and the support vectors (or the serials of a precomputed kernel's).
    void readSupportVectors() {
        const bool precomputed = isPrecomputed(model_);
        if (precomputed && model_.normalization == KernelNormalization::Diagonal) {
            throw DataError(sourceName_, lineOf("normalize"),
                            "a precomputed kernel cannot use normalize diagonal (a test row does "
                            "not hold k(z, z)); expected none or trace");
        }
        const int n = announced_;
        model_.coefficients.resize(n);
        std::vector<Eigen::Triplet<double, int>> triplets;
        for (int j = 0; j < n; ++j) {
            const Row& row = rows_[static_cast<std::size_t>(j)];
            model_.coefficients(j) = row.coefficient;
            if (precomputed) {
                model_.serials.push_back(serialOf(row));
            } else {
                addEntries(row, j, triplets);
            }
        }
        if (!precomputed) {
            Dataset& sv = model_.supportVectors;
            sv.name = "support vectors";
            sv.source = sourceName_;
            sv.sparseStorage = true;
            sv.sparse = sparseFromTriplets(n, model_.features, std::move(triplets));
            sv.labels.resize(n);
            for (int j = 0; j < n; ++j)
                sv.labels(j) = model_.coefficients(j) < 0 ? -1.0 : 1.0;
        }
    }

    // The 0-based training example of a precomputed kernel's support vector.
    int serialOf(const Row& row) const {
        if (row.entries.size() != 1 || row.entries[0].first != 0) {
            throw DataError(sourceName_, row.line,
                            "a support vector of a precomputed kernel is 'coefficient 0:serial'");
        }
        const double serial = row.entries[0].second;
        if (!(serial >= 1 && serial <= model_.features) || serial != std::floor(serial)) {
            throw DataError(sourceName_, row.line,
                            "serial " + formatReal(serial) + " must be an integer in [1, " +
                                std::to_string(model_.features) + "] (the training examples)");
        }
        return static_cast<int>(serial) - 1;
    }

    void addEntries(const Row& row, int j,
                    std::vector<Eigen::Triplet<double, int>>& triplets) const {
        for (const auto& [index, value] : row.entries) {
            if (index < 1 || index > model_.features) {
                throw DataError(sourceName_, row.line,
                                "feature index " + std::to_string(index) + " outside 1.." +
                                    std::to_string(model_.features) + " (features " +
                                    std::to_string(model_.features) + ")");
            }
            if (value != 0.0) triplets.emplace_back(j, index - 1, value);
        }
    }

    LineReader reader_;
    const std::string& sourceName_;
    KernelClassifier model_;
    std::vector<int> seenAt_ = std::vector<int>(keys().size(), 0);
    std::string kernelText_;
    std::vector<double> scales_, beta_;
    int announced_ = -1;  // support_vectors n
    std::vector<Row> rows_;
};

}  // namespace

KernelClassifier parseKernelModel(const std::string& text, const std::string& sourceName) {
    return KernelModelParser(text, sourceName).parse();
}

}  // namespace cplab
