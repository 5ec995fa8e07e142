// SPDX-License-Identifier: GPL-3.0-or-later
// BCFW with gap sampling, pairwise steps and the plane cache (Osokin et al. 2016; bcfw.h):
// the sampler draws in proportion to its weights; the run reaches the optimum that 1-slack
// certifies; its certified gap bounds P(w) − P* for P* of an enumerated dual solved tightly;
// the gap estimates are ≥ 0 and equal the exact block gaps after every full pass; the active
// sets reproduce the block vectors (Ψ by enumeration of the documented layout); the primal per
// pass is no worse than with permutation sampling; the warm-up passes are the permutation run's
// bit for bit.
#include <QtTest>
#include <cmath>
#include <numeric>

#include "chain_brute_force.h"
#include "data/sequence_format.h"
#include "structured/bcfw.h"
#include "structured/gap_sampler.h"
#include "structured/one_slack_ssvm.h"

using namespace cplab;
using namespace cplab::testing;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

std::shared_ptr<const ChainModel> ocrWords(int count) {
    static const SequenceData train = loadLetterData(kOcr).splitByFold(0).first;
    std::vector<int> first(static_cast<std::size_t>(count));
    std::iota(first.begin(), first.end(), 0);
    return std::make_shared<ChainModel>(std::make_shared<SequenceData>(train.subset(first)));
}

double column(const BcfwSolver& solver, const IterationRecord& record, const char* name) {
    const std::vector<std::string> columns = solver.extraColumns();
    const auto at = std::find(columns.begin(), columns.end(), name) - columns.begin();
    return record.extra[static_cast<std::size_t>(at)];
}

BcfwOptions permutationOptions(double lambda) {
    BcfwOptions o;
    o.lambda = lambda;
    o.sampling = "permutation";
    o.pairwise = false;
    o.cache = 0;
    return o;
}

}  // namespace

class TestBcfwGap : public QObject {
    Q_OBJECT

  private slots:
    // Draw frequencies against the weights (100,000 draws: a share's standard error is below
    // 0.0016); a zero weight is never drawn; all zero: uniform.
    void samplerDrawsInProportion() {
        GapSampler sampler;
        sampler.assign({0.0, 1.0, 2.0, 7.0, -3.0, std::nan("")});
        QCOMPARE(sampler.total(), 10.0);
        sampler.set(0, 5.0);  // weights 5, 1, 2, 7, 0, 0
        sampler.set(3, 2.0);  // weights 5, 1, 2, 2, 0, 0
        QCOMPARE(sampler.total(), 10.0);
        PortableRandom random(3);
        std::vector<int> counts(6, 0);
        const int draws = 100000;
        for (int k = 0; k < draws; ++k)
            ++counts[static_cast<std::size_t>(sampler.draw(random))];
        const double expected[] = {0.5, 0.1, 0.2, 0.2, 0.0, 0.0};
        for (std::size_t k = 0; k < 6; ++k) {
            const double share = double(counts[k]) / draws;
            qInfo("weight %zu: drawn %.4f, expected %.4f", k, share, expected[k]);
            QVERIFY(std::abs(share - expected[k]) < 0.008);
        }
        QCOMPARE(counts[4] + counts[5], 0);
        sampler.assign({0.0, 0.0, 0.0});
        std::vector<int> uniform(3, 0);
        for (int k = 0; k < 3000; ++k)
            ++uniform[static_cast<std::size_t>(sampler.draw(random))];
        for (const int c : uniform)
            QVERIFY(c > 850 && c < 1150);
    }

