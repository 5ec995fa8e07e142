// SPDX-License-Identifier: GPL-3.0-or-later
// CSV and whitespace tables: the real UCI tables with default options, label column choices,
// header detection, delimiters, quoting, text labels, feature+label table pairs (ripley) and
// exact round trips.
#include <QtTest>
#include <cstring>
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

// Empty when a and b hold bit-identical examples, labels and names, else the first difference.
std::string difference(const Dataset& a, const Dataset& b) {
    if (a.size() != b.size() || a.dimension() != b.dimension()) return "shapes differ";
    for (int i = 0; i < a.size(); ++i) {
        if (a.labels[i] != b.labels[i]) return "label of row " + std::to_string(i);
        const Eigen::VectorXd x = a.row(i);
        const Eigen::VectorXd y = b.row(i);
        if (std::memcmp(x.data(), y.data(), sizeof(double) * x.size()) != 0) {
            return "features of row " + std::to_string(i);
        }
    }
    if (a.featureNames != b.featureNames) return "feature names differ";
    if (a.classNames != b.classNames) return "class names differ";
    if (a.labelName != b.labelName) return "label names differ";
    return {};
}

Dataset parse(const char* text, const CsvOptions& csv = {}, const LoadOptions& options = {}) {
    return parseCsv(text, "memory.csv", csv, options);
}

using Entries = QList<QPair<int, double>>;  // (1-based column, value) of the first example

}  // namespace

class TestCsvFormat : public QObject {
    Q_OBJECT

  private slots:
    // All three real tables load with the default options: delimiter and header are detected,
    // and the label is the last column.
    void realTablesWithDefaults_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("d");
        QTest::addColumn<Entries>("firstRow");
        QTest::addColumn<double>("firstLabel");
        QTest::addColumn<double>("countedLabel");
        QTest::addColumn<int>("count");  // examples with countedLabel
        QTest::addColumn<QStringList>("classNames");
        QTest::addColumn<QString>("firstFeatureName");
        QTest::addColumn<QString>("labelName");

