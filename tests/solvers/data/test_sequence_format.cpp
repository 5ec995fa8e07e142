// SPDX-License-Identifier: GPL-3.0-or-later
// Sequence readers (Taskar's letter.data and the generic one-token-per-line format): the real
// OCR file against counts taken from it by other tools (awk over the uncompressed text, the
// dataset's README), exact round trips of the generic format, and every bad input with its
// message and line.
#include <QtTest>
#include <chrono>
#include <cstring>
#include <random>

#include "data/data_error.h"
#include "data/sequence_format.h"
#include "data/text_io.h"

using namespace cplab;

namespace {

// Byte-for-byte copy of /work/shared/datasets/ocr-taskar/letter.data.gz (tests/data/README.md).
const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

// The letters of sequence i as text ("ommanding").
std::string word(const SequenceData& data, int i) {
    std::string text;
    for (int k = data.first(i); k < data.first(i + 1); ++k)
        text += data.labelNames[static_cast<std::size_t>(data.labels[static_cast<std::size_t>(k)])];
    return text;
}

// Empty when a and b hold the same sequences, labels, label names and features (bit for bit).
std::string difference(const SequenceData& a, const SequenceData& b) {
    if (a.size() != b.size())
        return "sizes " + std::to_string(a.size()) + " / " + std::to_string(b.size());
    if (a.sequenceStart != b.sequenceStart) return "sequence starts differ";
    if (a.labels != b.labels) return "labels differ";
    if (a.labelNames != b.labelNames) return "label names differ";
    if (a.dimension() != b.dimension()) return "dimensions differ";
    if (a.features.nonZeros() != b.features.nonZeros()) return "nonzero counts differ";
    for (int k = 0; k < a.tokenCount(); ++k) {
        SequenceData::SparseMatrix::InnerIterator x(a.features, k), y(b.features, k);
        for (; x && y; ++x, ++y) {
            if (x.col() != y.col() || std::memcmp(&x.value(), &y.value(), sizeof(double)) != 0)
                return "token " + std::to_string(k) + " feature " + std::to_string(x.col() + 1);
        }
        if (x || y) return "token " + std::to_string(k) + " has a different feature count";
    }
    return {};
}

// One letter.data line: the 6 fields and `pixels` pixels (pixel j is (j + id) % 3 == 0).
std::string letterLine(int id, char letter, int nextId, int wordId, int position, int fold,
                       int pixels = 128) {
    std::string line = std::to_string(id) + "\t" + letter + "\t" + std::to_string(nextId) + "\t" +
                       std::to_string(wordId) + "\t" + std::to_string(position) + "\t" +
                       std::to_string(fold);
    for (int j = 0; j < pixels; ++j)
        line += (j + id) % 3 == 0 ? "\t1" : "\t0";
    return line + "\n";
}

// A valid two-word file ("ab", "c") whose lines 1..3 are letters.
std::string goodLetters() {
    return letterLine(1, 'a', 2, 1, 1, 0) + letterLine(2, 'b', -1, 1, 2, 0) +
           letterLine(3, 'c', -1, 2, 1, 1);
}

// A random SequenceData with awkward values, some labels that never occur and trailing
// all-zero features (which only the headers preserve).
SequenceData randomSequences(std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> lengthOf(1, 6), labelOf(0, 3), featureOf(0, 9);
    std::uniform_real_distribution<double> valueOf(-3.0, 3.0);
    std::string text = "# labels: B-NP I-NP O never\n# dimension: 14\n";
    for (int i = 0; i < 25; ++i) {
        if (i > 0) text += "\n";
        for (int t = lengthOf(rng); t > 0; --t) {
            text += std::vector<std::string>{"B-NP", "I-NP", "O", "O"}[labelOf(rng)];
            for (int j = 1; j <= 10; ++j) {
                if (featureOf(rng) < 3)
                    text += " " + std::to_string(j) + ":" + formatReal(valueOf(rng) / 3.0);
            }
            text += "\n";
        }
    }
    return parseSequences(text, "random");
}

}  // namespace

class TestSequenceFormat : public QObject {
    Q_OBJECT

