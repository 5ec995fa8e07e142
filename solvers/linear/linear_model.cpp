// SPDX-License-Identifier: GPL-3.0-or-later
#include "linear_model.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/memory_budget.h"
#include "data/data_error.h"
#include "data/dataset.h"
#include "data/text_io.h"

namespace cplab {

int LinearModel::storedFeatures() const {
    return featureIds.empty() ? features : static_cast<int>(featureIds.size());
}

Eigen::MatrixXd LinearModel::scores(const Dataset& data) const {
    const int dataFeatures = data.featureIds.empty() ? data.dimension() : data.originalDimension;
    if (dataFeatures > features) {
        throw DataError(data.source, 0,
                        "the data have " + std::to_string(dataFeatures) +
                            " features but the model only " + std::to_string(features));
    }
    const int stored = storedFeatures();
    const int rows = stored + (bias ? 1 : 0);
    requireMemory(8.0 * data.size() * outputs,
                  sizeProduct({{double(data.size()), "examples"}, {double(outputs), "outputs"}}) +
                      " scores, 8 B each",
                  data.source + ": the model's scores ");
    Eigen::MatrixXd S(data.size(), outputs);
    if (featureIds.empty() && data.featureIds.empty()) {
        for (int k = 0; k < outputs; ++k) {
            const Eigen::VectorXd w = weights.segment(static_cast<Eigen::Index>(k) * rows, rows);
            const Eigen::VectorXd head = w.head(data.dimension());
            const double b = bias ? w(features) : 0.0;
            for (int i = 0; i < data.size(); ++i)
                S(i, k) = data.dot(i, head) + b;
        }
        return S;
    }
    // Weights on some features only, or data on some: each entry's weight row is found by a
    // sorted search (O(nnz log stored)), so that nothing of the size of the largest feature
    // index is allocated.
    auto rowOf = [&](int column) {
        const int feature = data.featureNumber(column) - 1;
        if (featureIds.empty()) return feature;
        const auto it = std::lower_bound(featureIds.begin(), featureIds.end(), feature);
        return it != featureIds.end() && *it == feature ? static_cast<int>(it - featureIds.begin())
                                                        : -1;
    };
    for (int k = 0; k < outputs; ++k) {
        const Eigen::Index offset = static_cast<Eigen::Index>(k) * rows;
        const double b = bias ? weights(offset + stored) : 0.0;
        for (int i = 0; i < data.size(); ++i) {
            double sum = b;
            if (data.sparseStorage) {
                for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it) {
                    const int r = rowOf(static_cast<int>(it.col()));
                    if (r >= 0) sum += it.value() * weights(offset + r);
                }
            } else {
                for (int j = 0; j < data.dimension(); ++j) {
                    const int r = data.dense(i, j) != 0.0 ? rowOf(j) : -1;
                    if (r >= 0) sum += data.dense(i, j) * weights(offset + r);
                }
            }
            S(i, k) = sum;
        }
    }
    return S;
}

Eigen::VectorXd LinearModel::predict(const Dataset& data) const {
    const Eigen::MatrixXd S = scores(data);
    Eigen::VectorXd out(S.rows());
    for (Eigen::Index i = 0; i < S.rows(); ++i) {
        // A NaN or infinite score has no sign and no largest class: no prediction is defined.
        if (!S.row(i).allFinite()) {
            const int example = static_cast<int>(i);
            throw DataError(data.source,
                            example < static_cast<int>(data.lines.size())
                                ? data.lines[static_cast<std::size_t>(example)]
                                : 0,
                            "the model's score of this example is not finite (weights too "
                            "large for its features); no prediction is defined");
        }
        if (risk == LossKind::EpsilonInsensitive) {
            out(i) = S(i, 0);
        } else if (risk == LossKind::Multiclass) {
            Eigen::Index best = 0;
            S.row(i).maxCoeff(&best);
            out(i) = classes.empty() ? double(best) : classes[static_cast<std::size_t>(best)];
        } else {
            const bool positive = S(i, 0) >= 0;
            out(i) = classes.size() == 2 ? classes[positive ? 1 : 0] : (positive ? 1.0 : -1.0);
        }
    }
    return out;
}

