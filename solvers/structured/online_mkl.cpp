// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/online_mkl.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/memory_budget.h"
#include "core/worker_team.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "OnlineMklOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Scales beyond these are folded into the coefficients (s_g multiplies by < 1 every round; as
// it shrinks, v_g grows and S_g·v_g − u_g would cancel ever more digits).
constexpr double kTinyScale = 1e-3, kHugeScale = 1e3;
// Test tokens per block of the dense kernel products (block × active tokens doubles each).
constexpr int kScoreBlock = 256;

// Pseudocode line numbers (see OnlineMklSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kRepeat,
    kRound,
    kDecode,
    kGradient,
    kProx,
    kProject,
    kAverage,
    kEvaluate,
    kUntil,
    kReturn
};

}  // namespace

// ---- options ---------------------------------------------------------------------------------

void OnlineMklOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.real("lambda", lambda,
           "regularisation lambda of lambda*Omega(group norms) + mean hinge, > 0");
    v.real("eta0", eta0, "learning rate eta_t = eta0/sqrt(t) of round t, > 0");
    v.choice("learning_rate", learning_rate, {"sqrt", "pegasos"},
             "eta_t = eta0/sqrt(t) (the paper's), or 1/(lambda t) (Pegasos, for the l2 "
             "regulariser)");
    v.text("kernels", kernels,
           "kernel groups on the token features, ';'-separated: linear, poly:d[,c], "
           "gaussian:g (exp(-g|x-x'|^2)); empty: none");
    v.choice("normalize", normalize, {"diagonal", "none"},
             "scale each kernel to unit diagonal, k/sqrt(k(x,x)k(x',x')) (Gaussians unchanged), "
             "or not");
    v.boolean("pixels", pixels,
              "an explicit group on the token features (the linear kernel's feature map)");
    v.boolean("transitions", transitions,
              "the explicit group of the label biases and first-order transitions");
    v.choice("regulariser", regulariser, {"squared_l1", "group_lasso", "l2"},
             "Omega: 1/2 (sum of group norms)^2 (MKL), sum of group norms (group lasso), or "
             "1/2 sum of squared norms (no sparsity)");
    v.real("radius", radius, "radius of the projection ball of w, >= 0 (0: no projection)");
    v.boolean("averaging", averaging, "report the average of the iterates (else the last one)");
    v.integer("epochs", epochs, "passes over the training words, >= 1");
    v.integer("chunks", chunks, "steps per epoch (one step = one chunk of words), >= 1");
    v.integer("eval_every", eval_every, "epochs between evaluations of the objective, >= 1");
    v.seed("seed", seed, "seed of the word order (>= 0)");
    v.integer("threads", threads, "threads of the evaluations (0: all cores)");
}

