// SPDX-License-Identifier: GPL-3.0-or-later
#include "map/generators.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/memory_budget.h"
#include "core/number_text.h"
#include "data/dataset.h"
#include "math/kmeans.h"

namespace cplab {

namespace {

// u ∈ [0, 1) from the top 53 bits of one draw (the header's contract).
double uniform01(std::mt19937_64& g) {
    return static_cast<double>(g() >> 11) * 0x1.0p-53;
}

// a·(2u − 1): uniform in [−a, a).
double symmetric(std::mt19937_64& g, double a) {
    return a * (2.0 * uniform01(g) - 1.0);
}

void throwUnless(bool ok, const std::string& why) {
    if (!ok) throw std::invalid_argument(why);
}

template <class Options>
void validate(const Options& options) {
    std::string why;
    if (!options.isValid(&why)) throw std::invalid_argument(why);
}

bool finiteNonNegative(double x) {
    return std::isfinite(x) && x >= 0.0;
}

// Entries of n variables with L labels each (unaries) plus `tables` pairwise entries, checked
// against kMaxGeneratedEntries with a message naming the generator.
// Also the model's memory (tables, a unary offset per variable, `edges` edges) against the
// memory available (memory_budget.h).
void checkSize(const char* owner, long long variables, long long labels, long long tables,
               long long edges) {
    const long long entries = variables * labels + tables;
    if (entries > kMaxGeneratedEntries)
        throw std::invalid_argument(std::string(owner) + ": " + std::to_string(variables) +
                                    " variables with " + std::to_string(labels) + " labels need " +
                                    std::to_string(entries) + " table entries; at most " +
                                    std::to_string(kMaxGeneratedEntries) + " can be generated");
    const double bytes = 8.0 * double(entries) + 8.0 * double(variables) +
                         double(sizeof(PairwiseModel::Edge)) * double(edges);
    requireMemory(
        bytes,
        sizeProduct({{double(variables), "variables"}, {double(labels), "labels"}}) + " x 8 B + " +
            sizeProduct({{double(edges), "edges"}, {double(sizeof(PairwiseModel::Edge)), "B"}}),
        std::string(owner) + ": the model ");
}

// A weight of a generated model: beyond ±kMaxMagnitude the sums of the energy and of the
// solvers' bounds (up to 4096² · 3 terms) would overflow to ±inf.
bool usableWeight(double x) {
    return finiteNonNegative(x) && x <= kMaxMagnitude;
}
constexpr const char* kWeightRange =
    "must be a finite number in [0, 1e+100] (larger weights "
    "overflow the energy and the bounds; scale the weights)";

// The 4-neighbour edges of a W × H grid in the header's order, as (u, v) pairs.
template <class AddEdge>
void gridEdges(int width, int height, AddEdge add) {
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int v = y * width + x;
            if (x + 1 < width) add(v, v + 1);
            if (y + 1 < height) add(v, v + width);
        }
}

double luminance(const std::vector<double>& c) {
    return c.size() == 3 ? 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] : c[0];
}

std::uint8_t toByte(double value) {
    return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}

}  // namespace

BadPixels countBadPixels(const GridPicture& picture, std::span<const int> labeling) {
    BadPixels result;
    if (picture.truth.size() != labeling.size()) return result;
    for (std::size_t v = 0; v < labeling.size(); ++v) {
        const int truth = picture.truth[v];
        if (truth < 0) continue;
        ++result.known;
        if (std::abs(labeling[v] - truth) > picture.tolerance) ++result.bad;
    }
    return result;
}

// ---- random grid ----------------------------------------------------------------------------

