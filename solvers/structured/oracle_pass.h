// SPDX-License-Identifier: GPL-3.0-or-later
// What the batch solvers of the structured family share (Frank–Wolfe, 1-slack and n-slack
// cutting planes, the evaluations of the subgradient method): one pass of loss-augmented
// decodings of every training word at one w, and the bookkeeping around it.
//
// A pass at w gives, for every word i, ŷᵢ = argmax_y Δ(yᵢ, y) + ⟨w, Ψ(xᵢ, y)⟩ and with it
//
//     Hᵢ(w) = Δ(yᵢ, ŷᵢ) − ⟨w, ψᵢ(ŷᵢ)⟩                (the structured hinge),
//     P(w)  = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w)                (the primal, no further decoding),
//     −(1/n) Σᵢ ψᵢ(ŷᵢ) ∈ ∂R(w),  R = (1/n) Σᵢ Hᵢ     (the 1-slack plane, the FW corner).
//
// So a solver that needs both the primal value and the decodings (to build a plane, a corner
// or a constraint) gets both from one pass.
//
// Threads: the words are decoded in contiguous blocks on a WorkerTeam, each with its own
// ChainWorkspace, and every word's results go to slots of their own; the sums over words
// (meanHinge, meanLoss, addMeanPsi) then run in word order on the calling thread. Results are
// therefore bit-identical for every number of threads. The ψ sums are sequential on purpose:
// adding ψᵢ costs O(T·nnz), a decoding O(T·L·nnz + T·L²), so the serial part is about 1/L of
// the pass.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/cancel_token.h"
#include "core/communicator.h"
#include "core/solver.h"
#include "structured/chain_model.h"

namespace cplab {

class OptionVisitor;
class WorkerTeam;

// The training words and, optionally, test words whose errors the solvers report. The test
// model must have the training model's layout (sameLayout).
struct StructuredProblem {
    std::shared_ptr<const ChainModel> train{};
    std::shared_ptr<const ChainModel> test{};  // may be null
    // Null: one process. Else the processes among which the 1-slack and n-slack solvers split
    // their oracle passes' decodings by words (runOraclePass); every rank holds every word.
    std::shared_ptr<Communicator> communicator{};
};

// The letter (token) and word (sequence) errors of one w; the test errors are −1 without test
// words, everything NaN before the first evaluation.
struct StructuredErrors {
    double trainLetter = std::numeric_limits<double>::quiet_NaN();
    double trainWord = std::numeric_limits<double>::quiet_NaN();
    double testLetter = -1.0;
    double testWord = -1.0;
};

// One decoding pass over the training words and one over the test words (when there are some).
StructuredErrors evaluateErrors(const StructuredProblem& problem, const Eigen::VectorXd& w,
                                WorkerTeam* team);

// The record columns every structured solver starts with (a solver appends its own):
// primal P(w), dual D(α), duality_gap, mean_step, then the errors of the evaluated w:
// train_error (letters), test_error (letters, −1 without test words), test_word_error.
std::vector<std::string> structuredColumns();
// Their values; the errors are NaN when the record's pass did not evaluate w.
std::vector<double> structuredColumnValues(double primal, double dual, double gap, double step,
                                           const StructuredErrors& errors, bool evaluated);

// The closing summary fields of every structured solver for its reported weights w:
// train_error and train_word_error; with test words test_error, test_char_error (the same
// value: test_error is the name every family uses) and test_word_error; then labels and
// weights (the model's dimension).
// After a run that ended by its time limit or a stop (`status`), the decodings get at most
// max(1 s, max_seconds / 10) of `limits` (finalEvaluationAffordable's budget), polled per word:
// when they do not finish within it, every error field is NaN and `errors_not_evaluated` says
// why (a summary of a non-zero w on costly words decoded every word after the limit).
void addErrorFields(const StructuredProblem& problem, const Eigen::VectorXd& w, WorkerTeam* team,
                    SummaryFields& fields, const Status& status, const StopOptions& limits);
// The same within `stop` (polled per word; `budget` is the seconds named in the note).
void addErrorFields(const StructuredProblem& problem, const Eigen::VectorXd& w, WorkerTeam* team,
                    SummaryFields& fields, const Interrupt& stop, double budget);

struct OraclePass {
    std::vector<int> labels;    // ŷᵢ of every word, concatenated in token order (as the
                                // labels of SequenceData)
    std::vector<double> hinge;  // Hᵢ(w)
    std::vector<double> loss;   // Δ(yᵢ, ŷᵢ)
    double meanHinge = 0.0;     // (1/n) Σᵢ Hᵢ(w) = R(w)
    double meanLoss = 0.0;      // (1/n) Σᵢ Δ(yᵢ, ŷᵢ)

