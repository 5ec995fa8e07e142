// SPDX-License-Identifier: GPL-3.0-or-later
#include "open_data_dialog.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSortFilterProxyModel>
#include <QVBoxLayout>
#include <algorithm>

#include "data/data_format.h"
#include "data/test_split.h"
#include "file_loader.h"
#include "registry.h"

namespace cplab {

namespace {

// Under the first filter (data files, pattern *), hides what looksLikeDataFile refuses; the
// other filters' patterns do their own filtering.
class DataFileFilter : public QSortFilterProxyModel {
  public:
    DataFileFilter(QFileDialog* dialog, QString first)
        : QSortFilterProxyModel(dialog), dialog_(dialog), first_(std::move(first)) {}

  protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        const auto* files = qobject_cast<const QFileSystemModel*>(sourceModel());
        if (!files || dialog_->selectedNameFilter() != first_) return true;
        const QModelIndex index = files->index(row, 0, parent);
        return files->isDir(index) || looksLikeDataFile(files->fileName(index));
    }

  private:
    QFileDialog* dialog_;
    QString first_;
};

QString familyText(const Family& family) {
    QStringList solvers;
    for (const SolverInfo* s : solversForFamily(family.name()))
        solvers << QString::fromStdString(s->name);
    return QObject::tr("%1 (solvers: %2)")
        .arg(QString::fromStdString(family.title()), solvers.join(", "));
}

}  // namespace

bool looksLikeDataFile(const QString& fileName) {
    QString name = fileName.toLower();
    if (name.endsWith(".gz")) name.chop(3);
    if (!name.contains('.')) return true;
    // LIBSVM's test sets are named FILE.t (a9a.t); UCI's and Taskar's files FILE.data
    // (sonar.all-data, letter.data): the content tells their format.
    const QString last = name.section('.', -1);
    if (last == "t" || last.endsWith("data")) return true;
    for (const DataFormat& format : dataFormats()) {
        for (const auto extension : format.extensions) {
            if (name.endsWith(QString::fromLatin1(extension.data(), extension.size()))) return true;
        }
    }
    return false;
}

QFileDialog* dataFileDialog(QWidget* parent, const QString& title, const QString& folder) {
    auto* dialog = new QFileDialog(parent, title, folder);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    // The data files of every format (and those without an extension) by the proxy, under
    // pattern * (a name filter cannot say "no extension"); then the families' and any file.
    QStringList filters = openFileFilter().split(";;");
    const QString first = QObject::tr("Data files, and files without an extension (*)");
    filters.front() = first;
    dialog->setNameFilters(filters);
    auto* proxy = new DataFileFilter(dialog, first);
    dialog->setProxyModel(proxy);
    QObject::connect(dialog, &QFileDialog::filterSelected, proxy, [proxy] { proxy->invalidate(); });
    return dialog;
}

std::vector<const Family*> familiesReading(const std::string& format) {
    std::vector<const Family*> out;
    for (const Family* f : families()) {
        if (f->readsFormat(format)) out.push_back(f);
    }
    return out;
}

bool OpenDataDialog::takesTest(const Family& family) {
    for (const OptionInfo& o : family.problemOptions()) {
        if (o.name == TestSplit::kFileKey) return true;
    }
    return false;
}

