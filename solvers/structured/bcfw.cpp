// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/bcfw.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>

#include "core/memory_budget.h"
#include "core/worker_team.h"
#include "structured/oracle_pass.h"
#include "structured/sampling_pass.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "BcfwOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The block vectors may take at most this many doubles (4 GB): beyond, the solver refuses the
// problem with a message instead of failing to allocate.
constexpr long long kMaxBlockEntries = 1LL << 26;  // 512 MB of block vectors

// Pseudocode line numbers (see BcfwSolver::pseudocode()).
enum Line {
    kInput,
    kInit,
    kRepeat,
    kOrder,
    kOracle,
    kCorner,
    kGap,
    kStep,
    kUpdate,
    kBounds,
    kUntil,
    kReturn
};

// Why the n × D block vectors of `model` cannot be held ("" when they can).
std::string blockMemoryLimit(const ChainModel& model) {
    const int n = model.size();
    const int D = model.dimension();
    if (static_cast<long long>(n) * D > kMaxBlockEntries) {
        return "BcfwSolver: " + std::to_string(n) + " examples x " + std::to_string(D) +
               " weights need " + std::to_string(static_cast<long long>(n) * D * 8 >> 20) +
               " MB of block vectors, more than the " + std::to_string(kMaxBlockEntries * 8 >> 20) +
               " MB allowed";
    }
    if (const std::string shortfall = memoryShortfall(
            8.0 * n * D, sizeProduct({{double(n), "examples"}, {double(D), "weights"}}) +
                             " block vectors, 8 B each");
        !shortfall.empty()) {
        return "BcfwSolver: " + shortfall;
    }
    return {};
}

}  // namespace

void BcfwOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    visitLambda(v, lambda);
    v.choice("sampling", sampling, {"permutation", "uniform", "gap"},
             "block order of a pass: a random permutation, n blocks drawn uniformly, or n "
             "blocks drawn in proportion to their gap estimates");
    v.integer("warmup", warmup,
              "with sampling = gap: the first passes taken as in the BCFW paper (a random "
              "permutation, Frank-Wolfe steps, every block decoded), >= 0");
    v.boolean("pairwise", pairwise,
              "pairwise steps: move weight from the block's worst active labelling to the new "
              "corner");
    v.integer("cache", cache,
              "decodings kept per word and tried before the oracle (0: no cache), 0..64");
    v.real("cache_block_share", cache_block_share,
           "a cached corner serves when its gap is at least this share of the word's last decoded "
           "gap (Osokin et al.: 0.25), in [0, 1]");
    v.real("cache_mean_share", cache_mean_share,
           "a cached corner also needs a gap of at least this share of the mean gap estimate "
           "(Osokin et al.: 0.01), in [0, 1]");
    v.integer("eval_every", eval_every,
              "passes between evaluations of the primal P(w) (one more oracle pass each), >= 1");
    v.seed("seed", seed, "seed of the block order (>= 0)");
    v.integer("threads", threads, "threads of the evaluation passes (0: all cores)");
    v.boolean("averaging", averaging,
              "report the weighted average of the iterates (weights proportional to the step)");
}

