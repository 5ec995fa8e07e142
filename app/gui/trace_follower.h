// SPDX-License-Identifier: GPL-3.0-or-later
// File › Follow a running trace: reads a trace that a run elsewhere (`cplab-cli run --trace
// FILE`, on this machine or a cluster's shared disk) is writing, and reports its rows as they
// come, until the run ends. core/live_trace.h says how the CLI writes it: FILE.running grows a
// row per iteration, then FILE is written whole and FILE.running removed.
//
// The follower polls (a few times a second; a file system watcher misses changes on network
// disks): it reads what FILE.running gained, only complete lines; when FILE.running is gone it
// reads FILE for the rows it had not seen and the run has ended. A FILE.running that stops
// growing and whose writer holds no lock any more was left by a killed run. Given FILE alone (a
// finished run's trace), it reads it once. A row that is not a trace's stops the follower with
// the file and line.
#pragma once

#include <QObject>
#include <QString>
#include <string>
#include <utility>
#include <vector>

#include "core/iteration_record.h"
#include "core/live_trace.h"

class QTimer;

namespace cplab {

class TraceFollower : public QObject {
    Q_OBJECT
  public:
    enum class State { Waiting, Following, Ended, Stopped, Failed };

    // Follows the trace FILE at `path` (FILE or FILE.running may be given) from now on.
    explicit TraceFollower(const QString& path, QObject* parent = nullptr);

    // FILE's path, and its name for legends and the log.
    const QString& tracePath() const { return trace_; }
    QString name() const;
    State state() const { return state_; }
    // "following", "ended", "stopped writing: …", the error with file and line, …
    QString stateText() const { return stateText_; }
    const std::vector<IterationRecord>& records() const { return records_; }
    const std::vector<std::string>& extraColumns() const { return reader_.extraColumns(); }
    // Reads what is new now (the timer calls it; tests too).
    void poll();

  signals:
    void recordsAppended(std::vector<cplab::IterationRecord> records);
    // A new run started writing FILE.running over the one followed: the records start again.
    void restarted();
    void stateChanged();

  private:
    // Reads `path` from offset_ on; false when it failed (state Failed).
    bool readFrom(const QString& path, bool whole);
    bool takeLine(const std::string& line, const QString& path,
                  std::vector<IterationRecord>& fresh);
    void setState(State state, const QString& text);
    void restart();

    QString trace_, running_;
    QTimer* timer_;
    State state_ = State::Waiting;
    QString stateText_;
    TraceCsvReader reader_;
    bool haveHeader_ = false;
    qint64 offset_ = 0;
    qint64 line_ = 0;
    int catchUpTo_ = 0;  // reading FILE after FILE.running: rows up to here were shown
    std::string partial_;
    std::vector<IterationRecord> records_;
    std::pair<unsigned long, unsigned long> identity_{0, 0};  // FILE.running's device, inode
    qint64 quietPolls_ = 0;  // polls in a row that found nothing new
};

}  // namespace cplab
