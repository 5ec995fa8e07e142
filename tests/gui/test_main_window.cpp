// SPDX-License-Identifier: GPL-3.0-or-later
// Drives the real main window offscreen: loads the Kelley demo, presses the real buttons and
// checks what is drawn, the exports, and that the GUI's numbers equal a headless run's.
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "bounds_plot.h"
#include "cutting_plane_plot.h"
#include "families/dataset_family.h"
#include "families/linear.h"
#include "focus_ring.h"
#include "gui_wait.h"
#include "kernel_view.h"
#include "linear_model_plot.h"
#include "linear_view.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "mkl_path_view.h"
#include "nonsmooth/cutting_plane_view.h"
#include "nonsmooth_view.h"
#include "option_form.h"
#include "pseudocode_panel.h"
#include "registry.h"
#include "run.h"
#include "session.h"
#include "test_printers.h"
#include "timeline_bar.h"

using cplab::MainWindow;
using cplab::Run;

namespace {

using cplab::testing::allReady;
using cplab::testing::waitFor;

cplab::widgets::CuttingPlanePlot* cuttingPlanePlot(const MainWindow& w) {
    return static_cast<cplab::widgets::NonsmoothView*>(w.parts().centre->view("nonsmooth"))
        ->modelPlot();
}

cplab::widgets::LinearModelPlot* linearModelPlot(const MainWindow& w) {
    return static_cast<cplab::widgets::LinearView*>(w.parts().centre->view("linear"))->modelPlot();
}

// Loads a data file through the window's background loader; false and *why on failure.
bool loadDataFile(MainWindow& w, const QString& path, QString* why,
                  const QString& family = QString()) {
    QSignalSpy loaded(&w, &MainWindow::dataFileLoaded);
    w.openDataFile(path, {}, family);
    if (!loaded.wait(30000)) {
        *why = "loading did not finish";
        return false;
    }
    *why = loaded.front().at(1).toString();
    return loaded.front().at(0).toBool();
}

// The "planes" column of the record of `iteration` (0: the initial record).
int planesAt(const Run& run, int iteration) {
    const auto& columns = run.extraColumns();
    const auto column = static_cast<std::size_t>(
        std::find(columns.begin(), columns.end(), "planes") - columns.begin());
    const cplab::IterationRecord& r = run.history().recordAt(iteration);
    return column < r.extra.size() ? static_cast<int>(r.extra[column]) : -1;
}

// The "planes" column of the run's newest record.
int planesOf(const Run& run) {
    const auto& columns = run.extraColumns();
    const int column =
        static_cast<int>(std::find(columns.begin(), columns.end(), "planes") - columns.begin());
    if (column >= static_cast<int>(columns.size()) || run.trace().empty()) return -1;
    return static_cast<int>(run.trace().back().extra[static_cast<std::size_t>(column)]);
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

  private slots:
    void opensOnADemo();
    void stepAdvancesExactlyOneIteration();
    void stepTenAndConvergence();
    void exportsPlotsAndTrace();
    void guiTraceEqualsHeadlessRun();
    void raceRunsToTheEnd();
    void resetReturnsToIterationZero();
    void linearModelView();
    void badDataFileIsReportedNotLoaded();
    void typedDefaultValueIsStillChecked();
    void timelineScrubsBackThroughARun();
    void boundsCarryTheFamilysLabels();
    void everyFamilyHasItsViewAndControls();
    void heldOutSplitAndViewTabsFromOutside();
    void testFileAskedForOnlyWhereOneCanBe();
    void viewMenuBringsPanelsBack();
    void closeAsksBeforeDiscardingSteps();
    void pageKeysAndFocusRing();
};

void TestMainWindow::opensOnADemo() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    QCOMPARE(w.runCount(), 1);
    QCOMPARE(w.run(0)->iteration(), 0);
    QVERIFY(!w.loadDemo("no_such_demo"));
}

