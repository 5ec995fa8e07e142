// SPDX-License-Identifier: GPL-3.0-or-later
// File › Open data file (app/gui/open_data_dialog.h), driven as a user would: Qt's file dialog
// shows the LIBSVM files without an extension (heart_scale) and hides what no format reads;
// then one dialog asks which family the examples are for (linear, kernel or sparse SVMs) and
// for the test set; the data open as that family's problem with its solvers, the test file
// held out, and the choice is remembered for the next file of that format.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileSystemModel>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QtTest>
#include <functional>

#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "open_data_dialog.h"
#include "recent_files.h"
#include "run_controller.h"

using cplab::MainWindow;
using cplab::OpenDataDialog;
using cplab::testing::waitFor;

namespace {

const QString kData = QString(CPLAB_TEST_DATA_DIR);

// Once a modal dialog of type T opens, `act` on it (the test goes on while it is open).
template <class T>
void whenModal(std::function<void(T*)> act) {
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, [poll, act] {
        if (auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget())) {
            poll->stop();
            poll->deleteLater();
            act(dialog);
        }
    });
    poll->start();
}

QAction* openAction(const MainWindow& w) {
    for (QAction* action : w.findChildren<QAction*>()) {
        if (action->text() == "&Open data file...") return action;
    }
    return nullptr;
}

// The names the file dialog lists in `folder`, once its model has read the folder.
QStringList listed(QFileDialog& dialog, const QString& folder) {
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(dialog.proxyModel());
    auto* files = proxy ? qobject_cast<QFileSystemModel*>(proxy->sourceModel()) : nullptr;
    if (!files) return {};
    const QModelIndex root = files->index(folder);
    waitFor([&] { return files->rowCount(root) > 3; }, 10000);
    const QModelIndex shown = proxy->mapFromSource(root);
    QStringList names;
    for (int row = 0; row < proxy->rowCount(shown); ++row)
        names << proxy->index(row, 0, shown).data().toString();
    return names;
}

}  // namespace

class TestOpenData : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        // The family chosen is remembered: start from none.
        QCoreApplication::setOrganizationName("cplab-test-open-data");
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void theFileDialogShowsFilesWithoutAnExtension() {
        QVERIFY(cplab::looksLikeDataFile("heart_scale"));
        QVERIFY(cplab::looksLikeDataFile("a9a.gz"));
        QVERIFY(cplab::looksLikeDataFile("a9a.t.gz"));  // LIBSVM's test-file names
        QVERIFY(cplab::looksLikeDataFile("ripley.CSV"));
        QVERIFY(cplab::looksLikeDataFile("grid.uai.gz"));
        QVERIFY(cplab::looksLikeDataFile("sonar.all-data"));
        QVERIFY(cplab::looksLikeDataFile("ocr_letter.data.gz"));
        QVERIFY(!cplab::looksLikeDataFile("README.md"));
        QVERIFY(!cplab::looksLikeDataFile("race.cplab"));

        QWidget parent;
        QFileDialog* dialog = cplab::dataFileDialog(&parent, "Open data file", kData);
        QVERIFY(dialog->testOption(QFileDialog::DontUseNativeDialog));
        const QStringList names = listed(*dialog, kData);
        QVERIFY2(names.contains("heart_scale") && names.contains("australian_scale") &&
                     names.contains("a9a.gz") && names.contains("usps.gz"),
                 qPrintable(names.join(", ")));
        QVERIFY2(!names.contains("README.md"), qPrintable(names.join(", ")));
        // "Any file" shows it.
        dialog->selectNameFilter(dialog->nameFilters().back());
        QVERIFY(waitFor([&] { return listed(*dialog, kData).contains("README.md"); }, 10000));
    }

    void opensAsAKernelProblemWithATestFile() {
        MainWindow w;
        w.show();
        QVERIFY(w.loadDemo("kelley"));
        QAction* open = openAction(w);
        QVERIFY(open);
        QSignalSpy loaded(&w, &MainWindow::dataFileLoaded);
        std::vector<std::string> offered;
        QString defaultTest = "unset";
        whenModal<QFileDialog>([&](QFileDialog* files) {
            files->selectFile(kData + "/heart_scale");
            whenModal<OpenDataDialog>([&](OpenDataDialog* ask) {
                // Every family that reads examples is offered; linear, the reader's, first.
                for (const char* name : {"linear", "kernel", "sparse"}) {
                    if (ask->findChild<QWidget*>(QString("family_") + name))
                        offered.push_back(name);
                }
                defaultTest = ask->testPath();
                ask->setFamily("kernel");
                ask->setTestPath(kData + "/heart_scale");
                ask->accept();
            });
            static_cast<QDialog*>(files)->accept();  // QFileDialog::accept, as Open does
        });
        open->trigger();
        QVERIFY(loaded.wait(30000) || loaded.count() == 1);
        QVERIFY2(loaded.front().at(0).toBool(), qPrintable(loaded.front().at(1).toString()));
        QCOMPARE(offered, (std::vector<std::string>{"linear", "kernel", "sparse"}));
        QCOMPARE(defaultTest, QString());  // the fraction, unless a file is given
        const cplab::ProblemInstance* p = w.parts().controller->problem();
        QCOMPARE(QString::fromStdString(p->info.family), QString("kernel"));
        QCOMPARE(QString::fromStdString(p->origin.options.at("test")), kData + "/heart_scale");
        // That family's solvers are offered, and the first of them runs.
        auto* solvers = w.findChild<QComboBox*>("solverCombo");
        QVERIFY(solvers->findData("svm") >= 0);
        QCOMPARE(solvers->findData("bmrm"), -1);
        QCOMPARE(cplab::rememberedFamily("libsvm"), std::string("kernel"));

        // The next LIBSVM file: kernel is chosen already. Cancelled: nothing changes.
        QString preselected;
        loaded.clear();
        whenModal<OpenDataDialog>([&](OpenDataDialog* ask) {
            preselected = QString::fromStdString(ask->family()->name());
            ask->reject();
        });
        w.openDataFile(kData + "/australian_scale", {}, {}, true);
        QVERIFY(loaded.wait(30000) || loaded.count() == 1);
        QVERIFY(!loaded.front().at(0).toBool());
        QCOMPARE(preselected, QString("kernel"));
        QCOMPARE(w.parts().controller->problem(), p);
    }
};

QTEST_MAIN(TestOpenData)
#include "test_open_data.moc"
