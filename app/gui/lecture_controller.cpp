// SPDX-License-Identifier: GPL-3.0-or-later
#include "lecture_controller.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcutEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "caption_bar.h"
#include "log_panel.h"
#include "main_window.h"
#include "playback.h"
#include "presentation.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"
#include "session.h"
#include "story.h"
#include "window_context.h"

namespace cplab {

namespace {

constexpr int kLecturePursuitPollMs = 30;

QString lectureText(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

LectureController::LectureController(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {
    setObjectName("lectureController");
    blackout_ = new QWidget(ctx.window);
    blackout_->setObjectName("lectureBlackout");
    QPalette black = blackout_->palette();
    black.setColor(QPalette::Window, Qt::black);
    blackout_->setPalette(black);
    blackout_->setAutoFillBackground(true);
    blackout_->hide();
    pursuit_ = new QTimer(this);
    pursuit_->setInterval(kLecturePursuitPollMs);
    connect(pursuit_, &QTimer::timeout, this, &LectureController::pursue);
    // Before the window's shortcuts: the walk keys are the lecture's while it is presented.
    qApp->installEventFilter(this);
    if (auto* window = mainWindow())
        connect(window, &MainWindow::sessionOpened, this, [this](bool ok, const QString& message) {
            if (loading_) finishOpening(ok, message);
        });
}

MainWindow* LectureController::mainWindow() const {
    return qobject_cast<MainWindow*>(ctx_.window);
}

void LectureController::addFileActions(QMenu* file) {
    QMenu* menu = file->addMenu(tr("&Lecture"));
    menu->setObjectName("lectureMenu");
    menu->addAction(tr("&New lecture..."), this, &LectureController::askNewLecture);
    menu->addAction(tr("&Open lecture..."), this, &LectureController::askOpenLecture);
    addAction_ = menu->addAction(tr("&Add current state to the lecture..."), this,
                                 &LectureController::askAddCurrentState);
    slidesAction_ =
        menu->addAction(tr("&Slides (reorder, remove)..."), this, &LectureController::editSlides);
    addAction_->setEnabled(false);
    slidesAction_->setEnabled(false);
    connect(this, &LectureController::lectureChanged, this, [this] {
        addAction_->setEnabled(hasLecture());
        slidesAction_->setEnabled(hasLecture());
    });
}

bool LectureController::openLecture(const QString& path, QString* why) {
    std::string message;
    auto read = readLecture(path.toStdString(), &message);
    if (!read) {
        if (why) *why = lectureText(message);
        return false;
    }
    lecture_ = std::move(*read);
    path_ = QFileInfo(path).absoluteFilePath();
    slide_ = -1;
    emit lectureChanged();
    ctx_.log->appendMessage(tr("lecture %1: %2 slides").arg(path).arg(lecture_.slides.size()));
    if (!lecture_.slides.empty()) openSlide(0);
    return true;
}

void LectureController::closeLecture() {
    lecture_ = {};
    path_.clear();
    slide_ = -1;
    pursuit_->stop();
    pursuing_ = -1;
    setBlank(false);
    ctx_.caption->setSlide({});
    emit lectureChanged();
}

bool LectureController::busy() const {
    return loading_ || pursuing_ >= 0;
}

void LectureController::openSlide(int index) {
    if (index < 0 || index >= static_cast<int>(lecture_.slides.size())) return;
    pursuit_->stop();
    pursuing_ = -1;
    slide_ = index;
    beat_ = firstBeat_ = -1;
    beatShownAt_.clear();
    requested_ = 0;
    showSlideCaption();
    const LectureSlide& slide = lecture_.slides[static_cast<std::size_t>(index)];
    MainWindow* window = mainWindow();
    if (!slide.demo.empty()) {
        const bool ok = window && window->loadDemo(lectureText(slide.demo));
        finishOpening(ok, ok ? QString() : tr("no demo '%1'").arg(lectureText(slide.demo)));
        return;
    }
    // The session is checked again: it may have changed since the lecture was read.
    std::string why;
    if (sha256OfFile(slide.resolved, &why) != slide.sha256) {
        finishOpening(
            false,
            why.empty()
                ? tr("%1: changed since the lecture was written").arg(lectureText(slide.session))
                : lectureText(why));
        return;
    }
    loading_ = true;
    window->openSession(lectureText(slide.resolved));
}

void LectureController::finishOpening(bool ok, const QString& message) {
    loading_ = false;
    showSlideCaption();
    if (!ok) {
        ctx_.log->appendError(tr("lecture slide %1: %2").arg(slide_ + 1).arg(message));
    } else {
        requested_ = newestIteration();
        // The beat told at the start (a story's first beat is at iteration 0).
        const std::vector<int> beats = beatIterations();
        for (std::size_t k = 0; k < beats.size() && beats[k] <= requested_; ++k)
            if (beatEvents()[k].isEmpty()) firstBeat_ = static_cast<int>(k);
        beat_ = firstBeat_;
        beatShownAt_.assign(beats.size(), 0);
    }
    emit slideOpened(slide_, ok, message);
}

void LectureController::showSlideCaption() {
    if (slide_ < 0) {
        ctx_.caption->setSlide({});
        return;
    }
    ctx_.caption->setSlide(
        QString("Slide %1 of %2:  %3")
            .arg(slide_ + 1)
            .arg(lecture_.slides.size())
            .arg(lectureText(lecture_.slides[static_cast<std::size_t>(slide_)].title)));
}

// The story the caption tells (story.h): the demo's, or the session's own.
std::vector<int> LectureController::beatIterations() const {
    std::vector<int> iterations;
    for (const StoryBeat& beat : ctx_.presentation->story()->story().beats)
        iterations.push_back(beat.iteration);
    return iterations;
}

std::vector<QString> LectureController::beatEvents() const {
    std::vector<QString> events;
    for (const StoryBeat& beat : ctx_.presentation->story()->story().beats)
        events.push_back(lectureText(beat.event));
    return events;
}

// The beat the caption tells, -1 when none.
int LectureController::shownBeat() const {
    return ctx_.presentation->story()->shownBeat();
}

int LectureController::newestIteration() const {
    int newest = -1;
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const Run* r = ctx_.controller->run(k);
        if (r->failed()) continue;
        newest = newest < 0 ? r->iteration() : std::min(newest, r->iteration());
    }
    return std::max(newest, 0);
}

bool LectureController::runsStopped() const {
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const Run* r = ctx_.controller->run(k);
        if (!r->failed() && !r->status().finished()) return false;
    }
    return true;
}

bool LectureController::next() {
    if (blank_) {
        setBlank(false);
        return true;
    }
    if (slide_ < 0 || loading_) return false;
    // The runs are still on their way to the beat: the first press waits for them, a second
    // goes on without waiting.
    if (pursuing_ >= 0 && shownBeat() < pursuing_) {
        if (!hurried_) {
            hurried_ = true;
            return true;
        }
        pursuit_->stop();
        pursuing_ = -1;
        if (ctx_.controller->anyPlaying()) ctx_.playback->pauseAll();
    }
    const int count = static_cast<int>(beatIterations().size());
    beat_ = std::max(beat_, std::min(shownBeat(), count - 1));
    if (beat_ + 1 < count) {
        goToBeat(beat_ + 1);
        return true;
    }
    if (slide_ + 1 >= static_cast<int>(lecture_.slides.size())) return false;
    openSlide(slide_ + 1);
    return true;
}

bool LectureController::previous() {
    if (blank_) {
        setBlank(false);
        return true;
    }
    if (slide_ < 0 || loading_) return false;
    if (beat_ > firstBeat_ && beat_ > 0) {
        pursuit_->stop();
        pursuing_ = -1;
        if (ctx_.controller->anyPlaying()) ctx_.playback->pauseAll();
        --beat_;
        reach(beatShownAt_[static_cast<std::size_t>(beat_)]);
        return true;
    }
    if (slide_ == 0) return false;
    openSlide(slide_ - 1);
    return true;
}

// Beat k: its iteration (never before the beat the walk is at), then, for a beat that waits
// for an event, step by step until the caption tells it.
void LectureController::goToBeat(int k) {
    const std::vector<int> beats = beatIterations();
    const int from = beat_ >= 0 ? beatShownAt_[static_cast<std::size_t>(beat_)] : 0;
    const int target = std::max(beats[static_cast<std::size_t>(k)], from);
    beat_ = k;
    beatShownAt_[static_cast<std::size_t>(k)] = target;
    reach(target);
    pursuing_ = k;
    pursuitSteps_ = 0;
    hurried_ = false;
    pursuit_->start();
}

// Shows `iteration`: scrubbed back when the runs have been there, else live with the runs
// stepped to it.
void LectureController::reach(int iteration) {
    Playback* playback = ctx_.playback;
    const int newest = newestIteration();
    if (iteration < newest) {
        playback->showIteration(iteration);
        return;
    }
    playback->goLive();
    if (iteration > requested_ && !runsStopped()) {
        playback->stepAll(iteration - requested_);
        requested_ = iteration;
    }
}

void LectureController::pursue() {
    const auto stop = [this] {
        pursuit_->stop();
        pursuing_ = -1;
    };
    if (pursuing_ < 0 || shownBeat() >= pursuing_ || runsStopped()) return stop();
    if (ctx_.controller->anyPlaying()) return;
    for (int k = 0; k < ctx_.controller->runCount(); ++k) {
        const Run* r = ctx_.controller->run(k);
        if (!r->ready()) return;
        if (!r->failed() && !r->status().finished() && r->iteration() < requested_) return;
    }
    // The iteration is there; a beat that waits for an event needs more steps: "finished"
    // runs to the end (at the window's delay), another event a step at a time.
    const std::size_t k = static_cast<std::size_t>(pursuing_);
    const QString event = k < beatEvents().size() ? beatEvents()[k] : QString();
    if (event.isEmpty() || pursuitSteps_ >= kMaxPursuitSteps) return stop();
    ctx_.playback->goLive();
    if (event == "finished") {
        pursuitSteps_ = kMaxPursuitSteps;  // once: the runs end by their own rules
        ctx_.playback->runAll();
        return;
    }
    ++pursuitSteps_;
    ++requested_;
    beatShownAt_[k] = requested_;
    ctx_.playback->stepAll(1);
}

void LectureController::setBlank(bool blank) {
    blank_ = blank;
    blackout_->setGeometry(ctx_.window->rect());
    blackout_->setVisible(blank);
    if (blank) blackout_->raise();
}

LectureController::Walk LectureController::walkOf(int key, Qt::KeyboardModifiers modifiers) const {
    if ((modifiers & ~Qt::KeypadModifier) != Qt::NoModifier) return Walk::None;
    switch (key) {
        case Qt::Key_PageDown:
        case Qt::Key_Right:
        case Qt::Key_Down:
        case Qt::Key_Space:
            return Walk::Next;
        case Qt::Key_PageUp:
        case Qt::Key_Left:
        case Qt::Key_Up:
            return Walk::Previous;
        case Qt::Key_B:
            return Walk::Blank;
        default:
            return Walk::None;
    }
}

bool LectureController::walking() const {
    return hasLecture() && ctx_.presentation->presenting();
}

void LectureController::act(Walk walk) {
    if (walk == Walk::Blank) {
        setBlank(!blank_);
    } else if (walk == Walk::Next) {
        next();
    } else if (walk == Walk::Previous) {
        previous();
    }
}

// The walk keys reach the lecture before the window's shortcuts: a key that would trigger one
// is claimed (ShortcutOverride) and then taken as it is pressed; a shortcut already matched
// (no widget had the focus to ask) is taken too.
bool LectureController::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if (type == QEvent::Resize && watched == ctx_.window && blank_)
        blackout_->setGeometry(ctx_.window->rect());
    if (type != QEvent::KeyPress && type != QEvent::ShortcutOverride && type != QEvent::Shortcut)
        return false;
    if (!walking()) return false;
    if (type == QEvent::Shortcut) {
        const QKeySequence key = static_cast<QShortcutEvent*>(event)->key();
        if (key.count() != 1) return false;
        const Walk walk = walkOf(key[0].key(), key[0].keyboardModifiers());
        auto* action = qobject_cast<QAction*>(watched);
        if (walk == Walk::None || !action || !ctx_.window->actions().contains(action)) return false;
        act(walk);
        return true;
    }
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != ctx_.window) return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    const Walk walk = walkOf(key->key(), key->modifiers());
    if (walk == Walk::None) return false;
    event->accept();
    if (type == QEvent::KeyPress) act(walk);
    return true;
}

