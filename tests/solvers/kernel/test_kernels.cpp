// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels (solvers/kernel/kernel_spec.h, kernel_set.h, precomputed.h): the kernel-list grammar
// (good lists with their kernels, bad ones with their messages, labels that parse back to the
// same spec); kernel values against closed forms on hand-made vectors in dense, sparse and
// mixed storage; the normalisations (diagonal → unit diagonal, trace → mean diagonal 1,
// Gaussian unchanged) and cross values; the LRU cache against the whole matrices on a1a with
// its memory within the budget; composite Q rows against their definition; the precomputed
// loader on good and bad files (file:line in every message) and on a kernel written from a
// real dataset.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <memory>

#include "core/number_text.h"
#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "data/precomputed_format.h"
#include "kernel/kernel_set.h"
#include "kernel/kernel_spec.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;
const std::string kPrecomputed = kData + "/kernel/precomputed/";

std::vector<KernelSpec> kernelList(const std::string& text, int dimension) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(text, dimension, &specs, &why)) qFatal("bad kernel list: %s", why.c_str());
    return specs;
}

std::shared_ptr<const Dataset> load(const std::string& path) {
    Dataset data = loadLibsvm(path);
    data.makeBinaryLabels();
    return std::make_shared<Dataset>(std::move(data));
}

// Two datasets holding the same two examples x = (1, 2, 0), z = (0, 1, 3): dense and sparse.
Dataset pair(bool sparse) {
    Dataset data;
    data.name = data.source = sparse ? "pair (sparse)" : "pair (dense)";
    data.dense.resize(2, 3);
    data.dense << 1, 2, 0, 0, 1, 3;
    data.labels.resize(2);
    data.labels << 1, -1;
    data.setSparseStorage(sparse);
    return data;
}

bool sameSpec(const KernelSpec& a, const KernelSpec& b) {
    return a.type == b.type && a.degree == b.degree && a.offset == b.offset && a.gamma == b.gamma &&
           a.features == b.features;
}

QString dataErrorOf(const std::string& path, int columns = 0) {
    try {
        loadPrecomputedKernel(path, columns);
    } catch (const DataError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT

  private slots:
    void grammarAcceptsGoodLists_data();
    void grammarAcceptsGoodLists();
    void grammarRejectsBadLists_data();
    void grammarRejectsBadLists();
    void normalizationNames();
    void valuesMatchClosedForms_data();
    void valuesMatchClosedForms();
    void normalizations_data();
    void normalizations();
    void lruMatchesWholeMatrices();
    void compositeRows();
    void kernelSetRejects();
    void precomputedGoodFile();
    void precomputedBadFiles_data();
    void precomputedBadFiles();
    void precomputedFromRealData();
    void precomputedNotAKernel_data();
    void precomputedNotAKernel();
};

void TestKernels::grammarAcceptsGoodLists_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dimension");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("labels");  // all labels joined by ';' (or the first … last)

    QTest::newRow("linear") << "linear" << 34 << 1 << "linear";
    QTest::newRow("paper's list") << "gaussian:0.1,1,10;poly:2;linear" << 34 << 5
                                  << "gaussian:0.1;gaussian:1;gaussian:10;poly:2,1;linear";
    QTest::newRow("poly with offset") << "poly:3,0.5" << 10 << 1 << "poly:3,0.5";
    QTest::newRow("spaces") << "  poly : 3 , 0 @ 1-4 , 7 ;  gaussian: 2 " << 10 << 2
                            << "poly:3,0@1-4,7;gaussian:2";
    QTest::newRow("each feature") << "gaussian:1@each_feature" << 34 << 34
                                  << "gaussian:1@1 … gaussian:1@34";
    QTest::newRow("each feature, two gammas")
        << "gaussian:1,2@each_feature" << 3 << 6 << "gaussian:1@1 … gaussian:2@3";
    QTest::newRow("scope all") << "gaussian:2@all" << 5 << 1 << "gaussian:2";
    QTest::newRow("groups") << "linear@1-2;linear@3;linear@4,2" << 4 << 3
                            << "linear@1-2;linear@3;linear@2,4";
    QTest::newRow("overlapping groups") << "linear@1-3,2-4" << 4 << 1 << "linear@1-4";
    QTest::newRow("number forms") << "gaussian:1e-3,.5;poly:2,2.50" << 3 << 3
                                  << "gaussian:0.001;gaussian:0.5;poly:2,2.5";
    QTest::newRow("small and large") << "gaussian:0.00001,250000;poly:7,1e6" << 3 << 3
                                     << "gaussian:1e-05;gaussian:250000;poly:7,1e+06";
    QTest::newRow("precomputed") << "precomputed" << 100 << 1 << "precomputed";
}