    void options() {
        const auto model = std::make_shared<ChainModel>(tinyData(5, 3, 4, 1));
        for (const auto& [field, value, message] :
             {std::tuple{"cache", "-1", "BcfwOptions::cache = -1: must lie in [0, 64]"},
              std::tuple{"cache", "65", "BcfwOptions::cache = 65: must lie in [0, 64]"}}) {
            BcfwOptions options;
            std::string why;
            QVERIFY(assignOptions(options, {{field, value}}, &why));
            BcfwSolver solver({model}, options);
            QCOMPARE(solver.status().code, StatusCode::InvalidInput);
            QVERIFY2(solver.status().message.find(message) != std::string::npos,
                     solver.status().message.c_str());
        }
        BcfwOptions options;
        options.sampling = "cyclic";
        BcfwSolver solver({model}, options);
        QVERIFY2(solver.status().message.find("must be permutation, uniform or gap") !=
                     std::string::npos,
                 solver.status().message.c_str());
        // The defaults: gap sampling, pairwise steps, a cache of 4 decodings per word.
        QCOMPARE(BcfwOptions{}.sampling, std::string("gap"));
        QVERIFY(BcfwOptions{}.pairwise);
        QCOMPARE(BcfwOptions{}.cache, 4);
        // The cache's rule: any positive cached gap above 0.1 % of the mean estimate serves.
        QCOMPARE(BcfwOptions{}.cache_block_share, 0.0);
        QCOMPARE(BcfwOptions{}.cache_mean_share, 0.001);
        BcfwOptions share;
        share.cache_block_share = 1.5;
        BcfwSolver refused({model}, share);
        QVERIFY2(refused.status().message.find("cache_block_share") != std::string::npos,
                 refused.status().message.c_str());
    }

    // The certified gap bounds P(w) − P* at every pass, for every combination of the new
    // parts; P* from the enumerated dual solved by projected gradient to 1e-11.
    void certifiedGapBoundsSuboptimality() {
        const auto data = tinyData(12, 3, 4, 3);
        const auto model = std::make_shared<ChainModel>(data);
        const double lambda = 0.1;
        const DualQp qp(*data, lambda);
        double pUpper = 0.0, pLower = 0.0;
        Eigen::VectorXd wStar;
        qp.solve(1e-11, pUpper, pLower, wStar);
        QVERIFY(pUpper - pLower <= 1e-11);
        for (const auto& [sampling, pairwise, cache] :
             {std::tuple{"gap", true, 4}, std::tuple{"gap", false, 0}, std::tuple{"gap", false, 3},
              std::tuple{"permutation", true, 0}, std::tuple{"uniform", true, 2}}) {
            BcfwOptions options;
            options.lambda = lambda;
            options.sampling = sampling;
            options.pairwise = pairwise;
            options.cache = cache;
            options.stop.epsilon = 0.0;
            options.stop.max_iterations = 300;
            BcfwSolver solver({model}, options);
            double previousDual = solver.dualValue(), previousLower = solver.lastRecord().lower;
            while (!solver.step().finished()) {
                const IterationRecord& r = solver.lastRecord();
                const double primal = column(solver, r, "primal");
                QVERIFY(std::abs(primal - qp.primal(solver.weights())) < 1e-12);
                QVERIFY(column(solver, r, "duality_gap") >= primal - pUpper - 1e-12);
                QVERIFY(solver.dualValue() <= pUpper + 1e-12);
                QVERIFY(solver.dualValue() >= previousDual - 1e-14);  // exact line searches
                QVERIFY(r.lower >= previousLower && r.lower <= pUpper + 1e-12);
                QVERIFY(r.upper >= pLower - 1e-12);
                previousDual = solver.dualValue();
                previousLower = r.lower;
            }
            qInfo(
                "%s, pairwise %d, cache %d: gap %.2e after 300 passes (%.1f effective, %lld "
                "cache hits)",
                sampling, int(pairwise), cache, solver.lastRecord().gap, solver.lastRecord().passes,
                solver.cacheHits());
            // Pairwise steps converge linearly here, Frank–Wolfe steps at O(1/t).
            QVERIFY(solver.lastRecord().gap < (pairwise ? 1e-3 : 1e-2));
            QCOMPARE(solver.lastRecord().passes, double(solver.blockDecodings()) / 12);
            if (cache > 0) QVERIFY(solver.cacheHits() > 0);
        }
    }

