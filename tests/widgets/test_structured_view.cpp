// SPDX-License-Identifier: GPL-3.0-or-later
// The structured family's view (widgets/structured/structured_view.h) offscreen on real runs over
// Taskar's OCR words: every drawn emission pixel and transition equals the snapshot's weight in the
// chain model's layout, each letter's tile is titled, the trace holds one primal point per
// evaluation and one gap point per positive gap, BCFW's per-word gaps one cell each, the lattice's
// cells are the emission scores computed here from the word's pixels and its paths the truth and
// our own decodings of the word, the test errors (letters and words) are drawn only with test
// words, the bottom panel holds n-slack's working-set sizes, 1-slack's planes or the mean step,
// data that is not an image is drawn as the L × d matrix, and other snapshots are refused. A race
// draws every run's curves in its colour; the "Kernel groups" tab shows only for a run with
// kernel groups.
#include <qcustomplot.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "data/sequence_format.h"
#include "race_legend.h"
#include "structured/bcfw.h"
#include "structured/n_slack_ssvm.h"
#include "structured/one_slack_ssvm.h"
#include "structured/online_mkl.h"
#include "structured/ssg_ssvm.h"
#include "structured_view.h"

using namespace cplab;
using cplab::widgets::StructuredView;
using cplab::widgets::ViewFrame;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

// The first `count` training words of fold 0 and, if asked, the first `testCount` words of the
// other folds.
StructuredProblem ocrProblem(int count, int testCount, bool transitions = true) {
    static const auto folds = loadLetterData(kOcr).splitByFold(0);
    auto take = [](const SequenceData& data, int k) {
        std::vector<int> first(static_cast<std::size_t>(k));
        for (int i = 0; i < k; ++i)
            first[static_cast<std::size_t>(i)] = i;
        return std::make_shared<SequenceData>(data.subset(first));
    };
    const ChainModelOptions options{true, transitions};
    StructuredProblem problem;
    problem.train = std::make_shared<ChainModel>(take(folds.first, count), options);
    if (testCount > 0)
        problem.test = std::make_shared<ChainModel>(take(folds.second, testCount), options);
    return problem;
}

ViewFrame structuredFrame(const Solver& solver, int runId = 1) {
    ViewFrame frame;
    frame.runId = runId;
    frame.snapshot = solver.snapshot();
    frame.records = std::span<const IterationRecord>(solver.trace().data(), solver.trace().size());
    frame.columns = solver.extraColumns();
    return frame;
}

int finiteCount(const Solver& solver, const std::string& column, bool positive) {
    const auto columns = solver.extraColumns();
    const auto at = std::find(columns.begin(), columns.end(), column) - columns.begin();
    int n = 0;
    for (const IterationRecord& r : solver.trace()) {
        if (at >= static_cast<long>(r.extra.size())) continue;
        const double v = r.extra[static_cast<std::size_t>(at)];
        n += std::isfinite(v) && (!positive || v > 0) && std::isfinite(r.passes);
    }
    return n;
}

}  // namespace

class TestStructuredView : public QObject {
    Q_OBJECT

