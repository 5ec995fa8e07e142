// SPDX-License-Identifier: GPL-3.0-or-later
// Runs' names (app/gui/run_names.h): runs of the same solver are named by the options that tell
// them apart, first; in every demo's runs table, at the window's default size and at 1280x720,
// and in the bounds plot's legend, no two runs read the same once their numbers are taken
// away; names follow runs being added and removed.
#include <qcustomplot.h>

#include <QTableWidget>
#include <QtTest>
#include <set>

#include "bounds_plot.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "registry.h"
#include "run_controller.h"
#include "run_names.h"
#include "setup_panel.h"

using cplab::MainWindow;
using cplab::RunSpec;

namespace {

// "#12 bcfw (…)" without its number: what the reader compares.
QString withoutNumber(const QString& name) {
    return name.section(' ', 1);
}

QStringList tableNames(const MainWindow& w) {
    const auto* table = w.findChild<QTableWidget*>("runTable");
    QStringList names;
    for (int row = 0; row < table->rowCount(); ++row)
        names << table->item(row, cplab::kColRun)->text();
    return names;
}

// The runs' entries of the bounds plot's legend as it shows them.
QStringList legendNames(const MainWindow& w) {
    QCustomPlot* plot = w.parts().boundsPlot->plot();
    QStringList names;
    for (int k = 0; k < plot->graphCount(); ++k) {
        const QString name = plot->graph(k)->name();
        if (name.startsWith('#') && plot->graph(k)->data()->isEmpty()) names << name;
    }
    return names;
}

// The first pair of names that read the same without their numbers ("" when none).
QString sameNames(const QStringList& names) {
    std::set<QString> seen;
    for (const QString& name : names) {
        if (!seen.insert(withoutNumber(name)).second) return name;
    }
    return {};
}

}  // namespace

class TestRunNames : public QObject {
    Q_OBJECT
  private slots:
    void sameSolverIsToldApartByItsOptions() {
        // The frank_wolfe demo's two runs, as the issue saw them.
        const auto names = cplab::runNames({{1, "frank_wolfe", {{"variant", "plain"}}},
                                            {2, "frank_wolfe", {{"variant", "away"}}},
                                            {3, "kelley", {{"max_iterations", "7"}}}});
        QCOMPARE(names.size(), std::size_t(3));
        QCOMPARE(names[0].text(), QString("#1 frank_wolfe (variant=plain)"));
        QCOMPARE(names[1].text(), QString("#2 frank_wolfe (variant=away)"));
        // A solver alone in the race has nothing to tell apart: its options in their order.
        QCOMPARE(names[2].text(), QString("#3 kelley (max_iterations=7)"));
        QVERIFY(names[2].distinguishing.isEmpty());

        // An option one run leaves at its default differs too, named with the default; the
        // options both give alike come after those that differ.
        const cplab::SolverInfo* bcfw = cplab::findSolver("bcfw");
        QVERIFY(bcfw);
        std::string averagingDefault;
        for (const cplab::OptionInfo& o : bcfw->options)
            if (o.name == "averaging") averagingDefault = o.defaultValue;
        QCOMPARE(averagingDefault, std::string("false"));
        const auto bcfws = cplab::runNames(
            {{1, "bcfw", {{"lambda", "0.01"}, {"cache", "0"}}},
             {2, "bcfw", {{"lambda", "0.01"}, {"cache", "0"}, {"averaging", "true"}}}});
        QCOMPARE(bcfws[0].text(), QString("#1 bcfw (averaging=false, cache=0, lambda=0.01)"));
        QCOMPARE(bcfws[1].text(), QString("#2 bcfw (averaging=true, cache=0, lambda=0.01)"));
        QCOMPARE(bcfws[0].brief(), QString("#1 bcfw (averaging=false)"));
        QCOMPARE(bcfws[0].distinguishingValues, QStringList{"no averaging"});
        // The views' legends show a name's head: the values come before any " (".
        QCOMPARE(names[1].viewLegend(), QString("#2 frank_wolfe: away"));
        QCOMPARE(names[2].viewLegend(), names[2].text());

        // Fitted to a narrow column: the options alike go first, what differs stays.
        const QFontMetrics metrics(QFont("DejaVu Sans", 10));
        const auto fit = [&](const cplab::RunName& name, const QString& text) {
            return name.fitted(metrics, metrics.horizontalAdvance(text));
        };
        QCOMPARE(fit(bcfws[1], "#2 bcfw (averaging=true, cache=0, …)"),
                 QString("#2 bcfw (averaging=true, cache=0, …)"));
        QCOMPARE(fit(bcfws[1], "#2 bcfw (averaging=true, …)"),
                 QString("#2 bcfw (averaging=true, …)"));
        QCOMPARE(fit(bcfws[1], "#2 bcfw (averaging)"), QString("#2 bcfw (averaging)"));
        QCOMPARE(fit(bcfws[0], "#1 bcfw (no averaging)"), QString("#1 bcfw (no averaging)"));
        QCOMPARE(fit(names[2], "#3 kelley"), QString("#3 kelley"));
        // Narrower still: the solver's name is cut, not what tells the runs apart.
        const QString cut = names[1].fitted(metrics, metrics.horizontalAdvance("#2 frank… (away)"));
        QVERIFY2(cut.startsWith("#2 fra") && cut.endsWith(" (away)"), qPrintable(cut));
        QCOMPARE(bcfws[1].fitted(metrics, 10000), bcfws[1].text());
    }

