// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): online proximal MKL (structured/online_mkl.h; Martins et al.
// 2011, seed 002) on Taskar's OCR words — training fold 0 (626 words, 4,617 letters), testing
// on the other 6,251 words — reproducing the upper part of the paper's Table 1, and the online
// solver's linear kernel beside BCFW per pass.
//
// Table 1: the same number of epochs for every row; kernels on the 128 pixels, linear and
// quadratic normalised to unit diagonal (the paper's "normalised"), Gaussian exp(−γ‖x − x′‖²):
//   linear, quadratic (poly:2, i.e. (⟨x, x′⟩ + 1)²), Gaussian alone (each with the explicit
//   group of biases and transitions; squared-l1 regulariser over those two groups);
//   average: the three kernels with the l2 regulariser (one group of the summed kernel — the
//   average up to a factor that η₀ and λ absorb);
//   MKL: the three kernels with the squared-l1 regulariser (Alg. 3).
// Every row takes the best λ of a grid by test accuracy (as the paper's caption reports the
// best regularisation coefficient), η₀ = 1, the averaged model. Printed: λ, test accuracy per
// character, training accuracy, the final β of each group, seconds (training plus one final
// evaluation).
//
// Table 2: test letter error after k epochs (k = 1, 2, 5, 10) of online_mkl with the linear
// kernel alone, beside BCFW (λ = 0.01, the BCFW paper's) after k passes.
//
// Usage: bench_online_mkl [--quick] [--epochs E] [--data letter.data.gz]
//   --quick      5 epochs and one λ per row (1e-2)
//   --epochs E   epochs for table 1 (default 20, the paper's)
// The exit code is 0 unless the benchmark cannot run: it is a report.
#include <Eigen/Core>
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "core/solver.h"
#include "data/sequence_format.h"
#include "structured/bcfw.h"
#include "structured/online_mkl.h"

namespace {

using bench::fmt;
using cplab::OnlineMklOptions;
using cplab::OnlineMklSolver;
using cplab::StructuredProblem;

struct Settings {
    bool quick = false;
    int epochs = 20;
    std::string data = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";
};

bool parseArguments(int argc, char** argv, Settings* s) {
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--quick") {
            s->quick = true;
            s->epochs = 5;
        } else if (a == "--epochs" && k + 1 < argc) {
            s->epochs = std::max(1, std::atoi(argv[++k]));
        } else if (a == "--data" && k + 1 < argc) {
            s->data = argv[++k];
        } else {
            std::cerr << "usage: " << argv[0] << " [--quick] [--epochs E] [--data FILE]\n";
            return false;
        }
    }
    return true;
}

double column(const cplab::Solver& solver, const cplab::IterationRecord& r,
              const std::string& name) {
    const auto columns = solver.extraColumns();
    const auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? std::nan("")
                               : r.extra[static_cast<std::size_t>(it - columns.begin())];
}

struct Result {
    double lambda = 0.0, testAccuracy = 0.0, trainAccuracy = 0.0, seconds = 0.0;
    std::string betas;
};

