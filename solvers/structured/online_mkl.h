// SPDX-License-Identifier: GPL-3.0-or-later
// Online proximal MKL for structured prediction (Martins, Smith, Aguiar & Figueiredo 2011,
// "Online learning of structured predictors with multiple kernels", AISTATS: Alg. 1–3; seed
// 002; ALGORITHMS.md §6, "Online MKL").
//
// Model:      the chain model of chain_model.h with its emission part split into groups, one
//             per kernel k_g on the token features (linear, polynomial, Gaussian; `normalize`
//             = diagonal divides by √(k(x,x)k(x′,x′)), i.e. unit diagonal), optionally an
//             explicit group on the token features themselves (`pixels`: φ(x) = x, or x/‖x‖
//             with the diagonal normalisation — the linear kernel's feature map), and one
//             explicit group of the label biases and first-order transitions
//             (`transitions`). The score of a labelling y of word x is
//                 Σ_g ⟨w_g, Φ_g(x, y)⟩,  Φ_g(x, y) = Σ_t e_{y_t} ⊗ φ_g(x_t)   (emission groups)
//                 + ⟨w_tr, Σ_t e_{y_t} + Σ_{t<T} e_{y_t} ⊗ e_{y_{t+1}}⟩           (transitions).
// Objective:  P(w) = λ·Ω(‖w_1‖, …, ‖w_K‖) + (1/n) Σᵢ Hᵢ(w), Hᵢ the structured hinge with the
//             chain model's Hamming loss; Ω = ½(Σ_g ‖w_g‖)² (squared_l1, MKL), Σ_g ‖w_g‖
//             (group_lasso) or ½ Σ_g ‖w_g‖² (l2) — group_prox.h.
// Round t on word i (Alg. 3), η_t = eta0/√t (or 1/(λt), `learning_rate=pegasos`, the step of
//             Pegasos and of the structured family's ssg, for the strongly convex l2 case):
//             ŷ = argmax_y Δ(yᵢ, y) + Σ_g ⟨w_g, Φ_g(xᵢ, y)⟩          (loss-augmented Viterbi)
//             w_g ← w_g − η_t (Φ_g(xᵢ, ŷ) − Φ_g(xᵢ, yᵢ))             (every group)
//             b_g = ‖w_g‖, b̃ = prox_{η_t λ Ω}(b), w_g ← (b̃_g / b_g) w_g   (group_prox.h)
//             w ← w · min(1, radius/‖w‖)                              (optional, radius > 0)
//             The prox can set a group to 0 (squared_l1, group_lasso): it is then pruned until a
//             later gradient step revives it.
// Kernel groups as expansions. The gradient step only changes w_g at the tokens of word i
//             whose label ŷ_t ≠ y_t, by ∓η_t e_{label} ⊗ φ_g(x_t); so w_g = s_g Σ_j Σ_l
//             v_g[j, l] e_l ⊗ φ_g(x_j) over the N training tokens j, with a scale s_g that the
//             prox and projection steps multiply (O(1) per group instead of touching the
//             expansion). Memory is fixed by the data, not the run: v_g, the training-token
//             scores F_g = K_g v_g (N × L, kept up to date with one kernel row per changed token,
//             O(N·nnz) each) and the two averaging tables below, 4·N·L doubles per kernel
//             group (OCR fold 0: N = 4,617, L = 26, 3.8 MB per group) — it does not grow with
//             the epochs (the paper's list of (example, labelling) pairs would).
//             The group norms are maintained incrementally as in the paper's eq. 17:
//             ‖w − ηg‖² = ‖w‖² − 2η⟨w, g⟩ + η²‖g‖², ⟨w, g⟩ from F_g and ‖g‖² from the kernel
//             values among the changed tokens; every chunk they are re-synchronised with the
//             exact s_g²·⟨v_g, F_g⟩ (rounding), and at evaluations computed exactly.
// Averaging:  with `averaging` the reported model is w̄ = (1/t) Σ_τ w_τ (Alg. 1's "averaged
//             model"), kept lazily: A_g = S_g v_g − U_g with S_g = Σ_τ s_g(τ) and U_g += S_g·δ
//             whenever v_g changes by δ, so A_g = Σ_τ s_g(τ) v_g(τ) at O(1) per change; the
//             training scores of U_g are kept like F_g. When s_g leaves [10⁻³, 10³] (a group
//             the prox keeps shrinking), s_g is folded into v_g and the average so far into u_g
//             (S_g ← 0), so that S_g·v_g − u_g never cancels many digits.
// Steps:      one step = one chunk of a pass (`chunks` per epoch; the words in a fresh random
//             permutation every epoch, PortableRandom(seed)), so the weights move smoothly on
//             screen. The run ends after `epochs` epochs: they set the iteration limit to
//             epochs × the steps of an epoch (status iteration_limit; a smaller max_iterations
//             or max_seconds ends it earlier).
// Evaluation: at the start and after every `eval_every` epochs, for the reported model: the
//             objective P (n loss-augmented decodings over the training tokens' scores), the
//             letter and word errors on the training and test words (test scores by blocks of
//             dense products with the active training tokens, on `threads` threads).
// Bounds:     upper U = P of the reported model at its newest evaluation (the final model is
//             always evaluated, whatever ends the run; no certificate: lower = −∞, so the gap
//             rules never stop the run).
// Columns:    structuredColumns() (primal = P at evaluations, else NaN; dual and duality_gap
//             NaN; mean_step = mean η_t of the chunk; the errors at evaluations), then
//             active_groups (b̃ > 0 after the chunk's last round) and beta:<group> for every
//             group: β_g = ‖w_g‖ / Σ_h ‖w_h‖ of the current iterate after the chunk.
// Oracle calls: one loss-augmented decoding per round, n per evaluation.
// Files: online_mkl.cpp (options, set-up, steps, evaluation, summary, snapshot) and
// online_mkl_groups.{h,cpp} (the groups, the scorer, one round's maths).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/solver.h"
#include "data/portable_random.h"
#include "kernel/kernel_spec.h"
#include "structured/group_prox.h"
#include "structured/oracle_pass.h"
#include "structured/structured_solver.h"

