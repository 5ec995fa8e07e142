// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy, MATLAB and HDF5 data through the real cplab-cli (docs/formats.md): heart_scale, written
// here as .npy (labels in a column or a second file), .npz, .mat (level 5 dense and sparse, 7.3)
// and .h5 with the same libraries the readers use (tests/common/array_files.h), gives the run
// its LIBSVM text gives, number for number (same examples: same objective, bounds and
// iterations), for a kernel and a linear solver; a malformed array file ends in exit status 1
// with the file and the reason on stderr.
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include "array_files.h"
#include "cli_data_files.h"
#include "data/libsvm_format.h"

using namespace cplab::clitest;

class TestArrayData : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    cplab::Dataset heart_;

    QString at(const QString& name) const { return dir_.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cplab::LoadOptions dense;
        dense.storage = cplab::Storage::Dense;
        heart_ = cplab::loadLibsvm(dataPath("heart_scale").toStdString(), dense);
        using namespace cplab::testing;
        const auto path = [this](const char* name) { return at(name).toStdString(); };
        writeBytes(path("heart.npy"), npyOfExamples(heart_, "<f8", true, true));
        writeBytes(path("X.npy"), npyOfExamples(heart_, ">f8"));
        writeBytes(path("y.npy"), npyOfLabels(heart_, "<i4"));
        writeZip(path("heart.npz"),
                 {{"X.npy", npyOfExamples(heart_)}, {"y.npy", npyOfLabels(heart_)}});
        writeMat(path("heart5.mat"), heart_, false, false);
        writeMat(path("sparse5.mat"), heart_, false, true);
        writeMat(path("heart73.mat"), heart_, true, false);
        writeHdf5(path("heart.h5"), heart_);
        writeBytes(path("bad.npy"), npyBytes({1, 2, 3, 4, 5, 6}, 3, 2, "(300000, 2000)"));
    }

    void sameRunAsLibsvmText_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("dataSets");
        for (const char* solver : {"svm", "ocas"}) {
            const QString s = solver;
            QTest::newRow(qPrintable(s + " npy, label column")) << "heart.npy" << QStringList{};
            QTest::newRow(qPrintable(s + " npy, labels file"))
                << "X.npy" << QStringList{"labels=" + at("y.npy")};
            QTest::newRow(qPrintable(s + " npz")) << "heart.npz" << QStringList{};
            QTest::newRow(qPrintable(s + " mat 5")) << "heart5.mat" << QStringList{};
            QTest::newRow(qPrintable(s + " mat 5 sparse")) << "sparse5.mat" << QStringList{};
            QTest::newRow(qPrintable(s + " mat 7.3")) << "heart73.mat" << QStringList{};
            QTest::newRow(qPrintable(s + " hdf5")) << "heart.h5" << QStringList{};
        }
    }
    void sameRunAsLibsvmText() {
        QFETCH(QString, file);
        QFETCH(QStringList, dataSets);
        const QString solver = QString(QTest::currentDataTag()).section(' ', 0, 0);
        QJsonObject text, array;
        RUN_JSON(QStringList({"run", solver, "--data", dataPath("heart_scale"), "--json"}), text);
        QStringList args{"run", solver, "--data", at(file), "--json"};
        for (const QString& set : dataSets)
            args << "--data-set" << set;
        RUN_JSON(args, array);
        for (const char* key : {"iterations", "upper", "lower", "train_error"})
            QCOMPARE(array.value(key).toDouble(), text.value(key).toDouble());
    }

    void malformedIsRefused() {
        const QStringList args{"run", "svm", "--data", at("bad.npy")};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.err.contains("bad.npy") && r.err.contains("truncated or corrupt"),
                 qPrintable(describe(args, r)));
        const QStringList missing{"run", "svm", "--data", at("heart.npz"), "--data-set", "x=data"};
        const CliResult m = runCli(missing);
        QVERIFY2(m.exitCode == 1 && m.err.contains("no array 'data' (it holds: X, y)"),
                 qPrintable(describe(missing, m)));
    }
};

QTEST_GUILESS_MAIN(TestArrayData)
#include "test_array_data.moc"
