// SPDX-License-Identifier: GPL-3.0-or-later
// Dataset: row operations in both storages, classes and label names, dimension changes,
// subsets and hold-out splits, checked against hand-computed values.
#include <QtTest>
#include <algorithm>
#include <set>

#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/dataset.h"
#include "data/generators.h"
#include "data/libsvm_format.h"

using namespace cplab;

namespace {

// 3 × 4 example with a zero row and a zero last column:
//   x0 = ( 1, 0, -2, 0)  y = +1
//   x1 = ( 0, 0,  0, 0)  y = -1
//   x2 = (0.5, 3, 0, 0)  y = +1
Dataset small(bool sparse) {
    Dataset data;
    data.name = "small";
    data.source = "memory:small";
    data.dense.resize(3, 4);
    data.dense << 1, 0, -2, 0, 0, 0, 0, 0, 0.5, 3, 0, 0;
    data.labels.resize(3);
    data.labels << 1, -1, 1;
    data.setSparseStorage(sparse);
    return data;
}

}  // namespace

class TestDataset : public QObject {
    Q_OBJECT

  private slots:
    // A move hands the sparse matrix's arrays over (Eigen 3.4's SparseMatrix has no move
    // operations, so a defaulted move copied them) and keeps every other member; the moved-from
    // dataset is left empty.
    void moveTakesTheStorageOver() {
        Dataset a = parseLibsvm("+1 1:0.5 3:2\n-1 2:1 # x\n+1 3:4\n", "moves.txt");
        a.featureNames = {"f1", "f2", "f3"};
        a.classNames = {"no", "yes"};
        a.labelName = "y";
        a.selectColumns({0, 2});
        QVERIFY(a.contractViolation().empty());
        const Dataset copy = a;
        const double* values = a.sparse.valuePtr();
        const int* outer = a.sparse.outerIndexPtr();

        Dataset b(std::move(a));
        QVERIFY(b.sparse.valuePtr() == values);
        QVERIFY(b.sparse.outerIndexPtr() == outer);
        Dataset c;
        c = std::move(b);
        QVERIFY(c.sparse.valuePtr() == values);
        QCOMPARE(b.sparse.nonZeros(), Eigen::Index(0));
        QCOMPARE(b.size(), 0);

        QCOMPARE(c.name, copy.name);
        QCOMPARE(c.source, copy.source);
        QCOMPARE(c.sparseStorage, copy.sparseStorage);
        QVERIFY(c.sparse.isApprox(copy.sparse));
        QCOMPARE(c.sparse.nonZeros(), copy.sparse.nonZeros());
        QVERIFY(c.labels == copy.labels);
        QVERIFY(c.featureNames == copy.featureNames);
        QVERIFY(c.classNames == copy.classNames);
        QCOMPARE(c.labelName, copy.labelName);
        QVERIFY(c.lines == copy.lines);
        QVERIFY(c.featureIds == copy.featureIds);
        QCOMPARE(c.originalDimension, copy.originalDimension);

        Dataset dense = generate("two_blobs", 10, 1);
        const double* cells = dense.dense.data();
        const Dataset moved(std::move(dense));
        QVERIFY(moved.dense.data() == cells);
    }

