// SPDX-License-Identifier: GPL-3.0-or-later
// The PNG decoder (solvers/data/image_format.h) against PNGs written here: by the test's own encoder
// (forward filters, zlib compress: every filter type, grey, RGB, palette, grey + alpha, RGBA
// and 16-bit) they decode to their pixels; by libpng's low-level write API, Adam7-interlaced
// ones decode to the same pixels as non-interlaced ones; broken ones are refused with their
// messages.
#include <png.h>
#include <zlib.h>

#include <QtTest>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "data/data_error.h"
#include "data/image_format.h"

using namespace cplab;

namespace {

// width × height × channels pixels drawn from std::mt19937(seed), g() % 256 each.
Image noiseImage(int width, int height, int channels, unsigned seed) {
    std::mt19937 g(seed);
    Image image{width, height, channels,
                std::vector<std::uint8_t>(static_cast<std::size_t>(width * height * channels))};
    std::generate(image.pixels.begin(), image.pixels.end(),
                  [&g] { return static_cast<std::uint8_t>(g() % 256); });
    return image;
}

// ---- a PNG encoder of the test's own (forward filters, zlib compress) -----------------------

void putBigEndian(std::string& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void putChunk(std::string& out, const std::string& type, const std::string& body,
              bool breakCrc = false) {
    putBigEndian(out, static_cast<std::uint32_t>(body.size()));
    const std::string typed = type + body;
    out += typed;
    std::uint32_t crc = static_cast<std::uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
    if (breakCrc) crc ^= 1u;
    putBigEndian(out, crc);
}

int paethPredictor(int a, int b, int c) {
    const int p = a + b - c;
    const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

// A PNG of packed rows `rows` (each rowBytes long, already in the colour type's sample layout);
// row y uses filter type y % 5, so every filter is exercised.
std::string encodePng(int width, int height, int depth, int colourType,
                      const std::vector<std::string>& rows, int bytesPerPixel,
                      const std::string& palette = {}, int interlace = 0) {
    std::string raw;
    std::string previous(rows.empty() ? 0 : rows[0].size(), '\0');
    for (int y = 0; y < height; ++y) {
        const std::string& row = rows[static_cast<std::size_t>(y)];
        const int filter = y % 5;
        raw.push_back(static_cast<char>(filter));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const int x = static_cast<unsigned char>(row[i]);
            const std::size_t step = static_cast<std::size_t>(bytesPerPixel);
            const int a = i >= step ? static_cast<unsigned char>(row[i - step]) : 0;
            const int b = static_cast<unsigned char>(previous[i]);
            const int c = i >= step ? static_cast<unsigned char>(previous[i - step]) : 0;
            const int predictor = filter == 0   ? 0
                                  : filter == 1 ? a
                                  : filter == 2 ? b
                                  : filter == 3 ? (a + b) / 2
                                                : paethPredictor(a, b, c);
            raw.push_back(static_cast<char>((x - predictor) & 0xff));
        }
        previous = row;
    }
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string compressed(size, '\0');
    compress2(reinterpret_cast<Bytef*>(compressed.data()), &size,
              reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()), 9);
    compressed.resize(size);
    std::string png("\x89PNG\r\n\x1a\n", 8);
    std::string header;
    putBigEndian(header, static_cast<std::uint32_t>(width));
    putBigEndian(header, static_cast<std::uint32_t>(height));
    header += {static_cast<char>(depth), static_cast<char>(colourType), 0, 0,
               static_cast<char>(interlace)};
    putChunk(png, "IHDR", header);
    if (!palette.empty()) putChunk(png, "PLTE", palette);
    // The data in two IDAT chunks, which a decoder must join.
    const std::size_t half = compressed.size() / 2;
    putChunk(png, "IDAT", compressed.substr(0, half));
    putChunk(png, "IDAT", compressed.substr(half));
    putChunk(png, "IEND", {});
    return png;
}

// ---- PNGs written by libpng's low-level write API (Adam7 interlacing) ------------------------

void appendBytes(png_structp png, png_bytep data, std::size_t length) {
    static_cast<std::string*>(png_get_io_ptr(png))
        ->append(reinterpret_cast<const char*>(data), length);
}

// `image` (1 or 3 channels) as an 8-bit PNG, interlaced with PNG_INTERLACE_ADAM7.
std::string libpngEncode(const Image& image, int interlace) {
    std::string out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, &out, appendBytes, nullptr);
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width),
                 static_cast<png_uint_32>(image.height), 8,
                 image.channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    std::vector<png_bytep> rows;
    for (int y = 0; y < image.height; ++y)
        rows.push_back(const_cast<png_bytep>(image.pixels.data()) +
                       static_cast<std::size_t>(y * image.width * image.channels));
    png_write_image(png, rows.data());  // all seven passes when interlaced
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

