// SPDX-License-Identifier: GPL-3.0-or-later
// A typed function through the real cplab-cli (issue 49): `run kelley|bundle --function F
// --domain D` in 1-D and 2-D against closed-form minima, the same through --problem typed
// --problem-set, and the messages of what cannot be read, evaluated or is not convex.
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "typed_cli.h"

using namespace cplab::clitest;

class TestTypedFunctionCli : public QObject {
    Q_OBJECT private slots :
        // The 1-D case: min over [-3, 3] of max(x^2, 1 - x) is (3 - sqrt 5)/2 at
        // (sqrt 5 - 1)/2. The 2-D case abs(x - 1) + max(y, -y/2) + (x + y)^2/4 is minimised at
        // (1, 0), f* = 1/4: there 0 = (a + 1/2, b + 1/2) with a = -1/2 in the subdifferential
        // [-1, 1] of abs and b = -1/2 in [-1/2, 1], that of the max (the square's gradient is
        // (1/2, 1/2)). Kelley's tail on the 2-D square is slow, so the 2-D runs stop at 1e-6.
        void
        runs_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<double>("fStar");
        QTest::addColumn<QList<double>>("xStar");
        const double f1 = (3 - std::sqrt(5.0)) / 2, x1 = (std::sqrt(5.0) - 1) / 2;
        for (const QString solver : {"kelley", "bundle"}) {
            QTest::addRow("%s 1-D", qPrintable(solver))
                << QStringList{"run",  solver,  "--function",   "max(x^2, 1 - x)", "--domain",
                               "-3:3", "--set", "epsilon=1e-8", "--json",          "--quiet"}
                << f1 << QList<double>{x1};
            QTest::addRow("%s 1-D problem-set", qPrintable(solver))
                << QStringList{"run",    solver,          "--problem",
                               "typed",  "--problem-set", "function=max(x^2, 1 - x)",
                               "--set",  "epsilon=1e-8",  "--json",
                               "--quiet"}
                << f1 << QList<double>{x1};
            QTest::addRow("%s 2-D", qPrintable(solver))
                << QStringList{"run",        solver,
                               "--function", "abs(x - 1) + max(y, -y/2) + (x + y)^2/4",
                               "--domain",   "-3:3,-3:3",
                               "--set",      "epsilon=1e-6",
                               "--json",     "--quiet"}
                << 0.25 << QList<double>{1.0, 0.0};
        }
    }
    void runs() {
        QFETCH(QStringList, arguments);
        QFETCH(double, fStar);
        QFETCH(QList<double>, xStar);
        const JsonRun run = runJson(arguments);
        QVERIFY2(run.ok, qPrintable(run.what));
        const QJsonObject& json = run.json;
        QCOMPARE(json["problem"].toString(), QString("typed"));
        QCOMPARE(json["status"].toString(), QString("converged"));
        QVERIFY2(std::abs(json["upper"].toDouble() - fStar) <= 2e-6, qPrintable(run.what));
        QVERIFY(json["lower"].toDouble() <= fStar + 1e-9);
        QVERIFY(!json.contains("f_star"));  // not known in advance: none is reported
        const QJsonArray x = json["x"].toArray();
        QCOMPARE(x.size(), xStar.size());
        for (qsizetype i = 0; i < x.size(); ++i)
            QVERIFY2(std::abs(x[i].toDouble() - xStar[i]) <= 1e-3, qPrintable(run.what));
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        auto run = [](const QString& f, const QString& d) {
            return QStringList{"run", "kelley", "--function", f, "--domain", d, "--quiet"};
        };
        QTest::newRow("unknown name")
            << run("x + z", "-3:3") << 1
            << "function 'x + z': unknown name 'z' at column 5 (the variables are x and y, the "
               "constants pi and e)";
        QTest::newRow("syntax") << run("2x", "-3:3") << 1
                                << "function '2x': syntax error at column 2: unexpected 'x'";
        QTest::newRow("domain") << run("x", "3:-3") << 1
                                << "domain '3:-3': needs lo < hi in '3:-3'";
        QTest::newRow("y in 1-D") << run("x + y", "-1:1") << 1
                                  << "function 'x + y': uses y, but the domain '-1:1' is 1-D "
                                     "(give two ranges: -3:3,-3:3)";
        QTest::newRow("with a built-in")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--function", "x^2"} << 1
            << "--function types its own problem: give it without --problem abs_quad";
        QTest::newRow("domain alone")
            << QStringList{"run", "kelley", "--domain", "-1:1"} << 1
            << "--domain needs --function F (a typed function of x and y)";
        // The start, the box's centre 1, is fine; Kelley's first LP goes to x = -1.
        QTest::newRow("log at a run's point")
            << run("log(x)", "-1:3") << 2
            << "log of a non-positive number: log(x) = log(-1) at x = -1";
        QTest::newRow("not convex")
            << run("-x^2", "-3:3") << 2 << "f is not convex: the plane from x = ";
    }
    void refusals() {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QString what;
        QVERIFY2(refusedWith(arguments, exitCode, message, &what), qPrintable(what));
    }

    // A session (docs/sessions.md) of the typed problem carries the function and domain as
    // problem options: `cplab-cli session` re-runs its race of Kelley and bundle on it.
    void sessionCarriesTheFunction() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("typed.cplab");
        const QJsonObject options{{"function", "max(x^2, 1 - x)"}, {"domain", "-3:3"}};
        const QJsonObject epsilon{{"epsilon", "1e-8"}};
        QVERIFY(writeBuiltinSession(
            path, "nonsmooth", "typed", options,
            QJsonArray{QJsonObject{{"solver", "kelley"}, {"options", epsilon}},
                       QJsonObject{{"solver", "bundle"}, {"options", epsilon}}}));
        const JsonRun session = runJson({"session", path, "--json", "--quiet"});
        QVERIFY2(session.ok, qPrintable(session.what));
        QCOMPARE(session.json["problem"].toString(), QString("typed"));
        const QJsonArray runs = session.json["runs"].toArray();
        QVERIFY2(runs.size() == 2, qPrintable(session.what));
        const double fStar = (3 - std::sqrt(5.0)) / 2;
        for (const auto& run : runs) {
            QVERIFY2(std::abs(run.toObject()["upper"].toDouble() - fStar) <= 1e-6,
                     qPrintable(session.what));
        }
    }
};

QTEST_GUILESS_MAIN(TestTypedFunctionCli)
#include "test_typed_function_cli.moc"
