// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_style.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QPointer>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "figure_export.h"

namespace cplab::widgets {

QColor runColor(int k) {
    // Okabe & Ito's blue, vermillion, bluish green, reddish purple, sky blue and orange (their
    // yellow and black are unreadable on white or taken by the semantic colours), then olive
    // and lilac.
    static const QColor palette[] = {{0, 114, 178},  {213, 94, 0},  {0, 158, 115}, {204, 121, 167},
                                     {86, 180, 233}, {230, 159, 0}, {120, 120, 0}, {150, 80, 190}};
    const int n = static_cast<int>(sizeof palette / sizeof palette[0]);
    return palette[((k % n) + n) % n];
}

QCPScatterStyle::ScatterShape runMarker(int k) {
    static const QCPScatterStyle::ScatterShape shapes[] = {
        QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssTriangleInverted,
        QCPScatterStyle::ssPlus,    QCPScatterStyle::ssStar};
    const int n = static_cast<int>(sizeof shapes / sizeof shapes[0]);
    return shapes[((k % n) + n) % n];
}

QCPScatterStyle runMarkerStyle(int k, const QColor& color, double size) {
    return markerStyle(runMarker(k), color, Qt::white, size, 1.5);
}

QPen pen(const QColor& color, double width, Qt::PenStyle style) {
    QPen p(color, width, style);
    p.setCapStyle(Qt::RoundCap);
    p.setJoinStyle(Qt::RoundJoin);
    return p;
}

QCPColorGradient heatGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, colors::kHeatLow);
    g.setColorStopAt(0.35, colors::kHeatMidLow);
    g.setColorStopAt(0.7, colors::kHeatMidHigh);
    g.setColorStopAt(1.0, colors::kHeatHigh);
    return g;
}

QCPGraph* addLineGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name, const QPen& p,
                       bool rightAxis) {
    QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom),
                                 rect->axis(rightAxis ? QCPAxis::atRight : QCPAxis::atLeft));
    g->setName(name);
    g->setPen(p);
    return g;
}

QCPLegend* addInsetLegend(QCPAxisRect* rect, Qt::Alignment alignment) {
    auto* legend = new QCPLegend;
    rect->insetLayout()->addElement(legend, alignment);
    legend->setLayer("legend");
    QFont font;
    font.setPointSize(8);
    legend->setFont(font);
    legend->setBrush(colors::kLegendFill);
    legend->setBorderPen(pen(colors::kLegendBorder));
    return legend;
}

void styleAxisRect(QCPAxisRect* rect) {
    QFont labelFont;
    labelFont.setPointSize(10);
    QFont tickFont;
    tickFont.setPointSize(9);
    for (QCPAxis* axis : rect->axes()) {
        axis->setLabelFont(labelFont);
        axis->setTickLabelFont(tickFont);
        axis->setBasePen(pen(QColor(90, 90, 90)));
        axis->setTickPen(pen(QColor(90, 90, 90)));
        axis->setSubTickPen(pen(QColor(140, 140, 140)));
        axis->grid()->setPen(pen(QColor(225, 225, 225), 1, Qt::SolidLine));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
}

void applyPlotStyle(QCustomPlot* plot) {
    // A plot's own minimum (its layout's: legends of many entries, several axis rects) would
    // let one plot widen every view past a projector's 1024 or 1280 pixels; what is too small
    // to show whole is drawn smaller instead.
    plot->setMinimumSize(240, 140);
    plot->setBackground(Qt::white);
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setNotAntialiasedElements(QCP::aeNone);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setNoAntialiasingOnDrag(true);
    // Live runs replot several times a second on the GUI thread, next to the solver's: draw
    // polylines the fast way (the joins of 2-pixel lines are the only visible difference).
    plot->setPlottingHint(QCP::phFastPolylines, true);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { padLegendItems(plot); });
    // Judged on the layout just drawn (a replot lays out anew: margins follow the tick labels);
    // a legend moved is drawn at its new place by one more replot.
    QObject::connect(plot, &QCustomPlot::afterReplot, plot, [plot] {
        if (moveInsetLegendsOffData(plot)) plot->replot(QCustomPlot::rpQueuedReplot);
    });
    for (QCPAxisRect* rect : plot->axisRects())
        styleAxisRect(rect);
    QFont legendFont;
    legendFont.setPointSize(9);
    plot->legend->setFont(legendFont);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->legend->setBorderPen(pen(QColor(200, 200, 200)));
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* why, int width, int height) {
    const QSize size(width > 0 ? width : plot->width(), height > 0 ? height : plot->height());
    return paintFigure(
        path, size,
        [&](QCPPainter& painter) { plot->toPainter(&painter, size.width(), size.height()); }, why);
}

