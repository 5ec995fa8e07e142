// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/map.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "builtin_datasets.h"
#include "core/number_text.h"
#include "data/image_format.h"
#include "data/text_io.h"
#include "data/uai_format.h"
#include "map/cycle_mplp.h"
#include "map/diffusion.h"
#include "map/map_snapshot_codec.h"
#include "map/mplp.h"
#include "map/trws.h"

namespace cplab {

namespace {

// The label counts in words: "2 labels" or "2 to 21 labels".
std::string labelText(const PairwiseModel& m) {
    const auto [lo, hi] = std::minmax_element(m.labelCounts().begin(), m.labelCounts().end());
    if (lo == m.labelCounts().end()) return "no labels";
    if (*lo == *hi) return std::to_string(*hi) + (*hi == 1 ? " label" : " labels");
    return std::to_string(*lo) + " to " + std::to_string(*hi) + " labels";
}

}  // namespace

std::string MapData::details() const {
    if (!model) return {};
    std::string text = name + ": " + std::to_string(model->variables()) + " variables (" +
                       labelText(*model) + "), " + std::to_string(model->edgeCount()) + " edges";
    if (model->factorCount() > 0)
        text += ", " + std::to_string(model->factorCount()) + " factors of 3+ variables";
    if (!evidenceSource.empty())
        text += "; evidence " + evidenceSource + " clamps " + std::to_string(observed) +
                (observed == 1 ? " variable" : " variables");
    if (picture)
        text += "; a " + std::to_string(picture->width) + " x " + std::to_string(picture->height) +
                " grid";
    if (picture && !picture->truth.empty())
        text += " with ground truth (bad pixels: off by more than " +
                std::to_string(picture->tolerance) + ")";
    if (referenceEnergy)
        text += "; reference labeling " + referenceSource +
                ": E = " + formatReal(*referenceEnergy) +
                " (a known labeling, not a certified optimum)";
    return text;
}

SummaryFields MapData::summary() const {
    if (!model) return {};
    SummaryFields fields = {{"variables", static_cast<long long>(model->variables())},
                            {"edges", static_cast<long long>(model->edgeCount())},
                            {"max_labels", static_cast<long long>(model->maxLabels())}};
    if (!evidenceSource.empty()) {
        fields.push_back({"evidence", evidenceSource});
        fields.push_back({"observed", static_cast<long long>(observed)});
    }
    if (referenceEnergy) {
        fields.push_back({"reference", referenceSource});
        fields.push_back({"reference_energy", *referenceEnergy});
    }
    if (!generator.empty()) fields.push_back({"generator", generator});
    if (picture) {
        fields.push_back({"grid_width", static_cast<long long>(picture->width)});
        fields.push_back({"grid_height", static_cast<long long>(picture->height)});
    }
    return fields;
}

namespace {

// Problem names are unique across families: the map family's are "map_<instance>", the
// instance's name in lower case ("map_grids_26").
const std::string kMapPrefix = "map_";

// The word "none" turns a sibling file off.
const std::string kNone = "none";

// Settings of the map problems: the files that come with a UAI model, and the parameters of
// the generated models (generators.h), each read by the problems it names.
struct MapProblemOptions {
    std::string evidence;   // evidence file, "" (the model's sibling) or "none"
    std::string reference;  // UAI result file, "" (the model's sibling) or "none"
    std::int64_t seed = 1;
    int width = 12;
    int height = 12;
    int nodes = 6;
    int labels = 3;
    int arity = 3;
    double coupling = 1.0;
    double unary = 0.5;
    std::string image;
    std::string mode = "grey";
    double smoothness = 20.0;
    int downsample = 1;
    int disparities = 16;
    int truncation = 2;
    double data_truncation = 30.0;

