// SPDX-License-Identifier: GPL-3.0-or-later
// A trained linear model as a text file, for `cplab-cli run --model` and `cplab-cli predict`:
//
//     # cplab linear model
//     risk hinge
//     bias 1
//     features 123            d, without the bias
//     stored_features 2       optional: only these features have weights (the others are
//     3                       zero), then their 1-based numbers, one per line, increasing;
//     100000000               the weights below then cover just them
//     outputs 1               K
//     lambda 3.0712e-05
//     classes -1 1            the label values in the training file (for predictions)
//     class_name M            for text labels: the text of each class, in the order above
//     class_name R
//     weights                 then (d + bias)·K numbers, one per line, laid out as Risk's w
//     0.125
//     ...
//
// Numbers are written in shortest round-trip form. Reading a malformed file throws DataError
// naming the file, the line and what was expected.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "risk/risk.h"

namespace cplab {

struct LinearModel {
    LossKind risk = LossKind::Hinge;
    bool bias = false;
    int features = 0;  // d
    // The 0-based features the weights cover, increasing; empty: all d (a model trained on
    // compacted features, Dataset::featureIds).
    std::vector<int> featureIds;
    int outputs = 1;  // K
    double lambda = 0.0;
    std::vector<double> classes;  // original label values: binary {a, b} ↔ −1/+1, or K classes
    std::vector<std::string> classNames;  // their texts for text labels, else empty
    Eigen::VectorXd weights;              // (stored + bias)·K, stored = d or featureIds.size()

    // Rows of one output's block of weights before the bias.
    int storedFeatures() const;

    // Scores of every example of `data` (extra features beyond d are an error, missing ones
    // count as zero): m × K.
    Eigen::MatrixXd scores(const Dataset& data) const;
    // Predicted labels in the training file's values (class label, or the regression value).
    Eigen::VectorXd predict(const Dataset& data) const;
    // Gives `data` (a file to predict) the training file's label values: text labels matched
    // by text (Dataset::useClassesOf), and for a classifier every label checked to be one of
    // `classes`. Throws DataError naming the file and line of a label the model never saw.
    void matchLabels(Dataset& data) const;
};

void writeLinearModel(const std::string& path, const LinearModel& model);
LinearModel readLinearModel(const std::string& path);
// The same, from text (sourceName names it in errors).
LinearModel parseLinearModel(const std::string& text, const std::string& sourceName);
std::string formatLinearModel(const LinearModel& model);

// The model as LIBLINEAR's own model file (save_model's format, read by LIBLINEAR's `predict`
// and load_model), with the same predictions: solver_type by the risk (hinge
// L2R_L1LOSS_SVC_DUAL, squared hinge L2R_L2LOSS_SVC_DUAL, logistic L2R_LR, multiclass MCSVM_CS,
// ε-insensitive L2R_L1LOSS_SVR_DUAL), the weights of all d features (stored_features expanded),
// the bias as LIBLINEAR's "bias 1" feature. A binary model is written with its labels in the
// order classes[0] classes[1] and its weights negated, so that LIBLINEAR's rule (label[0] where
// w·x > 0) picks classes[1] exactly where ours does (score ≥ 0). Throws std::invalid_argument
// when LIBLINEAR cannot express it: text class names or class values that are not integers
// (LIBLINEAR's labels are), more than 10⁷ features.
std::string formatLiblinearModel(const LinearModel& model);

}  // namespace cplab
