// SPDX-License-Identifier: GPL-3.0-or-later
// What the families that learn from datasets (linear, kernel, sparse) share: their problem data
// (a training set and an optional test set), their built-in problems (the datasets compiled
// into cplab and the generated 2-D sets), the test split as problem options, and reading a data
// file (DataSource) with its split. Each family says which built-ins it offers and turns the
// sets into its problems; none calls another.
#pragma once

#include <memory>
#include <string>

#include "data/test_split.h"
#include "family.h"
#include "kernel/kernel_solver.h"
#include "linear/linear_svm.h"

namespace cplab {

// The linear family's data: the sets as a LinearProblem.
struct LinearData final : ProblemData {
    LinearProblem linear;  // training set and optional test set

    std::string details() const override;
    SummaryFields summary() const override;  // `header`: the CSV header read, if any
};

// The kernel and sparse families' data: the sets as a KernelProblem.
struct KernelData final : ProblemData {
    KernelProblem kernel;      // training set and optional test set
    bool precomputed = false;  // the features are kernel values (data/precomputed_format.h)

    std::string details() const override;
    SummaryFields summary() const override;  // `header` as the linear family's
};

// The sets as KernelData (the kernel and sparse families' datasetData).
std::shared_ptr<const ProblemData> kernelData(ExampleSets sets, bool kernelRows);

// The training set of a problem of a dataset family (linear, kernel, sparse), or null for other
// problems.
const Dataset* trainingSet(const ProblemInstance& problem);

// `base` (a problem of a dataset family) with `train` as its training set: its test set, info
// and family kept, and its origin with `points` = `train` as LIBSVM text (points drawn in the
// GUI, app/gui/point_editor.h; sessions store them). Null and *why when `base` holds no
// dataset, its features are a precomputed kernel, `train` is empty, has another number of
// features than the test set or holds values too large to compute with.
ProblemPtr editedProblem(const ProblemInstance& base, Dataset train, std::string* why);

// Size and seed of the generated 2-D demo sets offered as built-in problems.
inline constexpr int kGeneratedExamples = 200;
inline constexpr int kGeneratedSeed = 1;

class DatasetFamily : public Family {
  public:
    std::vector<OptionInfo> problemOptions() const override;
    ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                           std::string* why) const override;
    std::vector<DataKind> dataKinds() const override;
    ProblemPtr loadFile(const DataSource& source, const OptionValues& problemOptions,
                        std::string* why) const override;

  protected:
    // Which built-ins a family offers: every one, or those with two classes.
    enum class Builtins { All, TwoClasses, TwoClassGenerated };
    // `prefix` keeps problem names unique across families ("kernel_"); `kernelRows`: the family
    // also reads precomputed-kernel files.
    DatasetFamily(std::string prefix, bool kernelRows);

    // Registers the built-in datasets and generated sets as problems (from the constructor of
    // the derived family, whose name() is then known).
    void addDatasetProblems(Builtins which);

    // The family's problem data from the sets read (`kernelRows`: a precomputed kernel).
    virtual std::shared_ptr<const ProblemData> datasetData(ExampleSets sets,
                                                           bool kernelRows) const = 0;

  private:
    ProblemPtr instance(ExampleSets sets, bool kernelRows, ProblemInfo info) const;

    std::string prefix_;
    bool kernelRows_;
};

}  // namespace cplab
