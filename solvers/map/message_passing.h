// SPDX-License-Identifier: GPL-3.0-or-later
// What the message-passing MAP solvers share (ALGORITHMS.md §8): the dual of the
// local-polytope LP in reparametrisation form, decoding, bounds, records and snapshots.
//
// Problem:   maximise E(x) = c + Σ_v θ_v(x_v) + Σ_{e=uv} θ_e(x_u, x_v) (pairwise_model.h).
// Dual:      messages m_{e→u}(x_u), one vector per edge end, define the reparametrisation
//                θ̂_u(x_u)          = θ_u(x_u) + Σ_{e ∋ u} m_{e→u}(x_u)         (beliefs)
//                θ^φ_e(x_u, x_v)    = θ_e(x_u, x_v) − m_{e→u}(x_u) − m_{e→v}(x_v),
//            which leaves every E(x) unchanged, and the dual bound
//                U(m) = c + Σ_u max θ̂_u + Σ_e max θ^φ_e  ≥  LP optimum  ≥  max_x E(x)
//            (the chapter's φ_{uv,u} is m_{e→u}). Message passing lowers U; −∞ entries are
//            replaced by PairwiseModel::forbiddenFloor(), which keeps U an upper bound.
//            A higher-order factor f (3+ variables) has a message δ_{f→i}(x_i) per variable i
//            of it, added to θ̂_i like the edges' messages, and the term
//                max_{x_f} [θ_f(x_f) − Σ_{i∈f} δ_{f→i}(x_i)]
//            in U (Globerson & Jaakkola 2007's factor–variable form). TRW-S stays pairwise
//            and refuses a model with such factors; MPLP with cycles also sends factor
//            messages to pair separators (cycle_mplp.h).
// Decoding:  x_u = argmax θ̂_u (first maximiser), or a solver's own rounding (TRW-S),
//            improved by icm_passes of ICM; then forest_moves moves of the anytime decoder
//            (map_decoder.h: exact maximisation over an induced forest grown from the nodes
//            the dual leaves undecided), applied on odd steps to this step's labeling and on
//            even steps to the best labeling so far, so the best keeps improving while the
//            dual does; E(x) from PairwiseModel::energy().
// Bounds:    record.upper = the lowest dual bound so far (every one is certified, so the best
//            one is; raised to E(x_best) where it falls below it by a rounding error only);
//            record.lower = the highest E(x) so far. The bound is U above for MPLP
//            and diffusion, U with cluster terms for MPLP with cycles (cycle_mplp.h), and the
//            value of its chain decomposition for TRW-S (trws.h): all are sums of maxima of
//            parts θ^P whose sum over the parts is E, so that
//                bound − E(x) = Σ_P [max θ^P − θ^P(x)] ≥ 0,
//            zero exactly when the decoded x attains every part's maximum (a certificate of
//            optimality). A node is "disagreeing" when a part containing it does not (the
//            per-node map of the views): for U, an edge at the node whose maximum x misses.
// Stopping:  StopOptions (epsilon on U − E(x_best), tol_rel, max_iterations = sweeps,
//            max_seconds), and "stalled" when over the last stall_sweeps sweeps neither the
//            best U has decreased nor the best E(x) has risen by more than
//            stall_tolerance·max(1, |U|) (a fixed point of the method — MPLP, TRW-S and
//            diffusion may stop at one above the LP optimum — where the decoder finds nothing
//            better either). The defaults let a run on a file with no options end by the gap
//            or by this rule: max_iterations is no limit in practice and max_seconds = 10 is
//            the backstop (docs/map.md says why).
// One step() = sweeps_per_step sweeps over the graph (derived classes say which updates a
// sweep makes), then one evaluation; the default, auto, is one sweep except where a derived
// solver picks more (cycle_mplp.h). A sweep polls the cancel token every few thousand nodes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/solver.h"
#include "map/map_decoder.h"
#include "map/map_snapshot.h"
#include "map/pairwise_model.h"