bool BcfwOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) &&
           validStructuredOptions(kOwner, lambda, eval_every, threads, why) &&
           requireText(sampling == "permutation" || sampling == "uniform" || sampling == "gap",
                       kOwner, "sampling", sampling, "must be permutation, uniform or gap", why) &&
           require(cache >= 0 && cache <= kMaxBcfwCache, kOwner, "cache", cache,
                   "must lie in [0, 64]", why) &&
           require(cache_block_share >= 0.0 && cache_block_share <= 1.0, kOwner,
                   "cache_block_share", cache_block_share, "must lie in [0, 1]", why) &&
           require(cache_mean_share >= 0.0 && cache_mean_share <= 1.0, kOwner, "cache_mean_share",
                   cache_mean_share, "must lie in [0, 1]", why) &&
           require(warmup >= 0, kOwner, "warmup", warmup, "must be >= 0", why) &&
           require(seed >= 0, kOwner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

BcfwSolver::BcfwSolver(StructuredProblem problem, BcfwOptions options)
    : StructuredSolver(std::move(problem), options.stop),
      options_(std::move(options)),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options_.seed, 0))) {
    if (!startStructured(options_, "BcfwSolver", [this] { return blockMemoryLimit(*model_); }))
        return;
    SetupTimer timer(*this);
    startBlocks();

    double primal = 0.0;
    int made = 1;
    if (costlyDecoding(*model_)) {
        // P(0) without minutes of decoding before the first iteration; the errors of w = 0 are
        // left unevaluated.
        OraclePass zero;
        zeroWeightPass(*model_, zero);
        primal = zero.meanHinge;
        refreshGaps(zero);
        lastErrors_ = startErrors(problem_, team_.get(), &evalSeconds_);
    } else if (!evaluate(primal, &made)) {
        reject("BcfwSolver: the primal objective is not finite at w = 0 (data values too large?)");
        return;
    }
    wBest_ = averagedWeights();
    lastPrimal_ = primal;
    lastDual_ = 0.0;
    lastGap_ = primal;
    IterationRecord initial;
    initial.oracleCalls = static_cast<long long>(made) * model_->size();
    initial.passes = 0.0;
    initial.upper = primal;
    initial.lower = 0.0;  // D at the truth corners
    initial.extra = structuredColumnValues(primal, 0.0, primal, 0.0, lastErrors_, true);
    setInitialRecord(initial);
}

void BcfwSolver::startBlocks() {
    const int n = model_->size();
    const int D = model_->dimension();
    blocks_ = Eigen::MatrixXd::Zero(D, n);
    blockLoss_.assign(static_cast<std::size_t>(n), 0.0);
    visitGaps_.assign(static_cast<std::size_t>(n), kNaN);
    estimates_.assign(visitGaps_);
    if (options_.pairwise) {
        // α at the truth corners: every active set holds yᵢ with weight 1.
        active_.resize(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            const std::span<const int> truth = model_->truth(i);
            active_[static_cast<std::size_t>(i)].push_back(
                {std::vector<int>(truth.begin(), truth.end()), 1.0});
        }
        difference_ = CornerDifference(D);
    }
    if (options_.cache > 0) cache_.resize(static_cast<std::size_t>(n));
    w_ = Eigen::VectorXd::Zero(D);
    if (averaging()) wAvg_ = w_;
    corner_.resize(D);
    order_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        order_[static_cast<std::size_t>(i)] = i;
}

BcfwSolver::~BcfwSolver() = default;

std::vector<std::string> BcfwSolver::extraColumns() const {
    return structuredColumns();
}

std::vector<std::string> BcfwSolver::pseudocode() const {
    return {
        "input: words (x_i, y_i), i = 1..n, lambda; oracle: loss-augmented Viterbi",
        "w <- 0, l <- 0; w_i <- 0, l_i <- 0 for every i          (alpha_i on the truth y_i)",
        "repeat                                                (one step = one pass)",
        "  for i in a random permutation of 1..n  (or n uniform draws, or n draws ~ gap_i "
        "after the warm-up passes)",
        "    y* <- argmax_y Delta(y_i, y) + <w, Psi(x_i, y)>     (oracle; or a cached y*)",
        "    w_s <- psi_i(y*) / (lambda n);  l_s <- Delta(y_i, y*) / n",
        "    gap_i <- lambda <w_i - w_s, w> - l_i + l_s",
        "    gamma <- clip(gap_i / (lambda |w_i - w_s|^2), 0, 1)    (exact line search; "
        "pairwise: from the away corner)",
        "    w_i' <- (1 - gamma) w_i + gamma w_s;  l_i' <- (1 - gamma) l_i + gamma l_s;  "
        "w <- w + w_i' - w_i;  l <- l + l_i' - l_i  [averaging: w_avg <- w_avg + 2/(k+2) "
        "(w - w_avg)]",
        "  upper <- min(upper, P(w));  lower <- max(lower, D = -lambda/2 |w|^2 + l)  "
        "(P: one more oracle pass)",
        "until upper - lower <= eps                             (P(w) - D = sum_i gap_i)",
        "return w_best with P(w_best) = upper",
    };
}

