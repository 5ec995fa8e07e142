// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_following.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

#include "bounds_plot.h"
#include "log_panel.h"
#include "plot_style.h"
#include "recent_files.h"
#include "registry.h"
#include "run_controller.h"
#include "trace_follower.h"
#include "window_context.h"

namespace cplab {

TraceFollowing::TraceFollowing(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {}

// File › Follow a running trace... and Stop following traces.
void TraceFollowing::addFileActions(QMenu* file) {
    file->addAction(tr("Follow a running &trace..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            ctx_.window, tr("Follow a running trace"), lastFolder("trace"),
            tr("Traces a run is writing (*.running *.csv);;All files (*)"));
        if (path.isEmpty()) return;
        setLastFolder("trace", path);
        followTrace(path);
    });
    QAction* stopFollowing =
        file->addAction(tr("Stop following traces"), this, &TraceFollowing::stopFollowing);
    connect(file, &QMenu::aboutToShow, this,
            [this, stopFollowing] { stopFollowing->setEnabled(!followers_.empty()); });
}

TraceFollower* TraceFollowing::followTrace(const QString& path) {
    if (!watchingProblems_) {
        // Connected after the window's own handler, so that this runs after it named the
        // bounds and drew the optimum of the new problem.
        watchingProblems_ = true;
        connect(ctx_.controller, &RunController::problemChanged, this,
                &TraceFollowing::fitPlotToTraces);
    }
    auto* follower = new TraceFollower(path, ctx_.window);
    const std::size_t k = followers_.size();
    followers_.push_back(follower);
    addFollowedToPlot(k);
    ctx_.log->appendMessage(tr("following the trace %1 (a run writing %2)")
                                .arg(follower->tracePath(), follower->name() + ".running"));
    connect(follower, &TraceFollower::recordsAppended, this,
            [this, k](const std::vector<IterationRecord>& records) {
                ctx_.boundsPlot->appendRecords(followId(k), records);
            });
    connect(follower, &TraceFollower::restarted, this, [this, k] {
        addFollowedToPlot(k);
        ctx_.log->appendMessage(
            tr("%1: a new run started writing it; following that one").arg(followers_[k]->name()));
    });
    connect(follower, &TraceFollower::stateChanged, this, [this, k] {
        const TraceFollower& f = *followers_[k];
        ctx_.boundsPlot->setRunLabel(followId(k), followLabel(f));
        if (f.state() != TraceFollower::State::Following)
            ctx_.log->appendMessage(QString("%1: %2").arg(f.name(), f.stateText()));
    });
    follower->poll();  // what the trace holds now, at once
    fitPlotToTraces();
    return follower;
}

void TraceFollowing::fitPlotToTraces() {
    const ProblemInstance* problem = ctx_.controller->problem();
    const Family* family = ctx_.controller->family();
    const BoundLabels local = family ? family->boundLabels() : BoundLabels{};
    widgets::BoundsPlot& plot = *ctx_.boundsPlot;
    if (followers_.empty()) {
        plot.setBoundLabels(QString::fromStdString(local.upper),
                            QString::fromStdString(local.lower));
        const auto optimum =
            problem && problem->data ? problem->data->knownOptimum() : std::nullopt;
        if (optimum) plot.setReference(*optimum, tr("known optimum"));
        return;
    }
    const BoundLabels traces;  // the names of a trace's columns upper and lower
    const auto name = [](const std::string& trace, const std::string& own) {
        return QString::fromStdString(own == trace ? trace : trace + " (local runs: " + own + ")");
    };
    plot.setBoundLabels(name(traces.upper, local.upper), name(traces.lower, local.lower));
    plot.clearReference();
    plot.replotNow();
}

void TraceFollowing::addAllToPlot() {
    for (std::size_t k = 0; k < followers_.size(); ++k)
        addFollowedToPlot(k);
}

void TraceFollowing::stopFollowing() {
    for (std::size_t k = 0; k < followers_.size(); ++k) {
        ctx_.boundsPlot->removeRun(followId(k));
        delete followers_[k];
    }
    followers_.clear();
    fitPlotToTraces();
}

// (Re)adds the k-th followed trace's curves with every record read so far: when it starts,
// when a new run restarts it, and after the plot was cleared for a new problem.
void TraceFollowing::addFollowedToPlot(std::size_t k) {
    const TraceFollower& f = *followers_[k];
    // Colours from the palette's far end (the local runs take it from the start).
    ctx_.boundsPlot->addRun(followId(k), followLabel(f),
                            widgets::runColor(7 - static_cast<int>(k)));
    ctx_.boundsPlot->appendRecords(followId(k), f.records());
}

QString TraceFollowing::followLabel(const TraceFollower& f) const {
    switch (f.state()) {
        case TraceFollower::State::Waiting:
            return tr("%1 (waiting)").arg(f.name());
        case TraceFollower::State::Following:
            return tr("%1 (following)").arg(f.name());
        case TraceFollower::State::Ended:
            return tr("%1 (ended)").arg(f.name());
        case TraceFollower::State::Stopped:
            return tr("%1 (stopped writing)").arg(f.name());
        case TraceFollower::State::Failed:
            return tr("%1 (unreadable)").arg(f.name());
    }
    return f.name();
}

}  // namespace cplab
