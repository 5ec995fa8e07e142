// SPDX-License-Identifier: GPL-3.0-or-later
#include "smo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/number_text.h"

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTau = 1e-12;  // LIBSVM's TAU: the curvature used when a pair's is ≤ 0

enum Bound : char { kLower, kUpper, kFree };

}  // namespace

// The state follows LIBSVM's Solver (svm.cpp, 3.24): every per-variable array is indexed by
// position, and positions [0, activeSize) are the active set; `index` maps a position to its
// example. Q rows come from KernelQ in example order and are read through `index`.
struct Smo::Impl {
    KernelQ* q = nullptr;
    SmoOptions options;
    int l = 0;
    std::vector<int> index;  // position → example
    std::vector<double> y;   // ±1
    std::vector<double> alpha;
    std::vector<double> G;     // ∇f = Qα − e on the active set (all when activeSize = l)
    std::vector<double> Gbar;  // C Σ_{αⱼ = C} Q_{·j}
    std::vector<double> QD;    // Q_ii
    std::vector<char> status;
    int activeSize = 0;
    bool unshrink = false;
    bool gbarValid = false;  // Gbar is kept up to date (else ensureGbar computes it)
    int counter = 0;
    long long totalSteps = 0;
    long long generation = 0;  // bumped whenever α or G change

    // What the const accessors report, in example order, computed on demand.
    mutable long long reportedGeneration = -1;
    mutable Eigen::VectorXd alphaOut;
    mutable Eigen::VectorXd gradientOut;
    mutable std::vector<double> fullG;  // by position

    bool isUpper(int p) const { return status[p] == kUpper; }
    bool isLower(int p) const { return status[p] == kLower; }
    bool isFree(int p) const { return status[p] == kFree; }
    void updateStatus(int p) {
        if (alpha[p] >= options.C)
            status[p] = kUpper;
        else if (alpha[p] <= 0)
            status[p] = kLower;
        else
            status[p] = kFree;
    }

    const double* row(int p) { return q->row(index[p]); }

    void swapIndex(int a, int b) {
        std::swap(index[a], index[b]);
        std::swap(y[a], y[b]);
        std::swap(alpha[a], alpha[b]);
        std::swap(G[a], G[b]);
        std::swap(Gbar[a], Gbar[b]);
        std::swap(QD[a], QD[b]);
        std::swap(status[a], status[b]);
    }

    // α (example order) → state in example order with the full gradient, as LIBSVM's
    // Solve() initialises it; the active set is everything again. Qa = Qα when the caller has
    // it (an MKL solver that formed Σ βₖ Kₖ Yα from its plane), else it is computed here.
    // lazyGbar (a refresh after new kernel weights): Gbar waits until a reconstruction first
    // needs it; else it is formed now, as LIBSVM does (a fresh start follows LIBSVM's path).
    void initialise(const Eigen::VectorXd& a, const Eigen::VectorXd* Qa = nullptr,
                    bool lazyGbar = false) {
        index.resize(static_cast<std::size_t>(l));
        for (int p = 0; p < l; ++p)
            index[p] = p;
        const Eigen::VectorXd& labels = q->labels();
        y.assign(labels.data(), labels.data() + l);
        alpha.assign(a.data(), a.data() + l);
        QD.resize(static_cast<std::size_t>(l));
        for (int p = 0; p < l; ++p)
            QD[p] = q->diagonal(p);
        status.resize(static_cast<std::size_t>(l));
        for (int p = 0; p < l; ++p)
            updateStatus(p);
        // G = Qα − e by a product (KernelQ::multiply): a kernel over value classes multiplies
        // without forming rows, and SMO computes (and caches) only the rows its working sets
        // ask for.
        G.resize(static_cast<std::size_t>(l));
        if (Qa) {
            for (int j = 0; j < l; ++j)
                G[j] = (*Qa)[j] - 1.0;
        } else {
            const Eigen::VectorXd product =
                a.isZero(0.0) ? Eigen::VectorXd::Zero(l) : q->multiply(a);
            for (int j = 0; j < l; ++j)
                G[j] = product[j] - 1.0;
        }
        Gbar.resize(static_cast<std::size_t>(l));
        gbarValid = false;
        if (!lazyGbar) ensureGbar();
        activeSize = l;
        unshrink = false;
        counter = std::min(l, 1000) + 1;
        ++generation;
    }