bool LectureController::save(QString* why) {
    std::string message;
    if (writeLecture(path_.toStdString(), lecture_, &message)) {
        emit lectureChanged();
        return true;
    }
    if (why) *why = lectureText(message);
    return false;
}

bool LectureController::newLecture(const QString& path, const QString& title, QString* why) {
    Lecture lecture;
    lecture.title = title.toStdString();
    std::string message;
    if (!writeLecture(path.toStdString(), lecture, &message)) {
        if (why) *why = lectureText(message);
        return false;
    }
    return openLecture(path, why);
}

bool LectureController::addCurrentState(const QString& title, QString* why) {
    MainWindow* window = mainWindow();
    if (!hasLecture() || !window) {
        if (why) *why = tr("no lecture open (File > Lecture > New lecture)");
        return false;
    }
    // <lecture>-<n>.cplab beside the lecture, a name no slide's session has yet.
    const QFileInfo lecture(path_);
    QString session;
    for (int n = static_cast<int>(lecture_.slides.size()) + 1;; ++n) {
        session = lecture.absolutePath() + '/' + lecture.completeBaseName() + '-' +
                  QString::number(n) + ".cplab";
        if (!QFileInfo::exists(session)) break;
    }
    if (!window->saveSession(session, false, why)) return false;
    std::string message;
    LectureSlide slide;
    slide.title = title.trimmed().left(kMaxLectureTextChars).toStdString();
    slide.resolved = slide.session = session.toStdString();
    slide.sha256 = sha256OfFile(slide.resolved, &message);
    if (slide.sha256.empty()) {
        if (why) *why = lectureText(message);
        return false;
    }
    lecture_.slides.push_back(slide);
    return save(why);
}

