// SPDX-License-Identifier: GPL-3.0-or-later
// A trained chain model (the structured family's w) as a text file, for `cplab-cli run
// --model` and `cplab-cli predict`:
//
//     # cplab chain model
//     labels 26               L, then the L label names, one per line, in label-id order
//     a
//     b
//     ...
//     features 128            d
//     transitions 1           1: first-order transitions between neighbouring labels
//     normalize_loss 1        the training loss (recorded; decoding does not use it)
//     lambda 0.01             the training λ (recorded)
//     weights                 then D = L·d + L + (transitions ? L² : 0) numbers, one per
//     0.125                   line, in ChainModel's layout (emission, bias, transitions)
//     ...
//
// Numbers are written in shortest round-trip form. Reading a malformed file throws DataError
// naming the file, the line and what was expected; a model of more than kMaxChainWeights
// weights, or one whose weight count disagrees with L and d, is refused.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "data/sequence_format.h"

namespace cplab {

struct ChainModelFile {
    std::vector<std::string> labelNames;  // L
    int features = 0;                     // d
    bool transitions = true;
    bool normalizeLoss = true;
    double lambda = 0.0;
    Eigen::VectorXd weights;  // D

    // D for these labels, features and transitions.
    long long expectedWeights() const;
};

std::string formatChainModel(const ChainModelFile& model);
ChainModelFile parseChainModel(const std::string& text, const std::string& sourceName);

// What predicting a file of sequences gives.
struct ChainPrediction {
    std::vector<int> labels;     // every token's predicted label id, in token order
    double tokenError = 0.0;     // against the file's labels
    double sequenceError = 0.0;  // sequences with a wrong token
};

// Decodes every sequence of `data` with `model` (Viterbi). The file's labels are matched to
// the model's by name and its features must lie within the model's d, and the scores must be
// finite: a DataError names the token's line otherwise.
ChainPrediction predictSequences(const ChainModelFile& model, const SequenceData& data);

}  // namespace cplab
