// SPDX-License-Identifier: GPL-3.0-or-later
// The structured family's view (structural SVMs on a chain model; ALGORITHMS.md §6): four tabs,
// each one QCustomPlot.
//   * "Model": the weights w of the snapshot, split by the chain model's layout — on the left
//     the emission weights of every label (for Taskar's OCR letters, 128 = 16 × 8 pixels, each
//     letter's template as an image titled with its name; for square dimensions the same as
//     square images; otherwise the L × d matrix), on the right the L × L transition weights
//     (row a, column b: a followed by b). Blue is positive, red negative, white zero; each block
//     has its own symmetric colour range.
//   * "Gap and errors": against passes over the training words, the primal P(w) and the dual
//     D(α) (top), the duality gap P − D on a log scale (methods without a dual have none), the
//     letter error on the training and test words and the test word error, and the solver's
//     own measure (bottom): n-slack's working-set size Σᵢ|Wᵢ|, 1-slack's planes and active
//     planes, else the mean step γ of the pass (BCFW, FW, SSG).
//   * "Viterbi lattice": one of the first test words (a spin box picks it): its letters as
//     images above the L × T lattice whose cells are the emission scores ⟨w_y, x_t⟩ + b_y, with
//     the true labelling, the Viterbi decoding and the loss-augmented decoding (the oracle's
//     answer) drawn through it — the solver computes them for the snapshot's w.
//   * "Word gaps" (BCFW): gapᵢ of every training word at its last visit as a heat strip
//     (log colour scale), so one sees which words are still far from their block optimum.
//   * "Kernel groups" (online MKL): the group weights β_g = ‖w_g‖/Σ‖w_h‖ along the epochs, one
//     named line per group (the paper's Figure 1, bottom left), and the last round's proximal
//     step: the group norms before (b) and after (b̃) it as paired bars, with the threshold s
//     of the squared-l1 or group-lasso shrinkage as a dashed line.
// The status line reads P, D, the gap and the errors.
#pragma once

#include <QRectF>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "structured/structured_snapshot.h"

class QCPAxisRect;
class QCPBars;
class QCPItemStraightLine;
class QCPColorMap;
class QCPCurve;
class QCPColorScale;
class QCPGraph;
class QCPItemText;
class QCPLegend;
class QSpinBox;
class QTabWidget;

namespace cplab::widgets {

class CoalescedReplot;

class StructuredView final : public FamilyView {
    Q_OBJECT
  public:
    explicit StructuredView(QWidget* parent = nullptr);

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;
    bool showPage(int index) override;

    // For tests: how the emission weights are drawn, the drawn value of one emission weight
    // (label y, feature j) and of one transition (a → b), NaN where nothing is drawn, and the
    // points of the trace's curves.
    enum class Layout { None, Images, Matrix };
    Layout layout() const { return layout_; }
    double emissionCell(int label, int feature) const;
    double transitionCell(int from, int to) const;
    int tileTitleCount() const { return static_cast<int>(titles_.size()); }
    int primalPointCount() const;
    int gapPointCount() const;
    int testErrorPointCount() const;
    int testWordErrorPointCount() const;
    // The bottom panel's curve `curve` (0: constraints, planes or mean step; 1: active planes),
    // its value at point `index` (NaN where there is none).
    double ownValue(int curve, int index) const;
    // The lattice tab: the word shown (0-based among the snapshot's lattices), the drawn score
    // of cell (position t, label y), and the label the curve `path` (0 truth, 1 decoded, 2
    // loss-augmented) passes at position t (−1 where there is none).
    void setLatticeWord(int index);
    double latticeCell(int t, int label) const;
    int latticePathLabel(int path, int t) const;
    // The word-gap tab: the drawn gapᵢ of training word i (NaN where none is drawn).
    double wordGapCell(int i) const;
    // The kernel-group tab: the β curves, the drawn β of group g at point `index`, the drawn
    // bar of group g before (after = false) or after the proximal step, and the threshold line
    // (NaN where nothing is drawn).
    int groupCurveCount() const;
    double groupWeight(int group, int index) const;
    double proxBar(bool after, int group) const;
    double drawnThreshold() const;

