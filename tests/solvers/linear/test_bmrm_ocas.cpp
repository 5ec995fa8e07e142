// SPDX-License-Identifier: GPL-3.0-or-later
// BMRM and OCAS against independent optima on real data: the interval [F_low, F_high] that
// holds min F comes from another algorithm with its own certificate (dual coordinate descent's
// duality gap for the hinge losses; LIBLINEAR's Newton solution plus the strong-convexity
// bound F* ≥ F(w) − ‖∇F(w)‖²/(2λ) for the logistic loss; LIBLINEAR's objective as an upper
// bound for the other losses). solvers.peers checks DCD's and LIBLINEAR's optima against
// libocas and against certificates of their own. At every iteration lower ≤ F_high and upper ≥
// F_low; at the end the upper bound is within the tolerance of the interval.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>

#include "data/data_error.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "linear/bmrm.h"
#include "linear/dcd.h"
#include "linear/liblinear_reference.h"
#include "linear/libocas_solver.h"
#include "linear/linear_model.h"
#include "linear/ocas.h"
#include "linear/plane_set.h"
#include "record_columns.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;

namespace {

std::shared_ptr<const Dataset> load(const char* name) {
    static std::map<std::string, std::shared_ptr<const Dataset>> cache;
    auto& slot = cache[name];
    if (!slot) {
        slot = std::make_shared<Dataset>(
            loadLibsvm(QString("%1/%2").arg(CPLAB_TEST_DATA_DIR, name).toStdString()));
    }
    return slot;
}

struct Interval {
    double low = -INFINITY;
    double high = INFINITY;
};

// An interval holding min F, from algorithms other than BMRM/OCAS; `accuracy` is LIBLINEAR's
// eps and DCD's relative gap.
Interval reference(const LinearProblem& problem, const LinearSvmOptions& model,
                   double accuracy = 1e-10) {
    Interval out;
    if (model.risk == "hinge" || model.risk == "squared_hinge") {
        // Dual coordinate descent: a primal point and a dual value, a certified interval.
        DcdOptions d;
        d.model = model;
        d.stop.tol_rel = accuracy;
        d.stop.epsilon = 0.0;
        d.stop.max_iterations = 20000;
        DcdSolver dcd(problem, d);
        solve(dcd);
        out.low = dcd.lastRecord().lower;
        out.high = dcd.lastRecord().upper;
        return out;
    }
    const ReferenceSolution lib = solveWithLiblinear(problem, model, accuracy);
    out.high = lib.objective;
    if (model.risk == "logistic") {
        Risk risk(problem.train, model.riskOptions());
        const double lambda = model.lambdaFor(problem.train->size());
        Eigen::VectorXd g;
        risk.evaluate(lib.w, &g);
        g += lambda * lib.w;
        out.low = lib.objective - g.squaredNorm() / (2 * lambda);
    }
    return out;
}

template <class SolverType, class Options>
void checkAgainst(const LinearProblem& problem, Options options, const Interval& ref, double tolRel,
                  const char* label) {
    options.stop.tol_rel = tolRel;
    options.stop.max_iterations = 20000;
    SolverType solver(problem, options);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    const Status status = solve(solver);
    QVERIFY2(status.code == StatusCode::Converged,
             qPrintable(QString("%1: %2").arg(label, QString::fromStdString(status.message))));
    const double slack = 1e-12 * std::max(1.0, std::abs(ref.high));
    for (const IterationRecord& r : solver.trace()) {
        QVERIFY2(r.lower <= ref.high + slack,
                 qPrintable(QString("%1 iteration %2: lower %3 above the optimum's upper bound %4")
                                .arg(label)
                                .arg(r.iteration)
                                .arg(r.lower, 0, 'g', 17)
                                .arg(ref.high, 0, 'g', 17)));
        QVERIFY2(r.upper >= ref.low - slack,
                 qPrintable(QString("%1 iteration %2: upper %3 below the optimum's lower bound %4")
                                .arg(label)
                                .arg(r.iteration)
                                .arg(r.upper, 0, 'g', 17)
                                .arg(ref.low, 0, 'g', 17)));
    }
    const IterationRecord& last = solver.lastRecord();
    // Converged: U − L ≤ tol·U, and L ≤ F* ≤ F_high, so U ≤ F_high + tol·U.
    QVERIFY2(last.upper <= ref.high + tolRel * last.upper + slack,
             qPrintable(QString("%1: final upper %2, reference %3")
                            .arg(label)
                            .arg(last.upper, 0, 'g', 17)
                            .arg(ref.high, 0, 'g', 17)));
    // The returned weights really have the reported objective.
    QVERIFY(std::abs(solver.objective(solver.bestWeights()) - last.upper) <=
            1e-12 * std::max(1.0, last.upper));
}

// OCAS to ocasTol and BMRM to bmrmTol, both against ref (checkAgainst).
void checkOcasAndBmrm(const LinearProblem& problem, const LinearSvmOptions& model,
                      const Interval& ref, double ocasTol, double bmrmTol) {
    OcasOptions o;
    o.model = model;
    checkAgainst<OcasSolver>(problem, o, ref, ocasTol, "ocas");
    BmrmOptions b;
    b.model = model;
    checkAgainst<BmrmSolver>(problem, b, ref, bmrmTol, "bmrm");
}

}  // namespace

