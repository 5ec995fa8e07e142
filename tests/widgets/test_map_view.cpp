// SPDX-License-Identifier: GPL-3.0-or-later
// The map family's view (widgets/map/map_view.h) offscreen on real message-passing runs over UAI
// 2014 and libDAI instances: on a grid model (Grids_26, a 20 × 20 torus; libDAI's testfast, a
// 4 × 4 grid) every cell is drawn in the colour of the snapshot's label for its node; on a
// superpixel graph (Segmentation_12, placed by hop distances) and on a large star (on a circle)
// every node's marker is; one red marker per disagreeing node; one polygon per cluster once
// MPLP with cycles has tightened, one mark per tightening step in the bounds tab; the traces
// have one point per record and restart with another run; both tabs export; other snapshots
// are refused. Generated image models (solvers/map/generators.h) are drawn as their picture's
// grid, the input image beside the labeling in the picture's label colours, the status line
// reporting bad pixels against a ground truth; the PNG decoder agrees with QImage on the
// built-in Tsukuba images. Factors of 3+ variables are drawn as squares joined to their variables,
// on a grid at the centre of their cells in every panel, elsewhere at their centroid. A grid keeps
// its aspect ratio at any size, before and after the first step; every run of a race draws its
// labeling; clear() leaves nothing drawn.
#include <qcustomplot.h>

#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "data/image_format.h"
#include "data/uai_format.h"
#include "map/cycle_mplp.h"
#include "map/diffusion.h"
#include "map/generators.h"
#include "map/mplp.h"
#include "map/trws.h"
#include "map_view.h"

using namespace cplab;
using cplab::widgets::MapView;
using cplab::widgets::ViewFrame;

namespace {

const std::string kUai = std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";
const std::string kLibdai = std::string(CPLAB_TEST_DATA_DIR) + "/map/libdai";

std::shared_ptr<const PairwiseModel> uaiModel(const std::string& name) {
    return std::make_shared<const PairwiseModel>(
        PairwiseModel::fromTables(loadUai(kUai + "/" + name + ".uai.gz")));
}

ViewFrame mapFrame(const Solver& solver, int runId = 1) {
    ViewFrame frame;
    frame.runId = runId;
    frame.snapshot = solver.snapshot();
    frame.records = std::span<const IterationRecord>(solver.trace().data(), solver.trace().size());
    frame.columns = solver.extraColumns();
    return frame;
}

// A race of two runs (ids 1 and 2) as the window shows it with the second selected.
ViewFrame raceFrame(const Solver& a, const char* nameA, const Solver& b, const char* nameB) {
    ViewFrame frame = mapFrame(b, 2);
    const ViewFrame first = mapFrame(a, 1);
    frame.race.push_back(
        {1, nameA, QColor(31, 119, 180), 0, first.snapshot, first.records, first.columns});
    frame.race.push_back(
        {2, nameB, QColor(214, 39, 40), 1, frame.snapshot, frame.records, frame.columns});
    return frame;
}

std::shared_ptr<const MapSnapshot> mapSnapshot(const Solver& solver) {
    return std::dynamic_pointer_cast<const MapSnapshot>(solver.snapshot());
}

int disagreeingCount(const MapSnapshot& s) {
    return static_cast<int>(std::count(s.disagreeing.begin(), s.disagreeing.end(), 1));
}

}  // namespace

class TestMapView : public QObject {
    Q_OBJECT

  private slots:
    void gridModelIsDrawnAsAnImage();
    void smallGridWithoutWrapAround();
    void otherGraphsArePlacedByTheirDistances();
    void largeGraphsAreDrawnOnACircle();
    void clustersAppearAfterTightening();
    void tracesFollowTheRecordsAndRestartWithAnotherRun();
    void exportsBothTabsAndRefusesOtherSnapshots();
    void picturesAreDrawnBesideTheLabeling();
    void pngDecoderAgreesWithQImage();
    void gridsKeepTheirAspectRatio();
    void everyRunOfARaceIsDrawnAndClearLeavesNothing();
    void bestLabelingIsDrawnOnRequest();
    void factorsAreDrawnOnGridsAndGraphs();
};

