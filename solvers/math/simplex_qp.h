// SPDX-License-Identifier: GPL-3.0-or-later
// Convex QP over the probability simplex, the reduced problem of bundle methods, BMRM and
// OCAS:
//
//     minimise  q(α) = ½ αᵀ H α − bᵀ α   subject to  α ≥ 0,  Σ α = 1,
//
// H symmetric positive semidefinite (possibly singular), t = size() up to a few thousand.
//
// The problem grows by one variable at a time (one new cutting plane per outer iteration):
// addVariable() appends a row/column of H and an entry of b, and the new αₜ starts at 0 so
// the previous solution stays feasible and warm-starts the next solve(). Variables can be
// removed (inactive planes) and b can be replaced (the bundle method's prox-centre moves).
//
// Optimality certificate. With g = Hα − b, every feasible β satisfies
//     q(α) − q(β) ≤ gᵀα − minᵢ gᵢ =: fwGap(α)   (convexity + linear minimisation over Δ),
// so fwGap bounds the distance to the optimum; KKT holds iff gᵢ = μ for αᵢ > 0 and gᵢ ≥ μ
// for all i, measured by kktViolation = max_{αᵢ>0} gᵢ − minᵢ gᵢ.
//
// Algorithm. SMO-style pair updates α_i += δ, α_j −= δ with the exact clipped step, the pair
// chosen by second-order gain around the maximal violating pair (O(t) per step with the
// cached gradient g = Hα − b), alternating with an active-set polish on the support
// (proximal Newton steps on the face, ratio test, entering of the most violating variable;
// O(s³) for support size s) that gives high accuracy once SMO has found the support.
// solve() stops when fwGap ≤ ε := max(tolerance·max(1, |q|), ρ) and, with a bounded extra
// effort, also drives kktViolation below ε. ρ ≈ 2e-13·max(Hᵢᵢ, |bᵢ|) is the rounding floor
// of the gradient; it only matters for badly scaled data. A solve whose objective stops
// decreasing beyond rounding for 2t + 50 iterations ends (converged if fwGap ≤ ε).
//
// Misuse (wrong lengths, non-finite data, invalid options, solve() on an empty problem)
// throws std::invalid_argument with a message naming the argument.
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <vector>

namespace cplab {

struct SimplexQpOptions {
    double tolerance = 1e-10;      // stop when fwGap ≤ tolerance·max(1, |q(α)|) (or ρ), > 0
    int max_iterations = 1000000;  // inner iterations (pair updates + active-set steps) per
                                   // solve, > 0; at most 1000·t + 10,000 for t variables
};

struct SimplexQpResult {
    double objective = 0.0;     // q(α) at the returned α
    double fwGap = 0.0;         // gᵀα − min g ≥ q(α) − q*
    double kktViolation = 0.0;  // max_{αᵢ>0} gᵢ − min gᵢ
    int iterations = 0;         // inner iterations (pair + active-set steps) of this solve()
    bool converged = false;     // fwGap ≤ ε (see above) on return
};

class SimplexQp {
  public:
    explicit SimplexQp(SimplexQpOptions options = {});

    int size() const;

    // Appends variable t = size(): hColumn holds H(0..t, t) (length t+1, the last entry is the
    // diagonal H(t,t)), bValue is b(t). The new α(t) is 0, or 1 if it is the first variable.
    void addVariable(const Eigen::Ref<const Eigen::VectorXd>& hColumn, double bValue);

    // Removes the given variables (any order, no duplicates). The remaining α are rescaled to
    // sum to 1 (uniform if they were all 0).
    void removeVariables(std::vector<int> indices);

    // Replaces b (length size()); α is kept as the warm start.
    void setLinearTerm(const Eigen::Ref<const Eigen::VectorXd>& b);

    // Replaces α (length size(), must be feasible up to rounding; it is clipped at 0 and
    // renormalised).
    void setAlpha(const Eigen::Ref<const Eigen::VectorXd>& alpha);

    // Solves from the current α (warm start). Requires size() ≥ 1.
    SimplexQpResult solve();

    const Eigen::VectorXd& alpha() const;
    double objective() const;  // q(α)
    // H (a size()×size() copy) and b as stored.
    Eigen::MatrixXd hessian() const;
    const Eigen::VectorXd& linearTerm() const;

  private:
    // Scalars of the current α in one O(t) pass over the cached gradient.
    struct Measure {
        double gMin = std::numeric_limits<double>::infinity();
        double gMaxSupport = -std::numeric_limits<double>::infinity();
        int iMin = -1;        // argmin g
        int jMax = -1;        // argmax_{α>0} g
        double alphaG = 0.0;  // αᵀg
        double alphaB = 0.0;  // αᵀb
        int support = 0;      // #{α > 0}
        double objective = 0.0;
        double fwGap = 0.0;
        double kktViolation = 0.0;
        double hAlphaMax = 0.0;  // max |(Hα)ᵢ| = max |gᵢ + bᵢ|, the scale of g's rounding
    };
    struct PairStep {
        bool moved = false;           // α changed
        bool supportChanged = false;  // a variable entered or left the support
    };

    // Cholesky factor L Lᵀ = M + εI of the reduced Hessian of the face F ∪ {reference} used
    // by activeSetPolish(); rows/columns are appended and removed in O(n²). Kept between
    // polishes and solves, so that a warm start only updates it.
    struct FaceFactor {
        Eigen::MatrixXd L;  // capacity × capacity, the leading n × n lower triangle is used
        int n = 0;
        std::vector<int> free;  // F, in factor order
        int reference = -1;     // r
        double eps = 0.0;       // the ε of the factored matrix
        bool valid = false;

        bool factor(const Eigen::MatrixXd& K);  // false if K is not numerically PD
        // Appends the column (k, kappa) of K; false (factor unchanged) if the new squared
        // pivot is below minPivot.
        bool append(const Eigen::VectorXd& k, double kappa, double minPivot);
        void remove(int p);
        Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;
    };

    // activeSetPolish's working set, face factor and steps (simplex_qp.cpp).
    class ActiveSet;

    void reserve(int capacity);
    void refreshGradient();  // g = Hα − b from scratch, O(t·#support)
    Measure measure() const;
    PairStep pairStep(const Measure& m);
    bool activeSetPolish(int& iterations, int maxIterations, double kappa);

    SimplexQpOptions options_;
    // H with spare capacity (grown by doubling), its diagonal, b, α and the gradient cache.
    Eigen::MatrixXd H_;     // capacity × capacity, only the leading t×t block is used
    Eigen::VectorXd diag_;  // Hᵢᵢ, capacity entries, the first t used
    Eigen::VectorXd b_;
    Eigen::VectorXd alpha_;
    Eigen::VectorXd grad_;  // H α − b for the current α
    int t_ = 0;
    FaceFactor face_;
};

// One-shot convenience: solves the QP given H (t×t) and b from the warm start `alpha`
// (replaced by the solution; if its length is not t, starts from the best vertex).
SimplexQpResult solveSimplexQp(const Eigen::MatrixXd& H, const Eigen::VectorXd& b,
                               Eigen::VectorXd& alpha, const SimplexQpOptions& options = {});

}  // namespace cplab