bool OnlineMklOptions::isValid(std::string* why) const {
    GroupRegulariser r;
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why) &&
           // Beyond 1e6 λ only multiplies rounding dust in the group norms: w = 0 already.
           require(lambda <= 1e6, kOwner, "lambda", lambda, "must be <= 1e6", why) &&
           require(std::isfinite(eta0) && eta0 > 0 && eta0 <= 1e6, kOwner, "eta0", eta0,
                   "must lie in (0, 1e6]", why) &&
           require(std::isfinite(radius) && radius >= 0, kOwner, "radius", radius,
                   "must be >= 0 and finite", why) &&
           require(epochs >= 1 && epochs <= 100000, kOwner, "epochs", epochs,
                   "must lie in [1, 100000]", why) &&
           require(chunks >= 1 && chunks <= 1000000, kOwner, "chunks", chunks,
                   "must lie in [1, 1000000]", why) &&
           requireText(learning_rate == "sqrt" || learning_rate == "pegasos", kOwner,
                       "learning_rate", learning_rate, "must be sqrt or pegasos", why) &&
           requireText(normalize == "diagonal" || normalize == "none", kOwner, "normalize",
                       normalize, "must be diagonal or none", why) &&
           requireText(parseGroupRegulariser(regulariser, &r), kOwner, "regulariser", regulariser,
                       "must be squared_l1, group_lasso or l2", why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

// ---- groups ----------------------------------------------------------------------------------

struct OnlineMklSolver::Group {
    enum class Kind { Kernel, Features, Transitions };
    Kind kind = Kind::Kernel;
    std::string name;
    KernelSpec spec;         // Kernel
    bool normalize = false;  // Kernel: unit diagonal; Features: φ(x) = x/‖x‖
    Eigen::VectorXd diag;    // Kernel: the unnormalised k(x_k, x_k) of every training token
    double s = 1.0;          // w_g = s·(coefficients v)
    double S = 0.0;          // Σ over the rounds so far of s (averaging)
    double normSq = 0.0;     // ‖w_g‖² of the current iterate
    // Kernel: N × L expansion coefficients; Features: L × d weights; Transitions: (L + L²) × 1
    // (biases, then transitions a → b at L + a·L + b). u: the averaging offsets, same shape.
    Eigen::MatrixXd v, u;
    Eigen::MatrixXd f, fu;  // Kernel: K_g v and K_g u on the training tokens (N × L)

    // The unnormalised kernel from a dot product and the two squared norms.
    double raw(double dot, double sqA, double sqB) const {
        switch (spec.type) {
            case KernelType::Linear:
                return dot;
            case KernelType::Polynomial:
                return std::pow(dot + spec.offset, spec.degree);
            case KernelType::Gaussian:
                return std::exp(-spec.gamma * std::max(0.0, sqA + sqB - 2.0 * dot));
            case KernelType::Precomputed:
                break;
        }
        return 0.0;
    }
    double value(double dot, double sqA, double sqB, double diagA, double diagB) const {
        const double k = raw(dot, sqA, sqB);
        if (!normalize || spec.type == KernelType::Gaussian) return k;
        const double scale = diagA * diagB;
        return scale > 0 ? k / std::sqrt(scale) : 0.0;
    }
};

// One model, as coefficients per group: the current iterate (s·v) or the average
// ((S·v − u)/t); for kernel groups also its training-token scores (s·f or (S·f − fu)/t).
struct OnlineMklSolver::Weights {
    std::vector<Eigen::MatrixXd> coef;
    std::vector<Eigen::MatrixXd> train;
};

namespace {

// The features of token k as a dense row (d entries) into `out`.
void denseRow(const SequenceData& data, int k, double* out, int d) {
    std::fill(out, out + d, 0.0);
    for (SequenceData::SparseMatrix::InnerIterator it(data.features, k); it; ++it)
        out[it.col()] = it.value();
}

}  // namespace

// Emission scores (bias included) of any tokens for one model: kernel groups by dense
// products with the training tokens that have a nonzero coefficient.
class OnlineMklSolver::Scorer {
  public:
    Scorer(const OnlineMklSolver& solver, const Weights& w) : solver_(solver), w_(w) {
        const int N = solver.N_;
        std::vector<char> used(static_cast<std::size_t>(N), 0);
        for (std::size_t g = 0; g < solver.groups_.size(); ++g) {
            if (solver.groups_[g].kind != Group::Kind::Kernel) continue;
            const Eigen::MatrixXd& c = w.coef[g];
            for (int k = 0; k < N; ++k)
                if (!used[static_cast<std::size_t>(k)] && c.row(k).cwiseAbs().maxCoeff() > 0)
                    used[static_cast<std::size_t>(k)] = 1;
        }
        for (int k = 0; k < N; ++k)
            if (used[static_cast<std::size_t>(k)]) active_.push_back(k);
        const int A = static_cast<int>(active_.size());
        activeTokens_.resize(A, solver.d_);
        activeSq_.resize(A);
        for (int a = 0; a < A; ++a) {
            activeTokens_.row(a) = solver.tokens_.row(active_[static_cast<std::size_t>(a)]);
            activeSq_(a) = solver.tokenSq_(active_[static_cast<std::size_t>(a)]);
        }
    }

    // Scores of tokens [begin, end) of `data` into rows [begin, end) of `out` (M × L).
    void score(const SequenceData& data, int begin, int end, Eigen::MatrixXd& out) const {
        const OnlineMklSolver& s = solver_;
        const int m = end - begin, d = s.d_, L = s.L_;
        Eigen::MatrixXd X(m, d);
        Eigen::VectorXd sq(m);
        for (int r = 0; r < m; ++r) {
            Eigen::RowVectorXd row(d);
            denseRow(data, begin + r, row.data(), d);
            X.row(r) = row;
            sq(r) = row.squaredNorm();
        }
        Eigen::MatrixXd scores = Eigen::MatrixXd::Zero(m, L);
        Eigen::MatrixXd dots;
        if (!active_.empty()) dots = X * activeTokens_.transpose();  // m × A
        for (std::size_t g = 0; g < s.groups_.size(); ++g) {
            const Group& group = s.groups_[g];
            const Eigen::MatrixXd& c = w_.coef[g];
            switch (group.kind) {
                case Group::Kind::Kernel: {
                    if (active_.empty()) break;
                    const int A = static_cast<int>(active_.size());
                    Eigen::MatrixXd ca(A, L);
                    for (int a = 0; a < A; ++a)
                        ca.row(a) = c.row(active_[static_cast<std::size_t>(a)]);
                    scores.noalias() += kernelBlock(group, dots, sq) * ca;
                    break;
                }
                case Group::Kind::Features: {
                    Eigen::MatrixXd phi = X;
                    if (group.normalize)
                        for (int r = 0; r < m; ++r)
                            if (sq(r) > 0) phi.row(r) /= std::sqrt(sq(r));
                    scores.noalias() += phi * c.transpose();
                    break;
                }
                case Group::Kind::Transitions:
                    scores.rowwise() += c.col(0).head(L).transpose();
                    break;
            }
        }
        out.middleRows(begin, m) = scores;
    }

    // All tokens of `data` (M × L), in blocks on `team`.
    Eigen::MatrixXd scoreAll(const SequenceData& data, WorkerTeam* team) const {
        const int M = data.tokenCount();
        Eigen::MatrixXd out(M, solver_.L_);
        const int blocks = (M + kScoreBlock - 1) / kScoreBlock;
        runBlocks(team, blocks, team ? std::min(blocks, team->size()) : 1,
                  [&](int, int first, int last) {
                      for (int b = first; b < last; ++b)
                          score(data, b * kScoreBlock, std::min(M, (b + 1) * kScoreBlock), out);
                  });
        return out;
    }

  private:
    // k_g between the block's tokens (squared norms sq) and the active training tokens, from
    // their dot products: m × A, as Group::value computes it entry by entry.
    Eigen::MatrixXd kernelBlock(const Group& group, const Eigen::MatrixXd& dots,
                                const Eigen::VectorXd& sq) const {
        const Eigen::Index m = dots.rows(), A = dots.cols();
        Eigen::ArrayXXd K;
        switch (group.spec.type) {
            case KernelType::Linear:
                K = dots.array();
                break;
            case KernelType::Polynomial: {
                const Eigen::ArrayXXd base = dots.array() + group.spec.offset;
                K = base;
                for (int p = 1; p < group.spec.degree; ++p)
                    K *= base;
                break;
            }
            case KernelType::Gaussian: {
                Eigen::ArrayXXd dist = (-2.0 * dots.array()).colwise() + sq.array();
                dist.rowwise() += activeSq_.array().transpose();
                return (-group.spec.gamma * dist.max(0.0)).exp().matrix();
            }
            case KernelType::Precomputed:
                return Eigen::MatrixXd::Zero(m, A);
        }
        if (group.normalize) {
            Eigen::ArrayXd rowScale(m), colScale(A);
            for (Eigen::Index r = 0; r < m; ++r) {
                const double diag = group.raw(sq(r), sq(r), sq(r));
                rowScale(r) = diag > 0 ? 1.0 / std::sqrt(diag) : 0.0;
            }
            for (Eigen::Index a = 0; a < A; ++a) {
                const double diag = group.diag(active_[static_cast<std::size_t>(a)]);
                colScale(a) = diag > 0 ? 1.0 / std::sqrt(diag) : 0.0;
            }
            K.colwise() *= rowScale;
            K.rowwise() *= colScale.transpose();
        }
        return K.matrix();
    }

    const OnlineMklSolver& solver_;
    const Weights& w_;
    std::vector<int> active_;
    Eigen::MatrixXd activeTokens_;
    Eigen::VectorXd activeSq_;
};

// ---- construction ----------------------------------------------------------------------------

namespace {

// The stop options with the epochs as an iteration limit: `epochs` times the steps of an
// epoch (chunks of ⌈n/chunks⌉ words), unless max_iterations is smaller.
StopOptions epochLimit(const StructuredProblem& problem, const OnlineMklOptions& options) {
    StopOptions stop = options.stop;
    if (!problem.train || options.chunks < 1 || options.epochs < 1) return stop;
    const long long n = problem.train->size();
    const long long chunk = std::max(1LL, (n + options.chunks - 1) / options.chunks);
    const long long steps = (n + chunk - 1) / chunk * options.epochs;
    stop.max_iterations = static_cast<int>(std::min<long long>(stop.max_iterations, steps));
    return stop;
}

}  // namespace

OnlineMklSolver::OnlineMklSolver(StructuredProblem problem, OnlineMklOptions options)
    : Solver(epochLimit(problem, options)),
      problem_(std::move(problem)),
      model_(problem_.train),
      options_(std::move(options)),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options_.seed, 0))) {
    std::string why;
    if (!options_.isValid(&why)) {
        reject(why);
        return;
    }
    if (!validStructuredProblem("OnlineMklSolver", model_, problem_.test, &why)) {
        reject(why);
        return;
    }
    parseGroupRegulariser(options_.regulariser, &regulariser_);
    const std::string trimmed =
        options_.kernels.find_first_not_of(" \t") == std::string::npos ? "" : options_.kernels;
    if (!trimmed.empty() && !parseKernelList(trimmed, model_->featureDimension(), &specs_, &why)) {
        reject(std::string(kOwner) + ": kernels: " + why);
        return;
    }
    for (const KernelSpec& spec : specs_) {
        if (spec.type == KernelType::Precomputed || !spec.features.empty()) {
            reject(std::string(kOwner) + ": kernels: '" + spec.label() +
                   "': only linear, poly and gaussian kernels on all token features");
            return;
        }
    }
    if (specs_.empty() && !options_.pixels && !options_.transitions) {
        reject(std::string(kOwner) +
               ": no group: give kernels, or set pixels or transitions to true");
        return;
    }
    SetupTimer timer(*this);
    team_ = makeStructuredTeam(options_.threads);
    const SequenceData& data = model_->data();
    N_ = data.tokenCount();
    L_ = model_->labelCount();
    d_ = model_->featureDimension();
    // The dense token matrix (the kernel rows' dot products) must stay small.
    if (static_cast<long long>(N_) * d_ > (1LL << 27)) {
        reject(std::string(kOwner) + ": " + std::to_string(N_) + " training tokens x " +
               std::to_string(d_) + " features is more than the dense token table allows (2^27)");
        return;
    }
    // What the run keeps: the token table, and per kernel group v, u, F, F_u (N × L) and the
    // diagonal; the evaluations' N × L scores.
    const double kernels = static_cast<double>(specs_.size());
    const double bytes =
        8.0 * (double(N_) * d_ + kernels * N_ * (4.0 * L_ + 1) + 2.0 * double(N_) * L_);
    if (const std::string shortfall = memoryShortfall(
            bytes, sizeProduct({{double(N_), "tokens"}, {double(d_), "features"}}) + " + " +
                       sizeProduct({{kernels, "kernel groups"},
                                    {4, "tables"},
                                    {double(N_), "tokens"},
                                    {double(L_), "labels"}}) +
                       ", 8 B each");
        !shortfall.empty()) {
        reject(std::string(kOwner) + ": " + shortfall);
        return;
    }
    tokens_.resize(N_, d_);
    tokenSq_.resize(N_);
    tokenWord_.resize(static_cast<std::size_t>(N_));
    {
        Eigen::RowVectorXd row(d_);
        for (int k = 0; k < N_; ++k) {
            denseRow(data, k, row.data(), d_);
            tokens_.row(k) = row;
            tokenSq_(k) = row.squaredNorm();
        }
    }
    for (int i = 0; i < data.size(); ++i)
        for (int k = data.first(i); k < data.first(i) + data.length(i); ++k)
            tokenWord_[static_cast<std::size_t>(k)] = i;
    buildGroups();
    const int n = model_->size();
    order_.resize(static_cast<std::size_t>(n));
    std::iota(order_.begin(), order_.end(), 0);
    for (int i = n - 1; i > 0; --i)
        std::swap(order_[static_cast<std::size_t>(i)],
                  order_[random_.below(static_cast<std::uint64_t>(i) + 1)]);
    proxBefore_.assign(groups_.size(), 0.0);
    prox_.shrunk.assign(groups_.size(), 0.0);
    const auto start = std::chrono::steady_clock::now();
    last_ = evaluate(reported());
    evalSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!std::isfinite(last_.objective)) {
        reject("OnlineMklSolver: the objective is not finite at w = 0 (data values too large?)");
        return;
    }
    IterationRecord initial;
    initial.oracleCalls = n;
    initial.passes = 0.0;
    initial.upper = last_.objective;
    initial.lower = -kInf;
    initial.extra = structuredColumnValues(last_.objective, kNaN, kNaN, kNaN, last_.errors, true);
    initial.extra.push_back(0.0);
    for (std::size_t g = 0; g < groups_.size(); ++g)
        initial.extra.push_back(kNaN);
    setInitialRecord(initial);
}

