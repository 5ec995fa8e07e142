// SPDX-License-Identifier: GPL-3.0-or-later
// The baselines of the linear-model family: dual coordinate descent (DcdSolver) and Pegasos
// (SgdSolver). DCD must close its duality gap, and its certified bounds must bracket the
// optimum of an independent solver (LIBLINEAR through solveWithLiblinear) at every epoch;
// its final dual iterate must satisfy the KKT conditions. SGD must approach that optimum,
// be reproducible from its seed, and never claim a lower bound.
#include <QtTest>
#include <cmath>
#include <limits>
#include <map>

#include "data/libsvm_format.h"
#include "linear/dcd.h"
#include "linear/liblinear_reference.h"
#include "linear/sgd.h"
#include "test_printers.h"

using namespace cplab;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::shared_ptr<const Dataset> load(const char* file) {
    return std::make_shared<const Dataset>(
        loadLibsvm(std::string(CPLAB_TEST_DATA_DIR) + "/" + file));
}

LinearSvmOptions svmOptions(const QString& risk, double C, bool bias) {
    LinearSvmOptions o;
    o.risk = risk.toStdString();
    o.C = C;
    o.bias = bias;
    return o;
}

// Is `text` in `message`? With a readable failure message.
bool contains(const std::string& message, const std::string& text) {
    if (message.find(text) != std::string::npos) return true;
    qWarning("message '%s' lacks '%s'", message.c_str(), text.c_str());
    return false;
}

// ⟨w, x̃ᵢ⟩ with x̃ᵢ = (xᵢ, 1) when there is a bias.
double score(const Dataset& data, const Eigen::VectorXd& w, int i, bool bias) {
    const int d = data.dimension();
    return data.row(i).dot(w.head(d)) + (bias ? w[d] : 0.0);
}

// w(α) = Σᵢ αᵢ yᵢ x̃ᵢ, from dense copies of the rows.
Eigen::VectorXd weightsOf(const Dataset& data, const Eigen::VectorXd& alpha, bool bias) {
    const int d = data.dimension();
    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + (bias ? 1 : 0));
    for (int i = 0; i < data.size(); ++i) {
        w.head(d) += alpha[i] * data.labels[i] * data.row(i);
        if (bias) w[d] += alpha[i] * data.labels[i];
    }
    return w;
}

// λ·D(α) with D the C-form dual of the L1- (hinge) or L2-loss (squared hinge) SVM,
// C = 1/(λm): a lower bound of min F for every α ≥ 0 (α ≤ C for L1).
double dualValue(const Dataset& data, const Eigen::VectorXd& alpha, double lambda, bool l1,
                 bool bias) {
    const double c = 1.0 / (lambda * data.size());
    const double d = alpha.sum() - 0.5 * weightsOf(data, alpha, bias).squaredNorm() -
                     (l1 ? 0.0 : alpha.squaredNorm() / (4.0 * c));
    return lambda * d;
}

// F(w) = λ/2 ‖w‖² + (1/m) Σ ℓ(yᵢ⟨w, x̃ᵢ⟩) for the hinge or squared hinge.
double primalValue(const Dataset& data, const Eigen::VectorXd& w, double lambda,
                   const QString& risk, bool bias) {
    double sum = 0.0;
    for (int i = 0; i < data.size(); ++i) {
        const double xi = std::max(0.0, 1.0 - data.labels[i] * score(data, w, i, bias));
        sum += risk == "hinge" ? xi : xi * xi;
    }
    return 0.5 * lambda * w.squaredNorm() + sum / data.size();
}

// The records of a trace without their times (which differ between runs).
struct TraceRow {
    int iteration;
    long long oracleCalls;
    double upper, lower;
    std::vector<double> extra;
    bool operator==(const TraceRow&) const = default;
};

std::vector<TraceRow> withoutTimes(const std::vector<IterationRecord>& trace) {
    std::vector<TraceRow> rows;
    for (const IterationRecord& r : trace)
        rows.push_back({r.iteration, r.oracleCalls, r.upper, r.lower, r.extra});
    return rows;
}

}  // namespace

class TestBaselines : public QObject {
    Q_OBJECT

    std::map<QString, std::shared_ptr<const Dataset>> data_;
    // LIBLINEAR's optimum per (dataset, risk, C, bias), computed once.
    std::map<std::string, ReferenceSolution> references_;

