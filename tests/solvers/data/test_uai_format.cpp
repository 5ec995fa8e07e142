// SPDX-License-Identifier: GPL-3.0-or-later
// UAI reader and writer: round trips checked by energies computed here from the tables,
// merging of factors against hand-computed logs, the UAI 2014 files (Segmentation_11 with its
// .MAP result and .evid evidence, wcsp_11 refused at its first 3-variable factor), libDAI's
// testfast.fg against the exact MAP that libDAI's junction tree found, and every bad input
// with its line and message.
#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "data/data_error.h"
#include "data/text_io.h"
#include "data/uai_format.h"

using namespace cplab;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
const std::string kUai = std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";
const std::string kLibdai = std::string(CPLAB_TEST_DATA_DIR) + "/map/libdai";

// E(x) straight from the tables (independent of any model class).
double energyOf(const UaiTables& t, const std::vector<int>& x) {
    double sum = t.constant;
    for (std::size_t v = 0; v < x.size(); ++v)
        sum += t.unary[v][static_cast<std::size_t>(x[v])];
    for (const auto& p : t.pairs) {
        const auto kv = static_cast<std::size_t>(t.cardinalities[static_cast<std::size_t>(p.v)]);
        sum += p.table[static_cast<std::size_t>(x[static_cast<std::size_t>(p.u)]) * kv +
                       static_cast<std::size_t>(x[static_cast<std::size_t>(p.v)])];
    }
    return sum;
}

std::vector<int> randomLabeling(const UaiTables& t, std::mt19937& rng) {
    std::vector<int> x(t.cardinalities.size());
    for (std::size_t v = 0; v < x.size(); ++v)
        x[v] = std::uniform_int_distribution<int>(0, t.cardinalities[v] - 1)(rng);
    return x;
}

// A random model: n variables with 1 to 4 labels, a random graph, some −∞ entries.
UaiTables randomTables(int n, std::mt19937& rng) {
    UaiTables t;
    std::uniform_real_distribution<double> theta(-5.0, 5.0);
    std::uniform_int_distribution<int> labels(1, 4);
    std::bernoulli_distribution forbidden(0.1);
    for (int v = 0; v < n; ++v) {
        t.cardinalities.push_back(labels(rng));
        std::vector<double> u;
        for (int x = 0; x < t.cardinalities.back(); ++x)
            u.push_back(forbidden(rng) ? kNegInf : theta(rng));
        t.unary.push_back(u);
    }
    for (int u = 0; u < n; ++u)
        for (int v = u + 1; v < n; ++v) {
            if (!std::bernoulli_distribution(0.4)(rng)) continue;
            UaiTables::Pair p;
            p.u = u;
            p.v = v;
            for (int i = 0; i < t.cardinalities[std::size_t(u)] * t.cardinalities[std::size_t(v)];
                 ++i)
                p.table.push_back(forbidden(rng) ? kNegInf : theta(rng));
            t.pairs.push_back(p);
        }
    t.constant = theta(rng);
    return t;
}

bool sameEnergy(double a, double b) {
    if (a == kNegInf || b == kNegInf) return a == b;
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(a));
}

// Writes `text` to dir/name and returns the path.
std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// The MAP labeling libDAI's junction tree reports in testfast.out: the argmax of each
// variable's max-marginal in the block after the line "JTREE_MINFILL_HUGIN_MAP".
std::vector<int> libdaiReferenceMap() {
    std::ifstream in(kLibdai + "/testfast.out");
    std::string line;
    while (std::getline(in, line) && line.rfind("JTREE_MINFILL_HUGIN_MAP", 0) != 0) {
    }
    std::vector<int> x;
    while (std::getline(in, line) && line.rfind("# ({x", 0) == 0) {
        const auto open = line.find(", (");
        double p0 = 0, p1 = 0;
        std::sscanf(line.c_str() + open + 3, "%lf, %lf", &p0, &p1);
        x.push_back(p1 > p0 ? 1 : 0);
    }
    return x;
}

}  // namespace

class TestUaiFormat : public QObject {
    Q_OBJECT

