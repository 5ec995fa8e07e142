// SPDX-License-Identifier: GPL-3.0-or-later
#include "family_view.h"

#include <algorithm>
#include <limits>

#include "plot_style.h"

namespace cplab::widgets {

int columnOf(const std::vector<std::string>& columns, const std::string& name) {
    const auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

double extraAt(const IterationRecord& record, int column) {
    return column >= 0 && column < static_cast<int>(record.extra.size())
               ? record.extra[static_cast<std::size_t>(column)]
               : std::numeric_limits<double>::quiet_NaN();
}

bool FamilyView::exportImage(const QString& path, QString* why) {
    return exportPlot(plot(), path, why);
}

}  // namespace cplab::widgets
