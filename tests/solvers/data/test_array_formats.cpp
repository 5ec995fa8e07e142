// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy .npy/.npz, MATLAB .mat and HDF5 (data/npy_format.h, npz_format.h, mat_format.h,
// hdf5_format.h): heart_scale, read from its LIBSVM text, is written here in each format (by
// hand for .npy, through libzip, matio and libhdf5 for the others) and read back through the
// format table: the same features and labels bit for bit, in every byte order, memory order
// and element type; a sparse .mat stays sparse. Every malformed file is refused with a message
// naming the file and what was expected.
#include <QtTest>
#include <csignal>
#include <filesystem>
#include <string>
#include <tuple>

#include "array_files.h"
#include "data/child_read.h"
#include "data/data_error.h"
#include "data/data_format.h"
#include "data/libsvm_format.h"

using namespace cplab;
using namespace cplab::testing;

namespace {

Dataset heartScale() {
    LoadOptions options;
    options.storage = Storage::Dense;
    return loadLibsvm(std::string(CPLAB_TEST_DATA_DIR) + "/heart_scale", options);
}

// Reads `path` through the format table, as the CLI and the GUI do.
Dataset readTable(const std::string& path, const OptionValues& readerOptions = {},
                  const char* expectedFormat = nullptr) {
    const std::vector<FormatMatch> matches = sniffFormats(readFilePrefix(path));
    if (matches.empty()) throw std::runtime_error("no format");
    if (expectedFormat && matches.front().format->name != expectedFormat)
        throw std::runtime_error("sniffed as " + std::string(matches.front().format->name));
    return readExamples({path, std::string(matches.front().format->name), readerOptions}, {});
}

// The same examples: dimensions, every feature and label equal as doubles.
bool sameExamples(const Dataset& read, const Dataset& expected) {
    if (read.size() != expected.size() || read.dimension() != expected.dimension()) return false;
    for (int i = 0; i < read.size(); ++i)
        if (read.row(i) != expected.row(i) || read.labels(i) != expected.labels(i)) return false;
    return true;
}

// The message of what `read` throws (DataError or std::invalid_argument), or "" when it reads.
template <class Read>
std::string refusal(Read read) {
    try {
        read();
    } catch (const DataError& e) {
        return e.what();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

class TestArrayFormats : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Dataset heart_ = heartScale();
    std::string at(const std::string& name) const {
        return (std::filesystem::path(dir_.path().toStdString()) / name).string();
    }

  private slots:
    void npyEncodings_data();
    void npyEncodings();
    void npyIntegers();
    void npyLabelsFile();
    void npz();
    void matFiles_data();
    void matFiles();
    void matBlocks();
    void hdf5();
    void hdf5RowOfLabels();
    void malformedNpy_data();
    void malformedNpy();
    void malformedNpz();
    void malformedMatAndHdf5();
    void childProcessReads();
};

void TestArrayFormats::npyEncodings_data() {
    QTest::addColumn<QString>("descr");
    QTest::addColumn<bool>("fortran");
    QTest::newRow("float64 little C") << "<f8" << false;
    QTest::newRow("float64 big C") << ">f8" << false;
    QTest::newRow("float64 little Fortran") << "<f8" << true;
    QTest::newRow("float64 big Fortran") << ">f8" << true;
    QTest::newRow("float32 little C") << "<f4" << false;
    QTest::newRow("float32 big Fortran") << ">f4" << true;
}

void TestArrayFormats::npyEncodings() {
    QFETCH(QString, descr);
    QFETCH(bool, fortran);
    const std::string path = at("heart.npy");
    writeBytes(path, npyOfExamples(heart_, descr.toStdString(), fortran, true));
    const Dataset read = readTable(path, {}, "npy");
    QVERIFY(!read.sparseStorage);
    Dataset expected = heart_;
    if (descr.endsWith("f4"))  // the float32 of each value, as NumPy stored it
        expected.dense = heart_.dense.cast<float>().cast<double>();
    QVERIFY(sameExamples(read, expected));
    QCOMPARE(read.contractViolation(), std::string());
}

void TestArrayFormats::npyIntegers() {
    // Integer features in every width and byte order (negative ones in the signed types),
    // labels in the first column.
    for (const char* descr : {"|i1", "|u1", "<i2", ">u2", "<i4", ">i4", "<u4", "<i8", ">u8"}) {
        Dataset small;
        small.dense.resize(5, 3);
        small.labels.resize(5);
        for (int i = 0; i < 5; ++i) {
            small.labels(i) = i % 2 ? 1 : descr[1] == 'u' ? 0 : -1;
            for (int j = 0; j < 3; ++j)
                small.dense(i, j) = 3 * i + j + (descr[1] == 'i' ? -7 : 0);
        }
        std::vector<double> values;
        for (int i = 0; i < 5; ++i)
            values.insert(values.end(), {small.labels(i), small.dense(i, 0), small.dense(i, 1),
                                         small.dense(i, 2)});
        const std::string path = at("ints.npy");
        writeBytes(path, npyBytes(values, 5, 4, "(5, 4)", descr));
        const Dataset read = readTable(path, {{"label_column", "0"}});
        QVERIFY2(sameExamples(read, small), descr);
    }
}

void TestArrayFormats::npyLabelsFile() {
    writeBytes(at("X.npy"), npyOfExamples(heart_));
    writeBytes(at("y.npy"), npyOfLabels(heart_, ">i2"));
    QVERIFY(sameExamples(readTable(at("X.npy"), {{"labels", at("y.npy")}}), heart_));
    // Labels and label_column together are refused up front.
    std::string why;
    QVERIFY(!checkReaderOptions({at("X.npy"), "npy", {{"labels", "y.npy"}, {"label_column", "0"}}},
                                &why));
    QVERIFY2(why.find("give one") != std::string::npos, why.c_str());
}

void TestArrayFormats::npz() {
    for (const bool compress : {true, false}) {
        writeZip(at("heart.npz"),
                 {{"X.npy", npyOfExamples(heart_, "<f8", true)}, {"y.npy", npyOfLabels(heart_)}},
                 compress);
        QVERIFY(sameExamples(readTable(at("heart.npz"), {}, "npz"), heart_));
    }
    writeZip(at("named.npz"), {{"data.npy", npyOfExamples(heart_, "<f4")},
                               {"target.npy", npyOfLabels(heart_, "<i8")}});
    Dataset expected = heart_;
    expected.dense = heart_.dense.cast<float>().cast<double>();
    QVERIFY(sameExamples(readTable(at("named.npz"), {{"x", "data"}, {"y", "target"}}), expected));
    const std::string missing = refusal([&] { readTable(at("named.npz")); });
    QVERIFY2(missing.find("no array 'X' (it holds: data, target)") != std::string::npos,
             missing.c_str());
    writeZip(at("column.npz"), {{"X.npy", npyOfExamples(heart_, "<f8", false, true)}});
    QVERIFY(sameExamples(readTable(at("column.npz"), {{"y", "none"}}), heart_));
}

void TestArrayFormats::matFiles_data() {
    QTest::addColumn<bool>("v73");
    QTest::addColumn<bool>("sparse");
    QTest::addColumn<bool>("compressed");  // level 5
    QTest::newRow("level 5 dense") << false << false << true;
    QTest::newRow("level 5 dense uncompressed") << false << false << false;
    QTest::newRow("level 5 sparse") << false << true << true;
    QTest::newRow("7.3 dense") << true << false << false;
    QTest::newRow("7.3 sparse") << true << true << false;
}

void TestArrayFormats::matFiles() {
    QFETCH(bool, v73);
    QFETCH(bool, sparse);
    QFETCH(bool, compressed);
    const std::string path = at("heart.mat");
    std::filesystem::remove(path);
    writeMat(path, heart_, v73, sparse, "X", "y", compressed);
    const Dataset read = readTable(path, {}, "mat");
    QVERIFY(sameExamples(read, heart_));
    QCOMPARE(read.sparseStorage, sparse);
    if (sparse) QCOMPARE(read.nonZeros(), heart_.nonZeros());
    QCOMPARE(read.contractViolation(), std::string());
}

// A matrix of 2.4 MB: read by several blocks of columns (7.3) or whole (level 5).
void TestArrayFormats::matBlocks() {
    Dataset wide;
    wide.dense.resize(1000, 300);
    wide.labels.resize(1000);
    for (int i = 0; i < 1000; ++i) {
        wide.labels(i) = i % 3 ? 1 : -1;
        for (int j = 0; j < 300; ++j)
            wide.dense(i, j) = i + j / 1000.0;
    }
    for (const bool v73 : {true, false}) {
        const std::string path = at(v73 ? "wide73.mat" : "wide5.mat");
        writeMat(path, wide, v73, false, "X", "y", false);
        QVERIFY(sameExamples(readTable(path), wide));
    }
}

void TestArrayFormats::hdf5() {
    writeHdf5(at("heart.h5"), heart_);
    QVERIFY(sameExamples(readTable(at("heart.h5"), {}, "hdf5"), heart_));
    writeHdf5(at("grouped.hdf5"), heart_, "/train/data", "/train/labels", true);
    Dataset expected = heart_;
    expected.dense = heart_.dense.cast<float>().cast<double>();
    QVERIFY(sameExamples(
        readTable(at("grouped.hdf5"), {{"x", "/train/data"}, {"y", "/train/labels"}}), expected));
    const std::string missing = refusal([&] { readTable(at("grouped.hdf5")); });
    QVERIFY2(missing.find("no dataset 'X' (the root group holds: train)") != std::string::npos,
             missing.c_str());
}

// Labels stored as one row (1 x m) longer than a read block (131,072 values): read into a
// block as long as that row (its values were written past a block of 131,072 before).
void TestArrayFormats::hdf5RowOfLabels() {
    const hsize_t m = 200000;
    std::vector<double> x(m), y(m);
    for (hsize_t i = 0; i < m; ++i) {
        x[i] = static_cast<double>(i % 7) - 3;
        y[i] = i % 2 ? 1 : -1;
    }
    const std::string path = at("row_labels.h5");
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t xDims[2] = {m, 1}, yDims[2] = {1, m};
    for (const auto& [name, dims, values] :
         {std::tuple{"X", xDims, &x}, std::tuple{"y", yDims, &y}}) {
        const hid_t space = H5Screate_simple(2, dims, nullptr);
        const hid_t set =
            H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values->data());
        H5Dclose(set);
        H5Sclose(space);
    }
    H5Fclose(file);
    const Dataset read = readTable(path, {}, "hdf5");
    QCOMPARE(read.size(), static_cast<int>(m));
    for (hsize_t i = 0; i < m; i += 9973) {
        QCOMPARE(read.labels(static_cast<Eigen::Index>(i)), y[i]);
        QCOMPARE(read.row(static_cast<int>(i))(0), x[i]);
    }
    QCOMPARE(read.labels(static_cast<Eigen::Index>(m - 1)), y[m - 1]);
}

void TestArrayFormats::malformedNpy_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const auto npy = [](const std::vector<double>& v, long long r, long long c, const char* shape,
                        const char* descr = "<f8") {
        const std::string bytes = npyBytes(v, r, c, shape, descr);
        return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
    };
    const std::vector<double> six = {1, 2, 3, 4, 5, 6};
    QTest::newRow("1-D") << npy(six, 6, 1, "(6,)") << "expected a 2-D array";
    QTest::newRow("3-D") << npy(six, 6, 1, "(1, 2, 3)") << "expected a 2-D array";
    QTest::newRow("text dtype") << npy(six, 0, 1, "(3, 2)", "<U1") << "(text) is not a number";
    QTest::newRow("object array") << npy({}, 0, 1, "(3, 2)", "|O8") << "an object array";
    QTest::newRow("bool") << npy({}, 0, 1, "(3, 2)", "|b1") << "(bool) is not a number";
    QTest::newRow("NaN label") << npy({1, 2, 3, std::nan(""), 5, 6}, 3, 2, "(3, 2)")
                               << "label of example 2 (column 2) is NaN";
    QTest::newRow("inf feature") << npy({1, 2, HUGE_VAL, 4}, 2, 2, "(2, 2)")
                                 << "example 2, column 1 is +inf";
    QByteArray cut = npy(six, 3, 2, "(3, 2)");
    cut.chop(5);
    QTest::newRow("truncated") << cut << "truncated or corrupt";
    QTest::newRow("declared far beyond the file")
        << npy(six, 3, 2, "(1000000, 1000)") << "declares 1000000 x 1000 values";
    QTest::newRow("bytes after the data") << npy(six, 3, 2, "(2, 2)") << "bytes after the array";
    QTest::newRow("no magic") << QByteArray("\x93NUMPX\x01\x00\x00\x00", 10) << "magic bytes";
    QTest::newRow("structured")
        << npy({}, 0, 1, "(3,)").replace("'descr': '<f8'", "'descr': [('a', '<f8')]")
        << "a structured array";
    QTest::newRow("one column, no labels") << npy(six, 6, 1, "(6, 1)") << "a single column";
    QTest::newRow("header cut") << npy(six, 3, 2, "(3, 2)").left(40) << "ends inside its header";
    QTest::newRow("huge dimension")
        << npy(six, 3, 2, "(99999999999999999999, 2)") << "a dimension beyond";
}

