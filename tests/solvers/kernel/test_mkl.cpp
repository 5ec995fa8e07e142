// SPDX-License-Identifier: GPL-3.0-or-later
// MKL by SILP and SimpleMKL (solvers/kernel/silp.h, simplemkl.h) on real data (ionosphere,
// sonar), against independent answers:
//   * every plane is a lower bound of D: at the simplex's vertices and at random points β,
//     Σₖ βₖ S_k(αᵢ) ≤ D(β) with D(β) from an independent, tight SVM solve
//     (evaluateMklObjective), and each plane touches D at its own βᵢ;
//   * SILP's θ never decreases, no U ever increases, L ≤ U;
//   * SILP and SimpleMKL reach the same objective within tol_rel = 1e-3 with 10 kernels, and
//     each one's U is above the other's certified lower bound;
//   * where the optimum is unique (two kernels whose D along the segment has a sharp interior
//     minimum, located by an independent golden-section search on evaluateMklObjective), both
//     find the same β;
//   * with one kernel both are the plain SVM: LIBSVM's dual objective;
//   * bad inputs are refused at construction with messages;
//   * SILP warm-started from the run at a smaller C (SilpSolver::warmStart) reaches the cold
//     run's objective: each one's U is above the other's certified lower bound; warm starts
//     from a larger C or into a run that has stepped are refused.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <type_traits>

#include "data/csv_format.h"
#include "data/libsvm_format.h"
#include "kernel/libsvm_solver.h"
#include "kernel/silp.h"
#include "kernel/simplemkl.h"
#include "record_columns.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

std::shared_ptr<const Dataset> dataset(const std::string& name) {
    static std::map<std::string, std::shared_ptr<const Dataset>> cache;
    auto& slot = cache[name];
    if (!slot) {
        if (name == "sonar") {
            slot = std::make_shared<Dataset>(loadCsv(kData + "/sonar.all-data"));  // M/R → ±1
        } else {
            slot = std::make_shared<Dataset>(loadLibsvm(kData + "/kernel/ionosphere_scale"));
        }
    }
    return slot;
}

// Ten kernels per data set: Gaussians over a range of widths (ionosphere's features lie in
// [−1, 1], 34 of them; sonar's in [0, 1], 60), with trace normalisation for sonar's
// polynomial and linear kernels.
std::string tenKernels(const std::string& name) {
    return name == "sonar" ? "gaussian:0.05,0.1,0.2,0.5,1,2,5,10;poly:2;linear"
                           : "gaussian:0.01,0.02,0.05,0.1,0.2,0.5,1,2,5,10";
}

KernelOptions kernelOptions(const std::string& kernels, double C, double kkt) {
    KernelOptions k;
    k.kernels = kernels;
    k.C = C;
    k.normalize = "trace";
    k.kkt_tolerance = kkt;
    return k;
}

template <class Options>
Options mklOptions(const std::string& kernels, double C, double tolRel, double kkt) {
    Options o;
    o.kernel = kernelOptions(kernels, C, kkt);
    o.stop.tol_rel = tolRel;
    o.stop.epsilon = 0.0;
    o.stop.max_iterations = 1000;
    // SILP as the paper has it, Kelley's method (the tests of the level method name it).
    if constexpr (std::is_same_v<Options, SilpOptions>) o.master = "lp";
    return o;
}

// A solved SILP and SimpleMKL run on one data set (shared by the tests that read them).
struct Runs {
    std::unique_ptr<SilpSolver> silp;
    std::unique_ptr<SimpleMklSolver> simple;
};

constexpr double kTolRel = 1e-3;
constexpr double kInnerTolerance = 1e-4;
constexpr double kC = 1.0;

const Runs& runs(const std::string& name) {
    static std::map<std::string, Runs> cache;
    Runs& r = cache[name];
    if (!r.silp) {
        const KernelProblem problem{dataset(name), nullptr};
        r.silp = std::make_unique<SilpSolver>(
            problem, mklOptions<SilpOptions>(tenKernels(name), kC, kTolRel, kInnerTolerance));
        r.simple = std::make_unique<SimpleMklSolver>(
            problem, mklOptions<SimpleMklOptions>(tenKernels(name), kC, kTolRel, kInnerTolerance));
        solve(*r.silp);
        solve(*r.simple);
    }
    return r;
}

// Deterministic uniform numbers in (0, 1) (SplitMix64), the same on every platform.
struct Uniform {
    std::uint64_t state;
    double operator()() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
    }
};

