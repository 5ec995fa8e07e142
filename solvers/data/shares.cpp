// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a distributed run's shares of the examples (shares.h).
#include "data/shares.h"

#include <algorithm>
#include <stdexcept>

#include "data/libsvm_format.h"

namespace cplab {

namespace {

// This rank's share of the file(s) `pattern`.
Dataset loadShare(const std::string& pattern, const Communicator& comm) {
    if (namesFilePerRank(pattern)) return loadLibsvm(shareFileName(pattern, comm.rank()));
    return loadLibsvmShare(pattern, comm.rank(), comm.size());
}

// Runs `work` on every rank; a failure on any rank throws its message on every rank.
template <class Work>
void onEveryRank(Communicator& comm, Work&& work) {
    std::string failure;
    try {
        work();
    } catch (const std::exception& e) {
        failure = e.what();
        if (failure.empty()) failure = "failed";
    }
    failure = firstFailure(comm, failure);
    if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace

std::string shareFileName(const std::string& pattern, int rank) {
    std::string name = pattern;
    for (std::size_t at = name.find("%r"); at != std::string::npos; at = name.find("%r", at)) {
        const std::string r = std::to_string(rank);
        name.replace(at, 2, r);
        at += r.size();
    }
    return name;
}

bool namesFilePerRank(const std::string& pattern) {
    return pattern.find("%r") != std::string::npos;
}

ExampleSets loadSharedExamples(const std::string& trainPattern, const std::string& testPattern,
                               Communicator& comm) {
    ExampleSets sets;
    onEveryRank(comm, [&] {
        sets.train = std::make_shared<Dataset>(loadShare(trainPattern, comm));
        checkMagnitudes(*sets.train);
        if (!testPattern.empty()) {
            sets.test = std::make_shared<Dataset>(loadShare(testPattern, comm));
            checkMagnitudes(*sets.test);
        }
    });
    Dataset& train = *sets.train;
    // The whole file's dimension, and compactFeatures' decision on the whole file's features.
    const auto d = static_cast<int>(maxOverRanks(comm, train.dimension()));
    std::vector<int> columns = unionOverRanks(comm, train.usedColumns());
    const bool compact = d >= kCompactFrom && 2 * static_cast<long long>(columns.size()) <= d;
    if (columns.empty()) columns.push_back(0);
    train.setDimension(d);
    if (compact) train.selectColumns(columns);
    if (sets.test) {
        Dataset& test = *sets.test;
        const auto dTest = static_cast<int>(maxOverRanks(comm, test.dimension()));
        test.setDimension(std::max(d, dTest));
        onEveryRank(comm, [&] { test.useClassesOf(train); });
        if (compact) {
            test.selectColumns(columns);
            test.originalDimension = std::max(test.originalDimension, d);
        }
    }
    return sets;
}

}  // namespace cplab
