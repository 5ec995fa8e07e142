// SPDX-License-Identifier: GPL-3.0-or-later
// The typed problems in the set-up panel (issue 49): each family's view declares its own fields
// (widgets/common/typed_problem_controls.h: the nonsmooth family's function and domain, the
// polytope family's function and polygon), shown while its typed problem is chosen, filled
// with the registry's defaults, and loaded by "Use this function"; a bad polygon is a message
// in the log and leaves the problem as it was; the FW view draws the typed function's polygon
// and marks its minimiser as computed.
#include <qcustomplot.h>

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

#include "families/polytope.h"
#include "gui_wait.h"
#include "log_panel.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "polytope_plot.h"
#include "polytope_view.h"
#include "registry.h"
#include "run_controller.h"
#include "typed_problem_controls.h"

using cplab::MainWindow;
using cplab::testing::waitFor;
using cplab::widgets::TypedProblemControls;

namespace {

TypedProblemControls* controlsOf(MainWindow& w, const QString& problem) {
    return w.findChild<TypedProblemControls*>(problem + "Controls");
}

QLineEdit* field(TypedProblemControls* controls, const QString& name) {
    return controls->findChild<QLineEdit*>(name);
}

// Chooses `problem` in the panel's list as a user would (the list's activation).
void choose(MainWindow& w, const QString& problem) {
    auto* combo = w.findChild<QComboBox*>("problemCombo");
    const int index = combo->findData(problem);
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
    emit combo->activated(index);
}

}  // namespace

class TestTypedProblems : public QObject {
    Q_OBJECT
  private slots:
    void eachFamilyDeclaresItsFields() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.loadDemo("kelley"));
        auto* nonsmooth = controlsOf(w, "typed");
        auto* polytope = controlsOf(w, "typed_polygon");
        QVERIFY(nonsmooth && polytope);
        QVERIFY(field(nonsmooth, "typedFunctionEdit") && field(nonsmooth, "typedDomainEdit"));
        QVERIFY(!field(nonsmooth, "typedPolygonEdit"));
        QVERIFY(field(polytope, "typedFunctionEdit") && field(polytope, "typedPolygonEdit"));
        QVERIFY(!field(polytope, "typedDomainEdit"));
        // The registry's defaults.
        QCOMPARE(field(nonsmooth, "typedFunctionEdit")->text(), QString("max(x^2, 1 - x)"));
        QCOMPARE(field(polytope, "typedPolygonEdit")->text(), QString("0,0 4,0 3,3 0,2"));
        // A built-in problem shows neither.
        QVERIFY(!nonsmooth->findChild<QWidget*>("typedFunctionBox")->isVisible());
        QVERIFY(!polytope->isVisible());
    }

    void polygonTypedAndLoaded() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.setDelayMs(0);
        QVERIFY(w.loadDemo("kelley"));
        choose(w, "typed_polygon");  // loads it with the defaults
        const cplab::ProblemInstance* p = w.parts().controller->problem();
        QCOMPARE(p->info.name, std::string("typed_polygon"));
        auto* polytope = controlsOf(w, "typed_polygon");
        QVERIFY(waitFor([&] { return polytope->isVisible(); }));
        QVERIFY(polytope->findChild<QWidget*>("typedFunctionBox")->isVisible());
        QVERIFY(!controlsOf(w, "typed")->isVisible());

        // Typed: (x-1)^2 + (y-2)^2 over a square holding (1, 2), then "Use this function".
        field(polytope, "typedFunctionEdit")->setText("(x-1)^2 + (y-2)^2");
        field(polytope, "typedPolygonEdit")->setText("0,0 4,0 4,4 0,4");
        QTest::mouseClick(polytope->findChild<QPushButton*>("typedFunctionButton"), Qt::LeftButton);
        p = w.parts().controller->problem();
        QCOMPARE(p->origin.options.at("function"), std::string("(x-1)^2 + (y-2)^2"));
        QCOMPARE(p->origin.options.at("polygon"), std::string("0,0 4,0 4,4 0,4"));
        const auto* data = p->as<cplab::PolytopeData>();
        QVERIFY(data);
        QVERIFY((data->polytope->minimizer() - Eigen::Vector2d(1, 2)).norm() <= 1e-6);
        QVERIFY(!data->knownOptimum());  // computed, not known: no reference line

        // The run's view: the polygon's four sides and x* named as computed.
        w.stepAll(3);
        QVERIFY(waitFor([&] { return w.run(0)->iteration() == 3; }));
        auto* view = static_cast<cplab::widgets::PolytopeView*>(w.parts().centre->view("polytope"));
        QCustomPlot* plot = view->polygonPlot()->plot();
        QVERIFY(waitFor([&] {
            for (int k = 0; k < plot->plottableCount(); ++k)
                if (plot->plottable(k)->name() == "minimiser x* (computed)") return true;
            return false;
        }));

        // A bad polygon: a message naming the vertex, the problem stays.
        field(polytope, "typedPolygonEdit")->setText("0,0 4,0 1,1 0,4");
        QTest::keyClick(field(polytope, "typedPolygonEdit"), Qt::Key_Return);
        QCOMPARE(w.parts().controller->problem()->origin.options.at("polygon"),
                 std::string("0,0 4,0 4,4 0,4"));
        QVERIFY2(w.parts().log->toPlainText().contains("not convex at vertex 3"),
                 qPrintable(w.parts().log->toPlainText().right(300)));
    }

    void nonsmoothFieldStillLoads() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.loadDemo("frank_wolfe"));
        choose(w, "typed");
        auto* nonsmooth = controlsOf(w, "typed");
        field(nonsmooth, "typedFunctionEdit")->setText("abs(x) + abs(y)");
        field(nonsmooth, "typedDomainEdit")->setText("-2:2,-1:3");
        QTest::keyClick(field(nonsmooth, "typedDomainEdit"), Qt::Key_Return);
        const cplab::ProblemInstance* p = w.parts().controller->problem();
        QCOMPARE(p->info.name, std::string("typed"));
        QCOMPARE(p->info.dimension, 2);
        QCOMPARE(p->origin.options.at("domain"), std::string("-2:2,-1:3"));
        // The list's entry names the loaded function's dimension.
        auto* combo = w.findChild<QComboBox*>("problemCombo");
        QVERIFY2(combo->currentText().contains("2-D"), qPrintable(combo->currentText()));
        // A built-in problem of the family carries no typed options.
        choose(w, "abs_quad");
        QVERIFY(w.parts().controller->problem()->origin.options.empty());
        QVERIFY(!nonsmooth->findChild<QWidget*>("typedFunctionBox")->isVisible());
    }
};

QTEST_MAIN(TestTypedProblems)
#include "test_typed_problems.moc"
