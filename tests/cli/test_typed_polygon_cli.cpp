// SPDX-License-Identifier: GPL-3.0-or-later
// Frank–Wolfe on a typed function over a typed polygon through the real cplab-cli (issue 49):
// `run frank_wolfe --function F --polygon P` against closed-form minima, the same through
// --problem typed_polygon --problem-set, --polygon alone, the shorthands' refusals, and a
// session of a race on a typed polygon re-run by `cplab-cli session`.
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "typed_cli.h"

using namespace cplab::clitest;

class TestTypedPolygonCli : public QObject {
    Q_OBJECT
  private slots:
    // Away steps, so that an edge's minimiser is reached to 1e-6 (plain Frank-Wolfe zig-zags).
    void runs_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<double>("fStar");
        QTest::addColumn<double>("x1");
        QTest::addColumn<double>("x2");
        const QStringList away{"--set", "variant=away", "--json", "--quiet"};
        QTest::newRow("projection onto an edge")
            << (QStringList{"run", "frank_wolfe", "--function", "(x-1)^2 + (y-2)^2", "--polygon",
                            "2,0 4,0 4,4 2,4"} +
                away)
            << 1.0 << 2.0 << 2.0;
        QTest::newRow("linear: a vertex")
            << (QStringList{"run", "frank_wolfe", "--function", "-x - y", "--polygon",
                            "0,0 4,0 3,3 0,2"} +
                away)
            << -6.0 << 3.0 << 3.0;
        QTest::newRow("problem-set, clockwise")
            << (QStringList{"run", "frank_wolfe", "--problem", "typed_polygon", "--problem-set",
                            "function=exp(x) + y^2", "--problem-set",
                            "polygon=-1,-1 -1,2 2,2 2,-1"} +
                away)
            << std::exp(-1.0) << -1.0 << 0.0;
        // The default function (x - 4)^2 + 2 (y - 3)^2 over the polygon: on the edge from
        // (4, 0) to (3, 3), (4 - t, 3t) gives t^2 + 18 (t - 1)^2, least at t = 18/19: f* = 18/19
        // at (58/19, 54/19).
        QTest::newRow("polygon alone")
            << (QStringList{"run", "frank_wolfe", "--polygon", "0,0 4,0 3,3 0,2"} + away)
            << 18.0 / 19.0 << 58.0 / 19.0 << 54.0 / 19.0;
    }
    void runs() {
        QFETCH(QStringList, arguments);
        QFETCH(double, fStar);
        QFETCH(double, x1);
        QFETCH(double, x2);
        const JsonRun run = runJson(arguments);
        QVERIFY2(run.ok, qPrintable(run.what));
        const QJsonObject& json = run.json;
        QCOMPARE(json["problem"].toString(), QString("typed_polygon"));
        QVERIFY2(std::abs(json["upper"].toDouble() - fStar) <= 1e-6, qPrintable(run.what));
        QVERIFY(json["lower"].toDouble() <= fStar + 1e-9);
        QVERIFY(!json.contains("f_star"));  // computed, not known
        QVERIFY2(std::abs(json["f_star_computed"].toDouble() - fStar) <= 1e-9,
                 qPrintable(run.what));
        const QJsonArray x = json["x"].toArray();
        QVERIFY2(std::abs(x[0].toDouble() - x1) <= 1e-4 && std::abs(x[1].toDouble() - x2) <= 1e-4,
                 qPrintable(run.what));
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("domain to frank_wolfe")
            << QStringList{"run", "frank_wolfe", "--function", "x", "--domain", "-3:3"} << 1
            << "--domain is the box of kelley and bundle: frank_wolfe takes its polygon as "
               "--polygon";
        QTest::newRow("polygon to bundle")
            << QStringList{"run", "bundle", "--function", "x", "--polygon", "0,0 1,0 0,1"} << 1
            << "--polygon is Frank-Wolfe's: bundle takes a box, --domain";
        QTest::newRow("polygon to a linear solver")
            << QStringList{"run", "ocas", "--polygon", "0,0 1,0 0,1"} << 1
            << "--polygon: ocas takes no typed function";
        QTest::newRow("with a built-in")
            << QStringList{"run", "frank_wolfe", "--problem", "triangle_edge", "--function", "x"}
            << 1 << "--function types its own problem: give it without --problem triangle_edge";
        QTest::newRow("twice") << QStringList{"run",         "frank_wolfe", "--polygon",
                                              "0,0 1,0 0,1", "--polygon",   "0,0 1,0 0,1"}
                               << 1 << "--polygon given more than once";
        QTest::newRow("bad polygon")
            << QStringList{"run", "frank_wolfe", "--function", "x", "--polygon", "0,0 4,0 1,1 0,4"}
            << 1 << "polygon '0,0 4,0 1,1 0,4': not convex at vertex 3 (1,1, column 9)";
        QTest::newRow("not convex") << QStringList{"run", "frank_wolfe", "--function",
                                                   "x*y", "--polygon",   "-1,-1 1,-1 1,1 -1,1"}
                                    << 2 << "f is not convex: the plane from (x, y) = ";
    }
    void refusals() {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QString what;
        QVERIFY2(refusedWith(arguments, exitCode, message, &what), qPrintable(what));
    }

    // A session (docs/sessions.md) of the typed polygon carries the function and the polygon
    // as problem options: `cplab-cli session` re-runs its race of plain and away steps.
    void sessionCarriesThePolygon() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("typed_polygon.cplab");
        const QJsonObject options{{"function", "exp(x/2) + (y - 2.5)^2 - x"},
                                  {"polygon", "0,0 4,0 3,3 0,2"}};
        QVERIFY(writeBuiltinSession(
            path, "polytope", "typed_polygon", options,
            QJsonArray{QJsonObject{{"solver", "frank_wolfe"},
                                   {"options", QJsonObject{{"variant", "plain"}}}},
                       QJsonObject{{"solver", "frank_wolfe"},
                                   {"options", QJsonObject{{"variant", "away"}}}}}));
        const JsonRun session = runJson({"session", path, "--json", "--quiet"});
        QVERIFY2(session.ok, qPrintable(session.what));
        const QJsonObject& json = session.json;
        QCOMPARE(json["problem"].toString(), QString("typed_polygon"));
        const QJsonArray runs = json["runs"].toArray();
        QVERIFY2(runs.size() == 2, qPrintable(session.what));
        // Both bracket the computed minimum; away steps converge to it.
        const double fStar = json["f_star_computed"].isDouble()
                                 ? json["f_star_computed"].toDouble()
                                 : runs[1].toObject()["upper"].toDouble();
        QCOMPARE(runs[1].toObject()["status"].toString(), QString("converged"));
        for (const auto& run : runs) {
            QVERIFY(run.toObject()["lower"].toDouble() <= fStar + 1e-9);
            QVERIFY(run.toObject()["upper"].toDouble() >= fStar - 1e-9);
        }
        QVERIFY(std::abs(runs[1].toObject()["upper"].toDouble() - 0.6147019512116063) <= 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestTypedPolygonCli)
#include "test_typed_polygon_cli.moc"
