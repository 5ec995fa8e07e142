// SPDX-License-Identifier: GPL-3.0-or-later
#include "simplex_qp.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cplab {

namespace {

using Index = Eigen::Index;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Relative size of the proximal term ε·I added to H_WW in the active-set step. Large enough
// to make the rounded H_WW + εI numerically positive definite (rounding in a PSD matrix of
// order s ≤ a few thousand is ~ s·eps·max Hᵢᵢ), small enough that one step contracts every
// direction with curvature ≥ 1e-6·max Hᵢᵢ by a factor ≤ 1e-6.
constexpr double kProxRelative = 1e-12;

// Best exact step of the pair update α_i += δ, α_j −= δ, 0 ≤ δ ≤ cap = α_j, for
// q(δ) = q − δ·d + ½·a·δ² with d = g_j − g_i > 0 and curvature a = H_ii + H_jj − 2H_ij ≥ 0.
// Returns the decrease of q and sets delta. Zero (or rounding-negative) curvature means q
// decreases linearly: all the mass moves.
double pairGain(double d, double a, double cap, double& delta) {
    a = std::max(a, 0.0);
    if (a * cap > d) {
        delta = d / a;
        return 0.5 * d * delta;
    }
    delta = cap;
    return cap * (d - 0.5 * a * cap);
}

}  // namespace

bool SimplexQp::FaceFactor::factor(const Eigen::MatrixXd& K) {
    const Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt(K);
    if (llt.info() != Eigen::Success) return false;
    n = static_cast<int>(K.rows());
    if (L.rows() < n) L.resize(n + 16, n + 16);
    L.topLeftCorner(n, n) = llt.matrixL();
    return true;
}

bool SimplexQp::FaceFactor::append(const Eigen::VectorXd& k, double kappa, double minPivot) {
    const Eigen::VectorXd l = L.topLeftCorner(n, n).triangularView<Eigen::Lower>().solve(k);
    const double pivot = kappa - l.squaredNorm();
    if (!(pivot >= minPivot)) return false;
    if (L.rows() <= n) {
        Eigen::MatrixXd grown(2 * n + 16, 2 * n + 16);
        grown.topLeftCorner(n, n) = L.topLeftCorner(n, n);
        L.swap(grown);
    }
    L.row(n).head(n) = l.transpose();
    L(n, n) = std::sqrt(pivot);
    ++n;
    return true;
}

void SimplexQp::FaceFactor::remove(int p) {
    // Delete row and column p; the trailing block then absorbs the deleted column x by the
    // rank-one update L₃₃L₃₃ᵀ + xxᵀ (rotation form, stable). Loops run down columns.
    const int m = n - p - 1;
    Eigen::VectorXd x = L.col(p).segment(p + 1, m);
    for (int j = 0; j < p; ++j) {
        for (int i = p + 1; i < n; ++i)
            L(i - 1, j) = L(i, j);
    }
    for (int j = p + 1; j < n; ++j) {
        for (int i = j; i < n; ++i)
            L(i - 1, j - 1) = L(i, j);
    }
    --n;
    for (int k = 0; k < m; ++k) {
        const double lkk = L(p + k, p + k);
        const double r = std::hypot(lkk, x(k));
        const double c = r / lkk, s = x(k) / lkk;
        L(p + k, p + k) = r;
        for (int i = k + 1; i < m; ++i) {
            const double lik = (L(p + i, p + k) + s * x(i)) / c;
            L(p + i, p + k) = lik;
            x(i) = c * x(i) - s * lik;
        }
    }
}

Eigen::VectorXd SimplexQp::FaceFactor::solve(const Eigen::VectorXd& rhs) const {
    const auto Ln = L.topLeftCorner(n, n);
    Eigen::VectorXd x = Ln.triangularView<Eigen::Lower>().solve(rhs);
    Ln.transpose().triangularView<Eigen::Upper>().solveInPlace(x);
    return x;
}

SimplexQp::SimplexQp(SimplexQpOptions options) : options_(options) {
    if (!(options_.tolerance > 0.0)) {
        throw std::invalid_argument("SimplexQpOptions::tolerance = " +
                                    std::to_string(options_.tolerance) + ": must be > 0");
    }
    if (options_.max_iterations <= 0) {
        throw std::invalid_argument("SimplexQpOptions::max_iterations = " +
                                    std::to_string(options_.max_iterations) + ": must be > 0");
    }
}