void TestKernels::grammarAcceptsGoodLists() {
    QFETCH(QString, text);
    QFETCH(int, dimension);
    QFETCH(int, count);
    QFETCH(QString, labels);
    std::vector<KernelSpec> specs;
    std::string why;
    QVERIFY2(parseKernelList(text.toStdString(), dimension, &specs, &why), why.c_str());
    QCOMPARE(int(specs.size()), count);
    QStringList got;
    for (const KernelSpec& spec : specs)
        got << QString::fromStdString(spec.label());
    if (labels.contains(" … ")) {
        const QStringList ends = labels.split(" … ");
        QCOMPARE(got.front(), ends[0]);
        QCOMPARE(got.back(), ends[1]);
    } else {
        QCOMPARE(got.join(';'), labels);
    }
    // Every label parses back to the same spec.
    for (const KernelSpec& spec : specs) {
        std::vector<KernelSpec> back;
        QVERIFY2(parseKernelList(spec.label(), dimension, &back, &why), why.c_str());
        QCOMPARE(int(back.size()), 1);
        QVERIFY2(sameSpec(back[0], spec), spec.label().c_str());
    }
}

void TestKernels::grammarRejectsBadLists_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dimension");
    QTest::addColumn<QString>("message");

    QTest::newRow("empty") << "" << 34 << "empty kernel list";
    QTest::newRow("blank") << "   " << 34 << "empty kernel list";
    QTest::newRow("unknown word")
        << "rbf" << 34
        << "unknown kernel 'rbf' (expected linear, poly:d[,c], gaussian:γ[,γ…] or precomputed)";
    QTest::newRow("negative gamma")
        << "gaussian:-1" << 34 << "kernel 'gaussian:-1': gamma must be > 0";
    QTest::newRow("zero gamma") << "linear;gaussian:1,0" << 34
                                << "kernel 'gaussian:1,0': gamma must be > 0";
    QTest::newRow("gamma not a number") << "gaussian:abc" << 34 << "gamma 'abc' is not a number";
    QTest::newRow("gamma infinite") << "gaussian:inf" << 34 << "gamma 'inf' is not finite";
    QTest::newRow("gaussian without gamma") << "gaussian" << 34 << "expected gaussian:γ";
    QTest::newRow("degree zero") << "poly:0" << 34
                                 << "kernel 'poly:0': degree '0' must be a positive integer";
    QTest::newRow("degree fraction")
        << "poly:2.5" << 34 << "degree '2.5' must be a positive integer";
    QTest::newRow("degree too large")
        << "poly:1e9" << 34 << "kernel 'poly:1e9': degree '1e9' is too large: at most 100";
    QTest::newRow("degree beyond int")
        << "poly:2147483648,1" << 34 << "degree '2147483648' is too large: at most 100";
    QTest::newRow("degree 101") << "poly:101" << 34 << "degree '101' is too large";
    {
        std::string many = "gaussian:1";
        for (int i = 2; i <= 1001; ++i)
            many += "," + std::to_string(i);
        // The list is named by its head and length, not echoed (3,906 characters).
        QTest::newRow("1001 kernels, not echoed")
            << QString::fromStdString(many) << 34
            << "kernel list makes more than 1000 kernels, the most allowed";
        QTest::newRow("long item quoted short")
            << QString::fromStdString(many + ",0") << 34
            << "kernel 'gaussian:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,...' (3,908 "
               "characters): gamma must be > 0";
    }
    QTest::newRow("negative offset")
        << "poly:2,-1" << 34 << "kernel 'poly:2,-1': offset c must be >= 0";
    QTest::newRow("poly three args") << "poly:2,1,3" << 34 << "expected poly:d or poly:d,c";
    QTest::newRow("linear with args") << "linear:2" << 34 << "linear takes no parameters";
    QTest::newRow("feature too large")
        << "linear@40" << 34 << "feature 40 in 'linear@40' is outside 1..34";
    QTest::newRow("feature zero") << "gaussian:1@0-3" << 34
                                  << "feature 0 in 'gaussian:1@0-3' is outside 1..34";
    QTest::newRow("reversed range") << "linear@5-2" << 34 << "feature range '5-2' is malformed";
    QTest::newRow("range not numbers") << "linear@a-b" << 34 << "feature range 'a-b' is malformed";
    QTest::newRow("empty scope") << "linear@" << 34 << "expected a scope after '@'";
    QTest::newRow("precomputed mixed")
        << "precomputed;linear" << 34 << "'precomputed' cannot be combined";
    QTest::newRow("precomputed scope")
        << "precomputed@1" << 34 << "precomputed takes no feature scope";
    QTest::newRow("duplicate") << "linear;gaussian:1;linear" << 34
                               << "kernel 'linear' appears twice";
    QTest::newRow("duplicate gamma")
        << "gaussian:1,1.0" << 34 << "kernel 'gaussian:1' appears twice";
    QTest::newRow("same group twice")
        << "linear@1-2;linear@2,1" << 34 << "kernel 'linear@1-2' appears twice";
    QTest::newRow("each feature of nothing")
        << "gaussian:1@each_feature" << 0 << "each_feature over 0 features gives no kernel";
    QTest::newRow("empty item") << "linear;;poly:2" << 34 << "empty item in kernel list";
    QTest::newRow("trailing separator") << "linear;" << 34 << "empty item in kernel list";
}