  private slots:
    // Taskar's OCR file: 6,877 words and 52,152 letters (README), 626 words and 4,617 letters
    // in fold 0, letter counts, word texts and pixels as awk reads them from the text.
    void realOcrFile() {
        const auto start = std::chrono::steady_clock::now();
        const SequenceData data = loadLetterData(kOcr);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo("letter.data.gz: %d words, %d letters loaded in %.3f s", data.size(),
              data.tokenCount(), seconds);
        QCOMPARE(data.contractViolation(), std::string());
        QCOMPARE(data.size(), 6877);
        QCOMPARE(data.tokenCount(), 52152);
        QCOMPARE(data.dimension(), 128);
        QCOMPARE(data.labelCount(), 26);
        QCOMPARE(data.labelNames.front(), std::string("a"));
        QCOMPARE(data.labelNames.back(), std::string("z"));
        QCOMPARE(static_cast<long long>(data.features.nonZeros()), 1466486LL);
        QCOMPARE(data.sequenceIds.front(), 1);
        QCOMPARE(data.sequenceIds.back(), 6877);
        QCOMPARE(data.maxLength(), 14);
        int shortest = 100;
        for (int i = 0; i < data.size(); ++i)
            shortest = std::min(shortest, data.length(i));
        QCOMPARE(shortest, 3);

        // Letter counts (awk: cut -f2 | sort | uniq -c).
        const int expected[26] = {4034, 1284, 2114, 1442, 4955, 921,  2472, 861, 4913,
                                  189,  909,  3140, 1602, 5024, 3897, 1377, 341, 2673,
                                  1394, 2136, 2562, 664,  520,  413,  1221, 1094};
        std::vector<int> counts(26, 0);
        for (const int y : data.labels)
            ++counts[static_cast<std::size_t>(y)];
        for (int k = 0; k < 26; ++k)
            QCOMPARE(counts[static_cast<std::size_t>(k)], expected[k]);

        QCOMPARE(word(data, 0), std::string("ommanding"));
        QCOMPARE(word(data, 100), std::string("nnouncing"));
        QCOMPARE(word(data, data.size() - 1), std::string("nconsequential"));
        QCOMPARE(data.lines[0], 1);
        QCOMPARE(data.lines.back(), 52152);
        // The first letter's pixels that are on.
        const std::vector<int> on = {25, 26, 27, 33, 34, 35, 36, 37, 41, 45, 46,
                                     48, 49, 54, 55, 56, 63, 64, 71, 72, 79, 80,
                                     86, 87, 88, 92, 93, 94, 96, 97, 98, 99, 100};
        std::vector<int> read;
        for (SequenceData::SparseMatrix::InnerIterator it(data.features, 0); it; ++it) {
            QCOMPARE(it.value(), 1.0);
            read.push_back(static_cast<int>(it.col()));
        }
        QCOMPARE(read, on);

        // The protocol: train on fold 0 (626 words, 4,617 letters), test on the rest.
        QCOMPARE(static_cast<int>(data.sequencesOfFold(0).size()), 626);
        const auto [train, test] = data.splitByFold(0);
        QCOMPARE(train.size(), 626);
        QCOMPARE(train.tokenCount(), 4617);
        QCOMPARE(test.size(), 6251);
        QCOMPARE(test.tokenCount(), 47535);
        QCOMPARE(train.contractViolation(), std::string());
        QCOMPARE(test.contractViolation(), std::string());
        QCOMPARE(word(train, 0), std::string("ommanding"));
        QCOMPARE(train.lines[0], 1);
        QCOMPARE(test.lines[0], 4618);  // the first letter after fold 0's last (awk: line 4617)
        QCOMPARE(static_cast<long long>(train.features.nonZeros() + test.features.nonZeros()),
                 1466486LL);
        for (const int fold : test.folds)
            QVERIFY(fold != 0);
    }

    // The same file read in memory (plain text and gzip) gives the same data.
    void parseInMemory() {
        const std::string text = goodLetters() + "\n";  // a blank line at the end is allowed
        const SequenceData plain = parseLetterData(text, "memory");
        const SequenceData packed = parseLetterData(deflateGzip(text), "memory.gz");
        QCOMPARE(difference(plain, packed), std::string());
        QCOMPARE(plain.size(), 2);
        QCOMPARE(word(plain, 0), std::string("ab"));
        QCOMPARE(word(plain, 1), std::string("c"));
        QCOMPARE(plain.folds, (std::vector<int>{0, 1}));
        QCOMPARE(plain.sequenceIds, (std::vector<int>{1, 2}));
        // Pixel j of letter id is on when (j + id) % 3 == 0: 42 of 128 for id 1 (j = 2, 5, …, 125).
        QCOMPARE(static_cast<int>(plain.features.row(0).nonZeros()), 42);
        QCOMPARE(plain.features.coeff(0, 2), 1.0);
        QCOMPARE(plain.features.coeff(0, 3), 0.0);
        QCOMPARE(plain.features.coeff(1, 1), 1.0);
    }

