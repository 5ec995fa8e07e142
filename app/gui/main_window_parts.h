// SPDX-License-Identifier: GPL-3.0-or-later
// What the parts of the main window share: main_window.cpp (problems, runs, what the views
// show), main_window_ui.cpp (the widgets, panels and menus it is built from),
// main_window_present.cpp and main_window_session.cpp.
#pragma once

#include <QComboBox>
#include <QString>
#include <map>
#include <optional>
#include <string>

#include "main_window.h"
#include "registry.h"
#include "session.h"

namespace cplab {

// The runs table's columns (the bounds are in the status line and the run's tooltip).
enum RunColumn { kColRun, kColStatus, kColIteration, kColGap, kColumnCount };

// The list of a narrow combo box as wide as its longest item (call after filling it).
void widenList(QComboBox* combo);

// The teaching delay: 0 (full speed) to 5 s per step. The slider's positions 0..1000 map to
// it quadratically, so that 10-200 ms keep a fine touch and the slow end reaches seconds.
inline constexpr int kMaxDelayMs = 5000;
inline constexpr int kDelaySliderSteps = 1000;
int delayFromSlider(int position);
int delaySliderPosition(int milliseconds);

// The file dialogs' filter: every format of the table (data/data_format.h), then any file.
QString openFileFilter();

// Hashes the data and test files of `origin` (off the GUI thread); the files it could not
// read are left out (saving hashes them again and says why).
HashedFiles hashLoadedFiles(const ProblemOrigin& origin);

// The result of a background step of opening a file: the reader chosen (the file sniffed
// once), then the problem read.
struct MainWindow::Loaded {
    QString path;
    QString testPath;
    bool askForTest = false;
    bool isSession = false;
    std::optional<Session> session;
    SessionNotes notes;
    ReaderChoice reader;
    bool read = false;  // the second step ran
    ProblemPtr problem;
    HashedFiles hashed;  // its files' hashes, taken in the background
    std::string why;
};

}  // namespace cplab