    const ReferenceSolution& reference(const QString& dataset, const LinearSvmOptions& o) {
        const std::string key = dataset.toStdString() + "/" + o.risk + "/" + formatReal(o.C) + "/" +
                                (o.bias ? "b" : "") + formatReal(o.lambda);
        auto it = references_.find(key);
        if (it == references_.end())
            it = references_.emplace(key, solveWithLiblinear({data_.at(dataset), {}}, o)).first;
        return it->second;
    }

  private slots:
    void initTestCase() {
        data_["heart_scale"] = load("heart_scale");
        data_["australian_scale"] = load("australian_scale");
        QCOMPARE(data_["heart_scale"]->size(), 270);
        QCOMPARE(data_["australian_scale"]->size(), 690);
    }

    // -- DCD ------------------------------------------------------------------------------

    void dcdConvergesWithBracketingBounds_data() {
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QString>("risk");
        QTest::addColumn<double>("C");
        QTest::addColumn<bool>("bias");
        for (const char* dataset : {"heart_scale", "australian_scale"})
            for (const char* risk : {"hinge", "squared_hinge"})
                for (double C : {1.0, 0.1})
                    for (bool bias : {false, true})
                        QTest::addRow("%s/%s/C=%g/%s", dataset, risk, C, bias ? "bias" : "nobias")
                            << QString(dataset) << QString(risk) << C << bias;
    }
    void dcdConvergesWithBracketingBounds() {
        QFETCH(QString, dataset);
        QFETCH(QString, risk);
        QFETCH(double, C);
        QFETCH(bool, bias);
        DcdOptions o;
        o.model = svmOptions(risk, C, bias);
        o.stop.epsilon = 0.0;
        o.stop.tol_rel = 1e-8;
        o.stop.max_iterations = 100000;
        const Dataset& data = *data_.at(dataset);
        // LIBLINEAR's F(w_ref) ≥ min F whether or not it converged (its dual solvers stop
        // after 1000 iterations): no certified lower bound may exceed it.
        const double fRef = reference(dataset, o.model).objective;
        const double tiny = 1e-12 * std::max(1.0, std::abs(fRef));

        DcdSolver s({data_.at(dataset), {}}, o);
        QCOMPARE(s.status().code, StatusCode::Running);
        QVERIFY(s.lastRecord().lower <= fRef + tiny);
        std::vector<IterationRecord> trace;
        const Status status = solve(s, [&](const Solver&, const IterationRecord& r) {
            QVERIFY(r.lower <= fRef + tiny);
            QVERIFY(r.lower <= r.upper);
            if (!trace.empty()) {
                QVERIFY(r.lower >= trace.back().lower);
                QVERIFY(r.upper <= trace.back().upper);
            }
            QCOMPARE(r.oracleCalls, 1 + 2LL * r.iteration);
            QCOMPARE(r.extra.size(), s.extraColumns().size());
            trace.push_back(r);
        });
        QVERIFY2(status.code == StatusCode::Converged, status.message.c_str());
        const IterationRecord& last = s.lastRecord();
        QVERIFY(last.gap <= 1e-8 * std::abs(last.upper));

        // The optimum, bracketed by this test's own arithmetic: the dual value of the final α
        // (a lower bound of min F for any α in the box) and the primal value of the best w.
        const double fLow = dualValue(data, s.alpha(), s.lambda(), risk == "hinge", bias);
        const double fHigh = primalValue(data, s.bestWeights(), s.lambda(), risk, bias);
        QVERIFY(fLow <= fRef + tiny);                          // agrees with LIBLINEAR
        QVERIFY(std::abs(fHigh - last.upper) <= tiny);         // U is F(bestWeights)
        QVERIFY(std::abs(fLow - last.lower) <= 1e-9 * fHigh);  // L is λ·D(α) (or just below)
        QVERIFY(fHigh - fLow <= 1.01e-8 * fHigh);
        for (const IterationRecord& r : trace) {
            QVERIFY2(r.upper >= fLow - tiny, qPrintable(QString("epoch %1").arg(r.iteration)));
            QVERIFY2(r.lower <= fHigh + tiny, qPrintable(QString("epoch %1").arg(r.iteration)));
        }
        // LIBLINEAR solved the same problem: its value is within its own (capped) accuracy.
        QVERIFY2(fRef - fHigh <= 2e-4 * fHigh, qPrintable(QString::number(fRef - fHigh)));
    }