namespace {

// The least share of `axis`'s length between two ticks so that their labels keep apart: 1.6
// label heights on a vertical axis (60 % of a label's height between labels), five on a
// horizontal one (labels are wider than tall); a fifth before the first layout.
double minimumTickShare(const QCPAxis* axis) {
    if (!axis || !axis->axisRect()) return 0.2;
    const bool vertical = axis->orientation() == Qt::Vertical;
    const QRect rect = axis->axisRect()->rect();
    const int length = vertical ? rect.height() : rect.width();
    if (length <= 0) return 0.2;
    const int label = QFontMetrics(axis->tickLabelFont()).height();
    return (vertical ? 1.6 : 5.0) * label / length;
}

// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `step`.
double niceStepAtLeast(double step) {
    if (!(step > 0) || !std::isfinite(step)) return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(step)));
    for (double mantissa : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (mantissa * magnitude >= step * (1 - 1e-9)) return mantissa * magnitude;
    return 10.0 * magnitude;
}

// Linear ticks of 1, 2, 2.5 or 5 · 10^k, the smallest step whose labels keep apart on the
// axis's length, each label with just the digits that tell it from its neighbours.
class FittedTicker : public QCPAxisTicker {
  public:
    explicit FittedTicker(QCPAxis* axis) : axis_(axis) {}

  protected:
    double getTickStep(const QCPRange& range) override {
        step_ = niceStepAtLeast(range.size() * minimumTickShare(axis_));
        largest_ = std::max(std::abs(range.lower), std::abs(range.upper));
        return step_;
    }
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override {
        if (largest_ > 0 && step_ > 0 && std::isfinite(largest_)) {
            const int top = static_cast<int>(std::floor(std::log10(largest_)));
            const double stepExponent = std::floor(std::log10(step_));
            const bool twoDigitStep = std::abs(step_ / std::pow(10.0, stepExponent) - 2.5) < 1e-9;
            int digits = top - static_cast<int>(stepExponent) + 1 + (twoDigitStep ? 1 : 0);
            // Below 10^5 whole numbers are written out ("25000", not "2.5·10^4").
            if (top >= 0 && top < 5) digits = std::max(digits, top + 1);
            precision = std::clamp(digits, 1, 12);
        }
        return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    }

  private:
    QPointer<QCPAxis> axis_;
    double step_ = 1.0;
    double largest_ = 0.0;
};

// Ticks at powers of ten, every k-th decade when the axis is too short to label each one.
class FittedLogTicker : public QCPAxisTickerLog {
  public:
    explicit FittedLogTicker(QCPAxis* axis) : axis_(axis) {}

  protected:
    int getSubTickCount(double tickStep) override {
        return decadesPerTick_ == 1 ? QCPAxisTickerLog::getSubTickCount(tickStep) : 0;
    }
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        if (!(range.lower > 0) || !(range.upper > range.lower))
            return QCPAxisTickerLog::createTickVector(tickStep, range);
        // Every k-th power of ten, the smallest k whose labels keep apart.
        const double low = std::log10(range.lower), high = std::log10(range.upper);
        decadesPerTick_ =
            std::max(1, static_cast<int>(std::ceil((high - low) * minimumTickShare(axis_) - 1e-9)));
        QVector<double> ticks;
        const double k = decadesPerTick_;
        for (double e = std::floor(low / k) * k; e <= high + k; e += k)
            ticks.append(std::pow(10.0, e));
        return ticks;
    }

  private:
    QPointer<QCPAxis> axis_;
    int decadesPerTick_ = 1;
};

}  // namespace

void useFittedTicks(QCPAxis* axis) {
    axis->setTicker(QSharedPointer<FittedTicker>::create(axis));
    axis->setNumberFormat("gb");
}

void useLogScale(QCPAxis* axis) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<FittedLogTicker>::create(axis));
    axis->setNumberFormat("eb");
    axis->setNumberPrecision(0);
}

int setContourSegments(QCPCurve* curve, const std::vector<ContourLevel>& levels) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QVector<QCPCurveData> data;
    int t = 0, count = 0;
    for (const auto& level : levels) {
        for (const auto& [a, b] : level.segments) {
            data.append(QCPCurveData(t++, a.x(), a.y()));
            data.append(QCPCurveData(t++, b.x(), b.y()));
            data.append(QCPCurveData(t++, nan, nan));
            ++count;
        }
    }
    curve->data()->set(data, true);
    return count;
}

