// SPDX-License-Identifier: GPL-3.0-or-later
// The state of the MKL regularisation path (mkl_path.h): the barrier problem
// (mkl_path_barrier.h) built from the data and options, and the path followed so far; its
// set-up in steps, one predictor–corrector trial loop, and the bookkeeping of an accepted
// point. Internal to MklPathSolver (mkl_path.cpp).
#pragma once

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "kernel/kernel_solver.h"
#include "kernel/kernel_spec.h"
#include "kernel/mkl_path.h"
#include "kernel/mkl_path_barrier.h"

namespace cplab {

// The owner the solver's messages name.
inline constexpr const char* kMklPathOwner = "MklPathOptions";

// The `loss` option: squared | logistic (false for anything else).
bool parsePathLoss(const std::string& text, PathLoss* out);

// The barrier problem (mkl_path_barrier.h) and the path followed so far.
struct MklPathSolver::State : MklPathBarrier {
    std::vector<KernelSpec> specs;
    std::vector<std::string> labels;
    double targetMean = 0.0;  // added back to predictions (squared)
    double targetVariance = 1.0;
    double lambda0 = 0.0, lambdaMin = 0.0;
    int startSteps = 0;  // Newton steps of the first point
    // The time limit ended the set-up's Newton steps: the first point is the last feasible
    // iterate, not corrected (the first step then ends the run with the time-limit status).
    bool startCut = false;

    // The current corrected point.
    double sigma = 0.0;
    Eigen::VectorXd alpha;
    double step = 0.5;  // next trial step in σ

    std::vector<double> pathLambda;
    std::vector<Eigen::VectorXd> pathAlpha;
    std::vector<std::shared_ptr<const Eigen::VectorXd>> sharedAlpha;  // the same, for snapshots
    std::shared_ptr<MklPathModel> model;
    std::vector<Eigen::VectorXd> pathEta;
    std::vector<double> pathTestError;
    // The predictor of every point, made by snapshot() for the points accepted since the last.
    std::vector<std::shared_ptr<const MklPathPicture>> pictures;

    double lastTrainError = 0.0, lastTestError = std::numeric_limits<double>::quiet_NaN();

    // The set-up, in steps: each returns "" or why the problem is refused.
    // `stop` (the set-up's deadline: max_seconds from the constructor's start) is polled by the
    // first point's Newton steps.
    std::string setUp(const KernelProblem& problem, const MklPathOptions& options,
                      const Interrupt& stop);
    std::string parseKernels(const Dataset& given, int nTest, const MklPathOptions& options);
    std::string prepareData(const KernelProblem& problem, const MklPathOptions& options,
                            std::shared_ptr<const Dataset>& train,
                            std::shared_ptr<const Dataset>& test);
    std::string buildKernels(const std::shared_ptr<const Dataset>& train, const Dataset* test,
                             const MklPathOptions& options, const std::string& dataName);
    void setTargets(const Dataset& train, const Dataset* test, bool standardize);
    void setPenaltyWeights(double gamma);
    std::string start(const MklPathOptions& options, const std::string& dataName,
                      const Interrupt& stop);

    // One trial loop of a path step from the current point at λ along (v, curvature): the
    // predictor at t = −h, corrected; h halves until the correction succeeds.
    struct Trial {
        Eigen::VectorXd next;
        double h = 0.0;
        int trials = 0;
        int newtonSteps = 0;
    };
    // Status running on success, else why the step failed (cancelled or the time limit, polled
    // inside the corrector's Newton steps; h too small).
    Status predictCorrect(const Eigen::VectorXd& v, const Eigen::VectorXd& curvature, double lambda,
                          const MklPathOptions& options, const Interrupt& stop, Trial& trial);
    // Appends the corrected point (alpha, λ) to the path and fills `record` with its bounds and
    // columns (the step h in σ, its Newton steps and trials).
    void acceptPoint(double lambda, double h, int newtonSteps, int trials, double activeThreshold,
                     IterationRecord& record);
};

}  // namespace cplab
