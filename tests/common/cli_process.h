// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the real cplab-cli executable (CPLAB_CLI_PATH, defined for tests/cli targets) through
// QProcess and collects its exit status, stdout and stderr; helpers for failure messages and
// for reading its JSON output. Header-only, for black-box tests of the command line.
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace cplab::clitest {

struct CliResult {
    int exitCode = -1;  // -1: did not start, did not finish, or crashed
    QByteArray out;
    QByteArray err;
};

inline CliResult runCli(const QStringList& arguments, int timeoutMs = 60000) {
    QProcess process;
    process.start(QStringLiteral(CPLAB_CLI_PATH), arguments);
    CliResult result;
    if (!process.waitForStarted(10000)) {
        result.err = "cplab-cli did not start: " + process.errorString().toUtf8();
        return result;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = "cplab-cli did not finish";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// The invocation and what it printed, for QVERIFY2 messages.
inline QString describe(const QStringList& arguments, const CliResult& r) {
    return QString("cplab-cli %1 -> exit %2\nstdout: %3\nstderr: %4")
        .arg(arguments.join(' '))
        .arg(r.exitCode)
        .arg(QString::fromUtf8(r.out.left(2000)))
        .arg(QString::fromUtf8(r.err.left(2000)));
}

// The JSON object in `text`; *ok says whether it parsed and is an object.
inline QJsonObject parseObject(const QByteArray& text, bool* ok) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    *ok = error.error == QJsonParseError::NoError && doc.isObject();
    return doc.object();
}

}  // namespace cplab::clitest
