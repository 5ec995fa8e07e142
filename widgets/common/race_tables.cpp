// SPDX-License-Identifier: GPL-3.0-or-later
// The race as CSV and pgfplots, and tables as CSV (race_tables.h).
#include "race_tables.h"

#include <QTableWidget>
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "core/number_text.h"

namespace cplab::widgets {

namespace {

// Gaps are drawn on a log axis; an exact zero sits on the floor (as in the bounds plot).
constexpr double kTableGapFloor = 1e-16;
constexpr const char* kBoundNames[3] = {"upper", "lower", "gap"};

double boundValue(const IterationRecord& record, int bound) {
    return bound == 0 ? record.upper : bound == 1 ? record.lower : record.gap;
}

std::string cell(double value) {
    return std::isfinite(value) ? formatReal(value) : std::string();
}

// The table of one series for \addplot table: "x y" then a row per point.
std::string pgfTable(const std::vector<std::pair<double, double>>& points) {
    std::string table = "x y\n";
    for (const auto& [x, y] : points)
        table += formatReal(x) + ' ' + formatReal(y) + '\n';
    return table;
}

// The axis environment's options shared by both panels.
std::string axisOptions(const RaceAxes& axes) {
    return "width=14cm, height=6cm, grid=major, grid style={gray!20}, xlabel={" +
           texEscape(axisLabel(axes.x)) + "}, scaled ticks=false";
}

// One panel: the bounds (upper solid, lower dashed) or the gap (log axis).
void writePanel(std::ostringstream& tex, const std::vector<RaceSeries>& runs, const RaceAxes& axes,
                bool gapPanel) {
    if (gapPanel) {
        tex << "\\begin{axis}[yshift=-7.5cm, " << axisOptions(axes) << ", ymode=log, ylabel={gap "
            << texEscape(boundNameHead(axes.upper)) << " $-$ "
            << texEscape(boundNameHead(axes.lower)) << "}]\n";
    } else {
        tex << "\\begin{axis}[" << axisOptions(axes)
            << ", ylabel={bounds}, title={solid: " << texEscape(axes.upper)
            << "; dashed: " << texEscape(axes.lower)
            << "}, legend cell align=left, legend style={at={(1.03,1)}, anchor=north west, "
               "font=\\small}]\n";
        for (std::size_t k = 0; k < runs.size(); ++k) {
            tex << "\\addlegendimage{run" << k + 1 << ", thick}\n\\addlegendentry{"
                << texEscape(runs[k].label) << "}\n";
        }
    }
    for (std::size_t k = 0; k < runs.size(); ++k) {
        for (int bound : gapPanel ? std::vector<int>{2} : std::vector<int>{0, 1}) {
            const auto points = racePoints(runs[k], axes.x, bound);
            if (points.empty()) continue;
            tex << "% " << kBoundNames[bound] << " of run " << k + 1 << "\n\\addplot[run" << k + 1
                << ", thick, " << (bound == 1 ? "dashed" : "solid")
                << ", mark=none, forget plot] table {\n"
                << pgfTable(points) << "};\n";
        }
    }
    tex << "\\end{axis}\n";
}

}  // namespace

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char ch : text)
        quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return quoted + '"';
}

std::string raceCsv(const std::vector<RaceSeries>& runs, const RaceAxes& axes) {
    std::string csv = csvField(axisLabel(axes.x).toStdString());
    for (const RaceSeries& run : runs) {
        for (const char* bound : kBoundNames)
            csv += ',' + csvField(run.label.toStdString() + ' ' + bound);
    }
    csv += '\n';
    // Per x value, per run: the run's last record there.
    std::map<double, std::vector<const IterationRecord*>> rows;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        for (const IterationRecord& record : runs[k].records) {
            const double x = axisKey(axes.x, record);
            if (!std::isfinite(x)) continue;
            auto& row = rows[x];
            row.resize(runs.size(), nullptr);
            row[k] = &record;
        }
    }
    for (const auto& [x, row] : rows) {
        csv += formatReal(x);
        for (const IterationRecord* record : row) {
            for (int bound = 0; bound < 3; ++bound)
                csv += ',' + (record ? cell(boundValue(*record, bound)) : std::string());
        }
        csv += '\n';
    }
    return csv;
}

std::vector<std::pair<double, double>> racePoints(const RaceSeries& run, XAxisKind x, int bound) {
    std::vector<std::pair<double, double>> points;
    for (const IterationRecord& record : run.records) {
        const double key = axisKey(x, record);
        double value = boundValue(record, bound);
        if (bound == 2 && value == 0) value = kTableGapFloor;
        if (std::isfinite(key) && std::isfinite(value) && !(bound == 2 && value < 0))
            points.emplace_back(key, value);
    }
    return points;
}

