// SPDX-License-Identifier: GPL-3.0-or-later
// UAI files of Markov networks (factors of any arity), read and written, and their companions: the
// `.evid` evidence file and the `.MAP` result file (UAI 2014 inference competition formats). Also a
// reader of libDAI's `.fg` factor graphs, whose pairwise models the same tables hold.
//
// A UAI model file is a stream of whitespace-separated tokens (line breaks carry no meaning):
//
//   MARKOV                      the network type (BAYES networks are refused)
//   N                           number of variables
//   k_0 k_1 … k_{N−1}           their label counts (cardinalities), each ≥ 1
//   F                           number of factors
//   a v_1 … v_a                 F scopes: arity a, then the variables (0-based)
//   n t_0 … t_{n−1}             F tables, in scope order: entry count n = Π k_{v_i}, entries
//                               with the LAST scope variable changing fastest
//
// Lines starting with `c` are comments. Table entries are potentials (non-negative numbers,
// not necessarily normalised); the model is their product, so MAP inference maximises the sum
// of their logarithms: we store θ = log t, and t = 0 becomes θ = −∞, a hard constraint that
// forbids the label or the label pair. Factors of arity 0 (a constant), 1 and 2 are summed into
// the unary and pair tables: several factors on the same scope, in either order, into one
// table (a product of potentials). Factors of 3 or more variables (wcsp_11 of UAI 2014 has
// ternary ones) are kept as they are given, one dense table each; a table of more than 2^24
// entries, or more than 2^26 entries over all such factors, is refused with both sizes named. Any
// other input — a bad header, counts that do not match, negative entries, text that is not a
// number, a file that ends early or goes on after its last table, binary bytes — is a DataError
// naming the file, the line and what was expected; nothing is half-loaded.
//
// The tables are kept here as plain data (UaiTables); map/pairwise_model.h builds a
// PairwiseModel from them and back.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/data_format.h"

namespace cplab {

// A model as the files hold it, on the log scale (max-sum convention):
//   E(x) = constant + Σ_v unary[v][x_v] + Σ_e pairs[e].table[x_u · k_v + x_v]
//          + Σ_f factors[f].table[row-major index of (x_{v_1}, …, x_{v_a})],
// with −∞ allowed in any table (a forbidden label or pair). NaN and +∞ never appear.
struct UaiTables {
    struct Pair {
        int u = 0;                  // first variable: its label is the row (major) index
        int v = 0;                  // second variable, u < v after reading
        std::vector<double> table;  // k_u · k_v log-potentials, row-major
    };
    std::vector<int> cardinalities;          // label count of each variable, ≥ 1
    std::vector<std::vector<double>> unary;  // per variable, k_v log-potentials (0 if none)
    std::vector<Pair> pairs;                 // one per distinct pair of variables
    // A factor of 3 or more distinct variables: Π k_{v_i} log-potentials, row-major in the
    // order the variables are listed (the LAST one changes fastest, as in UAI files).
    struct Factor {
        std::vector<int> variables;
        std::vector<double> table;
    };
    std::vector<Factor> factors;  // higher-order factors, as given (not merged)
    double constant = 0.0;        // Σ of the logs of arity-0 factors
};

// Loads the UAI file at `path` (plain or gzip, detected by its magic bytes).
UaiTables loadUai(const std::string& path);
// Parses UAI text (or its gzip) held in memory; `sourceName` is used in messages.
UaiTables parseUai(std::string_view bytes, const std::string& sourceName);

// UAI text of `tables`: MARKOV, one unary factor per variable, one pairwise factor per pair,
// one factor per higher-order factor, and an arity-0 factor for a nonzero constant; entries exp(θ)
// in shortest round-trip form (exp(−∞) = 0). Throws std::invalid_argument when a finite θ lies
// outside [−700, 700], where exp(θ) would leave the range of doubles or lose all precision, or when
// the tables break the UaiTables contract (sizes, indices, NaN or +∞).
std::string formatUai(const UaiTables& tables);
// Writes formatUai(tables) to `path`, gzip-compressed when `gzip`. Throws DataError.
void writeUai(const std::string& path, const UaiTables& tables, bool gzip = false);

// --- evidence -------------------------------------------------------------------------------

// The UAI 2014 evidence file: "E v_1 x_1 … v_E x_E" (count, then variable/label pairs).
// Returns the pairs; `cardinalities` (when not empty) checks the variables and labels.
std::vector<std::pair<int, int>> loadUaiEvidence(const std::string& path,
                                                 const std::vector<int>& cardinalities = {});
std::vector<std::pair<int, int>> parseUaiEvidence(std::string_view bytes,
                                                  const std::string& sourceName,
                                                  const std::vector<int>& cardinalities = {});
// Clamps the observed variables: θ_v(x) = −∞ for every label x other than the observed one.
// The variables stay in the model (a MAP labeling still names all of them). Throws
// std::invalid_argument for a variable or label out of range.
void applyEvidence(UaiTables& tables, const std::vector<std::pair<int, int>>& evidence);

// --- results --------------------------------------------------------------------------------

// A UAI MAP result: "MAP" (or "MPE"), then N and the N labels. The older form with a sample
// count line ("MPE\n1\nN x_1 … x_N") is read as well. `cardinalities` (when not empty) checks
// the count and every label.
std::vector<int> loadUaiResult(const std::string& path, const std::vector<int>& cardinalities = {});
std::vector<int> parseUaiResult(std::string_view bytes, const std::string& sourceName,
                                const std::vector<int>& cardinalities = {});
// "MAP\nN x_1 … x_N\n".
std::string formatUaiResult(const std::vector<int>& labeling);
void writeUaiResult(const std::string& path, const std::vector<int>& labeling);

// --- libDAI factor graphs -------------------------------------------------------------------

// libDAI's `.fg` text: `#` comment lines, the factor count, then per factor (blank lines
// between them are allowed): its variable count, the variable labels (any non-negative
// integers), their cardinalities, the number of listed entries, and that many
// "<linear index> <value>" lines, where the FIRST variable changes fastest; unlisted entries
// are 0. Variables are numbered by increasing label (`labels`, when given, receives the label
// of each). Factors of 3 or more variables become UaiTables::factors (their variables listed
// in reverse file order, so that the table's linear index is unchanged), under the caps of
// the UAI reader; a label with two different cardinalities,
// an index out of range, a negative value and the other errors above are DataErrors.
UaiTables loadLibdaiFactorGraph(const std::string& path, std::vector<long long>* labels = nullptr);
UaiTables parseLibdaiFactorGraph(std::string_view bytes, const std::string& sourceName,
                                 std::vector<long long>* labels = nullptr);

// The instance name of a model file: its file name without .gz, .uai and .fg
// ("data/Grids_26.uai.gz" → "Grids_26").
std::string uaiInstanceName(const std::string& path);
// The sibling `<model>.<extension>` of a UAI model file ("X.uai.gz" → "X.uai.evid"), when it
// exists as a regular file; empty otherwise and for libDAI files (the convention is UAI's).
std::string uaiSibling(const std::string& path, const std::string& extension);

// The format table's sniffs (data_format.h). UAI: 5 when the name ends in .uai or the text
// starts (after blank and comment lines) with the network type MARKOV or BAYES. libDAI: 5 when
// the name ends in .fg.
int sniffUai(const FilePrefix& prefix);
int sniffFactorGraph(const FilePrefix& prefix);

}  // namespace cplab
