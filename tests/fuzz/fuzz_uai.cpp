// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the UAI readers (data/uai_format.h) — model files, evidence and results — and
// libDAI's factor graphs, from bytes, plain or gzip, and the pairwise model built on what they
// return. Expected: tables or a DataError, then a PairwiseModel. Findings: a crash or sanitizer
// report, any other exception, tables whose sizes disagree with their cardinalities, or
// formatUai output that does not parse back to the same tables.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "data/data_error.h"
#include "data/uai_format.h"
#include "fuzz_common.h"
#include "map/pairwise_model.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

void checkTables(const UaiTables& t, const char* who) {
    require(t.unary.size() == t.cardinalities.size(), std::string(who) + ": unary count");
    for (std::size_t v = 0; v < t.unary.size(); ++v)
        require(static_cast<int>(t.unary[v].size()) == t.cardinalities[v],
                std::string(who) + ": unary size");
    for (const UaiTables::Pair& p : t.pairs) {
        require(p.u >= 0 && p.u < p.v && p.v < static_cast<int>(t.cardinalities.size()),
                std::string(who) + ": pair variables");
        require(p.table.size() == static_cast<std::size_t>(t.cardinalities[std::size_t(p.u)]) *
                                      static_cast<std::size_t>(t.cardinalities[std::size_t(p.v)]),
                std::string(who) + ": pair table size");
        for (const double x : p.table)
            require(!std::isnan(x) && x != HUGE_VAL, std::string(who) + ": NaN or +inf entry");
    }
}

bool sameTables(const UaiTables& a, const UaiTables& b) {
    if (a.cardinalities != b.cardinalities || a.pairs.size() != b.pairs.size()) return false;
    const auto close = [](double x, double y) {
        return x == y || std::abs(x - y) <= 1e-9 * (1 + std::abs(x));
    };
    for (std::size_t v = 0; v < a.unary.size(); ++v)
        for (std::size_t k = 0; k < a.unary[v].size(); ++k)
            if (!close(a.unary[v][k], b.unary[v][k])) return false;
    for (std::size_t e = 0; e < a.pairs.size(); ++e) {
        if (a.pairs[e].u != b.pairs[e].u || a.pairs[e].v != b.pairs[e].v) return false;
        for (std::size_t k = 0; k < a.pairs[e].table.size(); ++k)
            if (!close(a.pairs[e].table[k], b.pairs[e].table[k])) return false;
    }
    return close(a.constant, b.constant);
}

void model(const UaiTables& tables) {
    const PairwiseModel m = PairwiseModel::fromTables(tables);
    (void)m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    try {
        const UaiTables graph = parseLibdaiFactorGraph(bytes, "fuzz.fg");
        checkTables(graph, "parseLibdaiFactorGraph");
        model(graph);
    } catch (const DataError&) {
    }
    try {
        (void)parseUaiEvidence(bytes, "fuzz.evid", {2, 3});
        (void)parseUaiResult(bytes, "fuzz.MAP");
    } catch (const DataError&) {
    } catch (const std::invalid_argument&) {
    }
    UaiTables tables;
    try {
        tables = parseUai(bytes, "fuzz.uai");
    } catch (const DataError&) {
        return 0;
    }
    checkTables(tables, "parseUai");
    model(tables);
    std::string text;
    try {
        text = formatUai(tables);  // refuses logs beyond ±700 (documented)
    } catch (const std::invalid_argument&) {
        return 0;
    }
    try {
        require(sameTables(tables, parseUai(text, "fuzz.uai (formatted)")),
                "parseUai(formatUai(x)) != x");
    } catch (const DataError& e) {
        require(false, std::string("formatUai output does not parse: ") + e.what());
    }
    return 0;
}
