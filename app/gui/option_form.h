// SPDX-License-Identifier: GPL-3.0-or-later
// A form generated from a solver's option descriptions (name, kind, default, help): a line
// edit for reals (so 1e-6 can be typed), a spin box for integers, a check box for booleans and
// a combo box for choices. Values are read back as text and validated by the solver's own
// options check, so the form never duplicates a range rule.
//
// A solver with many options (OCAS 14, MPLP 15, SLMC 19) would make one long column: the form
// groups them as "Model and stopping" (what is solved and when to stop: C, lambda, kernels,
// epsilon, tol_rel, max_iterations…), "Method" (the solver's own choices) and "Advanced"
// (threads, seeds, caches, inner tolerances), the last folded until asked for. Each option's
// group is declared with its solver's registration (family.h, OptionGroups) and read from the
// registry.
#pragma once

#include <QWidget>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/options.h"
#include "family.h"

class QFormLayout;
class QToolButton;

namespace cplab {

// The spin boxes and combo boxes under `root` take the mouse wheel only once they have the
// focus (a click or Tab gives it: Qt::StrongFocus); before that the wheel scrolls what holds
// them (the set-up panel), instead of silently changing a value the pointer passed over.
// Call again after adding fields.
void wheelOnlyWhenFocused(QWidget* root);

class OptionForm : public QWidget {
    Q_OBJECT
  public:
    explicit OptionForm(QWidget* parent = nullptr);

    void setOptions(const std::vector<OptionInfo>& options);
    // Fills the fields from `values`; fields not mentioned get their defaults.
    void setValues(const OptionValues& values);
    // The values that differ from the defaults (what a run's label and a demo list), and those
    // typed since the options or values were last set, even when they equal the default.
    OptionValues changedValues() const;
    OptionValues values() const;

    QWidget* field(const std::string& name) const;

    using Group = OptionGroup;
    // The group an option of this name is shown in (registry.h's optionGroup).
    static Group groupOf(const std::string& name);
    // Unfolds (or folds) the advanced options.
    void showAdvanced(bool on);

  signals:
    void edited();

  private:
    QString text(const OptionInfo& info) const;
    void setText(const OptionInfo& info, const std::string& value);

    QFormLayout* layoutOf(Group group) const;

    QFormLayout* common_;
    QFormLayout* method_;
    QFormLayout* advanced_;
    QWidget* methodTitle_;
    QToolButton* advancedToggle_;
    QWidget* advancedBox_;
    std::vector<OptionInfo> options_;
    std::map<std::string, QWidget*> fields_;
    std::set<std::string> typed_;  // text fields the user typed into
};

}  // namespace cplab