// The K vertices of the simplex and `random` points drawn uniformly on it.
std::vector<Eigen::VectorXd> samplePoints(int K, int random, std::uint64_t seed) {
    std::vector<Eigen::VectorXd> points;
    for (int k = 0; k < K; ++k)
        points.push_back(Eigen::VectorXd::Unit(K, k));
    Uniform u{seed};
    for (int p = 0; p < random; ++p) {
        Eigen::VectorXd beta(K);
        for (int k = 0; k < K; ++k)
            beta[k] = -std::log(u());
        points.push_back(beta / beta.sum());
    }
    return points;
}

KernelSetup tightSetup(const KernelSetup& setup) {
    KernelSetup tight = setup;
    tight.tolerance = 1e-8;
    return tight;
}

std::shared_ptr<const KernelSnapshot> kernelSnapshot(const Solver& solver) {
    return std::dynamic_pointer_cast<const KernelSnapshot>(solver.snapshot());
}

QString numbers(double a, double b) {
    return QString("%1 vs %2").arg(a, 0, 'g', 15).arg(b, 0, 'g', 15);
}

}  // namespace

class TestMkl : public QObject {
    Q_OBJECT

  private slots:
    void planesAreLowerBounds_data();
    void planesAreLowerBounds();
    void boundsAreMonotone_data();
    void boundsAreMonotone();
    void silpAndSimpleMklAgree_data();
    void silpAndSimpleMklAgree();
    void sameWeightsWhereTheOptimumIsUnique_data();
    void sameWeightsWhereTheOptimumIsUnique();
    void oneKernelIsThePlainSvm_data();
    void oneKernelIsThePlainSvm();
    void snapshotsAndSummaries();
    void badInputsAreRefused_data();
    void badInputsAreRefused();
    void optionsAreValidated();
    void silpWarmStartFromASmallerC();
    void kernelEventsFollowTheWeights();
};

void TestMkl::planesAreLowerBounds_data() {
    QTest::addColumn<QString>("data");
    QTest::newRow("ionosphere") << "ionosphere";
    QTest::newRow("sonar") << "sonar";
}

void TestMkl::planesAreLowerBounds() {
    QFETCH(QString, data);
    const Runs& r = runs(data.toStdString());
    const auto silp = kernelSnapshot(*r.silp);
    const auto simple = kernelSnapshot(*r.simple);
    QVERIFY(silp && simple && silp->setup);
    const int K = static_cast<int>(silp->kernelLabels.size());
    QCOMPARE(K, 10);

    // Each plane touches D at its own βᵢ: Σₖ βᵢₖ S_k(αᵢ) = D(αᵢ) for the weights βᵢ.
    for (const auto* snap : {silp.get(), simple.get()}) {
        QVERIFY(!snap->planes.empty());
        QCOMPARE(snap->planes.size(), snap->betaIterates.size());
        QCOMPARE(snap->planes.size(), snap->dValues.size());
        for (std::size_t i = 0; i < snap->planes.size(); ++i) {
            const double atOwn = snap->planes[i].dot(snap->betaIterates[i]);
            QVERIFY2(std::abs(atOwn - snap->dValues[i]) <= 1e-9 * std::abs(snap->dValues[i]),
                     qPrintable(QString("%1 plane %2: ").arg(snap->solver.c_str()).arg(i) +
                                numbers(atOwn, snap->dValues[i])));
        }
    }

    // D(β) by independent tight solves at the vertices and 5 random points: every plane of
    // both runs lies below it. D's computed value is a dual value (≤ the true D(β)) that is
    // within the tight tolerance's reach of it: the slack is 1e-7 relative.
    const KernelSetup tight = tightSetup(*silp->setup);
    double closest = INFINITY;
    int checked = 0;
    for (const Eigen::VectorXd& beta : samplePoints(K, 5, 2024)) {
        const double D = evaluateMklObjective(tight, beta);
        for (const auto* snap : {silp.get(), simple.get()}) {
            for (std::size_t i = 0; i < snap->planes.size(); ++i) {
                const double plane = snap->planes[i].dot(beta);
                QVERIFY2(plane <= D + 1e-7 * std::abs(D),
                         qPrintable(QString("%1 plane %2 above D at a sample: ")
                                        .arg(snap->solver.c_str())
                                        .arg(i) +
                                    numbers(plane, D)));
                closest = std::min(closest, (D - plane) / std::abs(D));
                ++checked;
            }
        }
    }
    qInfo("%s: %d plane values at %d sampled beta, smallest (D - plane)/D = %.3g", qPrintable(data),
          checked, K + 5, closest);
}

