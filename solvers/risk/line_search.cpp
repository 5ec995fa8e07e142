#include "risk/line_search.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "data/text_io.h"
#include "risk/loss_functions.h"

namespace cplab {

namespace {

// Relative accuracy of the logistic root (on the bracket and on the Newton step).
constexpr double kLogisticTolerance = 1e-13;
constexpr int kLogisticMaxIterations = 300;

bool isBinary(LossKind kind) {
    return kind == LossKind::Hinge || kind == LossKind::Logistic || kind == LossKind::SquaredHinge;
}

std::string shape(const Eigen::MatrixXd& M) {
    return std::to_string(M.rows()) + " x " + std::to_string(M.cols());
}

// `labelsChecked`: the labels come from a Risk, which validated them once (the per-example
// scan is skipped on this hot path of OCAS).
void checkInputs(const char* where, LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                 const LineRegulariser& line, const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                 bool labelsChecked = false) {
    const auto fail = [where](const std::string& what) {
        throw std::invalid_argument(std::string(where) + ": " + what);
    };
    const auto nonNegative = [&](const char* name, double value) {
        if (!(value >= 0.0) || !std::isfinite(value)) {
            fail(std::string("LineRegulariser::") + name + " = " + formatNumber(value) +
                 ": must be >= 0 and finite");
        }
    };
    nonNegative("lambda", line.lambda);
    nonNegative("ww", line.ww);
    nonNegative("dd", line.dd);
    if (!std::isfinite(line.wd))
        fail("LineRegulariser::wd = " + formatNumber(line.wd) + ": must be finite");
    if (!(epsilon >= 0.0) || !std::isfinite(epsilon))
        fail("epsilon = " + formatNumber(epsilon) + ": must be >= 0 and finite");
    const Eigen::Index m = labels.size();
    if (m == 0) fail("no examples");
    if (S.rows() != m) fail("S is " + shape(S) + " for " + std::to_string(m) + " labels");
    if (D.rows() != S.rows() || D.cols() != S.cols())
        fail("D is " + shape(D) + ", S is " + shape(S));
    if (loss == LossKind::Multiclass) {
        if (S.cols() < 2) fail("the multi-class loss needs K >= 2 score columns, S is " + shape(S));
    } else if (S.cols() != 1) {
        fail(std::string("the ") + toString(loss) + " loss needs 1 score column, S is " + shape(S));
    }
    if (!S.allFinite()) fail("S has a non-finite entry");
    if (!D.allFinite()) fail("D has a non-finite entry");
    for (Eigen::Index i = 0; i < m && !labelsChecked; ++i) {
        const double y = labels[i];
        const bool ok = isBinary(loss) ? (y == 1.0 || y == -1.0)
                        : loss == LossKind::Multiclass
                            ? (y >= 0.0 && y < static_cast<double>(S.cols()) && y == std::floor(y))
                            : std::isfinite(y);
        if (!ok) {
            fail(std::string("the ") + toString(loss) + " loss cannot take label " +
                 formatNumber(y) + " of example " + std::to_string(i) +
                 (isBinary(loss) ? " (needs -1/+1)"
                  : loss == LossKind::Multiclass
                      ? " (needs a class index 0.." + std::to_string(S.cols() - 1) + ")"
                      : ""));
        }
    }
}

void checkOptions(const LineSearchOptions& options) {
    if (!(options.maxStep > 0.0)) {
        throw std::invalid_argument(
            "LineSearchOptions::maxStep = " + formatNumber(options.maxStep) + ": must be > 0");
    }
    if (options.breakpointSample < 0) {
        throw std::invalid_argument("LineSearchOptions::breakpointSample = " +
                                    std::to_string(options.breakpointSample) + ": must be >= 0");
    }
}

// f(k) = λ/2 (ww + 2k·wd + k²·dd) + (1/m) Σᵢ ℓ(sᵢ + k dᵢ, yᵢ).
double objective(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                 const LineRegulariser& line, const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                 double k, std::vector<double>& row) {
    const Eigen::Index m = labels.size();
    const int K = static_cast<int>(S.cols());
    double sum = 0.0;
    if (loss == LossKind::Multiclass) {
        row.resize(static_cast<std::size_t>(K));
        for (Eigen::Index i = 0; i < m; ++i) {
            for (int j = 0; j < K; ++j)
                row[static_cast<std::size_t>(j)] = S(i, j) + k * D(i, j);
            sum += detail::multiclassLoss(row.data(), 1, static_cast<int>(labels[i]), K, nullptr);
        }
    } else {
        for (Eigen::Index i = 0; i < m; ++i)
            sum += detail::scalarLoss(loss, S(i, 0) + k * D(i, 0), labels[i], epsilon, nullptr);
    }
    const double reg = 0.5 * line.lambda * (line.ww + k * (2.0 * line.wd + k * line.dd));
    return reg + sum / static_cast<double>(m);
}

// --- piecewise losses: f'(k⁺) = A(k)·k + B(k) with A, B changing at breakpoints -------------

struct Breakpoint {
    double k;
    double dA;
    double dB;
};

struct Piecewise {
    double A = 0.0;  // f'(k⁺) = A·k + B on (0, first breakpoint)
    double B = 0.0;
    std::vector<Breakpoint> points;  // k ∈ (0, ∞), unordered