class TestBmrmOcas : public QObject {
    Q_OBJECT

  private slots:
    void hingeOnHeart_data();
    void hingeOnHeart();
    void smoothAndSquaredLossesOnHeart_data();
    void smoothAndSquaredLossesOnHeart();
    void a9a();
    void multiclassOnUsps();
    void epsilonInsensitiveRegression();
    void planeManagementKeepsTheOptimum();
    void aggregationKeepsTheReducedOptimum();
    void automaticCapFollowsTheData();
    void labelsAreMappedAndPredictionsRoundTrip();
    void modelClassesAreDistinct();
    void optionsAreValidated();
    void planeEventsFollowThePlaneSet();
};

void TestBmrmOcas::hingeOnHeart_data() {
    QTest::addColumn<double>("C");
    QTest::addColumn<bool>("bias");
    QTest::newRow("C=1") << 1.0 << false;
    QTest::newRow("C=1 bias") << 1.0 << true;
    QTest::newRow("C=0.1") << 0.1 << false;
    QTest::newRow("C=10 bias") << 10.0 << true;
}

void TestBmrmOcas::hingeOnHeart() {
    QFETCH(double, C);
    QFETCH(bool, bias);
    const LinearProblem problem{load("heart_scale"), nullptr};
    LinearSvmOptions model;
    model.C = C;
    model.bias = bias;
    const Interval ref = reference(problem, model);
    QVERIFY2(ref.low <= ref.high + 1e-12 * ref.high,
             qPrintable(QString("[%1, %2]").arg(ref.low, 0, 'g', 17).arg(ref.high, 0, 'g', 17)));
    QVERIFY2(ref.high - ref.low <= 1e-6 * ref.high, "the reference interval is not tight");
    checkOcasAndBmrm(problem, model, ref, 1e-6, 1e-5);
}

void TestBmrmOcas::smoothAndSquaredLossesOnHeart_data() {
    QTest::addColumn<QString>("risk");
    QTest::newRow("squared_hinge") << "squared_hinge";
    QTest::newRow("logistic") << "logistic";
}

void TestBmrmOcas::smoothAndSquaredLossesOnHeart() {
    QFETCH(QString, risk);
    const LinearProblem problem{load("heart_scale"), nullptr};
    LinearSvmOptions model;
    model.C = 1.0;
    model.risk = risk.toStdString();
    const Interval ref = reference(problem, model);
    QVERIFY2(ref.high - ref.low <= 1e-6 * ref.high, "the reference interval is not tight");
    checkOcasAndBmrm(problem, model, ref, 1e-6, 1e-5);
}