void TestKernels::grammarRejectsBadLists() {
    QFETCH(QString, text);
    QFETCH(int, dimension);
    QFETCH(QString, message);
    std::vector<KernelSpec> specs{KernelSpec{}};
    std::string why;
    QVERIFY(!parseKernelList(text.toStdString(), dimension, &specs, &why));
    QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
    QCOMPARE(int(specs.size()), 1);  // untouched on failure
}

void TestKernels::normalizationNames() {
    for (const auto n :
         {KernelNormalization::None, KernelNormalization::Diagonal, KernelNormalization::Trace}) {
        KernelNormalization back = KernelNormalization::None;
        QVERIFY(parseNormalization(toString(n), &back));
        QVERIFY(back == n);
    }
    KernelNormalization out = KernelNormalization::Trace;
    QVERIFY(!parseNormalization("unit", &out));
    QVERIFY(out == KernelNormalization::Trace);
}

void TestKernels::valuesMatchClosedForms_data() {
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<double>("expected");  // k(x, z) for x = (1, 2, 0), z = (0, 1, 3)
    QTest::addColumn<double>("selfX");     // k(x, x)

    QTest::newRow("linear") << "linear" << 2.0 << 5.0;
    QTest::newRow("poly:2") << "poly:2" << 9.0 << 36.0;
    QTest::newRow("poly:3,0.5") << "poly:3,0.5" << 15.625 << std::pow(5.5, 3);
    QTest::newRow("poly:1,0") << "poly:1,0" << 2.0 << 5.0;
    QTest::newRow("gaussian:0.5") << "gaussian:0.5" << std::exp(-0.5 * 11) << 1.0;
    // Features 2–3: x = (2, 0), z = (1, 3).
    QTest::newRow("linear@2-3") << "linear@2-3" << 2.0 << 4.0;
    QTest::newRow("gaussian:0.1@2-3") << "gaussian:0.1@2-3" << std::exp(-0.1 * 10) << 1.0;
    QTest::newRow("poly:2,1@1,3") << "poly:2,1@1,3" << 1.0 << 4.0;
    // Feature 1 alone: x = 1, z = 0.
    QTest::newRow("gaussian:2@1") << "gaussian:2@1" << std::exp(-2.0) << 1.0;
}