  private slots:
    void lettersAreDrawnAsTheirWeights() {
        BcfwOptions options;
        options.lambda = 0.01;
        BcfwSolver solver(ocrProblem(40, 20), options);
        for (int k = 0; k < 4; ++k)
            solver.step();
        StructuredView view;
        view.resize(1200, 800);
        QVERIFY(view.showFrame(structuredFrame(solver)));
        QCOMPARE(view.layout(), StructuredView::Layout::Images);
        const auto snapshot =
            std::dynamic_pointer_cast<const StructuredSnapshot>(solver.snapshot());
        QVERIFY(snapshot);
        const int L = snapshot->labels, d = snapshot->features;
        QCOMPARE(d, kOcrPixels);
        QCOMPARE(view.tileTitleCount(), L);
        double largest = 0.0;
        for (int y = 0; y < L; ++y) {
            for (int j = 0; j < d; ++j) {
                const double w = snapshot->w(y * d + j);
                QCOMPARE(view.emissionCell(y, j), w);
                largest = std::max(largest, std::abs(w));
            }
        }
        QVERIFY(largest > 0);  // four passes moved the templates
        const int base = L * d + L;
        for (int a = 0; a < L; ++a) {
            for (int b = 0; b < L; ++b)
                QCOMPARE(view.transitionCell(a, b), snapshot->w(base + a * L + b));
        }
        QVERIFY(std::isnan(view.emissionCell(L, 0)));
        QVERIFY(std::isnan(view.transitionCell(0, L)));

        // One point per evaluation of P(w), one per positive gap; test error with test words.
        QCOMPARE(view.primalPointCount(), finiteCount(solver, "primal", false));
        QCOMPARE(view.gapPointCount(), finiteCount(solver, "duality_gap", true));
        QVERIFY(view.gapPointCount() >= 4);
        QCOMPARE(view.testErrorPointCount(), finiteCount(solver, "test_error", false));
        QVERIFY(view.testErrorPointCount() > 0);
        QCOMPARE(view.testWordErrorPointCount(), view.testErrorPointCount());
        // The snapshot's word error: the test words with a wrong letter, counted here.
        {
            const StructuredProblem counted = ocrProblem(40, 20);
            int wrongWords = 0;
            std::vector<int> y;
            for (int i = 0; i < counted.test->size(); ++i) {
                counted.test->decode(snapshot->w, i, y);
                const auto truth = counted.test->truth(i);
                wrongWords += !std::equal(y.begin(), y.end(), truth.begin());
            }
            QCOMPARE(snapshot->errors.testWord, wrongWords / 20.0);
            QVERIFY(view.statusText(structuredFrame(solver)).contains("word error"));
        }
        // Without a working set or planes, the bottom panel is BCFW's mean step per pass.
        QCOMPARE(view.ownValue(0, 1), solver.trace()[1].extra[3]);
        QVERIFY(view.statusText(structuredFrame(solver)).contains("gap"));

        // The lattice of the first test words: each cell the emission score computed here
        // from the word's pixels, the paths the truth, Viterbi and loss-augmented decodings.
        StructuredProblem problem = ocrProblem(40, 20);
        QVERIFY(snapshot->words);
        QCOMPARE(static_cast<int>(snapshot->lattices.size()), kLatticeWords);
        QCOMPARE(snapshot->words->size(), 20);
        for (int k : {0, 3}) {
            view.setLatticeWord(k);
            const SequenceData& words = *snapshot->words;
            const int first = words.first(k), T = words.length(k);
            for (int t = 0; t < T; ++t) {
                const Eigen::VectorXd x =
                    Eigen::VectorXd(words.features.row(first + t).transpose());
                for (int y = 0; y < L; ++y) {
                    const double expected =
                        snapshot->w.segment(y * d, d).dot(x) + snapshot->w(L * d + y);
                    QVERIFY(std::abs(view.latticeCell(t, y) - expected) <=
                            1e-12 * (1 + std::abs(expected)));
                }
                QCOMPARE(view.latticePathLabel(0, t),
                         words.labels[static_cast<std::size_t>(first + t)]);
            }
            std::vector<int> decoded, augmented;
            problem.test->decode(snapshot->w, k, decoded);
            problem.test->lossAugmentedDecode(snapshot->w, k, augmented);
            for (int t = 0; t < T; ++t) {
                QCOMPARE(view.latticePathLabel(1, t), decoded[static_cast<std::size_t>(t)]);
                QCOMPARE(view.latticePathLabel(2, t), augmented[static_cast<std::size_t>(t)]);
            }
            QCOMPARE(view.latticePathLabel(1, T), -1);
        }

        // Word gaps: one cell per training word, each the gap BCFW met at its last visit (a
        // Frank-Wolfe gap, so >= 0 up to rounding: every word was visited in four passes).
        QCOMPARE(static_cast<int>(snapshot->wordGaps.size()), 40);
        for (int i = 0; i < 40; ++i) {
            const double g = snapshot->wordGaps[static_cast<std::size_t>(i)];
            QVERIFY(std::isfinite(g) && g >= -1e-12);
            if (g > 1e-6) QCOMPARE(view.wordGapCell(i), g);
        }
        QVERIFY(std::isnan(view.wordGapCell(40)));

        // Every tab exports.
        QTemporaryDir dir;
        QString why;
        QVERIFY2(view.exportImage(dir.filePath("model.png"), &why), qPrintable(why));
        QVERIFY(view.showPage(1));
        QVERIFY2(view.exportImage(dir.filePath("trace.png"), &why), qPrintable(why));
        QVERIFY(QFileInfo(dir.filePath("trace.png")).size() > 1000);
        QVERIFY(view.showPage(2));
        QVERIFY2(view.exportImage(dir.filePath("lattice.png"), &why), qPrintable(why));
        QVERIFY(view.showPage(3));
        QVERIFY2(view.exportImage(dir.filePath("gaps.png"), &why), qPrintable(why));
        // BCFW has no kernel groups: their tab is hidden and cannot be shown.
        QCOMPARE(view.groupCurveCount(), 0);
        QVERIFY(!view.groupsTabShown());
        QVERIFY(!view.showPage(4));
        QVERIFY(!view.showPage(5));
    }

