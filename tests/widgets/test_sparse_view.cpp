// SPDX-License-Identifier: GPL-3.0-or-later
// The sparse family's view (widgets/sparse/sparse_view.h) offscreen on real SLMC runs: on 2-D data
// one marker per expansion vector at the snapshot's Z (by the sign of its β), one trail point
// per XV and stored Z, the full SVM's support vectors and the decision map; on square-image
// data every pixel of every drawn image equals the snapshot's Z, the mosaic spans the plot with
// square pixels; on other data one bar per β; an rs run draws one more vector per step;
// the objective tab has one point per record; both tabs export; other snapshots are refused.
#include <qcustomplot.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "kernel/svm.h"
#include "sparse/reduced_set.h"
#include "sparse/slmc.h"
#include "sparse_view.h"

using namespace cplab;
using cplab::widgets::SparseView;
using cplab::widgets::ViewFrame;

namespace {

// Two Gaussian classes in `dimension` features, the second shifted by 1.5 along every axis.
std::shared_ptr<const Dataset> blobs(int n, int dimension, unsigned seed) {
    auto data = std::make_shared<Dataset>();
    data->name = "blobs";
    data->dense.resize(n, dimension);
    data->labels.resize(n);
    std::uint64_t state = seed;
    auto uniform = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    };
    for (int i = 0; i < n; ++i) {
        const bool positive = i % 2 == 0;
        for (int j = 0; j < dimension; ++j) {
            const double g = std::sqrt(-2 * std::log(1 - uniform())) *
                             std::cos(2 * 3.141592653589793 * uniform());
            data->dense(i, j) = g + (positive ? 1.5 : 0.0);
        }
        data->labels(i) = positive ? 1 : -1;
    }
    return data;
}

QList<QPointF> graphPoints(const QCPGraph* graph) {
    QList<QPointF> points;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        points.append(QPointF(it->key, it->value));
    return points;
}

ViewFrame sparseFrame(const Solver& solver, int runId = 1) {
    ViewFrame frame;
    frame.runId = runId;
    frame.snapshot = solver.snapshot();
    frame.records = std::span<const IterationRecord>(solver.trace().data(), solver.trace().size());
    frame.columns = solver.extraColumns();
    return frame;
}

std::unique_ptr<SlmcSolver> run(int dimension, int expansionVectors, int steps, bool full) {
    SlmcOptions options;
    options.kernel = "gaussian:0.5";
    options.expansion_vectors = expansionVectors;
    options.full_svm = full;
    auto solver =
        std::make_unique<SlmcSolver>(KernelProblem{blobs(80, dimension, 7), nullptr}, options);
    for (int k = 0; k < steps; ++k)
        solver->step();
    return solver;
}

}  // namespace

class TestSparseView : public QObject {
    Q_OBJECT

  private slots:
    void twoDimensionalDataShowTheMovingVectors();
    void imageDataShowTheVectorsAsImages();
    void otherDataShowBetaAsBars();
    void exportsBothTabsAndRefusesOtherSnapshots();
    void reducedSetGrowsOneVectorPerStep();
};

void TestSparseView::twoDimensionalDataShowTheMovingVectors() {
    auto solver = run(2, 5, 6, true);
    QVERIFY2(solver->status().code != StatusCode::InvalidInput, solver->status().message.c_str());
    SparseView view;
    view.resize(700, 600);
    QVERIFY(view.showFrame(sparseFrame(*solver)));
    QCOMPARE(view.kind(), SparseView::Kind::Map);
    auto s = std::dynamic_pointer_cast<const SparseSnapshot>(solver->snapshot());
    QVERIFY(s);
    QCOMPARE(view.expansionVectorCount(), 5);
    // Every stored Z contributes one point per expansion vector to the trails.
    QCOMPARE(view.trailPointCount(), 5 * static_cast<int>(s->trail.size()));
    QVERIFY(s->trail.size() >= 2);
    QCOMPARE(view.fullSupportVectorCount(), static_cast<int>(s->fullSupportVectors.size()));
    QVERIFY(view.fullSupportVectorCount() > 5);
    // The markers sit at the snapshot's Z, split by the sign of β.
    auto* plot = view.findChild<QCustomPlot*>("sparseXvPlot");
    QVERIFY(plot);
    QList<QPointF> positive, negative;
    for (int g = 0; g < plot->graphCount(); ++g) {
        if (plot->graph(g)->name().startsWith("expansion vector, \u03b2 >"))
            positive = graphPoints(plot->graph(g));
        if (plot->graph(g)->name().startsWith("expansion vector, \u03b2 <"))
            negative = graphPoints(plot->graph(g));
    }
    QCOMPARE(positive.size() + negative.size(), 5);
    for (Eigen::Index u = 0; u < s->xvs.rows(); ++u) {
        const QPointF z(s->xvs(u, 0), s->xvs(u, 1));
        QVERIFY((s->beta(u) >= 0 ? positive : negative).contains(z));
    }
    QCOMPARE(view.objectivePointCount(), static_cast<int>(solver->trace().size()));
}

