// SPDX-License-Identifier: GPL-3.0-or-later
#include "slmc.h"

#include <LBFGS.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/number_text.h"
#include "xv_init.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "SlmcOptions";

enum Line { kInput, kInit, kEvaluate, kRepeat, kDirection, kLineSearch, kUpdate, kUntil, kReturn };

// The inner SMO was stopped by the cancel token in the middle of a line search.
struct CancelledInSearch {};

std::string innerFailure(const SlmcEvaluation& e) {
    return "the inner SVM stopped after " + std::to_string(e.smoSteps) +
           " SMO steps with KKT violation " + formatReal(e.kktViolation) +
           ", above its tolerance (inner_tolerance * max(1, C)); a larger inner_tolerance is "
           "reachable in double precision";
}

Eigen::VectorXd flatten(const Eigen::MatrixXd& M) {
    return Eigen::Map<const Eigen::VectorXd>(M.data(), M.size());
}

Eigen::MatrixXd unflatten(const Eigen::VectorXd& v, Eigen::Index rows, Eigen::Index cols) {
    return Eigen::Map<const Eigen::MatrixXd>(v.data(), rows, cols);
}

}  // namespace

// ---- SlmcOptions ----

void SlmcOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    v.text("kernel", kernel, "one kernel: linear, poly:d[,c] or gaussian:gamma");
    v.real("C", C, "box constraint of the SVM dual, 0 <= alpha_i <= C (> 0)");
    v.integer("expansion_vectors", expansion_vectors,
              "number N_z of expansion vectors (>= 1); 0: N_z from expansion_ratio");
    v.real("expansion_ratio", expansion_ratio,
           "N_z as a fraction of the full SVM's support vectors, in (0, 1] (given alone it "
           "replaces expansion_vectors; solves the full SVM first); 0: off");
    v.choice("init", init, {"random", "kmeans"},
             "initial expansion vectors: random distinct training points or k-means centres");
    v.seed("seed", seed, "seed of the random initialisation and of k-means++ (>= 0)");
    v.real("inner_tolerance", inner_tolerance,
           "KKT tolerance of the inner SVM solved at every W(Z) evaluation, times max(1, C) (> 0)");
    v.boolean("full_svm", full_svm,
              "solve the full SVM first: its dual is the lower bound, its SVs are shown");
    v.real("full_tolerance", full_tolerance, "KKT tolerance of the full SVM (> 0)");
    v.real("eigen_floor", eigen_floor,
           "eigenvalues of K^z are floored at eigen_floor * largest eigenvalue, in (0, 0.01]");
    v.integer("lbfgs_memory", lbfgs_memory, "correction pairs kept by L-BFGS, in [1, 100]");
    v.integer("max_line_search", max_line_search,
              "W(Z) evaluations allowed per line search, in [2, 100]");
    v.real("gradient_tolerance", gradient_tolerance,
           "converged when |grad W| <= gradient_tolerance * max(1, |W|) (>= 0)");
    v.real("decrease_tolerance", decrease_tolerance,
           "converged when one iteration lowers W by <= decrease_tolerance * max(1, |W|) (>= 0)");
    v.real("cache_mb", cache_mb, "kernel cache of the inner and full SVMs in MB (>= 1)");
}

bool SlmcOptions::isValid(std::string* why) const {
    if (!stop.isValid(kOwner, why)) return false;
    return validBudgetOptions(kOwner, kernel, C, expansion_vectors, expansion_ratio, why) &&
           requireText(init == "random" || init == "kmeans", kOwner, "init", init,
                       "must be random or kmeans", why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why) &&
           require(std::isfinite(inner_tolerance) && inner_tolerance > 0, kOwner, "inner_tolerance",
                   inner_tolerance, "must be a finite number > 0", why) &&
           require(std::isfinite(full_tolerance) && full_tolerance > 0, kOwner, "full_tolerance",
                   full_tolerance, "must be a finite number > 0", why) &&
           require(std::isfinite(eigen_floor) && eigen_floor > 0 && eigen_floor <= 0.01, kOwner,
                   "eigen_floor", eigen_floor, "must lie in (0, 0.01]", why) &&
           require(lbfgs_memory >= 1 && lbfgs_memory <= 100, kOwner, "lbfgs_memory", lbfgs_memory,
                   "must lie in [1, 100]", why) &&
           require(max_line_search >= 2 && max_line_search <= 100, kOwner, "max_line_search",
                   max_line_search, "must lie in [2, 100]", why) &&
           require(std::isfinite(gradient_tolerance) && gradient_tolerance >= 0, kOwner,
                   "gradient_tolerance", gradient_tolerance, "must be a finite number >= 0", why) &&
           require(std::isfinite(decrease_tolerance) && decrease_tolerance >= 0, kOwner,
                   "decrease_tolerance", decrease_tolerance, "must be a finite number >= 0", why) &&
           require(std::isfinite(cache_mb) && cache_mb >= 1, kOwner, "cache_mb", cache_mb,
                   "must be a finite number >= 1 (MB)", why);
}

