// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/uai_format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "data/data_error.h"
#include "data/text_io.h"

namespace cplab {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
// The largest dense table a reader allocates (128 MB of doubles): far beyond any pairwise
// model a file of ours holds, and a file that declares more is refused before memory runs out
// (libDAI files may leave entries unlisted, so a table's size is not bounded by the file's).
constexpr double kMaxTableEntries = double(1 << 24);
// The most entries of all higher-order tables together (512 MB of doubles).
constexpr double kMaxFactorEntries = double(1 << 26);

// "" when a higher-order table of `entries` entries fits the caps, given `total` entries in
// the tables before it (which it then includes); else what is wrong, naming `name`.
std::string factorSizeProblem(const std::string& name, double entries, double& total) {
    if (entries > kMaxTableEntries)
        return "the table of " + name + " has " + formatReal(entries) + " entries, more than the " +
               formatReal(kMaxTableEntries) + " a factor table may hold";
    total += entries;
    if (total > kMaxFactorEntries)
        return "the table of " + name + " (" + formatReal(entries) +
               " entries) brings the tables of factors of 3 or more variables to " +
               formatReal(total) + " entries, more than the " + formatReal(kMaxFactorEntries) +
               " a model may hold in all";
    return {};
}

// The most labels of all variables together (a value per label is kept: 512 MB at this bound).
constexpr long long kMaxTotalLabels = 1LL << 26;

// Empty when the label counts fit kMaxTotalLabels, else what is wrong.
std::string labelTotalProblem(const std::vector<int>& cardinalities) {
    long long total = 0;
    for (const int k : cardinalities)
        total += k;
    if (total <= kMaxTotalLabels) return {};
    return "the " + std::to_string(cardinalities.size()) + " variables have " +
           std::to_string(total) + " labels in all, more than the " +
           std::to_string(kMaxTotalLabels) + " a model may have (a value is kept per label)";
}
// exp(θ) is a normal double with full precision for θ in [−700, 700].
constexpr double kMaxWritableLog = 700.0;

// `token` as an integer in [low, 2^30], checked as a double before any conversion; on
// failure `why` receives "<what> '<token>' ..." and the result is 0.
int integerValue(std::string_view token, const std::string& what, int low, std::string& why) {
    double value = 0.0;
    if (const NumberError error = parseReal(token, value); error != NumberError::None) {
        why = what + " " + inQuotes(token) + " " + describe(error) + "; expected an integer";
        return 0;
    }
    constexpr double kMax = 1 << 30;
    if (!(value >= low && value <= kMax) || value != std::floor(value)) {
        why = what + " " + inQuotes(token) + " must be an integer in [" + std::to_string(low) +
              ", " + formatReal(kMax) + "]";
        return 0;
    }
    return static_cast<int>(value);
}

// A stream of blank-separated tokens over whole lines, each with its 1-based line number.
// Lines whose first non-blank character is `comment` are skipped. Binary bytes are refused
// by LineReader with its message.
class Tokens {
  public:
    Tokens(std::string_view text, const std::string& sourceName, char comment)
        : reader_(text, sourceName), comment_(comment) {}

    // The next token, or false at the end of the text.
    bool next(std::string_view& token) {
        for (;;) {
            token = nextToken(line_, pos_);
            if (!token.empty()) {
                tokenLine_ = reader_.lineNumber();
                return true;
            }
            if (!reader_.next(line_)) {
                tokenLine_ = reader_.lineNumber();
                return false;
            }
            pos_ = 0;
            const std::size_t first = line_.find_first_not_of(" \t");
            if (first != std::string_view::npos && line_[first] == comment_) line_ = {};
        }
    }

    // The next token; at the end of the text fails with "unexpected end of file: expected
    // <what>" on the last line.
    std::string_view require(const std::string& what) {
        std::string_view token;
        if (!next(token)) fail("unexpected end of file: expected " + what + " (truncated file?)");
        return token;
    }

