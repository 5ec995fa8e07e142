// SPDX-License-Identifier: GPL-3.0-or-later
// LIBSVM reader and writer: real files against their published counts, every accepted syntax
// variant, exact round trips (dense/sparse, plain/gzip), load options and speed.
#include <QtTest>
#include <fstream>
#include <sstream>

#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "data/text_io.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;
const std::string kResources = std::string(CPLAB_SOURCE_DIR) + "/resources/datasets";

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Empty when a and b hold exactly the same examples, else the first difference.
std::string difference(const Dataset& a, const Dataset& b) {
    if (a.size() != b.size())
        return "sizes " + std::to_string(a.size()) + " / " + std::to_string(b.size());
    if (a.dimension() != b.dimension()) return "dimensions differ";
    for (int i = 0; i < a.size(); ++i) {
        if (a.labels[i] != b.labels[i]) return "label of row " + std::to_string(i);
        const Eigen::VectorXd x = a.row(i);
        const Eigen::VectorXd y = b.row(i);
        for (int j = 0; j < a.dimension(); ++j) {
            // Compare bits, so that -0 and 0 or a changed last digit would show.
            if (std::memcmp(&x[j], &y[j], sizeof(double)) != 0) {
                return "row " + std::to_string(i) + " feature " + std::to_string(j + 1) + ": " +
                       formatReal(x[j]) + " vs " + formatReal(y[j]);
            }
        }
    }
    return {};
}

using Entries = QList<QPair<int, double>>;  // (1-based index, value) of the first row

}  // namespace

class TestLibsvmFormat : public QObject {
    Q_OBJECT

  private slots:
    // A file is parsed piece by piece (TextPieces, 256 KB each): a 1.6 MB file, plain and
    // gzip, loads as the same text parsed whole, with the line numbers of its messages right
    // across pieces; pieces cut at line ends even for lines longer than a piece.
    void piecesLoadAsTheWholeText() {
        QTemporaryDir dir;
        std::string text = "\xEF\xBB\xBF# byte-order mark and a comment\n";
        for (int i = 0; i < 40000; ++i) {
            text += (i % 3 ? "+1" : "-1");
            for (int j = 1 + i % 7; j <= 30; j += 4)
                text += " " + std::to_string(j) + ":" + formatReal(0.25 * ((i + j) % 13) - 1.5);
            text += (i % 1000 == 0 ? "\r\n" : "\n");
        }
        text += "+1 1:" + std::string(300000, '1') + "e-300000 2:1\n";  // longer than a piece
        text += "-1 3:2";                                               // no line end
        const Dataset whole = parseLibsvm(text, "memory");
        for (const bool gzip : {false, true}) {
            const std::string path = dir.filePath(gzip ? "big.gz" : "big.txt").toStdString();
            writeOutputFile(path, text, gzip);
            const Dataset loaded = loadLibsvm(path);
            QCOMPARE(QString::fromStdString(difference(loaded, whole)), QString());
            QCOMPARE(loaded.lines.back(), 40003);
            writeOutputFile(path, text + "\n-1 2:x\n", gzip);
            try {
                loadLibsvm(path);
                QFAIL("a bad value on the last line was accepted");
            } catch (const DataError& e) {
                QCOMPARE(e.line(), 40004);
            }
        }
    }

    void realFiles_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("inMemory");  // as a built-in resource: parseLibsvm(bytes)
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("d");
        QTest::addColumn<qlonglong>("nonZeros");
        QTest::addColumn<int>("positives");
        QTest::addColumn<double>("firstLabel");
        QTest::addColumn<Entries>("firstRow");  // includes zeros for absent indices