void TestMainWindow::stepAdvancesExactlyOneIteration() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    auto* step = w.findChild<QPushButton*>("stepButton");
    QVERIFY(step);
    Run* run = w.run(0);
    for (int expected = 1; expected <= 4; ++expected) {
        QTest::mouseClick(step, Qt::LeftButton);
        QVERIFY(waitFor([&] { return run->iteration() >= expected; }));
        // Nothing more happens on its own: still exactly `expected` after a pause.
        QTest::qWait(150);
        QCOMPARE(run->iteration(), expected);
        QVERIFY(waitFor([&] {
            return run->history().snapshot() &&
                   run->history().snapshot()->record.iteration == expected;
        }));
        QCoreApplication::processEvents();
        // One line per plane: the initial plane plus one per iteration, as the trace says.
        const auto snap =
            std::dynamic_pointer_cast<const cplab::CuttingPlaneSnapshot>(run->history().snapshot());
        QVERIFY(snap);
        QCOMPARE(static_cast<int>(snap->planes.size()), expected + 1);
        QCOMPARE(planesOf(*run), expected + 1);
        QCOMPARE(cuttingPlanePlot(w)->planeLineCount(), expected + 1);
    }
}

void TestMainWindow::stepTenAndConvergence() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    auto* step10 = w.findChild<QPushButton*>("step10Button");
    QVERIFY(step10);
    QTest::mouseClick(step10, Qt::LeftButton);
    Run* run = w.run(0);
    // |x − 1| + x²/2 on [−3, 3]: Kelley converges (gap ≤ 1e-6) before 10 steps.
    QVERIFY(waitFor([&] { return run->status().finished(); }));
    QCOMPARE(run->status().code, cplab::StatusCode::Converged);
    QVERIFY(run->iteration() < 10);
    const auto& last = run->trace().back();
    QVERIFY(last.upper - last.lower <= 1e-6);
    QVERIFY(last.lower <= 0.5 + 1e-12 && 0.5 <= last.upper);  // f* = 1/2 at x* = 1
}

void TestMainWindow::exportsPlotsAndTrace() {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    w.stepAll(3);
    QVERIFY(waitFor([&] { return w.run(0)->iteration() >= 3; }));
    QVERIFY(waitFor([&] { return cuttingPlanePlot(w)->planeLineCount() == 4; }));
    QTemporaryDir dir;
    QString why;
    const QString png = dir.filePath("model.png");
    QVERIFY2(w.exportModelPlot(png, &why), qPrintable(why));
    QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 200 && image.height() > 150);
    // Not blank: many distinct colours (curves, markers, text).
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    const QString pdf = dir.filePath("bounds.pdf");
    QVERIFY2(w.exportBoundsPlot(pdf, &why), qPrintable(why));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5) == "%PDF-");
    const QString csv = dir.filePath("trace.csv");
    QVERIFY2(w.parts().exports->exportSelectedTrace(csv, &why), qPrintable(why));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 3);
    QVERIFY(lines[0].startsWith("iteration,seconds,oracle_calls,upper,lower,gap,rel_gap"));
    QVERIFY(!w.exportModelPlot(dir.filePath("model.bmp"), &why));  // unknown extension
    QVERIFY(!why.isEmpty());
}

