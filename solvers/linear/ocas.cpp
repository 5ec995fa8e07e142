// SPDX-License-Identifier: GPL-3.0-or-later
#include "ocas.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/number_text.h"
#include "core/worker_team.h"
#include "risk/line_search.h"

namespace cplab {

namespace {

enum Line {
    kInput,
    kInit,
    kRepeat,
    kQp,
    kPrune,
    kScores,
    kLineSearch,
    kBest,
    kCut,
    kUntil,
    kReturn
};

// fn(first, count) on blocks of the m score rows, on the risk's threads: element-wise work on
// m × K matrices is cheap but, left on one thread, would cap the speed-up of the whole step.
template <class Fn>
void forScoreRows(const Risk& risk, Fn&& fn) {
    const int m = risk.examples();
    const int parts = risk.workersFor(static_cast<long long>(m) * risk.outputs());
    runBlocks(risk.team(), m, parts, [&](int, int begin, int end) { fn(begin, end - begin); });
}

}  // namespace

bool OcasOptions::isValid(std::string* why) const {
    const char* owner = "OcasOptions";
    return stop.isValid(owner, why) && model.isValid(owner, why) &&
           require(std::isfinite(theta) && theta > 0 && theta <= 1, owner, "theta", theta,
                   "must lie in (0, 1]; theta = 0 would take every plane at w_b and stall", why) &&
           planes.isValid(owner, why);
}

OcasSolver::OcasSolver(const LinearProblem& problem, OcasOptions options)
    : LinearSvmSolver(problem, options.model, options.stop, "OcasOptions"), ocasOptions_(options) {
    if (!acceptOptions(ocasOptions_)) return;
    SetupTimer timer(*this);
    planes_ = std::make_unique<PlaneSet>(risk().dimension(), lambda(), ocasOptions_.planes,
                                         linearPlaneBudget(trainingBytes()));
    // base_, dir_ and work_ below: three m × K score matrices.
    if (!acceptMemory(3, planes_->maxPlanes(), "OcasSolver")) return;
    const Eigen::Index n = risk().dimension();
    wBest_ = Eigen::VectorXd::Zero(n);
    wModel_ = wBest_;
    wCut_ = wBest_;
    base_ = Eigen::MatrixXd::Zero(risk().examples(), risk().outputs());  // X·0 (+ bias·0)
    dir_ = base_;
    work_ = base_;
    if (!cutAt(wCut_)) {
        reject("OcasSolver: the risk or its subgradient is not finite at w = 0");
        return;
    }
    IterationRecord initial;
    initial.oracleCalls = 1;
    initial.upper = riskCut_;  // F(0) = R(0)
    initial.lower = 0.0;       // every risk is ≥ 0
    initial.extra =
        commonExtras(planes_->size(), planes_->active(), risk_->errorFromScores(base_), wBest_);
    initial.extra.push_back(0.0);
    setInitialRecord(initial);
}

void OcasSolver::combineScores(double k) {
    forScoreRows(*risk_, [&](Eigen::Index i, Eigen::Index n) {
        work_.middleRows(i, n) = base_.middleRows(i, n) + k * dir_.middleRows(i, n);
    });
}

bool OcasSolver::cutAt(const Eigen::VectorXd& w) {
    riskCut_ = risk_->loss(work_, &work_);
    risk_->backProject(work_, gradient_);
    if (!std::isfinite(riskCut_) || !gradient_.allFinite()) return false;
    planes_->add(gradient_, riskCut_ - gradient_.dot(w), w);
    return true;
}

std::vector<std::string> OcasSolver::extraColumns() const {
    std::vector<std::string> columns = commonColumns();
    columns.push_back("k");
    return columns;
}

std::vector<std::string> OcasSolver::pseudocode() const {
    return {
        "input: data, risk R, lambda, theta in (0, 1], tolerance eps",
        "w_b <- 0;  take the plane at w_c = 0                      (oracle)",
        "repeat",
        "  w_t <- argmin lambda/2 |w|^2 + R_t(w)                    (dual QP, warm start)",
        "  drop planes inactive for k iterations; aggregate beyond K planes",
        "  scores X w_t                                            (one data pass)",
        "  k_t <- argmin_{k >= 0} F(w_b + k (w_t - w_b))           (exact line search)",
        "  w_b <- w_b + k_t (w_t - w_b);  U <- F(w_b);  L <- F_t(w_t)",
        "  w_c <- (1 - theta) w_b + theta w_t;  add the plane at w_c (oracle)",
        "until U - L <= eps  (or <= tol_rel U)",
        "return w_b",
    };
}

Status OcasSolver::doStep(IterationRecord& record) {
    planes_->solve();
    noteEvents(planes_->lastSolveEvents());
    wModel_ = planes_->weights();
    record.lower = std::max(record.lower, planes_->dualValue());

    // X w^b from the last step, then the direction's scores X w_t − X w^b in dir_.
    if (lastK_ != 0.0) {  // 0 before the first line search
        forScoreRows(*risk_, [&](Eigen::Index i, Eigen::Index n) {
            base_.middleRows(i, n) += lastK_ * dir_.middleRows(i, n);
        });
    }
    risk_->scores(wModel_, dir_);
    forScoreRows(*risk_, [&](Eigen::Index i, Eigen::Index n) {
        dir_.middleRows(i, n) -= base_.middleRows(i, n);
    });
    const Eigen::VectorXd delta = wModel_ - wBest_;
    lastWw_ = wBest_.squaredNorm();
    lastWd_ = wBest_.dot(delta);
    lastDd_ = delta.squaredNorm();
    const LineSearchResult search =
        exactLineSearch(*risk_, {lambda(), lastWw_, lastWd_, lastDd_}, base_, dir_);
    lastK_ = search.k;
    lastFk_ = search.value;
    lastBreakpoints_ = search.breakpointSample;
    haveLineSearch_ = true;

    wBest_ += search.k * delta;
    // The line search already evaluated F(w^b + k_t Δ): no extra pass over the scores.
    const double fBest = search.value;
    if (search.k > 0) {
        noteEvent(SeriousStep, "serious step: w_b moves, k = " + formatShort(search.k) +
                                   ", F(w_b) = " + formatShort(fBest));
    } else {
        noteEvent(NullStep, "null step: k = 0, w_b stays at F = " + formatShort(fBest));
    }
    record.upper = std::min(record.upper, fBest);
    // The errors belong to w^b: a step with k_t = 0 left it (and them) unchanged.
    double trainError = 0.0;
    if (search.k > 0) {
        combineScores(search.k);
        trainError = risk_->errorFromScores(work_);
    }

    const double theta = ocasOptions_.theta;
    wCut_ = (1.0 - theta) * wBest_ + theta * wModel_;
    // w^c = w^b_old + ((1 − θ)k + θ)Δ.
    combineScores((1.0 - theta) * search.k + theta);
    if (!cutAt(wCut_)) {
        return Status::make(StatusCode::NumericalFailure,
                            "the risk or its subgradient is not finite at w_c");
    }
    ++record.oracleCalls;
    noteEvent(PlaneAdded, "plane added at w_c: R = " + formatShort(riskCut_) + " (" +
                              std::to_string(planes_->size()) + " stored)");

    record.extra = search.k > 0
                       ? commonExtras(planes_->size(), planes_->active(), trainError, wBest_)
                       : commonExtras(planes_->size(), planes_->active());
    record.extra.push_back(search.k);
    return progressStatus(record, kStallIterations,
                          std::max(kRoundingGap, 10.0 * ocasOptions_.planes.qp_tolerance));
}

bool OcasSolver::warmStartFrom(const OcasSolver& previous, std::string* why) {
    if (!warmCompatible(previous, why)) return false;
    SetupTimer timer(*this);
    std::vector<Eigen::VectorXd> points = previous.planes_->cutPoints();
    std::erase_if(points, [&](const Eigen::VectorXd& p) {
        return p == previous.wBest_ || p.isZero(0.0);  // taken below and by the constructor
    });
    const int before = planes_->size();
    if (!addRiskPlanesAt(*risk_, points, *planes_)) {
        if (why) *why = "the new risk is not finite at the previous run's points";
        return false;  // planes_ may hold some of them: valid planes all the same
    }
    // X w^b in base_ (dir_ is 0 and lastK_ = 0: no step taken), then the plane at w^b.
    risk_->scores(previous.wBest_, base_);
    work_ = base_;
    const double trainError = risk_->errorFromScores(base_);
    if (!cutAt(previous.wBest_)) {
        if (why) *why = "the new risk is not finite at the previous run's w_b";
        risk_->scores(wBest_, base_);
        return false;
    }
    wBest_ = wCut_ = previous.wBest_;
    planes_->solve();
    wModel_ = planes_->weights();
    IterationRecord initial;
    initial.oracleCalls = lastRecord().oracleCalls + static_cast<long long>(points.size()) + 1;
    initial.upper = 0.5 * lambda() * wBest_.squaredNorm() + riskCut_;
    initial.lower = std::clamp(planes_->dualValue(), 0.0, initial.upper);
    initial.extra = commonExtras(planes_->size(), planes_->active(), trainError, wBest_);
    initial.extra.push_back(0.0);
    setInitialRecord(initial);
    if (why) {
        *why = "keeps w_b and takes " + std::to_string(planes_->size() - before) +
               " planes of the edited data at w_b and the previous cut points" +
               (previous.planes_->keepsCutPoints() ? "" : " (the previous run kept none)");
    }
    return true;
}

SnapshotPtr OcasSolver::snapshot() const {
    auto snap = std::make_shared<LinearSvmSnapshot>();
    fillLinearSnapshot(*snap);
    if (!valid()) return snap;
    snap->wModel = wModel_;
    snap->wCut = wCut_;
    if (haveLineSearch_) {
        // f(k) on [0, k_max] with k_max showing the chosen k and a margin around it.
        const double kMax = std::max(2.0 * lastK_, 1.0);
        constexpr int kSamples = 81;
        const Eigen::VectorXd ks = Eigen::VectorXd::LinSpaced(kSamples, 0.0, kMax);
        const Eigen::VectorXd fks =
            lineObjective(*risk_, {lambda(), lastWw_, lastWd_, lastDd_}, base_, dir_, ks);
        snap->ks.assign(ks.data(), ks.data() + ks.size());
        snap->fks.assign(fks.data(), fks.data() + fks.size());
        snap->breakpoints = lastBreakpoints_;
        snap->kChosen = lastK_;
        snap->fAtChosen = lastFk_;
    }
    if (iteration() == 0) {
        snap->executedLines = {kInput, kInit};
    } else {
        snap->executedLines = {kRepeat, kQp};
        if (lastRecord().events & (PlanesDropped | PlanesAggregated))
            snap->executedLines.push_back(kPrune);
        snap->executedLines.insert(snap->executedLines.end(),
                                   {kScores, kLineSearch, kBest, kCut, kUntil});
        if (status().code == StatusCode::Converged) snap->executedLines.push_back(kReturn);
    }
    return snap;
}

SummaryFields OcasSolver::familySummary() const {
    return {{"active_planes", static_cast<double>(planes_->active())},
            {"theta", ocasOptions_.theta}};
}

}  // namespace cplab
