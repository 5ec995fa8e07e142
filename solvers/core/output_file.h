// SPDX-License-Identifier: GPL-3.0-or-later
// Outputs that never destroy what the user has (DESIGN.md, "Data and formats").
//
// Every file cplab writes (trace, model, labeling, predictions, data, exports, sessions) goes
// through here:
//   * it is written to a temporary file of a unique name (mkstemp) in the target's folder and
//     renamed over the target only once complete and flushed, so a full disk, a kill or an
//     error leaves either the complete new file or the untouched old one; files we did not
//     create (a user's own `X.part`) are never touched;
//   * a replaced file keeps its permission bits; a new one gets 0666 less the umask, as a
//     shell redirect would; a symbolic link is written through (the link stays a link);
//   * a write-protected file (no write permission for us, or no write bit at all — root
//     included, as `rm` and `cp -i` treat it) is refused, not replaced;
//   * a file read as an input (noteInputFile, which the readers call, within an
//     InputFileScope) is refused: identity is the device and inode, so `./d`, `d`, a symbolic link
//     and a hard link to the data are all the same file;
//   * a character device (/dev/null, /dev/stdout on a terminal) is written in place; a FIFO
//     (a pipe such as `>(gzip > x)`) is written in place only while a process reads it
//     (it is opened without blocking, and kept open from the check to the write); other
//     special files are refused.
// Failures are returned as a detail without the path ("is write-protected (mode 0444)"); the
// callers put the path in front as their error type wants.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cplab {

// While an InputFileScope lives (a command of cplab-cli, the GUI's window), every file the
// readers open is noted as an input and no output may replace it; when the last scope ends,
// the notes are forgotten. Without a scope (a library user, a unit test writing and reading
// its own files) nothing is noted.
class InputFileScope {
  public:
    InputFileScope();
    ~InputFileScope();
    InputFileScope(const InputFileScope&) = delete;
    InputFileScope& operator=(const InputFileScope&) = delete;
};

// Records the file at `path` as an input (a no-op when it does not exist or no
// InputFileScope lives).
void noteInputFile(const std::string& path);

// The path under which the file at `path` was noted as an input, if it was.
std::optional<std::string> notedInputSameAs(const std::string& path);

// True when both paths name one existing file (same device and inode).
bool sameFile(const std::string& a, const std::string& b);

// Why `path` cannot be written as an output (see the header comment), before any work is done
// for it; nullopt when it can. Creates nothing: a FIFO found with a reader is held open for
// the write.
std::optional<std::string> outputProblem(const std::string& path);

// Writes `bytes` to `path` as the header comment says. Returns the failure's detail, or
// nullopt on success.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes);

// For writers that need a file name of their own (a plot library's savePdf): a unique
// temporary file beside `path` with the same suffix, renamed over `path` by commit(). Destroyed
// without a successful commit, it removes the temporary file.
class AtomicOutput {
  public:
    explicit AtomicOutput(std::string path);
    ~AtomicOutput();
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;

    // Empty when the temporary file could not be made (error() says why).
    const std::string& temporaryPath() const { return temporary_; }
    const std::string& error() const { return error_; }
    // Moves the written temporary file over the target. Returns the failure's detail or
    // nullopt.
    std::optional<std::string> commit();

  private:
    std::string path_;
    std::string target_;  // path_, or where its symbolic link leads
    std::string temporary_;
    std::string error_;
    bool committed_ = false;
};

}  // namespace cplab
