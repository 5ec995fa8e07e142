// SPDX-License-Identifier: GPL-3.0-or-later
// The one place that names the runs of a race (the runs table, the bounds plot's legend, the
// views' race legends, the log): a run's name says what tells it apart from the other runs.
// Runs of the same solver differ only in their options, so their name puts the options whose
// values differ among them first ("#2 frank_wolfe (variant=away)", "#2 bcfw (averaging=true,
// sampling=permutation, cache=0, …)"), then the run's other options. An option one run gives
// and another leaves at its default differs too, and is named with the default's value.
#pragma once

#include <QFontMetrics>
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "core/options.h"

namespace cplab {

// What a run's name is made of.
struct RunName {
    int id = 0;
    QString solver;
    // "option=value" of the options whose values differ among the runs of this solver, by name.
    QStringList distinguishing;
    // The compact form of the same: the values alone, a boolean as "averaging" or "no
    // averaging" ("#1 bcfw (no averaging, gap)").
    QStringList distinguishingValues;
    // "option=value" of the run's other options (those it gives), by name.
    QStringList rest;

    // "#2 frank_wolfe (variant=away, max_iterations=50)": the whole name (tooltips, legends).
    QString text() const;
    // The number, the solver and the distinguishing options ("#2 frank_wolfe (variant=away)"):
    // the status line and the log's lines of what a step did.
    QString brief() const;
    // For legends, which elide a name from its end at a width of their own: the whole name of
    // a run whose solver is alone in the race, else the number, the solver and the compact
    // distinguishing values ("#2 frank_wolfe (away)", "#1 bcfw (no averaging, gap)").
    QString legend() const;
    // For the family views' race legends, which show a name's head (the text before " (",
    // race_graphs.h's legendLabel): the compact distinguishing values after a colon
    // ("#2 frank_wolfe: away"), else the whole name.
    QString viewLegend() const;
    // The name fitted to `width` px: whole if it fits, else the distinguishing options alone
    // ("#2 bcfw (averaging=true, …)"), then their values alone ("#2 bcfw (averaging,
    // permutation)"), then with the solver's name cut ("#2 bc… (averaging, permutation)"),
    // and only then elided at the end.
    QString fitted(const QFontMetrics& metrics, int width) const;
};

// One run of the race as the names need it: its id, its solver and the options it gives.
struct RunSpec {
    int id = 0;
    std::string solver;
    OptionValues options;
};

// The names of `runs`, in their order.
std::vector<RunName> runNames(const std::vector<RunSpec>& runs);

}  // namespace cplab