    void rowOperations_data() {
        QTest::addColumn<bool>("sparse");
        QTest::newRow("dense") << false;
        QTest::newRow("sparse") << true;
    }
    void rowOperations() {
        QFETCH(bool, sparse);
        const Dataset data = small(sparse);
        QCOMPARE(data.sparseStorage, sparse);
        QVERIFY2(data.contractViolation().empty(), data.contractViolation().c_str());
        QCOMPARE(data.size(), 3);
        QCOMPARE(data.dimension(), 4);
        QCOMPARE(data.nonZeros(), 4LL);

        Eigen::VectorXd w(4);
        w << 2, -1, 0.25, 7;
        QCOMPARE(data.dot(0, w), 1 * 2 + (-2) * 0.25);  // 1.5
        QCOMPARE(data.dot(1, w), 0.0);
        QCOMPARE(data.dot(2, w), 0.5 * 2 + 3 * (-1));  // -2

        QCOMPARE(data.rowSquaredNorm(0), 5.0);
        QCOMPARE(data.rowSquaredNorm(1), 0.0);
        QCOMPARE(data.rowSquaredNorm(2), 9.25);

        Eigen::VectorXd v = Eigen::VectorXd::Zero(4);
        data.addRowTo(0, 2.0, v);
        data.addRowTo(2, -1.0, v);
        Eigen::VectorXd expected(4);
        expected << 2 - 0.5, -3, -4, 0;
        QVERIFY(v == expected);

        Eigen::VectorXd x2(4);
        x2 << 0.5, 3, 0, 0;
        QVERIFY(data.row(2) == x2);
    }

    void storageConversionKeepsValues() {
        Dataset data = small(false);
        const Dataset original = data;
        data.setSparseStorage(true);
        QVERIFY(data.sparseStorage);
        QCOMPARE(data.dense.size(), Eigen::Index(0));
        QCOMPARE(data.sparse.nonZeros(), Eigen::Index(4));  // zeros dropped
        QVERIFY(data.contractViolation().empty());
        data.setSparseStorage(false);
        QVERIFY(data.dense == original.dense);
        QCOMPARE(data.sparse.nonZeros(), Eigen::Index(0));
    }

    void classesAreSortedAndDistinct() {
        Dataset data = small(false);
        data.labels << 2.5, -1, 2.5;
        QCOMPARE(data.classes(), (std::vector<double>{-1, 2.5}));
    }

