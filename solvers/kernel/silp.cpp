// SPDX-License-Identifier: GPL-3.0-or-later
#include "silp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/number_text.h"
#include "level_projection.h"
#include "mkl_master.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "SilpOptions";
constexpr const char* kInterleavedOwner = "InterleavedSilpOptions";
constexpr double kInf = std::numeric_limits<double>::infinity();

// The lines of both pseudocodes (exact and interleaved: kSvm is the SMO chunk, kBest the
// upper bound).
enum Line { kInput, kInit, kRepeat, kSvm, kPlane, kBest, kLp, kUntil, kReturn };

}  // namespace

struct SilpSolver::State {
    State(KernelSet& kernels, const Eigen::VectorXd& y, const Eigen::VectorXd& beta0,
          double cacheMb, const SmoOptions& smoOptions, int K)
        : q(kernels, y, beta0, cacheMb), smo(q, smoOptions), lp(K), beta(beta0) {}

    KernelQ q;
    Smo smo;
    MklMasterLp lp;
    Eigen::VectorXd beta;         // β_t: where the next SVM is solved
    Eigen::VectorXd lpBeta;       // the LP's last minimiser (β_t itself unless master=level)
    Eigen::VectorXd levelLambda;  // master=level: the projection's multipliers (warm start)
    Eigen::VectorXd levelNorm;    // and its power iteration's vector for ‖S‖₂ (warm start)

    // The newest SVM solution, and the β it was computed at (interleaved: β_t, before the LP
    // moves β; its classifier is (alpha, bias, alphaBeta)).
    Eigen::VectorXd alpha;
    double bias = 0.0;
    Eigen::VectorXd alphaBeta;
    double violation = 0.0;
    // The best βᵢ so far (min D) and its solution: the classifier.
    double bestD = kInf;
    Eigen::VectorXd bestBeta, bestAlpha;
    double bestBias = 0.0;
    Eigen::VectorXd bestScores;  // f(xᵢ) of the best classifier on the training set
    double theta = 0.0;          // θ_t (0, the trivial bound, before the first plane)
    // Interleaved: the SMO's Q holds β_t (else setWeights and a new gradient come first); the
    // least upper bound seen (primal values, converged duals); whether the last step's plane
    // went into the LP.
    bool qHoldsBeta = false;
    double upper = kInf;
    bool lpRan = false;
    double levelFraction = kLevelFraction;  // λ (master=level), adapted after each plane

    // The products Kₖ Yα of the last plane for the kernels of its β (mklPlane), while α has
    // not moved since: SMO's gradient at the next β is formed from them.
    std::vector<Eigen::VectorXd> products;
    bool productsValid = false;

    std::vector<Eigen::VectorXd> planes, betaIterates;
    std::vector<double> dValues;
    std::vector<Eigen::VectorXd> planeAlphas;  // the α of each plane of planes (warm starts)

    bool hasBest() const { return bestD < kInf; }
    // The plane of α (at β_t): with the products of β_t's kernels kept for the next refresh.
    Eigen::VectorXd planeOf(KernelSet& kernels) {
        if (kernels.pairMajor()) {
            // Pair by pair, the products cost as much as the rows of Q they would save: SMO's
            // gradient comes from those rows (KernelQ::multiply), which it then reads again.
            productsValid = false;
            return mklPlane(kernels, alpha);
        }
        std::vector<char> wanted(static_cast<std::size_t>(beta.size()));
        for (Eigen::Index k = 0; k < beta.size(); ++k)
            wanted[static_cast<std::size_t>(k)] = beta[k] > 0.0;
        Eigen::VectorXd S = mklPlane(kernels, alpha, &wanted, &products);
        productsValid = true;
        return S;
    }
    // Q holds β_t (new weights): SMO's gradient at the same α. Qα = Y Σₖ βₖ Kₖ Yα from the
    // plane's products where it has them (a kernel that enters β is multiplied now); without
    // them (α moved since the plane) SMO forms Qα itself.
    void refresh(KernelSet& kernels) {
        q.setWeights(beta);
        if (!productsValid) {
            smo.refreshGradient();
            return;
        }
        productsValid = false;
        const Eigen::VectorXd& y = q.labels();
        const Eigen::VectorXd v = alpha.cwiseProduct(y);
        std::vector<int> support;
        for (Eigen::Index i = 0; i < v.size(); ++i)
            if (v[i] != 0.0) support.push_back(static_cast<int>(i));
        Eigen::VectorXd Kv = Eigen::VectorXd::Zero(v.size());
        for (Eigen::Index k = 0; k < beta.size(); ++k) {
            if (beta[k] == 0.0) continue;
            Eigen::VectorXd& product = products[static_cast<std::size_t>(k)];
            if (product.size() == 0) {
                product = Eigen::VectorXd::Zero(v.size());
                kernels.addProduct(static_cast<int>(k), 1.0, v, support, product.data());
            }
            Kv += beta[k] * product;
        }
        smo.refreshGradient(y.cwiseProduct(Kv));
    }
    // A solved SVM at β_t with dual value D: the best so far when D is the least.
    void noteSolution(double D) {
        if (D >= bestD) return;
        bestD = D;
        bestBeta = beta;
        bestAlpha = alpha;
        bestBias = bias;
        bestScores = smo.trainScores();
    }
};

