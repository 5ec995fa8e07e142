// SPDX-License-Identifier: GPL-3.0-or-later
// File › Follow a running trace (main_window.h): the trace a `cplab-cli run --trace FILE`
// elsewhere is writing (a long job, a cluster run under mpirun), drawn live in the bounds plot
// beside the local runs (legend "FILE (following)") until it ends; kept when the problem
// changes (trace_follower.h reads it). A trace says nothing of its problem: while one is
// followed the plot names its line styles as a trace's columns are (upper bound U, lower bound
// L; the local family's own names in parentheses) and draws no known optimum (the local
// problem's is not the trace's).
#pragma once

#include <QObject>
#include <QString>
#include <cstddef>
#include <vector>

class QMenu;

namespace cplab {

class TraceFollower;
struct WindowContext;

class TraceFollowing : public QObject {
    Q_OBJECT
  public:
    explicit TraceFollowing(WindowContext& ctx);

    // File › Follow a running trace... and Stop following traces.
    void addFileActions(QMenu* file);
    // Returns the follower (owned by the window).
    TraceFollower* followTrace(const QString& path);
    const std::vector<TraceFollower*>& followedTraces() const { return followers_; }
    // Removes them all from the plot and stops reading.
    void stopFollowing();
    // Every followed trace back into the bounds plot, after it was cleared for a new problem.
    void addAllToPlot();

  private:
    // The bounds plot's id of the k-th followed trace (−1, −2, …: never a local run's).
    static int followId(std::size_t k) { return -1 - static_cast<int>(k); }
    // The bound names and the known optimum for what the plot holds (after a trace is followed
    // or dropped, and after the window set them for a new problem).
    void fitPlotToTraces();
    void addFollowedToPlot(std::size_t k);
    QString followLabel(const TraceFollower& follower) const;

    WindowContext& ctx_;
    std::vector<TraceFollower*> followers_;  // owned (children of the window)
    bool watchingProblems_ = false;
};

}  // namespace cplab
