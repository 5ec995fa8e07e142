// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/chain_model.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/worker_team.h"

namespace cplab {

ChainModel::ChainModel(std::shared_ptr<const SequenceData> data, ChainModelOptions options)
    : data_(std::move(data)), options_(options) {
    if (!data_) throw std::invalid_argument("ChainModel: no data");
    if (const std::string why = data_->contractViolation(); !why.empty()) {
        throw std::invalid_argument("ChainModel: invalid sequence data '" + data_->name +
                                    "': " + why);
    }
    L_ = data_->labelCount();
    d_ = data_->dimension();
    const long long D = static_cast<long long>(L_) * d_ + L_ +
                        (options_.transitions ? static_cast<long long>(L_) * L_ : 0);
    if (D > kMaxChainWeights) {
        throw std::invalid_argument("ChainModel: " + std::to_string(L_) + " labels × " +
                                    std::to_string(d_) + " features make " + std::to_string(D) +
                                    " weights, more than the " + std::to_string(kMaxChainWeights) +
                                    " (128 MB per weight vector) a chain model may have");
    }
    dimension_ = static_cast<int>(D);
    // ψ and the solvers' line searches square sums of features: values near the top of the
    // double range would overflow to ∞ and stall every solver without a word.
    const SequenceData::SparseMatrix& X = data_->features;
    for (int k = 0; k < X.rows(); ++k) {
        const double squared = X.row(k).squaredNorm();
        if (!(squared <= kMaxTokenSquaredNorm)) {
            throw std::invalid_argument(
                "ChainModel: " + data_->where(k) + ": the token's features are too large (their " +
                "squared norm " + std::to_string(squared) + " passes 1e200, beyond which the " +
                "solvers' arithmetic overflows); rescale the data");
        }
    }
}

std::span<const int> ChainModel::truth(int i) const {
    return std::span<const int>(data_->labels)
        .subspan(static_cast<std::size_t>(data_->first(i)), static_cast<std::size_t>(length(i)));
}

double ChainModel::loss(int i, std::span<const int> y) const {
    const std::span<const int> yi = truth(i);
    int mistakes = 0;
    for (std::size_t t = 0; t < yi.size(); ++t)
        mistakes += yi[t] != y[t];
    return options_.normalizeLoss ? static_cast<double>(mistakes) / static_cast<double>(yi.size())
                                  : static_cast<double>(mistakes);
}

double ChainModel::score(const Eigen::VectorXd& w, int i, std::span<const int> y) const {
    const SequenceData::SparseMatrix& X = data_->features;
    const int first = data_->first(i);
    const int T = length(i);
    double s = 0.0;
    for (int t = 0; t < T; ++t) {
        const int label = y[static_cast<std::size_t>(t)];
        const double* wy = w.data() + emissionIndex(label, 0);
        for (SequenceData::SparseMatrix::InnerIterator it(X, first + t); it; ++it)
            s += wy[it.col()] * it.value();
        s += w[biasIndex(label)];
        if (options_.transitions && t + 1 < T)
            s += w[transitionIndex(label, y[static_cast<std::size_t>(t + 1)])];
    }
    return s;
}

void ChainModel::addPsi(int i, std::span<const int> y, double scale, Eigen::VectorXd& v) const {
    const SequenceData::SparseMatrix& X = data_->features;
    const int first = data_->first(i);
    const int T = length(i);
    for (int t = 0; t < T; ++t) {
        const int label = y[static_cast<std::size_t>(t)];
        double* vy = v.data() + emissionIndex(label, 0);
        for (SequenceData::SparseMatrix::InnerIterator it(X, first + t); it; ++it)
            vy[it.col()] += scale * it.value();
        v[biasIndex(label)] += scale;
        if (options_.transitions && t + 1 < T)
            v[transitionIndex(label, y[static_cast<std::size_t>(t + 1)])] += scale;
    }
}

void ChainModel::addPsiDifference(int i, std::span<const int> y, double scale,
                                  Eigen::VectorXd& v) const {
    addPsi(i, truth(i), scale, v);
    addPsi(i, y, -scale, v);
}

void ChainModel::unaryScores(const Eigen::VectorXd& w, int i, bool lossAugmented,
                             ChainWorkspace& ws) const {
    const SequenceData::SparseMatrix& X = data_->features;
    const int first = data_->first(i);
    const int T = length(i);
    ws.reserve(T, L_);
    const double* bias = w.data() + biasIndex(0);
    const std::span<const int> yi = truth(i);
    const double c = options_.normalizeLoss ? 1.0 / T : 1.0;
    for (int t = 0; t < T; ++t) {
        // The token's nonzeros once, then one sparse dot per label over a label's contiguous
        // weights (label-major layout): L·nnz multiply-adds.
        const int* index = X.innerIndexPtr() + X.outerIndexPtr()[first + t];
        const double* value = X.valuePtr() + X.outerIndexPtr()[first + t];
        const int nnz = X.outerIndexPtr()[first + t + 1] - X.outerIndexPtr()[first + t];
        double* u = ws.unary.row(t).data();
        for (int y = 0; y < L_; ++y) {
            const double* wy = w.data() + emissionIndex(y, 0);
            double s = bias[y];
            for (int k = 0; k < nnz; ++k)
                s += wy[index[k]] * value[k];
            u[y] = s;
        }
        if (lossAugmented) {
            // Δ decomposes: c·[y_t ≠ y_it] added to every label but the true one.
            for (int y = 0; y < L_; ++y)
                u[y] += c;
            u[yi[static_cast<std::size_t>(t)]] -= c;
        }
    }
}

void ChainWorkspace::reserve(int T, int L) {
    if (unary.rows() < T || unary.cols() != L) {
        unary.resize(std::max<Eigen::Index>(T, unary.rows()), L);
        value.resize(unary.rows(), L);
        back.resize(unary.rows(), L);
    }
}

double maxSumChain(int T, int L, const double* trans, std::vector<int>& y, ChainWorkspace& ws) {
    y.resize(static_cast<std::size_t>(T));
    ws.value.row(0).head(L) = ws.unary.row(0).head(L);
    for (int t = 1; t < T; ++t) {
        const double* prev = ws.value.row(t - 1).data();
        double* cur = ws.value.row(t).data();
        int* arg = ws.back.row(t).data();
        if (trans == nullptr) {
            // Independent tokens: the best previous label is the same for every b.
            int best = 0;
            for (int a = 1; a < L; ++a)
                if (prev[a] > prev[best]) best = a;
            for (int b = 0; b < L; ++b) {
                cur[b] = prev[best];
                arg[b] = best;
            }
        } else {
            // cur[b] = max_a prev[a] + trans[a][b]; a outer so the rows of the transition
            // block are read contiguously; strict '>' keeps the smallest maximising a.
            for (int b = 0; b < L; ++b) {
                cur[b] = prev[0] + trans[b];
                arg[b] = 0;
            }
            for (int a = 1; a < L; ++a) {
                const double pa = prev[a];
                const double* row = trans + static_cast<std::ptrdiff_t>(a) * L;
                for (int b = 0; b < L; ++b) {
                    const double v = pa + row[b];
                    if (v > cur[b]) {
                        cur[b] = v;
                        arg[b] = a;
                    }
                }
            }
        }
        for (int b = 0; b < L; ++b)
            cur[b] += ws.unary(t, b);
    }
    const double* last = ws.value.row(T - 1).data();
    int best = 0;
    for (int b = 1; b < L; ++b)
        if (last[b] > last[best]) best = b;
    const double maximum = last[best];
    y[static_cast<std::size_t>(T - 1)] = best;
    for (int t = T - 1; t > 0; --t) {
        best = ws.back(t, best);
        y[static_cast<std::size_t>(t - 1)] = best;
    }
    return maximum;
}

double ChainModel::decode(const Eigen::VectorXd& w, int i, std::vector<int>& y,
                          ChainWorkspace& ws) const {
    unaryScores(w, i, false, ws);
    return maxSumChain(length(i), L_, transitionsOf(w), y, ws);
}

double ChainModel::lossAugmentedDecode(const Eigen::VectorXd& w, int i, std::vector<int>& y,
                                       ChainWorkspace& ws) const {
    unaryScores(w, i, true, ws);
    return maxSumChain(length(i), L_, transitionsOf(w), y, ws);
}

double ChainModel::hinge(const Eigen::VectorXd& w, int i, std::vector<int>& y,
                         ChainWorkspace& ws) const {
    // Not clamped at 0: the maximum includes y = y_i, so a negative value beyond rounding
    // would reveal a decoding bug, and the tests look for it.
    return lossAugmentedDecode(w, i, y, ws) - score(w, i, truth(i));
}

Eigen::MatrixXd ChainModel::tokenScores(const Eigen::VectorXd& w, int i) const {
    ChainWorkspace ws;
    unaryScores(w, i, false, ws);
    return ws.unary.topRows(length(i));
}

double ChainModel::decode(const Eigen::VectorXd& w, int i, std::vector<int>& y) const {
    ChainWorkspace ws;
    return decode(w, i, y, ws);
}

double ChainModel::lossAugmentedDecode(const Eigen::VectorXd& w, int i, std::vector<int>& y) const {
    ChainWorkspace ws;
    return lossAugmentedDecode(w, i, y, ws);
}

namespace {

// fn(i, ws, y) for every sequence i, in blocks on `team`, each block with its own scratch.
template <class Fn>
void forEachSequence(const ChainModel& model, WorkerTeam* team, Fn&& fn) {
    const int n = model.size();
    const int blocks = team ? team->partsFor(model.data().tokenCount(), 512) : 1;
    runBlocks(team, n, blocks, [&](int, int begin, int end) {
        ChainWorkspace ws;
        std::vector<int> y;
        for (int i = begin; i < end; ++i)
            fn(i, ws, y);
    });
}

}  // namespace

double meanHinge(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team) {
    std::vector<double> hinge(static_cast<std::size_t>(model.size()));
    forEachSequence(model, team, [&](int i, ChainWorkspace& ws, std::vector<int>& y) {
        hinge[static_cast<std::size_t>(i)] = model.hinge(w, i, y, ws);
    });
    return std::accumulate(hinge.begin(), hinge.end(), 0.0) / model.size();
}

DecodingErrors decodingErrors(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                              const Interrupt* stop) {
    std::vector<int> wrong(static_cast<std::size_t>(model.size()));
    std::atomic<bool> cut{false};
    // At w = 0 every cell of the lattice is 0 and Viterbi's ties (strict '>', the smallest
    // maximiser) decode label 0 at every token: the same answer in O(T) instead of T·L² — a
    // summary of a run stopped at w = 0 on thousands of labels took 13 s after its limit.
    if (!(w.array() != 0.0).any()) {
        for (int i = 0; i < model.size(); ++i) {
            const std::span<const int> truth = model.truth(i);
            wrong[static_cast<std::size_t>(i)] = static_cast<int>(
                std::count_if(truth.begin(), truth.end(), [](int y) { return y != 0; }));
        }
    } else {
        forEachSequence(model, team, [&](int i, ChainWorkspace& ws, std::vector<int>& y) {
            if (cut.load(std::memory_order_relaxed)) return;
            if (stop && stop->requested()) {
                cut.store(true, std::memory_order_relaxed);
                return;
            }
            model.decode(w, i, y, ws);
            const std::span<const int> truth = model.truth(i);
            int mistakes = 0;
            for (std::size_t t = 0; t < y.size(); ++t)
                mistakes += y[t] != truth[t];
            wrong[static_cast<std::size_t>(i)] = mistakes;
        });
    }
    if (cut.load()) {
        constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
        return {kNaN, kNaN, false};
    }
    const long long total = std::accumulate(wrong.begin(), wrong.end(), 0LL);
    const auto words = std::count_if(wrong.begin(), wrong.end(), [](int m) { return m > 0; });
    return {static_cast<double>(total) / model.data().tokenCount(),
            static_cast<double>(words) / model.size()};
}

double tokenError(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team) {
    return decodingErrors(model, w, team).tokens;
}

double decodingPassCost(const ChainModel& model) {
    const double L = model.labelCount();
    const double perToken =
        L * model.featureDimension() + (model.options().transitions ? L * L : 0.0);
    return static_cast<double>(model.data().tokenCount()) * perToken;
}

std::string decodingCostWarning(const ChainModel& model) {
    const double cost = decodingPassCost(model);
    if (!(cost > kCostlyDecodingPass)) return {};
    char text[64];
    std::snprintf(text, sizeof text, "%.2g", cost);
    return "warning: '" + model.data().name + "' has " + std::to_string(model.labelCount()) +
           " labels and " + std::to_string(model.data().tokenCount()) +
           " tokens: one pass of Viterbi decodings costs about " + text +
           " multiply-adds (T L^2 per word), seconds to minutes per pass; the solvers' set-up "
           "decodes the data once or twice before the first iteration, max_seconds and cancel "
           "are checked per word";
}

bool sameLayout(const ChainModel& model, const ChainModel& other, std::string* why) {
    auto fail = [&](const std::string& reason) {
        if (why)
            *why = "'" + other.data().name + "' does not fit the model of '" + model.data().name +
                   "': " + reason;
        return false;
    };
    if (other.data().labelNames != model.data().labelNames) {
        return fail("its labels (" + std::to_string(other.labelCount()) +
                    ") differ from the model's (" + std::to_string(model.labelCount()) +
                    "); give both files the same '# labels:' header");
    }
    if (other.featureDimension() != model.featureDimension()) {
        return fail(std::to_string(other.featureDimension()) + " features against " +
                    std::to_string(model.featureDimension()) +
                    "; give both files the same '# dimension:' header");
    }
    if (other.options().transitions != model.options().transitions)
        return fail("one model has transitions, the other not");
    return true;
}

}  // namespace cplab
