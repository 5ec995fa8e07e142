// SPDX-License-Identifier: GPL-3.0-or-later
// k-means (solvers/math/kmeans.h) against independent answers: well-separated blobs around
// known centres, drawn here with std::mt19937_64, are found to within the blobs' spread by
// both seed conventions; the k-means objective Σ min_k ‖x − c_k‖² (computed here by brute
// force) never increases from one Lloyd iteration to the next; a seed gives the same centres
// twice; k equal to the number of distinct points puts a centre on each; a cluster that
// empties ends on the data under either policy; bad arguments throw.
#include <QtTest>
#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "math/kmeans.h"

using cplab::kmeans;
using cplab::KMeansEmptyCluster;
using cplab::KMeansOptions;
using cplab::KMeansSeedDraw;

namespace {

// `perBlob` points uniform in [−spread, spread]^dim around each row of `centres`, blob after
// blob.
Eigen::MatrixXd blobs(const Eigen::MatrixXd& centres, int perBlob, double spread,
                      std::uint64_t seed) {
    std::mt19937_64 g(seed);
    std::uniform_real_distribution<double> u(-spread, spread);
    Eigen::MatrixXd points(centres.rows() * perBlob, centres.cols());
    for (Eigen::Index b = 0; b < centres.rows(); ++b)
        for (int p = 0; p < perBlob; ++p)
            for (Eigen::Index c = 0; c < centres.cols(); ++c)
                points(b * perBlob + p, c) = centres(b, c) + u(g);
    return points;
}

// The squared distance from `point` to the nearest row of `centres`, by brute force.
double nearest2(const Eigen::RowVectorXd& point, const Eigen::MatrixXd& centres) {
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < centres.rows(); ++k)
        best = std::min(best, (point - centres.row(k)).squaredNorm());
    return best;
}

// Σ over the points of the squared distance to the nearest centre.
double objective(const Eigen::MatrixXd& points, const Eigen::MatrixXd& centres) {
    double total = 0.0;
    for (Eigen::Index i = 0; i < points.rows(); ++i)
        total += nearest2(points.row(i), centres);
    return total;
}

// The distance from every true centre to the nearest found one, at most.
double worstMatch(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& found) {
    double worst = 0.0;
    for (Eigen::Index t = 0; t < truth.rows(); ++t)
        worst = std::max(worst, std::sqrt(nearest2(truth.row(t), found)));
    return worst;
}

Eigen::MatrixXd fourCentres() {
    Eigen::MatrixXd c(4, 3);
    c << 0, 0, 0,    //
        100, 0, 0,   //
        0, 100, 50,  //
        -80, -60, 100;
    return c;
}

}  // namespace

class TestKMeans : public QObject {
    Q_OBJECT

  private slots:
    void findsSeparatedBlobs_data() {
        QTest::addColumn<int>("draw");
        QTest::addColumn<int>("empty");
        QTest::newRow("unbiased, farthest point")
            << int(KMeansSeedDraw::Unbiased) << int(KMeansEmptyCluster::FarthestPoint);
        QTest::newRow("cumulative, keep centre")
            << int(KMeansSeedDraw::Cumulative) << int(KMeansEmptyCluster::KeepCentre);
    }
    // Blobs of half-width 1 whose centres are 100 apart: each true centre has a found centre
    // within the blob (the mean of its points is within 1 of it in every coordinate), for
    // several seeds.
    void findsSeparatedBlobs() {
        QFETCH(int, draw);
        QFETCH(int, empty);
        const Eigen::MatrixXd truth = fourCentres();
        const Eigen::MatrixXd points = blobs(truth, 40, 1.0, 7);
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            KMeansOptions o;
            o.clusters = 4;
            o.seed = seed;
            o.draw = static_cast<KMeansSeedDraw>(draw);
            o.empty = static_cast<KMeansEmptyCluster>(empty);
            const Eigen::MatrixXd found = kmeans(points, o);
            QCOMPARE(found.rows(), Eigen::Index(4));
            QCOMPARE(found.cols(), Eigen::Index(3));
            QVERIFY2(worstMatch(truth, found) < std::sqrt(3.0),
                     qPrintable(QString("seed %1: %2").arg(seed).arg(worstMatch(truth, found))));
        }
    }

    // Overlapping blobs (spread 40, centres 100 apart) so that Lloyd has work to do: the
    // objective after t iterations never exceeds the one after t − 1, and it stops changing
    // once the assignment is stable.
    void objectiveNeverIncreases() {
        const Eigen::MatrixXd points = blobs(fourCentres(), 60, 40.0, 11);
        for (const KMeansSeedDraw draw : {KMeansSeedDraw::Unbiased, KMeansSeedDraw::Cumulative}) {
            KMeansOptions o;
            o.clusters = 6;
            o.seed = 3;
            o.draw = draw;
            o.maxIterations = 0;
            double previous = objective(points, kmeans(points, o));
            for (int t = 1; t <= 30; ++t) {
                o.maxIterations = t;
                const double value = objective(points, kmeans(points, o));
                QVERIFY2(
                    value <= previous * (1 + 1e-12),
                    qPrintable(QString("iteration %1: %2 > %3").arg(t).arg(value).arg(previous)));
                previous = value;
            }
            o.maxIterations = 1000;
            QCOMPARE(objective(points, kmeans(points, o)), previous);
        }
    }

    void deterministicForASeed() {
        const Eigen::MatrixXd points = blobs(fourCentres(), 30, 20.0, 5);
        KMeansOptions o;
        o.clusters = 5;
        o.seed = 42;
        QVERIFY(kmeans(points, o) == kmeans(points, o));
        o.seed = 43;
        const Eigen::MatrixXd other = kmeans(points, o);
        o.seed = 42;
        QVERIFY(kmeans(points, o) != other);
    }

    // As many clusters as distinct points: k-means++ never draws a point that already is a
    // centre (its D is 0), so every point gets its own centre and the objective is 0.
    void oneCentrePerPoint() {
        Eigen::MatrixXd points(5, 2);
        points << 0, 0, 1, 0, 0, 1, 5, 5, -3, 2;
        for (const KMeansSeedDraw draw : {KMeansSeedDraw::Unbiased, KMeansSeedDraw::Cumulative}) {
            KMeansOptions o;
            o.clusters = 5;
            o.draw = draw;
            QCOMPARE(objective(points, kmeans(points, o)), 0.0);
        }
    }

    // Three equal points and two clusters: the second seed is a copy of the first (D = 0
    // everywhere), every point joins cluster 0 (the first on ties), and cluster 1 empties.
    // Either policy ends with both centres on the single location (FarthestPoint moves the
    // empty one onto a point, KeepCentre leaves it at its seed).
    void emptyCluster() {
        Eigen::MatrixXd points(3, 2);
        points << 2, 3, 2, 3, 2, 3;
        for (const KMeansEmptyCluster empty :
             {KMeansEmptyCluster::FarthestPoint, KMeansEmptyCluster::KeepCentre}) {
            KMeansOptions o;
            o.clusters = 2;
            o.empty = empty;
            const Eigen::MatrixXd found = kmeans(points, o);
            for (Eigen::Index k = 0; k < 2; ++k) {
                QCOMPARE(found(k, 0), 2.0);
                QCOMPARE(found(k, 1), 3.0);
            }
        }
    }

    void refusesBadArguments() {
        KMeansOptions o;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(Eigen::MatrixXd(0, 2), o));
        o.clusters = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(Eigen::MatrixXd::Zero(3, 2), o));
    }
};

QTEST_GUILESS_MAIN(TestKMeans)
#include "test_kmeans.moc"
