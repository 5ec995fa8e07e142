// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/dataset_family.h"

#include "builtin_datasets.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "data/text_io.h"

namespace cplab {

namespace {

// The names of a CSV header the dataset was read with, features then the label marked
// ("mcv, alkphos, selector (label)"); empty when the file had no header (or is not CSV).
std::string csvHeaderText(const Dataset& data) {
    std::vector<std::string> names = data.featureNames;
    if (!data.labelName.empty()) names.push_back(data.labelName + " (label)");
    return joined(names);
}

// "heart_scale: 270 examples, 13 features; test set 30 examples; header: ..."
std::string setsDetails(const Dataset& train, const Dataset* test, bool precomputed) {
    std::string text = train.name + ": " + std::to_string(train.size()) + " examples, " +
                       (precomputed ? "precomputed kernel"
                                    : std::to_string(train.dimension()) + " features" +
                                          (train.sparseStorage ? ", sparse" : ""));
    if (test) text += "; test set " + std::to_string(test->size()) + " examples";
    if (const std::string header = csvHeaderText(train); !header.empty())
        text += "; header: " + header;
    return text;
}

SummaryFields headerSummary(const Dataset& train) {
    if (const std::string header = csvHeaderText(train); !header.empty())
        return {{"header", header}};
    return {};
}

// The built-in dataset or generated set `name` (without the family's prefix).
Dataset builtinDataset(const std::string& name) {
    if (const BuiltinFile* file = findBuiltinDataset(name)) {
        Dataset data = parseLibsvm(file->bytes, "builtin:" + name);
        data.name = name;
        return data;
    }
    return generate(name, kGeneratedExamples, kGeneratedSeed);
}

}  // namespace

std::string LinearData::details() const {
    return linear.train ? setsDetails(*linear.train, linear.test.get(), false) : std::string();
}

SummaryFields LinearData::summary() const {
    return linear.train ? headerSummary(*linear.train) : SummaryFields{};
}

std::string KernelData::details() const {
    return kernel.train ? setsDetails(*kernel.train, kernel.test.get(), precomputed)
                        : std::string();
}

SummaryFields KernelData::summary() const {
    return kernel.train ? headerSummary(*kernel.train) : SummaryFields{};
}

const Dataset* trainingSet(const ProblemInstance& problem) {
    if (const auto* linear = problem.as<LinearData>()) return linear->linear.train.get();
    if (const auto* kernel = problem.as<KernelData>()) return kernel->kernel.train.get();
    return nullptr;
}

ProblemPtr editedProblem(const ProblemInstance& base, Dataset train, std::string* why) {
    const auto* kernel = base.as<KernelData>();
    const Dataset* old = trainingSet(base);
    std::string problem;
    if (!old) {
        problem = "'" + base.info.name + "' holds no dataset whose points can be edited";
    } else if (kernel && kernel->precomputed) {
        problem = "the features of '" + base.info.name + "' are kernel values, not points";
    } else if (train.size() == 0) {
        problem = "no training points left: add some";
    } else if (train.dimension() != old->dimension()) {
        problem = "the edited points have " + std::to_string(train.dimension()) + " features, '" +
                  base.info.name + "' has " + std::to_string(old->dimension());
    }
    if (!problem.empty()) {
        if (why) *why = problem;
        return nullptr;
    }
    return refusingThrows(why, [&]() -> ProblemPtr {
        checkMagnitudes(train);
        auto made = std::make_shared<ProblemInstance>(base);
        made->origin.points = formatLibsvm(train);
        made->info.title = std::to_string(train.size()) + " examples, edited by hand from " +
                           (old->name.empty() ? base.info.name : old->name);
        auto shared = std::make_shared<const Dataset>(std::move(train));
        if (kernel) {
            auto data = std::make_shared<KernelData>(*kernel);
            data->kernel.train = std::move(shared);
            made->data = std::move(data);
        } else {
            auto data = std::make_shared<LinearData>(*base.as<LinearData>());
            data->linear.train = std::move(shared);
            made->data = std::move(data);
        }
        return made;
    });
}

DatasetFamily::DatasetFamily(std::string prefix, bool kernelRows)
    : prefix_(std::move(prefix)), kernelRows_(kernelRows) {}

void DatasetFamily::addDatasetProblems(Builtins which) {
    const auto keep = [which](const Dataset& data, bool generated) {
        const bool twoClassesOnly =
            which == Builtins::TwoClasses || (which == Builtins::TwoClassGenerated && generated);
        return !twoClassesOnly || data.classes().size() == 2;
    };
    for (const auto& file : builtinDatasetFiles()) {
        const std::string name(file.name);
        const Dataset data = parseLibsvm(file.bytes, "builtin:" + name);
        if (!keep(data, false)) continue;
        addProblem({prefix_ + name,
                    {},
                    std::to_string(data.size()) + " examples, built-in dataset" +
                        (prefix_.empty() ? std::string() : " (" + name + ")"),
                    "Real dataset compiled into cplab (see resources/datasets/README.md).",
                    data.dimension()});
    }
    for (const auto& name : generatorNames()) {
        const Dataset data = generate(name, kGeneratedExamples, kGeneratedSeed);
        if (!keep(data, true)) continue;
        addProblem({prefix_ + name,
                    {},
                    std::to_string(kGeneratedExamples) + " generated examples (seed " +
                        std::to_string(kGeneratedSeed) + ")",
                    generatorDescription(name),
                    data.dimension()});
    }
}

std::vector<OptionInfo> DatasetFamily::problemOptions() const {
    return testSplitOptions(kernelRows_ ? "LIBSVM/SVMlight, CSV, or precomputed kernel rows "
                                          "against the training examples"
                                        : "LIBSVM/SVMlight or CSV");
}

std::vector<DataKind> DatasetFamily::dataKinds() const {
    if (kernelRows_) return {DataKind::Examples, DataKind::KernelRows};
    return {DataKind::Examples};
}

ProblemPtr DatasetFamily::makeProblem(const std::string& name, const OptionValues& problemOptions,
                                      std::string* why) const {
    TestSplit split;
    if (!parseTestSplit(problemOptions, &split, why)) return nullptr;
    for (const auto& info : problems()) {
        if (info.name != name) continue;
        return refusingThrows(why, [&] {
            return instance(splitExamples(builtinDataset(name.substr(prefix_.size())), split),
                            false, info);
        });
    }
    if (why) *why = "unknown " + this->name() + " problem '" + name + "'";
    return nullptr;
}

ProblemPtr DatasetFamily::loadFile(const DataSource& source, const OptionValues& problemOptions,
                                   std::string* why) const {
    TestSplit split;
    if (!parseTestSplit(problemOptions, &split, why)) return nullptr;
    return refusingThrows(why, [&] {
        const bool kernelRows = source.dataFormat().kind == DataKind::KernelRows;
        ExampleSets sets = splitExamples(readExamples(source, {}), split, kernelRows, &source);
        const Dataset& train = *sets.train;
        const ProblemInfo info{train.name, name(),
                               std::to_string(train.size()) + " examples from " + source.path +
                                   (kernelRows ? " (precomputed kernel)" : ""),
                               "Dataset loaded from " + source.path + ".",
                               kernelRows ? train.size() : train.dimension()};
        return instance(std::move(sets), kernelRows, info);
    });
}

ProblemPtr DatasetFamily::instance(ExampleSets sets, bool kernelRows, ProblemInfo info) const {
    if (!kernelRows) {
        checkMagnitudes(*sets.train);
        if (sets.test) checkMagnitudes(*sets.test);
    }
    auto made = std::make_shared<ProblemInstance>();
    made->info = std::move(info);
    made->info.family = name();
    made->data = datasetData(std::move(sets), kernelRows);
    return made;
}

std::shared_ptr<const ProblemData> kernelData(ExampleSets sets, bool kernelRows) {
    auto data = std::make_shared<KernelData>();
    data->kernel = {std::move(sets.train), std::move(sets.test)};
    data->precomputed = kernelRows;
    return data;
}

}  // namespace cplab
