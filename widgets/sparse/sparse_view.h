// SPDX-License-Identifier: GPL-3.0-or-later
// The sparse family's view (slmc; ALGORITHMS.md §7): two tabs, each one QCustomPlot.
//   * "Expansion vectors": for 2-D data the decision function f(x) = Σᵤ βᵤ k(zᵤ, x) + b of the
//     current Z as a colour map with f = 0 and the margins f = ±1, the training points by class
//     (faint), the full SVM's support vectors (grey rings, when it was solved), and the
//     expansion vectors bold with their trails — where each one was at the earlier steps the
//     snapshot kept; for data whose dimension is a square (16 × 16 = 256 pixels: USPS) the
//     expansion vectors as grey images, each titled with its βᵤ (the paper's Figure 1); for
//     other data βᵤ per expansion vector as bars.
//   * "Objective and errors": W(Z) per iteration with the full SVM's objective as a dashed
//     line (W can reach it only with as many expansion vectors as support vectors); below, the
//     training and test error per iteration. In a race (SLMC against MRSVM) W and the errors
//     of every run in its colour.
// The status line reads W(Z), the gradient norm and the errors. The dataset's test split is the
// family's problem control.
#pragma once

#include <QPointer>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "holdout_controls.h"
#include "sparse/sparse_snapshot.h"

class QCPAxisRect;
class QCPBars;
class QCPColorMap;
class QCPCurve;
class QCPGraph;
class QCPItemText;
class QCPLegend;
class QTabWidget;

namespace cplab::widgets {

class CoalescedReplot;
class LegendPlacement;
class RaceGraphs;

class SparseView final : public FamilyView {
    Q_OBJECT
  public:
    explicit SparseView(QWidget* parent = nullptr);
    ~SparseView() override;

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;
    QWidget* problemControls() override { return splitControls_; }
    OptionValues problemOptions() const override;
    bool setTestSplit(double testFraction, int seed) override;
    bool showPage(int index) override;

    // For tests: what the expansion-vector tab draws, and what the objective tab holds.
    enum class Kind { None, Map, Images, Bars };
    Kind kind() const { return kind_; }
    int expansionVectorCount() const;  // drawn (points, images or bars)
    int trailPointCount() const;       // points of all trails together
    int fullSupportVectorCount() const;
    // The grey value of pixel (row, column) of image `u` as drawn (Images), NaN outside.
    double imagePixel(int u, int row, int column) const;
    int objectivePointCount() const;
    // The W(Z) curves of the race (one per run; none alone).
    const RaceGraphs& raceObjectives() const { return *raceObjective_; }

  private:
    void createTracePanels();
    void setupTrainingData(const SparseSnapshot& s);
    void drawMap(const SparseSnapshot& s);
    void drawImages(const SparseSnapshot& s);
    void drawBars(const SparseSnapshot& s);
    void squarePixels();  // Images: equal scales on both axes
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    void rescaleTrace();
    void drawRace(std::span<const RaceEntry> race, int selectedRunId);

    QTabWidget* tabs_;
    QCustomPlot* xvPlot_;
    QCustomPlot* tracePlot_;
    CoalescedReplot* xvReplot_;
    CoalescedReplot* traceReplot_;
    QPointer<HoldoutControls> splitControls_;

    // Expansion-vector tab.
    QCPAxisRect* xvRect_ = nullptr;
    QCPLegend* xvLegend_ = nullptr;
    LegendPlacement* xvLegendPlacement_ = nullptr;  // below the map, or beside it when short
    QCPColorMap* decisionMap_ = nullptr;
    QCPCurve* zeroContour_ = nullptr;
    QCPCurve* marginContours_ = nullptr;
    QCPGraph* positives_ = nullptr;
    QCPGraph* negatives_ = nullptr;
    QCPGraph* fullSvs_ = nullptr;
    QCPCurve* trails_ = nullptr;  // every XV's trail, NaN between XVs
    QCPGraph* starts_ = nullptr;  // the first Z of the trail
    QCPGraph* xvPositive_ = nullptr;
    QCPGraph* xvNegative_ = nullptr;
    QCPColorMap* imageMap_ = nullptr;
    std::vector<QCPItemText*> imageLabels_;
    QCPBars* betaBars_ = nullptr;
    QCPItemText* note_ = nullptr;
    Kind kind_ = Kind::None;
    std::shared_ptr<const Dataset> train_;
    int side_ = 0;                            // image side (Images)
    int columns_ = 0;                         // images per row of the mosaic (Images)
    int mosaicWidth_ = 0, mosaicHeight_ = 0;  // the mosaic's size in pixels (Images)
    int shownXvs_ = 0;

    // Objective tab.
    QCPAxisRect* objectiveRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPGraph* objective_ = nullptr;
    QCPGraph* fullObjective_ = nullptr;
    QCPGraph* trainError_ = nullptr;
    QCPGraph* testError_ = nullptr;
    QCPLegend* errorLegend_ = nullptr;
    QCPLegend* objectiveLegend_ = nullptr;
    std::unique_ptr<RaceGraphs> raceObjective_;
    std::unique_ptr<RaceGraphs> raceTrain_;
    std::unique_ptr<RaceGraphs> raceTest_;
    int run_ = -1;
    std::size_t shown_ = 0;
    double fullValue_ = 0.0;

    std::shared_ptr<const SparseSnapshot> snapshot_;
};

FamilyView* sparseView(QWidget* parent);

}  // namespace cplab::widgets
