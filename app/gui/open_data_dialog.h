// SPDX-License-Identifier: GPL-3.0-or-later
// File › Open data file (file_loader.h): the file dialog, and the one question after it. The
// file dialog is Qt's own (the same on every desktop, and tests can drive it); its first filter
// shows the data files of every format and the files without an extension (heart_scale, a9a:
// LIBSVM files seldom have one). The question, in one dialog: which family the data are for,
// when several read its kind (examples: linear, kernel and sparse SVMs; the choice is
// remembered per format), and its test set: the fraction the problem controls hold out, or a
// test file.
#pragma once

#include <QDialog>
#include <QString>
#include <map>
#include <string>
#include <vector>

#include "family.h"

class QButtonGroup;
class QFileDialog;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace cplab {

// A file the first filter of the open dialog shows: a data file of a known format (with .gz),
// a file without an extension, LIBSVM's FILE.t and UCI's FILE.data.
bool looksLikeDataFile(const QString& fileName);

// The dialog for choosing a data file or a test file: Qt's widget dialog, never the native one,
// its first filter (data files and files without an extension) as looksLikeDataFile says.
QFileDialog* dataFileDialog(QWidget* parent, const QString& title, const QString& folder);

// The families that read `format` (a name of the format table), in the order of the list.
std::vector<const Family*> familiesReading(const std::string& format);

class OpenDataDialog : public QDialog {
    Q_OBJECT
  public:
    // `path` of `format`, which each of `families` reads; `chosen` first selected (the one
    // remembered for the format, else the reader's); `fractions`: each family's test fraction
    // from the problem controls, by name (shown beside the choice).
    OpenDataDialog(const QString& path, const std::string& format,
                   const std::vector<const Family*>& families, const Family* chosen,
                   const std::map<std::string, QString>& fractions, QWidget* parent = nullptr);

    const Family* family() const;
    void setFamily(const std::string& name);
    // The test file (empty: hold out the fraction instead).
    QString testPath() const;
    void setTestPath(const QString& path);
    // Whether a family of the choice takes a test set at all (a MAP model does not).
    static bool takesTest(const Family& family);

  private:
    void updateTest();

    std::vector<const Family*> families_;
    std::map<std::string, QString> fractions_;
    QButtonGroup* familyGroup_;
    QRadioButton* fractionChoice_;
    QRadioButton* fileChoice_;
    QLineEdit* testEdit_;
    QPushButton* browse_;
};

}  // namespace cplab