void TestKernels::valuesMatchClosedForms() {
    QFETCH(QString, kernel);
    QFETCH(double, expected);
    QFETCH(double, selfX);
    const KernelSpec spec = kernelList(kernel.toStdString(), 3).front();
    for (const bool sparseA : {false, true}) {
        for (const bool sparseB : {false, true}) {
            const Dataset a = pair(sparseA);
            const Dataset b = pair(sparseB);
            QVERIFY(std::abs(kernelValue(spec, a, 0, b, 1) - expected) <= 1e-14 * expected);
            QVERIFY(std::abs(kernelValue(spec, a, 1, b, 0) - expected) <= 1e-14 * expected);
            QVERIFY(std::abs(kernelValue(spec, a, 0, b, 0) - selfX) <= 1e-14 * selfX);
        }
    }
    // The rows of a KernelSet (the fast path: Eigen products, shared inner products).
    for (const bool sparse : {false, true}) {
        auto data = std::make_shared<const Dataset>(pair(sparse));
        KernelSet set(data, {spec}, KernelNormalization::None, 1);
        QVERIFY(std::abs(set.row(0, 0)[1] - expected) <= 1e-14 * expected);
        QVERIFY(std::abs(set.row(0, 1)[0] - expected) <= 1e-14 * expected);
        QVERIFY(std::abs(set.row(0, 0)[0] - selfX) <= 1e-14 * selfX);
        QVERIFY(std::abs(set.diagonal(0, 0) - selfX) <= 1e-14 * selfX);
    }
    // Precomputed: the value is a's feature j of example i.
    const Dataset a = pair(true);
    const KernelSpec pre = kernelList("precomputed", 3).front();
    QCOMPARE(kernelValue(pre, a, 1, a, 2), 3.0);
    QCOMPARE(kernelValue(pre, a, 1, a, 0), 0.0);
}

void TestKernels::normalizations_data() {
    QTest::addColumn<bool>("sparse");
    QTest::newRow("sparse heart_scale") << true;
    QTest::newRow("dense heart_scale") << false;
}

