// SPDX-License-Identifier: GPL-3.0-or-later
// The chain model of sequence labelling (ALGORITHMS.md §6; Taskar et al. 2003, Tsochantaridis
// et al. 2005, the OCR experiments of Lacoste-Julien et al. 2013 and Martins et al. 2010).
//
// For a sequence x = (x_1 … x_T) of token feature vectors x_t ∈ R^d and a labelling
// y = (y_1 … y_T) ∈ {0 … L−1}^T the joint feature map is
//
//     Ψ(x, y) = Σ_t  e_{y_t} ⊗ (x_t, 1)            emission (label ⊗ token features) + bias
//             + Σ_{t<T} e_{y_t} ⊗ e_{y_{t+1}}     first-order transitions (label ⊗ label)
//
// and a weight vector w ∈ R^D scores a labelling by ⟨w, Ψ(x, y)⟩. Weight layout, D = L·d + L
// + L² (the transition block is absent, D = L·d + L, when options.transitions is false):
//
//     w[y·d + j]              emission weight of label y on feature j (label-major: the d
//                             weights of one label are contiguous; for OCR, the 16 × 8 template
//                             of one letter, row by row, so a view can draw it as an image)
//     w[L·d + y]              bias of label y
//     w[L·d + L + a·L + b]    transition a → b (y_t = a, y_{t+1} = b)
//
// emissionIndex, biasIndex and transitionIndex compute these. Multi-class classification is
// the case T = 1 (no transition is ever used).
//
// Loss: Hamming, Δ(y', y) = c·#{t : y'_t ≠ y_t}, with c = 1/T (options.normalizeLoss, the
// default) or c = 1. Default normalised because (i) every word then weighs the same in the
// risk (1/n)Σᵢ Hᵢ(w), whatever its length (3 to 14 letters in OCR), and Δ ∈ [0, 1] is the
// multi-class 0/1 loss at T = 1; (ii) it is the loss of the BCFW paper's OCR experiments
// (Lacoste-Julien et al. 2013; chain_loss.m of their BCFWstruct code, run at λ = 0.01), so a
// λ means the same thing here as there. Unnormalised Hamming makes long words dominate the
// risk; it is one option away.
//
// Decoding. Viterbi computes argmax_y ⟨w, Ψ(x, y)⟩ and, with the loss folded into the unary
// terms (Δ decomposes over tokens: c·[y_t ≠ y_it]), the loss-augmented argmax_y Δ(y_i, y) +
// ⟨w, Ψ(x_i, y)⟩. The unary scores ⟨w_{y}, x_t⟩ + b_y are computed once per token (O(T·L·nnz)),
// the max-sum recursion costs O(T·L²). Ties are broken deterministically (the smallest label
// at every choice of the recursion and at its end). Decoding needs scratch space: pass a
// ChainWorkspace (one per thread) to avoid allocations in loops.
//
// Threading: a ChainModel is immutable after construction; its const functions may run on
// many threads at once, each with its own ChainWorkspace.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/cancel_token.h"
#include "data/sequence_format.h"

namespace cplab {

class WorkerTeam;

struct ChainModelOptions {
    bool normalizeLoss = true;  // Hamming loss divided by the sequence length T (see above)
    bool transitions = true;    // first-order transitions; false: independent tokens
};

// Scratch space for decoding (reused across calls; grows to the longest sequence seen).
struct ChainWorkspace {
    using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    RowMatrix unary;  // T × L: unary scores (plus the loss term when loss-augmented)
    RowMatrix value;  // T × L: best score of a prefix ending in label y at t
    Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> back;  // argmax of prefix

    // Room for T × L in all three (keeps what is there when it is large enough).
    void reserve(int T, int L);
};

// Max-sum over a chain: y = argmax_y Σ_t ws.unary(t, y_t) + Σ_{t<T} trans[y_t·L + y_{t+1}]
// (trans: L × L row-major, or null for independent tokens) for the T × L unary scores the
// caller put in ws.unary (after ws.reserve(T, L)); returns the maximum. O(T·L²); ties go to
// the smallest label.
double maxSumChain(int T, int L, const double* trans, std::vector<int>& y, ChainWorkspace& ws);

// The most weights D a ChainModel may have: the solvers hold several dense vectors of D
// (w, its average, the best w, a corner; BCFW one per word), 128 MB each at this bound.
inline constexpr long long kMaxChainWeights = 1LL << 24;
// The largest squared norm of a token's features a ChainModel accepts.
inline constexpr double kMaxTokenSquaredNorm = 1e200;

class ChainModel {
  public:
    // Throws std::invalid_argument when `data` is null or breaks the SequenceData contract,
    // when D is above kMaxChainWeights, or when a token's squared feature norm is above
    // kMaxTokenSquaredNorm (or not finite).
    explicit ChainModel(std::shared_ptr<const SequenceData> data, ChainModelOptions options = {});

    const SequenceData& data() const { return *data_; }
    const std::shared_ptr<const SequenceData>& dataPtr() const { return data_; }
    const ChainModelOptions& options() const { return options_; }

    int size() const { return data_->size(); }    // n sequences
    int labelCount() const { return L_; }         // L
    int featureDimension() const { return d_; }   // d
    int dimension() const { return dimension_; }  // D (layout above)
    int length(int i) const { return data_->length(i); }

