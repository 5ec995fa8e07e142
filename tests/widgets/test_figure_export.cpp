// SPDX-License-Identifier: GPL-3.0-or-later
// Figures and data that leave the app (widgets/common/figure_export.h, race_tables.h): a plot as
// SVG (well-formed XML with the plot's paths and texts), a view's pages as one figure (every tab,
// under its title, the tabs left as they were), the race as CSV on a common x axis and as a
// pgfplots document whose \addplot tables hold exactly the records fed in (compiled where
// pdflatex or lualatex is installed), and a table widget as CSV.
#include <qcustomplot.h>

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>
#include <limits>

#include "family_view.h"
#include "figure_export.h"
#include "plot_style.h"
#include "race_tables.h"

namespace cw = cplab::widgets;
using cplab::IterationRecord;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

QByteArray bytesOf(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every element name and every text of an XML document; *error when it does not parse.
struct XmlContents {
    QStringList elements;
    QString text;
    QString error;
};
XmlContents readXml(const QByteArray& bytes) {
    XmlContents contents;
    QXmlStreamReader xml(bytes);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) contents.elements << xml.name().toString();
        if (xml.isCharacters()) contents.text += xml.text().toString() + ' ';
    }
    if (xml.hasError()) contents.error = xml.errorString();
    return contents;
}

QCustomPlot* labelledPlot(const QString& x, const QString& y) {
    auto* plot = new QCustomPlot;
    cw::applyPlotStyle(plot);
    plot->resize(400, 300);
    plot->addGraph()->setData({0, 1, 2, 3}, {3, 1, 2, 0.5});
    plot->xAxis->setLabel(x);
    plot->yAxis->setLabel(y);
    plot->rescaleAxes();
    plot->replot();
    return plot;
}

IterationRecord record(int iteration, double seconds, double upper, double lower) {
    IterationRecord r;
    r.iteration = iteration;
    r.seconds = seconds;
    r.upper = upper;
    r.lower = lower;
    r.gap = upper - lower;
    return r;
}

// Two runs: #1 at iterations 1..4 (an infinite upper bound first), #2 at 1..2 and a zero gap.
std::vector<cw::RaceSeries> twoRuns() {
    return {{"#1 kelley",
             QColor(0, 114, 178),
             {record(1, 0.5, kInf, -3), record(2, 1.0, 4, -1), record(3, 1.5, 2.5, 1),
              record(4, 2.0, 2, 1.5)}},
            {"#2 bundle (nu_rule=adaptive, 100% & more)",
             QColor(213, 94, 0),
             {record(1, 0.25, 5, 0), record(2, 1.0, 2, 2)}}};
}

// The \addplot tables of a pgfplots document: per plot its rows as (x, y).
QList<QList<QPair<double, double>>> addplotTables(const QString& tex) {
    QList<QList<QPair<double, double>>> tables;
    static const QRegularExpression plot("\\\\addplot\\[[^\\]]*\\] table \\{\\nx y\\n([^}]*)\\};");
    auto it = plot.globalMatch(tex);
    while (it.hasNext()) {
        QList<QPair<double, double>> rows;
        for (const QString& line : it.next().captured(1).split('\n', Qt::SkipEmptyParts)) {
            const QStringList xy = line.split(' ');
            rows.append({xy.value(0).toDouble(), xy.value(1).toDouble()});
        }
        tables.append(rows);
    }
    return tables;
}

// A view of three tabs (the second hidden) in the default page listing's eyes.
class TabbedView : public cw::FamilyView {
  public:
    TabbedView() {
        auto* layout = new QVBoxLayout(this);
        layout->addWidget(tabs);
        tabs->addTab(labelledPlot("alpha axis", "first values"), "First page");
        tabs->addTab(labelledPlot("hidden axis", "hidden values"), "Hidden page");
        tabs->addTab(labelledPlot("gamma axis", "third values"), "Third page");
        tabs->setTabVisible(1, false);
    }
    bool showFrame(const cw::ViewFrame&) override { return false; }
    void clear() override {}
    QCustomPlot* plot() const override { return static_cast<QCustomPlot*>(tabs->currentWidget()); }
    QTabWidget* tabs = new QTabWidget;
};

}  // namespace

