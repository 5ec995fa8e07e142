// SPDX-License-Identifier: GPL-3.0-or-later
#include "recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace cplab {

QString lastFolder(const QString& dialog) {
    return QSettings().value("folders/" + dialog).toString();
}

QString inLastFolder(const QString& dialog, const QString& name) {
    const QString folder = lastFolder(dialog);
    return folder.isEmpty() ? name : QDir(folder).filePath(name);
}

void setLastFolder(const QString& dialog, const QString& path) {
    QSettings().setValue("folders/" + dialog, QFileInfo(path).absolutePath());
}

void rememberFile(const QString& kind, const QString& path) {
    QSettings settings;
    QStringList files = settings.value("recent/" + kind).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kRecentFiles)
        files.removeLast();
    settings.setValue("recent/" + kind, files);
}

QStringList recentFiles(const QString& kind) {
    return QSettings().value("recent/" + kind).toStringList();
}

std::string rememberedFamily(const std::string& format) {
    return QSettings().value("openAs/" + QString::fromStdString(format)).toString().toStdString();
}

void rememberFamily(const std::string& format, const std::string& family) {
    QSettings().setValue("openAs/" + QString::fromStdString(format),
                         QString::fromStdString(family));
}

}  // namespace cplab
