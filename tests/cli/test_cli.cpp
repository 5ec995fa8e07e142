// SPDX-License-Identifier: GPL-3.0-or-later
// The real cplab-cli executable, driven through QProcess (DESIGN.md, "Command line"): its
// listing, the JSON summary and exit status of runs and demos, traces that carry the very
// numbers an in-process run through the registry produces, and a message on stderr with exit
// status 1 for every kind of invalid input.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "cli.h"
#include "cli_process.h"
#include "core/trace_csv.h"
#include "nonsmooth/test_functions.h"
#include "polytope/polytope_problem.h"
#include "registry.h"
#include "test_printers.h"

using namespace cplab;

namespace {

using clitest::CliResult;
using clitest::describe;
using clitest::parseObject;
using clitest::runCli;

QJsonObject findByName(const QJsonArray& array, const QString& name) {
    for (const auto& item : array) {
        if (item.toObject().value("name").toString() == name) return item.toObject();
    }
    return {};
}

// Trace CSV as header + rows of numbers.
struct Csv {
    QStringList header;
    std::vector<std::vector<double>> rows;
};

bool readCsv(const QString& path, Csv* csv, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *why = path + ": cannot open";
        return false;
    }
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) {
        *why = path + ": empty";
        return false;
    }
    csv->header = lines.front().split(',');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(',');
        if (cells.size() != csv->header.size()) {
            *why = QString("line %1 has %2 cells, header %3")
                       .arg(i + 1)
                       .arg(cells.size())
                       .arg(csv->header.size());
            return false;
        }
        std::vector<double> row;
        for (const QString& cell : cells) {
            // formatReal writes inf/nan; strtod reads them back.
            const QByteArray bytes = cell.toUtf8();
            char* end = nullptr;
            row.push_back(std::strtod(bytes.constData(), &end));
            if (end != bytes.constData() + bytes.size()) {
                *why = QString("line %1: '%2' is not a number").arg(i + 1).arg(cell);
                return false;
            }
        }
        csv->rows.push_back(std::move(row));
    }
    return true;
}

