// SPDX-License-Identifier: GPL-3.0-or-later
// The application's style (app/gui/scaled_style.h): a check box, a radio button and a scroll
// bar in type twice the application's are twice the size the base style gives them, and the
// check mark is drawn across the larger box (its ink spans as much of it as at the base size);
// at the application's own type nothing changes.
#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QPainter>
#include <QRadioButton>
#include <QScrollBar>
#include <QStyleFactory>
#include <QStyleOptionButton>
#include <QtTest>
#include <cmath>
#include <memory>

#include "scaled_style.h"

using cplab::ScaledStyle;

namespace {

// The width of the dark ink of a checked indicator drawn by `style` into a `side`-pixel square,
// as a fraction of the side.
double checkMarkSpan(QStyle& style, QWidget& widget, int side) {
    QImage image(side, side, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QStyleOptionButton option;
    option.initFrom(&widget);
    option.rect = QRect(0, 0, side, side);
    option.state = QStyle::State_Enabled | QStyle::State_On;
    QPainter painter(&image);
    style.drawPrimitive(QStyle::PE_IndicatorCheckBox, &option, &painter, &widget);
    painter.end();
    int left = side, right = -1;
    // The mark, not the frame: pixels inside a 20 % margin.
    const int margin = side / 5;
    for (int y = margin; y < side - margin; ++y) {
        for (int x = margin; x < side - margin; ++x) {
            if (qGray(image.pixel(x, y)) < 128) {
                left = std::min(left, x);
                right = std::max(right, x);
            }
        }
    }
    return right < left ? 0.0 : double(right - left + 1) / side;
}

}  // namespace

class TestScaledStyle : public QObject {
    Q_OBJECT

  private slots:
    void metricsGrowWithType() {
        auto base = std::unique_ptr<QStyle>(QStyleFactory::create("Fusion"));
        QVERIFY(base);
        ScaledStyle style(QStyleFactory::create("Fusion"));
        QFont large = QApplication::font();
        large.setPointSizeF(QApplication::font().pointSizeF() * 2);
        QCheckBox box("check");
        QRadioButton radio("radio");
        QScrollBar bar;
        for (QWidget* w : {static_cast<QWidget*>(&box), static_cast<QWidget*>(&radio),
                           static_cast<QWidget*>(&bar)}) {
            w->setStyle(&style);
        }
        struct Case {
            QStyle::PixelMetric metric;
            QWidget* widget;
        };
        const Case cases[] = {{QStyle::PM_IndicatorWidth, &box},
                              {QStyle::PM_IndicatorHeight, &box},
                              {QStyle::PM_ExclusiveIndicatorWidth, &radio},
                              {QStyle::PM_ScrollBarExtent, &bar}};
        for (const Case& c : cases) {
            const int plain = base->pixelMetric(c.metric, nullptr, c.widget);
            QVERIFY(plain > 0);
            c.widget->setFont(QApplication::font());
            QCOMPARE(style.pixelMetric(c.metric, nullptr, c.widget), plain);  // the app's type
            c.widget->setFont(large);
            QCOMPARE(style.pixelMetric(c.metric, nullptr, c.widget), 2 * plain);
            QCOMPARE(style.pixelMetric(c.metric, nullptr, nullptr), plain);  // no widget: as is
        }
        // Metrics that do not scale with type stay as they are.
        QCOMPARE(style.pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, &box),
                 base->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, &box));
        // A smaller font never shrinks them.
        QFont small = QApplication::font();
        small.setPointSizeF(QApplication::font().pointSizeF() / 2);
        box.setFont(small);
        QCOMPARE(style.pixelMetric(QStyle::PM_IndicatorWidth, nullptr, &box),
                 base->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, &box));
    }

    void checkMarkFillsTheLargerBox() {
        ScaledStyle style(QStyleFactory::create("Fusion"));
        QCheckBox box("check");
        box.setStyle(&style);
        const int plain = style.pixelMetric(QStyle::PM_IndicatorWidth, nullptr, &box);
        QFont large = QApplication::font();
        large.setPointSizeF(QApplication::font().pointSizeF() * 3);
        box.setFont(large);
        const int side = style.pixelMetric(QStyle::PM_IndicatorWidth, nullptr, &box);
        QCOMPARE(side, 3 * plain);
        const double small = checkMarkSpan(style, box, plain);
        const double big = checkMarkSpan(style, box, side);
        QVERIFY2(small > 0.3 && big >= 0.8 * small,
                 qPrintable(QString("check mark spans %1 of %2 px and %3 of %4 px")
                                .arg(small)
                                .arg(plain)
                                .arg(big)
                                .arg(side)));
        // The check box asks for the larger indicator.
        QVERIFY(box.sizeHint().height() >= side);
    }
};

QTEST_MAIN(TestScaledStyle)
#include "test_scaled_style.moc"
