// SPDX-License-Identifier: GPL-3.0-or-later
// Exported plots go through core/output_file.h like every other output: a new file gets 0666
// less the umask, a replaced one keeps its mode and becomes the new picture, a write-protected
// file or a file read as an input is refused with its bytes kept, and no temporary file is
// left behind.
#include <qcustomplot.h>
#include <sys/stat.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "core/output_file.h"
#include "plot_style.h"

namespace {

QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

mode_t modeOf(const QString& path) {
    struct stat info {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

void writeText(const QString& path, const QByteArray& text, mode_t mode) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
}

QStringList namesIn(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestPlotExport : public QObject {
    Q_OBJECT
  private slots:
    void exportsAtomically() {
        QCustomPlot plot;
        plot.resize(320, 240);
        plot.addGraph()->setData({0, 1, 2}, {1, 0, 2});
        plot.replot();
        QTemporaryDir dir;
        QString why;

        const QString fresh = dir.filePath("fresh.png");
        QVERIFY2(cplab::widgets::exportPlot(&plot, fresh, &why), qPrintable(why));
        QVERIFY(fileBytes(fresh).startsWith("\x89PNG"));
        const mode_t umask = ::umask(022);
        ::umask(umask);
        QCOMPARE(modeOf(fresh), mode_t(0666 & ~umask));

        const QString replaced = dir.filePath("replaced.pdf");
        writeText(replaced, "old", 0600);
        QVERIFY2(cplab::widgets::exportPlot(&plot, replaced, &why), qPrintable(why));
        QVERIFY(fileBytes(replaced).startsWith("%PDF"));
        QCOMPARE(modeOf(replaced), mode_t(0600));

        const QString locked = dir.filePath("locked.png");
        writeText(locked, "keep me", 0444);
        QVERIFY(!cplab::widgets::exportPlot(&plot, locked, &why));
        QVERIFY2(why.contains("write-protected"), qPrintable(why));
        QCOMPARE(fileBytes(locked), QByteArray("keep me"));
        QCOMPARE(modeOf(locked), mode_t(0444));

        const QString input = dir.filePath("input.png");
        writeText(input, "data", 0644);
        {
            const cplab::InputFileScope scope;
            cplab::noteInputFile(input.toStdString());
            QVERIFY(!cplab::widgets::exportPlot(&plot, input, &why));
            QVERIFY2(why.contains("an output never replaces an input"), qPrintable(why));
            QCOMPARE(fileBytes(input), QByteArray("data"));
        }
        // Out of the scope the file is no input any more.
        QVERIFY2(cplab::widgets::exportPlot(&plot, input, &why), qPrintable(why));

        QCOMPARE(namesIn(dir.path()),
                 QStringList({"fresh.png", "input.png", "locked.png", "replaced.pdf"}));
    }
};

QTEST_MAIN(TestPlotExport)
#include "test_plot_export.moc"
