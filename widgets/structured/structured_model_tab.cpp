// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_model_tab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "plot_style.h"
#include "structured_tabs_common.h"

namespace cplab::widgets {

namespace {

// Emission tiles titled with their label up to this many.
constexpr int kTitledTiles = 64;

// Negative red, zero white, positive blue; NaN (gaps between tiles) transparent.
QCPColorGradient weightGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(178, 24, 43));
    g.setColorStopAt(0.25, QColor(239, 138, 98));
    g.setColorStopAt(0.5, QColor(250, 250, 250));
    g.setColorStopAt(0.75, QColor(103, 169, 207));
    g.setColorStopAt(1.0, QColor(33, 102, 172));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

// The largest |value| of the map's cells (1 when all are zero or NaN).
double symmetricRange(QCPColorMapData* data) {
    double largest = 0.0;
    for (int x = 0; x < data->keySize(); ++x) {
        for (int y = 0; y < data->valueSize(); ++y) {
            const double v = data->cell(x, y);
            if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
        }
    }
    return largest > 0 ? largest : 1.0;
}

// Sets the ranges of `rect`'s bottom and left axes to hold `box` with as many pixels per unit
// across as up and down, `box` centred (the left axis keeps its reversal).
void squarePixels(QCPAxisRect* rect, const QRectF& box) {
    if (rect->width() <= 0 || rect->height() <= 0 || box.isEmpty()) return;
    const double perPixel = std::max(box.width() / rect->width(), box.height() / rect->height());
    const double halfWidth = perPixel * rect->width() / 2,
                 halfHeight = perPixel * rect->height() / 2;
    const QPointF c = box.center();
    rect->axis(QCPAxis::atBottom)->setRange(c.x() - halfWidth, c.x() + halfWidth);
    rect->axis(QCPAxis::atLeft)->setRange(c.y() - halfHeight, c.y() + halfHeight);
}

}  // namespace

StructuredModelTab::StructuredModelTab(QWidget* parent) : QCustomPlot(parent) {
    setObjectName("structuredModelPlot");
    applyPlotStyle(this);
    // Keep the pixels square once the layout is known (every replot, a resize's too, right
    // after the layout and before drawing): widen whichever range is short.
    replots_ = new CoalescedReplot(this);
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        if (layout_ == Layout::Images) squarePixels(emissionRect_, emissionBox_);
        if (transitions_) squarePixels(transitionRect_, transitionBox_);
    });
    // Emission weights (left, wide) and transitions (right).
    emissionRect_ = axisRect();
    transitionRect_ = new QCPAxisRect(this);
    plotLayout()->addElement(0, 1, transitionRect_);
    plotLayout()->setColumnStretchFactors({1.6, 1.0});
    for (QCPAxisRect* rect : {emissionRect_, transitionRect_}) {
        styleAxisRect(rect);
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->grid()->setVisible(false);
    }
    emission_ = new QCPColorMap(emissionRect_->axis(QCPAxis::atBottom),
                                emissionRect_->axis(QCPAxis::atLeft));
    transition_ = new QCPColorMap(transitionRect_->axis(QCPAxis::atBottom),
                                  transitionRect_->axis(QCPAxis::atLeft));
    for (QCPColorMap* map : {emission_, transition_}) {
        map->setGradient(weightGradient());
        map->setInterpolate(false);
        map->setVisible(false);
    }
    note_ = addNote(this, emissionRect_);
    note_->setVisible(false);
}

void StructuredModelTab::removeTitles() {
    for (QCPItemText* title : titles_)
        removeItem(title);
    titles_.clear();
}

void StructuredModelTab::clear() {
    layout_ = Layout::None;
    labels_ = features_ = 0;
    transitions_ = false;
    labelNames_.clear();
    emission_->setVisible(false);
    transition_->setVisible(false);
    emission_->data()->clear();
    transition_->data()->clear();
    removeTitles();
    note_->setVisible(false);
    // Nothing of the previous problem on the axes: its label names, its image's title.
    for (QCPAxisRect* rect : {emissionRect_, transitionRect_})
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            resetAxis(axis);
}

