// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the linear solvers (bmrm/: OCAS, BMRM, DCD, SGD and the libocas wrapper) on datasets
// parsed from the input as LIBSVM text. Inputs that do not load, that a family would refuse
// (checkMagnitudes), or that are larger than 200 examples or 1000 features are skipped. The
// risk, the bias and C are chosen from the input's hash; each solver then runs at most 20
// iterations. Expected: the solver rejects the problem (InvalidInput with a message), runs,
// or throws a documented exception (DataError, std::invalid_argument, std::runtime_error with
// a message). Findings: a crash or sanitizer report, a hang (libFuzzer's -timeout), any other
// exception, a finished status that is not usable without saying why, and, while Running, an
// upper bound that is not finite or a lower bound that is NaN, +inf or above the upper bound.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "fuzz_common.h"
#include "linear/bmrm.h"
#include "linear/dcd.h"
#include "linear/libocas_solver.h"
#include "linear/ocas.h"
#include "linear/sgd.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

constexpr int kMaxExamples = 200;
constexpr int kMaxFeatures = 1000;
constexpr int kIterations = 20;

// Steps `solver` up to kIterations times, checking the bounds after every step.
void run(Solver& solver) {
    for (int t = 0; t < kIterations; ++t) {
        const Status status = solver.step();
        const IterationRecord& r = solver.lastRecord();
        const std::string who = solver.name() + " iteration " + std::to_string(r.iteration);
        if (!status.finished()) {
            require(std::isfinite(r.upper),
                    who + ": upper bound " + std::to_string(r.upper) + " while running");
            require(!std::isnan(r.lower) && r.lower != INFINITY,
                    who + ": lower bound " + std::to_string(r.lower) + " while running");
            const double slack = 1e-6 * std::max(1.0, std::abs(r.upper));
            require(!(r.lower > r.upper + slack), who + ": lower bound " + std::to_string(r.lower) +
                                                      " > upper bound " + std::to_string(r.upper));
            continue;
        }
        require(status.usable() || !status.message.empty(),
                who + ": finished with status " + statusName(status.code) + " and no message");
        return;
    }
}

// Constructs and runs one solver; the documented exceptions are not findings.
template <class SolverType, class Options>
void tryRun(const LinearProblem& problem, const Options& options) {
    try {
        SolverType solver(problem, options);
        run(solver);
    } catch (const DataError&) {
    } catch (const std::invalid_argument&) {
    } catch (const std::runtime_error& e) {
        require(e.what()[0] != '\0', "a std::runtime_error without a message");
    }
}

template <class Options>
Options withModel(const LinearSvmOptions& model) {
    Options options;
    options.model = model;
    options.stop.max_iterations = kIterations;
    return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = asText(data, size);
    auto train = std::make_shared<Dataset>();
    try {
        *train = parseLibsvm(bytes, "fuzz.libsvm");
        checkMagnitudes(*train);
    } catch (const DataError&) {
        return 0;
    }
    if (train->size() > kMaxExamples || train->dimension() > kMaxFeatures) return 0;
    compactFeatures(*train, nullptr, false);  // as the linear family does

    static const char* const kRisks[] = {"hinge", "logistic", "squared_hinge", "multiclass",
                                         "epsilon_insensitive"};
    static constexpr double kCs[] = {1.0, 1e-3, 1e3};
    const std::uint64_t h = hashOf(bytes);
    LinearSvmOptions model;
    model.risk = kRisks[h % 5];
    model.bias = ((h >> 3) & 1) != 0;
    model.C = kCs[(h >> 4) % 3];

    const LinearProblem problem{train, nullptr};
    tryRun<OcasSolver>(problem, withModel<OcasOptions>(model));
    tryRun<BmrmSolver>(problem, withModel<BmrmOptions>(model));
    tryRun<DcdSolver>(problem, withModel<DcdOptions>(model));
    tryRun<SgdSolver>(problem, withModel<SgdOptions>(model));
    tryRun<LibocasSolver>(problem, withModel<LibocasOptions>(model));
    return 0;
}
