// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/child_read.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/child_limits.h"
#include "data/data_error.h"

namespace cplab {

namespace {

std::atomic<bool> forkReads{true};

// What the child sends first: a Dataset follows, or a DataError, or another failure's text.
enum class Outcome : std::uint8_t { Dataset = 1, DataError = 2, Failure = 3 };

// --- The child's side: everything written in full, in this machine's byte order -------------

class PipeWriter {
  public:
    explicit PipeWriter(int fd) : fd_(fd) {}
    void bytes(const void* data, std::size_t size) {
        const auto* p = static_cast<const char*>(data);
        while (size > 0) {
            const ssize_t n = ::write(fd_, p, size);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) _exit(3);  // the parent is gone: nobody to tell
            p += n;
            size -= static_cast<std::size_t>(n);
        }
    }
    template <class T>
    void value(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    void text(const std::string& s) {
        value<std::uint64_t>(s.size());
        bytes(s.data(), s.size());
    }
    template <class T>
    void array(const T* data, std::int64_t count) {
        value<std::int64_t>(count);
        bytes(data, static_cast<std::size_t>(count) * sizeof(T));
    }
    void texts(const std::vector<std::string>& list) {
        value<std::uint64_t>(list.size());
        for (const std::string& s : list)
            text(s);
    }

  private:
    int fd_;
};

void writeDataset(PipeWriter& out, Dataset& data) {
    out.value(Outcome::Dataset);
    out.text(data.name);
    out.text(data.source);
    out.text(data.labelName);
    out.value<std::uint8_t>(data.sparseStorage ? 1 : 0);
    if (data.sparseStorage) {
        data.sparse.makeCompressed();
        out.value<std::int64_t>(data.sparse.rows());
        out.value<std::int64_t>(data.sparse.cols());
        out.array(data.sparse.outerIndexPtr(), data.sparse.rows() + 1);
        out.array(data.sparse.innerIndexPtr(), data.sparse.nonZeros());
        out.array(data.sparse.valuePtr(), data.sparse.nonZeros());
    } else {
        out.value<std::int64_t>(data.dense.rows());
        out.value<std::int64_t>(data.dense.cols());
        out.array(data.dense.data(), data.dense.size());
    }
    out.array(data.labels.data(), data.labels.size());
    out.texts(data.featureNames);
    out.texts(data.classNames);
    out.array(data.lines.data(), static_cast<std::int64_t>(data.lines.size()));
    out.array(data.featureIds.data(), static_cast<std::int64_t>(data.featureIds.size()));
    out.value<std::int32_t>(data.originalDimension);
}

[[noreturn]] void runChild(int fd, std::uint64_t fileBytes, const std::function<Dataset()>& read) {
    // A Ctrl+C meant for the parent ends the child too (the parent reports it).
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    // The data segment may grow by 1 GiB plus four times the file (a dense variable is read
    // whole and then copied once).
    limitChildData((std::uint64_t{1} << 30) + 4 * fileBytes);
    PipeWriter out(fd);
    try {
        Dataset data = read();
        writeDataset(out, data);
    } catch (const DataError& e) {
        out.value(Outcome::DataError);
        out.text(e.file());
        out.value<std::int32_t>(e.line());
        out.text(e.detail());
    } catch (const std::bad_alloc&) {
        out.value(Outcome::Failure);
        out.text("reading it needs more memory than its size justifies");
    } catch (const std::exception& e) {
        out.value(Outcome::Failure);
        out.text(e.what());
    } catch (...) {
        out.value(Outcome::Failure);
        out.text("an unknown failure");
    }
    ::close(fd);
    _exit(0);  // no destructors or atexit handlers of the parent's copy (Qt, MPI)
}

// --- The parent's side -------------------------------------------------------------------------

class PipeReader {
  public:
    explicit PipeReader(int fd) : fd_(fd) {}
    // False at the end of the pipe before `size` bytes.
    bool bytes(void* data, std::size_t size) {
        auto* p = static_cast<char*>(data);
        while (size > 0) {
            const ssize_t n = ::read(fd_, p, size);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            p += n;
            size -= static_cast<std::size_t>(n);
        }
        return true;
    }
    template <class T>
    T value() {
        T v{};
        if (!bytes(&v, sizeof v)) throw Truncated{};
        return v;
    }
    std::string text() {
        const auto size = value<std::uint64_t>();
        if (size > (std::uint64_t{1} << 31)) throw Truncated{};
        std::string s(size, '\0');
        if (!bytes(s.data(), size)) throw Truncated{};
        return s;
    }
    std::int64_t count(std::int64_t expected = -1) {
        const auto n = value<std::int64_t>();
        if (n < 0 || (expected >= 0 && n != expected)) throw Truncated{};
        return n;
    }
    template <class T>
    void into(T* data, std::int64_t count) {
        if (!bytes(data, static_cast<std::size_t>(count) * sizeof(T))) throw Truncated{};
    }
    template <class T>
    std::vector<T> array() {
        std::vector<T> v(static_cast<std::size_t>(count()));
        into(v.data(), static_cast<std::int64_t>(v.size()));
        return v;
    }
    struct Truncated {};