void StructuredModelTab::draw(const StructuredSnapshot& s) {
    const long long expected = static_cast<long long>(s.labels) * s.features + s.labels +
                               (s.transitions ? static_cast<long long>(s.labels) * s.labels : 0);
    if (s.labels <= 0 || s.w.size() != expected) {
        // A run that rejected its input has nothing to draw but its message.
        emission_->setVisible(false);
        transition_->setVisible(false);
        note_->setText(
            QString::fromStdString(s.status.message.empty() ? "no model yet" : s.status.message));
        note_->setVisible(true);
        return;
    }
    note_->setVisible(false);
    if (s.labels != labels_ || s.features != features_ || s.transitions != transitions_ ||
        s.labelNames != labelNames_)
        setupLayout(s);
    drawWeights(s);
}

void StructuredModelTab::setupLayout(const StructuredSnapshot& s) {
    labels_ = s.labels;
    features_ = s.features;
    transitions_ = s.transitions;
    labelNames_ = s.labelNames;
    const auto [rows, columns] = imageShape(features_);
    layout_ = rows > 0 ? Layout::Images : Layout::Matrix;
    imageRows_ = rows;
    imageColumns_ = columns;
    removeTitles();
    if (layout_ == Layout::Images) {
        setupImages();
    } else {
        setupMatrix();
    }
    emission_->setVisible(true);
    setupTransitions();
    // Without transitions the emission weights take the whole width.
    plotLayout()->setColumnStretchFactors({1.6, transitions_ ? 1.0 : 0.001});
}

void StructuredModelTab::setupImages() {
    QCPAxis* x = emissionRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = emissionRect_->axis(QCPAxis::atLeft);
    // A mosaic about 1.6 times as wide as high, a one-pixel gap between tiles and room above
    // each for its title.
    titleRows_ = labels_ <= kTitledTiles ? std::max(3, imageRows_ / 4) : 0;
    const double tileWidth = imageColumns_ + 1, tileHeight = imageRows_ + 1 + titleRows_;
    tilesPerRow_ = std::clamp(
        static_cast<int>(std::ceil(std::sqrt(1.6 * labels_ * tileHeight / tileWidth))), 1, labels_);
    const int tileRows = (labels_ + tilesPerRow_ - 1) / tilesPerRow_;
    const int width = tilesPerRow_ * (imageColumns_ + 1) - 1;
    const int height = tileRows * (imageRows_ + 1 + titleRows_) - 1;
    emission_->data()->setSize(width, height);
    emission_->data()->setRange(QCPRange(0, width - 1), QCPRange(0, height - 1));
    emissionBox_ = QRectF(-1, -1, width + 1, height + 1);
    x->setRange(-1, width);
    y->setRange(-1, height);
    y->setRangeReversed(true);  // row 0 of an image at the top
    for (QCPAxis* axis : {x, y}) {
        axis->setTicks(false);
        axis->setTickLabels(false);
    }
    // Two short lines: beside the transitions the panel is half the view wide.
    x->setLabel(tr("emission weights, %1 \u00d7 %2 per label\n(blue > 0, red < 0)")
                    .arg(imageRows_)
                    .arg(imageColumns_));
    y->setLabel({});
    if (titleRows_ > 0) addTileTitles();
}

void StructuredModelTab::addTileTitles() {
    QCPAxis* x = emissionRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = emissionRect_->axis(QCPAxis::atLeft);
    QFont font;
    font.setPointSize(labels_ <= 30 ? 9 : 7);
    for (int label = 0; label < labels_; ++label) {
        auto* title = new QCPItemText(this);
        title->setClipToAxisRect(true);
        title->setClipAxisRect(emissionRect_);
        title->position->setAxes(x, y);
        title->position->setCoords(
            (label % tilesPerRow_) * (imageColumns_ + 1) + (imageColumns_ - 1) / 2.0,
            (label / tilesPerRow_) * (imageRows_ + 1 + titleRows_) + titleRows_ / 2.0 - 0.5);
        title->setPositionAlignment(Qt::AlignCenter);
        title->setFont(font);
        title->setColor(colors::kFunction);
        title->setText(labelName(labelNames_, label));
        titles_.push_back(title);
    }
}

