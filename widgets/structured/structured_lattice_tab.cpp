// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured_lattice_tab.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "coalesced_replot.h"
#include "legend_placement.h"
#include "plot_style.h"
#include "race_legend.h"
#include "structured_tabs_common.h"

namespace cplab::widgets {

StructuredLatticeTab::StructuredLatticeTab(QWidget* parent)
    : QWidget(parent),
      plot_(new QCustomPlot),
      wordBox_(new QSpinBox),
      replots_(new CoalescedReplot(plot_)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* wordRow = new QHBoxLayout;
    wordRow->setContentsMargins(6, 4, 6, 0);
    wordRow->addWidget(new QLabel(tr("word")));
    wordBox_->setRange(1, 1);
    wordBox_->setToolTip(
        tr("which of the first words (of the test set, else of the training "
           "set) the lattice shows"));
    wordRow->addWidget(wordBox_);
    wordRow->addStretch(1);
    layout->addLayout(wordRow);
    layout->addWidget(plot_, 1);
    plot_->setObjectName("structuredLatticePlot");
    plot_->setMinimumSize(200, 120);  // its natural minimum (the legend row) would widen the view
    connect(wordBox_, &QSpinBox::valueChanged, this, [this](int value) {
        word_ = value - 1;
        drawLattice();
        replots_->schedule();
    });
    applyPlotStyle(plot_);
    createPlot();
    createPaths();
}

void StructuredLatticeTab::createPlot() {
    // The word's letters above, the L × T lattice below, on one x axis (position).
    lettersRect_ = plot_->axisRect();
    latticeRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, latticeRect_);
    auto* margins = new QCPMarginGroup(plot_);
    for (QCPAxisRect* rect : {lettersRect_, latticeRect_}) {
        styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->grid()->setVisible(false);
    }
    lettersRect_->axis(QCPAxis::atLeft)->setTicks(false);
    lettersRect_->axis(QCPAxis::atLeft)->setTickLabels(false);
    lettersRect_->axis(QCPAxis::atLeft)->setRangeReversed(true);
    lettersRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    lettersRect_->axis(QCPAxis::atBottom)->setTicks(false);
    latticeRect_->axis(QCPAxis::atBottom)
        ->setLabel(tr("position t in the word\ncells: the score <w_y, x_t> + b_y, darker is "
                      "higher"));
    latticeRect_->axis(QCPAxis::atLeft)->setLabel(tr("label"));
    latticeRect_->axis(QCPAxis::atLeft)->setRangeReversed(true);
    letters_ =
        new QCPColorMap(lettersRect_->axis(QCPAxis::atBottom), lettersRect_->axis(QCPAxis::atLeft));
    letters_->setGradient(inkGradient());
    letters_->setInterpolate(false);
    lattice_ =
        new QCPColorMap(latticeRect_->axis(QCPAxis::atBottom), latticeRect_->axis(QCPAxis::atLeft));
    QCPColorGradient scores;
    scores.clearColorStops();
    scores.setColorStopAt(0.0, QColor(250, 250, 250));
    scores.setColorStopAt(1.0, QColor(253, 174, 97));
    lattice_->setGradient(scores);
    lattice_->setInterpolate(false);
}

void StructuredLatticeTab::createPaths() {
    const QPen pathPens[3] = {pen(colors::kBest, 5.0), pen(colors::kModel, 2.2),
                              pen(colors::kCandidate, 1.8, Qt::DashLine)};
    const QString pathNames[3] = {tr("true labels y_i"), tr("Viterbi decoding of w"),
                                  tr("loss-augmented decoding (the oracle)")};
    auto* pathLegend = addLegendRow(plot_, 2, 3);
    keepLegendsWrapped(plot_, {pathLegend});
    plot_->plotLayout()->setRowStretchFactors({1.6, 4.0, 0.001});
    for (int k = 0; k < 3; ++k) {
        paths_[k] = new QCPCurve(latticeRect_->axis(QCPAxis::atBottom),
                                 latticeRect_->axis(QCPAxis::atLeft));
        paths_[k]->setName(pathNames[k]);
        paths_[k]->setPen(pathPens[k]);
        paths_[k]->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, pathPens[k].color(), k == 0 ? 9 : 6));
        paths_[k]->addToLegend(pathLegend);
    }
}

void StructuredLatticeTab::clear() {
    snapshot_.reset();
    letters_->data()->clear();
    lattice_->data()->clear();
    for (QCPCurve* path : paths_)
        path->data()->clear();
    // Nothing of the previous problem on the axes: its word, its label names.
    lettersRect_->axis(QCPAxis::atTop)->setLabel({});
    for (QCPAxis* axis :
         {latticeRect_->axis(QCPAxis::atBottom), latticeRect_->axis(QCPAxis::atLeft)}) {
        const QString title = axis->label();
        resetAxis(axis);
        axis->setLabel(title);  // the axes' meaning stays
    }
}

void StructuredLatticeTab::draw(std::shared_ptr<const StructuredSnapshot> s) {
    snapshot_ = std::move(s);
    const int words = static_cast<int>(snapshot_->lattices.size());
    if (words > 0 && wordBox_->maximum() != words) {
        const QSignalBlocker block(wordBox_);
        wordBox_->setRange(1, words);
        word_ = std::min(word_, words - 1);
        wordBox_->setValue(word_ + 1);
    }
    drawLattice();
}

void StructuredLatticeTab::setWord(int index) {
    wordBox_->setValue(index + 1);  // redraws through valueChanged
}