    // The KKT conditions of the C-form dual at a tightly converged α, checked here from
    // scratch: G_i = y_i<w, x_i> − 1 + D_ii α_i must be ≥ 0 at α_i = 0, = 0 inside the box
    // and ≤ 0 at α_i = C.
    void dcdSatisfiesKkt_data() { dcdConvergesWithBracketingBounds_data(); }
    void dcdSatisfiesKkt() {
        QFETCH(QString, dataset);
        QFETCH(QString, risk);
        QFETCH(double, C);
        QFETCH(bool, bias);
        const bool l1 = risk == "hinge";
        DcdOptions o;
        o.model = svmOptions(risk, C, bias);
        o.stop.epsilon = 0.0;
        // L1: at a gap of 1e-10 relative the violations are ~1e-8. L2: its gap reaches the
        // rounding floor (and closes: L is capped at U) while α still moves by ~1e-6; the dual
        // is strongly concave, so α keeps converging until then or the epoch cap.
        o.stop.tol_rel = l1 ? 1e-10 : 0.0;
        o.stop.max_iterations = l1 ? 100000 : 1000;
        const Dataset& data = *data_.at(dataset);
        DcdSolver s({data_.at(dataset), {}}, o);
        const Status status = solve(s);
        QVERIFY2(status.usable(), status.message.c_str());

        const Eigen::VectorXd& alpha = s.alpha();
        const double c = s.C();
        QCOMPARE(s.boxBound(), l1 ? c : kInf);
        const Eigen::VectorXd w = weightsOf(data, alpha, bias);
        QVERIFY((w - s.weights()).lpNorm<Eigen::Infinity>() <= 1e-9 * (1.0 + w.norm()));
        double worst = 0.0;
        for (int i = 0; i < data.size(); ++i) {
            QVERIFY(alpha[i] >= 0.0 && alpha[i] <= s.boxBound());
            const double G =
                data.labels[i] * score(data, w, i, bias) - 1.0 + (l1 ? 0.0 : alpha[i] / (2.0 * c));
            double violation = std::abs(G);
            if (alpha[i] == 0.0)
                violation = std::max(0.0, -G);
            else if (l1 && alpha[i] == c)
                violation = std::max(0.0, G);
            worst = std::max(worst, violation);
        }
        QVERIFY2(worst <= 1e-6, qPrintable(QString("worst KKT violation %1").arg(worst)));
    }

    void dcdShrinkingAndSeedsAgree() {
        DcdOptions o;
        o.stop.epsilon = 0.0;
        o.stop.tol_rel = 1e-10;
        o.stop.max_iterations = 20000;
        DcdSolver a({data_.at("australian_scale"), {}}, o);
        o.shrinking = false;
        o.seed = 7;
        DcdSolver b({data_.at("australian_scale"), {}}, o);
        QVERIFY(solve(a).code == StatusCode::Converged);
        QVERIFY(solve(b).code == StatusCode::Converged);
        QVERIFY(std::abs(a.lastRecord().upper - b.lastRecord().upper) <=
                1e-9 * a.lastRecord().upper);
        QVERIFY(a.lastRecord().lower <= b.lastRecord().upper);
        QVERIFY(b.lastRecord().lower <= a.lastRecord().upper);
    }

