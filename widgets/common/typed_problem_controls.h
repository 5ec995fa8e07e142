// SPDX-License-Identifier: GPL-3.0-or-later
// A family's typed problem as problem controls (issue 49): the fields of the problem options
// that type it (the nonsmooth family's "typed": function and domain; the polytope family's
// "typed_polygon": function and polygon) and "Use this function". A family's view declares
// them (FamilyView::problemControls); the app fills in the family's defaults
// (app/gui/family_views.cpp) and places them in its problem panel, which owns them from then
// on. The fields show while their problem is the one chosen in the panel.
#pragma once

#include <QString>
#include <QWidget>
#include <string>
#include <vector>

#include "core/options.h"

class QLineEdit;

namespace cplab::widgets {

class TypedProblemControls final : public QWidget {
    Q_OBJECT

  public:
    struct Field {
        std::string option;  // the problem option, e.g. "function"
        QString label;       // "f ="
        QString tip;
    };
    TypedProblemControls(std::string problem, std::vector<Field> fields, QWidget* parent = nullptr);

    const std::string& problem() const { return problem_; }
    // The family's defaults, into the fields still empty.
    void setDefaults(const OptionValues& defaults);
    // The problem chosen in the panel: the fields show when it is this one; `loaded` (the
    // loaded problem's options, when it is this problem) fills them.
    void showChoice(const std::string& chosen, const OptionValues* loaded = nullptr);
    // The fields' values while this problem is chosen, else none (built-in problems of the
    // family do not carry them).
    OptionValues problemOptions() const;
    // Types `value` into the field of `option` (tests, scripts); false when there is none.
    bool setField(const std::string& option, const QString& value);

  signals:
    // "Use this function" or Enter in a field.
    void loadRequested(const QString& problem);

  private:
    std::string problem_;
    std::vector<Field> fields_;
    std::vector<QLineEdit*> edits_;
    QWidget* box_ = nullptr;
    bool chosen_ = false;
};

}  // namespace cplab::widgets
