// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_loader.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "centre_area.h"
#include "data/data_format.h"
#include "data/test_split.h"
#include "log_panel.h"
#include "recent_files.h"
#include "session_actions.h"
#include "setup_panel.h"
#include "window_context.h"

namespace cplab {

HashedFiles hashLoadedFiles(const ProblemOrigin& origin) {
    HashedFiles hashed;
    std::vector<SessionFile> files;
    std::string why;
    // The stamps first: a file that changes while it is hashed counts as changed.
    std::map<std::string, QFileInfo> before;
    std::vector<std::string> paths{origin.data.path};
    if (const auto test = origin.options.find(TestSplit::kFileKey); test != origin.options.end())
        paths.push_back(test->second);
    for (const std::string& path : paths) {
        if (path.empty()) continue;
        const QFileInfo info(QString::fromStdString(path));
        before.emplace(info.absoluteFilePath().toStdString(), info);
    }
    if (!hashProblemFiles(origin, &files, &why)) return hashed;
    for (const SessionFile& f : files) {
        const auto stamp = before.find(f.resolved);
        if (stamp == before.end()) continue;
        hashed[f.resolved] = {f.sha256, stamp->second.size(), stamp->second.lastModified()};
    }
    return hashed;
}

// The file dialogs' filter: every data file, then one entry per family with the formats it
// reads ("Linear SVM (LIBSVM/SVMlight, CSV) (*.svm *.csv …)"), then any file.
QString openFileFilter() {
    auto patternsOf = [](const DataFormat& format) {
        QStringList patterns;
        for (const auto extension : format.extensions) {
            patterns << "*" + QString::fromLatin1(extension.data(), extension.size());
            patterns << patterns.back() + ".gz";
        }
        return patterns;
    };
    QStringList all;
    for (const DataFormat& format : dataFormats())
        all << patternsOf(format);
    QStringList filters{QObject::tr("Data files") + " (" + all.join(' ') + ")"};
    for (const Family* family : families()) {
        QStringList titles, patterns;
        for (const DataFormat* format : family->readFormats()) {
            titles << QString::fromLatin1(format->title.data(), format->title.size());
            patterns << patternsOf(*format);
        }
        if (patterns.isEmpty()) continue;
        filters << QString("%1 - %2 (%3)")
                       .arg(QString::fromStdString(family->title()), titles.join(", "),
                            patterns.join(' '));
    }
    filters << QObject::tr("Any file") + " (*)";
    return filters.join(";;");
}

FileLoader::FileLoader(WindowContext& ctx) : QObject(ctx.window), ctx_(ctx) {}

void FileLoader::addOpenAction(QMenu* file) {
    file->addAction(tr("&Open data file..."), QKeySequence::Open, this, [this] {
        if (!ctx_.setup->confirmDiscardRuns()) return;
        const QString path = QFileDialog::getOpenFileName(ctx_.window, tr("Open data file"),
                                                          lastFolder("data"), openFileFilter());
        if (path.isEmpty()) return;
        setLastFolder("data", path);
        // A test file is asked for once the format is known, and only when it can have one.
        openDataFile(path, {}, {}, true);
    });
}

void FileLoader::openDataFile(const QString& path, const QString& testPath,
                              const QString& preferredFamily, bool askForTest) {
    if (loading()) {
        ctx_.log->appendError(tr("%1: still loading another file").arg(path));
        emit dataFileLoaded(false, tr("still loading another file"));
        return;
    }
    // The reader is chosen off the GUI thread (sniffing a FIFO may wait for its writer), by
    // registry.h's one rule, with the family asked for (the first solver's on the command
    // line) as the preferred one.
    const std::string preferred = preferredFamily.toStdString();
    auto loaded = std::make_shared<LoadedFile>();
    loaded->path = path;
    loaded->testPath = testPath;
    loaded->askForTest = askForTest && testPath.isEmpty();
    start(tr("Opening %1 ...").arg(QFileInfo(path).fileName()), [loaded, preferred] {
        loaded->reader = chooseReader(loaded->path.toStdString(), preferred, &loaded->why);
        return loaded;
    });
}

void FileLoader::start(const QString& message, std::function<std::shared_ptr<LoadedFile>()> work) {
    loader_ = new QFutureWatcher<std::shared_ptr<LoadedFile>>(this);
    connect(loader_, &QFutureWatcher<std::shared_ptr<LoadedFile>>::finished, this,
            &FileLoader::onLoaded);
    ctx_.window->statusBar()->showMessage(message);
    loader_->setFuture(QtConcurrent::run([work = std::move(work)] {
        try {
            return work();
        } catch (const std::exception& e) {
            auto failed = std::make_shared<LoadedFile>();
            failed->why = e.what();
            return failed;
        }
    }));
}

void FileLoader::waitForFinished() {
    if (loader_) loader_->waitForFinished();
}

void FileLoader::keepHashes(HashedFiles& hashed) {
    for (auto& [path, file] : hashed)
        hashedFiles_[path] = std::move(file);
}

// The chosen family reads the file with its problem controls (or the test file given).
void FileLoader::readChosenFile(const std::shared_ptr<LoadedFile>& loaded) {
    const Family* family = loaded->reader.family;
    OptionValues options = ctx_.centre->problemOptions(family->name());
    bool takesTest = false;
    for (const OptionInfo& o : family->problemOptions())
        takesTest = takesTest || o.name == TestSplit::kFileKey;
    if (takesTest && loaded->askForTest) {
        loaded->testPath = QFileDialog::getOpenFileName(
            ctx_.window, tr("Test file (cancel: use the test fraction)"),
            QFileInfo(loaded->path).path(), openFileFilter());
    }
    if (takesTest && !loaded->testPath.isEmpty()) {
        options.erase(TestSplit::kFractionKey);
        options[TestSplit::kFileKey] = loaded->testPath.toStdString();
    }
    start(tr("Loading %1 ...").arg(QFileInfo(loaded->path).fileName()), [loaded, options] {
        loaded->read = true;
        loaded->problem =
            loaded->reader.family->openFile(loaded->reader.source, options, &loaded->why);
        if (loaded->problem) loaded->hashed = hashLoadedFiles(loaded->problem->origin);
        return loaded;
    });
}

void FileLoader::onLoaded() {
    const std::shared_ptr<LoadedFile> loaded = loader_->result();
    loader_->deleteLater();
    loader_ = nullptr;
    ctx_.window->statusBar()->clearMessage();
    if (loaded->isSession) {
        ctx_.sessions->onSessionLoaded(loaded);
        return;
    }
    if (loaded->reader.family && !loaded->read) {
        readChosenFile(loaded);  // the reader is chosen: now read
        return;
    }
    if (!loaded->problem) {
        const QString why = QString::fromStdString(
            loaded->why.empty() ? loaded->path.toStdString() + ": not read" : loaded->why);
        ctx_.log->appendError(why);
        emit dataFileLoaded(false, why);
        return;
    }
    keepHashes(loaded->hashed);
    ctx_.setup->setProblemWithRun(loaded->problem);
    ctx_.sessions->rememberFile("data", loaded->path);
    emit dataFileLoaded(true, loaded->path);
}

}  // namespace cplab