void LinearModel::matchLabels(Dataset& data) const {
    if (risk == LossKind::EpsilonInsensitive || classes.empty()) return;
    Dataset training;  // the training file's classes, as the model recorded them
    training.labels = Eigen::Map<const Eigen::VectorXd>(classes.data(),
                                                        static_cast<Eigen::Index>(classes.size()));
    training.classNames = classNames;
    data.useClassesOf(training);
    for (Eigen::Index i = 0; i < data.labels.size(); ++i) {
        if (std::find(classes.begin(), classes.end(), data.labels[i]) == classes.end()) {
            const int example = static_cast<int>(i);
            const int line = example < static_cast<int>(data.lines.size())
                                 ? data.lines[static_cast<std::size_t>(i)]
                                 : 0;
            std::vector<std::string> known;
            for (double c : classes)
                known.push_back(formatReal(c));
            if (known.size() > 10) known.resize(10), known.push_back("...");
            throw DataError(data.source, line,
                            (line > 0 ? "" : data.where(example) + ": ") + "label " +
                                data.labelText(data.labels[i]) +
                                ", which the model's training set does not have (it has " +
                                joined(known) + ")");
        }
    }
}

std::string formatLinearModel(const LinearModel& model) {
    std::string text = "# cplab linear model\n";
    text += std::string("risk ") + toString(model.risk) + "\n";
    text += std::string("bias ") + (model.bias ? "1" : "0") + "\n";
    text += "features " + std::to_string(model.features) + "\n";
    if (!model.featureIds.empty()) {
        text += "stored_features " + std::to_string(model.featureIds.size()) + "\n";
        for (const int id : model.featureIds)
            text += std::to_string(id + 1) + "\n";
    }
    text += "outputs " + std::to_string(model.outputs) + "\n";
    text += "lambda " + formatReal(model.lambda) + "\n";
    text += "classes";
    for (double c : model.classes)
        text += " " + formatReal(c);
    text += "\n";
    for (const std::string& name : model.classNames)
        text += "class_name " + name + "\n";
    text += "weights\n";
    for (Eigen::Index i = 0; i < model.weights.size(); ++i) {
        appendReal(text, model.weights(i));
        text += '\n';
    }
    return text;
}

void writeLinearModel(const std::string& path, const LinearModel& model) {
    writeOutputFile(path, formatLinearModel(model));
}

LinearModel readLinearModel(const std::string& path) {
    return parseLinearModel(readInputFile(path), path);
}

namespace {

// One reading of a model file: the header keys, the feature numbers after stored_features, the
// weights after `weights`, then the checks of the whole.
class LinearModelParser {
  public:
    LinearModelParser(const std::string& text, const std::string& sourceName)
        : reader_(text, sourceName), textSize_(text.size()) {}

    LinearModel parse() {
        std::string_view line;
        while (reader_.next(line)) {
            if (line.empty() || line[0] == '#') continue;
            if (seenWeights_) {
                weightLine(line);
            } else if (idsToRead_ > 0) {
                featureNumberLine(line);
            } else {
                keyLine(line);
            }
        }
        checkHeader();
        checkOutputs();
        model_.weights = Eigen::Map<const Eigen::VectorXd>(
            weights_.data(), static_cast<Eigen::Index>(weights_.size()));
        return std::move(model_);
    }

  private:
    void weightLine(std::string_view line) {
        const double w = reader_.number(line, "weight");
        // Scores sum weight × feature over the features; with both within ±kMaxMagnitude
        // they stay finite (a model of ±1e308 would score NaN and predict garbage).
        if (std::abs(w) > kMaxMagnitude) {
            reader_.fail("weight " + formatReal(w) + " is beyond +-" + formatReal(kMaxMagnitude) +
                         ", where scores stay finite");
        }
        weights_.push_back(w);
    }

    void featureNumberLine(std::string_view line) {
        const int id = reader_.integer(line, "feature number", 1) - 1;
        if (!model_.featureIds.empty() && id <= model_.featureIds.back()) {
            reader_.fail("feature numbers after stored_features must increase; " +
                         std::to_string(id + 1) + " follows " +
                         std::to_string(model_.featureIds.back() + 1));
        }
        model_.featureIds.push_back(id);
        --idsToRead_;
    }