int SimplexQp::size() const {
    return t_;
}

void SimplexQp::reserve(int capacity) {
    if (capacity <= H_.cols()) return;
    Eigen::MatrixXd grown(capacity, capacity);  // the unused part is never read
    grown.topLeftCorner(t_, t_) = H_.topLeftCorner(t_, t_);
    H_.swap(grown);
    Eigen::VectorXd diag(capacity);
    diag.head(t_) = diag_.head(t_);
    diag_.swap(diag);
}

void SimplexQp::addVariable(const Eigen::Ref<const Eigen::VectorXd>& hColumn, double bValue) {
    const int t = t_;
    if (hColumn.size() != t + 1) {
        throw std::invalid_argument("SimplexQp::addVariable: hColumn has length " +
                                    std::to_string(hColumn.size()) + ", expected " +
                                    std::to_string(t + 1));
    }
    if (!hColumn.allFinite() || !std::isfinite(bValue)) {
        throw std::invalid_argument("SimplexQp::addVariable: non-finite H column or b value");
    }
    if (t + 1 > H_.cols()) reserve(std::max(16, static_cast<int>(H_.cols()) * 3 / 2));

    H_.col(t).head(t + 1) = hColumn;
    H_.row(t).head(t) = hColumn.head(t).transpose();
    diag_(t) = hColumn(t);

    b_.conservativeResize(t + 1);
    alpha_.conservativeResize(t + 1);
    grad_.conservativeResize(t + 1);
    b_(t) = bValue;
    if (t == 0) {
        alpha_(0) = 1.0;
        grad_(0) = hColumn(0) - bValue;
    } else {
        // α_t = 0: the other gradient entries are unchanged.
        alpha_(t) = 0.0;
        grad_(t) = hColumn.head(t).dot(alpha_.head(t)) - bValue;
    }
    t_ = t + 1;
}

void SimplexQp::removeVariables(std::vector<int> indices) {
    std::sort(indices.begin(), indices.end());
    for (std::size_t k = 0; k < indices.size(); ++k) {
        if (indices[k] < 0 || indices[k] >= t_) {
            throw std::invalid_argument("SimplexQp::removeVariables: index " +
                                        std::to_string(indices[k]) + " out of range [0, " +
                                        std::to_string(t_) + ")");
        }
        if (k > 0 && indices[k] == indices[k - 1]) {
            throw std::invalid_argument("SimplexQp::removeVariables: duplicate index " +
                                        std::to_string(indices[k]));
        }
    }
    if (indices.empty()) return;
    face_.valid = false;  // its indices refer to the old numbering

    std::vector<int> kept;
    kept.reserve(static_cast<std::size_t>(t_) - indices.size());
    double removedMass = 0.0;
    for (int i = 0, k = 0; i < t_; ++i) {
        if (k < static_cast<int>(indices.size()) && indices[static_cast<std::size_t>(k)] == i) {
            removedMass += alpha_(i);
            ++k;
        } else {
            kept.push_back(i);
        }
    }
    const int n = static_cast<int>(kept.size());
    // In-place compaction: new position c ≤ old index kept[c], so processing columns (and,
    // within a column, rows) in increasing order never overwrites an entry still to be read.
    for (int c = 0; c < n; ++c) {
        const Index oldCol = kept[static_cast<std::size_t>(c)];
        for (int r = 0; r < n; ++r)
            H_(r, c) = H_(kept[static_cast<std::size_t>(r)], oldCol);
        diag_(c) = diag_(oldCol);
        b_(c) = b_(oldCol);
        alpha_(c) = alpha_(oldCol);
        grad_(c) = grad_(oldCol);
    }
    t_ = n;
    b_.conservativeResize(n);
    alpha_.conservativeResize(n);
    grad_.conservativeResize(n);
    if (n == 0 || removedMass == 0.0) return;  // α and g unchanged on the kept variables

    const double mass = alpha_.sum();
    if (mass > 0.0) {
        alpha_ /= mass;
    } else {
        alpha_.setConstant(1.0 / n);
    }
    refreshGradient();
}

