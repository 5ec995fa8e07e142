// SPDX-License-Identifier: GPL-3.0-or-later
#include "linear_svm.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/memory_budget.h"
#include "data/shares.h"

namespace cplab {

namespace {

// The labels the risk expects: ±1 for binary losses (any two values a < b map to −1/+1),
// 0..K−1 for the multi-class loss (the sorted distinct values map to their rank), targets
// unchanged for regression. Returns the same pointer when nothing changes, else a copy.
// `classes` (the training set's sorted label values) defines the mapping for a test set too.
std::shared_ptr<const Dataset> withRiskLabels(const std::shared_ptr<const Dataset>& data,
                                              LossKind loss, const std::vector<double>& classes,
                                              const char* owner) {
    if (!data || loss == LossKind::EpsilonInsensitive) return data;
    std::vector<double> targets;
    if (loss == LossKind::Multiclass) {
        for (std::size_t k = 0; k < classes.size(); ++k)
            targets.push_back(double(k));
    } else {
        if (classes.size() > 2) {
            // A file of three or more classes is not a binary problem, whatever its labels.
            std::string list;
            for (std::size_t k = 0; k < classes.size() && k < 10; ++k)
                list += (k ? ", " : "") + data->labelInMessage(classes[k]);
            if (classes.size() > 10) list += ", ...";
            // Dual coordinate descent has no multi-class loss: name the solvers that do.
            const bool dcd = std::string(owner) == "DcdOptions";
            throw std::invalid_argument(
                data->source + ": " + std::to_string(classes.size()) + " classes (labels " + list +
                "); the " + toString(loss) + " loss is binary: use risk=multiclass" +
                (dcd ? " with ocas, bmrm, sgd or libocas" : "") + " (" + owner + ")");
        }
        if (classes.size() != 2) return data;  // Risk reports the problem
        targets = {-1.0, 1.0};
    }
    // Every label must be one the training set has (a test set's too), even when no mapping
    // is needed.
    auto classOf = [&](double label) {
        const auto it = std::lower_bound(classes.begin(), classes.end(), label);
        return it == classes.end() || *it != label ? -1 : static_cast<int>(it - classes.begin());
    };
    for (Eigen::Index i = 0; i < data->labels.size(); ++i) {
        if (classOf(data->labels(i)) < 0) {
            throw std::invalid_argument(data->where(static_cast<int>(i)) + ": label " +
                                        data->labelInMessage(data->labels(i)) +
                                        ", which the training set does not have (" + owner + ")");
        }
    }
    if (classes == targets) return data;
    auto copy = std::make_shared<Dataset>(*data);
    for (Eigen::Index i = 0; i < copy->labels.size(); ++i)
        copy->labels(i) = targets[static_cast<std::size_t>(classOf(copy->labels(i)))];
    return copy;
}

}  // namespace

void LinearSvmOptions::visit(OptionVisitor& v) {
    v.real("lambda", lambda,
           "regularisation of F(w) = lambda/2 |w|^2 + R(w), > 0 (0: unset, from C)");
    v.real("C", C,
           "C of 1/2 |w|^2 + C sum loss; lambda = 1/(C m), > 0 (0: unset, use lambda; neither: "
           "C = 1)");
    std::vector<std::string> risks = lossKindNames();
    v.choice("risk", risk, risks, "loss of the empirical risk R(w)");
    v.boolean("bias", bias, "append a constant feature 1 (a regularised bias, as libocas)");
    v.real("tube", tube, "epsilon of the epsilon-insensitive loss, >= 0");
    v.integer("threads", threads, "threads of the risk oracle (0: all cores)");
}

bool LinearSvmOptions::checkGiven(const OptionValues& given, const char* owner, std::string* why) {
    for (const char* name : {"lambda", "C"}) {
        const auto it = given.find(name);
        double value = 0.0;
        if (it == given.end() || parseReal(it->second, value) != NumberError::None || value != 0.0)
            continue;
        if (why) {
            *why =
                std::string(owner) + ": " + name + " = 0 " +
                (name == std::string("lambda")
                     ? "is outside [" + formatReal(kMinLambda) + ", " + formatReal(kMaxLambda) +
                           "], where the solvers' arithmetic holds; leave lambda out to use C"
                     : std::string("given: C must be > 0; leave C out to use lambda (or C = 1)"));
        }
        return false;
    }
    return true;
}

bool LinearSvmOptions::isValid(const char* owner, std::string* why) const {
    LossKind kind;
    return require(std::isfinite(lambda) && lambda >= 0, owner, "lambda", lambda,
                   "must be a finite number >= 0", why) &&
           require(std::isfinite(C) && C >= 0, owner, "C", C, "must be a finite number >= 0",
                   why) &&
           require(!(lambda > 0 && C > 0), owner, "C", C,
                   "set either lambda or C, not both (lambda = 1/(C m))", why) &&
           requireText(parseLossKind(risk, &kind), owner, "risk", risk,
                       "must be one of hinge, logistic, squared_hinge, multiclass, "
                       "epsilon_insensitive",
                       why) &&
           require(std::isfinite(tube) && tube >= 0, owner, "tube", tube,
                   "must be a finite number >= 0", why) &&
           require(threads >= 0 && threads <= 256, owner, "threads", threads,
                   "must lie in [0, 256]", why);
}

double LinearSvmOptions::lambdaFor(int m) const {
    if (lambda > 0) return lambda;
    const double c = C > 0 ? C : 1.0;
    return 1.0 / (c * m);
}

RiskOptions LinearSvmOptions::riskOptions() const {
    RiskOptions r;
    parseLossKind(risk, &r.loss);
    r.bias = bias;
    r.epsilon = tube;
    r.threads = threads;
    return r;
}

LinearSvmSolver::LinearSvmSolver(const LinearProblem& problem, const LinearSvmOptions& options,
                                 const StopOptions& stop, const char* owner)
    : Solver(stop), problem_(problem), options_(options) {
    Communicator* comm = problem_.communicator.get();
    // Over several ranks the classes are those of every rank's share, and a share that fails
    // here fails every rank (before the Risk's collectives).
    if (comm) {
        classes_ = unionOverRanks(
            *comm, problem_.train ? problem_.train->classes() : std::vector<double>{});
    } else if (problem_.train && problem_.train->size() > 0) {
        classes_ = problem_.train->classes();
    }
    std::string why = checkedLabels(owner);
    if (comm) why = firstFailure(*comm, sharedLabelsFailure(why, owner));
    if (!why.empty()) {
        reject(why);
        return;
    }
    try {
        RiskOptions riskOptions = options_.riskOptions();
        riskOptions.communicator = problem_.communicator;
        risk_ = std::make_unique<Risk>(problem_.train, riskOptions);
    } catch (const std::exception& e) {
        reject(e.what());
        return;
    }
    if (problem_.test && problem_.test->dimension() > problem_.train->dimension()) {
        reject(std::string(owner) + ": the test set '" + problem_.test->source + "' has " +
               std::to_string(problem_.test->dimension()) +
               " features, more than the training set's " +
               std::to_string(problem_.train->dimension()));
        risk_.reset();
        return;
    }
    const auto m = static_cast<int>(risk_->totalExamples());
    lambda_ = options_.lambdaFor(m);
    // Far below this, w = −Aα/λ and the planes' Hessian overflow or lose every digit: the
    // run would go on for its whole iteration budget at an unchanging gap.
    if (!(lambda_ >= kMinLambda) || !(lambda_ <= kMaxLambda)) {
        reject(std::string(owner) + ": lambda = " + formatReal(lambda_) +
               (options_.lambda > 0 ? std::string()
                                    : " (= 1/(C m) with C = " + formatReal(options_.C) +
                                          ", m = " + std::to_string(m) + ")") +
               " is outside [" + formatReal(kMinLambda) + ", " + formatReal(kMaxLambda) +
               "], where the solvers' arithmetic holds; choose " +
               (lambda_ < kMinLambda ? "a smaller C or a larger lambda"
                                     : "a larger C or a smaller lambda"));
        risk_.reset();
        return;
    }
}

double LinearSvmSolver::trainingBytes() const {
    const double bytes = problem_.train->storedBytes();
    return problem_.communicator ? sumOverRanks(*problem_.communicator, bytes) : bytes;
}

bool LinearSvmSolver::acceptMemory(int scoreMatrices, int planes, const char* owner) {
    if (!valid()) return false;
    const double m = risk_->examples(), K = risk_->outputs(), n = double(risk_->dimension());
    const int vectors = 4;  // w and its kin, the subgradient
    const double bytes = 8.0 * (scoreMatrices * m * K + (planes + vectors) * n);
    const std::string why = memoryShortfall(
        bytes, sizeProduct({{m, "examples"},
                            {K, K > 1 ? "classes" : "output"},
                            {double(scoreMatrices),
                             scoreMatrices == 1 ? "score matrix" : "score matrices"}}) +
                   " + " +
                   sizeProduct({{double(planes + vectors), "planes and vectors"}, {n, "weights"}}) +
                   ", 8 B each");
    // Every rank refuses if one cannot fit its share (a rank alone would leave the others
    // waiting in the first collective).
    std::string failure = why.empty() ? std::string() : std::string(owner) + ": " + why;
    if (problem_.communicator) failure = firstFailure(*problem_.communicator, failure);
    if (!failure.empty()) reject(failure);
    return valid();
}

std::string LinearSvmSolver::dataConditionNote(bool* degenerate) const {
    if (degenerate) *degenerate = false;
    const Dataset& train = *problem_.train;
    double largest = 0.0;
    double smallest = std::numeric_limits<double>::infinity();
    auto see = [&](double v) {
        const double a = std::abs(v);
        if (a == 0.0) return;
        largest = std::max(largest, a);
        smallest = std::min(smallest, a);
    };
    if (train.sparseStorage) {
        for (Eigen::Index k = 0; k < train.sparse.nonZeros(); ++k)
            see(train.sparse.valuePtr()[k]);
    } else {
        for (Eigen::Index k = 0; k < train.dense.size(); ++k)
            see(train.dense.data()[k]);
    }
    if (largest == 0.0) return "every training feature is zero";
    if (largest > 1e6 * smallest) {
        return "the training features' magnitudes range from " + formatReal(smallest) + " to " +
               formatReal(largest) + "; scale them, e.g. to [-1, 1]";
    }
    if (largest >= 1e3) {
        return "the training features reach " + formatReal(largest) +
               "; scale them, e.g. to [-1, 1]";
    }
    if (degenerate) *degenerate = true;
    return "the data are degenerate for this method (e.g. examples that no feature tells "
           "apart)";
}

Status LinearSvmSolver::progressStatus(const IterationRecord& record, int window,
                                       double roundingGap) {
    const double scale = 1e-13 * std::max({1.0, std::abs(record.upper), std::abs(record.lower)});
    const bool moved =
        record.upper < progressUpper_ - scale || record.lower > progressLower_ + scale;
    if (moved) {
        progressUpper_ = record.upper;
        progressLower_ = record.lower;
        stalledFor_ = 0;
        return Status::running();
    }
    if (++stalledFor_ < window) return Status::running();
    const double gap = record.upper - record.lower;
    if (gap <= roundingGap * std::max(std::abs(record.upper), std::abs(record.lower))) {
        return Status::make(
            StatusCode::Stalled,
            "converged to rounding level: the gap " + formatReal(gap) + " (relative " +
                formatReal(gap / std::max(std::abs(record.upper), std::abs(record.lower))) +
                ") is within what the arithmetic resolves (" + formatReal(roundingGap) +
                " relative), and U and L have not " + "moved in " + std::to_string(window) +
                " iterations");
    }
    bool degenerate = false;
    std::string why = dataConditionNote(&degenerate);
    if (degenerate) why += "; another solver (ocas, bmrm, dcd) may still solve them";
    return Status::make(StatusCode::NumericalFailure,
                        "no progress in " + std::to_string(window) + " iterations: U = " +
                            formatReal(record.upper) + " and L = " + formatReal(record.lower) +
                            " have not moved, the cutting-plane model has lost precision (" + why +
                            ")");
}

LinearModel LinearSvmSolver::model() const {
    LinearModel m;
    if (!valid()) return m;
    m.risk = risk_->options().loss;
    m.bias = options_.bias;
    const Dataset& train = *problem_.train;
    m.features = train.featureIds.empty() ? train.dimension() : train.originalDimension;
    m.featureIds = train.featureIds;
    m.outputs = risk_->outputs();
    m.lambda = lambda_;
    if (m.risk != LossKind::EpsilonInsensitive) {
        m.classes = classes_;
        if (!problem_.train->classNames.empty()) {
            for (double c : classes_)
                m.classNames.push_back(problem_.train->labelText(c));
        }
    }
    m.weights = bestWeights();
    return m;
}

double LinearSvmSolver::C() const {
    return 1.0 / (lambda_ * risk_->totalExamples());
}

std::string LinearSvmSolver::sharedLabelsFailure(const std::string& why, const char* owner) {
    // More classes than a binary loss takes fail every rank alike: the fault is the share, and
    // the line, where the third class first appears (data/shares.h).
    std::string valid;
    const LossKind loss = options_.riskOptions().loss;
    if (classes_.size() <= 2 || loss == LossKind::Multiclass ||
        loss == LossKind::EpsilonInsensitive || !options_.isValid(owner, &valid))
        return why;
    const std::string where = firstClassBeyond(*problem_.train, *problem_.communicator, 2);
    return where.empty() ? where
                         : where + "; the " + toString(loss) +
                               " loss is binary: use risk=multiclass (" + owner + ")";
}

std::string LinearSvmSolver::checkedLabels(const char* owner) {
    std::string why;
    if (!problem_.train) return std::string(owner) + ": no training set given";
    if (problem_.train->size() == 0) {
        return std::string(owner) + ": the training set '" + problem_.train->name +
               "' has no examples";
    }
    if (!options_.isValid(owner, &why)) return why;
    try {
        const LossKind loss = options_.riskOptions().loss;
        if (loss != LossKind::EpsilonInsensitive && classes_.size() < 2) {
            throw std::invalid_argument(std::string(owner) + ": the training set '" +
                                        problem_.train->name + "' has only one class (label " +
                                        problem_.train->labelInMessage(classes_.front()) +
                                        "); a classifier needs at least 2");
        }
        problem_.train = withRiskLabels(problem_.train, loss, classes_, owner);
        problem_.test = withRiskLabels(problem_.test, loss, classes_, owner);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

double LinearSvmSolver::objective(const Eigen::VectorXd& w, double* riskValue) const {
    const double r = risk_->evaluate(w, nullptr);
    if (riskValue) *riskValue = r;
    return 0.5 * lambda_ * w.squaredNorm() + r;
}

double LinearSvmSolver::testError(const Eigen::VectorXd& w) const {
    if (!problem_.test) return -1.0;
    return risk_->error(w, *problem_.test);
}

std::vector<std::string> LinearSvmSolver::commonColumns() {
    return {"planes", "active_planes", "train_error", "test_error"};
}

std::vector<double> LinearSvmSolver::commonExtras(int planes, int activePlanes, double trainError,
                                                  const Eigen::VectorXd& wForTest) {
    lastTrainError_ = trainError;
    lastTestError_ = testError(wForTest);
    return {static_cast<double>(planes), static_cast<double>(activePlanes), trainError,
            lastTestError_};
}

std::vector<double> LinearSvmSolver::commonExtras(int planes, int activePlanes) const {
    return {static_cast<double>(planes), static_cast<double>(activePlanes), lastTrainError_,
            lastTestError_};
}

void LinearSvmSolver::fillLinearSnapshot(LinearSvmSnapshot& snapshot) const {
    fillSnapshot(snapshot);
    if (!valid()) return;
    snapshot.train = problem_.train;
    snapshot.bias = options_.bias;
    snapshot.outputs = risk_->outputs();
    snapshot.lambda = lambda_;
    snapshot.wBest = bestWeights();
    snapshot.planes = storedPlanes();
    snapshot.activePlanes = activeStoredPlanes();
    snapshot.trainError = lastTrainError_;
    snapshot.testError = lastTestError_;
}

SummaryFields LinearSvmSolver::summary() const {
    if (!valid()) return {};
    const IterationRecord& r = lastRecord();
    SummaryFields fields = {{"objective_lambda", r.upper}, {"objective_C", r.upper / lambda_},
                            {"lambda", lambda_},           {"C", C()},
                            {"risk", options_.risk},       {"train_error", lastTrainError_}};
    if (problem_.test) fields.emplace_back("test_error", lastTestError_);
    fields.emplace_back("planes", static_cast<double>(storedPlanes()));
    for (auto& f : familySummary())
        fields.push_back(std::move(f));
    return fields;
}

bool LinearSvmSolver::warmCompatible(const LinearSvmSolver& previous, std::string* why) const {
    auto fail = [why](const std::string& text) {
        if (why) *why = text;
        return false;
    };
    if (!valid() || !previous.valid()) return fail("a run was refused");
    if (iteration() != 0) return fail("the new run has already taken a step");
    if (previous.options_.risk != options_.risk) return fail("the risk changed");
    if (previous.risk().dimension() != risk().dimension()) {
        return fail("w has " + std::to_string(risk().dimension()) + " entries now, " +
                    std::to_string(previous.risk().dimension()) + " before");
    }
    return true;
}

}  // namespace cplab
