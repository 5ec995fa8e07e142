// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel family's view (widgets/kernel/kernel_view.h) offscreen on real runs: support vectors
// marked free / bound as the snapshot's α says, the f = 0 contour of a 2-D decision function,
// the cutting planes of the model of D(β), the weights' legend with many kernels, and the
// grid evaluation of D(β) on its worker thread — its values against LIBSVM's dual optimum
// for single kernels (the simplex's vertices) and against the cutting planes, which bound D
// from below; cancelling it; refusing snapshots of other families.
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "coalesced_replot.h"
#include "data/generators.h"
#include "data/libsvm_format.h"
#include "family_views.h"
#include "kernel/libsvm_solver.h"
#include "kernel/silp.h"
#include "kernel/svm.h"
#include "kernel_view.h"
#include "run_controller.h"

using namespace cplab;
using cplab::widgets::KernelView;
using cplab::widgets::ViewFrame;

namespace {

const std::string kData = CPLAB_TEST_DATA_DIR;

KernelProblem problemOf(Dataset data) {
    return {std::make_shared<const Dataset>(std::move(data)), nullptr};
}

ViewFrame kernelFrame(const Solver& solver, int runId = 1) {
    ViewFrame frame;
    frame.runId = runId;
    frame.snapshot = solver.snapshot();
    frame.records = solver.trace();
    frame.columns = solver.extraColumns();
    return frame;
}

void solveOrFail(Solver& solver) {
    const Status status = solve(solver);
    if (!status.usable()) qFatal("%s", status.message.c_str());
}

// LIBSVM's dual optimum for one kernel, the value of D at a vertex of the simplex.
double libsvmDual(const Dataset& train, const std::string& kernel, double C) {
    std::vector<KernelSpec> specs;
    std::string why;
    if (!parseKernelList(kernel, train.dimension(), &specs, &why)) qFatal("%s", why.c_str());
    return solveWithLibsvm(train, specs[0], KernelNormalization::None, C, 1e-5, true, 64)
        .dualObjective;
}

bool waitForGrid(KernelView& view, QSignalSpy& spy) {
    return QTest::qWaitFor([&] { return spy.count() > 0; }, 60000) && !view.evaluating();
}

}  // namespace

class TestKernelView : public QObject {
    Q_OBJECT

  private slots:
    // 2-D: every support vector marked, free and bound as α is below C or at it; f = 0 drawn.
    void supportVectorsAndDecisionFunction() {
        SvmOptions options;
        options.kernel.kernels = "gaussian:1";
        options.kernel.C = 1;
        SvmSolver solver(problemOf(generate("xor", 200, 1)), options);
        solveOrFail(solver);
        KernelView view;
        view.resize(900, 600);
        QVERIFY(view.showFrame(kernelFrame(solver)));
        const auto snapshot = std::dynamic_pointer_cast<const KernelSnapshot>(solver.snapshot());
        int free = 0, bound = 0;
        for (Eigen::Index i = 0; i < snapshot->alpha.size(); ++i) {
            const double a = snapshot->alpha(i);
            if (a > 0 && a < options.kernel.C) ++free;
            if (a >= options.kernel.C) ++bound;
        }
        QVERIFY(free > 0 && bound > 0);
        QCOMPARE(view.freeSupportVectorCount(), free);
        QCOMPARE(view.boundSupportVectorCount(), bound);
        QVERIFY(view.zeroContourSegments() > 20);
        QCOMPARE(view.modelPlaneCount(), 0);  // one kernel: no model of D(β)
        const QString status = view.statusText(kernelFrame(solver));
        QVERIFY2(status.contains("training error") &&
                     status.contains(QString("%1 support vectors").arg(free + bound)),
                 qPrintable(status));
        // Another family's snapshot is refused.
        ViewFrame other;
        other.snapshot = std::make_shared<Snapshot>();
        QVERIFY(!view.showFrame(other));
    }

