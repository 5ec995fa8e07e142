// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the two readers of labelled sequences (data/sequence_format.h), Taskar's letter.data
// (parseLetterData) and the generic format (parseSequences), from bytes, plain or gzip, and
// the chain model built on what they return. Expected: SequenceData or a DataError, then a
// ChainModel or std::invalid_argument. Findings: a crash or sanitizer report, any other
// exception, data that break the SequenceData contract, or formatSequences output that does
// not parse back to the same sequences.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "data/data_error.h"
#include "data/sequence_format.h"
#include "fuzz_common.h"
#include "structured/chain_model.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

bool sameSequences(const SequenceData& a, const SequenceData& b) {
    if (a.labels != b.labels || a.sequenceStart != b.sequenceStart ||
        a.labelNames != b.labelNames || a.dimension() != b.dimension() ||
        a.features.nonZeros() != b.features.nonZeros())
        return false;
    for (int k = 0; k < a.features.outerSize(); ++k) {
        SequenceData::SparseMatrix::InnerIterator ia(a.features, k), ib(b.features, k);
        for (; ia && ib; ++ia, ++ib) {
            if (ia.col() != ib.col() || ia.value() != ib.value()) return false;
        }
        if (ia || ib) return false;
    }
    return true;
}

// The chain model on `data` (its own checks may refuse it), decoding its first sequence.
void model(const SequenceData& data) {
    try {
        const ChainModel chain(std::make_shared<SequenceData>(data));
        if (chain.size() == 0) return;
        std::vector<int> y;
        const Eigen::VectorXd w = Eigen::VectorXd::Constant(chain.dimension(), 0.5);
        chain.lossAugmentedDecode(w, 0, y);
        require(static_cast<int>(y.size()) == chain.length(0), "decoding has the wrong length");
    } catch (const std::invalid_argument&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    try {
        const SequenceData letters = parseLetterData(bytes, "fuzz.data");
        require(letters.contractViolation().empty(),
                "parseLetterData broke the contract: " + letters.contractViolation());
        model(letters);
    } catch (const DataError&) {
    }
    SequenceData parsed;
    try {
        parsed = parseSequences(bytes, "fuzz.seq");
    } catch (const DataError&) {
        return 0;
    }
    require(parsed.contractViolation().empty(),
            "parseSequences broke the contract: " + parsed.contractViolation());
    // The round trip documented in sequence_format.h.
    std::string text;
    try {
        text = formatSequences(parsed);
    } catch (const std::invalid_argument&) {
        return 0;  // a label name the format cannot write (documented)
    }
    try {
        const SequenceData again = parseSequences(text, "fuzz.seq (formatted)");
        require(sameSequences(parsed, again), "parseSequences(formatSequences(x)) != x");
    } catch (const DataError& e) {
        require(false, std::string("formatSequences output does not parse: ") + e.what());
    }
    model(parsed);
    return 0;
}
