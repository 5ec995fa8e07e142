// SPDX-License-Identifier: GPL-3.0-or-later
// Where the map view's labeling tab (map_view.h) places a pairwise model's nodes: as a lattice
// recognised by its edges, or by classical MDS of the hop distances.
#pragma once

#include <QPointF>
#include <vector>

#include "map/pairwise_model.h"

namespace cplab::widgets {

// A rows × columns lattice whose edges join i to i+1 within a row and i to i+columns within a
// column (wrap-around edges of a torus allowed), every node of degree ≤ 4, with edges of both
// directions; the factorisation nearest a square wins. False when there is none.
bool detectGrid(const PairwiseModel& m, int* rows, int* columns);

// Classical multidimensional scaling of the hop distances (Torgerson): the two leading
// eigenvectors of −½ J D² J, scaled into [−1, 1]². Nodes of different components are placed
// one hop beyond the largest distance from each other. Deterministic; no forces, no
// iterations.
std::vector<QPointF> distanceLayout(const PairwiseModel& m);

}  // namespace cplab::widgets
