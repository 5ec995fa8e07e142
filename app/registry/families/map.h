// SPDX-License-Identifier: GPL-3.0-or-later
// The map family: MAP inference in pairwise graphical models by the LP relaxation and its
// dual (ALGORITHMS.md §8) — message passing (MPLP, TRW-S, max-sum diffusion) and MPLP
// tightened by cycles, the dual cutting-plane method. It reads UAI "MARKOV" files (plain or
// gzip, with the optional evidence file <model>.evid) and libDAI factor graphs (.fg); the
// built-in problems are small real instances of the UAI 2014 inference competition
// (resources/datasets/README.md) and generated models (solvers/map/generators.h): random
// frustrated grids, complete graphs, Potts denoising / segmentation of an image (also any
// PNG, PGM or PPM given as a data file) and stereo on the Middlebury Tsukuba pair, whose ground
// truth the summaries score. A UAI result file <model>.MAP, when there is one, gives a reference
// labeling whose energy the summaries report.
//
// Sense: maximise E(x). Bounds: upper = the best dual bound U (≥ max E), lower = E of the best
// labeling decoded so far (message_passing.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "family.h"
#include "map/generators.h"
#include "map/pairwise_model.h"

namespace cplab {

struct MapData final : ProblemData {
    std::string name;    // "Grids_26", or the file's name without extension
    std::string source;  // where the model came from ("builtin:Grids_26", a path)
    std::shared_ptr<const PairwiseModel> model;
    std::string evidenceSource;  // the evidence file applied, or empty
    int observed = 0;            // variables clamped by it
    // A reference labeling (UAI result file) and its energy under the model; none when absent.
    std::string referenceSource;
    std::vector<int> reference;
    std::optional<double> referenceEnergy;
    // Generated models: what made them ("random_grid", "stereo", ...) and, for grids, their
    // picture (layout, input image, label colours, ground truth), which the solvers carry.
    std::string generator;
    std::shared_ptr<const GridPicture> picture;

    std::string details() const override;
    SummaryFields summary() const override;
};

const Family& mapFamily();

}  // namespace cplab