void SimplexQp::setLinearTerm(const Eigen::Ref<const Eigen::VectorXd>& b) {
    if (b.size() != t_) {
        throw std::invalid_argument("SimplexQp::setLinearTerm: b has length " +
                                    std::to_string(b.size()) + ", expected " + std::to_string(t_));
    }
    if (!b.allFinite()) throw std::invalid_argument("SimplexQp::setLinearTerm: non-finite b");
    grad_ += b_ - b;
    b_ = b;
}

void SimplexQp::setAlpha(const Eigen::Ref<const Eigen::VectorXd>& alpha) {
    if (alpha.size() != t_) {
        throw std::invalid_argument("SimplexQp::setAlpha: alpha has length " +
                                    std::to_string(alpha.size()) + ", expected " +
                                    std::to_string(t_));
    }
    Eigen::VectorXd clipped = alpha.cwiseMax(0.0);
    const double mass = clipped.sum();
    if (!(mass > 0.0) || !std::isfinite(mass)) {
        throw std::invalid_argument("SimplexQp::setAlpha: alpha is not a point of the simplex");
    }
    alpha_ = clipped / mass;
    refreshGradient();
}

void SimplexQp::refreshGradient() {
    grad_ = -b_;
    for (int i = 0; i < t_; ++i) {
        if (alpha_(i) > 0.0) grad_ += alpha_(i) * H_.col(i).head(t_);
    }
}

SimplexQp::Measure SimplexQp::measure() const {
    Measure m;
    for (int i = 0; i < t_; ++i) {
        const double gi = grad_(i);
        m.hAlphaMax = std::max(m.hAlphaMax, std::abs(gi + b_(i)));
        if (gi < m.gMin) {
            m.gMin = gi;
            m.iMin = i;
        }
        const double ai = alpha_(i);
        if (ai > 0.0) {
            if (gi > m.gMaxSupport) {
                m.gMaxSupport = gi;
                m.jMax = i;
            }
            m.alphaG += ai * gi;
            m.alphaB += ai * b_(i);
            ++m.support;
        }
    }
    m.objective = 0.5 * (m.alphaG - m.alphaB);  // ½αᵀHα − bᵀα with Hα = g + b
    m.fwGap = std::max(0.0, m.alphaG - m.gMin);
    m.kktViolation = std::max(0.0, m.gMaxSupport - m.gMin);
    return m;
}

SimplexQp::PairStep SimplexQp::pairStep(const Measure& m) {
    // Working-set selection with second-order information (exact gain of the clipped step),
    // anchored at one end of the maximal violating pair so that every step makes the progress
    // that guarantees convergence (Fan, Chen & Lin 2005): (A) j = argmax_{α>0} g fixed, best
    // partner i over all variables; (B) i = argmin g fixed, best partner j over the support.
    const int t = t_;
    int bestI = -1, bestJ = -1;
    double bestGain = 0.0, bestDelta = 0.0;

    {
        const int j = m.jMax;
        const double gj = grad_(j), hjj = diag_(j), cap = alpha_(j);
        const auto colJ = H_.col(j).head(t);
        for (int i = 0; i < t; ++i) {
            const double d = gj - grad_(i);
            if (d <= 0.0) continue;
            double delta = 0.0;
            const double gain = pairGain(d, diag_(i) + hjj - 2.0 * colJ(i), cap, delta);
            if (gain > bestGain) {
                bestGain = gain;
                bestDelta = delta;
                bestI = i;
                bestJ = j;
            }
        }
    }
    {
        const int i = m.iMin;
        const double gi = grad_(i), hii = diag_(i);
        const auto colI = H_.col(i).head(t);
        for (int j = 0; j < t; ++j) {
            const double cap = alpha_(j);
            if (!(cap > 0.0)) continue;
            const double d = grad_(j) - gi;
            if (d <= 0.0) continue;
            double delta = 0.0;
            const double gain = pairGain(d, hii + diag_(j) - 2.0 * colI(j), cap, delta);
            if (gain > bestGain) {
                bestGain = gain;
                bestDelta = delta;
                bestI = i;
                bestJ = j;
            }
        }
    }

    PairStep step;
    if (bestI < 0 || !(bestDelta > 0.0)) return step;
    const double oldI = alpha_(bestI), oldJ = alpha_(bestJ);
    double delta = bestDelta;
    if (delta >= oldJ) {
        delta = oldJ;
        alpha_(bestJ) = 0.0;  // exact zero: the variable leaves the support
        step.supportChanged = true;
    } else {
        alpha_(bestJ) = oldJ - delta;
    }
    alpha_(bestI) = oldI + delta;
    if (oldI == 0.0) step.supportChanged = true;
    if (alpha_(bestI) == oldI && alpha_(bestJ) == oldJ) return step;  // below rounding
    grad_ += delta * (H_.col(bestI).head(t) - H_.col(bestJ).head(t));
    step.moved = true;
    return step;
}