void TestMkl::boundsAreMonotone_data() {
    planesAreLowerBounds_data();
}

void TestMkl::boundsAreMonotone() {
    QFETCH(QString, data);
    const Runs& r = runs(data.toStdString());
    for (const Solver* solver :
         {static_cast<const Solver*>(r.silp.get()), static_cast<const Solver*>(r.simple.get())}) {
        const bool isSilp = solver == r.silp.get();
        QCOMPARE(solver->status().code, StatusCode::Converged);
        double upper = INFINITY;
        double lower = -INFINITY;
        double worstCrossing = 0.0;
        for (const IterationRecord& rec : solver->trace()) {
            QVERIFY2(rec.upper <= upper, qPrintable(QString("%1 iteration %2: U rose, ")
                                                        .arg(solver->name().c_str())
                                                        .arg(rec.iteration) +
                                                    numbers(rec.upper, upper)));
            // SILP's θ_t is the master LP's optimum, which only rises as rows are added (up to
            // the LP's own tolerance).
            QVERIFY2(rec.lower >= lower - 1e-9 * std::abs(lower),
                     qPrintable(QString("%1 iteration %2: L fell, ")
                                    .arg(solver->name().c_str())
                                    .arg(rec.iteration) +
                                numbers(rec.lower, lower)));
            // L ≤ U, up to the inner SVM's accuracy (U is a dual value of a near-optimal α).
            QVERIFY2(rec.lower <= rec.upper + 1e-5 * std::abs(rec.upper),
                     qPrintable(QString("%1 iteration %2: L above U, ")
                                    .arg(solver->name().c_str())
                                    .arg(rec.iteration) +
                                numbers(rec.lower, rec.upper)));
            worstCrossing = std::max(worstCrossing, (rec.lower - rec.upper) / std::abs(rec.upper));
            upper = rec.upper;
            lower = rec.lower;
            QCOMPARE(static_cast<long long>(column(*solver, rec, "svm_calls")), rec.oracleCalls);
        }
        if (isSilp) {
            // One SVM per SILP iteration; θ is the snapshot's and the record's L.
            QCOMPARE(solver->lastRecord().oracleCalls, (long long)solver->iteration());
            QCOMPARE(kernelSnapshot(*solver)->theta, solver->lastRecord().lower);
        }
        qInfo("%s %s: %d iterations, %lld SVM calls, U = %.10g, L = %.10g, L - U at worst %.2g U",
              qPrintable(data), solver->name().c_str(), solver->iteration(),
              solver->lastRecord().oracleCalls, solver->lastRecord().upper,
              solver->lastRecord().lower, worstCrossing);
    }
}

void TestMkl::silpAndSimpleMklAgree_data() {
    planesAreLowerBounds_data();
}

void TestMkl::silpAndSimpleMklAgree() {
    QFETCH(QString, data);
    const Runs& r = runs(data.toStdString());
    const IterationRecord& a = r.silp->lastRecord();
    const IterationRecord& b = r.simple->lastRecord();
    QCOMPARE(r.silp->status().code, StatusCode::Converged);
    QCOMPARE(r.simple->status().code, StatusCode::Converged);
    const double scale = std::max(a.upper, b.upper);
    QVERIFY2(std::abs(a.upper - b.upper) <= kTolRel * scale, qPrintable(numbers(a.upper, b.upper)));
    // Each U is above the other's certified lower bound (up to the inner accuracy).
    QVERIFY2(a.upper >= b.lower - 1e-5 * scale, qPrintable(numbers(a.upper, b.lower)));
    QVERIFY2(b.upper >= a.lower - 1e-5 * scale, qPrintable(numbers(b.upper, a.lower)));
    // The returned weights are on the simplex and the classifiers use them.
    for (const KernelSvmSolver* s : {static_cast<const KernelSvmSolver*>(r.silp.get()),
                                     static_cast<const KernelSvmSolver*>(r.simple.get())}) {
        const Eigen::VectorXd beta = s->weights();
        QVERIFY(beta.minCoeff() >= 0.0);
        QVERIFY(std::abs(beta.sum() - 1.0) <= 1e-12);
        QCOMPARE(s->classifier().beta, beta);
        // D at the returned β, solved independently, is the reported objective (U is the
        // inner SVM's dual value there).
        const double D = evaluateMklObjective(tightSetup(*kernelSnapshot(*s)->setup), beta);
        QVERIFY2(
            std::abs(D - s->lastRecord().upper) <= 1e-4 * D,
            qPrintable(QString("%1: ").arg(s->name().c_str()) + numbers(D, s->lastRecord().upper)));
    }
    qInfo("%s: U silp %.10g, U simplemkl %.10g, relative difference %.2g (tol_rel %g)",
          qPrintable(data), a.upper, b.upper, std::abs(a.upper - b.upper) / scale, kTolRel);
}