QCPScatterStyle markerStyle(QCPScatterStyle::ScatterShape shape, const QColor& edge,
                            const QColor& fill, double size, double width) {
    QCPScatterStyle style(shape, size);
    style.setPen(pen(edge, width));
    style.setBrush(fill == Qt::transparent ? QBrush(Qt::NoBrush) : QBrush(fill));
    return style;
}

QCPGraph* addPointsGraph(QCustomPlot* plot, QCPAxisRect* rect, const QString& name,
                         const QCPScatterStyle& style) {
    QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    return g;
}

QCPCurve* addCurve(QCPAxisRect* rect, const QString& name, const QPen& p) {
    auto* c = new QCPCurve(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    c->setName(name);
    c->setPen(p);
    return c;
}

QCPColorGradient inkGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(255, 255, 255));
    g.setColorStopAt(1.0, QColor(20, 20, 20));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QCPItemText* addNote(QCustomPlot* plot, QCPAxisRect* rect) {
    auto* note = new QCPItemText(plot);
    note->setClipAxisRect(rect);
    note->setClipToAxisRect(false);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setAxisRect(rect);
    note->position->setCoords(0.5, 0.5);
    note->setColor(colors::kNote);
    return note;
}

QCPLegend* addLegendRow(QCustomPlot* plot, int row, int wrap) {
    auto* legend = new QCPLegend;
    plot->plotLayout()->addElement(row, 0, legend);
    legend->setLayer("legend");
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(wrap);
    QFont font;
    font.setPointSize(8);
    legend->setFont(font);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(4, 0, 4, 2));
    return legend;
}

// ---- Presentation scale.

namespace {

double gPlotScale = 1.0;
constexpr const char* kScaledFlag = "cplabScaled";
constexpr const char* kHookFlag = "cplabScaleHook";

// The value `current` brought to `scale`: its base (remembered on `object` under `key`) times
// the scale. The first time, or when someone has set the value since (it is no longer the
// one set here), the current value becomes the base.
// `whole`: the value is stored as an integer (icon sizes, pixel sizes), so the value set is
// the rounded one — else the next call would take the rounded value for a new base and the
// scale would compound.
double scaled(QObject* object, const char* key, double current, double scale, bool whole = false) {
    const QByteArray baseKey = QByteArray("cplabBase_") + key;
    const QByteArray setKey = QByteArray("cplabSet_") + key;
    const QVariant set = object->property(setKey.constData());
    double base = object->property(baseKey.constData()).toDouble();
    if (!set.isValid() || set.toDouble() != current) {
        base = current;
        object->setProperty(baseKey.constData(), base);
    }
    const double value = whole ? std::round(base * scale) : base * scale;
    object->setProperty(setKey.constData(), value);
    return value;
}

QFont scaledFont(QObject* object, const char* key, QFont font, double scale) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(scaled(object, key, font.pointSizeF(), scale));
    else if (font.pixelSize() > 0)
        font.setPixelSize(static_cast<int>(scaled(object, key, font.pixelSize(), scale, true)));
    return font;
}

// Cosmetic pens (width 0) and no pen stay as they are.
QPen scaledPen(QObject* object, const char* key, QPen p, double scale) {
    if (p.style() != Qt::NoPen && p.widthF() > 0)
        p.setWidthF(scaled(object, key, p.widthF(), scale));
    return p;
}

QCPScatterStyle scaledScatter(QObject* object, QCPScatterStyle style, double scale) {
    if (style.isNone()) return style;
    style.setSize(scaled(object, "scatterSize", style.size(), scale));
    style.setPen(scaledPen(object, "scatterPen", style.pen(), scale));
    return style;
}

template <class Item>
bool scaleItemPen(QCPLayerable* layerable, double scale) {
    auto* item = qobject_cast<Item*>(layerable);
    if (item) item->setPen(scaledPen(item, "pen", item->pen(), scale));
    return item != nullptr;
}

void scaleAxis(QCPAxis* axis, double scale) {
    axis->setLabelFont(scaledFont(axis, "labelFont", axis->labelFont(), scale));
    axis->setTickLabelFont(scaledFont(axis, "tickLabelFont", axis->tickLabelFont(), scale));
    axis->setBasePen(scaledPen(axis, "basePen", axis->basePen(), scale));
    axis->setTickPen(scaledPen(axis, "tickPen", axis->tickPen(), scale));
    axis->setSubTickPen(scaledPen(axis, "subTickPen", axis->subTickPen(), scale));
}

