// SPDX-License-Identifier: GPL-3.0-or-later
// The application's style with the sizes that Qt gives in pixels (check boxes, radio buttons,
// scroll bars, sliders, small icons) grown with the widget's type: the presentation scale
// (presentation.h) enlarges the window's font, and on a 4K screen or a projector a 16-pixel
// check box beside 37-pixel text is hard to see and to hit.
#pragma once

#include <QProxyStyle>

namespace cplab {

class ScaledStyle final : public QProxyStyle {
  public:
    // Wraps `base` (null: the application's default style); takes ownership of it.
    explicit ScaledStyle(QStyle* base = nullptr);

    int pixelMetric(PixelMetric metric, const QStyleOption* option = nullptr,
                    const QWidget* widget = nullptr) const override;

    // How much larger than the application's font `widget`'s is (at least 1, at most 4;
    // 1 without a widget).
    static double fontScale(const QWidget* widget);
};

}  // namespace cplab
