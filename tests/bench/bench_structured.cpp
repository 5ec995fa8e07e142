// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): our structural SVM solvers (ALGORITHMS.md §6) on the OCR words
// of Taskar et al. (training fold 0: 626 words, 4,617 letters; test: the other 6,251 words),
// against dlib's structural_sequence_labeling_trainer measured in the same run, and the
// ranking of Figure 1 of the BCFW paper (Lacoste-Julien et al. 2013).
//
// Table 1, time to a certified gap, ours vs dlib (oca, its 1-slack cutting-plane solver):
//   dlib oca 1 and 2 threads, our oneslack 1 and 2 threads (threads option), our bcfw with the
//   BCFW paper's permutation sampling (no pairwise steps, no cache), and bcfw with its defaults
//   (gap sampling, pairwise steps, a cache of 4 decodings per word: Osokin et al. 2016) on 1 and 2
//   threads, evaluated every kGapEvalEvery passes or when its gap estimate reaches the target.
//   The problem is dlib's: plain Hamming loss (dlib's loss is per label, it cannot be divided
//   by the word length; our normalizeLoss = false), λ = 0.01 (the BCFW paper's), hence C = 1/λ
//   = 100 (dlib's default C): dlib minimises ½‖w‖² + C·(1/n)Σᵢ Hᵢ(w) = C·P(w)
//   (tests/common/dlib_chain_features.h, checked by tests/solvers/structured/test_dlib_peer).
//   Target: certified gap ≤ tol·P* for tol = 1e-2 and 1e-3, P* from an n-slack run to a
//   relative gap of 1e-5 (1e-4 with --quick).
//   Every solver stops on the gap it certifies itself: ours on U − L (StopOptions::epsilon =
//   tol·P*), dlib on its "risk gap" (oca's P(w) minus its cutting-plane lower bound, in units
//   of P) < set_epsilon(tol·P*). Times: ours from the solver's construction (its first oracle
//   pass at w = 0) to its end; dlib's around train() (which builds its truth Ψ's); the
//   sequences are built beforehand for both. Printed: seconds (median [min-max] of --runs),
//   CPU seconds, iterations, oracle passes (loss-augmented decodings / n; dlib's counted by the
//   extractor: its cache answers some separation calls without decoding), P(w) and
//   (P − P*)/P* by OUR oracle, the certified gap, and the letter error on the test words; then
//   the ratios ours/dlib.
//   Our solvers get no test words while timed (their evaluations would decode 6,251 words per
//   pass), and oneslack evaluates no training letter error (eval_every large); bcfw needs its
//   evaluation pass every pass for the bound U (eval_every = 1: n more decodings, plus one
//   plain decoding pass for the training letter error, both timed).
//
// Table 2, Figure 1 of the BCFW paper (OCR, λ = 0.01, 0.001, 1/n; normalised Hamming loss,
// the paper's): primal suboptimality P(w_k) − P* of the current iterate after k = 1, 2, 5, 10,
// 20 effective passes (the last step within k oracle passes of the method itself; evaluation
// passes not counted) for bcfw gap (its defaults: two warm-up passes as in the paper, then gap
// sampling, pairwise steps and the cache, whose hits cost no oracle call, so it makes several
// steps per effective pass; run to 20 passes, not 20 steps), bcfw (the paper's permutation
// sampling), bcfw with weighted averaging, ssg (weighted averaging, the paper's SSG-wavg), ssg
// without averaging, oneslack (the paper's "cutting plane") and fw. P* from an n-slack run to a
// relative gap of 1e-3 (enough for the suboptimalities of 20 passes; its certified gap is
// printed and smaller differences are shown as "<gap"). Note: with fold 0 for training,
// λn = 6.26 at λ = 0.01 and 0.63 at λ = 0.001 — if the paper trained on the large split
// (n = 6,251), its λ = 0.001 compares with our λ = 0.01. The paper's caption: for λ = 0.01 the
// stochastic methods (BCFW, SSG) are considerably better than the batch ones (cutting plane, FW);
// for λ = 1/n even the batch solvers reach a lower objective earlier than SSG; BCFW is low in both
// settings. Printed after each λ: bcfw gap against bcfw at every k (the target: no
// worse per pass), and the ranking after 20 passes of the rows that reached 20 passes.
//
// Usage: bench_structured [--quick] [--runs N] [--per-pass] [--timing] [--gap-set k=v]... [--seed
// S]
//   --quick     one run, tol 1e-2 only, table 2 at λ = 0.01 up to 10 passes
//   --runs N    timed runs per row of table 1 (default 3)
//   --per-pass  table 2 only, its first two rows (bcfw gap, bcfw) at every k = 1 … 20, each λ,
//               printing P(w_k) itself (no P*: the comparison needs none)
//   --gap-set key=value   an option of the bcfw gap row (repeatable; ablations)
//   --seed S    the seed of table 2's bcfw gap and bcfw rows (default 1)
//   --timing    table 1 only
// The exit code is 0 unless the benchmark cannot run: it is a report.
#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "../common/dlib_chain_features.h"
#include "bench_common.h"
#include "core/solver.h"
#include "data/sequence_format.h"
#include "structured/bcfw.h"
#include "structured/chain_model.h"
#include "structured/frank_wolfe_ssvm.h"
#include "structured/n_slack_ssvm.h"
#include "structured/one_slack_ssvm.h"
#include "structured/ssg_ssvm.h"