    void dcdTraceSnapshotAndSummary() {
        DcdOptions o;
        o.stop.epsilon = 0.0;
        o.stop.max_iterations = 3;
        DcdSolver s({data_.at("heart_scale"), {}}, o);
        QCOMPARE(s.name(), std::string("dcd"));
        QCOMPARE(s.lastRecord().oracleCalls, 1LL);
        QCOMPARE(s.lastRecord().upper, 1.0);  // F(0) = R(0) = 1 for the hinge
        QCOMPARE(s.lastRecord().lower, 0.0);  // D(0) = 0
        QCOMPARE(s.lastRecord().extra.size(), s.extraColumns().size());
        const Status status = solve(s);
        QCOMPARE(status.code, StatusCode::IterationLimit);
        QCOMPARE(s.trace().size(), std::size_t(3));
        QCOMPARE(s.lastRecord().oracleCalls, 7LL);
        QCOMPARE(s.objective(s.bestWeights()), s.lastRecord().upper);

        auto snap = std::dynamic_pointer_cast<const LinearSvmSnapshot>(s.snapshot());
        QVERIFY(snap);
        QCOMPARE(snap->solver, std::string("dcd"));
        QCOMPARE(snap->wBest.size(), 13);
        QVERIFY(!snap->executedLines.empty());
        for (int line : snap->executedLines)
            QVERIFY(line >= 0 && line < static_cast<int>(s.pseudocode().size()));

        bool hasGap = false;
        for (const auto& [key, value] : s.summary())
            hasGap = hasGap || key == "duality_gap";
        QVERIFY(hasGap);
    }

    void dcdA9aSanity() {
        auto a9a = load("a9a.gz");
        QCOMPARE(a9a->size(), 32561);
        DcdOptions o;
        o.model.bias = true;
        o.stop.epsilon = 0.0;
        o.stop.max_iterations = 20;
        DcdSolver s({a9a, {}}, o);
        QCOMPARE(solve(s).code, StatusCode::IterationLimit);
        QCOMPARE(s.trace().size(), std::size_t(20));
        const IterationRecord& first = s.trace().front();
        const IterationRecord& r = s.lastRecord();
        QVERIFY(r.lower > first.lower && r.upper < first.upper);
        QVERIFY(r.lower <= r.upper);
        QVERIFY(r.relGap() < 0.1 * first.relGap());
    }

    // -- SGD ------------------------------------------------------------------------------

    void sgdApproachesTheOptimum_data() {
        QTest::addColumn<QString>("risk");
        QTest::addColumn<int>("minibatch");
        QTest::addColumn<bool>("projection");
        QTest::addColumn<int>("epochs");
        QTest::newRow("hinge") << QString("hinge") << 1 << true << 100;
        QTest::newRow("hinge/no projection") << QString("hinge") << 1 << false << 100;
        QTest::newRow("hinge/minibatch 8") << QString("hinge") << 8 << true << 100;
        QTest::newRow("squared_hinge") << QString("squared_hinge") << 1 << true << 300;
        QTest::newRow("logistic") << QString("logistic") << 1 << true << 100;
    }
    void sgdApproachesTheOptimum() {
        QFETCH(QString, risk);
        QFETCH(int, minibatch);
        QFETCH(bool, projection);
        QFETCH(int, epochs);
        SgdOptions o;
        o.model = svmOptions(risk, 1.0, false);
        o.minibatch = minibatch;
        o.projection = projection;
        o.stop.max_iterations = epochs;
        o.stop.epsilon = 1e300;  // no gap can stop SGD: its lower bound is −∞
        // LIBLINEAR's value; for the hinge it may sit above min F by its capped accuracy
        // (≤ 1e-4 relative on these sets, see dcdConvergesWithBracketingBounds).
        const double fStar = reference("heart_scale", o.model).objective;
        SgdSolver s({data_.at("heart_scale"), {}}, o);
        QCOMPARE(s.lastRecord().oracleCalls, 1LL);
        double previousUpper = kInf;
        const Status status = solve(s, [&](const Solver&, const IterationRecord& r) {
            QCOMPARE(r.lower, -kInf);
            QCOMPARE(r.gap, kInf);
            QVERIFY(r.upper <= previousUpper);
            QVERIFY(r.upper >= fStar * (1.0 - 2e-4));
            QCOMPARE(r.oracleCalls, 1 + 2LL * r.iteration);
            previousUpper = r.upper;
        });
        QCOMPARE(status.code, StatusCode::IterationLimit);
        QCOMPARE(s.iteration(), epochs);
        QVERIFY(s.lastRecord().upper <= fStar + 1e-2 * std::abs(fStar));
        QCOMPARE(s.objective(s.bestWeights()), s.lastRecord().upper);
    }

