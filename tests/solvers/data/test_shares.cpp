// SPDX-License-Identifier: GPL-3.0-or-later
// A distributed run's shares of a LIBSVM file (libsvm_format.h loadLibsvmShare, shares.h): for
// 1 to 7 processes the shares of heart_scale partition its examples in order — their rows,
// labels and line numbers, concatenated, are exactly loadLibsvm's — whatever byte the cuts
// fall on (a file of one example per line, and one with comments, blank lines and CRLF), and
// so do a gzip file's shares of lines; a bad line is reported with the file's own line number
// by the share that holds it; more processes than lines are refused with the reason; %r names
// one file per rank.
// The collectives of core/communicator.h are checked for one process (SingleProcess).
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/communicator.h"
#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "data/shares.h"

using namespace cplab;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The shares of `path` for `ranks` processes, checked against the whole file.
void checkPartition(const std::string& path, int ranks) {
    const Dataset whole = loadLibsvm(path);
    int next = 0;
    for (int r = 0; r < ranks; ++r) {
        const Dataset share = loadLibsvmShare(path, r, ranks);
        for (int i = 0; i < share.size(); ++i, ++next) {
            QVERIFY2(next < whole.size(), "more examples in the shares than in the file");
            QCOMPARE(share.labels[i], whole.labels[next]);
            QCOMPARE(share.lines[static_cast<std::size_t>(i)],
                     whole.lines[static_cast<std::size_t>(next)]);
            Eigen::VectorXd a = share.row(i), b = whole.row(next);
            a.conservativeResize(whole.dimension());
            for (Eigen::Index j = share.dimension(); j < a.size(); ++j)
                a[j] = 0.0;
            QCOMPARE(a, b);
        }
    }
    QCOMPARE(next, whole.size());
}

class SharesTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }

  private slots:
    void sharesPartitionTheFile_data() {
        QTest::addColumn<int>("ranks");
        for (int n = 1; n <= 7; ++n)
            QTest::newRow(std::to_string(n).c_str()) << n;
    }
    void sharesPartitionTheFile() {
        QFETCH(int, ranks);
        checkPartition(kData + "/heart_scale", ranks);
        // Comments, blank lines and CRLF line ends where the cuts may fall.
        std::string text;
        for (int i = 0; i < 40; ++i) {
            text += i % 7 == 0 ? "# a comment line\r\n" : "";
            text += i % 5 == 0 ? "\r\n" : "";
            text += (i % 2 ? "+1" : "-1") + std::string(" 1:") + std::to_string(i) + " 3:0.5\r\n";
        }
        write(path("mixed.svm"), text);
        checkPartition(path("mixed.svm"), ranks);
        // Gzip: streamed, each share its lines [L·r/N, L·(r + 1)/N).
        checkPartition(kData + "/usps38.t.gz", ranks);
    }

    void aBadLineIsReportedByItsShare() {
        std::string text;
        for (int i = 1; i <= 30; ++i)
            text += i == 25 ? "+1 2:abc\n" : "+1 2:1\n";
        write(path("bad.svm"), text);
        for (int r = 0; r < 2; ++r) {
            try {
                loadLibsvmShare(path("bad.svm"), r, 2);
                QCOMPARE(r, 0);
            } catch (const DataError& e) {
                QCOMPARE(r, 1);
                QVERIFY2(std::string(e.what()).find("bad.svm:25") != std::string::npos, e.what());
            }
        }
    }

    void refusals() {
        write(path("two.svm"), "+1 1:1\n-1 1:2\n");
        QVERIFY_THROWS_EXCEPTION(DataError, loadLibsvmShare(path("two.svm"), 2, 3));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, loadLibsvmShare(path("two.svm"), 2, 2));
    }

    void filePerRank() {
        QCOMPARE(shareFileName("part-%r.svm", 12), std::string("part-12.svm"));
        QCOMPARE(shareFileName("%r/x%r", 3), std::string("3/x3"));
        QVERIFY(!namesFilePerRank("a9a"));
        write(path("part-0.svm"), "+1 2:1\n-1 2000:1\n");
        SingleProcess one;
        const ExampleSets sets = loadSharedExamples(path("part-%r.svm"), "", one);
        // One process compacts as compactFeatures would: 2 of 2,000 features used.
        QCOMPARE(sets.train->dimension(), 2);
        QCOMPARE(sets.train->originalDimension, 2000);
        QVERIFY(!sets.test);
    }

    void singleProcessCollectives() {
        SingleProcess one;
        QCOMPARE(sumOverRanks(one, 2.5), 2.5);
        QCOMPARE(maxOverRanks(one, 7), 7LL);
        QCOMPARE(firstFailure(one, "why"), std::string("why"));
        QCOMPARE(unionOverRanks(one, std::vector<int>{1, 4}), (std::vector<int>{1, 4}));
    }
};

}  // namespace

QTEST_GUILESS_MAIN(SharesTest)
#include "test_shares.moc"
