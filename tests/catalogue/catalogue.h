// SPDX-License-Identifier: GPL-3.0-or-later
// The bad-input catalogue (tests/catalogue/catalogue.tsv, README.md in this folder): its reader,
// the expansion of its placeholders and the files the tests generate at run time. Shared by
// tests/cli/test_catalogue.cpp (through cplab-cli) and tests/gui/test_catalogue_gui.cpp (through
// the main window's loading path). Header-only, Qt Core only.
#pragma once

#include <sys/stat.h>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <vector>

namespace cplab::catalogue {

// One row of catalogue.tsv ("-" in a column stands for an empty value).
struct Case {
    int line = 0;         // its line in catalogue.tsv, for messages
    QString id;           // unique, used as the QTest data tag
    QStringList command;  // cplab-cli's arguments, placeholders not yet expanded
    int exit = -1;        // the exit status it must give
    QString stderrText;   // fragments the message must contain (empty: none)
    QString what;
    bool gui = false;  // a data file the GUI opens through its loading path
    QString known;     // "bug": a known defect, skipped by both tests until the mark is
                       // removed; "gui-bug": skipped by the GUI test only
};

inline QString sourceDir() {
    return QStringLiteral(CPLAB_SOURCE_DIR);
}
inline QString cataloguePath() {
    return sourceDir() + "/tests/catalogue/catalogue.tsv";
}
inline QString filesDir() {
    return sourceDir() + "/tests/catalogue/files";
}
inline QString dataDir() {
    return QStringLiteral(CPLAB_TEST_DATA_DIR);
}

// The rows of catalogue.tsv; false and *why for a malformed line (the tests fail on it).
inline bool readCatalogue(std::vector<Case>* cases, QString* why) {
    QFile file(cataloguePath());
    if (!file.open(QIODevice::ReadOnly)) {
        *why = cataloguePath() + ": cannot read";
        return false;
    }
    const QStringList header{"id", "command", "exit", "stderr", "what", "gui", "known"};
    bool headerSeen = false;
    int number = 0;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        ++number;
        const QString text = QString::fromUtf8(raw);
        if (text.trimmed().isEmpty() || text.startsWith('#')) continue;
        const QStringList columns = text.split('\t');
        const QString where = QString("catalogue.tsv:%1: ").arg(number);
        if (columns.size() != header.size()) {
            *why =
                where + QString("%1 columns, expected %2").arg(columns.size()).arg(header.size());
            return false;
        }
        if (!headerSeen) {
            if (columns != header) {
                *why = where + "expected the header " + header.join(' ');
                return false;
            }
            headerSeen = true;
            continue;
        }
        auto value = [&](int k) { return columns[k] == "-" ? QString() : columns[k]; };
        Case c;
        c.line = number;
        c.id = value(0);
        c.command = value(1).split(' ', Qt::SkipEmptyParts);
        bool ok = false;
        c.exit = columns[2].toInt(&ok);
        c.stderrText = value(3);
        c.what = value(4);
        c.known = value(6);
        if (c.id.isEmpty() || !ok || (columns[5] != "yes" && columns[5] != "no") ||
            (!c.known.isEmpty() && c.known != "bug" && c.known != "gui-bug")) {
            *why = where + "bad id, exit, gui (yes/no) or known (bug, gui-bug or -)";
            return false;
        }
        c.gui = columns[5] == "yes";
        cases->push_back(c);
    }
    if (!headerSeen) {
        *why = "catalogue.tsv: no header";
        return false;
    }
    return true;
}

// `text` with {data}, {files} and {tmp} replaced.
inline QString expand(QString text, const QString& tmp) {
    return text.replace("{data}", dataDir()).replace("{files}", filesDir()).replace("{tmp}", tmp);
}
inline QStringList expand(const QStringList& arguments, const QString& tmp) {
    QStringList out;
    for (const QString& a : arguments)
        out << expand(a, tmp);
    return out;
}

// The value after `option` in `arguments`, or empty.
inline QString optionValue(const QStringList& arguments, const QString& option) {
    const auto k = arguments.indexOf(option);
    return k >= 0 && k + 1 < arguments.size() ? arguments[k + 1] : QString();
}

// The path of line_beyond_limit.libsvm, written once per process (67 MB: too large to write
// for every row): line 2 holds "-1" and 16.8 million " 1:1", 2 bytes beyond the 64 MiB a line
// may hold. Empty when it cannot be written.
inline QString lineBeyondLimitFile() {
    static QTemporaryDir dir;
    static const QString path = [] {
        const QString file = dir.filePath("line_beyond_limit.libsvm");
        QFile out(file);
        if (!dir.isValid() || !out.open(QIODevice::WriteOnly)) return QString();
        QByteArray chunk;
        for (int i = 0; i < (1 << 16); ++i)
            chunk += " 1:1";
        bool ok = out.write("+1 1:0.5 2:1\n-1") == 15;
        for (int k = 0; k < 256 && ok; ++k)  // 256 x 256 KiB = 64 MiB of " 1:1"
            ok = out.write(chunk) == chunk.size();
        ok = ok && out.write("\n+1 1:1\n") == 8;
        return ok ? file : QString();
    }();
    return path;
}

// Writes the files too large to keep in the repository into the scratch folder `tmp`:
// long_line.libsvm, whose line 2 holds 50,000 features and then the bad token 50001:1.5x
// (389 KB); line_beyond_limit.libsvm, a link to lineBeyondLimitFile(); no_writer.fifo, a named
// FIFO that nobody writes; huge.cplab, a sparse session file of 600 MB (no disk space taken).
inline bool writeGeneratedFiles(const QString& tmp) {
    QByteArray text = "+1 1:0.5 2:1\n-1";
    for (int i = 1; i <= 50000; ++i)
        text += ' ' + QByteArray::number(i) + ":1";
    text += " 50001:1.5x\n";
    QFile file(QDir(tmp).filePath("long_line.libsvm"));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) return false;
    // 100,000 examples of 65,536 classes: multi-class OCAS would need 3 score matrices of
    // 100,000 x 65,536 doubles (146 GB), refused up front.
    QByteArray classes;
    for (int i = 0; i < 100000; ++i)
        classes += QByteArray::number(i % 65536) + " 1:" + QByteArray::number(i % 7 + 1) + '\n';
    QFile many(QDir(tmp).filePath("many_classes.libsvm"));
    if (!many.open(QIODevice::WriteOnly) || many.write(classes) != classes.size()) return false;
    QFile huge(QDir(tmp).filePath("huge.cplab"));
    if (!huge.open(QIODevice::WriteOnly) || huge.write("{\"format\": \"cplab-session\"") < 0 ||
        !huge.resize(qint64{600} << 20))
        return false;
    const QString beyond = lineBeyondLimitFile();
    return !beyond.isEmpty() &&
           QFile::link(beyond, QDir(tmp).filePath("line_beyond_limit.libsvm")) &&
           ::mkfifo(QFile::encodeName(QDir(tmp).filePath("no_writer.fifo")).constData(), 0600) == 0;
}

}  // namespace cplab::catalogue