namespace {

using bench::Clock;
using bench::cpuSeconds;
using bench::fmt;
using bench::median;
using bench::secondsSince;
using bench::timeText;
using cplab::ChainModel;
using cplab::IterationRecord;
using cplab::SequenceData;
using cplab::StructuredProblem;

// Passes between the full passes of bcfw gap in table 1 (its evaluations: P(w), the exact block
// gaps); it also evaluates as soon as its estimated gap reaches the target (bcfw.h).
constexpr int kGapEvalEvery = 10;

struct Settings {
    bool quick = false;
    bool perPass = false;     // table 2's per-pass comparison only, at every k
    bool timingOnly = false;  // table 1 only
    int runs = 3;
    cplab::OptionValues gapOptions;  // --gap-set: options of the bcfw gap row
    int seed = 1;                    // --seed: of table 2's bcfw rows
};

bool parseArguments(int argc, char** argv, Settings* s) {
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--quick") {
            s->quick = true;
            s->runs = 1;
        } else if (a == "--per-pass") {
            s->perPass = true;
        } else if (a == "--timing") {
            s->timingOnly = true;
        } else if (a == "--gap-set" && k + 1 < argc) {
            const std::string kv = argv[++k];
            const std::size_t eq = kv.find('=');
            if (eq == 0 || eq == std::string::npos) {
                std::cerr << "bench_structured: --gap-set wants key=value, got '" << kv << "'\n";
                return false;
            }
            s->gapOptions[kv.substr(0, eq)] = kv.substr(eq + 1);
            cplab::BcfwOptions probe;
            std::string why;
            if (!cplab::assignOptions(probe, s->gapOptions, &why) || !probe.isValid(&why)) {
                std::cerr << "bench_structured: --gap-set: " << why << "\n";
                return false;
            }
        } else if (a == "--seed" && k + 1 < argc) {
            s->seed = std::max(0, std::atoi(argv[++k]));
        } else if (a == "--runs" && k + 1 < argc) {
            s->runs = std::max(1, std::atoi(argv[++k]));
        } else {
            std::cerr << "usage: " << argv[0]
                      << " [--quick] [--runs N] [--per-pass] [--timing] [--gap-set key=value]... "
                         "[--seed S]\n"
                         "  --quick     one run, tol 1e-2 only, table 2 at lambda = 0.01 only\n"
                         "  --runs N    timed runs per row of table 1 (default 3)\n"
                         "  --per-pass  table 2's bcfw gap and bcfw only, at every k = 1 ... 20\n"
                         "  --gap-set key=value  an option of table 2's bcfw gap row\n"
                         "  --seed S    seed of table 2's bcfw rows (default 1)\n"
                         "  --timing    table 1 only\n";
            return false;
        }
    }
    return true;
}

void printRow(const std::vector<std::string>& cells, const std::vector<int>& widths) {
    std::string line;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        std::string cell = cells[k];
        const int w = k < widths.size() ? widths[k] : 12;
        if (static_cast<int>(cell.size()) < w)
            cell.append(static_cast<std::size_t>(w) - cell.size(), ' ');
        line += cell + "  ";
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    std::cout << line << '\n';
}

