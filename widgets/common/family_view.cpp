// SPDX-License-Identifier: GPL-3.0-or-later
#include "family_view.h"

#include <QTabWidget>
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

std::vector<FigurePage> FamilyView::pages() {
    // findChildren lists parents before their children: the first tab widget on screen is the
    // outermost.
    for (QTabWidget* tabs : findChildren<QTabWidget*>()) {
        if (!tabs->isVisibleTo(this)) continue;
        std::vector<FigurePage> shown;
        for (int k = 0; k < tabs->count(); ++k) {
            if (tabs->isTabVisible(k)) shown.push_back({tabs->tabText(k), tabs->widget(k)});
        }
        if (!shown.empty()) return shown;
    }
    return {{QString(), this}};
}

}  // namespace cplab::widgets
