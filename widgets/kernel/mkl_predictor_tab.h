// SPDX-License-Identifier: GPL-3.0-or-later
// The path view's "Predictor at λ" tab (mkl_path_view.h): the predictor of the selected point
// of the path, as the snapshot's picture of it holds it (MklPathPicture, made on the solver's
// thread): for 2-D data f as a colour map with its zero contour (classification) and the
// training points, for 1-D data the curve f(x) over the points, else the kernel weights ηⱼ at
// that λ as bars.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "kernel/mkl_path_snapshot.h"
#include "qcustomplot.h"

namespace cplab::widgets {

class CoalescedReplot;

class MklPredictorTab final : public QCustomPlot {
    Q_OBJECT
  public:
    enum class Kind { None, Map, Curve, Bars };

    explicit MklPredictorTab(QWidget* parent = nullptr);

    // Nothing drawn but `note`.
    void clear(const QString& note);
    // Draws the predictor of point `point` of `s`, at `lambda` with weights `eta`.
    void draw(const MklPathSnapshot& s, int point, double lambda, const Eigen::VectorXd& eta);
    CoalescedReplot* replots() const { return replots_; }

    // What was drawn, for tests (see MklPathView).
    Kind kind() const { return kind_; }
    int gridSize() const;
    QPointF gridPoint(int ix, int iy) const;
    double value(int ix, int iy) const;
    std::vector<double> barValues() const;

  private:
    void drawBars(const MklPathSnapshot& s, const Eigen::VectorXd& eta, const QString& title);
    void drawCurve(const Dataset& train, bool classification, const QString& title);
    void drawMap(const Dataset& train, bool classification, const QString& title);
    // The larger class value (classification; 0 otherwise): its examples are drawn as +1.
    static double upperClass(const Dataset& train, bool classification);

    CoalescedReplot* replots_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPCurve* zeroContour_ = nullptr;
    QCPGraph* positives_ = nullptr;  // class +1, or every point for regression
    QCPGraph* negatives_ = nullptr;
    QCPGraph* curve_ = nullptr;  // 1-D: f over x
    QCPBars* bars_ = nullptr;
    QCPItemText* note_ = nullptr;
    Kind kind_ = Kind::None;
    std::shared_ptr<const MklPathPicture> picture_;  // the selected point's (Map, Curve)
};

}  // namespace cplab::widgets
