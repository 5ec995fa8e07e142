// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): our SMO against LIBSVM, cold, on real data, and the peak memory
// of MKL with 20 kernels on 2,000 examples (ALGORITHMS.md §4; tests/solvers/kernel/test_smo.cpp
// asserts that both reach the same optimum, the costs are here).
//
//   SMO vs LIBSVM   the same Gaussian kernel, C, tolerance (1e-3, LIBSVM's default), shrinking
//                   and cache size (100 MB). Ours: from the data to the converged α — building
//                   the KernelSet, KernelQ and Smo included. LIBSVM: svm_train alone
//                   (LibsvmResult::trainSeconds; building its node arrays is not counted).
//                   Ratio ours / LIBSVM, target ≤ 1.0 on every dataset. One untimed run of
//                   each precedes the timed ones (steady state of the memory allocator).
//   peak memory     SILP with 20 Gaussian kernels (cache_mb = 256) for 5 iterations on the
//                   first 2,000 USPS digits (0 against the rest), run in a child process:
//                   its peak resident set (ru_maxrss), target well under 1 GB.
//
// Each time is the median of --runs runs (range in brackets). Verdicts are printed; the exit
// code is 0 unless the benchmark cannot run.
//
// Usage: bench_smo [--runs N]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Core>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "data/csv_format.h"
#include "data/libsvm_format.h"
#include "kernel/kernel_set.h"
#include "kernel/libsvm_solver.h"
#include "kernel/silp.h"
#include "kernel/smo.h"