std::string racePgfplots(const std::vector<RaceSeries>& runs, const RaceAxes& axes) {
    std::ostringstream tex;
    tex << "% The bounds plot of cplab: " << runs.size() << " runs against "
        << axisLabel(axes.x).toStdString() << ". Compile with pdflatex or lualatex.\n"
        << "\\documentclass[border=4pt]{standalone}\n\\usepackage{pgfplots}\n"
        << "\\pgfplotsset{compat=1.16}\n";
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const QColor& c = runs[k].colour;
        tex << "\\definecolor{run" << k + 1 << "}{RGB}{" << c.red() << ',' << c.green() << ','
            << c.blue() << "}\n";
    }
    tex << "\\begin{document}\n\\begin{tikzpicture}\n";
    writePanel(tex, runs, axes, false);
    writePanel(tex, runs, axes, true);
    tex << "\\end{tikzpicture}\n\\end{document}\n";
    return tex.str();
}

std::string texEscape(const QString& text) {
    static const std::map<char32_t, std::string> symbols = {
        {U'α', "$\\alpha$"},   {U'β', "$\\beta$"},  {U'γ', "$\\gamma$"}, {U'δ', "$\\delta$"},
        {U'ε', "$\\epsilon$"}, {U'η', "$\\eta$"},   {U'θ', "$\\theta$"}, {U'λ', "$\\lambda$"},
        {U'μ', "$\\mu$"},      {U'ν', "$\\nu$"},    {U'ξ', "$\\xi$"},    {U'π', "$\\pi$"},
        {U'ρ', "$\\rho$"},     {U'σ', "$\\sigma$"}, {U'τ', "$\\tau$"},   {U'φ', "$\\phi$"},
        {U'ψ', "$\\psi$"},     {U'ω', "$\\omega$"}, {U'Δ', "$\\Delta$"}, {U'Ω', "$\\Omega$"},
        {U'≤', "$\\leq$"},     {U'≥', "$\\geq$"},   {U'−', "$-$"},       {U'·', "$\\cdot$"},
        {U'×', "$\\times$"},   {U'…', "\\ldots{}"}, {U'–', "--"},        {U'—', "---"},
        {U'‖', "$\\|$"},       {U'∞', "$\\infty$"}, {U'²', "$^2$"},      {U'₁', "$_1$"},
        {U'₂', "$_2$"},        {U'ℓ', "$\\ell$"},   {U'√', "$\\surd$"}};
    static const std::map<char32_t, std::string> specials = {{U'\\', "\\textbackslash{}"},
                                                             {U'{', "\\{"},
                                                             {U'}', "\\}"},
                                                             {U'$', "\\$"},
                                                             {U'&', "\\&"},
                                                             {U'#', "\\#"},
                                                             {U'%', "\\%"},
                                                             {U'_', "\\_"},
                                                             {U'^', "\\^{}"},
                                                             {U'~', "\\~{}"},
                                                             {U'<', "$<$"},
                                                             {U'>', "$>$"},
                                                             {U'|', "$|$"}};
    std::string out;
    for (char32_t c : text.toUcs4()) {
        if (const auto it = specials.find(c); it != specials.end()) {
            out += it->second;
        } else if (c >= 32 && c < 127) {
            out += static_cast<char>(c);
        } else if (const auto symbol = symbols.find(c); symbol != symbols.end()) {
            out += symbol->second;
        } else {
            out += c == U'\n' || c == U'\t' ? ' ' : '?';
        }
    }
    return out;
}

std::string tableCsv(const QTableWidget& table, const std::function<QString(int, int)>& fullText) {
    std::vector<int> columns;
    for (int c = 0; c < table.columnCount(); ++c) {
        if (!table.isColumnHidden(c)) columns.push_back(c);
    }
    std::string csv;
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const QTableWidgetItem* header = table.horizontalHeaderItem(columns[k]);
        csv += (k ? "," : "") + csvField(header ? header->text().toStdString() : std::string());
    }
    csv += '\n';
    for (int r = 0; r < table.rowCount(); ++r) {
        for (std::size_t k = 0; k < columns.size(); ++k) {
            const QTableWidgetItem* item = table.item(r, columns[k]);
            QString text = fullText ? fullText(r, columns[k]) : QString();
            if (text.isNull() && item) text = item->text();
            csv += (k ? "," : "") + csvField(text.toStdString());
        }
        csv += '\n';
    }
    return csv;
}

}  // namespace cplab::widgets