void TestKernels::normalizations() {
    QFETCH(bool, sparse);
    Dataset heart = loadLibsvm(kData + "/heart_scale");
    heart.setSparseStorage(sparse);
    auto train = std::make_shared<const Dataset>(heart);
    const int m = train->size();
    const auto specs = kernelList("linear;poly:2,1;gaussian:0.5;poly:3,1@1-5", train->dimension());
    KernelSet none(train, specs, KernelNormalization::None, 64);
    KernelSet diagonal(train, specs, KernelNormalization::Diagonal, 64);
    KernelSet trace(train, specs, KernelNormalization::Trace, 64);
    QVERIFY(none.fullyCached());
    const int probes[] = {0, 7, 100, m - 1};
    for (int k = 0; k < int(specs.size()); ++k) {
        const bool gaussian = specs[k].type == KernelType::Gaussian;
        double rawTrace = 0.0;
        double diagonalSum = 0.0;
        for (int i = 0; i < m; ++i) {
            rawTrace += kernelValue(specs[k], *train, i, *train, i);
            diagonalSum += trace.diagonal(k, i);
            QVERIFY(std::abs(diagonal.diagonal(k, i) - 1.0) <= 1e-12);
            QVERIFY(std::abs(diagonal.row(k, i)[i] - 1.0) <= 1e-12);
        }
        QVERIFY(std::abs(diagonalSum / m - 1.0) <= 1e-12);  // mean diagonal 1
        QVERIFY(std::abs(trace.scale(k) - m / rawTrace) <= 1e-12 * trace.scale(k));
        QCOMPARE(none.scale(k), 1.0);
        QCOMPARE(diagonal.scale(k), 1.0);
        if (gaussian) QCOMPARE(trace.scale(k), 1.0);
        for (const int i : probes) {
            const double* rn = none.row(k, i);
            std::vector<double> noneRow(rn, rn + m);
            const double* rd = diagonal.row(k, i);
            std::vector<double> diagonalRow(rd, rd + m);
            const double* rt = trace.row(k, i);
            for (int j = 0; j < m; ++j) {
                const double raw = kernelValue(specs[k], *train, i, *train, j);
                const double kii = kernelValue(specs[k], *train, i, *train, i);
                const double kjj = kernelValue(specs[k], *train, j, *train, j);
                const double tol = 1e-12 * std::max(1.0, std::abs(raw));
                QVERIFY(std::abs(noneRow[j] - raw) <= tol);
                QVERIFY(std::abs(diagonalRow[j] - raw / std::sqrt(kii * kjj)) <= 1e-12);
                QVERIFY(std::abs(rt[j] - raw * m / rawTrace) <= tol * m / rawTrace);
                if (gaussian) {  // every normalisation leaves a Gaussian kernel as it is
                    QVERIFY(std::abs(diagonalRow[j] - noneRow[j]) <= 1e-15);
                    QVERIFY(std::abs(rt[j] - noneRow[j]) <= 1e-15);
                }
                // cross(k, data, j, i) = K(x_i, z_j) with z the training set itself.
                QVERIFY(std::abs(none.cross(k, *train, j, i) - noneRow[j]) <= tol);
                QVERIFY(std::abs(diagonal.cross(k, *train, j, i) - diagonalRow[j]) <= 1e-12);
                QVERIFY(std::abs(trace.cross(k, *train, j, i) - rt[j]) <= tol * m / rawTrace);
            }
        }
    }
}

void TestKernels::lruMatchesWholeMatrices() {
    const auto train = load(kData + "/kernel/a1a");
    const int m = train->size();
    const auto specs = kernelList("gaussian:0.05;linear;poly:2,1@1-20", train->dimension());
    const std::size_t budget = std::size_t(2) << 20;  // 2 MB: 3·m² doubles are 62 MB
    KernelSet whole(train, specs, KernelNormalization::Trace, 100);
    KernelSet lru(train, specs, KernelNormalization::Trace, 2);
    QVERIFY(whole.fullyCached());
    QVERIFY(!lru.fullyCached());
    const std::size_t rowsInBudget = budget / (sizeof(double) * std::size_t(m));
    // A walk that revisits rows: 600 requests over 300 (kernel, row) pairs, many more than fit.
    std::size_t maxBytes = 0;
    for (int t = 0; t < 600; ++t) {
        const int k = t % 3;
        const int i = (t * 37) % 100 + (t % 2) * 1000;
        const double* a = lru.row(k, i);
        const double* b = whole.row(k, i);
        QVERIFY2(std::equal(a, a + m, b), qPrintable(QString("kernel %1 row %2").arg(k).arg(i)));
        maxBytes = std::max(maxBytes, lru.bytes());
        QCOMPARE(lru.diagonal(k, i), whole.diagonal(k, i));
    }
    QVERIFY(maxBytes <= budget);
    QCOMPARE(maxBytes, rowsInBudget * sizeof(double) * m);  // the budget is used, not exceeded
    QVERIFY(lru.rowsComputed() > whole.rowsComputed());     // evicted rows were recomputed
    // A row just returned is a hit.
    const long long before = lru.rowsComputed();
    lru.row(1, 5);
    lru.row(1, 5);
    QCOMPARE(lru.rowsComputed(), before + 1);
    qInfo(
        "a1a, 3 kernels, 2 MB: %zu rows fit, %lld rows computed for 602 requests "
        "(whole matrices: %lld)",
        rowsInBudget, lru.rowsComputed(), whole.rowsComputed());
}

