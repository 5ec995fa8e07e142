// SPDX-License-Identifier: GPL-3.0-or-later
// The map view's panels (map_view.h): which runs of the race the labeling tab draws, their
// images and captions, where they go, and the texts elided to the room they have.
#include <qcustomplot.h>

#include <QFontMetrics>
#include <algorithm>

#include "legend_placement.h"
#include "map_view.h"
#include "plot_style.h"
#include "race_legend.h"

namespace cplab::widgets {

QCPItemPixmap* addCellImage(QCustomPlot* plot, QCPAxisRect* rect) {
    auto* image = new QCPItemPixmap(plot);
    image->setClipAxisRect(rect);
    for (QCPItemPosition* p : {image->topLeft, image->bottomRight})
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    image->setScaled(true, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    image->setLayer("background");
    image->setVisible(false);
    return image;
}

void MapView::drawFactors() {
    // Each factor of 3+ variables: a small square among its variables, a spoke to each; on a
    // grid in every panel, the square at the centre of its cells' box (a 2 × 2 block's corner),
    // elsewhere at its variables' centroid.
    QVector<QCPCurveData> spokes;
    QVector<double> x, y;
    const bool grid = layout_ == Layout::Grid;
    const int first = input_->visible() ? 1 : 0;
    const int panels = grid ? static_cast<int>(panels_.size()) : 1;
    int t = 0;
    for (int k = 0; k < panels; ++k) {
        const QPointF o = grid ? arrangement_.origin(first + k) : QPointF();
        for (int f = 0; f < factorMarks_; ++f) {
            const auto vars = model_->factorVariables(f);
            QPointF centre, low = position(vars.front()), high = low;
            for (const int v : vars) {
                const QPointF p = position(v);
                centre += p;
                low = {std::min(low.x(), p.x()), std::min(low.y(), p.y())};
                high = {std::max(high.x(), p.x()), std::max(high.y(), p.y())};
            }
            centre = o + (grid ? (low + high) / 2 : centre / static_cast<double>(vars.size()));
            for (const int v : vars) {
                const QPointF p = o + position(v);
                spokes.append(QCPCurveData(t++, centre.x(), centre.y()));
                spokes.append(QCPCurveData(t++, p.x(), p.y()));
                spokes.append(QCPCurveData(t++, qQNaN(), qQNaN()));
            }
            x.append(centre.x());
            y.append(centre.y());
        }
    }
    factorLinks_->data()->set(spokes, true);
    factorNodes_->setData(x, y, true);
}

std::vector<QPointF> MapView::factorNodePositions() const {
    std::vector<QPointF> points;
    for (auto it = factorNodes_->data()->constBegin(); it != factorNodes_->data()->constEnd(); ++it)
        points.emplace_back(it->key, it->value);
    return points;
}

void MapView::choosePanels(const ViewFrame& frame) {
    // On a grid, every run of the race on this model that has a labeling to show; elsewhere
    // (markers and edges) the selected run alone.
    panels_.clear();
    selected_ = 0;
    const std::vector<RaceEntry> race = raceOf(frame);
    const std::vector<QString> names = raceNames(race);
    for (std::size_t k = 0; k < race.size(); ++k) {
        auto s = std::dynamic_pointer_cast<const MapSnapshot>(race[k].snapshot);
        const bool self = race[k].runId == frame.runId;
        if (self) s = snapshot_;
        const bool drawable = s && s->model && s->model->variables() == model_->variables() &&
                              s->labeling.size() == static_cast<std::size_t>(model_->variables());
        if (!drawable || (!self && layout_ != Layout::Grid)) continue;
        if (self) selected_ = static_cast<int>(panels_.size());
        // A frame without a race (a single run) is captioned by its solver.
        panels_.push_back(
            {std::move(s), frame.race.empty() ? QString() : names[k], race[k].colour});
    }
    if (panels_.empty()) panels_.push_back({snapshot_, {}, runColor(frame.runId - 1)});
    setPanelCount(layout_ == Layout::Grid ? static_cast<int>(panels_.size()) : 0);
    arrangement_.count = static_cast<int>(panels_.size()) + (input_->visible() ? 1 : 0);
    placePanels();
}

void MapView::setPanelCount(int count) {
    while (static_cast<int>(images_.size()) < count)
        images_.push_back(addCellImage(labelPlot_, labelRect_));
    while (static_cast<int>(images_.size()) > count) {
        labelPlot_->removeItem(images_.back());
        images_.pop_back();
    }
    const int captions = count > 0 ? count + 1 : 0;  // the input's first
    QFont font = labelPlot_->font();
    font.setPointSize(8);
    while (static_cast<int>(captions_.size()) < captions) {
        auto* text = new QCPItemText(labelPlot_);
        text->setClipToAxisRect(false);
        text->position->setAxes(labelRect_->axis(QCPAxis::atBottom),
                                labelRect_->axis(QCPAxis::atLeft));
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        text->setFont(font);
        captions_.push_back(text);
    }
    while (static_cast<int>(captions_.size()) > captions) {
        labelPlot_->removeItem(captions_.back());
        captions_.pop_back();
    }
    captionTexts_.assign(captions_.size(), QString());
}

void MapView::placePanels() {
    // The input image in the first slot, the runs' labelings after it.
    const int first = input_->visible() ? 1 : 0;
    auto corners = [this](QCPItemPixmap* image, int slot) {
        const QPointF o = arrangement_.origin(slot);
        image->topLeft->setCoords(o.x() - 0.5, o.y() - 0.5);
        image->bottomRight->setCoords(o.x() + columns_ - 0.5, o.y() + rows_ - 0.5);
    };
    if (input_->visible()) corners(input_, 0);
    for (std::size_t k = 0; k < images_.size(); ++k)
        corners(images_[k], first + static_cast<int>(k));
    for (std::size_t k = 0; k < captions_.size(); ++k) {
        const int slot = k == 0 ? 0 : first + static_cast<int>(k) - 1;
        const QPointF o = arrangement_.origin(slot);
        captions_[k]->position->setCoords(o.x() + (columns_ - 1) / 2.0, o.y() + rows_ - 0.3);
        captions_[k]->setVisible(k > 0 || input_->visible());
    }
}

void MapView::drawCells(int panel) {
    const MapSnapshot& p = *panels_[static_cast<std::size_t>(panel)].snapshot;
    QImage cells(columns_, rows_, QImage::Format_RGB32);
    for (int v = 0; v < rows_ * columns_; ++v)
        cells.setPixelColor(v % columns_, v / columns_,
                            colorOf(shownLabeling(p)[static_cast<std::size_t>(v)]));
    QCPItemPixmap* image = images_[static_cast<std::size_t>(panel)];
    image->setPixmap(QPixmap::fromImage(cells));
    image->setVisible(true);
}

QString MapView::caption(int panel) const {
    // Two short lines under a panel: the run, then its disagreement and bad pixels.
    const Panel& p = panels_[static_cast<std::size_t>(panel)];
    const MapSnapshot& s = *p.snapshot;
    const auto disagreeing = std::count(s.disagreeing.begin(), s.disagreeing.end(), 1);
    QString facts = tr("%1 disagree").arg(disagreeing);
    if (!s.clusters.empty()) facts += tr(", %1 clusters").arg(s.clusters.size());
    if (s.badPixels >= 0) facts += tr(", %1% bad").arg(100.0 * s.badPixels, 0, 'f', 2);
    const QString name = p.name.isEmpty() ? QString::fromStdString(s.solver) : p.name;
    return name + "\n" + facts;
}

QString MapView::shownTitle() const {
    // The title to its column's width (the legend may be beside the grids); a short plot gets
    // its two lines as one.
    const QFontMetrics title(labelTitle_->font());
    const int legend =
        labelLegendPlacement_->beside() ? labelLegend_->minimumOuterSizeHint().width() : 0;
    const int width = std::max(labelPlot_->width() - legend - 12, 40);
    QStringList lines = title_.split('\n');
    if (labelPlot_->height() < 16 * title.lineSpacing())
        lines = QStringList{lines.join(QStringLiteral("  \u00b7  "))};
    for (QString& line : lines)
        line = title.elidedText(line, Qt::ElideRight, width);
    return lines.join('\n');
}

void MapView::elideTexts(double pixelsPerCell) {
    // The title to the plot's width, each caption to its panel's (the full text on hover).
    const QString text = shownTitle();
    const bool relayout = text != labelTitle_->text();
    labelTitle_->setText(text);
    labelPlot_->setToolTip(text.contains(QChar(0x2026)) ? title_ : QString());  // elided
    if (relayout) labelReplot_->schedule();  // this layout was made for the other title
    const int panel =
        std::max(static_cast<int>((columns_ + arrangement_.gap()) * pixelsPerCell), 30);
    for (std::size_t k = 0; k < captions_.size(); ++k) {
        const QFontMetrics metrics(captions_[k]->font());
        QStringList parts = captionTexts_[k].split('\n');
        for (QString& part : parts)
            part = metrics.elidedText(part, Qt::ElideRight, panel);
        captions_[k]->setText(parts.join('\n'));
    }
}

QRectF MapView::labelingPixelRect() const {
    if (layout_ != Layout::Grid || selected_ >= static_cast<int>(images_.size())) return {};
    const QCPItemPixmap* image = images_[static_cast<std::size_t>(selected_)];
    return QRectF(image->topLeft->pixelPosition(), image->bottomRight->pixelPosition())
        .normalized();
}

int MapView::labelGraphCount() const {
    int drawn = 0;
    for (int k = 0; k < labelPlot_->plottableCount(); ++k) {
        const QCPAbstractPlottable* p = labelPlot_->plottable(k);
        if (const auto* g = qobject_cast<const QCPGraph*>(p); g && !g->data()->isEmpty()) ++drawn;
        if (const auto* c = qobject_cast<const QCPCurve*>(p); c && !c->data()->isEmpty()) ++drawn;
    }
    return drawn;
}

}  // namespace cplab::widgets