namespace {

constexpr const char* kMasterHelp =
    "where the next beta comes from: lp (the LP's minimiser, Kelley's method) or level "
    "(projection onto a level set of the planes, Xu et al. 2008)";

bool masterValid(const std::string& master, const char* owner, std::string* why) {
    if (master == "lp" || master == "level") return true;
    if (why) *why = std::string(owner) + ": master = '" + master + "' must be lp or level";
    return false;
}

// The planes' coefficients are about C times the number of support vectors; below about 1e-14
// Clp's feasibility tolerance takes them for 0, θ stays 0 and the gap never closes (C = 1e-15
// on four examples ran to the iteration limit with U = 4e-15, L = 0; 1e-12 converges).
constexpr double kMinSilpC = 1e-12;

bool silpCValid(double C, const char* owner, std::string* why) {
    return require(C >= kMinSilpC, owner, "C", C,
                   "must be >= 1e-12 (smaller planes are below the master LP's tolerance)", why);
}

}  // namespace

void SilpOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    kernel.visit(v, "kernels",
                 "kernel list, e.g. gaussian:0.1,1,10;poly:2;linear or gaussian:1@each_feature");
    v.choice("master", master, {"lp", "level"}, kMasterHelp);
}

bool SilpOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && kernel.isValid(kOwner, why) &&
           masterValid(master, kOwner, why) && silpCValid(kernel.C, kOwner, why);
}

SilpSolver::SilpSolver(const KernelProblem& problem, SilpOptions options)
    : SilpSolver(problem, std::move(options), 0) {}

SilpSolver::SilpSolver(const KernelProblem& problem, SilpOptions options, int chunkSteps)
    : KernelSvmSolver(problem, options.kernel, options.stop,
                      chunkSteps > 0 ? kInterleavedOwner : kOwner, /*singleKernel=*/false),
      silpOptions_(std::move(options)),
      chunkSteps_(chunkSteps) {
    if (!valid()) return;
    std::string why;
    const char* owner = chunkSteps > 0 ? kInterleavedOwner : kOwner;
    if (!masterValid(silpOptions_.master, owner, &why) ||
        !silpCValid(silpOptions_.kernel.C, owner, &why)) {
        reject(why);
        return;
    }
    SetupTimer timer(*this);
    const int K = kernels_->kernels();
    const Eigen::VectorXd beta0 = Eigen::VectorXd::Constant(K, 1.0 / K);
    try {
        state_ = std::make_unique<State>(
            *kernels_, problem_.train->labels, beta0,
            mklQCacheMb(options_.cache_mb, kernels_->examples()),
            SmoOptions{options_.C, options_.kkt_tolerance, options_.shrinking}, K);
    } catch (const std::exception& e) {
        state_.reset();
        kernels_.reset();
        reject(std::string(kOwner) + ": " + e.what());
        return;
    }
    state_->alpha = Eigen::VectorXd::Zero(problem_.train->size());
    state_->lpBeta = beta0;
    state_->bestBeta = beta0;
    state_->bestAlpha = state_->alpha;
    IterationRecord initial;
    initial.upper = kInf;  // no D(β) known yet
    initial.lower = 0.0;   // D ≥ D(α = 0) = 0 everywhere
    initial.extra = commonExtras(0.0, std::numeric_limits<double>::quiet_NaN());
    setInitialRecord(initial);
}

