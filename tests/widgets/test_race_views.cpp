// SPDX-License-Identifier: GPL-3.0-or-later
// The views of the nonsmooth, linear, kernel and sparse families offscreen on real runs drawn as
// a race (ViewFrame::race): a curve per run in the run's colour; the numbers beside the newest
// iterates of Kelley's 2-D zig-zag; the kernel weights' tab hidden for one kernel; and after
// clear() nothing of the previous problem left on the axes.
#include <qcustomplot.h>

#include <QtTest>
#include <cmath>
#include <set>

#include "cutting_plane_plot.h"
#include "data/generators.h"
#include "iterate_labels.h"
#include "kernel/silp.h"
#include "kernel/svm.h"
#include "kernel_model_panel.h"
#include "kernel_progress_tab.h"
#include "kernel_view.h"
#include "kernel_weights_tab.h"
#include "linear/bmrm.h"
#include "linear/ocas.h"
#include "linear_model_plot.h"
#include "linear_view.h"
#include "nonsmooth/bundle.h"
#include "nonsmooth/kelley.h"
#include "nonsmooth/test_functions.h"
#include "nonsmooth/typed_function.h"
#include "nonsmooth_view.h"
#include "race_graphs.h"

using namespace cplab;
using namespace cplab::widgets;

namespace {

// Runs `solver` for `steps` steps (or to its end).
void stepOrFail(Solver& solver, int steps) {
    for (int k = 0; k < steps; ++k) {
        const Status status = solver.step();
        if (status.code != StatusCode::Running) break;
    }
}

RaceEntry entryOf(const Solver& solver, int runId, const QString& label, const QColor& colour) {
    RaceEntry entry;
    entry.runId = runId;
    entry.label = label;
    entry.colour = colour;
    entry.marker = runId - 1;
    entry.snapshot = solver.snapshot();
    entry.records = solver.trace();
    entry.columns = solver.extraColumns();
    return entry;
}

// The frame of run `selected` (1-based) of `race`.
ViewFrame entriesFrame(const std::vector<RaceEntry>& race, std::size_t selected) {
    const RaceEntry& e = race[selected - 1];
    ViewFrame frame;
    frame.runId = e.runId;
    frame.snapshot = e.snapshot;
    frame.records = e.records;
    frame.columns = e.columns;
    frame.race = race;
    return frame;
}

const QColor kFirst{31, 119, 180}, kSecond{214, 39, 40};

std::vector<QColor> penColours(const RaceGraphs& graphs) {
    std::vector<QColor> colours;
    for (QCPGraph* g : graphs.graphs())
        colours.push_back(g->pen().color());
    return colours;
}

// Plottables of `plot` that still hold data or are visible colour maps.
int plottablesWithData(QCustomPlot* plot) {
    int n = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (auto* g = qobject_cast<QCPGraph*>(p)) n += g->dataCount() > 0;
        if (auto* c = qobject_cast<QCPCurve*>(p)) n += c->dataCount() > 0;
        if (auto* m = qobject_cast<QCPColorMap*>(p)) n += m->visible();
    }
    return n;
}

bool axesAtUnit(QCustomPlot* plot) {
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
            if (axis->scaleType() == QCPAxis::stLinear && axis->range() != QCPRange(0, 1))
                return false;
        }
    }
    return true;
}

KernelProblem kernelProblem(const Dataset& data) {
    return {std::make_shared<const Dataset>(data), nullptr};
}

}  // namespace

class TestRaceViews : public QObject {
    Q_OBJECT

  private slots:
    // Kelley and the bundle method on the 2-D bowl: each run's iterates in its colour, the
    // selected one (Kelley) with its planes; numbers beside its newest iterates.
    void nonsmoothRaceAndNumbers() {
        auto function = makeTestFunction("zigzag_quadratic");
        QVERIFY(function);
        KelleySolver kelley(function);
        BundleSolver bundle(function);
        stepOrFail(kelley, 15);
        stepOrFail(bundle, 15);
        const std::vector<RaceEntry> race = {entryOf(kelley, 1, "#1 kelley", kFirst),
                                             entryOf(bundle, 2, "#2 bundle (nu_rule=x)", kSecond)};
        NonsmoothView view;
        view.resize(800, 600);
        QVERIFY(view.showFrame(entriesFrame(race, 1)));
        CuttingPlanePlot* plot = view.modelPlot();
        QCOMPARE(plot->raceRunCount(), 2);
        QCOMPARE(plot->raceColours(), (std::vector<QColor>{kFirst, kSecond}));
        QVERIFY(plot->planeLineCount() > 0);
        // A curve in each run's colour, named by its label without the options.
        int first = 0, second = 0;
        for (int i = 0; i < plot->plot()->plottableCount(); ++i) {
            auto* c = qobject_cast<QCPCurve*>(plot->plot()->plottable(i));
            if (!c || !c->visible() || c->dataCount() == 0) continue;
            if (c->pen().color() == kFirst && c->name() == "#1 kelley") ++first;
            if (c->pen().color() == kSecond && c->name() == "#2 bundle") ++second;
        }
        QCOMPARE(first, 1);
        QCOMPARE(second, 1);
        // Numbers: the newest iterate's first, at most kNewest of them.
        const auto s = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(kelley.snapshot());
        const IterateLabels& labels = plot->iterateLabels();
        QVERIFY(labels.count() >= 3);
        QVERIFY(labels.count() <= IterateLabels::kNewest);
        QCOMPARE(labels.text(0), QString::number(s->iterates.size() - 1));
        // Alone: no race, the neutral look.
        ViewFrame alone = entriesFrame(race, 1);
        alone.race.clear();
        QVERIFY(view.showFrame(alone));
        QCOMPARE(plot->raceRunCount(), 0);
        QVERIFY(labels.count() >= 3);
    }

