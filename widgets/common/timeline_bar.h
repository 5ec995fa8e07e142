// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline under the views: a slider over the selected run's iterations, ← and → to step
// through history, and "Live" to follow the newest iteration again. It only reports where the
// user wants to be; the main window shows that iteration in every view.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSlider;

namespace cplab::widgets {

class TimelineBar : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineBar(QWidget* parent = nullptr);

    // The iterations there are (0 … last); while live the slider follows `last`.
    void setLast(int last);
    int last() const { return last_; }
    // The iteration shown; leaves live mode when it is not the last.
    void setPosition(int iteration);
    int position() const;
    bool isLive() const { return live_; }
    void setLive(bool live);
    // The text beside the slider ("iteration 3 of 10").
    void setCaption(const QString& text);

    QSlider* slider() const { return slider_; }

  public slots:
    void stepBack();
    void stepForward();

  signals:
    // The user moved to `iteration` (slider, arrows or buttons) or back to live.
    void positionChosen(int iteration);
    void liveChosen();

  protected:
    void changeEvent(QEvent* event) override;  // a new font (the window's scale)

  private:
    void updateLiveButton();
    // The arrow buttons as wide as two lines of the font are high (32 px at the designed size).
    void sizeArrows();

    QPushButton* back_;
    QSlider* slider_;
    QPushButton* forward_;
    QPushButton* liveButton_;
    QLabel* caption_;
    int last_ = 0;
    bool live_ = true;
};

}  // namespace cplab::widgets
