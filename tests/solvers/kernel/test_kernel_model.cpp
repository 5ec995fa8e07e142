// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel classifier and its model file (kernel_model.h): f against hand computations
// (two support vectors, every normalisation, feature-scoped and precomputed kernels) and
// against an independent dense evaluation on heart_scale; exact format → parse round trips;
// errors in the training file's label values; the 2-D decision grid; and every malformed
// model file under tests/data/kernel/bad_models refused with its file, line and reason.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "kernel/kernel_model.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

Dataset denseData(const std::vector<std::vector<double>>& rows, const std::vector<double>& labels) {
    Dataset data;
    data.name = data.source = "hand-made";
    data.dense.resize(static_cast<Eigen::Index>(rows.size()),
                      rows.empty() ? 0 : static_cast<Eigen::Index>(rows[0].size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (std::size_t j = 0; j < rows[i].size(); ++j)
            data.dense(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
    }
    data.labels =
        Eigen::Map<const Eigen::VectorXd>(labels.data(), static_cast<Eigen::Index>(labels.size()));
    return data;
}

std::vector<KernelSpec> specsOf(const std::string& text, int dimension) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(text, dimension, &specs, &why)) qFatal("%s", why.c_str());
    return specs;
}

// The model of tests/data/kernel/model_ok.model: SVs x₁ = (1, 0), x₂ = (0, 2) with
// c = (0.8, −0.5), b = 0.1, kernels gaussian:0.5 and poly:2,1 with β = (0.3, 0.7).
KernelClassifier twoSupportVectors(KernelNormalization normalization,
                                   std::vector<double> scales = {1.0, 1.0}) {
    KernelClassifier model;
    model.specs = specsOf("gaussian:0.5;poly:2,1", 2);
    model.normalization = normalization;
    model.scales = std::move(scales);
    model.beta = Eigen::Vector2d(0.3, 0.7);
    model.supportVectors = denseData({{1, 0}, {0, 2}}, {1, -1});
    model.serials = {0, 1};
    model.coefficients = Eigen::Vector2d(0.8, -0.5);
    model.bias = 0.1;
    model.classes = {0, 1};
    model.features = 2;
    return model;
}

// Bits, so that a changed last digit shows.
bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Empty when a and b are the same classifier (as the file records it), else what differs.
std::string difference(const KernelClassifier& a, const KernelClassifier& b) {
    if (a.specs.size() != b.specs.size()) return "kernel counts";
    for (std::size_t k = 0; k < a.specs.size(); ++k) {
        if (a.specs[k].label() != b.specs[k].label()) return "kernel " + a.specs[k].label();
    }
    if (a.normalization != b.normalization) return "normalisation";
    if (a.scales.size() != b.scales.size()) return "scale counts";
    for (std::size_t k = 0; k < a.scales.size(); ++k)
        if (!sameBits(a.scales[k], b.scales[k])) return "scale " + std::to_string(k);
    if (a.beta.size() != b.beta.size()) return "weight counts";
    for (Eigen::Index k = 0; k < a.beta.size(); ++k)
        if (!sameBits(a.beta(k), b.beta(k))) return "beta " + std::to_string(k);
    if (!sameBits(a.bias, b.bias)) return "bias";
    if (a.classes != b.classes) return "classes";
    if (a.features != b.features) return "features";
    if (a.coefficients.size() != b.coefficients.size()) return "coefficient counts";
    for (Eigen::Index j = 0; j < a.coefficients.size(); ++j)
        if (!sameBits(a.coefficients(j), b.coefficients(j)))
            return "coefficient " + std::to_string(j);
    const bool precomputed = a.specs[0].type == KernelType::Precomputed;
    if (precomputed) return a.serials == b.serials ? std::string() : "serials";
    if (a.supportVectors.size() != b.supportVectors.size()) return "support vector counts";
    if (a.supportVectors.dimension() != b.supportVectors.dimension()) return "sv dimension";
    for (int j = 0; j < a.supportVectors.size(); ++j) {
        const Eigen::VectorXd x = a.supportVectors.row(j), y = b.supportVectors.row(j);
        for (Eigen::Index c = 0; c < x.size(); ++c)
            if (!sameBits(x(c), y(c)) && !(x(c) == 0 && y(c) == 0))
                return "support vector " + std::to_string(j) + " feature " + std::to_string(c);
    }
    return {};
}

}  // namespace

class TestKernelModel : public QObject {
    Q_OBJECT

