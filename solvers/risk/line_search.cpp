// SPDX-License-Identifier: GPL-3.0-or-later
#include "risk/line_search.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#include "core/compensated_sum.h"
#include "core/worker_team.h"
#include "data/text_io.h"
#include "risk/loss_functions.h"

namespace cplab {

namespace {

// Relative accuracy of the logistic root (on the bracket and on the Newton step).
constexpr double kLogisticTolerance = 1e-13;
constexpr int kLogisticMaxIterations = 300;
// Candidates each part offers for a parallel selection round's pivot (their median is taken).
constexpr int kPivotSamplesPerPart = 16;

// Breakpoints left when a search over several ranks gathers them all onto every rank (each
// round before costs three small collectives and halves them, so the bytes per search stay
// O(rounds·samples), not O(m)).
constexpr long long kGatherBreakpointsBelow = 4096;

// Where the O(m) passes run: `team` (null: the calling thread) with one part per `grain`
// units of work; with `comm`, on every rank's share of the examples (a Risk's), their sums
// combined over the ranks in rank order and divided by the ranks' total m, `examples`.
struct Parallel {
    WorkerTeam* team = nullptr;
    long long grain = 1;
    Communicator* comm = nullptr;
    double examples = 0.0;  // with comm: m of all ranks

    // m of the sums over `labels` (this rank's share): the ranks' total with comm.
    double examplesOf(const Eigen::VectorXd& labels) const {
        return comm ? examples : static_cast<double>(labels.size());
    }
    // x[0..n) summed over the ranks (unchanged for one process).
    void overRanks(double* x, std::size_t n) const {
        if (comm) comm->sumInRankOrder(x, n);
    }
    void overRanks(CompensatedSum* x, std::size_t n) const {
        if (comm) comm->sumInRankOrder(x, n);
    }
    // fn(t) for t < n, on the team when there is one.
    template <class Fn>
    void each(int n, Fn&& fn) const {
        if (team) {
            team->run(n, fn);
        } else {
            for (int t = 0; t < n; ++t)
                fn(t);
        }
    }

    int parts(long long work) const { return team ? team->partsFor(work, grain) : 1; }