OnlineMklSolver::~OnlineMklSolver() = default;

void OnlineMklSolver::buildGroups() {
    const bool normalize = options_.normalize == "diagonal";
    for (const KernelSpec& spec : specs_) {
        Group g;
        g.kind = Group::Kind::Kernel;
        g.spec = spec;
        g.name = spec.label();
        g.normalize = normalize;
        g.diag.resize(N_);
        for (int k = 0; k < N_; ++k)
            g.diag(k) = g.raw(tokenSq_(k), tokenSq_(k), tokenSq_(k));
        g.v = g.u = g.f = g.fu = Eigen::MatrixXd::Zero(N_, L_);
        groups_.push_back(std::move(g));
    }
    if (options_.pixels) {
        Group g;
        g.kind = Group::Kind::Features;
        g.name = "features";
        g.normalize = normalize;
        g.v = g.u = Eigen::MatrixXd::Zero(L_, d_);
        groups_.push_back(std::move(g));
    }
    if (options_.transitions) {
        Group g;
        g.kind = Group::Kind::Transitions;
        g.name = "transitions";
        g.v = g.u = Eigen::MatrixXd::Zero(L_ + L_ * L_, 1);
        groups_.push_back(std::move(g));
    }
}

int OnlineMklSolver::groupCount() const {
    return static_cast<int>(groups_.size());
}