// ---- SlmcSolver ----

SlmcSolver::SlmcSolver(const KernelProblem& problem, SlmcOptions options)
    : SparseSolver(options.stop), options_(std::move(options)) {
    if (!acceptOptions(options_) || !acceptProblem(problem, options_.kernel, kOwner)) return;
    SetupTimer timer(*this);
    try {
        objective_ = std::make_unique<SlmcObjective>(
            data_.problem.train, data_.spec,
            SlmcObjectiveOptions{options_.C, options_.inner_tolerance * std::max(1.0, options_.C),
                                 options_.eigen_floor, options_.cache_mb});
    } catch (const std::exception& e) {
        objective_.reset();
        reject(std::string(kOwner) + ": " + e.what());
        return;
    }

    // max_seconds counts the set-up: the full SVM and the first inner SVM poll its deadline.
    const Interrupt setUp = setUpInterrupt();
    // The full SVM (paper §5.2: N_z is a fraction of its SVs; its optimum bounds W below).
    const int nz = fullSvmFirst(options_, kOwner, setUp);
    const std::vector<int> candidates = nz > 0 ? distinctRows(objective_->X()) : std::vector<int>{};
    if (nz == 0 || !acceptExpansionCount(nz, candidates.size(), kOwner)) {
        objective_.reset();
        return;
    }
    const auto seed = static_cast<std::uint64_t>(options_.seed);
    const Eigen::MatrixXd Z0 = options_.init == "kmeans"
                                   ? kmeansExpansionVectors(objective_->X(), candidates, nz, seed)
                                   : randomExpansionVectors(objective_->X(), candidates, nz, seed);
    try {
        current_ = objective_->evaluate(Z0, nullptr, &setUp);
        if (!current_.converged && setUp.requested()) {
            // Cut by the deadline: SMO's last α is feasible, so (Z0, β, b) is a model whose
            // primal is the record's upper bound; the first step ends the run with it.
            noteSetUpCut("the inner SVM at the initial expansion vectors stopped after " +
                         std::to_string(current_.smoSteps) + " SMO steps with KKT violation " +
                         formatReal(current_.kktViolation));
        } else if (!current_.converged) {
            throw std::runtime_error(innerFailure(current_));
        }
    } catch (const std::exception& e) {
        objective_.reset();
        reject(std::string(kOwner) + ": W at the initial expansion vectors: " + e.what());
        return;
    }
    evaluations_ = 1;
    IterationRecord initial;
    fillRecord(initial, 0.0);
    setInitialRecord(initial);
    remember(0);
    lastLines_ = {kInput, kInit, kEvaluate};
}

SlmcSolver::~SlmcSolver() = default;

std::vector<std::string> SlmcSolver::extraColumns() const {
    return {"inner_dual",          "gradient_norm",     "step_length",
            "evaluations",         "expansion_vectors", "inner_support_vectors",
            "floored_eigenvalues", "train_error",       "test_error"};
}

std::vector<std::string> SlmcSolver::pseudocode() const {
    return {
        "input: data (x_i, y_i), kernel k, C, N_z",
        "Z <- N_z distinct training points (random) or k-means centres",
        "evaluate: K^z = V L V^T,  phi_z(x) = L^-1/2 V^T psi_z(x);  alpha <- linear SVM on "
        "phi_z;  W(Z) = its dual;  beta = (K^z)^-1 Psi Y alpha;  grad W (alpha fixed)",
        "repeat",
        "  d <- -H grad W   (L-BFGS two-loop recursion over the last m pairs (s, y))",
        "  t <- Wolfe line search on W(Z + t d)   (one SVM solve per trial, warm-started)",
        "  Z <- Z + t d;  store s = t d, y = grad W(Z_new) - grad W(Z_old)",
        "until |grad W| small or W stops decreasing",
        "return Z, beta, b:  f(x) = sum_u beta_u k(z_u, x) + b",
    };
}

