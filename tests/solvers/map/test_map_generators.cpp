// SPDX-License-Identifier: GPL-3.0-or-later
// Generated MAP models (solvers/map/generators.h) and the images they are made from
// against answers computed here from the raw draws and pixels: the tables equal the stated
// formulas recomputed from std::mt19937_64 and the test's own pixels; a seed gives the same
// model; on small frustrated instances (≤ 12 variables) the exhaustive optimum lies below every
// upper bound and tightening by cycles closes more of the gap than plain MPLP; TRW-S recovers a
// known disparity shift; the bad-pixel count; the Tsukuba PNGs of the repository load (the
// PNG decoder itself: test_png.cpp); bad options are rejected with their messages.
#include <QtTest>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>

#include "core/solver.h"
#include "data/data_error.h"
#include "data/image_format.h"
#include "map/cycle_mplp.h"
#include "map/generators.h"
#include "map/mplp.h"
#include "map/trws.h"

using namespace cplab;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The header's draw: u = (g() >> 11)·2⁻⁵³, a value a·(2u − 1).
double draw(std::mt19937_64& g, double a) {
    const double u = static_cast<double>(g() >> 11) / 9007199254740992.0;
    return a * (2.0 * u - 1.0);
}

// Every labeling of the model, the best E (the model's own energy is checked against the
// test's formula elsewhere).
double exhaustiveOptimum(const PairwiseModel& m) {
    std::vector<int> x(static_cast<std::size_t>(m.variables()), 0);
    double best = -kInf;
    for (;;) {
        best = std::max(best, m.energy(x));
        int v = 0;
        while (v < m.variables() && ++x[static_cast<std::size_t>(v)] == m.labels(v))
            x[static_cast<std::size_t>(v++)] = 0;
        if (v == m.variables()) return best;
    }
}

Image randomImage(int width, int height, int channels, unsigned seed) {
    std::mt19937 g(seed);
    Image image{width, height, channels, {}};
    image.pixels.resize(static_cast<std::size_t>(width * height * channels));
    for (auto& p : image.pixels)
        p = static_cast<std::uint8_t>(g() % 256);
    return image;
}

int luminance(const Image& image, int x, int y) {
    if (image.channels == 1) return image.at(x, y);
    return (299 * image.at(x, y, 0) + 587 * image.at(x, y, 1) + 114 * image.at(x, y, 2) + 500) /
           1000;
}

// The (u, v) pairs of a W × H grid in the header's order.
std::vector<std::pair<int, int>> gridPairs(int w, int h) {
    std::vector<std::pair<int, int>> pairs;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (x + 1 < w) pairs.push_back({y * w + x, y * w + x + 1});
            if (y + 1 < h) pairs.push_back({y * w + x, (y + 1) * w + x});
        }
    return pairs;
}

QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestMapGenerators : public QObject {
    Q_OBJECT

  private slots:
    // θ_v(a) = unary·(2u − 1) in (v, a) order, then one Potts weight coupling·(2u − 1) per edge
    // in the grid's edge order, u from mt19937_64(seed).
    void randomGridTables() {
        RandomGridOptions o;
        o.width = 5;
        o.height = 3;
        o.labels = 3;
        o.coupling = 1.5;
        o.unary = 0.7;
        o.seed = 42;
        const GeneratedModel g = randomGrid(o);
        const PairwiseModel& m = *g.model;
        QCOMPARE(m.variables(), 15);
        std::mt19937_64 rng(42);
        for (int v = 0; v < 15; ++v) {
            QCOMPARE(m.labels(v), 3);
            for (int a = 0; a < 3; ++a)
                QCOMPARE(m.unary(v)[static_cast<std::size_t>(a)], draw(rng, 0.7));
        }
        const auto pairs = gridPairs(5, 3);
        QCOMPARE(m.edgeCount(), static_cast<int>(pairs.size()));
        int attractive = 0, repulsive = 0;
        for (int e = 0; e < m.edgeCount(); ++e) {
            const auto& ed = m.edge(e);
            QCOMPARE(ed.u, pairs[static_cast<std::size_t>(e)].first);
            QCOMPARE(ed.v, pairs[static_cast<std::size_t>(e)].second);
            QVERIFY(ed.kind == PairwiseModel::EdgeKind::Potts);
            const double w = draw(rng, 1.5);
            QCOMPARE(ed.weight, w);
            (w > 0 ? attractive : repulsive)++;
        }
        QVERIFY(attractive > 0 && repulsive > 0);  // mixed signs: frustration is possible
        QVERIFY(g.picture);
        QCOMPARE(g.picture->width, 5);
        QCOMPARE(g.picture->height, 3);
        QVERIFY(g.picture->input.empty());
    }

    // Dense tables, row-major draws per edge (u < v in lexicographic order).
    void completeGraphTables() {
        CompleteGraphOptions o;
        o.nodes = 4;
        o.labels = 3;
        o.coupling = 2.0;
        o.unary = 0.25;
        o.seed = 9;
        const GeneratedModel g = completeGraph(o);
        const PairwiseModel& m = *g.model;
        std::mt19937_64 rng(9);
        for (int v = 0; v < 4; ++v)
            for (int a = 0; a < 3; ++a)
                QCOMPARE(m.unary(v)[static_cast<std::size_t>(a)], draw(rng, 0.25));
        QCOMPARE(m.edgeCount(), 6);
        int e = 0;
        for (int u = 0; u < 4; ++u)
            for (int v = u + 1; v < 4; ++v, ++e) {
                QCOMPARE(m.edge(e).u, u);
                QCOMPARE(m.edge(e).v, v);
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b)
                        QCOMPARE(m.pairwise(e, a, b), draw(rng, 2.0));
            }
    }

    void deterministicPerSeed() {
        RandomGridOptions o;
        const auto a = randomGrid(o).model->toTables();
        const auto b = randomGrid(o).model->toTables();
        o.seed = 2;
        const auto c = randomGrid(o).model->toTables();
        QVERIFY(a.unary == b.unary);
        QCOMPARE(a.pairs.size(), b.pairs.size());
        for (std::size_t e = 0; e < a.pairs.size(); ++e)
            QVERIFY(a.pairs[e].table == b.pairs[e].table);
        QVERIFY(a.unary != c.unary);

        CompleteGraphOptions k;
        const auto d = completeGraph(k).model->toTables();
        const auto e2 = completeGraph(k).model->toTables();
        QVERIFY(d.unary == e2.unary);
        QVERIFY(d.pairs[3].table == e2.pairs[3].table);

        const Image image = randomImage(12, 9, 3, 5);
        PottsImageOptions p;
        p.mode = "colour";
        p.seed = 3;
        QVERIFY(kmeansCentres(image, 4, 3, 50) == kmeansCentres(image, 4, 3, 50));
        QVERIFY(pottsImage(image, p).model->toTables().unary ==
                pottsImage(image, p).model->toTables().unary);
    }

    // Grey mode: θ_v(a) = −|lum(p_v) − 255a/(L − 1)|, Potts w = smoothness on the grid edges.
    void pottsImageGrey() {
        const Image image = randomImage(6, 4, 3, 11);
        PottsImageOptions o;
        o.labels = 3;
        o.smoothness = 7.5;
        const GeneratedModel g = pottsImage(image, o);
        const PairwiseModel& m = *g.model;
        QCOMPARE(m.variables(), 24);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 6; ++x)
                for (int a = 0; a < 3; ++a)
                    QCOMPARE(m.unary(y * 6 + x)[static_cast<std::size_t>(a)],
                             -std::abs(luminance(image, x, y) - 127.5 * a));
        const auto pairs = gridPairs(6, 4);
        QCOMPARE(m.edgeCount(), static_cast<int>(pairs.size()));
        for (int e = 0; e < m.edgeCount(); ++e) {
            QCOMPARE(m.edge(e).u, pairs[static_cast<std::size_t>(e)].first);
            QCOMPARE(m.edge(e).v, pairs[static_cast<std::size_t>(e)].second);
            QCOMPARE(m.pairwise(e, 1, 1), 7.5);
            QCOMPARE(m.pairwise(e, 0, 2), 0.0);
        }
        QVERIFY(g.picture->input.pixels == image.pixels);
        QCOMPARE(g.picture->labelColors.size(), std::size_t{3});
        QCOMPARE(int(g.picture->labelColors[1][0]), 128);  // 127.5 rounded half away
        QVERIFY(g.picture->truth.empty());
    }

    // Colour mode: the centres are a Lloyd fixed point (each the mean of the pixels nearest to
    // it, recomputed here), ordered by luminance, and θ_v(a) = −‖p_v − c_a‖.
    void pottsImageColour() {
        Image image = randomImage(10, 8, 3, 21);
        // Three colour blobs plus noise, so that the clusters are clear.
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 10; ++x)
                for (int c = 0; c < 3; ++c) {
                    const int base = x < 4 ? (c == 0 ? 200 : 30) : y < 4 ? (c == 1 ? 180 : 40) : 90;
                    auto& p = image.pixels[static_cast<std::size_t>((y * 10 + x) * 3 + c)];
                    p = static_cast<std::uint8_t>(base + p % 20);
                }
        const auto centres = kmeansCentres(image, 3, 4, 100);
        QCOMPARE(centres.size(), std::size_t{3});
        std::vector<std::vector<double>> sums(3, std::vector<double>(3, 0.0));
        std::vector<int> counts(3, 0);
        auto dist2 = [&](int i, const std::vector<double>& c) {
            double d = 0;
            for (int k = 0; k < 3; ++k) {
                const double diff = image.pixels[static_cast<std::size_t>(i * 3 + k)] - c[k];
                d += diff * diff;
            }
            return d;
        };
        for (int i = 0; i < 80; ++i) {
            int best = 0;
            for (int k = 1; k < 3; ++k)
                if (dist2(i, centres[k]) < dist2(i, centres[best])) best = k;
            ++counts[best];
            for (int c = 0; c < 3; ++c)
                sums[best][c] += image.pixels[static_cast<std::size_t>(i * 3 + c)];
        }
        double previous = -1.0;
        for (int k = 0; k < 3; ++k) {
            QVERIFY(counts[k] > 0);
            for (int c = 0; c < 3; ++c)
                QVERIFY(std::abs(centres[k][c] - sums[k][c] / counts[k]) < 1e-9);
            const double lum =
                0.299 * centres[k][0] + 0.587 * centres[k][1] + 0.114 * centres[k][2];
            QVERIFY(lum >= previous);
            previous = lum;
        }
        PottsImageOptions o;
        o.labels = 3;
        o.mode = "colour";
        o.seed = 4;
        o.kmeans_iterations = 100;
        const GeneratedModel g = pottsImage(image, o);
        const PairwiseModel& m = *g.model;
        for (int i = 0; i < 80; ++i)
            for (int a = 0; a < 3; ++a)
                QVERIFY(std::abs(m.unary(i)[static_cast<std::size_t>(a)] +
                                 std::sqrt(dist2(i, centres[static_cast<std::size_t>(a)]))) <
                        1e-12);
    }

    // θ_v(d) = −min(|L(x, y) − R(x − d, y)|, T) (−T without a match), one shared table
    // −λ·min(|a − b|, τ) on every grid edge; truth = grey / scale.
    void stereoTables() {
        const Image left = randomImage(7, 3, 1, 31);
        const Image right = randomImage(7, 3, 3, 32);  // RGB: its luminance is used
        Image truth = randomImage(7, 3, 1, 33);
        truth.pixels[4] = 0;  // unknown
        StereoOptions o;
        o.disparities = 4;
        o.smoothness = 3.0;
        o.truncation = 2;
        o.data_truncation = 40.0;
        const GeneratedModel g = stereo(left, right, truth, 16, o);
        const PairwiseModel& m = *g.model;
        QCOMPARE(m.variables(), 21);
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 7; ++x)
                for (int d = 0; d < 4; ++d) {
                    const double expected =
                        x - d >= 0 ? -std::min(40.0, double(std::abs(left.at(x, y) -
                                                                     luminance(right, x - d, y))))
                                   : -40.0;
                    QCOMPARE(m.unary(y * 7 + x)[static_cast<std::size_t>(d)], expected);
                }
        const auto pairs = gridPairs(7, 3);
        QCOMPARE(m.edgeCount(), static_cast<int>(pairs.size()));
        for (int e = 0; e < m.edgeCount(); ++e) {
            QCOMPARE(m.edge(e).u, pairs[static_cast<std::size_t>(e)].first);
            QCOMPARE(m.edge(e).v, pairs[static_cast<std::size_t>(e)].second);
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    QCOMPARE(m.pairwise(e, a, b), -3.0 * std::min(std::abs(a - b), 2));
        }
        // One table, shared: far less memory than one per edge.
        QVERIFY(m.bytes() < sizeof(double) * 16 * static_cast<std::size_t>(m.edgeCount()));
        QCOMPARE(g.picture->truth.size(), std::size_t{21});
        for (int i = 0; i < 21; ++i) {
            const int grey = truth.pixels[static_cast<std::size_t>(i)];
            QCOMPARE(g.picture->truth[static_cast<std::size_t>(i)],
                     grey == 0 ? -1 : static_cast<int>(std::lround(grey / 16.0)));
        }
        // Bad pixels: off by more than 1 among the known ones.
        std::vector<int> labeling(21);
        long long bad = 0, known = 0;
        for (int i = 0; i < 21; ++i) {
            labeling[static_cast<std::size_t>(i)] = i % 4;
            const int t = g.picture->truth[static_cast<std::size_t>(i)];
            if (t < 0) continue;
            ++known;
            if (std::abs(i % 4 - t) > 1) ++bad;
        }
        const BadPixels counted = countBadPixels(*g.picture, labeling);
        QCOMPARE(counted.known, known);
        QCOMPARE(counted.bad, bad);
        QCOMPARE(known, 20LL);
    }

    // Downsampling by 2: block means (rounded half up), ceil(D/2) labels, the truth of the
    // block's centre pixel halved.
    void stereoDownsampled() {
        const Image left = randomImage(9, 5, 1, 41);
        const Image right = randomImage(9, 5, 1, 42);
        const Image truth = randomImage(9, 5, 1, 43);
        StereoOptions o;
        o.disparities = 7;
        o.downsample = 2;
        const GeneratedModel g = stereo(left, right, truth, 16, o);
        QCOMPARE(g.picture->width, 4);
        QCOMPARE(g.picture->height, 2);
        QCOMPARE(g.model->labels(0), 4);
        auto mean = [](const Image& im, int x, int y) {
            const int s = im.at(2 * x, 2 * y) + im.at(2 * x + 1, 2 * y) + im.at(2 * x, 2 * y + 1) +
                          im.at(2 * x + 1, 2 * y + 1);
            return (2 * s + 4) / 8;
        };
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 4; ++x) {
                QCOMPARE(int(g.picture->input.at(x, y)), mean(left, x, y));
                for (int d = 0; d <= x; ++d)
                    QCOMPARE(g.model->unary(y * 4 + x)[static_cast<std::size_t>(d)],
                             -std::min(30.0,
                                       double(std::abs(mean(left, x, y) - mean(right, x - d, y)))));
                const int grey = truth.at(2 * x + 1, 2 * y + 1);
                QCOMPARE(g.picture->truth[static_cast<std::size_t>(y * 4 + x)],
                         grey == 0 ? -1 : static_cast<int>(std::lround(grey / 32.0)));
            }
    }

    // A right image that is the left one shifted by 3 pixels: TRW-S finds disparity 3 at every
    // pixel that has a match, and the bad-pixel count against a truth of 3 is 0 there.
    void stereoRecoversShift() {
        const int w = 24, h = 10, shift = 3;
        const Image left = randomImage(w, h, 1, 51);
        Image right = left;
        Image truth{w, h, 1, std::vector<std::uint8_t>(static_cast<std::size_t>(w * h), 0)};
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                // R(x − 3, y) = L(x, y).
                if (x - shift >= 0)
                    right.pixels[static_cast<std::size_t>(y * w + x - shift)] = left.at(x, y);
                if (x >= shift) truth.pixels[static_cast<std::size_t>(y * w + x)] = shift * 16;
            }
        StereoOptions o;
        o.disparities = 6;
        const GeneratedModel g = stereo(left, right, truth, 16, o);
        TrwsOptions t;
        t.stop.max_iterations = 50;
        TrwsSolver solver(g.model, t);
        solver.setPicture(g.picture);
        solve(solver);
        for (int y = 0; y < h; ++y)
            for (int x = shift; x < w; ++x)
                QCOMPARE(solver.bestLabeling()[static_cast<std::size_t>(y * w + x)], shift);
        const BadPixels bad = countBadPixels(*g.picture, solver.bestLabeling());
        QCOMPARE(bad.known, static_cast<long long>((w - shift) * h));
        QCOMPARE(bad.bad, 0LL);
        bool found = false;
        for (const auto& [name, value] : solver.summary())
            if (name == "bad_pixels") {
                found = true;
                QCOMPARE(std::get<double>(value), 0.0);
            }
        QVERIFY(found);
    }

    // Small frustrated instances (≤ 12 variables): the exhaustive optimum lies below every
    // upper bound of MPLP, TRW-S and MPLP with cycles, at every iteration; the cycles close
    // more of the gap than plain MPLP where the LP is loose.
    void tighteningOnSmallInstances_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 6; ++seed) {
            QTest::newRow(qPrintable(QString("grid 4x3 seed %1").arg(seed))) << "grid" << seed;
            QTest::newRow(qPrintable(QString("K6 seed %1").arg(seed))) << "complete" << seed;
        }
    }
    void tighteningOnSmallInstances() {
        QFETCH(QString, kind);
        QFETCH(int, seed);
        std::shared_ptr<PairwiseModel> model;
        if (kind == "grid") {
            RandomGridOptions o;
            o.width = 4;
            o.height = 3;
            o.labels = 3;
            o.seed = seed;
            model = randomGrid(o).model;
        } else {
            CompleteGraphOptions o;
            o.nodes = 6;
            o.labels = 3;
            o.seed = seed;
            model = completeGraph(o).model;
        }
        QVERIFY(model->variables() <= 12);
        const double optimum = exhaustiveOptimum(*model);
        const double slack = 1e-9 * std::max(1.0, std::abs(optimum));
        MessagePassingOptions base;
        base.stop.max_iterations = 400;
        base.stop.epsilon = 1e-9;
        std::map<QString, double> finalUpper;
        for (const QString name : {"mplp", "trws", "mplp_cycles"}) {
            std::unique_ptr<MessagePassingSolver> s;
            if (name == "mplp") s = std::make_unique<MplpSolver>(model, base);
            if (name == "trws") s = std::make_unique<TrwsSolver>(model, base);
            if (name == "mplp_cycles") {
                CycleMplpOptions c;
                c.base = base;
                c.tighten_tolerance = 1e-4;
                s = std::make_unique<CycleMplpSolver>(model, c);
            }
            QVERIFY(!s->status().finished());
            solve(*s, [&](const Solver&, const IterationRecord& r) {
                QVERIFY2(r.upper >= optimum - slack,
                         qPrintable(QString("%1 iteration %2: U %3 < optimum %4")
                                        .arg(name)
                                        .arg(r.iteration)
                                        .arg(r.upper, 0, 'g', 17)
                                        .arg(optimum, 0, 'g', 17)));
                QVERIFY(r.lower <= optimum + slack);
            });
            QCOMPARE(s->bestEnergy(), model->energy(s->bestLabeling()));
            QVERIFY(s->lastRecord().gap >= 0);
            finalUpper[name] = s->lastRecord().upper;
        }
        const double mplpGap = finalUpper["mplp"] - optimum;
        const double cyclesGap = finalUpper["mplp_cycles"] - optimum;
        QVERIFY(cyclesGap <= mplpGap + slack);
        if (mplpGap > 1e-3)
            QVERIFY2(
                cyclesGap < 0.5 * mplpGap,
                qPrintable(QString("MPLP gap %1, with cycles %2").arg(mplpGap).arg(cyclesGap)));
    }

    // The map_frustrated demo's instance (12 × 12, 3 labels, seed 1): MPLP stalls with an open
    // gap; MPLP with cycles certifies an optimum, its bound meeting the energy of its labeling
    // (recomputed here from the model) with a gap of exactly 0, never a rounding error below.
    void frustratedGridIsCertifiedByCycles() {
        const auto model = randomGrid(RandomGridOptions{}).model;
        MessagePassingOptions base;
        base.stop.max_iterations = 300;
        MplpSolver plain(model, base);
        solve(plain);
        QVERIFY(plain.lastRecord().gap > 1.0);
        CycleMplpOptions c;
        c.base = base;
        c.base.icm_passes = 3;
        c.tighten_tolerance = 1e-3;
        CycleMplpSolver cycles(model, c);
        solve(cycles);
        QCOMPARE(cycles.status().code, StatusCode::Converged);
        QVERIFY(cycles.clusters() > 0);
        QCOMPARE(cycles.lastRecord().gap, 0.0);
        QCOMPARE(cycles.lastRecord().lower, model->energy(cycles.bestLabeling()));
        QVERIFY(cycles.lastRecord().upper < plain.lastRecord().upper - 1.0);
    }

    // At least one of the small instances above has a loose LP (the case they are for).
    void someInstanceIsLoose() {
        int loose = 0;
        for (int seed = 1; seed <= 6; ++seed) {
            RandomGridOptions o;
            o.width = 4;
            o.height = 3;
            o.seed = seed;
            const auto model = randomGrid(o).model;
            MessagePassingOptions base;
            base.stop.max_iterations = 400;
            MplpSolver s(model, base);
            solve(s);
            if (s.lastRecord().upper - exhaustiveOptimum(*model) > 1e-3) ++loose;
        }
        QVERIFY(loose > 0);
    }

    // The built-in Tsukuba pair decodes to 384 × 288 RGB, and a stereo problem on it has a
    // ground truth for most pixels.
    void tsukubaFromTheRepository() {
        const std::string dir = std::string(CPLAB_SOURCE_DIR) + "/resources/datasets/";
        const Image left = loadPng(dir + "tsukuba_imL.png");
        const Image right = loadPng(dir + "tsukuba_imR.png");
        const Image truth = loadPng(dir + "tsukuba_truedispL.png");
        QCOMPARE(left.width, 384);
        QCOMPARE(left.height, 288);
        QCOMPARE(left.channels, 3);
        QCOMPARE(truth.channels, 1);
        StereoOptions o;
        o.downsample = 4;
        const GeneratedModel g = stereo(left, right, truth, 16, o);
        QCOMPARE(g.picture->width, 96);
        QCOMPARE(g.model->labels(0), 4);
        const BadPixels none = countBadPixels(*g.picture, g.picture->truth);
        QCOMPARE(none.bad, 0LL);
        QVERIFY(none.known > 96 * 72 * 3 / 4);
        const QString missing = errorOf([&] { loadPng(dir + "no_such_image.png"); });
        QVERIFY2(missing.contains("no_such_image.png: no such file"), qPrintable(missing));
    }

    void refusesBadOptions_data() {
        QTest::addColumn<QString>("generator");
        QTest::addColumn<QString>("field");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("grid labels 1")
            << "grid"
            << "labels" << 1.0 << "RandomGridOptions::labels = 1: must be between 2 and 256";
        QTest::newRow("grid width 1")
            << "grid"
            << "width" << 1.0 << "RandomGridOptions::width = 1: must be between 2 and 4096";
        QTest::newRow("grid height huge")
            << "grid"
            << "height" << 5000.0 << "RandomGridOptions::height = 5000: must be between 2 and 4096";
        QTest::newRow("grid coupling nan")
            << "grid"
            << "coupling" << std::nan("") << "RandomGridOptions::coupling = nan: must be a finite";
        QTest::newRow("grid seed -1")
            << "grid"
            << "seed" << -1.0 << "RandomGridOptions::seed = -1: must be >= 0";
        QTest::newRow("grid absurd size")
            << "grid"
            << "labels" << 256.0 << "table entries; at most 33554432 can be generated";
        QTest::newRow("complete nodes 2")
            << "complete"
            << "nodes" << 2.0 << "CompleteGraphOptions::nodes = 2: must be between 3 and 200";
        QTest::newRow("complete unary -1")
            << "complete"
            << "unary" << -1.0 << "CompleteGraphOptions::unary = -1: must be";
        QTest::newRow("complete absurd size")
            << "complete"
            << "labels" << 256.0 << "at most 33554432 can be generated";
        QTest::newRow("potts labels 1")
            << "potts"
            << "labels" << 1.0 << "PottsImageOptions::labels = 1: must be between 2 and 64";
        QTest::newRow("potts smoothness -2")
            << "potts"
            << "smoothness" << -2.0 << "PottsImageOptions::smoothness = -2: must be";
        QTest::newRow("potts downsample 0")
            << "potts"
            << "downsample" << 0.0 << "PottsImageOptions::downsample = 0: must be between 1 and 64";
        QTest::newRow("potts downsample too large")
            << "potts"
            << "downsample" << 40.0 << "leaves no pixel of a 30 x 20 image";
        QTest::newRow("potts mode")
            << "potts"
            << "mode" << 0.0 << "PottsImageOptions::mode = 'rgb': must be 'grey' or 'colour'";
        QTest::newRow("stereo disparities 1")
            << "stereo"
            << "disparities" << 1.0 << "StereoOptions::disparities = 1: must be between 2 and 256";
        QTest::newRow("stereo truncation 0")
            << "stereo"
            << "truncation" << 0.0 << "StereoOptions::truncation = 0: must be >= 1";
        QTest::newRow("stereo data_truncation 0")
            << "stereo"
            << "data_truncation" << 0.0
            << "StereoOptions::data_truncation = 0: must be a finite number > 0";
        QTest::newRow("stereo downsample 17")
            << "stereo"
            << "downsample" << 17.0 << "StereoOptions::downsample = 17: must be between 1 and 16";
        QTest::newRow("stereo sizes differ")
            << "stereo"
            << "right width" << 29.0
            << "the left image is 30 x 20 pixels, the right one 29 x 20; a stereo pair needs "
               "images of the same size";
        QTest::newRow("stereo too few labels")
            << "stereo"
            << "downsample" << 16.0 << "leave fewer than 2 labels";
    }
    void refusesBadOptions() {
        QFETCH(QString, generator);
        QFETCH(QString, field);
        QFETCH(double, value);
        QFETCH(QString, message);
        const Image image = randomImage(30, 20, 1, 81);
        const QString error = errorOf([&] {
            if (generator == "grid") {
                RandomGridOptions o;
                if (field == "labels") o.labels = int(value), o.width = o.height = 4096;
                if (field == "labels" && value < 2) o.width = o.height = 4;
                if (field == "width") o.width = int(value);
                if (field == "height") o.height = int(value);
                if (field == "coupling") o.coupling = value;
                if (field == "seed") o.seed = static_cast<std::int64_t>(value);
                randomGrid(o);
            } else if (generator == "complete") {
                CompleteGraphOptions o;
                if (field == "nodes") o.nodes = int(value);
                if (field == "unary") o.unary = value;
                if (field == "labels") o.labels = int(value), o.nodes = 200;
                completeGraph(o);
            } else if (generator == "potts") {
                PottsImageOptions o;
                if (field == "labels") o.labels = int(value);
                if (field == "smoothness") o.smoothness = value;
                if (field == "downsample") o.downsample = int(value);
                if (field == "mode") o.mode = "rgb";
                pottsImage(image, o);
            } else {
                StereoOptions o;
                Image right = image;
                if (field == "disparities") o.disparities = int(value);
                if (field == "truncation") o.truncation = int(value);
                if (field == "data_truncation") o.data_truncation = value;
                if (field == "downsample") o.downsample = int(value);
                if (field == "right width") right = randomImage(int(value), 20, 1, 82);
                stereo(image, right, {}, 16, o);
            }
        });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void defaultOptionsAreValid() {
        std::string why;
        QVERIFY(RandomGridOptions{}.isValid(&why));
        QVERIFY(CompleteGraphOptions{}.isValid(&why));
        QVERIFY(PottsImageOptions{}.isValid(&why));
        QVERIFY(StereoOptions{}.isValid(&why));
    }
};

QTEST_GUILESS_MAIN(TestMapGenerators)
#include "test_map_generators.moc"
