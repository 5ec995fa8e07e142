// SPDX-License-Identifier: GPL-3.0-or-later
// The family of regularised risk minimisers for linear models (ALGORITHMS.md §3):
//
//     F(w) = λ/2 ‖w‖² + R(w),   R(w) = (1/m) Σᵢ ℓ(⟨w, xᵢ⟩, yᵢ)          (λ-form)
//     P(w) = ½ ‖w‖² + C Σᵢ ℓ(⟨w, xᵢ⟩, yᵢ) = F(w) / λ   with λ = 1/(C·m)  (C-form,
//     libocas/LIBLINEAR)
//
// Every solver of the family (BMRM, OCAS, DCD, SGD, libocas) derives from LinearSvmSolver,
// which owns the risk oracle, the optional test set, the λ/C conversion, the common record
// columns and the snapshot the views draw. Bounds are always in the λ-form: upper U = F of
// the best w found, lower L a certified lower bound of min F (−∞ when the method has none).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/solver.h"
#include "data/dataset.h"
#include "linear_model.h"
#include "linear_svm_snapshot.h"
#include "risk/risk.h"

namespace cplab {

// Training set and optional test set; the solvers share them read-only.
struct LinearProblem {
    std::shared_ptr<const Dataset> train;
    std::shared_ptr<const Dataset> test;  // may be null
    // Null: one process holds the sets. Else the ranks that share the examples: `train` and
    // `test` are this rank's shares (same features on every rank), the classes those of all
    // shares, and the solver runs in lockstep on every rank (risk/risk.h, "Processes").
    std::shared_ptr<Communicator> communicator = nullptr;
};

// The range of λ (given, or 1/(C·m)) the solvers accept: beyond it the arithmetic of w = −Aα/λ
// and of the planes' Hessian breaks down (C = 1e300 made OCAS run its 10,000 iterations at gap
// 1 and grow to 1 GB).
inline constexpr double kMinLambda = 1e-15;
inline constexpr double kMaxLambda = 1e15;

// Options every solver of the family has. Exactly one of lambda and C may be set (> 0); with
// neither, C = 1.
struct LinearSvmOptions {
    double lambda = 0.0;         // λ of the λ-form; 0: derived from C
    double C = 0.0;              // C of the C-form (λ = 1/(C·m)); 0: use lambda (or C = 1)
    std::string risk = "hinge";  // hinge|logistic|squared_hinge|multiclass|epsilon_insensitive
    bool bias = false;           // append a constant feature 1 (regularised, as libocas)
    double tube = 0.1;           // ε of the ε-insensitive loss, ≥ 0
    int threads = 1;             // oracle threads, ≥ 0 (0: all cores)

    void visit(OptionVisitor& v);
    bool isValid(const char* owner, std::string* why) const;
    // What isValid cannot see: λ or C given as 0 (0 is how the defaults say "unset", so a
    // typed 0 would silently mean C = 1). `given` holds the option texts as typed.
    static bool checkGiven(const OptionValues& given, const char* owner, std::string* why);
    // λ for m training examples.
    double lambdaFor(int m) const;
    RiskOptions riskOptions() const;
};

class LinearSvmSolver : public Solver {
  public:
    const Risk& risk() const { return *risk_; }
    double lambda() const { return lambda_; }
    double C() const;  // 1/(λ·m)
    const LinearProblem& problem() const { return problem_; }
    // The training file's label values, before they were mapped for the risk.
    const std::vector<double>& classes() const { return classes_; }
    // The best weights so far (U = F(wBest)).
    virtual const Eigen::VectorXd& bestWeights() const = 0;

    // The best weights as a model file's content (labels in the training file's values).
    LinearModel model() const;

    // F(w) and R(w) (one oracle call; counted by the caller).
    double objective(const Eigen::VectorXd& w, double* riskValue = nullptr) const;

    // Common: objective_lambda, objective_C, lambda, C, train_error, test_error (when a test
    // set is given), planes; then the solver's own fields (familySummary()).
    SummaryFields summary() const final;

    // Classification error (or mean absolute error for regression) of w on the test set (−1
    // without one); the training error comes from Risk::errorFromScores.
    double testError(const Eigen::VectorXd& w) const;