// The training and test words as chain models with the given loss.
StructuredProblem ocrProblem(const std::pair<SequenceData, SequenceData>& split,
                             bool normalizeLoss) {
    cplab::ChainModelOptions options;
    options.normalizeLoss = normalizeLoss;
    return {std::make_shared<ChainModel>(std::make_shared<SequenceData>(split.first), options),
            std::make_shared<ChainModel>(std::make_shared<SequenceData>(split.second), options)};
}

double primal(const ChainModel& model, double lambda, const Eigen::VectorXd& w) {
    return 0.5 * lambda * w.squaredNorm() + cplab::meanHinge(model, w);
}

// The optimum by our n-slack solver to a relative gap `tol`: {U, L}.
struct Optimum {
    double upper = 0.0, lower = 0.0, seconds = 0.0;
    int passes = 0;
};

Optimum nslackOptimum(const StructuredProblem& p, double lambda, double tol) {
    cplab::NSlackOptions o;
    o.lambda = lambda;
    o.stop.epsilon = 0.0;
    o.stop.tol_rel = tol;
    o.stop.max_iterations = 100000;
    o.qp_tolerance = std::min(1e-9, 0.01 * tol);
    o.eval_every = 100000;
    o.threads = 2;
    const auto start = Clock::now();
    cplab::NSlackSolver solver({p.train}, o);
    cplab::solve(solver);
    return {solver.lastRecord().upper, solver.lastRecord().lower, secondsSince(start),
            solver.iteration()};
}

// ---- Table 1 -------------------------------------------------------------------------------

struct Run {
    double seconds = 0.0, cpu = 0.0;
    int iterations = 0;
    double oraclePasses = 0.0;
    double primal = 0.0, gap = 0.0, testError = 0.0;
    std::string status;
};

template <class SolverType, class Options>
Run runOurs(const StructuredProblem& p, const Options& options) {
    const double cpu = cpuSeconds();
    const auto start = Clock::now();
    SolverType solver({p.train}, options);
    cplab::solve(solver);
    Run r;
    r.seconds = secondsSince(start);
    r.cpu = cpuSeconds() - cpu;
    const IterationRecord& last = solver.lastRecord();
    r.iterations = last.iteration;
    r.oraclePasses = static_cast<double>(last.oracleCalls) / p.train->size();
    r.primal = primal(*p.train, options.lambda, solver.bestWeights());
    r.gap = last.gap;
    r.testError = cplab::tokenError(*p.test, solver.bestWeights());
    r.status = cplab::statusName(solver.status().code);
    return r;
}

// dlib's trainer, verbose so that its per-iteration report (objective, risk gap, planes,
// iteration) can be read back from std::cout; the report costs a few lines per iteration.
Run runDlib(const StructuredProblem& p, double lambda, double epsilon, int threads) {
    const ChainModel& model = *p.train;
    std::atomic<long long> psiCount{0};
    const cplab::peer::ChainFeatures features(model.labelCount(), model.featureDimension(),
                                              &psiCount);
    dlib::structural_sequence_labeling_trainer<cplab::peer::ChainFeatures> trainer(features);
    trainer.set_c(1.0 / lambda);
    trainer.set_epsilon(epsilon);
    trainer.set_num_threads(static_cast<unsigned long>(threads));
    trainer.set_max_iterations(100000);
    trainer.be_verbose();
    const auto x = cplab::peer::dlibSequences(model.data());
    const auto y = cplab::peer::dlibLabels(model.data());

    std::ostringstream log;
    std::streambuf* console = std::cout.rdbuf(log.rdbuf());
    const double cpu = cpuSeconds();
    const auto start = Clock::now();
    const auto labeler = trainer.train(x, y);
    Run r;
    r.seconds = secondsSince(start);
    r.cpu = cpuSeconds() - cpu;
    std::cout.rdbuf(console);

    Eigen::VectorXd w(labeler.get_weights().size());
    for (Eigen::Index k = 0; k < w.size(); ++k)
        w[k] = labeler.get_weights()(k);
    const std::string text = log.str();
    // The value of the last "key: number" in dlib's log.
    const auto last = [&text](const std::string& key) {
        const std::size_t at = text.rfind(key + ":");
        if (at == std::string::npos) return std::nan("");
        const std::vector<double> v = bench::numbersAfter(text.substr(at), key + ":", 1);
        return v.empty() ? std::nan("") : v[0];
    };
    r.iterations = static_cast<int>(last("iter"));
    r.gap = last("risk gap");
    // Whole Ψ's built: one per sample for the truth, then one per separation-oracle call.
    r.oraclePasses = static_cast<double>(psiCount.load() - model.size()) / model.size();
    r.primal = primal(model, lambda, w);
    r.testError = cplab::tokenError(*p.test, w);
    r.status = r.gap < epsilon ? "converged" : "stopped";
    return r;
}

