// SPDX-License-Identifier: GPL-3.0-or-later
#include "live_trace.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

#include "number_text.h"
#include "output_file.h"
#include "trace_csv.h"

namespace cplab {
namespace {

constexpr std::string_view kHeaderStart = "iteration,seconds,oracle_calls,";

// The lock, tried for a moment: a follower checking whether the writer lives holds a shared
// lock for an instant, and must not make a new run fail.
bool lockExclusive(int fd) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
        if (errno != EWOULDBLOCK && errno != EINTR) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return false;
}

bool writeAll(int fd, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Opens the running file for writing, locked: a new one, or a killed run's leftover. nullopt
// with *why when it is another run's or the user's own.
int openRunning(const std::string& running, std::string* why) {
    struct stat info {};
    if (::lstat(running.c_str(), &info) != 0) {
        const int fd = ::open(running.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) *why = "cannot write: " + std::string(std::strerror(errno));
        if (fd >= 0 && !lockExclusive(fd)) {
            ::close(fd);
            *why = "another run took it over";
            return -1;
        }
        return fd;
    }
    if (!S_ISREG(info.st_mode)) {
        *why = "exists and is not a trace cplab wrote (it is left as it is)";
        return -1;
    }
    const int fd = ::open(running.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        *why = "cannot write: " + std::string(std::strerror(errno));
        return -1;
    }
    if (!lockExclusive(fd)) {
        ::close(fd);
        *why = "another run is writing it now (give this run another --trace)";
        return -1;
    }
    // A killed run's leftover: empty (killed while loading its data) or a trace.
    std::string head(kHeaderStart.size(), '\0');
    const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
    if (n != 0 && (n != static_cast<ssize_t>(head.size()) || head != kHeaderStart)) {
        ::close(fd);
        *why = "exists and is not a trace cplab wrote (it is left as it is)";
        return -1;
    }
    // A run that was killed left it: this run takes it over.
    if (::ftruncate(fd, 0) != 0) {
        *why = "cannot write: " + std::string(std::strerror(errno));
        ::close(fd);
        return -1;
    }
    return fd;
}

// The header's names, RFC 4180 quotes undone; false on a stray quote.
bool splitHeader(std::string_view line, std::vector<std::string>& names) {
    std::string name;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"') {
                name += c;
            } else if (i + 1 < line.size() && line[i + 1] == '"') {
                name += '"';
                ++i;
            } else {
                quoted = false;
            }
        } else if (c == ',') {
            names.push_back(std::move(name));
            name.clear();
        } else if (c == '"' && name.empty()) {
            quoted = true;
        } else if (c == '"') {
            return false;
        } else {
            name += c;
        }
    }
    names.push_back(std::move(name));
    return !quoted;
}

}  // namespace

std::string runningTracePath(const std::string& tracePath) {
    return tracePath + ".running";
}

LiveTrace::~LiveTrace() {
    finish();
}