void TestMainWindow::guiTraceEqualsHeadlessRun() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("bundle_vs_kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    w.runAll();
    QVERIFY(waitFor([&] {
        for (int k = 0; k < w.runCount(); ++k) {
            if (!w.run(k)->status().finished()) return false;
        }
        return true;
    }));
    const cplab::DemoInfo* demo = cplab::findDemo("bundle_vs_kelley");
    QVERIFY(demo);
    std::string why;
    const auto problem = cplab::makeProblem(demo->problem, &why);
    for (int k = 0; k < w.runCount(); ++k) {
        auto solver = cplab::makeSolver(demo->runs[static_cast<std::size_t>(k)].solver, *problem,
                                        demo->runs[static_cast<std::size_t>(k)].options, &why);
        QVERIFY2(solver, why.c_str());
        cplab::solve(*solver);
        const auto& gui = w.run(k)->trace();
        const auto& headless = solver->trace();
        QCOMPARE(gui.size(), headless.size());
        for (std::size_t i = 0; i < gui.size(); ++i) {
            QCOMPARE(gui[i].iteration, headless[i].iteration);
            QCOMPARE(gui[i].oracleCalls, headless[i].oracleCalls);
            QCOMPARE(gui[i].upper, headless[i].upper);
            QCOMPARE(gui[i].lower, headless[i].lower);
            QCOMPARE(gui[i].extra, headless[i].extra);
        }
        QCOMPARE(w.run(k)->status().code, solver->status().code);
    }
}

void TestMainWindow::raceRunsToTheEnd() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("frank_wolfe"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    w.setDelayMs(0);
    auto* runButton = w.findChild<QPushButton*>("runButton");
    QTest::mouseClick(runButton, Qt::LeftButton);
    QVERIFY(
        waitFor([&] { return w.run(0)->status().finished() && w.run(1)->status().finished(); }));
    // Away steps converge linearly; plain Frank-Wolfe needs many more iterations.
    QCOMPARE(w.run(1)->status().code, cplab::StatusCode::Converged);
    QVERIFY(w.run(1)->iteration() * 5 < w.run(0)->iteration());
}

void TestMainWindow::resetReturnsToIterationZero() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    w.stepAll(2);
    QVERIFY(waitFor([&] { return w.run(0)->iteration() == 2; }));
    QTest::mouseClick(w.findChild<QPushButton*>("resetButton"), Qt::LeftButton);
    QVERIFY(waitFor([&] { return allReady(w) && w.run(0)->iteration() == 0; }));
    QVERIFY(w.run(0)->trace().empty());
}

void TestMainWindow::linearModelView() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("ocas_vs_bmrm"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    w.selectRun(0);
    w.stepAll(3);
    QVERIFY(waitFor([&] { return w.run(0)->iteration() == 3 && w.run(1)->iteration() == 3; }));
    QVERIFY(waitFor([&] { return linearModelPlot(w)->separatingLineCount() == 3; }));
}

void TestMainWindow::badDataFileIsReportedNotLoaded() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QString why;
    const QString bad = QString(CPLAB_TEST_DATA_DIR) + "/bad/index_zero.libsvm";
    QVERIFY(QFile::exists(bad));
    QVERIFY(!loadDataFile(w, bad, &why));
    QVERIFY2(why.contains("index_zero.libsvm") && why.contains(":"), qPrintable(why));
    QCOMPARE(QString::fromStdString(w.parts().controller->problem()->info.name),
             QString("abs_quad"));  // unchanged
    QVERIFY(loadDataFile(w, QString(CPLAB_TEST_DATA_DIR) + "/heart_scale", &why));
    QCOMPARE(w.parts().controller->problem()->as<cplab::LinearData>()->linear.train->size(), 270);
    // A table both families read opens in the family asked for (cplab --data F --solvers svm),
    // else in the one that reads it best (CSV: linear).
    const QString sonar = QString(CPLAB_TEST_DATA_DIR) + "/sonar.all-data";
    QVERIFY2(loadDataFile(w, sonar, &why, "kernel"), qPrintable(why));
    QCOMPARE(QString::fromStdString(w.parts().controller->problem()->info.family),
             QString("kernel"));
    QVERIFY2(w.addRun("svm", {}, &why), qPrintable(why));
    QVERIFY2(loadDataFile(w, sonar, &why), qPrintable(why));
    QCOMPARE(QString::fromStdString(w.parts().controller->problem()->info.family),
             QString("linear"));
}