  private:
    void setupLayout(const StructuredSnapshot& s);
    void drawWeights(const StructuredSnapshot& s);
    void setTrace(std::span<const IterationRecord> records, const std::vector<std::string>& columns,
                  int runId);
    void rescaleTrace();
    enum class OwnMeasure { None, WorkingSets, Planes, MeanStep };
    void setOwnMeasure(OwnMeasure measure);
    void updateLegend();
    std::vector<QCPGraph*> traceGraphs() const;
    void drawLattice();
    void drawWordGaps();
    void drawGroups(std::span<const IterationRecord> records,
                    const std::vector<std::string>& columns, int runId);
    void rescaleGroups();
    // Where feature j of label y lies in the emission map (Images: in the mosaic).
    QPoint emissionPosition(int label, int feature) const;

    QTabWidget* tabs_;
    QCustomPlot* modelPlot_;
    QCustomPlot* tracePlot_;
    QCustomPlot* latticePlot_;
    QCustomPlot* gapsPlot_;
    QCustomPlot* groupsPlot_;
    QSpinBox* wordBox_;
    CoalescedReplot* modelReplot_;
    CoalescedReplot* traceReplot_;
    CoalescedReplot* latticeReplot_;
    CoalescedReplot* gapsReplot_;
    CoalescedReplot* groupsReplot_;

    // Model tab.
    QCPAxisRect* emissionRect_ = nullptr;
    QCPAxisRect* transitionRect_ = nullptr;
    QCPColorMap* emission_ = nullptr;
    QCPColorMap* transition_ = nullptr;
    std::vector<QCPItemText*> titles_;
    QCPItemText* note_ = nullptr;
    Layout layout_ = Layout::None;
    int labels_ = 0, features_ = 0;
    bool transitions_ = false;
    int imageRows_ = 0, imageColumns_ = 0;  // one tile (Images)
    int tilesPerRow_ = 0;
    int titleRows_ = 0;
    QRectF emissionBox_, transitionBox_;  // what the axes must show (pixels kept square)
    std::vector<std::string> labelNames_;

    // Trace tab.
    QCPAxisRect* boundsRect_ = nullptr;
    QCPAxisRect* gapRect_ = nullptr;
    QCPAxisRect* errorRect_ = nullptr;
    QCPAxisRect* ownRect_ = nullptr;
    QCPGraph* primal_ = nullptr;
    QCPGraph* dual_ = nullptr;
    QCPGraph* gap_ = nullptr;
    QCPGraph* trainError_ = nullptr;
    QCPGraph* testError_ = nullptr;
    QCPGraph* testWordError_ = nullptr;
    QCPGraph* own_[2] = {nullptr, nullptr};
    QCPItemText* ownNote_ = nullptr;
    OwnMeasure ownMeasure_ = OwnMeasure::MeanStep;  // differs from the first one set
    QCPLegend* errorLegend_ = nullptr;
    int run_ = -1;
    std::size_t shown_ = 0;

    // Lattice tab.
    QCPAxisRect* lettersRect_ = nullptr;
    QCPAxisRect* latticeRect_ = nullptr;
    QCPColorMap* letters_ = nullptr;
    QCPColorMap* lattice_ = nullptr;
    QCPCurve* paths_[3] = {nullptr, nullptr, nullptr};
    std::shared_ptr<const StructuredSnapshot> snapshot_;
    int latticeWord_ = 0;

    // Word-gap tab.
    QCPColorMap* wordGaps_ = nullptr;
    QCPItemText* gapsNote_ = nullptr;

    // Kernel-group tab.
    QCPAxisRect* betaRect_ = nullptr;
    QCPAxisRect* proxRect_ = nullptr;
    QCPLegend* betaLegend_ = nullptr;
    std::vector<QCPGraph*> betaGraphs_;
    QCPGraph* activeGroups_ = nullptr;
    std::vector<std::string> groupNames_;
    int groupRun_ = -1;
    std::size_t groupShown_ = 0;
    QCPBars* proxBefore_ = nullptr;
    QCPBars* proxAfter_ = nullptr;
    QCPItemStraightLine* threshold_ = nullptr;
    QCPItemText* thresholdLabel_ = nullptr;
    std::vector<QCPItemText*> shrinkLabels_;  // the shrinkage of each group, in per cent
    QCPItemText* groupsNote_ = nullptr;
};

FamilyView* structuredView(QWidget* parent);

}  // namespace cplab::widgets
