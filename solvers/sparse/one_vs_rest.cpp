// SPDX-License-Identifier: GPL-3.0-or-later
#include "one_vs_rest.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/number_text.h"
#include "xv_kernel.h"

namespace cplab {

namespace {

enum Line { kInput, kSplit, kRepeat, kStep, kUntil, kReturn };

std::string classText(double c) {
    return formatReal(c);
}

// `data` with labels +1 for class c and −1 otherwise.
std::shared_ptr<const Dataset> oneAgainstRest(const Dataset& data, double c) {
    auto out = std::make_shared<Dataset>(data);
    for (Eigen::Index i = 0; i < out->labels.size(); ++i)
        out->labels[i] = out->labels[i] == c ? 1.0 : -1.0;
    out->name = data.name + " (" + classText(c) + " vs rest)";
    return out;
}

}  // namespace

OneVsRestSolver::OneVsRestSolver(std::string name, const KernelProblem& problem,
                                 const StopOptions& stop, Factory make, Classify classify)
    : OneVsRestSolver(
          std::move(name), problem, stop,
          [make = std::move(make)](const KernelProblem& binary, const StopOptions&) {
              return make(binary);
          },
          std::move(classify)) {}

OneVsRestSolver::OneVsRestSolver(std::string name, const KernelProblem& problem,
                                 const StopOptions& stop, TimedFactory make, Classify classify)
    : Solver(stop), name_(std::move(name)), problem_(problem), classify_(std::move(classify)) {
    const std::string owner = name_ + " (one-vs-rest)";
    if (!problem.train || problem.train->size() == 0) {
        reject(owner + ": no training examples");
        return;
    }
    const Dataset& train = *problem.train;
    classes_ = train.classes();
    if (classes_.size() < 3) {
        reject(owner + ": the training set '" + train.name + "' has " +
               std::to_string(classes_.size()) + " classes; one-vs-rest needs at least three");
        return;
    }
    if (problem.test && problem.test->dimension() > train.dimension()) {
        reject(owner + ": the test set '" + problem.test->name + "' has " +
               std::to_string(problem.test->dimension()) + " features, the training set " +
               std::to_string(train.dimension()));
        return;
    }
    SetupTimer timer(*this);
    const auto start = std::chrono::steady_clock::now();
    for (double c : classes_) {
        KernelProblem binary;
        binary.train = oneAgainstRest(train, c);
        if (problem.test) binary.test = oneAgainstRest(*problem.test, c);
        StopOptions machineStop = stop;
        if (stop.max_seconds > 0) {
            // What is left of the limit (a machine made after it gets a millisecond: > 0, since
            // 0 would mean no limit).
            const double spent =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            machineStop.max_seconds = std::max(1e-3, stop.max_seconds - spent);
        }
        std::unique_ptr<Solver> machine = make(binary, machineStop);
        if (!machine || machine->status().code == StatusCode::InvalidInput) {
            const std::string why = machine ? machine->status().message : "no solver";
            machines_.clear();
            reject(owner + ", class " + classText(c) + " vs rest: " + why);
            return;
        }
        machines_.push_back(std::move(machine));
    }
    X_ = denseRows(train, train.dimension());
    if (problem.test) testX_ = denseRows(*problem.test, train.dimension());
    trainScores_ = Eigen::MatrixXd::Zero(X_.rows(), machines());
    testScores_ = Eigen::MatrixXd::Zero(testX_.rows(), machines());
    for (int k = 0; k < machines(); ++k)
        refreshScores(k);
    IterationRecord initial;
    fillRecord(initial);
    setInitialRecord(initial);
}

OneVsRestSolver::~OneVsRestSolver() = default;

std::vector<std::string> OneVsRestSolver::extraColumns() const {
    return {"expansion_vectors", "machines_running", "train_error", "test_error"};
}

std::vector<std::string> OneVsRestSolver::pseudocode() const {
    return {
        "input: data (x_i, y_i) with K > 2 classes c_1 .. c_K",
        "machine k: " + name_ + " on labels +1 (y_i = c_k), -1 (otherwise)",
        "repeat",
        "  one step of every machine that has not finished",
        "until every machine has finished",
        "return predict(x) = c_k with k = argmax_k f_k(x)",
    };
}

KernelClassifier OneVsRestSolver::classifier(int k) const {
    return classify_(machine(k));
}

void OneVsRestSolver::refreshScores(int k) {
    const KernelClassifier f = classifier(k);
    if (f.specs.empty() || f.supportVectors.dense.rows() == 0) {
        trainScores_.col(k).setConstant(f.bias);
        if (testX_.rows() > 0) testScores_.col(k).setConstant(f.bias);
        return;
    }
    const XvKernel kernel(f.specs.front());
    const Eigen::MatrixXd& Z = f.supportVectors.dense;
    trainScores_.col(k) = (kernel.values(X_, Z) * f.coefficients).array() + f.bias;
    if (testX_.rows() > 0)
        testScores_.col(k) = (kernel.values(testX_, Z) * f.coefficients).array() + f.bias;
}

Eigen::MatrixXd OneVsRestSolver::decisions(const Eigen::MatrixXd& X) const {
    Eigen::MatrixXd scores(X.rows(), machines());
    for (int k = 0; k < machines(); ++k) {
        const KernelClassifier f = classifier(k);
        if (f.specs.empty() || f.supportVectors.dense.rows() == 0) {
            scores.col(k).setConstant(f.bias);
            continue;
        }
        const XvKernel kernel(f.specs.front());
        scores.col(k) =
            (kernel.values(X, f.supportVectors.dense) * f.coefficients).array() + f.bias;
    }
    return scores;
}

std::vector<double> OneVsRestSolver::predict(const Eigen::MatrixXd& X) const {
    const Eigen::MatrixXd scores = decisions(X);
    std::vector<double> out(static_cast<std::size_t>(X.rows()));
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        Eigen::Index best = 0;
        scores.row(i).maxCoeff(&best);
        out[static_cast<std::size_t>(i)] = classes_[static_cast<std::size_t>(best)];
    }
    return out;
}