void TestSparseView::imageDataShowTheVectorsAsImages() {
    auto solver = run(16, 6, 2, false);  // 4 × 4 images
    QVERIFY2(solver->status().code != StatusCode::InvalidInput, solver->status().message.c_str());
    SparseView view;
    view.resize(700, 600);
    QVERIFY(view.showFrame(sparseFrame(*solver)));
    QCOMPARE(view.kind(), SparseView::Kind::Images);
    QCOMPARE(view.expansionVectorCount(), 6);
    auto s = std::dynamic_pointer_cast<const SparseSnapshot>(solver->snapshot());
    for (int u = 0; u < 6; ++u) {
        for (int r = 0; r < 4; ++r) {
            for (int c = 0; c < 4; ++c)
                QCOMPARE(view.imagePixel(u, r, c), s->xvs(u, r * 4 + c));
        }
    }
    QVERIFY(std::isnan(view.imagePixel(6, 0, 0)));
    // The mosaic fills the plot's width (an empty legend row once squeezed the axis rect to
    // its minimum width) with square pixels.
    auto* plot = view.findChild<QCustomPlot*>("sparseXvPlot");
    QVERIFY(plot);
    plot->replot();
    QCPAxisRect* rect = plot->axisRect();
    QVERIFY2(rect->width() > plot->width() / 2,
             qPrintable(QString("axis rect %1 of %2 px").arg(rect->width()).arg(plot->width())));
    const double xScale = rect->width() / rect->axis(QCPAxis::atBottom)->range().size();
    const double yScale = rect->height() / rect->axis(QCPAxis::atLeft)->range().size();
    QVERIFY2(std::abs(xScale / yScale - 1) < 0.02, qPrintable(QString::number(xScale / yScale)));
}

void TestSparseView::otherDataShowBetaAsBars() {
    auto solver = run(3, 4, 2, false);
    SparseView view;
    QVERIFY(view.showFrame(sparseFrame(*solver)));
    QCOMPARE(view.kind(), SparseView::Kind::Bars);
    QCOMPARE(view.expansionVectorCount(), 4);
}

void TestSparseView::exportsBothTabsAndRefusesOtherSnapshots() {
    auto solver = run(2, 4, 3, false);
    SparseView view;
    view.resize(700, 600);
    view.show();
    QVERIFY(view.showFrame(sparseFrame(*solver)));
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
    SvmOptions options;
    SvmSolver svm(KernelProblem{blobs(40, 2, 3), nullptr}, options);
    svm.step();
    QVERIFY(!view.showFrame(sparseFrame(svm, 2)));
}

void TestSparseView::reducedSetGrowsOneVectorPerStep() {
    RsOptions options;
    options.kernel = "gaussian:0.5";
    options.expansion_vectors = 4;
    RsSolver solver(KernelProblem{blobs(80, 2, 7), nullptr}, options);
    QVERIFY2(solver.status().code != StatusCode::InvalidInput, solver.status().message.c_str());
    SparseView view;
    view.resize(700, 600);
    QVERIFY(view.showFrame(sparseFrame(solver)));  // no vector yet: the data and the full SVM's SVs
    QCOMPARE(view.expansionVectorCount(), 0);
    QCOMPARE(view.fullSupportVectorCount(),
             static_cast<int>(solver.fullSvm().supportVectors.size()));
    for (int k = 1; k <= 4; ++k) {
        solver.step();
        QVERIFY(view.showFrame(sparseFrame(solver)));
        QCOMPARE(view.expansionVectorCount(), k);
        QCOMPARE(view.trailPointCount(), k);  // the vectors do not move: one Z in the trail
    }
    QCOMPARE(solver.status().code, StatusCode::Converged);
    QCOMPARE(view.objectivePointCount(), static_cast<int>(solver.trace().size()));
}

QTEST_MAIN(TestSparseView)
#include "test_sparse_view.moc"