Result runOnce(const StructuredProblem& p, const OnlineMklOptions& o) {
    OnlineMklSolver solver(p, o);
    while (!solver.step().finished()) {
    }
    const cplab::IterationRecord& last = solver.lastRecord();
    Result r;
    r.lambda = o.lambda;
    r.seconds = last.seconds;
    r.testAccuracy = 1.0 - column(solver, last, "test_error");
    r.trainAccuracy = 1.0 - column(solver, last, "train_error");
    for (int g = 0; g < solver.groupCount(); ++g) {
        if (!r.betas.empty()) r.betas += ", ";
        r.betas += solver.groupName(g) + " " +
                   fmt("%.2f", column(solver, last, "beta:" + solver.groupName(g)));
    }
    if (!solver.status().finished() || solver.status().code != cplab::StatusCode::IterationLimit)
        std::cerr << "warning: " << solver.status().message << '\n';
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    if (!parseArguments(argc, argv, &settings)) return 2;
    std::cout << bench::header("bench_online_mkl") << '\n';
    const auto split = cplab::loadLetterData(settings.data).splitByFold(0);
    const StructuredProblem p{
        std::make_shared<cplab::ChainModel>(std::make_shared<cplab::SequenceData>(split.first)),
        std::make_shared<cplab::ChainModel>(std::make_shared<cplab::SequenceData>(split.second))};
    std::cout << "OCR fold 0: " << p.train->size() << " training words, " << p.test->size()
              << " test words; " << settings.epochs << " epochs per row\n\n";

    const std::string gaussian = "gaussian:0.05";
    struct Row {
        std::string name, kernels, regulariser;
    };
    const std::vector<Row> rows = {{"linear", "linear", "squared_l1"},
                                   {"quadratic", "poly:2", "squared_l1"},
                                   {"Gaussian (" + gaussian + ")", gaussian, "squared_l1"},
                                   {"average", "linear;poly:2;" + gaussian, "l2"},
                                   {"MKL", "linear;poly:2;" + gaussian, "squared_l1"}};
    const std::vector<double> lambdas =
        settings.quick ? std::vector<double>{1e-2} : std::vector<double>{1e-3, 3e-3, 1e-2};
    std::cout << "| kernel | best lambda | test acc. per char. | train acc. | beta | seconds |\n"
                 "|---|---|---|---|---|---|\n";
    for (const Row& row : rows) {
        Result best;
        best.testAccuracy = -1.0;
        for (const double lambda : lambdas) {
            OnlineMklOptions o;
            o.kernels = row.kernels;
            o.regulariser = row.regulariser;
            o.lambda = lambda;
            o.epochs = settings.epochs;
            o.eval_every = settings.epochs;
            const Result r = runOnce(p, o);
            std::cerr << row.name << " lambda " << lambda << ": test accuracy "
                      << fmt("%.4f", r.testAccuracy) << ", " << fmt("%.1f", r.seconds) << " s\n";
            if (r.testAccuracy > best.testAccuracy) best = r;
        }
        std::cout << "| " << row.name << " | " << fmt("%g", best.lambda) << " | "
                  << fmt("%.4f", best.testAccuracy) << " | " << fmt("%.4f", best.trainAccuracy)
                  << " | " << best.betas << " | " << fmt("%.1f", best.seconds) << " |\n";
    }

    // Table 2: the linear kernel online against BCFW per pass.
    std::cout << "\nTest letter error after k epochs (online_mkl, linear kernel, lambda 1e-3) and "
                 "k passes (bcfw, lambda 0.01):\n\n| k | online_mkl | bcfw |\n|---|---|---|\n";
    OnlineMklOptions o;
    o.kernels = "linear";
    o.lambda = 1e-3;
    o.epochs = 10;
    OnlineMklSolver online(p, o);
    cplab::BcfwOptions b;
    b.lambda = 0.01;
    b.stop.max_iterations = 10;
    cplab::BcfwSolver bcfw(p, b);
    std::map<int, double> onlineError, bcfwError;
    for (bool more = true; more;) {
        more = !online.step().finished();
        const auto& r = online.lastRecord();
        const double e = column(online, r, "test_error");
        if (std::isfinite(e)) onlineError[static_cast<int>(std::lround(r.passes))] = e;
    }
    for (bool more = true; more;) {
        more = !bcfw.step().finished();
        const auto& r = bcfw.lastRecord();
        bcfwError[static_cast<int>(std::lround(r.passes))] = column(bcfw, r, "test_error");
    }
    for (const int k : {1, 2, 5, 10})
        std::cout << "| " << k << " | " << fmt("%.4f", onlineError[k]) << " | "
                  << fmt("%.4f", bcfwError[k]) << " |\n";
    return 0;
}