  private slots:
    // Written and read back (plain and gzip), random models give the same energy for random
    // labelings, −∞ entries (written as 0) included.
    void roundTrip() {
        QTemporaryDir dir;
        std::mt19937 rng(7);
        for (int trial = 0; trial < 20; ++trial) {
            const UaiTables t = randomTables(2 + trial % 7, rng);
            for (const bool gzip : {false, true}) {
                const std::string path = dir.filePath(gzip ? "m.uai.gz" : "m.uai").toStdString();
                writeUai(path, t, gzip);
                const UaiTables r = loadUai(path);
                QCOMPARE(r.cardinalities, t.cardinalities);
                QCOMPARE(r.pairs.size(), t.pairs.size());
                for (int k = 0; k < 50; ++k) {
                    const std::vector<int> x = randomLabeling(t, rng);
                    const double a = energyOf(t, x);
                    const double b = energyOf(r, x);
                    QVERIFY2(sameEnergy(a, b), qPrintable(QString("trial %1: %2 vs %3")
                                                              .arg(trial)
                                                              .arg(a, 0, 'g', 17)
                                                              .arg(b, 0, 'g', 17)));
                }
            }
        }
    }

    // Factors on the same scope (in either order) are summed; the last scope variable changes
    // fastest; comments, tabs, CRLF and tables spread over lines are accepted; 0 gives −∞.
    void mergesFactorsAndReadsLayout() {
        const std::string text =
            "c a comment\r\nMARKOV\r\n3\r\n2 3 2\r\n6\r\n1 0\r\n2 0 1\r\n2\t1 0\r\n1 0\r\n0\r\n"
            "2 2 1\r\n"
            "\r\n2\r\n 0.5 2\r\n"
            "6\r\n1 2 3\r\n4 5 0\r\n"
            "6\r\n1 1 2 2 3 3\r\n"  // scope (1, 0): x_1 major
            "2\r\n4 1\r\n"
            "1\r\n 2.5\r\n"
            "c comment between tables\r\n6 0.5 1 1 1 1 1\r\n";
        const UaiTables t = parseUai(text, "memory");
        QCOMPARE(t.cardinalities, (std::vector<int>{2, 3, 2}));
        QCOMPARE(t.pairs.size(), std::size_t(2));
        QCOMPARE(t.unary[0][0], std::log(0.5) + std::log(4.0));
        QCOMPARE(t.unary[0][1], std::log(2.0) + std::log(1.0));
        QCOMPARE(t.unary[1], (std::vector<double>{0, 0, 0}));
        QCOMPARE(t.constant, std::log(2.5));
        const auto& p01 = t.pairs[0];
        QCOMPARE(p01.u, 0);
        QCOMPARE(p01.v, 1);
        // (0,1) table [[1 2 3][4 5 0]] plus (1,0) table x_1-major [[1 1][2 2][3 3]].
        QCOMPARE(p01.table[0 * 3 + 2], std::log(3.0) + std::log(3.0));  // x0=0, x1=2
        QCOMPARE(p01.table[1 * 3 + 0], std::log(4.0) + std::log(1.0));  // x0=1, x1=0
        QCOMPARE(p01.table[1 * 3 + 2], kNegInf);                        // 0 entry
        const auto& p12 = t.pairs[1];
        QCOMPARE(p12.u, 1);
        QCOMPARE(p12.v, 2);
        // Scope (2, 1), x_2 major: index x2·3 + x1; only index 0 (x2 = x1 = 0) is 0.5.
        QCOMPARE(p12.table[1 * 2 + 0], std::log(1.0));  // x1=1, x2=0: index 1
        QCOMPARE(p12.table[0 * 2 + 0], std::log(0.5));  // x1=0, x2=0: index 0
    }

    // The UAI 2014 segmentation model loads (228 variables of 21 labels, 852 factors: one
    // unary each and 624 distinct pairs) with its evidence file; the reference MAP labeling
    // has a finite energy.
    void segmentation11() {
        const UaiTables t = loadUai(kUai + "/Segmentation_11.uai.gz");
        QCOMPARE(t.cardinalities.size(), std::size_t(228));
        QCOMPARE(t.cardinalities[0], 21);
        QCOMPARE(t.pairs.size(), std::size_t(852 - 228));
        const auto evidence = loadUaiEvidence(kUai + "/Segmentation_11.uai.evid", t.cardinalities);
        QVERIFY(evidence.empty());
        const std::vector<int> x =
            loadUaiResult(kUai + "/Segmentation_11.uai.MAP", t.cardinalities);
        QCOMPARE(x.size(), std::size_t(228));
        QCOMPARE(x[1], 12);
        const double e = energyOf(t, x);
        QVERIFY2(std::isfinite(e), qPrintable(QString::number(e)));
        // A labeling far from the reference (all label 5) scores lower.
        QVERIFY(energyOf(t, std::vector<int>(228, 5)) < e);
    }

