// SPDX-License-Identifier: GPL-3.0-or-later
#include "option_form.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <limits>
#include <string_view>

#include "registry.h"

namespace cplab {

namespace {

QFormLayout* formIn(QWidget* parent) {
    auto* form = new QFormLayout(parent);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight);
    return form;
}

// A real whose default 0 means "not given" (the linear solvers' C and lambda: "0: unset, use
// lambda; neither: C = 1"): its field is left empty, and says what the run then uses, instead
// of showing 0 while the run uses C = 1.
constexpr std::string_view kUnsetMark = "(0: unset, ";

bool zeroMeansUnset(const OptionInfo& info) {
    double value = 1.0;
    return info.kind == OptionInfo::Kind::Real &&
           parseReal(info.defaultValue, value, true) == NumberError::None && value == 0.0 &&
           info.help.find(kUnsetMark) != std::string::npos;
}

// "use lambda; neither: C = 1" of C's help, "from C" of lambda's.
QString unsetMeaning(const OptionInfo& info) {
    const std::size_t from = info.help.find(kUnsetMark) + kUnsetMark.size();
    const std::size_t to = info.help.find(')', from);
    return QString::fromStdString(info.help.substr(from, to == std::string::npos ? to : to - from));
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel("<b>" + text + "</b>", parent);
    label->setContentsMargins(0, 4, 0, 0);
    return label;
}

// Holds wheel events back from unfocused fields: ignored, they go on to the parents.
class WheelGuard : public QObject {
  public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Wheel) return false;
        const auto* field = qobject_cast<QWidget*>(watched);
        if (!field || field->hasFocus()) return false;
        event->ignore();
        return true;
    }
};

}  // namespace

void wheelOnlyWhenFocused(QWidget* root) {
    // One guard per root (WheelGuard has no meta-object of its own: found by name).
    const QString name = "wheelOnlyWhenFocused";
    auto* guard =
        dynamic_cast<WheelGuard*>(root->findChild<QObject*>(name, Qt::FindDirectChildrenOnly));
    if (!guard) {
        guard = new WheelGuard(root);
        guard->setObjectName(name);
    }
    QList<QWidget*> fields;
    for (auto* spin : root->findChildren<QAbstractSpinBox*>())
        fields << spin;
    for (auto* combo : root->findChildren<QComboBox*>())
        fields << combo;
    for (QWidget* field : fields) {
        field->setFocusPolicy(Qt::StrongFocus);
        field->installEventFilter(guard);  // once: installing it again only moves it first
    }
}

OptionForm::OptionForm(QWidget* parent) : QWidget(parent) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    auto* commonBox = new QWidget(this);
    common_ = formIn(commonBox);
    auto* methodBox = new QWidget(this);
    method_ = formIn(methodBox);
    methodTitle_ = sectionTitle(tr("Method"), this);
    advancedToggle_ = new QToolButton(this);
    advancedToggle_->setObjectName("advancedToggle");
    advancedToggle_->setCheckable(true);
    advancedToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    advancedToggle_->setArrowType(Qt::RightArrow);
    advancedToggle_->setAutoRaise(true);
    advancedBox_ = new QWidget(this);
    advanced_ = formIn(advancedBox_);
    advancedBox_->setVisible(false);
    column->addWidget(sectionTitle(tr("Model and stopping"), this));
    column->addWidget(commonBox);
    column->addWidget(methodTitle_);
    column->addWidget(methodBox);
    column->addWidget(advancedToggle_);
    column->addWidget(advancedBox_);
    connect(advancedToggle_, &QToolButton::toggled, this, &OptionForm::showAdvanced);
}

OptionForm::Group OptionForm::groupOf(const std::string& name) {
    return optionGroup(name);
}

QFormLayout* OptionForm::layoutOf(Group group) const {
    return group == Group::Common ? common_ : group == Group::Method ? method_ : advanced_;
}

void OptionForm::showAdvanced(bool on) {
    if (advancedToggle_->isChecked() != on) advancedToggle_->setChecked(on);
    advancedToggle_->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    advancedBox_->setVisible(on);
}

