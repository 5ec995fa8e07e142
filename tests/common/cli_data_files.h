// SPDX-License-Identifier: GPL-3.0-or-later
// What the black-box tests of `cplab-cli run` and `predict` on linear data and model files
// share (tests/cli/test_data_files.cpp, test_model_files.cpp, test_predict.cpp): fixture paths
// under tests/data, options that keep runs short, RUN_JSON and the READ_MODEL / READ_DATA
// checks through linear_model_reference.h's readers. Header-only.
#pragma once

#include <QDir>
#include <QString>
#include <QStringList>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "cli_process.h"
#include "linear_model_reference.h"

namespace cplab::clitest {

inline const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

inline QString dataPath(const QString& relative) {
    return kData + "/" + relative;
}

// Options that keep every run short (the runs still converge: tol_rel is a stop rule).
inline const QStringList kFast{"--quiet", "--set", "tol_rel=1e-2"};

inline bool closeTo(double a, double b, double relative, double absolute = 0.0) {
    return std::abs(a - b) <= absolute + relative * std::max(std::abs(a), std::abs(b));
}

inline QStringList setArguments(const QStringList& sets) {
    QStringList out;
    for (const QString& set : sets)
        out << "--set" << set;
    return out;
}

// Every entry of a fixture folder (files only), for checking that a table lists them all.
inline QStringList filesIn(const QString& folder) {
    return QDir(folder).entryList(QDir::Files, QDir::Name);
}

}  // namespace cplab::clitest

// Runs `run ... --json`, expecting exit 0 and a JSON object on stdout.
#define RUN_JSON(args, json)                                                        \
    do {                                                                            \
        const cplab::clitest::CliResult r_ = cplab::clitest::runCli(args);          \
        QVERIFY2(r_.exitCode == 0, qPrintable(cplab::clitest::describe(args, r_))); \
        bool ok_ = false;                                                           \
        json = cplab::clitest::parseObject(r_.out, &ok_);                           \
        QVERIFY2(ok_, qPrintable(cplab::clitest::describe(args, r_)));              \
    } while (false)

// Reads a model file / a data file with linear_model_reference.h's readers, failing the test
// if it cannot.
#define READ_MODEL(path, model)                                                     \
    do {                                                                            \
        QString why_;                                                               \
        QVERIFY2(cplab::clitest::readModel(path, &model, &why_), qPrintable(why_)); \
    } while (false)
#define READ_DATA(path, data)                                                     \
    do {                                                                          \
        QString why_;                                                             \
        QVERIFY2(cplab::clitest::readData(path, &data, &why_), qPrintable(why_)); \
    } while (false)
