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
    const int t = t_;
    const Eigen::VectorXd savedAlpha = alpha_;
    const Eigen::VectorXd savedGrad = grad_;
    const Measure m0 = measure();

    std::vector<char> inW(static_cast<std::size_t>(t), 0);
    int s0 = 0;
    int largest = -1;
    for (int i = 0; i < t; ++i) {
        if (alpha_(i) > 0.0) {
            inW[static_cast<std::size_t>(i)] = 1;
            ++s0;
            if (largest < 0 || alpha_(i) > alpha_(largest)) largest = i;
        }
    }
    const int maxSteps = 20 + s0 / 4;

    // With H = 0 any ε gives the steepest-descent direction; scaling it by the gradient only
    // keeps the numbers moderate (the ratio test decides the step).
    const double hScale = diag_.head(t).maxCoeff();
    const double gSpread = grad_.maxCoeff() - grad_.minCoeff();
    const double epsWanted = kProxRelative * (hScale > 0.0 ? hScale : std::max(gSpread, 1e-300));

    FaceFactor& face = face_;
    std::vector<int>& F = face.free;  // W∖{r}, in the order of the factor
    int& r = face.reference;
    double& eps = face.eps;
    // M's entry for k, l ∈ W.
    auto reduced = [&](int k, int l) { return H_(k, l) - H_(k, r) - H_(r, l) + H_(r, r); };
    // Factorises M + εI for W = {i : inW[i]} from scratch, with r the largest α.
    auto refactor = [&]() {
        r = -1;
        F.clear();
        for (int i = 0; i < t; ++i) {
            if (!inW[static_cast<std::size_t>(i)]) continue;
            F.push_back(i);
            if (r < 0 || alpha_(i) > alpha_(r)) r = i;
        }
        F.erase(std::find(F.begin(), F.end(), r));
        eps = epsWanted;
        for (int attempt = 0; attempt < 4; ++attempt, eps *= 1e3) {
            const int n = static_cast<int>(F.size());
            Eigen::MatrixXd K(n, n);
            for (int l = 0; l < n; ++l) {
                for (int k = l; k < n; ++k) {
                    K(k, l) =
                        reduced(F[static_cast<std::size_t>(k)], F[static_cast<std::size_t>(l)]);
                }
            }
            K.diagonal().array() += eps;
            if (face.factor(K)) return face.valid = true;
        }
        return face.valid = false;
    };
    // Appends i to F; refactorises if M + εI would lose positive definiteness.
    auto enterFace = [&](int i) {
        const int n = static_cast<int>(F.size());
        Eigen::VectorXd k(n);
        for (int l = 0; l < n; ++l)
            k(l) = reduced(F[static_cast<std::size_t>(l)], i);
        if (face.append(k, reduced(i, i) + eps, 0.5 * eps)) {
            F.push_back(i);
            return true;
        }
        return refactor();
    };

    // Reuse the factor of the last polish if its reference is still in W and its ε still
    // fits H's scale, updating it to W; otherwise (or if W changed too much) start afresh.
    bool ok = face.valid && r >= 0 && r < t && inW[static_cast<std::size_t>(r)] &&
              eps >= 0.1 * epsWanted && eps <= 1e6 * epsWanted;
    if (ok) {
        std::vector<char> inFace(static_cast<std::size_t>(t), 0);
        inFace[static_cast<std::size_t>(r)] = 1;
        int changes = 0;
        for (int k = static_cast<int>(F.size()) - 1; k >= 0; --k) {
            const int i = F[static_cast<std::size_t>(k)];
            if (i < t && inW[static_cast<std::size_t>(i)]) {
                inFace[static_cast<std::size_t>(i)] = 1;
            } else {
                ++changes;
            }
        }
        for (int i = 0; i < t; ++i) {
            if (inW[static_cast<std::size_t>(i)] && !inFace[static_cast<std::size_t>(i)]) {
                ++changes;
            }
        }
        ok = changes <= 8 + s0 / 8;  // beyond that, one factorisation is cheaper
        for (int k = static_cast<int>(F.size()) - 1; ok && k >= 0; --k) {
            const int i = F[static_cast<std::size_t>(k)];
            if (i < t && inW[static_cast<std::size_t>(i)]) continue;
            face.remove(k);
            F.erase(F.begin() + k);
        }
        for (int i = 0; ok && i < t; ++i) {
            if (inW[static_cast<std::size_t>(i)] && !inFace[static_cast<std::size_t>(i)]) {
                ok = enterFace(i);
                if (!ok || static_cast<int>(F.size()) + 1 == s0) break;  // refactor covered W
            }
        }
    }
    if (!ok) ok = refactor();

    Eigen::VectorXd Hd(t);
    int refinements = 0;
    int justAdded = -1;
    for (int steps = 0; ok && steps < maxSteps && iterations < maxIterations; ++steps) {
        const int n = static_cast<int>(F.size());
        const double gr = grad_(r);
        Eigen::VectorXd rg(n);  // reduced gradient g_F − g_r
        double mu = alpha_(r) * gr, gMinW = gr, spread = 0.0;
        for (int k = 0; k < n; ++k) {
            const int i = F[static_cast<std::size_t>(k)];
            rg(k) = grad_(i) - gr;
            mu += alpha_(i) * grad_(i);
            gMinW = std::min(gMinW, grad_(i));
        }
        if (n > 0) spread = rg.maxCoeff() - std::min(0.0, rg.minCoeff());
        const bool stationary = n == 0 || spread <= 0.5 * kappa;

        if (stationary || refinements >= 4) {
            // Enter the most violating outside variable, if any.
            int entering = -1;
            double gEnter = std::min(mu, gMinW) - 0.5 * kappa;
            for (int i = 0; i < t; ++i) {
                if (!inW[static_cast<std::size_t>(i)] && grad_(i) < gEnter) {
                    gEnter = grad_(i);
                    entering = i;
                }
            }
            if (entering < 0) break;
            inW[static_cast<std::size_t>(entering)] = 1;
            ok = enterFace(entering);
            justAdded = entering;
            refinements = 0;
            continue;
        }

        const Eigen::VectorXd y = face.solve(-rg);
        Hd = -y.sum() * H_.col(r).head(t);
        double slope = 0.0;
        for (int k = 0; k < n; ++k) {
            if (y(k) != 0.0) Hd += y(k) * H_.col(F[static_cast<std::size_t>(k)]).head(t);
            slope += y(k) * rg(k);
        }
        double curvature = -y.sum() * Hd(r);
        for (int k = 0; k < n; ++k)
            curvature += y(k) * Hd(F[static_cast<std::size_t>(k)]);
        if (!(slope < 0.0)) break;  // no descent left at this precision

        // Ratio test (largest τ with α_W + τd ≥ 0; index n stands for r) and line search.
        double tauMax = kInf;
        int block = -1;
        for (int k = 0; k <= n; ++k) {
            const double dk = k < n ? y(k) : -y.sum();
            if (dk < 0.0) {
                const double ratio = alpha_(k < n ? F[static_cast<std::size_t>(k)] : r) / -dk;
                if (ratio < tauMax) {
                    tauMax = ratio;
                    block = k;
                }
            }
        }
        const double tauOpt = curvature > 0.0 ? -slope / curvature : kInf;
        const bool blocked = block >= 0 && tauMax <= tauOpt;
        const double tau = blocked ? tauMax : tauOpt;
        if (!std::isfinite(tau)) break;  // flat and unblocked: impossible for Σd = 0, d ≠ 0
        const int blockIndex = !blocked ? -1 : block < n ? F[static_cast<std::size_t>(block)] : r;
        if (blocked && tau == 0.0 && blockIndex == justAdded) {
            break;  // the entering variable would leave at once: no progress on this face
        }
        justAdded = -1;
        for (int k = 0; k <= n; ++k) {
            const int i = k < n ? F[static_cast<std::size_t>(k)] : r;
            const double dk = k < n ? y(k) : -y.sum();
            alpha_(i) = i == blockIndex ? 0.0 : std::max(0.0, alpha_(i) + tau * dk);
        }
        grad_ += tau * Hd;
        ++iterations;

        if (!blocked) {
            ++refinements;
            continue;
        }
        refinements = 0;
        for (int k = n - 1; k >= 0; --k) {
            const int i = F[static_cast<std::size_t>(k)];
            if (alpha_(i) > 0.0) continue;
            F.erase(F.begin() + k);
            inW[static_cast<std::size_t>(i)] = 0;
            face.remove(k);
        }
        if (!(alpha_(r) > 0.0)) {
            // The reference left: the basis of the face changes, refactorise.
            inW[static_cast<std::size_t>(r)] = 0;
            if (F.empty()) {  // impossible while Σα = 1; keep the factor honest anyway
                face.valid = false;
                break;
            }
            ok = refactor();
        }
    }

    // Keep the result if q decreased beyond its rounding noise, or if q is unchanged within
    // that noise (near the optimum q's differences are noise) and the certificate improved.
    const Measure m1 = measure();
    const double noise = 64.0 * kEps * (std::abs(m0.alphaG) + std::abs(m0.alphaB)) + 1e-300;
    const bool better = m1.objective < m0.objective - noise ||
                        (m1.objective <= m0.objective + noise && m1.fwGap < m0.fwGap);
    if (!ok || !better) {
        alpha_ = savedAlpha;
        grad_ = savedGrad;
        return false;
    }
    return true;
}

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
    // Iterations without a decrease of q beyond its rounding noise after which the solve is
    // declared stalled (q no longer measures progress; prevents spinning on noise).
    const int patience = 2 * t_ + 50;
    // Work per solve: max_iterations, and at most 1000 steps per variable (plus 10,000). A
    // well-posed QP needs a small multiple of t; one whose H spans 60 orders of magnitude (a
    // feature of 10³⁰ among values of 1) crept on by rounding-level decreases for the whole
    // 10⁶, 0.6 s per cutting-plane iteration with 4 planes.
    const int maxIterations =
        static_cast<int>(std::min<long long>(options_.max_iterations, 1000LL * t_ + 10000));

    SimplexQpResult result;
    int iterations = 0;
    int lastSupportChange = 0;
    int smoSincePolish = 0;
    int polishGap = std::max(20, static_cast<int>((alpha_.array() > 0.0).count()));
    int cleanupStart = -1;
    double bestObjective = kInf;
    int lastImprovement = 0;
    bool gradientFresh = false;
    bool stalled = false;
    Measure m;
    for (;;) {
        m = measure();
        const double kappa = gapTolerance(m);
        const bool gapMet = m.fwGap <= kappa;
        // Converged on fwGap; keep going while some α_j > 0 still violates KKT by more than
        // κ (a tiny α_j with a large g_j hardly shows in fwGap), for a bounded extra effort.
        bool done = gapMet && m.kktViolation <= kappa;
        if (gapMet && !done) {
            if (cleanupStart < 0) cleanupStart = iterations;
            done = iterations - cleanupStart > patience;
        }
        const double noise = 64.0 * kEps * (std::abs(m.alphaG) + std::abs(m.alphaB));
        if (m.objective < bestObjective - noise) {
            bestObjective = m.objective;
            lastImprovement = iterations;
        } else if (iterations - lastImprovement > patience) {
            stalled = true;
        }
        done = done || stalled || iterations >= maxIterations;
        if (done) {
            // Confirm on a freshly computed gradient: the cached one accumulates rounding.
            if (!gradientFresh) {
                refreshGradient();
                gradientFresh = true;
                if (!stalled && iterations < maxIterations) continue;
                m = measure();
            }
            break;
        }
        gradientFresh = false;

        // Polish once SMO's support has settled (no change for a while), or, while it keeps
        // changing, after a number of SMO steps that doubles with every polish so that the
        // O(s³) factorisations stay a bounded share of the work.
        const int stable = iterations - lastSupportChange;
        const bool polishDue =
            m.support > 1 && smoSincePolish >= 3 &&
            (stable >= std::max(3, m.support / 4) || smoSincePolish >= polishGap);
        if (polishDue) {
            smoSincePolish = 0;
            polishGap = std::min(2 * polishGap, 1 << 24);
            if (activeSetPolish(iterations, maxIterations, kappa)) {
                lastSupportChange = iterations;
                continue;
            }
        }
        const PairStep step = pairStep(m);
        if (step.moved) {
            ++iterations;
            ++smoSincePolish;
            if (step.supportChanged) lastSupportChange = iterations;
            continue;
        }
        // No pair can move any more; a final active-set attempt, then give up.
        stalled = !activeSetPolish(iterations, maxIterations, kappa);
    }

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