const std::string& OnlineMklSolver::groupName(int g) const {
    return groups_.at(static_cast<std::size_t>(g)).name;
}

// ---- columns, pseudocode ---------------------------------------------------------------------

std::vector<std::string> OnlineMklSolver::extraColumns() const {
    std::vector<std::string> columns = structuredColumns();
    columns.push_back("active_groups");
    for (const Group& g : groups_)
        columns.push_back("beta:" + g.name);
    return columns;
}

std::vector<std::string> OnlineMklSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), groups g (kernels, features, transitions), lambda, eta0",
        "w_g <- 0 for all g;  t <- 0",
        "repeat                                      (one step = one chunk of words)",
        "  take the next word i;  t <- t + 1;  eta <- eta0 / sqrt(t)",
        "  y^ <- argmax_y Delta(y_i, y) + sum_g <w_g, Phi_g(x_i, y)>",
        "  w_g <- w_g - eta (Phi_g(x_i, y^) - Phi_g(x_i, y_i))   for all g",
        "  b_g <- |w_g|;  b~ <- prox_{eta lambda Omega}(b);  w_g <- (b~_g / b_g) w_g",
        "  if radius > 0: w <- w min(1, radius / |w|)",
        "  w_avg <- average of the iterates so far",
        "  at the end of every eval_every epochs: P(w_avg), errors",
        "until epochs done",
        "return w_avg (or the last w) and beta_g = |w_g| / sum_h |w_h|",
    };
}

// ---- kernels ---------------------------------------------------------------------------------

Eigen::VectorXd OnlineMklSolver::tokenDots(int j) const {
    Eigen::VectorXd dots = Eigen::VectorXd::Zero(N_);
    for (SequenceData::SparseMatrix::InnerIterator it(model_->data().features, j); it; ++it)
        dots.noalias() += it.value() * tokens_.col(it.col());
    return dots;
}

Eigen::VectorXd OnlineMklSolver::kernelRow(const Group& g, int j,
                                           const Eigen::VectorXd& dots) const {
    Eigen::VectorXd row(N_);
    for (int k = 0; k < N_; ++k)
        row(k) = g.value(dots(k), tokenSq_(j), tokenSq_(k), g.diag(j), g.diag(k));
    return row;
}

// ---- one round -------------------------------------------------------------------------------

void OnlineMklSolver::kernelGradientStep(int first, std::span<const int> truth,
                                         const std::vector<int>& wrong, double eta) {
    if (specs_.empty()) return;
    // ⟨w_g, g_g⟩ of eq. 17 from the scores before the step.
    std::vector<double> wg(groups_.size(), 0.0), gg(groups_.size(), 0.0);
    for (std::size_t h = 0; h < groups_.size(); ++h) {
        const Group& g = groups_[h];
        if (g.kind != Group::Kind::Kernel) continue;
        for (const int t : wrong) {
            const int k = first + t;
            wg[h] += g.s * (g.f(k, yHat_[static_cast<std::size_t>(t)]) -
                            g.f(k, truth[static_cast<std::size_t>(t)]));
        }
    }
    // One wrong token at a time: its dot products with every training token (shared by the
    // kernel groups, which differ only in what they make of a dot product), then each group's
    // kernel row — O(N) memory per round, never (wrong tokens) × N, which for one long word
    // would be 8·T² bytes per table. The row gives ‖g_g‖²'s terms of this token and the step.
    for (std::size_t a = 0; a < wrong.size(); ++a) {
        const int k = first + wrong[a];
        const int ha = yHat_[static_cast<std::size_t>(wrong[a])];
        const int ya = truth[static_cast<std::size_t>(wrong[a])];
        const Eigen::VectorXd dots = tokenDots(k);
        for (std::size_t h = 0; h < groups_.size(); ++h) {
            Group& g = groups_[h];
            if (g.kind != Group::Kind::Kernel) continue;
            const Eigen::VectorXd row = kernelRow(g, k, dots);
            for (std::size_t b = 0; b < wrong.size(); ++b) {
                const int hb = yHat_[static_cast<std::size_t>(wrong[b])];
                const int yb = truth[static_cast<std::size_t>(wrong[b])];
                const double overlap = (ha == hb) - (ha == yb) - (ya == hb) + (ya == yb);
                if (overlap != 0) gg[h] += overlap * row(first + wrong[b]);
            }
            const double delta = eta / g.s;  // the step in coefficient units
            g.v(k, ha) -= delta;
            g.v(k, ya) += delta;
            g.u(k, ha) -= g.S * delta;
            g.u(k, ya) += g.S * delta;
            g.f.col(ha).noalias() -= delta * row;
            g.f.col(ya).noalias() += delta * row;
            if (g.S != 0) {
                g.fu.col(ha).noalias() -= (g.S * delta) * row;
                g.fu.col(ya).noalias() += (g.S * delta) * row;
            }
        }
    }
    for (std::size_t h = 0; h < groups_.size(); ++h) {
        Group& g = groups_[h];
        if (g.kind == Group::Kind::Kernel)
            g.normSq = std::max(0.0, g.normSq - 2.0 * eta * wg[h] + eta * eta * gg[h]);
    }
}