Eigen::VectorXd SlmcSolver::direction(const Eigen::VectorXd& g) const {
    // Two-loop recursion (Nocedal & Wright, Alg. 7.4), H₀ = (sᵀy / yᵀy) I from the newest pair.
    Eigen::VectorXd q = g;
    const std::size_t m = s_.size();
    std::vector<double> a(m), rho(m);
    for (std::size_t k = m; k-- > 0;) {
        rho[k] = 1.0 / s_[k].dot(y_[k]);
        a[k] = rho[k] * s_[k].dot(q);
        q -= a[k] * y_[k];
    }
    if (m > 0) q *= s_.back().dot(y_.back()) / y_.back().squaredNorm();
    for (std::size_t k = 0; k < m; ++k) {
        const double b = rho[k] * y_[k].dot(q);
        q += (a[k] - b) * s_[k];
    }
    return -q;
}

SlmcSolver::SearchResult SlmcSolver::lineSearch(const Eigen::VectorXd& xp,
                                                const Eigen::VectorXd& gp, double fp) {
    const Eigen::Index rows = current_.Z.rows();
    const Eigen::Index cols = current_.Z.cols();
    LBFGSpp::LBFGSParam<double> param;
    param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_WOLFE;
    param.max_linesearch = options_.max_line_search;

    // Every trial point of the line search, with its step t along d.
    struct Trial {
        double t;
        SlmcEvaluation evaluation;
    };
    std::vector<Trial> trials;
    Eigen::VectorXd warm = current_.alpha;
    Eigen::VectorXd drt;
    // The user's cancel and the run's deadline, checked before every trial and polled by the
    // trial's SMO (an inner SVM warm-started on 20,000 examples takes seconds: the step ran
    // 19 s past max_seconds = 1).
    const Interrupt stop = stepInterrupt();
    const auto evaluate = [&](const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        if (stop.requested()) throw CancelledInSearch{};
        SlmcEvaluation e = objective_->evaluate(unflatten(x, rows, cols), &warm, &stop);
        ++evaluations_;
        if (!e.converged && stop.requested()) throw CancelledInSearch{};
        // SMO's step limit (LIBSVM's: max(10⁷, 100 n)) without reaching the tolerance: this W
        // is not accurate enough to compare, and the line search fails over to its fallback.
        if (!e.converged) throw std::runtime_error(innerFailure(e));
        warm = e.alpha;
        grad = flatten(e.gradient);
        const double value = e.value;
        trials.push_back({(x - xp).dot(drt) / drt.squaredNorm(), std::move(e)});
        return value;
    };

    SearchResult result;
    const SlmcEvaluation* accepted = nullptr;
    for (int attempt = 0; attempt < 2 && !accepted; ++attempt) {
        drt = direction(gp);
        if (!(gp.dot(drt) < 0)) {  // not a descent direction (lost curvature): steepest descent
            s_.clear();
            y_.clear();
            drt = -gp;
        }
        const bool steepest = s_.empty();
        double step = steepest ? 1.0 / drt.norm() : 1.0;
        Eigen::VectorXd x = xp;
        Eigen::VectorXd grad = gp;
        double fx = fp;
        trials.clear();
        try {
            LBFGSpp::LineSearchBracketing<double>::LineSearch(evaluate, fx, x, grad, step, drt, xp,
                                                              param);
            accepted = &trials.back().evaluation;
        } catch (const CancelledInSearch&) {
            result.end = SearchEnd::Cancelled;
            return result;
        } catch (const std::exception& e) {
            result.failure = e.what();
            // The best trial with Armijo's sufficient decrease, if any.
            const double slope = gp.dot(drt);
            for (const Trial& trial : trials) {
                if (trial.evaluation.value <= fp + param.ftol * trial.t * slope &&
                    (!accepted || trial.evaluation.value < accepted->value)) {
                    accepted = &trial.evaluation;
                }
            }
            if (!accepted && steepest) break;
            if (!accepted) {
                s_.clear();
                y_.clear();
            }
        }
    }
    if (accepted) {
        result.end = SearchEnd::Accepted;
        result.accepted = *accepted;
    }
    return result;
}

