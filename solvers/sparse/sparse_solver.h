// SPDX-License-Identifier: GPL-3.0-or-later
// What the sparse kernel machines (slmc, rsvm, mrsvm, rs, mrs, dlib_reduced2; sparse_model.h)
// share as solvers: the prepared problem, the full SVM they are compared with, and the steps
// their constructors, summaries and snapshots have in common, written once.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/deadline.h"
#include "core/solver.h"
#include "sparse_model.h"
#include "sparse_snapshot.h"

namespace cplab {

class SparseSolver : public Solver {
  public:
    // The training set as prepared (labels ±1) and the training file's two label values.
    const KernelProblem& problem() const { return data_.problem; }
    const std::vector<double>& classes() const { return data_.classes; }
    // The full SVM's dual objective and SV count (NaN and 0 when it was not solved).
    double fullSvmObjective() const {
        return fullSolved_ ? full_.dualObjective : std::numeric_limits<double>::quiet_NaN();
    }
    int fullSvmSupportVectors() const { return static_cast<int>(full_.supportVectors.size()); }

  protected:
    explicit SparseSolver(const StopOptions& stop) : Solver(stop) {}

    // Prepares the problem for the sparse machines (prepareSparseProblem into data_, its
    // messages under `owner`); false when it fails (the solver is then rejected).
    bool acceptProblem(const KernelProblem& problem, const std::string& kernel, const char* owner);

    // The full SVM first when the options ask for it (full_svm) or when N_z comes from it
    // (expansion_vectors = 0: N_z = max(1, round(expansion_ratio · #SV))). Returns N_z, or 0
    // when the full SVM failed (the solver is then rejected). `setUp` (the set-up's deadline)
    // may cut it short: N_z then counts the SVs of SMO's last iterate (setUpCut() says so).
    template <class Options>
    int fullSvmFirst(const Options& options, const char* owner, const Interrupt& setUp) {
        int nz = options.expansion_vectors;
        if (!options.full_svm && nz != 0) return nz;
        if (!solveFull(options.C, options.full_tolerance, options.cache_mb, owner, setUp)) return 0;
        if (nz == 0) {
            nz = std::max(1, static_cast<int>(std::lround(options.expansion_ratio *
                                                          double(full_.supportVectors.size()))));
        }
        return nz;
    }
    // The full SVM into full_ (solveFullSvm, polling `setUp`); false when it fails (the solver
    // is then rejected). Cut short, full_ holds SMO's last iterate (its dual still a lower
    // bound) and setUpCut() says where it stopped.
    bool solveFull(double C, double tolerance, double cacheMb, const char* owner,
                   const Interrupt& setUp);

    // The set-up's interrupt: the cancel token and max_seconds from now (deadline.h). Make it
    // at the start of the constructor's work, after SetupTimer.
    Interrupt setUpInterrupt() const;
    // Notes that max_seconds cut the set-up short at `what` ("the full SVM stopped after ...").
    void noteSetUpCut(const std::string& what);
    // What max_seconds cut short in the set-up; empty when nothing was.
    const std::string& setUpCut() const { return setUpCut_; }
    // The first step of a run whose set-up was cut short: no work, the bounds and columns of
    // iteration 0 (the model kept is iteration 0's), and the time-limit status naming what was
    // cut and `model` (what the kept model is).
    Status endCutSetUp(IterationRecord& record, const std::string& model);

    // False (rejected, under `owner`) when `expansionVectors` exceed the training set's
    // `distinctPoints`.
    bool acceptExpansionCount(int expansionVectors, std::size_t distinctPoints, const char* owner);

    // The summary's tail: full_svm_objective and full_svm_support_vectors when the full SVM
    // was solved, then C and kernel.
    void addSummaryTail(SummaryFields& fields, double C, const std::string& kernel) const;

    // The pseudocode lines of a snapshot: `atStart` before the first step, else `perStep`,
    // followed by `converged` once the run has converged.
    std::vector<int> executedLines(std::vector<int> atStart, std::vector<int> perStep,
                                   int converged) const;

    // The classifier f(x) = Σ_u β_u k(z_u, x) + b a snapshot shows, with its errors.
    struct ShownModel {
        const Eigen::MatrixXd& Z;
        const Eigen::VectorXd& beta;
        double bias = 0.0;
        double trainError = 0.0;
        double testError = -1.0;
        bool grid = false;  // the decision grid of a 2-D training set
    };
    // Fills what every sparse snapshot shows: the training set, the kernel, the expansion
    // vectors, β and b, the objective (the last record's upper), the full SVM's support
    // vectors, the classifier (and its grid when asked for) and the errors. The pseudocode
    // lines and the trail are the caller's.
    void fillModel(SparseSnapshot& snapshot, const ShownModel& model) const;

    SparseProblem data_;  // as prepared: labels ±1, the kernel, the test set dense
    FullSvm full_;        // the full SVM, when solved
    bool fullSolved_ = false;

  private:
    std::string setUpCut_;
};

}  // namespace cplab
