// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_follower.h"

#include <sys/stat.h>

#include <QFile>
#include <QFileInfo>
#include <QTimer>

namespace cplab {
namespace {

constexpr int kPollMs = 300;
// At most this much is read per poll, so that a long trace met mid-run fills in over a few
// polls while the window keeps painting.
constexpr qint64 kChunkBytes = 4 << 20;
// Polls without a new row before the writer's lock is asked whether it still lives.
constexpr qint64 kQuietPollsBeforeCheck = 10;
constexpr std::size_t kLongestLine = 1 << 20;

QString iterations(int n) {
    return n == 1 ? TraceFollower::tr("1 iteration") : TraceFollower::tr("%1 iterations").arg(n);
}

}  // namespace

TraceFollower::TraceFollower(const QString& path, QObject* parent)
    : QObject(parent), timer_(new QTimer(this)) {
    trace_ = path.endsWith(".running") ? path.chopped(int(sizeof ".running") - 1) : path;
    running_ = QString::fromStdString(runningTracePath(trace_.toStdString()));
    stateText_ = tr("waiting for %1").arg(QFileInfo(running_).fileName());
    connect(timer_, &QTimer::timeout, this, &TraceFollower::poll);
    timer_->start(kPollMs);
    QTimer::singleShot(0, this, &TraceFollower::poll);
}

QString TraceFollower::name() const {
    return QFileInfo(trace_).fileName();
}

void TraceFollower::setState(State state, const QString& text) {
    const bool changed = state != state_ || text != stateText_;
    state_ = state;
    stateText_ = text;
    if (state == State::Ended || state == State::Stopped || state == State::Failed) timer_->stop();
    if (changed) emit stateChanged();
}

void TraceFollower::restart() {
    records_.clear();
    catchUpTo_ = 0;
    haveHeader_ = false;
    offset_ = 0;
    line_ = 0;
    partial_.clear();
    emit restarted();
}

void TraceFollower::poll() {
    if (state_ == State::Ended || state_ == State::Stopped || state_ == State::Failed) return;
    const QFileInfo running(running_);
    if (running.exists()) {
        if (state_ == State::Waiting) setState(State::Following, tr("following"));
        // A new run writes it now: a new file, or a killed run's taken over (truncated).
        struct stat info {};
        const bool statted = ::stat(QFile::encodeName(running_).constData(), &info) == 0;
        const auto identity = statted ? std::pair(info.st_dev, info.st_ino) : identity_;
        if (running.size() < offset_ || (offset_ > 0 && identity != identity_)) restart();
        identity_ = identity;
        const qint64 before = offset_;
        if (!readFrom(running_, false)) return;
        if (offset_ != before) {
            quietPolls_ = 0;
        } else if (++quietPolls_ % kQuietPollsBeforeCheck == 0 && QFileInfo::exists(running_) &&
                   !runningTraceWriterAlive(running_.toStdString())) {
            setState(State::Stopped, tr("stopped writing after %1: the run that wrote it ended "
                                        "without finishing (killed?)")
                                         .arg(iterations(int(records_.size()))));
        }
        return;
    }
    if (QFileInfo::exists(trace_)) {
        // The run finished (FILE.running gave way to FILE), or FILE is a finished run's trace:
        // FILE is read whole, past the rows already shown.
        const bool finishedBefore = state_ == State::Waiting;
        catchUpTo_ = records_.empty() ? 0 : records_.back().iteration;
        haveHeader_ = false;
        offset_ = 0;
        line_ = 0;
        partial_.clear();
        if (!readFrom(trace_, true)) return;
        const int n = int(records_.size());
        setState(State::Ended, finishedBefore ? tr("a finished run's trace, %1").arg(iterations(n))
                                              : tr("ended after %1").arg(iterations(n)));
        return;
    }
    if (state_ == State::Following)
        setState(State::Failed, tr("%1 was removed before the run wrote %2")
                                    .arg(QFileInfo(running_).fileName(), name()));
}

bool TraceFollower::readFrom(const QString& path, bool whole) {
    // Only a regular file: a FIFO would block the GUI thread in open(), a device never ends.
    struct stat info {};
    if (::stat(QFile::encodeName(path).constData(), &info) == 0 && !S_ISREG(info.st_mode)) {
        setState(State::Failed, tr("%1: not a regular file, so not a trace").arg(path));
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        // Renamed or removed between the check and the open: the next poll sees which.
        return true;
    }
    if (!file.seek(offset_)) return true;
    std::vector<IterationRecord> fresh;
    do {
        const QByteArray bytes = file.read(kChunkBytes);
        if (bytes.isEmpty()) break;
        offset_ += bytes.size();
        partial_.append(bytes.constData(), std::size_t(bytes.size()));
        std::size_t begin = 0;
        for (std::size_t end; (end = partial_.find('\n', begin)) != std::string::npos;
             begin = end + 1) {
            if (!takeLine(partial_.substr(begin, end - begin), path, fresh)) return false;
        }
        partial_.erase(0, begin);
        if (partial_.size() > kLongestLine) {
            setState(State::Failed, tr("%1:%2: a line longer than %3 bytes: not a trace")
                                        .arg(path)
                                        .arg(line_ + 1)
                                        .arg(kLongestLine));
            return false;
        }
    } while (whole);
    if (whole && !partial_.empty()) {  // FILE is complete: its last line may lack its newline
        if (!takeLine(partial_, path, fresh)) return false;
        partial_.clear();
    }
    if (!fresh.empty()) {
        records_.insert(records_.end(), fresh.begin(), fresh.end());
        emit recordsAppended(std::move(fresh));
    }
    return true;
}

bool TraceFollower::takeLine(const std::string& line, const QString& path,
                             std::vector<IterationRecord>& fresh) {
    ++line_;
    std::string why;
    if (!haveHeader_) {
        if (!reader_.readHeader(line, &why)) {
            setState(State::Failed,
                     QString("%1:%2: %3").arg(path).arg(line_).arg(QString::fromStdString(why)));
            return false;
        }
        haveHeader_ = true;
        return true;
    }
    IterationRecord record;
    if (!reader_.readRow(line, record, &why)) {
        setState(State::Failed,
                 QString("%1:%2: %3").arg(path).arg(line_).arg(QString::fromStdString(why)));
        return false;
    }
    if (record.iteration <= catchUpTo_) return true;  // FILE after FILE.running: shown
    const int last = !fresh.empty()      ? fresh.back().iteration
                     : !records_.empty() ? records_.back().iteration
                                         : 0;
    if (record.iteration <= last) {
        setState(State::Failed, QString("%1:%2: iteration %3 after %4: a trace's iterations grow")
                                    .arg(path)
                                    .arg(line_)
                                    .arg(record.iteration)
                                    .arg(last));
        return false;
    }
    fresh.push_back(std::move(record));
    return true;
}

}  // namespace cplab