namespace cplab {

class WorkerTeam;
struct StructuredSnapshot;

struct OnlineMklOptions {
    // Steps are chunks; `epochs` ends the run.
    StopOptions stop{.max_iterations = 1000000};
    double lambda = 1e-4;                                 // regularisation λ > 0
    double eta0 = 1.0;                                    // learning rate η_t = eta0/√t, > 0
    std::string learning_rate = "sqrt";                   // sqrt: eta0/√t | pegasos: 1/(λt)
    std::string kernels = "linear;poly:2;gaussian:0.05";  // kernel groups (kernel_spec.h)
    std::string normalize = "diagonal";                   // none | diagonal (unit diagonal)
    bool pixels = false;                                  // an explicit group on the token features
    bool transitions = true;                 // the explicit group of biases and transitions
    std::string regulariser = "squared_l1";  // squared_l1 | group_lasso | l2
    double radius = 0.0;                     // projection ball radius, ≥ 0 (0: none)
    bool averaging = true;                   // report the averaged model (else the last)
    int epochs = 20;                         // passes over the training words, ≥ 1
    int chunks = 20;                         // steps per epoch, ≥ 1 (at most n)
    int eval_every = 1;                      // epochs between evaluations, ≥ 1
    std::int64_t seed = 1;                   // seed of the word order, ≥ 0
    int threads = 1;                         // evaluation threads, 0..256 (0: all cores)

    void visit(OptionVisitor& v);
    bool isValid(std::string* why) const;
};

class OnlineMklSolver final : public StructuredSolver {
  public:
    explicit OnlineMklSolver(StructuredProblem problem, OnlineMklOptions options = {});
    ~OnlineMklSolver() override;

    std::string name() const override { return "online_mkl"; }
    std::vector<std::string> extraColumns() const override;
    std::vector<std::string> pseudocode() const override;
    // lambda, regulariser, epochs, rounds, averaging, objective, the errors (train_error,
    // train_word_error, test_error = test_char_error, test_word_error, as every structured
    // solver), test_char_accuracy, active_groups, weights (group → β_g) and group_norms of the
    // reported model.
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const OnlineMklOptions& options() const { return options_; }
    double lambda() const { return options_.lambda; }

    int groupCount() const;
    const std::string& groupName(int g) const;
    // ‖w_g‖ of the current iterate as maintained (incrementally within a chunk), and computed
    // from scratch (s_g²·⟨v_g, K_g v_g⟩ by fresh kernel sums for kernel groups).
    double groupNorm(int g) const;
    double groupNormFromScratch(int g) const;
    // The emission scores ⟨w_g, e_l ⊗ φ_g(x_k)⟩ of group g (current iterate) for every training
    // token k (N × L): from the maintained table, and computed from scratch.
    Eigen::MatrixXd groupTrainScores(int g) const;
    Eigen::MatrixXd groupTrainScoresFromScratch(int g) const;
    // The explicit feature group's weights (L × d) of the current iterate, or of the reported
    // model (the average with `averaging`); empty without the group.
    Eigen::MatrixXd pixelWeights(bool reportedModel = false) const;
    // The order of the words in the current epoch (round k of the epoch takes order[k]).
    const std::vector<int>& epochOrder() const { return order_; }
    long long rounds() const { return rounds_; }
    // The last round's proximal step on the group norms.
    const std::vector<double>& lastNormsBefore() const { return proxBefore_; }
    const GroupProx& lastProx() const { return prox_; }
    // P of the reported model (averaged or last), computed now.
    double objective() const;

  protected:
    Status doStep(IterationRecord& record) override;
    // Evaluates the final iterate when the last step did not (eval_every).
    std::string finishRecord(IterationRecord& record, const Status& status) override;

  private:
    struct Group;
    struct Weights;  // one model: the current iterate or the average
    class Scorer;    // emission scores of any tokens for one model

