// Waiting on the GUI in tests: processing events until a condition holds.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtTest>

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

// The window has runs and every one has its first snapshot.
inline bool allReady(const MainWindow& w) {
    for (int k = 0; k < w.runCount(); ++k) {
        if (!w.run(k)->ready()) return false;
    }
    return w.runCount() > 0;
}

}  // namespace cplab::testing
