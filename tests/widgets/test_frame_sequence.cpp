// SPDX-License-Identifier: GPL-3.0-or-later
// widgets::foreignFrames (frame_sequence.h): the files of a PNG frames pattern that an export
// of `count` frames would not replace, on a large folder. It compared every file of the
// pattern with all `count` frame names (20,000 files and frames: 400 million names built, tens
// of seconds); now each file's digits are read once. The answers here are worked out by hand
// from the names written, not by framePath.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "frame_sequence.h"

using cplab::widgets::foreignFrames;

// Named, not anonymous: the group is a unity build.
namespace frame_sequence_test {

constexpr int kFrames = 20000;

bool touch(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly);
}

}  // namespace frame_sequence_test

using namespace frame_sequence_test;

class TestFrameSequence : public QObject {
    Q_OBJECT

  private slots:
    // A folder target (frame0001.png …): 20,000 frames of an earlier export of the same length
    // are all replaced; one more, or the same number written otherwise, is foreign.
    void folderOfTwentyThousandFrames() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.path() + "/";
        for (int k = 1; k <= kFrames; ++k)
            QVERIFY(touch(folder + QString("frame%1.png").arg(k, 4, 10, QChar('0'))));
        QVERIFY(touch(folder + "notes.txt"));  // not of the pattern
        QCOMPARE(foreignFrames(folder, kFrames), QString());

        // A shorter export would leave frames 10001 … 20000 beside it.
        const QString shorter = foreignFrames(folder, 10000);
        QVERIFY2(shorter.contains("holds 10000 frame file(s)"), qPrintable(shorter));
        QVERIFY2(shorter.contains("frame10001.png ... frame20000.png"), qPrintable(shorter));

        // frame20001.png and frame00005.png (5 written in five digits: frame0005.png is the
        // export's name for it) are not the export's names; frame-1.png is not of the pattern.
        QVERIFY(touch(folder + "frame20001.png"));
        QVERIFY(touch(folder + "frame00005.png"));
        QVERIFY(touch(folder + "frame-1.png"));
        const QString two = foreignFrames(folder, kFrames);
        QVERIFY2(two.contains("holds 2 frame file(s)"), qPrintable(two));
        QVERIFY2(two.contains("(frame00005.png, frame20001.png)"), qPrintable(two));
    }

    // A pattern without padding (shot-%d.png): shot-7.png is frame 7, shot-07.png and shot-0.png
    // are no frame's, and digits beyond any int are foreign, not read as a wrapped number.
    void unpaddedPattern() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pattern = dir.path() + "/shot-%d.png";
        for (int k = 1; k <= kFrames; ++k)
            QVERIFY(touch(dir.path() + QString("/shot-%1.png").arg(k)));
        QCOMPARE(foreignFrames(pattern, kFrames), QString());
        for (const char* name : {"/shot-07.png", "/shot-0.png", "/shot-4294967297.png",
                                 "/shot-99999999999999999999.png"})
            QVERIFY(touch(dir.path() + name));
        const QString four = foreignFrames(pattern, kFrames);
        QVERIFY2(four.contains("holds 4 frame file(s)"), qPrintable(four));
        // Zero-padded patterns: shot-%03d.png names frame 7 shot-007.png, frame 1234 shot-1234.png.
        QTemporaryDir padded;
        QVERIFY(padded.isValid());
        for (const char* name : {"/shot-007.png", "/shot-1234.png", "/shot-07.png"})
            QVERIFY(touch(padded.path() + name));
        const QString one = foreignFrames(padded.path() + "/shot-%03d.png", 2000);
        QVERIFY2(one.contains("holds 1 frame file(s)") && one.contains("(shot-07.png)"),
                 qPrintable(one));
    }
};

QTEST_GUILESS_MAIN(TestFrameSequence)
#include "test_frame_sequence.moc"