    // Construction: the kernel specs and the regulariser (false with *why: a bad kernel list or
    // no group), the dense token table (false: too large), the groups.
    bool parseGroups(std::string* why);
    bool loadTokens(std::string* why);
    void buildGroups();
    // A fresh random word order (Fisher–Yates from the back: i swaps with random.below(i + 1)).
    void shuffleOrder();
    // The end of an epoch: a new order and, when due, the evaluation of the reported model
    // (false when its objective is not finite).
    bool endEpoch(IterationRecord& record);
    // Notes the groups that entered or left the active set since the last step.
    void noteGroupChanges(const std::vector<double>& norms, const std::vector<double>& beta);
    // One round on training word `word`; returns η_t, or NaN when a group norm overflowed
    // (the model is then unusable: doStep ends the run).
    double round(int word);
    // The round's steps. ws_.unary gets group g's scores of the T tokens of the word from token
    // `first`, `trans` the transitions (transition group).
    void addWordScores(const Group& g, int first, int T, std::vector<double>& trans);
    // yHat_ = ŷ, the loss-augmented decoding at the current iterate of the word whose tokens
    // start at `first` and have the labels `truth`.
    void decodeWord(int first, std::span<const int> truth);
    // The gradient step of an explicit group (features, transitions) and its norm.
    void explicitGradientStep(Group& g, int first, std::span<const int> truth,
                              const std::vector<int>& wrong, double eta);
    // The proximal step on the group norms, the projection and the averaging sums; false when
    // a group norm overflowed.
    bool proxStep(double eta);
    // The gradient step of round() on the kernel groups, for the tokens first + t (t in
    // `wrong`, where the decoding yHat_ differs from `truth`), and their norms by eq. 17.
    void kernelGradientStep(int first, std::span<const int> truth, const std::vector<int>& wrong,
                            double eta);
    void zeroGroup(Group& g);
    void rescaleGroup(Group& g);
    // ⟨x_j, x_k⟩ and k_g(x_j, x_k) (from those dot products) for every training token k.
    Eigen::VectorXd tokenDots(int j) const;
    Eigen::VectorXd kernelRow(const Group& g, int j, const Eigen::VectorXd& dots) const;
    Weights reported() const;
    Weights current() const;
    // The emission scores (bias included) of the training tokens, N × L, for `w`.
    Eigen::MatrixXd trainUnary(const Weights& w) const;
    struct Evaluation {
        double objective = 0.0;
        StructuredErrors errors;
        std::vector<double> norms;  // ‖w_g‖ of the model
    };
    Evaluation evaluate(const Weights& w) const;
    // ‖w_g‖ of every group (cheap: no decoding); `trans` gets the L² transitions (may be null).
    std::vector<double> groupNorms(const Weights& w, std::vector<double>* trans) const;
    // The evaluation of w = 0 without decoding, for the set-up on data whose decoding passes
    // are costly (costlyDecoding): P(0) = λ·Ω(0) + (1/n) Σᵢ max_y Δ(yᵢ, y) (zeroWeightPass)
    // and the errors of label 0 at every token (Viterbi's ties at w = 0), both exact.
    Evaluation zeroEvaluation() const;
    std::vector<double> betas(const std::vector<double>& norms) const;
    // The snapshot's model: `w` in the chain layout (emission templates of the linear groups,
    // biases, transitions; `trans` gets the L² transitions), and the lattices of the first
    // kLatticeWords test (else training) words scored by all groups.
    Eigen::VectorXd chainWeights(const Weights& w, std::vector<double>& trans) const;
    void fillLattices(const Weights& w, const std::vector<double>& trans,
                      StructuredSnapshot& snap) const;

    OnlineMklOptions options_;
    GroupRegulariser regulariser_ = GroupRegulariser::SquaredL1;
    std::vector<KernelSpec> specs_;
    PortableRandom random_;
    int N_ = 0, L_ = 0, d_ = 0;
    Eigen::MatrixXd tokens_;      // N × d, dense, column-major: the training tokens' features
    Eigen::VectorXd tokenSq_;     // ‖x_k‖²
    std::vector<int> tokenWord_;  // word of each training token
    std::vector<Group> groups_;
    std::vector<int> order_;
    std::size_t next_ = 0;  // position in order_ within the epoch
    int epochs_ = 0;
    long long rounds_ = 0;
    ChainWorkspace ws_;
    std::vector<int> yHat_;
    std::vector<double> proxBefore_;
    GroupProx prox_;
    Evaluation last_;  // at the last evaluation
    bool evaluatedLast_ = true;
    long long evaluatedRounds_ = 0;   // rounds_ at the last evaluation (last_ holds while equal)
    bool finalSkipped_ = false;       // the final evaluation was skipped (finishRecord's note)
    std::vector<bool> activeGroups_;  // ‖w_g‖ > 0 after the last step (all false at w = 0)
    double evalSeconds_ = 0.0;        // the last evaluation's time
};

}  // namespace cplab
