// SPDX-License-Identifier: GPL-3.0-or-later
// A progress bar whose position is the gap's progress toward ε on a log scale:
// (log g₀ − log g) / (log g₀ − log ε), where g₀ is the first finite gap of the run; or, for a
// path run, the path parameter's progress from its first value toward its end, also on a log
// scale.
#pragma once

#include <QProgressBar>

namespace cplab::widgets {

class GapProgress : public QProgressBar {
    Q_OBJECT
  public:
    explicit GapProgress(QWidget* parent = nullptr);

    void reset(double epsilon);
    void setGap(double gap);
    // A path run: how far the parameter has come from `start` toward `end` (log scale; both
    // > 0), e.g. lambda from lambda_0 down to lambda_min.
    void setPath(double start, double value, double end);
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
