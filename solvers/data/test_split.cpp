// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/test_split.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/number_text.h"
#include "data/load_options.h"
#include "data/portable_random.h"
#include "data/precomputed_format.h"

namespace cplab {

OptionValues TestSplit::toOptions() const {
    OptionValues values;
    if (!file.empty()) values[kFileKey] = file;
    if (fraction > 0) {
        values[kFractionKey] = formatReal(fraction);
        values[kSeedKey] = std::to_string(seed);
    }
    return values;
}

void TestSplit::visit(OptionVisitor& v, const char* testFiles) {
    const std::string help = std::string("test file (") + testFiles + "); empty: none";
    v.text(kFileKey, file, help.c_str());
    v.real(kFractionKey, fraction,
           "fraction of the training data held out as test set, in [0, 1) (0: none)");
    v.seed(kSeedKey, seed, "seed of the held-out split (>= 0)");
}

bool TestSplit::isValid(const char* owner, std::string* why) const {
    return require(std::isfinite(fraction) && fraction >= 0 && fraction < 1, owner, kFractionKey,
                   fraction, "must lie in [0, 1)", why) &&
           require(seed >= 0, owner, kSeedKey, static_cast<double>(seed), "must be >= 0", why) &&
           requireText(file.empty() || fraction == 0, owner, kFileKey, file,
                       "give either a test file or a test fraction, not both", why);
}

namespace {

// The split as an options struct whose help names the files `test` may be.
struct SplitForm {
    TestSplit split;
    const char* testFiles = "LIBSVM/SVMlight or CSV";
    void visit(OptionVisitor& v) { split.visit(v, testFiles); }
    bool isValid(std::string* why) const { return split.isValid("test split", why); }
};

}  // namespace

std::vector<OptionInfo> testSplitOptions(const char* testFiles) {
    SplitForm form;
    form.testFiles = testFiles;
    return describeOptions(form);
}

bool parseTestSplit(const OptionValues& values, TestSplit* split, std::string* why) {
    SplitForm form;
    if (!assignOptions(form, values, why) || !form.isValid(why)) return false;
    *split = form.split;
    return true;
}

HeldOut drawHoldout(int count, double fraction, std::uint64_t seed) {
    if (!(fraction >= 0.0 && fraction <= 1.0))
        throw std::invalid_argument("test fraction " + formatReal(fraction) + " outside [0, 1]");
    const auto held = static_cast<int>(std::llround(fraction * count));
    // Partial Fisher–Yates: the first `held` entries become a uniform random subset.
    std::vector<int> order(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        order[static_cast<std::size_t>(i)] = i;
    PortableRandom random(seed);
    for (int k = 0; k < held; ++k) {
        const auto j = k + static_cast<int>(random.below(static_cast<std::uint64_t>(count - k)));
        std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(j)]);
    }
    HeldOut parts{std::vector<int>(order.begin() + held, order.end()),
                  std::vector<int>(order.begin(), order.begin() + held)};
    std::sort(parts.train.begin(), parts.train.end());
    std::sort(parts.test.begin(), parts.test.end());
    return parts;
}

HeldOut holdout(int count, double fraction, std::uint64_t seed, const std::string& name,
                const std::string& unit) {
    HeldOut parts = drawHoldout(count, fraction, seed);
    if (parts.test.empty() || parts.train.empty()) {
        const std::string one = unit.substr(0, unit.size() - (unit.ends_with('s') ? 1 : 0));
        const std::string range = count >= 2
                                      ? "; choose a fraction between " + formatReal(1.0 / count) +
                                            " and " + formatReal(1.0 - 1.0 / count)
                                      : "; it has too few to hold any out";
        throw std::invalid_argument(
            "test fraction " + formatReal(fraction) + " of the " + std::to_string(count) + " " +
            unit + " of '" + name + "' leaves " +
            (parts.test.empty() ? "no test " : "no training ") + one + range);
    }
    return parts;
}

namespace {

// The block K(rows, columns) of a precomputed kernel (dense), with the rows' labels.
Dataset kernelBlock(const Dataset& kernel, const std::vector<int>& rows,
                    const std::vector<int>& columns, const std::string& name) {
    Dataset out;
    out.name = name;
    out.source = kernel.source;
    out.classNames = kernel.classNames;
    out.labelName = kernel.labelName;
    out.dense.resize(static_cast<Eigen::Index>(rows.size()),
                     static_cast<Eigen::Index>(columns.size()));
    out.labels.resize(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Eigen::VectorXd x = kernel.row(rows[r]);
        for (std::size_t c = 0; c < columns.size(); ++c)
            out.dense(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = x(columns[c]);
        out.labels(static_cast<Eigen::Index>(r)) = kernel.labels(rows[r]);
    }
    return out;
}

}  // namespace

ExampleSets splitExamples(Dataset train, const TestSplit& split, bool kernelRows,
                          const DataSource* trainSource) {
    ExampleSets sets;
    if (!split.file.empty()) {
        LoadOptions options;
        options.dimension = kernelRows ? train.size() : train.dimension();
        DataSource source =
            sourceOfKind(split.file, kernelRows ? DataKind::KernelRows : DataKind::Examples);
        if (trainSource && trainSource->format == source.format)
            source.options = trainSource->options;
        Dataset test = readExamples(source, options);
        if (!kernelRows) test.useClassesOf(train);
        sets.test = std::make_shared<Dataset>(std::move(test));
    } else if (split.fraction > 0) {
        const HeldOut parts = holdout(train.size(), split.fraction,
                                      static_cast<std::uint64_t>(split.seed), train.name);
        if (kernelRows) {
            sets.test = std::make_shared<Dataset>(
                kernelBlock(train, parts.test, parts.train, train.name + " (test)"));
            train = kernelBlock(train, parts.train, parts.train, train.name + " (train)");
        } else {
            sets.test = std::make_shared<Dataset>(train.subset(parts.test));
            sets.test->name = train.name + " (test)";
            Dataset kept = train.subset(parts.train);
            kept.name = train.name + " (train)";
            train = std::move(kept);
        }
    }
    sets.train = std::make_shared<Dataset>(std::move(train));
    return sets;
}

SequenceSets splitSequences(SequenceData all, const TestSplit& split) {
    SequenceSets sets;
    if (!split.file.empty()) {
        sets.test = std::make_shared<SequenceData>(
            readSequences(sourceOfKind(split.file, DataKind::Sequences)));
    } else if (split.fraction > 0) {
        const HeldOut parts =
            holdout(all.size(), split.fraction, static_cast<std::uint64_t>(split.seed), all.name,
                    "sequences");
        SequenceData train = all.subset(parts.train), test = all.subset(parts.test);
        train.name = all.name + " (train)";
        test.name = all.name + " (test)";
        sets.test = std::make_shared<SequenceData>(std::move(test));
        all = std::move(train);
    }
    sets.train = std::make_shared<SequenceData>(std::move(all));
    return sets;
}

}  // namespace cplab