double BcfwSolver::dualValue() const {
    return -0.5 * options_.lambda * w_.squaredNorm() + loss_;
}

double BcfwSolver::averagedDualValue() const {
    return -0.5 * options_.lambda * averagedWeights().squaredNorm() + averagedLoss();
}

double BcfwSolver::primalValue(const Eigen::VectorXd& w) const {
    return 0.5 * options_.lambda * w.squaredNorm() + meanHinge(*model_, w, team_.get());
}

std::vector<double> BcfwSolver::blockGaps() const {
    const int n = model_->size();
    const double lambda = options_.lambda;
    ChainWorkspace ws;
    std::vector<int> y;
    Eigen::VectorXd corner(model_->dimension());
    std::vector<double> gaps(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        model_->lossAugmentedDecode(w_, i, y, ws);
        corner.setZero();
        model_->addPsiDifference(i, y, 1.0 / (lambda * n), corner);
        gaps[static_cast<std::size_t>(i)] = lambda * (blocks_.col(i) - corner).dot(w_) -
                                            blockLoss_[static_cast<std::size_t>(i)] +
                                            model_->loss(i, y) / n;
    }
    return gaps;
}

void BcfwSolver::setEstimate(int i, double gap) {
    visitGaps_[static_cast<std::size_t>(i)] = gap;
    estimates_.set(i, gap);
}

double BcfwSolver::blockStep(int i) {
    const int n = model_->size();
    double gamma = 0.0;
    if (options_.pairwise) {
        gamma = pairwiseBlockStep(i);
    } else {
        // With the cache, labellings y are scored by h(y) = Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y) − Ψ(xᵢ, yᵢ)⟩,
        // and the block gap towards y is base + h(y)/n.
        const bool scored = options_.cache > 0;
        double truthScore = 0.0, base = 0.0, hinge = 0.0;
        if (scored) {
            scorer_.start(*model_, w_, i);
            truthScore = scorer_.score(model_->truth(i));
            base =
                options_.lambda * blocks_.col(i).dot(w_) - blockLoss_[static_cast<std::size_t>(i)];
        }
        const bool cached = scored && cachedCorner(i, base, truthScore, &hinge);
        if (!cached) {
            model_->lossAugmentedDecode(w_, i, yHat_, ws_);
            ++decodings_;
            if (scored) remember(i, yHat_);
        }
        corner_.setZero();
        model_->addPsiDifference(i, yHat_, 1.0 / (options_.lambda * n), corner_);
        double gap = 0.0;
        gamma = frankWolfeStep(i, model_->loss(i, yHat_) / n, &gap);
        // A cached corner's gap is only a lower bound of gapᵢ: the estimate stays.
        if (!cached) setEstimate(i, gap);
    }
    if (averaging()) {
        // Every iterate counts, moved or not (γ = 0), as in the paper's code.
        const double rho = 2.0 / (static_cast<double>(blockSteps_) + 2.0);
        wAvg_ += rho * (w_ - wAvg_);
        lossAvg_ += rho * (loss_ - lossAvg_);
    }
    ++blockSteps_;
    return gamma;
}

