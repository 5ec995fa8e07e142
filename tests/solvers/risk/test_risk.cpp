// SPDX-License-Identifier: GPL-3.0-or-later
// Risk: for every loss, with and without bias, dense and sparse storage, 1 and 3 threads, on
// real fixtures (heart_scale, housing) and random sets: the value and subgradient agree with a
// naive per-example loop written here; the subgradient inequality holds at random pairs of
// points (and at kinks); smooth losses match central finite differences; the thread count
// changes nothing but the order of the final sums; the three-pass path equals the fused
// evaluate(); bad inputs throw the promised messages.
#include <QtTest>
#include <cmath>
#include <random>

#include "data/csv_format.h"
#include "data/libsvm_format.h"
#include "risk/risk.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

// --- the reference: a plain loop over dense copies of the examples --------------------------

struct Reference {
    double R = 0.0;
    Eigen::VectorXd g;
    Eigen::VectorXd gAbs;  // (1/m) Σᵢ |cᵢ xᵢ|: the scale of g's rounding errors
};

Reference naiveRisk(const Dataset& data, LossKind loss, bool bias, double epsilon,
                    const Eigen::VectorXd& w) {
    const int m = data.size();
    const int F = data.dimension() + (bias ? 1 : 0);
    const int K = static_cast<int>(w.size()) / F;
    bool plusMinus = true;
    for (int i = 0; i < m; ++i)
        plusMinus = plusMinus && (data.labels[i] == 1.0 || data.labels[i] == -1.0);
    Reference out;
    out.g = Eigen::VectorXd::Zero(w.size());
    out.gAbs = Eigen::VectorXd::Zero(w.size());
    for (int i = 0; i < m; ++i) {
        std::vector<double> x(static_cast<std::size_t>(F), 1.0);
        const Eigen::VectorXd row = data.row(i);
        for (int j = 0; j < data.dimension(); ++j)
            x[static_cast<std::size_t>(j)] = row[j];
        std::vector<double> s(static_cast<std::size_t>(K), 0.0);
        for (int k = 0; k < K; ++k) {
            for (int j = 0; j < F; ++j)
                s[static_cast<std::size_t>(k)] += x[static_cast<std::size_t>(j)] * w[k * F + j];
        }
        std::vector<double> c(static_cast<std::size_t>(K), 0.0);
        double y = data.labels[i];
        double value = 0.0;
        switch (loss) {
            case LossKind::Hinge:
                if (y * s[0] < 1.0) {
                    value = 1.0 - y * s[0];
                    c[0] = -y;
                }
                break;
            case LossKind::SquaredHinge:
                if (y * s[0] < 1.0) {
                    value = (1.0 - y * s[0]) * (1.0 - y * s[0]);
                    c[0] = -2.0 * y * (1.0 - y * s[0]);
                }
                break;
            case LossKind::Logistic: {
                const double t = -y * s[0];  // log(1 + e^t), derivative −y/(1 + e^{−t})
                value = t > 30.0 ? t + std::exp(-t) : std::log(1.0 + std::exp(t));
                c[0] =
                    -y * (t > 0.0 ? 1.0 / (1.0 + std::exp(-t)) : std::exp(t) / (1.0 + std::exp(t)));
                break;
            }
            case LossKind::EpsilonInsensitive: {
                const double r = s[0] - y;
                if (std::abs(r) > epsilon) {
                    value = std::abs(r) - epsilon;
                    c[0] = r > 0.0 ? 1.0 : -1.0;
                }
                break;
            }
            case LossKind::Multiclass: {
                const int cls = plusMinus ? (y > 0.0 ? 1 : 0) : static_cast<int>(y);
                int best = 0;
                double bestValue = -1e300;
                for (int k = 0; k < K; ++k) {
                    const double v = (k == cls ? 0.0 : 1.0) + s[static_cast<std::size_t>(k)] -
                                     s[static_cast<std::size_t>(cls)];
                    if (v > bestValue) {
                        bestValue = v;
                        best = k;
                    }
                }
                value = bestValue;
                if (best != cls) {
                    c[static_cast<std::size_t>(best)] = 1.0;
                    c[static_cast<std::size_t>(cls)] = -1.0;
                }
                break;
            }
        }
        out.R += value;
        for (int k = 0; k < K; ++k) {
            for (int j = 0; j < F; ++j) {
                const double term = c[static_cast<std::size_t>(k)] * x[static_cast<std::size_t>(j)];
                out.g[k * F + j] += term;
                out.gAbs[k * F + j] += std::abs(term);
            }
        }
    }
    out.R /= m;
    out.g /= m;
    out.gAbs /= m;
    return out;
}

