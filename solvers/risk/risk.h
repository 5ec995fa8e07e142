// SPDX-License-Identifier: GPL-3.0-or-later
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
//   loss(S, &C)        value R and C = m·∂R/∂S (each example's ∂ℓ/∂s), m × K  parallel
//   backProject(C, g)  g = (1/m) Xᵀ C (+ bias row) flattened like w           one pass, parallel
// C is not divided by m so that g's sums add the losses' own derivatives (0, ±1 for the
// piecewise-linear losses) and divide once at the end: on integer-valued features they are
// exact, and so the same however the examples are split among threads and ranks.
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
// Threads: a WorkerTeam (core/worker_team.h) of `threads` threads (0: the hardware's), started
// with the Risk and kept for its lifetime: OCAS makes some twenty passes per iteration, each
// too short to start threads for. A pass uses no more than one worker per minWorkPerThread
// units of work, so small data stay on the calling thread. std::thread rather than OpenMP:
// the team is shared with the line search (risk/line_search.h), its idle threads sleep
// instead of spinning for OpenMP's default wait policy, and the results stay deterministic.
// Each worker takes a contiguous block of examples and, for subgradients, its own
// accumulator; the accumulators are added in worker order at the end, so a result depends
// only on the number of workers, never on scheduling. R and every entry of g are compensated
// sums (core/compensated_sum.h), merged unrounded across workers and ranks and rounded once,
// so they are the same whatever the number of threads or processes (up to a tie at about
// n·u² of the terms' absolute sum: practically never). Worker 0 runs on the calling thread; with
// one worker no other thread takes part. The const methods keep no state between calls, so one Risk
// may serve several threads at once (a call that finds the team busy runs its blocks on its own
// thread, same result).
//
// Processes (RiskOptions::communicator, core/communicator.h; null: one process): each rank's
// Risk holds its share of the examples, and R, g and the error counts are that share's sums
// combined over the ranks in rank order (divided by the total m), so every rank gets the same
// numbers, equal to one process's (see Threads). The constructor is then a collective: every
// rank checks its share, and one rank's bad data fail every rank with its message ("rank 1:
// part-1.svm:7: ..."). Score matrices (scores, loss's S and C) stay per rank: m = examples()
// rows of this rank's share; totalExamples() is the m of R = (1/m) Σ ℓ. The calls below that
// combine (loss, backProject, evaluate, errorFromScores, error) must be made on every rank in
// the same order; scores and predict are local.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/communicator.h"
#include "data/dataset.h"

namespace cplab {

class WorkerTeam;

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
    // (stored entries + examples)·K, the losses m·K (16·m for logistic). Handing a part to
    // a waiting team thread costs about a microsecond, a few thousand of them; smaller values
    // split even tiny datasets.
    long long minWorkPerThread = 2048;
    // The ranks that share the examples (see above); null: this process holds all of them.
    std::shared_ptr<Communicator> communicator = nullptr;
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
    int examples() const;            // m (this rank's share)
    double totalExamples() const;    // m over all ranks (= examples() for one process)
    int features() const;            // d + bias
    int outputs() const;             // K
    Eigen::Index dimension() const;  // features()·outputs()
    // Labels as the loss reads them: the data's labels, except multi-class on ±1 labels (0/1).
    const Eigen::VectorXd& lossLabels() const;

    // The methods below throw std::invalid_argument when w, S or C has the wrong size.

    // S = X W (+ bias): m × K.
    void scores(const Eigen::VectorXd& w, Eigen::MatrixXd& S) const;
    // R at scores S, and C = m·∂R/∂S (row i: ∂ℓ(sᵢ, yᵢ)/∂sᵢ) when C is not null (a subgradient
    // choice at kinks: hinge uses the zero side at margin exactly 1, ε-insensitive the zero side at
    // |s − y| = ε, multi-class the lowest maximising class k*, i.e. e_k* − e_y). C may be &S: each
    // row is read before it is overwritten, so the derivatives can replace the scores in place.
    double loss(const Eigen::MatrixXd& S, Eigen::MatrixXd* C) const;
    // g = (1/m) Xᵀ C (+ bias row), flattened like w (m: the total over the ranks).
    void backProject(const Eigen::MatrixXd& C, Eigen::VectorXd& g) const;
    // R(w) and, when g is not null, a subgradient g ∈ ∂R(w).
    double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd* g) const;

    // Predictions of W on `data` (same d, or fewer features: missing ones count as zero; more
    // features throw std::invalid_argument): binary: sign of the score (+1 at 0); multi-class:
    // argmax class (the lowest on ties; ±1 when the training labels were ±1); regression: the
    // score.
    Eigen::VectorXd predict(const Eigen::VectorXd& w, const Dataset& data) const;
    // Classification: fraction of misclassified examples; regression: mean absolute error.
    // Throws std::invalid_argument for an empty dataset. With a communicator `data` is this
    // rank's share of the set (possibly empty) and the error is over all ranks' shares.
    double error(const Eigen::VectorXd& w, const Dataset& data) const;
    // The same error of the training data from their scores S (m × K, as scores() gives), as
    // predict() would decide (binary: the sign, +1 at 0; multi-class: the lowest argmax).
    double errorFromScores(const Eigen::MatrixXd& S) const;

    // The threads the passes run on (null for one thread), for work on the same data such as
    // the line search; and the workers a pass of `work` units gets (1 without a team).
    WorkerTeam* team() const;
    int workersFor(long long work) const;

  private:
    struct Impl;
    void checkShare();
    double errorOverRanks(const Eigen::VectorXd& w, const Dataset& share) const;
    void combineOverRanks();
    void checkWeights(const Eigen::VectorXd& w, const char* where) const;
    std::shared_ptr<const Dataset> data_;
    RiskOptions options_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cplab