    void everyDemosRunsReadApart() {
        for (const QSize size : {QSize(), QSize(1280, 720)}) {
            MainWindow w;
            if (size.isValid()) w.resize(size);
            w.show();
            for (const cplab::DemoInfo& demo : cplab::demoCatalog()) {
                QVERIFY2(w.loadDemo(QString::fromStdString(demo.name)), demo.name.c_str());
                QCOMPARE(w.runCount(), static_cast<int>(demo.runs.size()));
                cplab::testing::drawPending(w);
                const QStringList shown = tableNames(w);
                QVERIFY2(sameNames(shown).isEmpty(),
                         qPrintable(QString::fromStdString(demo.name) + ": " + shown.join(" | ")));
                // The legend as drawn (its entries elided to its column), on a projector's
                // screen (the default window of the offscreen 800x600 screen leaves the legend
                // its 90 px minimum).
                const QStringList legend = legendNames(w);
                QCOMPARE(legend.size(), w.runCount());
                QVERIFY2(!size.isValid() || sameNames(legend).isEmpty(),
                         qPrintable(QString::fromStdString(demo.name) + ": " + legend.join(" | ")));
                // The tooltip holds the whole name, as the controller gives it.
                const auto* table = w.findChild<QTableWidget*>("runTable");
                for (int k = 0; k < w.runCount(); ++k) {
                    const QString whole = w.parts().controller->runLabel(w.run(k)->id());
                    QVERIFY(table->item(k, cplab::kColRun)->toolTip().startsWith(whole + "\n"));
                    QCOMPARE(w.parts().boundsPlot->runLabel(w.run(k)->id()),
                             w.parts().controller->runLegend(w.run(k)->id()));
                }
            }
        }
    }

    void namesFollowAddedAndRemovedRuns() {
        MainWindow w;
        w.show();
        QVERIFY(w.loadDemo("kelley_2d"));
        cplab::RunController& c = *w.parts().controller;
        QCOMPARE(c.runCount(), 1);
        const int first = w.run(0)->id();
        QCOMPARE(c.runLabel(first), QString("#1 kelley"));
        QString why;
        QVERIFY2(w.addRun("kelley", {{"max_iterations", "7"}}, &why), qPrintable(why));
        const int second = w.run(1)->id();
        std::string limit;
        for (const cplab::OptionInfo& o : cplab::findSolver("kelley")->options)
            if (o.name == "max_iterations") limit = o.defaultValue;
        QCOMPARE(c.runLabel(first),
                 QString("#1 kelley (max_iterations=%1)").arg(QString::fromStdString(limit)));
        QCOMPARE(c.runLabel(second), QString("#2 kelley (max_iterations=7)"));
        // The first run's row and legend entry were renamed when the second came.
        QCOMPARE(w.parts().boundsPlot->runLabel(first),
                 QString("#1 kelley (%1)").arg(QString::fromStdString(limit)));
        QVERIFY(w.findChild<QTableWidget*>("runTable")
                    ->item(0, cplab::kColRun)
                    ->toolTip()
                    .startsWith(c.runLabel(first)));
        c.removeRun(second);
        QCOMPARE(c.runLabel(first), QString("#1 kelley"));
        QCOMPARE(w.parts().boundsPlot->runLabel(first), QString("#1 kelley"));
        QCOMPARE(tableNames(w), QStringList{"#1 kelley"});
    }

    // "added #1 bmrm" twice in the log (cplab --data F --solvers bmrm: the window's first run,
    // removed, then the one asked for): the removal is in the log between them.
    void removedRunsAreLogged() {
        MainWindow w;
        QVERIFY(w.loadDemo("ocas_vs_bmrm"));
        const cplab::RunController& c = *w.parts().controller;
        QCOMPARE(c.runCount(), 2);
        const QString removed =
            "removed " + c.runLabel(w.run(0)->id()) + "; " + c.runLabel(w.run(1)->id());
        QSignalSpy messages(w.parts().controller, &cplab::RunController::message);
        w.removeAllRuns();
        QString why;
        QVERIFY2(w.addRun("bmrm", {}, &why), qPrintable(why));
        QStringList lines;
        for (const QList<QVariant>& m : messages)
            lines << m.at(0).toString();
        QCOMPARE(lines, (QStringList{removed, "added #1 bmrm"}));
    }
};

QTEST_MAIN(TestRunNames)
#include "test_run_names.moc"