    // fn(t, begin, end) on `parts` contiguous blocks of [0, m). An exception in a part (only
    // std::bad_alloc is possible) is rethrown here, after every part has finished.
    template <class Fn>
    void blocks(Eigen::Index m, int parts, Fn&& fn) const {
        std::vector<std::exception_ptr> failures(static_cast<std::size_t>(parts));
        runBlocks(team, static_cast<int>(m), parts, [&](int t, int begin, int end) {
            try {
                fn(t, begin, end);
            } catch (...) {
                failures[static_cast<std::size_t>(t)] = std::current_exception();
            }
        });
        for (const std::exception_ptr& failure : failures)
            if (failure) std::rethrow_exception(failure);
    }
};

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
                 const Parallel& parallel, bool labelsChecked = false) {
    const auto fail = [where](const std::string& what) {
        throw std::invalid_argument(std::string(where) + ": " + what);
    };
    const auto nonNegative = [&](const char* name, double value) {
        if (!(value >= 0.0) || !std::isfinite(value)) {
            fail(std::string("LineRegulariser::") + name + " = " + formatReal(value) +
                 ": must be >= 0 and finite");
        }
    };
    nonNegative("lambda", line.lambda);
    nonNegative("ww", line.ww);
    nonNegative("dd", line.dd);
    if (!std::isfinite(line.wd))
        fail("LineRegulariser::wd = " + formatReal(line.wd) + ": must be finite");
    if (!(epsilon >= 0.0) || !std::isfinite(epsilon))
        fail("epsilon = " + formatReal(epsilon) + ": must be >= 0 and finite");
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
    const int parts = parallel.parts(2 * m * S.cols());
    std::vector<char> finiteS(static_cast<std::size_t>(parts)), finiteD(finiteS.size());
    parallel.blocks(m, parts, [&](int t, int begin, int end) {
        finiteS[static_cast<std::size_t>(t)] = S.middleRows(begin, end - begin).allFinite();
        finiteD[static_cast<std::size_t>(t)] = D.middleRows(begin, end - begin).allFinite();
    });
    const auto allTrue = [](const std::vector<char>& v) {
        return std::all_of(v.begin(), v.end(), [](char c) { return c != 0; });
    };
    if (!allTrue(finiteS)) fail("S has a non-finite entry");
    if (!allTrue(finiteD)) fail("D has a non-finite entry");
    for (Eigen::Index i = 0; i < m && !labelsChecked; ++i) {
        const double y = labels[i];
        const bool ok = isBinary(loss) ? (y == 1.0 || y == -1.0)
                        : loss == LossKind::Multiclass
                            ? (y >= 0.0 && y < static_cast<double>(S.cols()) && y == std::floor(y))
                            : std::isfinite(y);
        if (!ok) {
            fail(std::string("the ") + toString(loss) + " loss cannot take label " + formatReal(y) +
                 " of example " + std::to_string(i) +
                 (isBinary(loss) ? " (needs -1/+1)"
                  : loss == LossKind::Multiclass
                      ? " (needs a class index 0.." + std::to_string(S.cols() - 1) + ")"
                      : ""));
        }
    }
}

void checkOptions(const LineSearchOptions& options) {
    if (!(options.maxStep > 0.0)) {
        throw std::invalid_argument("LineSearchOptions::maxStep = " + formatReal(options.maxStep) +
                                    ": must be > 0");
    }
    if (options.breakpointSample < 0) {
        throw std::invalid_argument("LineSearchOptions::breakpointSample = " +
                                    std::to_string(options.breakpointSample) + ": must be >= 0");
    }
    if (options.minWorkPerThread < 1) {
        throw std::invalid_argument("LineSearchOptions::minWorkPerThread = " +
                                    std::to_string(options.minWorkPerThread) + ": must be >= 1");
    }
}

// objectives' sums over the examples [begin, end) into sum[0..count); `row` has room for the K
// scores of a multi-class example.
void objectivesBlock(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                     const Eigen::MatrixXd& S, const Eigen::MatrixXd& D, const double* ks,
                     int count, int begin, int end, CompensatedSum* sum, double* row) {
    if (loss == LossKind::Multiclass) {
        const int K = static_cast<int>(S.cols());
        for (int i = begin; i < end; ++i) {
            for (int j = 0; j < count; ++j) {
                for (int c = 0; c < K; ++c)
                    row[c] = S(i, c) + ks[j] * D(i, c);
                sum[j].add(detail::multiclassLoss(row, 1, static_cast<int>(labels[i]), K, nullptr));
            }
        }
        return;
    }
    if (count == 1) {  // the line search's f(k*): a plain loop
        const double k = ks[0];
        const auto add = [&](auto&& ell) {
            for (int i = begin; i < end; ++i)
                sum[0].add(ell(S(i, 0) + k * D(i, 0), labels[i]));
        };
        switch (loss) {
            case LossKind::Hinge:
                add([](double v, double y) { return detail::hingeLoss(v, y, nullptr); });
                break;
            case LossKind::SquaredHinge:
                add([](double v, double y) { return detail::squaredHingeLoss(v, y, nullptr); });
                break;
            case LossKind::EpsilonInsensitive:
                add([epsilon](double v, double y) {
                    return detail::epsilonInsensitiveLoss(v, y, epsilon, nullptr);
                });
                break;
            case LossKind::Logistic:
                add([](double v, double y) { return detail::logisticLoss(v, y, nullptr); });
                break;
            case LossKind::Multiclass:
                break;
        }
        return;
    }
    // Several ks (the slice plot's 81): the piecewise losses as array expressions over the
    // ks, vectorised, with the arithmetic of loss_functions.h, so that 81 values cost about
    // as much as three single ones (plain sums: these are for plots); logistic one value at
    // a time (exp and log1p dominate).
    Eigen::ArrayXd acc = Eigen::ArrayXd::Zero(count);
    const Eigen::Map<const Eigen::ArrayXd> k(ks, count);
    for (int i = begin; i < end; ++i) {
        const double s = S(i, 0);
        const double d = D(i, 0);
        const double y = labels[i];
        switch (loss) {
            case LossKind::Hinge:
                acc += (1.0 - y * (s + k * d)).max(0.0);
                break;
            case LossKind::SquaredHinge:
                acc += (1.0 - y * (s + k * d)).max(0.0).square();
                break;
            case LossKind::EpsilonInsensitive:
                acc += ((s + k * d - y).abs() - epsilon).max(0.0);
                break;
            case LossKind::Logistic:
                for (int j = 0; j < count; ++j)
                    acc[j] += detail::logisticLoss(s + ks[j] * d, y, nullptr);
                break;
            case LossKind::Multiclass:
                break;
        }
    }
    for (int j = 0; j < count; ++j)
        sum[j].add(acc[j]);
}

// f(k) = λ/2 (ww + 2k·wd + k²·dd) + (1/m) Σᵢ ℓ(sᵢ + k dᵢ, yᵢ) at ks[0..count) into values: one
// pass over S and D with the ks in the inner loop (an example's scores are read once, and the
// slice plot's 81 values cost about as much as a few single ones). The sums run in parts added
// in order, each part in example order, so each value is the same whatever `count` is.
void objectives(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                const LineRegulariser& line, const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                const double* ks, int count, const Parallel& parallel, double* values) {
    const Eigen::Index m = labels.size();
    const int K = static_cast<int>(S.cols());
    const int parts = parallel.parts(m * K * count);
    const auto width = static_cast<std::size_t>(count);
    std::vector<CompensatedSum> partial(static_cast<std::size_t>(parts) * width);
    std::vector<double> rows(loss == LossKind::Multiclass ? static_cast<std::size_t>(parts) * K
                                                          : 0);
    parallel.blocks(m, parts, [&](int t, int begin, int end) {
        objectivesBlock(loss, epsilon, labels, S, D, ks, count, begin, end,
                        partial.data() + static_cast<std::size_t>(t) * width,
                        rows.data() + (rows.empty() ? 0 : static_cast<std::size_t>(t) * K));
    });
    std::vector<CompensatedSum> sums(width);
    for (int j = 0; j < count; ++j) {
        for (int t = 0; t < parts; ++t)
            sums[static_cast<std::size_t>(j)].add(
                partial[static_cast<std::size_t>(t) * width + static_cast<std::size_t>(j)]);
    }
    parallel.overRanks(sums.data(), width);
    const double mAll = parallel.examplesOf(labels);
    for (int j = 0; j < count; ++j) {
        const double k = ks[j];
        const double reg = 0.5 * line.lambda * (line.ww + k * (2.0 * line.wd + k * line.dd));
        values[j] = reg + sums[static_cast<std::size_t>(j)].value() / mAll;
    }
}

double objective(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                 const LineRegulariser& line, const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                 double k, const Parallel& parallel) {
    double value = 0.0;
    objectives(loss, epsilon, labels, line, S, D, &k, 1, parallel, &value);
    return value;
}

// --- piecewise losses: f'(k⁺) = A(k)·k + B(k) with A, B changing at breakpoints -------------

struct Breakpoint {
    double k;
    double dA;
    double dB;
};

// Every sum of many terms is a CompensatedSum, rounded only where it is compared or used, so
// that the step is the same however the examples are split among threads and ranks.
struct Piecewise {
    CompensatedSum A;  // f'(k⁺) = A·k + B on (0, first breakpoint)
    CompensatedSum B;
    CompensatedSum lossAtZero;  // Σ ℓ(sᵢ, yᵢ) over the examples collected (f(0) for free)
    std::vector<Breakpoint> points;  // k ∈ (0, ∞), unordered

