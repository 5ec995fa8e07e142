// SPDX-License-Identifier: GPL-3.0-or-later
// The cheap arithmetic of BCFW's pairwise steps and plane cache (bcfw.h): scoring a few
// labellings of one word at one w, and the difference of two corners, without touching the D
// weights of the model.
//
// A word's candidate labellings (its active set, its cached decodings) differ from each other
// in a few letters, so LabellingScorer memoises the token scores ⟨w_l, x_t⟩ + b_l it needs
// (T·L slots per word, filled on demand, O(nnz) each) and scores a labelling in O(T) beyond
// them. CornerDifference holds v = scale·(Ψ(xᵢ, a) − Ψ(xᵢ, b)) as a dense vector that is zero
// outside the entries it lists: only the letters where a and b differ contribute, O(#differing
// letters · nnz) instead of O(D).
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

#include "structured/chain_model.h"

namespace cplab {

class LabellingScorer {
  public:
    // Starts scoring labellings of word i at w (both must outlive the scoring).
    void start(const ChainModel& model, const Eigen::VectorXd& w, int i);
    // ⟨w, Ψ(xᵢ, y)⟩, equal to ChainModel::score but for rounding.
    double score(std::span<const int> y);

  private:
    const ChainModel* model_ = nullptr;
    const Eigen::VectorXd* w_ = nullptr;
    int word_ = 0, first_ = 0, labels_ = 0;
    std::vector<double> tokenScores_;  // T × L, row-major
    std::vector<char> known_;          // which of them are computed
};

class CornerDifference {
  public:
    explicit CornerDifference(int dimension = 0);
    // v ← scale·(Ψ(xᵢ, a) − Ψ(xᵢ, b)) (the previous v is cleared first).
    void assign(const ChainModel& model, int i, std::span<const int> a, std::span<const int> b,
                double scale);
    double squaredNorm() const;
    // target += factor·v (target has the model's dimension).
    void addTo(double factor, double* target) const;
    void clear();

  private:
    void add(int index, double value);
    Eigen::VectorXd values_;    // zero outside touched_
    std::vector<char> marked_;  // index in touched_
    std::vector<int> touched_;
};

}  // namespace cplab