  protected:
    // Validates options and data; on failure the solver is rejected (see Solver). `owner`
    // names the options struct in messages. Labels are mapped to what the risk expects (two
    // values a < b → −1/+1; K classes → 0..K−1 in sorted order), copying the data only then.
    LinearSvmSolver(const LinearProblem& problem, const LinearSvmOptions& options,
                    const StopOptions& stop, const char* owner);
    bool valid() const { return risk_ != nullptr && !rejected(); }
    // Whether this run, before its first step, can start from `previous`'s weights (a run on
    // the training set before an edit, app/registry/warm_start.h): both accepted, the same risk and
    // the same size of w. Else false with *why.
    bool warmCompatible(const LinearSvmSolver& previous, std::string* why) const;
    // The family solver's own options (validated after the base's checks): rejects with their
    // message when they are invalid; true when the solver may go on (valid()).
    template <class Options>
    bool acceptOptions(const Options& options) {
        return Solver::acceptOptions(options) && valid();
    }

    // Bytes of the training set (of every rank's share over several processes), for the
    // planes' memory budget.
    double trainingBytes() const;

    // Before the first allocation that grows with examples × classes: rejects with the sizes
    // (memory_budget.h) when `scoreMatrices` m × K score matrices, `planes` planes and a few
    // weight vectors of F·K entries cannot fit in the memory available; true when they fit.
    bool acceptMemory(int scoreMatrices, int planes, const char* owner);

    // The family's leading record columns: planes, active_planes, train_error, test_error.
    static std::vector<std::string> commonColumns();
    std::vector<double> commonExtras(int planes, int activePlanes, double trainError,
                                     const Eigen::VectorXd& wForTest);

    // The same columns with the errors of the previous call (w^b did not change).
    std::vector<double> commonExtras(int planes, int activePlanes) const;

    void fillLinearSnapshot(LinearSvmSnapshot& snapshot) const;

    // For the cutting-plane solvers, at the end of each iteration: running, or a
    // NumericalFailure once neither bound has moved (by more than 1e-13 relative) for
    // kStallIterations iterations in a row. A cutting-plane model raises L at every step
    // while it has precision; it stops when features lie on scales 10⁸ apart, say, and the
    // run would otherwise spend its whole budget at an unchanging gap. The message says so
    // with the training data's range of magnitudes. A stall with the gap at rounding level,
    // U − L ≤ roundingGap·max(|U|, |L|), is no failure but the end of what the arithmetic
    // resolves (tol_rel = epsilon = 0 asks for it): Stalled, a usable result.
    static constexpr int kStallIterations = 100;
    // Why a cutting-plane model may lose precision on the training data, for messages: every
    // feature zero, magnitudes far apart, or large magnitudes (each with "scale them"), else
    // degenerate data (then *degenerate is set, when given).
    std::string dataConditionNote(bool* degenerate = nullptr) const;
    Status progressStatus(const IterationRecord& record, int window = kStallIterations,
                          double roundingGap = kRoundingGap);
    // The relative gap the cutting-plane solvers resolve: ten times the reduced QP's default
    // relative accuracy (PlaneOptions::qp_tolerance = 1e-10).
    static constexpr double kRoundingGap = 1e-9;

    virtual SummaryFields familySummary() const { return {}; }
    // The checks of the training and test sets before the risk is made, with their labels
    // mapped (classes_ set): empty, or why they are refused.
    std::string checkedLabels(const char* owner);
    // Over several ranks (collective): `why` of checkedLabels, or, when the shares hold more
    // classes than a binary loss takes, this rank's part of naming where the extra one appears.
    std::string sharedLabelsFailure(const std::string& why, const char* owner);
    virtual int storedPlanes() const { return 0; }
    virtual int activeStoredPlanes() const { return 0; }

    LinearProblem problem_;
    LinearSvmOptions options_;
    std::unique_ptr<Risk> risk_;
    double lambda_ = 0.0;
    std::vector<double> classes_;  // the training file's label values, before mapping
    double lastTrainError_ = 0.0;
    int stalledFor_ = 0;
    double progressUpper_ = std::numeric_limits<double>::infinity();
    double progressLower_ = -std::numeric_limits<double>::infinity();
    double lastTestError_ = -1.0;
};

}  // namespace cplab