double OnlineMklSolver::round(int word) {
    ++rounds_;
    const double count = static_cast<double>(rounds_);
    const double eta = options_.learning_rate == "pegasos" ? 1.0 / (options_.lambda * count)
                                                           : options_.eta0 / std::sqrt(count);
    const SequenceData& data = model_->data();
    const int first = data.first(word), T = data.length(word);
    const std::span<const int> truth = model_->truth(word);

    // Scores of the word's tokens at the current iterate, loss-augmented.
    ws_.reserve(T, L_);
    ws_.unary.topRows(T).setZero();
    std::vector<double> trans;
    Eigen::RowVectorXd phi(d_);
    for (const Group& g : groups_) {
        switch (g.kind) {
            case Group::Kind::Kernel:
                for (int t = 0; t < T; ++t)
                    ws_.unary.row(t) += g.s * g.f.row(first + t);
                break;
            case Group::Kind::Features:
                for (int t = 0; t < T; ++t) {
                    phi = tokens_.row(first + t);
                    if (g.normalize && tokenSq_(first + t) > 0)
                        phi /= std::sqrt(tokenSq_(first + t));
                    ws_.unary.row(t) += g.s * (g.v * phi.transpose()).transpose();
                }
                break;
            case Group::Kind::Transitions:
                for (int t = 0; t < T; ++t)
                    ws_.unary.row(t) += g.s * g.v.col(0).head(L_).transpose();
                trans.resize(static_cast<std::size_t>(L_) * L_);
                for (int k = 0; k < L_ * L_; ++k)
                    trans[static_cast<std::size_t>(k)] = g.s * g.v(L_ + k, 0);
                break;
        }
    }
    const double c = model_->options().normalizeLoss ? 1.0 / T : 1.0;
    for (int t = 0; t < T; ++t) {
        ws_.unary.row(t).head(L_).array() += c;
        ws_.unary(t, truth[static_cast<std::size_t>(t)]) -= c;
    }
    maxSumChain(T, L_, trans.empty() ? nullptr : trans.data(), yHat_, ws_);

    // The gradient Φ(x, ŷ) − Φ(x, y): nonzero at the wrong tokens (and their transitions).
    std::vector<int> wrong;  // positions t
    for (int t = 0; t < T; ++t)
        if (yHat_[static_cast<std::size_t>(t)] != truth[static_cast<std::size_t>(t)])
            wrong.push_back(t);
    if (!wrong.empty()) {
        kernelGradientStep(first, truth, wrong, eta);
        for (Group& g : groups_) {
            const double delta = eta / g.s;  // the step in coefficient units
            switch (g.kind) {
                case Group::Kind::Kernel:
                    break;  // kernelGradientStep
                case Group::Kind::Features: {
                    Eigen::MatrixXd grad = Eigen::MatrixXd::Zero(L_, d_);
                    for (const int t : wrong) {
                        phi = tokens_.row(first + t);
                        if (g.normalize && tokenSq_(first + t) > 0)
                            phi /= std::sqrt(tokenSq_(first + t));
                        grad.row(yHat_[static_cast<std::size_t>(t)]) += phi;
                        grad.row(truth[static_cast<std::size_t>(t)]) -= phi;
                    }
                    g.v -= delta * grad;
                    g.u -= (g.S * delta) * grad;
                    g.normSq = g.s * g.s * g.v.squaredNorm();
                    break;
                }
                case Group::Kind::Transitions: {
                    Eigen::VectorXd grad = Eigen::VectorXd::Zero(L_ + L_ * L_);
                    for (int t = 0; t < T; ++t) {
                        const int h = yHat_[static_cast<std::size_t>(t)];
                        const int y = truth[static_cast<std::size_t>(t)];
                        grad(h) += 1.0;
                        grad(y) -= 1.0;
                        if (t + 1 < T) {
                            grad(L_ + h * L_ + yHat_[static_cast<std::size_t>(t + 1)]) += 1.0;
                            grad(L_ + y * L_ + truth[static_cast<std::size_t>(t + 1)]) -= 1.0;
                        }
                    }
                    g.v.col(0) -= delta * grad;
                    g.u.col(0) -= (g.S * delta) * grad;
                    g.normSq = g.s * g.s * g.v.squaredNorm();
                    break;
                }
            }
        }
    }

    // The proximal step on the group norms, then the projection.
    const std::size_t K = groups_.size();
    for (std::size_t g = 0; g < K; ++g) {
        proxBefore_[g] = std::sqrt(std::max(0.0, groups_[g].normSq));
        if (!std::isfinite(proxBefore_[g])) return kNaN;  // doStep reports the overflow
    }
    prox_ = proxGroupNorms(regulariser_, proxBefore_, eta * options_.lambda);
    double totalSq = 0.0;
    for (std::size_t g = 0; g < K; ++g) {
        Group& group = groups_[g];
        const double b = proxBefore_[g], shrunk = prox_.shrunk[g];
        if (shrunk <= 0) {
            if (b > 0) zeroGroup(group);
        } else {
            group.s *= shrunk / b;
            group.normSq = shrunk * shrunk;
        }
        totalSq += group.normSq;
    }
    if (options_.radius > 0 && totalSq > options_.radius * options_.radius) {
        const double factor = options_.radius / std::sqrt(totalSq);
        for (Group& group : groups_) {
            group.s *= factor;
            group.normSq *= factor * factor;
        }
    }
    for (Group& group : groups_) {
        group.S += group.s;
        if (group.s < kTinyScale || group.s > kHugeScale) rescaleGroup(group);
    }
    return eta;
}

void OnlineMklSolver::zeroGroup(Group& g) {
    // A = S·v − u stays: u absorbs S·v before v is cleared.
    g.u -= g.S * g.v;
    g.v.setZero();
    if (g.kind == Group::Kind::Kernel) {
        g.fu -= g.S * g.f;
        g.f.setZero();
    }
    g.s = 1.0;
    g.normSq = 0.0;
}

void OnlineMklSolver::rescaleGroup(Group& g) {
    // w = s·v and A = S·v − u unchanged: v ← s·v, s ← 1, and the average so far moves into u
    // (u ← u − S·v, S ← 0), so that S never multiplies a large v.
    g.u -= g.S * g.v;
    g.v *= g.s;
    if (g.kind == Group::Kind::Kernel) {
        g.fu -= g.S * g.f;
        g.f *= g.s;
    }
    g.S = 0.0;
    g.s = 1.0;
}