    // OCR words → generic text → the same words, plain and gzip, through files.
    void ocrRoundTrip() {
        const SequenceData all = loadLetterData(kOcr);
        std::vector<int> some;
        for (int i = 0; i < all.size(); i += 97)
            some.push_back(i);
        const SequenceData words = all.subset(some);
        QTemporaryDir dir;
        for (const bool gzip : {false, true}) {
            const std::string path =
                dir.filePath(gzip ? "words.seq.gz" : "words.seq").toStdString();
            writeSequences(path, words, gzip);
            const SequenceData back = loadSequences(path);
            QCOMPARE(difference(back, words), std::string());
            QCOMPARE(back.labelCount(), 26);  // letters that do not occur are kept by the header
        }
    }

    // Random values (shortest round-trip text), labels that do not occur, trailing zero
    // features: all survive formatSequences → parseSequences.
    void randomRoundTrip() {
        for (std::uint32_t seed = 1; seed <= 5; ++seed) {
            const SequenceData data = randomSequences(seed);
            QCOMPARE(data.contractViolation(), std::string());
            QCOMPARE(data.labelNames, (std::vector<std::string>{"B-NP", "I-NP", "O", "never"}));
            QCOMPARE(data.dimension(), 14);
            const SequenceData back = parseSequences(formatSequences(data), "again");
            QCOMPARE(difference(back, data), std::string());
            // And once more: the text is a fixed point.
            QCOMPARE(formatSequences(back), formatSequences(data));
        }
    }