void TestBmrmOcas::a9a() {
    // 32,561 examples: the reference interval from LIBLINEAR (upper) and DCD's certified dual
    // (lower); OCAS to 1e-4 and BMRM to 1e-2 (it needs many more planes).
    const LinearProblem problem{load("a9a.gz"), load("a9a.t.gz")};
    LinearSvmOptions model;
    model.C = 1.0;
    const Interval ref = reference(problem, model, 1e-5);
    QVERIFY(ref.low <= ref.high);
    QVERIFY2(ref.high - ref.low <= 1e-4 * ref.high,
             qPrintable(
                 QString("interval [%1, %2]").arg(ref.low, 0, 'g', 12).arg(ref.high, 0, 'g', 12)));
    checkOcasAndBmrm(problem, model, ref, 1e-4, 1e-2);
    OcasOptions o;
    o.model = model;
    // The authors' libocas, run to the same tolerance, lands in the same interval, and our
    // final objectives agree with its within the tolerance.
    LibocasOptions lo;
    lo.model = model;
    lo.stop.tol_rel = 1e-4;
    LibocasSolver libocas(problem, lo);
    QCOMPARE(solve(libocas).code, StatusCode::Converged);
    QVERIFY(libocas.lastRecord().upper >= ref.low - 1e-12);
    QVERIFY(libocas.lastRecord().lower <= ref.high + 1e-12);
    OcasOptions tight = o;
    tight.stop.tol_rel = 1e-4;
    OcasSolver ours(problem, tight);
    solve(ours);
    QVERIFY(std::abs(ours.lastRecord().upper - libocas.lastRecord().upper) <=
            1e-4 * libocas.lastRecord().upper);
    // Test error is reported and plausible for a9a (about 15 %).
    o.stop.tol_rel = 1e-4;
    OcasSolver run(problem, o);
    solve(run);
    const double testError = column(run, run.lastRecord(), "test_error");
    QVERIFY2(testError > 0.13 && testError < 0.17, qPrintable(QString::number(testError)));
}

void TestBmrmOcas::multiclassOnUsps() {
    const LinearProblem problem{load("usps_first2000.gz"), nullptr};
    LinearSvmOptions model;
    model.C = 0.1;
    model.risk = "multiclass";
    const Interval ref = reference(problem, model, 1e-3);  // LIBLINEAR -s 4: an upper bound
    checkOcasAndBmrm(problem, model, ref, 1e-3, 1e-2);
    OcasOptions o;
    o.model = model;
    // Both ends agree: our certified lower bound is close below LIBLINEAR's objective.
    o.stop.tol_rel = 1e-4;
    OcasSolver run(problem, o);
    solve(run);
    QVERIFY(run.lastRecord().lower >= ref.high * (1 - 2e-3));
}

void TestBmrmOcas::epsilonInsensitiveRegression() {
    const auto data = std::make_shared<Dataset>(generate("plane_2d", 300, 3));
    const LinearProblem problem{data, nullptr};
    LinearSvmOptions model;
    model.C = 1.0;
    model.bias = true;
    model.risk = "epsilon_insensitive";
    model.tube = 0.1;
    const Interval ref = reference(problem, model);
    OcasOptions o;
    o.model = model;
    checkAgainst<OcasSolver>(problem, o, ref, 1e-6, "ocas");
    o.stop.tol_rel = 1e-6;
    OcasSolver run(problem, o);
    solve(run);
    QVERIFY(run.lastRecord().lower >= ref.high * (1 - 2e-6));
    // y = 1 + 2 x1 − x2 + noise: the weights recover the plane.
    const Eigen::VectorXd& w = run.bestWeights();
    QVERIFY(std::abs(w(0) - 2.0) < 0.1 && std::abs(w(1) + 1.0) < 0.1 && std::abs(w(2) - 1) < 0.2);
}

void TestBmrmOcas::planeManagementKeepsTheOptimum() {
    const LinearProblem problem{load("heart_scale"), nullptr};
    LinearSvmOptions model;
    model.C = 1.0;
    const Interval ref = reference(problem, model);
    BmrmOptions b;
    b.model = model;
    b.planes.inactive_limit = 3;
    checkAgainst<BmrmSolver>(problem, b, ref, 1e-5, "bmrm inactive_limit=3");
    b.planes.inactive_limit = 0;
    b.planes.max_planes = 8;
    checkAgainst<BmrmSolver>(problem, b, ref, 1e-4, "bmrm max_planes=8");
    OcasOptions o;
    o.model = model;
    o.planes.max_planes = 8;
    o.planes.inactive_limit = 2;
    checkAgainst<OcasSolver>(problem, o, ref, 1e-5, "ocas max_planes=8");
    // The cap holds at every iteration (one new plane may sit on top of it).
    o.stop.tol_rel = 1e-5;
    OcasSolver capped(problem, o);
    solve(capped);
    for (const auto& r : capped.trace())
        QVERIFY(column(capped, r, "planes") <= 9);
}