namespace cplab {

struct MessagePassingOptions {
    // A run ends by the gap or the stall rule: 10⁶ sweeps is no limit in practice, and 10 s
    // is the backstop on a model whose bound keeps creeping down.
    StopOptions stop{
        .epsilon = 1e-6, .tol_rel = 0.0, .max_iterations = 1000000, .max_seconds = 10.0};
    // Sweeps without a real decrease of the best dual bound nor a real rise of the best
    // energy after which the run stops as stalled; 0 turns the rule off.
    int stall_sweeps = 1000;
    // What counts as real over stall_sweeps sweeps, relative to max(1, |U|); ≥ 0.
    double stall_tolerance = 1e-7;
    // Passes of ICM (iterated conditional modes: each node in turn takes its best label given
    // its neighbours') applied to each sweep's decoded labeling before it is scored; 0: off.
    // ICM stops early after a pass that moves no node, so a high cap costs little.
    int icm_passes = 10;
    // Moves of the anytime decoder (map_decoder.h) per step, each an exact maximisation over
    // an induced forest of the graph; 0: off. One costs about as much as a sweep of MPLP.
    int forest_moves = 1;
    // Whether those moves grow, on a model of binary variables without factors of 3+
    // variables, a block with no frustrated cycle and maximise over it exactly by a min-cut
    // (local_search.h; a forest elsewhere): balanced blocks hold far more of a frustrated grid.
    bool balanced_blocks = true;
    // Sweeps per step: the bound, the decoding and the record are made after the last one
    // (as reference TRW-S code evaluates its bound every few iterations); 1..1000, or kAuto
    // (the default): the solver picks, 1 except where an evaluation costs several sweeps on a
    // large model (mplp_cycles: autoSweepsPerStep in cycle_mplp.h).
    static constexpr int kAuto = -1;
    int sweeps_per_step = kAuto;

    void visit(OptionVisitor& v) {
        stop.visit(v);
        v.integer("stall_sweeps", stall_sweeps,
                  "stop as stalled after this many sweeps without a real decrease of the dual "
                  "bound (0: never)");
        v.real("stall_tolerance", stall_tolerance,
               "a decrease of the dual bound below stall_tolerance max(1, |U|) over stall_sweeps "
               "sweeps counts as none (>= 0)");
        v.integer("icm_passes", icm_passes,
                  "ICM passes that improve each decoded labeling (0: off, >= 0)");
        v.integer("forest_moves", forest_moves,
                  "moves of the anytime decoder per step: exact maximisation over a forest of "
                  "nodes grown from the undecided ones (0: off, 0..100)");
        v.boolean("balanced_blocks", balanced_blocks,
                  "binary models: the decoder's moves maximise over blocks with no frustrated "
                  "cycle by a min-cut, not over forests");
        v.integer("sweeps_per_step", sweeps_per_step,
                  "sweeps of message passing per step; the bound and the labeling are "
                  "evaluated after the last (1..1000; -1: auto, 1 except mplp with tighten on "
                  "binary models of 4,096+ variables)");
    }
    // `owner` names the options struct in the message ("TrwsOptions").
    bool isValid(const char* owner, std::string* why) const;
};

// "" when `solver`, which handles pairwise models only, can run on `model`; else the refusal
// "trws handles pairwise models only; <where> has 3 factors of 3+ variables: use mplp or
// diffusion".
std::string pairwiseOnlyRefusal(const PairwiseModel& model, const std::string& solver,
                                const std::string& where);

// What a derived message-passing solver adds to the base's set-up: its memory (its own
// tables, and what its set-up holds at its peak), per edge and per node, checked with the
// base's before anything is allocated so that the refusal gives the run's whole need; and
// whether it makes the iteration-0 record itself (resetInitialRecord once its own state is
// built, when its bound differs from the base's: one set-up evaluation instead of two).
struct DerivedSetup {
    double bytesPerEdge = 0.0;
    double bytesPerNode = 0.0;
    bool ownInitialRecord = false;
};

class MessagePassingSolver : public Solver {
  public:
    std::vector<std::string> extraColumns() const override;
    SummaryFields summary() const override;
    SnapshotPtr snapshot() const override;

