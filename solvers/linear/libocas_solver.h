// SPDX-License-Identifier: GPL-3.0-or-later
// libocas (Franc & Sonnenburg 2008, 2009; the Debian libocas-dev C library) raced live: the
// reference implementation of OCAS and of the standard cutting-plane method (SVMperf/BMRM),
// driven one iteration per step() like every other solver (ALGORITHMS.md §3, Alg. 7.3/7.4).
//
// Problem:    libocas's C-form  P(w) = ½‖w‖² + C Σᵢ ℓᵢ(w)  with C = 1/(λm), so F = λP
//             (linear_svm.h); ℓ is the binary hinge (svm_ocas_solver) or the Crammer–Singer
//             multi-class hinge (msvm_ocas_solver). A bias is Risk's constant feature 1
//             (regularised, as libocas's X0 = 1). Other risks are rejected.
// Iteration:  libocas's own loop, unchanged: add the cut at w^c (our add_new_cut over the
//             Dataset, sparse or dense), solve the reduced QP (libqp), w_t = Σ αᵢ aᵢ
//             (compute_W), outputs at w_t (compute_output), then for OCAS (method = ocas,
//             libocas Method 1) its exact line search w^b ← w^b + t(w_t − w^b) (update_W) and
//             w^c = w^b + 0.1 (w_t − w^b); for method = bmrm (Method 0) w^b = w^c = w_t.
// Bounds:     upper U = λ·min over iterations of libocas's Q_P (for OCAS that is its last
//             Q_P, F of its w^b), lower L = λ·max over iterations of its Q_D (the reduced
//             problem's dual value at a feasible α: certified by weak duality).
// Stopping:   libocas's TolRel = max(tol_rel, 1e-12) and TolAbs = epsilon/λ, which
//             together are exactly StopOptions' gap rules on the λ-form gap (the floor 1e-12 exists
//             because libocas's inner QP runs to TolRel/2 and would otherwise iterate up to 10⁷
//             times per call); max_iterations, max_seconds and cancellation are applied here, not
//             by libocas (its MaxTime counts wall time, including the time it waits for step()).
//
// Stepping:   svm_ocas_solver runs on a background std::thread. Its ocas_print callback fires
//             once per iteration; there the thread publishes libocas's state and w, then
//             blocks until the next step(). step() resumes it and waits for the next callback
//             (or libocas's end), so each record is exactly one libocas iteration and the
//             record's seconds count libocas's computation only. When a step ends the run
//             (libocas's own criterion, the stop rules, or cancellation) the thread is
//             stopped and joined before step() returns: the next cut's add_new_cut returns
//             an error, which makes libocas free its buffers and return at once. The
//             destructor does the same at any time; while it computes, the callbacks poll
//             the stop flag every 1024 examples, but libocas's inner QP solve (libqp) cannot
//             be interrupted: that one solve is the latency (milliseconds at the default
//             tol_rel; at tol_rel ≤ 1e-10 on a9a it grows to a second). A cancelled
//             CancelToken (set before the first step) also wakes a parked thread within
//             50 ms and stops it. The callbacks run on libocas's thread alone (`threads`
//             only affects the test-error evaluation).
//
// One libocas run per process: libocas keeps its Hessian buffer in file-scope statics (H,
// BufSize in libocas.c), so two overlapping runs would corrupt each other. A solver whose
// first step finds another libocas run live in the process fails with NumericalFailure and
// a message saying so; a new solver can run once the other has finished or been destroyed.
//
// Oracle calls: one per iteration (compute_output, a pass over the data giving R(w_t);
// add_new_cut's pass is its subgradient). Records' train_error is libocas's count of
// margins ≤ 0 at w^b (w_t for bmrm) over m.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "linear/linear_svm.h"

namespace cplab {

struct LibocasOptions {
    StopOptions stop;
    LinearSvmOptions model;       // risk hinge or multiclass; C or lambda, bias
    std::string method = "ocas";  // ocas: libocas Method 1 (OCAS); bmrm: Method 0 (cutting plane)
    // libocas's BufSize: the most cutting planes it stores (it keeps every plane, and
    // allocates a BufSize² Hessian up front); 0: max_iterations + 1, at most 4001. A full
    // buffer ends the run (libocas exitflag −1). 0 or in [2, 20000].
    int buf_size = 0;
    // Stop with a numerical failure after this many consecutive iterations whose inner QP
    // (libqp) ended at its iteration limit, 10⁷ (qp_exitflag 0; 0: never stop for it). On badly
    // scaled data each such iteration takes a second or more, and the bounds creep for
    // minutes; on well-scaled data the inner QP converges every time.
    int qp_limit_stop = 5;