void scaleLayerable(QCPLayerable* layerable, double scale) {
    if (auto* axis = qobject_cast<QCPAxis*>(layerable)) {
        scaleAxis(axis, scale);
    } else if (auto* legend = qobject_cast<QCPLegend*>(layerable)) {
        // The legend passes its font on to its items (and new items take it).
        legend->setFont(scaledFont(legend, "font", legend->font(), scale));
        const QSize icon = legend->iconSize();
        legend->setIconSize(
            static_cast<int>(scaled(legend, "iconWidth", icon.width(), scale, true)),
            static_cast<int>(scaled(legend, "iconHeight", icon.height(), scale, true)));
    } else if (auto* title = qobject_cast<QCPTextElement*>(layerable)) {
        title->setFont(scaledFont(title, "font", title->font(), scale));
    } else if (auto* graph = qobject_cast<QCPGraph*>(layerable)) {
        graph->setPen(scaledPen(graph, "pen", graph->pen(), scale));
        graph->setScatterStyle(scaledScatter(graph, graph->scatterStyle(), scale));
    } else if (auto* curve = qobject_cast<QCPCurve*>(layerable)) {
        curve->setPen(scaledPen(curve, "pen", curve->pen(), scale));
        curve->setScatterStyle(scaledScatter(curve, curve->scatterStyle(), scale));
    } else if (auto* plottable = qobject_cast<QCPAbstractPlottable*>(layerable)) {
        plottable->setPen(scaledPen(plottable, "pen", plottable->pen(), scale));
    } else if (auto* text = qobject_cast<QCPItemText*>(layerable)) {
        text->setFont(scaledFont(text, "font", text->font(), scale));
        text->setPen(scaledPen(text, "pen", text->pen(), scale));
    } else if (auto* tracer = qobject_cast<QCPItemTracer*>(layerable)) {
        tracer->setPen(scaledPen(tracer, "pen", tracer->pen(), scale));
        tracer->setSize(scaled(tracer, "size", tracer->size(), scale));
    } else {
        scaleItemPen<QCPItemLine>(layerable, scale) ||
            scaleItemPen<QCPItemStraightLine>(layerable, scale) ||
            scaleItemPen<QCPItemCurve>(layerable, scale) ||
            scaleItemPen<QCPItemRect>(layerable, scale) ||
            scaleItemPen<QCPItemEllipse>(layerable, scale);
    }
}

}  // namespace

double plotScale() {
    return gPlotScale;
}

void setPlotScale(double scale) {
    gPlotScale = std::isfinite(scale) ? std::clamp(scale, 0.75, 3.0) : 1.0;
}

void scalePlot(QCustomPlot* plot) {
    // A plot never scaled away from 1 holds its base values: nothing to do.
    if (gPlotScale == 1.0 && !plot->property(kScaledFlag).toBool()) return;
    plot->setProperty(kScaledFlag, true);
    for (int i = 0; i < plot->layerCount(); ++i)
        for (QCPLayerable* layerable : plot->layer(i)->children())
            scaleLayerable(layerable, gPlotScale);
}

void padLegendItems(QCustomPlot* plot) {
    // DejaVu Sans's underscore reaches the font's whole descent, which a legend item's clip
    // rectangle cuts off ("max_iterations" read "max iterations"): room below every item.
    const int room = std::max(2, static_cast<int>(std::lround(2 * gPlotScale)));
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        auto* legend = qobject_cast<QCPLegend*>(element);
        if (!legend) continue;
        for (int k = 0; k < legend->itemCount(); ++k) {
            QCPAbstractLegendItem* item = legend->item(k);
            if (!item) continue;
            QMargins margins = item->margins();
            if (margins.bottom() == room) continue;
            margins.setBottom(room);
            item->setMargins(margins);
        }
    }
}