    void add(double k, double dA, double dB) {
        if (!(k > 0.0)) {  // at 0 (rounding): already part of the right derivative at 0
            A += dA;
            B += dB;
        } else if (k < INFINITY) {
            points.push_back({k, dA, dB});
        }
        // k = ∞ (a slope below the smallest double): never reached.
    }
};

// Terms max(0, c + k·e), c = 1 − y s, e = −y d (hinge), or their squares (squared hinge).
void collectHinge(bool squared, const Eigen::VectorXd& labels, const Eigen::MatrixXd& S,
                  const Eigen::MatrixXd& D, Piecewise& p) {
    const Eigen::Index m = labels.size();
    const double inv = 1.0 / static_cast<double>(m);
    p.points.reserve(static_cast<std::size_t>(m));
    for (Eigen::Index i = 0; i < m; ++i) {
        const double y = labels[i];
        const double c = 1.0 - y * S(i, 0);
        const double e = -y * D(i, 0);
        const bool active = c > 0.0 || (c == 0.0 && e > 0.0);  // on just right of k = 0
        const bool crosses = (c > 0.0 && e < 0.0) || (c < 0.0 && e > 0.0);
        if (!squared) {
            if (active) p.B += e * inv;
            if (crosses) p.add(-c / e, 0.0, std::abs(e) * inv);
        } else {
            // d/dk (c + k e)² / m = (2e²/m)·k + 2ec/m while on.
            const double a = 2.0 * e * e * inv;
            const double b = 2.0 * e * c * inv;
            if (active) {
                p.A += a;
                p.B += b;
            }
            if (crosses) {
                const double sign = e > 0.0 ? 1.0 : -1.0;  // switches on (e > 0) or off
                p.add(-c / e, sign * a, sign * b);
            }
        }
    }
}

// Terms max(0, |r + k·d| − ε), r = s − y: slopes −|d|, 0, +|d| across two breakpoints.
void collectEpsilonInsensitive(double epsilon, const Eigen::VectorXd& labels,
                               const Eigen::MatrixXd& S, const Eigen::MatrixXd& D, Piecewise& p) {
    const Eigen::Index m = labels.size();
    const double inv = 1.0 / static_cast<double>(m);
    p.points.reserve(2 * static_cast<std::size_t>(m));
    for (Eigen::Index i = 0; i < m; ++i) {
        double r = S(i, 0) - labels[i];
        double d = D(i, 0);
        if (d == 0.0) continue;
        if (d < 0.0) {  // the loss is even in r: mirror so that r grows with k
            r = -r;
            d = -d;
        }
        const double jump = d * inv;
        if (r >= epsilon) {
            p.B += jump;
        } else if (r < -epsilon) {
            p.B -= jump;
            p.add((-epsilon - r) / d, 0.0, jump);
            p.add((epsilon - r) / d, 0.0, jump);
        } else {
            p.add((epsilon - r) / d, 0.0, jump);
        }
    }
}

// Multi-class: example i's loss along the line is max_j α_j + k β_j with
// α_j = [j ≠ y] + s_j − s_y, β_j = d_j − d_y. Walk its upper envelope from k = 0: start on the
// highest line (the steepest among ties), then repeatedly move to the steeper line that
// crosses first (the steepest among simultaneous crossings); each move is a breakpoint where
// the slope rises by β_next − β_cur. At most K − 1 moves.
void collectMulticlass(const Eigen::VectorXd& labels, const Eigen::MatrixXd& S,
                       const Eigen::MatrixXd& D, Piecewise& p) {
    const Eigen::Index m = labels.size();
    const int K = static_cast<int>(S.cols());
    const double inv = 1.0 / static_cast<double>(m);
    std::vector<double> alpha(static_cast<std::size_t>(K)), beta(static_cast<std::size_t>(K));
    p.points.reserve(static_cast<std::size_t>(m));
    for (Eigen::Index i = 0; i < m; ++i) {
        const int y = static_cast<int>(labels[i]);
        int cur = 0;
        for (int j = 0; j < K; ++j) {
            const auto u = static_cast<std::size_t>(j);
            alpha[u] = (j != y ? 1.0 : 0.0) + S(i, j) - S(i, y);
            beta[u] = D(i, j) - D(i, y);
            const auto c = static_cast<std::size_t>(cur);
            if (alpha[u] > alpha[c] || (alpha[u] == alpha[c] && beta[u] > beta[c])) cur = j;
        }
        p.B += beta[static_cast<std::size_t>(cur)] * inv;
        double at = 0.0;
        for (;;) {
            const auto c = static_cast<std::size_t>(cur);
            int next = -1;
            double when = INFINITY;
            for (int j = 0; j < K; ++j) {
                const auto u = static_cast<std::size_t>(j);
                if (!(beta[u] > beta[c])) continue;
                const double t = std::max(at, (alpha[c] - alpha[u]) / (beta[u] - beta[c]));
                if (t < when ||
                    (t == when && next >= 0 && beta[u] > beta[static_cast<std::size_t>(next)])) {
                    when = t;
                    next = j;
                }
            }
            if (next < 0 || !(when < INFINITY)) break;
            p.add(when, 0.0, (beta[static_cast<std::size_t>(next)] - beta[c]) * inv);
            cur = next;
            at = when;
        }
    }
}

// Smallest k ≥ 0 with f'(k⁺) ≥ 0, where f'(k⁺) = (a + A(k))·k + b + B(k) by selection (see the
// header). Reorders p.points.
double solvePiecewise(Piecewise& p, double a, double b, double maxStep, LineSearchResult& result) {
    double A = a + p.A;
    double B = b + p.B;
    if (B >= 0.0) return 0.0;  // f'(0⁺) ≥ 0
    double lo = 0.0;
    double hi = INFINITY;
    auto first = p.points.begin();
    auto last = p.points.end();
    const auto byK = [](const Breakpoint& u, const Breakpoint& v) { return u.k < v.k; };
    while (first != last) {
        ++result.iterations;
        const auto mid = first + (last - first) / 2;
        std::nth_element(first, mid, last, byK);
        const double kp = mid->k;
        // [first, mid) ≤ kp ≤ (mid, last): gather every breakpoint equal to kp next to mid.
        const auto upper =
            std::partition(mid + 1, last, [kp](const Breakpoint& u) { return u.k <= kp; });
        double sumA = 0.0;
        double sumB = 0.0;
        for (auto it = first; it != upper; ++it) {
            sumA += it->dA;
            sumB += it->dB;
        }
        if ((A + sumA) * kp + (B + sumB) >= 0.0) {  // f'(kp⁺) ≥ 0: k* ≤ kp
            hi = kp;
            last = std::partition(first, mid, [kp](const Breakpoint& u) { return u.k < kp; });
        } else {  // k* > kp: the breakpoints up to kp are passed
            A += sumA;
            B += sumB;
            lo = kp;
            first = upper;
        }
    }
    // No breakpoint in (lo, hi); f'(k) = A·k + B there, f'(lo⁺) < 0 ≤ f'(hi⁺).
    double k = hi;
    if (A > 0.0) k = std::min(hi, std::max(lo, -B / A));
    if (!(k <= maxStep)) {
        k = maxStep;
        result.capped = true;
    }
    return k;
}

// --- logistic -----------------------------------------------------------------------------------

// f'(k) and f''(k) of the logistic case.
void logisticDerivatives(const Eigen::VectorXd& labels, const LineRegulariser& line,
                         const Eigen::MatrixXd& S, const Eigen::MatrixXd& D, double k,
                         double& first, double& second) {
    const Eigen::Index m = labels.size();
    double g = 0.0;
    double h = 0.0;
    for (Eigen::Index i = 0; i < m; ++i) {
        const double y = labels[i];
        const double d = D(i, 0);
        if (d == 0.0) continue;
        const double z = y * (S(i, 0) + k * d);
        const double e = std::exp(-std::abs(z));
        const double q = 1.0 / (1.0 + e);
        g -= y * d * (z >= 0.0 ? e * q : q);  // σ(−z)
        h += d * d * e * q * q;               // σ(z)σ(−z)
    }
    first = line.lambda * (line.wd + k * line.dd) + g / static_cast<double>(m);
    second = line.lambda * line.dd + h / static_cast<double>(m);
}

double solveLogistic(const Eigen::VectorXd& labels, const LineRegulariser& line,
                     const Eigen::MatrixXd& S, const Eigen::MatrixXd& D, double maxStep,
                     LineSearchResult& result) {
    double g = 0.0;
    double h = 0.0;
    logisticDerivatives(labels, line, S, D, 0.0, g, h);
    if (g >= 0.0) return 0.0;
    // Newton steps from k = 0, safeguarded by the bracket f'(lo) < 0 ≤ f'(hi): a step outside
    // it bisects; until a point with f' ≥ 0 is known (hi = ∞) a step that does not move right
    // (h = 0) doubles instead, and steps stop at maxStep.
    double lo = 0.0;
    double hi = INFINITY;
    double x = 0.0;
    for (int it = 0; it < kLogisticMaxIterations; ++it) {
        double next = x - g / h;  // h = 0 gives ±∞, caught below
        if (std::abs(next - x) <= kLogisticTolerance * std::max(1.0, std::abs(x))) return next;
        if (hi == INFINITY) {
            if (!(next > lo)) next = std::max(1.0, 2.0 * lo);
            next = std::min(next, maxStep);
        } else if (!(next > lo && next < hi)) {
            next = 0.5 * (lo + hi);
        }
        x = next;
        ++result.iterations;
        logisticDerivatives(labels, line, S, D, x, g, h);
        if (g == 0.0) return x;
        if (g < 0.0) {
            if (x >= maxStep) {
                result.capped = true;
                return maxStep;
            }
            lo = x;
        } else {
            hi = x;
        }
        if (hi < INFINITY && hi - lo <= kLogisticTolerance * std::max(1.0, hi))
            return 0.5 * (lo + hi);
    }
    return x;
}

}  // namespace

namespace {

LineSearchResult search(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                        const LineRegulariser& line, const Eigen::MatrixXd& S,
                        const Eigen::MatrixXd& D, const LineSearchOptions& options,
                        bool labelsChecked) {
    checkOptions(options);
    checkInputs("exactLineSearch", loss, epsilon, labels, line, S, D, labelsChecked);
    LineSearchResult result;
    std::vector<double> row;
    result.valueAtZero = objective(loss, epsilon, labels, line, S, D, 0.0, row);

    const double a = line.lambda * line.dd;  // f'(k) = λ·dd·k + λ·wd + (loss part)
    const double b = line.lambda * line.wd;
    if (loss == LossKind::Logistic) {
        result.k = solveLogistic(labels, line, S, D, options.maxStep, result);
    } else {
        Piecewise p;
        switch (loss) {
            case LossKind::Hinge:
                collectHinge(false, labels, S, D, p);
                break;
            case LossKind::SquaredHinge:
                collectHinge(true, labels, S, D, p);
                break;
            case LossKind::EpsilonInsensitive:
                collectEpsilonInsensitive(epsilon, labels, S, D, p);
                break;
            case LossKind::Multiclass:
                collectMulticlass(labels, S, D, p);
                break;
            case LossKind::Logistic:
                break;
        }
        const std::size_t n = p.points.size();
        result.breakpoints = static_cast<long long>(n);
        const auto sample = std::min(n, static_cast<std::size_t>(options.breakpointSample));
        result.breakpointSample.reserve(sample);
        for (std::size_t j = 0; j < sample; ++j)
            result.breakpointSample.push_back(p.points[j * n / sample].k);
        std::sort(result.breakpointSample.begin(), result.breakpointSample.end());
        result.k = solvePiecewise(p, a, b, options.maxStep, result);
    }
    result.value = result.k == 0.0 ? result.valueAtZero
                                   : objective(loss, epsilon, labels, line, S, D, result.k, row);
    return result;
}

}  // namespace

LineSearchResult exactLineSearch(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                                 const LineRegulariser& line, const Eigen::MatrixXd& S,
                                 const Eigen::MatrixXd& D, const LineSearchOptions& options) {
    return search(loss, epsilon, labels, line, S, D, options, false);
}

LineSearchResult exactLineSearch(const Risk& risk, const LineRegulariser& line,
                                 const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                                 const LineSearchOptions& options) {
    return search(risk.options().loss, risk.options().epsilon, risk.lossLabels(), line, S, D,
                  options, true);
}

Eigen::VectorXd lineObjective(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                              const LineRegulariser& line, const Eigen::MatrixXd& S,
                              const Eigen::MatrixXd& D, const Eigen::VectorXd& ks) {
    checkInputs("lineObjective", loss, epsilon, labels, line, S, D);
    Eigen::VectorXd values(ks.size());
    std::vector<double> row;
    for (Eigen::Index j = 0; j < ks.size(); ++j)
        values[j] = objective(loss, epsilon, labels, line, S, D, ks[j], row);
    return values;
}

Eigen::VectorXd lineObjective(const Risk& risk, const LineRegulariser& line,
                              const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                              const Eigen::VectorXd& ks) {
    return lineObjective(risk.options().loss, risk.options().epsilon, risk.lossLabels(), line, S, D,
                         ks);
}

}  // namespace cplab