// Merging the oldest planes into their aggregate leaves the reduced problem's solution as it
// was (same w, same dual value), the merged model stays below the full one everywhere (the
// aggregate is a convex combination of its planes), and later solves stay below the full
// reduced problem's optimum (a lower bound of it, as of min F).
void TestBmrmOcas::aggregationKeepsTheReducedOptimum() {
    constexpr int d = 6;
    constexpr double lambda = 0.5;
    PlaneOptions capped;
    capped.inactive_limit = 0;
    capped.max_planes = 4;
    PlaneOptions all = capped;
    all.max_planes = 0;
    PlaneSet few(d, lambda, capped), every(d, lambda, all);
    std::srand(7);
    const auto addRandom = [&](int count) {
        for (int i = 0; i < count; ++i) {
            const Eigen::VectorXd a = Eigen::VectorXd::Random(d);
            const double b = 0.5 + 0.5 * Eigen::VectorXd::Random(1)(0);
            few.add(a, b);
            every.add(a, b);
        }
    };
    addRandom(4);  // with plane 0: five planes, one over the cap
    every.solve();
    few.solve();
    QVERIFY(few.size() <= 4);
    QCOMPARE(few.aggregations(), 1);
    QVERIFY((few.weights() - every.weights()).norm() <= 1e-12 * every.weights().norm());
    QVERIFY(std::abs(few.dualValue() - every.dualValue()) <= 1e-12 * std::abs(every.dualValue()));
    for (int probe = 0; probe < 20; ++probe) {
        const Eigen::VectorXd w = 3.0 * Eigen::VectorXd::Random(d);
        QVERIFY(few.modelValue(w) <= every.modelValue(w) + 1e-12);
    }
    for (int round = 0; round < 10; ++round) {
        addRandom(1);
        every.solve();
        few.solve();
        QVERIFY(few.size() <= 4);
        QVERIFY2(few.dualValue() <= every.dualValue() + 1e-10,
                 qPrintable(QString("round %1: %2 > %3")
                                .arg(round)
                                .arg(few.dualValue(), 0, 'g', 17)
                                .arg(every.dualValue(), 0, 'g', 17)));
    }
    QVERIFY(few.aggregations() > 1);
}

// max_planes = −1: planes may take an eighth of the data's bytes (at least 1 MB). On 2,000 usps
// digits with ten classes (d·K = 2,560 values a plane) that binds: OCAS then keeps the cap and
// its bounds still hold the optimum that an uncapped run brackets.
void TestBmrmOcas::automaticCapFollowsTheData() {
    QCOMPARE(linearPlaneBudget(0.0), 1024.0 * 1024);
    QCOMPARE(linearPlaneBudget(80e6), 10e6);
    QCOMPARE(automaticMaxPlanes(2560, 1024.0 * 1024), 51);  // 1 MiB / 20,480 bytes
    QCOMPARE(automaticMaxPlanes(10, 1e12), kAutoMaxPlanes);
    QCOMPARE(automaticMaxPlanes(100000000, 1024.0 * 1024), kAutoMinPlanes);

    const LinearProblem problem{load("usps_first2000.gz"), nullptr};
    OcasOptions o;
    o.model.risk = "multiclass";
    o.stop.tol_rel = 1e-2;
    OcasSolver capped(problem, o);
    const int cap = automaticMaxPlanes(capped.risk().dimension(),
                                       linearPlaneBudget(problem.train->storedBytes()));
    QVERIFY(cap < 100);
    QCOMPARE(solve(capped).code, StatusCode::Converged);
    double most = 0;
    for (const auto& r : capped.trace())
        most = std::max(most, column(capped, r, "planes"));
    QVERIFY2(most >= cap && most <= cap + 1,
             qPrintable(QString("%1 planes, cap %2").arg(most).arg(cap)));

    o.planes.max_planes = 0;
    OcasSolver uncapped(problem, o);
    QCOMPARE(solve(uncapped).code, StatusCode::Converged);
    QVERIFY(capped.lastRecord().lower <= uncapped.lastRecord().upper);
    QVERIFY(uncapped.lastRecord().lower <= capped.lastRecord().upper);
}