void TestMkl::sameWeightsWhereTheOptimumIsUnique_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("kernels");
    QTest::newRow("ionosphere gaussian:0.2,1") << "ionosphere"
                                               << "gaussian:0.2,1";
    QTest::newRow("sonar gaussian:1,2") << "sonar"
                                        << "gaussian:1,2";
}

void TestMkl::sameWeightsWhereTheOptimumIsUnique() {
    QFETCH(QString, data);
    QFETCH(QString, kernels);
    const KernelProblem problem{dataset(data.toStdString()), nullptr};
    const double tol = 1e-6;
    SilpSolver silp(problem, mklOptions<SilpOptions>(kernels.toStdString(), kC, tol, 1e-7));
    SimpleMklSolver simple(problem,
                           mklOptions<SimpleMklOptions>(kernels.toStdString(), kC, tol, 1e-7));
    QCOMPARE(solve(silp).code, StatusCode::Converged);
    QCOMPARE(solve(simple).code, StatusCode::Converged);

    // The independent answer: D along the segment β = (t, 1 − t) is convex; golden section
    // on t with tight SVM solves.
    const KernelSetup setup = tightSetup(*kernelSnapshot(silp)->setup);
    const auto D = [&](double t) { return evaluateMklObjective(setup, Eigen::Vector2d(t, 1 - t)); };
    const double g = (std::sqrt(5.0) - 1) / 2;
    double lo = 0, hi = 1;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = D(x1), f2 = D(x2);
    while (hi - lo > 1e-4) {
        if (f1 < f2) {
            hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = D(x1);
        } else {
            lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = D(x2);
        }
    }
    const double tStar = 0.5 * (lo + hi);
    const double dStar = D(tStar);
    // Uniqueness: the minimum is interior and D rises on both sides by far more than the
    // solvers' tolerance, so every minimiser lies within ±0.05 of t*; the curvature
    // c = (D(t*−δ) + D(t*+δ) − 2D*)/δ² is positive, i.e. a single sharp minimum.
    const double delta = 0.05;
    QVERIFY2(tStar > delta && tStar < 1 - delta, qPrintable(QString::number(tStar)));
    const double left = D(tStar - delta) - dStar;
    const double right = D(tStar + delta) - dStar;
    QVERIFY2(left > 100 * tol * dStar && right > 100 * tol * dStar,
             qPrintable(QString("rise %1, %2 of D* = %3").arg(left).arg(right).arg(dStar)));
    const double curvature = (left + right) / (delta * delta);

    // Both solvers find t* (within what their gap allows: (t − t*)² c/2 ≤ tol·D*) and agree.
    const double reach = std::sqrt(2 * tol * dStar / curvature) + 1e-4;
    const Eigen::VectorXd a = silp.weights();
    const Eigen::VectorXd b = simple.weights();
    QVERIFY2(
        std::abs(a[0] - tStar) <= 2 * reach,
        qPrintable(QString("silp beta_1 %1, t* %2, reach %3").arg(a[0]).arg(tStar).arg(reach)));
    QVERIFY2(std::abs(b[0] - tStar) <= 2 * reach,
             qPrintable(
                 QString("simplemkl beta_1 %1, t* %2, reach %3").arg(b[0]).arg(tStar).arg(reach)));
    QVERIFY((a - b).cwiseAbs().maxCoeff() <= 4 * reach);
    QVERIFY2(std::abs(silp.lastRecord().upper - dStar) <= 2 * tol * dStar,
             qPrintable(numbers(silp.lastRecord().upper, dStar)));
    QVERIFY2(std::abs(simple.lastRecord().upper - dStar) <= 2 * tol * dStar,
             qPrintable(numbers(simple.lastRecord().upper, dStar)));
    qInfo(
        "%s %s: t* = %.5f (D* = %.10g, curvature %.4g); silp beta_1 = %.5f, simplemkl beta_1 = "
        "%.5f, max |dbeta| = %.2g",
        qPrintable(data), qPrintable(kernels), tStar, dStar, curvature, a[0], b[0],
        (a - b).cwiseAbs().maxCoeff());
}

