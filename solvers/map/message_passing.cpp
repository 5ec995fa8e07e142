// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/message_passing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/memory_budget.h"
#include "map/generators.h"

namespace cplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// What counts as a rounding error between the dual bound and an energy, relative to |U|.
constexpr double kRoundingSlack = 1e-12;

// Bytes per node besides the beliefs: the belief and decoder value offsets (8 + 8), the
// labelings (current, best, improved, and the decoder's two working copies: 5 × 4), the
// disagreement mask (1), the undecided and kicked nodes (4 + 4), and the decoder's forest
// (order, union-find, block members, tree nodes of 12 B, two masks: 4 + 4 + 4 + 12 + 2).
// Was 40: a 4096 × 4096 grid's run measured 3.6 GB beside its model where 3.2 GB were
// estimated.
constexpr double kNodeBytes = 8 + 8 + 5 * 4 + 1 + 4 + 4 + 4 + 4 + 4 + 12 + 2;

// Why the messages (k_u + k_v per edge, k_i per factor variable), their offsets and the
// incidence lists (two of each per edge), the beliefs and the decoder's values of the same
// size, and the per-node arrays (kNodeBytes) cannot be held beside the model, which is
// already in memory ("" when they can): checked before any is allocated. The message gives
// the run's whole need too (a 4096 × 4096 grid of 2 labels: 5.3 GB estimated, 5.1 GB of
// peak resident memory measured).
std::string messageMemoryShortfall(const PairwiseModel& m, double extraPerEdge,
                                   double extraPerNode) {
    const int n = m.variables();
    double entries = 0.0, beliefs = 0.0;
    for (int e = 0; e < m.edgeCount(); ++e)
        entries += m.labels(m.edge(e).u) + m.labels(m.edge(e).v);
    for (int v = 0; v < n; ++v)
        beliefs += m.labels(v);
    for (int f = 0; f < m.factorCount(); ++f)
        for (const int v : m.factorVariables(f))
            entries += m.labels(v);
    const double edges = m.edgeCount();
    // Beliefs, and the decoder's values of the same size; message offsets, incidence.
    const double bytes = 8.0 * (entries + 2.0 * beliefs) + 2.0 * sizeof(std::size_t) * edges +
                         NodeIncidence::bytesFor(m) + (kNodeBytes + extraPerNode) * n +
                         extraPerEdge * edges;
    const std::string why = memoryShortfall(
        bytes,
        sizeProduct({{edges, "edges"}, {2, "directions"}, {double(m.maxLabels()), "labels"}}) +
            " of messages (8 B each), their indices and " +
            sizeProduct({{double(n), "variables"}}) + "' beliefs" +
            (extraPerEdge + extraPerNode > 0 ? ", and the solver's own tables" : ""));
    if (why.empty()) return why;
    const auto model = static_cast<double>(m.bytes());
    return why + " (beside the model's " + byteText(model) + ": " + byteText(model + bytes) +
           " in all)";
}

// Asks Linux to back [data, data + bytes) with huge pages before it is first touched: a sweep
// streams through the messages, and with 4 KiB pages the address translations cost a TRW-S
// sweep on a 256 x 256 x 16 grid (33 MB of messages) 8-10 %. A hint only: ignored elsewhere,
// and where transparent huge pages are off.
void adviseHugePages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (bytes < 2 * kHuge) return;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHuge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

}  // namespace

bool MessagePassingOptions::isValid(const char* owner, std::string* why) const {
    return stop.isValid(owner, why) &&
           require(stall_sweeps >= 0, owner, "stall_sweeps", stall_sweeps,
                   "must be >= 0 (0: never stop as stalled)", why) &&
           require(std::isfinite(stall_tolerance) && stall_tolerance >= 0.0, owner,
                   "stall_tolerance", stall_tolerance, "must be a finite number >= 0", why) &&
           require(icm_passes >= 0, owner, "icm_passes", icm_passes, "must be >= 0 (0: off)",
                   why) &&
           require(forest_moves >= 0 && forest_moves <= 100, owner, "forest_moves", forest_moves,
                   "must be in 0..100 (0: off)", why) &&
           require(sweeps_per_step == kAuto || (sweeps_per_step >= 1 && sweeps_per_step <= 1000),
                   owner, "sweeps_per_step", sweeps_per_step, "must be in 1..1000 or -1 (auto)",
                   why);
}

