// SPDX-License-Identifier: GPL-3.0-or-later
// The linear family: linear SVMs and other regularised risks (ALGORITHMS.md §3) by BMRM, OCAS,
// dual coordinate descent and Pegasos SGD, raced against libocas, on built-in or loaded
// datasets with an optional test set; model files for `cplab-cli run --model` and `predict`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "bmrm/linear_svm.h"
#include "data/load_options.h"
#include "family.h"

namespace cplab {

struct LinearData final : ProblemData {
    LinearProblem linear;  // training set and optional test set

    std::string details() const override;
    SummaryFields summary() const override;
};

// The names of a CSV header the dataset was read with, features then the label marked
// ("mcv, alkphos, selector (label)"); empty when the file had no header (or is not CSV). The
// linear and kernel families report it as the summary field `header` and in the log.
std::string csvHeaderText(const Dataset& data);

// Size and seed of the generated 2-D demo sets offered as built-in problems.
inline constexpr int kGeneratedExamples = 200;
inline constexpr int kGeneratedSeed = 1;

// Where the test set of a linear problem comes from: a file, or a held-out fraction of the
// training data (Dataset::split with `seed`), or none. As problem options: test,
// test_fraction, seed.
struct TestSetSpec {
    std::string file;
    double fraction = 0.0;
    std::uint64_t seed = 1;
};

// The problem options test, test_fraction and seed (families that read datasets share them);
// `testFiles` says in the help which files `test` may name.
std::vector<OptionInfo> testSplitOptions(const char* testFiles = "LIBSVM/SVMlight or CSV");
// Parses and checks them; false and *why when a value is out of range or both a test file and
// a fraction are given.
bool parseTestSplit(const OptionValues& values, TestSetSpec* spec, std::string* why);

// A data file: CSV when the name ends in .csv or .csv.gz or its first data line has commas
// and no index:value token, else LIBSVM/SVMlight text (gzip detected by content). Throws
// DataError naming the file and line.
Dataset loadDataFile(const std::string& path, const LoadOptions& options = {});

// A linear problem from a data file or, when `path` is empty, the built-in dataset or
// generated set `builtin`, with the test set of `test`. Null and *why (file, line and what
// was expected) on failure. With `compact`, sparse data with few features under large indices
// are compacted to the features training uses (compactFeatures; the linear models' weights
// elsewhere are zero); the kernel family, whose models and feature groups name features by
// their numbers, reads without.
ProblemPtr makeLinearProblem(const std::string& path, const std::string& builtin,
                             const TestSetSpec& test, std::string* why, bool compact = true);

const Family& linearFamily();

}  // namespace cplab