double BcfwSolver::frankWolfeStep(int i, double cornerLoss, double* gapOut) {
    const double lambda = options_.lambda;
    double& li = blockLoss_[static_cast<std::size_t>(i)];
    double* wi = blocks_.col(i).data();
    const double* ws = corner_.data();
    double* w = w_.data();
    const Eigen::Index D = w_.size();
    double along = 0.0;    // ⟨wᵢ − w_s, w⟩
    double squared = 0.0;  // ‖wᵢ − w_s‖²
    for (Eigen::Index k = 0; k < D; ++k) {
        const double diff = wi[k] - ws[k];
        along += diff * w[k];
        squared += diff * diff;
    }
    const double gap = lambda * along - li + cornerLoss;
    *gapOut = gap;
    // Exact line search of the dual along the block direction w_s − wᵢ: D is a concave
    // quadratic in γ with slope gapᵢ at 0 and curvature λ‖wᵢ − w_s‖². With a zero
    // curvature the direction changes only ℓ: go all the way when that raises D.
    const double gamma =
        squared > 0.0 ? std::clamp(gap / (lambda * squared), 0.0, 1.0) : (gap > 0.0 ? 1.0 : 0.0);
    if (gamma > 0.0) {
        for (Eigen::Index k = 0; k < D; ++k) {
            const double updated = wi[k] + gamma * (ws[k] - wi[k]);
            w[k] += updated - wi[k];
            wi[k] = updated;
        }
        const double updatedLoss = li + gamma * (cornerLoss - li);
        loss_ += updatedLoss - li;
        li = updatedLoss;
    }
    return gamma;
}

double BcfwSolver::pairwiseBlockStep(int i) {
    const int n = model_->size();
    const double lambda = options_.lambda;
    const auto slot = static_cast<std::size_t>(i);
    std::vector<Atom>& atoms = active_[slot];
    // h(y) = Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y) − Ψ(xᵢ, yᵢ)⟩ of the active atoms; since
    // wᵢ = Σ α(y) ψᵢ(y)/(λn) and ℓᵢ = Σ α(y) Δ(yᵢ, y)/n, λ⟨wᵢ, w⟩ − ℓᵢ = −Σ α(y) h(y)/n = base,
    // and the block gap towards a corner y is base + h(y)/n.
    scorer_.start(*model_, w_, i);
    const double truthScore = scorer_.score(model_->truth(i));
    atomHinges_.resize(atoms.size());
    double base = 0.0;
    for (std::size_t a = 0; a < atoms.size(); ++a) {
        atomHinges_[a] =
            model_->loss(i, atoms[a].labels) + scorer_.score(atoms[a].labels) - truthScore;
        base -= atoms[a].weight * atomHinges_[a] / n;
    }
    double hinge = 0.0;
    if (!cachedCorner(i, base, truthScore, &hinge)) {
        hinge = model_->lossAugmentedDecode(w_, i, yHat_, ws_) - truthScore;
        ++decodings_;
        if (options_.cache > 0) remember(i, yHat_);
        setEstimate(i, base + hinge / n);
    }
    if (warmingUp_) return activeFrankWolfeStep(i);
    const auto same = [this](const Atom& a) {
        return std::equal(a.labels.begin(), a.labels.end(), yHat_.begin(), yHat_.end());
    };
    auto found = std::find_if(atoms.begin(), atoms.end(), same);
    if (found == atoms.end()) {
        found = atoms.insert(atoms.end(), Atom{yHat_, 0.0});
        atomHinges_.push_back(hinge);
    }
    const auto s = static_cast<std::size_t>(found - atoms.begin());
    // The away atom: the active labelling of the smallest h (the worst of the block).
    std::size_t v = s;
    for (std::size_t a = 0; a < atoms.size(); ++a)
        if (a != s && atoms[a].weight > 0.0 && (v == s || atomHinges_[a] < atomHinges_[v])) v = a;
    const double slope = v == s ? 0.0 : (hinge - atomHinges_[v]) / n;  // ≥ 0: h(y_s) is the max
    if (!(slope > 0.0)) {
        if (atoms[s].weight <= 0.0) atoms.erase(atoms.begin() + static_cast<std::ptrdiff_t>(s));
        return 0.0;
    }
    // Direction w_s − w_v = (Ψ(xᵢ, y_v) − Ψ(xᵢ, y_s))/(λn), ℓ_s − ℓ_v, with γ ≤ α(y_v): exact
    // line search of the concave quadratic D along it.
    difference_.assign(*model_, i, atoms[v].labels, atoms[s].labels, 1.0 / (lambda * n));
    const double lossChange =
        (model_->loss(i, atoms[s].labels) - model_->loss(i, atoms[v].labels)) / n;
    const double curvature = lambda * difference_.squaredNorm();
    const double most = atoms[v].weight;
    const double gamma = curvature > 0.0 ? std::min(slope / curvature, most) : most;
    difference_.addTo(gamma, blocks_.col(i).data());
    difference_.addTo(gamma, w_.data());
    blockLoss_[slot] += gamma * lossChange;
    loss_ += gamma * lossChange;
    atoms[s].weight += gamma;
    if (gamma >= most)  // a drop step: y_v leaves the active set
        atoms.erase(atoms.begin() + static_cast<std::ptrdiff_t>(v));
    else
        atoms[v].weight -= gamma;
    return gamma;
}

