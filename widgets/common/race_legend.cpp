// SPDX-License-Identifier: GPL-3.0-or-later
#include "race_legend.h"

#include <QEvent>
#include <QResizeEvent>
#include <QStringList>
#include <algorithm>

#include "plot_style.h"

namespace cplab::widgets {

namespace {

struct SplitLabel {
    QString head;         // "#2 bcfw"
    QStringList options;  // "lambda=0.01", "averaging=true"
    bool split = false;   // of the form "#k solver (options)"
};

SplitLabel split(const QString& label) {
    SplitLabel s{label, {}, false};
    const qsizetype open = label.indexOf(" (");
    if (open < 0 || !label.endsWith(')')) return s;
    s.head = label.left(open);
    s.options = label.mid(open + 2, label.size() - open - 3).split(", ");
    s.split = true;
    return s;
}

// Wraps a plot's legends to its new width before the plot lays itself out for it.
class LegendWrapper final : public QObject {
  public:
    LegendWrapper(QCustomPlot* plot, std::vector<QCPLegend*> legends)
        : QObject(plot), legends_(std::move(legends)) {
        plot->installEventFilter(this);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize) {
            const int width = static_cast<QResizeEvent*>(event)->size().width();
            for (QCPLegend* legend : legends_)
                fitLegendWrap(legend, width);
        }
        return QObject::eventFilter(watched, event);
    }

  private:
    std::vector<QCPLegend*> legends_;
};

}  // namespace

void keepLegendsWrapped(QCustomPlot* plot, std::vector<QCPLegend*> legends) {
    new LegendWrapper(plot, std::move(legends));
}

std::vector<RaceEntry> raceOf(const ViewFrame& frame) {
    if (!frame.race.empty()) return frame.race;
    RaceEntry self;
    self.runId = frame.runId;
    self.label = QStringLiteral("#%1").arg(frame.runId);
    self.colour = runColor(frame.runId - 1);
    self.marker = frame.runId - 1;
    self.snapshot = frame.snapshot;
    self.records = frame.records;
    self.columns = frame.columns;
    return {self};
}

std::vector<QString> raceNames(const std::vector<RaceEntry>& race) {
    std::vector<SplitLabel> labels;
    for (const RaceEntry& entry : race)
        labels.push_back(split(entry.label));
    std::vector<QString> names;
    for (const SplitLabel& label : labels) {
        if (!label.split || labels.size() < 2) {
            names.push_back(label.split ? label.head + " (" + label.options.join(", ") + ")"
                                        : label.head);
            continue;
        }
        QStringList own;
        for (const QString& option : label.options) {
            const bool shared = std::all_of(labels.begin(), labels.end(), [&](const SplitLabel& l) {
                return l.options.contains(option);
            });
            if (!shared) own << option;
        }
        names.push_back(own.isEmpty() ? label.head : label.head + " (" + own.join(", ") + ")");
    }
    return names;
}

void fitLegendWrap(QCPLegend* legend, int width) {
    // The entries' widths (a wrapped grid has empty cells after its last entry).
    std::vector<int> widths;
    for (int i = 0; i < legend->elementCount(); ++i)
        if (QCPLayoutElement* item = legend->elementAt(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    const int n = static_cast<int>(widths.size());
    int wrap = std::max(n, 1);
    for (; wrap > 1; --wrap) {
        std::vector<int> columns(static_cast<std::size_t>(wrap), 0);
        for (int i = 0; i < n; ++i) {
            int& column = columns[static_cast<std::size_t>(i % wrap)];
            column = std::max(column, widths[static_cast<std::size_t>(i)]);
        }
        int total = legend->margins().left() + legend->margins().right() +
                    (wrap - 1) * legend->columnSpacing();
        for (int column : columns)
            total += column;
        if (total <= width) break;
    }
    if (wrap == legend->wrap()) return;
    legend->setWrap(wrap);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // the entries in the new lines
}

}  // namespace cplab::widgets
