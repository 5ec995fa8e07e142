// SPDX-License-Identifier: GPL-3.0-or-later
// Walks every registered family (app/registry/families/family_list.h): each has problems, solvers
// and demos; every demo runs headless to its stop rule; and the family's view, offscreen, draws the
// snapshots of every one of its solvers (and refuses another family's).
#include <QImage>
#include <QSet>
#include <QtTest>

#include "coalesced_replot.h"
#include "core/solver.h"
#include "families/linear.h"
#include "family_view.h"
#include "family_views.h"
#include "registry.h"
#include "test_printers.h"

using namespace cplab;

namespace {

// Distinct colours of a grab (sampled): a blank widget has one or two.
int colourCount(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

}  // namespace

class TestFamilies : public QObject {
    Q_OBJECT

  private slots:
    void everyFamilyIsComplete_data() {
        QTest::addColumn<QString>("family");
        for (const Family* f : families())
            QTest::newRow(f->name().c_str()) << QString::fromStdString(f->name());
    }
    void everyFamilyIsComplete() {
        QFETCH(QString, family);
        const Family* f = findFamily(family.toStdString());
        QVERIFY(f);
        QVERIFY2(!f->problems().empty(), "no problem");
        QVERIFY2(!f->solvers().empty(), "no solver");
        QVERIFY2(!f->demos().empty(), "no demo");
        QVERIFY(!f->title().empty());
        for (const auto& p : f->problems()) {
            QCOMPARE(QString::fromStdString(p.family), family);
            QVERIFY(findProblem(p.name) && findProblem(p.name)->family == p.family);
            std::string why;
            QVERIFY2(makeProblem(p.name, &why), why.c_str());
        }
        for (const auto& s : f->solvers()) {
            QCOMPARE(QString::fromStdString(s.family), family);
            QVERIFY(!s.options.empty());
            std::string why;
            // Default options are valid.
            QVERIFY2(f->checkSolverOptions(s.name, {}, &why), why.c_str());
        }
        // The bounds have names; the gap is upper − lower whatever the sense.
        QVERIFY(!f->boundLabels().upper.empty() && !f->boundLabels().lower.empty());
    }

    // Names are unique across families: the CLI and the GUI find things by name alone.
    void namesAreUnique() {
        QSet<QString> problems, solvers, demos, familyNames;
        for (const auto& p : problemCatalog())
            problems.insert(QString::fromStdString(p.name));
        for (const auto& s : solverCatalog())
            solvers.insert(QString::fromStdString(s.name));
        for (const auto& d : demoCatalog())
            demos.insert(QString::fromStdString(d.name));
        for (const Family* f : families())
            familyNames.insert(QString::fromStdString(f->name()));
        QCOMPARE(problems.size(), static_cast<qsizetype>(problemCatalog().size()));
        QCOMPARE(solvers.size(), static_cast<qsizetype>(solverCatalog().size()));
        QCOMPARE(demos.size(), static_cast<qsizetype>(demoCatalog().size()));
        QCOMPARE(familyNames.size(), static_cast<qsizetype>(families().size()));
    }

    void everyDemoRunsToItsStopRule_data() {
        QTest::addColumn<QString>("demo");
        for (const auto& d : demoCatalog())
            QTest::newRow(d.name.c_str()) << QString::fromStdString(d.name);
    }
    void everyDemoRunsToItsStopRule() {
        QFETCH(QString, demo);
        const DemoInfo* d = findDemo(demo.toStdString());
        QVERIFY(d);
        QVERIFY(familyOfDemo(*d));
        std::string why;
        const auto problem = makeProblem(d->problem, &why);
        QVERIFY2(problem, why.c_str());
        QVERIFY(!d->runs.empty());
        for (const auto& run : d->runs) {
            auto solver = makeSolver(run.solver, *problem, run.options, &why);
            QVERIFY2(solver, why.c_str());
            const Status status = solve(*solver);
            QVERIFY2(status.finished() && status.usable(), status.message.c_str());
            // Stopped by one of its rules: converged within its tolerance, stalled, or its
            // iteration limit (a demo of a slow method shows just that).
            QVERIFY2(status.code == StatusCode::Converged || status.code == StatusCode::Stalled ||
                         status.code == StatusCode::IterationLimit,
                     (run.solver + ": " + status.message).c_str());
            const IterationRecord& last = solver->lastRecord();
            QVERIFY(last.gap >= 0);
            if (status.code == StatusCode::Converged && !solver->convergesByOwnRule())
                QVERIFY(last.gap <= solver->gapTolerance());
            if (status.code == StatusCode::IterationLimit)
                QCOMPARE(last.iteration, solver->stopOptions().max_iterations);
            QCOMPARE(static_cast<int>(solver->trace().size()), last.iteration);
        }
    }

