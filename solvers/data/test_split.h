// SPDX-License-Identifier: GPL-3.0-or-later
// Where a test set comes from — none, a test file, or a held-out fraction of the training data
// drawn with a seed — for every family that holds data out (datasets, precomputed kernels,
// labelled sequences), and the one rule that draws a held-out part. As problem options the
// split is `test`, `test_fraction` and `seed`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "data/data_format.h"
#include "data/dataset.h"
#include "data/sequence_format.h"

namespace cplab {

struct TestSplit {
    static constexpr const char* kFileKey = "test";
    static constexpr const char* kFractionKey = "test_fraction";
    static constexpr const char* kSeedKey = "seed";

    std::string file;       // a test file, or empty
    double fraction = 0.0;  // held-out fraction of the training data, in [0, 1) (0: none)
    std::int64_t seed = 1;  // seed of the held-out split, >= 0

    bool none() const { return file.empty() && fraction == 0.0; }
    // The split as problem options: only what differs from none (the seed with a fraction).
    OptionValues toOptions() const;

    // The three options; `testFiles` says in the help which files `test` may name.
    void visit(OptionVisitor& v, const char* testFiles = "LIBSVM/SVMlight or CSV");
    // False and *why (naming `owner`) when the fraction or seed is out of range or both a test
    // file and a fraction are given.
    bool isValid(const char* owner, std::string* why) const;
};

// The split's option descriptions, and the split parsed and checked from problem options.
std::vector<OptionInfo> testSplitOptions(const char* testFiles = "LIBSVM/SVMlight or CSV");
bool parseTestSplit(const OptionValues& values, TestSplit* split, std::string* why);

// Indices 0..count-1 parted into training and held-out ones, each sorted.
struct HeldOut {
    std::vector<int> train;
    std::vector<int> test;
};
// round(fraction·count) indices drawn uniformly at random for the held-out part (a partial
// Fisher–Yates shuffle driven by PortableRandom(seed): the same parts on every platform).
// std::invalid_argument when fraction is not in [0, 1].
HeldOut drawHoldout(int count, double fraction, std::uint64_t seed);
// drawHoldout, refusing a split that leaves either part empty: "test fraction 0.01 of the 30
// examples of 'x' leaves no test example; choose a fraction between 0.0333 and 0.967" (`unit`
// is the plural of what is counted, "examples" or "sequences").
HeldOut holdout(int count, double fraction, std::uint64_t seed, const std::string& name,
                const std::string& unit = "examples");

// A training set and its test set (null when the split is none).
struct ExampleSets {
    std::shared_ptr<Dataset> train;
    std::shared_ptr<Dataset> test;
};
// The test set of `train` by `split`: a test file read against the training set (its features
// padded to the training dimension, its classes those of the training set), or a held-out
// fraction. For kernel rows (`train` read from a precomputed kernel) a test file holds rows
// against the training examples, and a held-out fraction parts rows and columns alike. A test
// file of the same format as `trainSource` (when given) is read with its reader options (the
// same label column).
ExampleSets splitExamples(Dataset train, const TestSplit& split, bool kernelRows = false,
                          const DataSource* trainSource = nullptr);

struct SequenceSets {
    std::shared_ptr<SequenceData> train;
    std::shared_ptr<SequenceData> test;
};
// The same for labelled sequences (a test file in either sequence format).
SequenceSets splitSequences(SequenceData all, const TestSplit& split);

}  // namespace cplab