// --- datasets ---------------------------------------------------------------------------------

// m × d with about `density` nonzeros per entry, standard normal values.
Dataset randomFeatures(int m, int d, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform;
    Dataset data;
    data.name = "random";
    data.source = "test:random";
    data.dense = Dataset::DenseMatrix::Zero(m, d);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < d; ++j) {
            if (uniform(rng) < density) data.dense(i, j) = normal(rng);
        }
    }
    data.labels = Eigen::VectorXd::Zero(m);
    return data;
}

// Labels for `loss`: ±1, classes 0..3, or targets; `seed` picks them.
void randomLabels(Dataset& data, LossKind loss, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    for (int i = 0; i < data.size(); ++i) {
        if (loss == LossKind::Multiclass) {
            data.labels[i] = static_cast<double>(rng() % 4);
        } else if (loss == LossKind::EpsilonInsensitive) {
            data.labels[i] = 2.0 * normal(rng);
        } else {
            data.labels[i] = rng() % 2 ? 1.0 : -1.0;
        }
    }
}

// "heart": heart_scale as loaded (±1; multi-class reads them as classes 0/1; ε-insensitive as
// targets); "heart4": heart_scale's features, random classes 0..3; "housing": the real
// regression table; "random": 300 × 17, 40 % nonzeros, labels fitting `loss`.
std::shared_ptr<const Dataset> makeData(const std::string& name, LossKind loss, bool sparse) {
    Dataset data;
    if (name == "heart" || name == "heart4") {
        data = loadLibsvm(kData + "/heart_scale");
        if (name == "heart4") randomLabels(data, LossKind::Multiclass, 7);
    } else if (name == "housing") {
        data = loadCsv(kData + "/housing.data");
    } else {
        data = randomFeatures(300, 17, 0.4, 11);
        randomLabels(data, loss, 13);
    }
    data.setSparseStorage(sparse);
    return std::make_shared<const Dataset>(std::move(data));
}

double epsilonFor(const std::string& name) {
    // heart's targets are ±1: with ε = 1 every example sits on the tube's border at w = 0.
    return name == "heart" ? 1.0 : 0.5;
}

// Points of about unit scores: entries uniform in [−a, a], a = 1/√(mean nonzeros per row).
Eigen::VectorXd randomPoint(const Risk& risk, std::mt19937_64& rng) {
    const double perRow =
        std::max(1.0, static_cast<double>(risk.data().nonZeros()) / risk.examples());
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::VectorXd w(risk.dimension());
    for (Eigen::Index j = 0; j < w.size(); ++j)
        w[j] = uniform(rng) * 1.5 / std::sqrt(perRow);
    return w;
}

// Points at kinks: w = 0 (all multi-class classes tie; heart's ε-tube border at ε = 1) and,
// with a bias, the bias-only point b = 1 (margin exactly 1 for every +1 example).
std::vector<Eigen::VectorXd> kinkPoints(const Risk& risk) {
    std::vector<Eigen::VectorXd> points{Eigen::VectorXd::Zero(risk.dimension())};
    if (risk.options().bias && risk.outputs() == 1) {
        Eigen::VectorXd b = Eigen::VectorXd::Zero(risk.dimension());
        b[risk.features() - 1] = 1.0;
        points.push_back(b);
    }
    return points;
}

double maxAbs(const Eigen::VectorXd& v) {
    return v.size() ? v.cwiseAbs().maxCoeff() : 0.0;
}

