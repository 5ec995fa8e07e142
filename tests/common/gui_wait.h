// SPDX-License-Identifier: GPL-3.0-or-later
// Waiting on the GUI in tests: processing events until a condition holds.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

#include "coalesced_replot.h"
#include "main_window.h"
#include "run.h"

namespace cplab::testing {

// Processes events until `done` holds or `ms` pass; false on the timeout.
template <class Predicate>
bool waitFor(Predicate done, int ms = 20000) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QTest::qWait(5);
    }
    return true;
}

// Lets `w` draw what it has: posted events (layouts, queued updates) processed and the
// replots its 40 ms timers have pending done at once, as those timers would.
inline void drawPending(QWidget& w) {
    QCoreApplication::processEvents();
    widgets::replotPendingNow(&w);
    QCoreApplication::processEvents();
}

// The window has runs and every one has its first snapshot.
inline bool allReady(const MainWindow& w) {
    for (int k = 0; k < w.runCount(); ++k) {
        if (!w.run(k)->ready()) return false;
    }
    return w.runCount() > 0;
}

// Threads of this process whose name starts with "run-" (Run names its QThread "run-<id>",
// which Qt gives the native thread on Linux); -1 where that cannot be read.
inline int runThreadsAlive() {
#ifdef Q_OS_LINUX
    int count = 0;
    const QDir tasks("/proc/self/task");
    for (const QString& task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(task + "/comm"));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().startsWith("run-")) ++count;
    }
    return count;
#else
    return -1;
#endif
}

}  // namespace cplab::testing