namespace {

// A 32 × 24 grey image (a bright disc on two darker halves) as a Potts model with its picture.
GeneratedModel smallPicture() {
    Image image{32, 24, 1, {}};
    for (int y = 0; y < 24; ++y)
        for (int x = 0; x < 32; ++x)
            image.pixels.push_back(
                static_cast<std::uint8_t>((x - 16) * (x - 16) + (y - 12) * (y - 12) < 60 ? 200
                                          : x < 10                                       ? 40
                                                                                         : 120));
    PottsImageOptions options;
    options.labels = 3;
    return pottsImage(image, options);
}

// The labeling tab laid out at `size` and replotted: the selected run's labeling in pixels.
QRectF drawnRect(MapView& view, const QSize& size) {
    view.resize(size);
    QCoreApplication::processEvents();
    view.plot()->replot();
    return view.labelingPixelRect();
}

}  // namespace

void TestMapView::gridsKeepTheirAspectRatio() {
    // Before any step and after some, at two sizes of another shape: the 32 × 24 cells are
    // drawn square (the image 4:3) and wholly inside the plot's axis rectangle.
    const GeneratedModel g = smallPicture();
    TrwsSolver solver(g.model);
    solver.setPicture(g.picture);
    MapView view;
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (int steps : {0, 3}) {
        for (int k = 0; k < steps; ++k)
            solver.step();
        QVERIFY(view.showFrame(mapFrame(solver)));
        QCOMPARE(view.layout(), MapView::Layout::Grid);
        for (const QSize size : {QSize(900, 600), QSize(420, 760), QSize(1200, 260)}) {
            const QRectF r = drawnRect(view, size);
            QVERIFY2(r.height() > 20, qPrintable(QString("height %1").arg(r.height())));
            const double ratio = r.width() / r.height();
            QVERIFY2(std::abs(ratio / (32.0 / 24.0) - 1) < 0.03,
                     qPrintable(QString("%1 x %2 at %3 x %4 after %5 steps")
                                    .arg(r.width())
                                    .arg(r.height())
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(steps)));
            const QRectF inside = QRectF(view.plot()->axisRect()->rect()).adjusted(-1, -1, 1, 1);
            QVERIFY(inside.contains(r));
        }
    }
}

void TestMapView::everyRunOfARaceIsDrawnAndClearLeavesNothing() {
    // Two runs on one picture: a labeling panel each, in the selected run's colours for its
    // own; clear() leaves no panel, graph or curve with data.
    const GeneratedModel g = smallPicture();
    TrwsSolver trws(g.model);
    MplpSolver mplp(g.model);
    trws.setPicture(g.picture);
    mplp.setPicture(g.picture);
    trws.step();
    mplp.step();
    const ViewFrame frame = raceFrame(trws, "#1 trws", mplp, "#2 mplp");
    MapView view;
    view.resize(900, 600);
    QVERIFY(view.showFrame(frame));
    QCOMPARE(view.panelCount(), 2);
    QVERIFY(view.showsInputImage());
    const auto s = mapSnapshot(mplp);
    for (int v = 0; v < 32 * 24; ++v) {
        const auto& c =
            g.picture
                ->labelColors[static_cast<std::size_t>(s->labeling[static_cast<std::size_t>(v)])];
        QCOMPARE(view.drawnColor(v), QColor(c[0], c[1], c[2]));
    }
    QCOMPARE(view.disagreeingMarkerCount(), disagreeingCount(*s));
    // Without the race: the selected run alone.
    QVERIFY(view.showFrame(mapFrame(mplp, 2)));
    QCOMPARE(view.panelCount(), 1);
    view.clear();
    QCOMPARE(view.panelCount(), 0);
    QCOMPARE(view.labelGraphCount(), 0);
    QVERIFY(!view.showsInputImage());
    QCOMPARE(view.upperPointCount(), 0);
    QCOMPARE(view.layout(), MapView::Layout::None);
}

