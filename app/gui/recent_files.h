// SPDX-License-Identifier: GPL-3.0-or-later
// What the window remembers of files between launches (QSettings): the last folder of each
// file dialog ("data", "session", "export", "points", "trace") and the recent files of each
// kind ("data", "sessions") for File › Open recent, and the family chosen for each format
// when several read it (File › Open's question, open_data_dialog.h).
#pragma once

#include <QString>
#include <QStringList>
#include <string>

namespace cplab {

QString lastFolder(const QString& dialog);
void setLastFolder(const QString& dialog, const QString& path);
// `name` in the last folder of `dialog` (the name alone before the first time).
QString inLastFolder(const QString& dialog, const QString& name);
// Puts `path` first among the recent files of `kind` (at most kRecentFiles of them).
inline constexpr int kRecentFiles = 8;
void rememberFile(const QString& kind, const QString& path);
QStringList recentFiles(const QString& kind);
// The family last chosen for data of `format` (a name of the format table); "" before.
std::string rememberedFamily(const std::string& format);
void rememberFamily(const std::string& format, const std::string& family);

}  // namespace cplab