    // One view per family, named after it, in the registry's order.
    void viewsFollowTheRegistry() {
        QWidget parent;
        const auto views = widgets::createFamilyViews(&parent);
        QCOMPARE(views.size(), families().size());
        for (std::size_t k = 0; k < views.size(); ++k) {
            QCOMPARE(QString::fromStdString(views[k].first),
                     QString::fromStdString(families()[k]->name()));
            QVERIFY(views[k].second);
            QVERIFY(views[k].second->plot());
        }
    }

    // Every solver of a family, a few steps on the family's first demo problem: its view
    // draws the snapshot (offscreen, not blank), and every other view refuses it.
    void viewsDrawEverySolversSnapshots_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("solver");
        for (const Family* f : families()) {
            for (const auto& s : f->solvers()) {
                QTest::newRow((f->name() + "/" + s.name).c_str())
                    << QString::fromStdString(f->name()) << QString::fromStdString(s.name);
            }
        }
    }
    void viewsDrawEverySolversSnapshots() {
        QFETCH(QString, family);
        QFETCH(QString, solver);
        const Family* f = findFamily(family.toStdString());
        std::string why;
        const auto problem = makeProblem(f->demos().front().problem, &why);
        QVERIFY2(problem, why.c_str());
        auto s = makeSolver(solver.toStdString(), *problem, {}, &why);
        QVERIFY2(s, why.c_str());
        for (int k = 0; k < 3 && !s->status().finished(); ++k)
            s->step();
        QVERIFY2(s->status().usable() || !s->status().finished(), s->status().message.c_str());

        QWidget window;
        window.resize(900, 600);
        const auto views = widgets::createFamilyViews(&window);
        widgets::ViewFrame frame;
        frame.runId = 1;
        frame.snapshot = s->snapshot();
        frame.records = s->trace();
        frame.columns = s->extraColumns();
        for (const auto& [name, view] : views) {
            view->resize(900, 600);
            const bool mine = name == family.toStdString();
            QCOMPARE(view->showFrame(frame), mine);
            if (!mine) continue;
            view->show();
            QCoreApplication::processEvents();
            widgets::replotPendingNow(view);  // what their 40 ms timers would draw
            const QImage image = view->grab().toImage();
            QVERIFY(!image.isNull());
            QVERIFY2(colourCount(image) > 20, qPrintable(QString::number(colourCount(image))));
            // Exports work for every family's view.
            QTemporaryDir dir;
            QVERIFY2(view->exportImage(dir.filePath("view.png"), nullptr), "export failed");
            QVERIFY(QImage(dir.filePath("view.png")).width() > 100);
            view->clear();
        }
    }

    // A solver that throws while it is built (OCAS takes its first plane in its constructor;
    // a feature of 1e155 makes that plane infinite) is refused with the message, and nothing
    // escapes: the data are built here, past the loaders' magnitude check.
    void solverThatThrowsWhileBuiltIsRefused() {
        auto data = std::make_shared<LinearData>();
        auto train = std::make_shared<Dataset>();
        train->name = "huge";
        train->dense = Dataset::DenseMatrix(3, 2);
        train->dense << 1e155, 1, 1, 1, 0, 3;
        train->labels = Eigen::Vector3d(1, -1, 1);
        data->linear.train = train;
        ProblemInstance problem{{"huge", "linear", "", "", 2}, data};
        std::string why;
        const auto solver = makeSolver("ocas", problem, {}, &why);
        QVERIFY(!solver);
        QVERIFY2(why.find("solver 'ocas' could not start on 'huge'") != std::string::npos &&
                     why.find("non-finite") != std::string::npos,
                 why.c_str());
    }
};

QTEST_MAIN(TestFamilies)
#include "test_families.moc"