void TestKernels::compositeRows() {
    const auto train = load(kData + "/heart_scale");
    const int m = train->size();
    const auto specs = kernelList("gaussian:0.1,1;linear", train->dimension());
    KernelSet kernels(train, specs, KernelNormalization::Trace, 64);
    Eigen::VectorXd beta(3);
    beta << 0.25, 0.0, 0.75;
    KernelQ q(kernels, train->labels, beta, 1);
    const Eigen::VectorXd& y = train->labels;
    auto check = [&](KernelQ& qq, const Eigen::VectorXd& b) {
        for (const int i : {0, 13, m - 1}) {
            const double* row = qq.row(i);
            for (int j = 0; j < m; ++j) {
                double expected = 0.0;
                for (int k = 0; k < 3; ++k)
                    expected += b[k] * kernels.row(k, i)[j];
                expected *= y[i] * y[j];
                QVERIFY(std::abs(row[j] - expected) <= 1e-12 * std::max(1.0, std::abs(expected)));
            }
            double d = 0.0;
            for (int k = 0; k < 3; ++k)
                d += b[k] * kernels.diagonal(k, i);
            QVERIFY(std::abs(qq.diagonal(i) - d) <= 1e-12 * std::max(1.0, d));
        }
    };
    check(q, beta);
    // The two most recent rows stay valid.
    const double* r1 = q.row(3);
    const std::vector<double> copy1(r1, r1 + m);
    const double* r2 = q.row(4);
    QVERIFY(std::equal(copy1.begin(), copy1.end(), r1));
    QVERIFY(r2 != r1);
    // New weights replace the rows.
    Eigen::VectorXd other(3);
    other << 0.0, 1.0, 0.0;
    q.setWeights(other);
    QVERIFY(q.weights() == other);
    check(q, other);
    // One kernel held whole: rows formed without a second matrix, same values.
    KernelSet single(train, {specs[1]}, KernelNormalization::None, 64);
    QVERIFY(single.fullyCached());
    KernelQ direct(single, y, Eigen::VectorXd::Constant(1, 2.0), 64);
    for (const int i : {2, 50}) {
        const double* row = direct.row(i);
        for (int j = 0; j < m; ++j)
            QCOMPARE(row[j], 2.0 * y[i] * y[j] * single.row(0, i)[j]);
    }
    // Bad weights.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, q.setWeights(Eigen::VectorXd::Ones(2)));
    Eigen::VectorXd negative = Eigen::VectorXd::Ones(3);
    negative[1] = -0.5;
    try {
        q.setWeights(negative);
        QFAIL("negative weight accepted");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString(e.what()).contains("weight 2 = -0.5: must be finite and >= 0"), e.what());
    }
}