void TestMkl::oneKernelIsThePlainSvm_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("C");
    QTest::newRow("ionosphere gaussian:0.5 C=1") << "ionosphere"
                                                 << "gaussian:0.5" << 1.0;
    QTest::newRow("ionosphere poly:2 C=0.1") << "ionosphere"
                                             << "poly:2" << 0.1;
    QTest::newRow("sonar gaussian:1 C=10") << "sonar"
                                           << "gaussian:1" << 10.0;
}

void TestMkl::oneKernelIsThePlainSvm() {
    QFETCH(QString, data);
    QFETCH(QString, kernel);
    QFETCH(double, C);
    const auto train = dataset(data.toStdString());
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY(parseKernelList(kernel.toStdString(), train->dimension(), &specs, &why));
    const LibsvmResult reference =
        solveWithLibsvm(*train, specs.front(), KernelNormalization::None, C, 1e-8, true, 64);
    const KernelProblem problem{train, nullptr};
    for (int which = 0; which < 2; ++which) {
        std::unique_ptr<KernelSvmSolver> solver;
        if (which == 0) {
            auto o = mklOptions<SilpOptions>(kernel.toStdString(), C, 1e-6, 1e-6);
            o.kernel.normalize = "none";
            solver = std::make_unique<SilpSolver>(problem, o);
        } else {
            auto o = mklOptions<SimpleMklOptions>(kernel.toStdString(), C, 1e-6, 1e-6);
            o.kernel.normalize = "none";
            solver = std::make_unique<SimpleMklSolver>(problem, o);
        }
        QCOMPARE(solve(*solver).code, StatusCode::Converged);
        QCOMPARE(solver->iteration(), 1);  // θ = D(β = 1) after the first plane
        QCOMPARE(solver->weights(), Eigen::VectorXd::Ones(1).eval());
        const double U = solver->lastRecord().upper;
        const double relative = std::abs(U - reference.dualObjective) / reference.dualObjective;
        QVERIFY2(relative <= 1e-6, qPrintable(QString("%1: ").arg(solver->name().c_str()) +
                                              numbers(U, reference.dualObjective)));
        qInfo("%s %s %s: D = %.12g, LIBSVM %.12g, relative %.2g", qPrintable(data),
              qPrintable(kernel), solver->name().c_str(), U, reference.dualObjective, relative);
    }
}

void TestMkl::snapshotsAndSummaries() {
    const Runs& r = runs("ionosphere");
    const auto silp = kernelSnapshot(*r.silp);
    QCOMPARE(silp->planes.size(), static_cast<std::size_t>(r.silp->iteration()));
    QCOMPARE(r.silp->planes().size(), silp->planes.size());
    QCOMPARE(r.silp->betaIterates().front(), Eigen::VectorXd::Constant(10, 0.1).eval());
    QCOMPARE(static_cast<int>(silp->lpMinimiser.size()), 10);
    QVERIFY(std::abs(silp->lpMinimiser.sum() - 1.0) <= 1e-12);
    // SILP's classifier is the best βᵢ's: its D is U.
    const auto best = std::min_element(silp->dValues.begin(), silp->dValues.end());
    QCOMPARE(*best, r.silp->lastRecord().upper);
    QCOMPARE(r.silp->weights(),
             silp->betaIterates[static_cast<std::size_t>(best - silp->dValues.begin())]);
    QCOMPARE(silp->beta, r.silp->weights());
    QVERIFY(silp->grid.values.empty());  // 34 features: no 2-D grid
    QVERIFY(silp->bytes() > sizeof(KernelSnapshot));
    QVERIFY(!silp->executedLines.empty());

    const auto simple = kernelSnapshot(*r.simple);
    QVERIFY(simple->lpMinimiser.size() == 0);
    QCOMPARE(simple->planes.size(), static_cast<std::size_t>(r.simple->lastRecord().oracleCalls));
    QCOMPARE(simple->beta, r.simple->weights());

    for (const KernelSvmSolver* s : {static_cast<const KernelSvmSolver*>(r.silp.get()),
                                     static_cast<const KernelSvmSolver*>(r.simple.get())}) {
        const auto snap = kernelSnapshot(*s);
        QCOMPARE(snap->kernelLabels.size(), std::size_t(10));
        QCOMPARE(snap->kernelLabels.front(), std::string("gaussian:0.01"));
        // α is feasible.
        QVERIFY(snap->alpha.minCoeff() >= 0 && snap->alpha.maxCoeff() <= kC);
        QVERIFY(std::abs(snap->alpha.dot(dataset("ionosphere")->labels)) <= 1e-9 * 351);
        const SummaryFields summary = s->summary();
        std::map<std::string, SummaryValue> fields(summary.begin(), summary.end());
        for (const char* key : {"weights", "objective", "svm_calls", "smo_iterations",
                                "support_vectors", "train_error", "C", "kernels"})
            QVERIFY2(fields.count(key), key);
        QVERIFY(!fields.count("test_error"));  // no test set
        const NamedValues weights = std::get<NamedValues>(fields["weights"]);
        QCOMPARE(weights.size(), std::size_t(10));
        double sum = 0;
        for (const auto& [label, value] : weights)
            sum += value;
        QVERIFY(std::abs(sum - 1) <= 1e-12);
        QCOMPARE(std::get<double>(fields["objective"]), s->lastRecord().upper);
        QCOMPARE(std::get<long long>(fields["svm_calls"]), s->lastRecord().oracleCalls);
        QVERIFY(std::get<long long>(fields["smo_iterations"]) > 0);
        QCOMPARE(std::get<double>(fields["train_error"]),
                 s->classifier().error(*dataset("ionosphere")));
        QCOMPARE(std::get<double>(fields["train_error"]),
                 column(*s, s->lastRecord(), "train_error"));
        QCOMPARE(static_cast<double>(std::get<long long>(fields["support_vectors"])),
                 column(*s, s->lastRecord(), "support_vectors"));
        QCOMPARE(column(*s, s->lastRecord(), "beta:gaussian:0.2"), s->weights()[4]);
    }
}