    // Online MKL: one β curve per group with the records' values, the last proximal step's
    // bars and threshold from the solver; the lattice scores come from all groups.
    void kernelGroupsAreDrawn() {
        OnlineMklOptions options;
        options.kernels = "linear;gaussian:0.05";
        options.lambda = 0.02;
        options.chunks = 5;
        options.epochs = 2;
        OnlineMklSolver solver(ocrProblem(30, 10), options);
        for (int k = 0; k < 6; ++k)
            solver.step();
        StructuredView view;
        view.resize(1200, 800);
        QVERIFY(view.showFrame(structuredFrame(solver)));
        QCOMPARE(view.groupCurveCount(), solver.groupCount());
        const auto columns = solver.extraColumns();
        const auto& trace = solver.trace();
        for (int g = 0; g < solver.groupCount(); ++g) {
            const auto at = static_cast<std::size_t>(
                std::find(columns.begin(), columns.end(), "beta:" + solver.groupName(g)) -
                columns.begin());
            int point = 0;
            for (const IterationRecord& r : trace) {
                if (!std::isfinite(r.extra[at])) continue;
                QCOMPARE(view.groupWeight(g, point++), r.extra[at]);
            }
            QCOMPARE(point, 6);  // one per chunk (the initial record has none)
            QCOMPARE(view.proxBar(false, g), solver.lastNormsBefore()[static_cast<std::size_t>(g)]);
            QCOMPARE(view.proxBar(true, g), solver.lastProx().shrunk[static_cast<std::size_t>(g)]);
        }
        QCOMPARE(view.drawnThreshold(), solver.lastProx().threshold);
        QVERIFY(view.drawnThreshold() > 0);
        QVERIFY(view.groupsTabShown());
        QVERIFY(view.showPage(4));
        QTemporaryDir dir;
        QString why;
        QVERIFY2(view.exportImage(dir.filePath("groups.png"), &why), qPrintable(why));
        // The lattice of a test word is drawn (scores of all groups, from the snapshot).
        const auto snapshot =
            std::dynamic_pointer_cast<const StructuredSnapshot>(solver.snapshot());
        QVERIFY(snapshot && !snapshot->lattices.empty());
        QCOMPARE(view.latticeCell(0, 3), snapshot->lattices[0].scores(0, 3));
        // A run without groups hides the tab again, a run with groups shows it, clear() hides it.
        SsgSolver ssg(ocrProblem(30, 0), SsgOptions{});
        ssg.step();
        QVERIFY(view.showFrame(structuredFrame(ssg, 2)));
        QVERIFY(!view.groupsTabShown());
        QVERIFY(!view.showPage(4));
        QVERIFY(view.showFrame(structuredFrame(solver)));
        QVERIFY(view.groupsTabShown());
        view.clear();
        QVERIFY(!view.groupsTabShown());
    }

    void primalOnlyRunsHaveNoGapAndNoTestCurve() {
        SsgOptions options;
        options.lambda = 0.01;
        SsgSolver solver(ocrProblem(30, 0), options);
        for (int k = 0; k < 3; ++k)
            solver.step();
        StructuredView view;
        QVERIFY(view.showFrame(structuredFrame(solver)));
        QCOMPARE(view.gapPointCount(), finiteCount(solver, "duality_gap", true));
        QCOMPARE(view.testErrorPointCount(), 0);
        QCOMPARE(view.primalPointCount(), finiteCount(solver, "primal", false));
        QVERIFY(view.primalPointCount() >= 3);
        QVERIFY(std::isnan(view.wordGapCell(0)));  // no per-word gaps without BCFW
        // A new run restarts the trace instead of appending to it.
        SsgSolver other(ocrProblem(30, 0), options);
        other.step();
        QVERIFY(view.showFrame(structuredFrame(other, 2)));
        QCOMPARE(view.primalPointCount(), finiteCount(other, "primal", false));
    }