        // Counts from the dataset READMEs (housing: MEDV is censored at 50 in 16 rows, counted
        // with awk); first rows read off the files.
        QTest::newRow("sonar: no header, text labels R/M")
            << "sonar.all-data" << 208 << 60 << Entries{{1, 0.02}, {2, 0.0371}, {60, 0.0032}} << 1.0
            << 1.0 << 97 << QStringList{"M", "R"} << ""
            << "";
        QTest::newRow("bupa: header line, selector 1/2")
            << "bupa.data" << 345 << 6 << Entries{{1, 85}, {2, 92}, {5, 31}, {6, 0}} << 1.0 << 1.0
            << 145 << QStringList{} << "mean_corpuscular_volume"
            << "selector";
        QTest::newRow("housing: whitespace table, MEDV")
            << "housing.data" << 506 << 13 << Entries{{1, 0.00632}, {2, 18}, {4, 0}, {13, 4.98}}
            << 24.0 << 50.0 << 16 << QStringList{} << ""
            << "";
    }
    void realTablesWithDefaults() {
        QFETCH(QString, file);
        QFETCH(int, m);
        QFETCH(int, d);
        QFETCH(Entries, firstRow);
        QFETCH(double, firstLabel);
        QFETCH(double, countedLabel);
        QFETCH(int, count);
        QFETCH(QStringList, classNames);
        QFETCH(QString, firstFeatureName);
        QFETCH(QString, labelName);

        const Dataset data = loadCsv(kData + "/" + file.toStdString());
        QVERIFY2(data.contractViolation().empty(), data.contractViolation().c_str());
        QCOMPARE(data.name, file.toStdString());
        QVERIFY(!data.sparseStorage);
        QCOMPARE(data.size(), m);
        QCOMPARE(data.dimension(), d);
        for (const auto& [column, value] : firstRow)
            QCOMPARE(data.dense(0, column - 1), value);
        QCOMPARE(data.labels[0], firstLabel);
        QCOMPARE(static_cast<int>((data.labels.array() == countedLabel).count()), count);
        QStringList names;
        for (const std::string& name : data.classNames)
            names << QString::fromStdString(name);
        QCOMPARE(names, classNames);
        QCOMPARE(QString::fromStdString(data.featureNames.empty() ? "" : data.featureNames[0]),
                 firstFeatureName);
        QCOMPARE(QString::fromStdString(data.labelName), labelName);
    }

    void sonarLabelsFollowTheDocumentedMapping() {
        const Dataset sonar = loadCsv(kData + "/sonar.all-data");
        // Two text classes sorted: "M" ↔ −1, "R" ↔ +1; the file's first 97 rows are rocks.
        QCOMPARE(sonar.classValue(0), -1.0);
        QCOMPARE(sonar.labelText(1.0), std::string("R"));
        QCOMPARE(sonar.labels[96], 1.0);
        QCOMPARE(sonar.labels[97], -1.0);
        QCOMPARE(static_cast<int>((sonar.labels.array() == -1.0).count()), 111);
    }

    void labelColumnChoices_data() {
        QTest::addColumn<int>("labelColumn");
        QTest::addColumn<QString>("labelName");
        QTest::addColumn<double>("firstLabel");
        QTest::addColumn<double>("firstFeature");
        QTest::newRow("by name: drinks") << -1 << "half-pint_drinks/day" << 0.0 << 85.0;
        QTest::newRow("by name: first column") << -1 << "mean_corpuscular_volume" << 85.0 << 92.0;
        QTest::newRow("index 0") << 0 << "" << 85.0 << 92.0;
        QTest::newRow("index -2") << -2 << "" << 0.0 << 85.0;
        QTest::newRow("index 6 = last") << 6 << "" << 1.0 << 85.0;
    }
    void labelColumnChoices() {
        QFETCH(int, labelColumn);
        QFETCH(QString, labelName);
        QFETCH(double, firstLabel);
        QFETCH(double, firstFeature);
        CsvOptions csv;
        csv.labelColumn = labelColumn;
        csv.labelName = labelName.toStdString();
        const Dataset bupa = loadCsv(kData + "/bupa.data", csv);
        QCOMPARE(bupa.size(), 345);
        QCOMPARE(bupa.dimension(), 6);
        QCOMPARE(bupa.labels[0], firstLabel);
        QCOMPARE(bupa.dense(0, 0), firstFeature);
        QCOMPARE(bupa.featureNames.size(), std::size_t(6));
    }

    void unlabeledTable() {
        CsvOptions csv;
        csv.unlabeled = true;
        const Dataset housing = loadCsv(kData + "/housing.data", csv);
        QCOMPARE(housing.dimension(), 14);
        QCOMPARE(housing.dense(0, 13), 24.0);
        QVERIFY(housing.labels.isZero(0));
    }

    void ripleyTablePairs_data() {
        QTest::addColumn<QString>("stem");
        QTest::addColumn<int>("m");
        QTest::addColumn<double>("x11");
        QTest::addColumn<double>("x12");
        QTest::newRow("train") << "ripley_train" << 250 << 0.051007970 << 0.16086164;
        QTest::newRow("test") << "ripley_test" << 1000 << -0.970990139 << 0.42942495;
    }
    void ripleyTablePairs() {
        QFETCH(QString, stem);
        QFETCH(int, m);
        QFETCH(double, x11);
        QFETCH(double, x12);
        LoadOptions options;
        options.binaryLabels = true;  // 0/1 → −1/+1
        options.minClasses = 2;
        const std::string base = kData + "/" + stem.toStdString();
        const Dataset data =
            loadTableWithLabels(base + "_data.asc", base + "_labels.asc", {}, options);
        QVERIFY(data.contractViolation().empty());
        QCOMPARE(data.size(), m);
        QCOMPARE(data.dimension(), 2);
        QCOMPARE(data.dense(0, 0), x11);
        QCOMPARE(data.dense(0, 1), x12);
        QCOMPARE(data.labels[0], -1.0);  // first label is 0 in both files
        QCOMPARE(static_cast<int>((data.labels.array() == 1.0).count()), m / 2);
        QCOMPARE(data.classNames, (std::vector<std::string>{"0", "1"}));
    }

    void ripleyResourceEqualsTables() {
        // resources/datasets/ripley_train was converted with awk; it must hold the same numbers.
        LoadOptions options;
        options.binaryLabels = true;
        Dataset tables = loadTableWithLabels(kData + "/ripley_train_data.asc",
                                             kData + "/ripley_train_labels.asc", {}, options);
        const Dataset resource =
            parseLibsvm(readBytes(kResources + "/ripley_train"), "builtin:ripley_train");
        tables.classNames.clear();  // the resource has no record of the 0/1 names
        QCOMPARE(difference(tables, resource), std::string());
    }

    void headerDetection_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("header");  // CsvHeader as int
        QTest::addColumn<int>("m");
        QTest::addColumn<QString>("firstName");
        QTest::newRow("auto: names over numbers") << QByteArray("a,b,y\n1,2,3\n") << 0 << 1 << "a";
        QTest::newRow("auto: text label only (sonar-like)")
            << QByteArray("1,2,R\n3,4,M\n") << 0 << 2 << "";
        QTest::newRow("auto: one numeric row") << QByteArray("1,2,3\n") << 0 << 1 << "";
        QTest::newRow("auto: quoted numbers are numbers")
            << QByteArray("\"1\",2,3\n4,5,6\n") << 0 << 2 << "";
        QTest::newRow("auto: numeric-looking header after comments")
            << QByteArray("# comment\n\nx1,x2,y\n1,2,3\n") << 0 << 1 << "x1";
        QTest::newRow("yes: numbers as names") << QByteArray("1,2,3\n4,5,6\n") << 1 << 1 << "1";
        QTest::newRow("no: text first row becomes labels")
            << QByteArray("1,2,a\n4,5,b\n") << 2 << 2 << "";
    }
    void headerDetection() {
        QFETCH(QByteArray, text);
        QFETCH(int, header);
        QFETCH(int, m);
        QFETCH(QString, firstName);
        CsvOptions csv;
        csv.header = static_cast<CsvHeader>(header);
        const Dataset data = parse(text.constData(), csv);
        QCOMPARE(data.size(), m);
        QCOMPARE(QString::fromStdString(data.featureNames.empty() ? "" : data.featureNames[0]),
                 firstName);
    }

    void delimiters_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<char>("delimiter");
        QTest::newRow("comma with blanks") << QByteArray("1, 2 ,  3\n4,5,6\n") << '\0';
        QTest::newRow("semicolon") << QByteArray("1;2;3\n4;5;6\n") << ';';
        QTest::newRow("tab") << QByteArray("1\t2\t3\n4\t5\t6\n") << '\t';
        QTest::newRow("pipe") << QByteArray("1|2|3\n4|5|6\n") << '|';
        QTest::newRow("whitespace (auto)") << QByteArray("  1 \t 2   3\n4 5 6   \n") << '\0';
        QTest::newRow("CRLF") << QByteArray("1,2,3\r\n4,5,6\r\n") << '\0';
        // Detected: the same nonzero count of ';' (or '|') on every one of the first rows.
        QTest::newRow("semicolon (auto)") << QByteArray("1;2;3\n4;5;6\n") << '\0';
        QTest::newRow("semicolon with a header (auto)")
            << QByteArray("a;b;y\n1;2;3\n4;5;6\n") << '\0';
        QTest::newRow("pipe (auto)") << QByteArray("1|2|3\n4|5|6\n") << '\0';
    }
    void delimiters() {
        QFETCH(QByteArray, text);
        QFETCH(char, delimiter);
        CsvOptions csv;
        csv.delimiter = delimiter;
        const Dataset data = parse(text.constData(), csv);
        QCOMPARE(data.size(), 2);
        QCOMPARE(data.dimension(), 2);
        Eigen::Matrix<double, 2, 2, Eigen::RowMajor> expected;
        expected << 1, 2, 4, 5;
        QVERIFY(data.dense == expected);
        QVERIFY(data.labels == Eigen::Vector2d(3, 6));
    }

    void quotedFields() {
        const Dataset data =
            parse("\"name, with comma\",b,\"la\"\"bel\"\n1,\"2\",\"x y\"\n3,4,z\n");
        QCOMPARE(data.featureNames, (std::vector<std::string>{"name, with comma", "b"}));
        QCOMPARE(data.labelName, std::string("la\"bel"));
        QCOMPARE(data.classNames, (std::vector<std::string>{"x y", "z"}));
        QCOMPARE(data.dense(0, 1), 2.0);
        QVERIFY(data.labels == Eigen::Vector2d(-1, 1));
    }

    void manyTextClasses() {
        const Dataset data = parse("1,b\n2,a\n3,c\n4,a\n5,1\n");
        // Any non-number makes the whole column text; sorted: "1" < "a" < "b" < "c".
        QCOMPARE(data.classNames, (std::vector<std::string>{"1", "a", "b", "c"}));
        Eigen::VectorXd expected(5);
        expected << 2, 1, 3, 1, 0;
        QVERIFY(data.labels == expected);
        QCOMPARE(data.labelText(3.0), std::string("c"));
    }

    // A file is parsed piece by piece (256 KB of whole lines each, in two passes): a table of
    // about 1.5 MB, plain and gzip, loads exactly as its text parsed whole, text labels and
    // blank lines included, and an error far into it names its line.
    void piecesLoadAsTheWholeText() {
        std::string text = "# generated\nx1;x2;class\n";
        const char* names[] = {"pear", "apple", "fig"};
        for (int i = 0; i < 60000; ++i) {
            text +=
                std::to_string(i) + ";" + formatReal(i * 0.001 - 7.5) + ";" + names[i % 3] + "\n";
            if (i % 1000 == 999) text += "\n";
        }
        const Dataset whole = parseCsv(text, "memory.csv");
        QCOMPARE(whole.size(), 60000);
        QCOMPARE(whole.classNames, (std::vector<std::string>{"apple", "fig", "pear"}));
        QCOMPARE(whole.labels[4], 0.0);  // apple
        QCOMPARE(whole.dense(59999, 1), 59999 * 0.001 - 7.5);
        QCOMPARE(whole.lines[59999], 2 + 60000 + 59);  // 59 blank lines before
        QTemporaryDir dir;
        for (bool gzip : {false, true}) {
            const std::string path = dir.filePath(gzip ? "t.csv.gz" : "t.csv").toStdString();
            writeOutputFile(path, text, gzip);
            const Dataset pieces = loadCsv(path);
            QVERIFY2(difference(whole, pieces).empty(), difference(whole, pieces).c_str());
            QVERIFY(pieces.lines == whole.lines);
        }
        std::string bad = text;
        bad.replace(bad.rfind("59998;"), 6, "59998;;");
        const std::string path = dir.filePath("bad.csv").toStdString();
        writeOutputFile(path, bad);
        try {
            loadCsv(path);
            QFAIL("a row with 4 fields loaded");
        } catch (const DataError& e) {
            QCOMPARE(e.line(), 2 + 59999 + 59);
            QVERIFY2(QString(e.what()).contains("4 fields, expected 3"), e.what());
        }
    }

    void sparseStorageOption() {
        LoadOptions options;
        options.storage = Storage::Sparse;
        const Dataset bupa = loadCsv(kData + "/bupa.data", {}, options);
        QVERIFY(bupa.sparseStorage);
        QVERIFY(bupa.contractViolation().empty());
        QCOMPARE(bupa.row(0)[1], 92.0);
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("source");  // "sonar", "bupa" or "tricky"
        QTest::addColumn<bool>("sparse");
        QTest::addColumn<char>("delimiter");
        QTest::addColumn<bool>("labelFirst");
        QTest::addColumn<bool>("gzip");
        QTest::newRow("sonar, text labels") << "sonar" << false << ',' << false << false;
        QTest::newRow("sonar, gzip, label first") << "sonar" << false << ',' << true << true;
        QTest::newRow("bupa, semicolon") << "bupa" << false << ';' << false << false;
        QTest::newRow("bupa, sparse, tab, gzip") << "bupa" << true << '\t' << false << true;
        QTest::newRow("tricky, whitespace") << "tricky" << false << ' ' << false << false;
        QTest::newRow("tricky, sparse, pipe, label first")
            << "tricky" << true << '|' << true << false;
    }
    void roundTrip() {
        QFETCH(QString, source);
        QFETCH(bool, sparse);
        QFETCH(char, delimiter);
        QFETCH(bool, labelFirst);
        QFETCH(bool, gzip);
        Dataset original;
        if (source == "sonar") original = loadCsv(kData + "/sonar.all-data");
        if (source == "bupa") original = loadCsv(kData + "/bupa.data");
        if (source == "tricky") {
            original.dense.resize(2, 3);
            original.dense << 0.1, 1.0 / 3.0, -0.0, 4.9e-324, -1.7976931348623157e308, 1e-7;
            original.labels = Eigen::Vector2d(2.0 / 3.0, -5e300);
            original.featureNames = {"a b", "#c", "d\"e"};  // need quoting
            original.labelName = "y";
        }
        original.setSparseStorage(sparse);

        CsvWriteOptions write;
        write.delimiter = delimiter;
        write.labelFirst = labelFirst;
        write.gzip = gzip;
        CsvOptions read;
        read.delimiter = delimiter;
        read.header = CsvHeader::Yes;
        read.labelColumn = labelFirst ? 0 : -1;
        LoadOptions options;
        options.storage = sparse ? Storage::Sparse : Storage::Dense;

        QTemporaryDir dir;
        const std::string path = dir.filePath("out.csv").toStdString();
        writeCsv(path, original, write);
        QCOMPARE(isGzip(readBytes(path)), gzip);
        Dataset back = loadCsv(path, read, options);
        if (original.featureNames.empty()) {  // the writer made x1..xd up
            QCOMPARE(back.featureNames[0], std::string("x1"));
            back.featureNames.clear();
        }
        if (original.labelName.empty()) {
            QCOMPARE(back.labelName, std::string("label"));
            back.labelName.clear();
        }
        QVERIFY2(difference(original, back).empty(), difference(original, back).c_str());
        // -0.0 survives in dense storage (the sparse one drops it as a zero).
        if (source == "tricky" && !sparse) QVERIFY(std::signbit(back.dense(0, 2)));
    }

    void writerText() {
        Dataset data;
        data.dense.resize(2, 2);
        data.dense << 0.5, -1, 3, 1e-6;
        data.labels = Eigen::Vector2d(1, -1);
        data.classNames = {"no", "yes"};
        data.featureNames = {"f", ""};
        QCOMPARE(formatCsv(data), std::string("f,x2,label\n0.5,-1,yes\n3,1e-06,no\n"));
        CsvWriteOptions numbers;
        numbers.textLabels = false;
        numbers.header = false;
        numbers.delimiter = ' ';
        QCOMPARE(formatCsv(data, numbers), std::string("0.5 -1 1\n3 1e-06 -1\n"));
        // A name starting with a byte-order mark is quoted: first in the file, a reader would
        // take it for the mark and skip it.
        data.featureNames = {
            "\xEF\xBB\xBF"
            "f",
            "g"};
        const std::string text = formatCsv(data);
        QCOMPARE(text.substr(0, 7), std::string("\"\xEF\xBB\xBF"
                                                "f\","));
        QVERIFY(parse(text.c_str()).featureNames == data.featureNames);
    }

    // CsvHeader::Auto decides by the label column (csv_format.h): a first row is a header only
    // when its label is a text no other row uses (and its other fields are names, or the next
    // labels are numbers). A first row whose label is a number is data, so a text in its
    // features fails at line 1 exactly as it fails at line 2 (it used to be dropped silently
    // as a header, losing one example).
    void headerByTheLabelColumn_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("m");          // examples, or -1: a DataError
        QTest::addColumn<int>("line");       // the error's line
        QTest::addColumn<QString>("names");  // header names (features, then the label), or
                                             // the error's fragment
        QTest::newRow("text feature on line 1 is data, not a header")
            << QByteArray("1,x,0\n2,3,1\n4,5,0\n") << -1 << 1 << "column 2: value 'x'";
        QTest::newRow("the same row on line 2")
            << QByteArray("2,3,1\n1,x,0\n4,5,0\n") << -1 << 2 << "column 2: value 'x'";
        QTest::newRow("names over numeric labels")
            << QByteArray("a,b,y\n1,2,3\n4,5,6\n") << 2 << 0 << "a b y";
        QTest::newRow("numeric feature names, text label name")
            << QByteArray("0,1,label\n1,2,3\n4,5,6\n") << 2 << 0 << "0 1 label";
        QTest::newRow("names over text labels")
            << QByteArray("a,b,class\n1,2,yes\n3,4,no\n") << 2 << 0 << "a b class";
        QTest::newRow("a label other rows use makes the row data")
            << QByteArray("1,x,yes\n1,2,yes\n3,4,no\n") << -1 << 1 << "column 2: value 'x'";
        QByteArray late = "1,x,rare\n";
        for (int i = 0; i < 12; ++i)
            late += i % 2 ? "1,2,yes\n" : "3,4,no\n";
        late += "5,6,rare\n";
        QTest::newRow("a label first used again after the first ten rows")
            << late << -1 << 1 << "column 2: value 'x'";
        QTest::newRow("a label used again, quoted")
            << QByteArray("1,x,\"yes\"\n1,2,yes\n3,4,no\n") << -1 << 1 << "column 2: value 'x'";
        QTest::newRow("a header named like a class is data")
            << QByteArray("a,b,yes\n1,2,yes\n3,4,no\n") << -1 << 1 << "column 1: value 'a'";
        QTest::newRow("names over a single data row")
            << QByteArray("a,b,y\n1,2,3\n") << 1 << 0 << "a b y";
    }
    void headerByTheLabelColumn() {
        QFETCH(QByteArray, text);
        QFETCH(int, m);
        QFETCH(int, line);
        QFETCH(QString, names);
        try {
            const Dataset data = parse(text.constData());
            QCOMPARE(data.size(), m);
            std::string all;
            for (const std::string& name : data.featureNames)
                all += name + " ";
            QCOMPARE(QString::fromStdString(all + data.labelName), names);
        } catch (const DataError& e) {
            QVERIFY2(m < 0, e.what());
            QCOMPARE(e.line(), line);
            QVERIFY2(std::string(e.what()).find(names.toStdString()) != std::string::npos,
                     e.what());
        }
    }

    void oneLabelChoice() {
        // label_name and label_column together would silently ignore one: refused, each alone
        // accepted.
        std::string why;
        QVERIFY(!checkCsvReaderOptions({{"label_name", "y"}, {"label_column", "0"}}, &why));
        QVERIFY2(why.find("label_name and label_column both choose the label column") !=
                     std::string::npos,
                 why.c_str());
        QVERIFY2(checkCsvReaderOptions({{"label_name", "y"}}, &why), why.c_str());
        QVERIFY2(checkCsvReaderOptions({{"label_column", "0"}}, &why), why.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCsvFormat)
#include "test_csv_format.moc"
