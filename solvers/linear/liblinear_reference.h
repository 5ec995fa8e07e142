// SPDX-License-Identifier: GPL-3.0-or-later
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
// Stopping:   LIBLINEAR's own rule with tolerance eps (projected-gradient or gradient-norm
//             criteria). LIBLINEAR 2.30's dual coordinate-descent solvers (-s 1, 3, 13) also
//             stop after 1000 outer iterations whatever eps is — on heart_scale at C = 1,
//             -s 3 then leaves F 6e-5 above the optimum. When LIBLINEAR warns so, the
//             examples are repeated r = 4, 16, … times with C/r (the same problem P, but r
//             times the coordinate updates per outer iteration) until it meets eps or
//             r·(nonzeros + m) would pass 2e7; the solver text records r. Each retry starts
//             LIBLINEAR afresh (heart_scale at C = 10 with a bias needs r = 4096, about 4 s).
// Hinge:      the result is then polished: the sets margin < 1 / = 1 / > 1 are read off w,
//             the linear system they define is solved, and the solution replaces w only with
//             a certificate (a dual-feasible α with duality gap ≤ 1e-11·P and P below
//             LIBLINEAR's); heart_scale's optimum then agrees with libocas's to ~1e-12.
// Determinism: train() calls are serialised; rand() (which LIBLINEAR's dual solvers use for
//             their permutations) is seeded with 1 before each, and LIBLINEAR's process-global
//             print function is pointed at a buffer during the call and at a no-op after it
//             (nothing reaches stdout).
#pragma once

#include <Eigen/Core>
#include <string>

#include "linear/linear_svm.h"

namespace cplab {

struct ReferenceSolution {
    Eigen::VectorXd w;     // laid out like Risk's w (bias last when options.bias)
    double objective = 0;  // F(w) in the λ-form, evaluated by our Risk
    // e.g. "LIBLINEAR 2.30 -s 3 (L2R_L1LOSS_SVC_DUAL), examples repeated 16x + certified
    // active-set polish"
    std::string solver;
};

// Trains LIBLINEAR through its C API on problem.train with options' risk, bias and λ
// (C = 1/(λ m)) to tolerance eps (> 0). Labels map back to our convention: binary w scores
// +1 positive; multi-class weights come as column blocks per class 0..K−1, like Risk's (whose
// classes of −1/+1 labels are 0/1).
// Throws std::invalid_argument for a missing or empty training set, invalid options, a
// non-positive eps, labels the risk does not accept, a class missing from the training set
// (LIBLINEAR only learns the classes it sees), or a LIBLINEAR parameter check failure.
ReferenceSolution solveWithLiblinear(const LinearProblem& problem, const LinearSvmOptions& options,
                                     double eps = 1e-8);

}  // namespace cplab