    int integer(const std::string& what, int low) {
        const std::string_view token = require(what);
        return integerOf(token, what, low);
    }
    int integerOf(std::string_view token, const std::string& what, int low) const {
        std::string why;
        const int value = integerValue(token, what, low, why);
        if (!why.empty()) fail(why);
        return value;
    }
    // A potential: a finite number ≥ 0.
    double potential(const std::string& what) {
        const std::string_view token = require(what);
        double value = 0.0;
        if (const NumberError error = parseReal(token, value); error != NumberError::None) {
            fail(what + " " + inQuotes(token) + " " + describe(error) +
                 "; expected a potential (a number >= 0)");
        }
        if (value < 0.0) {
            fail(what + " " + inQuotes(token) +
                 " is negative; potentials must be >= 0 (0 forbids the entry)");
        }
        return value;
    }

    int line() const { return tokenLine_; }
    [[noreturn]] void fail(const std::string& detail) const {
        throw DataError(reader_.sourceName(), tokenLine_, detail);
    }
    // Fails when any token is left.
    void expectEnd(const std::string& after) {
        std::string_view token;
        if (next(token)) fail("unexpected text " + inQuotes(token) + " after " + after);
    }

  private:
    LineReader reader_;
    char comment_;
    std::string_view line_;
    std::size_t pos_ = 0;
    int tokenLine_ = 0;
};

// Sums log tables into UaiTables: unary tables per variable, pair tables keyed by the
// unordered pair of variables (a table given for (b, a) is transposed into (a, b), a < b).
class TablesBuilder {
  public:
    explicit TablesBuilder(std::vector<int> cardinalities) {
        tables_.cardinalities = std::move(cardinalities);
        tables_.unary.resize(tables_.cardinalities.size());
        for (std::size_t v = 0; v < tables_.unary.size(); ++v)
            tables_.unary[v].assign(static_cast<std::size_t>(tables_.cardinalities[v]), 0.0);
    }

    void addConstant(double logValue) { tables_.constant += logValue; }
    void addFactor(UaiTables::Factor factor) { tables_.factors.push_back(std::move(factor)); }
    void addUnary(int v, int label, double logValue) {
        tables_.unary[static_cast<std::size_t>(v)][static_cast<std::size_t>(label)] += logValue;
    }
    // The pair table of (a, b) (a ≠ b), created on first use: entry (x_a, x_b) is returned
    // through entry() below.
    int pair(int a, int b) {
        const int u = std::min(a, b);
        const int v = std::max(a, b);
        const std::uint64_t key = (std::uint64_t(std::uint32_t(u)) << 32) | std::uint32_t(v);
        const auto [it, inserted] = index_.try_emplace(key, static_cast<int>(tables_.pairs.size()));
        if (inserted) {
            UaiTables::Pair p;
            p.u = u;
            p.v = v;
            p.table.assign(
                static_cast<std::size_t>(cardinality(u)) * static_cast<std::size_t>(cardinality(v)),
                0.0);
            tables_.pairs.push_back(std::move(p));
        }
        return it->second;
    }
    // Adds logValue to the entry (x_a = la, x_b = lb) of pair p, whose variables are a and b
    // in some order.
    void addPair(int p, int a, int la, int lb, double logValue) {
        UaiTables::Pair& pair = tables_.pairs[static_cast<std::size_t>(p)];
        const int xu = pair.u == a ? la : lb;
        const int xv = pair.u == a ? lb : la;
        pair.table[static_cast<std::size_t>(xu) * static_cast<std::size_t>(cardinality(pair.v)) +
                   static_cast<std::size_t>(xv)] += logValue;
    }

    int cardinality(int v) const { return tables_.cardinalities[static_cast<std::size_t>(v)]; }
    UaiTables take() { return std::move(tables_); }

