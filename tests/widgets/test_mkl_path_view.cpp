// The view of the MKL regularisation path (widgets/mkl_path_view.h) offscreen on real runs:
// one named η curve per kernel whose points are the records' columns, the path drawn as it
// advances (frames with more records append, another run starts over), both tabs exported,
// snapshots of other solvers refused; and the kernel family's view handing path snapshots to
// it (and SILP's back to its own tabs).
#include <qcustomplot.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "kernel/mkl_path.h"
#include "kernel/silp.h"
#include "kernel_view.h"
#include "mkl_path_view.h"

using namespace cplab;
using cplab::widgets::KernelView;
using cplab::widgets::MklPathView;
using cplab::widgets::ViewFrame;

namespace {

// n points of a noisy sine in 2-D.
std::shared_ptr<const Dataset> sine(int n, double shift) {
    auto data = std::make_shared<Dataset>();
    data->name = "sine";
    data->dense.resize(n, 2);
    data->labels.resize(n);
    for (int i = 0; i < n; ++i) {
        const double a = -2 + 4.0 * i / (n - 1), b = std::cos(3.0 * i + shift);
        data->dense(i, 0) = a;
        data->dense(i, 1) = b;
        data->labels[i] = std::sin(2 * a) + 0.3 * b + 0.1 * std::sin(7.0 * i + shift);
    }
    return data;
}

ViewFrame frameOf(const Solver& solver, std::size_t records, int runId = 1) {
    ViewFrame frame;
    frame.runId = runId;
    frame.snapshot = solver.snapshot();
    frame.records = std::span<const IterationRecord>(solver.trace().data(), records);
    frame.columns = solver.extraColumns();
    return frame;
}

const MklPathSolver& pathRun() {
    static std::unique_ptr<MklPathSolver> solver;
    if (!solver) {
        MklPathOptions options;
        options.kernels = "gaussian:0.3,3;poly:2;linear";
        solver =
            std::make_unique<MklPathSolver>(KernelProblem{sine(60, 0), sine(40, 0.5)}, options);
        const Status status = solve(*solver);
        if (status.code != StatusCode::Converged) qFatal("%s", status.message.c_str());
    }
    return *solver;
}

}  // namespace

class TestMklPathView : public QObject {
    Q_OBJECT

  private slots:
    void drawsOneCurvePerKernelFromTheRecords();
    void appendsAsThePathAdvances();
    void exportsBothTabs();
    void kernelViewShowsPathSnapshots();
};

void TestMklPathView::drawsOneCurvePerKernelFromTheRecords() {
    const MklPathSolver& solver = pathRun();
    MklPathView view;
    view.resize(800, 600);
    QVERIFY(view.showFrame(frameOf(solver, solver.trace().size())));
    QCOMPARE(view.kernelCurveCount(), 4);
    QCOMPARE(view.pointCount(), static_cast<int>(solver.trace().size()));
    // The η curve of the linear kernel holds the records' eta:linear against log10 λ.
    QCustomPlot* plot = view.plot();
    QCPGraph* linear = nullptr;
    for (int g = 0; g < plot->graphCount(); ++g)
        if (plot->graph(g)->name() == "linear") linear = plot->graph(g);
    QVERIFY(linear);
    const auto columns = solver.extraColumns();
    const auto k = std::find(columns.begin(), columns.end(), "eta:linear") - columns.begin();
    const IterationRecord& last = solver.trace().back();
    // The container is sorted by key: the smallest log10 λ, the newest point, comes first.
    const auto point = linear->data()->at(0);
    QCOMPARE(point->key, std::log10(last.pathParameter));
    QCOMPARE(point->value, last.extra[static_cast<std::size_t>(k)]);
    QVERIFY(!view.statusText(frameOf(solver, solver.trace().size())).isEmpty());
    // Other snapshots are not ours.
    SilpOptions silp;
    silp.kernel.kernels = "linear";
    auto classes = std::make_shared<Dataset>(*sine(30, 0));
    for (Eigen::Index i = 0; i < classes->labels.size(); ++i)
        classes->labels[i] = classes->labels[i] > 0 ? 1 : -1;
    SilpSolver other({classes, nullptr}, silp);
    QVERIFY(!view.showFrame(frameOf(other, 0)));
}

void TestMklPathView::appendsAsThePathAdvances() {
    const MklPathSolver& solver = pathRun();
    const std::size_t n = solver.trace().size();
    QVERIFY(n > 6);
    MklPathView view;
    for (std::size_t shown : {std::size_t(1), n / 2, n}) {
        QVERIFY(view.showFrame(frameOf(solver, shown)));
        QCOMPARE(view.pointCount(), static_cast<int>(shown));
    }
    // The timeline scrubbed back, then another run: both start over.
    QVERIFY(view.showFrame(frameOf(solver, 3)));
    QCOMPARE(view.pointCount(), 3);
    QVERIFY(view.showFrame(frameOf(solver, 5, 2)));
    QCOMPARE(view.pointCount(), 5);
    view.clear();
    QCOMPARE(view.pointCount(), 0);
}

void TestMklPathView::exportsBothTabs() {
    const MklPathSolver& solver = pathRun();
    MklPathView view;
    view.resize(900, 700);
    QVERIFY(view.showFrame(frameOf(solver, solver.trace().size())));
    QTemporaryDir dir;
    // CPLAB_KEEP_FIGURES=1 keeps the PNGs for a look (the path is printed).
    if (qEnvironmentVariableIsSet("CPLAB_KEEP_FIGURES")) {
        dir.setAutoRemove(false);
        qInfo("figures in %s", qPrintable(dir.path()));
    }
    for (int tab : {0, 1}) {
        view.showTab(tab);
        const QString path = dir.filePath(QString("tab%1.png").arg(tab));
        QString why;
        QVERIFY2(view.exportImage(path, &why), qPrintable(why));
        QImage image(path);
        QVERIFY(!image.isNull() && image.width() > 100);
    }
}

void TestMklPathView::kernelViewShowsPathSnapshots() {
    const MklPathSolver& solver = pathRun();
    KernelView view;
    view.resize(900, 600);
    QVERIFY(view.showFrame(frameOf(solver, solver.trace().size())));
    QCOMPARE(view.pathView()->pointCount(), static_cast<int>(solver.trace().size()));
    QCOMPARE(view.plot(), view.pathView()->plot());
    QVERIFY(view.statusText(frameOf(solver, solver.trace().size())).contains("kernels active"));
    // A SILP run brings the kernel tabs back.
    SilpOptions silp;
    silp.kernel.kernels = "linear;gaussian:1";
    auto classes = std::make_shared<Dataset>(*sine(30, 0));
    for (Eigen::Index i = 0; i < classes->labels.size(); ++i)
        classes->labels[i] = classes->labels[i] > 0 ? 1 : -1;
    SilpSolver other({classes, nullptr}, silp);
    solve(other);
    ViewFrame frame = frameOf(other, other.trace().size(), 2);
    QVERIFY(view.showFrame(frame));
    QVERIFY(view.plot() != view.pathView()->plot());
}

QTEST_MAIN(TestMklPathView)
#include "test_mkl_path_view.moc"