// The rows of `image` with one more byte after every pixel's samples, extra(x, y): the low
// byte of a 16-bit grey sample, or an alpha value.
std::vector<std::string> rowsWithExtraByte(const Image& image,
                                           const std::function<int(int, int)>& extra) {
    std::vector<std::string> rows;
    for (int y = 0; y < image.height; ++y) {
        std::string row;
        for (int x = 0; x < image.width; ++x) {
            for (int c = 0; c < image.channels; ++c)
                row.push_back(static_cast<char>(image.at(x, y, c)));
            row.push_back(static_cast<char>(extra(x, y)));
        }
        rows.push_back(row);
    }
    return rows;
}

std::string bytesOf(const Image& image, int y) {
    const std::size_t rowBytes = static_cast<std::size_t>(image.width * image.channels);
    return std::string(reinterpret_cast<const char*>(image.pixels.data()) + y * rowBytes, rowBytes);
}

}  // namespace

class TestPng : public QObject {
    Q_OBJECT

  private slots:
    // PNGs encoded here: grey 8-bit, RGB 8-bit, grey 16-bit, palette 4-bit, grey + alpha,
    // RGBA; every row with another filter type.
    void decodesPng() {
        const Image rgb = noiseImage(13, 10, 3, 61);
        std::vector<std::string> rows;
        for (int y = 0; y < 10; ++y)
            rows.push_back(bytesOf(rgb, y));
        Image decoded = decodePng(encodePng(13, 10, 8, 2, rows, 3), "rgb.png");
        QCOMPARE(decoded.width, 13);
        QCOMPARE(decoded.height, 10);
        QCOMPARE(decoded.channels, 3);
        QVERIFY(decoded.pixels == rgb.pixels);

        const Image grey = noiseImage(9, 7, 1, 62);
        rows.clear();
        for (int y = 0; y < 7; ++y)
            rows.push_back(bytesOf(grey, y));
        decoded = decodePng(encodePng(9, 7, 8, 0, rows, 1), "grey.png");
        QCOMPARE(decoded.channels, 1);
        QVERIFY(decoded.pixels == grey.pixels);

        // 16-bit grey: the high byte is kept.
        rows = rowsWithExtraByte(grey, [](int x, int y) { return (x * 37 + y) & 0xff; });
        decoded = decodePng(encodePng(9, 7, 16, 0, rows, 2), "grey16.png");
        QVERIFY(decoded.pixels == grey.pixels);

        // Grey + alpha and RGBA: alpha dropped.
        rows = rowsWithExtraByte(grey, [](int x, int) { return 255 - x; });
        decoded = decodePng(encodePng(9, 7, 8, 4, rows, 2), "ga.png");
        QCOMPARE(decoded.channels, 1);
        QVERIFY(decoded.pixels == grey.pixels);
        rows = rowsWithExtraByte(rgb, [](int x, int) { return x * 11; });
        decoded = decodePng(encodePng(13, 10, 8, 6, rows, 4), "rgba.png");
        QCOMPARE(decoded.channels, 3);
        QVERIFY(decoded.pixels == rgb.pixels);

        // Palette, 4 bits per pixel, an odd width (the last byte half used).
        std::string palette;
        for (int i = 0; i < 16; ++i)
            palette += {static_cast<char>(i * 16), static_cast<char>(255 - i * 16),
                        static_cast<char>(i * 7)};
        rows.clear();
        for (int y = 0; y < 4; ++y) {
            std::string row;
            for (int x = 0; x < 5; x += 2) {
                const int hi = (x + y) % 16, lo = x + 1 < 5 ? (x + 1 + 2 * y) % 16 : 0;
                row.push_back(static_cast<char>((hi << 4) | lo));
            }
            rows.push_back(row);
        }
        decoded = decodePng(encodePng(5, 4, 4, 3, rows, 1, palette), "palette.png");
        QCOMPARE(decoded.channels, 3);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 5; ++x) {
                const int index = x % 2 == 0 ? (x + y) % 16 : (x + 2 * y) % 16;
                QCOMPARE(int(decoded.at(x, y, 0)), index * 16);
                QCOMPARE(int(decoded.at(x, y, 1)), 255 - index * 16);
                QCOMPARE(int(decoded.at(x, y, 2)), index * 7);
            }
    }

    // Adam7: a PNG that libpng wrote interlaced decodes to the pixels it was written from, as
    // the same image written non-interlaced does (grey and RGB; sizes below 8 × 8 leave some
    // of the seven passes empty).
    void decodesInterlacedPng_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("channels");
        QTest::newRow("RGB 13 x 10") << 13 << 10 << 3;
        QTest::newRow("grey 6 x 5") << 6 << 5 << 1;
        QTest::newRow("grey 1 x 1") << 1 << 1 << 1;
        QTest::newRow("RGB 3 x 17") << 3 << 17 << 3;
    }
    void decodesInterlacedPng() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, channels);
        const Image image = noiseImage(width, height, channels, 81);
        const std::string interlaced = libpngEncode(image, PNG_INTERLACE_ADAM7);
        QCOMPARE(int(static_cast<unsigned char>(interlaced[28])), 1);  // IHDR's interlace byte
        const Image adam7 = decodePng(interlaced, "adam7.png");
        const Image plain = decodePng(libpngEncode(image, PNG_INTERLACE_NONE), "plain.png");
        QCOMPARE(adam7.width, width);
        QCOMPARE(adam7.height, height);
        QCOMPARE(adam7.channels, channels);
        QVERIFY(adam7.pixels == plain.pixels);
        QVERIFY(adam7.pixels == image.pixels);
    }

    void refusesBadPng_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const Image grey = noiseImage(6, 5, 1, 71);
        std::vector<std::string> rows;
        for (int y = 0; y < 5; ++y)
            rows.push_back(bytesOf(grey, y));
        const std::string good = encodePng(6, 5, 8, 0, rows, 1);
        auto bytes = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
        QTest::newRow("text") << QByteArray("+1 1:0.5\n") << "bad.png: not a PNG image";
        QTest::newRow("empty") << QByteArray() << "bad.png: not a PNG image";
        QTest::newRow("truncated")
            << bytes(good.substr(0, good.size() - 30)) << "bad.png: truncated PNG";
        std::string corrupt = good;
        corrupt[40] = static_cast<char>(corrupt[40] ^ 0x55);
        QTest::newRow("crc") << bytes(corrupt) << "bad.png: corrupt PNG (CRC mismatch in chunk";
        // The interlace flag over rows laid out without interlacing: libpng finds the data
        // inconsistent (interlaced PNGs themselves load: decodesInterlacedPng).
        QTest::newRow("interlace flag, plain rows")
            << bytes(encodePng(6, 5, 8, 0, rows, 1, {}, 1)) << "bad.png: corrupt PNG (libpng: ";
        QTest::newRow("bad depth") << bytes(encodePng(6, 5, 3, 0, rows, 1))
                                   << "PNG colour type 0 with bit depth 3 is not valid";
        QTest::newRow("palette without PLTE")
            << bytes(encodePng(6, 5, 8, 3, rows, 1)) << "palette image without PLTE";
        // 2^20 × 100 pixels: refused at the header, before any data is read.
        std::string huge("\x89PNG\r\n\x1a\n", 8);
        std::string header;
        putBigEndian(header, 1u << 20);
        putBigEndian(header, 100);
        header += {8, 0, 0, 0, 0};
        putChunk(huge, "IHDR", header);
        putChunk(huge, "IEND", {});
        QTest::newRow("too many pixels") << bytes(huge) << "pixels can be loaded";
        // 2,000,000 × 1 pixels: few enough, but wider than libpng's default limit per side.
        std::string wide("\x89PNG\r\n\x1a\n", 8);
        header.clear();
        putBigEndian(header, 2000000);
        putBigEndian(header, 1);
        header += {8, 0, 0, 0, 0};
        putChunk(wide, "IHDR", header);
        putChunk(wide, "IEND", {});
        QTest::newRow("wider than libpng loads")
            << bytes(wide) << "bad.png: PNG image of 2000000 x 1 pixels; libpng loads at most";
    }
    void refusesBadPng() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QString error;
        try {
            decodePng(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                      "bad.png");
        } catch (const DataError& e) {
            error = QString::fromStdString(e.what());
        }
        QVERIFY2(error.contains(message), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPng)
#include "test_png.moc"