void TestMapView::picturesAreDrawnBesideTheLabeling() {
    // A 14 × 6 stereo pair (the right view the left one shifted by 2) with a ground truth: a
    // layout detectGrid alone could not tell from 6 × 14.
    const int w = 14, h = 6;
    Image left{w, h, 3, {}};
    for (int i = 0; i < w * h * 3; ++i)
        left.pixels.push_back(static_cast<std::uint8_t>((i * 97 + (i / 3) * 13) % 256));
    Image right = left;
    Image truth{w, h, 1, std::vector<std::uint8_t>(static_cast<std::size_t>(w * h), 32)};
    for (int y = 0; y < h; ++y)
        for (int x = 2; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                right.pixels[static_cast<std::size_t>((y * w + x - 2) * 3 + c)] = left.at(x, y, c);
    StereoOptions o;
    o.disparities = 4;
    const GeneratedModel g = stereo(left, right, truth, 16, o);
    TrwsSolver solver(g.model);
    solver.setPicture(g.picture);
    for (int k = 0; k < 3; ++k)
        solver.step();
    MapView view;
    view.resize(900, 600);
    const ViewFrame frame = mapFrame(solver);
    QVERIFY(view.showFrame(frame));
    QCOMPARE(view.layout(), MapView::Layout::Grid);
    QCOMPARE(view.gridRows(), h);
    QCOMPARE(view.gridColumns(), w);
    QVERIFY(view.showsInputImage());
    const auto s = mapSnapshot(solver);
    for (int v = 0; v < w * h; ++v) {
        const Image& in = g.picture->input;
        QCOMPARE(view.inputColor(v),
                 QColor(in.at(v % w, v / w, 0), in.at(v % w, v / w, 1), in.at(v % w, v / w, 2)));
        const auto& c =
            g.picture
                ->labelColors[static_cast<std::size_t>(s->labeling[static_cast<std::size_t>(v)])];
        QCOMPARE(view.drawnColor(v), QColor(c[0], c[1], c[2]));
    }
    // The status line: the fraction of known pixels off by more than 1, counted here.
    int bad = 0;
    for (int v = 0; v < w * h; ++v)
        bad += std::abs(s->labeling[static_cast<std::size_t>(v)] - 2) > 1;
    const QString status = view.statusText(frame);
    QVERIFY2(status.contains(QString("bad pixels (off by > 1 from the truth) %1%")
                                 .arg(100.0 * bad / (w * h), 0, 'f', 2)),
             qPrintable(status));

    // The problem controls: the generated models' options as key=value words.
    auto* options = view.problemControls()->findChild<QLineEdit*>("mapModelOptions");
    QVERIFY(options);
    options->setText("smoothness=10  labels=4,mode=colour");
    const OptionValues values = view.problemOptions();
    QCOMPARE(values.size(), std::size_t{3});
    QCOMPARE(values.at("smoothness"), std::string("10"));
    QCOMPARE(values.at("labels"), std::string("4"));
    QCOMPARE(values.at("mode"), std::string("colour"));
    options->setText("downsample");
    QCOMPARE(view.problemOptions().at("downsample"), std::string());

    // A model without a picture draws no input image.
    MplpSolver plain(uaiModel("Grids_26"));
    plain.step();
    QVERIFY(view.showFrame(mapFrame(plain, 2)));
    QVERIFY(!view.showsInputImage());
    QVERIFY(!view.statusText(mapFrame(plain, 2)).contains("bad pixels"));
}

void TestMapView::pngDecoderAgreesWithQImage() {
    const std::string dir = std::string(CPLAB_SOURCE_DIR) + "/resources/datasets/";
    for (const char* name : {"tsukuba_imL.png", "tsukuba_imR.png", "tsukuba_truedispL.png"}) {
        const Image decoded = loadPng(dir + name);
        QImage reference(QString::fromStdString(dir + name));
        QVERIFY(!reference.isNull());
        QCOMPARE(decoded.width, reference.width());
        QCOMPARE(decoded.height, reference.height());
        const bool grey = reference.isGrayscale();
        QCOMPARE(decoded.channels, grey ? 1 : 3);
        reference = reference.convertToFormat(QImage::Format_RGB888);
        for (int y = 0; y < decoded.height; ++y)
            for (int x = 0; x < decoded.width; ++x) {
                const QColor c = reference.pixelColor(x, y);
                if (grey) {
                    QCOMPARE(int(decoded.at(x, y)), c.red());
                } else if (decoded.at(x, y, 0) != c.red() || decoded.at(x, y, 1) != c.green() ||
                           decoded.at(x, y, 2) != c.blue()) {
                    QFAIL(
                        qPrintable(QString("%1: pixel (%2, %3) differs").arg(name).arg(x).arg(y)));
                }
            }
    }
}

void TestMapView::gridModelIsDrawnAsAnImage() {
    const auto model = uaiModel("Grids_26");
    MplpSolver solver(model);
    for (int k = 0; k < 4; ++k)
        solver.step();
    QVERIFY(solver.status().code == StatusCode::Running);
    MapView view;
    view.resize(800, 700);
    QVERIFY(view.showFrame(mapFrame(solver)));
    QCOMPARE(view.layout(), MapView::Layout::Grid);
    // Grids_26 is a 20 × 20 torus (its UAI file lists 400 variables and 800 pair factors).
    QCOMPARE(view.gridRows(), 20);
    QCOMPARE(view.gridColumns(), 20);
    QCOMPARE(view.edgeSegmentCount(), 0);
    const auto s = mapSnapshot(solver);
    QVERIFY(s);
    // Both labels occur, so a wrong cell cannot pass by chance.
    QVERIFY(std::count(s->labeling.begin(), s->labeling.end(), 0) > 0);
    QVERIFY(std::count(s->labeling.begin(), s->labeling.end(), 1) > 0);
    QVERIFY(MapView::labelColor(0) != MapView::labelColor(1));
    for (int v = 0; v < model->variables(); ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->labeling[std::size_t(v)]));
    QCOMPARE(view.disagreeingMarkerCount(), disagreeingCount(*s));
    QCOMPARE(view.disagreeingMarkerCount(), solver.disagreeingNodes());
    QVERIFY(view.disagreeingMarkerCount() > 0);  // the LP relaxation of Grids_26 is not tight
    QCOMPARE(view.clusterPolygonCount(), 0);
    const QString status = view.statusText(mapFrame(solver));
    // The last sweep's own bound and disagreement (the window's status line has the best ones).
    QVERIFY2(status.contains(QString("%1 of 400 nodes disagree").arg(solver.disagreeingNodes())) &&
                 status.contains(QString("U %1,").arg(solver.dual(), 0, 'g', 10)),
             qPrintable(status));
}