void SlmcSolver::rememberPair(const Eigen::VectorXd& s, const Eigen::VectorXd& y) {
    // The Wolfe conditions give sᵀy > 0; a pair without positive curvature (possible after
    // the Armijo-only fallback) would break H's positive definiteness and is skipped.
    if (!(s.dot(y) > 1e-12 * s.norm() * y.norm())) return;
    s_.push_back(s);
    y_.push_back(y);
    while (static_cast<int>(s_.size()) > options_.lbfgs_memory) {
        s_.pop_front();
        y_.pop_front();
    }
}

Status SlmcSolver::convergence(int iteration, double previousValue) {
    const double scale = std::max(1.0, std::abs(current_.value));
    const double newNorm = current_.gradient.norm();
    if (newNorm <= options_.gradient_tolerance * scale) {
        lastLines_.push_back(kReturn);
        return Status::make(StatusCode::Converged,
                            "|grad W| = " + formatReal(newNorm) +
                                " <= gradient_tolerance * max(1, |W|) after " +
                                std::to_string(iteration) + " iterations");
    }
    if (previousValue - current_.value <= options_.decrease_tolerance * scale) {
        lastLines_.push_back(kReturn);
        return Status::make(StatusCode::Converged,
                            "W decreased by " + formatReal(previousValue - current_.value) +
                                " <= decrease_tolerance * max(1, |W|) after " +
                                std::to_string(iteration) + " iterations");
    }
    return Status::running();
}

Status SlmcSolver::doStep(IterationRecord& record) {
    if (!setUpCut().empty()) {
        lastLines_ = {kInput, kInit, kEvaluate};
        return endCutSetUp(record,
                           "the model is (Z, beta, b) at the initial expansion vectors from "
                           "SMO's last alpha, the upper bound its primal");
    }
    const Eigen::VectorXd xp = flatten(current_.Z);
    const Eigen::VectorXd gp = flatten(current_.gradient);
    const double fp = current_.value;
    const double gnorm = gp.norm();
    if (gnorm == 0.0) {
        fillRecord(record, 0.0);
        lastLines_ = {kRepeat, kUntil, kReturn};
        return Status::make(StatusCode::Converged, "the gradient of W is exactly 0");
    }
    SearchResult found = lineSearch(xp, gp, fp);
    if (found.end == SearchEnd::Cancelled) {
        // Stay at the current Z; the base class ends the run as cancelled, or by its time
        // limit (the step's seconds are past it).
        fillRecord(record, 0.0);
        lastLines_ = {kRepeat, kDirection, kLineSearch};
        return Status::running();
    }
    if (found.end == SearchEnd::Failed) {
        fillRecord(record, 0.0);
        lastLines_ = {kRepeat, kDirection, kLineSearch, kUntil, kReturn};
        return Status::make(
            StatusCode::Stalled,
            "the line search along -grad W found no point of sufficient decrease (" +
                found.failure + "; |grad W| = " + formatReal(gnorm) + ", W = " + formatReal(fp) +
                "): W is not smooth there (the inner SVM's support set changes) or its accuracy "
                "(inner_tolerance) is exhausted");
    }
    const Eigen::VectorXd s = flatten(found.accepted.Z) - xp;
    rememberPair(s, flatten(found.accepted.gradient) - gp);
    noteMoves(current_.Z, found.accepted.Z);
    current_ = std::move(found.accepted);
    fillRecord(record, s.norm());
    remember(record.iteration);
    lastLines_ = {kRepeat, kDirection, kLineSearch, kUpdate, kUntil};
    return convergence(record.iteration, fp);
}

void SlmcSolver::noteMoves(const Eigen::MatrixXd& before, const Eigen::MatrixXd& after) {
    if (before.rows() == 0 || before.rows() != after.rows() || before.cols() != after.cols())
        return;
    const Eigen::VectorXd moves = (after - before).rowwise().norm();
    Eigen::Index most = 0;
    const double largest = moves.maxCoeff(&most);
    if (!(largest > 0)) return;
    noteEvent(ExpansionVectorMoved, "expansion vector " + std::to_string(most + 1) + " of " +
                                        std::to_string(moves.size()) + " moved most (" +
                                        formatShort(largest) + "; mean " +
                                        formatShort(moves.mean()) + ")");
}

double SlmcSolver::testError() const {
    if (!data_.problem.test) return -1.0;
    const Eigen::VectorXd scores =
        (objective_->kernel().values(current_.Z, data_.testX).transpose() * current_.beta).array() +
        current_.bias;
    return signErrorRate(scores, data_.problem.test->labels);
}