    LibocasOptions() {
        stop.epsilon = 0.0;  // libocas's default rule is the relative one
        stop.tol_rel = 1e-3;
    }
    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
    static bool checkGiven(const OptionValues& given, std::string* why) {
        return LinearSvmOptions::checkGiven(given, "LibocasOptions", why);
    }
    // BufSize passed to libocas.
    std::uint32_t bufferSize() const;
};

// libocas's state as its ocas_print callback reports it (C-form).
struct LibocasState {
    int iterations = 0;        // nIter
    int planes = 0;            // nCutPlanes
    int activePlanes = 0;      // nNZAlpha
    int trainErrors = 0;       // trn_err
    double qp = 0.0;           // Q_P, primal value of its current w
    double qd = 0.0;           // Q_D, dual value of the reduced problem
    int qpExitflag = 0;        // of the inner QP solver (libqp)
    double ocasSeconds = 0.0;  // its ocas_time (wall time since its start, waits included)
};

class LibocasSolver final : public LinearSvmSolver {
  public:
    explicit LibocasSolver(const LinearProblem& problem, LibocasOptions options = {});
    // Stops libocas (if running) and joins its thread; returns promptly at any point.
    ~LibocasSolver() override;

    std::string name() const override { return "libocas"; }
    // commonColumns(), then libocas_iter (its nIter), q_p and q_d (its Q_P and Q_D, C-form,
    // of the iteration), qp_exitflag (its inner QP's exit flag).
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    SnapshotPtr snapshot() const override;
    const Eigen::VectorXd& bestWeights() const override { return wBest_; }

    const LibocasOptions& options() const { return libocasOptions_; }
    // libocas's state after the last step (iteration 0 before the first one).
    const LibocasState& state() const { return state_; }
    // libocas's exit flag once it has returned (1 TolRel, 2 TolAbs, −1 buffer full, −2 stopped
    // here or out of memory; see libocas.h), 0 while it runs or before it starts.
    int exitflag() const { return exitflag_; }
    // True while the libocas thread exists (started and not yet joined).
    bool threadRunning() const;

  protected:
    Status doStep(IterationRecord& record) override;
    SummaryFields familySummary() const override;
    int storedPlanes() const override { return state_.planes; }
    int activeStoredPlanes() const override { return state_.activePlanes; }

  private:
    struct Run;  // the libocas thread, its callbacks' data and the rendezvous
    Status startRun();
    void stopRun(const std::string& reason);
    // doStep's phases: start libocas (the first step) or let it go on (*seen: the iterations
    // it had published); wait for its next iteration and take its state (false: it returned
    // without one); the status when it returned so, or when it ends on its own criterion
    // after this iteration; else cplab's stop rules, decided here so that libocas is stopped
    // with the run (`start`: when the step began).
    Status startOrResume(long long* seen);
    bool takeIteration(long long seen, IterationRecord& record, int* predictedExit);
    Status returnedWithoutIteration(IterationRecord& record);
    Status finishedByLibocas();
    Status stopRulesAfter(IterationRecord& record, std::chrono::steady_clock::time_point start);
    // Whatever ended the run (a stop rule decided in Solver::step included), libocas's thread
    // stops and its buffers are freed.
    void onFinished() override { stopRun("the run ended"); }

    LibocasOptions libocasOptions_;
    bool multiclass_ = false;
    double tolRel_ = 0.0, tolAbs_ = 0.0;  // what libocas gets (C-form)
    std::unique_ptr<Run> run_;
    LibocasState state_;
    int exitflag_ = 0;
    int qpAtLimitFor_ = 0;  // consecutive iterations whose inner QP hit its iteration limit
    std::string exitText_ = "not started";
    Eigen::VectorXd wBest_;        // w of the best Q_P so far (F(wBest) = U)
    Eigen::VectorXd wCurrent_;     // libocas's W after the last iteration (w_b; w_t for bmrm)
    Eigen::VectorXd wModel_;       // w_t of the last iteration's reduced problem
    double bestTrainError_ = 1.0;  // libocas's training error of wBest_
};

}  // namespace cplab