// The BCFW paper's algorithm (2013): permutation sampling, Frank–Wolfe steps, no cache.
cplab::BcfwOptions paperBcfw(double lambda) {
    cplab::BcfwOptions o;
    o.lambda = lambda;
    o.sampling = "permutation";
    o.pairwise = false;
    o.cache = 0;
    return o;
}

struct RaceRow {
    std::string name;
    std::vector<Run> runs;
};

// Table 1's rows for one tolerance (median times, the first run's numbers), then the ratios.
void printRace(const std::vector<RaceRow>& rows, double pStar) {
    const std::vector<int> widths{20, 22, 7, 6, 7, 12, 9, 9, 6, 9};
    printRow({"solver", "seconds", "cpu", "iters", "passes", "P(w)", "(P-P*)/P*", "cert.gap",
              "test", "status"},
             widths);
    std::vector<double> medians;
    for (const RaceRow& row : rows) {
        std::vector<double> times, cpus;
        for (const Run& r : row.runs) {
            times.push_back(r.seconds);
            cpus.push_back(r.cpu);
        }
        medians.push_back(median(times));
        const Run& r = row.runs.front();
        printRow({row.name, timeText(times), fmt("%.2f", median(cpus)),
                  std::to_string(r.iterations), fmt("%.1f", r.oraclePasses), fmt("%.8g", r.primal),
                  fmt("%+.1e", (r.primal - pStar) / pStar), fmt("%.2e", r.gap),
                  fmt("%.4f", r.testError), r.status},
                 widths);
    }
    std::cout
        << "ratios (time ours / dlib):\n"
        << "  oneslack 1 thread  / dlib oca 1 thread   = " << fmt("%.2f", medians[2] / medians[0])
        << "\n"
        << "  oneslack 2 threads / dlib oca 2 threads  = " << fmt("%.2f", medians[3] / medians[1])
        << "\n"
        << "  bcfw permutation   / dlib oca 1 thread   = " << fmt("%.2f", medians[4] / medians[0])
        << "\n"
        << "  bcfw gap 1 thread  / dlib oca 1 thread   = " << fmt("%.2f", medians[5] / medians[0])
        << "\n"
        << "  bcfw gap 2 threads / dlib oca 2 threads  = " << fmt("%.2f", medians[6] / medians[1])
        << "\n"
        << "  bcfw gap 1 thread  / oneslack 1 thread   = " << fmt("%.2f", medians[5] / medians[2])
        << "\n"
        << "  bcfw gap 2 threads / oneslack 2 threads  = " << fmt("%.2f", medians[6] / medians[3])
        << "\n"
        << "  (2 threads / 1 thread: dlib " << fmt("%.2f", medians[1] / medians[0]) << ", oneslack "
        << fmt("%.2f", medians[3] / medians[2]) << ")\n";
}