  private:
    UaiTables tables_;
    std::unordered_map<std::uint64_t, int> index_;
};

std::string scopeText(const std::vector<int>& scope) {
    std::string text;
    for (int v : scope)
        text += (text.empty() ? "" : " ") + std::to_string(v);
    return text.empty() ? "none" : text;
}

// log t with log 0 = −∞ (std::log(0) is −∞ too, but says so).
double logPotential(double t) {
    return t == 0.0 ? kNegInf : std::log(t);
}

// A factor's scope in a UAI file: its variables and the line that lists them.
struct UaiScope {
    std::vector<int> variables;
    int line = 0;
};

// The `factors` scopes after the counts, each variable in [0, n) and listed once.
std::vector<UaiScope> readScopes(Tokens& tokens, int n, int factors) {
    std::vector<UaiScope> scopes;
    for (int f = 0; f < factors; ++f) {
        UaiScope& scope = scopes.emplace_back();
        const int arity = tokens.integer("arity of factor " + std::to_string(f), 0);
        scope.line = tokens.line();
        for (int i = 0; i < arity; ++i) {
            const int v = tokens.integer(
                "variable " + std::to_string(i + 1) + " of factor " + std::to_string(f), 0);
            if (v >= n) {
                tokens.fail("variable " + std::to_string(v) + " in the scope of factor " +
                            std::to_string(f) + " is out of range; the model has " +
                            std::to_string(n) + " variables (0 to " + std::to_string(n - 1) + ")");
            }
            if (std::find(scope.variables.begin(), scope.variables.end(), v) !=
                scope.variables.end()) {
                tokens.fail("variable " + std::to_string(v) +
                            " appears twice in the scope of factor " + std::to_string(f));
            }
            scope.variables.push_back(v);
        }
    }
    return scopes;
}

// Factor f's table into `builder`: its entry count checked against its scope, the size caps
// (`factorEntries`: the entries of the tables of 3 or more variables so far), then its entries.
void readTable(Tokens& tokens, TablesBuilder& builder, const UaiScope& scope, int f,
               double& factorEntries) {
    const std::string name = "factor " + std::to_string(f);
    double expected = 1.0;
    std::string shape;
    for (int v : scope.variables) {
        expected *= builder.cardinality(v);
        shape += (shape.empty() ? "" : "x") + std::to_string(builder.cardinality(v));
    }
    const int count = tokens.integer("entry count of " + name + "'s table", 0);
    if (static_cast<double>(count) != expected) {
        tokens.fail("the table of " + name + " (variables " + scopeText(scope.variables) +
                    ", declared on line " + std::to_string(scope.line) + ") has " +
                    std::to_string(count) + " entries; expected " + formatReal(expected) +
                    (shape.empty() ? "" : " = " + shape));
    }
    if (scope.variables.size() >= 3) {
        if (const std::string why = factorSizeProblem(name, expected, factorEntries); !why.empty())
            tokens.fail(why + " (variables " + scopeText(scope.variables) + ", " + shape + ")");
    } else if (expected > kMaxTableEntries) {
        tokens.fail("the table of " + name + " has " + formatReal(expected) +
                    " entries, more than the " + formatReal(kMaxTableEntries) +
                    " a pairwise table may hold");
    }
    const std::string what = "entry of " + name + "'s table";
    if (scope.variables.size() >= 3) {
        UaiTables::Factor factor;
        factor.variables = scope.variables;
        factor.table.reserve(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i)  // row-major: the last scope variable fastest
            factor.table.push_back(logPotential(tokens.potential(what)));
        builder.addFactor(std::move(factor));
    } else if (scope.variables.empty()) {
        builder.addConstant(logPotential(tokens.potential(what)));
    } else if (scope.variables.size() == 1) {
        for (int x = 0; x < count; ++x)
            builder.addUnary(scope.variables[0], x, logPotential(tokens.potential(what)));
    } else {
        const int a = scope.variables[0];
        const int b = scope.variables[1];
        const int p = builder.pair(a, b);
        const int kb = builder.cardinality(b);
        for (int i = 0; i < count; ++i)  // the last scope variable changes fastest
            builder.addPair(p, a, i / kb, i % kb, logPotential(tokens.potential(what)));
    }
}

UaiTables parseUaiText(std::string_view text, const std::string& sourceName) {
    Tokens tokens(text, sourceName, 'c');
    const std::string_view header = tokens.require("the network type 'MARKOV'");
    if (header == "BAYES") {
        tokens.fail(
            "a BAYES network; only MARKOV networks are read (pairwise factor tables for MAP "
            "inference)");
    }
    if (header != "MARKOV") {
        tokens.fail("unknown network type " + inQuotes(header) + "; expected 'MARKOV'");
    }
    const int n = tokens.integer("variable count", 1);
    // Grown as the counts are read: a file declaring 10⁹ variables and ending after a few is
    // refused at its end, not after allocating for all of them.
    std::vector<int> cardinalities;
    for (int v = 0; v < n; ++v)
        cardinalities.push_back(tokens.integer("cardinality of variable " + std::to_string(v), 1));
    if (const std::string why = labelTotalProblem(cardinalities); !why.empty()) tokens.fail(why);
    const int factors = tokens.integer("factor count", 0);
    const std::vector<UaiScope> scopes = readScopes(tokens, n, factors);
    TablesBuilder builder(std::move(cardinalities));
    double factorEntries = 0.0;
    for (int f = 0; f < factors; ++f)
        readTable(tokens, builder, scopes[static_cast<std::size_t>(f)], f, factorEntries);
    tokens.expectEnd("the last table (the file declares " + std::to_string(factors) + " factors)");
    return builder.take();
}

// The UaiTables contract, for the writer: "" when it holds.
std::string contractViolation(const UaiTables& tables) {
    const auto n = static_cast<int>(tables.cardinalities.size());
    if (tables.unary.size() != tables.cardinalities.size())
        return "unary has " + std::to_string(tables.unary.size()) + " tables for " +
               std::to_string(n) + " variables";
    auto bad = [](double t) {
        return std::isnan(t) || t == std::numeric_limits<double>::infinity();
    };
    if (bad(tables.constant)) return "the constant is " + formatReal(tables.constant);
    for (int v = 0; v < n; ++v) {
        const int k = tables.cardinalities[static_cast<std::size_t>(v)];
        if (k < 1) return "variable " + std::to_string(v) + " has " + std::to_string(k) + " labels";
        const auto& unary = tables.unary[static_cast<std::size_t>(v)];
        if (unary.size() != static_cast<std::size_t>(k))
            return "the unary table of variable " + std::to_string(v) + " has " +
                   std::to_string(unary.size()) + " entries for " + std::to_string(k) + " labels";
        if (std::any_of(unary.begin(), unary.end(), bad))
            return "the unary table of variable " + std::to_string(v) + " holds NaN or +inf";
    }
    for (std::size_t e = 0; e < tables.pairs.size(); ++e) {
        const auto& p = tables.pairs[e];
        if (p.u < 0 || p.u >= n || p.v < 0 || p.v >= n || p.u == p.v)
            return "pair " + std::to_string(e) + " joins variables " + std::to_string(p.u) +
                   " and " + std::to_string(p.v);
        const std::size_t size = static_cast<std::size_t>(tables.cardinalities[std::size_t(p.u)]) *
                                 static_cast<std::size_t>(tables.cardinalities[std::size_t(p.v)]);
        if (p.table.size() != size)
            return "the table of pair " + std::to_string(e) + " has " +
                   std::to_string(p.table.size()) + " entries; expected " + std::to_string(size);
        if (std::any_of(p.table.begin(), p.table.end(), bad))
            return "the table of pair " + std::to_string(e) + " holds NaN or +inf";
    }
    for (std::size_t f = 0; f < tables.factors.size(); ++f) {
        const auto& factor = tables.factors[f];
        std::size_t size = 1;
        for (const int v : factor.variables) {
            if (v < 0 || v >= n)
                return "factor " + std::to_string(f) + " has variable " + std::to_string(v);
            size *= static_cast<std::size_t>(tables.cardinalities[std::size_t(v)]);
        }
        if (factor.variables.size() < 3)
            return "factor " + std::to_string(f) + " has fewer than 3 variables";
        if (factor.table.size() != size)
            return "the table of factor " + std::to_string(f) + " has " +
                   std::to_string(factor.table.size()) + " entries; expected " +
                   std::to_string(size);
        if (std::any_of(factor.table.begin(), factor.table.end(), bad))
            return "the table of factor " + std::to_string(f) + " holds NaN or +inf";
    }
    return {};
}

void appendPotential(std::string& out, double theta, const char* where) {
    if (theta == kNegInf) {
        out += '0';
        return;
    }
    if (std::abs(theta) > kMaxWritableLog) {
        throw std::invalid_argument(std::string("formatUai: log-potential ") + formatReal(theta) +
                                    " of " + where +
                                    " lies outside [-700, 700]; exp() of it cannot be written "
                                    "as a UAI potential without overflow or loss of precision");
    }
    appendReal(out, std::exp(theta));
}

// A factor of a libDAI file as read, before its variables are numbered.
struct FgFactor {
    std::vector<int> labels;         // variable labels, file order (first changes fastest)
    std::vector<int> cardinalities;  // of each
    std::vector<double> table;       // potentials, linear index as in the file
};

// A libDAI factor's listed entries into `table` (`entries` of them, the rest 0): each index in
// range and listed once.
void readFgEntries(Tokens& tokens, const std::string& name, double entries,
                   std::vector<double>& table) {
    table.assign(static_cast<std::size_t>(entries), 0.0);
    std::vector<char> listed(table.size(), 0);
    const int listedCount = tokens.integer("number of listed entries of " + name, 0);
    for (int i = 0; i < listedCount; ++i) {
        const int index = tokens.integer("entry index of " + name, 0);
        if (index >= entries) {
            tokens.fail("entry index " + std::to_string(index) + " of " + name +
                        " is out of range; the table has " + formatReal(entries) + " entries");
        }
        if (listed[static_cast<std::size_t>(index)]) {
            tokens.fail("entry index " + std::to_string(index) + " of " + name +
                        " is listed twice");
        }
        listed[static_cast<std::size_t>(index)] = 1;
        table[static_cast<std::size_t>(index)] =
            tokens.potential("value of entry " + std::to_string(index) + " of " + name);
    }
}

// A libDAI factor into `builder`, its variables numbered by `indexOf` (label → index).
void addFgFactor(TablesBuilder& builder, const FgFactor& factor, std::map<int, int>& indexOf) {
    if (factor.labels.empty()) {
        builder.addConstant(logPotential(factor.table[0]));
    } else if (factor.labels.size() == 1) {
        const int v = indexOf[factor.labels[0]];
        for (std::size_t x = 0; x < factor.table.size(); ++x)
            builder.addUnary(v, static_cast<int>(x), logPotential(factor.table[x]));
    } else if (factor.labels.size() >= 3) {
        // The first file variable changes fastest: listed in reverse, the last one does.
        UaiTables::Factor out;
        for (auto it = factor.labels.rbegin(); it != factor.labels.rend(); ++it)
            out.variables.push_back(indexOf[*it]);
        out.table.reserve(factor.table.size());
        for (const double t : factor.table)
            out.table.push_back(logPotential(t));
        builder.addFactor(std::move(out));
    } else {
        const int a = indexOf[factor.labels[0]];
        const int b = indexOf[factor.labels[1]];
        const int ka = factor.cardinalities[0];
        const int p = builder.pair(a, b);
        for (std::size_t i = 0; i < factor.table.size(); ++i) {  // the first changes fastest
            const int index = static_cast<int>(i);
            builder.addPair(p, a, index % ka, index / ka, logPotential(factor.table[i]));
        }
    }
}

UaiTables parseFgText(std::string_view text, const std::string& sourceName,
                      std::vector<long long>* labelsOut) {
    Tokens tokens(text, sourceName, '#');
    const int count = tokens.integer("factor count", 0);
    std::vector<FgFactor> factors;  // grown as they are read (the count may be a lie)
    std::map<int, std::pair<int, int>> cardinalityOf;  // label → (cardinality, line)
    double factorEntries = 0.0;  // entries of the tables of 3 or more variables so far
    for (int f = 0; f < count; ++f) {
        FgFactor& factor = factors.emplace_back();
        const std::string name = "factor " + std::to_string(f);
        const int arity = tokens.integer("variable count of " + name, 0);
        for (int i = 0; i < arity; ++i) {
            const int label = tokens.integer("variable label of " + name, 0);
            if (std::find(factor.labels.begin(), factor.labels.end(), label) !=
                factor.labels.end()) {
                tokens.fail("variable " + std::to_string(label) + " appears twice in " + name);
            }
            factor.labels.push_back(label);
        }
        double entries = 1.0;
        for (int i = 0; i < arity; ++i) {
            const int label = factor.labels[static_cast<std::size_t>(i)];
            const int k = tokens.integer("cardinality of variable " + std::to_string(label), 1);
            const auto [it, inserted] = cardinalityOf.try_emplace(label, k, tokens.line());
            if (!inserted && it->second.first != k) {
                tokens.fail("variable " + std::to_string(label) + " has " + std::to_string(k) +
                            " states here but " + std::to_string(it->second.first) + " on line " +
                            std::to_string(it->second.second));
            }
            factor.cardinalities.push_back(k);
            entries *= k;
        }
        if (arity >= 3) {
            if (const std::string why = factorSizeProblem(name, entries, factorEntries);
                !why.empty())
                tokens.fail(why);
        } else if (entries > kMaxTableEntries) {
            tokens.fail(name + " has " + formatReal(entries) + " entries, more than the " +
                        formatReal(kMaxTableEntries) + " a pairwise table may hold");
        }
        readFgEntries(tokens, name, entries, factor.table);
    }
    tokens.expectEnd("the last factor (the file declares " + std::to_string(count) + " factors)");

    // Variables numbered by increasing label.
    std::map<int, int> indexOf;
    std::vector<int> cardinalities;
    if (labelsOut) labelsOut->clear();
    for (const auto& [label, info] : cardinalityOf) {
        indexOf[label] = static_cast<int>(cardinalities.size());
        cardinalities.push_back(info.first);
        if (labelsOut) labelsOut->push_back(label);
    }
    if (cardinalities.empty()) throw DataError(sourceName, 0, "no variables: the graph is empty");
    if (const std::string why = labelTotalProblem(cardinalities); !why.empty())
        throw DataError(sourceName, 0, why);
    TablesBuilder builder(std::move(cardinalities));
    for (const FgFactor& factor : factors)
        addFgFactor(builder, factor, indexOf);
    return builder.take();
}

std::vector<std::pair<int, int>> parseEvidenceText(std::string_view text,
                                                   const std::string& sourceName,
                                                   const std::vector<int>& cardinalities) {
    Tokens tokens(text, sourceName, 'c');
    const int count = tokens.integer("evidence count", 0);
    std::vector<std::pair<int, int>> evidence;
    const auto n = static_cast<int>(cardinalities.size());
    std::map<int, std::pair<int, int>> seen;  // variable → (label, line)
    for (int i = 0; i < count; ++i) {
        const int v = tokens.integer("observed variable " + std::to_string(i + 1), 0);
        if (n > 0 && v >= n) {
            tokens.fail("observed variable " + std::to_string(v) +
                        " is out of range; the model has " + std::to_string(n) + " variables");
        }
        const int x = tokens.integer("label of observed variable " + std::to_string(v), 0);
        if (n > 0 && x >= cardinalities[static_cast<std::size_t>(v)]) {
            tokens.fail("label " + std::to_string(x) + " of observed variable " +
                        std::to_string(v) + " is out of range; the variable has " +
                        std::to_string(cardinalities[static_cast<std::size_t>(v)]) + " labels");
        }
        // The same variable observed twice must have one label: two would leave no labeling
        // of non-zero probability.
        const auto [it, first] = seen.try_emplace(v, x, tokens.line());
        if (!first && it->second.first != x) {
            tokens.fail("variable " + std::to_string(v) + " is observed with label " +
                        std::to_string(x) + " here and with label " +
                        std::to_string(it->second.first) + " on line " +
                        std::to_string(it->second.second) +
                        "; contradictory evidence leaves no labeling of non-zero probability");
        }
        evidence.emplace_back(v, x);
    }
    tokens.expectEnd("the evidence (the file declares " + std::to_string(count) + " pairs)");
    return evidence;
}

std::vector<int> parseResultText(std::string_view text, const std::string& sourceName,
                                 const std::vector<int>& cardinalities) {
    Tokens tokens(text, sourceName, 'c');
    const std::string_view header = tokens.require("'MAP'");
    if (header != "MAP" && header != "MPE") {
        tokens.fail("unknown result type " + inQuotes(header) + "; expected 'MAP' (or 'MPE')");
    }
    struct Token {
        std::string_view text;
        int line;
    };
    std::vector<Token> rest;
    for (std::string_view token; tokens.next(token);)
        rest.push_back({token, tokens.line()});
    if (rest.empty()) tokens.fail("unexpected end of file: expected the variable count");
    auto integerAt = [&](std::size_t i, const std::string& what) {
        std::string why;
        const int value = integerValue(rest[i].text, what, 0, why);
        if (!why.empty()) throw DataError(sourceName, rest[i].line, why);
        return value;
    };
    std::size_t first = 0;
    int n = integerAt(0, "variable count");
    // The older layout has a sample count (1) before N.
    if (static_cast<std::size_t>(n) + 1 != rest.size() && n == 1 && rest.size() >= 2) {
        first = 1;
        n = integerAt(1, "variable count");
    }
    if (static_cast<std::size_t>(n) + first + 1 != rest.size()) {
        const int line = rest.back().line;
        throw DataError(sourceName, line,
                        "the result declares " + std::to_string(n) + " variables but lists " +
                            std::to_string(rest.size() - first - 1) + " labels");
    }
    if (!cardinalities.empty() && static_cast<std::size_t>(n) != cardinalities.size()) {
        throw DataError(sourceName, rest[first].line,
                        "the result has " + std::to_string(n) + " labels; the model has " +
                            std::to_string(cardinalities.size()) + " variables");
    }
    std::vector<int> labeling(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) {
        const std::size_t i = first + 1 + static_cast<std::size_t>(v);
        const int x = integerAt(i, "label of variable " + std::to_string(v));
        if (!cardinalities.empty() && x >= cardinalities[static_cast<std::size_t>(v)]) {
            throw DataError(sourceName, rest[i].line,
                            "label " + std::to_string(x) + " of variable " + std::to_string(v) +
                                " is out of range; the variable has " +
                                std::to_string(cardinalities[static_cast<std::size_t>(v)]) +
                                " labels");
        }
        labeling[static_cast<std::size_t>(v)] = x;
    }
    return labeling;
}

}  // namespace

