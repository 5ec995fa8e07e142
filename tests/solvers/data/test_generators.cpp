// SPDX-License-Identifier: GPL-3.0-or-later
// Built-in generators and PortableRandom: shapes and labels, determinism (same seed → same
// bits, other seed → other data), bit-exact golden values that any platform must reproduce,
// and statistical checks that each set looks like its description.
#include <Eigen/QR>
#include <QtTest>
#include <cmath>
#include <numbers>

#include "data/generators.h"
#include "data/portable_random.h"

using namespace cplab;

namespace {

bool isRegression(const std::string& name) {
    return name == "sinc_1d" || name == "plane_2d";
}

bool identical(const Dataset& a, const Dataset& b) {
    return a.dense.rows() == b.dense.rows() && a.dense.cols() == b.dense.cols() &&
           std::memcmp(a.dense.data(), b.dense.data(), sizeof(double) * a.dense.size()) == 0 &&
           std::memcmp(a.labels.data(), b.labels.data(), sizeof(double) * a.labels.size()) == 0;
}

}  // namespace

class TestGenerators : public QObject {
    Q_OBJECT

  private slots:
    void everyGenerator_data() {
        QTest::addColumn<QString>("name");
        for (const std::string& name : generatorNames()) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        }
    }
    void everyGenerator() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const Dataset data = generate(n, 200, 7);
        QVERIFY2(data.contractViolation().empty(), data.contractViolation().c_str());
        QVERIFY(!data.sparseStorage);
        QCOMPARE(data.size(), 200);
        QCOMPARE(data.dimension(), n == "sinc_1d" ? 1 : 2);
        QCOMPARE(data.featureNames[0], std::string("x1"));
        QCOMPARE(data.name, n);
        QCOMPARE(data.source, "generator:" + n + "?m=200&seed=7");
        QVERIFY(!generatorDescription(n).empty());
        if (!isRegression(n)) {
            QCOMPARE(data.classes(), (std::vector<double>{-1, 1}));
            const auto positives = (data.labels.array() > 0).count();
            QVERIFY(positives >= 70 && positives <= 130);
        }
        QVERIFY(identical(data, generate(n, 200, 7)));   // same seed, same bits
        QVERIFY(!identical(data, generate(n, 200, 8)));  // other seed, other data
        QVERIFY(identical(data.subset({0, 1, 2, 3, 4}), generate(n, 5, 7)));  // prefix-stable
    }

    // Bit-exact first examples for seed 2024. std::mt19937_64 is fully specified and every
    // transform is IEEE-exact, so these hold on every platform and compiler.
    void goldenValues_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("x1");
        QTest::addColumn<double>("x2");
        QTest::addColumn<double>("y");
        QTest::newRow("two_blobs")
            << "two_blobs" << 2.2524046233613362 << 3.0352922154470816 << 1.0;
        QTest::newRow("overlapping_blobs")
            << "overlapping_blobs" << 1.0149677562848778 << 1.7978553483706237 << 1.0;
        QTest::newRow("xor") << "xor" << 1.7423188351974837 << 2.1337626312403564 << 1.0;
        QTest::newRow("checkerboard")
            << "checkerboard" << 0.45073818105410002 << 1.1788642653078631 << -1.0;
        QTest::newRow("rings") << "rings" << 0.27023212432232058 << 0.70676727220403701 << 1.0;
        QTest::newRow("sinc_1d") << "sinc_1d" << 0.67610727158115003 << 0.0 << 0.48393085599451491;
        QTest::newRow("plane_2d") << "plane_2d" << 0.45073818105410002 << 1.1788642653078631
                                  << 0.47927938040290513;
    }
    void goldenValues() {
        QFETCH(QString, name);
        QFETCH(double, x1);
        QFETCH(double, x2);
        QFETCH(double, y);
        const Dataset data = generate(name.toStdString(), 3, 2024);
        QVERIFY(data.dense(0, 0) == x1);
        if (data.dimension() > 1) QVERIFY(data.dense(0, 1) == x2);
        QVERIFY(data.labels[0] == y);
    }

    void blobsSeparation() {
        // Class means sit at ±(s/2)(1,1)/√2: their distance is s (here 5 and 1.5).
        for (const auto& [name, separation] :
             {std::pair<std::string, double>{"two_blobs", 5.0}, {"overlapping_blobs", 1.5}}) {
            const Dataset data = generate(name, 20000, 3);
            Eigen::Vector2d mean[2] = {Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero()};
            for (int i = 0; i < data.size(); ++i) {
                mean[data.labels[i] > 0 ? 1 : 0] += data.row(i) / 10000.0;
            }
            QVERIFY(std::abs((mean[1] - mean[0]).norm() - separation) < 0.05);
            QVERIFY(std::abs(mean[1][0] - mean[1][1]) < 0.05);  // on the diagonal
        }
        QVERIFY(identical(gaussianBlobs(50, 5.0, 9), generate("two_blobs", 50, 9)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gaussianBlobs(10, -1.0, 1));
    }

    void labelsFollowTheGeometry() {
        const Dataset board = generate("checkerboard", 2000, 5);
        for (int i = 0; i < board.size(); ++i) {
            const double x1 = board.dense(i, 0);
            const double x2 = board.dense(i, 1);
            QVERIFY(x1 >= -2 && x1 < 2 && x2 >= -2 && x2 < 2);
            const bool even = static_cast<long>(std::floor(x1) + std::floor(x2)) % 2 == 0;
            QCOMPARE(board.labels[i], even ? 1.0 : -1.0);
        }
        const Dataset xorSet = generate("xor", 2000, 5);
        int agree = 0;  // clusters (σ = 0.5) at distance 1.5 from the axes: ~99.7 % agree
        for (int i = 0; i < xorSet.size(); ++i) {
            agree += (xorSet.dense(i, 0) * xorSet.dense(i, 1) > 0) == (xorSet.labels[i] > 0);
        }
        QVERIFY(agree > 1960);
        const Dataset ringSet = generate("rings", 4000, 5);
        double radius[2] = {0, 0};
        for (int i = 0; i < ringSet.size(); ++i) {
            radius[ringSet.labels[i] > 0 ? 1 : 0] += ringSet.row(i).norm() / 2000.0;
        }
        QVERIFY(std::abs(radius[1] - 1.0) < 0.02);
        QVERIFY(std::abs(radius[0] - 2.5) < 0.02);
    }

    void regressionTargets() {
        const Dataset sinc = generate("sinc_1d", 20000, 11);
        double sumSquares = 0;
        for (int i = 0; i < sinc.size(); ++i) {
            const double x = sinc.dense(i, 0);
            QVERIFY(x >= -3 && x < 3);
            const double f = x == 0 ? 1 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x);
            sumSquares += std::pow(sinc.labels[i] - f, 2);
        }
        QVERIFY(std::abs(std::sqrt(sumSquares / sinc.size()) - 0.1) < 0.005);  // noise σ = 0.1

        // Least squares on plane_2d recovers y = 1 + 2·x1 − x2.
        const Dataset plane = generate("plane_2d", 20000, 11);
        Eigen::MatrixXd design(plane.size(), 3);
        design.col(0).setOnes();
        design.rightCols(2) = plane.dense;
        const Eigen::Vector3d beta = design.colPivHouseholderQr().solve(plane.labels);
        QVERIFY((beta - Eigen::Vector3d(1, 2, -1)).norm() < 0.02);
    }

    void badArguments() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generate("spirals", 10, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generate("rings", 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generatorDescription("nope"));
        try {
            generate("spirals", 10, 1);
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("two_blobs") != std::string::npos);  // lists names
        }
    }

    void portableRandomDistributions() {
        PortableRandom random(99);
        constexpr int kDraws = 200000;
        double sum = 0;
        double sumSquares = 0;
        double uniformSum = 0;
        int counts[7] = {};
        for (int k = 0; k < kDraws; ++k) {
            const double z = random.normal();
            sum += z;
            sumSquares += z * z;
            const double u = random.uniform();
            QVERIFY(u >= 0 && u < 1);
            uniformSum += u;
            ++counts[random.below(7)];
            const auto [c, s] = random.unitCircle();
            QVERIFY(std::abs(c * c + s * s - 1) < 1e-15);
        }
        QVERIFY(std::abs(sum / kDraws) < 0.01);
        QVERIFY(std::abs(sumSquares / kDraws - 1) < 0.01);
        QVERIFY(std::abs(uniformSum / kDraws - 0.5) < 0.005);
        for (int count : counts)
            QVERIFY(std::abs(count - kDraws / 7.0) < 600);
        QCOMPARE(PortableRandom(5).below(1), std::uint64_t(0));
    }

    void portableFunctionsMatchLibm() {
        PortableRandom random(1);
        for (int k = 0; k < 100000; ++k) {
            const double x =
                std::ldexp(random.uniform() + 0.5, static_cast<int>(random.below(80)) - 60);
            QVERIFY2(std::abs(portableLog(x) - std::log(x)) <=
                         4e-16 * std::max(1.0, std::abs(std::log(x))),
                     qPrintable(QString::number(x, 'g', 17)));
            const double t = random.uniform(-20.0, 20.0);
            QVERIFY2(std::abs(portableSin(t) - std::sin(t)) <= 2e-15,
                     qPrintable(QString::number(t, 'g', 17)));
        }
        QCOMPARE(portableLog(1.0), 0.0);
        QCOMPARE(portableSin(0.0), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestGenerators)
#include "test_generators.moc"