void SlmcSolver::fillRecord(IterationRecord& record, double stepLength) {
    record.oracleCalls = evaluations_;
    record.upper = current_.primal;
    record.lower = fullSolved_ ? full_.dualObjective : 0.0;
    lastTestError_ = testError();
    record.extra = {current_.value,
                    current_.gradient.norm(),
                    stepLength,
                    static_cast<double>(evaluations_),
                    static_cast<double>(current_.Z.rows()),
                    static_cast<double>(current_.supportVectors),
                    static_cast<double>(current_.flooredEigenvalues),
                    signErrorRate(current_.trainScores, data_.problem.train->labels),
                    lastTestError_};
}

bool SlmcSolver::warmStartFrom(const SlmcSolver& previous, const std::vector<int>& previousIndex,
                               std::string* why) {
    auto fail = [why](const std::string& text) {
        if (why) *why = text;
        return false;
    };
    if (!valid() || !previous.valid()) return fail("a run was refused");
    if (iteration() != 0) return fail("the new run has already taken a step");
    if (previousIndex.size() != static_cast<std::size_t>(objective_->examples()))
        return fail("the example correspondence does not fit the training set");
    const Eigen::MatrixXd& Z = previous.current_.Z;
    if (Z.cols() != objective_->dimension()) {
        return fail("the points have " + std::to_string(objective_->dimension()) +
                    " features now, " + std::to_string(Z.cols()) + " before");
    }
    if (Z.rows() != current_.Z.rows()) {
        return fail(std::to_string(current_.Z.rows()) + " expansion vectors now, " +
                    std::to_string(Z.rows()) + " before");
    }
    SetupTimer timer(*this);
    const Eigen::VectorXd alpha =
        carriedAlpha(previous.current_.alpha, previousIndex, objective_->y(), options_.C);
    SlmcEvaluation warm;
    try {
        warm = objective_->evaluate(Z, &alpha);
        if (!warm.converged) throw std::runtime_error(innerFailure(warm));
    } catch (const std::exception& e) {
        return fail(std::string("W at the previous expansion vectors: ") + e.what());
    }
    current_ = std::move(warm);
    ++evaluations_;
    s_.clear();
    y_.clear();
    trail_.reset();
    remember(0);
    IterationRecord initial;
    fillRecord(initial, 0.0);
    setInitialRecord(initial);
    if (why) {
        *why = "keeps the " + std::to_string(Z.rows()) +
               " expansion vectors and alpha of the surviving examples";
    }
    return true;
}

void SlmcSolver::remember(int iteration) {
    if (!trail_) {
        const long long perEntry = std::max<long long>(1, current_.Z.size());
        trail_ = std::make_unique<XvTrail>(static_cast<std::size_t>(
            std::max<long long>(2, std::min<long long>(kMaxTrail, kTrailBudget / perEntry))));
    }
    trail_->add(iteration, current_.Z);
}

KernelClassifier SlmcSolver::classifier() const {
    if (!valid()) return {};
    return sparseClassifier(data_.spec, current_.Z, current_.beta, current_.bias, data_.classes);
}

SummaryFields SlmcSolver::summary() const {
    if (!valid()) return {};
    const IterationRecord& last = lastRecord();
    SummaryFields fields = {
        {"objective", last.upper},
        {"inner_dual", current_.value},
        {"expansion_vectors", static_cast<long long>(current_.Z.rows())},
        {"train_error", signErrorRate(current_.trainScores, data_.problem.train->labels)}};
    if (data_.problem.test) fields.emplace_back("test_error", lastTestError_);
    fields.emplace_back("gradient_norm", current_.gradient.norm());
    fields.emplace_back("evaluations", evaluations_);
    addSummaryTail(fields, options_.C, options_.kernel);
    return fields;
}

SnapshotPtr SlmcSolver::snapshot() const {
    auto snapshot = std::make_shared<SparseSnapshot>();
    fillSnapshot(*snapshot);
    if (!valid()) return snapshot;
    snapshot->executedLines = lastLines_;
    fillModel(*snapshot, {current_.Z, current_.beta, current_.bias,
                          signErrorRate(current_.trainScores, data_.problem.train->labels),
                          lastTestError_, objective_->dimension() == 2});
    snapshot->gradientNorm = current_.gradient.norm();
    snapshot->trail = trail_->entries();
    snapshot->trailIterations = trail_->iterations();
    return snapshot;
}

}  // namespace cplab