class TestFigureExport : public QObject {
    Q_OBJECT
  private slots:
    void plotAsSvg() {
        std::unique_ptr<QCustomPlot> plot(labelledPlot("iteration count", "objective value"));
        QTemporaryDir dir;
        const QString path = dir.filePath("plot.svg");
        QString why;
        QVERIFY2(cw::exportPlot(plot.get(), path, &why), qPrintable(why));
        const XmlContents svg = readXml(bytesOf(path));
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        QCOMPARE(svg.elements.value(0), QString("svg"));
        QVERIFY(svg.elements.count("path") + svg.elements.count("polyline") >= 3);
        QVERIFY(!svg.elements.contains("image"));  // the plot is vectors, not a picture
        QVERIFY2(svg.text.contains("iteration count") && svg.text.contains("objective value"),
                 qPrintable(svg.text));
        QVERIFY(svg.text.contains("2.5"));  // a tick label
        // The size on screen, as the view box.
        QVERIFY(bytesOf(path).contains("viewBox=\"0 0 400 300\""));
        QVERIFY(!cw::exportPlot(plot.get(), dir.filePath("plot.jpg"), &why));
        QVERIFY2(why.contains("plot.jpg: unknown export format 'jpg' (use .png, .pdf or .svg)"),
                 qPrintable(why));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void wholeViewAsOneFigure() {
        TabbedView view;
        view.resize(500, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto pages = view.pages();
        QCOMPARE(int(pages.size()), 2);
        QCOMPARE(pages[0].title, QString("First page"));
        QCOMPARE(pages[1].title, QString("Third page"));
        QCOMPARE(pages[1].widget, view.tabs->widget(2));
        QTemporaryDir dir;
        QString why;
        const QString svgPath = dir.filePath("view.svg");
        QVERIFY2(cw::exportPages(pages, svgPath, &why), qPrintable(why));
        QCOMPARE(view.tabs->currentIndex(), 0);  // left as it was
        const XmlContents svg = readXml(bytesOf(svgPath));
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        for (const char* text : {"First page", "Third page", "alpha axis", "first values",
                                 "gamma axis", "third values"})
            QVERIFY2(svg.text.contains(text), text);
        QVERIFY(!svg.text.contains("hidden axis"));
        // PNG at twice the figure's size: two pages side by side, each under its title.
        const QString pngPath = dir.filePath("view.png");
        QVERIFY2(cw::exportPages(pages, pngPath, &why), qPrintable(why));
        const QSize pageSize = view.tabs->widget(0)->size();
        const QSize figure = cw::figureSize(2, pageSize);
        QCOMPARE(cw::figureColumns(2), 2);
        QVERIFY(figure.width() > 2 * pageSize.width() && figure.height() > pageSize.height());
        const QImage png(pngPath);
        QCOMPARE(png.size(), figure * 2);
        // The pages are drawn: the right half is not blank.
        QSet<QRgb> colours;
        for (int y = 0; y < png.height(); y += 4)
            for (int x = png.width() / 2; x < png.width(); x += 4)
                colours.insert(png.pixel(x, y));
        QVERIFY(colours.size() > 5);
        QVERIFY2(cw::exportPages(pages, dir.filePath("view.pdf"), &why), qPrintable(why));
        QVERIFY(bytesOf(dir.filePath("view.pdf")).startsWith("%PDF"));
        // One page without a title (a view without tabs): the page alone, no title line.
        const QString single = dir.filePath("single.png");
        QVERIFY2(cw::exportPages({{QString(), view.tabs->widget(0)}}, single, &why),
                 qPrintable(why));
        QCOMPARE(QImage(single).size(), pageSize * 2);
        QVERIFY(!cw::exportPages({}, dir.filePath("none.svg"), &why));
        QVERIFY2(why.contains("none.svg: the view has no pages"), qPrintable(why));
    }

    void raceAsCsv() {
        const std::string csv = cw::raceCsv(twoRuns(), {cw::XAxisKind::Iteration, "U", "L"});
        const QStringList lines = QString::fromStdString(csv).trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 4);
        QCOMPARE(lines[0], QString("iteration,#1 kelley upper,#1 kelley lower,#1 kelley gap,"
                                   "\"#2 bundle (nu_rule=adaptive, 100% & more) upper\","
                                   "\"#2 bundle (nu_rule=adaptive, 100% & more) lower\","
                                   "\"#2 bundle (nu_rule=adaptive, 100% & more) gap\""));
        QCOMPARE(lines[1], QString("1,,-3,,5,0,5"));  // an infinite bound: an empty cell
        QCOMPARE(lines[2], QString("2,4,-1,5,2,2,0"));
        QCOMPARE(lines[3], QString("3,2.5,1,1.5,,,"));  // run 2 has no iteration 3
        QCOMPARE(lines[4], QString("4,2,1.5,0.5,,,"));
        // On the seconds axis the runs' x values interleave; a shared one is one row.
        const QStringList timed =
            QString::fromStdString(cw::raceCsv(twoRuns(), {cw::XAxisKind::Seconds, "U", "L"}))
                .trimmed()
                .split('\n');
        QCOMPARE(timed.size(), 1 + 5);  // 0.25, 0.5, 1 (both), 1.5, 2
        QCOMPARE(timed[0].section(',', 0, 0), QString("solver seconds"));
        QCOMPARE(timed[1], QString("0.25,,,,5,0,5"));
        QCOMPARE(timed[3], QString("1,4,-1,5,2,2,0"));
    }

    void raceAsPgfplots() {
        const auto runs = twoRuns();
        const cw::RaceAxes axes{cw::XAxisKind::Iteration,
                                QString::fromUtf8("upper bound U (λ_max)"), "lower bound L"};
        const QString tex = QString::fromStdString(cw::racePgfplots(runs, axes));
        // Balanced environments, in order.
        QStringList open;
        static const QRegularExpression env("\\\\(begin|end)\\{(\\w+)\\}");
        for (auto it = env.globalMatch(tex); it.hasNext();) {
            const auto m = it.next();
            if (m.captured(1) == "begin") {
                open << m.captured(2);
            } else {
                QVERIFY2(!open.isEmpty() && open.takeLast() == m.captured(2), qPrintable(tex));
            }
        }
        QVERIFY(open.isEmpty());
        QVERIFY(tex.contains("\\documentclass[border=4pt]{standalone}"));
        QCOMPARE(tex.count("\\begin{axis}"), 2);
        QVERIFY(tex.contains("ymode=log"));
        // One plot per run and bound: upper, lower (above), gap (below) of each run.
        const auto tables = addplotTables(tex);
        QCOMPARE(tables.size(), 6);
        QCOMPARE(tex.count("\\addplot["), 6);
        const int order[6][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}, {1, 2}};
        for (int p = 0; p < 6; ++p) {
            const auto expected = cw::racePoints(runs[order[p][0]], axes.x, order[p][1]);
            QCOMPARE(tables[p].size(), int(expected.size()));
            for (int k = 0; k < tables[p].size(); ++k) {
                QCOMPARE(tables[p][k].first, expected[k].first);
                QCOMPARE(tables[p][k].second, expected[k].second);
            }
        }
        QCOMPARE(tables[0].size(), 3);  // run 1's infinite first upper bound left out
        QCOMPARE(tables[0][0].second, 4.0);
        QCOMPARE(tables[5][1].second, 1e-16);  // run 2's zero gap on the log axis's floor
        // The legend names the runs, TeX's specials escaped; the colours are the runs'.
        QVERIFY(tex.contains("\\addlegendentry{\\#1 kelley}"));
        QVERIFY2(
            tex.contains("\\addlegendentry{\\#2 bundle (nu\\_rule=adaptive, 100\\% \\& more)}"),
            qPrintable(tex));
        QVERIFY(tex.contains("upper bound U ($\\lambda$\\_max)"));
        QVERIFY(tex.contains("\\definecolor{run2}{RGB}{213,94,0}"));
        QCOMPARE(cw::texEscape(QString::fromUtf8("a\\b{c}~^ ≤ 中")),
                 std::string("a\\textbackslash{}b\\{c\\}\\~{}\\^{} $\\leq$ ?"));
    }