void StructuredLatticeTab::drawLattice() {
    for (QCPCurve* path : paths_)
        path->data()->clear();
    if (!snapshot_ || word_ < 0 || word_ >= static_cast<int>(snapshot_->lattices.size()) ||
        !snapshot_->words) {
        letters_->data()->clear();
        lattice_->data()->clear();
        return;
    }
    const WordLattice& word = snapshot_->lattices[static_cast<std::size_t>(word_)];
    const SequenceData& data = *snapshot_->words;
    if (word.scores.rows() == 0 || word.word >= data.size()) return;
    drawLetters(word, data);
    drawScores(word);
    labelAxes(word, data);
}

void StructuredLatticeTab::drawLetters(const WordLattice& word, const SequenceData& data) {
    // Letters as images when the features are one (OCR: 16 × 8), one per position.
    const int T = static_cast<int>(word.scores.rows());
    const auto [rows, columns] = imageShape(data.dimension());
    lettersRect_->setVisible(rows > 0);
    if (rows <= 0) return;
    // Each position's column holds its image in the middle two thirds (its pixels about
    // square in the panel), blank cells around it.
    const int cell = columns + columns / 2, offset = columns / 4;
    letters_->data()->setSize(T * cell, rows);
    letters_->data()->setRange(QCPRange(-0.5 + 0.5 / cell, T - 0.5 - 0.5 / cell),
                               QCPRange(0, rows - 1));
    letters_->data()->fill(std::numeric_limits<double>::quiet_NaN());
    const int first = data.first(word.word);
    for (int t = 0; t < T; ++t) {
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < columns; ++c)
                letters_->data()->setCell(t * cell + offset + c, r, 0.0);
        }
        for (SequenceData::SparseMatrix::InnerIterator it(data.features, first + t); it; ++it)
            letters_->data()->setCell(t * cell + offset + static_cast<int>(it.col()) % columns,
                                      static_cast<int>(it.col()) / columns, it.value());
    }
    letters_->setDataRange(QCPRange(0, 1));
    lettersRect_->axis(QCPAxis::atLeft)->setRange(-0.5, rows - 0.5);
}

void StructuredLatticeTab::drawScores(const WordLattice& word) {
    const int T = static_cast<int>(word.scores.rows()), L = static_cast<int>(word.scores.cols());
    lattice_->data()->setSize(T, L);
    lattice_->data()->setRange(QCPRange(0, std::max(T - 1, 1)), QCPRange(0, L - 1));
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int t = 0; t < T; ++t) {
        for (int y = 0; y < L; ++y) {
            lattice_->data()->setCell(t, y, word.scores(t, y));
            lo = std::min(lo, word.scores(t, y));
            hi = std::max(hi, word.scores(t, y));
        }
    }
    if (T == 1) lattice_->data()->setKeyRange(QCPRange(0, 0));
    lattice_->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1));
    // The paths, offset a little so that coinciding ones stay visible.
    const std::vector<int>* labellings[3] = {&word.truth, &word.decoded, &word.lossAugmented};
    const double offsets[3] = {0.0, -0.12, 0.12};
    for (int k = 0; k < 3; ++k) {
        QVector<double> index, x, y;
        for (int t = 0; t < T && t < static_cast<int>(labellings[k]->size()); ++t) {
            index.append(t);
            x.append(t + offsets[k]);
            y.append((*labellings[k])[static_cast<std::size_t>(t)]);
        }
        paths_[k]->setData(index, x, y, true);
    }
}

void StructuredLatticeTab::labelAxes(const WordLattice& word, const SequenceData& data) {
    const int T = static_cast<int>(word.scores.rows()), L = static_cast<int>(word.scores.cols());
    QCPAxis* bottom = latticeRect_->axis(QCPAxis::atBottom);
    QCPAxis* left = latticeRect_->axis(QCPAxis::atLeft);
    bottom->setRange(-0.5, T - 0.5);
    lettersRect_->axis(QCPAxis::atBottom)->setRange(-0.5, T - 0.5);
    left->setRange(-0.5, L - 0.5);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int t = 0; t < T; ++t)
        ticker->addTick(t, QString::number(t + 1));
    bottom->setTicker(ticker);
    if (L <= kNamedLabels) labelTicks(left, L, snapshot_->labelNames);
    QString truth, decoded;
    for (int t = 0; t < T; ++t) {
        truth += labelName(snapshot_->labelNames, word.truth[static_cast<std::size_t>(t)]);
        decoded += labelName(snapshot_->labelNames, word.decoded[static_cast<std::size_t>(t)]);
    }
    QCPAxis* top = lettersRect_->axis(QCPAxis::atTop);
    top->setVisible(true);
    top->setTicks(false);
    top->setTickLabels(false);
    top->setBasePen(Qt::NoPen);
    // Two short lines: the view is often narrow.
    top->setLabel(tr("word %1 of '%2'\n\u201c%3\u201d, decoded \u201c%4\u201d")
                      .arg(word.word + 1)
                      .arg(QString::fromStdString(data.name))
                      .arg(truth)
                      .arg(decoded));
}

double StructuredLatticeTab::cell(int t, int label) const {
    if (!snapshot_ || word_ >= static_cast<int>(snapshot_->lattices.size()) || t < 0 || label < 0 ||
        t >= lattice_->data()->keySize() || label >= lattice_->data()->valueSize())
        return std::numeric_limits<double>::quiet_NaN();
    return lattice_->data()->cell(t, label);
}

int StructuredLatticeTab::pathLabel(int path, int t) const {
    if (path < 0 || path > 2) return -1;
    for (auto it = paths_[path]->data()->constBegin(); it != paths_[path]->data()->constEnd(); ++it)
        if (static_cast<int>(std::lround(it->t)) == t)
            return static_cast<int>(std::lround(it->value));
    return -1;
}

}  // namespace cplab::widgets