    // Gbar = Q (C·[α = C]) by one product. After a refresh, when first needed: interleaved MKL
    // moves β every m/2 SMO updates, before the first shrinking (every min(m, 1000) updates),
    // and the product over the bounded support vectors was a fifth of each refresh (sonar).
    void ensureGbar() {
        if (gbarValid) return;
        Eigen::VectorXd atBound = Eigen::VectorXd::Zero(l);
        for (int p = 0; p < l; ++p)
            if (isUpper(p)) atBound[index[p]] = options.C;
        const Eigen::VectorXd Qc =
            atBound.isZero(0.0) ? Eigen::VectorXd::Zero(l) : q->multiply(atBound);
        for (int p = 0; p < l; ++p)
            Gbar[p] = Qc[index[p]];
        gbarValid = true;
    }

    // WSS 2 of Fan, Chen & Lin (2005) over the active set; returns true when optimal. On
    // false, *Qi is row i (still valid for the update).
    bool selectWorkingSet(int& outI, int& outJ, const double** Qi) {
        double Gmax = -kInf;
        double Gmax2 = -kInf;
        int GmaxIdx = -1;
        int GminIdx = -1;
        double objDiffMin = kInf;
        for (int t = 0; t < activeSize; ++t) {
            if (y[t] > 0) {
                if (!isUpper(t) && -G[t] >= Gmax) {
                    Gmax = -G[t];
                    GmaxIdx = t;
                }
            } else {
                if (!isLower(t) && G[t] >= Gmax) {
                    Gmax = G[t];
                    GmaxIdx = t;
                }
            }
        }
        const int i = GmaxIdx;
        const double* rowI = i != -1 ? row(i) : nullptr;
        const int* idx = index.data();
        for (int j = 0; j < activeSize; ++j) {
            if (y[j] > 0) {
                if (!isLower(j)) {
                    const double gradDiff = Gmax + G[j];
                    if (G[j] >= Gmax2) Gmax2 = G[j];
                    if (gradDiff > 0) {
                        const double quad = QD[i] + QD[j] - 2.0 * y[i] * rowI[idx[j]];
                        const double objDiff = -(gradDiff * gradDiff) / (quad > 0 ? quad : kTau);
                        if (objDiff <= objDiffMin) {
                            GminIdx = j;
                            objDiffMin = objDiff;
                        }
                    }
                }
            } else {
                if (!isUpper(j)) {
                    const double gradDiff = Gmax - G[j];
                    if (-G[j] >= Gmax2) Gmax2 = -G[j];
                    if (gradDiff > 0) {
                        const double quad = QD[i] + QD[j] + 2.0 * y[i] * rowI[idx[j]];
                        const double objDiff = -(gradDiff * gradDiff) / (quad > 0 ? quad : kTau);
                        if (objDiff <= objDiffMin) {
                            GminIdx = j;
                            objDiffMin = objDiff;
                        }
                    }
                }
            }
        }
        if (Gmax + Gmax2 < options.tolerance || GminIdx == -1) return true;
        outI = GmaxIdx;
        outJ = GminIdx;
        *Qi = rowI;
        return false;
    }

    bool beShrunk(int p, double Gmax1, double Gmax2) const {
        if (isUpper(p)) return y[p] > 0 ? -G[p] > Gmax1 : -G[p] > Gmax2;
        if (isLower(p)) return y[p] > 0 ? G[p] > Gmax2 : G[p] > Gmax1;
        return false;
    }