  private:
    int fd_;
};

std::vector<std::string> readTexts(PipeReader& in) {
    const auto n = in.value<std::uint64_t>();
    if (n > (std::uint64_t{1} << 31)) throw PipeReader::Truncated{};
    std::vector<std::string> list;
    for (std::uint64_t i = 0; i < n; ++i)
        list.push_back(in.text());
    return list;
}

Dataset readDataset(PipeReader& in) {
    Dataset data;
    data.name = in.text();
    data.source = in.text();
    data.labelName = in.text();
    data.sparseStorage = in.value<std::uint8_t>() != 0;
    const auto rows = in.value<std::int64_t>();
    const auto cols = in.value<std::int64_t>();
    if (rows < 0 || cols < 0 || rows > INT32_MAX || cols > INT32_MAX) throw PipeReader::Truncated{};
    if (data.sparseStorage) {
        std::vector<int> outer(static_cast<std::size_t>(in.count(rows + 1)));
        in.into(outer.data(), rows + 1);
        std::vector<int> inner(static_cast<std::size_t>(in.count()));
        in.into(inner.data(), static_cast<std::int64_t>(inner.size()));
        std::vector<double> values(static_cast<std::size_t>(in.count(inner.size())));
        in.into(values.data(), static_cast<std::int64_t>(values.size()));
        // Rebuilt through the triplets, which checks every index against the shape.
        std::vector<Eigen::Triplet<double, int>> entries;
        entries.reserve(values.size());
        for (std::int64_t i = 0; i < rows; ++i) {
            if (outer[i] < 0 || outer[i] > outer[i + 1] ||
                outer[i + 1] > static_cast<int>(inner.size()))
                throw PipeReader::Truncated{};
            for (int k = outer[i]; k < outer[i + 1]; ++k) {
                if (inner[k] < 0 || inner[k] >= cols) throw PipeReader::Truncated{};
                entries.emplace_back(static_cast<int>(i), inner[k], values[k]);
            }
        }
        data.sparse =
            sparseFromTriplets(static_cast<int>(rows), static_cast<int>(cols), std::move(entries));
    } else {
        in.count(rows * cols);
        data.dense.resize(rows, cols);
        in.into(data.dense.data(), rows * cols);
    }
    data.labels.resize(in.count());
    in.into(data.labels.data(), data.labels.size());
    data.featureNames = readTexts(in);
    data.classNames = readTexts(in);
    data.lines = in.array<int>();
    data.featureIds = in.array<int>();
    data.originalDimension = in.value<std::int32_t>();
    return data;
}

// What the child's end says about it, for a child that sent no complete answer.
std::string childFate(int status) {
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const char* name = strsignal(signal);
        return "stopped by signal " + std::to_string(signal) + " (" + (name ? name : "?") + ")";
    }
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    return "ended unexpectedly";
}

}  // namespace

void setChildProcessReads(bool fork) {
    forkReads = fork;
}

Dataset readInChildProcess(const std::string& path, std::uint64_t fileBytes,
                           const std::string& library, const std::function<Dataset()>& read) {
    if (!forkReads) return read();
    int fds[2];
    if (::pipe(fds) != 0)
        throw DataError(path, 0,
                        std::string("cannot make a pipe to read it: ") + std::strerror(errno));
    const pid_t child = ::fork();
    if (child < 0) {
        const int error = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        throw DataError(path, 0,
                        std::string("cannot start a process to read it: ") + std::strerror(error));
    }
    if (child == 0) {
        ::close(fds[0]);
        runChild(fds[1], fileBytes, read);
    }
    ::close(fds[1]);
    // However this ends (an answer, a broken pipe, no memory here), the pipe is closed and the
    // child reaped.
    struct Reap {
        int fd;
        pid_t child;
        int status = 0;
        void operator()() {
            if (fd < 0) return;
            ::close(fd);
            fd = -1;
            while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
            }
        }
        ~Reap() { (*this)(); }
    } reap{fds[0], child};
    PipeReader in(fds[0]);
    std::optional<Dataset> data;
    std::optional<DataError> error;
    try {
        switch (in.value<Outcome>()) {
            case Outcome::Dataset:
                data = readDataset(in);
                break;
            case Outcome::DataError: {
                std::string file = in.text();
                const auto line = in.value<std::int32_t>();
                error.emplace(std::move(file), line, in.text());
                break;
            }
            case Outcome::Failure:
                error.emplace(path, 0, library + " failed reading it: " + in.text());
                break;
            default:
                throw PipeReader::Truncated{};
        }
    } catch (const PipeReader::Truncated&) {
    }
    reap();
    if (error) throw *error;
    if (!data)
        throw DataError(path, 0,
                        library + " failed reading it (the reading process " +
                            childFate(reap.status) + "): the file is corrupt");
    return std::move(*data);
}

}  // namespace cplab
