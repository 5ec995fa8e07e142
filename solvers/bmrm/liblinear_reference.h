// LIBLINEAR (Fan, Chang, Hsieh, Wang, Lin 2008; the Debian liblinear-dev C API) as an
// independent reference for the linear-model family (ALGORITHMS.md §3): tests and benchmarks
// compare the optimum of our solvers with LIBLINEAR's.
//
// Problem:    LIBLINEAR solves the C-form  P(w) = ½‖w‖² + C Σᵢ ℓ(⟨w, xᵢ⟩, yᵢ)  with
//             C = 1/(λm), so its minimiser is the minimiser of our λ-form F = λP
//             (linear_svm.h). With options.bias, LIBLINEAR's bias (prob.bias = 1: a constant
//             feature 1 appended to every example) is regularised like the other weights in
//             LIBLINEAR 2.30 (which has no regularize_bias switch), exactly as in Risk.
// Solvers:    hinge               -s 3  L2R_L1LOSS_SVC_DUAL (dual coordinate descent)
//             squared_hinge       -s 1  L2R_L2LOSS_SVC_DUAL (dual coordinate descent)
//             logistic            -s 0  L2R_LR              (primal trust-region Newton)
//             multiclass          -s 4  MCSVM_CS            (Crammer–Singer, dual)
//             epsilon_insensitive -s 13 L2R_L1LOSS_SVR_DUAL with p = options.tube
// Stopping:   LIBLINEAR's own rule with tolerance eps (projected-gradient / gradient-norm
//             criteria); note that its dual solvers also stop after 1000 outer iterations
//             (100000 for -s 4), so a returned objective is an upper bound of min F whose
//             accuracy the caller should check when it matters (tests do, independently).
//
// Thread safety: LIBLINEAR's print function is process-global; it is silenced once, for the
// whole process, on the first call. Concurrent calls are otherwise independent.
#pragma once

#include <Eigen/Core>
#include <string>

#include "bmrm/linear_svm.h"

namespace cplab {

struct ReferenceSolution {
    Eigen::VectorXd w;     // laid out like Risk's w (bias last when options.bias)
    double objective = 0;  // F(w) in the λ-form, evaluated by our Risk
    std::string solver;    // e.g. "LIBLINEAR 2.30 -s 3 (L2R_L1LOSS_SVC_DUAL)"
};

// Trains LIBLINEAR through its C API on problem.train with options' risk, bias and λ
// (C = 1/(λ m)) to tolerance eps (> 0). Labels map back to our convention: binary w scores
// +1 positive; multi-class weights come as column blocks per class 0..K−1, like Risk's.
// Throws std::invalid_argument for a missing or empty training set, invalid options, a
// non-positive eps, labels the risk does not accept, a class missing from the training set
// (LIBLINEAR only learns the classes it sees), or a LIBLINEAR parameter check failure.
ReferenceSolution solveWithLiblinear(const LinearProblem& problem, const LinearSvmOptions& options,
                                     double eps = 1e-8);

}  // namespace cplab
