// SPDX-License-Identifier: GPL-3.0-or-later
// The view of the MKL regularisation path (widgets/kernel/mkl_path_view.h) offscreen on real runs:
// one named η curve per kernel whose points are the records' columns, the path drawn as it
// advances (frames with more records append, another run starts over), every tab exported (the
// predictor of a selected point too), snapshots of other solvers refused; the kernel family's view
// handing path snapshots to it (and SILP's back to its own tabs); and a click on a point of the
// path showing that point's predictor: its λ and ηⱼ (recomputed here from the solver's α, ηⱼ =
// 2μ/(λ(dⱼ² − αᵀKⱼα)) with the kernels' own formulas) and, for 2-D data, f(z) = −Σⱼ ηⱼ Σᵢ αᵢ Kⱼ(xᵢ,
// z) on the map's grid; for other data the bars of η at that λ (the record's eta columns).
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

ViewFrame mklPathFrame(const Solver& solver, std::size_t records, int runId = 1) {
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
    void exportsEveryTab();
    void kernelViewShowsPathSnapshots();
    void clickShowsThePredictorAtThatLambda();
    void otherDataShowTheWeightsAsBars();
};

void TestMklPathView::drawsOneCurvePerKernelFromTheRecords() {
    const MklPathSolver& solver = pathRun();
    MklPathView view;
    view.resize(800, 600);
    QVERIFY(view.showFrame(mklPathFrame(solver, solver.trace().size())));
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
    QVERIFY(!view.statusText(mklPathFrame(solver, solver.trace().size())).isEmpty());
    // Other snapshots are not ours.
    SilpOptions silp;
    silp.kernel.kernels = "linear";
    auto classes = std::make_shared<Dataset>(*sine(30, 0));
    for (Eigen::Index i = 0; i < classes->labels.size(); ++i)
        classes->labels[i] = classes->labels[i] > 0 ? 1 : -1;
    SilpSolver other({classes, nullptr}, silp);
    QVERIFY(!view.showFrame(mklPathFrame(other, 0)));
}

void TestMklPathView::appendsAsThePathAdvances() {
    const MklPathSolver& solver = pathRun();
    const std::size_t n = solver.trace().size();
    QVERIFY(n > 6);
    MklPathView view;
    for (std::size_t shown : {std::size_t(1), n / 2, n}) {
        QVERIFY(view.showFrame(mklPathFrame(solver, shown)));
        QCOMPARE(view.pointCount(), static_cast<int>(shown));
    }
    // The timeline scrubbed back, then another run: both start over.
    QVERIFY(view.showFrame(mklPathFrame(solver, 3)));
    QCOMPARE(view.pointCount(), 3);
    QVERIFY(view.showFrame(mklPathFrame(solver, 5, 2)));
    QCOMPARE(view.pointCount(), 5);
    view.clear();
    QCOMPARE(view.pointCount(), 0);
}

