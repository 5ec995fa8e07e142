// SPDX-License-Identifier: GPL-3.0-or-later
// The map family's problem controls (map_view.h): the evidence file (the problem option
// `evidence` of app/registry/families/map.h) and a line of key=value options of the generated
// models.
#pragma once

#include <QWidget>

#include "core/options.h"

class QLineEdit;

namespace cplab::widgets {

class MapProblemControls final : public QWidget {
    Q_OBJECT
  public:
    explicit MapProblemControls(QWidget* parent = nullptr);

    // The evidence path and the model options as the family's problem options.
    OptionValues problemOptions() const;

  private:
    QLineEdit* evidence_ = nullptr;
    QLineEdit* modelOptions_ = nullptr;
};

}  // namespace cplab::widgets