// ---- models and evaluation -------------------------------------------------------------------

OnlineMklSolver::Weights OnlineMklSolver::current() const {
    Weights w;
    for (const Group& g : groups_) {
        w.coef.push_back(g.s * g.v);
        w.train.push_back(g.kind == Group::Kind::Kernel ? Eigen::MatrixXd(g.s * g.f)
                                                        : Eigen::MatrixXd());
    }
    return w;
}

OnlineMklSolver::Weights OnlineMklSolver::reported() const {
    if (!options_.averaging || rounds_ == 0) return current();
    const double t = static_cast<double>(rounds_);
    Weights w;
    for (const Group& g : groups_) {
        w.coef.push_back((g.S * g.v - g.u) / t);
        w.train.push_back(g.kind == Group::Kind::Kernel ? Eigen::MatrixXd((g.S * g.f - g.fu) / t)
                                                        : Eigen::MatrixXd());
    }
    return w;
}

Eigen::MatrixXd OnlineMklSolver::trainUnary(const Weights& w) const {
    Eigen::MatrixXd unary = Eigen::MatrixXd::Zero(N_, L_);
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = groups_[g];
        switch (group.kind) {
            case Group::Kind::Kernel:
                unary += w.train[g];
                break;
            case Group::Kind::Features: {
                Eigen::MatrixXd phi = tokens_;
                if (group.normalize)
                    for (int k = 0; k < N_; ++k)
                        if (tokenSq_(k) > 0) phi.row(k) /= std::sqrt(tokenSq_(k));
                unary.noalias() += phi * w.coef[g].transpose();
                break;
            }
            case Group::Kind::Transitions:
                unary.rowwise() += w.coef[g].col(0).head(L_).transpose();
                break;
        }
    }
    return unary;
}

namespace {

// Decodes sequence i of `data` over its rows of `unary` (first token's row = data.first(i))
// and the transitions (may be null); with `lossScale` > 0 loss-augmented. Returns the max.
double decodeRows(const SequenceData& data, int i, const Eigen::MatrixXd& unary,
                  const double* trans, double lossScale, std::vector<int>& y, ChainWorkspace& ws) {
    const int T = data.length(i), L = static_cast<int>(unary.cols());
    ws.reserve(T, L);
    ws.unary.topRows(T) = unary.middleRows(data.first(i), T);
    if (lossScale > 0) {
        for (int t = 0; t < T; ++t) {
            ws.unary.row(t).head(L).array() += lossScale;
            ws.unary(t, data.labels[static_cast<std::size_t>(data.first(i) + t)]) -= lossScale;
        }
    }
    return maxSumChain(T, L, trans, y, ws);
}

// Letter and word errors of decoding every sequence of `data` with `unary`.
std::pair<double, double> errorsOf(const SequenceData& data, const Eigen::MatrixXd& unary,
                                   const double* trans) {
    ChainWorkspace ws;
    std::vector<int> y;
    long long wrongTokens = 0, wrongWords = 0;
    for (int i = 0; i < data.size(); ++i) {
        decodeRows(data, i, unary, trans, 0.0, y, ws);
        int wrong = 0;
        for (int t = 0; t < data.length(i); ++t)
            wrong += y[static_cast<std::size_t>(t)] !=
                     data.labels[static_cast<std::size_t>(data.first(i) + t)];
        wrongTokens += wrong;
        wrongWords += wrong > 0;
    }
    return {static_cast<double>(wrongTokens) / std::max(1, data.tokenCount()),
            static_cast<double>(wrongWords) / std::max(1, data.size())};
}

}  // namespace

OnlineMklSolver::Evaluation OnlineMklSolver::evaluate(const Weights& w) const {
    Evaluation e;
    const Eigen::MatrixXd unary = trainUnary(w);
    std::vector<double> trans;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = groups_[g];
        double norm = 0.0;
        switch (group.kind) {
            case Group::Kind::Kernel:
                norm = std::sqrt(std::max(0.0, w.coef[g].cwiseProduct(w.train[g]).sum()));
                break;
            case Group::Kind::Features:
                norm = w.coef[g].norm();
                break;
            case Group::Kind::Transitions:
                norm = w.coef[g].norm();
                trans.assign(w.coef[g].data() + L_, w.coef[g].data() + L_ + L_ * L_);
                break;
        }
        e.norms.push_back(norm);
    }
    const double* transitions = trans.empty() ? nullptr : trans.data();
    const SequenceData& data = model_->data();
    ChainWorkspace ws;
    std::vector<int> y;
    double hinge = 0.0;
    for (int i = 0; i < data.size(); ++i) {
        const int T = data.length(i);
        const double c = model_->options().normalizeLoss ? 1.0 / T : 1.0;
        const double best = decodeRows(data, i, unary, transitions, c, y, ws);
        double truthScore = 0.0;
        for (int t = 0; t < T; ++t) {
            const int k = data.first(i) + t;
            const int label = data.labels[static_cast<std::size_t>(k)];
            truthScore += unary(k, label);
            if (transitions && t + 1 < T)
                truthScore +=
                    transitions[label * L_ + data.labels[static_cast<std::size_t>(k + 1)]];
        }
        hinge += best - truthScore;
    }
    e.objective = options_.lambda * regulariserValue(regulariser_, e.norms) + hinge / data.size();
    const auto [trainLetters, trainWords] = errorsOf(data, unary, transitions);
    e.errors.trainLetter = trainLetters;
    e.errors.trainWord = trainWords;
    if (problem_.test) {
        const Scorer scorer(*this, w);
        const Eigen::MatrixXd testUnary = scorer.scoreAll(problem_.test->data(), team_.get());
        const auto [testLetters, testWords] =
            errorsOf(problem_.test->data(), testUnary, transitions);
        e.errors.testLetter = testLetters;
        e.errors.testWord = testWords;
    }
    return e;
}

double OnlineMklSolver::objective() const {
    return evaluate(reported()).objective;
}

std::vector<double> OnlineMklSolver::betas(const std::vector<double>& norms) const {
    const double total = std::accumulate(norms.begin(), norms.end(), 0.0);
    std::vector<double> beta(norms.size(), 0.0);
    if (total > 0)
        for (std::size_t g = 0; g < norms.size(); ++g)
            beta[g] = norms[g] / total;
    return beta;
}

