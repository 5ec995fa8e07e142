// SPDX-License-Identifier: GPL-3.0-or-later
#include "focus_ring.h"

#include <QApplication>
#include <QFocusEvent>
#include <QPainter>

namespace cplab::widgets {

FocusRing::FocusRing(QWidget* window) : QWidget(window) {
    setObjectName("focusRing");
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
    qApp->installEventFilter(this);
}

bool FocusRing::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
        case QEvent::FocusIn: {
            auto* widget = qobject_cast<QWidget*>(watched);
            if (!widget || widget->window() != window() || widget == this) break;
            const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
            const bool byKeyboard = reason == Qt::TabFocusReason ||
                                    reason == Qt::BacktabFocusReason ||
                                    reason == Qt::ShortcutFocusReason;
            follow(byKeyboard ? widget : nullptr);
            break;
        }
        case QEvent::Move:
        case QEvent::Resize:
        case QEvent::Show:
        case QEvent::Hide:
            // The widget or a parent of it (a scrolled panel, a dock) moved or changed.
            if (target_ && watched->isWidgetType() &&
                (watched == target_ || static_cast<QWidget*>(watched)->isAncestorOf(target_)))
                place();
            break;
        default:
            break;
    }
    return false;
}

void FocusRing::follow(QWidget* widget) {
    target_ = widget;
    place();
}

void FocusRing::place() {
    if (!target_ || !target_->isVisible()) {
        hide();
        return;
    }
    // The widget's visible part (a scroll area shows a part of its contents), grown by the ring.
    const QRect seen = target_->visibleRegion().boundingRect();
    if (seen.isEmpty()) {
        hide();
        return;
    }
    const QRect inner(target_->mapTo(window(), seen.topLeft()), seen.size());
    const QRect outer =
        inner.adjusted(-kWidth, -kWidth, kWidth, kWidth).intersected(window()->rect());
    setGeometry(outer);
    // Only the ring itself covers anything.
    setMask(QRegion(rect()).subtracted(QRegion(inner.translated(-outer.topLeft()))));
    show();
    raise();
    update();
}

void FocusRing::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 84, 210));
    painter.drawRect(rect());
}

}  // namespace cplab::widgets