// max_j |a_j − b_j| / scale_j: differences relative to the sum of the absolute values of the
// terms that make up each entry (∞ if an entry made of no terms differs).
double relativeDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                          const Eigen::VectorXd& scale) {
    double worst = 0.0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
        const double diff = std::abs(a[j] - b[j]);
        if (diff > 0.0) worst = std::max(worst, scale[j] > 0.0 ? diff / scale[j] : INFINITY);
    }
    return worst;
}

constexpr double kThreadTolerance = 1e-14;

const LossKind kLosses[] = {LossKind::Hinge, LossKind::Logistic, LossKind::SquaredHinge,
                            LossKind::Multiclass, LossKind::EpsilonInsensitive};

}  // namespace

class TestRisk : public QObject {
    Q_OBJECT

    // Columns shared by the property tests: every loss × dataset × bias × storage.
    static void propertyTable() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<bool>("sparse");
        for (LossKind loss : kLosses) {
            std::vector<std::string> sets{"heart", "random"};
            if (loss == LossKind::Multiclass) sets.push_back("heart4");
            if (loss == LossKind::EpsilonInsensitive) sets.push_back("housing");
            for (const std::string& set : sets) {
                for (bool bias : {false, true}) {
                    for (bool sparse : {false, true}) {
                        const std::string row = std::string(toString(loss)) + "/" + set +
                                                (bias ? "/bias" : "") +
                                                (sparse ? "/sparse" : "/dense");
                        QTest::newRow(row.c_str()) << static_cast<int>(loss)
                                                   << QString::fromStdString(set) << bias << sparse;
                    }
                }
            }
        }
    }

  private slots:
    void names() {
        QCOMPARE(lossKindNames().size(), std::size_t(5));
        for (LossKind kind : kLosses) {
            LossKind parsed = LossKind::Hinge;
            QVERIFY(parseLossKind(toString(kind), &parsed));
            QCOMPARE(static_cast<int>(parsed), static_cast<int>(kind));
            QCOMPARE(lossKindNames()[static_cast<std::size_t>(kind)], std::string(toString(kind)));
        }
        LossKind untouched = LossKind::Logistic;
        QVERIFY(!parseLossKind("svm", &untouched));
        QCOMPARE(static_cast<int>(untouched), static_cast<int>(LossKind::Logistic));
    }

    void fixturesKeepTheContract() {
        for (const char* set : {"heart", "heart4", "housing", "random"}) {
            for (bool sparse : {false, true}) {
                const auto data = makeData(set, LossKind::Multiclass, sparse);
                QVERIFY2(data->contractViolation().empty(), data->contractViolation().c_str());
            }
        }
        QCOMPARE(makeData("heart", LossKind::Hinge, true)->size(), 270);
        QCOMPARE(makeData("housing", LossKind::Hinge, false)->dimension(), 13);
    }

    // (c) value and subgradient equal the naive loop; (d) threads 1 and 3 agree; the
    // three-pass path equals evaluate(); scores and C do not depend on the thread count.
    void matchesNaiveLoopOnAnyThreadCount_data() { propertyTable(); }
    void matchesNaiveLoopOnAnyThreadCount() {
        QFETCH(int, loss);
        QFETCH(QString, dataset);
        QFETCH(bool, bias);
        QFETCH(bool, sparse);
        const auto kind = static_cast<LossKind>(loss);
        const auto data = makeData(dataset.toStdString(), kind, sparse);
        RiskOptions options{kind, bias, epsilonFor(dataset.toStdString()), 1};
        const Risk one(data, options);
        options.threads = 3;
        options.minWorkPerThread = 1;  // 3 workers even on these small sets
        const Risk three(data, options);
        QCOMPARE(one.dimension(), three.dimension());
        QCOMPARE(one.features(), data->dimension() + (bias ? 1 : 0));

        std::mt19937_64 rng(42);
        std::vector<Eigen::VectorXd> points = kinkPoints(one);
        for (int t = 0; t < 8; ++t)
            points.push_back(randomPoint(one, rng));
        points.push_back(100.0 * randomPoint(one, rng));  // large scores (logistic's tails)
        for (const Eigen::VectorXd& w : points) {
            const Reference ref = naiveRisk(*data, kind, bias, options.epsilon, w);
            Eigen::VectorXd g1, g3;
            const double R1 = one.evaluate(w, &g1);
            const double R3 = three.evaluate(w, &g3);
            QVERIFY(std::isfinite(R1) && g1.allFinite());
            const double rScale = std::max(1.0, std::abs(ref.R));
            const double gScale = std::max(1.0, maxAbs(ref.g));
            QVERIFY2(
                std::abs(R1 - ref.R) <= 1e-12 * rScale,
                qPrintable(QString("R %1 vs naive %2").arg(R1, 0, 'g', 17).arg(ref.R, 0, 'g', 17)));
            QVERIFY2(maxAbs(g1 - ref.g) <= 1e-12 * gScale,
                     qPrintable(QString("|g - naive| = %1").arg(maxAbs(g1 - ref.g))));
            QCOMPARE(one.evaluate(w, nullptr), R1);

            // Threads: R and every entry of g are compensated sums merged across workers
            // unrounded and rounded once (core/compensated_sum.h), so 1 and 3 threads agree
            // bit for bit — what lets a run on N processes take one process's steps.
            QVERIFY2(R1 == R3,
                     qPrintable(QString("R %1 vs %2").arg(R1, 0, 'g', 17).arg(R3, 0, 'g', 17)));
            QVERIFY2(g1 == g3,
                     qPrintable(QString("g1 vs g3: %1").arg(relativeDifference(g1, g3, ref.gAbs))));
            // Same thread count: bit for bit.
            Eigen::VectorXd again;
            QCOMPARE(three.evaluate(w, &again), R3);
            QVERIFY(again == g3);

            // Three passes.
            Eigen::MatrixXd S1, S3, C1, C3;
            one.scores(w, S1);
            three.scores(w, S3);
            QCOMPARE(S1.rows(), Eigen::Index(data->size()));
            QCOMPARE(S1.cols(), Eigen::Index(one.outputs()));
            QVERIFY(S1 == S3);
            const double L1 = one.loss(S1, &C1);
            const double L3 = three.loss(S3, &C3);
            QVERIFY(C1 == C3);
            QVERIFY(std::abs(L1 - R1) <= 1e-14 * rScale);
            QCOMPARE(L3, L1);
            QCOMPARE(one.loss(S1, nullptr), L1);
            // In place (C = &S, as OCAS and BMRM call it): the same value and derivatives.
            Eigen::MatrixXd inPlace = S3;
            QCOMPARE(three.loss(inPlace, &inPlace), L3);
            QVERIFY(inPlace == C3);
            Eigen::VectorXd b1, b3;
            one.backProject(C1, b1);
            three.backProject(C3, b3);
            QVERIFY(b1 == g1);
            QVERIFY(b3 == g3);
        }
    }

    // (a) R(v) ≥ R(w) + ⟨g(w), v − w⟩ at random pairs and from kinks.
    void subgradientInequality_data() { propertyTable(); }
    void subgradientInequality() {
        QFETCH(int, loss);
        QFETCH(QString, dataset);
        QFETCH(bool, bias);
        QFETCH(bool, sparse);
        const auto kind = static_cast<LossKind>(loss);
        const auto data = makeData(dataset.toStdString(), kind, sparse);
        for (int threads : {1, 3}) {
            const Risk risk(data,
                            RiskOptions{kind, bias, epsilonFor(dataset.toStdString()), threads, 1});
            std::mt19937_64 rng(1234 + static_cast<unsigned>(threads));
            std::vector<Eigen::VectorXd> from = kinkPoints(risk);
            for (int t = 0; t < 10; ++t)
                from.push_back(randomPoint(risk, rng));
            for (const Eigen::VectorXd& w : from) {
                Eigen::VectorXd g;
                const double Rw = risk.evaluate(w, &g);
                for (int t = 0; t < 10; ++t) {
                    // Far points and near ones (where a wrong kink choice shows).
                    const double scale = t % 2 ? 1.0 : 1e-3;
                    const Eigen::VectorXd v = w + scale * randomPoint(risk, rng);
                    const double Rv = risk.evaluate(v, nullptr);
                    const double bound = Rw + g.dot(v - w);
                    QVERIFY2(
                        Rv >= bound - 1e-12,
                        qPrintable(
                            QString("R(v) = %1 < %2").arg(Rv, 0, 'g', 17).arg(bound, 0, 'g', 17)));
                }
            }
        }
    }

    // (b) The smooth losses' gradients are derivatives: central differences, relative 1e-6.
    void gradientMatchesFiniteDifferences_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<bool>("sparse");
        for (LossKind loss : {LossKind::Logistic, LossKind::SquaredHinge}) {
            for (const char* set : {"heart", "random"}) {
                for (bool bias : {false, true}) {
                    for (bool sparse : {false, true}) {
                        const std::string row = std::string(toString(loss)) + "/" + set +
                                                (bias ? "/bias" : "") +
                                                (sparse ? "/sparse" : "/dense");
                        QTest::newRow(row.c_str())
                            << static_cast<int>(loss) << QString(set) << bias << sparse;
                    }
                }
            }
        }
    }
    void gradientMatchesFiniteDifferences() {
        QFETCH(int, loss);
        QFETCH(QString, dataset);
        QFETCH(bool, bias);
        QFETCH(bool, sparse);
        const auto kind = static_cast<LossKind>(loss);
        const auto data = makeData(dataset.toStdString(), kind, sparse);
        for (int threads : {1, 3}) {
            const Risk risk(data, RiskOptions{kind, bias, 0.1, threads, 1});
            std::mt19937_64 rng(99);
            for (int t = 0; t < 3; ++t) {
                const Eigen::VectorXd w = randomPoint(risk, rng);
                Eigen::VectorXd g;
                risk.evaluate(w, &g);
                Eigen::VectorXd fd(w.size());
                const double h = 1e-5;
                for (Eigen::Index j = 0; j < w.size(); ++j) {
                    Eigen::VectorXd plus = w, minus = w;
                    plus[j] += h;
                    minus[j] -= h;
                    fd[j] =
                        (risk.evaluate(plus, nullptr) - risk.evaluate(minus, nullptr)) / (2 * h);
                }
                QVERIFY2(
                    maxAbs(fd - g) <= 1e-6 * maxAbs(g),
                    qPrintable(
                        QString("|fd - g| = %1, |g| = %2").arg(maxAbs(fd - g)).arg(maxAbs(g))));
            }
        }
    }

    // evaluate(w, &w) overwrites w with the subgradient at the old w.
    void evaluateIntoItsOwnPoint() {
        const auto data = makeData("random", LossKind::Multiclass, false);
        const Risk risk(data, RiskOptions{LossKind::Multiclass, true});
        std::mt19937_64 rng(17);
        Eigen::VectorXd w = randomPoint(risk, rng);
        Eigen::VectorXd g;
        const double R = risk.evaluate(w, &g);
        QCOMPARE(risk.evaluate(w, &w), R);
        QVERIFY(w == g);
    }

    // Logistic stays finite and exact far in the tails (no overflow of exp).
    void logisticIsStableForLargeScores() {
        Dataset data;
        data.dense.resize(4, 1);
        data.dense << 1, 1, -1, 1;
        data.labels.resize(4);
        data.labels << 1, -1, 1, 1;
        const Risk risk(std::make_shared<const Dataset>(data), RiskOptions{LossKind::Logistic});
        Eigen::VectorXd w(1);
        w << 1000.0;  // scores ±1000: losses 0, 1000, 1000, 0
        Eigen::VectorXd g;
        QCOMPARE(risk.evaluate(w, &g), 500.0);
        QCOMPARE(g[0], (0.0 + 1.0 + 1.0 + 0.0) / 4);  // −y·x·σ(−y s) = +1, +1 for the wrong ones
        w << -1e6;
        QCOMPARE(risk.evaluate(w, &g), (1e6 + 0 + 0 + 1e6) / 4);
        QVERIFY(g.allFinite());
    }

    void predictionsAndErrors() {
        Dataset data;  // x = (1, 0), (0, 2), (−1, −1), (0, 0)
        data.dense.resize(4, 2);
        data.dense << 1, 0, 0, 2, -1, -1, 0, 0;
        data.labels.resize(4);
        data.labels << 1, -1, -1, 1;
        auto shared = std::make_shared<const Dataset>(data);
        // The training error from the scores (errorFromScores) must equal error(w, data), on
        // one thread and on three.
        const auto fromScores = [](const Risk& risk, const Eigen::VectorXd& w) {
            Eigen::MatrixXd S;
            risk.scores(w, S);
            RiskOptions threaded = risk.options();
            threaded.threads = 3;
            threaded.minWorkPerThread = 1;
            const Risk three(std::make_shared<const Dataset>(risk.data()), threaded);
            const double e = risk.errorFromScores(S);
            return e == three.errorFromScores(S) ? e : -1.0;
        };
        {
            const Risk risk(shared, RiskOptions{LossKind::Hinge});
            Eigen::VectorXd w(2);
            w << 1, -1;  // scores 1, −2, 0, 0 → +1, −1, +1 (at 0), +1
            const Eigen::VectorXd p = risk.predict(w, data);
            QCOMPARE(p, Eigen::Vector4d(1, -1, 1, 1));
            QCOMPARE(risk.error(w, data), 0.25);
            QCOMPARE(fromScores(risk, w), 0.25);
            Dataset fewer = data;  // one feature less: the missing one counts as zero
            fewer.dense = data.dense.leftCols(1);
            QCOMPARE(risk.predict(w, fewer), Eigen::Vector4d(1, 1, -1, 1));
            Dataset more = data;
            more.setDimension(3);
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, risk.predict(w, more));
        }
        {
            const Risk risk(shared, RiskOptions{LossKind::EpsilonInsensitive, true});
            Eigen::VectorXd w(3);
            w << 2, 0, 0.5;  // scores 2.5, 0.5, −1.5, 0.5
            QCOMPARE(risk.predict(w, data), Eigen::Vector4d(2.5, 0.5, -1.5, 0.5));
            QCOMPARE(risk.error(w, data), (1.5 + 1.5 + 0.5 + 0.5) / 4);
            QCOMPARE(fromScores(risk, w), (1.5 + 1.5 + 0.5 + 0.5) / 4);
        }
        {
            // Multi-class on ±1 labels: classes 0/1, answers ±1.
            const Risk risk(shared, RiskOptions{LossKind::Multiclass});
            QCOMPARE(risk.outputs(), 2);
            QCOMPARE(risk.lossLabels(), Eigen::Vector4d(1, 0, 0, 1));
            Eigen::VectorXd w(4);  // W = [w₀ w₁], w₀ = (0, 1), w₁ = (1, 0)
            w << 0, 1, 1, 0;       // scores (0,1), (2,0), (−1,−1), (0,0)
            QCOMPARE(risk.predict(w, data), Eigen::Vector4d(1, -1, -1, -1));  // ties → class 0
            QCOMPARE(risk.error(w, data), 0.25);
            QCOMPARE(fromScores(risk, w), 0.25);
        }
        {
            Dataset three = data;
            three.labels << 2, 0, 1, 2;
            const Risk risk(std::make_shared<const Dataset>(three),
                            RiskOptions{LossKind::Multiclass});
            QCOMPARE(risk.outputs(), 3);
            QCOMPARE(risk.dimension(), Eigen::Index(6));
            Eigen::VectorXd w = Eigen::VectorXd::Zero(6);
            w[4] = 1;  // class 2 scores x₀
            QCOMPARE(risk.predict(w, three), Eigen::Vector4d(2, 0, 0, 0));
            QCOMPARE(fromScores(risk, w), 0.5);  // labels 2, 0, 1, 2: examples 2 and 3 wrong
        }
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            Risk(shared, RiskOptions{}).error(Eigen::VectorXd::Zero(2), Dataset{}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            Risk(shared, RiskOptions{}).errorFromScores(Eigen::MatrixXd(3, 1)));
    }

    // (e) Bad inputs and their messages.
    void badInputsThrow_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<QString>("labels");  // comma-separated, for a 6-example dataset
        QTest::addColumn<double>("epsilon");
        QTest::addColumn<int>("threads");
        QTest::addColumn<QString>("message");
        const int hinge = static_cast<int>(LossKind::Hinge);
        const int multi = static_cast<int>(LossKind::Multiclass);
        QTest::newRow("hinge label 2")
            << hinge << "1,-1,1,1,-1,2" << 0.1 << 1
            << "example 6 of 'six': the hinge loss needs labels -1/+1, found label 2";
        QTest::newRow("logistic label 0")
            << static_cast<int>(LossKind::Logistic) << "0,1,1,1,1,1" << 0.1 << 1
            << "example 1 of 'six': the logistic loss needs labels -1/+1, found label 0";
        QTest::newRow("squared hinge label 0.5")
            << static_cast<int>(LossKind::SquaredHinge) << "1,1,0.5,1,1,1" << 0.1 << 1
            << "example 3 of 'six': the squared hinge loss needs labels -1/+1, found label 0.5";
        QTest::newRow("multiclass negative")
            << multi << "0,1,2,-1,1,0" << 0.1 << 1
            << "example 4 of 'six': the multi-class loss needs class labels 0, 1, ..., K-1 (or "
               "-1/+1), found label -1";
        QTest::newRow("multiclass fraction")
            << multi << "0,1,2.5,1,1,0" << 0.1 << 1
            << "example 3 of 'six': the multi-class loss needs class labels 0, 1, ..., K-1 (or "
               "-1/+1), found label 2.5";
        QTest::newRow("multiclass huge")
            << multi << "0,1,1e9,1,1,0" << 0.1 << 1
            << "example 3 of 'six': the multi-class loss needs class labels 0, 1, ..., K-1 (or "
               "-1/+1), found label 1e+09 (at most 65536 classes)";
        QTest::newRow("hinge label 2, from a file")
            << hinge << "1,-1,1,1,-1,2@lines" << 0.1 << 1
            << "data/six.txt:12: the hinge loss needs labels -1/+1, found label 2";
        QTest::newRow("multiclass one class")
            << multi << "0,0,0,0,0,0" << 0.1 << 1
            << "Risk: the multi-class loss needs at least 2 classes, every label is 0";
        QTest::newRow("negative epsilon")
            << static_cast<int>(LossKind::EpsilonInsensitive) << "0,1,2,3,4,5" << -1.0 << 1
            << "RiskOptions::epsilon = -1: must be >= 0 and finite";
        QTest::newRow("negative threads") << hinge << "1,1,1,1,1,1" << 0.1 << -2
                                          << "RiskOptions::threads = -2: must be >= 0 (0: "
                                             "hardware concurrency)";
    }
    void badInputsThrow() {
        QFETCH(int, loss);
        QFETCH(QString, labels);
        QFETCH(double, epsilon);
        QFETCH(int, threads);
        QFETCH(QString, message);
        Dataset data;
        data.name = "six";
        data.dense = Dataset::DenseMatrix::Ones(6, 2);
        if (labels.endsWith("@lines")) {  // as read from a file with comments between rows
            labels.chop(6);
            data.source = "data/six.txt";
            data.lines = {2, 3, 5, 8, 9, 12};
        }
        const QStringList values = labels.split(',');
        data.labels.resize(values.size());
        for (int i = 0; i < values.size(); ++i)
            data.labels[i] = values[i].toDouble();
        QVERIFY(data.contractViolation().empty());
        try {
            Risk risk(std::make_shared<const Dataset>(data),
                      RiskOptions{static_cast<LossKind>(loss), false, epsilon, threads});
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()), message);
        }
    }

    void badDataAndSizesThrow() {
        const auto expectMessage = [](auto&& call, const QString& message) {
            try {
                call();
                QFAIL("no exception");
            } catch (const std::invalid_argument& e) {
                QCOMPARE(QString(e.what()), message);
            }
        };
        expectMessage([] { Risk(nullptr, RiskOptions{}); }, "Risk: no dataset");
        Dataset empty;
        empty.name = "nothing";
        expectMessage([&] { Risk(std::make_shared<const Dataset>(empty), RiskOptions{}); },
                      "Risk: the dataset 'nothing' is empty");
        Dataset broken;
        broken.name = "broken";
        broken.dense = Dataset::DenseMatrix::Ones(3, 2);
        broken.labels = Eigen::VectorXd::Ones(2);
        expectMessage([&] { Risk(std::make_shared<const Dataset>(broken), RiskOptions{}); },
                      "Risk: the dataset 'broken' breaks the Dataset contract: 2 labels for 3 "
                      "examples");

        Dataset six;
        six.dense = Dataset::DenseMatrix::Ones(6, 2);
        six.labels = Eigen::VectorXd::Ones(6);
        expectMessage(
            [&] {
                Risk(std::make_shared<const Dataset>(six),
                     RiskOptions{LossKind::Hinge, false, 0.1, 2, 0});
            },
            "RiskOptions::minWorkPerThread = 0: must be >= 1");

        const auto data = makeData("random", LossKind::Multiclass, true);
        const Risk risk(data, RiskOptions{LossKind::Multiclass, true});
        QCOMPARE(risk.outputs(), 4);
        QCOMPARE(risk.dimension(), Eigen::Index(18 * 4));
        Eigen::VectorXd g;
        expectMessage([&] { risk.evaluate(Eigen::VectorXd::Zero(5), &g); },
                      "Risk::evaluate: w has 5 entries, the risk's dimension is 72 (18 features "
                      "x 4 outputs)");
        Eigen::MatrixXd S;
        expectMessage([&] { risk.scores(Eigen::VectorXd::Zero(18), S); },
                      "Risk::scores: w has 18 entries, the risk's dimension is 72 (18 features "
                      "x 4 outputs)");
        expectMessage([&] { risk.loss(Eigen::MatrixXd::Zero(300, 3), nullptr); },
                      "Risk::loss: S is 300 x 3, expected 300 x 4");
        expectMessage([&] { risk.backProject(Eigen::MatrixXd::Zero(299, 4), g); },
                      "Risk::backProject: C is 299 x 4, expected 300 x 4");
    }

    // threads = 0 means the hardware's; with the default minWorkPerThread (2048) a hinge pass
    // over heart_scale (3,648 + 270 units of work) is too small to split, so any thread count
    // gives the 1-thread result bit for bit; a large set is split.
    void threadCountAndGrain() {
        const auto data = makeData("heart", LossKind::Hinge, true);
        QCOMPARE(RiskOptions{}.minWorkPerThread, 2048LL);
        const Risk one(data, RiskOptions{LossKind::Hinge, true, 0.1, 1});
        std::mt19937_64 rng(5);
        const Eigen::VectorXd w = randomPoint(one, rng);
        Eigen::VectorXd g1;
        const double R1 = one.evaluate(w, &g1);
        for (int threads : {0, 2, 3, 8}) {
            const Risk many(data, RiskOptions{LossKind::Hinge, true, 0.1, threads});
            Eigen::VectorXd g;
            QCOMPARE(many.evaluate(w, &g), R1);
            QVERIFY(g == g1);
        }
        // A large random set (40000 × 20 at 30 %: ≈ 280,000 units) is split; still within
        // the thread tolerance.
        Dataset big = randomFeatures(40000, 20, 0.3, 21);
        randomLabels(big, LossKind::Hinge, 22);
        big.setSparseStorage(true);
        const auto bigData = std::make_shared<const Dataset>(std::move(big));
        const Risk single(bigData, RiskOptions{LossKind::Hinge, true, 0.1, 1});
        const Risk dual(bigData, RiskOptions{LossKind::Hinge, true, 0.1, 2});
        const Eigen::VectorXd v = randomPoint(single, rng);
        const Reference ref = naiveRisk(*bigData, LossKind::Hinge, true, 0.1, v);
        Eigen::VectorXd gs, gd;
        const double Rs = single.evaluate(v, &gs);
        const double Rd = dual.evaluate(v, &gd);
        QVERIFY(std::abs(Rs - Rd) <= 1e-15 * Rs);
        QVERIFY(relativeDifference(gs, gd, ref.gAbs) <= kThreadTolerance);
        QVERIFY(maxAbs(gs - ref.g) <= 1e-12 * std::max(1.0, maxAbs(ref.g)));
    }
};

QTEST_APPLESS_MAIN(TestRisk)
#include "test_risk.moc"