    const PairwiseModel& model() const { return *model_; }
    // The bound at the current messages (the "dual" column; lastRecord().upper is the lowest
    // so far).
    double dual() const { return dual_; }
    const std::vector<int>& labeling() const { return labeling_; }
    const std::vector<int>& bestLabeling() const { return bestLabeling_; }
    double bestEnergy() const { return bestEnergy_; }
    // θ̂_v of the current messages (k_v values).
    std::span<const double> beliefs(int v) const;
    int disagreeingNodes() const { return disagreeingCount_; }
    // Clusters added by tightening (0 without it); the summary's "clusters".
    virtual int clusterCount() const { return 0; }
    // Sweeps per step: options' sweeps_per_step, or what the solver picked for kAuto.
    int sweepsPerStep() const { return sweepsPerStep_; }

    // The picture of a generated image model (its layout, input image and ground truth): it
    // travels in the snapshots, and with a truth the summary adds "bad_pixels" (the fraction
    // of known nodes whose best labeling is off by more than the tolerance) and
    // "truth_pixels". Ignored unless its width × height is the model's variable count.
    void setPicture(std::shared_ptr<const GridPicture> picture);
    const std::shared_ptr<const GridPicture>& picture() const { return picture_; }

  protected:
    // Validates (reporting as `owner`) and sets up zero messages and the iteration-0 record.
    // A solver that handles pairwise models only names itself in `pairwiseOnly`: a model with
    // higher-order factors is then refused (pairwiseOnlyRefusal).
    MessagePassingSolver(std::shared_ptr<const PairwiseModel> model, MessagePassingOptions options,
                         const char* owner, const char* pairwiseOnly = nullptr,
                         DerivedSetup derived = {});

    // One sweep of the derived method's updates. It keeps the messages a valid
    // reparametrisation at every moment; beliefs need not be current when it returns. A sweep
    // that rounds a labeling of its own (TRW-S) leaves it in proposal_, which is scored too;
    // it need only do so when lastSweepOfStep() (the one evaluated).
    virtual void sweep() = 0;
    bool lastSweepOfStep() const { return lastSweepOfStep_; }
    // A window of `sweeps` sweeps in steps (at least 1 when sweeps > 0).
    std::size_t stepsFor(int sweeps) const {
        const int k = sweepsPerStep_;
        return static_cast<std::size_t>((sweeps + k - 1) / k);
    }
    // A derived constructor's choice for sweeps_per_step = kAuto (the base takes 1); ignored
    // when the options give a number. Before the first step.
    void setAutoSweepsPerStep(int sweeps) {
        if (options_.sweeps_per_step == MessagePassingOptions::kAuto) sweepsPerStep_ = sweeps;
    }
    // Lines of pseudocode() the last step executed (iteration ≥ 1).
    virtual std::vector<int> stepLines() const = 0;
    // The dual bound of the current messages without the constant c, given fresh beliefs and
    // labeling(); marks the disagreeing nodes (entries arrive 0). The default is U of the
    // header (node and edge terms), whose maxima the decoded labeling attains exactly at a
    // zero gap; TRW-S evaluates the bound of its chain decomposition instead.
    virtual double bound(std::vector<std::uint8_t>& disagreeing) const;
    // Appends a derived solver's own record columns after the three common ones.
    virtual void appendExtra(std::vector<double>& /*extra*/) const {}
    // Adds a derived solver's own data to a snapshot the base has filled.
    virtual void addToSnapshot(MapSnapshot& /*snapshot*/) const {}

    Status doStep(IterationRecord& record) override;

