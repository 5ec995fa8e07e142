// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-class sparse kernel machines by one-vs-rest (ALGORITHMS.md §7; the SLMC paper's USPS
// protocol, §5.4: "ten SVMs are built, each trained to separate one digit from all others").
//
// For training labels with K > 2 values c_1 < … < c_K, machine k is the binary solver (slmc,
// rs, mrs, rsvm, mrsvm) on the labels +1 for c_k and −1 for every other class, with the same
// options; the multi-class decision is the class of the largest decision value f_k(x).
//
// Iteration: one step() = one step of every machine that has not finished, in class order,
// until max_seconds passes (the machines after it wait; the run then ends by its time limit,
// each machine with its current model); the run ends when all have: Converged when every machine
// converged; else the status of the first machine that failed, or (all usable) of the first one
// stopped by a limit or stalled. Record: upper, lower and oracleCalls are the sums over the
// machines (each machine's own bounds, see its header); train_error and test_error are the
// multi-class misclassification rates of the argmax decision.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_solver.h"
#include "sparse_model.h"

namespace cplab {

class OneVsRestSolver final : public Solver {
  public:
    // Builds machine k from its binary problem (labels ±1); may return a rejected solver.
    using Factory = std::function<std::unique_ptr<Solver>(const KernelProblem&)>;
    // The same, with the stop options machine k is to use: the run's, with max_seconds what is
    // left of it when the machine is made (so that the machines' set-ups, a full SVM each,
    // share the limit instead of taking it each: 3 classes of 20,000 examples, max_seconds = 1,
    // took 3.1-3.8 s).
    using TimedFactory =
        std::function<std::unique_ptr<Solver>(const KernelProblem&, const StopOptions&)>;
    // The current classifier f_k of a machine made by the factory.
    using Classify = std::function<KernelClassifier(const Solver&)>;

    // `name`: the binary solver's name (the run is reported under it). Rejects a training set
    // with fewer than three classes, a test set with more features, or a machine the factory
    // rejects (its message, prefixed with its class).
    OneVsRestSolver(std::string name, const KernelProblem& problem, const StopOptions& stop,
                    Factory make, Classify classify);
    OneVsRestSolver(std::string name, const KernelProblem& problem, const StopOptions& stop,
                    TimedFactory make, Classify classify);
    ~OneVsRestSolver() override;

    std::string name() const override { return name_; }
    // expansion_vectors (all machines), machines_running, train_error, test_error.
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }
    // objective (sum), expansion_vectors (sum), train_error, test_error (with a test set),
    // classes, class_objectives, class_expansion_vectors.
    SummaryFields summary() const override;
    // A SparseSnapshot: every machine's expansion vectors stacked (class by class), no grid.
    SnapshotPtr snapshot() const override;

    const std::vector<double>& classes() const { return classes_; }
    int machines() const { return static_cast<int>(machines_.size()); }
    const Solver& machine(int k) const { return *machines_[static_cast<std::size_t>(k)]; }
    KernelClassifier classifier(int k) const;
    // f_k(x_i) for the rows of `X` (m × d dense): an m × K matrix.
    Eigen::MatrixXd decisions(const Eigen::MatrixXd& X) const;
    // The class of the largest decision value, per row.
    std::vector<double> predict(const Eigen::MatrixXd& X) const;

  protected:
    Status doStep(IterationRecord& record) override;

  private:
    bool valid() const { return !machines_.empty() && !rejected(); }
    void fillRecord(IterationRecord& record);
    void refreshScores(int k);
    double multiError(const Eigen::MatrixXd& scores, const Eigen::VectorXd& labels) const;

    std::string name_;
    KernelProblem problem_;
    Classify classify_;
    std::vector<double> classes_;
    std::vector<std::unique_ptr<Solver>> machines_;
    Eigen::MatrixXd X_;            // training set dense
    Eigen::MatrixXd testX_;        // test set dense, empty without one
    Eigen::MatrixXd trainScores_;  // n × K, column k refreshed when machine k steps
    Eigen::MatrixXd testScores_;
    double trainError_ = 0.0;
    double testError_ = -1.0;
};

}  // namespace cplab