void OptionForm::setOptions(const std::vector<OptionInfo>& options) {
    for (QFormLayout* form : {common_, method_, advanced_}) {
        while (form->rowCount() > 0)
            form->removeRow(0);
    }
    fields_.clear();
    typed_.clear();
    options_ = options;
    for (const auto& info : options_) {
        QWidget* field = nullptr;
        switch (info.kind) {
            case OptionInfo::Kind::Real:
            case OptionInfo::Kind::Text:
            case OptionInfo::Kind::Path:
            case OptionInfo::Kind::Seed: {
                // Reals (1e-6), free text (kernel lists) and 64-bit seeds are typed; the
                // owner's validation checks them when a run is added.
                auto* edit = new QLineEdit(this);
                if (zeroMeansUnset(info))
                    edit->setPlaceholderText(tr("unset: %1").arg(unsetMeaning(info)));
                connect(edit, &QLineEdit::textEdited, this, [this, name = info.name] {
                    typed_.insert(name);
                    emit edited();
                });
                field = edit;
                break;
            }
            case OptionInfo::Kind::Integer: {
                auto* spin = new QSpinBox(this);
                spin->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
                connect(spin, &QSpinBox::valueChanged, this, &OptionForm::edited);
                field = spin;
                break;
            }
            case OptionInfo::Kind::Boolean: {
                auto* check = new QCheckBox(this);
                connect(check, &QCheckBox::toggled, this, &OptionForm::edited);
                field = check;
                break;
            }
            case OptionInfo::Kind::Choice: {
                auto* combo = new QComboBox(this);
                for (const auto& c : info.choices)
                    combo->addItem(QString::fromStdString(c));
                connect(combo, &QComboBox::currentIndexChanged, this, &OptionForm::edited);
                field = combo;
                break;
            }
        }
        field->setObjectName(QString::fromStdString("option_" + info.name));
        field->setToolTip(QString::fromStdString(info.help));
        auto* label = new QLabel(QString::fromStdString(info.name), this);
        label->setToolTip(QString::fromStdString(info.help));
        layoutOf(groupOf(info.name))->addRow(label, field);
        fields_[info.name] = field;
        setText(info, info.defaultValue);
    }
    methodTitle_->setVisible(method_->rowCount() > 0);
    advancedToggle_->setVisible(advanced_->rowCount() > 0);
    advancedToggle_->setText(tr("Advanced (%1)").arg(advanced_->rowCount()));
    wheelOnlyWhenFocused(this);
}

void OptionForm::setValues(const OptionValues& values) {
    typed_.clear();
    for (const auto& info : options_) {
        const auto it = values.find(info.name);
        setText(info, it == values.end() ? info.defaultValue : it->second);
    }
}

QWidget* OptionForm::field(const std::string& name) const {
    const auto it = fields_.find(name);
    return it == fields_.end() ? nullptr : it->second;
}

void OptionForm::setText(const OptionInfo& info, const std::string& value) {
    QWidget* w = field(info.name);
    const QString text = QString::fromStdString(value);
    switch (info.kind) {
        case OptionInfo::Kind::Real:
        case OptionInfo::Kind::Text:
        case OptionInfo::Kind::Path:
        case OptionInfo::Kind::Seed:
            static_cast<QLineEdit*>(w)->setText(
                zeroMeansUnset(info) && value == info.defaultValue ? QString() : text);
            break;
        case OptionInfo::Kind::Integer:
            static_cast<QSpinBox*>(w)->setValue(text.toInt());
            break;
        case OptionInfo::Kind::Boolean:
            static_cast<QCheckBox*>(w)->setChecked(text == "true" || text == "1");
            break;
        case OptionInfo::Kind::Choice:
            static_cast<QComboBox*>(w)->setCurrentText(text);
            break;
    }
}

QString OptionForm::text(const OptionInfo& info) const {
    QWidget* w = field(info.name);
    switch (info.kind) {
        case OptionInfo::Kind::Real:
        case OptionInfo::Kind::Seed: {
            const QString typed = static_cast<QLineEdit*>(w)->text().trimmed();
            // An empty "unset" field is its default, as the help says.
            return typed.isEmpty() && zeroMeansUnset(info)
                       ? QString::fromStdString(info.defaultValue)
                       : typed;
        }
        case OptionInfo::Kind::Text:
        case OptionInfo::Kind::Path:
            return static_cast<QLineEdit*>(w)->text();
        case OptionInfo::Kind::Integer:
            return QString::number(static_cast<QSpinBox*>(w)->value());
        case OptionInfo::Kind::Boolean:
            return static_cast<QCheckBox*>(w)->isChecked() ? "true" : "false";
        case OptionInfo::Kind::Choice:
            return static_cast<QComboBox*>(w)->currentText();
    }
    return {};
}

OptionValues OptionForm::values() const {
    OptionValues out;
    for (const auto& info : options_)
        out[info.name] = text(info).toStdString();
    return out;
}

OptionValues OptionForm::changedValues() const {
    OptionValues out;
    for (const auto& info : options_) {
        const std::string value = text(info).toStdString();
        // A typed value counts even when it reads as the default: C = 0 typed is an error
        // to report, not the default "neither C nor lambda given".
        // An "unset" field typed empty again is unset, not a typed 0.
        const bool typed = typed_.count(info.name) > 0 &&
                           !(zeroMeansUnset(info) &&
                             static_cast<QLineEdit*>(field(info.name))->text().trimmed().isEmpty());
        if (value == info.defaultValue && !typed) continue;
        // "1e-6" and "1e-06" are the same real: compare numerically.
        double given = 0.0, fallback = 0.0;
        if (!typed && info.kind == OptionInfo::Kind::Real &&
            parseReal(value, given, true) == NumberError::None &&
            parseReal(info.defaultValue, fallback, true) == NumberError::None &&
            given == fallback) {
            continue;
        }
        out[info.name] = value;
    }
    return out;
}

}  // namespace cplab
