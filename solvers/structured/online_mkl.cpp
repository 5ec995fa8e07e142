// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/online_mkl.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/memory_budget.h"
#include "core/worker_team.h"
#include "structured/online_mkl_groups.h"
#include "structured/sampling_pass.h"
#include "structured/structured_snapshot.h"

namespace cplab {

namespace {

constexpr const char* kOwner = "OnlineMklOptions";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

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
    : StructuredSolver(std::move(problem), epochLimit(problem, options)),
      options_(std::move(options)),
      random_(static_cast<std::uint64_t>(std::max<std::int64_t>(options_.seed, 0))) {
    std::string why;
    if (!startStructured(options_, "OnlineMklSolver",
                         [&] { return parseGroups(&why) ? std::string() : why; }))
        return;
    SetupTimer timer(*this);
    if (!loadTokens(&why)) {
        reject(why);
        return;
    }
    buildGroups();
    order_.resize(static_cast<std::size_t>(model_->size()));
    std::iota(order_.begin(), order_.end(), 0);
    shuffleOrder();
    proxBefore_.assign(groups_.size(), 0.0);
    prox_.shrunk.assign(groups_.size(), 0.0);
    const auto start = std::chrono::steady_clock::now();
    if (costlyDecoding(*model_)) {
        // Not minutes of decoding before the first round and its time limit; an evaluation's
        // time is then unknown and taken as long (finalEvaluationAffordable).
        last_ = zeroEvaluation();
        evalSeconds_ = kInf;
    } else {
        last_ = evaluate(reported());
        evalSeconds_ =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (!std::isfinite(last_.objective)) {
        reject("OnlineMklSolver: the objective is not finite at w = 0 (data values too large?)");
        return;
    }
    IterationRecord initial;
    initial.oracleCalls = model_->size();
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

bool OnlineMklSolver::parseGroups(std::string* why) {
    parseGroupRegulariser(options_.regulariser, &regulariser_);
    const std::string trimmed =
        options_.kernels.find_first_not_of(" \t") == std::string::npos ? "" : options_.kernels;
    std::string reason;
    if (!trimmed.empty() &&
        !parseKernelList(trimmed, model_->featureDimension(), &specs_, &reason)) {
        *why = std::string(kOwner) + ": kernels: " + reason;
        return false;
    }
    for (const KernelSpec& spec : specs_) {
        if (spec.type == KernelType::Precomputed || !spec.features.empty()) {
            *why = std::string(kOwner) + ": kernels: '" + spec.label() +
                   "': only linear, poly and gaussian kernels on all token features";
            return false;
        }
    }
    if (specs_.empty() && !options_.pixels && !options_.transitions) {
        *why =
            std::string(kOwner) + ": no group: give kernels, or set pixels or transitions to true";
        return false;
    }
    return true;
}

bool OnlineMklSolver::loadTokens(std::string* why) {
    const SequenceData& data = model_->data();
    N_ = data.tokenCount();
    L_ = model_->labelCount();
    d_ = model_->featureDimension();
    // The dense token matrix (the kernel rows' dot products) must stay small.
    if (static_cast<long long>(N_) * d_ > (1LL << 27)) {
        *why = std::string(kOwner) + ": " + std::to_string(N_) + " training tokens x " +
               std::to_string(d_) + " features is more than the dense token table allows (2^27)";
        return false;
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
        *why = std::string(kOwner) + ": " + shortfall;
        return false;
    }
    tokens_.resize(N_, d_);
    tokenSq_.resize(N_);
    tokenWord_.resize(static_cast<std::size_t>(N_));
    Eigen::RowVectorXd row(d_);
    for (int k = 0; k < N_; ++k) {
        online_mkl::denseRow(data, k, row.data(), d_);
        tokens_.row(k) = row;
        tokenSq_(k) = row.squaredNorm();
    }
    for (int i = 0; i < data.size(); ++i)
        for (int k = data.first(i); k < data.first(i) + data.length(i); ++k)
            tokenWord_[static_cast<std::size_t>(k)] = i;
    return true;
}

void OnlineMklSolver::shuffleOrder() {
    // Fisher–Yates from the back: position i swaps with random.below(i + 1).
    for (int i = static_cast<int>(order_.size()) - 1; i > 0; --i)
        std::swap(order_[static_cast<std::size_t>(i)],
                  order_[random_.below(static_cast<std::uint64_t>(i) + 1)]);
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

// ---- evaluation ------------------------------------------------------------------------------

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

std::vector<double> OnlineMklSolver::groupNorms(const Weights& w,
                                                std::vector<double>* trans) const {
    std::vector<double> norms;
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
                if (trans) trans->assign(w.coef[g].data() + L_, w.coef[g].data() + L_ + L_ * L_);
                break;
        }
        norms.push_back(norm);
    }
    return norms;
}

OnlineMklSolver::Evaluation OnlineMklSolver::zeroEvaluation() const {
    Evaluation e;
    e.norms.assign(groups_.size(), 0.0);
    OraclePass zero;
    zeroWeightPass(*model_, zero);
    e.objective = options_.lambda * regulariserValue(regulariser_, e.norms) + zero.meanHinge;
    const Eigen::VectorXd none = Eigen::VectorXd::Zero(model_->dimension());
    const DecodingErrors train = decodingErrors(*model_, none);
    e.errors.trainLetter = train.tokens;
    e.errors.trainWord = train.sequences;
    if (problem_.test) {
        const DecodingErrors test = decodingErrors(*problem_.test, none);
        e.errors.testLetter = test.tokens;
        e.errors.testWord = test.sequences;
    }
    return e;
}

OnlineMklSolver::Evaluation OnlineMklSolver::evaluate(const Weights& w) const {
    Evaluation e;
    const Eigen::MatrixXd unary = trainUnary(w);
    std::vector<double> trans;
    e.norms = groupNorms(w, &trans);
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
    const PassProgress pass = runSamplingPass(count, stop, "online MKL chunk", "words",
                                              [&](int) -> std::optional<double> {
                                                  const double eta = round(order_[next_++]);
                                                  if (std::isnan(eta)) return std::nullopt;
                                                  return eta;
                                              });
    if (pass.failed) {
        return Status::make(StatusCode::NumericalFailure,
                            "the group norms overflowed in round " + std::to_string(rounds_) +
                                ": the learning rate is too large (eta0, or 1/(lambda t) with "
                                "learning_rate=pegasos and a tiny lambda)");
    }
    record.oracleCalls += pass.steps;
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
    noteGroupChanges(norms, beta);
    auto finish = [&](double primal, bool evaluated) {
        record.extra =
            structuredColumnValues(primal, kNaN, kNaN, pass.meanStep(), last_.errors, evaluated);
        record.extra.push_back(static_cast<double>(
            std::count_if(norms.begin(), norms.end(), [](double b) { return b > 0; })));
        record.extra.insert(record.extra.end(), beta.begin(), beta.end());
    };
    evaluatedLast_ = false;
    if (pass.steps < count) {
        finish(kNaN, false);
        return interruptedStatus(stop, stopOptions(),
                                 "a chunk, after " + std::to_string(rounds_) + " rounds");
    }
    if (epochEnd && !endEpoch(record)) {
        finish(kNaN, false);
        return Status::make(StatusCode::NumericalFailure,
                            "the objective is not finite after epoch " + std::to_string(epochs_) +
                                " (eta0 too large?)");
    }
    record.lower = -kInf;
    finish(evaluatedLast_ ? last_.objective : kNaN, evaluatedLast_);
    // The last epoch ends at the iteration limit (epochLimit), which the base class applies.
    return Status::running();
}

void OnlineMklSolver::noteGroupChanges(const std::vector<double>& norms,
                                       const std::vector<double>& beta) {
    std::vector<bool> active;
    std::vector<std::string> labels;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        active.push_back(norms[g] > 0);
        labels.push_back(groups_[g].name);
    }
    if (activeGroups_.size() != active.size()) activeGroups_.assign(active.size(), false);
    noteEvents(activeSetEvents(activeGroups_, active, beta, labels, "group", "beta"));
    activeGroups_ = std::move(active);
}

bool OnlineMklSolver::endEpoch(IterationRecord& record) {
    ++epochs_;
    next_ = 0;
    shuffleOrder();
    if (epochs_ % options_.eval_every != 0 && epochs_ != options_.epochs) return true;
    const auto start = std::chrono::steady_clock::now();
    last_ = evaluate(reported());
    evalSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    evaluatedRounds_ = rounds_;
    record.oracleCalls += model_->size();
    evaluatedLast_ = true;
    if (!std::isfinite(last_.objective)) return false;
    // U is P of the model the run reports (the newest evaluation), not the least P seen: the
    // reported model is the current (averaged) iterate, not a best one.
    record.upper = last_.objective;
    return true;
}

std::string OnlineMklSolver::finishRecord(IterationRecord& record, const Status& status) {
    if (rejected() || evaluatedLast_) return {};
    if (rounds_ == evaluatedRounds_) {
        // The model has not moved since its last evaluation (a first chunk cut short).
        evaluatedLast_ = true;
        record.upper = last_.objective;
        return {};
    }
    if (!finalEvaluationAffordable(status, evalSeconds_, stopOptions())) {
        finalSkipped_ = true;
        // U stays P of the model at the last evaluation, which the run no longer reports.
        record.upper = kInf;
        return std::string("the final model was not evaluated (") +
               (std::isfinite(evalSeconds_)
                    ? "an evaluation takes about " + formatReal(evalSeconds_) + " s"
                    : std::string("its decoding passes are costly")) +
               "): U is unknown";
    }
    last_ = evaluate(reported());
    evaluatedRounds_ = rounds_;
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

// ---- summary and snapshot --------------------------------------------------------------------

SummaryFields OnlineMklSolver::summary() const {
    if (rejected()) return {};
    // The last evaluation when the model has not moved since; none (NaN, but the group norms)
    // when the final one was skipped as too long after a time limit or a stop.
    Evaluation e;
    if (evaluatedLast_ || rounds_ == evaluatedRounds_) {
        e = last_;
    } else if (finalSkipped_) {
        e.objective = kNaN;
        e.errors.testLetter = e.errors.testWord = kNaN;
        e.norms = groupNorms(reported(), nullptr);
    } else {
        e = evaluate(reported());
    }
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
    std::vector<double> trans;
    snap->labels = L_;
    snap->features = d_;
    snap->transitions = true;
    snap->labelNames = model_->data().labelNames;
    snap->lambda = options_.lambda;
    snap->w = chainWeights(w, trans);
    fillLattices(w, trans, *snap);
    const double passes = epochs_ + static_cast<double>(next_) / std::max(1, model_->size());
    fillProgressFields({last_.objective, kNaN, kNaN, passes, 0.0, last_.errors}, *snap);
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

Eigen::VectorXd OnlineMklSolver::chainWeights(const Weights& w, std::vector<double>& trans) const {
    // The emission templates of the linear groups (the explicit features and linear kernels,
    // whose weights are images), the biases and the transitions; polynomial and Gaussian groups
    // have no template.
    Eigen::VectorXd chain = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(L_) * d_ + L_ +
                                                  static_cast<Eigen::Index>(L_) * L_);
    Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>> templates(chain.data(), d_, L_,
                                                                   Eigen::OuterStride<>(d_));
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
    return chain;
}

void OnlineMklSolver::fillLattices(const Weights& w, const std::vector<double>& trans,
                                   StructuredSnapshot& snap) const {
    const ChainModel& words = problem_.test ? *problem_.test : *model_;
    snap.words = words.dataPtr();
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
    snap.lattices.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        WordLattice& lattice = snap.lattices[static_cast<std::size_t>(i)];
        lattice.word = i;
        lattice.scores = unary.middleRows(words.data().first(i), words.length(i));
        const std::span<const int> truth = words.truth(i);
        lattice.truth.assign(truth.begin(), truth.end());
        decodeRows(words.data(), i, unary, transitions, 0.0, lattice.decoded, ws);
        const double c = words.options().normalizeLoss ? 1.0 / words.length(i) : 1.0;
        decodeRows(words.data(), i, unary, transitions, c, lattice.lossAugmented, ws);
    }
}

}  // namespace cplab
