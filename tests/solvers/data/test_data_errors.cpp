// SPDX-License-Identifier: GPL-3.0-or-later
// Every malformed input gives a DataError that names the file, the line (0 when the problem
// is not about one line) and what was expected; fixtures in tests/data/bad (see its README).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <thread>
#include <tuple>

#include "data/csv_format.h"
#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "data/text_io.h"

using namespace cplab;

namespace {

const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

}  // namespace

class TestDataErrors : public QObject {
    Q_OBJECT

  private slots:
    void badFiles_data() {
        QTest::addColumn<QString>("format");  // "libsvm", "csv" or "table" (features + labels)
        QTest::addColumn<QString>("file");    // under tests/data
        QTest::addColumn<QString>("file2");   // table: the label file
        QTest::addColumn<int>("minClasses");
        QTest::addColumn<QString>("labelName");
        QTest::addColumn<int>("labelColumn");
        QTest::addColumn<QString>("errorFile");  // "" = file
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("detail");  // must appear in what()

        auto add = [](const char* name, const char* format, const char* file, int line,
                      const char* detail) {
            QTest::newRow(name) << format << file << "" << 0 << "" << -1 << "" << line << detail;
        };
        // LIBSVM
        add("1:abc", "libsvm", "bad/bad_value.libsvm", 3,
            "value 'abc' of feature 1 is not a number");
        add("abc:1", "libsvm", "bad/bad_index.libsvm", 2,
            "feature index 'abc' in 'abc:1' is not a positive integer; expected '<label> "
            "<index>:<value> ...'");
        add("missing colon", "libsvm", "bad/missing_colon.libsvm", 1,
            "token '3' is not '<index>:<value>' (missing ':')");
        add("index 0", "libsvm", "bad/index_zero.libsvm", 3,
            "feature index 0 in '0:1'; indices start at 1");
        add("decreasing", "libsvm", "bad/decreasing_index.libsvm", 4,
            "feature index 3 after index 5; indices must increase");
        add("duplicate", "libsvm", "bad/duplicate_index.libsvm", 1,
            "feature index 2 appears twice; indices must increase");
        add("NaN value", "libsvm", "bad/nan_value.libsvm", 2,
            "value 'nan' of feature 1 is not finite");
        add("-inf value", "libsvm", "bad/inf_value.libsvm", 2,
            "value '-inf' of feature 2 is not finite");
        add("NaN label", "libsvm", "bad/nan_label.libsvm", 2, "label 'nan' is not finite");
        add("inf label after blank line", "libsvm", "bad/inf_label.libsvm", 3,
            "label 'inf' is not finite");
        add("label out of range", "libsvm", "bad/label_out_of_range.libsvm", 1,
            "label '1e999' is out of range for a double");
        add("missing label", "libsvm", "bad/missing_label.libsvm", 2,
            "missing label: the line starts with '2:1'");
        add("empty file", "libsvm", "bad/empty.libsvm", 0, "no examples: the file is empty");
        add("only comments", "libsvm", "bad/only_comments.libsvm", 0,
            "no examples: only blank lines and comments");
        add("NUL byte", "libsvm", "bad/binary_nul.libsvm", 2,
            "unexpected binary byte 0x00 at column 10; expected text");
        add("invalid UTF-8", "libsvm", "bad/invalid_utf8.libsvm", 3,
            "unexpected binary byte 0xff at column 6");
        add("truncated gzip", "libsvm", "bad/truncated.libsvm.gz", 0, "truncated gzip stream");
        add("corrupt gzip", "libsvm", "bad/corrupt.libsvm.gz", 0, "corrupt gzip stream (");
        add("nonexistent file", "libsvm", "bad/no-such-file.libsvm", 0, "no such file");
        add("directory", "libsvm", "bad", 0, "is a directory, not a data file");
        QTest::newRow("single class, minClasses 2")
            << "libsvm"
            << "bad/single_class.libsvm"
            << "" << 2 << "" << -1 << "" << 0
            << "only one class found (every label is 1); at least 2 classes are needed";

        // CSV
        add("ragged row", "csv", "bad/ragged.csv", 4,
            "2 fields, expected 3 as in the header (line 1)");
        add("non-numeric field", "csv", "bad/non_numeric.csv", 3,
            "column 2 ('b'): value 'x4' is not a number; expected a number in every feature "
            "column");
        add("missing value", "csv", "bad/missing_value.csv", 3,
            "value '?' is not a number; expected a number in every feature column (missing "
            "values are not supported)");
        add("NaN field", "csv", "bad/nan_value.csv", 3, "value 'nan' is not finite");
        add("unterminated quote", "csv", "bad/unterminated_quote.csv", 3,
            "unterminated quoted field");
        add("header only", "csv", "bad/header_only.csv", 1, "no data rows after the header");
        add("binary CSV", "csv", "bad/binary.csv", 2, "unexpected binary byte 0x00 at column 3");
        add("truncated gzip CSV", "csv", "bad/truncated_bupa.csv.gz", 0, "truncated gzip stream");
        add("empty CSV", "csv", "bad/empty.libsvm", 0, "no rows: the file is empty");
        QTest::newRow("label name not found")
            << "csv"
            << "bupa.data"
            << "" << 0 << "class" << -1 << "" << 1
            << "label column 'class' not found in the header; columns are "
               "'mean_corpuscular_volume', 'alkaline_phosphotase'";
        QTest::newRow("label column out of range")
            << "csv"
            << "bupa.data"
            << "" << 0 << "" << 7 << "" << 1
            << "label column 7 is out of range: the rows have 7 columns";
        QTest::newRow("two classes, minClasses 3")
            << "csv"
            << "bupa.data"
            << "" << 3 << "" << -1 << "" << 0
            << "only 2 classes found; at least 3 classes are needed";

        // Feature table + label table
        QTest::newRow("label count mismatch")
            << "table"
            << "ripley_train_data.asc"
            << "ripley_test_labels.asc" << 0 << "" << -1 << "ripley_test_labels.asc" << 0
            << "1000 labels for 250 examples in";
        QTest::newRow("label table with two columns")
            << "table"
            << "ripley_train_data.asc"
            << "ripley_train_data.asc" << 0 << "" << -1 << "" << 0
            << "a label table needs exactly one column; found 2";
    }
    void badFiles() {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(QString, file2);
        QFETCH(int, minClasses);
        QFETCH(QString, labelName);
        QFETCH(int, labelColumn);
        QFETCH(QString, errorFile);
        QFETCH(int, line);
        QFETCH(QString, detail);

        const std::string path = (kData + "/" + file).toStdString();
        const std::string path2 = (kData + "/" + file2).toStdString();
        LoadOptions options;
        options.minClasses = minClasses;
        CsvOptions csv;
        csv.labelName = labelName.toStdString();
        csv.labelColumn = labelColumn;
        try {
            if (format == "libsvm") loadLibsvm(path, options);
            if (format == "csv") loadCsv(path, csv, options);
            if (format == "table") loadTableWithLabels(path, path2, csv, options);
            QFAIL("no DataError");
        } catch (const DataError& e) {
            const std::string expectedFile =
                errorFile.isEmpty() ? path : (kData + "/" + errorFile).toStdString();
            const std::string what = e.what();
            QCOMPARE(e.file(), expectedFile);
            QCOMPARE(e.line(), line);
            const std::string prefix =
                expectedFile + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
            QVERIFY2(what.rfind(prefix, 0) == 0, what.c_str());
            QVERIFY2(what.find(detail.toStdString()) != std::string::npos, what.c_str());
        }
    }