void StructuredModelTab::setupMatrix() {
    QCPAxis* x = emissionRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = emissionRect_->axis(QCPAxis::atLeft);
    titleRows_ = 0;
    tilesPerRow_ = 0;
    emission_->data()->setSize(features_, labels_);
    emission_->data()->setRange(QCPRange(0, features_ - 1), QCPRange(0, labels_ - 1));
    x->setRange(-0.5, features_ - 0.5);
    y->setRange(-0.5, labels_ - 0.5);
    y->setRangeReversed(true);
    x->setTicks(true);
    x->setTickLabels(true);
    x->setLabel(tr("feature j (emission weight w_y,j)"));
    y->setLabel(tr("label y"));
    labelTicks(y, labels_, labelNames_);
    y->setTicks(true);
    y->setTickLabels(true);
}

void StructuredModelTab::setupTransitions() {
    QCPAxis* from = transitionRect_->axis(QCPAxis::atLeft);
    QCPAxis* to = transitionRect_->axis(QCPAxis::atBottom);
    transitionRect_->setVisible(transitions_);
    transition_->setVisible(transitions_);
    if (!transitions_) return;
    transition_->data()->setSize(labels_, labels_);
    transition_->data()->setRange(QCPRange(0, labels_ - 1), QCPRange(0, labels_ - 1));
    transitionBox_ = QRectF(-0.5, -0.5, labels_, labels_);
    to->setRange(-0.5, labels_ - 0.5);
    from->setRange(-0.5, labels_ - 0.5);
    from->setRangeReversed(true);
    to->setLabel(tr("next label\n(transition weights)"));
    from->setLabel(tr("label"));
    for (QCPAxis* axis : {from, to})
        labelTicks(axis, labels_, labelNames_);
}

QPoint StructuredModelTab::emissionPosition(int label, int feature) const {
    if (layout_ == Layout::Images) {
        const int r = feature / imageColumns_, c = feature % imageColumns_;
        return {(label % tilesPerRow_) * (imageColumns_ + 1) + c,
                (label / tilesPerRow_) * (imageRows_ + 1 + titleRows_) + titleRows_ + r};
    }
    return {feature, label};
}

void StructuredModelTab::drawWeights(const StructuredSnapshot& s) {
    QCPColorMapData* data = emission_->data();
    data->fill(kNaN);
    for (int label = 0; label < labels_; ++label) {
        for (int j = 0; j < features_; ++j) {
            const QPoint p = emissionPosition(label, j);
            data->setCell(p.x(), p.y(), s.w(static_cast<Eigen::Index>(label) * features_ + j));
        }
    }
    const double e = symmetricRange(data);
    emission_->setDataRange(QCPRange(-e, e));
    if (transitions_) {
        const Eigen::Index base = static_cast<Eigen::Index>(labels_) * features_ + labels_;
        for (int a = 0; a < labels_; ++a) {
            for (int b = 0; b < labels_; ++b)
                transition_->data()->setCell(b, a, s.w(base + a * labels_ + b));
        }
        const double t = symmetricRange(transition_->data());
        transition_->setDataRange(QCPRange(-t, t));
    }
}

double StructuredModelTab::emissionCell(int label, int feature) const {
    if (layout_ == Layout::None || label < 0 || label >= labels_ || feature < 0 ||
        feature >= features_)
        return kNaN;
    const QPoint p = emissionPosition(label, feature);
    return emission_->data()->cell(p.x(), p.y());
}

double StructuredModelTab::transitionCell(int from, int to) const {
    if (!transitions_ || from < 0 || from >= labels_ || to < 0 || to >= labels_) return kNaN;
    return transition_->data()->cell(to, from);
}

}  // namespace cplab::widgets