double BcfwSolver::activeFrankWolfeStep(int i) {
    std::vector<Atom>& atoms = active_[static_cast<std::size_t>(i)];
    // The step of the 2013 algorithm (frankWolfeStep, the same arithmetic), then the active set
    // follows: αᵢ ← (1 − γ)αᵢ + γ e_ŷ.
    corner_.setZero();
    model_->addPsiDifference(i, yHat_, 1.0 / (options_.lambda * model_->size()), corner_);
    double gap = 0.0;
    const double gamma = frankWolfeStep(i, model_->loss(i, yHat_) / model_->size(), &gap);
    setEstimate(i, gap);
    if (gamma >= 1.0) {
        atoms.assign(1, Atom{yHat_, 1.0});
    } else if (gamma > 0.0) {
        if (atoms.size() == 1) atoms[0].weight = 1.0;
        Atom* target = nullptr;
        for (Atom& atom : atoms) {
            atom.weight *= 1.0 - gamma;
            if (std::equal(atom.labels.begin(), atom.labels.end(), yHat_.begin(), yHat_.end()))
                target = &atom;
        }
        if (target)
            target->weight += gamma;
        else
            atoms.push_back(Atom{yHat_, gamma});
    }
    return gamma;
}

bool BcfwSolver::cachedCorner(int i, double base, double truthScore, double* hinge) {
    if (options_.cache == 0 || warmingUp_) return false;
    const auto slot = static_cast<std::size_t>(i);
    const std::vector<std::vector<int>>& candidates = cache_[slot];
    const double estimate = visitGaps_[slot];
    if (candidates.empty() || !std::isfinite(estimate)) return false;
    const int n = model_->size();
    std::size_t best = 0;
    double bestHinge = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const double h = model_->loss(i, candidates[k]) + scorer_.score(candidates[k]) - truthScore;
        if (h > bestHinge) {
            bestHinge = h;
            best = k;
        }
    }
    // The paper's rule: a cached corner serves when its gap is a good part of the block's last
    // decoded gap and not negligible against the mean block gap (the shares are options).
    const double gap = base + bestHinge / n;
    const double needed = std::max(options_.cache_block_share * estimate,
                                   options_.cache_mean_share * estimates_.total() / n);
    if (!(gap > 0.0 && gap >= needed)) return false;
    yHat_ = candidates[best];
    *hinge = bestHinge;
    ++cacheHits_;
    return true;
}

void BcfwSolver::remember(int i, std::span<const int> y) {
    std::vector<std::vector<int>>& candidates = cache_[static_cast<std::size_t>(i)];
    const auto same = [y](const std::vector<int>& c) {
        return std::equal(c.begin(), c.end(), y.begin(), y.end());
    };
    auto found = std::find_if(candidates.begin(), candidates.end(), same);
    if (found == candidates.end()) {
        if (static_cast<int>(candidates.size()) < options_.cache) candidates.emplace_back();
        found = candidates.end() - 1;  // the oldest is overwritten
        found->assign(y.begin(), y.end());
    }
    std::rotate(candidates.begin(), found, found + 1);  // newest first
}