    void keyLine(std::string_view line) {
        const std::size_t space = line.find(' ');
        const std::string_view key = line.substr(0, space);
        const std::string_view value =
            space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        if (key == "risk") {
            if (!parseLossKind(std::string(value), &model_.risk)) {
                reader_.fail("unknown risk " + inQuotes(value) +
                             "; expected hinge, logistic, squared_hinge, multiclass or "
                             "epsilon_insensitive");
            }
            seenRisk_ = true;
        } else if (key == "bias") {
            model_.bias = reader_.integer(value, "bias", 0) != 0;
        } else if (key == "features") {
            model_.features = reader_.integer(value, "features", 1);
            seenFeatures_ = true;
        } else if (key == "stored_features") {
            storedFeatures(value);
        } else if (key == "outputs") {
            model_.outputs = reader_.integer(value, "outputs", 1);
        } else if (key == "lambda") {
            model_.lambda = reader_.number(value, "lambda");
        } else if (key == "classes") {
            classes(value);
        } else if (key == "class_name") {
            model_.classNames.emplace_back(value);
        } else if (key == "weights") {
            seenWeights_ = true;
        } else {
            reader_.fail("unknown key " + inQuotes(key) +
                         "; expected risk, bias, features, stored_features, outputs, lambda, "
                         "classes, class_name or weights");
        }
    }

    void storedFeatures(std::string_view value) {
        if (seenStored_) reader_.fail("stored_features given twice");
        seenStored_ = true;
        idsToRead_ = static_cast<std::size_t>(reader_.integer(value, "stored_features", 1));
        // The numbers follow one per line; a count beyond the file's lines fails below.
        if (idsToRead_ > textSize_ / 2 + 1)
            reader_.fail("stored_features " + std::string(value) +
                         " is more than the file can list");
        model_.featureIds.reserve(std::min<std::size_t>(idsToRead_, 1 << 20));
    }

    void classes(std::string_view value) {
        if (!model_.classes.empty()) reader_.fail("classes given twice");
        std::istringstream tokens{std::string(value)};
        std::string token;
        while (tokens >> token) {
            const double c = reader_.number(token, "class value");
            // predict maps outputs to these values: two equal ones would name one class
            // twice and the data's other class not at all.
            if (std::find(model_.classes.begin(), model_.classes.end(), c) !=
                model_.classes.end()) {
                reader_.fail("classes: class value " + inQuotes(token) +
                             " appears twice; expected distinct class values");
            }
            model_.classes.push_back(c);
        }
    }

    // The keys a model needs, the feature numbers and the class names.
    void checkHeader() const {
        if (!seenRisk_ || !seenFeatures_ || !seenWeights_) {
            reader_.fail(
                "incomplete model: expected the keys risk, features and weights "
                "(is this a cplab model file?)");
        }
        if (idsToRead_ > 0 || (seenStored_ && model_.featureIds.empty())) {
            reader_.fail("expected " + std::to_string(idsToRead_) +
                         " more feature numbers after stored_features");
        }
        if (!model_.featureIds.empty() && model_.featureIds.back() >= model_.features) {
            reader_.fail("stored feature " + std::to_string(model_.featureIds.back() + 1) +
                         " is beyond features " + std::to_string(model_.features));
        }
        if (!model_.classNames.empty() && model_.classNames.size() != model_.classes.size()) {
            reader_.fail("expected one class_name line per class value (" +
                         std::to_string(model_.classes.size()) + "), found " +
                         std::to_string(model_.classNames.size()));
        }
    }

    // The outputs, the class values and the weights' count agree with the risk.
    void checkOutputs() const {
        // The class list, when given, must match the outputs: predict maps output k to
        // classes[k].
        const bool multiclass = model_.risk == LossKind::Multiclass;
        if (multiclass && !model_.classes.empty() &&
            model_.classes.size() != static_cast<std::size_t>(model_.outputs)) {
            reader_.fail("a multiclass model with outputs " + std::to_string(model_.outputs) +
                         " needs as many class values, found " +
                         std::to_string(model_.classes.size()));
        }
        if (!multiclass && model_.outputs != 1) {
            reader_.fail("a " + std::string(toString(model_.risk)) +
                         " model has one output, found outputs " + std::to_string(model_.outputs));
        }
        if (!multiclass && model_.risk != LossKind::EpsilonInsensitive &&
            model_.classes.size() != 0 && model_.classes.size() != 2) {
            reader_.fail("a binary model needs two class values, found " +
                         std::to_string(model_.classes.size()));
        }
        const std::size_t expected =
            (static_cast<std::size_t>(model_.storedFeatures()) + (model_.bias ? 1 : 0)) *
            static_cast<std::size_t>(model_.outputs);
        if (weights_.size() != expected) {
            reader_.fail("expected " + std::to_string(expected) + " weights ((" +
                         (model_.featureIds.empty() ? "features" : "stored_features") +
                         " + bias) x " + "outputs), found " + std::to_string(weights_.size()));
        }
    }

