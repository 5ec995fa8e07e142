// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/oracle_pass.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <thread>

#include "core/deadline.h"
#include "core/number_text.h"
#include "core/options.h"
#include "core/worker_team.h"

namespace cplab {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

namespace {

// Decodes words [first, last) of `model` at w into their slots of `pass` (sized for every
// word); false when `stop` interrupted it.
bool decodeWords(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                 const Interrupt* stop, int first, int last, OraclePass& pass) {
    const int n = model.size();
    std::atomic<bool> stopped{false};
    std::atomic<int> decoded{0};
    const long long tokens = last > first ? model.data().first(last - 1) + model.length(last - 1) -
                                                model.data().first(first)
                                          : 0;
    const int blocks = team ? team->partsFor(tokens, 512) : 1;
    runBlocks(team, last - first, blocks, [&](int, int begin, int end) {
        ChainWorkspace ws;
        std::vector<int> y;
        for (int i = first + begin; i < first + end; ++i) {
            if (stopped.load(std::memory_order_relaxed) || (stop && stop->requested())) {
                stopped.store(true, std::memory_order_relaxed);
                return;
            }
            const std::size_t s = static_cast<std::size_t>(i);
            pass.hinge[s] = model.hinge(w, i, y, ws);
            pass.loss[s] = model.loss(i, y);
            std::copy(y.begin(), y.end(),
                      pass.labels.begin() + static_cast<std::ptrdiff_t>(model.data().first(i)));
            if (stop) {
                stop->report("oracle pass", decoded.fetch_add(1, std::memory_order_relaxed) + 1, n,
                             "words");
            }
        }
    });
    return !stopped.load(std::memory_order_relaxed);
}

template <class T>
std::string bytesOf(const T* data, std::size_t count) {
    return std::string(reinterpret_cast<const char*>(data), count * sizeof(T));
}

// Every rank's words [n·r/N, n·(r+1)/N) decoded, shared: afterwards every rank's `pass` holds
// every word's slots, as one process's would. False (on every rank) when a rank was stopped.
bool decodeOverRanks(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                     const Interrupt* stop, Communicator& comm, OraclePass& pass) {
    const long long n = model.size();
    const auto wordsOf = [&](int r) { return static_cast<int>(n * r / comm.size()); };
    const int first = wordsOf(comm.rank());
    const int last = wordsOf(comm.rank() + 1);
    const bool done = decodeWords(model, w, team, stop, first, last, pass);
    const auto firstToken = [&](int i) {
        return static_cast<std::size_t>(i < n ? model.data().first(i)
                                              : static_cast<int>(pass.labels.size()));
    };
    const std::size_t words = static_cast<std::size_t>(last - first);
    std::string mine(1, done ? '1' : '0');
    mine += bytesOf(pass.hinge.data() + first, words) + bytesOf(pass.loss.data() + first, words) +
            bytesOf(pass.labels.data() + firstToken(first), firstToken(last) - firstToken(first));
    const std::vector<std::string> all = comm.gatherAll(mine);
    bool allDone = true;
    for (int r = 0; r < comm.size(); ++r) {
        const std::string& block = all[static_cast<std::size_t>(r)];
        allDone = allDone && !block.empty() && block[0] == '1';
        const int a = wordsOf(r), b = wordsOf(r + 1);
        const std::size_t k = static_cast<std::size_t>(b - a);
        const std::size_t tokens = firstToken(b) - firstToken(a);
        if (block.size() != 1 + k * 2 * sizeof(double) + tokens * sizeof(int)) return false;
        const char* at = block.data() + 1;
        std::memcpy(pass.hinge.data() + a, at, k * sizeof(double));
        std::memcpy(pass.loss.data() + a, at + k * sizeof(double), k * sizeof(double));
        std::memcpy(pass.labels.data() + firstToken(a), at + 2 * k * sizeof(double),
                    tokens * sizeof(int));
    }
    return allDone;
}

}  // namespace

bool runOraclePass(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                   const Interrupt* stop, OraclePass& pass, Communicator* comm) {
    const int n = model.size();
    const std::size_t slots = static_cast<std::size_t>(n);
    pass.labels.resize(model.data().labels.size());
    pass.hinge.assign(slots, 0.0);
    pass.loss.assign(slots, 0.0);
    const bool done = comm && comm->size() > 1 ? decodeOverRanks(model, w, team, stop, *comm, pass)
                                               : decodeWords(model, w, team, stop, 0, n, pass);
    if (!done) return false;
    pass.meanHinge = std::accumulate(pass.hinge.begin(), pass.hinge.end(), 0.0) / n;
    pass.meanLoss = std::accumulate(pass.loss.begin(), pass.loss.end(), 0.0) / n;
    return true;
}

void zeroWeightPass(const ChainModel& model, OraclePass& pass) {
    const int n = model.size();
    const int L = model.labelCount();
    pass.labels.resize(model.data().labels.size());
    pass.hinge.assign(static_cast<std::size_t>(n), 0.0);
    pass.loss.assign(static_cast<std::size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
        const std::span<const int> truth = model.truth(i);
        const auto first = static_cast<std::size_t>(model.data().first(i));
        for (std::size_t t = 0; t < truth.size(); ++t)
            pass.labels[first + t] = L > 1 ? (truth[t] + 1) % L : truth[t];
        const double loss = model.loss(i, pass.labelling(model, i));
        pass.hinge[static_cast<std::size_t>(i)] = loss;
        pass.loss[static_cast<std::size_t>(i)] = loss;
    }
    pass.meanHinge = std::accumulate(pass.hinge.begin(), pass.hinge.end(), 0.0) / n;
    pass.meanLoss = std::accumulate(pass.loss.begin(), pass.loss.end(), 0.0) / n;
}

bool oraclePassAt(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                  const Interrupt* stop, OraclePass& pass, Communicator* comm) {
    if (w.isZero(0.0) && costlyDecoding(model)) {
        zeroWeightPass(model, pass);
        return true;
    }
    return runOraclePass(model, w, team, stop, pass, comm);
}

bool costlyDecoding(const ChainModel& model) {
    return decodingPassCost(model) > kCostlyDecodingPass;
}

StructuredErrors startErrors(const StructuredProblem& problem, WorkerTeam* team, double* seconds) {
    if (!costlyDecoding(*problem.train))
        return evaluateErrorsTimed(problem, Eigen::VectorXd::Zero(problem.train->dimension()), team,
                                   seconds);
    StructuredErrors errors;  // NaN: not evaluated
    if (problem.test)
        errors.testLetter = errors.testWord = std::numeric_limits<double>::quiet_NaN();
    // An evaluation's time is unknown and taken as long (finalEvaluationAffordable).
    if (seconds) *seconds = std::numeric_limits<double>::infinity();
    return errors;
}

void addPsiSum(const ChainModel& model, const OraclePass& pass, double scale, Eigen::VectorXd& v) {
    for (int i = 0; i < model.size(); ++i)
        model.addPsiDifference(i, pass.labelling(model, i), scale, v);
}

std::unique_ptr<WorkerTeam> makeStructuredTeam(int threads) {
    const int count =
        threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return count > 1 ? std::make_unique<WorkerTeam>(count) : nullptr;
}

StructuredErrors evaluateErrors(const StructuredProblem& problem, const Eigen::VectorXd& w,
                                WorkerTeam* team) {
    StructuredErrors errors;
    const DecodingErrors train = decodingErrors(*problem.train, w, team);
    errors.trainLetter = train.tokens;
    errors.trainWord = train.sequences;
    if (problem.test) {
        const DecodingErrors test = decodingErrors(*problem.test, w, team);
        errors.testLetter = test.tokens;
        errors.testWord = test.sequences;
    }
    return errors;
}

std::vector<std::string> structuredColumns() {
    return {"primal",      "dual",       "duality_gap",    "mean_step",
            "train_error", "test_error", "test_word_error"};
}

std::vector<double> structuredColumnValues(double primal, double dual, double gap, double step,
                                           const StructuredErrors& errors, bool evaluated) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    return {primal,
            dual,
            gap,
            step,
            evaluated ? errors.trainLetter : kNaN,
            evaluated ? errors.testLetter : kNaN,
            evaluated ? errors.testWord : kNaN};
}

