// SPDX-License-Identifier: GPL-3.0-or-later
// The map family's view (MAP inference by the LP relaxation; ALGORITHMS.md §8): two tabs, each
// one QCustomPlot.
//   * "Labeling": the labeling decoded from the current beliefs (MapSnapshot::labeling). When
//     the graph is a lattice — every node of degree ≤ 4 and every edge joining node i to i+1
//     or i+cols of a rows × cols layout, wrap-around (torus) edges allowed — as an image with
//     one cell per node in categorical label colours; otherwise the nodes as discs coloured by
//     label, placed by classical MDS of their hop distances (up to 400 nodes; a superpixel
//     graph then looks like its image) or on a circle, with the edges as thin grey segments.
//     A grid model generated from an image (MapSnapshot::picture, solvers/map/generators.h)
//     takes its layout from the picture, draws its input image to the left of the labeling and
//     colours the labels by the picture's label colours (grey levels, cluster centres,
//     disparity shades). On a grid every run of the race draws its own labeling, side by side
//     (map_panels.h), captioned with its name, its disagreement and its bad pixels; the cells
//     stay square at any size, before and after the first step. Nodes whose parts of the
//     bound disagree with the labeling are marked in red; the clusters added by tightening
//     (mplp_cycles) are drawn as small polygons through their nodes.
//   * "Bounds": the dual bound U (best so far) and E of the best labeling per iteration, with
//     a mark where clusters were added; below, the number of disagreeing nodes (and of
//     clusters) per iteration (map_bounds_tab.h).
//     Above the plot, "Best labeling found" switches every panel to the run's best labeling
//     (MapSnapshot::bestLabeling: the one whose energy E the bounds tab draws, improved by
//     the anytime decoder of solvers/map/map_decoder.h); the red marks stay the dual's.
// Legends sit in a row below the plots, never over the data. The status line reads U, E, the
// gap and the disagreement (and, with a ground truth, the fraction of bad pixels). The problem
// controls (map_problem_controls.h) are the evidence file and the generated models' options.
#pragma once

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QPointer>
#include <QRectF>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "family_view.h"
#include "map/map_snapshot.h"
#include "map_panels.h"
#include "map_problem_controls.h"

class QCPAxisRect;
class QCPCurve;
class QCPGraph;
class QCPItemPixmap;
class QCPItemText;
class QCPLegend;
class QCPTextElement;
class QCheckBox;
class QTabWidget;

namespace cplab::widgets {

class CoalescedReplot;
class LegendPlacement;
class MapBoundsTab;

class MapView final : public FamilyView {
    Q_OBJECT
  public:
    explicit MapView(QWidget* parent = nullptr);
    ~MapView() override;

    bool showFrame(const ViewFrame& frame) override;
    void clear() override;
    QCustomPlot* plot() const override;
    QString statusText(const ViewFrame& frame) const override;
    QWidget* problemControls() override { return controls_; }
    OptionValues problemOptions() const override;
    bool showPage(int index) override;

    // The colour of `label` in the labeling tab (a categorical palette, repeating after its
    // end).
    static QColor labelColor(int label);

    // Whether the labeling tab draws the runs' best labelings (else the decoded ones).
    void setShowBestLabeling(bool best);
    bool showsBestLabeling() const;

    // For tests: how the labeling tab lays the graph out, and what it draws.
    enum class Layout { None, Grid, Distances, Circle };
    Layout layout() const { return layout_; }
    int gridRows() const { return rows_; }
    int gridColumns() const { return columns_; }
    // The colour node v is drawn in (its image cell, or its marker); invalid when not drawn.
    QColor drawnColor(int v) const;
    int disagreeingMarkerCount() const { return disagreeingMarkers_; }
    int clusterPolygonCount() const { return clusterPolygons_; }
    int separatorSegmentCount() const { return separatorSegments_; }  // pairs of factors
    int edgeSegmentCount() const { return edgeSegments_; }
    // Higher-order factors drawn as factor nodes (squares joined to their variables).
    int factorNodeCount() const { return factorMarks_; }
    // Where the factor squares are drawn (every panel's, in plot coordinates).
    std::vector<QPointF> factorNodePositions() const;
    // Whether the input image of a picture is drawn beside the labeling, and its colour at
    // node v (invalid when it is not drawn).
    bool showsInputImage() const;
    QColor inputColor(int v) const;
    // The panels of the labeling tab (the input image and one per run on a grid), and the pixel
    // rectangle the selected run's labeling is drawn in as of the last replot.
    int panelCount() const { return static_cast<int>(images_.size()); }
    QRectF labelingPixelRect() const;
    // The graphs and curves of the labeling tab that hold data.
    int labelGraphCount() const;
    // Points of the bound traces (U and E) and of the disagreement trace.
    int upperPointCount() const;
    int lowerPointCount() const;
    int disagreementPointCount() const;
    int clusterMarkCount() const;

