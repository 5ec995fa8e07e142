// SPDX-License-Identifier: GPL-3.0-or-later
#include "liblinear_reference.h"

#include <linear.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "risk/risk.h"

namespace cplab {

namespace {

struct SolverChoice {
    int type = 0;
    const char* text = "";
};

SolverChoice liblinearSolverFor(LossKind kind) {
    switch (kind) {
        case LossKind::Hinge:
            return {L2R_L1LOSS_SVC_DUAL, "-s 3 (L2R_L1LOSS_SVC_DUAL)"};
        case LossKind::SquaredHinge:
            return {L2R_L2LOSS_SVC_DUAL, "-s 1 (L2R_L2LOSS_SVC_DUAL)"};
        case LossKind::Logistic:
            return {L2R_LR, "-s 0 (L2R_LR)"};
        case LossKind::Multiclass:
            return {MCSVM_CS, "-s 4 (MCSVM_CS)"};
        case LossKind::EpsilonInsensitive:
            return {L2R_L1LOSS_SVR_DUAL, "-s 13 (L2R_L1LOSS_SVR_DUAL)"};
    }
    throw std::invalid_argument("solveWithLiblinear: unsupported risk");
}

// Serialises train(): LIBLINEAR prints through one process-global function pointer, which
// is pointed at gPrinted during the call (so nothing reaches stdout and its warnings can be
// read), and its dual solvers draw permutations from the C library's rand(), which is seeded
// before each call so that a reference does not depend on what ran before it.
std::mutex gTrainMutex;
std::string gPrinted;  // guarded by gTrainMutex
void capturePrint(const char* text) {
    gPrinted += text;
}
void silentPrint(const char*) {}

// Repeated examples (see below) point at the same rows; this caps the stored entries one
// outer iteration of LIBLINEAR may visit (repeats × (nonzeros + m)).
constexpr double kMaxRepeatedEntries = 2e7;

// The solvers whose outer iterations LIBLINEAR 2.30 caps at 1000.
bool cappedDualSolver(int type) {
    return type == L2R_L1LOSS_SVC_DUAL || type == L2R_L2LOSS_SVC_DUAL ||
           type == L2R_L1LOSS_SVR_DUAL || type == L2R_LR_DUAL;
}

// Risk's class index of a multi-class label: −1/+1 labels are classes 0/1, else the label.
int classIndex(double label, bool plusMinus) {
    return plusMinus ? (label > 0 ? 1 : 0) : static_cast<int>(label);
}

// ---- Hinge polish -------------------------------------------------------------------------
// LIBLINEAR's dual coordinate descent meets eps on the projected gradient, which leaves w a
// little off the optimum (about 1e-9 relative in F at eps = 1e-10). The hinge optimum solves a
// linear system once the three example sets are known — margin < 1 (α = C), > 1 (α = 0),
// = 1 (α free) — so LIBLINEAR's w is used to read the sets off (for a range of tolerances),
// the system is solved, and a candidate replaces w only with a certificate: a dual-feasible α
// with P(w(α)) − D(α) ≤ 1e-11·P and P(w(α)) below LIBLINEAR's P, where
// D(α) = Σα − ½‖w(α)‖², w(α) = Σ αᵢ yᵢ x̃ᵢ, 0 ≤ α ≤ C (C-form, weak duality). When no
// candidate is certified, LIBLINEAR's own w stays.

struct HingeData {
    const Dataset& data;
    bool bias;
    int d;
    int features;
    double C;

    double margin(int i, const Eigen::VectorXd& w) const {
        double s = bias ? w(d) : 0.0;
        if (data.sparseStorage) {
            for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it)
                s += it.value() * w(it.col());
        } else {
            s += data.dense.row(i).dot(w.head(d));
        }
        return data.labels(i) * s;
    }
    // w += scale · yᵢ x̃ᵢ
    void addExample(int i, double scale, Eigen::VectorXd& w) const {
        const double f = scale * data.labels(i);
        if (data.sparseStorage) {
            for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it)
                w(it.col()) += f * it.value();
        } else {
            w.head(d) += f * data.dense.row(i).transpose();
        }
        if (bias) w(d) += f;
    }
    Eigen::VectorXd weightsOf(const Eigen::VectorXd& alpha) const {
        Eigen::VectorXd w = Eigen::VectorXd::Zero(features);
        for (int i = 0; i < data.size(); ++i)
            if (alpha(i) != 0.0) addExample(i, alpha(i), w);
        return w;
    }
    double primal(const Eigen::VectorXd& w) const {
        double loss = 0.0;
        for (int i = 0; i < data.size(); ++i)
            loss += std::max(0.0, 1.0 - margin(i, w));
        return 0.5 * w.squaredNorm() + C * loss;
    }
};