void applyPlotScale(QWidget* root) {
    if (!root) return;
    QList<QCustomPlot*> plots = root->findChildren<QCustomPlot*>();
    if (auto* self = qobject_cast<QCustomPlot*>(root)) plots.prepend(self);
    for (QCustomPlot* plot : plots) {
        if (!plot->property(kHookFlag).toBool()) {
            plot->setProperty(kHookFlag, true);
            QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { scalePlot(plot); });
        }
        scalePlot(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

namespace {

// A point of what a plot draws and the ink it stands for (pixels).
struct Ink {
    QPointF at;
    double pixels;
};

// What `rect`'s graphs and curves draw: points every 4 pixels along their lines (a plane
// drawn as one segment across the plot), each standing for 4 pixels times the pen's width,
// and their markers, each standing for half its size squared.
std::vector<Ink> drawnInk(QCPAxisRect* rect) {
    std::vector<Ink> ink;
    const QRectF area = rect->rect();
    double lineInk = 0, markerInk = 0;
    // The previous point of the line being read (none at its start and after a gap).
    QPointF previous;
    bool hasPrevious = false;
    auto add = [&](const QCPAbstractPlottable* plottable, double key, double value, bool lines) {
        if (!std::isfinite(key) || !std::isfinite(value)) {
            hasPrevious = false;  // a gap in the line
            return;
        }
        const QPointF at = plottable->coordsToPixels(key, value);
        if (lines && hasPrevious) {
            const QPointF step = at - previous;
            const int pieces = std::min(400, static_cast<int>(std::hypot(step.x(), step.y()) / 4));
            for (int k = 1; k < pieces; ++k) {
                const QPointF between = previous + step * (double(k) / pieces);
                if (area.contains(between)) ink.push_back({between, lineInk});
            }
        }
        if (markerInk > 0 && area.contains(at)) ink.push_back({at, markerInk});
        previous = at;
        hasPrevious = true;
    };
    auto style = [&](const QPen& pen, const QCPScatterStyle& marker) {
        lineInk = 4 * std::max(1.0, pen.widthF());
        markerInk = marker.isNone() ? 0 : 0.5 * marker.size() * marker.size();
        hasPrevious = false;
    };
    for (QCPAbstractPlottable* plottable : rect->plottables()) {
        if (!plottable->realVisibility()) continue;
        if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
            style(graph->pen(), graph->scatterStyle());
            const bool lines = graph->lineStyle() != QCPGraph::lsNone;
            for (const QCPGraphData& d : *graph->data())
                add(graph, d.key, d.value, lines);
        } else if (auto* curve = qobject_cast<QCPCurve*>(plottable)) {
            style(curve->pen(), curve->scatterStyle());
            const bool lines = curve->lineStyle() != QCPCurve::lsNone;
            for (const QCPCurveData& d : *curve->data())
                add(curve, d.key, d.value, lines);
        }
    }
    return ink;
}

// Where an element of `size` sits in `area` at `alignment` (as QCPLayoutInset places it).
QRectF placed(const QRectF& area, QSizeF size, Qt::Alignment alignment) {
    double x = area.left(), y = area.top();
    if (alignment & Qt::AlignRight) x = area.right() - size.width();
    if (alignment & Qt::AlignHCenter) x = area.center().x() - size.width() / 2;
    if (alignment & Qt::AlignBottom) y = area.bottom() - size.height();
    if (alignment & Qt::AlignVCenter) y = area.center().y() - size.height() / 2;
    return {QPointF(x, y), size};
}

}  // namespace

bool moveInsetLegendsOffData(QCustomPlot* plot) {
    bool moved = false;
    // Every panel's ink: a legend taller than its short panel reaches into the next one.
    std::vector<Ink> ink;
    bool inkRead = false;
    for (QCPAxisRect* rect : plot->axisRects()) {
        QCPLayoutInset* inset = rect->insetLayout();
        for (int i = 0; i < inset->elementCount(); ++i) {
            auto* legend = qobject_cast<QCPLegend*>(inset->elementAt(i));
            if (!legend || !legend->realVisibility() || legend->itemCount() == 0 ||
                inset->insetPlacement(i) != QCPLayoutInset::ipBorderAligned)
                continue;
            if (!inkRead) {
                for (QCPAxisRect* panel : plot->axisRects()) {
                    const std::vector<Ink> more = drawnInk(panel);
                    ink.insert(ink.end(), more.begin(), more.end());
                }
            }
            inkRead = true;
            const QSizeF size = legend->minimumOuterSizeHint();
            auto covered = [&](Qt::Alignment alignment) {
                const QRectF area = placed(rect->rect(), size, alignment);
                double sum = 0;
                for (const Ink& piece : ink)
                    sum += area.contains(piece.at) ? piece.pixels : 0;
                return sum;
            };
            // From the place the view gave it, whatever moves came before (a reopened session
            // draws the same picture as the window that saved it).
            const QVariant designed = legend->property("cplabDesignedPlace");
            if (!designed.isValid())
                legend->setProperty("cplabDesignedPlace", int(inset->insetAlignment(i)));
            Qt::Alignment best =
                designed.isValid() ? Qt::Alignment(designed.toInt()) : inset->insetAlignment(i);
            auto fewest = covered(best);
            for (const Qt::Alignment place : kLegendPlaces) {
                if (fewest == 0) break;
                const auto count = covered(place);
                if (count < fewest) {
                    fewest = count;
                    best = place;
                }
            }
            if (best != inset->insetAlignment(i)) {
                inset->setInsetAlignment(i, best);
                moved = true;
            }
        }
    }
    return moved;
}

}  // namespace cplab::widgets
