// SPDX-License-Identifier: GPL-3.0-or-later
// Our chain model (solvers/structured/chain_model.h) as a dlib sequence-labelling feature
// extractor, so that dlib::structural_sequence_labeling_trainer (libdlib-dev) trains exactly
// our structural SVM: the peer of tests/solvers/structured/test_dlib_peer.cpp and
// tests/bench/bench_structured.cpp. Shared by both so that the extractor the benchmark times
// is the one the test checks.
//
// dlib's model (sequence_labeler_abstract.h): Ψ(x, y) = Σ_t get_features(x, y_window, t), where
// at position t the window holds y(0) = y_t and, for order() = 1 and t > 0, y(1) = y_{t−1};
// dlib adds no feature of its own (no implicit bias, no implicit transitions): Ψ is exactly
// what get_features sets. Ours at position t: e_{y_t} ⊗ (x_t, 1) and, for t > 0, the
// transition y_{t−1} → y_t. The indices are ChainModel's (emissionIndex, biasIndex,
// transitionIndex(from, to)), so dlib's w IS our w, entry for entry (D = L·d + L + L²).
//
// dlib's problem (structural_svm_problem_abstract.h):
//     min_w ½‖w‖² + C·R(w),  R(w) = (1/N) Σᵢ max_y [LOSS(i, y) + ⟨w, Ψ(xᵢ, y) − Ψ(xᵢ, yᵢ)⟩],
// the risk already averaged over the N samples; ours is P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w) with
// the same Hᵢ. So ½‖w‖² + C·R(w) = C·P(w) with λ = 1/C (not 1/(C·n): dlib's risk is a mean,
// unlike LIBLINEAR's sum), and dlib's stopping rule "risk gap < ε" (oca's cur_risk minus the
// cutting-plane model's bound, divided by C) is an absolute gap ε on our P. dlib's loss is
// LOSS(i, y) = Σ_t loss(yᵢ_t)·[y_t ≠ yᵢ_t] with loss(·) = 1 by default: plain Hamming, our
// ChainModelOptions::normalizeLoss = false. (Our default, Hamming / T, is per sequence and
// cannot be written as dlib's per-label losses.)
#pragma once

#include <dlib/svm/structural_sequence_labeling_trainer.h>

#include <atomic>
#include <type_traits>
#include <vector>

#include "data/sequence_format.h"

namespace cplab::peer {

// One sequence as dlib's sequence_type: a view of its tokens in a SequenceData that outlives it.
struct SequenceView {
    const SequenceData* data = nullptr;
    int first = 0;
    int length = 0;
    unsigned long size() const { return static_cast<unsigned long>(length); }
};

class ChainFeatures {
  public:
    using sequence_type = SequenceView;

    ChainFeatures() = default;
    ChainFeatures(int labels, int dimension, std::atomic<long long>* psiCount = nullptr)
        : L_(static_cast<unsigned long>(labels)),
          d_(static_cast<unsigned long>(dimension)),
          psiCount_(psiCount) {}

    unsigned long num_features() const { return L_ * d_ + L_ + L_ * L_; }
    unsigned long order() const { return 1; }
    unsigned long num_labels() const { return L_; }

    template <typename FeatureSetter, typename EXP>
    void get_features(FeatureSetter& set_feature, const sequence_type& x,
                      const dlib::matrix_exp<EXP>& y, unsigned long position) const {
        const unsigned long label = y(0);
        const int token = x.first + static_cast<int>(position);
        for (SequenceData::SparseMatrix::InnerIterator it(x.data->features, token); it; ++it)
            set_feature(label * d_ + static_cast<unsigned long>(it.col()), it.value());
        set_feature(L_ * d_ + label);
        if (y.size() > 1) set_feature(L_ * d_ + L_ + y(1) * L_ + label);
        // dlib builds a whole Ψ(x, y) (get_feats_functor) once per sample for the truth and
        // once per separation-oracle call, and calls get_features with other setters only
        // inside its Viterbi and dot products: so counting the whole Ψ's gives its oracle calls.
        if constexpr (std::is_same_v<FeatureSetter, dlib::fe_helpers::get_feats_functor>) {
            if (psiCount_ && position == 0) psiCount_->fetch_add(1, std::memory_order_relaxed);
        }
    }

  private:
    unsigned long L_ = 0, d_ = 0;
    std::atomic<long long>* psiCount_ = nullptr;
};

// The sequences of `data` and their labels in dlib's types.
inline std::vector<SequenceView> dlibSequences(const SequenceData& data) {
    std::vector<SequenceView> x;
    for (int i = 0; i < data.size(); ++i)
        x.push_back({&data, data.first(i), data.length(i)});
    return x;
}

inline std::vector<std::vector<unsigned long>> dlibLabels(const SequenceData& data) {
    std::vector<std::vector<unsigned long>> y;
    for (int i = 0; i < data.size(); ++i) {
        std::vector<unsigned long> labels;
        for (int k = data.first(i); k < data.first(i + 1); ++k)
            labels.push_back(static_cast<unsigned long>(data.labels[static_cast<std::size_t>(k)]));
        y.push_back(std::move(labels));
    }
    return y;
}

}  // namespace cplab::peer