    void doShrinking() {
        double Gmax1 = -kInf;  // max { −yᵢ∇ᵢf | i ∈ I_up }
        double Gmax2 = -kInf;  // max { yᵢ∇ᵢf | i ∈ I_low }
        for (int p = 0; p < activeSize; ++p) {
            if (y[p] > 0) {
                if (!isUpper(p)) Gmax1 = std::max(Gmax1, -G[p]);
                if (!isLower(p)) Gmax2 = std::max(Gmax2, G[p]);
            } else {
                if (!isUpper(p)) Gmax2 = std::max(Gmax2, -G[p]);
                if (!isLower(p)) Gmax1 = std::max(Gmax1, G[p]);
            }
        }
        if (!unshrink && Gmax1 + Gmax2 <= options.tolerance * 10) {
            unshrink = true;
            reconstructGradient();
            activeSize = l;
        }
        for (int p = 0; p < activeSize; ++p) {
            if (beShrunk(p, Gmax1, Gmax2)) {
                --activeSize;
                while (activeSize > p) {
                    if (!beShrunk(activeSize, Gmax1, Gmax2)) {
                        swapIndex(p, activeSize);
                        break;
                    }
                    --activeSize;
                }
            }
        }
    }

    // G of the inactive positions from Gbar and the free active variables (LIBSVM's
    // reconstruct_gradient), into g (which holds G of the active positions already).
    void reconstructInto(std::vector<double>& g) {
        if (activeSize == l) return;
        ensureGbar();
        for (int j = activeSize; j < l; ++j)
            g[j] = Gbar[j] - 1.0;
        long long nrFree = 0;
        for (int j = 0; j < activeSize; ++j)
            if (isFree(j)) ++nrFree;
        const int* idx = index.data();
        if (nrFree * l > 2LL * activeSize * (l - activeSize)) {
            for (int i = activeSize; i < l; ++i) {
                const double* Qi = row(i);
                double sum = 0.0;
                for (int j = 0; j < activeSize; ++j)
                    if (isFree(j)) sum += alpha[j] * Qi[idx[j]];
                g[i] += sum;
            }
        } else {
            for (int i = 0; i < activeSize; ++i) {
                if (!isFree(i)) continue;
                const double* Qi = row(i);
                const double ai = alpha[i];
                for (int j = activeSize; j < l; ++j)
                    g[j] += ai * Qi[idx[j]];
            }
        }
    }

    void reconstructGradient() { reconstructInto(G); }

    // The full gradient by position (G itself when nothing is shrunk).
    const std::vector<double>& fullGradient() const {
        if (activeSize == l) return G;
        refreshReport();
        return fullG;
    }

    void refreshReport() const {
        if (reportedGeneration == generation) return;
        if (activeSize < l) {
            auto* self = const_cast<Impl*>(this);  // Q's cache changes, the solver state not
            self->fullG = G;
            self->reconstructInto(self->fullG);
        }
        const std::vector<double>& g = activeSize == l ? G : fullG;
        alphaOut.resize(l);
        gradientOut.resize(l);
        for (int p = 0; p < l; ++p) {
            alphaOut[index[p]] = alpha[p];
            gradientOut[index[p]] = g[p];
        }
        reportedGeneration = generation;
    }

    // LIBSVM's ρ over all variables (b = −ρ).
    double rho() const {
        const std::vector<double>& g = fullGradient();
        int nrFree = 0;
        double ub = kInf;
        double lb = -kInf;
        double sumFree = 0.0;
        for (int p = 0; p < l; ++p) {
            const double yG = y[p] * g[p];
            if (isUpper(p)) {
                if (y[p] < 0)
                    ub = std::min(ub, yG);
                else
                    lb = std::max(lb, yG);
            } else if (isLower(p)) {
                if (y[p] > 0)
                    ub = std::min(ub, yG);
                else
                    lb = std::max(lb, yG);
            } else {
                ++nrFree;
                sumFree += yG;
            }
        }
        return nrFree > 0 ? sumFree / nrFree : (ub + lb) / 2;
    }