    // Where TeX is installed the document compiles to a PDF (skipped elsewhere: CI has none).
    void pgfplotsCompiles() {
        QString engine = QStandardPaths::findExecutable("pdflatex");
        if (engine.isEmpty()) engine = QStandardPaths::findExecutable("lualatex");
        if (engine.isEmpty()) QSKIP("neither pdflatex nor lualatex is installed");
        QTemporaryDir dir;
        QFile file(dir.filePath("race.tex"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(cw::racePgfplots(twoRuns(), {}).c_str());
        file.close();
        QProcess tex;
        tex.setWorkingDirectory(dir.path());
        tex.start(engine, {"-interaction=nonstopmode", "-halt-on-error", "race.tex"});
        QVERIFY(tex.waitForFinished(120000));
        QVERIFY2(tex.exitCode() == 0, tex.readAllStandardOutput().right(2000).constData());
        QVERIFY(bytesOf(dir.filePath("race.pdf")).startsWith("%PDF"));
    }

    void tableAsCsv() {
        QTableWidget table(2, 3);
        table.setHorizontalHeaderLabels({"run", "status", "gap"});
        table.setItem(0, 0, new QTableWidgetItem("#1 ocas (C=1, eps=0.1)"));
        table.setItem(0, 1, new QTableWidgetItem("say \"done\""));
        table.setItem(0, 2, new QTableWidgetItem("0.01"));
        table.setItem(1, 0, new QTableWidgetItem("#2 bmrm"));
        table.setColumnHidden(1, false);
        QCOMPARE(cw::tableCsv(table), std::string("run,status,gap\n"
                                                  "\"#1 ocas (C=1, eps=0.1)\",\"say \"\"done\"\"\","
                                                  "0.01\n#2 bmrm,,\n"));
        table.setColumnHidden(1, true);
        QCOMPARE(cw::tableCsv(table),
                 std::string("run,gap\n\"#1 ocas (C=1, eps=0.1)\",0.01\n#2 bmrm,\n"));
    }
};

QTEST_MAIN(TestFigureExport)
#include "test_figure_export.moc"
