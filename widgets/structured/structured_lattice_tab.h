// SPDX-License-Identifier: GPL-3.0-or-later
// The structured view's "Viterbi lattice" tab (structured_view.h): one of the first test words
// (a spin box picks it): its letters as images above the L × T lattice whose cells are the
// emission scores ⟨w_y, x_t⟩ + b_y, with the true labelling, the Viterbi decoding and the
// loss-augmented decoding (the oracle's answer) drawn through it — the solver computes them for
// the snapshot's w.
#pragma once

#include <QWidget>
#include <memory>

#include "structured/structured_snapshot.h"

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPCurve;
class QSpinBox;

namespace cplab::widgets {

class CoalescedReplot;

class StructuredLatticeTab final : public QWidget {
    Q_OBJECT
  public:
    explicit StructuredLatticeTab(QWidget* parent = nullptr);

    void clear();
    // Draws the chosen word's lattice of `s` (null: none).
    void draw(std::shared_ptr<const StructuredSnapshot> s);
    QCustomPlot* plot() const { return plot_; }
    CoalescedReplot* replots() const { return replots_; }

    // For tests: see StructuredView.
    void setWord(int index);
    double cell(int t, int label) const;
    int pathLabel(int path, int t) const;

  private:
    void createPlot();
    void createPaths();
    void drawLattice();
    void drawLetters(const WordLattice& word, const SequenceData& data);
    void drawScores(const WordLattice& word);
    void labelAxes(const WordLattice& word, const SequenceData& data);

    QCustomPlot* plot_;
    QSpinBox* wordBox_;
    CoalescedReplot* replots_;
    QCPAxisRect* lettersRect_ = nullptr;
    QCPAxisRect* latticeRect_ = nullptr;
    QCPColorMap* letters_ = nullptr;
    QCPColorMap* lattice_ = nullptr;
    QCPCurve* paths_[3] = {nullptr, nullptr, nullptr};
    std::shared_ptr<const StructuredSnapshot> snapshot_;
    int word_ = 0;
};

}  // namespace cplab::widgets
