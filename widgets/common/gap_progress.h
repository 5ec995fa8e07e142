// SPDX-License-Identifier: GPL-3.0-or-later
// A progress bar whose position is the gap's progress toward ε on a log scale:
// (log g₀ − log g) / (log g₀ − log ε), where g₀ is the first finite gap of the run; or, for a
// path run, the path parameter's progress from its first value toward its end, also on a log
// scale. Drawn as a thin bar with its text beside it (never over the chunk, so it reads the
// same at 0 % and 100 %); a finished run shows a full bar in the "done" colour and a sentence.
#pragma once

#include <QProgressBar>

namespace cplab::widgets {

class GapProgress : public QProgressBar {
    Q_OBJECT
  public:
    explicit GapProgress(QWidget* parent = nullptr);

    // A new run toward tolerance `epsilon`: empty bar, "gap -> tolerance ε".
    void reset(double epsilon);
    // The run's gap now: "gap 3.11e-01 -> tolerance 0.0899  (73%)".
    void setGap(double gap);
    // A path run: how far the parameter has come from `start` toward `end` (log scale; both
    // > 0), e.g. lambda from lambda_0 down to lambda_min.
    void setPath(double start, double value, double end);
    // A run whose gap rule cannot stop it (its tolerance is 0, as SLMC's, which stops on its
    // gradient): its iterations toward max_iterations, "iteration 8 of 80  (10%)".
    void setIterations(int iteration, int maxIterations);
    // A finished run: full bar in the "done" colour and `text` as it is, e.g.
    // "converged: gap 1.1e-08 <= 1e-06" or "iteration limit: gap 3.2e-03". The next reset,
    // setGap or setPath returns to showing progress.
    void setFinished(const QString& text);
    bool finished() const { return finished_; }
    // Position in [0, 1].
    double fraction() const { return fraction_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The log-scale progress of `gap` from `initialGap` toward `epsilon`, clipped to [0, 1].
    static double progress(double initialGap, double gap, double epsilon);

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    // The bar's rectangle (left) and the text's (right of it) in the widget.
    QRect barRect() const;
    QRect textRect() const;

    double epsilon_ = 1e-6;
    bool finished_ = false;
    double initial_ = 0.0;
    double fraction_ = 0.0;
};

}  // namespace cplab::widgets