void TestMapView::smallGridWithoutWrapAround() {
    // libDAI's testfast.fg: a 4 × 4 grid without wrap-around, 24 edges.
    const auto model = std::make_shared<const PairwiseModel>(
        PairwiseModel::fromTables(loadLibdaiFactorGraph(kLibdai + "/testfast.fg")));
    QCOMPARE(model->edgeCount(), 24);
    TrwsSolver solver(model);
    solver.step();
    MapView view;
    view.resize(600, 600);
    QVERIFY(view.showFrame(mapFrame(solver)));
    QCOMPARE(view.layout(), MapView::Layout::Grid);
    QCOMPARE(view.gridRows(), 4);
    QCOMPARE(view.gridColumns(), 4);
    const auto s = mapSnapshot(solver);
    for (int v = 0; v < 16; ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->labeling[std::size_t(v)]));
    QCOMPARE(view.disagreeingMarkerCount(), disagreeingCount(*s));
}

void TestMapView::otherGraphsArePlacedByTheirDistances() {
    // Segmentation_12: 231 superpixels, edges between touching ones (degrees above 4).
    const auto model = uaiModel("Segmentation_12");
    TrwsSolver solver(model);
    for (int k = 0; k < 2; ++k)
        solver.step();
    MapView view;
    view.resize(800, 700);
    QVERIFY(view.showFrame(mapFrame(solver)));
    QCOMPARE(view.layout(), MapView::Layout::Distances);
    QCOMPARE(view.gridRows(), 0);
    QCOMPARE(view.edgeSegmentCount(), model->edgeCount());
    const auto s = mapSnapshot(solver);
    QVERIFY(std::count(s->labeling.begin(), s->labeling.end(), 0) > 0);
    QVERIFY(std::count(s->labeling.begin(), s->labeling.end(), 1) > 0);
    for (int v = 0; v < model->variables(); ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->labeling[std::size_t(v)]));
    QCOMPARE(view.disagreeingMarkerCount(), disagreeingCount(*s));
    QVERIFY(view.disagreeingMarkerCount() > 0);  // TRW-S certifies only after four sweeps
}