    double violation() const {
        const std::vector<double>& g = fullGradient();
        double up = -kInf;
        double low = -kInf;
        for (int p = 0; p < l; ++p) {
            if (y[p] > 0) {
                if (!isUpper(p)) up = std::max(up, -g[p]);
                if (!isLower(p)) low = std::max(low, g[p]);
            } else {
                if (!isUpper(p)) low = std::max(low, -g[p]);
                if (!isLower(p)) up = std::max(up, g[p]);
            }
        }
        const double v = up + low;
        return std::isfinite(v) ? std::max(0.0, v) : 0.0;
    }

    // One pair update on positions i, j with rows Qi, Qj (LIBSVM's main loop body): the
    // two-variable subproblem, then the gradient and, when a bound status changed, Ḡ.
    void update(int i, int j, const double* Qi, const double* Qj) {
        const double C = options.C;
        const double oldI = alpha[i];
        const double oldJ = alpha[j];
        if (y[i] != y[j]) {
            stepOppositeLabels(i, j, Qi[index[j]]);
        } else {
            stepEqualLabels(i, j, Qi[index[j]]);
        }
        updateGradient(Qi, Qj, alpha[i] - oldI, alpha[j] - oldJ);

        const bool ui = isUpper(i);
        const bool uj = isUpper(j);
        updateStatus(i);
        updateStatus(j);
        if (gbarValid) {
            if (ui != isUpper(i)) updateGbar(Qi, ui ? -C : C);
            if (uj != isUpper(j)) updateGbar(Qj, uj ? -C : C);
        }
        ++generation;
    }

    // y_i ≠ y_j: α_i − α_j stays, the step is clipped to the box [0, C]².
    void stepOppositeLabels(int i, int j, double Qij) {
        const double C = options.C;
        double quad = QD[i] + QD[j] + 2 * Qij;
        if (quad <= 0) quad = kTau;
        const double delta = (-G[i] - G[j]) / quad;
        const double diff = alpha[i] - alpha[j];
        alpha[i] += delta;
        alpha[j] += delta;
        if (diff > 0) {
            if (alpha[j] < 0) {
                alpha[j] = 0;
                alpha[i] = diff;
            }
        } else {
            if (alpha[i] < 0) {
                alpha[i] = 0;
                alpha[j] = -diff;
            }
        }
        if (diff > 0) {  // C_i − C_j = 0
            if (alpha[i] > C) {
                alpha[i] = C;
                alpha[j] = C - diff;
            }
        } else {
            if (alpha[j] > C) {
                alpha[j] = C;
                alpha[i] = C + diff;
            }
        }
    }

    // y_i = y_j: α_i + α_j stays, the step is clipped to the box [0, C]².
    void stepEqualLabels(int i, int j, double Qij) {
        const double C = options.C;
        double quad = QD[i] + QD[j] - 2 * Qij;
        if (quad <= 0) quad = kTau;
        const double delta = (G[i] - G[j]) / quad;
        const double sum = alpha[i] + alpha[j];
        alpha[i] -= delta;
        alpha[j] += delta;
        if (sum > C) {
            if (alpha[i] > C) {
                alpha[i] = C;
                alpha[j] = sum - C;
            }
        } else {
            if (alpha[j] < 0) {
                alpha[j] = 0;
                alpha[i] = sum;
            }
        }
        if (sum > C) {
            if (alpha[j] > C) {
                alpha[j] = C;
                alpha[i] = sum - C;
            }
        } else {
            if (alpha[i] < 0) {
                alpha[i] = 0;
                alpha[j] = sum;
            }
        }
    }

    // G += Q_i Δα_i + Q_j Δα_j over the active set.
    void updateGradient(const double* Qi, const double* Qj, double dI, double dJ) {
        const int* idx = index.data();
        double* g = G.data();
        for (int k = 0; k < activeSize; ++k) {
            const int e = idx[k];
            g[k] += Qi[e] * dI + Qj[e] * dJ;
        }
    }

