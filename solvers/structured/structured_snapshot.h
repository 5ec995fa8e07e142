// SPDX-License-Identifier: GPL-3.0-or-later
// What the structured family's views draw (shared by its solvers): the current weights of the
// chain model, split by its layout (emission templates, biases, transitions), and the bounds;
// and the functions that fill it (structured_snapshot.cpp).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "core/snapshot.h"
#include "data/sequence_format.h"
#include "structured/oracle_pass.h"

namespace cplab {

// Lattices per snapshot (the first words of the test set, or of the training set).
inline constexpr int kLatticeWords = 6;

// One word's Viterbi lattice at the snapshot's w: the L × T cells' unary scores and three
// labellings through it.
struct WordLattice {
    int word = 0;                    // index in StructuredSnapshot::words
    Eigen::MatrixXd scores;          // T × L: ⟨w_y, x_t⟩ + b_y (emission and bias)
    std::vector<int> truth;          // y_i
    std::vector<int> decoded;        // argmax_y ⟨w, Ψ(x_i, y)⟩ (Viterbi, with transitions)
    std::vector<int> lossAugmented;  // argmax_y Δ(y_i, y) + ⟨w, Ψ(x_i, y)⟩
};

struct StructuredSnapshot final : Snapshot {
    int labels = 0;    // L
    int features = 0;  // d
    bool transitions = true;
    std::vector<std::string> labelNames;  // L names
    double lambda = 0.0;
    // The model the solver reports, in ChainModel's layout (L·d emission, L bias, L²
    // transitions): the current iterate w, or its running average (BCFW's averaging).
    Eigen::VectorXd w;
    double primal = 0.0;      // P(w) at the last evaluation (NaN before one)
    double dual = 0.0;        // D(α) of the current dual iterate (NaN for primal-only methods)
    double gap = 0.0;         // P(w) − D(α) at the last evaluation
    double passes = 0.0;      // effective passes over the data so far
    double meanStep = 0.0;    // mean step size γ of the last pass (BCFW)
    StructuredErrors errors;  // letter and word errors of w at the last evaluation
    // The words whose lattices are drawn (the test words, else the training words; shared,
    // not copied) and the lattices of the first kLatticeWords of them.
    // BCFW: gapᵢ of every training word when it was last visited (NaN before its first
    // visit); their sum at the end of a pass is near the duality gap. Empty for the others.
    std::vector<double> wordGaps;
    std::shared_ptr<const SequenceData> words;
    std::vector<WordLattice> lattices;
    // Online MKL (empty for the others): its groups (kernels, explicit features, transitions),
    // their norms ‖w_g‖ now, and the last round's proximal step — the norms b before it, b̃
    // after it, its threshold s (NaN for the l2 regulariser) — and the regulariser's name.
    std::vector<std::string> groupNames;
    std::vector<double> groupNorms, proxBefore, proxAfter;
    double proxThreshold = 0.0;
    std::string regulariser;

    std::size_t bytes() const override {
        std::size_t names = 0;
        for (const std::string& name : labelNames)
            names += sizeof(std::string) + name.capacity();
        std::size_t lattice = 0;
        for (const WordLattice& l : lattices)
            lattice += sizeof(WordLattice) +
                       sizeof(double) * static_cast<std::size_t>(l.scores.size()) +
                       sizeof(int) * (l.truth.size() + l.decoded.size() + l.lossAugmented.size());
        for (const std::string& name : groupNames)
            names += sizeof(std::string) + name.capacity();
        names +=
            sizeof(double) * (groupNorms.capacity() + proxBefore.capacity() + proxAfter.capacity());
        return Snapshot::bytes() + sizeof(*this) - sizeof(Snapshot) + names + lattice +
               sizeof(double) * wordGaps.capacity() +
               sizeof(double) * static_cast<std::size_t>(w.size());
    }
};

// The model fields of a StructuredSnapshot: labels, features, names, λ, the weights w, and
// the lattices at w of the first kLatticeWords test words (`test` may be null: then of the
// training words).
void fillModelFields(const ChainModel& model, const ChainModel* test, double lambda,
                     const Eigen::VectorXd& w, StructuredSnapshot& snapshot);

// The bounds and progress a structured solver's snapshot reports (the fields of the same
// names in StructuredSnapshot).
struct StructuredProgress {
    double primal = 0.0;
    double dual = 0.0;
    double gap = 0.0;
    double passes = 0.0;
    double meanStep = 0.0;
    StructuredErrors errors;
};
void fillProgressFields(const StructuredProgress& progress, StructuredSnapshot& snapshot);

// Both: the snapshot of a batch solver on `problem` that reports the weights w.
void fillStructuredSnapshot(const StructuredProblem& problem, double lambda,
                            const Eigen::VectorXd& w, const StructuredProgress& progress,
                            StructuredSnapshot& snapshot);

}  // namespace cplab
