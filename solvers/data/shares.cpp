// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a distributed run's shares of the examples (shares.h).
#include "data/shares.h"

#include <algorithm>
#include <filesystem>
#include <new>
#include <stdexcept>

#include "core/memory_budget.h"
#include "data/data_error.h"
#include "data/libsvm_format.h"

namespace cplab {

namespace {

// Why a single file cannot be cut into byte ranges (a FIFO, a device, a folder: no size to cut
// at), or empty. One file per rank may be any of them that reads as a file.
std::string unsplittable(const std::string& path, int ranks) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status) || fs::is_regular_file(status)) return {};  // the reader says
    const char* what = fs::is_fifo(status)        ? "a FIFO"
                       : fs::is_directory(status) ? "a folder"
                       : fs::is_socket(status)    ? "a socket"
                                                  : "a device";
    return std::string(what) + " cannot be cut into byte ranges for " + std::to_string(ranks) +
           " processes: give a regular file, or one file per process ('" +
           fs::path(path).stem().string() + "-%r" + fs::path(path).extension().string() + "')";
}

// This rank's share of the file(s) `pattern`.
Dataset loadShare(const std::string& pattern, const Communicator& comm) {
    if (namesFilePerRank(pattern)) return loadLibsvm(shareFileName(pattern, comm.rank()));
    if (const std::string why = unsplittable(pattern, comm.size()); !why.empty())
        throw DataError(pattern, 0, why);
    return loadLibsvmShare(pattern, comm.rank(), comm.size());
}

// A failure while reading `file`, in words that name the file and never quote the C++
// library's own texts (std::bad_alloc, basic_string::_M_create, vector::reserve): a DataError
// (file:line: what was expected) as it is; anything else as what it means for the user.
std::string failureReading(const std::string& file) {
    try {
        throw;
    } catch (const DataError& e) {
        return e.what();
    } catch (const std::bad_alloc&) {
        return file + ": not enough memory to read this process's share (" + outOfMemoryMessage() +
               ")";
    } catch (const std::length_error&) {
        return file + ": could not be read: a size in it is beyond what the reader can hold";
    } catch (const std::exception&) {
        return file + ": could not be read (an internal error of the reader)";
    } catch (...) {
        return file + ": could not be read (an internal error of the reader)";
    }
}

// Runs `work` on every rank; a failure on any rank throws its message on every rank (the
// first failing rank's, prefixed "rank R: "). `file` is the file `work` is reading.
template <class Work>
void onEveryRank(Communicator& comm, const std::string& file, Work&& work) {
    std::string failure;
    try {
        work();
    } catch (...) {
        failure = failureReading(file);
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
    const std::string trainFile = shareFileName(trainPattern, comm.rank());
    onEveryRank(comm, trainFile, [&] {
        sets.train = std::make_shared<Dataset>(loadShare(trainPattern, comm));
        checkMagnitudes(*sets.train);
    });
    const std::string testFile = shareFileName(testPattern, comm.rank());
    if (!testPattern.empty()) {
        onEveryRank(comm, testFile, [&] {
            sets.test = std::make_shared<Dataset>(loadShare(testPattern, comm));
            checkMagnitudes(*sets.test);
        });
    }
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
        onEveryRank(comm, testFile, [&] { test.useClassesOf(train); });
        if (compact) {
            test.selectColumns(columns);
            test.originalDimension = std::max(test.originalDimension, d);
        }
    }
    return sets;
}

std::string firstClassBeyond(const Dataset& share, Communicator& comm, std::size_t most) {
    const std::vector<std::vector<double>> byRank = gatherOverRanks(comm, share.classes());
    std::vector<double> seen;  // the classes of the earlier ranks, then of this share's lines
    const auto add = [&seen](double label) {
        const auto at = std::lower_bound(seen.begin(), seen.end(), label);
        if (at != seen.end() && *at == label) return false;
        seen.insert(at, label);
        return true;
    };
    for (int r = 0; r < comm.rank(); ++r) {
        for (double label : byRank[static_cast<std::size_t>(r)])
            add(label);
    }
    if (seen.size() > most) return {};  // an earlier rank holds the class beyond
    for (int i = 0; i < share.size(); ++i) {
        const double label = share.labels(i);
        if (!add(label) || seen.size() <= most) continue;
        std::string others;
        for (std::size_t k = 0; k + 1 < seen.size(); ++k) {
            const double c = seen[k] < label ? seen[k] : seen[k + 1];
            others += (k == 0                 ? ""
                       : k + 2 == seen.size() ? " and "
                                              : ", ") +
                      share.labelInMessage(c);
        }
        return share.where(i) + ": label " + share.labelInMessage(label) + " adds " +
               (most == 2 ? std::string("a third class") : "class " + std::to_string(most + 1)) +
               " to " + others + " (the shares read in rank order)";
    }
    return {};
}

}  // namespace cplab