void TestMapView::largeGraphsAreDrawnOnACircle() {
    // A star of 500 leaves with three labels each (the centre has degree 500: not a grid; too
    // many nodes for the distance layout).
    auto model = std::make_shared<PairwiseModel>(std::vector<int>(501, 3));
    for (int v = 1; v <= 500; ++v) {
        model->unary(v)[std::size_t(v % 3)] = 1.0;
        model->addPottsEdge(0, v, 0.1);
    }
    MplpSolver solver(model);
    solver.step();
    MapView view;
    view.resize(700, 700);
    QVERIFY(view.showFrame(mapFrame(solver)));
    QCOMPARE(view.layout(), MapView::Layout::Circle);
    QCOMPARE(view.edgeSegmentCount(), 500);
    const auto s = mapSnapshot(solver);
    for (int v = 0; v <= 500; ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->labeling[std::size_t(v)]));
    // Each leaf takes its own preferred label: all three colours occur.
    for (int label = 0; label < 3; ++label)
        QVERIFY(std::count(s->labeling.begin(), s->labeling.end(), label) > 0);
}

void TestMapView::clustersAppearAfterTightening() {
    const auto model = uaiModel("Grids_26");
    CycleMplpSolver solver(model);
    const std::vector<std::string> columns = solver.extraColumns();
    const auto added = std::find(columns.begin(), columns.end(), "clusters_added");
    QVERIFY(added != columns.end());
    const auto column = static_cast<std::size_t>(added - columns.begin());
    MapView view;
    view.resize(800, 700);
    // Before tightening no polygon is drawn; after it, one per cluster of the snapshot.
    solver.step();
    QVERIFY(view.showFrame(mapFrame(solver)));
    QCOMPARE(view.clusterPolygonCount(), 0);
    for (int k = 0; k < 200 && solver.clusters() == 0 && !solver.status().finished(); ++k)
        solver.step();
    QVERIFY2(solver.clusters() > 0, solver.status().message.c_str());
    for (int k = 0; k < 5; ++k)
        solver.step();
    QVERIFY(view.showFrame(mapFrame(solver)));
    const auto s = mapSnapshot(solver);
    QCOMPARE(static_cast<int>(s->clusters.size()), solver.clusters());
    QCOMPARE(view.clusterPolygonCount(), solver.clusters());
    // On a grid the clusters are its faces (4-cycles).
    for (const auto& cluster : s->clusters)
        QCOMPARE(cluster.size(), std::size_t(4));
    int tightenings = 0;
    for (const IterationRecord& r : solver.trace())
        tightenings += r.extra.at(column) > 0;
    QVERIFY(tightenings > 0);
    QCOMPARE(view.clusterMarkCount(), tightenings);
    for (int v = 0; v < model->variables(); ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->labeling[std::size_t(v)]));
    QCOMPARE(view.disagreeingMarkerCount(), disagreeingCount(*s));
}