// The working set W of activeSetPolish, the factor of its face and the method's steps (see
// activeSetPolish for the method). The factor lives in qp.face_ between polishes.
class SimplexQp::ActiveSet {
  public:
    explicit ActiveSet(SimplexQp& qp)
        : t_(qp.t_),
          H_(qp.H_),
          alpha_(qp.alpha_),
          grad_(qp.grad_),
          face_(qp.face_),
          F_(qp.face_.free),
          r_(qp.face_.reference),
          eps_(qp.face_.eps),
          inW_(static_cast<std::size_t>(qp.t_), 0),
          Hd_(qp.t_) {
        for (int i = 0; i < t_; ++i) {
            if (alpha_(i) > 0.0) {
                inW_[static_cast<std::size_t>(i)] = 1;
                ++s0_;
            }
        }
        maxSteps_ = 20 + s0_ / 4;
        // With H = 0 any ε gives the steepest-descent direction; scaling it by the gradient
        // only keeps the numbers moderate (the ratio test decides the step).
        const double hScale = qp.diag_.head(t_).maxCoeff();
        const double gSpread = grad_.maxCoeff() - grad_.minCoeff();
        epsWanted_ = kProxRelative * (hScale > 0.0 ? hScale : std::max(gSpread, 1e-300));
    }

    int maxSteps() const { return maxSteps_; }
    bool ok() const { return ok_; }

    // Reuses the factor of the last polish if its reference is still in W and its ε still
    // fits H's scale, updating it to W; otherwise (or if W changed too much) starts afresh.
    void factorFace() { ok_ = reuseFactor() || refactor(); }

    // One step of the method: at a stationary point of W (or after 4 unblocked refinements)
    // the most violating outside variable enters, otherwise a Newton step on the face. False
    // when the polish is over.
    bool step(double kappa, int& iterations) {
        const FaceGradient fg = faceGradient(kappa);
        if (fg.stationary || refinements_ >= 4) return enterMostViolating(fg, kappa);
        return descend(fg.rg, iterations);
    }

  private:
    // The reduced gradient g_F − g_r on the face, μ = αᵀg and min_W g.
    struct FaceGradient {
        Eigen::VectorXd rg;
        double mu = 0.0;
        double gMinW = 0.0;
        bool stationary = false;
    };

    // M's entry for k, l ∈ W.
    double reduced(int k, int l) const { return H_(k, l) - H_(k, r_) - H_(r_, l) + H_(r_, r_); }

    // Factorises M + εI for W = {i : inW[i]} from scratch, with r the largest α.
    bool refactor() {
        r_ = -1;
        F_.clear();
        for (int i = 0; i < t_; ++i) {
            if (!inW_[static_cast<std::size_t>(i)]) continue;
            F_.push_back(i);
            if (r_ < 0 || alpha_(i) > alpha_(r_)) r_ = i;
        }
        F_.erase(std::find(F_.begin(), F_.end(), r_));
        eps_ = epsWanted_;
        for (int attempt = 0; attempt < 4; ++attempt, eps_ *= 1e3) {
            const int n = static_cast<int>(F_.size());
            Eigen::MatrixXd K(n, n);
            for (int l = 0; l < n; ++l) {
                for (int k = l; k < n; ++k) {
                    K(k, l) =
                        reduced(F_[static_cast<std::size_t>(k)], F_[static_cast<std::size_t>(l)]);
                }
            }
            K.diagonal().array() += eps_;
            if (face_.factor(K)) return face_.valid = true;
        }
        return face_.valid = false;
    }

