// SPDX-License-Identifier: GPL-3.0-or-later
// Generated MAP models (ALGORITHMS.md §8, "Inputs"), in the max-sum convention of
// pairwise_model.h (θ are log-potentials; MAP maximises E = Σ θ_v + Σ θ_e):
//
//   * randomGrid: a W × H 4-connected grid with L labels, θ_v(a) = unary·(2u − 1) and Potts
//     edges θ_e(a, b) = w_e·[a = b] with w_e = coupling·(2u − 1) of both signs, so that cycles
//     mixing attractive (w > 0) and repulsive (w < 0) edges are frustrated and the plain LP
//     relaxation is loose (the case tightening by cycles is for);
//   * completeGraph: K_n, every pair an edge with a dense table θ_e(a, b) = coupling·(2u − 1),
//     θ_v(a) = unary·(2u − 1) — full of frustrated triangles;
//   * pottsImage: denoising / segmentation of an image. Labels are L grey levels
//     c_a = 255·a/(L − 1) (mode "grey") or L colour clusters found by k-means (mode "colour");
//     θ_v(a) = −‖p_v − c_a‖ (Euclidean distance in grey levels between the pixel and the
//     label's level or cluster centre), Potts edges w = smoothness between 4-neighbours;
//   * stereo: a rectified grey pair (left I_L, right I_R) and D disparities; node (x, y) of the
//     left image, θ_v(d) = −min(|I_L(x, y) − I_R(x − d, y)|, data_truncation) (and
//     −data_truncation where x − d < 0: no match in the right image), and a truncated-linear
//     smoothness θ_e(a, b) = −smoothness·min(|a − b|, truncation) between 4-neighbours, one
//     dense D × D table shared by every edge (PairwiseModel::addEdgeSharing).
//
// Grids: node v = y·W + x (row-major, as the map view draws them); edges in the order: for y,
// for x, the edge to the right (v, v + 1), then the edge down (v, v + W).
// Random draws: u = (g() >> 11)·2⁻⁵³ ∈ [0, 1) from g = std::mt19937_64(seed) (both fully
// specified by the C++ standard, so a seed gives the same model everywhere), drawn in the
// order: the unaries (v, then a), then the edges in edge order (one w_e per Potts edge, the
// table row-major for a dense one).
// Every generator validates its options first and throws std::invalid_argument with a
// message "<Options>::<field> = <value>: <requirement>"; sizes are bounded
// (kMaxGeneratedEntries table entries) so that an absurd request fails at once instead of
// exhausting memory.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/options.h"
#include "data/image_format.h"
#include "map/pairwise_model.h"