    // After clear(): no plottable, no label, axes back to [0, 1].
    void nonsmoothClearLeavesNothing() {
        KelleySolver kelley(makeTestFunction("zigzag_quadratic"));
        stepOrFail(kelley, 5);
        NonsmoothView view;
        view.resize(800, 600);
        QVERIFY(view.showFrame(entriesFrame({entryOf(kelley, 1, "#1 kelley", kFirst)}, 1)));
        QVERIFY(view.plot()->plottableCount() > 0);
        view.clear();
        QCOMPARE(view.plot()->plottableCount(), 0);
        QCOMPARE(view.plot()->itemCount(), 0);
        QVERIFY(view.plot()->xAxis->label().isEmpty());
        QVERIFY(axesAtUnit(view.plot()));
    }

    // OCAS against BMRM: the stored planes and the training errors of both, in their colours.
    void linearRace() {
        LinearProblem problem{
            std::make_shared<const Dataset>(generate("overlapping_blobs", 200, 2)), nullptr};
        OcasOptions ocasOptions;
        ocasOptions.model.C = 10;
        BmrmOptions bmrmOptions;
        bmrmOptions.model.C = 10;
        OcasSolver ocas(problem, ocasOptions);
        BmrmSolver bmrm(problem, bmrmOptions);
        stepOrFail(ocas, 8);
        stepOrFail(bmrm, 8);
        const std::vector<RaceEntry> race = {entryOf(ocas, 1, "#1 ocas (C=10)", kFirst),
                                             entryOf(bmrm, 2, "#2 bmrm (C=10)", kSecond)};
        LinearView view;
        view.resize(900, 600);
        QVERIFY(view.showFrame(entriesFrame(race, 2)));
        const RaceGraphs& planes = view.modelPlot()->racePlanes();
        QCOMPARE(planes.graphs().size(), std::size_t(2));
        QCOMPARE(penColours(planes), (std::vector<QColor>{kFirst, kSecond}));
        // Each curve holds its run's planes: one record per step.
        QCOMPARE(planes.graphs()[0]->dataCount(), static_cast<int>(ocas.trace().size()));
        QCOMPARE(planes.graphs()[1]->dataCount(), static_cast<int>(bmrm.trace().size()));
        view.clear();
        QCOMPARE(plottablesWithData(view.plot()), 0);
        QVERIFY(axesAtUnit(view.plot()));
    }

    // A typed function that is not convex: the plane that lies above f where f was evaluated
    // is drawn over the box and down to f there, with a cross at that point (x, f(x)).
    void planeAboveFIsDrawn() {
        std::string why;
        const auto f = TypedFunction::parse("-x^2", "-3:3", &why);
        QVERIFY2(f, why.c_str());
        KelleySolver kelley(f);
        for (int k = 0; k < 20 && !kelley.status().finished(); ++k)
            kelley.step();
        QCOMPARE(kelley.status().code, StatusCode::NumericalFailure);
        const auto snap = std::dynamic_pointer_cast<const CuttingPlaneSnapshot>(kelley.snapshot());
        QVERIFY(snap && snap->planeAboveF);
        CuttingPlanePlot plot;
        plot.resize(800, 600);
        plot.setSnapshot(snap, {}, 0);
        QCPCurve* point = nullptr;
        QCPCurve* line = nullptr;
        for (int i = 0; i < plot.plot()->plottableCount(); ++i) {
            auto* c = qobject_cast<QCPCurve*>(plot.plot()->plottable(i));
            if (!c || !c->visible() || c->pen().color() != QColor(176, 0, 0)) continue;
            (c->dataCount() == 1 ? point : line) = c;
        }
        QVERIFY(point && line);
        QCOMPARE(point->name(), QString("plane above f: not convex"));
        const double x = point->data()->at(0)->key;
        QCOMPARE(point->data()->at(0)->value, -x * x);
        QCOMPARE(line->dataCount(), 4);
        const auto top = line->data()->at(2);
        const auto bottom = line->data()->at(3);
        QCOMPARE(top->key, x);
        QCOMPARE(bottom->value, -x * x);
        QVERIFY(top->value > bottom->value);  // the plane lies above f there
        // The plane's ends over the box lie on one line through (x, plane(x)).
        const auto lo = line->data()->at(0);
        const auto hi = line->data()->at(1);
        const double slope = (hi->value - lo->value) / (hi->key - lo->key);
        QVERIFY(std::abs(lo->value + slope * (x - lo->key) - top->value) < 1e-9);
    }