std::string pairwiseOnlyRefusal(const PairwiseModel& model, const std::string& solver,
                                const std::string& where) {
    if (model.factorCount() == 0) return {};
    return solver + " handles pairwise models only; " + where + " has " +
           std::to_string(model.factorCount()) + " factor" + (model.factorCount() == 1 ? "" : "s") +
           " of 3+ variables: use mplp or diffusion";
}

MessagePassingSolver::MessagePassingSolver(std::shared_ptr<const PairwiseModel> model,
                                           MessagePassingOptions options, const char* owner,
                                           const char* pairwiseOnly, DerivedSetup derived)
    : Solver(options.stop),
      model_(std::move(model)),
      options_(options),
      sweepsPerStep_(std::max(1, options.sweeps_per_step)) {
    if (!model_) {
        reject(std::string(owner) + ": no model given");
        return;
    }
    std::string why;
    if (pairwiseOnly) {
        if (why = pairwiseOnlyRefusal(*model_, pairwiseOnly, "the model"); !why.empty()) {
            reject(why);
            return;
        }
    }
    if (!options_.isValid(owner, &why)) {
        reject(why);
        return;
    }
    if (why = model_->contractViolation(); !why.empty()) {
        reject(std::string(owner) + ": invalid model: " + why);
        return;
    }
    SetupTimer timer(*this);
    setupStart_ = Interrupt::Clock::now();
    const PairwiseModel& m = *model_;
    const int n = m.variables();
    floor_ = m.forbiddenFloor();
    if (why = messageMemoryShortfall(m, derived.bytesPerEdge, derived.bytesPerNode); !why.empty()) {
        reject(std::string(owner) + ": " + why);
        return;
    }
    layOutMessages();
    incidence_ = NodeIncidence(m);
    decoder_ = std::make_unique<MapDecoder>(m, incidence_, floor_);
    decoder_->setInterrupt(&interrupt_);
    decoder_->setBalancedBlocks(options_.balanced_blocks);
    beliefOffset_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int v = 0; v < n; ++v)
        beliefOffset_[static_cast<std::size_t>(v) + 1] =
            beliefOffset_[static_cast<std::size_t>(v)] + static_cast<std::size_t>(m.labels(v));
    beliefs_.assign(beliefOffset_.back(), 0.0);
    scratch_.assign(4 * static_cast<std::size_t>(m.maxLabels()), 0.0);
    labeling_.assign(static_cast<std::size_t>(n), 0);
    disagreeing_.assign(static_cast<std::size_t>(n), 0);
    if (derived.ownInitialRecord) {
        // The evaluation made here before counts still, so that the decoder's seeds (which
        // follow the evaluations) and so every run stay as they were.
        ++evaluations_;
    } else {
        resetInitialRecord();
    }
}

void MessagePassingSolver::layOutMessages() {
    const PairwiseModel& m = *model_;
    messageOffset_.resize(2 * static_cast<std::size_t>(m.edgeCount()));
    std::size_t total = 0;
    for (int e = 0; e < m.edgeCount(); ++e) {
        const auto& ed = m.edge(e);
        messageOffset_[2 * static_cast<std::size_t>(e)] = total;
        total += static_cast<std::size_t>(m.labels(ed.u));
        messageOffset_[2 * static_cast<std::size_t>(e) + 1] = total;
        total += static_cast<std::size_t>(m.labels(ed.v));
    }
    std::size_t arity = 0;
    factorSlot_.reserve(static_cast<std::size_t>(m.factorCount()));
    for (int f = 0; f < m.factorCount(); ++f) {
        factorSlot_.push_back(factorMessageOffset_.size());
        arity = std::max(arity, m.factorVariables(f).size());
        for (const int v : m.factorVariables(f)) {
            factorMessageOffset_.push_back(total);
            total += static_cast<std::size_t>(m.labels(v));
        }
    }
    factorWork_.values.assign(2 * arity * static_cast<std::size_t>(m.maxLabels()), 0.0);
    factorWork_.in.resize(arity);
    factorWork_.out.resize(arity);
    factorWork_.inMutable.resize(arity);
    messages_.reserve(total);
    adviseHugePages(messages_.data(), total * sizeof(double));
    messages_.assign(total, 0.0);
}