void TestMkl::badInputsAreRefused_data() {
    QTest::addColumn<QString>("kernels");
    QTest::addColumn<double>("C");
    QTest::addColumn<QString>("data");  // ionosphere, one_class, three_classes, kernel_*
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty kernel list") << "" << 1.0 << "ionosphere"
                                       << "empty kernel list";
    QTest::newRow("unknown kernel word") << "gaussian:1;rbf:2" << 1.0 << "ionosphere"
                                         << "rbf";
    QTest::newRow("gamma = 0") << "gaussian:1,0" << 1.0 << "ionosphere"
                               << "gamma must be > 0";
    QTest::newRow("gamma < 0") << "gaussian:-0.5" << 1.0 << "ionosphere"
                               << "gamma must be > 0";
    QTest::newRow("feature beyond d") << "linear@30-40" << 1.0 << "ionosphere"
                                      << "feature 40 in 'linear@30-40' is outside 1..34";
    QTest::newRow("C = 0") << "gaussian:1" << 0.0 << "ionosphere"
                           << "::C = 0: must be";
    QTest::newRow("C < 0") << "gaussian:1" << -2.0 << "ionosphere"
                           << "::C = -2: must be";
    QTest::newRow("one class only") << "gaussian:1" << 1.0 << "one_class"
                                    << "only one class";
    QTest::newRow("three classes") << "gaussian:1" << 1.0 << "three_classes"
                                   << "exactly two label values";
    QTest::newRow("precomputed not square") << "precomputed" << 1.0 << "kernel_wide"
                                            << "expected a square matrix";
    QTest::newRow("precomputed not symmetric") << "precomputed" << 1.0 << "kernel_skew"
                                               << "not symmetric";
}