// Solves for the sets read off `w` with tolerance tau; returns the clipped dual α (empty when
// the system is too large to solve densely).
Eigen::VectorXd solveForSets(const HingeData& h, const Eigen::VectorXd& w, double tau) {
    const int m = h.data.size();
    Eigen::VectorXd alpha = Eigen::VectorXd::Zero(m);
    std::vector<int> free;
    for (int i = 0; i < m; ++i) {
        const double mi = h.margin(i, w);
        if (mi < 1.0 - tau)
            alpha(i) = h.C;
        else if (mi <= 1.0 + tau)
            free.push_back(i);
    }
    const auto f = static_cast<Eigen::Index>(free.size());
    if (f > 4000 || static_cast<double>(f) * h.features > 5e7) return {};
    const Eigen::VectorXd c = h.weightsOf(alpha);
    if (f > 0) {
        // Free examples sit on the margin: Mᵀ(c + M α_F) = 1, M = [yᵢ x̃ᵢ]_{i ∈ F}.
        Eigen::MatrixXd M = Eigen::MatrixXd::Zero(h.features, f);
        for (Eigen::Index k = 0; k < f; ++k) {
            Eigen::VectorXd column = Eigen::VectorXd::Zero(h.features);
            h.addExample(free[static_cast<std::size_t>(k)], 1.0, column);
            M.col(k) = column;
        }
        const Eigen::VectorXd rhs = Eigen::VectorXd::Ones(f) - M.transpose() * c;
        const Eigen::MatrixXd gram = M.transpose() * M;
        const Eigen::VectorXd alphaF = gram.completeOrthogonalDecomposition().solve(rhs);
        for (Eigen::Index k = 0; k < f; ++k)
            alpha(free[static_cast<std::size_t>(k)]) = std::clamp(alphaF(k), 0.0, h.C);
    }
    return alpha;
}

// Replaces w (C-form) by a certified optimum when one is found; returns whether it did.
bool polishHinge(const Dataset& data, bool bias, double C, Eigen::VectorXd& w) {
    const HingeData h{data, bias, data.dimension(), static_cast<int>(w.size()), C};
    const double start = h.primal(w);
    double bestPrimal = start;
    Eigen::VectorXd best;
    for (double tau = 1e-1; tau >= 1e-9; tau /= 10.0) {
        Eigen::VectorXd candidate = w;
        // Read the sets off LIBLINEAR's w, then once more off the solution.
        for (double t : {tau, 1e-9}) {
            const Eigen::VectorXd alpha = solveForSets(h, candidate, t);
            if (alpha.size() == 0) break;
            candidate = h.weightsOf(alpha);
            const double primal = h.primal(candidate);
            const double dual = alpha.sum() - 0.5 * candidate.squaredNorm();
            if (primal - dual <= 1e-11 * std::abs(primal) && primal < bestPrimal) {
                bestPrimal = primal;
                best = candidate;
            }
        }
    }
    if (best.size() == 0) return false;
    w = best;
    return true;
}

struct ModelDeleter {
    void operator()(model* m) const { free_and_destroy_model(&m); }
};

// The rows of `data` as LIBLINEAR's feature_node lists (1-based indices, −1 terminated), with
// the bias node (index d + 1, value 1) when `bias`.
struct LiblinearRows {
    std::vector<feature_node> nodes;
    std::vector<feature_node*> rows;

