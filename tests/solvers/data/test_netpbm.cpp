// SPDX-License-Identifier: GPL-3.0-or-later
// PBM, PGM and PPM images (data/netpbm_format.h): the same pixels written here in the four
// encodings (plain and binary, 8 and 16 bits) decode to those pixels, bitmaps plain and packed
// too; a file named .pgm is
// known by the format table and read through it; every malformed header or raster is refused
// with the file, the line and what was expected.
#include <QtTest>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "data/data_error.h"
#include "data/data_format.h"
#include "data/netpbm_format.h"

using namespace cplab;

namespace {

// A 3 × 2 colour image with every sample distinct.
const std::vector<std::uint8_t> kRgb = {0,  1,  2,  10,  20, 30, 255, 254, 253,
                                        77, 88, 99, 128, 0,  64, 5,   250, 125};

std::string binary(char magic, int channels, int maxval) {
    std::string out =
        "P" + std::string(1, magic) + "\n# a comment\n3 2\n" + std::to_string(maxval) + "\n";
    for (std::size_t pixel = 0; pixel < kRgb.size() / 3; ++pixel) {
        for (int c = 0; c < channels; ++c) {
            const int v = kRgb[3 * pixel + static_cast<std::size_t>(c)];
            if (maxval > 255) {
                const int wide = v * 257;  // 65535 = 255 · 257: scales back to v exactly
                out += static_cast<char>(wide >> 8);
                out += static_cast<char>(wide & 0xff);
            } else {
                out += static_cast<char>(v);
            }
        }
    }
    return out;
}

std::string plain(char magic, int channels) {
    std::string out = "P" + std::string(1, magic) + " 3 2 # width height\n255\n";
    for (std::size_t k = 0; k < kRgb.size(); k += 3) {
        for (int c = 0; c < channels; ++c)
            out += std::to_string(kRgb[k + static_cast<std::size_t>(c)]) + " ";
        out += "\n";
    }
    return out;
}

std::vector<std::uint8_t> grey() {
    std::vector<std::uint8_t> out;
    for (std::size_t k = 0; k < kRgb.size(); k += 3)
        out.push_back(kRgb[k]);
    return out;
}

void refused(const std::string& bytes, const QString& expected) {
    try {
        (void)decodeNetpbm(bytes, "x.ppm");
        QFAIL(qPrintable("accepted; expected " + expected));
    } catch (const DataError& e) {
        QVERIFY2(QString(e.what()).startsWith("x.ppm:"), e.what());
        QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
}

}  // namespace

class TestNetpbm : public QObject {
    Q_OBJECT

  private slots:
    void encodingsGiveThePixels() {
        for (const std::string& bytes :
             {binary('6', 3, 255), plain('3', 3), binary('6', 3, 65535)}) {
            const Image image = decodeNetpbm(bytes, "x.ppm");
            QCOMPARE(image.width, 3);
            QCOMPARE(image.height, 2);
            QCOMPARE(image.channels, 3);
            QCOMPARE(image.pixels, kRgb);
        }
        for (const std::string& bytes :
             {binary('5', 1, 255), plain('2', 1), binary('5', 1, 65535)}) {
            const Image image = decodeNetpbm(bytes, "x.pgm");
            QCOMPARE(image.channels, 1);
            QCOMPARE(image.pixels, grey());
        }
        // maxval 1: samples 0 and 1 become 0 and 255.
        const Image bits = decodeNetpbm("P2\n2 1\n1\n0 1\n", "b.pgm");
        QCOMPARE(bits.pixels, (std::vector<std::uint8_t>{0, 255}));
    }

    void bitmapsGiveThePixels() {
        // A 10 × 2 bitmap (1: black → 0, 0: white → 255), plain with and without whitespace
        // between the bits, and packed (rows of two bytes, most significant bit first, the
        // last six bits of each row padding).
        const std::string rows[] = {"1011001110", "0100000001"};
        std::vector<std::uint8_t> expected;
        for (const std::string& row : rows)
            for (char bit : row)
                expected.push_back(bit == '1' ? 0 : 255);
        std::string spaced = "P1\n# a bitmap\n10 2\n", packed = "P4\n10 2\n";
        for (const std::string& row : rows) {
            for (char bit : row)
                spaced += std::string(1, bit) + " ";
            spaced += "\n";
        }
        const std::string tight = "P1 10 2\n" + rows[0] + rows[1] + "\n";
        for (const std::string& row : rows) {
            int first = 0, second = 0;
            for (int c = 0; c < 8; ++c)
                first |= (row[static_cast<std::size_t>(c)] - '0') << (7 - c);
            for (int c = 8; c < 10; ++c)
                second |= (row[static_cast<std::size_t>(c)] - '0') << (15 - c);
            packed += static_cast<char>(first);
            packed += static_cast<char>(second | 0x15);  // padding bits are ignored
        }
        for (const std::string& bytes : {spaced, tight, packed}) {
            const Image image = decodeNetpbm(bytes, "x.pbm");
            QCOMPARE(image.width, 10);
            QCOMPARE(image.height, 2);
            QCOMPARE(image.channels, 1);
            QCOMPARE(image.pixels, expected);
        }
        // Known by its content, without a name that says so.
        FilePrefix prefix;
        prefix.head = packed;
        QCOMPARE(sniffNetpbm(prefix), 5);
    }

    void readThroughTheTable() {
        const std::string dir = QDir::tempPath().toStdString() + "/cplab_netpbm";
        std::filesystem::create_directories(dir);
        const std::string named = dir + "/picture.pgm", unnamed = dir + "/picture";
        std::ofstream(named, std::ios::binary) << binary('5', 1, 255);
        std::ofstream(unnamed, std::ios::binary) << binary('6', 3, 255);
        for (const std::string& path : {named, unnamed}) {
            const auto matches = sniffFormats(readFilePrefix(path));
            QVERIFY(!matches.empty());
            QCOMPARE(QString::fromLatin1(matches.front().format->name.data()), QString("netpbm"));
        }
        QCOMPARE(readImage({named, "netpbm"}).pixels, grey());
        QCOMPARE(readImage({unnamed, "netpbm"}).pixels, kRgb);
        std::filesystem::remove_all(dir);
    }

    void badFilesAreRefused() {
        refused("P7\n1 1\n255\n", "magic number");
        refused("P4\n10 3\n@", "raster of 1 bytes; expected 6");
        refused("P1\n3 1\n0 2 1\n", "expected a bit, 0 or 1, not '2'");
        refused("P1\n3 1\n0 1\n", "ended before the next bit");
        refused("P6\n3\n", "ended before the height");
        refused("P6\n3 x\n255\n", "height as a decimal number");
        refused("P6\n0 2\n255\n", "has none");
        refused("P6\n3 2\n0\n", "maxval 0");
        refused("P6\n3 2\n70000\n", "maxval 70000");
        refused("P6\n3 2\n255\n" + std::string(17, 'a'), "expected 18");
        refused(binary('6', 3, 255) + "junk", "bytes after the image's raster");
        refused("P2\n2 1\n9\n3 10\n", "sample 10 above maxval 9");
        refused("P2\n2 1\n255\n3\n", "ended before the next sample");
        refused("P6\n100000 100000\n255\n", "at most");
        refused("P6\n35047555511 3047003946\n93\n", "at most");  // a product past 2^63
    }
};

QTEST_APPLESS_MAIN(TestNetpbm)
#include "test_netpbm.moc"
