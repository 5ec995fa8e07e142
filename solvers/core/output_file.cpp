// SPDX-License-Identifier: GPL-3.0-or-later
#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

namespace cplab {

namespace {

namespace fs = std::filesystem;

std::string reason(int error) {
    return std::generic_category().message(error);
}

std::string modeText(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

// A file read as an input, by its identity: device and inode, and its birth time where the file
// system keeps one, so that a file created later on the inode of a deleted input (the inode is
// reused) is not taken for that input, while a moved or renamed input still is.
struct Noted {
    dev_t device;
    ino_t inode;
    std::optional<std::pair<std::int64_t, std::uint32_t>> born;
    std::string path;
};

struct Identity {
    dev_t device = 0;
    ino_t inode = 0;
    std::optional<std::pair<std::int64_t, std::uint32_t>> born;
};

std::optional<Identity> identityOf(const std::string& path) {
    struct statx info {};
    if (path.empty() || ::statx(AT_FDCWD, path.c_str(), 0, STATX_INO | STATX_BTIME, &info) != 0)
        return std::nullopt;
    Identity id;
    id.device = makedev(info.stx_dev_major, info.stx_dev_minor);
    id.inode = info.stx_ino;
    if (info.stx_mask & STATX_BTIME)
        id.born = std::pair{info.stx_btime.tv_sec, info.stx_btime.tv_nsec};
    return id;
}

// The same file: the same device and inode, and not born at another time (where both times are
// known).
bool sameIdentity(const Noted& n, const Identity& id) {
    return n.device == id.device && n.inode == id.inode &&
           (!n.born || !id.born || *n.born == *id.born);
}

std::mutex gMutex;
int gScopes = 0;                    // live InputFileScopes; guarded by gMutex
std::vector<Noted> gInputs;         // guarded by gMutex
std::map<std::string, int> gFifos;  // FIFOs found with a reader, held open; by gMutex

// The umask, read without changing it (umask() would, for every thread at once).
mode_t currentUmask() {
    if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
        char line[256];
        unsigned mask = 0;
        bool found = false;
        while (!found && std::fgets(line, sizeof line, status))
            found = std::sscanf(line, "Umask: %o", &mask) == 1;
        std::fclose(status);
        if (found) return static_cast<mode_t>(mask);
    }
    return 022;
}

// The file an output at `path` replaces: `path`, or where its symbolic link leads (a shell
// redirect writes through a link; renaming over the link would replace the link instead),
// also when the link dangles (the file it names is then created). A chain of links is
// followed as far as the system follows one (40 links); a loop is left to fail on writing.
std::string resolvedTarget(const std::string& path) {
    fs::path target = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat link {};
        if (::lstat(target.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) break;
        std::error_code ec;
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) break;
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    if (target == fs::path(path)) return path;
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(target, ec);
    return ec ? target.lexically_normal().string() : resolved.string();
}

std::string folderOf(const std::string& path) {
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

// A unique temporary file beside `target`: ".name.XXXXXX" plus `suffix`, the name shortened
// so that the temporary name fits where the target's name fits (255 bytes). Returns the open
// descriptor (and the name in `name`), or -1 with errno set.
int makeTemporary(const std::string& target, const std::string& suffix, std::string& name) {
    constexpr std::size_t kNameMax = 255;
    const fs::path folder = folderOf(target);
    std::string stem = fs::path(target).filename().string();
    const std::size_t room = kNameMax - std::min(kNameMax, suffix.size() + 8);  // "." ".XXXXXX"
    if (stem.size() > room) stem.resize(room);
    std::string pattern = (folder / ("." + stem + ".XXXXXX" + suffix)).string();
    const int fd = ::mkostemps(pattern.data(), static_cast<int>(suffix.size()), O_CLOEXEC);
    if (fd >= 0) name = pattern;
    return fd;
}

std::optional<std::string> writeAll(int fd, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return "cannot write: " + reason(n < 0 ? errno : EIO);
        done += static_cast<std::size_t>(n);
    }
    return std::nullopt;
}

// Why a new or replaced regular file cannot go to `target`'s folder (a temporary file is made
// and removed there to find out), or nullopt.
std::optional<std::string> folderProblem(const std::string& target) {
    const std::string folder = folderOf(target);
    struct stat info {};
    if (::stat(folder.c_str(), &info) != 0) {
        if (errno == ENOENT) return "cannot write: the folder '" + folder + "' does not exist";
        return "cannot write in the folder '" + folder + "': " + reason(errno);
    }
    if (!S_ISDIR(info.st_mode)) return "cannot write: '" + folder + "' is not a folder";
    std::string name;
    const int fd = makeTemporary(target, "", name);
    if (fd < 0) return "cannot write in the folder '" + folder + "': " + reason(errno);
    ::close(fd);
    ::unlink(name.c_str());
    return std::nullopt;
}

// The permission bits a file written at `target` gets, and its owner where it replaces one.
struct Replaced {
    bool exists = false;
    struct stat info {};
};

Replaced replacedFile(const std::string& target) {
    Replaced r;
    r.exists = ::stat(target.c_str(), &r.info) == 0 && S_ISREG(r.info.st_mode);
    return r;
}

void giveAttributes(int fd, const Replaced& replaced) {
    if (replaced.exists) {
        if (::fchown(fd, replaced.info.st_uid, replaced.info.st_gid) != 0) {
            // Not the owner's to give (an ordinary user replacing a group's file): the new
            // file is ours, with the old one's permission bits.
        }
        ::fchmod(fd, replaced.info.st_mode & 07777);
    } else {
        ::fchmod(fd, 0666 & ~currentUmask());
    }
}

}  // namespace

InputFileScope::InputFileScope() {
    std::lock_guard lock(gMutex);
    ++gScopes;
}

InputFileScope::~InputFileScope() {
    std::lock_guard lock(gMutex);
    if (--gScopes == 0) gInputs.clear();
}

void noteInputFile(const std::string& path) {
    const auto id = identityOf(path);
    if (!id) return;
    std::lock_guard lock(gMutex);
    if (gScopes == 0) return;
    for (Noted& n : gInputs) {
        if (n.device != id->device || n.inode != id->inode) continue;
        if (sameIdentity(n, *id)) return;
        // The inode of a deleted input, reused by a new file: this one replaces it.
        n.born = id->born;
        n.path = path;
        return;
    }
    gInputs.push_back({id->device, id->inode, id->born, path});
}

std::optional<std::string> notedInputSameAs(const std::string& path) {
    const auto id = identityOf(path);
    if (!id) return std::nullopt;
    std::lock_guard lock(gMutex);
    for (const Noted& n : gInputs) {
        if (sameIdentity(n, *id)) return n.path;
    }
    return std::nullopt;
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat x {
    }, y{};
    return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev &&
           x.st_ino == y.st_ino;
}

std::optional<std::string> outputProblem(const std::string& path) {
    if (path.empty()) return std::string("an output needs a file name");
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        struct stat link {};
        if (errno != ENOENT && !(::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)))
            return "cannot write: " + reason(errno);
        return folderProblem(resolvedTarget(path));  // a new file (or a dangling link's)
    }
    if (S_ISDIR(info.st_mode)) return std::string("is a directory, not a file");
    if (const auto input = notedInputSameAs(path)) {
        return (*input == path ? std::string("is an input of this run")
                               : "is the same file as the input " + *input) +
               "; an output never replaces an input";
    }
    if (S_ISREG(info.st_mode)) {
        if ((info.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0) {
            return "is write-protected (mode " + modeText(info.st_mode) +
                   "); not replaced (make it writable or choose another name)";
        }
        return folderProblem(resolvedTarget(path));
    }
    if (S_ISCHR(info.st_mode)) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return "cannot write: " + reason(errno);
        ::close(fd);
        return std::nullopt;
    }
    if (S_ISFIFO(info.st_mode)) {
        std::lock_guard lock(gMutex);
        if (gFifos.count(path)) return std::nullopt;
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 && errno == ENXIO)
            return std::string("is a FIFO that no process reads; writing it would wait forever");
        if (fd < 0) return "cannot write: " + reason(errno);
        gFifos[path] = fd;
        return std::nullopt;
    }
    return std::string("is a special file (a socket or a block device), not one cplab writes");
}

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes) {
    if (auto problem = outputProblem(path)) return problem;
    struct stat info {};
    const bool special = ::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
    if (special) {  // a character device or a FIFO with a reader: written in place
        int fd = -1;
        {
            std::lock_guard lock(gMutex);
            if (auto held = gFifos.find(path); held != gFifos.end()) {
                fd = held->second;
                gFifos.erase(held);
            }
        }
        if (fd < 0) fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) return "cannot write: " + reason(errno);
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        auto failure = writeAll(fd, bytes);
        if (::close(fd) != 0 && !failure) failure = "cannot write: " + reason(errno);
        return failure;
    }
    const std::string target = resolvedTarget(path);
    const Replaced replaced = replacedFile(target);
    std::string temporary;
    const int fd = makeTemporary(target, "", temporary);
    if (fd < 0) return "cannot write in the folder '" + folderOf(target) + "': " + reason(errno);
    giveAttributes(fd, replaced);
    auto failure = writeAll(fd, bytes);
    if (!failure && ::fsync(fd) != 0) failure = "cannot write: " + reason(errno);
    if (::close(fd) != 0 && !failure) failure = "cannot write: " + reason(errno);
    if (!failure && ::rename(temporary.c_str(), target.c_str()) != 0)
        failure = "cannot write: " + reason(errno);
    if (failure) ::unlink(temporary.c_str());
    return failure;
}

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
    if (auto problem = outputProblem(path_)) {
        error_ = *problem;
        return;
    }
    struct stat info {};
    if (::stat(path_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
        // A device or a FIFO is written in place: there is nothing to rename over.
        temporary_ = path_;
        std::lock_guard lock(gMutex);
        if (auto held = gFifos.find(path_); held != gFifos.end()) {
            ::close(held->second);
            gFifos.erase(held);
        }
        return;
    }
    target_ = resolvedTarget(path_);
    const std::string suffix = fs::path(target_).extension().string();
    const int fd = makeTemporary(target_, suffix, temporary_);
    if (fd < 0) {
        error_ = "cannot write in the folder '" + folderOf(target_) + "': " + reason(errno);
        temporary_.clear();
        return;
    }
    giveAttributes(fd, replacedFile(target_));
    ::close(fd);
}

AtomicOutput::~AtomicOutput() {
    if (!committed_ && !target_.empty() && !temporary_.empty()) ::unlink(temporary_.c_str());
}

std::optional<std::string> AtomicOutput::commit() {
    if (!error_.empty()) return error_;
    committed_ = true;
    if (target_.empty()) return std::nullopt;  // written in place
    struct stat info {};
    if (::stat(temporary_.c_str(), &info) != 0 || info.st_size == 0) {
        ::unlink(temporary_.c_str());
        return std::string("cannot write: nothing was written");
    }
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary_.c_str());
        return "cannot write: " + reason(error);
    }
    return std::nullopt;
}

}  // namespace cplab