void TestMkl::badInputsAreRefused() {
    QFETCH(QString, kernels);
    QFETCH(double, C);
    QFETCH(QString, data);
    QFETCH(QString, expected);
    const auto iono = dataset("ionosphere");
    std::shared_ptr<Dataset> train;
    std::vector<int> rows(20);
    for (int i = 0; i < 20; ++i)
        rows[static_cast<std::size_t>(i)] = i;
    if (data == "ionosphere") {
        train = std::make_shared<Dataset>(*iono);
    } else if (data == "one_class") {
        std::vector<int> positive;
        for (int i = 0; i < iono->size(); ++i)
            if (iono->labels[i] > 0) positive.push_back(i);
        train = std::make_shared<Dataset>(iono->subset(positive));
    } else if (data == "three_classes") {
        train = std::make_shared<Dataset>(iono->subset(rows));
        train->labels[5] = 2.0;
    } else {
        // A 20 × 20 linear kernel of ionosphere's first examples, made wide or asymmetric.
        const Dataset part = iono->subset(rows);
        const int extra = data == "kernel_wide" ? 1 : 0;
        train = std::make_shared<Dataset>();
        train->name = train->source = data.toStdString();
        train->dense.resize(20, 20 + extra);
        for (int i = 0; i < 20; ++i)
            for (int j = 0; j < 20 + extra; ++j)
                train->dense(i, j) = part.row(i).dot(part.row(j % 20));
        if (data == "kernel_skew") train->dense(3, 7) += 0.5;
        train->labels = part.labels;
    }
    const KernelProblem problem{train, nullptr};
    SilpOptions silpOptions;
    silpOptions.kernel.kernels = kernels.toStdString();
    silpOptions.kernel.C = C;
    silpOptions.kernel.normalize = "none";
    SimpleMklOptions simpleOptions;
    simpleOptions.kernel = silpOptions.kernel;
    SilpSolver silp(problem, silpOptions);
    SimpleMklSolver simple(problem, simpleOptions);
    for (const Solver* s :
         {static_cast<const Solver*>(&silp), static_cast<const Solver*>(&simple)}) {
        QCOMPARE(s->status().code, StatusCode::InvalidInput);
        QVERIFY2(s->status().message.find(expected.toStdString()) != std::string::npos,
                 s->status().message.c_str());
        QVERIFY(s->summary().empty());
        QVERIFY(std::dynamic_pointer_cast<const KernelSnapshot>(s->snapshot()));
    }
    QVERIFY2(silp.status().message.find("SilpOptions") != std::string::npos,
             silp.status().message.c_str());
    QVERIFY2(simple.status().message.find("SimpleMklOptions") != std::string::npos,
             simple.status().message.c_str());
    QCOMPARE(silp.step().code, StatusCode::InvalidInput);
    QVERIFY(silp.trace().empty());
}

void TestMkl::optionsAreValidated() {
    std::string why;
    QVERIFY2(SilpOptions{}.isValid(&why), why.c_str());
    QVERIFY2(SimpleMklOptions{}.isValid(&why), why.c_str());
    // The grammar is checked without data; feature indices only against the data.
    SilpOptions s;
    s.kernel.kernels = "gaussian:1@each_feature;linear@3-7,12";
    QVERIFY2(s.isValid(&why), why.c_str());
    s.kernel.kernels = "gaussian:1@3-";
    QVERIFY(!s.isValid(&why));
    QVERIFY2(why.find("SilpOptions") != std::string::npos && why.find("3-") != std::string::npos,
             why.c_str());
    s.kernel.kernels = "gaussian:1";
    s.stop.tol_rel = 1.0;
    QVERIFY(!s.isValid(&why));
    QVERIFY2(why.find("SilpOptions::tol_rel = 1: must lie in [0, 1)") != std::string::npos,
             why.c_str());

    SimpleMklOptions m;
    for (double bad : {0.0, 1.0, -0.5}) {
        m.line_search_tol = bad;
        QVERIFY(!m.isValid(&why));
        QVERIFY2(why.find("SimpleMklOptions::line_search_tol") != std::string::npos &&
                     why.find("must lie in (0, 1)") != std::string::npos,
                 why.c_str());
        SimpleMklSolver solver({dataset("sonar"), nullptr}, m);
        QCOMPARE(solver.status().code, StatusCode::InvalidInput);
        QCOMPARE(solver.status().message, why);
    }
    m.line_search_tol = 0.1;
    m.kernel.cache_mb = 0;
    QVERIFY(!m.isValid(&why));
    QVERIFY2(why.find("SimpleMklOptions::cache_mb = 0") != std::string::npos, why.c_str());
}

void TestMkl::silpWarmStartFromASmallerC() {
    const SilpSolver& previous = *runs("sonar").silp;  // C = 1, converged
    QCOMPARE(previous.status().code, StatusCode::Converged);
    const KernelProblem problem{dataset("sonar"), nullptr};
    const auto options =
        mklOptions<SilpOptions>(tenKernels("sonar"), 4 * kC, kTolRel, kInnerTolerance);
    SilpSolver cold(problem, options), warm(problem, options);
    std::string why;
    QVERIFY2(warm.warmStart(previous, &why), why.c_str());
    solve(cold);
    solve(warm);
    QCOMPARE(cold.status().code, StatusCode::Converged);
    QCOMPARE(warm.status().code, StatusCode::Converged);
    const IterationRecord &c = cold.lastRecord(), &w = warm.lastRecord();
    QVERIFY2(w.upper >= c.lower - 1e-9 * c.upper, qPrintable(numbers(w.upper, c.lower)));
    QVERIFY2(c.upper >= w.lower - 1e-9 * c.upper, qPrintable(numbers(c.upper, w.lower)));
    QVERIFY2(std::abs(w.upper - c.upper) <= 2 * kTolRel * c.upper,
             qPrintable(numbers(w.upper, c.upper)));
    // The previous planes are lower bounds here too: the first θ is at most the optimum.
    QVERIFY2(warm.trace().front().lower <= c.upper * (1 + 1e-9),
             qPrintable(numbers(warm.trace().front().lower, c.upper)));

    // Refused: a previous run with a larger C, a run that has stepped, other kernels.
    SilpSolver smaller(
        problem, mklOptions<SilpOptions>(tenKernels("sonar"), 0.5 * kC, kTolRel, kInnerTolerance));
    QVERIFY(!smaller.warmStart(cold, &why));
    QVERIFY2(QString::fromStdString(why).contains("larger than C"), why.c_str());
    QVERIFY(!cold.warmStart(previous, &why));
    QVERIFY2(QString::fromStdString(why).contains("already taken a step"), why.c_str());
    SilpSolver other(
        problem, mklOptions<SilpOptions>("gaussian:1;linear", 4 * kC, kTolRel, kInnerTolerance));
    QVERIFY(!other.warmStart(previous, &why));
    QVERIFY2(QString::fromStdString(why).contains("other kernels"), why.c_str());
}

