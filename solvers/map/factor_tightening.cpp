// SPDX-License-Identifier: GPL-3.0-or-later
// MPLP with cycles on models with higher-order factors (cycle_mplp.h, "Higher-order
// factors"): the factors' generalised MPLP updates over their variables and pair separators,
// their terms of the bound, and the pursuit of pair separators.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "map/cycle_mplp.h"

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

void CycleMplpSolver::findSeparators() {
    const PairwiseModel& m = *model_;
    if (m.factorCount() == 0) return;
    // Every pair of variables inside a factor, with the factors holding it.
    std::map<std::pair<int, int>, std::vector<Member>> pairs;
    for (int f = 0; f < m.factorCount(); ++f) {
        const auto vars = m.factorVariables(f);
        for (std::size_t i = 0; i < vars.size(); ++i)
            for (std::size_t j = 0; j < vars.size(); ++j)
                if (vars[i] < vars[j])
                    pairs[{vars[i], vars[j]}].push_back(
                        {f, static_cast<int>(i), static_cast<int>(j)});
    }
    links_.resize(static_cast<std::size_t>(m.factorCount()));
    for (auto& [pair, members] : pairs) {
        Separator s;
        s.u = pair.first;
        s.v = pair.second;
        if (const auto it = edgeOf_.find(pairKey(s.u, s.v)); it != edgeOf_.end()) {
            s.edge = it->second;
            if (m.edge(s.edge).u != s.u) {
                // The edge's layout: its u's label major.
                std::swap(s.u, s.v);
                for (Member& member : members)
                    std::swap(member.first, member.second);
            }
        }
        if (members.size() < 2 && s.edge < 0) continue;  // nothing to agree with
        s.members = std::move(members);
        separators_.push_back(std::move(s));
    }
    if (cycleOptions_.separators == "all")
        for (std::size_t s = 0; s < separators_.size(); ++s)
            activateSeparator(static_cast<int>(s));
}

double CycleMplpSolver::separatorBelief(const Separator& s, int a, int b) const {
    if (s.edge >= 0) return edgeBelief(s.edge, a, b);
    if (s.table.empty()) return 0.0;
    return s.table[static_cast<std::size_t>(a) * static_cast<std::size_t>(model_->labels(s.v)) +
                   static_cast<std::size_t>(b)];
}

void CycleMplpSolver::activateSeparator(int index) {
    const PairwiseModel& m = *model_;
    Separator& s = separators_[static_cast<std::size_t>(index)];
    const std::size_t entries =
        static_cast<std::size_t>(m.labels(s.u)) * static_cast<std::size_t>(m.labels(s.v));
    if (s.edge >= 0) {
        auto& extra = extra_[static_cast<std::size_t>(s.edge)];
        if (extra.empty()) extra.assign(entries, 0.0);
    } else {
        s.table.assign(entries, 0.0);
    }
    for (const Member& member : s.members)
        links_[static_cast<std::size_t>(member.factor)].push_back(
            {index, member.first, member.second, std::vector<double>(entries, 0.0)});
    s.active = true;
    ++activeSeparators_;
}

void CycleMplpSolver::updateFactor(int f) {
    // λ_t = θ̂_t − δ_{f→t} for each intersection set t of f, M_t = the max-marginals of
    // θ_f + Σ_t λ_t, then δ_{f→t} = M_t/n − λ_t, so that θ̂_t = M_t/n.
    const PairwiseModel& m = *model_;
    const auto vars = m.factorVariables(f);
    FactorWork& work = factorLambdas(f);
    const std::vector<Link>& own = links_[static_cast<std::size_t>(f)];
    const std::size_t square =
        static_cast<std::size_t>(m.maxLabels()) * static_cast<std::size_t>(m.maxLabels());
    pairWork_.resize(2 * square * own.size());
    pairTerms_.resize(own.size());
    for (std::size_t l = 0; l < own.size(); ++l) {
        const Link& link = own[l];
        const Separator& s = separators_[static_cast<std::size_t>(link.separator)];
        double* lambda = pairWork_.data() + 2 * l * square;
        const int ku = m.labels(s.u), kv = m.labels(s.v);
        for (int a = 0; a < ku; ++a)
            for (int b = 0; b < kv; ++b) {
                const auto i = static_cast<std::size_t>(a * kv + b);
                lambda[i] = separatorBelief(s, a, b) - link.delta[i];
            }
        pairTerms_[l] = {link.first, link.second, lambda, lambda + square};
    }
    m.factorMaxMarginals(f, work.in.data(), work.out.data(), pairTerms_, floor_);
    const double share = 1.0 / static_cast<double>(vars.size() + own.size());
    setFactorMessages(f, work, share);
    for (std::size_t l = 0; l < own.size(); ++l) {
        Link& link = links_[std::size_t(f)][l];
        Separator& s = separators_[static_cast<std::size_t>(link.separator)];
        std::vector<double>& target =
            s.edge >= 0 ? extra_[static_cast<std::size_t>(s.edge)] : s.table;
        for (std::size_t i = 0; i < link.delta.size(); ++i) {
            const double updated = share * pairTerms_[l].out[i] - pairTerms_[l].in[i];
            target[i] += updated - link.delta[i];
            link.delta[i] = updated;
        }
    }
}

