// SPDX-License-Identifier: GPL-3.0-or-later
#include "presentation.h"

#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QToolBar>
#include <QWindow>
#include <algorithm>
#include <cmath>

#include "caption_bar.h"
#include "centre_area.h"
#include "family_view.h"
#include "log_panel.h"
#include "playback.h"
#include "plot_style.h"
#include "registry.h"
#include "run_controller.h"
#include "story_dialog.h"
#include "student_view.h"
#include "timeline_bar.h"
#include "window_context.h"

namespace cplab {

namespace {

constexpr double kMinScale = 0.75;
constexpr double kMaxScale = 6.0;
constexpr double kScaleStep = 1.15;

}  // namespace

Presentation::Presentation(WindowContext& ctx)
    : QObject(ctx.window), ctx_(ctx), baseFont_(ctx.window->font()) {
    story_ = new StoryHolder(this);
    studentView_ = new StudentView(ctx);
    connect(story_, &StoryHolder::storyChanged, this, &Presentation::tellStory);
}

void Presentation::addViewActions(QMenu* view) {
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
                    &Presentation::resetViewScale);
    addStudentViewMenu(view);
    addPresentationKeys();
    if (viewScale() != 1.0) applyViewScale();
}

double Presentation::defaultScale(const QScreen* screen, bool presenting) {
    if (!screen) return presenting ? 1.4 : 1.0;
    // Logical pixels: a screen of device pixel ratio 2 counts half its pixels. Presenting, the
    // text is as large on the wall as at 1.4 on a 720-line projector: a screen of fewer
    // logical lines (large fonts, QT_FONT_DPI=144 makes 1280x720 count 853x480) already shows
    // it larger, and needs less on top (but never less than the normal window's type).
    const QSize size = screen->geometry().size();
    if (presenting)
        return std::clamp(std::max(1.0, 1.4 * size.height() / 720.0), kMinScale, kMaxScale);
    return std::clamp(std::max(1.0, size.height() / 1440.0), kMinScale, kMaxScale);
}

QString Presentation::scaleKey(const QScreen* screen, bool presenting) {
    QString name = screen ? screen->name() : QString();
    name.replace(QRegularExpression("[^A-Za-z0-9_.-]"), "_");
    const QSize size = screen ? screen->geometry().size() : QSize();
    return QString("view/%1/%2_%3x%4")
        .arg(presenting ? "presentation_scale" : "scale", name.isEmpty() ? "screen" : name)
        .arg(size.width())
        .arg(size.height());
}

void Presentation::restoreScales() {
    if (!rememberScales_) {
        // Moved to another screen (the laptop's to the projector): that screen's sizes.
        ctx_.window->createWinId();
        if (QWindow* window = ctx_.window->windowHandle())
            connect(window, &QWindow::screenChanged, this, &Presentation::restoreScales);
    }
    rememberScales_ = true;
    // Within range whatever the settings file holds (text, nan, 1e300); 0: the default.
    QSettings settings;
    auto remembered = [&settings, this](bool presenting) {
        bool ok = false;
        const double value =
            settings.value(scaleKey(ctx_.window->screen(), presenting)).toDouble(&ok);
        return ok && std::isfinite(value) && value > 0 ? std::clamp(value, kMinScale, kMaxScale)
                                                       : 0.0;
    };
    normalScale_ = remembered(false);
    presentationScale_ = remembered(true);
    applyViewScale();
}

// Single keys drive the demo while presenting (the set-up forms are hidden then, so they
// cannot swallow a typed letter). ← → work in the normal window too, within the centre
// (CentreArea's keys), and End is Run › Live.
void Presentation::addPresentationKeys() {
    struct Key {
        QKeySequence key;
        QString text;
        std::function<void()> act;
    };
    Playback* playback = ctx_.playback;
    widgets::TimelineBar* timeline = ctx_.timeline;
    const Key keys[] = {
        {QKeySequence(Qt::Key_Space), tr("Step"), [playback] { playback->stepAll(1); }},
        {QKeySequence(Qt::Key_R), tr("Run or pause"),
         [this, playback] {
             if (ctx_.controller->anyPlaying())
                 playback->pauseAll();
             else
                 playback->runAll();
         }},
        {QKeySequence(Qt::Key_Left), tr("Timeline back"), [timeline] { timeline->stepBack(); }},
        {QKeySequence(Qt::Key_Right), tr("Timeline forward"),
         [timeline] { timeline->stepForward(); }},
        {QKeySequence(Qt::Key_Home), tr("First iteration"),
         [playback] { playback->showIteration(0); }},
        {QKeySequence(Qt::Key_Escape), tr("Leave presentation"),
         [this] { presentAction_->setChecked(false); }},
    };
    for (const Key& k : keys) {
        auto* action = new QAction(k.text, ctx_.window);
        action->setShortcut(k.key);
        action->setShortcutContext(Qt::WindowShortcut);
        action->setEnabled(false);
        connect(action, &QAction::triggered, this, k.act);
        ctx_.window->addAction(action);
        presentationKeys_.push_back(action);
    }
}