void MessagePassingSolver::resetInitialRecord() {
    bestDual_ = kInf;
    bestEnergy_ = -kInf;
    bestLabeling_.clear();
    // The set-up's decoding counts against max_seconds too (ICM and forest moves on a 4096²
    // grid took 30 s of a 3 s limit before the first sweep).
    const double limit = stopOptions().max_seconds;
    if (limit > 0)
        interrupt_ = Interrupt(cancelToken(),
                               setupStart_ + std::chrono::duration_cast<Interrupt::Clock::duration>(
                                                 std::chrono::duration<double>(limit)));
    evaluate();
    interrupt_ = Interrupt();
    IterationRecord initial;
    initial.upper = recordedUpper();
    initial.lower = bestEnergy_;
    initial.extra = {dual_, energy_, static_cast<double>(disagreeingCount_)};
    appendExtra(initial.extra);
    setInitialRecord(initial);
}

std::span<const double> MessagePassingSolver::beliefs(int v) const {
    const auto i = static_cast<std::size_t>(v);
    return {beliefs_.data() + beliefOffset_[i], beliefOffset_[i + 1] - beliefOffset_[i]};
}

void MessagePassingSolver::recomputeBelief(int v) {
    const std::span<const double> theta = model_->unary(v);
    const int k = static_cast<int>(theta.size());
    double* b = belief(v);
    for (int x = 0; x < k; ++x)
        b[x] = std::max(theta[static_cast<std::size_t>(x)], floor_);
    for (const Incidence& inc : incident(v)) {
        const double* m = message(inc.edge, inc.side);
        for (int x = 0; x < k; ++x)
            b[x] += m[x];
    }
    for (const auto& at : model_->factorsAt(v)) {
        const double* m = factorMessage(at.factor, at.position);
        for (int x = 0; x < k; ++x)
            b[x] += m[x];
    }
}

MessagePassingSolver::FactorWork& MessagePassingSolver::factorWork(int f) const {
    const auto vars = model_->factorVariables(f);
    const auto k = static_cast<std::size_t>(model_->maxLabels());
    for (std::size_t j = 0; j < vars.size(); ++j) {
        double* in = factorWork_.values.data() + 2 * j * k;
        factorWork_.in[j] = in;
        factorWork_.inMutable[j] = in;
        factorWork_.out[j] = in + k;
    }
    return factorWork_;
}

MessagePassingSolver::FactorWork& MessagePassingSolver::factorLambdas(int f) {
    const auto vars = model_->factorVariables(f);
    FactorWork& work = factorWork(f);
    for (std::size_t j = 0; j < vars.size(); ++j) {
        const double* delta = factorMessage(f, static_cast<int>(j));
        const double* b = belief(vars[j]);
        const int k = model_->labels(vars[j]);
        for (int x = 0; x < k; ++x)
            work.inMutable[j][x] = b[x] - delta[x];
    }
    return work;
}

void MessagePassingSolver::setFactorMessages(int f, const FactorWork& work, double share) {
    const auto vars = model_->factorVariables(f);
    for (std::size_t j = 0; j < vars.size(); ++j) {
        double* delta = factorMessage(f, static_cast<int>(j));
        double* b = belief(vars[j]);
        const int k = model_->labels(vars[j]);
        for (int x = 0; x < k; ++x) {
            b[x] = share * work.out[j][x];
            delta[x] = b[x] - work.in[j][x];
        }
    }
}

void MessagePassingSolver::evaluate() {
    const auto start = Interrupt::Clock::now();
    evaluateNow();
    evaluationSeconds_ = std::chrono::duration<double>(Interrupt::Clock::now() - start).count();
}