    void classNameMapping() {
        Dataset two = small(false);
        two.classNames = {"M", "R"};
        QCOMPARE(two.classValue(0), -1.0);
        QCOMPARE(two.classValue(1), 1.0);
        QCOMPARE(two.labelText(1.0), std::string("R"));
        QCOMPARE(two.labelText(-1.0), std::string("M"));

        Dataset three = small(false);
        three.classNames = {"a", "b", "c"};
        three.labels << 0, 2, 1;
        QCOMPARE(three.classValue(2), 2.0);
        QCOMPARE(three.labelText(2.0), std::string("c"));
        QCOMPARE(three.labelText(7.0), std::string("7"));  // not a class: the number
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, three.classValue(3));
    }

    void makeBinaryLabels() {
        Dataset data = small(false);
        data.labels << 1, 0, 1;
        data.makeBinaryLabels();
        QVERIFY(data.labels == Eigen::Vector3d(1, -1, 1));
        QCOMPARE(data.classNames, (std::vector<std::string>{"0", "1"}));

        Dataset plusMinus = small(false);  // already ±1: untouched, no names invented
        plusMinus.makeBinaryLabels();
        QVERIFY(plusMinus.classNames.empty());

        Dataset one = small(false);
        one.labels << 4, 4, 4;
        try {
            one.makeBinaryLabels();
            QFAIL("no exception");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), std::string("memory:small"));
            QVERIFY2(std::string(e.what()).find("found 1 (4)") != std::string::npos, e.what());
        }
    }

    void setDimension_data() { rowOperations_data(); }
    void setDimension() {
        QFETCH(bool, sparse);
        Dataset data = small(sparse);
        data.featureNames = {"a", "b", "c", "d"};
        data.setDimension(6);  // grow: zeros
        QCOMPARE(data.dimension(), 6);
        QCOMPARE(data.featureNames.size(), std::size_t(6));
        Eigen::VectorXd x0 = Eigen::VectorXd::Zero(6);
        x0[0] = 1;
        x0[2] = -2;
        QVERIFY(data.row(0) == x0);
        QVERIFY(data.contractViolation().empty());

        data.setDimension(3);  // shrink over zero columns 4..6: fine
        QCOMPARE(data.dimension(), 3);
        QVERIFY(data.contractViolation().empty());

        try {  // column 3 holds x0's -2
            data.setDimension(2);
            QFAIL("no exception");
        } catch (const DataError& e) {
            QCOMPARE(e.line(), 0);
            QVERIFY2(std::string(e.what()).find("feature 3 of example 1 is nonzero") !=
                         std::string::npos,
                     e.what());
        }
        QCOMPARE(data.dimension(), 3);  // unchanged after the refusal
    }

    void subset_data() { rowOperations_data(); }
    void subset() {
        QFETCH(bool, sparse);
        const Dataset data = small(sparse);
        const Dataset sub = data.subset({2, 0, 2});
        QVERIFY(sub.contractViolation().empty());
        QCOMPARE(sub.sparseStorage, sparse);
        QCOMPARE(sub.size(), 3);
        QVERIFY(sub.row(0) == data.row(2));
        QVERIFY(sub.row(1) == data.row(0));
        QVERIFY(sub.row(2) == data.row(2));
        QVERIFY(sub.labels == Eigen::Vector3d(1, 1, 1));
        QCOMPARE(data.subset({}).size(), 0);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, data.subset({3}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, data.subset({-1}));
    }

    void split_data() {
        QTest::addColumn<bool>("sparse");
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("testCount");
        // 10 examples; round(fraction · 10).
        QTest::newRow("dense 30%") << false << 0.3 << 3;
        QTest::newRow("sparse 25%") << true << 0.25 << 3;  // 2.5 rounds away from zero
        QTest::newRow("none") << false << 0.0 << 0;
        QTest::newRow("all") << true << 1.0 << 10;
    }
    void split() {
        QFETCH(bool, sparse);
        QFETCH(double, fraction);
        QFETCH(int, testCount);
        // Row i is (i, 0) with label i: rows can be identified after the split.
        Dataset data;
        data.name = "ten";
        data.dense = Dataset::DenseMatrix::Zero(10, 2);
        data.labels.resize(10);
        for (int i = 0; i < 10; ++i) {
            data.dense(i, 0) = i + 1;
            data.labels[i] = i;
        }
        data.setSparseStorage(sparse);

        const auto [train, test] = data.split(fraction, 42);
        QCOMPARE(test.size(), testCount);
        QCOMPARE(train.size(), 10 - testCount);
        QCOMPARE(train.name, std::string("ten (train)"));
        std::set<int> seen;
        for (const Dataset* part : {&train, &test}) {
            QVERIFY(part->contractViolation().empty());
            for (int i = 0; i < part->size(); ++i) {
                const int id = static_cast<int>(part->labels[i]);
                QCOMPARE(part->row(i)[0], double(id + 1));  // row and label travel together
                if (i > 0) QVERIFY(part->labels[i - 1] < part->labels[i]);  // original order
                QVERIFY(seen.insert(id).second);                            // disjoint
            }
        }
        QCOMPARE(seen.size(), std::size_t(10));  // and together complete

        const auto again = data.split(fraction, 42);
        QVERIFY(again.second.labels == test.labels);  // deterministic
    }

    void splitDependsOnSeed() {
        Dataset data;
        data.dense = Dataset::DenseMatrix::Zero(100, 1);
        data.labels = Eigen::VectorXd::LinSpaced(100, 0, 99);
        const auto a = data.split(0.2, 1);
        const auto b = data.split(0.2, 2);
        QCOMPARE(a.second.size(), 20);
        QVERIFY(a.second.labels != b.second.labels);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data.split(1.5, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data.split(-0.1, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data.split(std::nan(""), 1));
    }

    void contractViolations() {
        Dataset data = small(false);
        data.labels.resize(2);
        QVERIFY(data.contractViolation().find("2 labels for 3 examples") != std::string::npos);
        data = small(false);
        data.dense(0, 0) = std::numeric_limits<double>::infinity();
        QVERIFY(!data.contractViolation().empty());
        data = small(false);
        data.featureNames = {"only one"};
        QVERIFY(!data.contractViolation().empty());
    }

    // A test set's labels mean what the training file's texts mean: a file holding only "R"
    // (which alone would map to 0) or "R" and "X" (−1/+1 alone) gets R's training value.
    void useClassesOfMatchesByText() {
        const Dataset train = parseCsv("1,M\n2,R\n3,M\n", "train.csv");
        QCOMPARE(train.classNames, (std::vector<std::string>{"M", "R"}));
        Dataset onlyR = parseCsv("# comment\n4,R\n5,R\n", "test.csv");
        onlyR.useClassesOf(train);
        QVERIFY(onlyR.labels == Eigen::Vector2d(1, 1));
        QCOMPARE(onlyR.classNames, train.classNames);
        Dataset unknown = parseCsv("4,R\n\n5,X\n", "test2.csv");
        try {
            unknown.useClassesOf(train);
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), std::string("test2.csv"));
            QCOMPARE(e.line(), 3);
            QCOMPARE(e.detail(), std::string("label X, which the training set does not have (it "
                                             "has M, R)"));
        }
        // Numbers against a numeric training set: nothing to map.
        const Dataset numeric = parseLibsvm("1 1:1\n-1 1:2\n", "n.libsvm");
        Dataset other = parseLibsvm("1 1:3\n", "o.libsvm");
        other.useClassesOf(numeric);
        QCOMPARE(other.labels[0], 1.0);
        QCOMPARE(other.lines, std::vector<int>{1});
    }

    void usedAndSelectedColumns_data() { rowOperations_data(); }
    void usedAndSelectedColumns() {
        QFETCH(bool, sparse);
        Dataset data = small(sparse);
        data.featureNames = {"a", "b", "c", "d"};
        QCOMPARE(data.usedColumns(), (std::vector<int>{0, 1, 2}));
        data.selectColumns({0, 2});  // drops column 1 (x2's 3) and the zero column 3
        QVERIFY2(data.contractViolation().empty(), data.contractViolation().c_str());
        QCOMPARE(data.dimension(), 2);
        QCOMPARE(data.originalDimension, 4);
        QCOMPARE(data.featureIds, (std::vector<int>{0, 2}));
        QCOMPARE(data.featureNames, (std::vector<std::string>{"a", "c"}));
        QCOMPARE(data.featureNumber(1), 3);
        Eigen::VectorXd x0(2), x2(2);
        x0 << 1, -2;
        x2 << 0.5, 0;
        QVERIFY(data.row(0) == x0);
        QVERIFY(data.row(2) == x2);
        // A second selection composes with the first: column 0 now is the file's feature 3.
        data.selectColumns({1});
        QCOMPARE(data.featureIds, (std::vector<int>{2}));
        QCOMPARE(data.originalDimension, 4);
        QCOMPARE(data.featureNumber(0), 3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data.selectColumns({1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, small(sparse).selectColumns({2, 1}));
    }

    // A feature numbered 10⁸ next to small ones: the training set keeps the 3 it uses; the
    // test set is mapped onto them, dropping its own feature 50 (keepTestFeatures false) or
    // keeping it (true). Dot products with a weight vector over the kept features agree with
    // the uncompacted data's.
    void compactFeaturesMapsLargeIndices() {
        const int d = 100'000'000;
        auto make = [d](std::vector<Eigen::Triplet<double, int>> entries, int rows) {
            Dataset data;
            data.source = "memory:wide";
            data.sparseStorage = true;
            data.sparse = sparseFromTriplets(rows, d, std::move(entries));
            data.labels = Eigen::VectorXd::Ones(rows);
            return data;
        };
        Dataset train = make({{0, d - 1, 2.0}, {0, 2, 1.0}, {1, 7, -1.0}}, 2);
        Dataset test = make({{0, d - 1, 1.0}, {0, 49, 5.0}, {1, 7, 3.0}}, 2);
        QVERIFY(compactFeatures(train, &test, false));
        QCOMPARE(train.featureIds, (std::vector<int>{2, 7, d - 1}));
        QCOMPARE(train.originalDimension, d);
        QCOMPARE(test.featureIds, train.featureIds);
        QVERIFY2(test.contractViolation().empty(), test.contractViolation().c_str());
        Eigen::VectorXd w(3);
        w << 10, 100, 1000;  // weights of features 3, 8 and 10⁸
        QCOMPARE(train.dot(0, w), 10 + 2000.0);
        QCOMPARE(test.dot(0, w), 1000.0);  // feature 50 has no weight
        QCOMPARE(test.dot(1, w), 300.0);

        Dataset train2 = make({{0, d - 1, 2.0}, {0, 2, 1.0}, {1, 7, -1.0}}, 2);
        Dataset test2 = make({{0, d - 1, 1.0}, {0, 49, 5.0}, {1, 7, 3.0}}, 2);
        QVERIFY(compactFeatures(train2, &test2, true));
        QCOMPARE(test2.featureIds, (std::vector<int>{2, 7, 49, d - 1}));
        QCOMPARE(test2.rowSquaredNorm(0), 26.0);

        // Small or dense-enough data stay as they are.
        Dataset dense = small(true);
        QVERIFY(!compactFeatures(dense, nullptr, false));
        QVERIFY(dense.featureIds.empty());
    }

    void sparseFromTripletsSumsAndDropsZeros() {
        const Dataset::SparseMatrix s = sparseFromTriplets(
            2, 5, {{1, 4, 1.0}, {0, 3, 2.0}, {0, 1, 1.0}, {0, 3, -2.0}, {1, 0, 0.5}, {1, 4, 2.0}});
        QCOMPARE(s.nonZeros(), Eigen::Index(3));  // (0,3) cancelled
        QCOMPARE(s.coeff(0, 1), 1.0);
        QCOMPARE(s.coeff(1, 0), 0.5);
        QCOMPARE(s.coeff(1, 4), 3.0);
        QVERIFY(s.isCompressed());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sparseFromTriplets(2, 5, {{2, 0, 1.0}}));
    }

    void dataErrorText() {
        const DataError withLine("heart.txt", 17, "feature index 3 after index 5");
        QCOMPARE(std::string(withLine.what()),
                 std::string("heart.txt:17: feature index 3 after index 5"));
        QCOMPARE(withLine.line(), 17);
        QCOMPARE(withLine.detail(), std::string("feature index 3 after index 5"));
        const DataError noLine("a.csv", 0, "no such file");
        QCOMPARE(std::string(noLine.what()), std::string("a.csv: no such file"));
    }

    void longLabelsAreCutInMessages() {
        // Three classes, one named by 20,000 characters: the refusal of binary labels names it
        // by its first 37 characters and "...", not by all of them (it made a 20 KB message).
        const std::string name(20000, 'a');
        const std::string text = "x,y,label\n1,2," + name + "\n3,4,b\n3,5,c\n";
        Dataset data = parseCsv(text, "long.csv");
        QCOMPARE(data.classNames.size(), std::size_t{3});
        const double longLabel = data.labels[0];
        QCOMPARE(data.labelText(longLabel), name);  // kept whole for models and views
        QCOMPARE(data.labelInMessage(longLabel), std::string(37, 'a') + "...");
        QCOMPARE(data.labelInMessage(data.labels[1]), std::string("b"));
        try {
            data.makeBinaryLabels();
            QFAIL("three classes accepted as binary");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).size() < 200, e.what());
            QVERIFY2(std::string(e.what()).find(std::string(37, 'a') + "...") != std::string::npos,
                     e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