bool LectureController::moveSlide(int from, int to, QString* why) {
    const int count = static_cast<int>(lecture_.slides.size());
    if (from < 0 || from >= count || to < 0 || to >= count) {
        if (why) *why = tr("no such slide");
        return false;
    }
    auto& slides = lecture_.slides;
    LectureSlide moved = slides[static_cast<std::size_t>(from)];
    slides.erase(slides.begin() + from);
    slides.insert(slides.begin() + to, std::move(moved));
    slide_ = -1;
    return save(why);
}

bool LectureController::removeSlide(int index, QString* why) {
    if (index < 0 || index >= static_cast<int>(lecture_.slides.size())) {
        if (why) *why = tr("no such slide");
        return false;
    }
    lecture_.slides.erase(lecture_.slides.begin() + index);
    slide_ = -1;
    ctx_.caption->setSlide({});
    return save(why);
}

void LectureController::askNewLecture() {
    const QString path = QFileDialog::getSaveFileName(ctx_.window, tr("New lecture"), {},
                                                      tr("cplab lectures (*.cplab-lecture)"));
    if (path.isEmpty()) return;
    const QString file = isLecturePath(path.toStdString()) ? path : path + kLectureSuffix;
    bool ok = false;
    const QString title =
        QInputDialog::getText(ctx_.window, tr("New lecture"), tr("Title of the lecture:"),
                              QLineEdit::Normal, QFileInfo(file).completeBaseName(), &ok);
    if (!ok) return;
    QString why;
    if (!newLecture(file, title, &why)) QMessageBox::warning(ctx_.window, tr("Lecture"), why);
}

