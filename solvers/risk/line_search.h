// SPDX-License-Identifier: GPL-3.0-or-later
// Exact line search of OCAS / LS-BMRM (ALGORITHMS.md §3; Franc & Sonnenburg 2008, §3.2):
//
//     k* = argmin_{k ≥ 0} f(k),
//     f(k) = λ/2 ‖w + kΔ‖² + (1/m) Σᵢ ℓ(sᵢ + k dᵢ, yᵢ)
//          = λ/2 (ww + 2k·wd + k²·dd) + (1/m) Σᵢ ℓ(sᵢ + k dᵢ, yᵢ),
//
// where s = X w (+ bias) and d = X Δ (+ bias) are m × K score matrices (Risk::scores; K = 1
// except multi-class), so one step costs no pass over the data. f is convex; its right
// derivative f'(k⁺) is nondecreasing and k* is the smallest k with f'(k⁺) ≥ 0.
//
// Method per loss:
//   hinge, ε-insensitive, multi-class (piecewise linear ℓ): along the line every example's
//     loss is the upper envelope of a few affine functions of k (hinge: 0 and 1 − y(s + kd);
//     ε-insensitive: 0 and ±(s + kd − y) − ε; multi-class: the K functions
//     [j ≠ y] + s_j − s_y + k(d_j − d_y), whose envelope is walked per example in O(K²) per
//     kink). So f'(k⁺) = λ·dd·k + B(k), where B (λ·wd plus the active pieces' slopes / m)
//     jumps up by |slope change|/m at each kink ("breakpoint"). Exact.
//   squared hinge: f'(k⁺) = A(k)·k + B(k) with A, B piecewise constant, changing where a
//     term max(0, 1 − y(s + kd))² switches on or off. Exact: the root is −B/A on its piece.
//   For both, the zero crossing is found by selection rather than a full sort: take the
//     median breakpoint (nth_element), evaluate f'(k⁺) there from the breakpoints at or before
//     it, and keep the half that holds k* — expected O(number of breakpoints) time (the
//     multi-class envelopes cost O(m·K²) before), and ties (equal breakpoints) are handled
//     together.
//   logistic (smooth): the root of f' by Newton's method from k = 0, safeguarded by bisection
//     inside the bracket [lo, hi] with f'(lo) < 0 ≤ f'(hi) once an overshoot has found hi
//     (doubling while f'' = 0); it stops when the bracket or the Newton step is below
//     1e-13·max(1, k). Each step is one O(m) pass with one exp per example.
// Guards: f'(0⁺) ≥ 0 (e.g. Δ = 0, or a direction along which f increases) gives k* = 0; when
// f still decreases at options.maxStep (possible only when λ·dd = 0), k* = maxStep and
// `capped` is set. No NaN is returned for finite inputs. f(0) is summed while the breakpoints
// are collected (logistic: one more pass), f(k*) costs one more O(m·K) pass over S and D, and
// the inputs' finiteness one more. The O(m) passes (sums, breakpoint collection, the selection's
// partitions while many breakpoints remain) run on a WorkerTeam when one is given: the Risk's
// for the Risk overloads, LineSearchOptions::team otherwise; results then depend on the
// number of parts (sums are added part by part, in order) but never on scheduling.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "risk/risk.h"

namespace cplab {

// The regulariser along the line: λ/2 ‖w + kΔ‖² = λ/2 (ww + 2k·wd + k²·dd).
struct LineRegulariser {
    double lambda = 0.0;  // λ ≥ 0
    double ww = 0.0;      // ‖w‖² ≥ 0
    double wd = 0.0;      // ⟨w, Δ⟩
    double dd = 0.0;      // ‖Δ‖² ≥ 0
};

struct LineSearchOptions {
    double maxStep = 1e12;        // cap on k when f decreases without bound, > 0
    int breakpointSample = 1000;  // at most this many breakpoints are returned for plots, ≥ 0
    // Threads for the passes (null: the calling thread only) and the least work per part, as
    // in RiskOptions. Ignored by the Risk overloads, which use the Risk's.
    WorkerTeam* team = nullptr;
    long long minWorkPerThread = 2048;
};

struct LineSearchResult {
    double k = 0.0;             // the minimiser k* ≥ 0 (the smallest one if f is flat there)
    double value = 0.0;         // f(k*)
    double valueAtZero = 0.0;   // f(0)
    long long breakpoints = 0;  // kinks of f' on k > 0 (squared hinge: on/off switches), 0 for
                                // logistic; k ∈ (0, ∞) only, counted with multiplicity
    std::vector<double> breakpointSample;  // sorted k of at most options.breakpointSample of
                                           // them (evenly strided over the examples), for plots
    int iterations = 0;                    // selection rounds, or Newton/bisection steps (logistic)
    bool capped = false;                   // f'(k⁺) < 0 up to maxStep: k = maxStep
};

// The line search on scores S, D (m × K) of `labels` as the loss reads them (±1 for the binary
// losses, class indices 0..K−1 for multi-class, targets for ε-insensitive; see
// Risk::lossLabels). Throws std::invalid_argument for mismatched sizes, K ≠ 1 for a
// single-output loss, K < 2 for multi-class, labels the loss does not accept, non-finite
// entries, λ, ww or dd < 0, ε < 0, maxStep ≤ 0, breakpointSample < 0 or minWorkPerThread < 1.
LineSearchResult exactLineSearch(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                                 const LineRegulariser& line, const Eigen::MatrixXd& S,
                                 const Eigen::MatrixXd& D, const LineSearchOptions& options = {});
// The same with the loss, ε and labels of `risk`.
LineSearchResult exactLineSearch(const Risk& risk, const LineRegulariser& line,
                                 const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                                 const LineSearchOptions& options = {});

// f(k) at every entry of `ks` (any real k; for the GUI's slice plot), same inputs and checks
// (options: only the threads).
Eigen::VectorXd lineObjective(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                              const LineRegulariser& line, const Eigen::MatrixXd& S,
                              const Eigen::MatrixXd& D, const Eigen::VectorXd& ks,
                              const LineSearchOptions& options = {});
Eigen::VectorXd lineObjective(const Risk& risk, const LineRegulariser& line,
                              const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                              const Eigen::VectorXd& ks);

}  // namespace cplab