// C = 0 typed into the form is refused as on the command line (C must be > 0), although its
// text equals the field's default "neither C nor lambda given"; untouched fields stay out.
void TestMainWindow::typedDefaultValueIsStillChecked() {
    MainWindow w;
    w.show();
    QVERIFY(w.loadDemo("ocas_vs_bmrm"));
    auto* solver = w.findChild<QComboBox*>("solverCombo");
    QVERIFY(solver);
    solver->setCurrentIndex(solver->findData("ocas"));
    auto* form = w.findChild<cplab::OptionForm*>();
    QVERIFY(form);
    const cplab::OptionValues before = form->changedValues();  // what the demo set
    auto* c = qobject_cast<QLineEdit*>(form->field("C"));
    QVERIFY(c);
    c->clear();
    QTest::keyClicks(c, "0");
    const cplab::OptionValues typed = form->changedValues();
    QCOMPARE(typed.size(), before.size() + (before.count("C") ? 0 : 1));
    QCOMPARE(typed.at("C"), std::string("0"));
    QString why;
    QVERIFY(!w.addRun("ocas", typed, &why));
    QVERIFY2(why.contains("C = 0"), qPrintable(why));
    form->setValues({});
    QVERIFY(form->changedValues().empty());
}

// After 10 steps of Kelley on the 2-D bowl, the timeline at iteration 3 shows exactly the planes
// of iteration 3 (as many as the record says) in the view, the pseudocode and the status line
// of that step, and a marker in the bounds plot; ← and → move by one; Live shows iteration 10.
void TestMainWindow::timelineScrubsBackThroughARun() {
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley_2d"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    QTest::mouseClick(w.findChild<QPushButton*>("step10Button"), Qt::LeftButton);
    Run* run = w.run(0);
    QVERIFY(waitFor([&] {
        return run->iteration() == 10 && run->history().snapshot() &&
               run->history().snapshot()->record.iteration == 10;
    }));
    QCOMPARE(run->status().code, cplab::StatusCode::Running);  // 35 iterations to converge
    // Every step of Step x10 kept its snapshot.
    QCOMPARE(static_cast<int>(run->history().snapshots().size()), 11);
    QCOMPARE(w.parts().playback->shownIteration(), 10);
    QCOMPARE(cuttingPlanePlot(w)->planeCount(), planesAt(*run, 10));

    auto* slider = w.parts().timeline->slider();
    slider->setValue(3);  // what dragging the slider does
    QVERIFY(!w.parts().timeline->isLive());
    QCOMPARE(w.parts().playback->shownIteration(), 3);
    // Kelley adds one plane per iteration to the initial one: 4 at iteration 3.
    QCOMPARE(planesAt(*run, 3), 4);
    QCOMPARE(cuttingPlanePlot(w)->planeCount(), 4);
    QVERIFY(cuttingPlanePlot(w)->planeLineCount() <= 4);
    QVERIFY2(w.parts().playback->statusText().contains("iteration 3 "),
             qPrintable(w.parts().playback->statusText()));
    // Cut to the status bar's width, the line ends with an ellipsis and keeps the whole text
    // as its tooltip (a bare cut read "training error 0" for 0.144).
    auto* line = w.findChild<QLabel*>("statusLine");
    QVERIFY(line);
    QCOMPARE(line->toolTip(), w.parts().playback->statusText());
    line->resize(200, line->height());
    QVERIFY2(line->text().endsWith(QChar(0x2026)), qPrintable(line->text()));
    QVERIFY(w.parts().playback->statusText().startsWith(line->text().chopped(1)));
    const auto third = run->history().snapshotAt(3);
    QCOMPARE(third->record.iteration, 3);
    QCOMPARE(w.parts().pseudocode->currentLine(), third->executedLines.back());
    QCOMPARE(w.parts().boundsPlot->marker(), 3.0);
    // The run table shows the run at the timeline's position.
    auto* table = w.findChild<QTableWidget*>("runTable");
    QCOMPARE(table->item(0, 2)->text(), QString("3"));

    w.parts().timeline->stepBack();
    QCOMPARE(w.parts().playback->shownIteration(), 2);
    QCOMPARE(cuttingPlanePlot(w)->planeCount(), 3);
    QTest::keyClick(slider, Qt::Key_Right);  // → on the focused slider
    QCOMPARE(w.parts().playback->shownIteration(), 3);
    QCOMPARE(cuttingPlanePlot(w)->planeCount(), 4);

    QTest::mouseClick(w.findChild<QPushButton*>("timelineLive"), Qt::LeftButton);
    QVERIFY(w.parts().timeline->isLive());
    QCOMPARE(w.parts().playback->shownIteration(), 10);
    QCOMPARE(cuttingPlanePlot(w)->planeCount(), planesAt(*run, 10));
    QCOMPARE(cuttingPlanePlot(w)->planeCount(), 11);
    QVERIFY(std::isnan(w.parts().boundsPlot->marker()));
    QCOMPARE(table->item(0, 2)->text(), QString("10"));
}

