// SPDX-License-Identifier: GPL-3.0-or-later
// What the CLI tests of typed problems share (test_typed_function_cli.cpp,
// test_typed_polygon_cli.cpp): a run whose JSON summary is read, a run refused with a message,
// and a session (docs/sessions.md) of a built-in typed problem written for `cplab-cli session`.
// Each returns what a QVERIFY2 checks, with the invocation and what it printed for its message.
#pragma once

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "cli_process.h"

namespace cplab::clitest {

// A run of cplab-cli and the JSON object it printed on stdout.
struct JsonRun {
    CliResult result;
    QJsonObject json;
    bool ok = false;  // exit status 0 and a JSON object on stdout
    QString what;     // the invocation and what it printed (describe)
};

inline JsonRun runJson(const QStringList& arguments) {
    JsonRun run;
    run.result = runCli(arguments);
    run.what = describe(arguments, run.result);
    if (run.result.exitCode == 0) run.json = parseObject(run.result.out, &run.ok);
    return run;
}

// Whether cplab-cli with `arguments` exits with `exitCode` and prints `message` (on stderr or
// stdout); *what: the invocation and what it printed.
inline bool refusedWith(const QStringList& arguments, int exitCode, const QString& message,
                        QString* what) {
    const CliResult r = runCli(arguments);
    *what = describe(arguments, r);
    return r.exitCode == exitCode && QString::fromUtf8(r.err + r.out).contains(message);
}

// Writes to `path` a session of the built-in problem `builtin` of `family` with the problem
// options `options` and the runs `runs` (objects of "solver" and "options"); false when the file
// cannot be written.
inline bool writeBuiltinSession(const QString& path, const QString& family, const QString& builtin,
                                const QJsonObject& options, const QJsonArray& runs) {
    const QJsonObject session{{"format", "cplab-session"},
                              {"version", 1},
                              {"family", family},
                              {"problem", QJsonObject{{"builtin", builtin}, {"options", options}}},
                              {"runs", runs}};
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(QJsonDocument(session).toJson()) > 0 &&
           file.flush();
}

}  // namespace cplab::clitest