void TestMapView::tracesFollowTheRecordsAndRestartWithAnotherRun() {
    const auto model = uaiModel("Grids_26");
    TrwsSolver trws(model);
    MapView view;
    view.resize(800, 700);
    for (int k = 0; k < 6; ++k) {
        trws.step();
        QVERIFY(view.showFrame(mapFrame(trws)));  // frames arrive as the run goes
    }
    const int records = static_cast<int>(trws.trace().size());
    QCOMPARE(records, 6);
    QCOMPARE(view.upperPointCount(), records);
    QCOMPARE(view.lowerPointCount(), records);
    QCOMPARE(view.disagreementPointCount(), records);
    QCOMPARE(view.clusterMarkCount(), 0);
    // Another run with fewer records: the traces start again.
    MplpSolver mplp(model);
    mplp.step();
    mplp.step();
    QVERIFY(view.showFrame(mapFrame(mplp, 2)));
    QCOMPARE(view.upperPointCount(), 2);
    QCOMPARE(view.disagreementPointCount(), 2);
    view.clear();
    QCOMPARE(view.upperPointCount(), 0);
    QCOMPARE(view.layout(), MapView::Layout::None);
    QVERIFY(!view.drawnColor(0).isValid());
}

void TestMapView::exportsBothTabsAndRefusesOtherSnapshots() {
    const auto model = uaiModel("Grids_26");
    CycleMplpSolver solver(model);
    for (int k = 0; k < 3; ++k)
        solver.step();
    MapView view;
    view.resize(800, 700);
    view.show();
    QVERIFY(view.showFrame(mapFrame(solver)));
    QTemporaryDir dir;
    for (int tab = 0; tab < 2; ++tab) {
        QVERIFY(view.showPage(tab));
        const QString path = dir.filePath(QString("tab%1.png").arg(tab));
        QString why;
        QVERIFY2(view.exportImage(path, &why), qPrintable(why));
        QVERIFY(!QImage(path).isNull());
    }
    QVERIFY(!view.showPage(2));
    // Another family's snapshot is not drawn.
    QVERIFY(!view.showFrame({3, std::make_shared<Snapshot>(), {}, {}}));
    // The evidence file is the family's problem option.
    QVERIFY(view.problemOptions().empty());
    auto* evidence = view.problemControls()->findChild<QLineEdit*>("mapEvidence");
    QVERIFY(evidence);
    evidence->setText("  /data/x.uai.evid ");
    QCOMPARE(view.problemOptions(), (OptionValues{{"evidence", "/data/x.uai.evid"}}));
}

// "Best labeling found" draws the runs' best labelings (the decoder's), which on Grids_26
// differ from the labeling decoded from the beliefs; unchecked, the decoded one again.
void TestMapView::bestLabelingIsDrawnOnRequest() {
    const auto model = uaiModel("Grids_26");
    TrwsSolver solver(model);
    for (int k = 0; k < 20; ++k)
        solver.step();
    const auto s = mapSnapshot(solver);
    QVERIFY(s->bestLabeling != s->labeling);
    MapView view;
    view.resize(800, 700);
    QVERIFY(!view.showsBestLabeling());
    QVERIFY(view.showFrame(mapFrame(solver)));
    view.setShowBestLabeling(true);
    QVERIFY(view.showsBestLabeling());
    for (int v = 0; v < model->variables(); ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->bestLabeling[std::size_t(v)]));
    view.setShowBestLabeling(false);
    for (int v = 0; v < model->variables(); ++v)
        QCOMPARE(view.drawnColor(v), MapView::labelColor(s->labeling[std::size_t(v)]));
}

QTEST_MAIN(TestMapView)
#include "test_map_view.moc"