    LiblinearRows(const Dataset& data, bool bias) {
        const int m = data.size();
        const int d = data.dimension();
        nodes.reserve(static_cast<std::size_t>(data.nonZeros()) +
                      static_cast<std::size_t>(m) * (bias ? 2 : 1));
        std::vector<std::size_t> starts(static_cast<std::size_t>(m));
        for (int i = 0; i < m; ++i) {
            starts[static_cast<std::size_t>(i)] = nodes.size();
            if (data.sparseStorage) {
                for (Dataset::SparseMatrix::InnerIterator it(data.sparse, i); it; ++it)
                    nodes.push_back({static_cast<int>(it.col()) + 1, it.value()});
            } else {
                for (int j = 0; j < d; ++j) {
                    const double v = data.dense(i, j);
                    if (v != 0.0) nodes.push_back({j + 1, v});
                }
            }
            if (bias) nodes.push_back({d + 1, 1.0});
            nodes.push_back({-1, 0.0});
        }
        // Pointers only after the last push_back: the vector no longer reallocates.
        rows.resize(static_cast<std::size_t>(m));
        for (int i = 0; i < m; ++i)
            rows[static_cast<std::size_t>(i)] = nodes.data() + starts[static_cast<std::size_t>(i)];
    }
};

// What solveWithLiblinear refuses: no or an empty training set, invalid options, a bad eps.
void checkReferenceInputs(const LinearProblem& problem, const LinearSvmOptions& options,
                          double eps) {
    if (!problem.train) throw std::invalid_argument("solveWithLiblinear: no training set given");
    const Dataset& data = *problem.train;
    if (data.size() == 0)
        throw std::invalid_argument("solveWithLiblinear: the training set '" + data.name +
                                    "' has no examples");
    std::string why;
    if (!options.isValid("LinearSvmOptions", &why)) throw std::invalid_argument(why);
    if (!(std::isfinite(eps) && eps > 0))
        throw std::invalid_argument("solveWithLiblinear: eps = " + formatReal(eps) +
                                    ": must be a finite number > 0");
}

// LIBLINEAR's model, trained on the examples repeated `repeats` times.
struct Trained {
    std::unique_ptr<model, ModelDeleter> liblinear;
    int repeats = 1;
    bool converged = false;
};

// LIBLINEAR 2.30's dual coordinate-descent solvers (-s 1, 3, 7, 13) stop after 1000 outer
// iterations whatever eps is, and say so in a warning (on heart_scale at C = 1, -s 3 then
// leaves F 6e-5 above the optimum). Repeating every example r times with C/r is the same
// problem (P is unchanged), while each outer iteration then does r times the coordinate
// updates; so r grows fourfold until LIBLINEAR meets eps (or a size cap). `param` has all but
// C, which is `C` / r.
Trained trainRepeated(const Dataset& data, const LiblinearRows& rows, parameter param, double C,
                      int features, bool bias) {
    const int m = data.size();
    Trained result;
    for (;; result.repeats *= 4) {
        const int repeats = result.repeats;
        std::vector<double> y(static_cast<std::size_t>(m) * repeats);
        std::vector<feature_node*> x(y.size());
        for (int r = 0; r < repeats; ++r) {
            for (int i = 0; i < m; ++i) {
                const std::size_t at = static_cast<std::size_t>(r) * m + i;
                y[at] = data.labels(i);
                x[at] = rows.rows[static_cast<std::size_t>(i)];
            }
        }
        ::problem prob{};
        prob.l = m * repeats;
        prob.n = features;
        prob.y = y.data();
        prob.x = x.data();
        prob.bias = bias ? 1.0 : -1.0;
        param.C = C / repeats;
        if (const char* error = check_parameter(&prob, &param))
            throw std::invalid_argument(
                std::string("solveWithLiblinear: LIBLINEAR rejects its parameters: ") + error);
        {
            std::lock_guard<std::mutex> lock(gTrainMutex);
            gPrinted.clear();
            set_print_string_function(&capturePrint);
            std::srand(1);
            result.liblinear.reset(train(&prob, &param));
            set_print_string_function(&silentPrint);
            result.converged = gPrinted.find("reaching max") == std::string::npos;
        }
        if (!result.liblinear || !result.liblinear->w)
            throw std::runtime_error("solveWithLiblinear: LIBLINEAR's train() returned no model");
        const double entries = static_cast<double>(data.nonZeros()) + m;
        if (result.converged || !cappedDualSolver(param.solver_type) ||
            entries * repeats * 4 > kMaxRepeatedEntries)
            return result;
    }
}