namespace {

// The kernels that entered and left the active set (β > kZeroKernelWeight) from `before` to
// `after`.
std::pair<int, int> activeSetChanges(const Eigen::VectorXd& before, const Eigen::VectorXd& after) {
    int entered = 0, left = 0;
    for (Eigen::Index k = 0; k < before.size(); ++k) {
        const bool was = before[k] > kZeroKernelWeight, is = after[k] > kZeroKernelWeight;
        entered += !was && is;
        left += was && !is;
    }
    return {entered, left};
}

// KernelEntered / KernelLeft of a step agree with the kernels whose β crossed the threshold;
// their texts name the kernels (up to three of each).
void checkKernelEvents(const KernelSnapshot& snap, const Eigen::VectorXd& before,
                       const Eigen::VectorXd& after, int& entered, int& left) {
    const auto [in, out] = activeSetChanges(before, after);
    QCOMPARE((snap.record.events & KernelEntered) != 0, in > 0);
    QCOMPARE((snap.record.events & KernelLeft) != 0, out > 0);
    int kernelTexts = 0;
    for (const std::string& text : snap.events)
        kernelTexts += text.find("the active set") != std::string::npos;
    QCOMPARE(kernelTexts, (in > 3 ? 1 : in) + (out > 3 ? 1 : out));
    for (Eigen::Index k = 0; k < before.size() && in + out <= 3; ++k) {
        if ((before[k] > kZeroKernelWeight) == (after[k] > kZeroKernelWeight)) continue;
        const std::string name = "kernel " + snap.kernelLabels[static_cast<std::size_t>(k)] + " ";
        QVERIFY(std::any_of(snap.events.begin(), snap.events.end(),
                            [&](const std::string& t) { return t.rfind(name, 0) == 0; }));
    }
    entered += in;
    left += out;
}

}  // namespace

void TestMkl::kernelEventsFollowTheWeights() {
    // SimpleMKL: β_t of consecutive snapshots. SILP: the β its SVM was solved at (the last
    // of betaIterates) and the master LP's new minimiser, where the next SVM is solved.
    const KernelProblem problem{dataset("ionosphere"), nullptr};
    const std::string kernels = tenKernels("ionosphere");
    SimpleMklSolver simple(problem,
                           mklOptions<SimpleMklOptions>(kernels, kC, kTolRel, kInnerTolerance));
    auto previous = kernelSnapshot(simple);
    int entered = 0, left = 0;
    while (!simple.status().finished()) {
        simple.step();
        const auto snap = kernelSnapshot(simple);
        checkKernelEvents(*snap, previous->beta, snap->beta, entered, left);
        previous = snap;
    }
    qInfo("simplemkl: %d entries, %d exits over %d steps", entered, left, simple.iteration());
    QVERIFY(left > 0);

    SilpSolver silp(problem, mklOptions<SilpOptions>(kernels, kC, kTolRel, kInnerTolerance));
    entered = left = 0;
    while (!silp.status().finished()) {
        silp.step();
        const auto snap = kernelSnapshot(silp);
        QVERIFY(snap->record.events & PlaneAdded);
        checkKernelEvents(*snap, snap->betaIterates.back(), snap->lpMinimiser, entered, left);
    }
    qInfo("silp: %d entries, %d exits over %d steps", entered, left, silp.iteration());
    QVERIFY(left > 0);
    QVERIFY(entered > 0);
}

QTEST_GUILESS_MAIN(TestMkl)
#include "test_mkl.moc"