void BcfwSolver::refreshGaps(const OraclePass& pass) {
    const int n = model_->size();
    const Eigen::VectorXd along = options_.lambda * (blocks_.transpose() * w_);
    for (int i = 0; i < n; ++i) {
        const auto slot = static_cast<std::size_t>(i);
        visitGaps_[slot] = along[i] - blockLoss_[slot] + pass.hinge[slot] / n;
    }
    estimates_.assign(visitGaps_);
    if (options_.cache > 0)
        for (int i = 0; i < n; ++i)
            remember(i, pass.labelling(*model_, i));
}

std::vector<std::pair<std::vector<int>, double>> BcfwSolver::activeSet(int i) const {
    std::vector<std::pair<std::vector<int>, double>> set;
    if (!options_.pairwise) return set;
    for (const Atom& atom : active_[static_cast<std::size_t>(i)])
        set.emplace_back(atom.labels, atom.weight);
    return set;
}

int BcfwSolver::nextBlock(int k) {
    if (options_.sampling == "permutation" || warmingUp_)
        return order_[static_cast<std::size_t>(k)];
    if (gapSampling()) return estimates_.draw(random_);
    return static_cast<int>(random_.below(static_cast<std::uint64_t>(model_->size())));
}

bool BcfwSolver::evaluate(double& primal, int* passes) {
    const auto start = std::chrono::steady_clock::now();
    w_ = blocks_.rowwise().sum();
    loss_ = 0.0;
    for (const double li : blockLoss_)
        loss_ += li;
    const Eigen::VectorXd& reported = averagedWeights();
    int made = 0;
    // The pass at w gives P(w) and the exact block gaps; with averaging, P is at w̄ (one more
    // pass), and the gaps at w are computed only when the sampling or the cache uses them.
    if (!averaging() || gapSampling() || options_.cache > 0) {
        OraclePass pass;
        runOraclePass(*model_, w_, team_.get(), nullptr, pass);
        refreshGaps(pass);
        primal = 0.5 * options_.lambda * w_.squaredNorm() + pass.meanHinge;
        ++made;
    }
    if (averaging()) {
        primal = primalValue(reported);
        ++made;
    }
    if (passes) *passes = made;
    lastErrors_ = evaluateErrors(problem_, reported, team_.get());
    evalSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::isfinite(primal);
}

Status BcfwSolver::doStep(IterationRecord& record) {
    const int n = model_->size();
    warmingUp_ = gapSampling() && passes_ < options_.warmup;
    if (options_.sampling == "permutation" || warmingUp_) shuffleFromFront(order_, random_);
    // Rebuilt from the estimates once a pass, so that rounding never accumulates in the tree.
    if (gapSampling()) estimates_.assign(visitGaps_);
    const long long decodedBefore = decodings_;
    const Interrupt stop = stepInterrupt();
    // A pass over thousands of words takes a while: the user or the time limit may stop it in
    // between. Every block step leaves a feasible α, so the run stops with valid bounds.
    const PassProgress pass =
        runSamplingPass(n, stop, "BCFW pass", "block steps",
                        [&](int k) -> std::optional<double> { return blockStep(nextBlock(k)); });
    const int steps = pass.steps;
    record.oracleCalls += decodings_ - decodedBefore;
    lastMeanStep_ = pass.meanStep();
    // Effective passes: the block steps' oracle calls / n (cache hits cost no decoding).
    record.passes = static_cast<double>(decodings_) / n;
    if (steps < n) {
        lastDual_ = averagedDualValue();
        record.lower = std::min(std::max({record.lower, dualValue(), lastDual_}), record.upper);
        record.extra =
            structuredColumnValues(kNaN, lastDual_, kNaN, lastMeanStep_, lastErrors_, false);
        evaluatedLast_ = false;
        return interruptedStatus(stop, stopOptions(),
                                 "pass " + std::to_string(passes_ + 1) + ", after " +
                                     std::to_string(steps) + " of its " + std::to_string(n) +
                                     " block steps");
    }
    ++passes_;

    // With gap sampling, also as soon as the estimated gap Σᵢ ĝᵢ says the run may certify.
    const bool estimateDue = gapSampling() &&
                             estimates_.total() <= stopOptions().gapTolerance(record.upper) &&
                             evaluationDue(passes_, 1, stop, evalSeconds_);
    evaluatedLast_ = estimateDue || evaluationDue(passes_, options_.eval_every, stop, evalSeconds_);
    double primal = kNaN;
    if (evaluatedLast_) {
        int made = 0;
        if (!evaluate(primal, &made)) {
            return Status::make(
                StatusCode::NumericalFailure,
                "the primal objective is not finite after pass " + std::to_string(passes_));
        }
        record.oracleCalls += static_cast<long long>(made) * n;
        lastPrimal_ = primal;
        lastGap_ = primal - averagedDualValue();
        if (primal < record.upper) {
            record.upper = primal;
            wBest_ = averagedWeights();
        }
    }
    lastDual_ = averagedDualValue();
    const double currentDual = dualValue();
    if (!std::isfinite(lastDual_) || !std::isfinite(currentDual)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "the dual objective is not finite after pass " + std::to_string(passes_));
    }
    // D(α) is certified by weak duality for every feasible α; at the optimum it may come out
    // a few ulps above U, and min P ≤ U, so the cap keeps the bound valid and the gap ≥ 0.
    record.lower = std::min(std::max({record.lower, currentDual, lastDual_}), record.upper);
    record.extra =
        structuredColumnValues(primal, lastDual_, evaluatedLast_ ? primal - lastDual_ : kNaN,
                               lastMeanStep_, lastErrors_, evaluatedLast_);
    return Status::running();
}