    // Ḡ += c Q_i: a variable reached C (c = C) or left it (c = −C).
    void updateGbar(const double* Qi, double c) {
        const int* idx = index.data();
        for (int k = 0; k < l; ++k)
            Gbar[k] += c * Qi[idx[k]];
    }
};

Smo::Smo(KernelQ& q, SmoOptions options) : impl_(std::make_unique<Impl>()) {
    if (!(options.C > 0) || !std::isfinite(options.C)) {
        throw std::invalid_argument("SmoOptions::C = " + formatReal(options.C) +
                                    ": must be > 0 and finite");
    }
    if (!(options.tolerance > 0)) {
        throw std::invalid_argument("SmoOptions::tolerance = " + formatReal(options.tolerance) +
                                    ": must be > 0");
    }
    const Eigen::VectorXd& y = q.labels();
    bool positive = false;
    bool negative = false;
    for (int i = 0; i < y.size(); ++i) {
        if (y[i] == 1.0)
            positive = true;
        else if (y[i] == -1.0)
            negative = true;
        else {
            throw std::invalid_argument("Smo: labels must be -1/+1 (example " +
                                        std::to_string(i + 1) + " has " + formatReal(y[i]) + ")");
        }
    }
    if (!positive || !negative) {
        throw std::invalid_argument(std::string("Smo: the training set has only one class (") +
                                    (positive ? "+1" : "-1") + "); two are needed");
    }
    Impl& d = *impl_;
    d.q = &q;
    d.options = options;
    d.l = q.size();
    d.initialise(Eigen::VectorXd::Zero(d.l));
}

Smo::~Smo() = default;
Smo::Smo(Smo&&) noexcept = default;
Smo& Smo::operator=(Smo&&) noexcept = default;

void Smo::setAlpha(const Eigen::VectorXd& alpha) {
    Impl& d = *impl_;
    if (alpha.size() != d.l) {
        throw std::invalid_argument("Smo::setAlpha: " + std::to_string(alpha.size()) +
                                    " values for " + std::to_string(d.l) + " examples");
    }
    const Eigen::VectorXd& y = d.q->labels();
    for (int i = 0; i < d.l; ++i) {
        if (!(alpha[i] >= 0.0 && alpha[i] <= d.options.C)) {
            throw std::invalid_argument("Smo::setAlpha: alpha " + std::to_string(i + 1) + " = " +
                                        formatReal(alpha[i]) +
                                        " is outside [0, C = " + formatReal(d.options.C) + "]");
        }
    }
    const double balance = y.dot(alpha);
    if (!(std::abs(balance) <= 1e-9 * d.options.C * d.l)) {
        throw std::invalid_argument("Smo::setAlpha: yᵀα = " + formatReal(balance) +
                                    " is not 0 (infeasible)");
    }
    d.initialise(alpha);
}

void Smo::refreshGradient() {
    Impl& d = *impl_;
    Eigen::VectorXd a(d.l);
    for (int p = 0; p < d.l; ++p)
        a[d.index[p]] = d.alpha[p];
    d.initialise(a, nullptr, /*lazyGbar=*/true);
}

void Smo::refreshGradient(const Eigen::VectorXd& Qalpha) {
    Impl& d = *impl_;
    if (Qalpha.size() != d.l) {
        throw std::invalid_argument("Smo::refreshGradient: " + std::to_string(Qalpha.size()) +
                                    " values of Q alpha for " + std::to_string(d.l) + " examples");
    }
    Eigen::VectorXd a(d.l);
    for (int p = 0; p < d.l; ++p)
        a[d.index[p]] = d.alpha[p];
    d.initialise(a, &Qalpha, /*lazyGbar=*/true);
}