void MessagePassingSolver::evaluateNow() {
    const PairwiseModel& m = *model_;
    for (int v = 0; v < m.variables(); ++v) {
        recomputeBelief(v);
        const std::span<const double> b = beliefs(v);
        labeling_[static_cast<std::size_t>(v)] =
            static_cast<int>(std::max_element(b.begin(), b.end()) - b.begin());
    }
    std::fill(disagreeing_.begin(), disagreeing_.end(), 0);
    dual_ = m.constant() + bound(disagreeing_);
    disagreeingCount_ =
        static_cast<int>(std::count(disagreeing_.begin(), disagreeing_.end(), std::uint8_t{1}));
    decode();
    bestDual_ = std::min(bestDual_, dual_);
}

double MessagePassingSolver::recordedUpper() const {
    // U ≥ max E ≥ E(x_best) holds exactly, but the two sums are evaluated in floating point and
    // can cross by a rounding error once the gap has closed (U = 70.81066952815293 against
    // E = 70.81066952815294). The record then keeps U = E, a zero gap; a larger crossing is
    // left visible, it would be a bug.
    if (bestEnergy_ > bestDual_ &&
        bestEnergy_ - bestDual_ <= kRoundingSlack * std::max(1.0, std::abs(bestDual_)))
        return bestEnergy_;
    return bestDual_;
}

void MessagePassingSolver::decode() {
    const PairwiseModel& m = *model_;
    // This step's candidate: the argmax of the beliefs or the sweep's own rounding, polished
    // by ICM.
    const double decoded = m.energy(labeling_);
    const double proposed = proposal_.empty() ? decoded : m.energy(proposal_);
    improved_ = proposed > decoded ? proposal_ : labeling_;
    energy_ = std::max(decoded, proposed);
    if (options_.icm_passes > 0) {
        std::vector<int> x = improved_;
        decoder_->icm(x, options_.icm_passes);
        if (const double e = m.energy(x); e > energy_) {
            energy_ = e;
            improved_ = std::move(x);
        }
    }
    ++evaluations_;
    if (options_.forest_moves > 0) forestMoves();
    if (energy_ > bestEnergy_ || bestLabeling_.empty()) {
        bestEnergy_ = energy_;
        bestLabeling_ = improved_;
    }
}

void MessagePassingSolver::forestMoves() {
    const PairwiseModel& m = *model_;
    undecided_.clear();
    for (int v = 0; v < m.variables(); ++v)
        if (disagreeing_[static_cast<std::size_t>(v)]) undecided_.push_back(v);
    // Odd evaluations: moves from this step's candidate, grown from the undecided nodes (a move
    // never lowers E). Even ones: kicks of the best labeling so far, each followed by a move
    // grown from the kicked ball and kept only if it raised E.
    const bool fromBest = evaluations_ % 2 == 0 && !bestLabeling_.empty();
    std::vector<int> x = fromBest ? bestLabeling_ : improved_;
    double value = fromBest ? bestEnergy_ : energy_;
    std::vector<int> y;
    for (int k = 0; k < options_.forest_moves && !decoder_->interrupted(); ++k) {
        const std::uint64_t seed = evaluations_ * 101 + static_cast<unsigned>(k);
        y = x;
        if (fromBest) {
            // A kick of a random size, 1 to n/4 nodes: small ones repair, large ones escape.
            const auto most = static_cast<std::uint64_t>(std::max(1, m.variables() / 4));
            decoder_->kick(y, 1 + static_cast<int>((seed * 2654435761u) % most), seed, ball_);
        }
        decoder_->forestMove(y, fromBest ? ball_ : undecided_, seed);
        decoder_->icm(y, options_.icm_passes);
        if (const double e = m.energy(y); e > value || (!fromBest && e >= value)) {
            value = e;
            std::swap(x, y);
        }
    }
    if (value > energy_) {
        energy_ = value;
        improved_ = std::move(x);
    }
}