void TestKernels::kernelSetRejects() {
    const auto train = load(kData + "/heart_scale");
    auto message = [](auto&& call) -> QString {
        try {
            call();
        } catch (const std::invalid_argument& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    };
    const auto linear = kernelList("linear", 13);
    QVERIFY(message([&] {
                KernelSet(train, linear, KernelNormalization::None, 0.5);
            }).contains("cache_mb = 0.5: must be >= 1"));
    QVERIFY(message([&] {
                KernelSet(train, {}, KernelNormalization::None, 16);
            }).contains("empty kernel list"));
    // A list parsed for more features than the data has.
    const auto wide = kernelList("gaussian:1@14-20", 20);
    QVERIFY(message([&] {
                KernelSet(train, wide, KernelNormalization::None, 16);
            }).contains("kernel 'gaussian:1@14-20': feature 14 is outside 1..13"));
    // Precomputed kernels: square, symmetric, not normalised by the diagonal.
    const auto pre = kernelList("precomputed", 0);
    QVERIFY(message([&] {
                KernelSet(train, pre, KernelNormalization::None, 16);
            }).contains("heart_scale' is 270 × 13; expected a square matrix"));
    auto asymmetric =
        std::make_shared<const Dataset>(loadPrecomputedKernel(kPrecomputed + "not_symmetric.txt"));
    QVERIFY(message([&] {
                KernelSet(asymmetric, pre, KernelNormalization::None, 16);
            }).contains("not symmetric: K(1, 2) = 1 but K(2, 1) = 1.5"));
    auto good = std::make_shared<const Dataset>(loadPrecomputedKernel(kPrecomputed + "ok.txt"));
    QVERIFY(message([&] {
                KernelSet(good, pre, KernelNormalization::Diagonal, 16);
            }).contains("cannot be normalised by its diagonal"));
}

void TestKernels::precomputedGoodFile() {
    const std::string path = kPrecomputed + "ok.txt";
    QVERIFY(looksLikePrecomputedKernel(path));
    QVERIFY(!looksLikePrecomputedKernel(kData + "/heart_scale"));
    QVERIFY(!looksLikePrecomputedKernel(kData + "/sonar.all-data"));
    const Dataset data = loadPrecomputedKernel(path);
    QCOMPARE(data.size(), 3);
    QCOMPARE(data.dimension(), 3);
    QVERIFY(!data.sparseStorage);
    QCOMPARE(data.name, std::string("ok.txt"));
    QCOMPARE(data.source, path);
    QVERIFY(data.contractViolation().empty());
    Eigen::Matrix3d expected;
    expected << 2, 1, 0.5, 1, 3, -1, 0.5, -1, 4;
    QVERIFY(data.dense == expected);
    QCOMPARE(data.labels[1], -1.0);

    // As a kernel: rows are the file's rows; trace normalisation divides by tr K / m = 3.
    auto shared = std::make_shared<const Dataset>(data);
    const auto pre = kernelList("precomputed", 3);
    KernelSet trace(shared, pre, KernelNormalization::Trace, 1);
    QCOMPARE(trace.scale(0), 1.0 / 3.0);
    QCOMPARE(trace.row(0, 2)[0], 0.5 / 3.0);
    QCOMPARE(trace.diagonal(0, 1), 1.0);
    // A test file: rows against the 3 training examples.
    const Dataset test = loadPrecomputedKernel(kPrecomputed + "test_rows.txt", 3);
    QCOMPARE(test.size(), 2);
    QCOMPARE(trace.cross(0, test, 1, 2), 0.75 / 3.0);
    QCOMPARE(kernelValue(pre.front(), test, 0, data, 1), -0.5);
}

void TestKernels::precomputedBadFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("columns");
    QTest::addColumn<QString>("message");  // after "<path>"

    QTest::newRow("wrong serial") << "wrong_serial.txt" << 0
                                  << ":2: serial number '3' in '0:3' is wrong: example 2 of a "
                                     "training kernel must have 0:2";
    QTest::newRow("missing serial")
        << "missing_serial.txt" << 0 << ":2: missing serial number: expected '0:2' after the label";
    QTest::newRow("not square") << "not_square.txt" << 0
                                << ": the kernel matrix is 3 rows × 4 columns; a training kernel "
                                   "must be square";
    QTest::newRow("non-finite value")
        << "non_finite.txt" << 0 << ":3: value 'nan' of K(3, 2) is not finite";
    QTest::newRow("missing column")
        << "missing_column.txt" << 0 << ":2: column 2 is missing (found '3:-1')";
    QTest::newRow("short row") << "short_row.txt" << 0
                               << ":3: row has 2 values; expected 3 like line 1";
    QTest::newRow("test rows too long") << "ok.txt" << 2
                                        << ":2: row has more than 2 values; expected 2 (one per "
                                           "training example)";
    QTest::newRow("test rows too short") << "test_rows.txt" << 4
                                         << ":1: row has 3 values; expected 4 (one per training "
                                            "example)";
    QTest::newRow("missing file") << "no_such_file.txt" << 0 << "";
}

void TestKernels::precomputedBadFiles() {
    QFETCH(QString, file);
    QFETCH(int, columns);
    QFETCH(QString, message);
    const std::string path = kPrecomputed + file.toStdString();
    const QString error = dataErrorOf(path, columns);
    QVERIFY2(!error.isEmpty(), "no DataError");
    QVERIFY2(error.startsWith(QString::fromStdString(path) + message), qPrintable(error));
}

