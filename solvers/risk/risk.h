// Empirical risks of linear models, R(W) = (1/m) Σᵢ ℓ(sᵢ, yᵢ) with scores sᵢ = Wᵀxᵢ (+ bias),
// each with a subgradient, computed in one pass over the data and parallel over examples
// (ALGORITHMS.md §3).
//
// Parameters. For K outputs (K = 1 for binary, regression; K = classes for multi-class) and
// d features, w has (d + bias)·K entries laid out column-wise: w = [W(:,0); W(:,1); …] where
// W is (d + bias) × K and, with a bias, its last row holds the biases (the bias is a constant
// feature 1 appended to every example, so it is regularised like the other weights, as in
// libocas and LIBLINEAR with -B 1).
//
// The work splits in three passes so that OCAS can cache scores:
//   scores(w, S)       S = X W (+ bias), m × K                 one sparse pass, parallel
//   loss(S, &C)        value R and C = ∂R/∂S (already divided by m), m × K     parallel
//   backProject(C, g)  g = Xᵀ C (+ bias row) flattened like w                 one pass, parallel
// and evaluate(w, &g) computes the same R and g in one fused pass (each row is read once).
//
// Losses ℓ(s, y) per example (s: the example's K scores):
//   hinge                max(0, 1 − y s)                      y = ±1
//   logistic             log(1 + exp(−y s))  (evaluated without overflow for any s)
//   squared hinge        max(0, 1 − y s)²                     y = ±1
//   multi-class          max_k ([k ≠ y] + s_k − s_y)          y = class 0..K−1 (Crammer–Singer)
//   ε-insensitive        max(0, |s − y| − ε)                  y = any target
// Multi-class: K = largest label + 1 (classes that no example has are allowed); labels that
// are all ±1 (a binary Dataset) are read as −1 ↔ class 0, +1 ↔ class 1, K = 2, and predict()
// answers ±1 again. lossLabels() holds the labels as the losses read them.
//
// Threads: std::thread, up to `threads` workers (0: std::thread::hardware_concurrency()), but
// no more than one per minWorkPerThread units of work, so small data stay on one thread. Each
// worker takes a contiguous block of examples and, for subgradients, its own accumulator; the
// accumulators are added in worker order at the end, so a result depends only on the number of
// workers, never on scheduling. R is summed with compensation, so it agrees across thread counts
// to a rounding or two; g agrees to a few roundings of its terms' absolute sums. One worker runs
// on the calling thread; with one worker no thread is started. The const methods keep no state
// between calls, so one Risk may serve several threads at once.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace cplab {

enum class LossKind { Hinge, Logistic, SquaredHinge, Multiclass, EpsilonInsensitive };

// "hinge", "logistic", "squared_hinge", "multiclass", "epsilon_insensitive".
const char* toString(LossKind kind);
// The kind named `name`; false (kind untouched) when the name is unknown.
bool parseLossKind(const std::string& name, LossKind* kind);
// All names, in enum order.
std::vector<std::string> lossKindNames();

struct RiskOptions {
    LossKind loss = LossKind::Hinge;
    bool bias = false;     // append a constant feature 1
    double epsilon = 0.1;  // ε of the ε-insensitive loss, ≥ 0
    int threads = 1;       // worker threads, ≥ 0 (0: hardware concurrency)
    // Least work per worker thread, ≥ 1, in multiply-adds: a pass over the data counts
    // (stored entries + examples)·K, the losses m·K (16·m for logistic). Starting a thread
    // costs some 20–50 µs, about 32768 of them; smaller values split even tiny datasets.
    long long minWorkPerThread = 32768;
};

class Risk {
  public:
    // Validates data and options: throws std::invalid_argument with a clear message for a
    // null or empty dataset, one that breaks the Dataset contract, binary losses on labels
    // other than ±1 ("Risk: the hinge loss needs labels -1/+1, example 5 has 2", examples
    // counted from 0), multi-class labels that are not 0..K−1 integers (K ≥ 2, K ≤ 65536) nor
    // all ±1, negative or non-finite epsilon ("RiskOptions::epsilon = -1: must be >= 0 and
    // finite"), negative threads, minWorkPerThread < 1.
    Risk(std::shared_ptr<const Dataset> data, RiskOptions options);
    ~Risk();
    Risk(const Risk&) = delete;
    Risk& operator=(const Risk&) = delete;

    const Dataset& data() const { return *data_; }
    const RiskOptions& options() const { return options_; }
    int examples() const;            // m
    int features() const;            // d + bias
    int outputs() const;             // K
    Eigen::Index dimension() const;  // features()·outputs()
    // Labels as the loss reads them: the data's labels, except multi-class on ±1 labels (0/1).
    const Eigen::VectorXd& lossLabels() const;

    // The methods below throw std::invalid_argument when w, S or C has the wrong size.

    // S = X W (+ bias): m × K.
    void scores(const Eigen::VectorXd& w, Eigen::MatrixXd& S) const;
    // R at scores S, and C = ∂R/∂S when C is not null (a subgradient choice at kinks: hinge
    // uses the zero side at margin exactly 1, ε-insensitive the zero side at |s − y| = ε,
    // multi-class the lowest maximising class k*, i.e. e_k* − e_y).
    double loss(const Eigen::MatrixXd& S, Eigen::MatrixXd* C) const;
    // g = Xᵀ C (+ bias row), flattened like w.
    void backProject(const Eigen::MatrixXd& C, Eigen::VectorXd& g) const;
    // R(w) and, when g is not null, a subgradient g ∈ ∂R(w).
    double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd* g) const;

    // Predictions of W on `data` (same d, or fewer features: missing ones count as zero; more
    // features throw std::invalid_argument): binary: sign of the score (+1 at 0); multi-class:
    // argmax class (the lowest on ties; ±1 when the training labels were ±1); regression: the
    // score.
    Eigen::VectorXd predict(const Eigen::VectorXd& w, const Dataset& data) const;
    // Classification: fraction of misclassified examples; regression: mean absolute error.
    // Throws std::invalid_argument for an empty dataset.
    double error(const Eigen::VectorXd& w, const Dataset& data) const;

  private:
    struct Impl;
    void checkWeights(const Eigen::VectorXd& w, const char* where) const;
    std::shared_ptr<const Dataset> data_;
    RiskOptions options_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cplab