void tableOne(const std::pair<SequenceData, SequenceData>& split, const Settings& s) {
    const double lambda = 0.01;
    const StructuredProblem p = ocrProblem(split, false);
    std::cout << "\n=== Table 1: time to a certified gap, ours vs dlib oca; plain Hamming loss, "
                 "lambda = "
              << lambda << " <=> dlib C = 1/lambda = " << 1.0 / lambda << "\n";
    const Optimum star = nslackOptimum(p, lambda, s.quick ? 1e-4 : 1e-5);
    const double pStar = star.upper;
    std::cout << "P* = " << fmt("%.10g", pStar) << " (nslack, " << star.passes << " passes, "
              << fmt("%.1f", star.seconds) << " s, 2 threads; certified relative gap "
              << fmt("%.1e", (star.upper - star.lower) / star.upper) << ")\n";

    const std::vector<double> tolerances =
        s.quick ? std::vector<double>{1e-2} : std::vector<double>{1e-2, 1e-3};
    for (const double tol : tolerances) {
        const double epsilon = tol * pStar;
        std::cout << "\n--- certified gap <= " << fmt("%g", tol) << " P* = " << fmt("%.4g", epsilon)
                  << "  (times in s: median [min-max] of " << s.runs << " runs)\n";
        std::vector<RaceRow> rows{{"dlib oca, 1 thread", {}}, {"dlib oca, 2 threads", {}},
                                  {"oneslack, 1 thread", {}}, {"oneslack, 2 threads", {}},
                                  {"bcfw permutation", {}},   {"bcfw gap, 1 thread", {}},
                                  {"bcfw gap, 2 threads", {}}};
        // Interleaved, so that load from other processes hits every solver alike.
        for (int k = 0; k < s.runs; ++k) {
            rows[0].runs.push_back(runDlib(p, lambda, epsilon, 1));
            rows[1].runs.push_back(runDlib(p, lambda, epsilon, 2));
            for (const int threads : {1, 2}) {
                cplab::OneSlackOptions o;
                o.lambda = lambda;
                o.stop.epsilon = epsilon;
                o.stop.max_iterations = 100000;
                o.eval_every = 1000000;
                o.threads = threads;
                rows[threads == 1 ? 2 : 3].runs.push_back(runOurs<cplab::OneSlackSolver>(p, o));
            }
            cplab::BcfwOptions o = paperBcfw(lambda);
            o.stop.epsilon = epsilon;
            o.stop.max_iterations = 100000;
            rows[4].runs.push_back(runOurs<cplab::BcfwSolver>(p, o));
            for (const int threads : {1, 2}) {
                cplab::BcfwOptions g;  // sampling = gap, pairwise steps, cache: the defaults
                g.lambda = lambda;
                g.stop.epsilon = epsilon;
                g.stop.max_iterations = 100000;
                g.eval_every = kGapEvalEvery;
                g.threads = threads;
                rows[threads == 1 ? 5 : 6].runs.push_back(runOurs<cplab::BcfwSolver>(p, g));
            }
        }
        printRace(rows, pStar);
    }
}

// ---- Table 2 -------------------------------------------------------------------------------

double primalColumn(const cplab::Solver& solver, const IterationRecord& r) {
    const std::vector<std::string> names = solver.extraColumns();
    const auto it = std::find(names.begin(), names.end(), "primal");
    return it == names.end() ? std::nan("") : r.extra[static_cast<std::size_t>(it - names.begin())];
}

// P(w_k) − P* after k = 1 … maxPasses effective passes: the primal of the last step whose
// record.passes (the method's own oracle calls / n) is at most k, so that no method gets more
// than k·n oracle calls. One step is one pass for every solver but bcfw with its cache, whose
// cache hits cost no oracle call (several steps per pass; at most 50·maxPasses steps). NaN
// where the solver finished before k passes.
std::vector<double> suboptimality(cplab::Solver& solver, int maxPasses, double pStar) {
    std::vector<double> gaps(static_cast<std::size_t>(maxPasses), std::nan(""));
    for (int steps = 0; steps < 50 * maxPasses && !solver.status().finished(); ++steps) {
        solver.step();
        const IterationRecord& r = solver.lastRecord();
        if (r.passes > maxPasses + 1e-9) break;
        for (int k = 1; k <= maxPasses; ++k)
            if (r.passes <= k + 1e-9)
                gaps[static_cast<std::size_t>(k - 1)] = primalColumn(solver, r) - pStar;
    }
    return gaps;
}

// The cell of a suboptimality: "n/a" without one, "<gap" below the reference's own gap.
std::string suboptimalityCell(double gap, double resolution) {
    if (std::isnan(gap)) return "n/a";
    if (gap < resolution) return "<" + fmt("%.1e", resolution);
    return fmt("%.2e", gap);
}