    // n-slack: Σᵢ|Wᵢ| per pass; 1-slack: its planes and active planes, from the records.
    void workingSetsAndPlanesAreDrawn() {
        auto check = [](const Solver& solver, const char* first, const char* second) {
            StructuredView view;
            QVERIFY(view.showFrame(structuredFrame(solver)));
            const auto columns = solver.extraColumns();
            const auto at = [&](const char* name) {
                return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                                columns.begin());
            };
            const auto& trace = solver.trace();
            for (std::size_t k = 0; k < trace.size(); ++k) {
                QCOMPARE(view.ownValue(0, static_cast<int>(k)), trace[k].extra[at(first)]);
                if (second)
                    QCOMPARE(view.ownValue(1, static_cast<int>(k)), trace[k].extra[at(second)]);
            }
            QVERIFY(std::isnan(view.ownValue(0, static_cast<int>(trace.size()))));
            if (!second) QVERIFY(std::isnan(view.ownValue(1, 0)));
            QVERIFY(trace.back().extra[at(first)] > trace.front().extra[at(first)]);
        };
        NSlackOptions n;
        n.lambda = 0.01;
        NSlackSolver nslack(ocrProblem(30, 0), n);
        OneSlackOptions o;
        o.lambda = 0.01;
        OneSlackSolver oneslack(ocrProblem(30, 0), o);
        for (int k = 0; k < 4; ++k) {
            nslack.step();
            oneslack.step();
        }
        check(nslack, "constraints", nullptr);
        check(oneslack, "planes", "active_planes");
    }

    void featuresThatAreNoImageAreAMatrix() {
        // Multi-class tokens with 5 features: the emission weights as the L × 5 matrix, no
        // transitions.
        const std::vector<std::vector<double>> x = {{1, 0, 0, 0, 1}, {0, 1, 0, 0, 1},
                                                    {0, 0, 1, 0, 1}, {0, 0, 0, 1, 1},
                                                    {1, 1, 0, 0, 0}, {0, 0, 1, 1, 0}};
        std::string text;
        const char* labels[] = {"a", "b", "c", "a", "b", "c"};
        for (std::size_t i = 0; i < x.size(); ++i) {
            text += labels[i];
            for (int j = 0; j < 5; ++j)
                if (x[i][static_cast<std::size_t>(j)] != 0)
                    text += " " + std::to_string(j + 1) + ":1";
            text += "\n\n";
        }
        const SequenceData parsed = parseSequences(text, "five.seq");
        StructuredProblem problem;
        problem.train = std::make_shared<ChainModel>(std::make_shared<SequenceData>(parsed),
                                                     ChainModelOptions{true, false});
        BcfwSolver solver(problem, {});
        solver.step();
        StructuredView view;
        QVERIFY(view.showFrame(structuredFrame(solver)));
        QCOMPARE(view.layout(), StructuredView::Layout::Matrix);
        const auto snapshot =
            std::dynamic_pointer_cast<const StructuredSnapshot>(solver.snapshot());
        QCOMPARE(snapshot->labels, 3);
        QCOMPARE(snapshot->features, 5);
        for (int y = 0; y < 3; ++y) {
            for (int j = 0; j < 5; ++j)
                QCOMPARE(view.emissionCell(y, j), snapshot->w(y * 5 + j));
        }
        QVERIFY(std::isnan(view.transitionCell(0, 0)));
        QCOMPARE(view.tileTitleCount(), 0);
    }

    // A race of three solvers: the trace tab draws every run in its colour, each curve with the
    // points of that run's records; a race without one run drops its curves; clear() leaves
    // none of them.
    void everyRunOfARaceIsDrawn() {
        BcfwOptions b;
        b.lambda = 0.01;
        SsgOptions g;
        g.lambda = 0.01;
        NSlackOptions n;
        n.lambda = 0.01;
        BcfwSolver bcfw(ocrProblem(30, 10), b);
        SsgSolver ssg(ocrProblem(30, 10), g);
        NSlackSolver nslack(ocrProblem(30, 10), n);
        const std::vector<const Solver*> solvers = {&bcfw, &ssg, &nslack};
        for (int k = 0; k < 4; ++k) {
            bcfw.step();
            ssg.step();
            nslack.step();
        }
        const QColor colours[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44)};
        ViewFrame frame = structuredFrame(ssg, 2);
        for (int k = 0; k < 3; ++k) {
            const ViewFrame own = structuredFrame(*solvers[static_cast<std::size_t>(k)], k + 1);
            frame.race.push_back({k + 1, QString("#%1 solver (lambda=0.01)").arg(k + 1), colours[k],
                                  k, own.snapshot, own.records, own.columns});
        }
        StructuredView view;
        view.resize(1000, 700);
        QVERIFY(view.showFrame(frame));
        QCOMPARE(view.traceRunCount(), 3);
        for (int k = 0; k < 3; ++k) {
            const Solver& solver = *solvers[static_cast<std::size_t>(k)];
            QCOMPARE(view.traceRunColour(k), colours[k]);
            QCOMPARE(view.traceRunGapPoints(k), finiteCount(solver, "duality_gap", true));
            QCOMPARE(view.traceRunTestErrorPoints(k), finiteCount(solver, "test_error", false));
            QVERIFY(view.traceRunTestErrorPoints(k) > 0);
        }
        QVERIFY(view.traceRunGapPoints(0) > 0);  // BCFW's gap
        QCOMPARE(view.traceRunGapPoints(1), 0);  // SSG has no dual
        // The selected run's own curves are SSG's.
        QCOMPARE(view.primalPointCount(), finiteCount(ssg, "primal", false));
        const int perRace = view.traceGraphCount();
        // Without n-slack: two runs, fewer graphs.
        frame.race.pop_back();
        QVERIFY(view.showFrame(frame));
        QCOMPARE(view.traceRunCount(), 2);
        QCOMPARE(view.traceRunColour(1), colours[1]);
        QVERIFY(view.traceGraphCount() < perRace);
        view.clear();
        QCOMPARE(view.traceRunCount(), 0);
        QCOMPARE(view.primalPointCount(), 0);
        QVERIFY(view.traceGraphCount() < perRace / 3);  // only the legend's style keys
    }

    // Legends name what differs between the runs: the options all of them share are left out.
    void raceNamesLeaveOutSharedOptions() {
        using cplab::widgets::RaceEntry;
        std::vector<RaceEntry> race(3);
        race[0].label = "#1 bcfw (lambda=0.01, max_iterations=30)";
        race[1].label = "#2 bcfw (averaging=true, lambda=0.01, max_iterations=30)";
        race[2].label = "#3 ssg (lambda=0.01, max_iterations=20)";
        const auto names = cplab::widgets::raceNames(race);
        QCOMPARE(names[0], QString("#1 bcfw (max_iterations=30)"));
        QCOMPARE(names[1], QString("#2 bcfw (averaging=true, max_iterations=30)"));
        QCOMPARE(names[2], QString("#3 ssg (max_iterations=20)"));
        race.resize(1);  // one run: its whole label
        QCOMPARE(cplab::widgets::raceNames(race)[0], race[0].label);
        race.push_back({});
        race[1].label = "no options";
        QCOMPARE(cplab::widgets::raceNames(race)[1], QString("no options"));
    }

    // The 26 letters beside the transition matrix were drawn at 7 pt, one touching the next:
    // they keep the plot's tick font and are thinned to every k-th letter until each has a
    // line of its own; a larger view names more of them.
    void letterAxesAreReadable() {
        BcfwOptions options;
        options.lambda = 0.01;
        BcfwSolver solver(ocrProblem(10, 0), options);
        solver.step();
        StructuredView view;
        const auto named = [&](QSize size, QCPAxis** out) {
            view.resize(size);
            view.show();
            if (!view.showFrame(structuredFrame(solver))) return -1;
            auto* plot = view.findChild<QCustomPlot*>("structuredModelPlot");
            plot->replot();
            plot->replot();  // the axis rects' sizes of this layout
            QCPAxis* axis = plot->axisRects().at(1)->axis(QCPAxis::atLeft);
            *out = axis;
            return static_cast<int>(axis->tickVectorLabels().size());
        };
        QCPAxis* axis = nullptr;
        const int small = named(QSize(560, 300), &axis);
        QVERIFY(axis);
        const QCPAxis* matrix =
            axis->axisRect()->parentPlot()->axisRects().at(0)->axis(QCPAxis::atBottom);
        QCOMPARE(axis->tickLabelFont().pointSizeF(), matrix->tickLabelFont().pointSizeF());
        const int line = QFontMetrics(axis->tickLabelFont()).height();
        QVERIFY2(small > 1 && small * line <= axis->axisRect()->height() + line,
                 qPrintable(QString("%1 labels of %2 px in %3 px")
                                .arg(small)
                                .arg(line)
                                .arg(axis->axisRect()->height())));
        QCOMPARE(axis->tickVectorLabels().front(), QString("a"));
        const int large = named(QSize(1600, 1200), &axis);
        QVERIFY2(large > small, qPrintable(QString("%1 then %2").arg(small).arg(large)));
        QVERIFY(large <= 26);
    }

    void otherSnapshotsAreRefused() {
        StructuredView view;
        ViewFrame frame;
        frame.snapshot = std::make_shared<Snapshot>();
        QVERIFY(!view.showFrame(frame));
    }
};

QTEST_MAIN(TestStructuredView)
#include "test_structured_view.moc"
