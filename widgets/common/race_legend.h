// SPDX-License-Identifier: GPL-3.0-or-later
// How a family view names and marks the runs of a race (family_view.h's RaceEntry) in its
// legends: the run's label without the options every run of the race shares, and its marker.
#pragma once

#include <QColor>
#include <QString>
#include <vector>

#include "family_view.h"
#include "qcustomplot.h"

namespace cplab::widgets {

// The runs of `frame`: its race, or the frame's own run alone when the race is empty (a view
// handed a single run), coloured and marked as the runs table numbers it.
std::vector<RaceEntry> raceOf(const ViewFrame& frame);

// The labels of `race` ("#2 bcfw (lambda=0.01, averaging=true)") without the options that
// every run shares ("#2 bcfw (averaging=true)"), so that the legends name what differs; the
// label unchanged when it is not of the form "#k solver (a=b, c=d)".
std::vector<QString> raceNames(const std::vector<RaceEntry>& race);

}  // namespace cplab::widgets
