// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/chain_model_file.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <unordered_map>
#include <utility>

#include "core/number_text.h"
#include "data/data_error.h"
#include "data/text_io.h"
#include "structured/chain_model.h"

namespace cplab {

long long ChainModelFile::expectedWeights() const {
    const long long L = static_cast<long long>(labelNames.size());
    return L * features + L + (transitions ? L * L : 0);
}

std::string formatChainModel(const ChainModelFile& model) {
    std::string text =
        "# cplab chain model\nlabels " + std::to_string(model.labelNames.size()) + "\n";
    for (const std::string& name : model.labelNames)
        text += name + "\n";
    text += "features " + std::to_string(model.features) + "\n";
    text += std::string("transitions ") + (model.transitions ? "1" : "0") + "\n";
    text += std::string("normalize_loss ") + (model.normalizeLoss ? "1" : "0") + "\n";
    text += "lambda " + formatReal(model.lambda) + "\n";
    text += "weights\n";
    for (Eigen::Index k = 0; k < model.weights.size(); ++k) {
        appendReal(text, model.weights(k));
        text += '\n';
    }
    return text;
}

namespace {

// What parseChainModel has read so far.
struct ChainModelReading {
    ChainModelFile model;
    bool seenLabels = false, seenFeatures = false, seenWeights = false;
    std::size_t namesToRead = 0;
    std::vector<double> weights;
    std::size_t lines = 0;  // lines the file has at most: bounds every count before a reserve
};

// One label name of the list after 'labels'.
void readLabelName(LineReader& reader, std::string_view line, ChainModelReading& r) {
    if (line.empty() || line.find_first_of(" \t:#") != std::string_view::npos)
        reader.fail("expected a label name (no blank, ':' or '#'), got " + inQuotes(line));
    const std::string name(line);
    if (std::find(r.model.labelNames.begin(), r.model.labelNames.end(), name) !=
        r.model.labelNames.end())
        reader.fail("label " + inQuotes(name) + " is named twice");
    r.model.labelNames.push_back(name);
    --r.namesToRead;
}

// The 'weights' key: the counts so far must allow the weights that follow.
void startWeights(LineReader& reader, ChainModelReading& r) {
    if (!r.seenLabels || !r.seenFeatures)
        reader.fail("weights before the labels and features keys");
    const long long expected = r.model.expectedWeights();
    if (expected > kMaxChainWeights) {
        reader.fail(std::to_string(r.model.labelNames.size()) + " labels and " +
                    std::to_string(r.model.features) + " features make " +
                    std::to_string(expected) + " weights, more than the " +
                    std::to_string(kMaxChainWeights) + " a chain model may have");
    }
    if (static_cast<std::size_t>(expected) > r.lines + 1) {
        reader.fail("the model needs " + std::to_string(expected) +
                    " weights, more lines than the file has");
    }
    r.weights.reserve(static_cast<std::size_t>(expected));
    r.seenWeights = true;
}

// One 'key value' line of the header.
void readKey(LineReader& reader, std::string_view line, ChainModelReading& r) {
    const std::size_t space = line.find(' ');
    const std::string_view key = line.substr(0, space);
    const std::string_view value =
        space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
    if (key == "labels") {
        if (r.seenLabels) reader.fail("labels given twice");
        r.seenLabels = true;
        r.namesToRead = static_cast<std::size_t>(reader.integer(value, "labels", 1));
        if (r.namesToRead > r.lines) {
            reader.fail("labels " + std::string(value) +
                        " is more than the file can list, one name per line");
        }
    } else if (key == "features") {
        r.model.features = reader.integer(value, "features", 1);
        r.seenFeatures = true;
    } else if (key == "transitions") {
        r.model.transitions = reader.integer(value, "transitions (0 or 1)", 0) != 0;
    } else if (key == "normalize_loss") {
        r.model.normalizeLoss = reader.integer(value, "normalize_loss (0 or 1)", 0) != 0;
    } else if (key == "lambda") {
        r.model.lambda = reader.number(value, "lambda");
    } else if (key == "weights") {
        startWeights(reader, r);
    } else {
        reader.fail("unknown key " + inQuotes(key) +
                    "; expected labels, features, transitions, normalize_loss, lambda or "
                    "weights");
    }
}

// The checks at the end of the file: every name, every key, every weight.
void checkComplete(const ChainModelReading& r, const std::string& sourceName, int lineNumber) {
    if (r.namesToRead > 0) {
        throw DataError(sourceName, lineNumber,
                        "the file ends " + std::to_string(r.namesToRead) +
                            " label names short of the count given after 'labels'");
    }
    if (!r.seenLabels || !r.seenFeatures || !r.seenWeights) {
        throw DataError(sourceName, lineNumber,
                        "incomplete model: expected the keys labels, features and weights "
                        "(is this a cplab chain model file?)");
    }
    if (static_cast<long long>(r.weights.size()) != r.model.expectedWeights()) {
        throw DataError(sourceName, lineNumber,
                        std::to_string(r.weights.size()) + " weights, but " +
                            std::to_string(r.model.labelNames.size()) + " labels and " +
                            std::to_string(r.model.features) + " features" +
                            (r.model.transitions ? " with" : " without") + " transitions need " +
                            std::to_string(r.model.expectedWeights()));
    }
}

}  // namespace

ChainModelFile parseChainModel(const std::string& text, const std::string& sourceName) {
    LineReader reader(text, sourceName);
    ChainModelReading r;
    r.lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    std::string_view line;
    while (reader.next(line)) {
        if (r.seenWeights) {
            if (line.empty() || line[0] == '#') continue;
            r.weights.push_back(reader.number(line, "weight"));
        } else if (r.namesToRead > 0) {
            readLabelName(reader, line, r);
        } else if (!line.empty() && line[0] != '#') {
            readKey(reader, line, r);
        }
    }
    checkComplete(r, sourceName, reader.lineNumber());
    ChainModelFile model = std::move(r.model);
    model.weights = Eigen::Map<const Eigen::VectorXd>(r.weights.data(),
                                                      static_cast<Eigen::Index>(r.weights.size()));
    return model;
}

ChainPrediction predictSequences(const ChainModelFile& model, const SequenceData& data) {
    auto fail = [&data](int token, const std::string& detail) -> DataError {
        const int line = data.lines.empty() ? 0 : data.lines[static_cast<std::size_t>(token)];
        return DataError(data.source.empty() ? data.name : data.source, line, detail);
    };
    // The file's label ids → the model's, by name.
    std::unordered_map<std::string, int> modelLabel;
    for (std::size_t k = 0; k < model.labelNames.size(); ++k)
        modelLabel.emplace(model.labelNames[k], static_cast<int>(k));
    std::vector<int> toModel(data.labelNames.size(), -1);
    for (std::size_t k = 0; k < data.labelNames.size(); ++k) {
        const auto it = modelLabel.find(data.labelNames[k]);
        if (it != modelLabel.end()) toModel[k] = it->second;
    }
    auto mapped = std::make_shared<SequenceData>();
    mapped->name = data.name;
    mapped->source = data.source;
    mapped->sequenceStart = data.sequenceStart;
    mapped->labelNames = model.labelNames;
    mapped->labels.resize(data.labels.size());
    for (std::size_t k = 0; k < data.labels.size(); ++k) {
        const int label = toModel[static_cast<std::size_t>(data.labels[k])];
        if (label < 0) {
            throw fail(static_cast<int>(k),
                       "label " +
                           inQuotes(data.labelNames[static_cast<std::size_t>(data.labels[k])]) +
                           " is not one of the model's " + std::to_string(model.labelNames.size()) +
                           " labels");
        }
        mapped->labels[k] = label;
    }
    // Features beyond the model's d are an error; fewer are zeros.
    mapped->features = data.features;
    if (data.dimension() > model.features) {
        for (int k = 0; k < data.tokenCount(); ++k) {
            for (SequenceData::SparseMatrix::InnerIterator it(data.features, k); it; ++it) {
                if (it.col() >= model.features) {
                    throw fail(k, "feature " + std::to_string(it.col() + 1) +
                                      " is beyond the model's " + std::to_string(model.features) +
                                      " features");
                }
            }
        }
    }
    mapped->features.conservativeResize(data.tokenCount(), model.features);
    const ChainModel chain(mapped, {model.normalizeLoss, model.transitions});
    ChainPrediction prediction;
    prediction.labels.resize(data.labels.size());
    ChainWorkspace ws;
    std::vector<int> y;
    long long wrongTokens = 0, wrongSequences = 0;
    for (int i = 0; i < chain.size(); ++i) {
        if (!std::isfinite(chain.decode(model.weights, i, y, ws))) {
            throw fail(data.first(i),
                       "the model's scores of this sequence are not finite (weights "
                       "too large for its features); no labelling is defined");
        }
        const std::span<const int> truth = chain.truth(i);
        int wrong = 0;
        for (std::size_t t = 0; t < y.size(); ++t) {
            wrong += y[t] != truth[t];
            prediction.labels[static_cast<std::size_t>(chain.data().first(i)) + t] = y[t];
        }
        wrongTokens += wrong;
        wrongSequences += wrong > 0;
    }
    prediction.tokenError =
        static_cast<double>(wrongTokens) / std::max(1, static_cast<int>(data.labels.size()));
    prediction.sequenceError = static_cast<double>(wrongSequences) / std::max(1, chain.size());
    return prediction;
}

}  // namespace cplab