void TestBmrmOcas::labelsAreMappedAndPredictionsRoundTrip() {
    // Ripley's labels are ±1; shift them to {3, 7}: the solver maps them to −1/+1 and the
    // model predicts in the file's values.
    auto data = std::make_shared<Dataset>(*load("heart_scale"));
    for (Eigen::Index i = 0; i < data->labels.size(); ++i) {
        data->labels(i) = data->labels(i) > 0 ? 7.0 : 3.0;
    }
    OcasOptions o;
    o.model.C = 1.0;
    OcasSolver shifted({data, nullptr}, o);
    solve(shifted);
    OcasSolver plain({load("heart_scale"), nullptr}, o);
    solve(plain);
    QCOMPARE(shifted.lastRecord().upper, plain.lastRecord().upper);
    const LinearModel model = shifted.model();
    QTemporaryDir dir;
    const std::string path = dir.filePath("heart.model").toStdString();
    writeLinearModel(path, model);
    const LinearModel back = readLinearModel(path);
    QCOMPARE(back.weights, model.weights);
    QCOMPARE(back.classes, (std::vector<double>{3.0, 7.0}));
    const Eigen::VectorXd predicted = back.predict(*data);
    int errors = 0;
    for (Eigen::Index i = 0; i < predicted.size(); ++i) {
        QVERIFY(predicted(i) == 3.0 || predicted(i) == 7.0);
        errors += predicted(i) != data->labels(i);
    }
    // The same error as the solver reports for w_b on the training set.
    QCOMPARE(double(errors) / data->size(), column(shifted, shifted.lastRecord(), "train_error"));
    // A damaged model file is rejected with its line.
    QVERIFY_THROWS_EXCEPTION(std::exception,
                             parseLinearModel("risk hinge\nfeatures 2\nweights\n1\n", "m.txt"));
    try {
        parseLinearModel("risk hinge\nfeatures 1\nweights\nabc\n", "m.txt");
        QFAIL("no error");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains("m.txt") && QString(e.what()).contains("4"), e.what());
    }
}

// A model's class values are distinct: `classes 1 1` names one class twice (predict would map
// both outputs to it) and is refused at its line, as is a second classes line.
void TestBmrmOcas::modelClassesAreDistinct() {
    const std::string head = "# cplab linear model\nrisk hinge\nbias 0\nfeatures 2\noutputs 1\n";
    const std::string tail = "weights\n0.5\n-0.5\n";
    QCOMPARE(parseLinearModel(head + "classes -1 1\n" + tail, "m.txt").classes.size(),
             std::size_t{2});
    for (const auto& [classes, detail] :
         {std::pair<std::string, std::string>{"classes 1 1\n",
                                              "m.txt:6: classes: class value "
                                              "'1' appears twice"},
          {"classes 1 1e0\n", "m.txt:6: classes: class value '1e0' appears twice"},
          {"classes 0 1\nclasses 0 1\n", "m.txt:7: classes given twice"}}) {
        try {
            parseLinearModel(head + classes + tail, "m.txt");
            QFAIL(("accepted " + classes).c_str());
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).rfind(detail, 0) == 0, e.what());
        }
    }
}