bool RandomGridOptions::isValid(std::string* why) const {
    const char* owner = "RandomGridOptions";
    return require(width >= 2 && width <= 4096, owner, "width", width, "must be between 2 and 4096",
                   why) &&
           require(height >= 2 && height <= 4096, owner, "height", height,
                   "must be between 2 and 4096", why) &&
           require(labels >= 2 && labels <= 256, owner, "labels", labels,
                   "must be between 2 and 256", why) &&
           require(usableWeight(coupling), owner, "coupling", coupling, kWeightRange, why) &&
           require(usableWeight(unary), owner, "unary", unary, kWeightRange, why) &&
           require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

GeneratedModel randomGrid(const RandomGridOptions& o) {
    validate(o);
    const long long n = static_cast<long long>(o.width) * o.height;
    checkSize("randomGrid", n, o.labels, 0, 2 * n);
    auto model =
        std::make_shared<PairwiseModel>(std::vector<int>(static_cast<std::size_t>(n), o.labels));
    std::mt19937_64 g(static_cast<std::uint64_t>(o.seed));
    for (int v = 0; v < model->variables(); ++v)
        for (double& t : model->unary(v))
            t = symmetric(g, o.unary);
    gridEdges(o.width, o.height,
              [&](int u, int v) { model->addPottsEdge(u, v, symmetric(g, o.coupling)); });
    auto picture = std::make_shared<GridPicture>();
    picture->width = o.width;
    picture->height = o.height;
    return {std::move(model), std::move(picture)};
}

// ---- frustrated grid (UAI 2014 Grids style) ------------------------------------------------

bool FrustratedGridOptions::isValid(std::string* why) const {
    const char* owner = "FrustratedGridOptions";
    const int least = torus ? 3 : 2;
    return require(width >= least && width <= 4096, owner, "width", width,
                   torus ? "must be between 3 and 4096 on a torus" : "must be between 2 and 4096",
                   why) &&
           require(height >= least && height <= 4096, owner, "height", height,
                   torus ? "must be between 3 and 4096 on a torus" : "must be between 2 and 4096",
                   why) &&
           require(usableWeight(field), owner, "field", field, kWeightRange, why) &&
           require(usableWeight(coupling), owner, "coupling", coupling, kWeightRange, why) &&
           require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

GeneratedModel frustratedGrid(const FrustratedGridOptions& o) {
    validate(o);
    const long long n = static_cast<long long>(o.width) * o.height;
    checkSize("frustratedGrid", n, 2, 8 * n, 2 * n);
    auto model = std::make_shared<PairwiseModel>(std::vector<int>(static_cast<std::size_t>(n), 2));
    std::mt19937_64 g(static_cast<std::uint64_t>(o.seed));
    for (int v = 0; v < model->variables(); ++v) {
        const double h = symmetric(g, o.field);
        model->unary(v)[0] = -h;
        model->unary(v)[1] = h;
    }
    const auto ising = [&](int u, int v) {
        const double j = symmetric(g, o.coupling);
        model->addEdge(u, v, {j, -j, -j, j});
    };
    const int w = o.width;
    const int h = o.height;
    if (o.competition_order) {
        // The UAI 2014 files' order: each row's edges to the right, its wrap-around (row
        // start, row end) last; then each column's edges down, its wrap-around last.
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x + 1 < w; ++x)
                ising(y * w + x, y * w + x + 1);
            if (o.torus) ising(y * w, y * w + w - 1);
        }
        for (int x = 0; x < w; ++x) {
            for (int y = 0; y + 1 < h; ++y)
                ising(y * w + x, (y + 1) * w + x);
            if (o.torus) ising(x, (h - 1) * w + x);
        }
    } else {
        gridEdges(w, h, ising);
        if (o.torus) {
            for (int y = 0; y < h; ++y)
                ising(y * w + w - 1, y * w);
            for (int x = 0; x < w; ++x)
                ising((h - 1) * w + x, x);
        }
    }
    auto picture = std::make_shared<GridPicture>();
    picture->width = o.width;
    picture->height = o.height;
    return {std::move(model), std::move(picture)};
}

// ---- factor grid ---------------------------------------------------------------------------

