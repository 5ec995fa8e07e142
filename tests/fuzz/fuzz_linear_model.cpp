// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the linear model file parser (parseLinearModel, linear/linear_model.h). Expected: a
// LinearModel or a DataError. Findings: a crash or sanitizer report, any other exception, an
// accepted model whose fields disagree with each other (weights of the wrong length, feature
// numbers out of order or range, classes that do not match the outputs), formatLinearModel
// output that does not parse back to the same model, or scores/predict failing on data of
// the model's own dimension.
#include <cstddef>
#include <cstdint>

#include "data/data_error.h"
#include "fuzz_common.h"
#include "linear/linear_model.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

void checkConsistent(const LinearModel& model) {
    require(model.features >= 0 && model.outputs >= 1, "model with no outputs or d < 0");
    const long long rows = model.storedFeatures() + (model.bias ? 1 : 0);
    require(model.weights.size() == rows * model.outputs,
            "weights.size() != (stored + bias) * outputs");
    for (std::size_t i = 0; i < model.featureIds.size(); ++i) {
        require(model.featureIds[i] >= 0 && model.featureIds[i] < model.features,
                "stored feature outside 1..features");
        require(i == 0 || model.featureIds[i - 1] < model.featureIds[i],
                "stored features not increasing");
    }
    require(model.classNames.empty() || model.classNames.size() == model.classes.size(),
            "class_name lines do not match classes");
    if (model.risk == LossKind::Multiclass) {
        require(model.classes.empty() ||
                    model.classes.size() == static_cast<std::size_t>(model.outputs),
                "multiclass model whose classes do not match its outputs");
    } else {
        require(model.outputs == 1, "binary or regression model with several outputs");
    }
}

bool sameModel(const LinearModel& a, const LinearModel& b) {
    return a.risk == b.risk && a.bias == b.bias && a.features == b.features &&
           a.featureIds == b.featureIds && a.outputs == b.outputs && a.lambda == b.lambda &&
           a.classes == b.classes && a.classNames == b.classNames &&
           sameVector(a.weights, b.weights);
}

// Scores and predictions on two examples of the model's dimension (a zero and a ones row).
void checkScores(const LinearModel& model) {
    if (model.features > 4096) return;  // keep the dense rows small
    const Dataset data = zerosAndOnes(model.features);
    const Eigen::MatrixXd S = model.scores(data);
    require(S.rows() == 2 && S.cols() == model.outputs, "scores of the wrong shape");
    const Eigen::VectorXd predicted = model.predict(data);
    require(predicted.size() == 2, "predict of the wrong length");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(asText(data, size));
    LinearModel model;
    try {
        model = parseLinearModel(text, "fuzz.model");
    } catch (const DataError&) {
        return 0;
    }
    checkConsistent(model);

    LinearModel again;
    try {
        again = parseLinearModel(formatLinearModel(model), "fuzz.model (formatted)");
    } catch (const DataError& e) {
        require(false, std::string("formatLinearModel output does not parse: ") + e.what());
    }
    require(sameModel(model, again), "parseLinearModel(formatLinearModel(x)) != x");
    checkScores(model);
    return 0;
}
