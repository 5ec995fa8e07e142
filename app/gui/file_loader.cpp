// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_loader.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "centre_area.h"
#include "data/data_format.h"
#include "data/test_split.h"
#include "log_panel.h"
#include "open_data_dialog.h"
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
        QFileDialog* dialog = dataFileDialog(ctx_.window, tr("Open data file"), lastFolder("data"));
        dialog->setObjectName("openFileDialog");
        const bool chosen =
            dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty();
        const QString path = chosen ? dialog->selectedFiles().front() : QString();
        dialog->deleteLater();
        if (path.isEmpty()) return;
        setLastFolder("data", path);
        // The family and the test set are asked for once the format is known (OpenDataDialog).
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
    loaded->ask = askForTest && testPath.isEmpty() && preferred.empty();
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

// One question before reading, when there is one to ask: which of the families that read the
// format (the one remembered for it first), and the test set. False: cancelled.
bool FileLoader::askFamilyAndTest(LoadedFile& loaded) {
    const std::string format = loaded.reader.source.format;
    const std::vector<const Family*> readers = familiesReading(format);
    const bool anyTest = std::any_of(readers.begin(), readers.end(),
                                     [](const Family* f) { return OpenDataDialog::takesTest(*f); });
    if (readers.size() < 2 && !anyTest) return true;
    const Family* chosen = findFamily(rememberedFamily(format));
    if (std::find(readers.begin(), readers.end(), chosen) == readers.end())
        chosen = loaded.reader.family;
    std::map<std::string, QString> fractions;
    for (const Family* f : readers) {
        const OptionValues values = ctx_.centre->problemOptions(f->name());
        if (const auto it = values.find(TestSplit::kFractionKey); it != values.end())
            fractions[f->name()] = QString::fromStdString(it->second);
    }
    OpenDataDialog dialog(loaded.path, format, readers, chosen, fractions, ctx_.window);
    if (dialog.exec() != QDialog::Accepted || !dialog.family()) return false;
    loaded.reader.family = dialog.family();
    loaded.testPath = dialog.testPath();
    if (readers.size() > 1) rememberFamily(format, dialog.family()->name());
    return true;
}

// The chosen family reads the file with its problem controls (or the test file given).
void FileLoader::readChosenFile(const std::shared_ptr<LoadedFile>& loaded) {
    if (loaded->ask && !askFamilyAndTest(*loaded)) {
        ctx_.log->appendMessage(tr("%1: not opened").arg(loaded->path));
        emit dataFileLoaded(false, tr("cancelled"));
        return;
    }
    const Family* family = loaded->reader.family;
    OptionValues options = ctx_.centre->problemOptions(family->name());
    const bool takesTest = OpenDataDialog::takesTest(*family);
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