  private:
    void setupLayout(const PairwiseModel& model);
    // One run's labeling as the labeling tab draws it.
    struct Panel {
        std::shared_ptr<const MapSnapshot> snapshot;
        QString name;
        QColor colour;
    };
    void showInputImage(const GridPicture* picture);  // null: none
    void choosePanels(const ViewFrame& frame);
    void placePanels();
    void setPanelCount(int count);
    void placeNodes(const PairwiseModel& model);
    void drawEdges(const PairwiseModel& model);
    // Higher-order factors as factor nodes at their variables' centroid (graphs only).
    void drawFactors();
    void setupLabelGraphs(const PairwiseModel& model);
    void fillLabelLegend(int graphs);
    QPointF position(int v) const;
    // The colour label k is drawn in: the picture's, else the categorical palette.
    QColor colorOf(int label) const;
    void drawLabeling();
    // The labeling of a run's snapshot that the tab draws (best or decoded).
    const std::vector<int>& shownLabeling(const MapSnapshot& s) const;
    void drawCells(int panel);
    void drawClusters();
    QString caption(int panel) const;
    // The closed polygon through a cluster's nodes (on a grid, small cycles shrunk toward
    // their centre), or, for a cycle that uses a torus's wrapped edges, the line through its
    // nodes with a break (NaN point) at each wrapping step.
    std::vector<QPointF> clusterPolygon(const std::vector<int>& cluster) const;
    void setTitle(const MapSnapshot& s);
    void createLabelingItems();
    void fitLabeling();
    QString shownTitle() const;
    void elideTexts(double pixelsPerCell);

    QTabWidget* tabs_;
    QCustomPlot* labelPlot_;
    QCheckBox* showBest_ = nullptr;
    MapBoundsTab* boundsTab_;
    CoalescedReplot* labelReplot_ = nullptr;
    // The problem controls: ours until a window takes them into its problem panel.
    QPointer<MapProblemControls> controls_;

    // Labeling tab.
    QCPAxisRect* labelRect_ = nullptr;
    QCPTextElement* labelTitle_ = nullptr;
    QCPLegend* labelLegend_ = nullptr;
    LegendPlacement* labelLegendPlacement_ = nullptr;  // below the grid, or beside it when short
    QString title_;                                    // the title unelided
    std::vector<Panel> panels_;           // the runs drawn: each on a grid, else the selected
    int selected_ = 0;                    // the selected run's panel
    std::vector<QCPItemPixmap*> images_;  // one cell per node, one image per panel (Grid)
    std::vector<QCPItemText*> captions_;  // below the input and each panel (Grid)
    std::vector<QString> captionTexts_;   // the captions unelided
    MapPanels arrangement_;               // the panels' places (Grid)
    QCPItemPixmap* input_ = nullptr;      // the picture's input image, left of the labeling
    std::vector<QColor> labelColors_;     // the picture's label colours, or empty
    QCPCurve* edges_ = nullptr;
    QCPCurve* factorLinks_ = nullptr;       // a higher-order factor's spokes to its variables
    QCPGraph* factorNodes_ = nullptr;       // a small square per higher-order factor
    std::vector<QCPGraph*> labelGraphs_;    // markers per label (graphs); legend entries (all)
    QCPGraph* disagreeingRings_ = nullptr;  // dots (Grid), rings (graphs)
    QCPCurve* clusters_ = nullptr;
    QCPGraph* clusterLegendProxy_ = nullptr;  // legend entry of the cluster polygons
    QCPGraph* disagreeingLegendProxy_ = nullptr;
    QCPItemText* note_ = nullptr;
    Layout layout_ = Layout::None;
    std::shared_ptr<const PairwiseModel> model_;
    int rows_ = 0, columns_ = 0;
    std::vector<QPointF> positions_;  // of every node
    int disagreeingMarkers_ = 0;
    int clusterPolygons_ = 0;
    int separatorSegments_ = 0;  // pair separators of factors drawn
    int edgeSegments_ = 0;
    int factorMarks_ = 0;  // higher-order factors drawn (per panel on a grid)
    int labelCount_ = 0;

    std::shared_ptr<const MapSnapshot> snapshot_;
};

FamilyView* mapView(QWidget* parent);

}  // namespace cplab::widgets
