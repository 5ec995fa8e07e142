// SPDX-License-Identifier: GPL-3.0-or-later
// What the two halves of the main window share: main_window.cpp (problems, runs, what the
// views show) and main_window_ui.cpp (the widgets, panels and menus it is built from).
#pragma once

#include <QComboBox>
#include <QString>

namespace cplab {

enum RunColumn { kColRun, kColStatus, kColIteration, kColUpper, kColGap, kColumnCount };

// The list of a narrow combo box as wide as its longest item (call after filling it).
void widenList(QComboBox* combo);

// The file dialogs' filter: every format of the table (data/data_format.h), then any file.
QString openFileFilter();

}  // namespace cplab