    // ĝᵢ ≥ 0 after every pass (each is gapᵢ at a decoding), and after every full pass (the
    // evaluation) equal to the block gaps computed by blockGaps(), summing to P(w) − D(α).
    // The active sets reproduce wᵢ and ℓᵢ with Ψ built here from the documented layout.
    void estimatesAndActiveSets() {
        const auto data = tinyData(15, 3, 4, 8);
        const auto model = std::make_shared<ChainModel>(data);
        const double lambda = 0.05;
        BcfwOptions options;
        options.lambda = lambda;
        options.stop.epsilon = 0.0;
        options.eval_every = 3;
        options.stop.max_iterations = 30;
        BcfwSolver solver({model}, options);
        const int n = data->size();
        while (!solver.step().finished()) {
            const std::vector<double>& estimates = solver.gapEstimates();
            for (const double g : estimates)
                QVERIFY2(g >= -1e-13, qPrintable(QString::number(g)));
            if (std::isnan(column(solver, solver.lastRecord(), "primal"))) continue;
            const std::vector<double> exact = solver.blockGaps();
            double sum = 0.0;
            for (int i = 0; i < n; ++i) {
                QVERIFY(std::abs(estimates[static_cast<std::size_t>(i)] -
                                 exact[static_cast<std::size_t>(i)]) < 1e-13);
                sum += exact[static_cast<std::size_t>(i)];
            }
            QVERIFY(std::abs(sum - column(solver, solver.lastRecord(), "duality_gap")) < 1e-12);
            QVERIFY(std::abs(sum - solver.estimatedGap()) < 1e-12);
        }
        for (int i = 0; i < n; ++i) {
            Eigen::VectorXd wi = Eigen::VectorXd::Zero(model->dimension());
            double li = 0.0, weights = 0.0;
            const auto set = solver.activeSet(i);
            for (const auto& [labels, alpha] : set) {
                QVERIFY(alpha > 0.0);
                wi += alpha * (densePsi(*data, i, truthOf(*data, i)) - densePsi(*data, i, labels)) /
                      (lambda * n);
                li += alpha * model->loss(i, labels) / n;
                weights += alpha;
            }
            QVERIFY(std::abs(weights - 1.0) < 1e-12);
            QVERIFY((wi - solver.blockWeights(i)).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY(std::abs(li - solver.blockLoss(i)) < 1e-14);
        }
    }

    // OCR words: gap sampling reaches the optimum 1-slack certifies (same P* within both
    // certificates; by λ-strong convexity ‖w − w*‖² ≤ 2(P(w) − P*)/λ, the two w close), with
    // 1 and 2 threads alike; the same seed gives the same run.
    void reachesOneSlackOptimum() {
        const auto model = ocrWords(40);
        const double lambda = 0.1;
        OneSlackOptions o;
        o.lambda = lambda;
        o.stop.epsilon = 0.0;
        o.stop.tol_rel = 1e-6;
        o.stop.max_iterations = 100000;
        OneSlackSolver oneslack({model}, o);
        solve(oneslack);
        QCOMPARE(oneslack.status().code, StatusCode::Converged);
        const IterationRecord& star = oneslack.lastRecord();
        BcfwOptions b;
        b.lambda = lambda;
        b.stop.epsilon = 0.0;
        b.stop.tol_rel = 1e-3;
        b.stop.max_iterations = 20000;
        b.eval_every = 10;
        BcfwSolver gap({model}, b);
        solve(gap);
        QCOMPARE(gap.status().code, StatusCode::Converged);
        const IterationRecord& r = gap.lastRecord();
        qInfo(
            "oneslack P* in [%.10f, %.10f]; bcfw gap [%.10f, %.10f] after %d passes (%.1f "
            "effective, %lld cache hits)",
            star.lower, star.upper, r.lower, r.upper, r.iteration, r.passes, gap.cacheHits());
        QVERIFY(r.upper >= star.lower - 1e-12 && star.upper >= r.lower - 1e-12);
        QVERIFY(r.upper - star.lower <= 1e-3 * r.upper + star.gap);
        const double radius = std::sqrt(2.0 * r.gap / lambda) + std::sqrt(2.0 * star.gap / lambda);
        const double distance = (gap.bestWeights() - oneslack.bestWeights()).norm();
        qInfo("|w_gap - w_oneslack| = %.3e <= %.3e", distance, radius);
        QVERIFY(distance <= radius);
        QVERIFY(distance < 0.05 * oneslack.bestWeights().norm());

        b.threads = 2;
        BcfwSolver threaded({model}, b);
        solve(threaded);
        QCOMPARE(threaded.lastRecord().upper, r.upper);
        QCOMPARE(threaded.lastRecord().lower, r.lower);
        QVERIFY(threaded.weights() == gap.weights());
    }

    // Per effective pass (oracle calls / n: cache hits cost none), the defaults' primal is no
    // worse than that of the BCFW paper's permutation sampling after 3, 5 and 10 passes
    // (Figure 1's setting, 200 OCR words). After 3, the first step that reaches the pass count;
    // after 5 and 10 also the last step within it (at most k·n oracle calls).
    void primalPerPassNoWorseThanPermutation() {
        const auto model = ocrWords(200);
        const double lambda = 0.01;
        BcfwOptions gapOptions;
        gapOptions.lambda = lambda;
        gapOptions.stop.epsilon = 0.0;
        gapOptions.stop.max_iterations = 500;
        BcfwOptions permutation = permutationOptions(lambda);
        permutation.stop = gapOptions.stop;
        BcfwSolver gap({model}, gapOptions), plain({model}, permutation);
        double pWithin = column(gap, gap.lastRecord(), "primal");
        for (int pass = 1; pass <= 10; ++pass) {
            plain.step();
            while (gap.lastRecord().passes < pass && !gap.step().finished()) {
                if (gap.lastRecord().passes <= pass)
                    pWithin = column(gap, gap.lastRecord(), "primal");
            }
            const double pGap = column(gap, gap.lastRecord(), "primal");
            if (gap.lastRecord().passes <= pass) pWithin = pGap;
            const double pPlain = column(plain, plain.lastRecord(), "primal");
            qInfo("%2d passes: P permutation %.6f; P gap %.6f (%.2f passes, %d steps), within %.6f",
                  pass, pPlain, pGap, gap.lastRecord().passes, gap.iteration(), pWithin);
            if (pass == 3 || pass == 5 || pass == 10)
                QVERIFY2(pGap <= pPlain, qPrintable(QString::number(pass)));
            if (pass == 5 || pass == 10)
                QVERIFY2(pWithin <= pPlain, qPrintable(QString::number(pass)));
        }
    }

    // The warm-up passes are the 2013 algorithm's: with the same seed the defaults' first
    // `warmup` passes give the permutation run's iterate bit for bit (w, every block, D and P),
    // with one decoding per block step and no cache hit; with pairwise steps the active sets
    // still reproduce the blocks. The pass after them differs (gap sampling).
    void warmupPassesArePermutationPasses() {
        const auto model = ocrWords(60);
        for (const int warmup : {1, 2, 3}) {
            BcfwOptions gapOptions;
            gapOptions.lambda = 0.01;
            gapOptions.warmup = warmup;
            gapOptions.stop.epsilon = 0.0;
            gapOptions.stop.max_iterations = 50;
            BcfwOptions permutation = permutationOptions(0.01);
            permutation.stop = gapOptions.stop;
            BcfwSolver gap({model}, gapOptions), plain({model}, permutation);
            for (int pass = 1; pass <= warmup; ++pass) {
                gap.step();
                plain.step();
                QVERIFY(gap.weights() == plain.weights());
                for (int i = 0; i < model->size(); ++i)
                    QVERIFY(gap.blockWeights(i) == plain.blockWeights(i));
                QCOMPARE(gap.dualValue(), plain.dualValue());
                QCOMPARE(column(gap, gap.lastRecord(), "primal"),
                         column(plain, plain.lastRecord(), "primal"));
                QCOMPARE(gap.lastRecord().passes, double(pass));
                QCOMPARE(gap.cacheHits(), 0LL);
            }
            for (int i = 0; i < model->size(); ++i) {
                double weights = 0.0;
                for (const auto& [labels, alpha] : gap.activeSet(i)) {
                    QVERIFY(alpha > 0.0);
                    weights += alpha;
                }
                QVERIFY(std::abs(weights - 1.0) < 1e-12);
            }
            gap.step();
            plain.step();
            QVERIFY(gap.weights() != plain.weights());
        }
    }
};

QTEST_GUILESS_MAIN(TestBcfwGap)
#include "test_bcfw_gap.moc"