void addErrorFields(const StructuredProblem& problem, const Eigen::VectorXd& w, WorkerTeam* team,
                    SummaryFields& fields, const Interrupt& stop, double budget) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    const DecodingErrors train = decodingErrors(*problem.train, w, team, &stop);
    DecodingErrors test{kNaN, kNaN, train.complete};
    if (problem.test && train.complete) test = decodingErrors(*problem.test, w, team, &stop);
    const bool complete = train.complete && test.complete;
    fields.emplace_back("train_error", complete ? train.tokens : kNaN);
    fields.emplace_back("train_word_error", complete ? train.sequences : kNaN);
    if (problem.test) {
        fields.emplace_back("test_error", complete ? test.tokens : kNaN);
        fields.emplace_back("test_char_error", complete ? test.tokens : kNaN);
        fields.emplace_back("test_word_error", complete ? test.sequences : kNaN);
    }
    if (!complete) {
        fields.emplace_back("errors_not_evaluated",
                            "the decodings of the reported w did not finish within " +
                                formatReal(budget) +
                                " s after the run's time limit or stop: the errors are NaN");
    }
    fields.emplace_back("labels", static_cast<long long>(problem.train->labelCount()));
    fields.emplace_back("weights", static_cast<long long>(problem.train->dimension()));
}

