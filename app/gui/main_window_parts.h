// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's parts, one header each (main_window.h, window_context.h), for code that
// reaches them through MainWindow::parts(): the command line (app/gui/main.cpp) and the tests.
#pragma once

#include "centre_area.h"
#include "export_actions.h"
#include "file_loader.h"
#include "main_window.h"
#include "playback.h"
#include "point_editing.h"
#include "presentation.h"
#include "session_actions.h"
#include "setup_panel.h"
#include "trace_following.h"
#include "window_context.h"