// ---- the step --------------------------------------------------------------------------------

Status OnlineMklSolver::doStep(IterationRecord& record) {
    const int n = model_->size();
    const int chunk = std::max(1, (n + options_.chunks - 1) / options_.chunks);
    const int count = std::min(chunk, n - static_cast<int>(next_));
    const Interrupt stop = stepInterrupt();
    double etaSum = 0.0;
    int done = 0;
    for (; done < count; ++done) {
        if (stop.requested()) break;  // per word: one may cost seconds with thousands of labels
        stop.report("online MKL chunk", done, count, "words");
        const double eta = round(order_[next_++]);
        if (std::isnan(eta)) {
            return Status::make(StatusCode::NumericalFailure,
                                "the group norms overflowed in round " + std::to_string(rounds_) +
                                    ": the learning rate is too large (eta0, or 1/(lambda t) "
                                    "with learning_rate=pegasos and a tiny lambda)");
        }
        etaSum += eta;
    }
    record.oracleCalls += done;
    // Re-synchronise the maintained norms of the kernel groups (rounding of eq. 17).
    for (Group& g : groups_)
        if (g.kind == Group::Kind::Kernel)
            g.normSq = g.s * g.s * std::max(0.0, g.v.cwiseProduct(g.f).sum());
    const bool epochEnd = next_ == order_.size();
    record.passes = epochs_ + static_cast<double>(next_) / n;
    std::vector<double> norms;
    for (const Group& g : groups_)
        norms.push_back(std::sqrt(g.normSq));
    const std::vector<double> beta = betas(norms);
    auto finish = [&](double primal, bool evaluated) {
        record.extra = structuredColumnValues(primal, kNaN, kNaN, etaSum / std::max(done, 1),
                                              last_.errors, evaluated);
        record.extra.push_back(static_cast<double>(
            std::count_if(norms.begin(), norms.end(), [](double b) { return b > 0; })));
        record.extra.insert(record.extra.end(), beta.begin(), beta.end());
    };
    if (done < count) {
        evaluatedLast_ = false;
        finish(kNaN, false);
        return interruptedStatus(stop, stopOptions(),
                                 "a chunk, after " + std::to_string(rounds_) + " rounds");
    }
    evaluatedLast_ = false;
    if (epochEnd) {
        ++epochs_;
        next_ = 0;
        for (int i = n - 1; i > 0; --i)
            std::swap(order_[static_cast<std::size_t>(i)],
                      order_[random_.below(static_cast<std::uint64_t>(i) + 1)]);
        if (epochs_ % options_.eval_every == 0 || epochs_ == options_.epochs) {
            const auto start = std::chrono::steady_clock::now();
            last_ = evaluate(reported());
            evalSeconds_ =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            record.oracleCalls += n;
            evaluatedLast_ = true;
            if (!std::isfinite(last_.objective)) {
                finish(kNaN, false);
                return Status::make(StatusCode::NumericalFailure,
                                    "the objective is not finite after epoch " +
                                        std::to_string(epochs_) + " (eta0 too large?)");
            }
            // U is P of the model the run reports (the newest evaluation), not the least P
            // seen: the reported model is the current (averaged) iterate, not a best one.
            record.upper = last_.objective;
        }
    }
    record.lower = -kInf;
    finish(evaluatedLast_ ? last_.objective : kNaN, evaluatedLast_);
    // The last epoch ends at the iteration limit (epochLimit), which the base class applies.
    return Status::running();
}

std::string OnlineMklSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected() || evaluatedLast_) return {};
    if (!finalEvaluationAffordable(status, evalSeconds_, stopOptions())) {
        // U stays P of the model at the last evaluation, which the run no longer reports.
        record.upper = kInf;
        return "the final model was not evaluated (an evaluation takes about " +
               formatReal(evalSeconds_) + " s): U is unknown";
    }
    last_ = evaluate(reported());
    record.oracleCalls += model_->size();
    evaluatedLast_ = true;
    if (!std::isfinite(last_.objective)) {
        throw std::runtime_error("the objective of the final model is not finite");
    }
    record.upper = last_.objective;
    if (record.extra.size() >= 7) {
        const std::vector<double> columns =
            structuredColumnValues(last_.objective, kNaN, kNaN, 0.0, last_.errors, true);
        record.extra[0] = columns[0];
        std::copy(columns.begin() + 4, columns.begin() + 7, record.extra.begin() + 4);
    }
    return {};
}

// ---- introspection ---------------------------------------------------------------------------

double OnlineMklSolver::groupNorm(int g) const {
    return std::sqrt(std::max(0.0, groups_.at(static_cast<std::size_t>(g)).normSq));
}

Eigen::MatrixXd OnlineMklSolver::groupTrainScores(int g) const {
    const Group& group = groups_.at(static_cast<std::size_t>(g));
    Weights w = current();
    if (group.kind == Group::Kind::Kernel) return w.train[static_cast<std::size_t>(g)];
    // Explicit groups: only this group's share of trainUnary.
    for (std::size_t h = 0; h < groups_.size(); ++h)
        if (static_cast<int>(h) != g) {
            w.coef[h].setZero();
            if (w.train[h].size()) w.train[h].setZero();
        }
    return trainUnary(w);
}

Eigen::MatrixXd OnlineMklSolver::groupTrainScoresFromScratch(int g) const {
    Weights w = current();
    for (std::size_t h = 0; h < groups_.size(); ++h)
        if (static_cast<int>(h) != g) w.coef[h].setZero();
    const Scorer scorer(*this, w);
    return scorer.scoreAll(model_->data(), nullptr);
}

double OnlineMklSolver::groupNormFromScratch(int g) const {
    const Group& group = groups_.at(static_cast<std::size_t>(g));
    if (group.kind != Group::Kind::Kernel) return std::abs(group.s) * group.v.norm();
    const Eigen::MatrixXd scores = groupTrainScoresFromScratch(g);
    return std::sqrt(std::max(0.0, (group.s * group.v).cwiseProduct(scores).sum()));
}