    void visit(OptionVisitor& v) {
        v.path("evidence", evidence,
               "UAI evidence file (.evid: a count, then variable/label pairs) whose variables are "
               "clamped; empty: the model's <file>.evid when there is one; 'none': no evidence");
        v.path("reference", reference,
               "UAI result file (.MAP) with a reference labeling whose energy is reported; "
               "empty: the model's <file>.MAP (built-ins: the UAI 2014 one); 'none': no reference");
        v.seed("seed", seed,
               "random grid, complete graph: seed of the random tables; image (colour mode): "
               "seed of the k-means (>= 0)");
        v.integer("width", width, "random grid: nodes per row (2 to 4096); factor grid: 2 to 256");
        v.integer("height", height, "random grid: rows (2 to 4096); factor grid: 2 to 256");
        v.integer("arity", arity,
                  "factor grid: variables per factor, 3 (three corners of each grid cell) or 4 "
                  "(all four)");
        v.integer("nodes", nodes, "complete graph: nodes (3 to 200)");
        v.integer("labels", labels,
                  "random grid, complete graph: labels per node (2 to 256; factor grid: 2 to 16); "
                  "image: grey levels or "
                  "colour clusters (2 to 64)");
        v.real("coupling", coupling,
               "random grid: Potts weights uniform in [-coupling, coupling]; complete graph: "
               "table entries in that range (0 to 1e100)");
        v.real("unary", unary,
               "random grid, complete graph: unary log-potentials uniform in [-unary, unary] "
               "(0 to 1e100)");
        v.path("image", image,
               "image problem: the image (PNG, PGM or PPM) to denoise or segment; empty: the "
               "built-in Tsukuba left "
               "view");
        v.choice("mode", mode, {"grey", "colour"},
                 "image: labels are evenly spaced grey levels ('grey') or k-means colour "
                 "clusters ('colour')");
        v.real("smoothness", smoothness,
               "image: Potts weight between neighbours; stereo: lambda of the truncated-linear "
               "term (grey levels, 0 to 1e100)");
        v.integer("downsample", downsample,
                  "image (1 to 64), stereo (1 to 16): box-average the images by this factor "
                  "first (stereo: the disparities shrink by it too)");
        v.integer("disparities", disparities,
                  "stereo: disparities 0 .. D-1 in pixels of the full image (2 to 256)");
        v.integer("truncation", truncation, "stereo: tau of lambda min(|a - b|, tau) (>= 1)");
        v.real("data_truncation", data_truncation,
               "stereo: cap of the data cost |I_L(x, y) - I_R(x - d, y)| (grey levels, > 0)");
    }
    // Checks, up front, the options `problem` reads (a generator's, with the option named);
    // the options of other problems are not its business (downsample is 1 to 64 for images,
    // 1 to 16 for stereo).
    bool isValidFor(const std::string& problem, std::string* why) const;

