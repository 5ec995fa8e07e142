// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel SVM by SMO (solver `svm`): one app iteration is `smo_steps` pair updates, so a
// 2-D demo animates α and the decision function; the run converges when the maximal KKT
// violation is ≤ kkt_tolerance (LIBSVM's stopping rule). Warm start is SMO's (smo.h).
// Record: upper = the primal objective at (α, b), lower = D(α); oracleCalls counts the kernel
// rows computed (KernelQ::rowsComputed), the SVM's real cost.
#pragma once

#include "kernel_solver.h"

namespace cplab {

struct SvmOptions {
    StopOptions stop{0.0, 0.0, 100000, 0.0};  // the KKT rule ends the run; gap rules off
    KernelOptions kernel;
    int smo_steps = 100;  // SMO pair updates per app iteration, ≥ 1

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class SvmSolver final : public KernelSvmSolver {
  public:
    SvmSolver(const KernelProblem& problem, SvmOptions options = {});
    ~SvmSolver() override;

    std::string name() const override { return "svm"; }
    std::vector<std::string> pseudocode() const override;
    bool convergesByOwnRule() const override { return true; }  // the KKT rule
    SnapshotPtr snapshot() const override;
    KernelClassifier classifier() const override;
    Eigen::VectorXd weights() const override { return Eigen::VectorXd::Ones(1); }
    const Smo& smo() const { return *smo_; }

    // Warm start after the training set was edited (app/registry/warm_start.h), before the first
    // step: SMO starts from α of `previous` carried over (carriedAlpha: survivors keep αᵢ clipped
    // to [0, C], new examples 0, yᵀα = 0 restored; startFromBestMultiple: scaled by the t ∈ [0, 1]
    // that maximises D(tα)), its gradient recomputed; the first record
    // holds the primal and dual objectives there. previousIndex[i] is the index in
    // `previous`'s training set of example i, or −1. False, and nothing changed, when the runs
    // do not fit (*why says why).
    bool warmStartFrom(const SvmSolver& previous, const std::vector<int>& previousIndex,
                       std::string* why);

  protected:
    Status doStep(IterationRecord& record) override;
    // The test error of the final (α, b) when the last step left it to a later one.
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    // f(xᵢ) on the training set at the current (α, b), read off SMO's gradient.
    Eigen::VectorXd trainScores() const;
    // The iteration-0 record at SMO's current α.
    void setStartRecord();

    SvmOptions svmOptions_;
    std::unique_ptr<KernelQ> q_;
    std::unique_ptr<Smo> smo_;
    long long stepsSinceTest_ = 0;  // SMO steps since the test error was last computed
    bool testStale_ = false;        // the last record's test error is of an earlier (α, b)
};

}  // namespace cplab