UaiTables loadUai(const std::string& path) {
    const std::string text = readInputFile(path);
    return parseUaiText(text, path);
}

UaiTables parseUai(std::string_view bytes, const std::string& sourceName) {
    std::string storage;
    return parseUaiText(inputText(bytes, sourceName, storage), sourceName);
}

std::string formatUai(const UaiTables& tables) {
    if (const std::string why = contractViolation(tables); !why.empty())
        throw std::invalid_argument("formatUai: invalid tables: " + why);
    const auto n = tables.cardinalities.size();
    const bool constant = tables.constant != 0.0;
    std::string out = "MARKOV\n" + std::to_string(n) + "\n";
    for (std::size_t v = 0; v < n; ++v)
        out += (v ? " " : "") + std::to_string(tables.cardinalities[v]);
    out += "\n" +
           std::to_string(n + tables.pairs.size() + tables.factors.size() + (constant ? 1 : 0)) +
           "\n";
    for (std::size_t v = 0; v < n; ++v)
        out += "1 " + std::to_string(v) + "\n";
    for (const auto& p : tables.pairs)
        out += "2 " + std::to_string(p.u) + " " + std::to_string(p.v) + "\n";
    for (const auto& factor : tables.factors) {
        out += std::to_string(factor.variables.size());
        for (const int v : factor.variables)
            out += " " + std::to_string(v);
        out += "\n";
    }
    if (constant) out += "0\n";
    auto appendTable = [&out](const std::vector<double>& table, std::size_t rowLength,
                              const char* where) {
        out += "\n" + std::to_string(table.size()) + "\n";
        for (std::size_t i = 0; i < table.size(); ++i) {
            appendPotential(out, table[i], where);
            out += (i + 1) % rowLength == 0 || i + 1 == table.size() ? '\n' : ' ';
        }
    };
    for (std::size_t v = 0; v < n; ++v)
        appendTable(tables.unary[v], tables.unary[v].size(), "a unary table");
    for (const auto& p : tables.pairs)
        appendTable(p.table, static_cast<std::size_t>(tables.cardinalities[std::size_t(p.v)]),
                    "a pair table");
    for (const auto& factor : tables.factors)
        appendTable(
            factor.table,
            static_cast<std::size_t>(tables.cardinalities[std::size_t(factor.variables.back())]),
            "a factor table");
    if (constant) appendTable({tables.constant}, 1, "the constant");
    return out;
}