double MessagePassingSolver::bound(std::vector<std::uint8_t>& disagreeing) const {
    const PairwiseModel& m = *model_;
    double sum = 0.0;
    for (int v = 0; v < m.variables(); ++v) {
        const std::span<const double> b = beliefs(v);
        sum += b[static_cast<std::size_t>(labeling_[static_cast<std::size_t>(v)])];
    }
    for (int e = 0; e < m.edgeCount(); ++e) {
        const auto& ed = m.edge(e);
        const double* mu = message(e, 0);
        const double* mv = message(e, 1);
        const double top = m.maxReparametrised(e, mu, mv, floor_);
        sum += top;
        const int xu = labeling_[static_cast<std::size_t>(ed.u)];
        const int xv = labeling_[static_cast<std::size_t>(ed.v)];
        const double at = std::max(m.pairwise(e, xu, xv), floor_) - mu[xu] - mv[xv];
        if (at < top - 1e-9 * std::max(1.0, std::abs(top))) {
            disagreeing[static_cast<std::size_t>(ed.u)] = 1;
            disagreeing[static_cast<std::size_t>(ed.v)] = 1;
        }
    }
    for (int f = 0; f < m.factorCount(); ++f) {
        // max_{x_f} θ'_f − Σ_i δ_{f→i}, and its value at the decoded labeling.
        const auto vars = m.factorVariables(f);
        FactorWork& work = factorWork(f);
        double atLabeling = std::max(m.factorTable(f)[m.factorIndex(f, labeling_)], floor_);
        for (std::size_t j = 0; j < vars.size(); ++j) {
            const double* delta = factorMessage(f, static_cast<int>(j));
            const int k = m.labels(vars[j]);
            for (int x = 0; x < k; ++x)
                work.inMutable[j][x] = -delta[x];
            work.out[j] = nullptr;
            atLabeling -= delta[labeling_[static_cast<std::size_t>(vars[j])]];
        }
        const double top = m.factorMaxMarginals(f, work.in.data(), work.out.data(), floor_);
        sum += top;
        if (atLabeling < top - 1e-9 * std::max(1.0, std::abs(top)))
            for (const int v : vars)
                disagreeing[static_cast<std::size_t>(v)] = 1;
    }
    return sum;
}

std::vector<std::string> MessagePassingSolver::extraColumns() const {
    return {"dual", "energy", "disagreeing_nodes"};
}

Status MessagePassingSolver::doStep(IterationRecord& record) {
    const int sweeps = sweepsPerStep_;
    interrupt_ = stepInterrupt();
    for (int s = 0; s < sweeps; ++s) {
        lastSweepOfStep_ = s + 1 == sweeps || cancelRequested();
        sweep();
        ++record.oracleCalls;  // one sweep = one pass over the graph
        if (lastSweepOfStep_) break;
    }
    lastSweepOfStep_ = true;
    if (interrupt_.timedOut() && !cancelRequestedByUser() &&
        evaluationSeconds_ > std::max(1.0, 0.1 * stopOptions().max_seconds)) {
        // Cut short by max_seconds where one evaluation (the bound, the energy) takes long:
        // the record keeps the bounds and the labeling of the last one, which stay valid (the
        // best bound so far, the best labeling's energy) — a 4096 × 4096 grid's TRW-S spent
        // 3 s past its limit on it.
        interrupt_ = Interrupt();
        record.extra = lastRecord().extra;
        return Status::make(StatusCode::TimeLimit,
                            "reached max_seconds = " + formatReal(stopOptions().max_seconds) +
                                " during the sweeps of iteration " +
                                std::to_string(record.iteration) +
                                " (the bounds and the labeling are the last evaluation's, " +
                                "which takes " + formatShort(evaluationSeconds_, 2) +
                                " s) with gap " + formatReal(record.upper - record.lower));
    }
    // The evaluation's bound and energy are always made; its ICM passes and forest moves stop
    // at the deadline (a valid labeling at every moment).
    evaluate();
    interrupt_ = Interrupt();
    record.upper = recordedUpper();
    record.lower = bestEnergy_;
    record.extra = {dual_, energy_, static_cast<double>(disagreeingCount_)};
    appendExtra(record.extra);

    bestDualHistory_.push_back(bestDual_);
    bestEnergyHistory_.push_back(bestEnergy_);
    const auto window = stepsFor(options_.stall_sweeps);
    const double gap = bestDual_ - bestEnergy_;
    Status status = Status::running();
    if (window > 0 && bestDualHistory_.size() > window &&
        !stopOptions().gapReached(gap, bestDual_)) {
        const std::size_t then = bestDualHistory_.size() - 1 - window;
        const double real = options_.stall_tolerance * std::max(1.0, std::abs(bestDual_));
        const bool flatBound = bestDualHistory_[then] - bestDual_ <= real;
        // −∞ − (−∞) is NaN: no labeling yet on either side is no progress either.
        const bool flatEnergy = !(bestEnergy_ - bestEnergyHistory_[then] > real);
        if (flatBound && flatEnergy) {
            status = Status::make(
                StatusCode::Stalled,
                "the dual bound decreased and the best energy rose by less than " +
                    formatReal(options_.stall_tolerance) + " (relative) in " +
                    std::to_string(window * static_cast<std::size_t>(sweepsPerStep_)) +
                    " sweeps: a fixed point of " + name() + ", gap " + formatReal(gap));
        }
    }
    return withoutForbiddenAnswer(std::move(status), record);
}

