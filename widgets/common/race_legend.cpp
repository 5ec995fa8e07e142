// SPDX-License-Identifier: GPL-3.0-or-later
#include "race_legend.h"

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

}  // namespace

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

}  // namespace cplab::widgets