void TestMklPathView::exportsEveryTab() {
    const MklPathSolver& solver = pathRun();
    MklPathView view;
    view.resize(900, 700);
    QVERIFY(view.showFrame(mklPathFrame(solver, solver.trace().size())));
    QTemporaryDir dir;
    // CPLAB_KEEP_FIGURES=1 keeps the PNGs for a look (the path is printed).
    if (qEnvironmentVariableIsSet("CPLAB_KEEP_FIGURES")) {
        dir.setAutoRemove(false);
        qInfo("figures in %s", qPrintable(dir.path()));
    }
    QVERIFY(view.selectPoint(static_cast<int>(solver.trace().size() / 2)));
    for (int tab : {0, 1, 2}) {
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
    QVERIFY(view.showFrame(mklPathFrame(solver, solver.trace().size())));
    QCOMPARE(view.pathView()->pointCount(), static_cast<int>(solver.trace().size()));
    QCOMPARE(view.plot(), view.pathView()->plot());
    QVERIFY(
        view.statusText(mklPathFrame(solver, solver.trace().size())).contains("kernels active"));
    // A SILP run brings the kernel tabs back.
    SilpOptions silp;
    silp.kernel.kernels = "linear;gaussian:1";
    auto classes = std::make_shared<Dataset>(*sine(30, 0));
    for (Eigen::Index i = 0; i < classes->labels.size(); ++i)
        classes->labels[i] = classes->labels[i] > 0 ? 1 : -1;
    SilpSolver other({classes, nullptr}, silp);
    solve(other);
    ViewFrame frame = mklPathFrame(other, other.trace().size(), 2);
    QVERIFY(view.showFrame(frame));
    QVERIFY(view.plot() != view.pathView()->plot());
}

namespace {

// Two classes in 2-D (±1 by the sign of x₁x₂ + 0.3x₁, a few flipped).
std::shared_ptr<const Dataset> classes2d(int n) {
    auto data = std::make_shared<Dataset>();
    data->name = "xor";
    data->dense.resize(n, 2);
    data->labels.resize(n);
    for (int i = 0; i < n; ++i) {
        const double a = 2 * std::sin(1.7 * i + 0.3), b = 2 * std::cos(2.9 * i + 1.1);
        data->dense(i, 0) = a;
        data->dense(i, 1) = b;
        data->labels[i] = (a * b + 0.3 * a > 0) != (i % 11 == 0) ? 1.0 : -1.0;
    }
    return data;
}

}  // namespace

// The kernels without normalisation and the features as given, so that K and f are the
// formulas: exp(−0.5‖x − z‖²) and xᵀz.
void TestMklPathView::clickShowsThePredictorAtThatLambda() {
    const auto data = classes2d(50);
    MklPathOptions options;
    options.kernels = "gaussian:0.5;linear";
    options.loss = "logistic";
    options.normalize = "none";
    options.standardize = false;
    MklPathSolver solver(KernelProblem{data, nullptr}, options);
    const Status status = solve(solver);
    QVERIFY2(status.code == StatusCode::Converged, status.message.c_str());
    const std::size_t points = solver.pathLambdas().size();
    QVERIFY(points > 6);
    // The records are the steps; the points include λ₀ (iteration 0) too.
    const std::size_t records = solver.trace().size();
    QCOMPARE(records + 1, points);

    MklPathView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.showFrame(mklPathFrame(solver, records)));
    QCOMPARE(view.selectedPoint(), -1);
    view.weightsPlot()->replot();  // lays the axes out for the click's pixel
    const int k = static_cast<int>(points / 2);
    QTest::mouseClick(view.weightsPlot(), Qt::LeftButton, {}, view.pointPixel(k));
    QCOMPARE(view.selectedPoint(), k);
    QCOMPARE(view.currentTab(), 2);
    QCOMPARE(view.selectedLambda(), solver.pathLambdas()[static_cast<std::size_t>(k)]);
    QCOMPARE(solver.trace()[static_cast<std::size_t>(k - 1)].pathParameter, view.selectedLambda());

    // η at that λ from α with the kernels' formulas.
    const double lambda = view.selectedLambda();
    const Eigen::VectorXd& alpha = solver.pathAlphas()[static_cast<std::size_t>(k)];
    const int n = data->size();
    auto gaussian = [](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
        return std::exp(-0.5 * (a - b).squaredNorm());
    };
    Eigen::MatrixXd G(n, n), L(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            G(i, j) = gaussian(data->dense.row(i).transpose(), data->dense.row(j).transpose());
            L(i, j) = data->dense.row(i).dot(data->dense.row(j));
        }
    }
    const double mu = options.mu;
    const Eigen::Vector2d eta(2 * mu / (lambda * (1.0 - alpha.dot(G * alpha))),
                              2 * mu / (lambda * (1.0 - alpha.dot(L * alpha))));
    QCOMPARE(view.selectedEta().size(), Eigen::Index(2));
    for (int j = 0; j < 2; ++j)
        QVERIFY2(
            std::abs(view.selectedEta()[j] - eta[j]) <= 1e-9 * eta[j],
            qPrintable(QString("eta_%1 %2 vs %3").arg(j).arg(view.selectedEta()[j]).arg(eta[j])));

    // The map: f(z) = −Σⱼ ηⱼ Σᵢ αᵢ Kⱼ(xᵢ, z) at a few grid points.
    QCOMPARE(view.predictorKind(), MklPathView::PredictorKind::Map);
    const int cells = view.predictorGridSize();
    QVERIFY(cells > 10);
    for (const auto& [ix, iy] : {std::pair{0, 0}, std::pair{cells / 3, cells - 1},
                                 std::pair{cells - 1, cells / 2}, std::pair{cells / 2, 7}}) {
        const QPointF p = view.predictorGridPoint(ix, iy);
        const Eigen::Vector2d z(p.x(), p.y());
        double f = 0;
        for (int i = 0; i < n; ++i) {
            const Eigen::Vector2d xi = data->dense.row(i).transpose();
            f -= alpha[i] * (eta[0] * gaussian(xi, z) + eta[1] * xi.dot(z));
        }
        QVERIFY2(std::abs(view.predictorValue(ix, iy) - f) <= 1e-9 * (1 + std::abs(f)),
                 qPrintable(QString("f at (%1, %2): %3 vs %4")
                                .arg(ix)
                                .arg(iy)
                                .arg(view.predictorValue(ix, iy))
                                .arg(f)));
    }

    // A drag is not a click; another run clears the selection.
    view.showTab(0);
    const QPoint from = view.pointPixel(1), to = from + QPoint(40, 0);
    QTest::mousePress(view.weightsPlot(), Qt::LeftButton, {}, from);
    QTest::mouseMove(view.weightsPlot(), to);
    QTest::mouseRelease(view.weightsPlot(), Qt::LeftButton, {}, to);
    QCOMPARE(view.selectedPoint(), k);
    QVERIFY(view.showFrame(mklPathFrame(solver, records, 7)));
    QCOMPARE(view.selectedPoint(), -1);
    QCOMPARE(view.predictorKind(), MklPathView::PredictorKind::None);
}