        // Counts from the dataset READMEs (/work/shared/datasets/*/README.md).
        QTest::newRow("heart_scale")
            << QString::fromStdString(kData + "/heart_scale") << false << 270 << 13 << 3378LL << 120
            << 1.0 << Entries{{1, 0.708333}, {4, -0.320755}, {11, 0}, {13, -1}};
        QTest::newRow("australian_scale (CRLF, blank lines)")
            << QString::fromStdString(kData + "/australian_scale") << false << 690 << 14 << 8447LL
            << 307 << -1.0 << Entries{{1, 1}, {2, -0.749474}, {4, 0}, {14, -0.97576}};
        QTest::newRow("a9a.gz") << QString::fromStdString(kData + "/a9a.gz") << false << 32561
                                << 123 << 451592LL << 7841 << -1.0
                                << Entries{{1, 0}, {3, 1}, {11, 1}, {83, 1}, {123, 0}};
        // The README counts 225,732 tokens; one is the explicit "123:0" on line 5 (it gives the
        // test set the training set's 123 features), which sets d but is not stored.
        QTest::newRow("a9a.t.gz") << QString::fromStdString(kData + "/a9a.t.gz") << false << 16281
                                  << 123 << 225731LL << 3846 << -1.0
                                  << Entries{{1, 1}, {2, 0}, {6, 1}, {83, 1}};
        QTest::newRow("builtin heart_scale")
            << QString::fromStdString(kResources + "/heart_scale") << true << 270 << 13 << 3378LL
            << 120 << 1.0 << Entries{{1, 0.708333}, {12, 1}};
        QTest::newRow("builtin ionosphere_scale")
            << QString::fromStdString(kResources + "/ionosphere_scale") << true << 351 << 34
            << 10551LL << 225 << 1.0 << Entries{{1, 1}, {2, 0}, {3, 0.99539}, {34, -0.453}};
        QTest::newRow("builtin ripley_train")
            << QString::fromStdString(kResources + "/ripley_train") << true << 250 << 2 << 500LL
            << 125 << -1.0 << Entries{{1, 0.05100797}, {2, 0.16086164}};
    }
    void realFiles() {
        QFETCH(QString, path);
        QFETCH(bool, inMemory);
        QFETCH(int, m);
        QFETCH(int, d);
        QFETCH(qlonglong, nonZeros);
        QFETCH(int, positives);
        QFETCH(double, firstLabel);
        QFETCH(Entries, firstRow);

        const std::string file = path.toStdString();
        const std::string builtin = "builtin:" + QFileInfo(path).fileName().toStdString();
        const Dataset data = inMemory ? parseLibsvm(readBytes(file), builtin) : loadLibsvm(file);
        QVERIFY2(data.contractViolation().empty(), data.contractViolation().c_str());
        QCOMPARE(data.source, inMemory ? builtin : file);
        QCOMPARE(data.name, inMemory ? builtin : QFileInfo(path).fileName().toStdString());
        QVERIFY(data.sparseStorage);
        QCOMPARE(data.size(), m);
        QCOMPARE(data.dimension(), d);
        QCOMPARE(data.nonZeros(), nonZeros);
        QCOMPARE(data.classes(), (std::vector<double>{-1, 1}));
        QCOMPARE(static_cast<int>((data.labels.array() > 0).count()), positives);
        QCOMPARE(data.labels[0], firstLabel);
        const Eigen::VectorXd x0 = data.row(0);
        for (const auto& [index, value] : firstRow)
            QCOMPARE(x0[index - 1], value);
    }

    void syntaxVariants_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("d");
        QTest::addColumn<qlonglong>("nonZeros");
        QTest::addColumn<QList<double>>("labels");
        QTest::addColumn<double>("x12");  // feature 2 of example 1 (0-based example 0)

        QTest::newRow("plain") << QByteArray("+1 1:0.5 2:-3\n-1 3:1\n") << 3 << 3LL
                               << QList<double>{1, -1} << -3.0;
        QTest::newRow("labels +1 -1 1 2.5 -0.5e1")
            << QByteArray("+1 2:1\n-1 1:1\n1 1:1\n2.5 1:1\n-0.5e1 1:1\n") << 2 << 5LL
            << QList<double>{1, -1, 1, 2.5, -5} << 1.0;
        QTest::newRow("qid ignored") << QByteArray("3 qid:1 1:0.5 2:7\n2 qid:12 1:1\n") << 2 << 3LL
                                     << QList<double>{3, 2} << 7.0;
        QTest::newRow("comments") << QByteArray("# a header\n+1 1:1 2:4 # trailing\n#\n-1 2:2#x\n")
                                  << 2 << 3LL << QList<double>{1, -1} << 4.0;
        QTest::newRow("CRLF and blank lines") << QByteArray("+1 1:1 2:5\r\n\r\n-1 2:2\r\n\r\n") << 2
                                              << 3LL << QList<double>{1, -1} << 5.0;
        QTest::newRow("tabs, trailing blanks") << QByteArray("+1\t1:1\t2:6 \t\n  -1 2:2   \n") << 2
                                               << 3LL << QList<double>{1, -1} << 6.0;
        QTest::newRow("no final newline")
            << QByteArray("+1 2:8\n-1 2:2") << 2 << 2LL << QList<double>{1, -1} << 8.0;
        QTest::newRow("explicit zeros set d, not stored")
            << QByteArray("+1 1:0 2:9 5:0\n-1 2:1\n") << 5 << 2LL << QList<double>{1, -1} << 9.0;
        QTest::newRow("no features")
            << QByteArray("+1\n-1\n") << 0 << 0LL << QList<double>{1, -1} << 0.0;
        QTest::newRow("UTF-8 BOM and comment") << QByteArray("\xEF\xBB\xBF+1 2:3 # caf\xC3\xA9\n")
                                               << 2 << 1LL << QList<double>{1} << 3.0;
    }
    void syntaxVariants() {
        QFETCH(QByteArray, text);
        QFETCH(int, d);
        QFETCH(qlonglong, nonZeros);
        QFETCH(QList<double>, labels);
        QFETCH(double, x12);
        const Dataset data = parseLibsvm(std::string_view(text.constData(), text.size()), "memory");
        QVERIFY(data.contractViolation().empty());
        QCOMPARE(data.dimension(), d);
        QCOMPARE(data.nonZeros(), nonZeros);
        QCOMPARE(data.size(), static_cast<int>(labels.size()));
        for (int i = 0; i < data.size(); ++i)
            QCOMPARE(data.labels[i], labels[i]);
        if (d >= 2) QCOMPARE(data.row(0)[1], x12);
    }

    void roundTrip_data() {
        QTest::addColumn<bool>("sparse");
        QTest::addColumn<bool>("gzip");
        QTest::newRow("sparse, plain") << true << false;
        QTest::newRow("sparse, gzip") << true << true;
        QTest::newRow("dense, plain") << false << false;
        QTest::newRow("dense, gzip") << false << true;
    }
    void roundTrip() {
        QFETCH(bool, sparse);
        QFETCH(bool, gzip);
        // Awkward doubles: no short decimal form, extremes, a subnormal; a zero last column.
        Dataset tricky;
        tricky.dense.resize(3, 4);
        tricky.dense << 0.1, 1.0 / 3.0, -2.5e-300, 0, 1.7976931348623157e308, 4.9e-324,
            -123456789.123456789, 0, 0, 0, 0, 0;
        tricky.labels = Eigen::Vector3d(1.0 / 7.0, -1, 2.5);
        tricky.setSparseStorage(sparse);

        LoadOptions options;
        options.storage = sparse ? Storage::Sparse : Storage::Dense;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const Dataset& original : {tricky, loadLibsvm(kData + "/heart_scale", options)}) {
            options.dimension = original.dimension();  // the format cannot record it
            const std::string path = dir.filePath("out.libsvm").toStdString();
            writeLibsvm(path, original, gzip);
            QCOMPARE(isGzip(readBytes(path)), gzip);
            const Dataset back = loadLibsvm(path, options);
            QCOMPARE(back.sparseStorage, sparse);
            QVERIFY2(difference(original, back).empty(), difference(original, back).c_str());
            const Dataset inMemory = parseLibsvm(formatLibsvm(original), "memory", options);
            QVERIFY(difference(original, inMemory).empty());
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("out.libsvm.part")));  // temporary renamed away
    }

    void writerMatchesFileText() {
        // heart_scale's text uses the shortest forms already, so only "+1" → "1" and the
        // trailing blank before the newline change.
        const std::string original = readBytes(kData + "/heart_scale");
        std::string expected;
        std::istringstream lines(original);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("+1", 0) == 0) line.erase(0, 1);
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            expected += line + "\n";
        }
        QCOMPARE(formatLibsvm(loadLibsvm(kData + "/heart_scale")), expected);
    }

    void gzipDetectedByMagicBytes() {
        QTemporaryDir dir;
        const std::string gzipNamedTxt = dir.filePath("data.txt").toStdString();
        const std::string plainNamedGz = dir.filePath("data.gz").toStdString();
        const Dataset heart = loadLibsvm(kData + "/heart_scale");
        writeLibsvm(gzipNamedTxt, heart, true);
        writeLibsvm(plainNamedGz, heart, false);
        QVERIFY(difference(heart, loadLibsvm(gzipNamedTxt)).empty());
        QVERIFY(difference(heart, loadLibsvm(plainNamedGz)).empty());
    }

    void multiMemberGzip() {
        // `cat a.gz b.gz` is a valid gzip file whose text is the concatenation.
        const std::string bytes = deflateGzip("+1 1:1\n-1 2:2\n") + deflateGzip("+1 3:3\n");
        const Dataset data = parseLibsvm(bytes, "builtin:two-members");
        QCOMPARE(data.size(), 3);
        QCOMPARE(data.dimension(), 3);
        QCOMPARE(data.row(2)[2], 3.0);
    }

    void loadOptions() {
        LoadOptions options;
        options.dimension = 20;  // pads, e.g. to a training set's d
        options.storage = Storage::Dense;
        options.minClasses = 2;
        const Dataset heart = loadLibsvm(kData + "/heart_scale", options);
        QVERIFY(!heart.sparseStorage);
        QCOMPARE(heart.dimension(), 20);
        QCOMPARE(heart.dense.rows(), Eigen::Index(270));
        QCOMPARE(heart.dense(0, 0), 0.708333);
        QVERIFY(heart.dense.rightCols(7).isZero(0));
        QVERIFY(heart.contractViolation().empty());

        options = {};
        options.dimension = 5;  // smaller than the file's: never shrinks
        QCOMPARE(loadLibsvm(kData + "/heart_scale", options).dimension(), 13);

        options = {};
        options.binaryLabels = true;
        const Dataset mapped = parseLibsvm("2 1:1\n4 1:2\n2 1:3\n", "memory", options);
        QVERIFY(mapped.labels == Eigen::Vector3d(-1, 1, -1));
        QCOMPARE(mapped.classNames, (std::vector<std::string>{"2", "4"}));

        options = {};
        options.minClasses = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseLibsvm("1 1:1\n", "memory", options));
    }

    void a9aLoads() {
        // Load speed is measured by the benchmarks (tests/bench), not asserted here.
        const Dataset a9a = loadLibsvm(kData + "/a9a.gz");
        QCOMPARE(a9a.size(), 32561);
        QCOMPARE(a9a.dimension(), 123);
        QVERIFY(a9a.sparseStorage);
    }

    void writeErrors() {
        const Dataset heart = loadLibsvm(kData + "/heart_scale");
        const std::string path = "/nonexistent-folder-of-cplab/out.libsvm";
        try {
            writeLibsvm(path, heart);
            QFAIL("no exception");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), path);
            QVERIFY2(std::string(e.what()).find("cannot write") != std::string::npos, e.what());
        }
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(DataError, writeLibsvm(dir.path().toStdString(), heart));
        Dataset broken = heart;
        broken.labels.resize(3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatLibsvm(broken));
    }
};

QTEST_APPLESS_MAIN(TestLibsvmFormat)
#include "test_libsvm_format.moc"