// The bounds plot and the status line use the names the problem's family gives its bounds.
void TestMainWindow::boundsCarryTheFamilysLabels() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    const cplab::BoundLabels labels = cplab::findFamily("nonsmooth")->boundLabels();
    QVERIFY(w.parts().boundsPlot->boundLabels().contains(QString::fromStdString(labels.upper)));
    QVERIFY(w.parts().boundsPlot->boundLabels().contains(QString::fromStdString(labels.lower)));
    QVERIFY2(w.parts().playback->statusText().contains(QString::fromStdString(labels.upper)),
             qPrintable(w.parts().playback->statusText()));
    QVERIFY(w.parts().playback->statusText().contains(QString::fromStdString(labels.lower)));
    w.parts().boundsPlot->setBoundLabels("dual bound U", "E(best labeling)");
    QVERIFY(w.parts().boundsPlot->boundLabels().contains("E(best labeling) (dashed)"));
}

// Each family's problem is shown in that family's view, with that family's problem controls.
void TestMainWindow::everyFamilyHasItsViewAndControls() {
    MainWindow w;
    w.resize(1440, 900);
    w.show();
    w.setDelayMs(0);
    auto* setup = w.findChild<QDockWidget*>("problemDock");
    QVERIFY(setup);
    auto* scroll = setup->findChild<QScrollArea*>("setupScroll");
    QVERIFY(scroll);
    for (const auto& demo : cplab::demoCatalog()) {
        QVERIFY(w.loadDemo(QString::fromStdString(demo.name)));
        const std::string family = cplab::familyOfDemo(demo)->name();
        QCOMPARE(w.currentView(), w.parts().centre->view(family));
        // The problem and solver panel fits its dock: nothing cut behind a horizontal scroll
        // bar (a long demo title once made it 430 px wide in a 370 px dock).
        QCoreApplication::processEvents();
        QVERIFY2(scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
                 qPrintable(QString("%1: needs %2 px, has %3")
                                .arg(QString::fromStdString(demo.name))
                                .arg(scroll->widget()->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
        for (const cplab::Family* f : cplab::families()) {
            if (QWidget* controls = w.parts().centre->view(f->name())->problemControls())
                QCOMPARE(controls->isVisible(), f->name() == family);
        }
    }
}

// What cplab --test-fraction/--seed/--view-tab/--export-view call: the split set from outside
// reaches the next file opened (the same split the problem panel gives), and the path view's
// tabs can be shown and exported.
void TestMainWindow::heldOutSplitAndViewTabsFromOutside() {
    MainWindow w;
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("kelley"));
    QString why;
    // heart_scale read for the kernel family is not the linear built-in of that name.
    QVERIFY2(loadDataFile(w, QString(CPLAB_TEST_DATA_DIR) + "/heart_scale", &why, "kernel"),
             qPrintable(why));
    auto* problems = w.findChild<QComboBox*>("problemCombo");
    QCOMPARE(problems->currentIndex(), -1);
    QVERIFY2(problems->placeholderText().contains("[kernel, 13-D, file]"),
             qPrintable(problems->placeholderText()));
    QVERIFY(w.loadProblem("heart_scale"));
    QVERIFY2(problems->currentText().contains("[linear"), qPrintable(problems->currentText()));

    w.setTestSplit(0.3, 1);
    QVERIFY2(loadDataFile(w, QString(CPLAB_TEST_DATA_DIR) + "/heart_scale", &why), qPrintable(why));
    const cplab::LinearProblem& linear =
        w.parts().controller->problem()->as<cplab::LinearData>()->linear;
    QVERIFY(linear.test);
    QCOMPARE(linear.train->size() + linear.test->size(), 270);
    QCOMPARE(linear.test->size(), 81);  // 30 % of 270

    QVERIFY2(loadDataFile(w, QString(CPLAB_TEST_DATA_DIR) + "/bupa.data", &why, "kernel"),
             qPrintable(why));
    const cplab::KernelProblem& kernel =
        w.parts().controller->problem()->as<cplab::KernelData>()->kernel;
    QVERIFY(kernel.test);
    QCOMPARE(kernel.train->size() + kernel.test->size(), 345);
    w.removeAllRuns();
    QVERIFY2(w.addRun("mklpath", {{"loss", "logistic"}, {"kernels", "gaussian:0.1;linear"}}, &why),
             qPrintable(why));
    QVERIFY(waitFor([&] { return allReady(w); }));
    w.stepAll(5);
    QVERIFY(waitFor([&] { return w.run(0)->iteration() == 5; }));
    auto* view = static_cast<cplab::widgets::KernelView*>(w.parts().centre->view("kernel"));
    QVERIFY(waitFor([&] { return view->pathView()->pointCount() == 5; }));
    QVERIFY(view->showPage(1));
    QCOMPARE(view->pathView()->currentTab(), 1);
    QVERIFY(!view->showPage(3));
    QVERIFY(!view->showPage(-1));
    QTemporaryDir dir;
    const QString png = dir.filePath("errors.png");
    QVERIFY2(w.exportModelPlot(png, &why), qPrintable(why));
    QImage image(png);
    QVERIFY(!image.isNull() && image.width() > 100 && image.height() > 100);
}

// File › Open asks for a test file once the file's format is known, and only when the family
// that reads it can have one: a LIBSVM file (the linear family's test split) gets the dialog,
// a UAI model (no test set in MAP inference) does not. The dialog (open_data_dialog.h, which
// also asks for the family) is accepted as it opens, which leaves the problem controls' split.
void TestMainWindow::testFileAskedForOnlyWhereOneCanBe() {
    MainWindow w;
    w.show();
    QVERIFY(w.loadDemo("kelley"));
    int dialogs = 0;
    QTimer closer;
    QObject::connect(&closer, &QTimer::timeout, [&] {
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            ++dialogs;
            dialog->reject();
        } else if (auto* ask = qobject_cast<QDialog*>(QApplication::activeModalWidget());
                   ask && ask->objectName() == "openDataDialog") {
            ++dialogs;
            ask->accept();
        }
    });
    closer.start(20);
    const auto open = [&](const QString& path) {
        QSignalSpy loaded(&w, &MainWindow::dataFileLoaded);
        w.openDataFile(path, {}, {}, true);
        return loaded.wait(30000) && loaded.front().at(0).toBool();
    };
    QVERIFY(open(QString(CPLAB_TEST_DATA_DIR) + "/heart_scale"));
    QCOMPARE(dialogs, 1);
    QCOMPARE(QString::fromStdString(w.parts().controller->problem()->info.family),
             QString("linear"));
    QVERIFY(open(QString(CPLAB_TEST_DATA_DIR) + "/map/uai2014/ProteinFolding_15.uai.gz"));
    QCOMPARE(dialogs, 1);
    QCOMPARE(QString::fromStdString(w.parts().controller->problem()->info.family), QString("map"));
}

// View lists every panel and the run controls; a panel closed by its title bar's button comes
// back from there. Help › Keyboard shortcuts lists the menus' shortcuts.
void TestMainWindow::viewMenuBringsPanelsBack() {
    MainWindow w;
    w.show();
    QVERIFY(w.loadDemo("kelley"));
    auto* menu = w.findChild<QMenu*>("viewMenu");
    QVERIFY(menu);
    QStringList entries;
    for (QAction* action : menu->actions())
        entries << action->text();
    for (const char* panel : {"Problem and solver", "Pseudocode", "Log", "Run controls"})
        QVERIFY2(entries.contains(panel), qPrintable(entries.join(", ")));
    auto* log = w.findChild<QDockWidget*>("logDock");
    QVERIFY(log && log->isVisible());
    log->close();
    QVERIFY(!log->isVisible());
    for (QAction* action : menu->actions())
        if (action->text() == "Log") action->trigger();
    QVERIFY(log->isVisible());
    const QString keys = w.parts().presentation->shortcutsText();
    for (const char* key : {"F5", "F6", "F10", "Run › Run", "File › Open data file..."})
        QVERIFY2(keys.contains(key), qPrintable(keys));
}

// Quit and close ask before discarding runs with unsaved steps, Save / Discard / Cancel (the
// question answered by a timer, as a user would); the title names the session and carries
// Qt's modified mark ("kelley[*] - cplab" reads "kelley* - cplab" while modified).
void TestMainWindow::closeAsksBeforeDiscardingSteps() {
    QString asked;
    auto answer = [&asked](QMessageBox::StandardButton button) {
        asked.clear();
        QTimer::singleShot(100, [button, &asked] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = box->text();
                box->button(button)->click();
            }
        });
    };
    QTemporaryDir dir;
    const QString path = dir.filePath("lesson.cplab");
    auto w = std::make_unique<MainWindow>();
    w->show();
    w->setDelayMs(0);
    QVERIFY(w->loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(*w); }));
    QCOMPARE(w->windowTitle(), QString("kelley[*] - cplab"));
    QVERIFY(!w->isWindowModified());
    w->stepAll(2);
    QVERIFY(waitFor([&] { return w->run(0)->iteration() == 2; }));
    QVERIFY(waitFor([&] { return w->isWindowModified(); }));
    // Cancel: the window stays, with its runs.
    answer(QMessageBox::Cancel);
    QVERIFY(!w->close());
    QVERIFY2(asked.contains("kelley"), qPrintable(asked));
    QVERIFY(w->isVisible());
    QCOMPARE(w->run(0)->iteration(), 2);
    // Saved: the title names the file, nothing to ask.
    QString why;
    QVERIFY2(w->saveSession(path, true, &why), qPrintable(why));
    QCOMPARE(w->windowTitle(), QString("lesson.cplab[*] - cplab"));
    QVERIFY(!w->isWindowModified());
    // One more step, then Save writes it to the session's file and the window closes.
    w->stepAll(1);
    QVERIFY(waitFor([&] { return w->run(0)->iteration() == 3 && w->isWindowModified(); }));
    answer(QMessageBox::Save);
    QVERIFY(w->close());
    QVERIFY(!asked.isEmpty());
    cplab::SessionNotes notes;
    std::string readWhy;
    const auto saved = cplab::readSession(path.toStdString(), &notes, &readWhy);
    QVERIFY2(saved, readWhy.c_str());
    QVERIFY(saved->runs.size() == 1 && saved->runs[0].history);
    QCOMPARE(saved->runs[0].history->records.back().iteration, 3);
    // Discard closes without saving; a window without steps closes without a question.
    w = std::make_unique<MainWindow>();
    w->show();
    QVERIFY(w->loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(*w); }));
    asked.clear();
    QVERIFY(w->close());
    QTest::qWait(150);
    QVERIFY(asked.isEmpty());
    w = std::make_unique<MainWindow>();
    w->show();
    QVERIFY(w->loadDemo("kelley"));
    QVERIFY(waitFor([&] { return allReady(*w); }));
    w->stepAll(1);
    QVERIFY(waitFor([&] { return w->run(0)->iteration() == 1; }));
    answer(QMessageBox::Discard);
    QVERIFY(w->close());
    QVERIFY(!asked.isEmpty());
}