void writeUai(const std::string& path, const UaiTables& tables, bool gzip) {
    writeOutputFile(path, formatUai(tables), gzip);
}

std::vector<std::pair<int, int>> loadUaiEvidence(const std::string& path,
                                                 const std::vector<int>& cardinalities) {
    const std::string text = readInputFile(path);
    return parseEvidenceText(text, path, cardinalities);
}

std::vector<std::pair<int, int>> parseUaiEvidence(std::string_view bytes,
                                                  const std::string& sourceName,
                                                  const std::vector<int>& cardinalities) {
    std::string storage;
    return parseEvidenceText(inputText(bytes, sourceName, storage), sourceName, cardinalities);
}

void applyEvidence(UaiTables& tables, const std::vector<std::pair<int, int>>& evidence) {
    for (const auto& [v, x] : evidence) {
        if (v < 0 || static_cast<std::size_t>(v) >= tables.cardinalities.size() || x < 0 ||
            x >= tables.cardinalities[static_cast<std::size_t>(v)]) {
            throw std::invalid_argument("applyEvidence: variable " + std::to_string(v) +
                                        " with label " + std::to_string(x) + " is out of range");
        }
        auto& unary = tables.unary[static_cast<std::size_t>(v)];
        for (std::size_t y = 0; y < unary.size(); ++y)
            if (static_cast<int>(y) != x) unary[y] = kNegInf;
    }
}

