// SPDX-License-Identifier: GPL-3.0-or-later
// The caption above the family view: the demo's story as it advances ("2/4  A null step: the
// prox-centre stays"), what the step just did ("iteration 5: null step, plane added"), and
// the demo's "what to watch" text — visible in the window, not only in a tooltip: its first
// two lines, cut with "…" (whole in the tooltip), so that a long text never crowds the view.
#pragma once

#include <QFrame>
#include <QString>

class QLabel;

namespace cplab::widgets {

class CaptionBar : public QFrame {
    Q_OBJECT
  public:
    explicit CaptionBar(QWidget* parent = nullptr);

    // A demo's title and what to watch; an empty title hides the bar (no demo).
    void setDemo(const QString& title, const QString& watch);
    // Beat `index` (0-based) of `count`, or no beat yet (index < 0).
    void setBeat(int index, int count, const QString& text);
    // What the shown step did ("iteration 5: null step"); empty clears it.
    void setEvents(const QString& text);
    // A lecture's slide ("3/5 - Bundle methods"), on a line of its own above the beat; empty
    // hides it. It stays when the demo changes (clear() leaves it): the lecture sets it.
    void setSlide(const QString& text);
    void clear();

    QString beatText() const;
    QString eventsText() const;  // whole (the bar shows its first two lines)
    QString watchText() const;
    QString slideText() const;

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;  // a new font (the window's scale): cut again

  private:
    void elideWatch();
    void updateVisibility();

    QString watchFull_;
    QString eventsFull_;
    QLabel* slide_;
    QLabel* beat_;
    QLabel* events_;
    QLabel* watch_;
};

}  // namespace cplab::widgets
