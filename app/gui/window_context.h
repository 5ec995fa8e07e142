// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window's parts share (main_window.h): the window they live in (the parent of
// their dialogs, menus and tool bars), the run controller, the panels every part writes to,
// and the parts themselves. MainWindow fills it as it builds the parts, in the order of
// main_window.cpp; a part reaches another only through these pointers, after both are built.
#pragma once

class QMainWindow;

namespace cplab {

class RunController;
class CentreArea;
class SetupPanel;
class Playback;
class Presentation;
class FileLoader;
class SessionActions;
class ExportActions;
class TraceFollowing;
class PointEditing;

namespace widgets {
class BoundsPlot;
class CaptionBar;
class LogPanel;
class PseudocodePanel;
class TimelineBar;
}  // namespace widgets

struct WindowContext {
    QMainWindow* window = nullptr;
    RunController* controller = nullptr;
    // The panels (children of the window).
    widgets::LogPanel* log = nullptr;
    widgets::PseudocodePanel* pseudocode = nullptr;
    widgets::CaptionBar* caption = nullptr;
    widgets::TimelineBar* timeline = nullptr;
    widgets::BoundsPlot* boundsPlot = nullptr;
    // The parts, by responsibility.
    CentreArea* centre = nullptr;          // the family views, the timeline and the bounds
    SetupPanel* setup = nullptr;           // demo, problem, solver, options and the runs
    Playback* playback = nullptr;          // run controls, the timeline, what the views show
    Presentation* presentation = nullptr;  // presentation mode, scale, the demo's caption
    FileLoader* files = nullptr;           // data files and sessions read in the background
    SessionActions* sessions = nullptr;    // sessions, recent files, what is remembered
    ExportActions* exports = nullptr;      // figures, traces, tables, animations
    TraceFollowing* following = nullptr;   // traces another process is writing
    PointEditing* pointEditing = nullptr;  // the drawn points (Edit menu, Draw tool bar)
};

}  // namespace cplab