struct FigureRow {
    std::string name;
    std::unique_ptr<cplab::Solver> solver;
};

// The per-pass comparison of the defaults (rows[0], bcfw gap) with the 2013 algorithm
// (rows[1], bcfw permutation): the target is gap <= permutation at every checkpoint.
void printPerPassComparison(const std::vector<double>& gap, const std::vector<double>& plain,
                            const std::vector<int>& checkpoints) {
    std::cout << "bcfw gap vs bcfw (permutation), P(w_k) - P* after at most k passes:";
    int worse = 0;
    for (const int k : checkpoints) {
        const auto at = static_cast<std::size_t>(k - 1);
        const bool noWorse = gap[at] <= plain[at];
        worse += noWorse ? 0 : 1;
        std::cout << "  k=" << k << ": " << fmt("%.3g", gap[at])
                  << (noWorse ? (gap[at] == plain[at] ? " = " : " < ") : " > ")
                  << fmt("%.3g", plain[at]);
    }
    std::cout << "\n  " << (worse == 0 ? "no worse at every k" : std::to_string(worse) + " k worse")
              << "\n";
}

// Figure 1's table: one row per solver, the per-pass comparison, and the ranking after
// maxPasses passes of the rows that reached them (the others named, not ranked).
void printFigureOne(std::vector<FigureRow>& rows, const std::vector<int>& checkpoints,
                    int maxPasses, double pStar, double resolution) {
    std::vector<int> widths{22};
    std::vector<std::string> head{"passes"};
    for (const int k : checkpoints) {
        head.push_back(std::to_string(k));
        widths.push_back(9);
    }
    printRow(head, widths);
    std::vector<std::vector<double>> all;
    std::vector<std::pair<double, std::string>> ranking;
    std::string unranked;
    for (FigureRow& row : rows) {
        all.push_back(suboptimality(*row.solver, maxPasses, pStar));
        const std::vector<double>& gaps = all.back();
        std::vector<std::string> cells{row.name};
        for (const int k : checkpoints)
            cells.push_back(suboptimalityCell(gaps[static_cast<std::size_t>(k - 1)], resolution));
        printRow(cells, widths);
        if (std::isnan(gaps.back()))
            unranked += (unranked.empty() ? "" : ", ") + row.name;
        else
            ranking.emplace_back(gaps.back(), row.name);
    }
    printPerPassComparison(all[0], all[1], checkpoints);
    std::sort(ranking.begin(), ranking.end());
    std::cout << "ranking after " << maxPasses << " passes (lowest first):";
    for (std::size_t k = 0; k < ranking.size(); ++k)
        std::cout << (k ? " < " : " ") << ranking[k].second;
    if (!unranked.empty())
        std::cout << "  (not ranked, no value at " << maxPasses << " passes: " << unranked << ")";
    std::cout << "\n";
}

// Figure 1's rows after bcfw gap and bcfw: bcfw with weighted averaging, ssg with and without
// it, oneslack and fw, each stopped after maxPasses steps (one pass each).
void addOtherFigureRows(const StructuredProblem& train, double lambda, int maxPasses,
                        std::vector<FigureRow>& rows) {
    const auto stopAt = [maxPasses](cplab::StopOptions& stop) {
        stop.epsilon = 0.0;
        stop.max_iterations = maxPasses;
    };
    cplab::BcfwOptions bAvg = paperBcfw(lambda);  // averaged
    bAvg.threads = 2;
    stopAt(bAvg.stop);
    bAvg.averaging = true;
    cplab::SsgOptions g;
    g.lambda = lambda;
    g.threads = 2;
    stopAt(g.stop);
    cplab::SsgOptions gNone = g;
    gNone.averaging = "none";
    cplab::OneSlackOptions o;
    o.lambda = lambda;
    o.threads = 2;
    stopAt(o.stop);
    cplab::FrankWolfeSsvmOptions f;
    f.lambda = lambda;
    f.threads = 2;
    stopAt(f.stop);
    rows.push_back({"bcfw-wavg", std::make_unique<cplab::BcfwSolver>(train, bAvg)});
    rows.push_back({"ssg-wavg", std::make_unique<cplab::SsgSolver>(train, g)});
    rows.push_back({"ssg", std::make_unique<cplab::SsgSolver>(train, gNone)});
    rows.push_back({"oneslack (cut. plane)", std::make_unique<cplab::OneSlackSolver>(train, o)});
    rows.push_back({"fw", std::make_unique<cplab::FrankWolfeSsvmSolver>(train, f)});
}

