// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the chain model file parser (parseChainModel, structured/chain_model_file.h) and
// predictSequences. Expected: a ChainModelFile or a DataError. Findings: a crash or sanitizer
// report, any other exception, an accepted model whose weight count disagrees with its labels
// and features, formatChainModel output that does not parse back to the same model, or a
// prediction (on two short sequences over the model's first labels) of the wrong length or
// with labels outside the model's.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "data/data_error.h"
#include "fuzz_common.h"
#include "structured/chain_model_file.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

bool sameModel(const ChainModelFile& a, const ChainModelFile& b) {
    return a.labelNames == b.labelNames && a.features == b.features &&
           a.transitions == b.transitions && a.normalizeLoss == b.normalizeLoss &&
           a.lambda == b.lambda && sameVector(a.weights, b.weights);
}

// Two sequences (lengths 1 and 3) labelled with the model's first label, features 1 and d.
SequenceData sequencesFor(const ChainModelFile& model) {
    SequenceData data;
    data.name = data.source = "fuzz.seq";
    data.labelNames = {model.labelNames.front()};
    const int d = model.features;
    std::vector<Eigen::Triplet<double, int>> entries = {
        {0, 0, 1.0}, {1, d - 1, 0.5}, {2, 0, -1.0}, {3, d - 1, 2.0}};
    data.features = sparseFromTriplets(4, d, entries);
    data.labels = {0, 0, 0, 0};
    data.sequenceStart = {0, 1, 4};
    return data;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(asText(data, size));
    ChainModelFile model;
    try {
        model = parseChainModel(text, "fuzz.model");
    } catch (const DataError&) {
        return 0;
    }
    require(static_cast<long long>(model.weights.size()) == model.expectedWeights(),
            "parseChainModel accepted a weight count that disagrees with L and d");
    ChainModelFile again;
    try {
        again = parseChainModel(formatChainModel(model), "fuzz.model (formatted)");
    } catch (const DataError& e) {
        require(false, std::string("formatChainModel output does not parse: ") + e.what());
    }
    require(sameModel(model, again), "parseChainModel(formatChainModel(x)) != x");
    if (static_cast<long long>(model.features) * static_cast<long long>(model.labelNames.size()) >
        (1 << 20))
        return 0;  // keep the decoding small
    try {
        const ChainPrediction p = predictSequences(model, sequencesFor(model));
        require(p.labels.size() == 4, "predictSequences: wrong number of labels");
        for (const int label : p.labels)
            require(label >= 0 && label < static_cast<int>(model.labelNames.size()),
                    "predictSequences: a label outside the model's");
    } catch (const DataError&) {
        // Scores that are not finite (huge weights) are refused with the sequence's line.
    }
    return 0;
}