    RandomGridOptions grid() const { return {width, height, labels, coupling, unary, seed}; }
    CompleteGraphOptions complete() const { return {nodes, labels, coupling, unary, seed}; }
    FactorGridOptions factorGrid() const {
        return {width, height, labels, arity, coupling, unary, seed};
    }
    PottsImageOptions potts() const {
        PottsImageOptions o;
        o.labels = labels;
        o.mode = mode;
        o.smoothness = smoothness;
        o.downsample = downsample;
        o.seed = seed;
        return o;
    }
    StereoOptions stereo() const {
        return {disparities, smoothness, truncation, data_truncation, downsample};
    }
};

std::string lowerCase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Builds the problem from the model's tables: applies the evidence, reads the reference
// labeling (a file, or the built-in's result text). Throws with the file's name on bad input.
ProblemPtr makeMapProblem(UaiTables tables, const ProblemInfo& info, const std::string& name,
                          const std::string& source, const std::string& modelPath,
                          const MapProblemOptions& o, const BuiltinFile* builtinReference) {
    auto data = std::make_shared<MapData>();
    data->name = name;
    data->source = source;
    const std::string evidence = o.evidence == kNone  ? std::string()
                                 : o.evidence.empty() ? uaiSibling(modelPath, ".evid")
                                                      : o.evidence;
    if (!evidence.empty()) {
        const auto pairs = loadUaiEvidence(evidence, tables.cardinalities);
        applyEvidence(tables, pairs);
        data->evidenceSource = evidence;
        data->observed = static_cast<int>(pairs.size());
    }
    auto model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(std::move(tables)));
    if (const std::string violation = model->contractViolation(); !violation.empty())
        throw std::invalid_argument(source + ": " + violation);
    // A model whose every labeling has probability 0 has no MAP labeling: refused here rather
    // than "solved" to a labeling of energy -inf.
    if (const std::string why = model->noAllowedLabeling(); !why.empty()) {
        throw std::invalid_argument(
            source + ": every labeling has probability zero" +
            (evidence.empty() ? std::string() : " given the evidence " + evidence) + ": " + why);
    }
    if (o.reference != kNone) {
        const std::string path = o.reference.empty() ? uaiSibling(modelPath, ".MAP") : o.reference;
        if (!path.empty()) {
            data->reference = loadUaiResult(path, model->labelCounts());
            data->referenceSource = path;
        } else if (o.reference.empty() && builtinReference) {
            const std::string resultName =
                "builtin:" + std::string(builtinReference->name) + ".uai.MAP";
            data->reference =
                parseUaiResult(builtinReference->bytes, resultName, model->labelCounts());
            data->referenceSource = resultName;
        }
        if (!data->reference.empty()) data->referenceEnergy = model->energy(data->reference);
    }
    data->model = std::move(model);
    auto instance = std::make_shared<ProblemInstance>();
    instance->info = info;
    instance->info.family = "map";
    instance->info.dimension = data->model->variables();
    instance->data = std::move(data);
    return instance;
}

std::shared_ptr<const PairwiseModel> modelOf(const MapData& data) {
    return data.model;
}

// The form of a message-passing solver whose options are MessagePassingOptions: validation
// names the solver's own options struct (`Owner::kName`).
template <class Owner>
struct PassingForm {
    MessagePassingOptions base;
    void visit(OptionVisitor& v) { base.visit(v); }
    bool isValid(std::string* why) const { return base.isValid(Owner::kName, why); }
};
struct TrwsOwner {
    static constexpr const char* kName = "TrwsOptions";
};
struct DiffusionOwner {
    static constexpr const char* kName = "DiffusionOptions";
};

// MPLP's form: `tighten` turns on the cycle tightening of Sontag et al. (the solver
// `mplp_cycles`, whose options the form carries); without it, a tightening option set to
// anything but its default would do nothing, and is refused.
struct MplpForm {
    CycleMplpOptions cycles;
    bool tighten = false;
    void visit(OptionVisitor& v) {
        cycles.visit(v);
        v.boolean("tighten", tighten,
                  "when the bound stalls, add cycle clusters (Sontag et al.: triangles, 4-cycles "
                  "and, with cycle_search = any, frustrated cycles of any length) and, on models "
                  "with factors of 3+ variables, pair separators the factors must agree on (the "
                  "tighten_*, clusters_per_round, min_decrease, max_cluster_states, squares, "
                  "cycle_search and separators options)");
    }
    bool isValid(std::string* why) const {
        if (tighten) return cycles.isValid(why);
        if (const char* given = tighteningOptionGiven()) {
            *why = std::string("MplpOptions::") + given +
                   " does nothing without tighten = true (set tighten=true, or leave it out)";
            return false;
        }
        return cycles.base.isValid("MplpOptions", why);
    }
    // The first tightening option that differs from its default, or null.
    const char* tighteningOptionGiven() const {
        const CycleMplpOptions d;
        const std::pair<bool, const char*> options[] = {
            {cycles.tighten_sweeps != d.tighten_sweeps, "tighten_sweeps"},
            {cycles.tighten_tolerance != d.tighten_tolerance, "tighten_tolerance"},
            {cycles.clusters_per_round != d.clusters_per_round, "clusters_per_round"},
            {cycles.min_decrease != d.min_decrease, "min_decrease"},
            {cycles.max_cluster_states != d.max_cluster_states, "max_cluster_states"},
            {cycles.squares != d.squares, "squares"},
            {cycles.cycle_search != d.cycle_search, "cycle_search"},
            {cycles.separators != d.separators, "separators"}};
        for (const auto& [differs, name] : options)
            if (differs) return name;
        return nullptr;
    }
};

template <class SolverType, class Owner>
std::unique_ptr<MessagePassingSolver> makeMapSolver(std::shared_ptr<const PairwiseModel> model,
                                                    const PassingForm<Owner>& form) {
    return std::make_unique<SolverType>(std::move(model), form.base);
}
template <class SolverType>
std::unique_ptr<MessagePassingSolver> makeMapSolver(std::shared_ptr<const PairwiseModel> model,
                                                    const CycleMplpOptions& options) {
    return std::make_unique<SolverType>(std::move(model), options);
}
template <class SolverType>
std::unique_ptr<MessagePassingSolver> makeMapSolver(std::shared_ptr<const PairwiseModel> model,
                                                    const MplpForm& form) {
    if (form.tighten) return std::make_unique<CycleMplpSolver>(std::move(model), form.cycles);
    return std::make_unique<MplpSolver>(std::move(model), form.cycles.base);
}

// The generated problems (generators.h).
const std::string kRandomGrid = kMapPrefix + "random_grid";
const std::string kCompleteGraph = kMapPrefix + "complete_graph";
const std::string kFactorGrid = kMapPrefix + "factor_grid";
const std::string kPottsImage = kMapPrefix + "potts_image";
const std::string kStereoTsukuba = kMapPrefix + "stereo_tsukuba";

bool MapProblemOptions::isValidFor(const std::string& problem, std::string* why) const {
    if (problem == kRandomGrid) return grid().isValid(why);
    if (problem == kCompleteGraph) return complete().isValid(why);
    if (problem == kFactorGrid) return factorGrid().isValid(why);
    if (problem == kPottsImage) return potts().isValid(why);
    if (problem == kStereoTsukuba) return stereo().isValid(why);
    return true;
}

// A built-in PNG of resources/datasets, decoded.
Image builtinImage(const std::string& name) {
    for (const auto& file : builtinImageFiles())
        if (file.name == name) return decodePng(file.bytes, "builtin:" + name + ".png");
    throw std::invalid_argument("no built-in image '" + name + "'");
}

ProblemPtr generatedProblem(GeneratedModel generated, const ProblemInfo& info,
                            const std::string& name, const std::string& source,
                            const std::string& generator) {
    if (const std::string violation = generated.model->contractViolation(); !violation.empty())
        throw std::invalid_argument(source + ": " + violation);
    auto data = std::make_shared<MapData>();
    data->name = name;
    data->source = source;
    data->generator = generator;
    data->picture = std::move(generated.picture);
    data->model = std::move(generated.model);
    auto instance = std::make_shared<ProblemInstance>();
    instance->info = info;
    instance->info.family = "map";
    instance->info.dimension = data->model->variables();
    instance->data = std::move(data);
    return instance;
}

// The Potts problem of the image at `path`, in any image format of the table (a built-in image
// when it is empty).
ProblemPtr imageProblem(const std::string& path, const ProblemInfo& info,
                        const MapProblemOptions& o) {
    const Image image =
        path.empty() ? builtinImage("tsukuba_imL") : readImage(sourceOfKind(path, DataKind::Image));
    const std::string source = path.empty() ? "builtin:tsukuba_imL.png" : path;
    const std::string name =
        path.empty() ? "tsukuba_imL" : std::filesystem::path(path).stem().string();
    return generatedProblem(pottsImage(image, o.potts()), info, name, source,
                            "potts_image_" + o.mode);
}

ProblemPtr stereoTsukuba(const ProblemInfo& info, const MapProblemOptions& o) {
    return generatedProblem(stereo(builtinImage("tsukuba_imL"), builtinImage("tsukuba_imR"),
                                   builtinImage("tsukuba_truedispL"), 16, o.stereo()),
                            info, "tsukuba", "builtin:tsukuba_imL.png+tsukuba_imR.png", "stereo");
}

// A solver entry for the form `Form` (its options as the GUI and CLI see them) and the solver
// `SolverType`, built on the problem's model. TRW-S stays pairwise: a model with higher-order
// factors is refused up front, naming its source.
template <class Form, class SolverType>
SolverEntry mapSolver(SolverDeclaration declaration) {
    const std::string name = declaration.name;
    return solverEntry<Form, MapData>(
        std::move(declaration),
        [](const MapData& data, const Form& form) -> std::unique_ptr<Solver> {
            auto solver = makeMapSolver<SolverType>(modelOf(data), form);
            if (data.picture) solver->setPicture(data.picture);
            return solver;
        },
        [name](OptionValues& /*values*/, const MapData& data, const ProblemInfo& problem,
               std::string* why) {
            if (!data.model) {
                if (why) *why = "the problem '" + problem.name + "' carries no model";
                return false;
            }
            const std::string refusal = name == "trws"
                                            ? pairwiseOnlyRefusal(*data.model, name, data.source)
                                            : std::string();
            if (refusal.empty()) return true;
            if (why) *why = refusal;
            return false;
        });
}

// The generated problems (generators.h), after the built-in UAI instances.
const std::vector<ProblemInfo> kGeneratedProblems = {
    {kRandomGrid,
     {},
     "Random frustrated grid (generated): 12 x 12, 3 labels, seed 1",
     "A width x height 4-connected grid with random unaries and Potts couplings of "
     "both signs, uniform in [-coupling, coupling]: cycles that mix attractive and "
     "repulsive edges are frustrated, so the LP relaxation is loose and tightening "
     "by cycles has work to do. Problem options: width, height, labels, coupling, "
     "unary, seed.",
     144},
    {kCompleteGraph,
     {},
     "Complete graph K_6 (generated): 3 labels, random tables, seed 1",
     "Every pair of the n nodes joined by an edge with a dense random table "
     "(entries uniform in [-coupling, coupling]) and random unaries: many "
     "frustrated triangles on few variables, small enough for exhaustive search. "
     "Problem options: nodes, labels, coupling, unary, seed.",
     6},
    {kFactorGrid,
     {},
     "Grid of ternary factors (generated): 12 x 12, 3 labels, seed 1",
     "A width x height grid whose 2 x 2 cells each carry one higher-order factor "
     "over three of their corners (arity 3: top-left, top-right, bottom-left) or all "
     "four (arity 4), with random tables (entries uniform in [-coupling, "
     "coupling]) and random unaries; no pairwise edges. MPLP and diffusion pass "
     "factor messages (TRW-S refuses it; MPLP with tighten adds pair separators). "
     "Problem options: "
     "width, height, labels, arity, coupling, unary, seed.",
     144},
    {kPottsImage,
     {},
     "Potts segmentation of an image (generated): Tsukuba left view, 3 grey levels",
     "Denoising / segmentation of an image: labels are evenly spaced grey levels "
     "(mode grey) or k-means colour clusters (mode colour), the unary of a label is "
     "minus the distance of the pixel to its level or cluster centre, and "
     "neighbours pay the Potts weight smoothness for different labels. The labeling "
     "is shown beside the input image. Problem options: image (a PNG, PGM or PPM; "
     "empty: the "
     "built-in Tsukuba left view), labels, mode, smoothness, downsample, seed. Any "
     "PNG, PGM or PPM image can also be opened as a data file.",
     384 * 288},
    {kStereoTsukuba,
     {},
     "Stereo on Middlebury Tsukuba (generated): 384 x 288, 16 disparities",
     "Disparities of the left view of the Tsukuba pair (Scharstein & Szeliski "
     "2002): the unary of disparity d is minus the truncated absolute difference "
     "between the left pixel (x, y) and the right pixel (x - d, y), neighbours pay "
     "the truncated-linear smoothness lambda min(|a - b|, tau). Solvers report the "
     "fraction of pixels whose best disparity is off by more than 1 from the "
     "ground truth (bad_pixels). Problem options: smoothness, truncation, "
     "data_truncation, disparities, downsample.",
     384 * 288},
};

// Message passing's stall test and the cycle search's cluster size are rarely touched; the
// rest are the methods' own choices.
const OptionGroups kMapGroups = {{}, {"stall_sweeps", "stall_tolerance", "max_cluster_states"}};

const std::vector<SolverEntry> kMapSolvers = {
    mapSolver<MplpForm, MplpSolver>(
        {.name = "mplp",
         .title = "MPLP: max-product LP (Globerson & Jaakkola 2007)",
         .description =
             "Block-coordinate descent on the dual of the local-polytope LP: for each edge in "
             "turn its two messages are set to the exact minimiser of the dual bound U with all "
             "other messages fixed (one step = one sweep over the edges), so U never rises. "
             "Labels are decoded from the beliefs. On trees it reaches the LP optimum; on loopy "
             "graphs it may stop at a fixed point above it. Bounds: U (dual) and E of the best "
             "labeling; a zero gap certifies the MAP labeling. With tighten=true it adds cycle "
             "clusters when the bound stalls, as mplp_cycles does.",
         .groups = kMapGroups}),
    mapSolver<PassingForm<TrwsOwner>, TrwsSolver>(
        {.name = "trws",
         .title = "TRW-S: sequential tree-reweighted message passing (Kolmogorov 2006)",
         .description =
             "Messages are passed forward and backward along the node order (one step = both "
             "passes) over a decomposition of the graph into monotonic chains; the bound is the "
             "sum of the chains' maxima, which never rises. Its own rounding fixes the labels in "
             "pass order. Usually the fastest of the three to reach the LP optimum; it converges "
             "to weak tree agreement, which is the LP optimum on binary models.",
         .groups = kMapGroups}),
    mapSolver<PassingForm<DiffusionOwner>, DiffusionSolver>(
        {.name = "diffusion",
         .title = "Max-sum diffusion (Kovalevsky-Koval; Werner 2007)",
         .description =
             "For each node and edge at it, the node's belief and the edge's max-marginal are "
             "made equal to their average (one step = one sweep over the nodes). The bound U "
             "never rises; the fixed points are arc consistent, which need not be LP optimal. "
             "The simplest of the methods, and the slowest.",
         .groups = kMapGroups}),
    mapSolver<CycleMplpOptions, CycleMplpSolver>(
        {.name = "mplp_cycles",
         .title = "MPLP tightened by cycles (Sontag et al. 2008)",
         .description =
             "MPLP on the edges, and when the bound stops falling, the dual cutting-plane step: "
             "among all triangles and 4-cycles of the graph and the frustrated cycles of any "
             "length in the current dual, the clusters that guarantee the largest decrease of U "
             "are added (each one a cut of the local polytope toward the marginal polytope) and "
             "take part in the message passing. On a model with factors of 3+ variables, each "
             "round also adds pair separators: pairs of variables that two factors (or a "
             "factor and an edge) share and must agree on. U falls below the LP optimum where "
             "cycles are "
             "frustrated or factors disagree, often until the gap closes and the labeling is "
             "certified optimal. Bounds: U with the cluster terms, E of the best labeling.",
         .groups = kMapGroups}),
};

// The demos stop by their iteration counts, on any machine: max_seconds = 0 lifts the default
// 10 s backstop. Each has its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kMapDemos = {
    // The race of the chapter's §7.4: the local-polytope methods stop at the LP optimum, the
    // cycles cut below it. ICM polishes every decoded labeling, for all three alike.
    {"map_grid",
     "MAP on a 20 x 20 grid: MPLP vs TRW-S vs cycle tightening",
     "Grids_26 of UAI 2014: a binary 20 x 20 grid with wrap-around (torus) edges and "
     "frustrated couplings, where the LP relaxation is loose. MPLP and TRW-S lower "
     "the dual bound U to the LP optimum (3830.3) and stall there, far above every "
     "labeling they decode; MPLP with cycles adds the grid faces (drawn as small "
     "squares) where the relaxation is loose, and U falls below 3110 within 300 "
     "sweeps, closing most of the gap. Red outlines mark the nodes whose parts of "
     "the bound disagree with the labeling.",
     kMapPrefix + "grids_26",
     {{"mplp", {{"icm_passes", "3"}, {"max_iterations", "300"}, {"max_seconds", "0"}}},
      {"trws", {{"icm_passes", "3"}, {"max_iterations", "300"}, {"max_seconds", "0"}}},
      {"mplp_cycles",
       {{"icm_passes", "3"},
        {"clusters_per_round", "100"},
        {"max_iterations", "300"},
        {"max_seconds", "0"}}}},
     {{0, "", "A 20 x 20 binary torus grid with frustrated couplings: its LP relaxation is loose."},
      {1, "", "MPLP and TRW-S lower the dual bound U sweep by sweep."},
      {5, "cluster added",
       "A cycle cluster (a grid face, drawn as a small square) was added: the bound drops."},
      {40, "", "MPLP and TRW-S stall at the LP optimum 3830.3; MPLP with cycles goes on below it."},
      {100, "", "Red outlines mark nodes whose parts of the bound disagree with the labeling."}}},
    // TRW-S alone: MPLP and diffusion also certify this one, but their bound and energy
    // meet up to a rounding error of either sign.
    {"map_segmentation",
     "MAP on a superpixel graph: TRW-S certifies the optimum",
     "Segmentation_12 of UAI 2014: 231 superpixels of an image, a binary label "
     "each, edges between touching superpixels (not a grid: the nodes are drawn on "
     "a circle). Its LP relaxation is tight: within four sweeps TRW-S's dual bound "
     "meets the energy of its labeling (-51.1507), which certifies it optimal (the "
     "competition's reference labeling scores -52.5254).",
     kMapPrefix + "segmentation_12",
     {{"trws", {{"max_iterations", "100"}, {"max_seconds", "0"}}}},
     {{0, "", "231 superpixels, a binary label each, edges between touching superpixels."},
      {1, "", "TRW-S passes messages: the dual bound falls."},
      {4, "", "Within four sweeps the bound meets the energy of the labeling: certified optimal."},
      {0, "finished",
       "Certified optimum -51.1507 (the competition's reference labeling scores "
       "-52.5254)."}}},
    // The generated models: a random frustrated grid where only the cycles close the gap,
    // and stereo on Tsukuba, scored against its ground truth.
    {"map_frustrated",
     "MAP on a random frustrated grid: tightening certifies the optimum",
     "A generated 12 x 12 grid with 3 labels and Potts couplings of both signs "
     "(map_random_grid, seed 1). MPLP and TRW-S settle at the loose LP bound (about "
     "73.5) above every labeling they decode; MPLP with cycles adds 4-cycles of the "
     "grid where the bound stops falling and closes the gap: within about 125 sweeps "
     "its bound meets the energy of its labeling (70.8107), a certified optimum.",
     kRandomGrid,
     {{"mplp", {{"icm_passes", "3"}, {"max_iterations", "300"}, {"max_seconds", "0"}}},
      {"trws", {{"icm_passes", "3"}, {"max_iterations", "300"}, {"max_seconds", "0"}}},
      {"mplp_cycles",
       {{"icm_passes", "3"},
        {"tighten_tolerance", "1e-3"},
        {"max_iterations", "300"},
        {"max_seconds", "0"}}}},
     {{0, "", "A 12 x 12 grid, 3 labels, Potts couplings of both signs."},
      {1, "",
       "Every run lowers the bound; MPLP and TRW-S head for the loose LP bound (about "
       "73.5)."},
      {5, "cluster added",
       "MPLP with cycles added 4-cycles where the bound stopped falling: it falls again."},
      {60, "", "The tightened bound closes in on the energy of its labeling."},
      {0, "finished", "Gap closed: a certified optimum (70.8107)."}}},
    {"map_factors",
     "MAP with ternary factors: MPLP vs max-sum diffusion",
     "A generated 12 x 12 grid whose 121 cells each carry a factor of three of their "
     "corners with a random table (map_factor_grid, seed 1): no pairwise edges. MPLP "
     "in its factor form (Globerson & Jaakkola 2007) and max-sum diffusion over the "
     "factors (Werner 2010) lower the dual bound U to their fixed points (about 102.5 "
     "and 102.45) while ICM and the forest moves, which treat each factor as a term "
     "of one node at a time, raise the energy to about 98 and 97.4 in 200 sweeps; "
     "TRW-S refuses the model (pairwise only).",
     kFactorGrid,
     {{"mplp", {{"max_iterations", "200"}, {"max_seconds", "0"}}},
      {"diffusion", {{"max_iterations", "200"}, {"max_seconds", "0"}}}},
     {{0, "",
       "A 12 x 12 grid, 3 labels, a random ternary factor on three corners of each cell, "
       "no pairwise edges."},
      {1, "", "MPLP and diffusion pass messages from each factor to its variables."},
      {20, "",
       "Both bounds settle near 102.5; ICM and the forest moves raise the energy, one "
       "node of each factor at a time."},
      {0, "finished", "A gap of 4.5 to 5 remains: the LP of this model is loose."}}},
    {"map_stereo",
     "Stereo on Tsukuba: TRW-S vs MPLP",
     "Disparities of the Middlebury Tsukuba pair (384 x 288 pixels, 16 disparities, "
     "truncated-linear smoothness; map_stereo_tsukuba). The view shows the left "
     "image beside the disparity map of each run (brighter: nearer). TRW-S lowers the "
     "dual bound much faster than MPLP and its labeling gets about 95% of the "
     "pixels with a known true disparity right to within 1 (bad_pixels in the "
     "summary and the status line).",
     kStereoTsukuba,
     {{"trws", {{"max_iterations", "30"}, {"max_seconds", "0"}}},
      {"mplp", {{"max_iterations", "30"}, {"max_seconds", "0"}}}},
     {{0, "", "Tsukuba: 384 x 288 pixels, 16 disparities, truncated-linear smoothness."},
      {1, "", "Each run's disparity map (brighter: nearer) beside the left image."},
      {3, "", "TRW-S lowers the dual bound much faster than MPLP."},
      {10, "",
       "About 95 % of the pixels get within 1 of the true disparity (bad_pixels in the "
       "status line)."},
      {0, "finished", "Done: compare the bounds and the disparity maps."}}},
    {"map_image",
     "Potts segmentation of an image: TRW-S",
     "The left view of Tsukuba segmented into 3 grey levels (map_potts_image): each "
     "pixel prefers the level nearest to its grey value, neighbours are rewarded by "
     "the Potts weight 20 for agreeing. The view shows the image beside the "
     "labeling in the levels' greys; in 30 sweeps TRW-S's bound and labeling meet to "
     "within 4 parts in 10,000 (6 in 100,000 after 100). Other images: File > Open "
     "data file with "
     "a PNG, PGM or PPM image, or the problem options image, labels, mode (grey or "
     "colour k-means "
     "clusters) and smoothness.",
     kPottsImage,
     {{"trws", {{"max_iterations", "30"}, {"max_seconds", "0"}}}},
     {{0, "",
       "Tsukuba's left image in 3 grey levels: each pixel prefers the level nearest its "
       "grey."},
      {1, "", "TRW-S sweeps: neighbours are rewarded for agreeing, regions form."},
      {5, "", "The bound and the labeling's energy close in."},
      {0, "finished", "In 30 sweeps bound and labeling meet to within 4 parts in 10,000."}}},
};