std::string BcfwSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected()) return {};
    if (!evaluatedLast_) {
        if (!finalEvaluationAffordable(status, evalSeconds_, stopOptions()))
            return skippedEvaluationNote(evalSeconds_);
        double primal = kNaN;
        int made = 0;
        if (!evaluate(primal, &made)) {
            throw std::runtime_error("the primal objective of the final iterate is not finite");
        }
        record.oracleCalls += static_cast<long long>(made) * model_->size();
        lastPrimal_ = primal;
        lastDual_ = averagedDualValue();
        lastGap_ = primal - lastDual_;
        if (primal < record.upper) {
            record.upper = primal;
            wBest_ = averagedWeights();
        }
        record.lower = std::min(record.lower, record.upper);
        record.extra =
            structuredColumnValues(primal, lastDual_, lastGap_, lastMeanStep_, lastErrors_, true);
        evaluatedLast_ = true;
    }
    return startWeightsNote(wBest_, passes_);
}

SummaryFields BcfwSolver::summary() const {
    if (rejected()) return {};
    // The letter errors of the best weights (U = P(wBest)): one decoding pass each.
    SummaryFields fields = {{"lambda", options_.lambda},
                            {"primal", lastPrimal_},
                            {"dual", lastDual_},
                            {"duality_gap", lastGap_},
                            {"passes", static_cast<long long>(passes_)},
                            {"averaging", std::string(averaging() ? "on" : "off")},
                            {"sampling", options_.sampling}};
    if (options_.cache > 0) fields.emplace_back("cache_hits", cacheHits_);
    addErrorFields(problem_, wBest_, team_.get(), fields, status(), stopOptions());
    return fields;
}

SnapshotPtr BcfwSolver::snapshot() const {
    auto snap = chainSnapshot(options_.lambda, averagedWeights(),
                              {lastPrimal_, lastDual_, lastGap_, static_cast<double>(passes_),
                               lastMeanStep_, lastErrors_});
    if (rejected()) return snap;
    snap->wordGaps = visitGaps_;
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
        return snap;
    }
    snap->executedLines = {kRepeat, kOrder, kOracle, kCorner, kGap, kStep, kUpdate};
    if (evaluatedLast_) snap->executedLines.push_back(kBounds);
    snap->executedLines.push_back(kUntil);
    if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    return snap;
}

}  // namespace cplab