  private slots:
    // f(z) = b + Σₖ βₖ sₖ Σⱼ cⱼ K̃ₖ(xⱼ, z), written out by hand for z = (1, 1) and z = (−1, 0.5).
    void decisionOfTwoSupportVectors_data() {
        QTest::addColumn<int>("normalization");
        QTest::addColumn<double>("z1");
        QTest::addColumn<double>("z2");
        QTest::addColumn<double>("expected");
        // z = (1, 1): ‖x₁ − z‖² = 1, ‖x₂ − z‖² = 2; ⟨x₁, z⟩ = 1, ⟨x₂, z⟩ = 2.
        //   gaussian:0.5  e^{−0.5}, e^{−1};  poly:2,1  (1 + 1)² = 4, (2 + 1)² = 9.
        QTest::newRow("none, z=(1,1)")
            << static_cast<int>(KernelNormalization::None) << 1.0 << 1.0
            << 0.1 + 0.3 * (0.8 * std::exp(-0.5) - 0.5 * std::exp(-1.0)) +
                   0.7 * (0.8 * 4.0 - 0.5 * 9.0);
        // Diagonal: poly(x₁,x₁) = 4, poly(x₂,x₂) = 25, poly(z,z) = 9 → 4/6 and 9/15; the
        // Gaussian's diagonal is 1.
        QTest::newRow("diagonal, z=(1,1)")
            << static_cast<int>(KernelNormalization::Diagonal) << 1.0 << 1.0
            << 0.1 + 0.3 * (0.8 * std::exp(-0.5) - 0.5 * std::exp(-1.0)) +
                   0.7 * (0.8 * 4.0 / 6.0 - 0.5 * 9.0 / 15.0);
        // Trace with scales (1, 0.25): the polynomial's values times 0.25.
        QTest::newRow("trace, z=(1,1)")
            << static_cast<int>(KernelNormalization::Trace) << 1.0 << 1.0
            << 0.1 + 0.3 * (0.8 * std::exp(-0.5) - 0.5 * std::exp(-1.0)) +
                   0.7 * 0.25 * (0.8 * 4.0 - 0.5 * 9.0);
        // z = (−1, 0.5): ‖x₁ − z‖² = 4.25, ‖x₂ − z‖² = 3.25; ⟨x₁, z⟩ = −1, ⟨x₂, z⟩ = 1;
        // poly: 0, 4; poly(z, z) = (1.25 + 1)² = 5.0625.
        QTest::newRow("none, z=(-1,0.5)")
            << static_cast<int>(KernelNormalization::None) << -1.0 << 0.5
            << 0.1 + 0.3 * (0.8 * std::exp(-2.125) - 0.5 * std::exp(-1.625)) +
                   0.7 * (0.8 * 0.0 - 0.5 * 4.0);
        QTest::newRow("diagonal, z=(-1,0.5)")
            << static_cast<int>(KernelNormalization::Diagonal) << -1.0 << 0.5
            << 0.1 + 0.3 * (0.8 * std::exp(-2.125) - 0.5 * std::exp(-1.625)) +
                   0.7 * (0.0 - 0.5 * 4.0 / std::sqrt(25.0 * 5.0625));
    }
    void decisionOfTwoSupportVectors() {
        QFETCH(int, normalization);
        QFETCH(double, z1);
        QFETCH(double, z2);
        QFETCH(double, expected);
        const auto norm = static_cast<KernelNormalization>(normalization);
        const KernelClassifier model = twoSupportVectors(norm, norm == KernelNormalization::Trace
                                                                   ? std::vector<double>{1.0, 0.25}
                                                                   : std::vector<double>{1.0, 1.0});
        const Dataset z = denseData({{z1, z2}}, {1});
        const double f = model.decision(z, 0);
        QVERIFY2(
            std::abs(f - expected) <= 1e-13 * (1 + std::abs(expected)),
            qPrintable(QString("f = %1, by hand %2").arg(f, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        QCOMPARE(model.decisions(z)(0), f);
        // The same numbers through the model file's parser.
        const KernelClassifier back = parseKernelModel(formatKernelModel(model), "twice");
        QCOMPARE(back.decision(z, 0), f);
    }

    // The fixture model_ok.model is this model with the trace scales (1, 0.25).
    void fixtureIsTheHandModel() {
        const std::string path = kData + "/kernel/model_ok.model";
        const KernelClassifier model = parseKernelModel(readBytes(path), path);
        const KernelClassifier hand = twoSupportVectors(KernelNormalization::Trace, {1.0, 0.25});
        QCOMPARE(QString::fromStdString(difference(model, hand)), QString());
        const Dataset z = denseData({{1, 1}}, {1});
        const double expected = 0.1 + 0.3 * (0.8 * std::exp(-0.5) - 0.5 * std::exp(-1.0)) +
                                0.7 * 0.25 * (0.8 * 4.0 - 0.5 * 9.0);
        QVERIFY(std::abs(model.decision(z, 0) - expected) < 1e-13);
    }

    // Kernels on single features: K₁(x, z) = e^{−(x₁−z₁)²}, K₂(x, z) = e^{−(x₂−z₂)²}.
    void featureScopedKernels() {
        KernelClassifier model = twoSupportVectors(KernelNormalization::None);
        model.specs = specsOf("gaussian:1@each_feature", 2);
        QCOMPARE(model.specs.size(), std::size_t(2));
        model.beta = Eigen::Vector2d(0.25, 0.75);
        const Dataset z = denseData({{0.5, 1.5}}, {1});
        // x₁ = (1, 0): (x₁−z₁)² = 0.25, (x₂−z₂)² = 2.25; x₂ = (0, 2): 0.25, 0.25.
        const double expected = 0.1 + 0.25 * (0.8 * std::exp(-0.25) - 0.5 * std::exp(-0.25)) +
                                0.75 * (0.8 * std::exp(-2.25) - 0.5 * std::exp(-0.25));
        QVERIFY(std::abs(model.decision(z, 0) - expected) < 1e-14);
    }

    // A precomputed kernel reads K(z, x_serial) from the test row; trace multiplies by s.
    void precomputedKernel() {
        KernelClassifier model;
        model.specs = specsOf("precomputed", 3);
        model.normalization = KernelNormalization::Trace;
        model.scales = {2.0};
        model.beta = Eigen::VectorXd::Ones(1);
        model.serials = {0, 2};
        model.coefficients = Eigen::Vector2d(1.5, -2.0);
        model.bias = 0.3;
        model.classes = {-1, 1};
        model.features = 3;
        const Dataset rows = denseData({{0.2, 0.5, -0.1}, {1.0, -1.0, 0.4}}, {1, -1});
        const Eigen::VectorXd f = model.decisions(rows);
        QVERIFY(std::abs(f(0) - (0.3 + 2.0 * (1.5 * 0.2 - 2.0 * -0.1))) < 1e-15);
        QVERIFY(std::abs(f(1) - (0.3 + 2.0 * (1.5 * 1.0 - 2.0 * 0.4))) < 1e-15);
        // f = (1.3, 1.7): both predicted +1, the second is labelled −1.
        QCOMPARE(model.error(rows), 0.5);
        // The fixture is this model; its rows must have one column per training example.
        const std::string path = kData + "/kernel/model_precomputed_ok.model";
        const KernelClassifier back = parseKernelModel(readBytes(path), path);
        QCOMPARE(QString::fromStdString(difference(back, model)), QString());
        const Dataset wide = denseData({{0.2, 0.5, -0.1, 1.0}}, {1});
        QVERIFY_THROWS_EXCEPTION(DataError, model.decisions(wide));
    }

    // Against an independent dense evaluation on a real sparse file: ten support vectors of
    // heart_scale, three kernels, every normalisation, all 270 examples.
    void heartScaleAgainstDenseEvaluation_data() {
        QTest::addColumn<int>("normalization");
        QTest::newRow("none") << static_cast<int>(KernelNormalization::None);
        QTest::newRow("diagonal") << static_cast<int>(KernelNormalization::Diagonal);
        QTest::newRow("trace") << static_cast<int>(KernelNormalization::Trace);
    }
    void heartScaleAgainstDenseEvaluation() {
        QFETCH(int, normalization);
        const auto norm = static_cast<KernelNormalization>(normalization);
        const Dataset data = loadLibsvm(kData + "/heart_scale");
        QVERIFY(data.sparseStorage);
        std::vector<int> rows;
        for (int j = 0; j < 10; ++j)
            rows.push_back(7 * j + 3);
        KernelClassifier model;
        model.specs = specsOf("gaussian:0.1;poly:3,0.5;linear@1-4", data.dimension());
        model.normalization = norm;
        model.scales = norm == KernelNormalization::Trace ? std::vector<double>{1.0, 0.125, 0.5}
                                                          : std::vector<double>{1.0, 1.0, 1.0};
        model.beta = Eigen::Vector3d(0.5, 0.2, 0.3);
        model.supportVectors = data.subset(rows);
        model.serials = rows;
        model.coefficients.resize(10);
        for (int j = 0; j < 10; ++j)
            model.coefficients(j) = (j % 2 ? -1.0 : 1.0) * (0.1 + 0.07 * j);
        model.bias = -0.2;
        model.classes = {-1, 1};
        model.features = data.dimension();

        // The kernels by hand on dense vectors.
        const Eigen::MatrixXd X = Eigen::MatrixXd(data.sparse);
        auto raw = [](int k, const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
            if (k == 0) return std::exp(-0.1 * (a - b).squaredNorm());
            if (k == 1) return std::pow(a.dot(b) + 0.5, 3);
            return a.head(4).dot(b.head(4));
        };
        const Eigen::VectorXd f = model.decisions(data);
        double worst = 0.0;
        long long wrong = 0;
        for (int i = 0; i < data.size(); ++i) {
            const Eigen::VectorXd z = X.row(i).transpose();
            double expected = model.bias;
            for (int k = 0; k < 3; ++k) {
                double sum = 0.0;
                for (int j = 0; j < 10; ++j) {
                    const Eigen::VectorXd x = X.row(rows[static_cast<std::size_t>(j)]).transpose();
                    double value = raw(k, x, z);
                    if (norm == KernelNormalization::Diagonal) {
                        const double d = std::sqrt(raw(k, x, x) * raw(k, z, z));
                        value = d > 0 ? value / d : 0.0;
                    }
                    sum += model.coefficients(j) * value;
                }
                if (norm == KernelNormalization::Trace)
                    sum *= model.scales[static_cast<std::size_t>(k)];
                expected += model.beta(k) * sum;
            }
            worst = std::max(worst, std::abs(f(i) - expected) / (1 + std::abs(expected)));
            wrong += (expected > 0 ? 1.0 : -1.0) != data.labels(i);
        }
        QVERIFY2(worst < 1e-12, qPrintable(QString("largest relative difference %1").arg(worst)));
        QCOMPARE(model.error(data), static_cast<double>(wrong) / data.size());
        // Round trip of a sparse model with real numbers: the same decisions, bit for bit.
        const KernelClassifier back = parseKernelModel(formatKernelModel(model), "heart");
        QCOMPARE(QString::fromStdString(difference(back, model)), QString());
        const Eigen::VectorXd g = back.decisions(data);
        for (int i = 0; i < data.size(); ++i)
            QVERIFY(sameBits(f(i), g(i)));
    }

    // format → parse gives the same model, and formatting it again the same text.
    void roundTrip_data() {
        QTest::addColumn<QString>("kernels");
        QTest::addColumn<int>("normalization");
        QTest::newRow("one gaussian")
            << "gaussian:0.5" << static_cast<int>(KernelNormalization::None);
        QTest::newRow("mixed, trace")
            << "gaussian:0.1,1,10;poly:2;linear" << static_cast<int>(KernelNormalization::Trace);
        QTest::newRow("scoped, diagonal") << "gaussian:0.333@each_feature;poly:3,0@1-2;linear@3"
                                          << static_cast<int>(KernelNormalization::Diagonal);
        QTest::newRow("precomputed")
            << "precomputed" << static_cast<int>(KernelNormalization::Trace);
    }
    void roundTrip() {
        QFETCH(QString, kernels);
        QFETCH(int, normalization);
        KernelClassifier model;
        const bool precomputed = kernels == "precomputed";
        model.features = precomputed ? 6 : 3;
        model.specs = specsOf(kernels.toStdString(), model.features);
        model.normalization = static_cast<KernelNormalization>(normalization);
        const auto k = static_cast<Eigen::Index>(model.specs.size());
        model.beta.resize(k);
        for (Eigen::Index i = 0; i < k; ++i) {
            model.scales.push_back(1.0 / (3.0 + i));
            model.beta(i) = i == 1 ? 0.0 : (0.1 + 0.2) / (i + 1.0);  // one weight exactly 0
        }
        model.bias = -1e-300 + 1.0 / 7.0;
        model.classes = {-3.5, 12};
        model.coefficients = Eigen::Vector3d(1.0 / 3.0, -2.5e7, 3e-300);
        model.serials = {5, 0, 2};
        if (!precomputed)
            model.supportVectors =
                denseData({{0.1, 0, -7}, {0, 0, 0}, {1e-20, 2, 0.3}}, {1, -1, 1});
        const std::string text = formatKernelModel(model);
        QVERIFY(text.rfind("# cplab kernel model\n", 0) == 0);
        const KernelClassifier back = parseKernelModel(text, "round trip");
        QCOMPARE(QString::fromStdString(difference(back, model)), QString());
        QCOMPARE(QString::fromStdString(formatKernelModel(back)), QString::fromStdString(text));
    }

    // Labels in the training file's values; data already mapped to ±1 by makeBinaryLabels
    // (which records the old values) count too; other labels are an error naming the data.
    void errorInTheTrainingFilesLabels() {
        const KernelClassifier model = twoSupportVectors(KernelNormalization::None);
        // f(1, 1) ≈ −0.72, f(x₁) > 0, f(x₂) < 0: predictions 0, 1, 0 against labels 0, 1, 1.
        Dataset data = denseData({{1, 1}, {1, 0}, {0, 2}}, {0, 1, 1});
        const Eigen::VectorXd f = model.decisions(data);
        QVERIFY(f(0) < 0 && f(1) > 0 && f(2) < 0);
        QCOMPARE(model.error(data), 1.0 / 3.0);
        Dataset mapped = data;
        mapped.makeBinaryLabels();
        QCOMPARE(mapped.labels(0), -1.0);
        QCOMPARE(model.error(mapped), 1.0 / 3.0);
        Dataset foreign = data;
        foreign.source = "foreign.txt";
        foreign.labels(2) = 2;
        try {
            model.error(foreign);
            QFAIL("a label outside the model's classes was accepted");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString("foreign.txt"));
            QVERIFY2(std::string(e.what()).find("example 3 has label 2") != std::string::npos,
                     e.what());
        }
    }

    // Test data with fewer features are padded with zeros; more features are an error.
    void dataDimension() {
        const KernelClassifier model = twoSupportVectors(KernelNormalization::Diagonal);
        const Dataset narrow = denseData({{1}, {-2}}, {0, 1});
        const Dataset padded = denseData({{1, 0}, {-2, 0}}, {0, 1});
        const Eigen::VectorXd a = model.decisions(narrow), b = model.decisions(padded);
        QCOMPARE(a(0), b(0));
        QCOMPARE(a(1), b(1));
        const Dataset wide = denseData({{1, 0, 3}}, {0});
        QVERIFY_THROWS_EXCEPTION(DataError, model.decisions(wide));
    }

    // The grid spans the data's box padded by 5 % and holds f row by row.
    void decisionGridLayout() {
        const KernelClassifier model = twoSupportVectors(KernelNormalization::None);
        const Dataset data = denseData({{0, 0}, {1, 2}, {0.5, -2}}, {0, 1, 1});
        const int n = 7;
        const DecisionGrid grid = decisionGrid(model, data, n);
        QCOMPARE(grid.n, n);
        QCOMPARE(grid.values.size(), std::size_t(n * n));
        QVERIFY(std::abs(grid.x0 - -0.05) < 1e-15 && std::abs(grid.x1 - 1.05) < 1e-15);
        QVERIFY(std::abs(grid.y0 - -2.2) < 1e-15 && std::abs(grid.y1 - 2.2) < 1e-15);
        for (int iy = 0; iy < n; ++iy) {
            for (int ix = 0; ix < n; ++ix) {
                const double x = grid.x0 + ix * (grid.x1 - grid.x0) / (n - 1);
                const double y = grid.y0 + iy * (grid.y1 - grid.y0) / (n - 1);
                const double f = model.decision(denseData({{x, y}}, {0}), 0);
                QVERIFY(std::abs(grid.values[static_cast<std::size_t>(iy * n + ix)] - f) < 1e-14);
            }
        }
        const Dataset line = denseData({{1, 2, 3}}, {0});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decisionGrid(model, line, n));
    }

    // A model whose parts do not agree is refused, not read past its arrays.
    void inconsistentModelIsRefused() {
        KernelClassifier model = twoSupportVectors(KernelNormalization::None);
        model.coefficients = Eigen::VectorXd::Ones(3);
        const Dataset z = denseData({{1, 1}}, {1});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.decisions(z));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatKernelModel(model));
        model = twoSupportVectors(KernelNormalization::None);
        model.beta = Eigen::VectorXd::Ones(1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.decisions(z));
    }

    // Each bad file: DataError with the file, the line at fault and what was expected.
    void badModelsAreRefused_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        auto row = [](const char* file, int line, const char* message) {
            QTest::newRow(file) << QString(file) << line << QString(message);
        };
        row("unknown_key", 6, "unknown key 'bias_term'; expected kernels");
        row("duplicate_key", 6, "key 'beta' given twice (first on line 5)");
        row("beta_not_number", 5, "kernel weight 'x' is not a number");
        row("beta_negative", 5, "kernel weight '-0.7' must be >= 0");
        row("beta_count", 5, "expected 2 kernel weights");
        row("scales_count", 4, "expected 2 scales (one per kernel), found 1");
        row("trace_without_scales", 3, "normalize trace needs a 'scales' line");
        row("unknown_kernel", 2, "kernels: unknown kernel 'rbf'");
        row("gamma_zero", 2, "kernels: kernel 'gaussian:0'");
        row("features_fraction", 8, "features '2.5' must be an integer in [1, ");
        row("features_huge", 8, "features '1e40' must be an integer in [1, ");
        row("classes_one", 7, "expected two class values, the smaller first");
        row("classes_reversed", 7, "expected two class values, the smaller first");
        row("too_few_svs", 11, "support_vectors 3 (line 9) announced, found 2");
        row("too_many_svs", 11, "more support vector lines than support_vectors 1");
        row("sv_count_negative", 9, "support_vectors '-1' must be an integer in [0, ");
        row("index_beyond", 11, "feature index 3 outside 1..2");
        row("index_zero", 10, "feature index 0 outside 1..2");
        row("index_order", 10, "feature index 1 after index 2; indices must increase");
        row("token_without_colon", 10, "feature '1=1' is not index:value");
        row("coefficient_nan", 11, "support vector coefficient 'nan' is not finite");
        row("value_not_number", 11, "feature value 'two' is not a number");
        row("missing_bias", 10, "incomplete model: no 'bias' line");
        row("normalize_unknown", 3, "expected none, diagonal or trace");
        row("empty", 0, "incomplete model: no 'kernels' line");
        row("precomputed_serial", 11, "serial 4 must be an integer in [1, 3]");
        row("precomputed_diagonal", 3, "a precomputed kernel cannot use normalize diagonal");
        row("precomputed_two_tokens", 10, "is 'coefficient 0:serial'");
    }
    void badModelsAreRefused() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, message);
        const std::string path = kData + "/kernel/bad_models/" + file.toStdString() + ".model";
        const std::string text = readBytes(path);
        QVERIFY2(!text.empty() || file == "empty", "fixture missing");
        try {
            parseKernelModel(text, path);
            QFAIL("the bad model was accepted");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
            QVERIFY2(QString::fromStdString(e.detail()).contains(message), e.what());
            QVERIFY2(e.line() == line, e.what());
        }
    }

    // Mutations of a good model file never crash the reader: each one parses (and then
    // evaluates a 2-D point, or refuses it) or throws DataError.
    void mutatedModelsNeverCrash() {
        QFile file(QStringLiteral(CPLAB_TEST_DATA_DIR) + "/kernel/model_ok.model");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::string good = file.readAll().toStdString();
        Dataset point;
        point.dense = Dataset::DenseMatrix::Constant(1, 2, 0.5);
        point.labels = Eigen::VectorXd::Ones(1);
        std::uint64_t state = 7;
        auto next = [&state] {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<unsigned>(state >> 33);
        };
        const std::string alphabet = "0123456789-.:e ,;\n#abgpx@";
        int parsed = 0;
        for (int trial = 0; trial < 2000; ++trial) {
            std::string text = good;
            for (int edits = 1 + next() % 4; edits > 0; --edits) {
                const std::size_t at = next() % text.size();
                switch (next() % 3) {
                    case 0:
                        text[at] = alphabet[next() % alphabet.size()];
                        break;
                    case 1:
                        text.erase(at, 1 + next() % 8);
                        break;
                    default:
                        text.insert(at, 1, alphabet[next() % alphabet.size()]);
                }
                if (text.empty()) text = "x";
            }
            try {
                const KernelClassifier model = parseKernelModel(text, "fuzz");
                ++parsed;
                try {
                    static_cast<void>(model.decision(point, 0));
                } catch (const std::exception&) {
                }
            } catch (const DataError&) {
            }
        }
        QVERIFY(parsed > 0);  // some mutations keep a valid model
    }
};

QTEST_MAIN(TestKernelModel)
#include "test_kernel_model.moc"