class MapFamily final : public Family {
  public:
    MapFamily() {
        for (const auto& file : builtinUaiFiles()) {
            const std::string name(file.name);
            const PairwiseModel m =
                PairwiseModel::fromTables(parseUai(file.bytes, "builtin:" + name));
            addProblem({kMapPrefix + lowerCase(name),
                        {},
                        name + " (UAI 2014): " + std::to_string(m.variables()) + " variables, " +
                            labelText(m) + ", " + std::to_string(m.edgeCount()) + " edges",
                        builtinDescription(name),
                        m.variables()});
        }
        addProblems(kGeneratedProblems);
        addSolvers(kMapSolvers);
        addSnapshotCodec(
            snapshotCodec<MapSnapshot, encodeMapSnapshot, decodeMapSnapshot>(8, "MAP"));
        addDemos(kMapDemos);
    }

    std::string name() const override { return "map"; }
    std::string title() const override { return "MAP inference (LP relaxation)"; }
    Sense sense() const override { return Sense::Maximize; }
    BoundLabels boundLabels() const override { return {"dual bound U", "E(best labeling)"}; }

    std::vector<OptionInfo> problemOptions() const override {
        return describeOptions<MapProblemOptions>();
    }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                           std::string* why) const override {
        MapProblemOptions o;
        if (!assignOptions(o, problemOptions, why) || !o.isValidFor(name, why)) return nullptr;
        const auto& files = builtinUaiFiles();
        const auto& results = builtinUaiResults();
        return refusingThrows(why, [&]() -> ProblemPtr {
            for (const auto& info : problems()) {
                if (info.name != name) continue;
                if (name == kRandomGrid)
                    return generatedProblem(randomGrid(o.grid()), info, "random_grid", "generated",
                                            "random_grid");
                if (name == kCompleteGraph)
                    return generatedProblem(completeGraph(o.complete()), info, "complete_graph",
                                            "generated", "complete_graph");
                if (name == kFactorGrid)
                    return generatedProblem(cplab::factorGrid(o.factorGrid()), info, "factor_grid",
                                            "generated", "factor_grid");
                if (name == kPottsImage) return imageProblem(o.image, info, o);
                if (name == kStereoTsukuba) return stereoTsukuba(info, o);
                for (std::size_t k = 0; k < files.size(); ++k) {
                    const std::string instance(files[k].name);
                    if (kMapPrefix + lowerCase(instance) != name) continue;
                    const BuiltinFile* result = nullptr;
                    for (const auto& r : results)
                        if (r.name == files[k].name) result = &r;
                    const std::string source = "builtin:" + instance;
                    return makeMapProblem(parseUai(files[k].bytes, source), info, instance, source,
                                          {}, o, result);
                }
            }
            throw std::invalid_argument("unknown map problem '" + name + "'");
        });
    }

    std::vector<DataKind> dataKinds() const override { return {DataKind::Model, DataKind::Image}; }

    ProblemPtr loadFile(const DataSource& source, const OptionValues& problemOptions,
                        std::string* why) const override {
        MapProblemOptions o;
        if (!assignOptions(o, problemOptions, why)) return nullptr;
        const std::string& path = source.path;
        if (source.dataFormat().kind == DataKind::Image) {
            if (!o.isValidFor(kPottsImage, why)) return nullptr;
            const std::string name = std::filesystem::path(path).stem().string();
            const ProblemInfo info{name, "map", "Potts " + o.mode + " labeling of " + path,
                                   "Potts denoising / segmentation of the image " + path + " (" +
                                       std::to_string(o.labels) + " " +
                                       (o.mode == "grey" ? "grey levels" : "colour clusters") +
                                       ", smoothness " + formatReal(o.smoothness) + ").",
                                   0};
            return refusingThrows(why, [&] { return imageProblem(path, info, o); });
        }
        return refusingThrows(why, [&] {
            UaiTables tables = readModel(source);
            const std::string name = uaiInstanceName(path);
            const ProblemInfo info{
                name, "map",
                std::to_string(tables.cardinalities.size()) + " variables, " +
                    std::to_string(tables.pairs.size()) + " edges" +
                    (tables.factors.empty() ? std::string()
                                            : ", " + std::to_string(tables.factors.size()) +
                                                  " factors of 3+ variables") +
                    ", from " + path,
                "Model loaded from " + path + ".", 0};
            return makeMapProblem(std::move(tables), info, name, path, path, o, nullptr);
        });
    }

    bool writesLabelings() const override { return true; }

    // The best labeling found, in the UAI result format (one label per variable, clamped
    // variables included).
    bool writeLabeling(const Solver& solver, const std::string& path,
                       std::string* why) const override {
        const auto* mp = dynamic_cast<const MessagePassingSolver*>(&solver);
        if (!mp) {
            if (why) *why = "--labeling: solver '" + solver.name() + "' is not a map solver";
            return false;
        }
        if (mp->bestLabeling().empty()) {
            if (why) *why = path + ": no labeling was decoded (the run made no step)";
            return false;
        }
        // E = −inf: every labeling found has probability zero; it is no answer to write.
        if (mp->lastRecord().lower == -std::numeric_limits<double>::infinity()) {
            if (why)
                *why = path +
                       ": not written: no labeling of non-zero probability was found (energy "
                       "-inf)";
            return false;
        }
        return refusingThrows(why, [&] {
            writeUaiResult(path, mp->bestLabeling());
            return true;
        });
    }

  private:
    static std::string builtinDescription(const std::string& name) {
        if (name == "Grids_26")
            return "A binary 20 x 20 grid with wrap-around edges (a torus) and couplings of "
                   "both signs, from the UAI 2014 inference competition; its LP relaxation is "
                   "not tight. The competition's reference labeling (.MAP) is reported, not "
                   "certified optimal (see resources/datasets/README.md).";
        if (name == "Segmentation_12")
            return "Binary segmentation of an image into 231 superpixels (edges between "
                   "touching ones), from the UAI 2014 inference competition. The competition's "
                   "reference labeling (.MAP) is reported, not certified optimal (see "
                   "resources/datasets/README.md).";
        return "A UAI 2014 inference competition instance (see resources/datasets/README.md).";
    }
};

}  // namespace

const Family& mapFamily() {
    static const MapFamily family;
    return family;
}

}  // namespace cplab