    // Two kernels: the planes drawn; D(β) on 21 points from fresh solves. At β = e_k, D is
    // the single-kernel SVM's dual optimum (LIBSVM's); everywhere D ≥ every plane (each plane
    // is Σ βₖ Sₖ(αᵢ) ≤ max_α Σ βₖ Sₖ(α)) and min D ≥ θ, the LP's lower bound.
    void objectiveOnALine() {
        const Dataset data = generate("xor", 200, 1);
        SilpOptions options;
        options.kernel.kernels = "poly:2;gaussian:1";
        options.kernel.normalize = "none";
        options.kernel.kkt_tolerance = 1e-5;
        SilpSolver solver(problemOf(data), options);
        solveOrFail(solver);
        RunController controller;
        KernelView view;
        widgets::connectObjectiveGrid(&view, &controller);
        view.resize(900, 600);
        QVERIFY(view.showFrame(kernelFrame(solver)));
        const auto snapshot = std::dynamic_pointer_cast<const KernelSnapshot>(solver.snapshot());
        QCOMPARE(view.modelPlaneCount(), static_cast<int>(snapshot->planes.size()));
        QVERIFY(snapshot->planes.size() >= 2);
        QSignalSpy spy(&view, &KernelView::objectiveGridEvaluated);
        view.evaluateObjectiveGrid();
        QVERIFY(view.evaluating());
        QVERIFY(waitForGrid(view, spy));
        QVERIFY2(spy.at(0).at(0).toBool(), qPrintable(spy.at(0).at(1).toString()));
        const auto& points = view.evaluatedPoints();
        const auto& values = view.evaluatedValues();
        QCOMPARE(points.size(), std::size_t(21));
        const double polyOnly = libsvmDual(data, "poly:2", 1.0);
        const double gaussianOnly = libsvmDual(data, "gaussian:1", 1.0);
        // β = (0, 1) first, (1, 0) last.
        QVERIFY2(std::abs(values.front() - gaussianOnly) <= 1e-3 * gaussianOnly,
                 qPrintable(QString("%1 vs LIBSVM %2").arg(values.front()).arg(gaussianOnly)));
        QVERIFY2(std::abs(values.back() - polyOnly) <= 1e-3 * polyOnly,
                 qPrintable(QString("%1 vs LIBSVM %2").arg(values.back()).arg(polyOnly)));
        double smallest = values.front();
        for (std::size_t i = 0; i < points.size(); ++i) {
            smallest = std::min(smallest, values[i]);
            for (const auto& plane : snapshot->planes)
                QVERIFY(values[i] >= plane.dot(points[i]) - 1e-4 * std::abs(values[i]));
        }
        QVERIFY(smallest >= snapshot->theta - 1e-4 * std::abs(smallest));
        QVERIFY(smallest <= snapshot->dValues.front() * (1 + 1e-4));
    }

    // Three kernels: 91 lattice points; the vertices against LIBSVM; a frame of another run
    // keeps the evaluation of its own run only.
    void objectiveOnTheTriangle() {
        const Dataset data = generate("rings", 120, 3);
        SilpOptions options;
        options.kernel.kernels = "linear;poly:2;gaussian:1";
        options.kernel.normalize = "none";
        options.kernel.kkt_tolerance = 1e-5;
        SilpSolver solver(problemOf(data), options);
        solveOrFail(solver);
        RunController controller;
        KernelView view;
        widgets::connectObjectiveGrid(&view, &controller);
        view.resize(900, 600);
        view.showTab(1);
        view.show();
        QVERIFY(view.showFrame(kernelFrame(solver)));
        QSignalSpy spy(&view, &KernelView::objectiveGridEvaluated);
        view.evaluateObjectiveGrid();
        QVERIFY(waitForGrid(view, spy));
        QVERIFY2(spy.at(0).at(0).toBool(), qPrintable(spy.at(0).at(1).toString()));
        const auto& points = view.evaluatedPoints();
        const auto& values = view.evaluatedValues();
        QCOMPARE(points.size(), std::size_t(91));
        const char* kernels[3] = {"linear", "poly:2", "gaussian:1"};
        for (int k = 0; k < 3; ++k) {
            const double expected = libsvmDual(data, kernels[k], 1.0);
            bool found = false;
            for (std::size_t i = 0; i < points.size(); ++i) {
                if (points[i](k) != 1.0) continue;
                found = true;
                QVERIFY2(std::abs(values[i] - expected) <= 1e-3 * expected,
                         qPrintable(QString("%1: %2 vs LIBSVM %3")
                                        .arg(kernels[k])
                                        .arg(values[i])
                                        .arg(expected)));
            }
            QVERIFY(found);
        }
        widgets::replotPendingNow(&view);
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
    }

    void cancellingStopsTheGrid() {
        const Dataset data = loadLibsvm(kData + "/heart_scale");
        SilpOptions options;
        options.kernel.kernels = "linear;poly:3;gaussian:0.1";
        options.stop.max_iterations = 2;
        SilpSolver solver(problemOf(data), options);
        solve(solver);
        RunController controller;
        KernelView view;
        widgets::connectObjectiveGrid(&view, &controller);
        QVERIFY(view.showFrame(kernelFrame(solver)));
        QSignalSpy spy(&view, &KernelView::objectiveGridEvaluated);
        view.evaluateObjectiveGrid();
        QVERIFY(view.evaluating());
        auto* cancel = view.findChild<QPushButton*>("cancelObjectiveGrid");
        QVERIFY(cancel);
        cancel->click();
        QVERIFY(waitForGrid(view, spy));
        QVERIFY(!spy.at(0).at(0).toBool());
        QVERIFY(spy.at(0).at(1).toString().contains("cancelled"));
        QVERIFY(view.evaluatedValues().empty());
    }

    // Many kernels (one per feature of heart_scale: 13): the legend names the largest few.
    void manyKernelsNameTheLargest() {
        const Dataset data = loadLibsvm(kData + "/heart_scale");
        SilpOptions options;
        options.kernel.kernels = "gaussian:1@each_feature";
        options.stop.max_iterations = 15;
        SilpSolver solver(problemOf(data), options);
        solve(solver);
        KernelView view;
        QVERIFY(view.showFrame(kernelFrame(solver)));
        const Eigen::VectorXd beta = solver.weights();
        const int positive = static_cast<int>((beta.array() > 0).count());
        QCOMPARE(view.namedKernelCount(), std::min(6, positive));
        QVERIFY(!view.findChild<QPushButton*>("evaluateObjectiveGrid")->isEnabled());
    }
};

QTEST_MAIN(TestKernelView)
#include "test_kernel_view.moc"
