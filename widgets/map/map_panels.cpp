// SPDX-License-Identifier: GPL-3.0-or-later
#include "map_panels.h"

#include <algorithm>
#include <cmath>

namespace cplab::widgets {

double MapPanels::gap() const {
    return std::max(1.0, std::round(std::max(rows, columns) / 14.0));
}

double MapPanels::captionHeight() const {
    // Two lines of 8 pt text below the panel: about a seventh of a large panel's height, and
    // at least 1.4 cells of a small grid (whose cells are large on screen).
    return std::max(1.4, 0.16 * rows);
}

QPointF MapPanels::origin(int slot) const {
    const int line = slot / std::max(perLine, 1), at = slot % std::max(perLine, 1);
    return {at * (columns + gap()), line * (rows + captionHeight() + gap())};
}

QRectF MapPanels::box() const {
    const int lines = (count + std::max(perLine, 1) - 1) / std::max(perLine, 1);
    const int across = std::min(count, std::max(perLine, 1));
    const double width = across * (columns + gap()) - gap() + 1.4;
    const double height = lines * (rows + captionHeight() + gap()) - gap() + 1.4;
    return {-1.2, -1.2, width, height};
}

int MapPanels::bestPerLine(int rows, int columns, int count, const QSizeF& pixels) {
    int best = 1;
    double bestScale = 0.0;
    for (int perLine = 1; perLine <= std::max(count, 1); ++perLine) {
        const MapPanels panels{rows, columns, count, perLine};
        const QRectF box = panels.box();
        const double scale = std::min(pixels.width() / box.width(), pixels.height() / box.height());
        if (scale > bestScale * 1.001) {
            best = perLine;
            bestScale = scale;
        }
    }
    return best;
}

}  // namespace cplab::widgets
