// SPDX-License-Identifier: GPL-3.0-or-later
// What cplab-cli prints (cli.h): a run's summary as JSON or text, its progress lines, and the
// catalogue of `list`. Private to the command line.
#pragma once

#include <QJsonObject>
#include <QString>
#include <ostream>
#include <string>

#include "core/solver.h"
#include "family.h"

namespace cplab {

// What a finished run reports.
struct RunResult {
    std::string solver;
    OptionValues options;
    Status status;
    IterationRecord last;
    SummaryFields fields;
};

QString q(const std::string& text);
// A number as JSON: null when it is not finite.
QJsonValue jsonNumber(double value);
// One JSON object, indented, and a newline.
void writeJson(std::ostream& out, const QJsonObject& object);
// "name: value" with the name padded.
void printLine(std::ostream& out, const std::string& name, const std::string& value);
// One progress line of a run on stderr.
void printProgress(std::ostream& err, const std::string& label, const IterationRecord& r);
// The summary of a run on `problem`, as JSON and as text.
QJsonObject summaryJson(const RunResult& run, const ProblemInstance& problem);
void writeSummaryText(std::ostream& out, const RunResult& run, const ProblemInstance& problem);
// The catalogue: problems, solvers with their options, demos.
void writeListJson(std::ostream& out);
void writeListText(std::ostream& out);

}  // namespace cplab