std::vector<int> loadUaiResult(const std::string& path, const std::vector<int>& cardinalities) {
    const std::string text = readInputFile(path);
    return parseResultText(text, path, cardinalities);
}

std::vector<int> parseUaiResult(std::string_view bytes, const std::string& sourceName,
                                const std::vector<int>& cardinalities) {
    std::string storage;
    return parseResultText(inputText(bytes, sourceName, storage), sourceName, cardinalities);
}

std::string formatUaiResult(const std::vector<int>& labeling) {
    std::string out = "MAP\n" + std::to_string(labeling.size());
    for (int x : labeling)
        out += " " + std::to_string(x);
    return out + "\n";
}

void writeUaiResult(const std::string& path, const std::vector<int>& labeling) {
    writeOutputFile(path, formatUaiResult(labeling));
}

UaiTables loadLibdaiFactorGraph(const std::string& path, std::vector<long long>* labels) {
    const std::string text = readInputFile(path);
    return parseFgText(text, path, labels);
}

UaiTables parseLibdaiFactorGraph(std::string_view bytes, const std::string& sourceName,
                                 std::vector<long long>* labels) {
    std::string storage;
    return parseFgText(inputText(bytes, sourceName, storage), sourceName, labels);
}

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The path without a trailing ".gz" ("Grids_26.uai.gz" → "Grids_26.uai").
std::string withoutGz(const std::string& path) {
    return endsWith(path, ".gz") ? path.substr(0, path.size() - 3) : path;
}

}  // namespace

