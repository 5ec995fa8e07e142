// SPDX-License-Identifier: GPL-3.0-or-later
#include "mkl_predictor_tab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "decision_map.h"
#include "plot_style.h"

namespace cplab::widgets {

namespace {

QCPGraph* predictorPoints(QCustomPlot* plot, QCPAxisRect* rect, const QString& name,
                          const QColor& color) {
    QCPGraph* g = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    QCPScatterStyle style(QCPScatterStyle::ssDisc, 4.5);
    style.setPen(pen(color, 1.0));
    style.setBrush(color);
    g->setScatterStyle(style);
    return g;
}

}  // namespace

MklPredictorTab::MklPredictorTab(QWidget* parent)
    : QCustomPlot(parent), replots_(new CoalescedReplot(this)) {
    setObjectName("mklPathPredictorPlot");
    applyPlotStyle(this);
    setAutoAddPlottableToLegend(false);
    legend->setVisible(false);
    QCPAxisRect* rect = axisRect();
    rect->setObjectName(kTrainingPointsRect);  // 2-D (and 1-D regression) data can be edited
    styleAxisRect(rect);
    map_ = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    map_->setGradient(decisionGradient());
    map_->setInterpolate(true);
    map_->setLayer("background");
    // The map's values, f(x), on a scale at the right.
    scale_ = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(10);
    scale_->setRangeDrag(false);
    scale_->setRangeZoom(false);
    scale_->axis()->setLabel("f(x)");
    scale_->setGradient(decisionGradient());  // the map takes its scale's gradient
    auto* margins = new QCPMarginGroup(this);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    map_->setColorScale(scale_);
    scale_->setVisible(false);
    zeroContour_ = new QCPCurve(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    zeroContour_->setName("f = 0");
    zeroContour_->setPen(pen(colors::kFunction, 2.0));
    positives_ = predictorPoints(this, rect, "class +1", colors::kModel);
    negatives_ = predictorPoints(this, rect, "class \u22121", colors::kCandidate);
    curve_ = addLineGraph(this, rect, "f(x)", pen(colors::kFunction, 2.0));
    bars_ = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    bars_->setName("\u03b7\u2c7c");
    bars_->setPen(pen(colors::kModel, 1.0));
    bars_->setBrush(
        QColor(colors::kModel.red(), colors::kModel.green(), colors::kModel.blue(), 110));
    bars_->setWidth(0.7);
    note_ = addNote(this, rect);
}

void MklPredictorTab::clear(const QString& note) {
    kind_ = Kind::None;
    setShowsTrainingPoints(axisRect(), false);
    picture_.reset();
    map_->setVisible(false);
    scale_->setVisible(false);
    map_->data()->clear();
    zeroContour_->data()->clear();
    for (QCPGraph* g : {positives_, negatives_, curve_})
        g->data()->clear();
    bars_->data()->clear();
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    xAxis->setLabel({});
    yAxis->setLabel({});
    note_->setText(note);
    note_->setVisible(true);
}

void MklPredictorTab::draw(const MklPathSnapshot& s, int point, double lambda,
                           const Eigen::VectorXd& eta) {
    const std::size_t k = static_cast<std::size_t>(point);
    const MklPathPicture* picture = k < s.pictures.size() ? s.pictures[k].get() : nullptr;
    const Dataset* train = s.model ? s.model->train.get() : nullptr;
    map_->setVisible(false);
    scale_->setVisible(false);
    zeroContour_->data()->clear();
    for (QCPGraph* g : {positives_, negatives_, curve_})
        g->data()->clear();
    bars_->data()->clear();
    picture_.reset();
    note_->setVisible(false);
    const QString title = tr("point %1 of the path: \u03bb = %2").arg(point).arg(lambda, 0, 'g', 4);
    if (!picture || picture->dimension == 0 || !train) {
        drawBars(s, eta, title);
    } else {
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        xAxis->setTickLabelRotation(0);
        picture_ = s.pictures[k];
        if (picture->dimension == 1) {
            drawCurve(*train, s.model->classification, title);
        } else {
            drawMap(*train, s.model->classification, title);
        }
    }
    replots_->now();
}

void MklPredictorTab::drawBars(const MklPathSnapshot& s, const Eigen::VectorXd& eta,
                               const QString& title) {
    // The kernel weights at that λ as bars, one per kernel.
    kind_ = Kind::Bars;
    setShowsTrainingPoints(axisRect(), false);
    QCPAxis* x = xAxis;
    QCPAxis* y = yAxis;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (Eigen::Index j = 0; j < eta.size(); ++j) {
        bars_->addData(static_cast<double>(j + 1), eta[j]);
        const std::string label = j < static_cast<Eigen::Index>(s.kernelLabels.size())
                                      ? s.kernelLabels[static_cast<std::size_t>(j)]
                                      : std::to_string(j + 1);
        ticker->addTick(static_cast<double>(j + 1), QString::fromStdString(label));
    }
    x->setTicker(ticker);
    x->setTickLabelRotation(eta.size() > 6 ? 45 : 0);
    x->setLabel(title);
    y->setLabel(tr("kernel weight \u03b7\u2c7c"));
    x->setRange(0.3, static_cast<double>(eta.size()) + 0.7);
    bool found = false;
    const QCPRange r = bars_->getValueRange(found);
    y->setRange(0.0, found && r.upper > 0 ? 1.1 * r.upper : 1.0);
}

double MklPredictorTab::upperClass(const Dataset& train, bool classification) {
    const std::vector<double> classes = classification ? train.classes() : std::vector<double>{};
    return classes.empty() ? 0.0 : classes.back();
}

void MklPredictorTab::drawCurve(const Dataset& train, bool classification, const QString& title) {
    kind_ = Kind::Curve;
    setShowsTrainingPoints(axisRect(), true);
    const MklPathPicture& p = *picture_;
    const double upper = upperClass(train, classification);
    for (int t = 0; t < p.n; ++t)
        curve_->addData(p.x0 + t * p.dx, p.values[static_cast<std::size_t>(t)]);
    for (int i = 0; i < train.size(); ++i) {
        const double xi = train.row(i)(0);
        if (classification) {
            const bool positive = train.labels(i) == upper;
            (positive ? positives_ : negatives_)->addData(xi, positive ? 1.0 : -1.0);
        } else {
            positives_->addData(xi, train.labels(i));
        }
    }
    xAxis->setLabel(title);
    yAxis->setLabel(classification ? tr("f(x) (class +1 where f > 0)") : tr("f(x)"));
    rescaleAxes();
}

void MklPredictorTab::drawMap(const Dataset& train, bool classification, const QString& title) {
    // 2-D: f on the data's box (padded by 5 %) as a colour map, the points on top.
    kind_ = Kind::Map;
    setShowsTrainingPoints(axisRect(), true);
    const MklPathPicture& p = *picture_;
    const int n = p.n;
    map_->data()->setSize(n, n);
    map_->data()->setRange(QCPRange(p.x0, p.x1), QCPRange(p.y0, p.y1));
    double largest = 0.0, mean = 0.0;
    for (int iy = 0; iy < n; ++iy) {
        for (int ix = 0; ix < n; ++ix) {
            const double v = p.values[static_cast<std::size_t>(iy) * n + ix];
            map_->data()->setCell(ix, iy, v);
            mean += v / (n * n);
        }
    }
    for (const double v : p.values)
        largest = std::max(largest, std::abs(v - (classification ? 0.0 : mean)));
    if (classification) {
        // Symmetric about f = 0 so that white is the boundary.
        const double range = std::max(largest, 1e-12);
        map_->setDataRange(QCPRange(-range, range));
        setContourSegments(zeroContour_, {p.zero});
    } else {
        map_->setDataRange(
            QCPRange(mean - std::max(largest, 1e-12), mean + std::max(largest, 1e-12)));
    }
    map_->setVisible(true);
    scale_->setVisible(true);
    const double upper = upperClass(train, classification);
    for (int i = 0; i < train.size(); ++i) {
        const Eigen::VectorXd point = train.row(i);
        (classification && train.labels(i) != upper ? negatives_ : positives_)
            ->addData(point(0), point(1));
    }
    const bool named = train.featureNames.size() == 2;
    xAxis->setLabel(title +
                    QString("   (%1)").arg(named ? QString::fromStdString(train.featureNames[0])
                                                 : QString("x1")));
    yAxis->setLabel(named ? QString::fromStdString(train.featureNames[1]) : QString("x2"));
    xAxis->setRange(p.x0, p.x1);
    yAxis->setRange(p.y0, p.y1);
}

int MklPredictorTab::gridSize() const {
    return picture_ ? picture_->n : 0;
}

QPointF MklPredictorTab::gridPoint(int ix, int iy) const {
    if (!picture_) return {};
    return {picture_->x0 + ix * picture_->dx, picture_->y0 + iy * picture_->dy};
}

double MklPredictorTab::value(int ix, int iy) const {
    if (!picture_) return kNaN;
    const std::size_t index = kind_ == Kind::Map ? static_cast<std::size_t>(iy) * picture_->n + ix
                                                 : static_cast<std::size_t>(ix);
    return index < picture_->values.size() ? picture_->values[index] : kNaN;
}

std::vector<double> MklPredictorTab::barValues() const {
    std::vector<double> out;
    for (auto it = bars_->data()->constBegin(); it != bars_->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

}  // namespace cplab::widgets
