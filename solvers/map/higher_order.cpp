// SPDX-License-Identifier: GPL-3.0-or-later
// The higher-order factors of PairwiseModel (pairwise_model.h): storage, lookups and the
// max-marginals the message-passing solvers and the decoder use.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "map/pairwise_model.h"

namespace cplab {

int PairwiseModel::addFactor(std::vector<int> variables, std::vector<double> table) {
    const std::string name = "factor " + std::to_string(factorCount());
    if (variables.size() < 3)
        throw std::invalid_argument("PairwiseModel: " + name + " has " +
                                    std::to_string(variables.size()) +
                                    " variables; a factor needs 3 or more (use addEdge for 2)");
    std::size_t size = 1;
    std::string shape;
    for (std::size_t i = 0; i < variables.size(); ++i) {
        const int v = variables[i];
        checkVariable(v, "factor variable");
        if (std::find(variables.begin(), variables.begin() + static_cast<std::ptrdiff_t>(i), v) !=
            variables.begin() + static_cast<std::ptrdiff_t>(i))
            throw std::invalid_argument("PairwiseModel: variable " + std::to_string(v) +
                                        " appears twice in " + name);
        size *= static_cast<std::size_t>(labels(v));
        shape += (shape.empty() ? "" : "x") + std::to_string(labels(v));
        if (size > kMaxFactorEntries)
            throw std::invalid_argument("PairwiseModel: the table of " + name +
                                        " would have more than " +
                                        std::to_string(kMaxFactorEntries) + " entries");
    }
    if (table.size() != size)
        throw std::invalid_argument("PairwiseModel: the table of " + name + " has " +
                                    std::to_string(table.size()) + " entries; expected " +
                                    std::to_string(size) + " = " + shape);
    if (factorTables_.size() + size > kMaxTotalFactorEntries)
        throw std::invalid_argument(
            "PairwiseModel: the table of " + name + " (" + std::to_string(size) +
            " entries) brings the factor tables to " + std::to_string(factorTables_.size() + size) +
            " entries, more than the " + std::to_string(kMaxTotalFactorEntries) +
            " allowed in all");
    const int f = factorCount();
    if (factorsAt_.empty()) factorsAt_.resize(labelCounts_.size());
    for (std::size_t i = 0; i < variables.size(); ++i)
        factorsAt_[static_cast<std::size_t>(variables[i])].push_back({f, static_cast<int>(i)});
    factorVariables_.insert(factorVariables_.end(), variables.begin(), variables.end());
    factorVarOffset_.push_back(factorVariables_.size());
    factorTables_.insert(factorTables_.end(), table.begin(), table.end());
    factorOffset_.push_back(factorTables_.size());
    return f;
}

std::size_t PairwiseModel::factorIndex(int f, std::span<const int> x) const {
    std::size_t index = 0;
    for (const int v : factorVariables(f))
        index = index * static_cast<std::size_t>(labels(v)) +
                static_cast<std::size_t>(x[static_cast<std::size_t>(v)]);
    return index;
}

void PairwiseModel::addFactorConditional(int f, int position, std::span<const int> x, double floor,
                                         double* out) const {
    const auto vars = factorVariables(f);
    // The index with x_v = 0 at `position`, and the stride of that position.
    std::size_t base = 0;
    std::size_t stride = 1;
    for (std::size_t i = 0; i < vars.size(); ++i) {
        const auto k = static_cast<std::size_t>(labels(vars[i]));
        const bool here = static_cast<int>(i) == position;
        base = base * k + (here ? 0 : static_cast<std::size_t>(x[std::size_t(vars[i])]));
        stride = here ? 1 : stride * k;
    }
    const double* table = factorTables_.data() + factorOffset_[static_cast<std::size_t>(f)];
    const int k = labels(vars[static_cast<std::size_t>(position)]);
    for (int a = 0; a < k; ++a)
        out[a] += std::max(table[base + static_cast<std::size_t>(a) * stride], floor);
}

double PairwiseModel::factorMaxMarginals(int f, const double* const* in, double* const* out,
                                         double floor) const {
    return factorMaxMarginals(f, in, out, {}, floor);
}

double PairwiseModel::factorMaxMarginals(int f, const double* const* in, double* const* out,
                                         std::span<const FactorPairTerm> pairs,
                                         double floor) const {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const auto vars = factorVariables(f);
    const std::size_t arity = vars.size();
    for (std::size_t i = 0; i < arity; ++i)
        if (out[i]) std::fill(out[i], out[i] + labels(vars[i]), -kInf);
    for (const FactorPairTerm& p : pairs)
        if (p.out)
            std::fill(
                p.out,
                p.out + labels(vars[std::size_t(p.first)]) * labels(vars[std::size_t(p.second)]),
                -kInf);
    const auto table = factorTable(f);
    // An odometer over the labels, the last variable fastest: entry `index` of the table.
    int label[64] = {};
    std::vector<int> big;
    int* x = label;
    if (arity > 64) {
        big.assign(arity, 0);
        x = big.data();
    }
    auto pairIndex = [&](const FactorPairTerm& p) {
        return static_cast<std::size_t>(x[p.first]) *
                   static_cast<std::size_t>(labels(vars[std::size_t(p.second)])) +
               static_cast<std::size_t>(x[p.second]);
    };
    double best = -kInf;
    for (std::size_t index = 0; index < table.size(); ++index) {
        double value = std::max(table[index], floor);
        for (std::size_t j = 0; j < arity; ++j)
            value += in[j][x[j]];
        for (const FactorPairTerm& p : pairs)
            if (p.in) value += p.in[pairIndex(p)];
        best = std::max(best, value);
        for (std::size_t j = 0; j < arity; ++j)
            if (out[j]) out[j][x[j]] = std::max(out[j][x[j]], value);
        for (const FactorPairTerm& p : pairs)
            if (p.out) {
                double& o = p.out[pairIndex(p)];
                o = std::max(o, value);
            }
        for (std::size_t j = arity; j-- > 0;) {
            if (++x[j] < labels(vars[j])) break;
            x[j] = 0;
        }
    }
    return best;
}

}  // namespace cplab
