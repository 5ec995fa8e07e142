// SPDX-License-Identifier: GPL-3.0-or-later
// The one replot scheme of every plot (STYLE.md, after PlotJuggler): changes only mark a plot
// dirty, and one single-shot timer replots it at most every 40 ms, however many snapshots or
// records arrive in between. `now()` replots at once (exports, tests); replotPendingNow() does
// it for every plot of a widget tree that has a replot scheduled.
#pragma once

#include <QObject>
#include <functional>

class QCustomPlot;
class QTimer;

namespace cplab::widgets {

class CoalescedReplot : public QObject {
    Q_OBJECT
  public:
    static constexpr int kIntervalMs = 40;

    // `beforeReplot` runs first on each replot (e.g. automatic rescaling); may be empty.
    explicit CoalescedReplot(QCustomPlot* plot, std::function<void()> beforeReplot = {});

    void schedule();
    void now();
    bool pending() const;

  private:
    QCustomPlot* plot_;
    std::function<void()> beforeReplot_;
    QTimer* timer_;
};

// Replots at once every plot under `root` (root included) whose replot is scheduled, as its
// timer would within 40 ms: what is drawn after it is what the user sees once the timer fired.
void replotPendingNow(QObject* root);

}  // namespace cplab::widgets