Status MessagePassingSolver::withoutForbiddenAnswer(Status status,
                                                    const IterationRecord& record) const {
    if (bestEnergy_ != -kInf) return status;
    // No labeling of E > −∞ found yet. The dual bound holds for θ' = max(θ, F), whose allowed
    // labelings score at least lowestAllowedEnergy(): a bound below that proves there is none.
    const double lowest = model_->lowestAllowedEnergy();
    if (lowest == kInf) {  // a table all of whose entries are forbidden
        return Status::make(StatusCode::InvalidInput,
                            "every labeling has probability zero: a table of the model has no "
                            "entry of non-zero probability");
    }
    if (bestDual_ < lowest) {
        return Status::make(StatusCode::InvalidInput,
                            "every labeling has probability zero: the dual bound " +
                                formatReal(bestDual_) + " is below " + formatReal(lowest) +
                                ", the lowest energy of a labeling with no forbidden entry");
    }
    // The run ends (stalled, or at its last iteration) without a labeling to report.
    const bool last =
        status.code != StatusCode::Running || record.iteration >= stopOptions().max_iterations;
    if (!last) return status;
    return Status::make(StatusCode::NumericalFailure,
                        "found no labeling of non-zero probability in " +
                            std::to_string(record.iteration) +
                            " iterations (every labeling tried uses a forbidden entry); the "
                            "model may have none");
}

void MessagePassingSolver::setPicture(std::shared_ptr<const GridPicture> picture) {
    if (picture && model_ &&
        static_cast<long long>(picture->width) * picture->height != model_->variables())
        picture.reset();
    picture_ = std::move(picture);
}

SummaryFields MessagePassingSolver::summary() const {
    if (rejected()) return {};
    SummaryFields fields = {{"energy", bestEnergy_},
                            {"dual", dual_},
                            {"disagreeing_nodes", static_cast<long long>(disagreeingCount_)},
                            {"clusters", static_cast<long long>(clusterCount())}};
    if (picture_ && !picture_->truth.empty()) {
        const BadPixels bad = countBadPixels(*picture_, bestLabeling_);
        fields.push_back({"bad_pixels", bad.fraction()});
        fields.push_back({"truth_pixels", bad.known});
    }
    return fields;
}

SnapshotPtr MessagePassingSolver::snapshot() const {
    auto snap = std::make_shared<MapSnapshot>();
    fillSnapshot(*snap);
    if (rejected()) return snap;
    snap->model = model_;
    snap->labeling = labeling_;
    snap->bestLabeling = bestLabeling_;
    snap->disagreeing = disagreeing_;
    snap->dual = dual_;
    snap->energy = energy_;
    snap->picture = picture_;
    if (picture_ && !picture_->truth.empty())
        snap->badPixels = countBadPixels(*picture_, labeling_).fraction();
    snap->executedLines = iteration() == 0 ? std::vector<int>{0, 1} : stepLines();
    addToSnapshot(*snap);
    return snap;
}

}  // namespace cplab