    // A short, wide view (presenting on a 720p screen) shows the four panels side by side, each
    // as high as the view; a view about as high as wide keeps two rows of two, and goes back.
    void linearPanelsInOneRowWhenShortAndWide() {
        LinearModelPlot plot;
        const auto rects = [&] { return plot.plot()->axisRects(); };
        const auto tops = [&] {
            std::set<int> seen;
            for (QCPAxisRect* r : rects())
                seen.insert(r->outerRect().top());
            return seen.size();
        };
        plot.resize(900, 600);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.plot()->replot();
        QVERIFY(!plot.panelsInOneRow());
        QCOMPARE(rects().size(), 4);
        QCOMPARE(tops(), std::size_t(2));
        plot.resize(1280, 320);
        QTest::qWait(50);
        plot.plot()->replot();
        QVERIFY(plot.panelsInOneRow());
        QCOMPARE(rects().size(), 4);
        QCOMPARE(tops(), std::size_t(1));
        for (QCPAxisRect* r : rects())
            QVERIFY2(r->outerRect().width() >= 200,
                     qPrintable(QString::number(r->outerRect().width())));
        QVERIFY(plot.plot()->legend->visible());
        // 150 % fonts on a 1280x720 screen leave the view about 523 x 162 logical pixels: one
        // row, whose panels (under 280 px) go without the legends that wrapped to three lines.
        plot.resize(523, 162);
        QTest::qWait(50);
        plot.plot()->replot();
        QVERIFY(plot.panelsInOneRow());
        QCOMPARE(tops(), std::size_t(1));
        QVERIFY(!plot.plot()->legend->visible());
        plot.resize(700, 400);  // not twice as wide as high: two rows, legends back
        QTest::qWait(50);
        plot.plot()->replot();
        QVERIFY(!plot.panelsInOneRow());
        QCOMPARE(tops(), std::size_t(2));
        QVERIFY(plot.plot()->legend->visible());
        plot.resize(460, 200);  // too narrow for four panels of 120 px
        QTest::qWait(50);
        plot.plot()->replot();
        QVERIFY(!plot.panelsInOneRow());
        QCOMPARE(tops(), std::size_t(2));
    }

    // One kernel: no kernel weights' tab; two or more: the tab, and in a race the runs' dual
    // objectives in the convergence tab and their paths over the triangle in their colours.
    void kernelWeightsTabAndRace() {
        const Dataset data = generate("xor", 120, 1);
        SvmOptions svmOptions;
        svmOptions.kernel.kernels = "gaussian:1";
        SvmSolver svm(kernelProblem(data), svmOptions);
        stepOrFail(svm, 5);
        KernelView view;
        view.resize(900, 600);
        QVERIFY(view.showFrame(entriesFrame({entryOf(svm, 1, "#1 svm", kFirst)}, 1)));
        QVERIFY(!view.weightsTabShown());
        QVERIFY(!view.showPage(1));

        SilpOptions a, b;
        a.kernel.kernels = b.kernel.kernels = "linear;poly:2;gaussian:1";
        b.kernel.C = 10;
        SilpSolver first(kernelProblem(data), a), second(kernelProblem(data), b);
        stepOrFail(first, 6);
        stepOrFail(second, 6);
        const std::vector<RaceEntry> race = {entryOf(first, 3, "#3 silp (C=1)", kFirst),
                                             entryOf(second, 4, "#4 silp (C=10)", kSecond)};
        QVERIFY(view.showFrame(entriesFrame(race, 1)));
        QVERIFY(view.weightsTabShown());
        QVERIFY(view.showPage(1));
        const RaceGraphs& objectives = view.progressTab()->raceObjectives();
        QCOMPARE(penColours(objectives), (std::vector<QColor>{kFirst, kSecond}));
        QCOMPARE(penColours(view.progressTab()->raceTrainErrors()),
                 (std::vector<QColor>{kFirst, kSecond}));
        QCOMPARE(view.weightsTab()->modelPanel().raceColours(),
                 (std::vector<QColor>{kFirst, kSecond}));

        view.clear();
        QVERIFY(view.weightsTabShown());
        for (QCustomPlot* plot :
             {static_cast<QCustomPlot*>(view.progressTab()), view.weightsTab()->plot()}) {
            QCOMPARE(plottablesWithData(plot), 0);
        }
        QVERIFY(view.progressTab()->raceObjectives().graphs().empty());
    }
};

QTEST_MAIN(TestRaceViews)
#include "test_race_views.moc"