void TestArrayFormats::malformedNpy() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const std::string path = at("bad.npy");
    writeBytes(path, bytes.toStdString());
    const std::string why = refusal([&] { readTable(path); });
    QVERIFY2(why.rfind(path + ": ", 0) == 0, why.c_str());
    QVERIFY2(why.find(expected.toStdString()) != std::string::npos, why.c_str());
}

void TestArrayFormats::malformedNpz() {
    writeBytes(at("bad.npz"), "PK\x03\x04 not really a zip");
    std::string why = refusal([&] { readTable(at("bad.npz")); });
    QVERIFY2(why.find("not a readable .npz (zip) archive") != std::string::npos, why.c_str());
    // A stored entry cut short: libzip's CRC and sizes catch it.
    writeZip(at("cut.npz"), {{"X.npy", npyOfExamples(heart_, "<f8", false, true)}}, false);
    std::string bytes;
    {
        std::ifstream in(at("cut.npz"), std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    writeBytes(at("cut.npz"), bytes.substr(0, bytes.size() / 2));
    why = refusal([&] { readTable(at("cut.npz"), {{"y", "none"}}); });
    QVERIFY2(why.rfind(at("cut.npz"), 0) == 0 && !why.empty(), why.c_str());
    writeZip(at("labels.npz"),
             {{"X.npy", npyOfExamples(heart_)}, {"y.npy", npyBytes({1, 2}, 2, 1, "(2,)")}});
    why = refusal([&] { readTable(at("labels.npz")); });
    QVERIFY2(why.find("holds 2 labels for 270 examples") != std::string::npos, why.c_str());
}

void TestArrayFormats::malformedMatAndHdf5() {
    // A 7.3 file whose variable is a compact dataset of 12 values with none stored: libhdf5
    // copied them from a null pointer (a fuzz_array_files finding).
    const std::string compact =
        std::string(CPLAB_TEST_DATA_DIR) + "/../fuzz/findings/array_files-mat73-compact-null";
    std::filesystem::copy_file(compact, at("compact.mat"));
    std::string stored = refusal([&] { readTable(at("compact.mat")); });
    QVERIFY2(stored.find("variable 'X' declares 96 bytes of data that the file does not hold") !=
                 std::string::npos,
             stored.c_str());
    // A 7.3 file on which libhdf5 itself reads through a null pointer (H5F__accum_read): the
    // reading child process takes the fault; the file is refused naming it, and this process
    // goes on (a fuzz_array_files finding).
    std::filesystem::copy_file(
        std::string(CPLAB_TEST_DATA_DIR) + "/../fuzz/findings/array_files-mat73-libhdf5-segv",
        at("segv.mat"));
    stored = refusal([&] { readTable(at("segv.mat")); });
    QVERIFY2(stored.find("segv.mat") != std::string::npos && !stored.empty(), stored.c_str());
    // A level 5 sparse X whose column starts rise and then fall back to 0 nonzeros: values
    // were read from an empty vector (a fuzz_array_files finding).
    std::filesystem::copy_file(
        std::string(CPLAB_TEST_DATA_DIR) + "/../fuzz/findings/array_files-mat-sparse-no-values",
        at("no_values.mat"));
    stored = refusal([&] { readTable(at("no_values.mat")); });
    QVERIFY2(
        stored.find("sparse variable 'X': column starts decrease at column") != std::string::npos,
        stored.c_str());
    writeMat(at("names.mat"), heart_, false, false, "features", "classes");
    std::string why = refusal([&] { readTable(at("names.mat")); });
    QVERIFY2(why.find("no variable 'X' (it holds: features, classes)") != std::string::npos,
             why.c_str());
    QVERIFY(
        sameExamples(readTable(at("names.mat"), {{"x", "features"}, {"y", "classes"}}), heart_));
    why = refusal([&] { readTable(at("names.mat"), {{"x", "features"}, {"y", "features"}}); });
    QVERIFY2(why.find("expected a vector of one label per example") != std::string::npos,
             why.c_str());
    writeMat(at("sparse.mat"), heart_, false, true);
    why = refusal([&] { readTable(at("sparse.mat"), {{"y", "none"}}); });
    QVERIFY2(why.find("sparse variable 'X': give them as y=NAME") != std::string::npos,
             why.c_str());
    writeBytes(at("garbage.mat"), "MATLAB 5.0 MAT-file, but then nothing");
    why = refusal([&] { readTable(at("garbage.mat")); });
    QVERIFY2(why.rfind(at("garbage.mat") + ": ", 0) == 0, why.c_str());
    {  // a chunked dataset of 10^6 x 1000 doubles of which nothing was ever written
        const hid_t file =
            H5Fcreate(at("empty.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        const hsize_t dims[2] = {1000000, 1000}, chunk[2] = {1000, 100};
        const hid_t space = H5Screate_simple(2, dims, nullptr);
        const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(create, 2, chunk);
        H5Dclose(H5Dcreate2(file, "X", H5T_IEEE_F64LE, space, H5P_DEFAULT, create, H5P_DEFAULT));
        H5Pclose(create);
        H5Sclose(space);
        H5Fclose(file);
    }
    why = refusal([&] { readTable(at("empty.h5"), {{"y", "none"}}); });
    QVERIFY2(why.find("declares 1000000 x 1000 values") != std::string::npos, why.c_str());
    writeMat(at("cut73.mat"), heart_, true, false);
    std::filesystem::resize_file(at("cut73.mat"), std::filesystem::file_size(at("cut73.mat")) / 2);
    why = refusal([&] { readTable(at("cut73.mat")); });
    QVERIFY2(why.rfind(at("cut73.mat") + ": ", 0) == 0 &&
                 why.find("truncated or corrupt") != std::string::npos,
             why.c_str());
    QVERIFY2(why.find('\n') == std::string::npos, why.c_str());  // one line, not HDF5's stack
    writeBytes(at("garbage.h5"), "\x89HDF\r\n\x1a\n and then nothing");
    why = refusal([&] { readTable(at("garbage.h5")); });
    QVERIFY2(why.find("truncated") != std::string::npos, why.c_str());
    why = refusal([&] { readTable(at("names.mat"), {{"label_column", "0"}}); });
    QVERIFY2(why.find("it needs y=none") != std::string::npos, why.c_str());
}

// The library readers run in a child process (data/child_read.h): what comes back is the
// dataset read in this process bit for bit (dense, sparse, names, lines); a DataError comes
// back as it was thrown; a child that crashes or runs out of its memory is a DataError naming
// the file, and this process goes on.
void TestArrayFormats::childProcessReads() {
    for (const bool sparse : {false, true}) {
        const std::string path = at(sparse ? "child_sparse.mat" : "child_dense.mat");
        writeMat(path, heart_, true, sparse, "X", "y", false);
        setChildProcessReads(false);
        const Dataset here = readTable(path);
        setChildProcessReads(true);
        const Dataset there = readTable(path);
        QVERIFY(sameExamples(there, here));
        QVERIFY(sameExamples(there, heart_));
        QCOMPARE(there.sparseStorage, here.sparseStorage);
        QCOMPARE(there.nonZeros(), here.nonZeros());
        QCOMPARE(there.name, here.name);
        QCOMPARE(there.source, here.source);
    }
    Dataset named = heart_.subset({0, 1, 2});
    named.featureNames.assign(named.dimension(), "f");
    named.classNames = {"sick", "well"};
    named.lines = {4, 5, 6};
    named.labelName = "class";
    const Dataset back = readInChildProcess("x", 0, "test", [&] { return named; });
    QVERIFY(sameExamples(back, named));
    QCOMPARE(back.featureNames, named.featureNames);
    QCOMPARE(back.classNames, named.classNames);
    QCOMPARE(back.lines, named.lines);
    QCOMPARE(back.labelName, named.labelName);

    const std::string thrown = refusal([] {
        readInChildProcess("f.h5", 0, "test",
                           []() -> Dataset { throw DataError("f.h5", 7, "bad"); });
    });
    QCOMPARE(thrown, DataError("f.h5", 7, "bad").what());
    const std::string crashed = refusal([] {
        readInChildProcess("f.h5", 0, "the HDF5 library", []() -> Dataset {
            std::raise(SIGSEGV);
            return {};
        });
    });
    QVERIFY2(crashed.find("f.h5") != std::string::npos &&
                 crashed.find("the HDF5 library failed reading it (the reading process stopped by "
                              "signal 11") != std::string::npos,
             crashed.c_str());
#if !defined(__SANITIZE_ADDRESS__)
    // 8 GB for a file of 0 bytes: beyond the child's memory, refused, not taken from the machine.
    const std::string greedy = refusal([] {
        readInChildProcess("f.mat", 0, "matio", []() -> Dataset {
            Dataset huge;
            huge.dense.resize(1 << 20, 1 << 10);
            huge.dense.setZero();
            return huge;
        });
    });
    QVERIFY2(greedy.find("needs more memory than its size justifies") != std::string::npos,
             greedy.c_str());
#endif
}

QTEST_APPLESS_MAIN(TestArrayFormats)
#include "test_array_formats.moc"
