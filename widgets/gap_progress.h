// A progress bar whose position is the gap's progress toward ε on a log scale:
// (log g₀ − log g) / (log g₀ − log ε), where g₀ is the first finite gap of the run.
#pragma once

#include <QProgressBar>

namespace cplab::widgets {

class GapProgress : public QProgressBar {
    Q_OBJECT
  public:
    explicit GapProgress(QWidget* parent = nullptr);

    void reset(double epsilon);
    void setGap(double gap);
    // Position in [0, 1].
    double fraction() const { return fraction_; }

    // The log-scale progress of `gap` from `initialGap` toward `epsilon`, clipped to [0, 1].
    static double progress(double initialGap, double gap, double epsilon);

  private:
    double epsilon_ = 1e-6;
    double initial_ = 0.0;
    double fraction_ = 0.0;
};

}  // namespace cplab::widgets