std::string uaiInstanceName(const std::string& path) {
    std::string name = std::filesystem::path(withoutGz(path)).filename().string();
    for (const std::string_view suffix : {".uai", ".UAI", ".fg", ".FG"}) {
        if (endsWith(name, suffix)) return name.substr(0, name.size() - suffix.size());
    }
    return name;
}

std::string uaiSibling(const std::string& path, const std::string& extension) {
    std::string lower = withoutGz(path);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (path.empty() || endsWith(lower, ".fg")) return {};
    const std::string candidate = withoutGz(path) + extension;
    std::error_code error;
    return std::filesystem::is_regular_file(candidate, error) ? candidate : std::string();
}

int sniffUai(const FilePrefix& prefix) {
    if (prefix.hasExtension(".uai")) return 5;
    // UAI text starts (after blank and comment lines) with the network type.
    const std::string& head = prefix.head;
    std::size_t pos = 0;
    while (pos < head.size()) {
        const std::size_t end = std::min(head.find('\n', pos), head.size());
        const std::string_view line(head.data() + pos, end - pos);
        pos = end + 1;
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == 'c') continue;
        const std::string_view rest = line.substr(first);
        return rest.substr(0, 6) == "MARKOV" || rest.substr(0, 5) == "BAYES" ? 5 : 0;
    }
    return 0;
}

int sniffFactorGraph(const FilePrefix& prefix) {
    return prefix.hasExtension(".fg") ? 5 : 0;
}

}  // namespace cplab