Eigen::MatrixXd OnlineMklSolver::pixelWeights(bool reportedModel) const {
    const Weights w = reportedModel ? reported() : current();
    for (std::size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].kind == Group::Kind::Features) return w.coef[g];
    return {};
}

// ---- summary and snapshot --------------------------------------------------------------------

SummaryFields OnlineMklSolver::summary() const {
    if (rejected()) return {};
    // The last evaluation when the last step made one (the model has not moved since).
    const Evaluation e = evaluatedLast_ ? last_ : evaluate(reported());
    SummaryFields fields = {{"lambda", options_.lambda},
                            {"regulariser", std::string(toString(regulariser_))},
                            {"epochs", static_cast<long long>(epochs_)},
                            {"rounds", rounds_},
                            {"averaging", std::string(options_.averaging ? "on" : "off")},
                            {"objective", e.objective},
                            {"train_error", e.errors.trainLetter},
                            {"train_word_error", e.errors.trainWord}};
    if (problem_.test) {
        fields.emplace_back("test_error", e.errors.testLetter);
        fields.emplace_back("test_char_error", e.errors.testLetter);
        fields.emplace_back("test_char_accuracy", 1.0 - e.errors.testLetter);
        fields.emplace_back("test_word_error", e.errors.testWord);
    }
    fields.emplace_back("active_groups",
                        static_cast<long long>(std::count_if(e.norms.begin(), e.norms.end(),
                                                             [](double b) { return b > 0; })));
    NamedValues weights;
    const std::vector<double> beta = betas(e.norms);
    for (std::size_t g = 0; g < groups_.size(); ++g)
        weights.emplace_back(groups_[g].name, beta[g]);
    fields.emplace_back("weights", weights);
    NamedValues norms;
    for (std::size_t g = 0; g < groups_.size(); ++g)
        norms.emplace_back(groups_[g].name, e.norms[g]);
    fields.emplace_back("group_norms", norms);
    return fields;
}

SnapshotPtr OnlineMklSolver::snapshot() const {
    auto snap = std::make_shared<StructuredSnapshot>();
    fillSnapshot(*snap);
    if (rejected()) return snap;
    const Weights w = reported();
    // The chain layout for the model tab: the emission templates of the linear groups (the
    // explicit features and linear kernels, whose weights are images), the biases and the
    // transitions; polynomial and Gaussian groups have no template.
    Eigen::VectorXd chain = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(L_) * d_ + L_ +
                                                  static_cast<Eigen::Index>(L_) * L_);
    Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>> templates(chain.data(), d_, L_,
                                                                   Eigen::OuterStride<>(d_));
    std::vector<double> trans;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = groups_[g];
        if (group.kind == Group::Kind::Features) {
            templates += w.coef[g].transpose();
        } else if (group.kind == Group::Kind::Kernel && group.spec.type == KernelType::Linear) {
            // Σ_k coef[k]·φ(x_k): the normalisation scales the coefficients (N × L), not the
            // tokens (N × d).
            Eigen::MatrixXd coef = w.coef[g];
            if (group.normalize)
                for (int k = 0; k < N_; ++k)
                    coef.row(k) *= tokenSq_(k) > 0 ? 1.0 / std::sqrt(tokenSq_(k)) : 0.0;
            templates += tokens_.transpose() * coef;
        } else if (group.kind == Group::Kind::Transitions) {
            chain.segment(static_cast<Eigen::Index>(L_) * d_, L_ + L_ * L_) = w.coef[g].col(0);
            trans.assign(w.coef[g].data() + L_, w.coef[g].data() + L_ + L_ * L_);
        }
    }
    const ChainModel& words = problem_.test ? *problem_.test : *model_;
    snap->labels = L_;
    snap->features = d_;
    snap->transitions = true;
    snap->labelNames = model_->data().labelNames;
    snap->lambda = options_.lambda;
    snap->w = std::move(chain);
    snap->words = words.dataPtr();
    // The lattices of the first words, scored by the whole model (all groups).
    const int count = std::min(kLatticeWords, words.size());
    const int tokens = count > 0 ? words.data().first(count - 1) + words.length(count - 1) : 0;
    Eigen::MatrixXd unary(tokens, L_);
    if (tokens > 0) {
        const Scorer scorer(*this, w);
        scorer.score(words.data(), 0, tokens, unary);
    }
    const double* transitions = trans.empty() ? nullptr : trans.data();
    ChainWorkspace ws;
    snap->lattices.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        WordLattice& lattice = snap->lattices[static_cast<std::size_t>(i)];
        lattice.word = i;
        lattice.scores = unary.middleRows(words.data().first(i), words.length(i));
        const std::span<const int> truth = words.truth(i);
        lattice.truth.assign(truth.begin(), truth.end());
        decodeRows(words.data(), i, unary, transitions, 0.0, lattice.decoded, ws);
        const double c = words.options().normalizeLoss ? 1.0 / words.length(i) : 1.0;
        decodeRows(words.data(), i, unary, transitions, c, lattice.lossAugmented, ws);
    }
    snap->primal = last_.objective;
    snap->dual = kNaN;
    snap->gap = kNaN;
    snap->passes = epochs_ + static_cast<double>(next_) / std::max(1, model_->size());
    snap->errors = last_.errors;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        snap->groupNames.push_back(groups_[g].name);
        snap->groupNorms.push_back(std::sqrt(std::max(0.0, groups_[g].normSq)));
    }
    snap->proxBefore = proxBefore_;
    snap->proxAfter = prox_.shrunk;
    snap->proxThreshold = prox_.threshold;
    snap->regulariser = toString(regulariser_);
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
        return snap;
    }
    snap->executedLines = {kRepeat, kRound, kDecode, kGradient, kProx};
    if (options_.radius > 0) snap->executedLines.push_back(kProject);
    if (options_.averaging) snap->executedLines.push_back(kAverage);
    if (evaluatedLast_) snap->executedLines.push_back(kEvaluate);
    snap->executedLines.push_back(kUntil);
    if (status().code != StatusCode::Running) snap->executedLines.push_back(kReturn);
    return snap;
}

}  // namespace cplab
