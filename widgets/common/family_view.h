// SPDX-License-Identifier: GPL-3.0-or-later
// The interface every family's view implements (widgets/<family>_view.{h,cpp}). The main
// window holds one view per registered family, shows the one of the current problem, and
// hands it frames: a snapshot of the selected run and that run's records up to it (the newest
// while live, an earlier iteration while the timeline is scrubbed back). A view only draws
// what it is handed; it holds no solver and does no solver maths.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <span>
#include <string>
#include <vector>

#include "core/iteration_record.h"
#include "core/options.h"
#include "core/snapshot.h"
#include "figure_export.h"

class QCustomPlot;

namespace cplab::widgets {

// One run of a race as a view may draw it beside the selected one.
struct RaceEntry {
    int runId = 0;
    QString label;         // "#2 bundle (nu_rule=adaptive)"
    QColor colour;         // the run's colour in the bounds plot and the runs table
    int marker = 0;        // the run's marker shape (widgets::runMarker)
    SnapshotPtr snapshot;  // at the timeline's position (may be null)
    std::span<const IterationRecord> records;  // that run's records up to it
    std::vector<std::string> columns;          // names of its IterationRecord::extra
};

struct ViewFrame {
    int runId = 0;                             // another id: another run (views restart)
    SnapshotPtr snapshot;                      // the state to draw
    std::span<const IterationRecord> records;  // the run's records up to that state
    std::vector<std::string> columns;          // names of IterationRecord::extra
    // Every ready run of the problem, the selected one included, in the runs table's order,
    // each at the same timeline position: views whose story is a comparison draw them all.
    std::vector<RaceEntry> race{};
};

// The index of the extra column `name` in `columns` (−1 when there is none), and a record's
// value in that column (NaN when the record has none).
int columnOf(const std::vector<std::string>& columns, const std::string& name);
double extraAt(const IterationRecord& record, int column);

class FamilyView : public QWidget {
    Q_OBJECT
  public:
    explicit FamilyView(QWidget* parent = nullptr) : QWidget(parent) {}

    // Draws `frame`; false (and draws nothing) when the snapshot is of a type this view does
    // not know.
    virtual bool showFrame(const ViewFrame& frame) = 0;
    virtual void clear() = 0;
    // The plot that File › Export saves.
    virtual QCustomPlot* plot() const = 0;
    // PNG, PDF or SVG by the file's extension; false with *why on failure.
    virtual bool exportImage(const QString& path, QString* why);
    // The pages File › Export whole view puts into one figure, each with its tab's title. The
    // default fits every view: the shown tabs of the outermost tab widget on screen in the
    // view (a kernel view's path tabs while it shows a path), else the view itself.
    virtual std::vector<FigurePage> pages();
    // Family facts for the status line ("C-form U/lambda 78.0 (lambda 0.0046)"), or empty.
    virtual QString statusText(const ViewFrame& /*frame*/) const { return {}; }
    // The family's own problem controls (a dataset's test split), or null; problemOptions()
    // reads them as the family's problem options.
    virtual QWidget* problemControls() { return nullptr; }
    virtual OptionValues problemOptions() const { return {}; }
    // Sets the held-out split of the datasets this family reads; false if it has none.
    virtual bool setTestSplit(double /*testFraction*/, int /*seed*/) { return false; }
    // Shows page `index` (a tab) of the view as it stands now; false if there is none.
    virtual bool showPage(int index) { return index == 0; }
};

}  // namespace cplab::widgets
