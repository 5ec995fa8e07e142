// SPDX-License-Identifier: GPL-3.0-or-later
// The main window in front of a class (main_window.h): presentation mode, the scale of type
// and lines, the keys that drive a demo, and the caption bar telling the demo's story.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QToolBar>
#include <algorithm>
#include <cmath>

#include "caption_bar.h"
#include "core/events.h"
#include "family_view.h"
#include "main_window.h"
#include "plot_style.h"
#include "run_controller.h"
#include "timeline_bar.h"

namespace cplab {

namespace {

constexpr double kMinScale = 0.75;
constexpr double kMaxScale = 3.0;
constexpr double kScaleStep = 1.15;
const char* kNormalScaleKey = "view/scale";
const char* kPresentationScaleKey = "view/presentation_scale";

// True when some run of the race has reported `event` by its position (a name of
// core/events.h), or, for "finished", when every run has stopped there.
bool eventReached(const widgets::ViewFrame& frame, const std::string& event) {
    if (event == "finished") {
        return !frame.race.empty() &&
               std::all_of(frame.race.begin(), frame.race.end(), [](const auto& entry) {
                   return entry.snapshot && entry.snapshot->status.finished();
               });
    }
    // The event's bit, then one test per record (this runs for every frame drawn).
    std::uint32_t bit = 0;
    for (const Event e : kAllEvents)
        if (event == eventName(e)) bit = e;
    if (bit == 0) return false;
    for (const widgets::RaceEntry& entry : frame.race) {
        for (const IterationRecord& record : entry.records)
            if (record.events & bit) return true;
    }
    return false;
}

}  // namespace

int reachedBeat(const DemoInfo& demo, const widgets::ViewFrame& frame, int iteration) {
    int reached = -1;
    for (std::size_t k = 0; k < demo.story.size(); ++k) {
        const DemoBeat& beat = demo.story[k];
        if (iteration >= beat.iteration && (beat.event.empty() || eventReached(frame, beat.event)))
            reached = static_cast<int>(k);
    }
    return reached;
}

void MainWindow::buildPresentationActions(QMenu* view) {
    view->addSeparator();
    presentAction_ = view->addAction(tr("&Presentation"));
    presentAction_->setObjectName("presentAction");
    presentAction_->setCheckable(true);
    presentAction_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(presentAction_, &QAction::toggled, this, [this](bool on) { setPresentation(on); });
    view->addAction(tr("&Larger type and lines"), QKeySequence::ZoomIn, this,
                    [this] { setViewScale(viewScale() * kScaleStep); });
    view->addAction(tr("&Smaller type and lines"), QKeySequence::ZoomOut, this,
                    [this] { setViewScale(viewScale() / kScaleStep); });
    view->addAction(tr("&Reset size"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                    [this] { setViewScale(presenting_ ? 1.4 : 1.0); });

    // Single keys drive the demo while presenting (the set-up forms are hidden then, so they
    // cannot swallow a typed letter). ← → work in the normal window too, within the centre
    // (centreKeys_), and End is Run › Live.
    struct Key {
        QKeySequence key;
        QString text;
        std::function<void()> act;
    };
    const Key keys[] = {
        {QKeySequence(Qt::Key_Space), tr("Step"), [this] { stepAll(1); }},
        {QKeySequence(Qt::Key_R), tr("Run or pause"),
         [this] {
             if (controller_->anyPlaying())
                 pauseAll();
             else
                 runAll();
         }},
        {QKeySequence(Qt::Key_Left), tr("Timeline back"), [this] { timeline_->stepBack(); }},
        {QKeySequence(Qt::Key_Right), tr("Timeline forward"), [this] { timeline_->stepForward(); }},
        {QKeySequence(Qt::Key_Home), tr("First iteration"), [this] { showIteration(0); }},
        {QKeySequence(Qt::Key_Escape), tr("Leave presentation"),
         [this] { presentAction_->setChecked(false); }},
    };
    for (const Key& k : keys) {
        auto* action = new QAction(k.text, this);
        action->setShortcut(k.key);
        action->setShortcutContext(Qt::WindowShortcut);
        action->setEnabled(false);
        connect(action, &QAction::triggered, this, k.act);
        addAction(action);
        presentationKeys_.push_back(action);
    }
    // Remembered scales, within range whatever the settings file holds (text, nan, 1e300).
    QSettings settings;
    auto remembered = [&settings](const char* key, double fallback) {
        bool ok = false;
        const double value = settings.value(key, fallback).toDouble(&ok);
        return ok && std::isfinite(value) ? std::clamp(value, kMinScale, kMaxScale) : fallback;
    };
    normalScale_ = remembered(kNormalScaleKey, 1.0);
    presentationScale_ = remembered(kPresentationScaleKey, 1.4);
    if (normalScale_ != 1.0) applyViewScale();
}

void MainWindow::setPresentation(bool on, bool fullScreen) {
    if (on == presenting_) return;
    if (on) {
        normalState_ = saveState();
        wasMaximized_ = isMaximized();
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : findChildren<QToolBar*>())
            bar->hide();
        presenting_ = true;
        if (fullScreen) showFullScreen();
    } else {
        presenting_ = false;
        if (isFullScreen()) wasMaximized_ ? showMaximized() : showNormal();
        restoreState(normalState_);
    }
    for (QAction* action : presentationKeys_)
        action->setEnabled(presenting_);
    for (QShortcut* shortcut : centreKeys_)
        shortcut->setEnabled(!presenting_);  // the window-wide ← → instead
    if (presentAction_->isChecked() != on) presentAction_->setChecked(on);
    applyViewScale();
    if (presenting_) centralWidget()->setFocus();
}

double MainWindow::viewScale() const {
    return presenting_ ? presentationScale_ : normalScale_;
}

void MainWindow::setViewScale(double scale) {
    scale = std::isfinite(scale) ? std::clamp(scale, kMinScale, kMaxScale) : 1.0;
    (presenting_ ? presentationScale_ : normalScale_) = scale;
    QSettings().setValue(presenting_ ? kPresentationScaleKey : kNormalScaleKey, scale);
    applyViewScale();
}

void MainWindow::applyViewScale() {
    const double scale = viewScale();
    QFont font = baseFont_;
    font.setPointSizeF(baseFont_.pointSizeF() * scale);
    setFont(font);
    widgets::setPlotScale(scale);
    widgets::applyPlotScale(this);
    shownSnapshots_.clear();  // the views redraw their graphs with the new pens
    showFrame();
}

void MainWindow::updateCaption(const widgets::ViewFrame& frame, int iteration) {
    if (!demo_) return;
    const int beat = reachedBeat(*demo_, frame, iteration);
    caption_->setBeat(beat, static_cast<int>(demo_->story.size()),
                      beat < 0 ? QString() : QString::fromStdString(demo_->story[beat].text));
    QStringList done;
    if (frame.snapshot) {
        for (const std::string& event : frame.snapshot->events)
            done << QString::fromStdString(event);
    }
    caption_->setEvents(done.isEmpty() || iteration == 0
                            ? QString()
                            : tr("iteration %1: %2").arg(iteration).arg(done.join("; ")));
}

}  // namespace cplab
