// SPDX-License-Identifier: GPL-3.0-or-later
#include "sparse_solver.h"

#include <memory>
#include <utility>

#include "core/number_text.h"

namespace cplab {

bool SparseSolver::acceptProblem(const KernelProblem& problem, const std::string& kernel,
                                 const char* owner) {
    std::string why;
    if (prepareSparseProblem(problem, kernel, owner, &data_, &why)) return true;
    reject(why);
    return false;
}

bool SparseSolver::solveFull(double C, double tolerance, double cacheMb, const char* owner,
                             const Interrupt& setUp) {
    std::string why;
    if (!solveFullSvm(data_, C, tolerance, cacheMb, owner, setUp, &full_, &why)) {
        reject(why);
        return false;
    }
    fullSolved_ = true;
    if (!full_.complete) {
        noteSetUpCut("the full SVM stopped after " + std::to_string(full_.smoSteps) +
                     " SMO steps with KKT violation " + formatReal(full_.kktViolation) +
                     " (full_tolerance " + formatReal(tolerance) + "; its dual " +
                     formatReal(full_.dualObjective) + " is still a lower bound)");
    }
    return true;
}

Interrupt SparseSolver::setUpInterrupt() const {
    return deadlineFromNow(cancelToken(), stopOptions().max_seconds);
}

void SparseSolver::noteSetUpCut(const std::string& what) {
    setUpCut_ += (setUpCut_.empty() ? "" : "; ") + what;
}

Status SparseSolver::endCutSetUp(IterationRecord& record, const std::string& model) {
    const IterationRecord& initial = lastRecord();
    record.oracleCalls = initial.oracleCalls;
    record.upper = initial.upper;
    record.lower = initial.lower;
    record.extra = initial.extra;
    return setUpCutStatus(stopOptions().max_seconds, setUpCut_ + "; " + model);
}

bool SparseSolver::acceptExpansionCount(int expansionVectors, std::size_t distinctPoints,
                                        const char* owner) {
    if (expansionVectors <= static_cast<int>(distinctPoints)) return true;
    reject(std::string(owner) + ": " + std::to_string(expansionVectors) +
           " expansion vectors requested, but the training set '" + data_.problem.train->name +
           "' has " + std::to_string(distinctPoints) + " distinct points");
    return false;
}

void SparseSolver::addSummaryTail(SummaryFields& fields, double C,
                                  const std::string& kernel) const {
    if (!std::isnan(fullSvmObjective())) {
        fields.emplace_back("full_svm_objective", full_.dualObjective);
        fields.emplace_back("full_svm_support_vectors",
                            static_cast<long long>(full_.supportVectors.size()));
    }
    fields.emplace_back("C", C);
    fields.emplace_back("kernel", kernel);
}

std::vector<int> SparseSolver::executedLines(std::vector<int> atStart, std::vector<int> perStep,
                                             int converged) const {
    if (iteration() == 0) return atStart;
    if (status().code == StatusCode::Converged) perStep.push_back(converged);
    return perStep;
}

void SparseSolver::fillModel(SparseSnapshot& snapshot, const ShownModel& model) const {
    snapshot.train = data_.problem.train;
    snapshot.kernelLabel = data_.spec.label();
    snapshot.xvs = model.Z;
    snapshot.beta = model.beta;
    snapshot.bias = model.bias;
    snapshot.objective = lastRecord().upper;
    snapshot.fullSupportVectors = full_.supportVectors;
    auto classifier = std::make_shared<KernelClassifier>(
        sparseClassifier(data_.spec, model.Z, model.beta, model.bias, data_.classes));
    if (model.grid)
        snapshot.grid = decisionGrid(*classifier, *data_.problem.train, kSparseGridSize);
    snapshot.classifier = std::move(classifier);
    snapshot.trainError = model.trainError;
    snapshot.testError = model.testError;
}

}  // namespace cplab
