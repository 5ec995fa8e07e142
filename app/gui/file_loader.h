// SPDX-License-Identifier: GPL-3.0-or-later
// Opening files without stopping the window (main_window.h): a data file is sniffed and read
// on a background thread as a problem of the family that reads it (registry.h's
// chooseReader), with an optional test file or the family's problem controls; a session is
// read the same way and handed to SessionActions. The data files' hashes are taken as they
// are loaded, for the sessions saved later.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "family.h"
#include "registry.h"
#include "session.h"

template <class T>
class QFutureWatcher;
class QMenu;

namespace cplab {

struct WindowContext;

// A data file's SHA-256 taken when it was loaded (the data the runs use), with its size and
// time of change then: a session saved later records this hash, and says when the file has
// changed since.
struct HashedFile {
    std::string sha256;
    qint64 size = -1;
    QDateTime modified;
};
using HashedFiles = std::map<std::string, HashedFile>;  // by absolute path

// Hashes the data and test files of `origin` (off the GUI thread); the files it could not
// read are left out (saving hashes them again and says why).
HashedFiles hashLoadedFiles(const ProblemOrigin& origin);

// The file dialogs' filter: every format of the table (data/data_format.h), then any file.
QString openFileFilter();

// The result of a background step of opening a file: the reader chosen (the file sniffed
// once), then the problem read.
struct LoadedFile {
    QString path;
    QString testPath;
    bool ask = false;  // File › Open: ask for the family and the test set (OpenDataDialog)
    bool isSession = false;
    std::optional<Session> session;
    SessionNotes notes;
    ReaderChoice reader;
    bool read = false;  // the second step ran
    ProblemPtr problem;
    HashedFiles hashed;  // its files' hashes, taken in the background
    std::string why;
};

class FileLoader : public QObject {
    Q_OBJECT
  public:
    explicit FileLoader(WindowContext& ctx);

    // File › Open data file...
    void addOpenAction(QMenu* file);
    // See MainWindow::openDataFile; dataFileLoaded() reports the outcome. `askForTest` (File ›
    // Open, a recent file): once the format is known, one dialog asks which family the data
    // are for when several read it, and for the test set (OpenDataDialog); not when a test file
    // or a family is given.
    void openDataFile(const QString& path, const QString& testPath = {},
                      const QString& preferredFamily = {}, bool askForTest = false);
    bool loading() const { return loader_ != nullptr; }
    // Runs `work` on a worker thread, `message` in the status bar meanwhile; its result goes
    // on to the next step of opening a data file, or to SessionActions.
    void start(const QString& message, std::function<std::shared_ptr<LoadedFile>()> work);
    void waitForFinished();
    // Data files' hashes as they were loaded (HashedFile above).
    const HashedFiles& hashedFiles() const { return hashedFiles_; }
    void keepHashes(HashedFiles& hashed);

  signals:
    void dataFileLoaded(bool ok, const QString& message);

  private:
    bool askFamilyAndTest(LoadedFile& loaded);
    void readChosenFile(const std::shared_ptr<LoadedFile>& loaded);
    void onLoaded();

    WindowContext& ctx_;
    HashedFiles hashedFiles_;
    QFutureWatcher<std::shared_ptr<LoadedFile>>* loader_ = nullptr;
};

}  // namespace cplab