void addErrorFields(const StructuredProblem& problem, const Eigen::VectorXd& w, WorkerTeam* team,
                    SummaryFields& fields, const Status& status, const StopOptions& limits) {
    if (status.code != StatusCode::TimeLimit && status.code != StatusCode::Cancelled) {
        addErrorFields(problem, w, team, fields, Interrupt(),
                       std::numeric_limits<double>::infinity());
        return;
    }
    const double budget = std::max(1.0, 0.1 * limits.max_seconds);
    addErrorFields(problem, w, team, fields, deadlineFromNow(CancelToken(), budget), budget);
}

Status interruptedStatus(const Interrupt& stop, const StopOptions& limits, const std::string& where,
                         const std::string& after) {
    return interruptedStatus(stop, limits.max_seconds, where, after);  // core/deadline.h
}

StructuredErrors evaluateErrorsTimed(const StructuredProblem& problem, const Eigen::VectorXd& w,
                                     WorkerTeam* team, double* seconds) {
    const auto start = std::chrono::steady_clock::now();
    StructuredErrors errors = evaluateErrors(problem, w, team);
    if (seconds) *seconds += secondsSince(start);
    return errors;
}

bool evaluationDue(int passes, int evalEvery, const Interrupt& stop, double evalSeconds) {
    return passes % evalEvery == 0 &&
           stop.allows(std::isfinite(evalSeconds) ? evalSeconds : stop.elapsed());
}

bool finalEvaluationAffordable(const Status& status, double evaluationSeconds,
                               const StopOptions& stop) {
    if (status.code != StatusCode::TimeLimit && status.code != StatusCode::Cancelled) return true;
    return evaluationSeconds <= std::max(1.0, 0.1 * stop.max_seconds);
}

std::string skippedEvaluationNote(double evaluationSeconds) {
    const std::string why =
        std::isfinite(evaluationSeconds)
            ? "an evaluation takes about " + formatReal(evaluationSeconds) + " s"
            : "its decoding passes are costly";
    return "the final iterate was not evaluated (" + why +
           "): the reported (and saved) w is the best evaluated one, whose P is U";
}

std::string evaluateFinalErrors(const StructuredProblem& problem, const Eigen::VectorXd& w,
                                WorkerTeam* team, const Status& status, const StopOptions& stop,
                                double evalSeconds, StructuredErrors& errors, bool& evaluated,
                                IterationRecord& record) {
    if (evaluated || record.extra.size() < 7 || !std::isfinite(record.extra[0])) return {};
    if (!finalEvaluationAffordable(status, evalSeconds, stop))
        return skippedEvaluationNote(evalSeconds);
    errors = evaluateErrors(problem, w, team);
    const std::vector<double> columns = structuredColumnValues(0.0, 0.0, 0.0, 0.0, errors, true);
    std::copy(columns.begin() + 4, columns.end(), record.extra.begin() + 4);
    evaluated = true;
    return {};
}

std::string startWeightsNote(const Eigen::VectorXd& reported, int passes) {
    if (passes <= 0 || !reported.isZero(0.0)) return {};
    return "no iterate of the " + std::to_string(passes) +
           " passes has a lower P than the start w = 0, so the reported (and saved) w is 0, "
           "which predicts one label everywhere: run more passes";
}

void visitLambda(OptionVisitor& v, double& lambda) {
    v.real("lambda", lambda,
           "regularisation lambda of lambda/2 |w|^2 + mean structured hinge, > 0");
}

void visitBatchEvaluation(OptionVisitor& v, int& evalEvery, int& threads) {
    v.integer("eval_every", evalEvery,
              "passes between evaluations of the letter errors (one decoding pass each), >= 1");
    v.integer("threads", threads, "threads of the decoding passes (0: all cores)");
}

bool validStructuredOptions(const char* owner, double lambda, int evalEvery, int threads,
                            std::string* why) {
    return require(std::isfinite(lambda) && lambda > 0, owner, "lambda", lambda,
                   "must be > 0 and finite", why) &&
           require(evalEvery >= 1, owner, "eval_every", evalEvery, "must be >= 1", why) &&
           require(threads >= 0 && threads <= 256, owner, "threads", threads,
                   "must lie in [0, 256]", why);
}

bool validStructuredProblem(const std::string& owner,
                            const std::shared_ptr<const ChainModel>& train,
                            const std::shared_ptr<const ChainModel>& test, std::string* why) {
    std::string reason;
    if (!train) {
        reason = owner + ": no training words";
    } else if (test && !sameLayout(*train, *test, &reason)) {
        reason = owner + ": test words " + reason;
    } else {
        return true;
    }
    if (why) *why = std::move(reason);
    return false;
}

}  // namespace cplab