std::optional<std::string> LiveTrace::start(const std::string& tracePath) {
    finish();
    struct stat info {};
    if (::stat(tracePath.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) return std::nullopt;
    running_ = runningTracePath(tracePath);
    if (notedInputSameAs(running_)) return running_ + ": is an input of this run";
    std::string why;
    fd_ = openRunning(running_, &why);
    if (fd_ < 0) return running_ + ": " + why;
    failure_.clear();
    return std::nullopt;
}

void LiveTrace::columns(const std::vector<std::string>& extraColumns) {
    if (fd_ < 0) return;
    extraCount_ = extraColumns.size();
    std::ostringstream header;
    writeTraceHeader(header, traceColumns(extraColumns, TraceLayout{true, true}));
    if (!writeAll(fd_, header.str()))
        failure_ = running_ + ": cannot write: " + std::strerror(errno);
}

void LiveTrace::append(const IterationRecord& record) {
    if (fd_ < 0 || !failure_.empty()) return;
    std::ostringstream row;
    writeTraceRow(row, record, TraceLayout{true, true}, extraCount_);
    if (!writeAll(fd_, row.str()))
        failure_ = running_ + ": cannot write: " + std::strerror(errno) +
                   " (it stops here; the finished trace is still written)";
}

bool LiveTrace::finish(bool keep) {
    if (fd_ < 0) return false;
    keep = keep && failure_.empty();
    // Removed only while the name is still this run's file: one moved onto it during the run
    // (another's) is left alone.
    struct stat ours {
    }, named{};
    if (!keep && ::fstat(fd_, &ours) == 0 && ::lstat(running_.c_str(), &named) == 0 &&
        ours.st_dev == named.st_dev && ours.st_ino == named.st_ino)
        ::unlink(running_.c_str());
    ::close(fd_);  // releases the lock
    fd_ = -1;
    return keep;
}

bool runningTraceWriterAlive(const std::string& runningPath) {
    const int fd = ::open(runningPath.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    const bool free = ::flock(fd, LOCK_SH | LOCK_NB) == 0;
    if (free) ::flock(fd, LOCK_UN);
    ::close(fd);
    return !free;
}

bool TraceCsvReader::readHeader(std::string_view line, std::string* why) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string> names;
    if (!splitHeader(line, names) || names.size() < 7) {
        *why = "expected a trace's header (iteration,seconds,oracle_calls,upper,lower,gap,...)";
        return false;
    }
    *this = TraceCsvReader{};
    columns_ = names.size();
    const std::pair<const char*, int*> known[] = {
        {"iteration", &iteration_}, {"seconds", &seconds_},    {"oracle_calls", &oracleCalls_},
        {"upper", &upper_},         {"lower", &lower_},        {"gap", &gap_},
        {"passes", &passes_},       {"path_parameter", &path_}};
    for (std::size_t c = 0; c < names.size(); ++c) {
        bool standard = names[c] == "rel_gap";
        for (const auto& [name, index] : known) {
            if (names[c] != name) continue;
            if (*index >= 0) {
                *why = "the column '" + names[c] + "' appears twice";
                return false;
            }
            *index = static_cast<int>(c);
            standard = true;
        }
        if (!standard) {
            extras_.push_back(static_cast<int>(c));
            extraNames_.push_back(names[c]);
        }
    }
    for (const auto& [name, index] : known) {
        if (*index < 0 && index != &passes_ && index != &path_) {
            *why = std::string("expected a trace's header: it has no column '") + name + "'";
            return false;
        }
    }
    return true;
}

bool TraceCsvReader::readRow(std::string_view line, IterationRecord& record,
                             std::string* why) const {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> cells;
    std::size_t begin = 0;
    while (true) {
        const std::size_t comma = line.find(',', begin);
        cells.push_back(line.substr(begin, comma - begin));
        if (comma == std::string_view::npos) break;
        begin = comma + 1;
    }
    if (cells.size() != columns_) {
        *why = "expected " + std::to_string(columns_) + " columns, found " +
               std::to_string(cells.size());
        return false;
    }
    const auto real = [&](int index, const char* name, double& value) {
        const NumberError error = parseReal(cells[static_cast<std::size_t>(index)], value, true);
        if (error != NumberError::None) *why = std::string(name) + " " + describe(error);
        return error == NumberError::None;
    };
    const auto count = [&](int index, const char* name, double& value) {
        if (!real(index, name, value)) return false;
        if (value >= 0 && value <= 9e15 &&
            value == static_cast<double>(static_cast<long long>(value)))
            return true;
        *why = std::string(name) + " is not a count (a whole number, 0 or more)";
        return false;
    };
    IterationRecord r;
    double iteration = 0, calls = 0;
    if (!count(iteration_, "iteration", iteration) || iteration > 2e9 ||
        !count(oracleCalls_, "oracle_calls", calls) || !real(seconds_, "seconds", r.seconds) ||
        !real(upper_, "upper", r.upper) || !real(lower_, "lower", r.lower) ||
        !real(gap_, "gap", r.gap)) {
        if (iteration > 2e9) *why = "iteration is out of range";
        return false;
    }
    r.iteration = static_cast<int>(iteration);
    r.oracleCalls = static_cast<long long>(calls);
    r.passes = r.oracleCalls;
    if (passes_ >= 0 && !real(passes_, "passes", r.passes)) return false;
    if (path_ >= 0 && !real(path_, "path_parameter", r.pathParameter)) return false;
    r.extra.resize(extras_.size());
    for (std::size_t k = 0; k < extras_.size(); ++k) {
        if (!real(extras_[k], extraNames_[k].c_str(), r.extra[k])) return false;
    }
    record = std::move(r);
    return true;
}

}  // namespace cplab