    // ŷᵢ (precondition: the pass ran on `model`).
    std::span<const int> labelling(const ChainModel& model, int i) const {
        return std::span<const int>(labels).subspan(static_cast<std::size_t>(model.data().first(i)),
                                                    static_cast<std::size_t>(model.length(i)));
    }
};

// Decodes every word of `model` at w (n loss-augmented decodings) into `pass`, on `team`
// (null: the calling thread). Polls `stop` (may be null: the user's cancel and the run's
// deadline) before every word, since one word may cost T·L² (seconds with thousands of
// labels); returns false, with `pass` incomplete, when it was interrupted. With `comm` (N > 1
// processes, a collective) rank r decodes the words [n·r/N, n·(r+1)/N) and the ranks share
// their words' results, so every rank's `pass` is bit-identical to one process's (false on
// every rank when one was interrupted).
bool runOraclePass(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                   const Interrupt* stop, OraclePass& pass, Communicator* comm = nullptr);

// The oracle pass at w = 0 without decoding, for the solvers' set-up on data whose decoding
// passes are costly (decodingPassCost > kCostlyDecodingPass: thousands of labels, where a set-up
// pass would take minutes before the first iteration and its time limit): at w = 0 every
// labelling differing from yᵢ at every token maximises Δ(yᵢ, y) + ⟨0, Ψ⟩, so ŷᵢ,t = (yᵢ,t + 1)
// mod L (yᵢ itself when L = 1) and Hᵢ(0) = Δ(yᵢ, ŷᵢ) — exact, O(T) per word.
void zeroWeightPass(const ChainModel& model, OraclePass& pass);
// The oracle pass of the batch solvers at w: zeroWeightPass when w = 0 and costlyDecoding(model)
// (exact, without minutes of decoding), else runOraclePass (false: interrupted by `stop`).
bool oraclePassAt(const ChainModel& model, const Eigen::VectorXd& w, WorkerTeam* team,
                  const Interrupt* stop, OraclePass& pass, Communicator* comm = nullptr);
// True when the set-up avoids decoding passes at w = 0 (zeroWeightPass, and the errors of w = 0
// left unevaluated: NaN).
bool costlyDecoding(const ChainModel& model);
// The errors of w = 0 for the set-up: evaluateErrorsTimed, or all NaN (not evaluated, and
// *seconds = ∞: an evaluation is taken as long) when costlyDecoding(*problem.train).
StructuredErrors startErrors(const StructuredProblem& problem, WorkerTeam* team, double* seconds);

// v += scale · Σᵢ ψᵢ(ŷᵢ) over the words of `pass`, in word order.
void addPsiSum(const ChainModel& model, const OraclePass& pass, double scale, Eigen::VectorXd& v);

// A team for the `threads` option of the structured solvers (0: all cores; 1: none).
std::unique_ptr<WorkerTeam> makeStructuredTeam(int threads);

// The options of the structural SVMs as the option forms and `cplab-cli list` show them: λ of
// λ/2‖w‖² + mean structured hinge; and, for the batch solvers (nslack, oneslack, fw), whose
// evaluation is one decoding pass for the errors, eval_every and threads.
void visitLambda(OptionVisitor& v, double& lambda);
void visitBatchEvaluation(OptionVisitor& v, int& evalEvery, int& threads);

// The checks of the options every structured solver has, reporting as `owner`: λ > 0 and
// finite, eval_every ≥ 1, threads in [0, 256].
bool validStructuredOptions(const char* owner, double lambda, int evalEvery, int threads,
                            std::string* why);

// The checks of a structured problem: training words, and test words (if any) of the same
// layout. False with *why ("<owner>: ...").
bool validStructuredProblem(const std::string& owner,
                            const std::shared_ptr<const ChainModel>& train,
                            const std::shared_ptr<const ChainModel>& test, std::string* why);

// The status of a step that `stop` ended part-way: Cancelled ("stopped by the user during
// <where>") or TimeLimit ("reached max_seconds = … during <where>"), with `after` appended
// (what the bounds and the model then are). core/deadline.h's, with the run's limits.
Status interruptedStatus(const Interrupt& stop, const StopOptions& limits, const std::string& where,
                         const std::string& after = {});

// evaluateErrors, adding the seconds it took to *seconds (which the caller zeroes).
StructuredErrors evaluateErrorsTimed(const StructuredProblem& problem, const Eigen::VectorXd& w,
                                     WorkerTeam* team, double* seconds);

// Whether the step that completed pass `passes` evaluates its iterate: every evalEvery passes,
// unless the evaluation would end past the time limit (its time estimated by the last one's,
// evalSeconds, or by this step's time before any was measured) — then finishRecord makes it if
// it is affordable.
bool evaluationDue(int passes, int evalEvery, const Interrupt& stop, double evalSeconds);

// Whether a run that ended as `status` evaluates its final iterate, which takes about
// `evaluationSeconds` (the last evaluation's time): always, unless the run was stopped by its
// time limit or by the user and one evaluation takes more than max(1 s, max_seconds / 10) —
// the limit and the user's stop come first; the reported model is then the best evaluated
// one, whose P is U (the note says so).
bool finalEvaluationAffordable(const Status& status, double evaluationSeconds,
                               const StopOptions& stop);
std::string skippedEvaluationNote(double evaluationSeconds);

// The final evaluation of the cutting-plane solvers (1-slack, n-slack), which know P of every
// iterate from its oracle pass but not always its errors: when the last record has no errors
// (evaluated false) but a finite P, evaluates the errors of w into `errors` and the record's
// error columns, and sets `evaluated` — unless finalEvaluationAffordable(status, evalSeconds,
// stop) says no: then returns skippedEvaluationNote. "" otherwise.
std::string evaluateFinalErrors(const StructuredProblem& problem, const Eigen::VectorXd& w,
                                WorkerTeam* team, const Status& status, const StopOptions& stop,
                                double evalSeconds, StructuredErrors& errors, bool& evaluated,
                                IterationRecord& record);

// The note a run's status message gets when its reported weights are still the start w = 0
// after `passes` passes (no evaluated iterate had a lower P than P(0) yet): why the reported
// model predicts one label everywhere. "" otherwise.
std::string startWeightsNote(const Eigen::VectorXd& reported, int passes);

}  // namespace cplab