    // Appends i to F; refactorises if M + εI would lose positive definiteness.
    bool enterFace(int i) {
        const int n = static_cast<int>(F_.size());
        Eigen::VectorXd k(n);
        for (int l = 0; l < n; ++l)
            k(l) = reduced(F_[static_cast<std::size_t>(l)], i);
        if (face_.append(k, reduced(i, i) + eps_, 0.5 * eps_)) {
            F_.push_back(i);
            return true;
        }
        return refactor();
    }

    // The last polish's factor updated to W: false when it cannot serve (see factorFace).
    bool reuseFactor() {
        if (!(face_.valid && r_ >= 0 && r_ < t_ && inW_[static_cast<std::size_t>(r_)] &&
              eps_ >= 0.1 * epsWanted_ && eps_ <= 1e6 * epsWanted_)) {
            return false;
        }
        std::vector<char> inFace(static_cast<std::size_t>(t_), 0);
        inFace[static_cast<std::size_t>(r_)] = 1;
        int changes = 0;
        for (int k = static_cast<int>(F_.size()) - 1; k >= 0; --k) {
            const int i = F_[static_cast<std::size_t>(k)];
            if (i < t_ && inW_[static_cast<std::size_t>(i)]) {
                inFace[static_cast<std::size_t>(i)] = 1;
            } else {
                ++changes;
            }
        }
        for (int i = 0; i < t_; ++i) {
            if (inW_[static_cast<std::size_t>(i)] && !inFace[static_cast<std::size_t>(i)]) {
                ++changes;
            }
        }
        if (changes > 8 + s0_ / 8) return false;  // beyond that, one factorisation is cheaper
        for (int k = static_cast<int>(F_.size()) - 1; k >= 0; --k) {
            const int i = F_[static_cast<std::size_t>(k)];
            if (i < t_ && inW_[static_cast<std::size_t>(i)]) continue;
            face_.remove(k);
            F_.erase(F_.begin() + k);
        }
        for (int i = 0; i < t_; ++i) {
            if (inW_[static_cast<std::size_t>(i)] && !inFace[static_cast<std::size_t>(i)]) {
                if (!enterFace(i)) return false;
                if (static_cast<int>(F_.size()) + 1 == s0_) break;  // refactor covered W
            }
        }
        return true;
    }

    FaceGradient faceGradient(double kappa) const {
        const int n = static_cast<int>(F_.size());
        const double gr = grad_(r_);
        FaceGradient fg;
        fg.rg.resize(n);  // reduced gradient g_F − g_r
        fg.mu = alpha_(r_) * gr;
        fg.gMinW = gr;
        double spread = 0.0;
        for (int k = 0; k < n; ++k) {
            const int i = F_[static_cast<std::size_t>(k)];
            fg.rg(k) = grad_(i) - gr;
            fg.mu += alpha_(i) * grad_(i);
            fg.gMinW = std::min(fg.gMinW, grad_(i));
        }
        if (n > 0) spread = fg.rg.maxCoeff() - std::min(0.0, fg.rg.minCoeff());
        fg.stationary = n == 0 || spread <= 0.5 * kappa;
        return fg;
    }

    // Enters the most violating outside variable, if any (false: none, the polish is over).
    bool enterMostViolating(const FaceGradient& fg, double kappa) {
        int entering = -1;
        double gEnter = std::min(fg.mu, fg.gMinW) - 0.5 * kappa;
        for (int i = 0; i < t_; ++i) {
            if (!inW_[static_cast<std::size_t>(i)] && grad_(i) < gEnter) {
                gEnter = grad_(i);
                entering = i;
            }
        }
        if (entering < 0) return false;
        inW_[static_cast<std::size_t>(entering)] = 1;
        ok_ = enterFace(entering);
        justAdded_ = entering;
        refinements_ = 0;
        return true;
    }

    // The Newton step d (d_F = y, d_r = −Σy) on the face, Hd, and the slope gᵀd and
    // curvature dᵀHd along it.
    void direction(const Eigen::VectorXd& y, const Eigen::VectorXd& rg, double& slope,
                   double& curvature) {
        const int n = static_cast<int>(F_.size());
        Hd_ = -y.sum() * H_.col(r_).head(t_);
        slope = 0.0;
        for (int k = 0; k < n; ++k) {
            if (y(k) != 0.0) Hd_ += y(k) * H_.col(F_[static_cast<std::size_t>(k)]).head(t_);
            slope += y(k) * rg(k);
        }
        curvature = -y.sum() * Hd_(r_);
        for (int k = 0; k < n; ++k)
            curvature += y(k) * Hd_(F_[static_cast<std::size_t>(k)]);
    }