    // What the generic reader accepts: comments (whole-line, trailing, between tokens of one
    // sequence), several blank lines, CRLF, spaces and tabs, zero values (dropped), and label
    // names ordered numerically or by bytes when no header gives them.
    void genericSyntax() {
        const std::string text =
            "# a comment before anything\r\n"
            "10 1:0.5 3:2   # trailing comment\r\n"
            "2\t2:1\r\n"
            "# a comment inside a sequence does not end it\n"
            "1 4:0 5:-1\n"
            "\n"
            "   \n"
            "\n"
            "2 1:1\n";
        const SequenceData data = parseSequences(text, "syntax");
        QCOMPARE(data.contractViolation(), std::string());
        QCOMPARE(data.size(), 2);
        QCOMPARE(data.length(0), 3);
        QCOMPARE(data.length(1), 1);
        QCOMPARE(data.labelNames, (std::vector<std::string>{"1", "2", "10"}));
        QCOMPARE(data.labels, (std::vector<int>{2, 1, 0, 1}));
        QCOMPARE(data.dimension(), 5);  // the largest index, zero value or not
        QCOMPARE(static_cast<int>(data.features.nonZeros()), 5);  // 4:0 is not stored
        QCOMPARE(data.features.coeff(0, 2), 2.0);
        QCOMPARE(data.features.coeff(2, 4), -1.0);
        QCOMPARE(data.lines, (std::vector<int>{2, 3, 5, 9}));
        QCOMPARE(data.where(2), std::string("syntax:5"));

        const SequenceData words = parseSequences("b 1:1\nB 1:1\na 1:1\n\nab\n", "text labels");
        QCOMPARE(words.labelNames, (std::vector<std::string>{"B", "a", "ab", "b"}));  // bytes
        QCOMPARE(words.labels, (std::vector<int>{3, 0, 1, 2}));
        QCOMPARE(words.dimension(), 1);
        QCOMPARE(words.length(1), 1);  // a token without features
        QVERIFY(words.folds.empty());

        // No features at all: d = 0, and the text still round-trips.
        const SequenceData bare = parseSequences("a\nb\n\nc\n", "no features");
        QCOMPARE(bare.contractViolation(), std::string());
        QCOMPARE(bare.dimension(), 0);
        QCOMPARE(bare.size(), 2);
        QCOMPARE(difference(parseSequences(formatSequences(bare), "again"), bare), std::string());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, words.sequencesOfFold(0));
    }

    void subsetAndFolds() {
        const SequenceData data = parseLetterData(goodLetters(), "letters");
        const SequenceData swapped = data.subset({1, 0, 1});
        QCOMPARE(swapped.contractViolation(), std::string());
        QCOMPARE(swapped.size(), 3);
        QCOMPARE(word(swapped, 0) + word(swapped, 1) + word(swapped, 2), std::string("cabc"));
        QCOMPARE(swapped.folds, (std::vector<int>{1, 0, 1}));
        QCOMPARE(swapped.lines, (std::vector<int>{3, 1, 2, 3}));
        QCOMPARE(data.sequencesOfFold(1), (std::vector<int>{1}));
        QCOMPARE(data.sequencesOfFold(1, false), (std::vector<int>{0}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, data.subset({2}));
    }

    // Every malformed letter.data: the file, the line and what was expected.
    void badLetterData_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("detail");
        auto add = [](const char* name, const std::string& text, int line, const char* detail) {
            QTest::newRow(name) << QByteArray::fromStdString(text) << line << detail;
        };
        const std::string a = letterLine(1, 'a', 2, 1, 1, 0);
        const std::string b = letterLine(2, 'b', -1, 1, 2, 0);
        add("unknown letter", a + letterLine(2, 'B', -1, 1, 2, 0), 2,
            "unknown letter 'B'; expected one of a-z (lower case)");
        add("two-character letter", letterLine(1, 'a', -1, 1, 1, 0).replace(2, 1, "ab"), 1,
            "unknown letter 'ab'");
        add("non-numeric id", "x" + a.substr(1), 1, "id 'x' is not a number");
        add("non-numeric word id", a + "2\tb\t-1\tone" + b.substr(b.find("\t2\t0")), 2,
            "word_id 'one' is not a number");
        add("fractional position", letterLine(1, 'a', -1, 1, 1, 0).replace(9, 1, "1.5"), 1,
            "position '1.5' must be an integer in [1, 1073741824]");
        add("non-numeric pixel", a + b.substr(0, b.size() - 2) + "?\n", 2,
            "pixel p_127 '?' is not a number; expected 0 or 1");
        add("127 pixels", a + letterLine(2, 'b', -1, 1, 2, 0, 127), 2,
            "127 pixel values; expected 128 (a 16 x 8 image)");
        add("129 pixels", letterLine(1, 'a', -1, 1, 1, 0, 129), 1,
            "129 pixel values; expected 128");
        add("too few fields", a + "2\tb\t-1\t1\n", 2,
            "4 fields; expected id, letter, next_id, word_id, position, fold and 128 pixel values");
        add("word ids out of order",
            letterLine(1, 'a', -1, 5, 1, 0) + letterLine(2, 'b', -1, 3, 1, 0), 2,
            "word id 3 after word 5; word ids must increase (words out of order)");
        add("word goes on after its end",
            letterLine(1, 'a', -1, 1, 1, 0) + letterLine(2, 'b', -1, 1, 2, 0), 2,
            "word 1 goes on after its last letter (line 1 has next_id -1)");
        add("next_id is not the next line's id", letterLine(1, 'a', 7, 1, 1, 0) + b, 1,
            "next_id 7 but the following line (2) has id 2; expected the id of the next letter "
            "of word 1, or -1 at its end");
        add("next_id runs into another word", a + letterLine(2, 'b', -1, 2, 1, 0), 1,
            "next_id 2 continues word 1, but the following line (2) belongs to word 2; expected "
            "-1 at the end of a word");
        add("position skips", a + letterLine(2, 'b', -1, 1, 3, 0), 2,
            "position 3 in word 1; expected 2");
        add("word starts at position 2", letterLine(1, 'a', -1, 1, 2, 0), 1,
            "position 2 at the start of word 1; expected 1");
        add("fold changes in a word", a + letterLine(2, 'b', -1, 1, 2, 3), 2,
            "fold 3 in word 1, whose first letter (line 1) has fold 0");
        add("next_id is the own id", letterLine(1, 'a', 1, 1, 1, 0), 1,
            "next_id 1 is the line's own id");
        add("truncated: ends inside a word", goodLetters() + letterLine(4, 'd', 5, 3, 1, 0), 4,
            "the file ends inside word 3: its last line has next_id 5 (expected -1 at the end of a "
            "word); truncated file?");
        add("truncated in the middle of a line", goodLetters() + a.substr(0, 100), 4,
            "pixel values; expected 128");
        add("binary (NUL bytes)", std::string("\0\0\0\x01PK", 6) + a, 1,
            "unexpected binary byte 0x00 at column 1; expected text");
        add("binary (PNG header)", "\x89PNG\r\n\x1a\n" + a, 1,
            "unexpected binary byte 0x89 at column 1");
        add("empty", "", 0, "no letters: the file is empty");
        add("only blank lines", "\n\n  \n", 0, "no letters: only blank lines");
    }

    void badLetterData() {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, detail);
        QTemporaryDir dir;
        for (const bool gzip : {false, true}) {
            const std::string path = dir.filePath(gzip ? "bad.data.gz" : "bad.data").toStdString();
            writeOutputFile(path, text.toStdString(), gzip);
            try {
                loadLetterData(path);
                QFAIL("bad letter.data was accepted");
            } catch (const DataError& e) {
                QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
                QCOMPARE(e.line(), line);
                if (!QString::fromStdString(e.detail()).contains(detail)) {
                    QFAIL(qPrintable("message: " + QString::fromStdString(e.what())));
                }
            }
        }
        // In memory the name given is the file of the message.
        try {
            parseLetterData(text.toStdString(), "in-memory");
            QFAIL("bad letter.data was accepted");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), std::string("in-memory"));
            QCOMPARE(e.line(), line);
        }
    }

    // A gzip file cut short, and a file that is not there.
    void badLetterFiles() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.data.gz").toStdString();
        std::string packed = deflateGzip(goodLetters() + goodLetters());
        packed.resize(packed.size() / 2);
        writeOutputFile(path, packed);
        try {
            loadLetterData(path);
            QFAIL("a truncated gzip file was accepted");
        } catch (const DataError& e) {
            QCOMPARE(e.line(), 0);
            QVERIFY2(std::string(e.what()).find("truncated gzip stream") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(DataError, loadLetterData(dir.filePath("none").toStdString()));
    }

    // Every malformed generic file.
    void badSequences_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("detail");
        auto add = [](const char* name, const std::string& text, int line, const char* detail) {
            QTest::newRow(name) << QByteArray::fromStdString(text) << line << detail;
        };
        add("missing label", "a 1:1\n2:1 3:1\n", 2,
            "missing label: the line starts with '2:1'; expected '<label> <index>:<value> ...'");
        add("missing colon", "a 1:1 3\n", 1, "token '3' is not '<index>:<value>' (missing ':')");
        add("bad index", "a 1:1\n\nb x:1\n", 3,
            "feature index 'x' in 'x:1' is not a positive integer");
        add("index 0", "a 0:1\n", 1, "feature index 0 in '0:1'; indices start at 1");
        add("decreasing index", "a 5:1 3:1\n", 1,
            "feature index 3 after index 5; indices must increase");
        add("repeated index", "a 2:1 2:1\n", 1, "feature index 2 appears twice");
        add("bad value", "a 1:1\nb 2:x\n", 2, "value 'x' of feature 2 is not a number");
        add("NaN value", "a 1:nan\n", 1, "value 'nan' of feature 1 is not finite");
        add("undeclared label", "# labels: a b\na 1:1\nc 1:1\n", 3,
            "label 'c' is not among the labels of the header (line 1): a b");
        add("label declared twice", "# labels: a b a\n", 1,
            "label 'a' declared twice in the header");
        add("label with ':' in the header", "# labels: a b:c\n", 1,
            "label name 'b:c' in the header; a label may not contain ':' or '#'");
        add("empty labels header", "#labels:\na 1:1\n", 1, "'# labels:' header without labels");
        add("header after a token", "a 1:1\n# dimension: 4\n", 2,
            "header '# dimension:' after the first token; headers must come before the tokens");
        add("index beyond the dimension header", "# dimension: 4\na 1:1\nb 5:1\n", 3,
            "feature index 5 beyond the dimension 4 of the header (line 1)");
        add("bad dimension header", "# dimension: four\na 1:1\n", 1,
            "dimension 'four' is not a number");
        add("binary", std::string("a 1:1\nb 2:\0\0", 12), 2,
            "unexpected binary byte 0x00 at column 5");
        add("empty", "", 0, "no sequences: the file is empty");
        add("only comments", "# one\n\n# two\n", 0, "no sequences: only blank lines and comments");
    }

    void badSequences() {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, detail);
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.seq").toStdString();
        writeOutputFile(path, text.toStdString());
        try {
            loadSequences(path);
            QFAIL("a bad sequence file was accepted");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
            QCOMPARE(e.line(), line);
            if (!QString::fromStdString(e.detail()).contains(detail)) {
                QFAIL(qPrintable("message: " + QString::fromStdString(e.what())));
            }
        }
    }

    // The writer refuses names the format cannot hold, and data that break the contract.
    void writerRefuses() {
        SequenceData data = parseSequences("a 1:1\n", "one");
        data.labelNames[0] = "has space";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatSequences(data));
        data.labelNames[0] = "#hash";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatSequences(data));
        data.labelNames[0] = "a#b";  // would read back as 'a' and a comment
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatSequences(data));
        data.labelNames[0] = "a";
        data.labels[0] = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, formatSequences(data));
    }
};

QTEST_GUILESS_MAIN(TestSequenceFormat)
#include "test_sequence_format.moc"