    int emissionIndex(int label, int feature) const { return label * d_ + feature; }
    int biasIndex(int label) const { return L_ * d_ + label; }
    // Precondition: options().transitions.
    int transitionIndex(int from, int to) const { return L_ * d_ + L_ + from * L_ + to; }

    // The true labelling y_i of sequence i.
    std::span<const int> truth(int i) const;

    // Δ(y_i, y) for a labelling y of sequence i's length.
    double loss(int i, std::span<const int> y) const;
    // ⟨w, Ψ(x_i, y)⟩, in O(T·nnz) without forming Ψ. w.size() == dimension().
    double score(const Eigen::VectorXd& w, int i, std::span<const int> y) const;
    // v += scale·Ψ(x_i, y), touching only the entries Ψ has (O(T·nnz)).
    void addPsi(int i, std::span<const int> y, double scale, Eigen::VectorXd& v) const;
    // v += scale·ψ_i(y) with ψ_i(y) = Ψ(x_i, y_i) − Ψ(x_i, y) (ALGORITHMS.md §6).
    void addPsiDifference(int i, std::span<const int> y, double scale, Eigen::VectorXd& v) const;

    // Viterbi: y = argmax_y ⟨w, Ψ(x_i, y)⟩; returns that maximal score.
    double decode(const Eigen::VectorXd& w, int i, std::vector<int>& y, ChainWorkspace& ws) const;
    // y = argmax_y Δ(y_i, y) + ⟨w, Ψ(x_i, y)⟩; returns that maximum.
    double lossAugmentedDecode(const Eigen::VectorXd& w, int i, std::vector<int>& y,
                               ChainWorkspace& ws) const;
    // The structured hinge Hᵢ(w) = max_y Δ(y_i, y) + ⟨w, Ψ(x_i, y) − Ψ(x_i, y_i)⟩ ≥ 0 (y = y_i
    // gives 0); `y` receives the maximiser (the loss-augmented decoding).
    double hinge(const Eigen::VectorXd& w, int i, std::vector<int>& y, ChainWorkspace& ws) const;

    // The unary scores ⟨w_y, x_t⟩ + b_y of sequence i's tokens, T × L (row t, column y): the
    // cells of its Viterbi lattice, without the transitions.
    Eigen::MatrixXd tokenScores(const Eigen::VectorXd& w, int i) const;

    // Convenience overloads with their own scratch space (tests, one-off calls).
    double decode(const Eigen::VectorXd& w, int i, std::vector<int>& y) const;
    double lossAugmentedDecode(const Eigen::VectorXd& w, int i, std::vector<int>& y) const;

  private:
    // ws.unary = the emission + bias scores of sequence i's tokens (+ the loss term).
    void unaryScores(const Eigen::VectorXd& w, int i, bool lossAugmented, ChainWorkspace& ws) const;
    // The transition block of w (L × L row-major), or null without transitions.
    const double* transitionsOf(const Eigen::VectorXd& w) const {
        return options_.transitions ? w.data() + transitionIndex(0, 0) : nullptr;
    }

    std::shared_ptr<const SequenceData> data_;
    ChainModelOptions options_;
    int L_ = 0, d_ = 0, dimension_ = 0;
};

// Passes over all sequences of a model, on the threads of `team` (null: the calling thread).
// Each sequence's value goes into a slot of its own and the slots are summed in order, so the
// result does not depend on the number of threads.
//
// (1/n) Σᵢ Hᵢ(w): n loss-augmented decodings.
double meanHinge(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team = nullptr);
// How often the decoding argmax_y ⟨w, Ψ(x_i, y)⟩ is wrong: per token (the letter error of OCR)
// and per sequence (the word error: a word with any wrong letter). One pass of n decodings.
struct DecodingErrors {
    double tokens = 0.0;     // wrong tokens / all tokens
    double sequences = 0.0;  // sequences with a wrong token / all sequences
    bool complete = true;    // false: `stop` ended the pass early (both rates NaN)
};
// With `stop`, it is polled before every word: once it is requested the remaining words are
// not decoded and the result is incomplete (NaN rates).
DecodingErrors decodingErrors(const ChainModel& model, const Eigen::VectorXd& w,
                              WorkerTeam* team = nullptr, const Interrupt* stop = nullptr);
// decodingErrors(...).tokens.
double tokenError(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team = nullptr);

// The cost of one pass of (loss-augmented) Viterbi decodings over `model`'s sequences, in
// multiply-adds: Σᵢ Tᵢ·(L·d + L²) (emission scores, then the L² transitions per token; L·d
// alone without transitions).
double decodingPassCost(const ChainModel& model);
// Beyond this many multiply-adds a pass takes seconds (about 1e9 per second here): warned
// about before a run.
inline constexpr double kCostlyDecodingPass = 1e9;
// A warning for the front ends when one pass costs more than kCostlyDecodingPass (thousands
// of labels make every decoding O(T·L²)), naming the labels, tokens and cost; "" otherwise.
std::string decodingCostWarning(const ChainModel& model);

// True when `w` of `model` applies to `other` unchanged: same labels (count and names), same
// feature dimension, same transitions option; else false with the reason in *why.
bool sameLayout(const ChainModel& model, const ChainModel& other, std::string* why);

}  // namespace cplab