void LectureController::askOpenLecture() {
    const QString path = QFileDialog::getOpenFileName(ctx_.window, tr("Open lecture"), {},
                                                      tr("cplab lectures (*.cplab-lecture)"));
    QString why;
    if (!path.isEmpty() && !openLecture(path, &why))
        QMessageBox::warning(ctx_.window, tr("Lecture"), why);
}

void LectureController::askAddCurrentState() {
    const DemoInfo* demo = ctx_.presentation->demo();
    bool ok = false;
    const QString title = QInputDialog::getText(
        ctx_.window, tr("Add to the lecture"), tr("Title of the slide:"), QLineEdit::Normal,
        demo ? lectureText(demo->title) : tr("Slide %1").arg(lecture_.slides.size() + 1), &ok);
    if (!ok || title.trimmed().isEmpty()) return;
    QString why;
    if (!addCurrentState(title, &why)) QMessageBox::warning(ctx_.window, tr("Lecture"), why);
}

// A small dialog listing the slides: Up, Down, Remove, each written at once.
void LectureController::editSlides() {
    QDialog dialog(ctx_.window);
    dialog.setWindowTitle(tr("Slides of %1").arg(QFileInfo(path_).fileName()));
    auto* list = new QListWidget(&dialog);
    list->setObjectName("lectureSlides");
    const auto fill = [this, list](int current) {
        list->clear();
        for (const LectureSlide& slide : lecture_.slides)
            list->addItem(lectureText(slide.title) + "  (" +
                          lectureText(slide.demo.empty() ? slide.session : slide.demo) + ")");
        list->setCurrentRow(std::min(current, list->count() - 1));
    };
    fill(0);
    auto* buttons = new QHBoxLayout;
    const auto button = [&](const QString& text, auto what) {
        auto* b = new QPushButton(text, &dialog);
        connect(b, &QPushButton::clicked, &dialog, [this, list, fill, what, &dialog] {
            QString why;
            const int row = list->currentRow();
            const int to = what(row, &why);
            if (to < -1) QMessageBox::warning(&dialog, tr("Lecture"), why);
            fill(to < 0 ? row : to);
        });
        buttons->addWidget(b);
    };
    button(tr("&Up"), [this](int row, QString* why) {
        return row <= 0 ? row : (moveSlide(row, row - 1, why) ? row - 1 : -2);
    });
    button(tr("&Down"), [this](int row, QString* why) {
        return row + 1 >= static_cast<int>(lecture_.slides.size())
                   ? row
                   : (moveSlide(row, row + 1, why) ? row + 1 : -2);
    });
    button(tr("&Remove"), [this](int row, QString* why) {
        return row < 0 ? row : (removeSlide(row, why) ? row : -2);
    });
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(close, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(list);
    layout->addLayout(buttons);
    layout->addWidget(close);
    dialog.exec();
}

}  // namespace cplab