void TestKernels::precomputedFromRealData() {
    // heart_scale's Gaussian kernel written in LIBSVM's precomputed format (shortest round-trip
    // numbers), read back: the same rows as the kernel computed from the features.
    const auto train = load(kData + "/heart_scale");
    const int m = train->size();
    const auto gaussian = kernelList("gaussian:0.2", train->dimension());
    KernelSet features(train, gaussian, KernelNormalization::None, 64);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("heart.kernel").toStdString();
    {
        std::ofstream out(path);
        for (int i = 0; i < m; ++i) {
            out << formatReal(train->labels[i]) << " 0:" << i + 1;
            const double* row = features.row(0, i);
            for (int j = 0; j < m; ++j)
                out << ' ' << j + 1 << ':' << formatReal(row[j]);
            out << '\n';
        }
    }
    QVERIFY(looksLikePrecomputedKernel(path));
    auto pre = std::make_shared<const Dataset>(loadPrecomputedKernel(path));
    QCOMPARE(pre->size(), m);
    QVERIFY(pre->labels == train->labels);
    KernelSet fromFile(pre, kernelList("precomputed", m), KernelNormalization::None, 64);
    for (const int i : {0, 1, 135, m - 1}) {
        const double* a = fromFile.row(0, i);
        const double* b = features.row(0, i);
        QVERIFY(std::equal(a, a + m, b));
        QCOMPARE(fromFile.diagonal(0, i), 1.0);
    }
}

// A training kernel must be one: K(i, i) >= 0 and |K(i, j)|² <= K(i, i) K(j, j) (every 2 × 2
// principal minor of a PSD matrix); a violation is refused at the line of row i, naming the
// entries. Rounding of printed values (a duplicated example, equal up to the 6th digit) passes.
void TestKernels::precomputedNotAKernel_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");  // after "<path>", or empty: it loads
    QTest::newRow("negative diagonal")
        << QByteArray("1 0:1 1:1 2:0.5 3:0\n-1 0:2 1:0.5 2:-1 3:0.2\n1 0:3 1:0 2:0.2 3:1\n")
        << ":2: K(2, 2) = -1 is negative: not a kernel matrix";
    QTest::newRow("off-diagonal beyond Cauchy-Schwarz")
        << QByteArray("1 0:1 1:1 2:3 3:0\n-1 0:2 1:3 2:1 3:0.2\n1 0:3 1:0 2:0.2 3:1\n")
        << ":1: |K(1, 2)| = 3 exceeds sqrt(K(1, 1) * K(2, 2)) = 1: not a kernel matrix";
    QTest::newRow("negative off-diagonal beyond Cauchy-Schwarz, last row")
        << QByteArray("1 0:1 1:4 2:0 3:1\n-1 0:2 1:0 2:1 3:0\n1 0:3 1:1 2:0 3:0.2\n")
        << ":1: |K(1, 3)| = 1 exceeds sqrt(K(1, 1) * K(3, 3)) = 0.8944271909999159";
    QTest::newRow("duplicated example, rounded: a kernel")
        << QByteArray("1 0:1 1:2.12346 2:2.12346\n-1 0:2 1:2.12346 2:2.12345\n") << "";
    QTest::newRow("zero example: a kernel") << QByteArray("1 0:1 1:0 2:0\n-1 0:2 1:0 2:1\n") << "";
}

void TestKernels::precomputedNotAKernel() {
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const std::string path = dir.filePath("kernel.txt").toStdString();
    std::ofstream(path) << text.constData();
    const QString error = dataErrorOf(path);
    if (message.isEmpty()) {
        QVERIFY2(error.isEmpty(), qPrintable(error));
    } else {
        QVERIFY2(error.startsWith(QString::fromStdString(path) + message), qPrintable(error));
    }
}

QTEST_GUILESS_MAIN(TestKernels)
#include "test_kernels.moc"
