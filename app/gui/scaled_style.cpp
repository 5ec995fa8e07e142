// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaled_style.h"

#include <QApplication>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace cplab {

namespace {

// The metrics drawn to the size the style is given (Fusion scales the check mark, the radio
// dot, the scroll bar's and the slider's handles with their rectangles).
bool scalesWithType(QStyle::PixelMetric metric) {
    switch (metric) {
        case QStyle::PM_IndicatorWidth:
        case QStyle::PM_IndicatorHeight:
        case QStyle::PM_ExclusiveIndicatorWidth:
        case QStyle::PM_ExclusiveIndicatorHeight:
        case QStyle::PM_ScrollBarExtent:
        case QStyle::PM_ScrollBarSliderMin:
        case QStyle::PM_SliderThickness:
        case QStyle::PM_SliderControlThickness:
        case QStyle::PM_SliderLength:
        case QStyle::PM_SmallIconSize:
        case QStyle::PM_ButtonIconSize:
            return true;
        default:
            return false;
    }
}

double pointSize(const QFont& font) {
    if (font.pointSizeF() > 0) return font.pointSizeF();
    return font.pixelSize() > 0 ? font.pixelSize() * 0.75 : 0.0;  // 96 dpi: 4 px = 3 pt
}

}  // namespace

ScaledStyle::ScaledStyle(QStyle* base) : QProxyStyle(base) {}

double ScaledStyle::fontScale(const QWidget* widget) {
    if (!widget) return 1.0;
    const double own = pointSize(widget->font());
    const double application = pointSize(QApplication::font());
    if (!(own > 0) || !(application > 0)) return 1.0;
    return std::clamp(own / application, 1.0, 4.0);
}

int ScaledStyle::pixelMetric(PixelMetric metric, const QStyleOption* option,
                             const QWidget* widget) const {
    const int size = QProxyStyle::pixelMetric(metric, option, widget);
    if (!scalesWithType(metric) || size <= 0) return size;
    return static_cast<int>(std::lround(size * fontScale(widget)));
}

}  // namespace cplab