    // Ratio test: the largest τ with α_W + τd ≥ 0 and the blocking index k (n stands for r;
    // −1 when nothing blocks).
    double ratioTest(const Eigen::VectorXd& y, int& block) const {
        const int n = static_cast<int>(F_.size());
        double tauMax = kInf;
        block = -1;
        for (int k = 0; k <= n; ++k) {
            const double dk = k < n ? y(k) : -y.sum();
            if (dk < 0.0) {
                const double ratio = alpha_(k < n ? F_[static_cast<std::size_t>(k)] : r_) / -dk;
                if (ratio < tauMax) {
                    tauMax = ratio;
                    block = k;
                }
            }
        }
        return tauMax;
    }

    // A Newton step on the face with the ratio test and an exact line search; false when
    // the polish is over (no descent, or no progress on this face).
    bool descend(const Eigen::VectorXd& rg, int& iterations) {
        const int n = static_cast<int>(F_.size());
        const Eigen::VectorXd y = face_.solve(-rg);
        double slope = 0.0, curvature = 0.0;
        direction(y, rg, slope, curvature);
        if (!(slope < 0.0)) return false;  // no descent left at this precision

        int block = -1;
        const double tauMax = ratioTest(y, block);
        const double tauOpt = curvature > 0.0 ? -slope / curvature : kInf;
        const bool blocked = block >= 0 && tauMax <= tauOpt;
        const double tau = blocked ? tauMax : tauOpt;
        if (!std::isfinite(tau)) return false;  // flat and unblocked: impossible for Σd = 0
        const int blockIndex = !blocked ? -1 : block < n ? F_[static_cast<std::size_t>(block)] : r_;
        if (blocked && tau == 0.0 && blockIndex == justAdded_) {
            return false;  // the entering variable would leave at once: no progress on this face
        }
        justAdded_ = -1;
        for (int k = 0; k <= n; ++k) {
            const int i = k < n ? F_[static_cast<std::size_t>(k)] : r_;
            const double dk = k < n ? y(k) : -y.sum();
            alpha_(i) = i == blockIndex ? 0.0 : std::max(0.0, alpha_(i) + tau * dk);
        }
        grad_ += tau * Hd_;
        ++iterations;

        if (!blocked) {
            ++refinements_;
            return true;
        }
        refinements_ = 0;
        return dropLeavers();
    }

    // After a blocked step: the variables at 0 leave W; false when the polish is over.
    bool dropLeavers() {
        for (int k = static_cast<int>(F_.size()) - 1; k >= 0; --k) {
            const int i = F_[static_cast<std::size_t>(k)];
            if (alpha_(i) > 0.0) continue;
            F_.erase(F_.begin() + k);
            inW_[static_cast<std::size_t>(i)] = 0;
            face_.remove(k);
        }
        if (!(alpha_(r_) > 0.0)) {
            // The reference left: the basis of the face changes, refactorise.
            inW_[static_cast<std::size_t>(r_)] = 0;
            if (F_.empty()) {  // impossible while Σα = 1; keep the factor honest anyway
                face_.valid = false;
                return false;
            }
            ok_ = refactor();
        }
        return true;
    }

    const int t_;
    const Eigen::MatrixXd& H_;
    Eigen::VectorXd& alpha_;
    Eigen::VectorXd& grad_;
    FaceFactor& face_;
    std::vector<int>& F_;  // W∖{r}, in the order of the factor
    int& r_;
    double& eps_;
    std::vector<char> inW_;
    int s0_ = 0;  // |W| at the start
    int maxSteps_ = 0;
    double epsWanted_ = 0.0;
    bool ok_ = false;
    int refinements_ = 0;
    int justAdded_ = -1;
    Eigen::VectorXd Hd_;
};