SilpSolver::~SilpSolver() = default;

std::vector<std::string> SilpSolver::pseudocode() const {
    std::vector<std::string> lines = chunkSteps_ > 0 ? interleavedPseudocode() : exactPseudocode();
    if (levelMaster()) {
        lines[kInit] += ";  lambda = " + formatShort(kLevelFraction) + " in [" +
                        formatShort(kLevelFraction) + ", " + formatShort(kLevelFractionMax) +
                        "]: 1 - lambda times " + formatShort(kLevelOvershoot) +
                        " after a plane with D_t > U, " + formatShort(kLevelNewBest) +
                        " after a new best D_t";
        lines[kLp] = std::string(chunkSteps_ > 0 ? "  if D_t > max(level, theta + gap/2) or SMO "
                                                   "converged: add the plane;  theta <- LP"
                                                 : "  add theta >= sum_k beta_k S_k;  theta_t <- "
                                                   "LP (dual simplex, warm)") +
                     ";  level <- theta + lambda (U - theta);  beta_t+1 <- projection of beta_t "
                     "onto {beta in simplex: every plane <= level}  (QP, level method)";
    }
    return lines;
}

std::vector<std::string> SilpSolver::interleavedPseudocode() {
    return {
        "input: kernels K_1..K_K, C, labels y, tolerance tol_rel, chunk (SMO updates)",
        "beta_0 <- (1/K, ..., 1/K);  alpha <- 0;  U <- inf;  master LP: min theta",
        "repeat",
        "  alpha <- one chunk of SMO updates at beta_t, from alpha  (feasible, not optimal)",
        "  S_k <- sum(alpha) - 1/2 alpha' Y K_k Y alpha;  D_t <- sum_k beta_t,k S_k  (<= "
        "D(beta_t))",
        "  U <- min(U, primal(alpha, b));  if SMO converged: U <- min(U, D_t)",
        "  if D_t - theta > gap/2 or SMO converged: add theta >= sum_k beta_k S_k;  "
        "(beta_t+1, theta) <- LP",
        "until U - theta <= tol_rel U",
        "return the best beta, its alpha, b",
    };
}

std::vector<std::string> SilpSolver::exactPseudocode() {
    return {
        "input: kernels K_1..K_K, C, labels y, tolerance tol_rel",
        "beta_0 <- (1/K, ..., 1/K);  U <- inf;  master LP: min theta, beta in simplex",
        "repeat",
        "  alpha_t <- SVM(sum_k beta_t,k K_k)       (SMO, warm start);  D_t <- D(alpha_t)",
        "  S_k <- sum(alpha_t) - 1/2 alpha_t' Y K_k Y alpha_t  for every k   (the plane)",
        "  U <- min(U, D_t)                          (remember the best beta and alpha)",
        "  add theta >= sum_k beta_k S_k;  (beta_t+1, theta_t) <- LP (dual simplex, warm)",
        "until 1 - theta_t / U <= tol_rel",
        "return the best beta, its alpha, b averaged over the free SVs",
    };
}

Status SilpSolver::doStep(IterationRecord& record) {
    return chunkSteps_ > 0 ? interleavedStep(record) : exactStep(record);
}

Status SilpSolver::exactStep(IterationRecord& record) {
    State& s = *state_;
    // 1. The SVM at β_t, warm-started from the previous α.
    s.refresh(*kernels_);
    s.productsValid = false;  // α moves
    // SMO polls the user's cancel and the run's deadline; the first SVM (before it there is no
    // classifier to save and no bound to report: U was NaN, the saved model the zero one) is
    // the run's first iteration, which a time limit lets end.
    const Interrupt stop = s.hasBest() ? stepInterrupt() : Interrupt(cancelToken());
    const SmoProgress progress = s.smo.run(0, stop);
    ++svmCalls_;
    smoIterations_ += progress.steps;
    record.oracleCalls = svmCalls_;
    if (!progress.converged) {
        record.extra = previousExtrasWithCounts();  // nothing changed but the counts
        const std::string call = " during SVM call " + std::to_string(svmCalls_);
        if (stop.timedOut() && !stop.cancelled()) {
            return Status::make(StatusCode::TimeLimit,
                                "reached max_seconds = " + formatReal(stopOptions().max_seconds) +
                                    call + " (the last plane's bounds stay)");
        }
        return Status::make(StatusCode::Cancelled, "stopped by the user" + call);
    }
    const double D = s.smo.dualObjective();
    s.alpha = s.smo.alpha();
    s.bias = s.smo.bias();
    s.violation = progress.maxViolation;
    if (levelMaster() && !s.planes.empty()) adaptLevelFraction(true, D, s.bestD);
    s.noteSolution(D);

    // 2. The plane θ ≥ Σₖ βₖ S_k(α_t), 3. the master LP.
    const Status status = planeAdded(record, s.planeOf(*kernels_), D);
    if (status.code != StatusCode::Running) return status;
    record.upper = s.bestD;
    // θ_t ≤ min D; at an exact optimum (a vertex) rounding may put it a hair above U.
    record.lower = std::min(s.theta, s.bestD);
    record.extra = commonExtras(D, s.violation, &s.bestScores);
    return Status::running();
}

