// SPDX-License-Identifier: GPL-3.0-or-later
// The structured view's "Model" tab (structured_view.h): the weights w of the snapshot, split by
// the chain model's layout — on the left the emission weights of every label (for Taskar's OCR
// letters, 128 = 16 × 8 pixels, each letter's template as an image titled with its name; for
// square dimensions the same as square images; otherwise the L × d matrix), on the right the
// L × L transition weights (row a, column b: a followed by b). Blue is positive, red negative,
// white zero; each block has its own symmetric colour range.
#pragma once

#include <QRectF>
#include <string>
#include <vector>

#include "qcustomplot.h"
#include "structured/structured_snapshot.h"

namespace cplab::widgets {

class CoalescedReplot;

class StructuredModelTab final : public QCustomPlot {
    Q_OBJECT
  public:
    enum class Layout { None, Images, Matrix };

    explicit StructuredModelTab(QWidget* parent = nullptr);

    void clear();
    // Draws the weights of `s`, or its status message when it has none of the right size.
    void draw(const StructuredSnapshot& s);
    CoalescedReplot* replots() const { return replots_; }

    // For tests: see StructuredView.
    Layout layout() const { return layout_; }
    double emissionCell(int label, int feature) const;
    double transitionCell(int from, int to) const;
    int tileTitleCount() const { return static_cast<int>(titles_.size()); }

  private:
    void setupLayout(const StructuredSnapshot& s);
    void setupImages();
    void addTileTitles();
    void setupMatrix();
    void setupTransitions();
    void drawWeights(const StructuredSnapshot& s);
    void removeTitles();
    // Where feature j of label y lies in the emission map (Images: in the mosaic).
    QPoint emissionPosition(int label, int feature) const;

    CoalescedReplot* replots_;
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
};

}  // namespace cplab::widgets