// Data of more than two features: the kernel weights at the selected λ as bars, which are the
// record's eta columns at that point.
void TestMklPathView::otherDataShowTheWeightsAsBars() {
    auto data = std::make_shared<Dataset>(*sine(40, 0));
    data->dense.conservativeResize(Eigen::NoChange, 3);
    for (int i = 0; i < data->size(); ++i)
        data->dense(i, 2) = std::sin(5.0 * i);
    MklPathOptions options;
    options.kernels = "gaussian:0.3,3;linear";
    options.stop.max_iterations = 12;
    MklPathSolver solver(KernelProblem{data, nullptr}, options);
    solve(solver);
    const std::size_t points = solver.pathLambdas().size();
    QVERIFY(points > 5);
    QCOMPARE(solver.trace().size() + 1, points);
    MklPathView view;
    view.resize(800, 600);
    QVERIFY(view.showFrame(mklPathFrame(solver, solver.trace().size())));
    const int k = 4;
    const double lambda = solver.pathLambdas()[k];
    // The click's slot, at a log10 λ a little off the point: the nearest point is chosen.
    QVERIFY(view.selectNearest(std::log10(lambda) + 1e-3));
    QCOMPARE(view.selectedPoint(), k);
    QCOMPARE(view.selectedLambda(), lambda);
    QCOMPARE(view.predictorKind(), MklPathView::PredictorKind::Bars);
    const std::vector<double> bars = view.barValues();
    const auto columns = solver.extraColumns();
    const IterationRecord& record = solver.trace()[k - 1];  // record k − 1 is point k
    QCOMPARE(record.pathParameter, lambda);
    std::vector<double> expected;
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].rfind("eta:", 0) == 0) expected.push_back(record.extra[c]);
    QCOMPARE(expected.size(), std::size_t(3));
    QCOMPARE(bars, expected);
    // Point 0 (λ₀) has no record: its λ and η are those of a solver not yet stepped.
    MklPathSolver fresh(KernelProblem{data, nullptr}, options);
    QVERIFY(view.selectPoint(0));
    QCOMPARE(view.selectedLambda(), solver.pathLambdas()[0]);
    QCOMPARE(view.selectedLambda(), fresh.lambda());
    const Eigen::VectorXd eta0 = fresh.eta();
    QCOMPARE(view.barValues(), std::vector<double>(eta0.data(), eta0.data() + eta0.size()));
    QVERIFY(!view.selectPoint(static_cast<int>(points)));
    QVERIFY(!view.selectPoint(-1));
}

QTEST_MAIN(TestMklPathView)
#include "test_mkl_path_view.moc"