Status SilpSolver::interleavedStep(IterationRecord& record) {
    State& s = *state_;
    if (!s.qHoldsBeta) {
        s.refresh(*kernels_);
        s.qHoldsBeta = true;
    }
    // 1. One chunk of SMO at β_t, from where the last one stopped.
    s.productsValid = false;  // α moves
    const SmoProgress progress = s.smo.run(chunkSteps_, &cancelToken());
    ++svmCalls_;
    smoIterations_ += progress.steps;
    record.oracleCalls = svmCalls_;
    if (!progress.converged && cancelToken().cancelled()) {
        record.extra = previousExtrasWithCounts();
        return Status::make(StatusCode::Cancelled,
                            "stopped by the user during SMO chunk " + std::to_string(svmCalls_));
    }
    s.alpha = s.smo.alpha();
    s.bias = s.smo.bias();
    s.alphaBeta = s.beta;
    s.violation = progress.maxViolation;
    // 2. The plane of this feasible α: below D everywhere (silp.h); its height at β_t.
    const Eigen::VectorXd S = s.planeOf(*kernels_);
    const double D = s.beta.dot(S);
    const double upperBefore = s.upper;
    // 3. Upper bounds: any (α, b) gives a primal value ≥ D(β_t) ≥ min D.
    s.upper = std::min(s.upper, s.smo.primalObjective());
    if (progress.converged) {
        s.upper = std::min(s.upper, D);
        s.noteSolution(D);
    }
    // 4. The LP, when the plane cuts (or the SVM at β_t is solved: its plane is exact).
    const double cut = std::max(levelMaster() ? levelValue() : s.theta,
                                s.theta + 0.5 * stopOptions().gapTolerance(D));
    s.lpRan = s.planes.empty() || progress.converged || D > cut;
    if (s.lpRan && levelMaster()) adaptLevelFraction(progress.converged, D, upperBefore);
    if (s.lpRan) {
        const Eigen::VectorXd before = s.beta;
        const Status status = planeAdded(record, S, D);
        if (status.code != StatusCode::Running) return status;
        s.qHoldsBeta = s.beta == before;
    }
    record.upper = s.upper;
    record.lower = std::min(s.theta, s.upper);
    const Eigen::VectorXd current = s.smo.trainScores();
    record.extra = commonExtras(D, s.violation, s.hasBest() ? &s.bestScores : &current);
    return Status::running();
}

Status SilpSolver::planeAdded(IterationRecord& record, const Eigen::VectorXd& S, double D) {
    State& s = *state_;
    s.planes.push_back(S);
    s.betaIterates.push_back(s.beta);
    s.dValues.push_back(D);
    s.planeAlphas.push_back(s.alpha);
    s.lp.addPlane(S);
    if (!s.lp.solve()) {
        record.extra = previousExtrasWithCounts();
        return Status::make(StatusCode::NumericalFailure, "the master LP failed after " +
                                                              std::to_string(s.planes.size()) +
                                                              " planes: " + s.lp.message());
    }
    const Eigen::VectorXd previous = s.beta;
    s.theta = s.lp.theta();
    s.lpBeta = s.lp.beta();
    s.beta = nextBeta(s.lpBeta);
    // Interleaved, the plane's height at β_t bounds D(β_t) from below (an unfinished SVM).
    const char* height = chunkSteps_ > 0 ? " added: D_beta_t(alpha) = " : " added: D(beta_t) = ";
    noteEvent(PlaneAdded, "plane " + std::to_string(s.planes.size()) + height + formatShort(D) +
                              ", theta = " + formatShort(s.theta));
    noteKernelChanges(previous, s.beta);
    return Status::running();
}

