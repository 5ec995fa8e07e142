// SPDX-License-Identifier: GPL-3.0-or-later
// The format table (data/data_format.h) and the test split (data/test_split.h), independent of
// any family: every format recognises its own real files from one prefix read and reads them
// to the counts their READMEs give, no format claims the others' files, the table is
// consistent with its kinds, and a held-out split is a partition of the right size, the same
// for the same seed, refused with one message when a part would be empty.
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "data/data_error.h"
#include "data/data_format.h"
#include "data/dataset.h"
#include "data/image_format.h"
#include "data/load_options.h"
#include "data/sequence_format.h"
#include "data/test_split.h"
#include "data/uai_format.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;
const std::string kSource = CPLAB_SOURCE_DIR;

// The format the table picks for `path` (the best sniff).
std::string bestFormat(const std::string& path) {
    const auto matches = sniffFormats(readFilePrefix(path));
    return matches.empty() ? std::string() : std::string(matches.front().format->name);
}

}  // namespace

class TestDataFormat : public QObject {
    Q_OBJECT

  private slots:
    void tableIsConsistent() {
        std::set<std::string_view> names;
        for (const DataFormat& f : dataFormats()) {
            QVERIFY2(names.insert(f.name).second, f.name.data());
            QVERIFY(f.sniff != nullptr);
            // Exactly the reader of its kind is set.
            const bool examples = f.kind == DataKind::Examples || f.kind == DataKind::KernelRows;
            QCOMPARE(f.read.examples != nullptr, examples);
            QCOMPARE(f.read.sequences != nullptr, f.kind == DataKind::Sequences);
            QCOMPARE(f.read.model != nullptr, f.kind == DataKind::Model);
            QCOMPARE(f.read.image != nullptr, f.kind == DataKind::Image);
            for (const auto extension : f.extensions) {
                QVERIFY(extension.starts_with('.'));
                QVERIFY(std::none_of(extension.begin(), extension.end(),
                                     [](char c) { return c >= 'A' && c <= 'Z'; }));
            }
            QCOMPARE(findDataFormat(f.name), &f);
        }
        QVERIFY(findDataFormat("no such format") == nullptr);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (DataSource{"x", "nope"}.dataFormat()));
    }

    void eachFormatKnowsItsFiles_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        QTest::newRow("libsvm") << QString::fromStdString(kData + "/heart_scale") << "libsvm";
        QTest::newRow("libsvm.gz") << QString::fromStdString(kData + "/a9a.gz") << "libsvm";
        QTest::newRow("csv by content")
            << QString::fromStdString(kData + "/sonar.all-data") << "csv";
        QTest::newRow("csv, blank-separated")
            << QString::fromStdString(kData + "/housing.data") << "csv";
        QTest::newRow("csv by name") << QString::fromStdString(kData + "/cli/bupa.csv.gz") << "csv";
        QTest::newRow("precomputed")
            << QString::fromStdString(kData + "/kernel/heart30_linear.precomputed")
            << "precomputed";
        QTest::newRow("letter.data")
            << QString::fromStdString(kData + "/ocr_letter.data.gz") << "letter";
        QTest::newRow("seq") << QString::fromStdString(
                                    kSource + "/tests/catalogue/files/chain_predict_ok.seq")
                             << "seq";
        QTest::newRow("uai.gz") << QString::fromStdString(kData +
                                                          "/map/uai2014/ProteinFolding_15.uai.gz")
                                << "uai";
        QTest::newRow("fg") << QString::fromStdString(kData + "/map/libdai/testfast.fg") << "fg";
        QTest::newRow("png") << QString::fromStdString(kSource +
                                                       "/resources/datasets/tsukuba_imL.png")
                             << "png";
    }
    void eachFormatKnowsItsFiles() {
        QFETCH(QString, path);
        QFETCH(QString, format);
        QCOMPARE(QString::fromStdString(bestFormat(path.toStdString())), format);
    }

    // A UAI model without its extension is known by its first word; the same bytes in a file
    // that does not start MARKOV are not.
    void uaiByContent() {
        const std::string dir = QDir::tempPath().toStdString() + "/cplab_data_format";
        std::filesystem::create_directories(dir);
        const std::string model = dir + "/model_without_extension";
        std::ofstream(model) << "c a comment\nMARKOV\n2\n2 2\n1\n2 0 1\n4 1 2 3 4\n";
        QCOMPARE(QString::fromStdString(bestFormat(model)), QString("uai"));
        const UaiTables tables = readModel({model, "uai"});
        QCOMPARE(tables.cardinalities.size(), std::size_t{2});
        QCOMPARE(tables.pairs.size(), std::size_t{1});
        const std::string text = dir + "/text.txt";
        std::ofstream(text) << "+1 1:0.5 2:1\n-1 1:-0.5\n";
        QCOMPARE(QString::fromStdString(bestFormat(text)), QString("libsvm"));
        std::filesystem::remove_all(dir);
    }

    // Read through the table, the counts of the datasets' READMEs.
    void readersGiveTheData() {
        QCOMPARE(readExamples({kData + "/heart_scale", "libsvm"}, {}).size(), 270);
        QCOMPARE(readExamples({kData + "/heart_scale", "libsvm"}, {}).dimension(), 13);
        const Dataset sonar = readExamples({kData + "/sonar.all-data", "csv"}, {});
        QCOMPARE(sonar.size(), 208);
        QCOMPARE(sonar.dimension(), 60);
        const Dataset kernel =
            readExamples({kData + "/kernel/heart30_linear.precomputed", "precomputed"}, {});
        QCOMPARE(kernel.size(), 30);
        QCOMPARE(kernel.dimension(), 30);
        const SequenceData words = readSequences({kData + "/ocr_letter.data.gz", "letter"});
        QCOMPARE(words.size(), 6877);
        QCOMPARE(words.tokenCount(), 52152);
        const Image image = readImage({kSource + "/resources/datasets/tsukuba_imL.png", "png"});
        QCOMPARE(image.width, 384);
        QCOMPARE(image.height, 288);
        // A reader of another kind is refused by name, not misread.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 readSequences({kData + "/heart_scale", "libsvm"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 readImage({kData + "/heart_scale", "libsvm"}));
    }

    // CSV's reader options: the label in the first column, a header named; refused options.
    void readerOptions() {
        const std::string dir = QDir::tempPath().toStdString() + "/cplab_reader_options";
        std::filesystem::create_directories(dir);
        const std::string path = dir + "/first.csv";
        std::ofstream(path) << "y;a;b\nyes;1;2\nno;3;4\nyes;5;6\n";
        DataSource source{path, "csv", {{"label_column", "0"}, {"delimiter", "semicolon"}}};
        std::string why;
        QVERIFY2(checkReaderOptions(source, &why), why.c_str());
        const Dataset data = readExamples(source, {});
        QCOMPARE(data.size(), 3);
        QCOMPARE(data.dimension(), 2);
        QCOMPARE(data.row(2)(1), 6.0);
        QCOMPARE(QString::fromStdString(data.labelName), QString("y"));
        QCOMPARE(data.classNames, (std::vector<std::string>{"no", "yes"}));
        // By default the last column is the label: "b" then holds 2, 4, 6 and "y" is text.
        QVERIFY_THROWS_EXCEPTION(DataError, readExamples({path, "csv"}, {}));
        source.options = {{"label_colum", "0"}};
        QVERIFY(!checkReaderOptions(source, &why));
        QVERIFY2(why.find("label_colum") != std::string::npos && why.find(path) == 0, why.c_str());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, readExamples(source, {}));
        source.options = {{"delimiter", "colon"}};
        QVERIFY(!checkReaderOptions(source, &why));
        const DataSource libsvm{kData + "/heart_scale", "libsvm", {{"label_column", "0"}}};
        QVERIFY(!checkReaderOptions(libsvm, &why));
        QVERIFY2(why.find("takes no options") != std::string::npos, why.c_str());
        std::filesystem::remove_all(dir);
    }

    void unreadableFileIsNamed() {
        try {
            (void)readFilePrefix(kData + "/no_such_file");
            QFAIL("no error");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("no_such_file"), e.what());
        }
    }

    void sourceOfKindFallsBackToTheKindsReader() {
        // letter.data is not a dataset: as examples it is LIBSVM's to refuse, line by line.
        const DataSource asExamples =
            sourceOfKind(kData + "/ocr_letter.data.gz", DataKind::Examples);
        QCOMPARE(QString::fromStdString(asExamples.format), QString("libsvm"));
        const DataSource asRows =
            sourceOfKind(kData + "/kernel/heart30_linear_test.precomputed", DataKind::KernelRows);
        QCOMPARE(QString::fromStdString(asRows.format), QString("precomputed"));
    }

    void holdoutIsAPartition() {
        for (const int n : {2, 3, 10, 270, 1001}) {
            for (const double fraction : {0.1, 0.3, 0.5, 0.9}) {
                const HeldOut parts = drawHoldout(n, fraction, 7);
                QCOMPARE(static_cast<long long>(parts.test.size()), std::llround(fraction * n));
                std::vector<int> all = parts.train;
                all.insert(all.end(), parts.test.begin(), parts.test.end());
                std::sort(all.begin(), all.end());
                for (int i = 0; i < n; ++i)
                    QCOMPARE(all[static_cast<std::size_t>(i)], i);
                QVERIFY(std::is_sorted(parts.test.begin(), parts.test.end()));
                const HeldOut again = drawHoldout(n, fraction, 7);
                QCOMPARE(again.test, parts.test);
            }
        }
        QVERIFY(drawHoldout(100, 0.3, 1).test != drawHoldout(100, 0.3, 2).test);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, drawHoldout(10, 1.5, 1));
    }

    void holdoutRefusesAnEmptyPart() {
        try {
            (void)holdout(30, 0.01, 1, "heart30", "sequences");
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()),
                     QString("test fraction 0.01 of the 30 sequences of 'heart30' leaves no test "
                             "sequence; choose a fraction between 0.03333333333333333 and "
                             "0.9666666666666667"));
        }
        QCOMPARE(holdout(30, 0.5, 1, "x").test.size(), std::size_t{15});
    }

    void splitOptions() {
        TestSplit split;
        QVERIFY(parseTestSplit({{"test_fraction", "0.25"}, {"seed", "3"}}, &split, nullptr));
        QCOMPARE(split.fraction, 0.25);
        QCOMPARE(split.seed, std::int64_t{3});
        QCOMPARE(split.toOptions(), (OptionValues{{"test_fraction", "0.25"}, {"seed", "3"}}));
        std::string why;
        QVERIFY(!parseTestSplit({{"test", "t"}, {"test_fraction", "0.2"}}, &split, &why));
        QVERIFY2(why.find("not both") != std::string::npos, why.c_str());
        QVERIFY(!parseTestSplit({{"test_fraction", "1"}}, &split, &why));
        QVERIFY(TestSplit{}.none());
        QVERIFY(TestSplit{}.toOptions().empty());
    }

    // A test split of a dataset, of kernel rows and of sequences, through one rule.
    void splitsOfEveryKind() {
        TestSplit split;
        split.fraction = 0.3;
        const ExampleSets heart =
            splitExamples(readExamples({kData + "/heart_scale", "libsvm"}, {}), split);
        QCOMPARE(heart.test->size(), 81);
        QCOMPARE(heart.train->size(), 189);
        const ExampleSets rows = splitExamples(
            readExamples({kData + "/kernel/heart30_linear.precomputed", "precomputed"}, {}), split,
            true);
        QCOMPARE(rows.test->size(), 9);
        QCOMPARE(rows.test->dimension(), 21);  // held-out rows against the kept examples
        QCOMPARE(rows.train->size(), 21);
        QCOMPARE(rows.train->dimension(), 21);
        // The kept block is the kernel's own: K(i, j) of the kept examples i, j.
        const Dataset whole =
            readExamples({kData + "/kernel/heart30_linear.precomputed", "precomputed"}, {});
        const HeldOut parts = drawHoldout(30, 0.3, 1);
        QCOMPARE(rows.train->row(2)(5), whole.row(parts.train[2])(parts.train[5]));
        QCOMPARE(rows.test->row(1)(4), whole.row(parts.test[1])(parts.train[4]));
        const SequenceSets words =
            splitSequences(readSequences({kData + "/ocr_letter.data.gz", "letter"}), split);
        QCOMPARE(words.test->size() + words.train->size(), 6877);
        QCOMPARE(words.test->size(), static_cast<int>(std::llround(0.3 * 6877)));
    }
};

QTEST_APPLESS_MAIN(TestDataFormat)
#include "test_data_format.moc"