    // Where the messages of edge e toward its end `side` (0: u, 1: v) start in messages_.
    double* message(int e, int side) { return messages_.data() + messageOffset_[2 * e + side]; }
    const double* message(int e, int side) const {
        return messages_.data() + messageOffset_[2 * e + side];
    }
    double* belief(int v) { return beliefs_.data() + beliefOffset_[static_cast<std::size_t>(v)]; }
    // θ̂_v = θ'_v + Σ incoming messages, from scratch (no drift from incremental updates).
    void recomputeBelief(int v);
    // Evaluates the current messages from scratch and makes the iteration-0 record of them
    // (a derived constructor whose bound() differs from the default calls it again).
    void resetInitialRecord();
    // Polled by sweeps: true once the run has been cancelled or, inside a step, once the
    // run's time limit has passed (so that max_seconds holds within a part of one sweep
    // whatever sweeps_per_step is).
    bool cancelRequested() const { return cancelRequestedByUser() || interrupt_.timedOut(); }
    bool cancelRequestedByUser() const { return cancelToken().cancelled(); }

    // The edge half of an MPLP sweep (Globerson & Jaakkola 2007, the edge form): fresh
    // beliefs, then for each edge e = uv in order, with a = θ̂_u − m_{e→u} and b = θ̂_v − m_{e→v}
    // (the beliefs without e), m_{e→u} ← (max_{x_v} [θ_e + b] − a)/2 and m_{e→v} likewise, the
    // beliefs following. `maxMarginal(e, toward, in, out)` computes max over the other end of
    // e's table plus `in` (θ'_e for MPLP; cycle MPLP adds its clusters' terms): a template
    // parameter, so that the sweep's inner loop stays a direct call. False when cancelled
    // part-way (the messages stay a valid reparametrisation).
    template <class MaxMarginal>
    bool mplpEdgeSweep(MaxMarginal&& maxMarginal) {
        const PairwiseModel& m = *model_;
        for (int v = 0; v < m.variables(); ++v)
            recomputeBelief(v);
        const std::size_t k = static_cast<std::size_t>(m.maxLabels());
        double* a = scratch_.data();
        double* b = a + k;
        double* gu = b + k;
        double* gv = gu + k;
        for (int e = 0; e < m.edgeCount(); ++e) {
            if ((e & 4095) == 4095 && cancelRequested()) return false;
            const auto& ed = m.edge(e);
            const int ku = m.labels(ed.u);
            const int kv = m.labels(ed.v);
            double* mu = message(e, 0);
            double* mv = message(e, 1);
            double* bu = belief(ed.u);
            double* bv = belief(ed.v);
            for (int x = 0; x < ku; ++x)
                a[x] = bu[x] - mu[x];
            for (int y = 0; y < kv; ++y)
                b[y] = bv[y] - mv[y];
            maxMarginal(e, 0, b, gu);
            maxMarginal(e, 1, a, gv);
            for (int x = 0; x < ku; ++x) {
                mu[x] = 0.5 * (gu[x] - a[x]);
                bu[x] = a[x] + mu[x];
            }
            for (int y = 0; y < kv; ++y) {
                mv[y] = 0.5 * (gv[y] - b[y]);
                bv[y] = b[y] + mv[y];
            }
        }
        return true;
    }

    // The message δ_{f→i} of factor f to its variable at `position` (k_i values).
    double* factorMessage(int f, int position) {
        return messages_.data() + factorMessageOffset_[factorSlot_[static_cast<std::size_t>(f)] +
                                                       static_cast<std::size_t>(position)];
    }
    const double* factorMessage(int f, int position) const {
        return messages_.data() + factorMessageOffset_[factorSlot_[static_cast<std::size_t>(f)] +
                                                       static_cast<std::size_t>(position)];
    }
    // Work space for PairwiseModel::factorMaxMarginals over factor f: in[j] and out[j] point
    // at k_{v_j} values each (contents unspecified).
    struct FactorWork {
        std::vector<double> values;
        std::vector<const double*> in;
        std::vector<double*> out;
        std::vector<double*> inMutable;  // the same vectors as in, writable
    };
    FactorWork& factorWork(int f) const;
    // The generalised MPLP update of factor f's messages to its variables, in two halves:
    // factorLambdas fills work.in[j] with λ_j = θ̂_j − δ_{f→j} (the belief without f);
    // setFactorMessages, given the max-marginals M_j in work.out[j], sets θ̂_j = share·M_j and
    // δ_{f→j} = θ̂_j − λ_j.
    FactorWork& factorLambdas(int f);
    void setFactorMessages(int f, const FactorWork& work, double share);