template <class Stop>
SmoProgress Smo::runPolling(long long maxSteps, const Stop& stopNow) {
    Impl& d = *impl_;
    SmoProgress progress;
    const long long limit = maxSteps > 0 ? maxSteps : std::max<long long>(10000000LL, 100LL * d.l);
    while (progress.steps < limit) {
        if (stopNow(progress.steps)) break;
        if (--d.counter == 0) {
            d.counter = std::min(d.l, 1000);
            if (d.options.shrinking) d.doShrinking();
        }
        int i = -1;
        int j = -1;
        const double* Qi = nullptr;
        if (d.selectWorkingSet(i, j, &Qi)) {
            d.reconstructGradient();
            d.activeSize = d.l;
            if (d.selectWorkingSet(i, j, &Qi)) {
                progress.converged = true;
                break;
            }
            d.counter = 1;  // shrink at the next step
        }
        const double* Qj = d.row(j);
        d.update(i, j, Qi, Qj);
        ++progress.steps;
        ++d.totalSteps;
    }
    progress.maxViolation = d.violation();
    if (!progress.converged) progress.converged = progress.maxViolation < d.options.tolerance;
    return progress;
}

SmoProgress Smo::run(long long maxSteps, const CancelToken* cancel) {
    return runPolling(maxSteps, [cancel](long long steps) {
        return cancel && steps % 1000 == 0 && cancel->cancelled();
    });
}

SmoProgress Smo::run(long long maxSteps, const Interrupt& stop) {
    return runPolling(maxSteps,
                      [&stop](long long steps) { return steps % 100 == 0 && stop.requested(); });
}

const Eigen::VectorXd& Smo::alpha() const {
    impl_->refreshReport();
    return impl_->alphaOut;
}

const Eigen::VectorXd& Smo::gradient() const {
    impl_->refreshReport();
    return impl_->gradientOut;
}

double Smo::bias() const {
    return -impl_->rho();
}

Eigen::VectorXd Smo::trainScores() const {
    const Eigen::VectorXd& y = impl_->q->labels();
    return (y.array() * (gradient().array() + 1.0) + bias()).matrix();
}

double Smo::dualObjective() const {
    const Impl& d = *impl_;
    const std::vector<double>& g = d.fullGradient();
    double v = 0.0;
    for (int p = 0; p < d.l; ++p)
        v += d.alpha[p] * (1.0 - g[p]);
    return 0.5 * v;
}

double Smo::primalObjective() const {
    const Impl& d = *impl_;
    const std::vector<double>& g = d.fullGradient();
    const double b = -d.rho();
    double quadratic = 0.0;
    double hinge = 0.0;
    for (int p = 0; p < d.l; ++p) {
        quadratic += d.alpha[p] * (g[p] + 1.0);  // αᵀQα = αᵀ(∇f + e)
        // yᵢ f(xᵢ) = (Qα)ᵢ + yᵢ b = ∇ᵢf + 1 + yᵢ b
        hinge += std::max(0.0, -g[p] - d.y[p] * b);
    }
    return 0.5 * quadratic + d.options.C * hinge;
}

double Smo::maxViolation() const {
    return impl_->violation();
}

long long Smo::totalSteps() const {
    return impl_->totalSteps;
}

int Smo::supportVectors() const {
    const Impl& d = *impl_;
    return static_cast<int>(
        std::count_if(d.alpha.begin(), d.alpha.end(), [](double a) { return a > 0.0; }));
}

int Smo::boundSupportVectors() const {
    const Impl& d = *impl_;
    return static_cast<int>(std::count(d.status.begin(), d.status.end(), kUpper));
}

const SmoOptions& Smo::options() const {
    return impl_->options;
}

void Smo::setTolerance(double tolerance) {
    if (!(tolerance > 0)) {
        throw std::invalid_argument("SmoOptions::tolerance = " + formatReal(tolerance) +
                                    ": must be > 0");
    }
    impl_->options.tolerance = tolerance;
}

}  // namespace cplab