// LIBLINEAR's w in our layout (risk.dimension() entries).
Eigen::VectorXd ourWeights(const model& trained, const Risk& risk, const Dataset& data,
                           int features) {
    Eigen::VectorXd w = Eigen::VectorXd::Zero(risk.dimension());
    const double* lw = trained.w;
    const LossKind kind = risk.options().loss;
    if (kind == LossKind::EpsilonInsensitive) {
        for (int j = 0; j < features; ++j)
            w(j) = lw[j];
    } else if (kind == LossKind::Multiclass) {
        // LIBLINEAR orders the classes by first appearance and stores w row-major as
        // features × nr_class; ours is one column block of `features` entries per class.
        const int K = risk.outputs();
        if (trained.nr_class != K)
            throw std::invalid_argument("solveWithLiblinear: the training set has " +
                                        std::to_string(trained.nr_class) + " of the " +
                                        std::to_string(K) +
                                        " classes; LIBLINEAR only learns the classes it sees");
        const bool plusMinus = (data.labels.array() == 1.0 || data.labels.array() == -1.0).all();
        for (int k = 0; k < K; ++k) {
            const int c = classIndex(trained.label[k], plusMinus);
            if (c < 0 || c >= K)
                throw std::invalid_argument("solveWithLiblinear: unexpected class label " +
                                            std::to_string(trained.label[k]));
            for (int j = 0; j < features; ++j)
                w(static_cast<Eigen::Index>(c) * features + j) = lw[j * K + k];
        }
    } else {
        // Binary: LIBLINEAR's w scores its label[0] as the positive class.
        if (trained.nr_class != 2)
            throw std::invalid_argument(
                "solveWithLiblinear: the training set needs both labels -1 and +1");
        const double sign = trained.label[0] == 1 ? 1.0 : -1.0;
        for (int j = 0; j < features; ++j)
            w(j) = sign * lw[j];
    }
    return w;
}

}  // namespace

ReferenceSolution solveWithLiblinear(const LinearProblem& problem, const LinearSvmOptions& options,
                                     double eps) {
    checkReferenceInputs(problem, options, eps);
    const Dataset& data = *problem.train;
    // Checks the labels for the risk (throws std::invalid_argument) and evaluates F below.
    const Risk risk(problem.train, options.riskOptions());
    const LossKind kind = risk.options().loss;
    const SolverChoice choice = liblinearSolverFor(kind);

    const int m = data.size();
    const int d = data.dimension();
    const int features = d + (options.bias ? 1 : 0);
    const double lambda = options.lambdaFor(m);

    const LiblinearRows rows(data, options.bias);
    const double C = 1.0 / (lambda * m);
    parameter param{};
    param.solver_type = choice.type;
    param.eps = eps;
    param.nr_weight = 0;
    param.weight_label = nullptr;
    param.weight = nullptr;
    param.p = kind == LossKind::EpsilonInsensitive ? options.tube : 0.1;
    param.init_sol = nullptr;
    const Trained trained = trainRepeated(data, rows, param, C, features, options.bias);

    ReferenceSolution result;
    result.w = ourWeights(*trained.liblinear, risk, data, features);
    const bool polished = kind == LossKind::Hinge && polishHinge(data, options.bias, C, result.w);
    result.objective = 0.5 * lambda * result.w.squaredNorm() + risk.evaluate(result.w, nullptr);
    const int minor = liblinear_version % 100;
    result.solver =
        "LIBLINEAR " + std::to_string(liblinear_version / 100) + "." + (minor < 10 ? "0" : "") +
        std::to_string(minor) + " " + choice.text +
        (trained.repeats > 1 ? ", examples repeated " + std::to_string(trained.repeats) + "x"
                             : "") +
        (trained.converged ? "" : ", iteration limit reached") +
        (polished ? " + certified active-set polish" : "");
    return result;
}

}  // namespace cplab