    void add(double k, double dA, double dB) {
        if (!(k > 0.0)) {  // at 0 (rounding): already part of the right derivative at 0
            A.add(dA);
            B.add(dB);
        } else if (k < INFINITY) {
            points.push_back({k, dA, dB});
        }
        // k = ∞ (a slope below the smallest double): never reached.
    }
};

// Terms max(0, c + k·e), c = 1 − y s, e = −y d (hinge), or their squares (squared hinge).
// Examples [begin, end) into p; inv = 1/m.
void collectHinge(bool squared, const Eigen::VectorXd& labels, const Eigen::MatrixXd& S,
                  const Eigen::MatrixXd& D, int begin, int end, double inv, Piecewise& p) {
    p.points.reserve(static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i) {
        const double y = labels[i];
        const double c = 1.0 - y * S(i, 0);
        const double e = -y * D(i, 0);
        p.lossAtZero.add(squared ? detail::squaredHingeLoss(S(i, 0), y, nullptr)
                                 : detail::hingeLoss(S(i, 0), y, nullptr));
        const bool active = c > 0.0 || (c == 0.0 && e > 0.0);  // on just right of k = 0
        const bool crosses = (c > 0.0 && e < 0.0) || (c < 0.0 && e > 0.0);
        if (!squared) {
            if (active) p.B.add(e * inv);
            if (crosses) p.add(-c / e, 0.0, std::abs(e) * inv);
        } else {
            // d/dk (c + k e)² / m = (2e²/m)·k + 2ec/m while on.
            const double a = 2.0 * e * e * inv;
            const double b = 2.0 * e * c * inv;
            if (active) {
                p.A.add(a);
                p.B.add(b);
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
                               const Eigen::MatrixXd& S, const Eigen::MatrixXd& D, int begin,
                               int end, double inv, Piecewise& p) {
    p.points.reserve(2 * static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i) {
        p.lossAtZero.add(detail::epsilonInsensitiveLoss(S(i, 0), labels[i], epsilon, nullptr));
        double r = S(i, 0) - labels[i];
        double d = D(i, 0);
        if (d == 0.0) continue;
        if (d < 0.0) {  // the loss is even in r: mirror so that r grows with k
            r = -r;
            d = -d;
        }
        const double jump = d * inv;
        if (r >= epsilon) {
            p.B.add(jump);
        } else if (r < -epsilon) {
            p.B.add(-jump);
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
                       const Eigen::MatrixXd& D, int begin, int end, double inv, Piecewise& p) {
    const int K = static_cast<int>(S.cols());
    std::vector<double> alpha(static_cast<std::size_t>(K)), beta(static_cast<std::size_t>(K));
    p.points.reserve(static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i) {
        const int y = static_cast<int>(labels[i]);
        int cur = 0;
        for (int j = 0; j < K; ++j) {
            const auto u = static_cast<std::size_t>(j);
            alpha[u] = (j != y ? 1.0 : 0.0) + S(i, j) - S(i, y);
            beta[u] = D(i, j) - D(i, y);
            const auto c = static_cast<std::size_t>(cur);
            if (alpha[u] > alpha[c] || (alpha[u] == alpha[c] && beta[u] > beta[c])) cur = j;
        }
        p.lossAtZero.add(alpha[static_cast<std::size_t>(cur)]);
        p.B.add(beta[static_cast<std::size_t>(cur)] * inv);
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

// The breakpoints of every example, collected in parts (contiguous blocks of examples, in
// order): f'(k⁺) = (A + Σ parts' A)·k + … with each part's own list of breakpoints.
std::vector<Piecewise> collect(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                               const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                               const Parallel& parallel) {
    const Eigen::Index m = labels.size();
    const double inv = 1.0 / parallel.examplesOf(labels);
    const int K = static_cast<int>(S.cols());
    const int parts = parallel.parts(loss == LossKind::Multiclass ? m * K * K : m);
    std::vector<Piecewise> pieces(static_cast<std::size_t>(parts));
    parallel.blocks(m, parts, [&](int t, int begin, int end) {
        Piecewise& p = pieces[static_cast<std::size_t>(t)];
        switch (loss) {
            case LossKind::Hinge:
            case LossKind::SquaredHinge:
                collectHinge(loss == LossKind::SquaredHinge, labels, S, D, begin, end, inv, p);
                break;
            case LossKind::EpsilonInsensitive:
                collectEpsilonInsensitive(epsilon, labels, S, D, begin, end, inv, p);
                break;
            case LossKind::Multiclass:
                collectMulticlass(labels, S, D, begin, end, inv, p);
                break;
            case LossKind::Logistic:
                break;
        }
    });
    return pieces;
}

using PointIterator = std::vector<Breakpoint>::iterator;

// f'(k⁺) = A·k + B.
double derivativeAt(double k, const CompensatedSum& A, const CompensatedSum& B) {
    return A.value() * k + B.value();
}

// The selection on [first, last) (see the header): on entry f'(lo⁺) < 0 ≤ f'(hi⁺) with
// f'(k⁺) = A·k + B on (lo, next breakpoint); on return the same with no breakpoint left in
// (lo, hi). Reorders the range.
void selectSerial(PointIterator first, PointIterator last, CompensatedSum& A, CompensatedSum& B,
                  double& lo, double& hi, LineSearchResult& result) {
    const auto byK = [](const Breakpoint& u, const Breakpoint& v) { return u.k < v.k; };
    while (first != last) {
        ++result.iterations;
        const auto mid = first + (last - first) / 2;
        std::nth_element(first, mid, last, byK);
        const double kp = mid->k;
        // [first, mid) ≤ kp ≤ (mid, last): gather every breakpoint equal to kp next to mid.
        const auto upper =
            std::partition(mid + 1, last, [kp](const Breakpoint& u) { return u.k <= kp; });
        CompensatedSum sumA = A;
        CompensatedSum sumB = B;
        for (auto it = first; it != upper; ++it) {
            sumA.add(it->dA);
            sumB.add(it->dB);
        }
        if (derivativeAt(kp, sumA, sumB) >= 0.0) {  // f'(kp⁺) ≥ 0: k* ≤ kp
            hi = kp;
            last = std::partition(first, mid, [kp](const Breakpoint& u) { return u.k < kp; });
        } else {  // k* > kp: the breakpoints up to kp are passed
            A = sumA;
            B = sumB;
            lo = kp;
            first = upper;
        }
    }
}

// Every rank's `mine`, concatenated in rank order (the same vector on every rank).
template <class T>
std::vector<T> gatheredOverRanks(Communicator& comm, const std::vector<T>& mine) {
    std::string bytes(mine.size() * sizeof(T), '\0');
    if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
    std::vector<T> all;
    for (const std::string& block : comm.gatherAll(bytes)) {
        const std::size_t before = all.size();
        all.resize(before + block.size() / sizeof(T));
        if (!block.empty()) std::memcpy(all.data() + before, block.data(), block.size());
    }
    return all;
}

// One part's points [first, last) partitioned about kp: [first, less) < kp, [less, upTo) = kp,
// [upTo, last) > kp; a and b the sums of dA and dB over [first, upTo).
void partitionAround(double kp, std::vector<Breakpoint>& points, std::size_t first,
                     std::size_t last, std::size_t& less, std::size_t& upTo, CompensatedSum& a,
                     CompensatedSum& b) {
    const PointIterator begin = points.begin();
    const PointIterator below =
        std::partition(begin + first, begin + last, [kp](const Breakpoint& u) { return u.k < kp; });
    const PointIterator equal =
        std::partition(below, begin + last, [kp](const Breakpoint& u) { return u.k == kp; });
    a = CompensatedSum{};
    b = CompensatedSum{};
    for (auto it = begin + first; it != equal; ++it) {
        a.add(it->dA);
        b.add(it->dB);
    }
    less = static_cast<std::size_t>(below - begin);
    upTo = static_cast<std::size_t>(equal - begin);
}

// The same on the parts' lists at once: each round takes a pivot (the median of a few
// breakpoints from every part), partitions every part around it in parallel and keeps the
// side that holds k*, until few enough breakpoints are left for selectSerial. Over several
// ranks the parts are every rank's: the samples are gathered and the sums combined, so every
// rank takes the same pivot and the same side; the last few breakpoints are gathered onto
// every rank (in rank order) for the same selectSerial.
void selectParallel(std::vector<Piecewise>& pieces, CompensatedSum& A, CompensatedSum& B,
                    double& lo, double& hi, const Parallel& parallel, LineSearchResult& result) {
    const std::size_t n = pieces.size();
    std::vector<std::size_t> first(n, 0), last(n), less(n), upTo(n);
    std::vector<CompensatedSum> sumA(n), sumB(n);
    double live = 0;
    for (std::size_t t = 0; t < n; ++t) {
        last[t] = pieces[t].points.size();
        live += static_cast<double>(last[t]);
    }
    parallel.overRanks(&live, 1);
    // A round partitions each point about twice and sums it once: some 4 units of work.
    const auto moreRounds = [&] {
        return parallel.comm ? live > kGatherBreakpointsBelow
                             : parallel.parts(4 * static_cast<long long>(live)) > 1;
    };
    std::vector<double> sample;
    while (moreRounds()) {
        ++result.iterations;
        sample.clear();
        for (std::size_t t = 0; t < n; ++t) {
            const std::size_t size = last[t] - first[t];
            const std::size_t count = std::min<std::size_t>(size, kPivotSamplesPerPart);
            for (std::size_t j = 0; j < count; ++j)
                sample.push_back(pieces[t].points[first[t] + (2 * j + 1) * size / (2 * count)].k);
        }
        if (parallel.comm) sample = gatheredOverRanks(*parallel.comm, sample);
        const auto median = sample.begin() + static_cast<std::ptrdiff_t>(sample.size() / 2);
        std::nth_element(sample.begin(), median, sample.end());
        const double kp = *median;
        // Each part: [first, less) < kp, [less, upTo) = kp, [upTo, last) > kp.
        parallel.each(static_cast<int>(n), [&](int part) {
            const auto t = static_cast<std::size_t>(part);
            partitionAround(kp, pieces[t].points, first[t], last[t], less[t], upTo[t], sumA[t],
                            sumB[t]);
        });
        CompensatedSum ab[2];
        for (std::size_t t = 0; t < n; ++t) {
            ab[0].add(sumA[t]);
            ab[1].add(sumB[t]);
        }
        parallel.overRanks(ab, 2);
        CompensatedSum atA = A;
        CompensatedSum atB = B;
        atA.add(ab[0]);
        atB.add(ab[1]);
        const bool atOrBefore = derivativeAt(kp, atA, atB) >= 0.0;  // f'(kp⁺) ≥ 0: k* ≤ kp
        if (atOrBefore) {
            hi = kp;
        } else {
            A = atA;
            B = atB;
            lo = kp;
        }
        live = 0;
        for (std::size_t t = 0; t < n; ++t) {
            if (atOrBefore) {
                last[t] = less[t];
            } else {
                first[t] = upTo[t];
            }
            live += static_cast<double>(last[t] - first[t]);
        }
        parallel.overRanks(&live, 1);
    }
    std::vector<Breakpoint> rest;
    for (std::size_t t = 0; t < n; ++t) {
        const auto begin = pieces[t].points.begin();
        rest.insert(rest.end(), begin + static_cast<std::ptrdiff_t>(first[t]),
                    begin + static_cast<std::ptrdiff_t>(last[t]));
    }
    if (parallel.comm) rest = gatheredOverRanks(*parallel.comm, rest);
    selectSerial(rest.begin(), rest.end(), A, B, lo, hi, result);
}

// Smallest k ≥ 0 with f'(k⁺) ≥ 0, where f'(k⁺) = (a + Σ A)·k + b + Σ B plus the breakpoints'
// changes. Reorders the parts' breakpoints.
double solvePiecewise(std::vector<Piecewise>& pieces, double a, double b, double maxStep,
                      const Parallel& parallel, LineSearchResult& result) {
    CompensatedSum AB[2];
    for (const Piecewise& p : pieces) {
        AB[0].add(p.A);
        AB[1].add(p.B);
    }
    parallel.overRanks(AB, 2);
    CompensatedSum A = AB[0];
    CompensatedSum B = AB[1];
    A.add(a);
    B.add(b);
    if (B.value() >= 0.0) return 0.0;  // f'(0⁺) ≥ 0
    double lo = 0.0;
    double hi = INFINITY;
    if (pieces.size() == 1 && !parallel.comm) {
        selectSerial(pieces[0].points.begin(), pieces[0].points.end(), A, B, lo, hi, result);
    } else {
        selectParallel(pieces, A, B, lo, hi, parallel, result);
    }
    // No breakpoint in (lo, hi); f'(k) = A·k + B there, f'(lo⁺) < 0 ≤ f'(hi⁺).
    double k = hi;
    if (A.value() > 0.0) k = std::min(hi, std::max(lo, -B.value() / A.value()));
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
                         const Parallel& parallel, double& first, double& second) {
    const Eigen::Index m = labels.size();
    const int parts = parallel.parts(16 * m);
    std::vector<CompensatedSum> gs(static_cast<std::size_t>(parts)), hs(gs.size());
    parallel.blocks(m, parts, [&](int t, int begin, int end) {
        CompensatedSum g;
        CompensatedSum h;
        for (int i = begin; i < end; ++i) {
            const double y = labels[i];
            const double d = D(i, 0);
            if (d == 0.0) continue;
            const double z = y * (S(i, 0) + k * d);
            const double e = std::exp(-std::abs(z));
            const double q = 1.0 / (1.0 + e);
            g.add(-y * d * (z >= 0.0 ? e * q : q));  // σ(−z)
            h.add(d * d * e * q * q);                // σ(z)σ(−z)
        }
        gs[static_cast<std::size_t>(t)] = g;
        hs[static_cast<std::size_t>(t)] = h;
    });
    CompensatedSum gh[2];
    for (std::size_t t = 0; t < gs.size(); ++t) {
        gh[0].add(gs[t]);
        gh[1].add(hs[t]);
    }
    parallel.overRanks(gh, 2);
    const double mAll = parallel.examplesOf(labels);
    first = line.lambda * (line.wd + k * line.dd) + gh[0].value() / mAll;
    second = line.lambda * line.dd + gh[1].value() / mAll;
}

double solveLogistic(const Eigen::VectorXd& labels, const LineRegulariser& line,
                     const Eigen::MatrixXd& S, const Eigen::MatrixXd& D, double maxStep,
                     const Parallel& parallel, LineSearchResult& result) {
    double g = 0.0;
    double h = 0.0;
    logisticDerivatives(labels, line, S, D, 0.0, parallel, g, h);
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
        logisticDerivatives(labels, line, S, D, x, parallel, g, h);
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
                        const Parallel& parallel, bool labelsChecked) {
    checkOptions(options);
    checkInputs("exactLineSearch", loss, epsilon, labels, line, S, D, parallel, labelsChecked);
    LineSearchResult result;

    const double a = line.lambda * line.dd;  // f'(k) = λ·dd·k + λ·wd + (loss part)
    const double b = line.lambda * line.wd;
    if (loss == LossKind::Logistic) {
        result.valueAtZero = objective(loss, epsilon, labels, line, S, D, 0.0, parallel);
        result.k = solveLogistic(labels, line, S, D, options.maxStep, parallel, result);
    } else {
        std::vector<Piecewise> pieces = collect(loss, epsilon, labels, S, D, parallel);
        // Σ ℓ(sᵢ, yᵢ) and the breakpoints' count, over the ranks.
        CompensatedSum sums[2];  // exact for the count
        for (const Piecewise& p : pieces) {
            sums[0].add(p.lossAtZero);
            sums[1].add(static_cast<double>(p.points.size()));
        }
        parallel.overRanks(sums, 2);
        result.valueAtZero =
            0.5 * line.lambda * line.ww + sums[0].value() / parallel.examplesOf(labels);
        result.breakpoints = static_cast<long long>(sums[1].value());
        // The parts hold the breakpoints in example order: sample their concatenation (this
        // rank's, over several ranks: the sample is for plots).
        std::size_t n = 0;
        for (const Piecewise& p : pieces)
            n += p.points.size();
        const auto sample = std::min(n, static_cast<std::size_t>(options.breakpointSample));
        result.breakpointSample.reserve(sample);
        std::size_t part = 0;
        std::size_t offset = 0;  // of pieces[part] in the concatenation
        for (std::size_t j = 0; j < sample; ++j) {
            const std::size_t at = j * n / sample;
            while (at >= offset + pieces[part].points.size())
                offset += pieces[part++].points.size();
            result.breakpointSample.push_back(pieces[part].points[at - offset].k);
        }
        std::sort(result.breakpointSample.begin(), result.breakpointSample.end());
        result.k = solvePiecewise(pieces, a, b, options.maxStep, parallel, result);
    }
    result.value = result.k == 0.0
                       ? result.valueAtZero
                       : objective(loss, epsilon, labels, line, S, D, result.k, parallel);
    return result;
}

Parallel parallelOf(const LineSearchOptions& options) {
    return {options.team, options.minWorkPerThread};
}

Parallel parallelOf(const Risk& risk) {
    return {risk.team(), risk.options().minWorkPerThread, risk.options().communicator.get(),
            risk.totalExamples()};
}

Eigen::VectorXd sampleLine(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                           const LineRegulariser& line, const Eigen::MatrixXd& S,
                           const Eigen::MatrixXd& D, const Eigen::VectorXd& ks,
                           const Parallel& parallel, bool labelsChecked) {
    checkInputs("lineObjective", loss, epsilon, labels, line, S, D, parallel, labelsChecked);
    Eigen::VectorXd values(ks.size());
    if (ks.size() > 0) {
        objectives(loss, epsilon, labels, line, S, D, ks.data(), static_cast<int>(ks.size()),
                   parallel, values.data());
    }
    return values;
}

}  // namespace

LineSearchResult exactLineSearch(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                                 const LineRegulariser& line, const Eigen::MatrixXd& S,
                                 const Eigen::MatrixXd& D, const LineSearchOptions& options) {
    return search(loss, epsilon, labels, line, S, D, options, parallelOf(options), false);
}

LineSearchResult exactLineSearch(const Risk& risk, const LineRegulariser& line,
                                 const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                                 const LineSearchOptions& options) {
    return search(risk.options().loss, risk.options().epsilon, risk.lossLabels(), line, S, D,
                  options, parallelOf(risk), true);
}

Eigen::VectorXd lineObjective(LossKind loss, double epsilon, const Eigen::VectorXd& labels,
                              const LineRegulariser& line, const Eigen::MatrixXd& S,
                              const Eigen::MatrixXd& D, const Eigen::VectorXd& ks,
                              const LineSearchOptions& options) {
    checkOptions(options);
    return sampleLine(loss, epsilon, labels, line, S, D, ks, parallelOf(options), false);
}

Eigen::VectorXd lineObjective(const Risk& risk, const LineRegulariser& line,
                              const Eigen::MatrixXd& S, const Eigen::MatrixXd& D,
                              const Eigen::VectorXd& ks) {
    return sampleLine(risk.options().loss, risk.options().epsilon, risk.lossLabels(), line, S, D,
                      ks, parallelOf(risk), true);
}

}  // namespace cplab