    // The incidence of node v: pairs (edge, side of v in it), in edge order.
    using Incidence = MapIncidence;
    std::span<const Incidence> incident(int v) const { return incidence_.of(v); }
    // θ'_v(x) = max(θ_v(x), floor) of the model's unary.
    double floorUnary(int v, int x) const {
        return std::max(model_->unary(v)[static_cast<std::size_t>(x)], floor_);
    }

    std::shared_ptr<const PairwiseModel> model_;
    MessagePassingOptions options_;
    double floor_ = -1.0;                  // PairwiseModel::forbiddenFloor()
    mutable std::vector<double> scratch_;  // 4·maxLabels() work space for sweeps and bounds
    std::vector<int> proposal_;            // a labeling rounded by the sweep, or empty

  private:
    // `status` of a step, unless no labeling of E > −∞ has been found: then InvalidInput when
    // the dual bound proves that none exists, or NumericalFailure when the run ends (stalled
    // or at max_iterations) without one — never a labeling of energy −∞ as an answer.
    Status withoutForbiddenAnswer(Status status, const IterationRecord& record) const;
    // The layout of messages_: the offsets of the edges' and the factors' messages (all zero),
    // and the factor work space.
    void layOutMessages();
    // Recomputes beliefs, decodes, evaluates U and the disagreement; updates the bests; and
    // times it (evaluationSeconds_).
    void evaluate();
    void evaluateNow();
    // The record's upper bound: the best U, or E(x_best) where U falls below it by a rounding
    // error only (never more than 1e-12·max(1, |U|)), so a closed gap reads 0, not −1e−14.
    double recordedUpper() const;
    // The decoder's candidate of this evaluation (argmax or the sweep's proposal, after ICM),
    // then its forest moves; updates energy_ and the bests.
    void decode();
    // options_.forest_moves moves of the decoder (map_decoder.h); may raise energy_.
    void forestMoves();

    std::vector<double> messages_;
    std::vector<std::size_t> messageOffset_;  // 2·edges
    // Higher-order factors: the offsets of their messages (one per variable of each, after
    // the edges' in messages_), and where each factor's first one is in that list.
    std::vector<std::size_t> factorMessageOffset_;
    std::vector<std::size_t> factorSlot_;
    mutable FactorWork factorWork_;
    std::vector<double> beliefs_;
    std::vector<std::size_t> beliefOffset_;  // variables + 1
    NodeIncidence incidence_;
    std::unique_ptr<MapDecoder> decoder_;
    std::vector<int> undecided_;  // the disagreeing nodes, the decoder's priority
    std::vector<int> ball_;       // the nodes of the decoder's last kick
    std::uint64_t evaluations_ = 0;

    double dual_ = 0.0;
    double energy_ = 0.0;
    double bestDual_ = 0.0;
    double bestEnergy_ = 0.0;
    std::vector<int> labeling_;
    std::vector<int> bestLabeling_;
    std::vector<int> improved_;  // the decoder's result of the last evaluation
    std::vector<std::uint8_t> disagreeing_;
    int disagreeingCount_ = 0;
    std::vector<double> bestDualHistory_;    // best U after each step, for the stall rule
    std::vector<double> bestEnergyHistory_;  // best E after each step, for the stall rule
    bool lastSweepOfStep_ = true;
    int sweepsPerStep_ = 1;  // options_.sweeps_per_step resolved (kAuto: 1 or the derived's)
    Interrupt interrupt_;    // the deadline of the step or set-up in progress (none otherwise)
    Interrupt::Clock::time_point setupStart_{};
    double evaluationSeconds_ = 0.0;  // the last evaluation's time
    std::shared_ptr<const GridPicture> picture_;
};

}  // namespace cplab