// Ctrl+Tab and Ctrl+PageDown turn the model view's pages from anywhere in the window (Shift
// or PageUp back); a demo's story beat that names a page shows it; the focus that the
// keyboard moves is ringed.
void TestMainWindow::pageKeysAndFocusRing() {
    MainWindow w;
    w.resize(1280, 720);
    w.show();
    w.setDelayMs(0);
    QVERIFY(w.loadDemo("ocr_race"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    QTabWidget* tabs = w.parts().centre->pages();
    QVERIFY(tabs && tabs->count() >= 2);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const int first = tabs->currentIndex();
    QTest::keyClick(&w, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), (first + 1) % tabs->count());
    QTest::keyClick(&w, Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), first);
    QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), (first + 1) % tabs->count());
    QTest::keyClick(&w, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(tabs->currentIndex(), first);
    // The ocr_race story's beat at iteration 8 sends the room to "Gap and errors".
    int gapPage = -1;
    for (int k = 0; k < tabs->count(); ++k)
        if (tabs->tabText(k).remove('&') == "Gap and errors") gapPage = k;
    QVERIFY(gapPage >= 0 && gapPage != first);
    w.stepAll(8);
    QVERIFY(waitFor(
        [&] {
            for (int k = 0; k < w.runCount(); ++k)
                if (w.run(k)->iteration() < 8 && !w.run(k)->status().finished()) return false;
            return true;
        },
        60000));
    QVERIFY(waitFor([&] { return tabs->currentIndex() == gapPage; }, 3000));
    // A beat that only uses a tab's title as a word ("the model ...") names no tab.
    QVERIFY(!w.parts().centre->showPageNamedIn("Watch the model sharpen as the gap closes."));
    QCOMPARE(tabs->currentIndex(), gapPage);
    QVERIFY(w.parts().centre->showPageNamedIn("Back to the Model tab."));
    QVERIFY(tabs->currentIndex() != gapPage);
    // Tab into the set-up panel: a ring around the focus; a click's focus has none.
    const auto* ring = w.findChild<cplab::widgets::FocusRing*>("focusRing");
    QVERIFY(ring && !ring->target());
    auto* combo = w.findChild<QComboBox*>("demoCombo");
    combo->setFocus(Qt::TabFocusReason);
    QVERIFY(waitFor([&] { return ring->target() == combo; }, 2000));
    const QRect around(ring->mapTo(&w, QPoint(0, 0)), ring->size());
    const QRect inside(combo->mapTo(&w, QPoint(0, 0)), combo->size());
    QVERIFY(around.contains(inside) && around.width() >= inside.width() + 4);
    combo->setFocus(Qt::MouseFocusReason);
    w.findChild<QPushButton*>("stepButton")->setFocus(Qt::MouseFocusReason);
    QVERIFY(waitFor([&] { return !ring->target(); }, 2000));
    // The kernel view also holds the MKL path's tabs, hidden for an SVM: the keys turn the
    // tabs on show (they turned the hidden ones).
    QVERIFY(w.loadDemo("svm_2d"));
    QVERIFY(waitFor([&] { return allReady(w); }));
    QTabWidget* kernelTabs = w.parts().centre->pages();
    QVERIFY(kernelTabs && kernelTabs->isVisible() && kernelTabs->count() >= 2);
    const int shown = kernelTabs->currentIndex();
    QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier);
    QVERIFY(kernelTabs->currentIndex() != shown);
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
