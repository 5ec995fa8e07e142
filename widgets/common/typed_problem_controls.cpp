// SPDX-License-Identifier: GPL-3.0-or-later
#include "typed_problem_controls.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace cplab::widgets {

TypedProblemControls::TypedProblemControls(std::string problem, std::vector<Field> fields,
                                           QWidget* parent)
    : QWidget(parent), problem_(std::move(problem)), fields_(std::move(fields)) {
    setObjectName(QString::fromStdString(problem_) + "Controls");
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    // The box shows and hides with the choice; this widget with the family (CentreArea).
    box_ = new QWidget(this);
    box_->setObjectName("typedFunctionBox");
    auto* form = new QFormLayout(box_);
    form->setContentsMargins(0, 0, 0, 0);
    for (const Field& field : fields_) {
        auto* edit = new QLineEdit(box_);
        QString name = QString::fromStdString(field.option);
        if (!name.isEmpty()) name[0] = name[0].toUpper();
        edit->setObjectName("typed" + name + "Edit");  // typedFunctionEdit, typedDomainEdit
        edit->setToolTip(field.tip);
        form->addRow(field.label, edit);
        connect(edit, &QLineEdit::returnPressed, this,
                [this] { emit loadRequested(QString::fromStdString(problem_)); });
        edits_.push_back(edit);
    }
    auto* use = new QPushButton(tr("Use this function"), box_);
    use->setObjectName("typedFunctionButton");
    use->setToolTip(tr("Load the typed function as the problem"));
    form->addRow(use);
    connect(use, &QPushButton::clicked, this,
            [this] { emit loadRequested(QString::fromStdString(problem_)); });
    outer->addWidget(box_);
    box_->setVisible(false);
}

void TypedProblemControls::setDefaults(const OptionValues& defaults) {
    for (std::size_t k = 0; k < fields_.size(); ++k) {
        const auto it = defaults.find(fields_[k].option);
        if (it != defaults.end() && edits_[k]->text().isEmpty())
            edits_[k]->setText(QString::fromStdString(it->second));
    }
}

void TypedProblemControls::showChoice(const std::string& chosen, const OptionValues* loaded) {
    chosen_ = chosen == problem_;
    box_->setVisible(chosen_);
    if (!chosen_ || !loaded) return;
    for (std::size_t k = 0; k < fields_.size(); ++k) {
        const auto it = loaded->find(fields_[k].option);
        if (it != loaded->end()) edits_[k]->setText(QString::fromStdString(it->second));
    }
}

OptionValues TypedProblemControls::problemOptions() const {
    OptionValues values;
    if (!chosen_) return values;
    for (std::size_t k = 0; k < fields_.size(); ++k)
        values[fields_[k].option] = edits_[k]->text().toStdString();
    return values;
}

bool TypedProblemControls::setField(const std::string& option, const QString& value) {
    for (std::size_t k = 0; k < fields_.size(); ++k) {
        if (fields_[k].option != option) continue;
        edits_[k]->setText(value);
        return true;
    }
    return false;
}

}  // namespace cplab::widgets