double CycleMplpSolver::factorTerm(int f, const std::vector<int>* x,
                                   std::vector<std::uint8_t>* disagreeing, const Member* pair,
                                   double* pairOut) const {
    // θ̂_f = θ'_f − Σ_i δ_{f→i} − Σ_s δ_{f→s}: its maximum, and its value at x.
    const PairwiseModel& m = *model_;
    const auto vars = m.factorVariables(f);
    FactorWork& work = factorWork(f);
    double at = x ? std::max(m.factorTable(f)[m.factorIndex(f, *x)], floor_) : 0.0;
    for (std::size_t j = 0; j < vars.size(); ++j) {
        const double* delta = factorMessage(f, static_cast<int>(j));
        for (int a = 0; a < m.labels(vars[j]); ++a)
            work.inMutable[j][a] = -delta[a];
        work.out[j] = nullptr;
        if (x) at -= delta[(*x)[static_cast<std::size_t>(vars[j])]];
    }
    const std::vector<Link>& own = links_[static_cast<std::size_t>(f)];
    const std::size_t square =
        static_cast<std::size_t>(m.maxLabels()) * static_cast<std::size_t>(m.maxLabels());
    pairWork_.resize(square * own.size());
    pairTerms_.clear();
    for (std::size_t l = 0; l < own.size(); ++l) {
        const Link& link = own[l];
        double* minus = pairWork_.data() + l * square;
        for (std::size_t i = 0; i < link.delta.size(); ++i)
            minus[i] = -link.delta[i];
        pairTerms_.push_back({link.first, link.second, minus, nullptr});
        if (x) {
            const auto a =
                static_cast<std::size_t>((*x)[std::size_t(vars[std::size_t(link.first)])]);
            const auto b =
                static_cast<std::size_t>((*x)[std::size_t(vars[std::size_t(link.second)])]);
            at -=
                link.delta[a * static_cast<std::size_t>(m.labels(vars[std::size_t(link.second)])) +
                           b];
        }
    }
    if (pair) pairTerms_.push_back({pair->first, pair->second, nullptr, pairOut});
    const double top = m.factorMaxMarginals(f, work.in.data(), work.out.data(), pairTerms_, floor_);
    if (x && disagreeing && at < top - 1e-9 * std::max(1.0, std::abs(top)))
        for (const int v : vars)
            (*disagreeing)[static_cast<std::size_t>(v)] = 1;
    return top;
}

double CycleMplpSolver::factorBound(const std::vector<int>& x,
                                    std::vector<std::uint8_t>& disagreeing) const {
    const PairwiseModel& m = *model_;
    double sum = 0.0;
    for (int f = 0; f < m.factorCount(); ++f)
        sum += factorTerm(f, &x, &disagreeing);
    for (const Separator& s : separators_) {
        if (s.edge >= 0 || !s.active) continue;  // an edge's term is the edge's
        const double top = *std::max_element(s.table.begin(), s.table.end());
        sum += top;
        const double at =
            separatorBelief(s, x[static_cast<std::size_t>(s.u)], x[static_cast<std::size_t>(s.v)]);
        if (at < top - 1e-9 * std::max(1.0, std::abs(top))) {
            disagreeing[static_cast<std::size_t>(s.u)] = 1;
            disagreeing[static_cast<std::size_t>(s.v)] = 1;
        }
    }
    return sum;
}

double CycleMplpSolver::separatorDecrease(const Separator& s) const {
    const PairwiseModel& m = *model_;
    const int ku = m.labels(s.u), kv = m.labels(s.v);
    const auto entries = static_cast<std::size_t>(ku * kv);
    std::vector<double> joint(entries), marginal(entries);
    double separate = -kInf;
    for (int a = 0; a < ku; ++a)
        for (int b = 0; b < kv; ++b) {
            const double t = separatorBelief(s, a, b);
            joint[static_cast<std::size_t>(a * kv + b)] = t;
            separate = std::max(separate, t);
        }
    for (const Member& member : s.members) {
        separate += factorTerm(member.factor, nullptr, nullptr, &member, marginal.data());
        for (std::size_t i = 0; i < entries; ++i)
            joint[i] += marginal[i];
    }
    return separate - *std::max_element(joint.begin(), joint.end());
}

int CycleMplpSolver::addSeparators() {
    if (cycleOptions_.separators != "pursuit") return 0;
    std::vector<std::pair<double, int>> qualifying;  // (d(s), s)
    for (std::size_t s = 0; s < separators_.size(); ++s) {
        if (separators_[s].active) continue;
        const double d = separatorDecrease(separators_[s]);
        if (d > cycleOptions_.min_decrease) qualifying.push_back({d, static_cast<int>(s)});
    }
    std::stable_sort(qualifying.begin(), qualifying.end(),
                     [](const auto& p, const auto& q) { return p.first > q.first; });
    if (qualifying.size() > static_cast<std::size_t>(clustersPerRound_))
        qualifying.resize(static_cast<std::size_t>(clustersPerRound_));
    if (qualifying.empty()) return 0;
    // The new separators' factors updated at once, best d(s) first; the fall of U measured.
    const double before = currentBound();
    for (const auto& [d, s] : qualifying) {
        activateSeparator(s);
        addedDecrease_.push_back(d);
    }
    for (const auto& [d, s] : qualifying)
        for (const Member& member : separators_[static_cast<std::size_t>(s)].members)
            updateFactor(member.factor);
    tightenDecrease_ = before - currentBound();
    return static_cast<int>(qualifying.size());
}

double CycleMplpSolver::currentBound() const {
    const PairwiseModel& m = *model_;
    std::vector<int> x(static_cast<std::size_t>(m.variables()));
    for (int v = 0; v < m.variables(); ++v) {
        const std::span<const double> b = beliefs(v);
        x[static_cast<std::size_t>(v)] =
            static_cast<int>(std::max_element(b.begin(), b.end()) - b.begin());
    }
    std::vector<std::uint8_t> unused(x.size(), 0);
    return boundAt(x, unused);
}

}  // namespace cplab
