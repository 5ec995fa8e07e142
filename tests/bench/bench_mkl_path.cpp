// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): the headline claim of the MKL regularisation path (solver
// `mklpath`, issue 13) — the whole path costs about one single-λ solve, O(m) steps for m
// kernels. tests/solvers/kernel/test_mkl_path.cpp asserts the path's answers; the costs are here.
//
//   path vs one solve   housing (squared loss) and BUPA liver (logistic loss), m = 5, 10, 20,
//                       40 kernels: path points, Newton steps, factorisations and seconds of the
//                       whole path (construction, i.e. kernel matrices and the first point at
//                       λ₀, plus every step); then ONE from-scratch solve of the same barrier
//                       problem at the path's smallest λ: MklPathSolver::solveFromScratch, the
//                       barrier continuation the solver uses for its first point at λ₀ (damped
//                       Newton, the path's own corrector, from β/(2λ₀) with the barrier weight
//                       10⁴μ, 10³μ, …, μ) run at λ_min instead. Ratio = Newton time of the path
//                       (its first point, timed as the same continuation at λ₀, plus its steps;
//                       the kernel matrices, which both need, excluded) / the one solve; and the
//                       same ratio of factorisations. The cold solve's α is compared with the
//                       path's last α (they solve the same problem).
//   path vs SILP grid   BUPA, m = 5, 10, 20, 40: SILP (hinge loss!) at C = 1/λ for every λ of the
//                       logistic path, in decreasing λ (increasing C), each run warm-started from
//                       the previous one (SilpSolver::warmStart: its best β, its α and its
//                       planes), to tol_rel = 1e-3; time of the grid (constructions included) /
//                       time of the whole path (construction included). The losses differ, so
//                       only the costs are compared. A cold grid (every run from β uniform,
//                       α = 0) is timed alongside.
//
// Data: tests/data/housing.data (506 × 13; a training part of 354, --test-fraction 0.3 seed
// 1 as in docs/kernel.md's table) and tests/data/bupa.data (345 × 6, labels 1/2). Kernels: m − 2
// Gaussian widths log-spaced from 0.003 to 30, plus poly:2 and linear; trace normalisation,
// standardised features, γ = 0, μ = 1e-3, lambda_min = λ₀·10⁻⁴. Each cell is measured --runs
// times (median; range in brackets where printed). Exit code 0 unless it cannot run.
//
// Usage: bench_mkl_path [--runs N] [--mu M] [--kkt-tolerance T]
//   N = 1 by default (about a minute and a half); M = 1e-3 and T = 1e-9 (the solver's
//   defaults) are the barrier weight and the corrector's tolerance of the path and of the one
//   solve alike, to see how looser settings move the ratio.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "data/csv_format.h"
#include "kernel/mkl_path.h"
#include "kernel/silp.h"

