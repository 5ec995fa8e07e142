// SPDX-License-Identifier: GPL-3.0-or-later
// The keyboard focus, clearly visible: a ring 3 pixels wide in a strong blue around the widget
// that the keyboard gave the focus to (Tab, Shift+Tab, a shortcut), drawn above its
// neighbours, in the normal window and in presentation mode alike. The styles' own marks of
// the focus (a dotted line, a tinted frame) are too faint for the back of a room. A click
// gives the focus without the ring: the pointer already says where one is. The ring lets
// the mouse through and follows its widget when it moves, scrolls or hides.
#pragma once

#include <QPointer>
#include <QWidget>

namespace cplab::widgets {

class FocusRing : public QWidget {
    Q_OBJECT
  public:
    // A child of `window`, watching the application's focus changes within it.
    explicit FocusRing(QWidget* window);

    // The widget ringed, or null (the ring hidden).
    QWidget* target() const { return isVisible() ? target_.data() : nullptr; }
    static constexpr int kWidth = 3;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

  private:
    void follow(QWidget* widget);
    void place();

    QPointer<QWidget> target_;
};

}  // namespace cplab::widgets
