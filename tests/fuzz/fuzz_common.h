// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the libFuzzer targets in tests/fuzz.
//
// A target catches exactly the exceptions its entry point documents for bad input (DataError,
// and std::invalid_argument where documented); everything else escapes, so libFuzzer reports
// it as a crash. Properties that must hold for every accepted input (the Dataset contract,
// round trips) are checked with require(), which aborts with a message: a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "data/dataset.h"

namespace cplab::fuzz {

// The fuzzer's bytes as text.
inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Aborts with `what` when `condition` is false: libFuzzer saves the input as a crash.
inline void require(bool condition, const std::string& what) {
    if (condition) return;
    std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

// Every dataset a loader returns must keep the contract of data/dataset.h.
inline void requireContract(const Dataset& data, const char* who) {
    const std::string why = data.contractViolation();
    require(why.empty(), std::string(who) + " returned a dataset that breaks the contract: " + why);
}

// True when `a` and `b` hold the same features exactly, whatever their storage. Compared in
// sparse form (canonical by the contract: compressed, sorted, no explicit zeros), so that a
// 1 × 10⁹ sparse dataset is not made dense.
inline bool sameFeatures(const Dataset& a, const Dataset& b) {
    if (a.size() != b.size() || a.dimension() != b.dimension()) return false;
    Dataset::SparseMatrix sa = a.sparseStorage ? a.sparse : a.dense.sparseView();
    Dataset::SparseMatrix sb = b.sparseStorage ? b.sparse : b.dense.sparseView();
    sa.makeCompressed();
    sb.makeCompressed();
    if (sa.nonZeros() != sb.nonZeros()) return false;
    for (int i = 0; i < a.size(); ++i) {
        Dataset::SparseMatrix::InnerIterator ia(sa, i), ib(sb, i);
        for (; ia && ib; ++ia, ++ib) {
            if (ia.col() != ib.col() || ia.value() != ib.value()) return false;
        }
        if (ia || ib) return false;
    }
    return true;
}

// Exact equality of two vectors of any sizes (Eigen's == asserts equal sizes).
inline bool sameVector(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return a.size() == b.size() && a == b;
}

// True when `a` and `b` hold the same examples exactly (labels and features, any storage).
inline bool sameExamples(const Dataset& a, const Dataset& b) {
    return a.size() == b.size() && sameVector(a.labels, b.labels) && sameFeatures(a, b);
}

// FNV-1a of the input: a deterministic choice of options per input.
// Two dense rows of `features` features, zeros then ones, with labels 0: something to apply a
// parsed model to.
inline Dataset zerosAndOnes(int features) {
    Dataset data;
    data.name = data.source = "fuzz rows";
    data.dense = Dataset::DenseMatrix::Zero(2, features);
    data.dense.row(1).setOnes();
    data.labels = Eigen::VectorXd::Zero(2);
    return data;
}

inline std::uint64_t hashOf(std::string_view bytes) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return h;
}

}  // namespace cplab::fuzz