namespace {

using bench::Clock;
using bench::fmt;
using bench::median;
using bench::secondsSince;
using cplab::Dataset;

constexpr double kSilpTolRel = 1e-3;

// "gaussian:w1,…,w_{m−2};poly:2;linear" with the widths log-spaced from 0.003 to 30.
std::string kernelList(int m) {
    std::string text = "gaussian:";
    const int widths = m - 2;
    for (int k = 0; k < widths; ++k) {
        const double t = widths > 1 ? static_cast<double>(k) / (widths - 1) : 0.5;
        const double w = 0.003 * std::pow(1e4, t);
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.3g", w);
        text += (k ? "," : "") + std::string(buffer);
    }
    return text + ";poly:2;linear";
}

// --mu and --kkt-tolerance.
double gMu = 1e-3;
double gKktTolerance = 1e-9;

cplab::MklPathOptions pathOptions(int m, const std::string& loss) {
    cplab::MklPathOptions o;
    o.kernels = kernelList(m);
    o.loss = loss;
    o.gamma = 0.0;
    o.mu = gMu;
    o.kkt_tolerance = gKktTolerance;
    o.stop.max_iterations = 2000;
    return o;
}

struct PathRun {
    double construct = 0, steps = 0;  // seconds
    double first = 0;                 // the first point's continuation at λ₀, timed again
    double cold = 0;                  // one from-scratch solve at λ_min
    long long points = 0, newton = 0, factorizations = 0;
    long long coldNewton = 0, coldFactorizations = 0;
    bool coldOk = false;
    double coldDifference = 0;  // ‖α_cold − α_path‖∞ / ‖α_path‖∞ at λ_min
    double lambda0 = 0, lambdaMin = 0;
    std::string status;
    std::vector<double> lambdas;  // every point's λ
    double total() const { return construct + steps; }
    // Newton time of the path: its first point plus its steps (kernel matrices excluded).
    double newtonTime() const { return first + steps; }
};

long long summaryInt(const cplab::Solver& s, const std::string& key) {
    for (const auto& [name, value] : s.summary())
        if (name == key) return std::get<long long>(value);
    return 0;
}

PathRun runPath(const std::shared_ptr<const Dataset>& data, int m, const std::string& loss) {
    PathRun r;
    auto start = Clock::now();
    cplab::MklPathSolver solver(cplab::KernelProblem{data, nullptr}, pathOptions(m, loss));
    r.construct = secondsSince(start);
    if (solver.status().code == cplab::StatusCode::InvalidInput)
        throw std::runtime_error(solver.status().message);
    start = Clock::now();
    cplab::solve(solver);
    r.steps = secondsSince(start);
    // How the path ended, in short.
    const std::string message = solver.status().message;
    r.status = message.find("lambda_min") != std::string::npos         ? "lambda_min"
               : message.find("training error 0") != std::string::npos ? "training error 0"
                                                                       : message;
    r.points = static_cast<long long>(solver.pathLambdas().size());
    r.newton = summaryInt(solver, "newton_steps");
    r.factorizations = summaryInt(solver, "factorizations");
    r.lambda0 = solver.lambda0();
    r.lambdaMin = solver.pathLambdas().back();
    r.lambdas = solver.pathLambdas();

    start = Clock::now();
    const auto first = solver.solveFromScratch(solver.lambda0());
    r.first = secondsSince(start);
    if (!first.ok) throw std::runtime_error("the continuation at lambda_0 failed");

    start = Clock::now();
    const auto cold = solver.solveFromScratch(r.lambdaMin, 1000);
    r.cold = secondsSince(start);
    r.coldOk = cold.ok;
    r.coldNewton = cold.newtonSteps;
    r.coldFactorizations = cold.factorizations;
    const Eigen::VectorXd& last = solver.pathAlphas().back();
    if (cold.ok)
        r.coldDifference =
            (cold.alpha - last).lpNorm<Eigen::Infinity>() / last.lpNorm<Eigen::Infinity>();
    return r;
}

struct GridRun {
    double seconds = 0;
    long long svmCalls = 0, smoSteps = 0;
    int notConverged = 0;
};

// SILP at C = 1/λ for the path's λ (decreasing λ: increasing C), warm-started or cold.
GridRun silpGrid(const std::shared_ptr<const Dataset>& data, int m,
                 const std::vector<double>& lambdas, bool warm) {
    GridRun g;
    const auto start = Clock::now();
    std::unique_ptr<cplab::SilpSolver> previous;
    for (double lambda : lambdas) {
        cplab::SilpOptions o;
        o.kernel.kernels = kernelList(m);
        o.kernel.C = 1.0 / lambda;
        o.kernel.normalize = "trace";
        o.stop.tol_rel = kSilpTolRel;
        o.stop.epsilon = 0;
        o.stop.max_iterations = 2000;
        auto silp = std::make_unique<cplab::SilpSolver>(cplab::KernelProblem{data, nullptr}, o);
        if (silp->status().code == cplab::StatusCode::InvalidInput)
            throw std::runtime_error(silp->status().message);
        std::string why;
        if (warm && previous && !silp->warmStart(*previous, &why)) throw std::runtime_error(why);
        cplab::solve(*silp);
        g.svmCalls += silp->lastRecord().oracleCalls;
        g.smoSteps += summaryInt(*silp, "smo_iterations");
        if (silp->status().code != cplab::StatusCode::Converged) ++g.notConverged;
        previous = std::move(silp);
    }
    g.seconds = secondsSince(start);
    return g;
}

// Mean 0, variance 1 per feature (SILP does not standardise; the path does, so both get the
// same standardised features).
std::shared_ptr<const Dataset> standardized(const Dataset& given) {
    auto data = std::make_shared<Dataset>(given);
    data->setSparseStorage(false);
    const Eigen::RowVectorXd mean = data->dense.colwise().mean();
    data->dense.rowwise() -= mean;
    for (Eigen::Index j = 0; j < data->dense.cols(); ++j) {
        const double sd = std::sqrt(data->dense.col(j).squaredNorm() / data->size());
        if (sd > 0) data->dense.col(j) /= sd;
    }
    return data;
}

std::string pad(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string range(const std::vector<double>& v) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return v.size() > 1 ? " [" + fmt("%.2f", *lo) + "-" + fmt("%.2f", *hi) + "]" : "";
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 1;
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        char* end = nullptr;
        const char* value = k + 1 < argc ? argv[k + 1] : "";
        double number = std::strtod(value, &end);
        const bool ok = end != value && *end == '\0' && number > 0 && std::isfinite(number);
        if (a == "--runs" && ok && number >= 1) {
            runs = static_cast<int>(number);
        } else if (a == "--mu" && ok && number <= 1000) {
            gMu = number;
        } else if (a == "--kkt-tolerance" && ok && number < 1) {
            gKktTolerance = number;
        } else {
            std::cerr << "usage: " << argv[0]
                      << " [--runs N] [--mu M] [--kkt-tolerance T]\n"
                         "  --runs N             measurements per row (default 1)\n"
                         "  --mu M               barrier weight, in (0, 1000] (default 1e-3)\n"
                         "  --kkt-tolerance T    corrector tolerance, in (0, 1) (default 1e-9)\n";
            return 2;
        }
        ++k;
    }
    std::cout << bench::header("bench_mkl_path") << ", " << runs << " runs per cell, mu " << gMu
              << ", kkt_tolerance " << gKktTolerance << ")\n";