void Presentation::setPresentation(bool on, bool fullScreen) {
    if (on == presenting_) return;
    QMainWindow* window = ctx_.window;
    if (on) {
        normalState_ = window->saveState();
        wasMaximized_ = window->isMaximized();
        for (QDockWidget* dock : window->findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : window->findChildren<QToolBar*>())
            bar->hide();
        presenting_ = true;
        if (fullScreen) window->showFullScreen();
    } else {
        presenting_ = false;
        if (window->isFullScreen()) wasMaximized_ ? window->showMaximized() : window->showNormal();
        window->restoreState(normalState_);
    }
    studentView_->enforce();  // the docks restored, the centre as presenting shows it
    for (QAction* action : presentationKeys_)
        action->setEnabled(presenting_);
    ctx_.centre->setArrowKeysEnabled(!presenting_);  // the window-wide ← → instead
    if (presentAction_->isChecked() != on) presentAction_->setChecked(on);
    applyViewScale();
    ctx_.centre->setPresenting(presenting_);
    if (presenting_) window->centralWidget()->setFocus();
}

double Presentation::viewScale() const {
    const double set = presenting_ ? presentationScale_ : normalScale_;
    return set > 0 ? set : defaultScale(ctx_.window->screen(), presenting_);
}

void Presentation::setViewScale(double scale) {
    scale = std::isfinite(scale) ? std::clamp(scale, kMinScale, kMaxScale) : 1.0;
    (presenting_ ? presentationScale_ : normalScale_) = scale;
    if (rememberScales_) QSettings().setValue(scaleKey(ctx_.window->screen(), presenting_), scale);
    applyViewScale();
}

void Presentation::resetViewScale() {
    (presenting_ ? presentationScale_ : normalScale_) = 0;
    if (rememberScales_) QSettings().remove(scaleKey(ctx_.window->screen(), presenting_));
    applyViewScale();
}

void Presentation::applyViewScale() {
    const double scale = viewScale();
    QFont font = baseFont_;
    font.setPointSizeF(baseFont_.pointSizeF() * scale);
    ctx_.window->setFont(font);
    widgets::setPlotScale(scale);
    widgets::applyPlotScale(ctx_.window);
    ctx_.playback->redraw();  // the views redraw their graphs with the new pens
}

QString Presentation::shortcutsText() const {
    // Every menu action with a shortcut, by menu, and the timeline's arrow keys.
    QStringList lines;
    for (QAction* menu : ctx_.window->menuBar()->actions()) {
        if (!menu->menu()) continue;
        for (QAction* action : menu->menu()->actions()) {
            if (action->shortcut().isEmpty()) continue;
            lines << "<tr><td><b>" + action->shortcut().toString(QKeySequence::NativeText) +
                         "</b></td><td>" + menu->text().remove('&') + " › " +
                         action->text().remove('&') + "</td></tr>";
        }
    }
    lines << "<tr><td><b>← →</b></td><td>" + tr("Timeline: one iteration back, forward") +
                 "</td></tr>";
    for (const QAction* action : presentationKeys_) {
        if (action->shortcut() == QKeySequence(Qt::Key_Left) ||
            action->shortcut() == QKeySequence(Qt::Key_Right))
            continue;
        lines << "<tr><td><b>" + action->shortcut().toString(QKeySequence::NativeText) +
                     "</b></td><td>" + tr("Presentation: %1").arg(action->text()) + "</td></tr>";
    }
    return "<table>" + lines.join("") + "</table>";
}

void Presentation::setDemo(const DemoInfo* demo) {
    demo_ = demo;
    story_->setDemo(demo);  // told by tellStory
}

void Presentation::tellStory() {
    const Story& story = story_->story();
    shownWatch_ = QString::fromStdString(story.watch);
    if (story_->empty()) {
        ctx_.caption->clear();
    } else {
        ctx_.caption->setDemo(
            story.title.empty() ? tr("Story") : QString::fromStdString(story.title), shownWatch_);
        ctx_.caption->setBeat(-1, 0, {});
    }
    if (ctx_.playback) ctx_.playback->showFrame();  // the beat reached, told again
    studentView_->enforce();
}