namespace {

using bench::Clock;
using bench::fmt;
using bench::median;
using bench::millisecondsText;
using bench::secondsSince;
using cplab::Dataset;

constexpr double kC = 1.0;
constexpr double kTolerance = 1e-3;
constexpr double kCacheMb = 100.0;

struct Case {
    std::string name;
    std::shared_ptr<const Dataset> data;
    double gamma = 1.0;
};

std::shared_ptr<const Dataset> binary(Dataset data) {
    data.makeBinaryLabels();
    return std::make_shared<const Dataset>(std::move(data));
}

// USPS digit 0 (+1) against the rest (−1).
std::shared_ptr<const Dataset> digitZero(Dataset data) {
    for (Eigen::Index i = 0; i < data.labels.size(); ++i)
        data.labels[i] = data.labels[i] == 0 ? 1.0 : -1.0;
    data.classNames.clear();
    return std::make_shared<const Dataset>(std::move(data));
}

struct Timing {
    std::vector<double> ours, libsvm;
    double oursDual = 0, libsvmDual = 0;
    long long oursSteps = 0, libsvmSteps = 0;
};

Timing timeCase(const Case& c, int runs) {
    Timing t;
    const cplab::KernelSpec spec{cplab::KernelType::Gaussian, 1, 1.0, c.gamma, {}};
    // One untimed run of each side first: the allocator then holds the memory both reuse (on
    // some machines a first touch of a page costs more than the whole SMO).
    for (int r = -1; r < runs; ++r) {
        const auto start = Clock::now();
        cplab::KernelSet kernels(c.data, {spec}, cplab::KernelNormalization::None, kCacheMb / 2);
        cplab::KernelQ q(kernels, c.data->labels, Eigen::VectorXd::Ones(1), kCacheMb / 2);
        cplab::Smo smo(q, cplab::SmoOptions{kC, kTolerance, true});
        const cplab::SmoProgress progress = smo.run(0);
        if (r >= 0) t.ours.push_back(secondsSince(start));
        t.oursDual = smo.dualObjective();
        t.oursSteps = progress.steps;

        const cplab::LibsvmResult peer = cplab::solveWithLibsvm(
            *c.data, spec, cplab::KernelNormalization::None, kC, kTolerance, true, kCacheMb);
        if (r >= 0) t.libsvm.push_back(peer.trainSeconds);
        t.libsvmDual = peer.dualObjective;
        t.libsvmSteps = peer.iterations;
    }
    return t;
}

// Peak RSS in MB of a child that runs 5 SILP iterations with 20 kernels on `data`; −1 when the
// child fails.
double silpPeakMb(const std::shared_ptr<const Dataset>& data, double* baselineMb) {
    const pid_t child = fork();
    if (child == 0) {
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        cplab::SilpOptions o;
        std::string list = "gaussian:";
        for (int k = 0; k < 20; ++k)
            list += (k ? "," : "") + fmt("%g", 0.001 * std::pow(10.0, k * 3.0 / 19.0));
        o.kernel.kernels = list;
        o.kernel.cache_mb = 256;
        o.stop.max_iterations = 5;
        o.stop.tol_rel = 0;  // five iterations whatever the gap
        o.stop.epsilon = 0;
        cplab::SilpSolver silp(cplab::KernelProblem{data, nullptr}, o);
        const cplab::Status status = cplab::solve(silp);
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        std::cout << "  child: SILP " << cplab::statusName(status.code) << " after "
                  << silp.iteration() << " iterations, " << silp.specs().size()
                  << " kernels, start RSS " << fmt("%.0f", before.ru_maxrss / 1024.0) << " MB\n"
                  << std::flush;
        _exit(status.usable() ? 0 : 1);
    }
    int code = 0;
    waitpid(child, &code, 0);
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    *baselineMb = 0;
    if (!WIFEXITED(code) || WEXITSTATUS(code) != 0) return -1;
    return usage.ru_maxrss / 1024.0;
}

std::string pad(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 5;
    if (!bench::parseRuns(argc, argv, &runs)) return 2;
    std::cout << bench::header("bench_smo") << ", " << runs << " runs per cell)\n";

    std::vector<Case> cases;
    std::shared_ptr<const Dataset> usps2000;
    try {
        const std::string dir = CPLAB_TEST_DATA_DIR;
        cases.push_back({"ionosphere 351x34",
                         binary(cplab::loadLibsvm(dir + "/kernel/ionosphere_scale")), 1.0});
        cases.push_back({"sonar 208x60", binary(cplab::loadCsv(dir + "/sonar.all-data")), 1.0});
        cases.push_back({"breast-cancer 683x10",
                         binary(cplab::loadLibsvm(dir + "/kernel/breast-cancer_scale")), 1.0});
        cases.push_back({"heart 270x13", binary(cplab::loadLibsvm(dir + "/heart_scale")), 1.0});
        cases.push_back({"a1a 1605x119", binary(cplab::loadLibsvm(dir + "/kernel/a1a")), 0.05});
        usps2000 = digitZero(cplab::loadLibsvm(dir + "/usps_first2000.gz"));
        cases.push_back({"usps 0-vs-rest 2000x256", usps2000, 0.01});
    } catch (const std::exception& e) {
        std::cerr << "bench_smo: " << e.what() << '\n';
        return 1;
    }

    std::cout << "\nSMO vs LIBSVM, cold, Gaussian kernel, C = 1, eps = 1e-3, shrinking, cache "
              << kCacheMb << " MB (milliseconds: median [min-max])\n";
    std::cout << pad("dataset", 26) << pad("gamma", 7) << pad("ours", 24) << pad("LIBSVM", 24)
              << pad("ratio", 8) << pad("steps ours/LIBSVM", 19) << "rel. diff. dual\n";
    bool allPass = true;
    for (const Case& c : cases) {
        const Timing t = timeCase(c, runs);
        const double ratio = median(t.ours) / median(t.libsvm);
        allPass = allPass && ratio <= 1.0;
        std::cout << pad(c.name, 26) << pad(fmt("%g", c.gamma), 7)
                  << pad(millisecondsText(t.ours), 24) << pad(millisecondsText(t.libsvm), 24)
                  << pad(fmt("%.2f", ratio), 8)
                  << pad(std::to_string(t.oursSteps) + "/" + std::to_string(t.libsvmSteps), 19)
                  << fmt("%.1e", std::abs(t.oursDual - t.libsvmDual) / std::abs(t.libsvmDual))
                  << '\n';
    }
    std::cout << "target ours/LIBSVM <= 1.0 on every dataset: " << (allPass ? "PASS" : "FAIL")
              << "\n";

    std::cout << "\nPeak memory, SILP with 20 Gaussian kernels, 2,000 USPS examples, cache_mb "
                 "256, 5 iterations\n";
    std::cout << std::flush;  // the child must not repeat what is buffered
    double baseline = 0;
    const double peak = silpPeakMb(usps2000, &baseline);
    if (peak < 0) {
        std::cout << "child failed\n";
        return 1;
    }
    std::cout << "peak resident set " << fmt("%.0f", peak)
              << " MB; target well under 1024 MB: " << (peak < 700 ? "PASS" : "FAIL") << '\n';
    return 0;
}
