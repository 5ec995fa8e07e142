// SPDX-License-Identifier: GPL-3.0-or-later
// The cutting planes of BMRM and OCAS and their reduced problem (ALGORITHMS.md §3):
//
//     min_w λ/2 ‖w‖² + max_i (⟨aᵢ, w⟩ + bᵢ)
//   = max_{α ∈ simplex} ⟨b, α⟩ − 1/(2λ) αᵀ AᵀA α,   w = −Aα/λ,
//
// solved in the dual by SimplexQp with H = AᵀA/λ grown by one row/column per plane (O(d·t)
// for the new Gram column). The dual value at any feasible α is a lower bound of the reduced
// problem's minimum and so of min F (weak duality), whatever the QP's accuracy.
//
// Every risk of Risk is ≥ 0, so the plane a = 0, b = 0 is a valid cutting plane from the
// start (libocas keeps the same bound in its Σα ≤ 1 dual); it makes the lower bound rise from
// the first iteration and saves OCAS about 10 % of its iterations. It is plane 0, never
// dropped, and counted by size() like the others.
//
// The planes are stored in blocks of columns (about 256 KB each): adding one never copies
// the others, and the blocks a drop empties are freed (one spare is kept), so memory follows
// the planes stored.
//
// Memory management: a plane whose αᵢ stayed 0 for `inactiveLimit` consecutive solves is
// dropped (0: never); when more than `maxPlanes` are stored after the drop, the oldest planes
// (never plane 0 or the newest) are replaced by their aggregate ā = Σ αᵢ aᵢ / Σ αᵢ, b̄ likewise,
// with weight Σ αᵢ: a valid plane below R (a convex combination of planes), and the current
// optimum and dual value unchanged (limited-memory BMRM, Teo et al. 2010, applied to the old
// planes only). Merging the oldest keeps the planes the last iterations built: on ten-class
// usps with 100 planes, OCAS needs 528 iterations this way, 647 when all planes are merged
// into one and 2,459 when the planes of least α are merged (443 uncapped).
//
// Cut points: when the points fit kCutPointDoubles (planes × dimension; every set the GUI
// draws, and most files), each plane also keeps the w it was taken at, so that a warm start
// after the training set changed can take the new risk's planes at the same points (an old
// plane is a bound of the old risk only). Plane 0 and aggregates have none.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "core/events.h"
#include "core/options.h"
#include "math/simplex_qp.h"

namespace cplab {

inline constexpr int kDefaultInactiveLimit = 50;

// The plane-management options BMRM and OCAS share.
struct PlaneOptions {
    // Drop a plane after this many solves with α = 0 (0: never). 50 keeps the iteration counts
    // of keeping every plane within a few per cent (docs/linear.md) while the plane set stays at a
    // few hundred planes instead of one per iteration.
    int inactive_limit = kDefaultInactiveLimit;
    // Aggregate the oldest planes when more are stored: 0 no cap; −1 (default) automatic: as
    // many as fit the owner's budget (the linear solvers: an eighth of the data's bytes; at
    // most 512 MB), between 16 and 2,000 (libocas's buffer), so that a long run's memory stays
    // flat and grows with the data.
    int max_planes = -1;
    double qp_tolerance = 1e-10;  // relative accuracy of the reduced QP, in (0, 1)