    LineReader reader_;
    std::size_t textSize_;
    LinearModel model_;
    bool seenWeights_ = false, seenRisk_ = false, seenFeatures_ = false, seenStored_ = false;
    std::size_t idsToRead_ = 0;  // feature numbers still expected after stored_features
    std::vector<double> weights_;
};

}  // namespace

LinearModel parseLinearModel(const std::string& text, const std::string& sourceName) {
    return LinearModelParser(text, sourceName).parse();
}

namespace {

const char* liblinearSolverType(LossKind risk) {
    switch (risk) {
        case LossKind::Hinge:
            return "L2R_L1LOSS_SVC_DUAL";
        case LossKind::SquaredHinge:
            return "L2R_L2LOSS_SVC_DUAL";
        case LossKind::Logistic:
            return "L2R_LR";
        case LossKind::Multiclass:
            return "MCSVM_CS";
        case LossKind::EpsilonInsensitive:
            return "L2R_L1LOSS_SVR_DUAL";
    }
    return "L2R_L1LOSS_SVC_DUAL";
}

constexpr int kMaxLiblinearFeatures = 10'000'000;

}  // namespace

std::string formatLiblinearModel(const LinearModel& model) {
    const bool regression = model.risk == LossKind::EpsilonInsensitive;
    if (!model.classNames.empty())
        throw std::invalid_argument(
            "LIBLINEAR's class labels are integers; this model's classes are text ('" +
            model.classNames.front() + "', ...): write the cplab model");
    for (double c : model.classes)
        if (!(c == std::floor(c) && std::abs(c) < 2e9))
            throw std::invalid_argument(
                "LIBLINEAR's class labels are integers; this model has "
                "the class " +
                formatReal(c) + ": write the cplab model");
    if (model.features > kMaxLiblinearFeatures)
        throw std::invalid_argument("LIBLINEAR's model lists a weight for every feature; " +
                                    std::to_string(model.features) +
                                    " features are too many: write the cplab model");
    const bool binary = !regression && model.outputs == 1;
    std::vector<double> labels = model.classes;
    if (binary && labels.empty()) labels = {-1.0, 1.0};
    const int classes = regression ? 2 : static_cast<int>(labels.size());
    std::string text = std::string("solver_type ") + liblinearSolverType(model.risk) +
                       "\nnr_class " + std::to_string(classes) + "\n";
    if (!regression) {
        text += "label";
        for (double c : labels)
            text += " " + std::to_string(static_cast<long long>(c));
        text += "\n";
    }
    text += "nr_feature " + std::to_string(model.features) + "\nbias " + (model.bias ? "1" : "-1") +
            "\nw\n";
    const int stored = model.storedFeatures();
    const int rows = stored + (model.bias ? 1 : 0);
    // Feature f's row in a block of weights, or −1 when the model keeps no weight for it.
    std::vector<int> rowOf(static_cast<std::size_t>(model.features), -1);
    for (int r = 0; r < stored; ++r)
        rowOf[static_cast<std::size_t>(model.featureIds.empty() ? r : model.featureIds[r])] = r;
    const auto weight = [&](int row, int k) {
        if (row < 0) return 0.0;
        const double w = model.weights(static_cast<Eigen::Index>(k) * rows + row);
        return binary ? -w : w;  // see the header: label[0] is classes[0]
    };
    const auto line = [&](int row) {
        for (int k = 0; k < model.outputs; ++k) {
            appendReal(text, weight(row, k));
            text += ' ';
        }
        text += '\n';
    };
    for (int f = 0; f < model.features; ++f)
        line(rowOf[static_cast<std::size_t>(f)]);
    if (model.bias) line(stored);
    return text;
}

}  // namespace cplab