double SilpSolver::levelValue() const {
    const State& s = *state_;
    const double upper = chunkSteps_ > 0 ? s.upper : s.bestD;
    if (!(upper < kInf) || upper <= s.theta) return s.theta;
    return s.theta + s.levelFraction * (upper - s.theta);
}

void SilpSolver::adaptLevelFraction(bool converged, double D, double upperBefore) {
    State& s = *state_;
    if (!(upperBefore < kInf)) return;
    double rest = 1.0 - s.levelFraction;  // ℓ = U − rest (U − θ)
    if (D > upperBefore) {
        rest *= kLevelOvershoot;  // β_t is worse than the best point: smaller steps
    } else if (converged) {
        rest *= kLevelNewBest;  // D(β_t) < U: a new best point, larger steps
    }
    s.levelFraction = std::clamp(1.0 - rest, kLevelFraction, kLevelFractionMax);
}

double SilpSolver::levelFraction() const {
    return state_ ? state_->levelFraction : kLevelFraction;
}

Eigen::VectorXd SilpSolver::nextBeta(const Eigen::VectorXd& lpBeta) {
    State& s = *state_;
    if (!levelMaster()) return lpBeta;
    const double level = levelValue();
    if (!(level > s.theta)) return lpBeta;
    const LevelProjection p = projectOntoLevelSet(s.planes, s.beta, level, lpBeta, s.levelLambda,
                                                  kLevelProjectionSteps, &s.levelNorm);
    s.levelLambda = p.lambda;
    return p.beta;
}

KernelClassifier SilpSolver::classifier() const {
    const State& s = *state_;
    // Interleaved, before any SMO chunk converged: the newest SMO iterate with the β it was
    // computed at (the LP has moved β since: that β and this α are no classifier, and the
    // training error reported is this one's).
    if (chunkSteps_ > 0 && !s.hasBest())
        return makeClassifier(s.alpha, s.bias, s.alphaBeta.size() ? s.alphaBeta : s.beta);
    return makeClassifier(s.bestAlpha, s.bestBias, s.bestBeta);
}

Eigen::VectorXd SilpSolver::weights() const {
    if (!state_) return Eigen::VectorXd();
    const State& s = *state_;
    if (chunkSteps_ > 0 && !s.hasBest()) return s.alphaBeta.size() ? s.alphaBeta : s.beta;
    return s.bestBeta;
}

const std::vector<Eigen::VectorXd>& SilpSolver::planes() const {
    static const std::vector<Eigen::VectorXd> none;
    return state_ ? state_->planes : none;
}

const std::vector<Eigen::VectorXd>& SilpSolver::betaIterates() const {
    static const std::vector<Eigen::VectorXd> none;
    return state_ ? state_->betaIterates : none;
}