    void visit(OptionVisitor& v) {
        v.integer("inactive_limit", inactive_limit,
                  "drop planes inactive (alpha = 0) for this many iterations (0: never)");
        v.integer("max_planes", max_planes,
                  "aggregate the oldest planes when more are stored, limited memory (0: no cap, "
                  "-1: automatic, 16 to 2000 within a memory budget)");
        v.real("qp_tolerance", qp_tolerance, "relative tolerance of the reduced QP, > 0");
    }
    bool isValid(const char* owner, std::string* why) const;
};

inline constexpr int kAutoMaxPlanes = 2000;
inline constexpr int kAutoMinPlanes = 16;
inline constexpr double kAutoPlaneBytes = 512.0 * 1024 * 1024;
// The linear solvers' planes may take an eighth of the data's bytes (Dataset::storedBytes), or
// 1 MB if that is more. The binary sets here are not capped by it (a9a and usps0 keep at most
// 234 planes at C = 10, tol_rel 1e-4, against caps of 1,065 and 563), while multi-class planes
// (d·K values each) keep ten-class usps within 1.5× the data (tests/bench/README.md): 56
// planes, for which OCAS needs 641 iterations instead of 443 and BMRM 2,957 instead of 1,229.
inline constexpr double kPlaneShareOfData = 1.0 / 8.0;
inline constexpr double kMinPlaneBudget = 1024.0 * 1024;
// Cut points are kept when the most planes stored times the dimension is at most this.
inline constexpr double kCutPointDoubles = 4.0 * 1024 * 1024;
// The linear solvers' budget for max_planes = −1 on data of `dataBytes`.
double linearPlaneBudget(double dataBytes);
// The cap max_planes = −1 stands for with planes of `dimension` doubles and `budgetBytes` for
// all of them (at most kAutoPlaneBytes): between kAutoMinPlanes and kAutoMaxPlanes.
int automaticMaxPlanes(Eigen::Index dimension, double budgetBytes = kAutoPlaneBytes);

class PlaneSet {
  public:
    // autoBudgetBytes: the budget of max_planes = −1 (see automaticMaxPlanes).
    PlaneSet(Eigen::Index dimension, double lambda, const PlaneOptions& options,
             double autoBudgetBytes = kAutoPlaneBytes);

    // Adds the plane ⟨a, w⟩ + b (a.size() == dimension), taken at `point` (kept when the set
    // keeps cut points; empty: none).
    void add(const Eigen::VectorXd& a, double b, const Eigen::VectorXd& point = {});
    // Solves the reduced dual from the previous α, then applies the drop/aggregation rules.
    SimplexQpResult solve();

    // w = −Aα/λ of the current α.
    Eigen::VectorXd weights() const;
    // ⟨b, α⟩ − 1/(2λ) αᵀAᵀAα, a lower bound of min F.
    double dualValue() const;
    // R_t(w) = maxᵢ ⟨aᵢ, w⟩ + bᵢ (−∞ without planes).
    double modelValue(const Eigen::VectorXd& w) const;

    // Whether the planes keep the points they were taken at, and those points (of the planes
    // that have one, oldest first).
    bool keepsCutPoints() const { return keepPoints_; }
    std::vector<Eigen::VectorXd> cutPoints() const;

    int size() const { return count_; }
    int maxPlanes() const { return maxPlanes_; }  // most planes stored at once
    int active() const;                           // planes with α > 0
    int aggregations() const { return aggregations_; }
    int dropped() const { return dropped_; }
    // What the last solve() removed: planes dropped as inactive, and planes merged into one
    // aggregate (0 when it did not aggregate).
    int lastDropped() const { return lastDropped_; }
    int lastMerged() const { return lastMerged_; }
    // The PlanesDropped and PlanesAggregated events of the last solve() (none if it kept every
    // plane).
    StepEvents lastSolveEvents() const;

  private:
    void dropInactive();
    // Merges the planes of least α into one so that at most maxPlanes_ remain.
    void aggregate();
    // Removes the planes at the given ascending indices (never plane 0) from storage and QP.
    void removePlanes(const std::vector<int>& sorted);
    double* column(int i) { return blocks_[i / blockWidth_].col(i % blockWidth_).data(); }
    const double* column(int i) const {
        return blocks_[i / blockWidth_].col(i % blockWidth_).data();
    }
    // Σ αᵢ aᵢ over the stored planes.
    Eigen::VectorXd combination(const Eigen::VectorXd& alpha) const;
    // Frees the blocks beyond those the count_ planes need.
    void releaseEmptyBlocks();

    Eigen::Index dimension_;
    double lambda_;
    int inactiveLimit_;
    int maxPlanes_;
    SimplexQp qp_;
    int blockWidth_;                       // planes per block
    std::vector<Eigen::MatrixXd> blocks_;  // dimension × blockWidth_ each; plane i is column
                                           // i % blockWidth_ of block i / blockWidth_
    std::vector<double> b_;
    std::vector<int> inactiveFor_;  // consecutive solves with α = 0, per plane
    bool keepPoints_ = false;
    std::vector<Eigen::VectorXd> points_;  // per plane when keepPoints_: its cut point or empty
    int count_ = 0;
    int aggregations_ = 0;
    int dropped_ = 0;
    int lastDropped_ = 0;
    int lastMerged_ = 0;
    SimplexQpOptions qpOptions_;
};

}  // namespace cplab