void TestMapView::factorsAreDrawnOnGridsAndGraphs() {
    // A 5 × 4 grid of ternary factors (one per 2 × 2 block), raced by two runs: every factor's
    // square at the centre of its three cells' box, shifted by its panel's origin alone.
    FactorGridOptions options;
    options.width = 5;
    options.height = 4;
    const GeneratedModel g = factorGrid(options);
    const int factors = g.model->factorCount();
    QCOMPARE(factors, 4 * 3);
    MplpSolver mplp(g.model);
    DiffusionSolver diffusion(g.model);
    for (MessagePassingSolver* s :
         std::initializer_list<MessagePassingSolver*>{&mplp, &diffusion}) {
        s->setPicture(g.picture);
        s->step();
    }
    const ViewFrame frame = raceFrame(mplp, "#1 mplp", diffusion, "#2 diffusion");
    MapView view;
    view.resize(900, 600);
    QVERIFY(view.showFrame(frame));
    QCOMPARE(view.layout(), MapView::Layout::Grid);
    QCOMPARE(view.panelCount(), 2);
    QCOMPARE(view.factorNodeCount(), factors);
    const std::vector<QPointF> squares = view.factorNodePositions();
    QCOMPARE(static_cast<int>(squares.size()), 2 * factors);
    std::vector<QPointF> origins;
    for (int k = 0; k < 2; ++k) {
        for (int f = 0; f < factors; ++f) {
            double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
            for (const int v : g.model->factorVariables(f)) {
                x0 = std::min(x0, double(v % 5));
                x1 = std::max(x1, double(v % 5));
                y0 = std::min(y0, double(v / 5));
                y1 = std::max(y1, double(v / 5));
            }
            QCOMPARE(x1 - x0, 1.0);
            QCOMPARE(y1 - y0, 1.0);
            const QPointF shift =
                squares[std::size_t(k * factors + f)] - QPointF((x0 + x1) / 2, (y0 + y1) / 2);
            if (f == 0) origins.push_back(shift);
            QVERIFY(std::abs(shift.x() - origins.back().x()) < 1e-12 &&
                    std::abs(shift.y() - origins.back().y()) < 1e-12);
        }
    }
    QVERIFY(origins[0] != origins[1]);
    // With factors on all four corners of each block (neighbours share a pair), tightened with
    // every pair separator: each drawn as a segment, counted apart from the cycle clusters.
    options.arity = 4;
    const GeneratedModel quads = factorGrid(options);
    CycleMplpOptions all;
    all.separators = "all";
    auto tightened = std::make_shared<CycleMplpSolver>(quads.model, all);
    tightened->setPicture(quads.picture);
    tightened->step();
    QVERIFY(tightened->activeSeparators() > 0);
    QVERIFY(view.showFrame(mapFrame(*tightened, 4)));
    QCOMPARE(view.separatorSegmentCount(), tightened->activeSeparators());
    QCOMPARE(view.clusterPolygonCount(), tightened->clusters());
    QVERIFY(view.statusText(mapFrame(*tightened, 4))
                .contains(QString("%1 pair separators").arg(tightened->activeSeparators())));
    // Without its picture the model has no edges to show a grid: its 20 nodes go on a circle
    // (clockwise from the top), one square per factor at its variables' centroid.
    MplpSolver alone(g.model);
    alone.step();
    view.clear();
    QVERIFY(view.showFrame(mapFrame(alone, 3)));
    QCOMPARE(view.layout(), MapView::Layout::Circle);
    QCOMPARE(view.factorNodeCount(), factors);
    const std::vector<QPointF> marks = view.factorNodePositions();
    QCOMPARE(static_cast<int>(marks.size()), factors);
    for (int f = 0; f < factors; ++f) {
        QPointF centre;
        const auto vars = g.model->factorVariables(f);
        for (const int v : vars) {
            const double angle = std::numbers::pi / 2 - 2 * std::numbers::pi * v / 20;
            centre += QPointF(std::cos(angle), std::sin(angle)) / double(vars.size());
        }
        QVERIFY(std::abs(marks[std::size_t(f)].x() - centre.x()) < 1e-12 &&
                std::abs(marks[std::size_t(f)].y() - centre.y()) < 1e-12);
    }
}