    void sgdOtherRisks() {
        // ε-insensitive and multi-class on heart_scale's features: no optimum to compare
        // with, but F must fall well below F(0) and the trace stay sane.
        for (const char* risk : {"epsilon_insensitive", "multiclass"}) {
            SgdOptions o;
            o.model.risk = risk;
            o.stop.max_iterations = 20;
            SgdSolver s({data_.at("heart_scale"), {}}, o);
            QVERIFY2(s.status().code == StatusCode::Running, s.status().message.c_str());
            const double f0 = s.lastRecord().upper;
            solve(s);
            QVERIFY(s.lastRecord().upper < 0.8 * f0);
            QVERIFY(s.weights().norm() <= s.radius() * (1 + 1e-12));
        }
    }

    void sgdIsReproducibleFromItsSeed() {
        SgdOptions o;
        o.stop.max_iterations = 5;
        SgdSolver a({data_.at("heart_scale"), {}}, o);
        SgdSolver b({data_.at("heart_scale"), {}}, o);
        o.seed = 2;
        SgdSolver c({data_.at("heart_scale"), {}}, o);
        solve(a);
        solve(b);
        solve(c);
        QVERIFY(withoutTimes(a.trace()) == withoutTimes(b.trace()));
        QVERIFY(a.bestWeights() == b.bestWeights());
        QVERIFY(withoutTimes(a.trace()) != withoutTimes(c.trace()));
        QVERIFY(a.weights() != c.weights());
    }

    void sgdSnapshot() {
        SgdOptions o;
        o.stop.max_iterations = 2;
        SgdSolver s({data_.at("heart_scale"), {}}, o);
        QCOMPARE(s.name(), std::string("sgd"));
        QCOMPARE(s.lastRecord().upper, 1.0);  // F(0) = R(0) = 1
        QCOMPARE(s.radius(), std::sqrt(1.0 / s.lambda()));
        solve(s);
        QCOMPARE(s.updates(), 2LL * 270);
        auto snap = std::dynamic_pointer_cast<const LinearSvmSnapshot>(s.snapshot());
        QVERIFY(snap);
        QCOMPARE(snap->solver, std::string("sgd"));
        for (int line : snap->executedLines)
            QVERIFY(line >= 0 && line < static_cast<int>(s.pseudocode().size()));
    }

    void sgdWithoutProjectionCanDiverge() {
        // The squared hinge's gradient grows with w, and the first steps 1/(λt) are huge:
        // without the projection Pegasos overshoots; the solver says so instead of going on.
        SgdOptions o;
        o.model.risk = "squared_hinge";
        o.projection = false;
        SgdSolver s({data_.at("heart_scale"), {}}, o);
        const Status status = solve(s);
        QCOMPARE(status.code, StatusCode::NumericalFailure);
        QVERIFY(contains(status.message, "turn projection on"));
    }

    // Dense storage takes other code paths (row loops of SGD, Dataset::dot of DCD) to the
    // same optimum.
    void denseAndSparseStorageAgree() {
        Dataset dense = *data_.at("heart_scale");
        dense.setSparseStorage(false);
        const auto denseData = std::make_shared<const Dataset>(std::move(dense));
        DcdOptions d;
        d.model.bias = true;
        d.stop.max_iterations = 50;
        DcdSolver dcdSparse({data_.at("heart_scale"), {}}, d), dcdDense({denseData, {}}, d);
        solve(dcdSparse);
        solve(dcdDense);
        QVERIFY(std::abs(dcdSparse.lastRecord().upper - dcdDense.lastRecord().upper) <= 1e-12);
        QVERIFY(std::abs(dcdSparse.lastRecord().lower - dcdDense.lastRecord().lower) <= 1e-12);
        for (const char* risk : {"hinge", "multiclass"}) {
            SgdOptions o;
            o.model.risk = risk;
            o.model.bias = true;
            o.stop.max_iterations = 5;
            SgdSolver sparse({data_.at("heart_scale"), {}}, o), denseSolver({denseData, {}}, o);
            solve(sparse);
            solve(denseSolver);
            QVERIFY((sparse.bestWeights() - denseSolver.bestWeights()).norm() <=
                    1e-9 * sparse.bestWeights().norm());
        }
    }

    // -- Options --------------------------------------------------------------------------