OpenDataDialog::OpenDataDialog(const QString& path, const std::string& format,
                               const std::vector<const Family*>& families, const Family* chosen,
                               const std::map<std::string, QString>& fractions, QWidget* parent)
    : QDialog(parent), families_(families), fractions_(fractions) {
    setObjectName("openDataDialog");
    setWindowTitle(tr("Open %1").arg(QFileInfo(path).fileName()));
    auto* column = new QVBoxLayout(this);
    const DataFormat* known = findDataFormat(format);
    column->addWidget(
        new QLabel(tr("%1: a %2 file.")
                       .arg(QFileInfo(path).fileName(),
                            known ? QString::fromLatin1(known->title.data(), known->title.size())
                                  : QString::fromStdString(format)),
                   this));

    auto* familyBox = new QGroupBox(tr("Solve it as"), this);
    auto* familyColumn = new QVBoxLayout(familyBox);
    familyGroup_ = new QButtonGroup(this);
    for (std::size_t k = 0; k < families_.size(); ++k) {
        auto* choice = new QRadioButton(familyText(*families_[k]), familyBox);
        choice->setObjectName(QString::fromStdString("family_" + families_[k]->name()));
        familyGroup_->addButton(choice, static_cast<int>(k));
        familyColumn->addWidget(choice);
        choice->setChecked(families_[k] == chosen || (k == 0 && !chosen));
    }
    familyBox->setVisible(families_.size() > 1);
    column->addWidget(familyBox);

    auto* testBox = new QGroupBox(tr("Test set"), this);
    testBox->setObjectName("testBox");
    auto* testColumn = new QVBoxLayout(testBox);
    fractionChoice_ = new QRadioButton(testBox);
    fractionChoice_->setObjectName("fractionChoice");
    fractionChoice_->setChecked(true);
    fileChoice_ = new QRadioButton(tr("A test file:"), testBox);
    fileChoice_->setObjectName("testFileChoice");
    testEdit_ = new QLineEdit(testBox);
    testEdit_->setObjectName("testFileEdit");
    browse_ = new QPushButton(tr("Browse..."), testBox);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(fileChoice_);
    fileRow->addWidget(testEdit_, 1);
    fileRow->addWidget(browse_);
    testColumn->addWidget(fractionChoice_);
    testColumn->addLayout(fileRow);
    column->addWidget(testBox);
    testBox->setVisible(std::any_of(families_.begin(), families_.end(),
                                    [](const Family* f) { return takesTest(*f); }));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    column->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(familyGroup_, &QButtonGroup::idToggled, this, [this] { updateTest(); });
    connect(testEdit_, &QLineEdit::textEdited, this, [this] { fileChoice_->setChecked(true); });
    connect(browse_, &QPushButton::clicked, this, [this, path] {
        QFileDialog* files = dataFileDialog(this, tr("Test file"), QFileInfo(path).path());
        if (files->exec() == QDialog::Accepted && !files->selectedFiles().isEmpty())
            setTestPath(files->selectedFiles().front());
        files->deleteLater();
    });
    updateTest();
}

void OpenDataDialog::updateTest() {
    const Family* f = family();
    const bool test = f && takesTest(*f);
    for (QWidget* w :
         std::initializer_list<QWidget*>{fractionChoice_, fileChoice_, testEdit_, browse_})
        w->setEnabled(test);
    const auto fraction = f ? fractions_.find(f->name()) : fractions_.end();
    const QString value = fraction == fractions_.end() ? QString("0") : fraction->second;
    fractionChoice_->setText(
        value.toDouble() > 0
            ? tr("No test file: hold out %1 of the examples (the Problem panel's test fraction)")
                  .arg(value)
            : tr("No test file (the Problem panel's test fraction, now 0, holds out none)"));
}

const Family* OpenDataDialog::family() const {
    const int id = familyGroup_->checkedId();
    return id < 0 ? nullptr : families_[static_cast<std::size_t>(id)];
}

void OpenDataDialog::setFamily(const std::string& name) {
    for (std::size_t k = 0; k < families_.size(); ++k) {
        if (families_[k]->name() == name)
            familyGroup_->button(static_cast<int>(k))->setChecked(true);
    }
}

QString OpenDataDialog::testPath() const {
    return fileChoice_->isChecked() && fileChoice_->isEnabled() ? testEdit_->text().trimmed()
                                                                : QString();
}

void OpenDataDialog::setTestPath(const QString& path) {
    testEdit_->setText(path);
    fileChoice_->setChecked(!path.isEmpty());
    fractionChoice_->setChecked(path.isEmpty());
}

}  // namespace cplab