void TestBmrmOcas::optionsAreValidated() {
    const LinearProblem problem{load("heart_scale"), nullptr};
    auto rejected = [&](auto solver, const char* needle) {
        return solver.status().code == StatusCode::InvalidInput &&
               QString::fromStdString(solver.status().message).contains(needle);
    };
    OcasOptions o;
    o.theta = 0.0;
    QVERIFY(rejected(OcasSolver(problem, o), "theta"));
    o = OcasOptions();
    o.model.C = 1;
    o.model.lambda = 0.1;
    QVERIFY(rejected(OcasSolver(problem, o), "lambda or C"));
    o = OcasOptions();
    o.model.C = -1;
    QVERIFY(rejected(OcasSolver(problem, o), "OcasOptions::C"));
    BmrmOptions b;
    b.planes.max_planes = 1;
    QVERIFY(rejected(BmrmSolver(problem, b), "max_planes"));
    b = BmrmOptions();
    b.model.risk = "nonsense";
    QVERIFY(rejected(BmrmSolver(problem, b), "risk"));
    b = BmrmOptions();
    QVERIFY(rejected(BmrmSolver(LinearProblem{}, b), "no training set"));
    auto single = std::make_shared<Dataset>(*load("heart_scale"));
    single->labels.setConstant(1.0);
    QVERIFY(rejected(BmrmSolver({single, nullptr}, b), "label"));
}

namespace {

double summaryNumber(const Solver& s, const std::string& key) {
    for (const auto& [name, value] : s.summary())
        if (name == key) return std::get<double>(value);
    return NAN;
}

}  // namespace

void TestBmrmOcas::planeEventsFollowThePlaneSet() {
    // A tight plane cap and inactive limit so that planes are dropped and aggregated. BMRM:
    // a plane every step, PlanesDropped / PlanesAggregated exactly when the summary's counts
    // grow, and the pseudocode's pruning line (7) exactly then. OCAS: exactly one of a serious
    // step (k > 0) and a null step (k = 0) every step, and its pruning line (4) likewise.
    const LinearProblem problem{load("heart_scale"), nullptr};
    BmrmOptions b;
    b.stop.tol_rel = 1e-6;
    b.planes.max_planes = 8;
    b.planes.inactive_limit = 3;
    BmrmSolver bmrm(problem, b);
    double dropped = 0, aggregations = 0;
    int dropSteps = 0, aggregateSteps = 0;
    while (!bmrm.status().finished()) {
        bmrm.step();
        const SnapshotPtr snap = bmrm.snapshot();
        const std::uint32_t events = snap->record.events;
        QVERIFY(events & PlaneAdded);
        const double d = summaryNumber(bmrm, "dropped_planes");
        const double a = summaryNumber(bmrm, "aggregations");
        QCOMPARE((events & PlanesDropped) != 0, d > dropped);
        QCOMPARE((events & PlanesAggregated) != 0, a > aggregations);
        const auto& lines = snap->executedLines;
        QCOMPARE(std::find(lines.begin(), lines.end(), 7) != lines.end(),
                 d > dropped || a > aggregations);
        QCOMPARE(snap->events.size(), eventNames(events).size());
        dropSteps += d > dropped;
        aggregateSteps += a > aggregations;
        dropped = d;
        aggregations = a;
    }
    qInfo("bmrm: %d steps, %d with drops, %d with aggregations", bmrm.iteration(), dropSteps,
          aggregateSteps);
    QVERIFY(dropSteps > 0);

    OcasOptions o;
    o.stop.tol_rel = 1e-6;
    o.planes = b.planes;
    OcasSolver ocas(problem, o);
    int serious = 0, null = 0, pruned = 0;
    while (!ocas.status().finished()) {
        ocas.step();
        const SnapshotPtr snap = ocas.snapshot();
        const std::uint32_t events = snap->record.events;
        QVERIFY(events & PlaneAdded);
        QVERIFY(((events & SeriousStep) != 0) != ((events & NullStep) != 0));
        QCOMPARE((events & SeriousStep) != 0, column(ocas, snap->record, "k") > 0);
        const bool prune = events & (PlanesDropped | PlanesAggregated);
        const auto& lines = snap->executedLines;
        QCOMPARE(std::find(lines.begin(), lines.end(), 4) != lines.end(), prune);
        serious += (events & SeriousStep) != 0;
        null += (events & NullStep) != 0;
        pruned += prune;
    }
    qInfo("ocas: %d serious, %d null steps, %d with pruning", serious, null, pruned);
    QVERIFY(serious > 0);
    QVERIFY(pruned > 0);
}

QTEST_APPLESS_MAIN(TestBmrmOcas)
#include "test_bmrm_ocas.moc"