void Presentation::updateCaption(const widgets::ViewFrame& frame, int iteration) {
    if (!story_->empty()) {
        const Story& story = story_->story();
        const int beat = reachedBeat(story, frame, iteration);
        const QString caption =
            beat < 0 ? QString() : QString::fromStdString(story.beats[beat].caption);
        // A beat that names one of the view's tabs ("Gap and errors tab: ...") shows that tab
        // when the story reaches it going forward (scrubbing back leaves the tab chosen).
        if (beat > story_->shownBeat() && beat >= 0) ctx_.centre->showPageNamedIn(caption);
        story_->setShownBeat(beat);
        // A beat's own "what to watch" while it is shown, else the story's.
        const std::string& own = beat < 0 ? std::string() : story.beats[beat].watch;
        const QString watch = QString::fromStdString(own.empty() ? story.watch : own);
        if (watch != shownWatch_) {
            shownWatch_ = watch;
            ctx_.caption->setDemo(
                story.title.empty() ? tr("Story") : QString::fromStdString(story.title), watch);
        }
        ctx_.caption->setBeat(beat, story_->beatCount(), caption);
        QStringList done;
        if (frame.snapshot) {
            for (const std::string& event : frame.snapshot->events)
                done << QString::fromStdString(event);
        }
        ctx_.caption->setEvents(done.isEmpty() || iteration == 0
                                    ? QString()
                                    : tr("iteration %1: %2").arg(iteration).arg(done.join("; ")));
    }
    // A family view may have shown a tab again for this frame, the caption itself.
    studentView_->enforce();
}

void Presentation::addDemoMenu(QMenu* demo) {
    demo->setObjectName("demoMenu");
    QAction* edit = demo->addAction(tr("&Edit story..."), this, &Presentation::editStory);
    edit->setObjectName("editStoryAction");
    QAction* add = demo->addAction(tr("&Add a beat here..."), this, &Presentation::addBeatDialog);
    add->setObjectName("addBeatAction");
    add->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_B));
    QAction* restore = demo->addAction(tr("&Restore the demo's story"), this, [this] {
        story_->setDemo(demo_);
        ctx_.log->appendMessage(tr("story: the demo's own again"));
        emit lessonEdited();
    });
    restore->setObjectName("restoreStoryAction");
    connect(demo, &QMenu::aboutToShow, this, [this, edit, add, restore] {
        const bool problem = ctx_.controller->problem() != nullptr;
        edit->setEnabled(problem);
        add->setEnabled(problem);
        restore->setEnabled(demo_ && story_->edited());
    });
}

int Presentation::addBeatHere(const QString& caption) {
    const int iteration = ctx_.playback->shownIteration();
    if (story_->empty() && ctx_.controller->problem()) {
        // A story of the problem's own: titled by it.
        Story story;
        story.title = ctx_.controller->problem()->info.title;
        story_->setStory(std::move(story));
    }
    const int index = story_->addBeat(iteration, caption.left(kMaxStoryTextChars));
    if (index < 0) {
        ctx_.log->appendError(tr("story: at most %1 beats").arg(kMaxStoryBeats));
    } else {
        ctx_.log->appendMessage(tr("story: beat %1 at iteration %2").arg(index + 1).arg(iteration));
        emit lessonEdited();
    }
    return index;
}

void Presentation::addBeatDialog() {
    if (!ctx_.controller->problem()) return;
    const int iteration = ctx_.playback->shownIteration();
    QInputDialog dialog(ctx_.window);
    dialog.setFont(ctx_.window->font());  // the window's scale (a 4K screen, presenting)
    dialog.setWindowTitle(tr("Add a beat here"));
    dialog.setLabelText(
        tr("The caption from iteration %1 on (the timeline's position):").arg(iteration));
    dialog.setOption(QInputDialog::UsePlainTextEditForTextInput);
    if (dialog.exec() != QDialog::Accepted) return;
    const QString caption = dialog.textValue().trimmed();
    if (!caption.isEmpty()) addBeatHere(caption);
}

void Presentation::editStory() {
    if (!ctx_.controller->problem()) return;
    StoryDialog dialog(story_->story(), ctx_.playback->shownIteration(), ctx_.window);
    if (dialog.exec() != QDialog::Accepted) return;
    QString why;
    if (!story_->setStory(dialog.story(), &why))
        ctx_.log->appendError(why);
    else
        emit lessonEdited();
}

void Presentation::addStudentViewMenu(QMenu* view) {
    QMenu* student = view->addMenu(tr("S&tudent view"));
    student->setObjectName("studentViewMenu");
    student
        ->addAction(tr("&Choose what shows..."), this,
                    [this] {
                        if (studentView_->chooseDialog()) emit lessonEdited();
                    })
        ->setObjectName("chooseStudentViewAction");
    QAction* all = student->addAction(tr("&Show everything"), this, [this] {
        studentView_->setHidden({});
        ctx_.log->appendMessage(tr("student view: off, everything shows"));
        emit lessonEdited();
    });
    all->setObjectName("showEverythingAction");
    connect(student, &QMenu::aboutToShow, this,
            [this, all] { all->setEnabled(studentView_->active()); });
}

}  // namespace cplab
