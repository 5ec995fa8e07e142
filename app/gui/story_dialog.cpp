// SPDX-License-Identifier: GPL-3.0-or-later
#include "story_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QTableWidget>
#include <QVBoxLayout>
#include <functional>

#include "core/events.h"

namespace cplab {

namespace {

QString eventsHelp() {
    QStringList names{"finished"};
    for (const Event e : kAllEvents)
        names << QString::fromLatin1(eventName(e));
    return QObject::tr("Empty, or the event a run must have reported by then: %1")
        .arg(names.join(", "));
}

}  // namespace

StoryDialog::StoryDialog(const Story& story, int iteration, QWidget* parent)
    : QDialog(parent), story_(story), iteration_(iteration) {
    setObjectName("storyDialog");
    if (parent) setFont(parent->font());  // the window's scale (a 4K screen, presenting)
    setWindowTitle(tr("Edit story"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    title_ = new QLineEdit(QString::fromStdString(story.title), this);
    title_->setObjectName("storyTitle");
    watch_ = new QPlainTextEdit(QString::fromStdString(story.watch), this);
    watch_->setObjectName("storyWatch");
    watch_->setFixedHeight(watch_->fontMetrics().lineSpacing() * 3 + 12);
    form->addRow(tr("Title"), title_);
    form->addRow(tr("What to watch"), watch_);
    layout->addLayout(form);
    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName("storyTable");
    table_->setHorizontalHeaderLabels(
        {tr("From iteration"), tr("Event"), tr("Caption"), tr("What to watch (empty: above)")});
    table_->horizontalHeaderItem(kEvent)->setToolTip(eventsHelp());
    // The captions whole, wrapped: the caption's column takes the room, the rows their text.
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(kIteration, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(kEvent, QHeaderView::Interactive);
    header->setSectionResizeMode(kCaption, QHeaderView::Stretch);
    header->setSectionResizeMode(kWatch, QHeaderView::Interactive);
    header->resizeSection(kEvent, header->fontMetrics().horizontalAdvance("plane added") + 24);
    header->resizeSection(kWatch, header->fontMetrics().horizontalAdvance(
                                      table_->horizontalHeaderItem(kWatch)->text() + "MM"));
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideNone);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    for (const StoryBeat& beat : story.beats)
        addRow(beat);
    layout->addWidget(table_, 1);
    auto* rowButtons = new QHBoxLayout;
    const std::pair<QString, std::function<void()>> actions[] = {
        {tr("Add a beat at iteration %1").arg(iteration),
         [this] {
             addRow(StoryBeat{iteration_, {}, {}, {}});
             table_->selectRow(table_->rowCount() - 1);
         }},
        {tr("Remove"),
         [this] {
             if (table_->currentRow() >= 0) table_->removeRow(table_->currentRow());
         }},
        {tr("Up"), [this] { moveRow(-1); }},
        {tr("Down"), [this] { moveRow(1); }}};
    for (const auto& [text, act] : actions) {
        auto* button = new QPushButton(text, this);
        connect(button, &QPushButton::clicked, this, act);
        rowButtons->addWidget(button);
    }
    rowButtons->addStretch(1);
    layout->addLayout(rowButtons);
    problem_ = new QLabel(this);
    problem_->setObjectName("storyProblem");
    problem_->setWordWrap(true);
    QPalette red = problem_->palette();
    red.setColor(QPalette::WindowText, QColor(176, 0, 32));
    problem_->setPalette(red);
    problem_->hide();
    layout->addWidget(problem_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &StoryDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &StoryDialog::reject);
    layout->addWidget(buttons);
    // As large as its type needs (the window's scale reaches it), within the screen.
    const QFontMetrics metrics = fontMetrics();
    QSize size(metrics.averageCharWidth() * 110, metrics.lineSpacing() * 30);
    if (const QScreen* screen = parent ? parent->screen() : nullptr)
        size = size.boundedTo(screen->availableGeometry().size() * 9 / 10);
    resize(size);
}

void StoryDialog::addRow(const StoryBeat& beat) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    const QString cells[] = {QString::number(beat.iteration), QString::fromStdString(beat.event),
                             QString::fromStdString(beat.caption),
                             QString::fromStdString(beat.watch)};
    for (int c = 0; c < kColumns; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c == kEvent) item->setToolTip(eventsHelp());
        table_->setItem(row, c, item);
    }
}

void StoryDialog::moveRow(int direction) {
    const int row = table_->currentRow();
    const int to = row + direction;
    if (row < 0 || to < 0 || to >= table_->rowCount()) return;
    for (int c = 0; c < kColumns; ++c) {
        QTableWidgetItem* a = table_->takeItem(row, c);
        QTableWidgetItem* b = table_->takeItem(to, c);
        table_->setItem(row, c, b);
        table_->setItem(to, c, a);
    }
    table_->selectRow(to);
}

bool StoryDialog::readFields(QString* why) {
    Story story;
    story.title = title_->text().trimmed().toStdString();
    story.watch = watch_->toPlainText().trimmed().toStdString();
    for (int row = 0; row < table_->rowCount(); ++row) {
        const auto text = [&](int c) {
            const QTableWidgetItem* item = table_->item(row, c);
            return item ? item->text().trimmed() : QString();
        };
        bool ok = false;
        const int iteration = text(kIteration).toInt(&ok);
        if (!ok || iteration < 0 || iteration > kMaxStoryIteration) {
            *why = tr("beat %1: the iteration '%2' is not a whole number in [0, %3]")
                       .arg(row + 1)
                       .arg(text(kIteration).left(20))
                       .arg(kMaxStoryIteration);
            return false;
        }
        story.beats.push_back({iteration, text(kEvent).toStdString(), text(kCaption).toStdString(),
                               text(kWatch).toStdString()});
    }
    const std::string problem = storyProblem(story);
    if (!problem.empty()) {
        *why = QString::fromStdString(problem);
        return false;
    }
    story_ = std::move(story);
    return true;
}

void StoryDialog::accept() {
    QString why;
    if (!readFields(&why)) {
        problem_->setText(why);
        problem_->show();
        return;
    }
    QDialog::accept();
}

}  // namespace cplab
