// The race view: upper and lower bounds (top, linear) and the gap (bottom, log scale) of
// every run of one problem against iteration, solver seconds or oracle calls. Records are
// appended as they arrive; the widget replots from one coalescing timer.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <map>
#include <vector>

#include "core/iteration_record.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QTimer;

namespace cplab::widgets {

enum class XAxisKind { Iteration, Seconds, OracleCalls };

class BoundsPlot : public QWidget {
    Q_OBJECT
  public:
    explicit BoundsPlot(QWidget* parent = nullptr);

    // Adds (or resets) run `id` with its legend label and colour.
    void addRun(int id, const QString& label, const QColor& color);
    void removeRun(int id);
    void clear();
    void appendRecords(int id, const std::vector<IterationRecord>& records);
    // A horizontal reference line in the bounds panel (the known optimum), or none.
    void setReference(double value, const QString& label);
    void clearReference();
    void setXAxis(XAxisKind kind);
    XAxisKind xAxis() const { return xAxis_; }

    QCustomPlot* plot() const { return plot_; }
    int pointCount(int id) const;
    // Replots now instead of on the timer (step mode, tests).
    void replotNow();

  private:
    struct RunGraphs {
        QCPGraph* upper = nullptr;
        QCPGraph* lower = nullptr;
        QCPGraph* gap = nullptr;
        std::vector<IterationRecord> records;  // kept to re-key when the x axis changes
    };
    double key(const IterationRecord& r) const;
    void rebuild(RunGraphs& run);
    void addToGraphs(RunGraphs& run, const std::vector<IterationRecord>& records);
    void scheduleReplot();
    void rescale();

    QCustomPlot* plot_;
    QCPAxisRect* boundsRect_;
    QCPAxisRect* gapRect_;
    QCPGraph* reference_ = nullptr;
    double referenceValue_ = 0.0;
    std::map<int, RunGraphs> runs_;
    XAxisKind xAxis_ = XAxisKind::Iteration;
    bool autoScale_ = true;
    QTimer* replotTimer_;
};

}  // namespace cplab::widgets
