// SPDX-License-Identifier: GPL-3.0-or-later
// The bad-input catalogue (tests/catalogue/catalogue.tsv, README.md there) through the GUI's
// real loading path: every row marked `gui yes` (a data file, with its --test file if any) is
// opened offscreen by MainWindow::openDataFile, the entry point of File › Open data file, on a
// window that holds heart_scale with a run. A bad file must be refused with a message that
// names it and says what was wrong (the dataFileLoaded signal and the log panel), no exception
// may escape, and the problem loaded before must still be there and step (nothing
// half-loaded); a strange but valid file must load. The GUI opens no model files, so model
// rows are `gui no`. Rows marked `bug` or `gui-bug` are skipped with their id until the mark is
// removed.
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <vector>

#include "../catalogue/catalogue.h"
#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"

using cplab::MainWindow;
using cplab::catalogue::Case;

namespace {

using cplab::testing::allReady;
using cplab::testing::waitFor;

// Loads a data file through the window's background loader; false and *why on failure.
bool loadCatalogueFile(MainWindow& w, const QString& path, const QString& test, QString* why) {
    QSignalSpy loaded(&w, &MainWindow::dataFileLoaded);
    w.openDataFile(path, test);
    if (!loaded.wait(30000)) {
        *why = "loading did not finish";
        return false;
    }
    *why = loaded.front().at(1).toString();
    return loaded.front().at(0).toBool();
}

QString logText(const MainWindow& w) {
    const auto* log = w.findChild<QPlainTextEdit*>("logPanel");
    return log ? log->toPlainText() : QString();
}

}  // namespace

Q_DECLARE_METATYPE(Case)

class TestCatalogueGui : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<MainWindow> window_;
    QString base_ = cplab::catalogue::dataDir() + "/heart_scale";

    // Opens heart_scale (the problem every case must leave in place) with its run.
    bool loadBase(QString* why) {
        if (!loadCatalogueFile(*window_, base_, {}, why)) return false;
        return waitFor([&] { return allReady(*window_); });
    }

  private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        window_->setDelayMs(0);
        QString why;
        QVERIFY2(loadBase(&why), qPrintable(why));
    }
    void cleanupTestCase() { window_.reset(); }

    void catalogue_data() {
        QTest::addColumn<Case>("entry");
        std::vector<Case> all;
        QString why;
        if (!cplab::catalogue::readCatalogue(&all, &why)) qFatal("%s", qPrintable(why));
        int rows = 0;
        for (const Case& c : all) {
            if (!c.gui) continue;
            QTest::newRow(qPrintable(c.id)) << c;
            ++rows;
        }
        if (rows == 0) qFatal("catalogue.tsv has no row with gui yes");
    }
    void catalogue() {
        QFETCH(Case, entry);
        if (!entry.known.isEmpty()) {
            QSKIP(qPrintable(QString("known %1 (catalogue.tsv:%2): %3")
                                 .arg(entry.known)
                                 .arg(entry.line)
                                 .arg(entry.command.join(' '))));
        }
        MainWindow& w = *window_;
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(cplab::catalogue::writeGeneratedFiles(tmp.path()));
        const QStringList args = cplab::catalogue::expand(entry.command, tmp.path());
        const QString path = cplab::catalogue::optionValue(args, "--data");
        const QString test = cplab::catalogue::optionValue(args, "--test");
        QVERIFY2(!path.isEmpty(), "a gui row needs --data");
        const QString context = QString("catalogue.tsv:%1: %2").arg(entry.line).arg(args.join(' '));

        const cplab::ProblemInstance* before = w.parts().controller->problem();
        QVERIFY(before != nullptr);
        const std::string name = before->info.name;
        const int runs = w.runCount();
        QString why;
        bool ok = false;
        try {
            ok = loadCatalogueFile(w, path, test, &why);
        } catch (const std::exception& e) {
            QFAIL(qPrintable(context + ": exception escaped: " + e.what()));
        }
        QVERIFY2(why != "loading did not finish", qPrintable(context + ": hung"));

        if (entry.exit == 0) {
            // Strange but valid: it loads, and then heart_scale comes back for the next case.
            QVERIFY2(ok, qPrintable(context + ": " + why));
            QVERIFY(waitFor([&] { return allReady(w); }));
            QVERIFY2(loadBase(&why), qPrintable(why));
            return;
        }
        QVERIFY2(!ok, qPrintable(context + ": loaded"));
        // The message names the file at fault (the test file for a bad --test) and what was
        // expected, and the log panel shows it.
        const QString file = QFileInfo(test.isEmpty() ? path : test).fileName();
        const QString message = context + "\nmessage: " + why;
        QVERIFY2(why.contains(file), qPrintable(message));
        QVERIFY2(why.contains(cplab::catalogue::expand(entry.stderrText, tmp.path())),
                 qPrintable(message));
        QVERIFY2(why.contains(entry.what), qPrintable(message));
        QVERIFY2(logText(w).contains(why), qPrintable(message));

        // Nothing half-loaded: the same problem and runs, and they still step.
        QVERIFY(w.parts().controller->problem() == before);
        QCOMPARE(w.parts().controller->problem()->info.name, name);
        QCOMPARE(w.runCount(), runs);
        QVERIFY(!w.parts().files->loading());
        w.parts().playback->resetAll();
        QVERIFY(waitFor([&] { return allReady(w) && w.run(0)->iteration() == 0; }));
        w.stepAll(1);
        QVERIFY2(waitFor([&] { return w.run(0)->iteration() == 1; }), qPrintable(context));
    }
};

QTEST_MAIN(TestCatalogueGui)
#include "test_catalogue_gui.moc"