double OneVsRestSolver::multiError(const Eigen::MatrixXd& scores,
                                   const Eigen::VectorXd& labels) const {
    if (labels.size() == 0) return 0.0;
    long long wrong = 0;
    for (Eigen::Index i = 0; i < labels.size(); ++i) {
        Eigen::Index best = 0;
        scores.row(i).maxCoeff(&best);
        wrong += classes_[static_cast<std::size_t>(best)] != labels[i];
    }
    return static_cast<double>(wrong) / static_cast<double>(labels.size());
}

void OneVsRestSolver::fillRecord(IterationRecord& record) {
    record.upper = record.lower = 0.0;
    record.oracleCalls = 0;
    long long xvs = 0;
    int running = 0;
    for (int k = 0; k < machines(); ++k) {
        const Solver& m = machine(k);
        record.upper += m.lastRecord().upper;
        record.lower += m.lastRecord().lower;
        record.oracleCalls += m.lastRecord().oracleCalls;
        xvs += static_cast<long long>(classifier(k).supportVectors.dense.rows());
        running += !m.status().finished();
    }
    trainError_ = multiError(trainScores_, problem_.train->labels);
    if (problem_.test) testError_ = multiError(testScores_, problem_.test->labels);
    record.extra = {static_cast<double>(xvs), static_cast<double>(running), trainError_,
                    testError_};
}