bool FactorGridOptions::isValid(std::string* why) const {
    const char* owner = "FactorGridOptions";
    const double entries = std::pow(double(labels), double(arity));
    return require(width >= 2 && width <= 256, owner, "width", width, "must be between 2 and 256",
                   why) &&
           require(height >= 2 && height <= 256, owner, "height", height,
                   "must be between 2 and 256", why) &&
           require(arity == 3 || arity == 4, owner, "arity", arity, "must be 3 or 4", why) &&
           require(labels >= 2 && labels <= 16 && entries <= 65536.0, owner, "labels", labels,
                   "must be between 2 and 16, with labels^arity <= 65536 entries per factor",
                   why) &&
           require(usableWeight(coupling), owner, "coupling", coupling, kWeightRange, why) &&
           require(usableWeight(unary), owner, "unary", unary, kWeightRange, why) &&
           require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

GeneratedModel factorGrid(const FactorGridOptions& o) {
    validate(o);
    const int n = o.width * o.height;
    auto model = std::make_shared<PairwiseModel>(std::vector<int>(std::size_t(n), o.labels));
    std::mt19937_64 g(static_cast<std::uint64_t>(o.seed));
    for (int v = 0; v < n; ++v)
        for (double& t : model->unary(v))
            t = symmetric(g, o.unary);
    const auto size = static_cast<std::size_t>(std::lround(std::pow(o.labels, o.arity)));
    const double total = double(o.width - 1) * double(o.height - 1) * double(size);
    if (total > double(PairwiseModel::kMaxTotalFactorEntries))
        throw std::invalid_argument(
            "factorGrid: " + std::to_string((o.width - 1) * (o.height - 1)) + " factors of " +
            std::to_string(size) + " entries need " + formatReal(total) + " entries; at most " +
            std::to_string(PairwiseModel::kMaxTotalFactorEntries) + " in all");
    for (int y = 0; y + 1 < o.height; ++y)
        for (int x = 0; x + 1 < o.width; ++x) {
            const int v = y * o.width + x;
            std::vector<int> corners = {v, v + 1, v + o.width, v + o.width + 1};
            corners.resize(static_cast<std::size_t>(o.arity));
            std::vector<double> table(size);
            for (double& t : table)
                t = symmetric(g, o.coupling);
            model->addFactor(std::move(corners), std::move(table));
        }
    auto picture = std::make_shared<GridPicture>();
    picture->width = o.width;
    picture->height = o.height;
    return {std::move(model), std::move(picture)};
}

// ---- complete graph -------------------------------------------------------------------------

bool CompleteGraphOptions::isValid(std::string* why) const {
    const char* owner = "CompleteGraphOptions";
    return require(nodes >= 3 && nodes <= 200, owner, "nodes", nodes, "must be between 3 and 200",
                   why) &&
           require(labels >= 2 && labels <= 256, owner, "labels", labels,
                   "must be between 2 and 256", why) &&
           require(usableWeight(coupling), owner, "coupling", coupling, kWeightRange, why) &&
           require(usableWeight(unary), owner, "unary", unary, kWeightRange, why) &&
           require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why);
}

GeneratedModel completeGraph(const CompleteGraphOptions& o) {
    validate(o);
    const long long pairs = static_cast<long long>(o.nodes) * (o.nodes - 1) / 2;
    checkSize("completeGraph", o.nodes, o.labels,
              pairs * static_cast<long long>(o.labels) * o.labels, pairs);
    auto model = std::make_shared<PairwiseModel>(
        std::vector<int>(static_cast<std::size_t>(o.nodes), o.labels));
    std::mt19937_64 g(static_cast<std::uint64_t>(o.seed));
    for (int v = 0; v < model->variables(); ++v)
        for (double& t : model->unary(v))
            t = symmetric(g, o.unary);
    std::vector<double> table(static_cast<std::size_t>(o.labels) *
                              static_cast<std::size_t>(o.labels));
    for (int u = 0; u < o.nodes; ++u)
        for (int v = u + 1; v < o.nodes; ++v) {
            for (double& t : table)
                t = symmetric(g, o.coupling);
            model->addEdge(u, v, table);
        }
    return {std::move(model), nullptr};
}

// ---- Potts image ----------------------------------------------------------------------------

bool PottsImageOptions::isValid(std::string* why) const {
    const char* owner = "PottsImageOptions";
    return require(labels >= 2 && labels <= 64, owner, "labels", labels, "must be between 2 and 64",
                   why) &&
           requireText(mode == "grey" || mode == "colour", owner, "mode", mode,
                       "must be 'grey' or 'colour'", why) &&
           require(usableWeight(smoothness), owner, "smoothness", smoothness, kWeightRange, why) &&
           require(downsample >= 1 && downsample <= 64, owner, "downsample", downsample,
                   "must be between 1 and 64", why) &&
           require(seed >= 0, owner, "seed", static_cast<double>(seed), "must be >= 0", why) &&
           require(kmeans_iterations >= 1, owner, "kmeans_iterations", kmeans_iterations,
                   "must be >= 1", why);
}