namespace cplab {

// The most unary plus pairwise table entries (doubles) a generated model may hold: 2^25,
// 256 MB.
constexpr long long kMaxGeneratedEntries = 1LL << 25;

// What a grid model made from an image knows besides its tables: the layout, the input image
// (shown beside the labeling), a colour per label (its grey level, cluster centre or disparity
// shade) and, for stereo, the ground truth. Solvers attach it to their snapshots and score
// their best labeling against the truth (MessagePassingSolver::setPicture).
struct GridPicture {
    int width = 0;  // the grid: node v = y·width + x
    int height = 0;
    Image input;  // width × height, or empty (a random grid)
    std::vector<std::array<std::uint8_t, 3>> labelColors;  // per label, or empty
    // Per node: the true label, or −1 where unknown; empty when there is no truth. A node is
    // "bad" when its label differs from the truth by more than `tolerance`.
    std::vector<int> truth;
    int tolerance = 1;
};

struct BadPixels {
    long long bad = 0;
    long long known = 0;  // nodes with a known truth
    double fraction() const { return known > 0 ? static_cast<double>(bad) / known : 0.0; }
};
// The nodes of `labeling` off by more than picture.tolerance from the truth (none without one).
BadPixels countBadPixels(const GridPicture& picture, std::span<const int> labeling);

struct GeneratedModel {
    std::shared_ptr<PairwiseModel> model;
    std::shared_ptr<const GridPicture> picture;  // grids only
};

struct RandomGridOptions {
    int width = 12;         // nodes per row, 2 … 4096
    int height = 12;        // rows, 2 … 4096
    int labels = 3;         // L ≥ 2 (at most 256)
    double coupling = 1.0;  // w_e uniform in [−coupling, coupling]; in [0, 1e100]
    double unary = 0.5;     // θ_v(a) uniform in [−unary, unary]; in [0, 1e100]
    std::int64_t seed = 1;  // ≥ 0
    bool isValid(std::string* why) const;
};
GeneratedModel randomGrid(const RandomGridOptions& options);

// A frustrated binary grid with fields, in the style of the UAI 2014 "Grids" (Ising spin
// glasses): W × H nodes of 2 labels, θ_v = (−h_v, h_v) with the field h_v = field·(2u − 1),
// and on every 4-neighbour edge θ_e(a, b) = J_e·(a = b ? 1 : −1) with the coupling
// J_e = coupling·(2u − 1) of either sign, so that about half of the plaquettes are frustrated.
// With `torus` the rows and columns wrap around (edges (v, v + 1 − W) and (v, v + W − n)
// after the others, as the competition's 40 × 40 Grids); without, 2·W·H − W − H edges (the
// 80 × 80 Grids: 12,640). The competition's instances have field 1 and coupling 2, 10 or 15
// (Grids_18: a 40 × 40 torus, |J| up to 10; Grids_19: up to 2; fields and couplings of both
// signs, as here); draws as the header's (unaries, then edges in edge order, one u each).
struct FrustratedGridOptions {
    int width = 80;         // nodes per row, 2 … 4096
    int height = 80;        // rows, 2 … 4096
    double field = 1.0;     // h_v uniform in [−field, field]; in [0, 1e100]
    double coupling = 2.0;  // J_e uniform in [−coupling, coupling]; in [0, 1e100]
    bool torus = false;     // wrap the rows and columns around (needs width, height ≥ 3)
    // Edges in the competition files' order instead (Grids_18/19/26: row by row, each row's
    // edges to the right and then its wrap-around (row start, row end); then column by
    // column, each column's edges down and then its wrap-around); the couplings are drawn in
    // that order. The message passing sweeps the edges in order, so the order is part of the
    // instance's kind.
    bool competition_order = false;
    std::int64_t seed = 1;  // ≥ 0
    bool isValid(std::string* why) const;
};
GeneratedModel frustratedGrid(const FrustratedGridOptions& options);

// A grid of higher-order factors: width × height nodes with random unaries, and on every
// 2 × 2 cell a factor of `arity` of its corners — 3: the top-left, top-right and bottom-left
// nodes; 4: all four (top-left, top-right, bottom-left, bottom-right) — whose L^arity table
// entries are uniform in [−coupling, coupling]. No pairwise edges: every interaction is
// higher-order, so TRW-S refuses it and MPLP and diffusion run on factor messages.
struct FactorGridOptions {
    int width = 6;          // nodes per row, 2 … 256
    int height = 6;         // rows, 2 … 256
    int labels = 3;         // L, 2 … 16, with L^arity ≤ 65536
    int arity = 3;          // 3 or 4
    double coupling = 1.0;  // table entries uniform in [−coupling, coupling]; in [0, 1e100]
    double unary = 0.5;     // θ_v(a) uniform in [−unary, unary]; in [0, 1e100]
    std::int64_t seed = 1;  // ≥ 0
    bool isValid(std::string* why) const;
};
GeneratedModel factorGrid(const FactorGridOptions& options);

struct CompleteGraphOptions {
    int nodes = 6;          // n, 3 … 200
    int labels = 3;         // L ≥ 2 (at most 256)
    double coupling = 1.0;  // table entries uniform in [−coupling, coupling]; in [0, 1e100]
    double unary = 0.5;     // θ_v(a) uniform in [−unary, unary]; in [0, 1e100]
    std::int64_t seed = 1;  // ≥ 0
    bool isValid(std::string* why) const;
};
GeneratedModel completeGraph(const CompleteGraphOptions& options);

struct PottsImageOptions {
    int labels = 4;              // L grey levels or colour clusters, 2 … 64
    std::string mode = "grey";   // "grey": levels of the luminance; "colour": k-means clusters
    double smoothness = 20.0;    // Potts weight w (grey levels), in [0, 1e100]
    int downsample = 1;          // box-average the image by this factor first, 1 … 64
    std::int64_t seed = 1;       // k-means initialisation, ≥ 0
    int kmeans_iterations = 50;  // Lloyd iterations at most, ≥ 1
    bool isValid(std::string* why) const;
};
// Throws std::invalid_argument for bad options or an empty image. Colour mode on a grey image
// clusters the grey values.
GeneratedModel pottsImage(const Image& image, const PottsImageOptions& options);
// The k-means of the colour mode (also for tests): L centres of the image's pixels (channel
// values as doubles), seeded by k-means++ from PortableRandom(seed) (math/kmeans.h, with
// KMeansSeedDraw::Cumulative), refined by at most `iterations` Lloyd steps; a cluster that
// empties keeps its centre. Ordered by luminance.
std::vector<std::vector<double>> kmeansCentres(const Image& image, int clusters, std::int64_t seed,
                                               int iterations);

struct StereoOptions {
    int disparities = 16;  // D labels d = 0 … D − 1 (in pixels of the full image), 2 … 256
    double smoothness = 20.0;       // λ of the truncated-linear term, in [0, 1e100]
    int truncation = 2;             // τ ≥ 1
    double data_truncation = 30.0;  // the data cost's cap, > 0 (grey levels)
    int downsample = 1;             // box-average both images by this factor first (the disparities
                                    // become ceil(D / factor)), 1 … 16
    bool isValid(std::string* why) const;
};
// Left and right images must have the same size; `truth` (may be empty) is a grey image of
// the left view's disparities in units of 1/truthScale pixel (0: unknown; Middlebury's
// Tsukuba: truthScale 16). With downsampling, the truth of a node is the rounded value of the
// block's centre pixel divided by the factor, and bad pixels are counted in those units.
// Throws std::invalid_argument for bad options, different sizes or too few pixels.
GeneratedModel stereo(const Image& left, const Image& right, const Image& truth, int truthScale,
                      const StereoOptions& options);

}  // namespace cplab