bool SimplexQp::activeSetPolish(int& iterations, int maxIterations, double kappa) {
    // Primal active-set method started on the current support W, in the null-space form of
    // the face {d : d_i = 0 for i ∉ W, Σ d = 0}: with a reference r ∈ W (the largest α, the
    // least likely to leave) and the free set F = W∖{r}, d_F = y and d_r = −Σ y, where
    //     (M + εI) y = −(g_F − g_r),   M_kl = H_kl − H_kr − H_rl + H_rr   (k, l ∈ F),
    // the regularised Newton step of q on the face. It stays well defined when M is singular
    // (duplicated planes, low-rank H): where the face is flat but q still decreases the step
    // is steep and the ratio test stops it at the boundary (a variable leaves W); where the
    // reduced gradient lies in range(M) it is the least-change Newton step. An exact line
    // search along d makes every step a descent step even when M + εI is too ill-conditioned
    // for an accurate solve. At a stationary point of W the most violating outside variable
    // enters. The Cholesky factor of M + εI is updated, not recomputed, when F changes:
    // O(s²) per change instead of O(s³) (only losing r forces a refactorisation).
    const Eigen::VectorXd savedAlpha = alpha_;
    const Eigen::VectorXd savedGrad = grad_;
    const Measure m0 = measure();

    ActiveSet set(*this);
    set.factorFace();
    for (int steps = 0; set.ok() && steps < set.maxSteps() && iterations < maxIterations; ++steps) {
        if (!set.step(kappa, iterations)) break;
    }

    // Keep the result if q decreased beyond its rounding noise, or if q is unchanged within
    // that noise (near the optimum q's differences are noise) and the certificate improved.
    const Measure m1 = measure();
    const double noise = 64.0 * kEps * (std::abs(m0.alphaG) + std::abs(m0.alphaB)) + 1e-300;
    const bool better = m1.objective < m0.objective - noise ||
                        (m1.objective <= m0.objective + noise && m1.fwGap < m0.fwGap);
    if (!set.ok() || !better) {
        alpha_ = savedAlpha;
        grad_ = savedGrad;
        return false;
    }
    return true;
}

namespace {

// When solve() may end: the gap is met and no α_j > 0 violates KKT by more than κ (a tiny α_j
// with a large g_j hardly shows in fwGap; after the gap is met the cleanup has a bounded
// extra effort), q has not decreased beyond its rounding noise for `patience` iterations
// (stalled), or the iteration budget is spent.
struct SolveEnd {
    int patience = 0;
    int maxIterations = 0;
    int cleanupStart = -1;
    double bestObjective = kInf;
    int lastImprovement = 0;
    bool stalled = false;

    bool reached(double fwGap, double kktViolation, double objective, double noise, double kappa,
                 int iterations) {
        const bool gapMet = fwGap <= kappa;
        bool done = gapMet && kktViolation <= kappa;
        if (gapMet && !done) {
            if (cleanupStart < 0) cleanupStart = iterations;
            done = iterations - cleanupStart > patience;
        }
        if (objective < bestObjective - noise) {
            bestObjective = objective;
            lastImprovement = iterations;
        } else if (iterations - lastImprovement > patience) {
            stalled = true;
        }
        return done || stalled || iterations >= maxIterations;
    }
};

// Polish once SMO's support has settled (no change for a while), or, while it keeps changing,
// after a number of SMO steps that doubles with every polish so that the O(s³)
// factorisations stay a bounded share of the work.
struct PolishSchedule {
    int lastSupportChange = 0;
    int smoSincePolish = 0;
    int polishGap = 20;

    bool due(int iterations, int support) {
        const int stable = iterations - lastSupportChange;
        const bool polishDue = support > 1 && smoSincePolish >= 3 &&
                               (stable >= std::max(3, support / 4) || smoSincePolish >= polishGap);
        if (polishDue) {
            smoSincePolish = 0;
            polishGap = std::min(2 * polishGap, 1 << 24);
        }
        return polishDue;
    }
};

}  // namespace

