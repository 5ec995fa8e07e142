// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/oracle_pass.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numeric>
#include <thread>

#include "core/number_text.h"
#include "core/options.h"
#include "core/worker_team.h"

namespace cplab {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool runOraclePass(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                   const Interrupt* stop, OraclePass& pass) {
    const int n = model.size();
    const std::size_t slots = static_cast<std::size_t>(n);
    pass.labels.resize(model.data().labels.size());
    pass.hinge.assign(slots, 0.0);
    pass.loss.assign(slots, 0.0);
    std::atomic<bool> stopped{false};
    std::atomic<int> decoded{0};
    const int blocks = team ? team->partsFor(model.data().tokenCount(), 512) : 1;
    runBlocks(team, n, blocks, [&](int, int begin, int end) {
        ChainWorkspace ws;
        std::vector<int> y;
        for (int i = begin; i < end; ++i) {
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
    if (stopped.load(std::memory_order_relaxed)) return false;
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
                  const Interrupt* stop, OraclePass& pass) {
    if (w.isZero(0.0) && costlyDecoding(model)) {
        zeroWeightPass(model, pass);
        return true;
    }
    return runOraclePass(model, w, team, stop, pass);
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
                    SummaryFields& fields) {
    const StructuredErrors errors = evaluateErrors(problem, w, team);
    fields.emplace_back("train_error", errors.trainLetter);
    fields.emplace_back("train_word_error", errors.trainWord);
    if (problem.test) {
        fields.emplace_back("test_error", errors.testLetter);
        fields.emplace_back("test_char_error", errors.testLetter);
        fields.emplace_back("test_word_error", errors.testWord);
    }
    fields.emplace_back("labels", static_cast<long long>(problem.train->labelCount()));
    fields.emplace_back("weights", static_cast<long long>(problem.train->dimension()));
}

Status interruptedStatus(const Interrupt& stop, const StopOptions& limits, const std::string& where,
                         const std::string& after) {
    if (stop.cancelled() || !stop.timedOut())
        return Status::make(StatusCode::Cancelled, "stopped by the user during " + where + after);
    return Status::make(
        StatusCode::TimeLimit,
        "reached max_seconds = " + formatReal(limits.max_seconds) + " during " + where + after);
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
