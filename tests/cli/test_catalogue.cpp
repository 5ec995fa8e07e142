// SPDX-License-Identifier: GPL-3.0-or-later
// The bad-input catalogue (tests/catalogue/catalogue.tsv, README.md there) through the real
// cplab-cli executable, black-box through QProcess: every row's exit status, the fragments its
// message must contain (the file, `file:line:` for a line-level defect, what was expected),
// nothing on stdout for an input error, and no case taking more than 30 s (a hang fails).
// Rows marked `bug` are known defects, skipped with their id until the mark is removed. Also:
// the catalogue holds at least 80 cases, unique ids, and uses every file under
// tests/catalogue/files.
#include <QDir>
#include <QElapsedTimer>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <vector>

#include "../catalogue/catalogue.h"
#include "cli_process.h"

using namespace cplab::clitest;
using cplab::catalogue::Case;

namespace {

// A case that takes longer than this has hung (every case takes well under a second, except
// the numerical failure, about 8 s on a loaded 2-core machine).
constexpr int kTimeoutMs = 30000;

std::vector<Case> cases() {
    std::vector<Case> all;
    QString why;
    if (!cplab::catalogue::readCatalogue(&all, &why)) qFatal("%s", qPrintable(why));
    return all;
}

}  // namespace

Q_DECLARE_METATYPE(Case)

class TestCliCatalogue : public QObject {
    Q_OBJECT

  private slots:
    // The catalogue reads, has at least 80 cases, and its ids are unique (they are data tags).
    void catalogueIsLargeAndWellFormed() {
        std::vector<Case> all;
        QString why;
        QVERIFY2(cplab::catalogue::readCatalogue(&all, &why), qPrintable(why));
        QVERIFY2(all.size() >= 80, qPrintable(QString::number(all.size())));
        QSet<QString> ids;
        for (const Case& c : all) {
            QVERIFY2(!ids.contains(c.id), qPrintable("duplicate id " + c.id));
            ids.insert(c.id);
            // An input error must say what was wrong: both fragments are required.
            if (c.exit != 0) {
                QVERIFY2(!c.stderrText.isEmpty() && !c.what.isEmpty(),
                         qPrintable(QString("catalogue.tsv:%1: no message fragments").arg(c.line)));
            }
        }
    }

    // Every file under tests/catalogue/files is used by some row (a new file needs a row).
    void everyCatalogueFileIsUsed() {
        QString commands;
        for (const Case& c : cases())
            commands += c.command.join(' ') + '\n';
        const QStringList files = QDir(cplab::catalogue::filesDir()).entryList(QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& file : files) {
            QVERIFY2(commands.contains("{files}/" + file),
                     qPrintable(file + " is used by no row of catalogue.tsv"));
        }
    }

    // Each row through cplab-cli.
    void catalogue_data() {
        QTest::addColumn<Case>("entry");
        for (const Case& c : cases())
            QTest::newRow(qPrintable(c.id)) << c;
    }
    void catalogue() {
        QFETCH(Case, entry);
        if (entry.known == "bug") {
            QSKIP(qPrintable(QString("known bug (catalogue.tsv:%1): %2")
                                 .arg(entry.line)
                                 .arg(entry.command.join(' '))));
        }
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(cplab::catalogue::writeGeneratedFiles(tmp.path()));
        const QStringList args = cplab::catalogue::expand(entry.command, tmp.path());
        QElapsedTimer clock;
        clock.start();
        const CliResult r = runCli(args, kTimeoutMs);
        const QString context = QString("catalogue.tsv:%1: ").arg(entry.line) + describe(args, r);
        QVERIFY2(r.exitCode != -1, qPrintable("crashed or hung: " + context));
        QVERIFY2(clock.elapsed() < kTimeoutMs, qPrintable(context));
        QVERIFY2(r.exitCode == entry.exit, qPrintable(context));
        const QString err = QString::fromUtf8(r.err);
        const QString stderrText = cplab::catalogue::expand(entry.stderrText, tmp.path());
        QVERIFY2(err.contains(stderrText), qPrintable(context));
        QVERIFY2(err.contains(entry.what), qPrintable(context));
        if (entry.exit == 1) {
            // Nothing half-written: an input error prints no summary.
            QVERIFY2(r.out.isEmpty(), qPrintable(context));
        } else {
            // A run that ends (even by a numerical failure) prints its summary.
            QVERIFY2(!r.out.isEmpty(), qPrintable(context));
        }
    }
};

QTEST_MAIN(TestCliCatalogue)
#include "test_catalogue.moc"