Status OneVsRestSolver::doStep(IterationRecord& record) {
    const Interrupt stop = stepInterrupt();
    for (int k = 0; k < machines(); ++k) {
        Solver& m = *machines_[static_cast<std::size_t>(k)];
        if (m.status().finished()) continue;
        // Past the run's deadline the others wait (each machine's own clock counts only its
        // own time): the run ends by its time limit after this step.
        if (stop.timedOut()) break;
        m.setCancelToken(cancelToken());
        m.step();
        refreshScores(k);
        // The machine's events, named by its class.
        StepEvents events = m.lastStepEvents();
        for (std::string& text : events.texts)
            text = "class " + classText(classes_[static_cast<std::size_t>(k)]) + ": " + text;
        noteEvents(events);
    }
    fillRecord(record);
    for (int k = 0; k < machines(); ++k) {
        const Status& s = machine(k).status();
        if (s.finished() && !s.usable()) {
            return Status::make(s.code, "class " +
                                            classText(classes_[static_cast<std::size_t>(k)]) +
                                            " vs rest: " + s.message);
        }
    }
    if (stop.timedOut()) {
        // The run's limit: say which machines it left waiting, and why the first one that
        // finished short of converging stopped (a set-up cut short says what it kept).
        std::vector<std::string> waiting;
        std::string first;
        for (int k = 0; k < machines(); ++k) {
            const Status& s = machine(k).status();
            const std::string c = classText(classes_[static_cast<std::size_t>(k)]);
            if (!s.finished()) waiting.push_back(c);
            if (first.empty() && s.finished() && s.code != StatusCode::Converged)
                first = "; class " + c + " vs rest: " + s.message;
        }
        if (!waiting.empty() || !first.empty()) {
            // Nothing stepped in the first step: the machines' set-ups took the time.
            const bool setUps = record.iteration == 1 && waiting.size() == classes_.size();
            return Status::make(
                StatusCode::TimeLimit,
                "reached max_seconds = " + formatReal(stopOptions().max_seconds) +
                    (setUps ? " during the machines' set-ups" : "") +
                    (waiting.empty() ? std::string()
                                     : " (the machines of classes " + joined(waiting) +
                                           " keep their current models)") +
                    first);
        }
    }
    for (int k = 0; k < machines(); ++k)
        if (!machine(k).status().finished()) return Status::running();
    // All finished and usable: converged only when every machine converged; otherwise the
    // first machine's limit or stall (its result is usable, its run was cut short).
    for (int k = 0; k < machines(); ++k) {
        const Status& s = machine(k).status();
        if (s.code != StatusCode::Converged) {
            return Status::make(s.code, "class " +
                                            classText(classes_[static_cast<std::size_t>(k)]) +
                                            " vs rest: " + s.message);
        }
    }
    return Status::make(StatusCode::Converged,
                        "all " + std::to_string(machines()) + " one-vs-rest machines converged");
}

SummaryFields OneVsRestSolver::summary() const {
    if (!valid()) return {};
    std::vector<double> objectives, counts;
    long long xvs = 0;
    for (int k = 0; k < machines(); ++k) {
        objectives.push_back(machine(k).lastRecord().upper);
        const auto n = classifier(k).supportVectors.dense.rows();
        counts.push_back(static_cast<double>(n));
        xvs += static_cast<long long>(n);
    }
    SummaryFields fields = {{"objective", lastRecord().upper},
                            {"expansion_vectors", xvs},
                            {"train_error", trainError_}};
    if (problem_.test) fields.emplace_back("test_error", testError_);
    fields.emplace_back("classes", classes_);
    fields.emplace_back("class_objectives", objectives);
    fields.emplace_back("class_expansion_vectors", counts);
    return fields;
}

SnapshotPtr OneVsRestSolver::snapshot() const {
    auto snapshot = std::make_shared<SparseSnapshot>();
    fillSnapshot(*snapshot);
    if (!valid()) return snapshot;
    snapshot->executedLines = iteration() == 0 ? std::vector<int>{kInput, kSplit}
                                               : std::vector<int>{kRepeat, kStep, kUntil};
    if (status().code == StatusCode::Converged) snapshot->executedLines.push_back(kReturn);
    snapshot->train = problem_.train;
    Eigen::Index total = 0;
    std::vector<KernelClassifier> fs;
    for (int k = 0; k < machines(); ++k) {
        fs.push_back(classifier(k));
        total += fs.back().supportVectors.dense.rows();
    }
    snapshot->kernelLabel = fs.front().specs.empty() ? "" : fs.front().specs.front().label();
    snapshot->xvs.resize(total, X_.cols());
    snapshot->beta.resize(total);
    Eigen::Index row = 0;
    for (const KernelClassifier& f : fs) {
        const auto n = f.supportVectors.dense.rows();
        if (n == 0) continue;
        snapshot->xvs.middleRows(row, n) = f.supportVectors.dense;
        snapshot->beta.segment(row, n) = f.coefficients;
        row += n;
    }
    snapshot->objective = lastRecord().upper;
    snapshot->trail = {snapshot->xvs};
    snapshot->trailIterations = {iteration()};
    snapshot->trainError = trainError_;
    snapshot->testError = testError_;
    return snapshot;
}

}  // namespace cplab