void tableTwo(const std::pair<SequenceData, SequenceData>& split, const Settings& s) {
    const StructuredProblem p = ocrProblem(split, true);
    const int n = p.train->size();
    std::vector<int> checkpoints =
        s.quick ? std::vector<int>{1, 2, 5, 10} : std::vector<int>{1, 2, 5, 10, 20};
    if (s.perPass) {
        checkpoints.resize(20);
        std::iota(checkpoints.begin(), checkpoints.end(), 1);
    }
    const int maxPasses = checkpoints.back();
    std::vector<std::pair<std::string, double>> lambdas{{"0.01", 0.01}};
    if (!s.quick || s.perPass) {
        lambdas.emplace_back("0.001", 0.001);
        lambdas.emplace_back("1/n", 1.0 / n);
    }
    std::cout << "\n=== Table 2: Figure 1 of the BCFW paper; normalised Hamming loss; primal "
                 "suboptimality P(w_k) - P* of the current iterate after k effective passes\n";
    for (const auto& [label, lambda] : lambdas) {
        // With --per-pass the cells are P(w_k) itself (P* = 0): the comparison needs no P*.
        const Optimum star = s.perPass ? Optimum{} : nslackOptimum(p, lambda, 1e-3);
        const double pStar = star.upper;
        std::cout << "\n--- lambda = " << label << " = " << fmt("%.6g", lambda);
        if (s.perPass)
            std::cout << ": P(w_k) itself (P* not computed)\n";
        else
            std::cout << ": P* = " << fmt("%.10g", pStar) << " (nslack, " << star.passes
                      << " passes, " << fmt("%.1f", star.seconds) << " s; certified relative gap "
                      << fmt("%.1e", (star.upper - star.lower) / star.upper) << ")\n";
        const auto stopAt = [maxPasses](cplab::StopOptions& stop) {
            stop.epsilon = 0.0;
            stop.max_iterations = maxPasses;
        };
        cplab::BcfwOptions bGap;  // sampling = gap, pairwise steps, cache: the defaults
        bGap.lambda = lambda;
        bGap.threads = 2;
        bGap.seed = s.seed;
        stopAt(bGap.stop);
        cplab::BcfwOptions b = paperBcfw(lambda);
        b.threads = 2;
        b.seed = s.seed;
        stopAt(b.stop);
        // Several steps per effective pass (cache hits): run to maxPasses passes, not steps.
        bGap.stop.max_iterations = 50 * maxPasses;
        std::string why;  // checked in parseArguments
        cplab::assignOptions(bGap, s.gapOptions, &why);
        const StructuredProblem train{p.train, nullptr};
        std::vector<FigureRow> rows;
        rows.push_back({"bcfw gap", std::make_unique<cplab::BcfwSolver>(train, bGap)});
        rows.push_back({"bcfw", std::make_unique<cplab::BcfwSolver>(train, b)});
        if (!s.perPass) addOtherFigureRows(train, lambda, maxPasses, rows);
        printFigureOne(rows, checkpoints, maxPasses, pStar, star.upper - star.lower);
    }
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    if (!parseArguments(argc, argv, &s)) return 2;
    std::cout << bench::header("bench_structured") << ")" << (s.quick ? "  --quick" : "")
              << (s.perPass ? "  --per-pass" : "") << (s.timingOnly ? "  --timing" : "") << "\n";
    const std::string path = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";
    std::pair<SequenceData, SequenceData> split;
    try {
        split = cplab::loadLetterData(path).splitByFold(0);
    } catch (const std::exception& e) {
        std::cerr << "bench_structured: " << e.what() << "\n";
        return 1;
    }
    std::cout << "OCR fold 0: " << split.first.size() << " training words ("
              << split.first.tokenCount() << " letters), " << split.second.size() << " test words ("
              << split.second.tokenCount() << " letters)\n";
    if (!s.perPass) tableOne(split, s);
    if (!s.timingOnly) tableTwo(split, s);
    return 0;
}