std::vector<std::vector<double>> kmeansCentres(const Image& image, int clusters, std::int64_t seed,
                                               int iterations) {
    throwUnless(!image.empty() && image.channels >= 1, "kmeansCentres: the image is empty");
    throwUnless(clusters >= 1, "kmeansCentres: clusters must be >= 1");
    const auto n = static_cast<Eigen::Index>(image.width) * image.height;
    const auto ch = static_cast<Eigen::Index>(image.channels);
    Eigen::MatrixXd pixels(n, ch);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index c = 0; c < ch; ++c)
            pixels(i, c) = image.pixels[static_cast<std::size_t>(i * ch + c)];
    KMeansOptions options;
    options.clusters = clusters;
    options.seed = static_cast<std::uint64_t>(seed);
    options.maxIterations = iterations;
    options.draw = KMeansSeedDraw::Cumulative;
    options.empty = KMeansEmptyCluster::KeepCentre;
    const Eigen::MatrixXd found = kmeans(pixels, options);
    std::vector<std::vector<double>> centres;
    for (Eigen::Index k = 0; k < found.rows(); ++k)
        centres.emplace_back(found.row(k).begin(), found.row(k).end());
    std::stable_sort(centres.begin(), centres.end(),
                     [](const auto& a, const auto& b) { return luminance(a) < luminance(b); });
    return centres;
}

GeneratedModel pottsImage(const Image& input, const PottsImageOptions& o) {
    validate(o);
    throwUnless(!input.empty() && input.width > 0 && input.height > 0 &&
                    (input.channels == 1 || input.channels == 3),
                "pottsImage: the image has no pixels");
    const Image image = downsample(input, o.downsample);
    const long long n = static_cast<long long>(image.width) * image.height;
    checkSize("pottsImage", n, o.labels, 0, 2 * n);
    const bool colour = o.mode == "colour";
    // Grey mode: the luminance against L evenly spaced levels; colour mode: the pixel's
    // channels against the k-means centres.
    const Image features = colour ? image : toGrey(image);
    std::vector<std::vector<double>> centres;
    if (colour) {
        centres = kmeansCentres(features, o.labels, o.seed, o.kmeans_iterations);
    } else {
        for (int a = 0; a < o.labels; ++a)
            centres.push_back({255.0 * a / (o.labels - 1)});
    }
    auto model =
        std::make_shared<PairwiseModel>(std::vector<int>(static_cast<std::size_t>(n), o.labels));
    const auto ch = static_cast<std::size_t>(features.channels);
    for (int v = 0; v < model->variables(); ++v) {
        const std::uint8_t* p = features.pixels.data() + static_cast<std::size_t>(v) * ch;
        auto theta = model->unary(v);
        for (int a = 0; a < o.labels; ++a) {
            double d2 = 0.0;
            for (std::size_t c = 0; c < ch; ++c) {
                const double diff = p[c] - centres[static_cast<std::size_t>(a)][c];
                d2 += diff * diff;
            }
            theta[static_cast<std::size_t>(a)] = -std::sqrt(d2);
        }
    }
    gridEdges(image.width, image.height,
              [&](int u, int v) { model->addPottsEdge(u, v, o.smoothness); });
    auto picture = std::make_shared<GridPicture>();
    picture->width = image.width;
    picture->height = image.height;
    picture->input = image;
    for (const auto& c : centres) {
        if (c.size() == 3)
            picture->labelColors.push_back({toByte(c[0]), toByte(c[1]), toByte(c[2])});
        else
            picture->labelColors.push_back({toByte(c[0]), toByte(c[0]), toByte(c[0])});
    }
    return {std::move(model), std::move(picture)};
}

// ---- stereo ---------------------------------------------------------------------------------