    // Every pairwise UAI 2014 instance loads and its reference labeling has a finite energy.
    void allPairwiseInstances_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("variables");
        for (const auto& [name, n] :
             std::vector<std::pair<const char*, int>>{{"Grids_18", 1600},
                                                      {"Grids_26", 400},
                                                      {"ImageAlignment_12", 30},
                                                      {"ObjectDetection_11", 60},
                                                      {"ProteinFolding_11", 400},
                                                      {"ProteinFolding_15", 50},
                                                      {"Segmentation_12", 231},
                                                      {"wcsp_13", 179},
                                                      {"wcsp_15", 125}})
            QTest::newRow(name) << QString(name) << n;
    }
    void allPairwiseInstances() {
        QFETCH(QString, name);
        QFETCH(int, variables);
        const std::string base = kUai + "/" + name.toStdString() + ".uai";
        const UaiTables t = loadUai(base + ".gz");
        QCOMPARE(static_cast<int>(t.cardinalities.size()), variables);
        const std::vector<int> x = loadUaiResult(base + ".MAP", t.cardinalities);
        QVERIFY(std::isfinite(energyOf(t, x)));
    }

    // wcsp_11 has factors of three variables: kept as they are (the first is factor 17, on
    // line 22 of the file), each with its 3 variables and a table of Π k entries, beside the
    // pairs; the reference labeling's energy, with them, is finite.
    void readsHigherOrder() {
        const UaiTables t = loadUai(kUai + "/wcsp_11.uai.gz");
        QCOMPARE(t.factors.size(), std::size_t(590));
        for (const auto& f : t.factors) {
            QCOMPARE(f.variables.size(), std::size_t(3));
            std::size_t size = 1;
            for (const int v : f.variables)
                size *= std::size_t(t.cardinalities[std::size_t(v)]);
            QCOMPARE(f.table.size(), size);
        }
        const std::vector<int> x = loadUaiResult(kUai + "/wcsp_11.uai.MAP", t.cardinalities);
        double sum = energyOf(t, x);
        for (const auto& f : t.factors) {
            std::size_t i = 0;
            for (const int v : f.variables)
                i = i * std::size_t(t.cardinalities[std::size_t(v)]) +
                    std::size_t(x[std::size_t(v)]);
            sum += f.table[i];
        }
        QVERIFY(std::isfinite(sum));
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("bayes") << QByteArray("BAYES\n1\n2\n1\n1 0\n2\n0.5 0.5\n") << 1
                               << "a BAYES network";
        QTest::newRow("unknown header")
            << QByteArray("c x\nMARKOF\n1\n2\n") << 2 << "unknown network type 'MARKOF'";
        QTest::newRow("empty") << QByteArray("") << 0 << "unexpected end of file";
        QTest::newRow("zero labels")
            << QByteArray("MARKOV\n2\n2 0\n") << 3 << "cardinality of variable 1 '0' must be";
        QTest::newRow("ternary table short")
            << QByteArray("MARKOV\n3\n2 2 2\n2\n1 0\n3 0 1 2\n2\n1 1\n7\n1 1 1 1 1 1 1\n") << 9
            << "the table of factor 1 (variables 0 1 2, declared on line 6) has 7 entries; "
               "expected 8 = 2x2x2";
        QTest::newRow("variable out of range")
            << QByteArray("MARKOV\n2\n2 2\n1\n2 0 2\n") << 5 << "variable 2 in the scope";
        QTest::newRow("variable twice")
            << QByteArray("MARKOV\n2\n2 2\n1\n2 1 1\n") << 5 << "appears twice";
        QTest::newRow("size mismatch") << QByteArray("MARKOV\n2\n2 3\n1\n2 0 1\n\n5\n1 1 1 1 1\n")
                                       << 7 << "has 5 entries; expected 6 = 2x3";
        QTest::newRow("negative entry")
            << QByteArray("MARKOV\n1\n2\n1\n1 0\n2\n0.5\n-0.5\n") << 8 << "'-0.5' is negative";
        QTest::newRow("not a number")
            << QByteArray("MARKOV\n1\n2\n1\n1 0\n2\n0.5 abc\n") << 7 << "'abc' is not a number";
        QTest::newRow("infinite entry")
            << QByteArray("MARKOV\n1\n2\n1\n1 0\n2\n0.5 inf\n") << 7 << "'inf' is not finite";
        QTest::newRow("truncated")
            << QByteArray("MARKOV\n2\n2 2\n2\n1 0\n1 1\n2\n0.5 0.5\n2\n0.5\n") << 10
            << "unexpected end of file: expected entry of factor 1";
        QTest::newRow("text after the end")
            << QByteArray("MARKOV\n1\n2\n1\n1 0\n2\n0.5 0.5\n\n0.7\n") << 9
            << "unexpected text '0.7' after the last table";
        QTest::newRow("binary") << QByteArray("MARKOV\n1\n2\n1\n1 0\n2\n0.5 \x01\x02\n") << 7
                                << "binary byte 0x01";
    }
    void badInput() {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "bad.uai", text.toStdString());
        for (const bool gzip : {false, true}) {
            if (gzip) writeOutputFile(path, text.toStdString(), true);
            try {
                loadUai(path);
                QFAIL("accepted");
            } catch (const DataError& e) {
                QCOMPARE(e.file(), path);
                QCOMPARE(e.line(), line);
                QVERIFY2(e.detail().find(message.toStdString()) != std::string::npos, e.what());
            }
        }
    }

    // Evidence clamps variables: other labels become −∞.
    void evidence() {
        UaiTables t = parseUai("MARKOV\n2\n3 2\n1\n1 0\n3\n1 2 3\n", "m");
        const auto ev = parseUaiEvidence("1\n0 2\n", "e", t.cardinalities);
        QCOMPARE(ev.size(), std::size_t(1));
        applyEvidence(t, ev);
        QCOMPARE(t.unary[0][0], kNegInf);
        QCOMPARE(t.unary[0][1], kNegInf);
        QCOMPARE(t.unary[0][2], std::log(3.0));
        for (const auto& [text, line, message] :
             std::vector<std::tuple<std::string, int, std::string>>{
                 {"1\n5 0\n", 2, "observed variable 5 is out of range"},
                 {"1\n1 2\n", 2, "label 2 of observed variable 1 is out of range"},
                 {"2\n1 1\n", 2, "unexpected end of file"},
                 {"1 0 0 7", 1, "unexpected text '7'"}}) {
            try {
                parseUaiEvidence(text, "e", t.cardinalities);
                QFAIL(text.c_str());
            } catch (const DataError& e) {
                QCOMPARE(e.line(), line);
                QVERIFY2(e.detail().find(message) != std::string::npos, e.what());
            }
        }
    }

    // MAP results: both layouts, a round trip through a file, and the bad cases.
    void results() {
        QCOMPARE(parseUaiResult("MAP\n3 0 1 2\n", "r"), (std::vector<int>{0, 1, 2}));
        QCOMPARE(parseUaiResult("MPE\n1\n3 0 1 2", "r"), (std::vector<int>{0, 1, 2}));
        QCOMPARE(parseUaiResult("MAP\n1 1", "r"), (std::vector<int>{1}));
        QTemporaryDir dir;
        const std::string path = dir.filePath("x.MAP").toStdString();
        writeUaiResult(path, {4, 0, 3});
        QCOMPARE(loadUaiResult(path, {5, 1, 4}), (std::vector<int>{4, 0, 3}));
        for (const auto& [text, line, message] :
             std::vector<std::tuple<std::string, int, std::string>>{
                 {"PR\n0.5\n", 1, "unknown result type 'PR'"},
                 {"MAP\n3 0 1\n", 2, "declares 3 variables but lists 2 labels"},
                 {"MAP\n3\n0\n0\nx\n", 5, "label of variable 2 'x' is not a number"},
                 {"MAP\n2 0 1\n", 2, "the result has 2 labels; the model has 3 variables"},
                 {"MAP\n3 0\n1\n2\n", 3, "label 1 of variable 1 is out of range"}}) {
            try {
                parseUaiResult(text, "r", {2, 1, 3});
                QFAIL(text.c_str());
            } catch (const DataError& e) {
                QCOMPARE(e.line(), line);
                QVERIFY2(e.detail().find(message) != std::string::npos, e.what());
            }
        }
    }

    // testfast.fg (a 4x4 binary grid): exhaustive search over its 2^16 labelings finds the
    // MAP labeling libDAI's junction tree reports in testfast.out.
    void libdaiTestfast() {
        std::vector<long long> labels;
        const UaiTables t = loadLibdaiFactorGraph(kLibdai + "/testfast.fg", &labels);
        QCOMPARE(t.cardinalities, std::vector<int>(16, 2));
        QCOMPARE(t.pairs.size(), std::size_t(24));
        QCOMPARE(labels.front(), 0LL);
        QCOMPARE(labels.back(), 15LL);
        const std::vector<int> reference = libdaiReferenceMap();
        QCOMPARE(reference.size(), std::size_t(16));
        std::vector<int> best;
        double bestEnergy = kNegInf;
        for (int code = 0; code < (1 << 16); ++code) {
            std::vector<int> x(16);
            for (int v = 0; v < 16; ++v)
                x[std::size_t(v)] = (code >> v) & 1;
            const double e = energyOf(t, x);
            if (e > bestEnergy) {
                bestEnergy = e;
                best = x;
            }
        }
        QCOMPARE(best, reference);
        // The first factor of the file, (x0, x4) with x0 changing fastest: entries
        // 1.55785 0.641909 0.641909 1.55785 at (0,0) (1,0) (0,1) (1,1).
        const auto& p = t.pairs[0];
        QCOMPARE(p.u, 0);
        QCOMPARE(p.v, 4);
        QCOMPARE(p.table[1 * 2 + 0], std::log(0.641909));
        QCOMPARE(p.table[1 * 2 + 1], std::log(1.55785));
    }

    void libdaiBadInput() {
        // hoi1.fg (libDAI's higher-order test graph) has 3 factors of 3 variables: kept, with
        // the first file variable fastest. Its factor 0 is over labels (2, 6, 7): entry 5 =
        // 1 + 0·2 + 1·4 is (x2, x6, x7) = (1, 0, 1), 1.9692111887049.
        {
            std::vector<long long> labels;
            const UaiTables t = loadLibdaiFactorGraph(kLibdai + "/hoi1.fg", &labels);
            QCOMPARE(t.factors.size(), std::size_t(3));
            const auto& f = t.factors[0];
            std::vector<long long> scope;
            for (const int v : f.variables)
                scope.push_back(labels[std::size_t(v)]);
            QCOMPARE(scope, (std::vector<long long>{7, 6, 2}));  // reversed: the last fastest
            QCOMPARE(f.table[1 * 4 + 0 * 2 + 1], std::log(1.9692111887049));
        }
        for (const auto& [text, line, message] :
             std::vector<std::tuple<std::string, int, std::string>>{
                 {"1\n\n1\n0\n2\n1\n5 1\n", 7, "entry index 5 of factor 0 is out of range"},
                 {"1\n\n1\n0\n2\n2\n0 1\n0 2\n", 8, "listed twice"},
                 {"1\n\n1\n0\n2\n1\n0 -1\n", 7, "is negative"},
                 {"2\n1\n0\n2\n0\n\n1\n0\n3\n0\n", 9, "has 3 states here but 2 on line 4"},
                 {"1\n\n1\n0\n2\n2\n0 1\n", 7, "unexpected end of file"}}) {
            try {
                parseLibdaiFactorGraph(text, "fg");
                QFAIL(text.c_str());
            } catch (const DataError& e) {
                QCOMPARE(e.line(), line);
                QVERIFY2(e.detail().find(message) != std::string::npos, e.what());
            }
        }
    }

    // The writer refuses what it cannot write faithfully.
    void writerRefuses() {
        UaiTables t;
        t.cardinalities = {2};
        t.unary = {{0.0, 800.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatUai(t));
        t.unary = {{0.0, std::nan("")}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatUai(t));
        t.unary = {{0.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatUai(t));
    }
};

QTEST_APPLESS_MAIN(TestUaiFormat)
#include "test_uai_format.moc"