bool SilpSolver::warmStart(const SilpSolver& previous, std::string* why) {
    auto fail = [why](const std::string& text) {
        if (why) *why = std::string(kOwner) + ": warm start: " + text;
        return false;
    };
    if (!valid() || !previous.valid()) return fail("a run was refused");
    if (iteration() != 0) return fail("this run has already taken a step");
    const State& p = *previous.state_;
    State& s = *state_;
    const int K = kernels_->kernels();
    const Eigen::Index n = s.alpha.size();
    bool same = previous.kernels_->kernels() == K && p.bestAlpha.size() == n &&
                previous.problem().train->labels == problem_.train->labels &&
                previous.specs().size() == specs().size() &&
                previous.options_.normalize == options_.normalize;
    for (std::size_t k = 0; same && k < specs().size(); ++k)
        same = previous.specs()[k].label() == specs()[k].label();
    if (!same) {
        return fail("the previous run has other kernels or another training set");
    }
    if (previous.options_.C > options_.C) {
        return fail("the previous run's C = " + formatReal(previous.options_.C) +
                    " is larger than C = " + formatReal(options_.C));
    }
    if (p.planes.empty()) return fail("the previous run has no SVM solution yet");
    try {
        s.smo.setAlpha(p.bestAlpha);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    s.alpha = p.bestAlpha;
    s.beta = p.bestBeta;
    s.bestBeta = p.bestBeta;
    s.bestAlpha = p.bestAlpha;
    for (const Eigen::VectorXd& S : p.planes)
        s.lp.addPlane(S);
    s.planeAlphas = p.planeAlphas;
    return true;
}

bool SilpSolver::warmStartFrom(const SilpSolver& previous, const std::vector<int>& previousIndex,
                               std::string* why) {
    if (!warmCompatible(previous, previousIndex, why)) return false;
    const State& p = *previous.state_;
    if (p.planes.empty()) {
        if (why) *why = "the previous run has no SVM solution yet";
        return false;
    }
    SetupTimer timer(*this);
    State& s = *state_;
    const Eigen::VectorXd& y = problem_.train->labels;
    const Eigen::VectorXd alpha = carriedAlpha(p.bestAlpha, previousIndex, y, options_.C);
    try {
        s.q.setWeights(p.bestBeta);
        startFromBestMultiple(s.smo, alpha);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        s.q.setWeights(s.beta);
        return false;
    }
    s.alpha = s.bestAlpha = s.smo.alpha();
    s.beta = s.bestBeta = p.bestBeta;
    for (const Eigen::VectorXd& planeAlpha : p.planeAlphas) {
        Eigen::VectorXd carried = carriedAlpha(planeAlpha, previousIndex, y, options_.C);
        s.lp.addPlane(mklPlane(*kernels_, carried));
        s.planeAlphas.push_back(std::move(carried));
    }
    if (why) {
        *why = "keeps beta and " + std::to_string(p.planeAlphas.size()) +
               " LP rows, retaken on the edited data from their alpha carried over";
    }
    return true;
}

SnapshotPtr SilpSolver::snapshot() const {
    auto snapshot = std::make_shared<KernelSnapshot>();
    fillKernelSnapshot(*snapshot);
    if (!valid()) return snapshot;
    const State& s = *state_;
    // α of the newest SVM (the classifier is the best one's).
    snapshot->alpha = s.alpha;
    snapshot->planes = s.planes;
    snapshot->betaIterates = s.betaIterates;
    snapshot->dValues = s.dValues;
    if (!s.planes.empty()) snapshot->lpMinimiser = s.lpBeta;
    snapshot->theta = s.theta;
    if (iteration() == 0) {
        snapshot->executedLines = {kInput, kInit};
    } else {
        snapshot->executedLines = {kRepeat, kSvm, kPlane, kBest};
        if (chunkSteps_ == 0 || s.lpRan) snapshot->executedLines.push_back(kLp);
        snapshot->executedLines.push_back(kUntil);
        if (status().code == StatusCode::Converged) snapshot->executedLines.push_back(kReturn);
    }
    return snapshot;
}

// ---- silp_interleaved ----

void InterleavedSilpOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    kernel.visit(v, "kernels",
                 "kernel list, e.g. gaussian:0.1,1,10;poly:2;linear or gaussian:1@each_feature");
    v.integer("chunk_steps", chunk_steps,
              "SMO pair updates per step, between two LP updates of beta (>= 0; 0: m/2, at least "
              "50)");
    v.choice("master", master, {"lp", "level"}, kMasterHelp);
}

bool InterleavedSilpOptions::isValid(std::string* why) const {
    return stop.isValid(kInterleavedOwner, why) && kernel.isValid(kInterleavedOwner, why) &&
           require(chunk_steps >= 0, kInterleavedOwner, "chunk_steps", chunk_steps, "must be >= 0",
                   why) &&
           masterValid(master, kInterleavedOwner, why) &&
           silpCValid(kernel.C, kInterleavedOwner, why);
}

namespace {

SilpOptions silpPart(const InterleavedSilpOptions& options) {
    SilpOptions silp;
    silp.stop = options.stop;
    silp.kernel = options.kernel;
    silp.master = options.master;
    return silp;
}

int chunkFor(const InterleavedSilpOptions& options, const KernelProblem& problem) {
    if (options.chunk_steps > 0) return options.chunk_steps;
    const int m = problem.train ? problem.train->size() : 0;
    return std::max(50, m / 2);
}

}  // namespace

InterleavedSilpSolver::InterleavedSilpSolver(const KernelProblem& problem,
                                             InterleavedSilpOptions options)
    : SilpSolver(problem, silpPart(options), chunkFor(options, problem)) {
    acceptOptions(options);
}

}  // namespace cplab
