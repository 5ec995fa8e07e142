// SPDX-License-Identifier: GPL-3.0-or-later
// The handout of a lecture (`cplab LECTURE --export-handout out.pdf`): the lecture is walked as
// the keyboard walks it (lecture_controller.h) from its first slide to its end, and every
// position of the walk — a slide's start and each beat of its story after it — is one page of a
// PDF: the slide's number and title on top, the family view and the bounds plot as vector
// graphics (widgets/common/figure_export.h, drawWidget), the caption under them (the beat, what
// the step did, what to watch). Written beside the target and renamed over it when complete
// (core/output_file.h); an output that is the lecture or one of its sessions is refused.
#pragma once

#include <QString>

namespace cplab {

class LectureController;
class MainWindow;

// How long one position of the walk may take to be reached (runs stepping to a beat).
inline constexpr int kHandoutPageSeconds = 120;

// Walks the lecture open in `lectures` (shown in `window`) from its first slide and writes the
// handout to `path`; the number of pages in *pages. False and *why (the path first) when the
// lecture has no slides, a slide cannot be opened, a beat is not reached in time or the file
// cannot be written.
bool exportHandout(MainWindow& window, LectureController& lectures, const QString& path, int* pages,
                   QString* why);

}  // namespace cplab
