// SPDX-License-Identifier: GPL-3.0-or-later
#include "lp_master.h"

#include <algorithm>
#include <cmath>
#include <coin/ClpSimplex.hpp>
#include <coin/CoinFinite.hpp>
#include <coin/CoinMessageHandler.hpp>
#include <stdexcept>

namespace cplab {

namespace {

// Clp's infinity is COIN_DBL_MAX; anything beyond ±1e30 is treated as infinite as well, as
// Clp itself does.
double toClp(double value) {
    if (value >= 1e30) return COIN_DBL_MAX;
    if (value <= -1e30) return -COIN_DBL_MAX;
    return value;
}

std::string describeStatus(int status, int secondary) {
    std::string text;
    switch (status) {
        case 0:
            text = "optimal";
            break;
        case 1:
            text = "primal infeasible";
            break;
        case 2:
            text = "dual infeasible (the LP is unbounded)";
            break;
        case 3:
            text = "stopped on the iteration or time limit";
            break;
        case 4:
            text = "stopped because of numerical difficulties";
            break;
        case 5:
            text = "stopped by an event handler";
            break;
        default:
            text = "not solved (Clp status " + std::to_string(status) + ")";
            break;
    }
    switch (secondary) {
        case 0:
            break;
        case 1:
            text += "; probably primal infeasible (dual limit reached or unproven)";
            break;
        case 2:
            text += "; the unscaled problem has primal infeasibilities";
            break;
        case 3:
            text += "; the unscaled problem has dual infeasibilities";
            break;
        case 4:
            text += "; the unscaled problem has primal and dual infeasibilities";
            break;
        case 5:
            text += "; primal simplex gave up with flagged variables";
            break;
        case 6:
            text += "; failed the empty-problem check";
            break;
        case 7:
            text += "; postsolve says not optimal";
            break;
        case 8:
            text += "; failed the bad-element check";
            break;
        case 9:
            text += "; stopped on time";
            break;
        case 10:
            text += "; stopped as primal feasible";
            break;
        default:
            text += "; Clp secondary status " + std::to_string(secondary);
            break;
    }
    return text;
}

}  // namespace

const char* toString(LpStatus status) {
    switch (status) {
        case LpStatus::Optimal:
            return "optimal";
        case LpStatus::Infeasible:
            return "infeasible";
        case LpStatus::Unbounded:
            return "unbounded";
        case LpStatus::Failed:
            return "failed";
    }
    return "unknown";
}

struct LpMaster::Impl {
    // Clp reports through its handler; level 0 prints nothing. Owned here (and declared
    // before the model, so it outlives it) because Clp keeps only a pointer to it.
    CoinMessageHandler handler;
    ClpSimplex model;
    bool solvedBefore = false;
    LpStatus status = LpStatus::Failed;
    double objective = 0.0;
    Eigen::VectorXd solution;
    Eigen::VectorXd rowDuals;
    int iterations = 0;
    std::string message = "not solved yet";
    std::vector<int> indexScratch;
    std::vector<double> valueScratch;
};

LpMaster::LpMaster(const Eigen::VectorXd& objective, const Eigen::VectorXd& colLower,
                   const Eigen::VectorXd& colUpper)
    : impl_(std::make_unique<Impl>()) {
    const Eigen::Index n = objective.size();
    if (colLower.size() != n || colUpper.size() != n) {
        throw std::invalid_argument("LpMaster: objective has " + std::to_string(n) +
                                    " entries but the column bounds have " +
                                    std::to_string(colLower.size()) + " and " +
                                    std::to_string(colUpper.size()));
    }
    if (!objective.allFinite()) throw std::invalid_argument("LpMaster: non-finite objective");
    for (Eigen::Index j = 0; j < n; ++j) {
        if (std::isnan(colLower(j)) || std::isnan(colUpper(j))) {
            throw std::invalid_argument("LpMaster: NaN bound of column " + std::to_string(j));
        }
    }
    Impl& d = *impl_;
    d.handler.setLogLevel(0);
    d.model.passInMessageHandler(&d.handler);
    d.model.setLogLevel(0);
    // No scaling: the rows arrive one at a time and Clp's scale factors, computed for the
    // first rows, made warm dual re-solves report wrong "optimal" objectives once a row with
    // a tiny entry (a subgradient component of 1e−17) arrived. Cutting-plane rows are well
    // scaled by construction (unit coefficient on the epigraph column).
    d.model.scaling(0);

    std::vector<CoinBigIndex> starts(static_cast<std::size_t>(n) + 1, 0);
    std::vector<double> lower(static_cast<std::size_t>(n)), upper(static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) {
        lower[static_cast<std::size_t>(j)] = toClp(colLower(j));
        upper[static_cast<std::size_t>(j)] = toClp(colUpper(j));
    }
    d.model.loadProblem(static_cast<int>(n), 0, starts.data(), nullptr, nullptr, lower.data(),
                        upper.data(), objective.data(), nullptr, nullptr);
    d.solution = Eigen::VectorXd::Zero(n);
}

LpMaster::~LpMaster() = default;
LpMaster::LpMaster(LpMaster&&) noexcept = default;
LpMaster& LpMaster::operator=(LpMaster&&) noexcept = default;

int LpMaster::columns() const {
    return impl_->model.numberColumns();
}

int LpMaster::rows() const {
    return impl_->model.numberRows();
}

int LpMaster::addRow(const Eigen::Ref<const Eigen::VectorXd>& coefficients, double lower,
                     double upper) {
    Impl& d = *impl_;
    const int n = d.model.numberColumns();
    if (coefficients.size() != n) {
        throw std::invalid_argument("LpMaster::addRow: " + std::to_string(coefficients.size()) +
                                    " coefficients, expected " + std::to_string(n));
    }
    if (!coefficients.allFinite() || std::isnan(lower) || std::isnan(upper)) {
        throw std::invalid_argument("LpMaster::addRow: non-finite coefficient or NaN bound");
    }
    d.indexScratch.clear();
    d.valueScratch.clear();
    for (int j = 0; j < n; ++j) {
        if (coefficients(j) != 0.0) {
            d.indexScratch.push_back(j);
            d.valueScratch.push_back(coefficients(j));
        }
    }
    // Clp gives the new row a basic slack, so the previous basis stays dual feasible and the
    // next dual simplex starts from it.
    d.model.addRow(static_cast<int>(d.indexScratch.size()), d.indexScratch.data(),
                   d.valueScratch.data(), toClp(lower), toClp(upper));
    return d.model.numberRows() - 1;
}

void LpMaster::removeRows(std::vector<int> indices) {
    Impl& d = *impl_;
    std::sort(indices.begin(), indices.end());
    const int m = d.model.numberRows();
    for (std::size_t k = 0; k < indices.size(); ++k) {
        if (indices[k] < 0 || indices[k] >= m) {
            throw std::invalid_argument("LpMaster::removeRows: row " + std::to_string(indices[k]) +
                                        " out of range [0, " + std::to_string(m) + ")");
        }
        if (k > 0 && indices[k] == indices[k - 1]) {
            throw std::invalid_argument("LpMaster::removeRows: duplicate row " +
                                        std::to_string(indices[k]));
        }
    }
    if (indices.empty()) return;
    d.model.deleteRows(static_cast<int>(indices.size()), indices.data());
}

void LpMaster::setColumnBounds(int j, double lower, double upper) {
    Impl& d = *impl_;
    if (j < 0 || j >= d.model.numberColumns()) {
        throw std::invalid_argument("LpMaster::setColumnBounds: column " + std::to_string(j) +
                                    " out of range [0, " + std::to_string(d.model.numberColumns()) +
                                    ")");
    }
    if (std::isnan(lower) || std::isnan(upper)) {
        throw std::invalid_argument("LpMaster::setColumnBounds: NaN bound");
    }
    d.model.setColumnBounds(j, toClp(lower), toClp(upper));
}

LpStatus LpMaster::solve() {
    Impl& d = *impl_;
    ClpSimplex& model = d.model;
    const char* method = "dual simplex";
    if (d.solvedBefore) {
        model.dual();
        d.iterations = model.numberIterations();
        // The dual simplex proves optimality or primal infeasibility; anything else (a stop,
        // numerical trouble, a basis that was not dual feasible after removed rows or changed
        // bounds) is retried with the primal simplex from the basis it left.
        if (model.status() != 0 && model.status() != 1) {
            model.primal();
            d.iterations += model.numberIterations();
            method = "dual, then primal simplex";
        }
    } else {
        model.primal();
        d.iterations = model.numberIterations();
        method = "primal simplex";
    }
    d.solvedBefore = true;

    const int status = model.status();
    const int secondary = model.secondaryStatus();
    switch (status) {
        case 0:
            d.status = LpStatus::Optimal;
            break;
        case 1:
            d.status = LpStatus::Infeasible;
            break;
        case 2:
            d.status = LpStatus::Unbounded;
            break;
        default:
            d.status = LpStatus::Failed;
            break;
    }
    d.message = describeStatus(status, secondary) + " (" + method + ", " +
                std::to_string(d.iterations) + " iterations)";

    const int n = model.numberColumns();
    const int m = model.numberRows();
    d.objective = model.objectiveValue();
    d.solution = Eigen::Map<const Eigen::VectorXd>(model.primalColumnSolution(), n);
    d.rowDuals =
        m > 0 ? Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(model.dualRowSolution(), m))
              : Eigen::VectorXd();
    return d.status;
}

double LpMaster::objective() const {
    return impl_->objective;
}

const Eigen::VectorXd& LpMaster::solution() const {
    return impl_->solution;
}

const Eigen::VectorXd& LpMaster::rowDuals() const {
    return impl_->rowDuals;
}

int LpMaster::lastIterations() const {
    return impl_->iterations;
}

std::string LpMaster::lastMessage() const {
    return impl_->message;
}

}  // namespace cplab