bool sameNumber(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
  private slots:
    void listText() {
        const QStringList args{"list"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        for (const char* word : {"kelley", "bundle", "frank_wolfe", "abs_quad", "triangle_edge",
                                 "epsilon=1e-06", "step=line_search", "bundle_vs_kelley"}) {
            QVERIFY2(r.out.contains(word), word);
        }
    }

    void listJson() {
        const QStringList args{"list", "--json"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        bool ok = false;
        const QJsonObject root = parseObject(r.out, &ok);
        QVERIFY2(ok, r.out.constData());

        // Problems: every built-in function and polygon, with its family, and nothing the
        // catalogue does not hold.
        const QJsonArray problems = root.value("problems").toArray();
        for (const auto& name : testFunctionNames()) {
            const QJsonObject p = findByName(problems, QString::fromStdString(name));
            QVERIFY2(!p.isEmpty(), name.c_str());
            QCOMPARE(p.value("family").toString(), QString("nonsmooth"));
        }
        for (const auto& name : polytopeProblemNames()) {
            const QJsonObject p = findByName(problems, QString::fromStdString(name));
            QVERIFY2(!p.isEmpty(), name.c_str());
            QCOMPARE(p.value("family").toString(), QString("polytope"));
            QCOMPARE(p.value("dimension").toInt(), 2);
        }
        QCOMPARE(problems.size(), static_cast<qsizetype>(problemCatalog().size()));
        for (const auto& p : problems)
            QVERIFY(findProblem(p.toObject().value("name").toString().toStdString()));

        // Solvers with their options and defaults: a few facts known independently of the
        // registry, then every option as the registry describes it.
        const QJsonArray solvers = root.value("solvers").toArray();
        const std::map<std::string, std::map<std::string, std::string>> known = {
            {"kelley", {{"epsilon", "1e-06"}, {"max_iterations", "1000"}, {"tol_rel", "0"}}},
            {"bundle", {{"epsilon", "1e-06"}, {"nu", "1"}, {"nu_rule", "adaptive"}}},
            {"frank_wolfe", {{"epsilon", "1e-06"}, {"step", "line_search"}, {"variant", "plain"}}},
        };
        for (const auto& [solver, defaults] : known) {
            const QJsonObject s = findByName(solvers, QString::fromStdString(solver));
            QVERIFY2(!s.isEmpty(), solver.c_str());
            const QJsonArray options = s.value("options").toArray();
            for (const auto& [option, value] : defaults) {
                const QJsonObject o = findByName(options, QString::fromStdString(option));
                QVERIFY2(!o.isEmpty(), (solver + "." + option).c_str());
                QCOMPARE(o.value("default").toString(), QString::fromStdString(value));
                QVERIFY(!o.value("help").toString().isEmpty());
            }
            const SolverInfo* info = findSolver(solver);
            QVERIFY(info);
            QCOMPARE(s.value("family").toString(), QString::fromStdString(info->family));
            QCOMPARE(options.size(), static_cast<qsizetype>(info->options.size()));
            for (const auto& option : info->options) {
                const QJsonObject o = findByName(options, QString::fromStdString(option.name));
                QCOMPARE(o.value("default").toString(),
                         QString::fromStdString(option.defaultValue));
                QCOMPARE(o.value("type").toString(), QString(toString(option.kind)));
                QCOMPARE(o.value("choices").toArray().size(),
                         static_cast<qsizetype>(option.choices.size()));
            }
        }
        const QJsonObject fw = findByName(solvers, "frank_wolfe");
        QCOMPARE(findByName(fw.value("options").toArray(), "variant").value("choices").toArray(),
                 QJsonArray({"plain", "away"}));

        // Demos, each naming a known problem and known solvers.
        const QJsonArray demos = root.value("demos").toArray();
        for (const char* name : {"kelley", "bundle_vs_kelley", "frank_wolfe"})
            QVERIFY2(!findByName(demos, name).isEmpty(), name);
        QCOMPARE(demos.size(), static_cast<qsizetype>(demoCatalog().size()));
        for (const auto& d : demos) {
            QVERIFY(!findByName(problems, d.toObject().value("problem").toString()).isEmpty());
            for (const auto& s : d.toObject().value("solvers").toArray())
                QVERIFY(!findByName(solvers, s.toString()).isEmpty());
        }
    }

    // f(x) = |x − 1| + x²/2 has f* = 0.5 at x* = 1.
    void runKelleyJson() {
        const QStringList args{"run", "kelley", "--problem", "abs_quad", "--json"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, r.out.constData());
        for (const char* field : {"solver", "status", "message", "iterations", "seconds", "upper",
                                  "lower", "gap", "rel_gap"}) {
            QVERIFY2(json.contains(field), field);
        }
        QCOMPARE(json.value("solver").toString(), QString("kelley"));
        QCOMPARE(json.value("status").toString(), QString("converged"));
        QVERIFY(!json.value("message").toString().isEmpty());
        QVERIFY(json.value("iterations").toInt() > 0);
        QVERIFY(json.value("seconds").toDouble() >= 0.0);
        const double upper = json.value("upper").toDouble();
        const double lower = json.value("lower").toDouble();
        QVERIFY(upper - lower <= 1e-6);
        QVERIFY(lower <= 0.5 + 1e-12 && 0.5 <= upper + 1e-12);
        QCOMPARE(json.value("gap").toDouble(), upper - lower);
        QCOMPARE(json.value("rel_gap").toDouble(),
                 (upper - lower) / std::max(1.0, std::abs(upper)));
        // Progress goes to stderr (DESIGN.md), the summary alone to stdout.
        QVERIFY(r.err.contains("iter"));
    }

    void quietSilencesProgress() {
        const QStringList args{"run", "bundle", "--problem", "cb3", "--quiet"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QVERIFY(r.out.contains("converged"));
    }

    // The trace written by the CLI holds the very numbers of an in-process run through the
    // registry (all but the seconds), and its last row matches the JSON summary.
    void traceMatchesInProcessRun_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("kelley/abs_quad") << "kelley"
                                         << "abs_quad" << QStringList{};
        QTest::newRow("kelley/cb3") << "kelley"
                                    << "cb3" << QStringList{"epsilon=1e-4"};
        QTest::newRow("bundle/zigzag")
            << "bundle"
            << "zigzag_quadratic" << QStringList{"nu_rule=fixed", "nu=0.5"};
        QTest::newRow("frank_wolfe/away")
            << "frank_wolfe"
            << "square_interior" << QStringList{"variant=away", "epsilon=1e-9"};
        QTest::newRow("frank_wolfe/standard")
            << "frank_wolfe"
            << "triangle_edge" << QStringList{"step=standard", "max_iterations=50"};
    }
    void traceMatchesInProcessRun() {
        QFETCH(QString, solver);
        QFETCH(QString, problem);
        QFETCH(QStringList, sets);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString tracePath = dir.filePath("trace.csv");
        QStringList args{"run",     solver,    "--problem", problem,
                         "--trace", tracePath, "--json",    "--quiet"};
        OptionValues options;
        for (const QString& set : sets) {
            args << "--set" << set;
            const auto eq = set.indexOf('=');
            options[set.left(eq).toStdString()] = set.mid(eq + 1).toStdString();
        }
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));

        std::string why;
        const auto instance = makeProblem(problem.toStdString(), &why);
        QVERIFY2(instance, why.c_str());
        auto s = makeSolver(solver.toStdString(), *instance, options, &why);
        QVERIFY2(s, why.c_str());
        solve(*s);
        QVERIFY(s->status().usable());

        Csv csv;
        QString csvWhy;
        QVERIFY2(readCsv(tracePath, &csv, &csvWhy), qPrintable(csvWhy));
        QStringList expectedHeader{"iteration", "seconds", "oracle_calls", "upper",
                                   "lower",     "gap",     "rel_gap"};
        for (const auto& column : s->extraColumns())
            expectedHeader << QString::fromStdString(column);
        QCOMPARE(csv.header, expectedHeader);
        QCOMPARE(csv.rows.size(), s->trace().size());
        for (std::size_t i = 0; i < csv.rows.size(); ++i) {
            const IterationRecord& rec = s->trace()[i];
            std::vector<double> expected = {static_cast<double>(rec.iteration),
                                            rec.seconds,
                                            static_cast<double>(rec.oracleCalls),
                                            rec.upper,
                                            rec.lower,
                                            rec.gap,
                                            rec.relGap()};
            expected.insert(expected.end(), rec.extra.begin(), rec.extra.end());
            QCOMPARE(csv.rows[i].size(), expected.size());
            QCOMPARE(csv.rows[i][0], static_cast<double>(i + 1));  // one row per iteration
            QVERIFY(csv.rows[i][1] >= 0.0);
            for (std::size_t c = 0; c < expected.size(); ++c) {
                if (c == 1) continue;  // seconds differ between runs
                QVERIFY2(sameNumber(csv.rows[i][c], expected[c]),
                         qPrintable(QString("row %1, %2: cli %3, in-process %4")
                                        .arg(i + 1)
                                        .arg(expectedHeader[static_cast<qsizetype>(c)])
                                        .arg(csv.rows[i][c], 0, 'g', 17)
                                        .arg(expected[c], 0, 'g', 17)));
            }
        }

        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, r.out.constData());
        QCOMPARE(json.value("status").toString(), QString(statusName(s->status().code)));
        QCOMPARE(json.value("iterations").toInt(), s->iteration());
        QCOMPARE(json.value("upper").toDouble(), s->lastRecord().upper);
        QCOMPARE(json.value("lower").toDouble(), s->lastRecord().lower);
        QCOMPARE(json.value("upper").toDouble(), csv.rows.back()[3]);
        // The known optimum lies between the bounds.
        const double fStar = json.value("f_star").toDouble();
        QVERIFY(json.value("lower").toDouble() <= fStar + 1e-12);
        QVERIFY(fStar <= json.value("upper").toDouble() + 1e-12);
    }

    void iterationLimitIsAnOrdinaryEnd() {
        const QStringList args{"run",   "kelley",           "--problem", "zigzag_quadratic",
                               "--set", "max_iterations=3", "--json",    "--quiet"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, r.out.constData());
        QCOMPARE(json.value("status").toString(), QString(statusName(StatusCode::IterationLimit)));
        QCOMPARE(json.value("status").toString(), QString("iteration_limit"));
        QCOMPARE(json.value("iterations").toInt(), 3);
        QVERIFY(json.value("gap").toDouble() > 1e-6);
        QVERIFY(json.value("message").toString().contains("max_iterations = 3"));
    }

    void invalidInputsExitWithOne_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown solver")
            << QStringList{"run", "nosuch", "--problem", "abs_quad"} << "unknown solver 'nosuch'";
        QTest::newRow("unknown problem")
            << QStringList{"run", "kelley", "--problem", "nosuch"} << "unknown problem 'nosuch'";
        QTest::newRow("unknown option")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--set", "foo=1"}
            << "unknown option 'foo'";
        QTest::newRow("option of another solver")  // the catalogue checks the start
            << QStringList{"run", "dcd", "--problem", "heart_scale", "--set", "theta=0.1"}
            << "known: epsilon, tol_rel, max_iterations, max_seconds, lambda, C, risk, bias, tube, "
               "threads, shrinking, seed ('theta' is an option of ocas)";
        QTest::newRow("unparsable option")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--set", "epsilon=abc"}
            << "option 'epsilon' = 'abc': expected a real number";
        QTest::newRow("unparsable integer")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--set", "max_iterations=1.5"}
            << "option 'max_iterations' = '1.5': expected an integer";
        QTest::newRow("out of range")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--set", "epsilon=-1"}
            << "KelleyOptions::epsilon = -1: must be a finite number >= 0";
        QTest::newRow("bundle nu nan")
            << QStringList{"run", "bundle", "--problem", "abs_quad", "--set", "nu=nan"}
            << "BundleOptions::nu = nan";
        QTest::newRow("away with standard")
            << QStringList{"run",   "frank_wolfe",  "--problem", "triangle_edge",
                           "--set", "variant=away", "--set",     "step=standard"}
            << "FrankWolfeOptions::variant = 'away'";
        QTest::newRow("bad choice")
            << QStringList{"run", "frank_wolfe", "--problem", "triangle_edge", "--set", "step=big"}
            << "option 'step' = 'big': expected one of: standard, line_search";
        QTest::newRow("wrong family") << QStringList{"run", "frank_wolfe", "--problem", "abs_quad"}
                                      << "solver 'frank_wolfe' works on polytope problems";
        QTest::newRow("wrong family, reversed")
            << QStringList{"run", "kelley", "--problem", "triangle_edge"}
            << "solver 'kelley' works on nonsmooth problems";
        QTest::newRow("missing problem") << QStringList{"run", "kelley"} << "missing --problem";
        QTest::newRow("missing solver") << QStringList{"run"} << "missing SOLVER";
        QTest::newRow("data for kelley")
            << QStringList{"run", "kelley", "--data", "x.libsvm"} << "not data files";
        QTest::newRow("data for frank_wolfe")
            << QStringList{"run", "frank_wolfe", "--problem", "triangle_edge", "--data", "x.csv"}
            << "not data files";
        QTest::newRow("set without value")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--set", "epsilon"}
            << "--set expects key=value";
        QTest::newRow("unknown flag") << QStringList{"run", "kelley", "--problem", "abs_quad", "-x"}
                                      << "unknown argument '-x'";
        QTest::newRow("unknown demo") << QStringList{"demo", "nosuch"} << "unknown demo 'nosuch'";
        QTest::newRow("unknown command") << QStringList{"frob"} << "unknown command 'frob'";
        QTest::newRow("no arguments") << QStringList{} << "usage:";
        QTest::newRow("empty test split")
            << QStringList{"run",
                           "ocas",
                           "--data",
                           QString(CPLAB_TEST_DATA_DIR) + "/heart_scale",
                           "--test-fraction",
                           "0.001"}
            << "test fraction 0.001 of the 270 examples of 'heart_scale' leaves no test example";
    }
    void invalidInputsExitWithOne() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(message), qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
    }

    // A trace that cannot be written is an error of the invocation, named by its path.
    void unwritableTraceExitsWithOne() {
        QTemporaryDir dir;
        const QString path = dir.filePath("no/such/dir/trace.csv");
        const QStringList args{"run",     "kelley", "--problem", "abs_quad",
                               "--trace", path,     "--quiet"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(path), qPrintable(describe(args, r)));
    }

    void demoJson_data() {
        QTest::addColumn<QString>("demo");
        QTest::addColumn<int>("runs");
        QTest::newRow("kelley") << "kelley" << 1;
        QTest::newRow("frank_wolfe") << "frank_wolfe" << 2;
        QTest::newRow("bundle_vs_kelley") << "bundle_vs_kelley" << 2;
    }
    void demoJson() {
        QFETCH(QString, demo);
        QFETCH(int, runs);
        const QStringList args{"demo", demo, "--json", "--quiet"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, r.out.constData());
        QCOMPARE(json.value("demo").toString(), demo);
        const DemoInfo* info = findDemo(demo.toStdString());
        QVERIFY(info);
        QCOMPARE(json.value("problem").toString(), QString::fromStdString(info->problem));
        const QJsonArray array = json.value("runs").toArray();
        QCOMPARE(array.size(), runs);
        for (qsizetype k = 0; k < array.size(); ++k) {
            const QJsonObject run = array[k].toObject();
            QCOMPARE(run.value("solver").toString(),
                     QString::fromStdString(info->runs[static_cast<std::size_t>(k)].solver));
            QVERIFY(run.value("status").toString() == "converged" ||
                    run.value("status").toString() == "iteration_limit");
            const double fStar = run.value("f_star").toDouble();
            QVERIFY(run.value("lower").toDouble() <= fStar + 1e-12);
            QVERIFY(fStar <= run.value("upper").toDouble() + 1e-12);
        }
    }

    // Exit statuses of the contract: stalled is an ordinary end (0) with its message.
    void exitStatusOfEveryEnd() {
        QCOMPARE(exitStatusFor(Status::make(StatusCode::Converged, "")), 0);
        QCOMPARE(exitStatusFor(Status::make(StatusCode::Stalled, "no violated cycle left")), 0);
        QCOMPARE(exitStatusFor(Status::make(StatusCode::IterationLimit, "")), 0);
        QCOMPARE(exitStatusFor(Status::make(StatusCode::TimeLimit, "")), 0);
        QCOMPARE(exitStatusFor(Status::make(StatusCode::Cancelled, "")), 0);
        QCOMPARE(exitStatusFor(Status::make(StatusCode::InvalidInput, "")), 1);
        QCOMPARE(exitStatusFor(Status::make(StatusCode::NumericalFailure, "")), 2);
    }

    // Summary values become JSON numbers, integers, texts, arrays and objects.
    void summaryValuesAsJson() {
        QCOMPARE(toJson(SummaryValue(0.25)), QJsonValue(0.25));
        QVERIFY(toJson(SummaryValue(std::numeric_limits<double>::infinity())).isNull());
        const QJsonValue big = toJson(SummaryValue(9007199254740993LL));
        QCOMPARE(big.toInteger(), qint64(9007199254740993LL));  // exact beyond 2^53
        QCOMPARE(toJson(SummaryValue(std::string("hinge"))), QJsonValue("hinge"));
        const QJsonArray array = toJson(SummaryValue(std::vector<double>{1.0, 2.5})).toArray();
        QCOMPARE(array.size(), 2);
        QCOMPARE(array[1].toDouble(), 2.5);
        const QJsonObject weights =
            toJson(SummaryValue(NamedValues{{"gaussian:1", 0.75}, {"linear", 0.25}})).toObject();
        QCOMPARE(weights.size(), 2);
        QCOMPARE(weights.value("gaussian:1").toDouble(), 0.75);
        QCOMPARE(weights.value("linear").toDouble(), 0.25);
        // And in a run's summary: the sense and the family's names of the bounds.
        const QStringList args{"run", "kelley", "--problem", "abs_quad", "--json", "--quiet"};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY(ok);
        QCOMPARE(json.value("sense").toString(), QString("minimize"));
        const BoundLabels labels = findFamily("nonsmooth")->boundLabels();
        QCOMPARE(json.value("bounds").toObject().value("upper").toString(),
                 QString::fromStdString(labels.upper));
        QCOMPARE(json.value("bounds").toObject().value("lower").toString(),
                 QString::fromStdString(labels.lower));
        QCOMPARE(json.value("passes").toDouble(), json.value("oracle_calls").toDouble());
        QVERIFY(json.value("planes").isDouble());
    }

    // A CSV file without the .csv name is recognised by its content: bupa.data and its byte
    // copy cli/bupa.csv give the same run.
    void csvIsSniffedByContent() {
        auto runOn = [](const QString& file) {
            const QStringList args{"run",    "ocas",
                                   "--data", QString(CPLAB_TEST_DATA_DIR) + "/" + file,
                                   "--json", "--quiet"};
            const CliResult r = runCli(args);
            bool ok = false;
            QJsonObject json = parseObject(r.out, &ok);
            if (r.exitCode != 0 || !ok) json.insert("error", describe(args, r));
            return json;
        };
        const QJsonObject sniffed = runOn("bupa.data");
        const QJsonObject named = runOn("cli/bupa.csv");
        QVERIFY2(!sniffed.contains("error"), qPrintable(sniffed.value("error").toString()));
        QVERIFY2(!named.contains("error"), qPrintable(named.value("error").toString()));
        QCOMPARE(sniffed.value("iterations").toInt(), named.value("iterations").toInt());
        QCOMPARE(sniffed.value("upper").toDouble(), named.value("upper").toDouble());
        QCOMPARE(sniffed.value("train_error").toDouble(), named.value("train_error").toDouble());
    }

    void helpExitsWithZero() {
        const CliResult r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("usage:"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
