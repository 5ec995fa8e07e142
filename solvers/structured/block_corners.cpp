// SPDX-License-Identifier: GPL-3.0-or-later
// Labelling scores and corner differences of BCFW's block steps (block_corners.h).
#include "structured/block_corners.h"

namespace cplab {

void LabellingScorer::start(const ChainModel& model, const Eigen::VectorXd& w, int i) {
    model_ = &model;
    w_ = &w;
    word_ = i;
    first_ = model.data().first(i);
    labels_ = model.labelCount();
    const auto cells =
        static_cast<std::size_t>(model.length(i)) * static_cast<std::size_t>(labels_);
    tokenScores_.resize(cells);
    known_.assign(cells, 0);
}

double LabellingScorer::score(std::span<const int> y) {
    const SequenceData::SparseMatrix& X = model_->data().features;
    const double* w = w_->data();
    const bool transitions = model_->options().transitions;
    const auto T = static_cast<int>(y.size());
    double s = 0.0;
    for (int t = 0; t < T; ++t) {
        const int label = y[static_cast<std::size_t>(t)];
        const auto cell = static_cast<std::size_t>(t * labels_ + label);
        if (!known_[cell]) {
            const double* wy = w + model_->emissionIndex(label, 0);
            double u = w[model_->biasIndex(label)];
            for (SequenceData::SparseMatrix::InnerIterator it(X, first_ + t); it; ++it)
                u += wy[it.col()] * it.value();
            tokenScores_[cell] = u;
            known_[cell] = 1;
        }
        s += tokenScores_[cell];
        if (transitions && t + 1 < T)
            s += w[model_->transitionIndex(label, y[static_cast<std::size_t>(t + 1)])];
    }
    return s;
}

CornerDifference::CornerDifference(int dimension)
    : values_(Eigen::VectorXd::Zero(dimension)), marked_(static_cast<std::size_t>(dimension), 0) {}

void CornerDifference::add(int index, double value) {
    const auto slot = static_cast<std::size_t>(index);
    if (!marked_[slot]) {
        marked_[slot] = 1;
        touched_.push_back(index);
    }
    values_[index] += value;
}

void CornerDifference::assign(const ChainModel& model, int i, std::span<const int> a,
                              std::span<const int> b, double scale) {
    clear();
    const SequenceData::SparseMatrix& X = model.data().features;
    const int first = model.data().first(i);
    const auto T = static_cast<int>(a.size());
    const bool transitions = model.options().transitions;
    for (int t = 0; t < T; ++t) {
        const auto at = static_cast<std::size_t>(t);
        if (a[at] != b[at]) {
            for (const auto& [label, sign] : {std::pair{a[at], 1.0}, std::pair{b[at], -1.0}}) {
                const int row = model.emissionIndex(label, 0);
                for (SequenceData::SparseMatrix::InnerIterator it(X, first + t); it; ++it)
                    add(row + static_cast<int>(it.col()), sign * scale * it.value());
                add(model.biasIndex(label), sign * scale);
            }
        }
        if (transitions && t + 1 < T && (a[at] != b[at] || a[at + 1] != b[at + 1])) {
            add(model.transitionIndex(a[at], a[at + 1]), scale);
            add(model.transitionIndex(b[at], b[at + 1]), -scale);
        }
    }
}

double CornerDifference::squaredNorm() const {
    double sum = 0.0;
    for (const int k : touched_)
        sum += values_[k] * values_[k];
    return sum;
}

void CornerDifference::addTo(double factor, double* target) const {
    for (const int k : touched_)
        target[k] += factor * values_[k];
}

void CornerDifference::clear() {
    for (const int k : touched_) {
        values_[k] = 0.0;
        marked_[static_cast<std::size_t>(k)] = 0;
    }
    touched_.clear();
}

}  // namespace cplab