bool StereoOptions::isValid(std::string* why) const {
    const char* owner = "StereoOptions";
    return require(disparities >= 2 && disparities <= 256, owner, "disparities", disparities,
                   "must be between 2 and 256", why) &&
           require(usableWeight(smoothness), owner, "smoothness", smoothness, kWeightRange, why) &&
           require(truncation >= 1, owner, "truncation", truncation, "must be >= 1", why) &&
           require(std::isfinite(data_truncation) && data_truncation > 0.0, owner,
                   "data_truncation", data_truncation, "must be a finite number > 0", why) &&
           require(data_truncation <= kMaxMagnitude, owner, "data_truncation", data_truncation,
                   "must be at most 1e+100 (larger costs overflow the energy and the bounds)",
                   why) &&
           require(downsample >= 1 && downsample <= 16, owner, "downsample", downsample,
                   "must be between 1 and 16", why);
}

GeneratedModel stereo(const Image& leftInput, const Image& rightInput, const Image& truthInput,
                      int truthScale, const StereoOptions& o) {
    validate(o);
    throwUnless(!leftInput.empty() && !rightInput.empty(), "stereo: an image of the pair is empty");
    throwUnless(leftInput.width == rightInput.width && leftInput.height == rightInput.height,
                "stereo: the left image is " + std::to_string(leftInput.width) + " x " +
                    std::to_string(leftInput.height) + " pixels, the right one " +
                    std::to_string(rightInput.width) + " x " + std::to_string(rightInput.height) +
                    "; a stereo pair needs images of the same size");
    throwUnless(truthInput.empty() ||
                    (truthInput.width == leftInput.width && truthInput.height == leftInput.height),
                "stereo: the ground truth is " + std::to_string(truthInput.width) + " x " +
                    std::to_string(truthInput.height) + " pixels, the left image " +
                    std::to_string(leftInput.width) + " x " + std::to_string(leftInput.height));
    throwUnless(truthInput.empty() || truthScale >= 1, "stereo: the truth scale must be >= 1");
    const int f = o.downsample;
    const Image left = toGrey(downsample(leftInput, f));
    const Image right = toGrey(downsample(rightInput, f));
    const int labels = (o.disparities + f - 1) / f;
    throwUnless(labels >= 2, "stereo: " + std::to_string(o.disparities) +
                                 " disparities downsampled by " + std::to_string(f) +
                                 " leave fewer than 2 labels");
    const int width = left.width, height = left.height;
    const long long n = static_cast<long long>(width) * height;
    checkSize("stereo", n, labels, static_cast<long long>(labels) * labels, 2 * n);

    auto model =
        std::make_shared<PairwiseModel>(std::vector<int>(static_cast<std::size_t>(n), labels));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            auto theta = model->unary(y * width + x);
            const int l = left.at(x, y);
            for (int d = 0; d < labels; ++d) {
                const double cost = x - d >= 0 ? std::min<double>(std::abs(l - right.at(x - d, y)),
                                                                  o.data_truncation)
                                               : o.data_truncation;
                theta[static_cast<std::size_t>(d)] = -cost;
            }
        }
    std::vector<double> table(static_cast<std::size_t>(labels) * labels);
    for (int a = 0; a < labels; ++a)
        for (int b = 0; b < labels; ++b)
            table[static_cast<std::size_t>(a * labels + b)] =
                -o.smoothness * std::min(std::abs(a - b), o.truncation);
    int first = -1;
    gridEdges(width, height, [&](int u, int v) {
        if (first < 0)
            first = model->addEdge(u, v, table);
        else
            model->addEdgeSharing(u, v, first);
    });

    auto picture = std::make_shared<GridPicture>();
    picture->width = width;
    picture->height = height;
    picture->input = downsample(leftInput, f);
    for (int d = 0; d < labels; ++d) {
        const std::uint8_t shade = toByte(255.0 * d / (labels - 1));
        picture->labelColors.push_back({shade, shade, shade});
    }
    if (!truthInput.empty()) {
        picture->truth.assign(static_cast<std::size_t>(n), -1);
        picture->tolerance = 1;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const int g = greyAt(truthInput, x * f + f / 2, y * f + f / 2);
                if (g == 0) continue;  // unknown
                picture->truth[static_cast<std::size_t>(y) * width + x] = static_cast<int>(
                    std::lround(static_cast<double>(g) / truthScale / static_cast<double>(f)));
            }
    }
    return {std::move(model), std::move(picture)};
}

}  // namespace cplab