    // Values whose squares overflow (1e155² = inf) load (formats keep any finite double) but
    // cannot go to a solver: checkMagnitudes names the file, the line and the value.
    void hugeValuesAreRefusedForSolvers() {
        const std::string value = (kData + "/bad/huge_value.libsvm").toStdString();
        const std::string label = (kData + "/bad/huge_label.csv").toStdString();
        const std::vector<std::tuple<Dataset, std::string, int, std::string>> cases = {
            {loadLibsvm(value), value, 2, "feature 1 is 1e+155, beyond +-1e+100 (its square"},
            {loadCsv(label), label, 3, "the label is -1e+120, beyond +-1e+100"},
        };
        for (const auto& [data, file, line, detail] : cases) {
            try {
                checkMagnitudes(data);
                QFAIL("no DataError");
            } catch (const DataError& e) {
                QCOMPARE(e.file(), file);
                QCOMPARE(e.line(), line);
                QVERIFY2(std::string(e.what()).find(detail) != std::string::npos, e.what());
            }
        }
        // The same data once scaled are fine.
        Dataset scaled = loadLibsvm(value);
        scaled.sparse /= 1e100;
        checkMagnitudes(scaled);
    }

    // Built-in resources are parsed from memory: their name stands in for the file.
    void inMemorySourceName() {
        try {
            parseLibsvm("+1 1:1\n-1 3:1 2:1\n", "builtin:demo");
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("builtin:demo:2: feature index 2 after index 3; indices must "
                                 "increase"));
        }
        try {
            parseCsv("a,b\n1,2\n3\n", "builtin:table.csv");
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), std::string("builtin:table.csv"));
            QCOMPARE(e.line(), 3);
        }
    }

    void gzipEdgeCases() {
        const std::string text = "+1 1:1\n-1 2:2\n";
        auto message = [](const std::string& bytes) -> std::string {
            try {
                parseLibsvm(bytes, "builtin:x.gz");
            } catch (const DataError& e) {
                return e.line() == 0 ? e.what() : "line " + std::to_string(e.line());
            }
            return "loaded";
        };
        QVERIFY(message(std::string("\x1f\x8b", 2)).find("truncated gzip stream") !=
                std::string::npos);
        QVERIFY(message(deflateGzip(text) + "trailing junk").find("corrupt gzip stream") !=
                std::string::npos);
        QCOMPARE(message(deflateGzip(text) + std::string(16, '\0')), std::string("loaded"));
        std::string flipped = deflateGzip(text);
        flipped[flipped.size() - 6] ^= 0x55;  // inside the CRC-32 of the trailer
        QVERIFY(message(flipped).find("corrupt gzip stream (incorrect data check)") !=
                std::string::npos);
        // A binary byte after an empty first member is found as in one member (it was let
        // through: the head was checked when the empty member ended).
        const std::string binary = std::string("+1 1:1\n", 7) + std::string(1, '\0') + "\n";
        QCOMPARE(message(deflateGzip(binary)), std::string("line 2"));
        QCOMPARE(message(deflateGzip("") + deflateGzip(binary)), std::string("line 2"));
    }

    // Endless binary devices fail at their first bytes (they used to be read until bad_alloc).
    void binaryDevicesFailAtOnce_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("detail");
        QTest::newRow("zero") << "/dev/zero"
                              << "unexpected binary byte 0x00 at column 1";
        QTest::newRow("urandom") << "/dev/urandom"
                                 << "unexpected binary byte 0x";
    }
    void binaryDevicesFailAtOnce() {
        QFETCH(QString, path);
        QFETCH(QString, detail);
        if (!QFile::exists(path)) QSKIP("no such device here");
        for (int format = 0; format < 2; ++format) {
            try {
                format == 0 ? loadLibsvm(path.toStdString()) : loadCsv(path.toStdString());
                QFAIL("no DataError");
            } catch (const DataError& e) {
                QCOMPARE(e.file(), path.toStdString());
                QVERIFY2(std::string(e.what()).find(detail.toStdString()) != std::string::npos,
                         e.what());
            }
        }
    }

    // Binary bytes past the first 64 KB are still found, by the line reader, on their line.
    void binaryAfterTheHeadKeepsItsLine() {
        std::string text;
        while (text.size() < 100000)
            text += "+1 1:0.5 2:0.25\n";
        const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
        text += "-1 1:";
        text += '\0';
        text += "\n";
        QTemporaryDir dir;
        const QString path = dir.filePath("late_nul.libsvm");
        writeOutputFile(path.toStdString(), text);
        try {
            loadLibsvm(path.toStdString());
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.line(), lines + 1);
            QVERIFY2(std::string(e.what()).find("0x00 at column 6") != std::string::npos, e.what());
        }
    }

    // Outputs to a device are written in place, never replaced by a regular file: /dev/null
    // takes the bytes, /dev/full refuses them with the system's reason.
    void outputsToDevicesAreWrittenInPlace() {
        if (!QFileInfo::exists("/dev/full")) QSKIP("no /dev/full here");
        writeOutputFile("/dev/null", "MAP\n1 0\n");
        QVERIFY(!std::filesystem::is_regular_file("/dev/null"));
        try {
            writeOutputFile("/dev/full", "MAP\n1 0\n");
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("No space left on device") != std::string::npos,
                     e.what());
        }
        QVERIFY(!std::filesystem::is_regular_file("/dev/full"));
    }

    // Inputs beyond the byte limit (half the memory available by default) are refused while
    // they are read: a plain file by its size, a gzip stream while it inflates.
    void inputsBeyondTheLimitAreRefused() {
        std::string text;
        while (text.size() < (1 << 20))
            text += "+1 1:1 2:2 3:3\n";
        QTemporaryDir dir;
        const std::string plain = dir.filePath("big.libsvm").toStdString();
        const std::string packed = dir.filePath("big.libsvm.gz").toStdString();
        writeOutputFile(plain, text);
        writeOutputFile(packed, text, /*gzip=*/true);
        QVERIFY(inputByteLimit() > (std::size_t{1} << 20));  // the default loads them
        QCOMPARE(loadLibsvm(packed).size(), loadLibsvm(plain).size());
        setInputByteLimit(256 << 10);
        for (const std::string& path : {plain, packed}) {
            try {
                loadLibsvm(path);
                setInputByteLimit(0);
                QFAIL("no DataError");
            } catch (const DataError& e) {
                QCOMPARE(e.file(), path);
                QVERIFY2(
                    std::string(e.what()).find("more than 0 MB of text") == std::string::npos &&
                        std::string(e.what()).find("of text, beyond what the memory") !=
                            std::string::npos,
                    e.what());
            }
        }
        setInputByteLimit(0);
    }

    // Text within the byte limit whose parsed data would not fit the memory available (here a
    // limit of 256 KB stands for it): refused before parsing, saying how much it would need.
    // 30,000 short lines need about 1 MB parsed (labels, lines, rows, indices, values).
    void parsedDataBeyondTheMemoryAreRefused() {
        std::string text;
        for (int i = 0; i < 30000; ++i)
            text += i % 2 ? "-1 2:1\n" : "+1 1:1\n";
        QCOMPARE(parseLibsvm(text, "memory").size(), 30000);
        setInputByteLimit(256 << 10);
        try {
            parseLibsvm(text, "memory:short_lines");
            setInputByteLimit(0);
            QFAIL("no DataError");
        } catch (const DataError& e) {
            setInputByteLimit(0);
            QCOMPARE(e.file(), std::string("memory:short_lines"));
            const std::string what = e.what();
            QVERIFY2(what.find("30001 examples with 30000 feature values") != std::string::npos &&
                         what.find("of memory once parsed; only 0.25 MB are available") !=
                             std::string::npos,
                     what.c_str());
        }
    }

    // A line of text that is long and bad is quoted shortened, never dumped whole.
    void longTokensAreShortened() {
        const std::string token(500, 'x');
        try {
            parseLibsvm("+1 1:" + token + "\n", "memory");
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QVERIFY(std::string(e.what()).size() < 200);
        }
    }

    // Random bytes never crash a loader: each attempt either loads or throws DataError.
    void randomBytesNeverCrash() {
        std::uint64_t state = 12345;
        auto next = [&state] {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<unsigned char>(state >> 56);
        };
        const std::string alphabet = "0123456789+-.:#eE \t\r\n,\"na?";
        for (int trial = 0; trial < 1000; ++trial) {
            std::string bytes(static_cast<std::size_t>(next() % 64), '\0');
            for (char& c : bytes) {
                const unsigned char r = next();
                c = r < 230 ? alphabet[r % alphabet.size()] : static_cast<char>(next());
            }
            for (int format = 0; format < 2; ++format) {
                try {
                    const Dataset data =
                        format == 0 ? parseLibsvm(bytes, "fuzz") : parseCsv(bytes, "fuzz");
                    QVERIFY2(data.contractViolation().empty(), data.contractViolation().c_str());
                    QVERIFY(data.size() > 0);
                } catch (const DataError&) {
                }
            }
        }
    }

    // A pipe or FIFO given as data is read once, whole: the format sniffing (readInputHead)
    // and the loader see the same bytes (the loader used to miss the 16 KB sniffing took).
    // Both a named FIFO and an anonymous pipe (what `--data /dev/stdin` and `<(cmd)` open),
    // with more text than any sniff window.
    void streamsAreSniffedAndLoadedWhole() {
        std::string text;
        for (int i = 0; i < 4000; ++i)
            text += (i % 2 ? "-1 1:" : "+1 1:") + std::to_string(i) + " 3:0.25\n";
        QVERIFY(text.size() > (64 << 10));
        auto writeAll = [&text](int fd) {
            for (std::size_t done = 0; done < text.size();) {
                const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
                if (n <= 0) break;
                done += static_cast<std::size_t>(n);
            }
            ::close(fd);
        };
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("data.fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::thread writer([&] { writeAll(::open(fifo.c_str(), O_WRONLY)); });
        QCOMPARE(readInputHead(fifo, 16 << 10), text.substr(0, 16 << 10));
        QCOMPARE(loadLibsvm(fifo).size(), 4000);
        QCOMPARE(readInputFile(fifo), text);
        writer.join();

        int ends[2];
        QCOMPARE(::pipe(ends), 0);
        const std::string pipe = "/proc/self/fd/" + std::to_string(ends[0]);
        std::thread pipeWriter([&] { writeAll(ends[1]); });
        QCOMPARE(readInputHead(pipe).size(), std::size_t{4096});
        QCOMPARE(loadLibsvm(pipe).size(), 4000);
        pipeWriter.join();
        ::close(ends[0]);
    }

    // A FIFO nobody writes is refused after kStreamWaitSeconds, naming it, instead of blocking
    // forever; asked again (the loader after the sniffing), the refusal comes at once.
    void fifoWithoutWriterIsRefused() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("nobody.fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(readInputHead(fifo), std::string());
        const qint64 waited = timer.elapsed();
        QVERIFY2(waited >= kStreamWaitSeconds * 1000 - 100 && waited < 10000,
                 std::to_string(waited).c_str());
        timer.restart();
        try {
            loadLibsvm(fifo);
            QFAIL("no DataError");
        } catch (const DataError& e) {
            QCOMPARE(e.file(), fifo);
            QVERIFY2(
                std::string(e.what()).find("a FIFO with no writer after 5 s") != std::string::npos,
                e.what());
        }
        QVERIFY(timer.elapsed() < 1000);
    }

    // A line beyond lineByteLimit() is refused at its line as soon as its bytes pass the
    // limit, in every way text is read: piece by piece (plain and gzip), whole (plain and
    // gzip), and from memory.
    void longLinesAreRefusedAtTheirLine() {
        const std::string text = "+1 1:1\n-1 1:2\n+1" + std::string(10000, ' ') + "1:1\n-1 1:3\n";
        QTemporaryDir dir;
        const std::string plain = dir.filePath("long.libsvm").toStdString();
        const std::string packed = dir.filePath("long.libsvm.gz").toStdString();
        writeOutputFile(plain, text);
        writeOutputFile(packed, text, /*gzip=*/true);
        QCOMPARE(loadLibsvm(plain).size(), 4);  // within the default limit
        setLineByteLimit(4096);
        const std::vector<std::function<void()>> readers = {
            [&] { loadLibsvm(plain); },    [&] { loadLibsvm(packed); },
            [&] { readInputFile(plain); }, [&] { readInputFile(packed); },
            [&] { loadCsv(plain); },       [&] { parseLibsvm(deflateGzip(text), "memory"); },
        };
        for (std::size_t k = 0; k < readers.size(); ++k) {
            try {
                readers[k]();
                setLineByteLimit(0);
                QFAIL(("no DataError from reader " + std::to_string(k)).c_str());
            } catch (const DataError& e) {
                QCOMPARE(e.line(), 3);
                QVERIFY2(
                    std::string(e.what()).find("line longer than 4096 bytes") != std::string::npos,
                    e.what());
            }
        }
        setLineByteLimit(0);
        QCOMPARE(lineByteLimit(), kDefaultLineByteLimit);
    }

    // Lines ended by a bare CR (old Mac files) are named for what they are, at the first CR.
    void bareCarriageReturnsAreNamed() {
        for (int format = 0; format < 2; ++format) {
            try {
                format == 0 ? parseLibsvm("+1 1:1\r-1 1:2\r", "mac.libsvm")
                            : parseCsv("1,2,0\r3,4,1\r", "mac.csv");
                QFAIL("no DataError");
            } catch (const DataError& e) {
                QCOMPARE(e.line(), 1);
                QVERIFY2(std::string(e.what()).find(
                             "carriage return without line feed (old Mac line endings) at "
                             "column") != std::string::npos,
                         e.what());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestDataErrors)
#include "test_data_errors.moc"