    void defaultOptionsAreValid() {
        DcdSolver dcd({data_.at("heart_scale"), {}});
        SgdSolver sgd({data_.at("heart_scale"), {}});
        QCOMPARE(dcd.status().code, StatusCode::Running);
        QCOMPARE(sgd.status().code, StatusCode::Running);
        std::string why;
        QVERIFY(DcdOptions{}.isValid(&why));
        QVERIFY(SgdOptions{}.isValid(&why));
        // Stop rules epsilon, tol_rel, max_iterations, max_seconds; the linear model's lambda,
        // C, risk, bias, tube, threads; then each solver's own.
        QCOMPARE(describeOptions<DcdOptions>().size(), std::size_t(12));
        QCOMPARE(describeOptions<SgdOptions>().size(), std::size_t(13));
    }

    void invalidOptionsAreRejected_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("dcd C<0") << "dcd"
                                 << "C"
                                 << "-1"
                                 << "DcdOptions::C = -1: must be a finite number >= 0";
        QTest::newRow("sgd C<0") << "sgd"
                                 << "C"
                                 << "-0.5"
                                 << "SgdOptions::C = -0.5: must be a finite number >= 0";
        QTest::newRow("dcd lambda and C") << "dcd"
                                          << "lambda"
                                          << "0.01"
                                          << "DcdOptions::C = 2: set either lambda or C";
        QTest::newRow("sgd lambda and C") << "sgd"
                                          << "lambda"
                                          << "0.01"
                                          << "SgdOptions::C = 2: set either lambda or C";
        QTest::newRow("dcd logistic") << "dcd"
                                      << "risk"
                                      << "logistic"
                                      << "DcdOptions::risk = 'logistic': must be hinge";
        QTest::newRow("dcd multiclass") << "dcd"
                                        << "risk"
                                        << "multiclass"
                                        << "DcdOptions::risk = 'multiclass': must be hinge";
        QTest::newRow("sgd minibatch 0") << "sgd"
                                         << "minibatch"
                                         << "0"
                                         << "SgdOptions::minibatch = 0: must be >= 1";
        QTest::newRow("dcd seed") << "dcd"
                                  << "seed"
                                  << "-3"
                                  << "DcdOptions::seed = -3";
        QTest::newRow("sgd seed") << "sgd"
                                  << "seed"
                                  << "-3"
                                  << "SgdOptions::seed = -3";
        QTest::newRow("dcd max_iterations") << "dcd"
                                            << "max_iterations"
                                            << "0"
                                            << "DcdOptions::max_iterations = 0";
        QTest::newRow("sgd max_seconds") << "sgd"
                                         << "max_seconds"
                                         << "-1"
                                         << "SgdOptions::max_seconds = -1";
    }
    void invalidOptionsAreRejected() {
        QFETCH(QString, solver);
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QString, message);
        OptionValues values = {{option.toStdString(), value.toStdString()}};
        // The lambda-and-C row sets both.
        if (option == "lambda") values["C"] = "2";
        std::string why;
        std::unique_ptr<Solver> s;
        if (solver == "dcd") {
            DcdOptions o;
            QVERIFY2(assignOptions(o, values, &why), why.c_str());
            QVERIFY(!o.isValid(&why));
            QVERIFY(contains(why, message.toStdString()));
            s = std::make_unique<DcdSolver>(LinearProblem{data_.at("heart_scale"), {}}, o);
        } else {
            SgdOptions o;
            QVERIFY2(assignOptions(o, values, &why), why.c_str());
            QVERIFY(!o.isValid(&why));
            QVERIFY(contains(why, message.toStdString()));
            s = std::make_unique<SgdSolver>(LinearProblem{data_.at("heart_scale"), {}}, o);
        }
        QCOMPARE(s->status().code, StatusCode::InvalidInput);
        QVERIFY(contains(s->status().message, message.toStdString()));
        QCOMPARE(s->step().code, StatusCode::InvalidInput);
        QVERIFY(s->trace().empty());
        QVERIFY(s->summary().empty());
    }

    void dcdRejectsNonBinaryLabels() {
        Dataset three = *data_.at("heart_scale");
        three.labels[0] = 2.0;
        DcdSolver s({std::make_shared<const Dataset>(three), {}});
        QCOMPARE(s.status().code, StatusCode::InvalidInput);
        QVERIFY(contains(s.status().message, "labels"));
    }
};

QTEST_APPLESS_MAIN(TestBaselines)
#include "test_baselines.moc"
