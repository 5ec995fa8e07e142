// SPDX-License-Identifier: GPL-3.0-or-later
#include "coalesced_replot.h"

#include <qcustomplot.h>

#include <QTimer>

namespace cplab::widgets {

CoalescedReplot::CoalescedReplot(QCustomPlot* plot, std::function<void()> beforeReplot)
    : QObject(plot), plot_(plot), beforeReplot_(std::move(beforeReplot)), timer_(new QTimer(this)) {
    timer_->setSingleShot(true);
    timer_->setInterval(kIntervalMs);
    connect(timer_, &QTimer::timeout, this, &CoalescedReplot::now);
}

void CoalescedReplot::schedule() {
    if (!timer_->isActive()) timer_->start();
}

bool CoalescedReplot::pending() const {
    return timer_->isActive();
}

void CoalescedReplot::now() {
    timer_->stop();
    if (beforeReplot_) beforeReplot_();
    plot_->replot();
}

void replotPendingNow(QObject* root) {
    for (CoalescedReplot* replot : root->findChildren<CoalescedReplot*>())
        if (replot->pending()) replot->now();
}

}  // namespace cplab::widgets