    std::shared_ptr<const Dataset> housing, bupa;
    try {
        const std::string dir = CPLAB_TEST_DATA_DIR;
        const Dataset all = cplab::loadCsv(dir + "/housing.data");
        housing = std::make_shared<const Dataset>(all.split(0.3, 1).first);
        bupa = standardized(cplab::loadCsv(dir + "/bupa.data"));
    } catch (const std::exception& e) {
        std::cerr << "bench_mkl_path: " << e.what() << "\n";
        return 1;
    }
    const std::vector<int> counts = {5, 10, 20, 40};
    try {
        for (const auto& [name, data, loss] :
             {std::tuple{"housing", housing, "squared"}, std::tuple{"bupa", bupa, "logistic"}}) {
            std::cout << "\n=== whole path vs one from-scratch solve at lambda_min: " << name
                      << " (" << data->size() << " x " << data->dimension() << ", " << loss
                      << " loss, mu = " << gMu << ", gamma = 0, lambda_min = lambda_0 * 1e-4; s)\n";
            std::cout << "  m  points  Newton  factor.  path s (constr. + steps)   Newton s  "
                         "| one solve: s  Newton  factor. | ratio time  factor.  "
                         "|a_cold-a_path|/|a|  end\n";
            for (int m : counts) {
                std::vector<double> totals, newtonTimes, colds, ratios;
                PathRun r;
                for (int k = 0; k < runs; ++k) {
                    r = runPath(data, m, loss);
                    totals.push_back(r.total());
                    newtonTimes.push_back(r.newtonTime());
                    colds.push_back(r.cold);
                    ratios.push_back(r.newtonTime() / r.cold);
                }
                std::cout << fmt("%3.0f", m) << fmt("%8.0f", double(r.points))
                          << fmt("%8.0f", double(r.newton))
                          << fmt("%9.0f", double(r.factorizations)) << "  "
                          << pad(fmt("%.2f", median(totals)) + " (" + fmt("%.2f", r.construct) +
                                     " + " + fmt("%.2f", r.steps) + ")",
                                 25)
                          << fmt("%9.2f", median(newtonTimes)) << "  | "
                          << (r.coldOk ? fmt("%10.2f", median(colds)) : std::string("    failed"))
                          << fmt("%8.0f", double(r.coldNewton))
                          << fmt("%9.0f", double(r.coldFactorizations)) << " | "
                          << fmt("%9.2f", median(ratios)) << "x"
                          << fmt("%8.2f", double(r.factorizations) /
                                              double(std::max(1LL, r.coldFactorizations)))
                          << "x" << fmt("%16.1e", r.coldDifference) << "  " << r.status
                          << range(ratios) << "\n";
            }
        }

        std::cout << "\n=== BUPA: logistic path vs a grid of SILP solves at C = 1/lambda for "
                     "the path's lambdas\n"
                     "    (SILP solves the HINGE loss, the path the LOGISTIC loss: only the "
                     "costs are compared; SILP tol_rel = "
                  << kSilpTolRel << ", trace normalisation, same standardised features)\n";
        std::cout << "  m  points  C range            path s | warm grid s  SVM calls  SMO "
                     "updates | cold grid s  SVM calls | warm / path  cold / path\n";
        for (int m : counts) {
            std::vector<double> paths, warms, colds;
            PathRun r;
            GridRun warm, cold;
            for (int k = 0; k < runs; ++k) {
                r = runPath(bupa, m, "logistic");
                paths.push_back(r.total());
                warm = silpGrid(bupa, m, r.lambdas, true);
                warms.push_back(warm.seconds);
                cold = silpGrid(bupa, m, r.lambdas, false);
                colds.push_back(cold.seconds);
            }
            const std::string cRange =
                fmt("%.2g", 1.0 / r.lambdas.front()) + "-" + fmt("%.3g", 1.0 / r.lambdas.back());
            std::cout << fmt("%3.0f", m) << fmt("%8.0f", double(r.points)) << "  "
                      << pad(cRange, 17) << fmt("%8.2f", median(paths)) << " |"
                      << fmt("%12.2f", median(warms)) << fmt("%11.0f", double(warm.svmCalls))
                      << fmt("%13.0f", double(warm.smoSteps)) << " |"
                      << fmt("%12.2f", median(colds)) << fmt("%11.0f", double(cold.svmCalls))
                      << " |" << fmt("%11.1f", median(warms) / median(paths)) << "x"
                      << fmt("%11.1f", median(colds) / median(paths)) << "x"
                      << (warm.notConverged + cold.notConverged
                              ? "  (" + std::to_string(warm.notConverged + cold.notConverged) +
                                    " SILP runs not converged)"
                              : std::string())
                      << "\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "bench_mkl_path: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