SimplexQpResult SimplexQp::solve() {
    if (t_ == 0) throw std::invalid_argument("SimplexQp::solve: no variables (size() == 0)");

    // Rounding floor of the gradient: |H_ij| ≤ max Hᵢᵢ for PSD H and Σα = 1, so g is known to
    // about eps·(max Hᵢᵢ + max |bᵢ|); gaps and KKT violations below a multiple of it are noise
    // and are not asked for (this matters only for badly scaled data).
    // The scale is that of the current Hα, not of H's largest entry: at a vertex whose plane
    // is 0 (Hα = 0) g = −b is exact, and a floor from max Hᵢᵢ (10¹⁵ for one feature of 10⁸)
    // would keep α there for good, the model's minimiser at w = 0 and the run without
    // progress.
    const double bMax = b_.head(t_).cwiseAbs().maxCoeff();
    auto gapTolerance = [&](const Measure& measured) {
        const double roundingFloor = 1e3 * kEps * std::max(measured.hAlphaMax, bMax);
        return std::max(options_.tolerance * std::max(1.0, std::abs(measured.objective)),
                        roundingFloor);
    };
    SolveEnd end;
    // Iterations without a decrease of q beyond its rounding noise after which the solve is
    // declared stalled (q no longer measures progress; prevents spinning on noise).
    end.patience = 2 * t_ + 50;
    // Work per solve: max_iterations, and at most 1000 steps per variable (plus 10,000). A
    // well-posed QP needs a small multiple of t; one whose H spans 60 orders of magnitude (a
    // feature of 10³⁰ among values of 1) crept on by rounding-level decreases for the whole
    // 10⁶, 0.6 s per cutting-plane iteration with 4 planes.
    end.maxIterations =
        static_cast<int>(std::min<long long>(options_.max_iterations, 1000LL * t_ + 10000));

    int iterations = 0;
    PolishSchedule polish;
    polish.polishGap = std::max(20, static_cast<int>((alpha_.array() > 0.0).count()));
    bool gradientFresh = false;
    Measure m;
    for (;;) {
        m = measure();
        const double kappa = gapTolerance(m);
        const double noise = 64.0 * kEps * (std::abs(m.alphaG) + std::abs(m.alphaB));
        if (end.reached(m.fwGap, m.kktViolation, m.objective, noise, kappa, iterations)) {
            // Confirm on a freshly computed gradient: the cached one accumulates rounding.
            if (!gradientFresh) {
                refreshGradient();
                gradientFresh = true;
                if (!end.stalled && iterations < end.maxIterations) continue;
                m = measure();
            }
            break;
        }
        gradientFresh = false;

        if (polish.due(iterations, m.support) &&
            activeSetPolish(iterations, end.maxIterations, kappa)) {
            polish.lastSupportChange = iterations;
            continue;
        }
        const PairStep step = pairStep(m);
        if (step.moved) {
            ++iterations;
            ++polish.smoSincePolish;
            if (step.supportChanged) polish.lastSupportChange = iterations;
            continue;
        }
        // No pair can move any more; a final active-set attempt, then give up.
        end.stalled = !activeSetPolish(iterations, end.maxIterations, kappa);
    }

    SimplexQpResult result;
    result.objective = m.objective;
    result.fwGap = m.fwGap;
    result.kktViolation = m.kktViolation;
    result.iterations = iterations;
    result.converged = m.fwGap <= gapTolerance(m);
    return result;
}

const Eigen::VectorXd& SimplexQp::alpha() const {
    return alpha_;
}

double SimplexQp::objective() const {
    return t_ == 0 ? 0.0 : measure().objective;
}

Eigen::MatrixXd SimplexQp::hessian() const {
    return H_.topLeftCorner(t_, t_);
}

const Eigen::VectorXd& SimplexQp::linearTerm() const {
    return b_;
}

SimplexQpResult solveSimplexQp(const Eigen::MatrixXd& H, const Eigen::VectorXd& b,
                               Eigen::VectorXd& alpha, const SimplexQpOptions& options) {
    const Index t = b.size();
    if (H.rows() != t || H.cols() != t) {
        throw std::invalid_argument("solveSimplexQp: H is " + std::to_string(H.rows()) + "×" +
                                    std::to_string(H.cols()) + ", b has length " +
                                    std::to_string(t));
    }
    SimplexQp qp(options);
    for (Index i = 0; i < t; ++i)
        qp.addVariable(H.col(i).head(i + 1), b(i));
    if (alpha.size() == t) {
        qp.setAlpha(alpha);
    } else if (t > 0) {
        // Best vertex: q(e_i) = ½Hᵢᵢ − bᵢ.
        Index best = 0;
        (0.5 * H.diagonal() - b).minCoeff(&best);
        qp.setAlpha(Eigen::VectorXd::Unit(t, best));
    }
    const SimplexQpResult result = qp.solve();
    alpha = qp.alpha();
    return result;
}

}  // namespace cplab
