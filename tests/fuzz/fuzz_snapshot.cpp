// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the snapshot bytes of sessions (decodeSnapshot, app/registry/snapshot_codec.h). The first
// byte chooses one of eight small base snapshots, one per snapshot type (a sampled 1-D function, a
// square, a 2-D dataset, two words, a three-variable model, ...), and with its high bit decodes
// relative to a previous snapshot (the base itself); the rest are the bytes.
// Expected: null with a message that starts "snapshot bytes: ", or a snapshot. Findings: a
// crash or sanitizer report, any exception (decodeSnapshot never throws), a message of another
// form, an accepted snapshot that does not encode back to the same bytes, one that does not
// share the base's data, and a kernel or sparse classifier whose decisions on the base's
// training set fail.
//
// CPLAB_FUZZ_WRITE_SEEDS=<folder> writes one valid input per type there (the seed corpus in
// corpus/snapshot was made so) before fuzzing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "kernel/kernel_snapshot.h"
#include "kernel/mkl_path_snapshot.h"
#include "linear/linear_svm_snapshot.h"
#include "map/map_snapshot.h"
#include "nonsmooth/cutting_plane_view.h"
#include "polytope/frank_wolfe_snapshot.h"
#include "snapshot_codec.h"
#include "sparse/sparse_model.h"
#include "sparse/sparse_snapshot.h"
#include "structured/structured_snapshot.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

// Four 2-D examples, two per class.
std::shared_ptr<const Dataset> squareData() {
    auto data = std::make_shared<Dataset>();
    data->name = "square";
    data->dense = Dataset::DenseMatrix(4, 2);
    data->dense << 0, 0, 1, 0, 0, 1, 1, 1;
    data->labels = Eigen::Vector4d(-1, 1, 1, -1);
    return data;
}

// Common fields of a sample: solver, a record, a status, lines and an event.
template <class T>
std::shared_ptr<T> sample(const std::string& solver) {
    auto s = std::make_shared<T>();
    s->solver = solver;
    s->record.iteration = 2;
    s->record.upper = 1.5;
    s->record.lower = 0.5;
    s->record.gap = 1.0;
    s->record.extra = {0.25, -1.0};
    s->executedLines = {0, 2};
    s->events = {"plane added"};
    return s;
}

std::vector<SnapshotPtr> cuttingPlaneAndFrankWolfe() {
    auto function = std::make_shared<FunctionView>();
    function->dimension = 1;
    function->box.lower = Eigen::VectorXd::Constant(1, -1.0);
    function->box.upper = Eigen::VectorXd::Constant(1, 1.0);
    function->xs = {-1, 0, 1};
    function->fs = {1, 0, 1};
    auto cp = sample<CuttingPlaneSnapshot>("kelley");
    cp->function = function;
    cp->planes = {{Eigen::VectorXd::Constant(1, 1.0), 1.0, Eigen::VectorXd::Constant(1, 1.0)}};
    cp->iterates = {Eigen::VectorXd::Constant(1, 1.0)};
    cp->modelCurve = {-1, 0, 1};
    cp->modelCells = {{Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1)}};

    auto polygon = std::make_shared<PolytopeProblem>();
    polygon->vertices = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    auto view = std::make_shared<PolytopeView>();
    view->problem = polygon;
    auto fw = sample<FrankWolfeSnapshot>("frankwolfe");
    fw->view = view;
    fw->iterates = {{0, 0}, {0.5, 0.5}};
    fw->fwVertex = 2;
    fw->weights = {0.5, 0, 0.5, 0};
    return {cp, fw};
}

std::vector<SnapshotPtr> linearKernelAndPath() {
    auto linear = sample<LinearSvmSnapshot>("ocas");
    linear->train = squareData();
    linear->wBest = Eigen::Vector2d(1, -1);
    linear->ks = {0, 1};
    linear->fks = {2, 1};

    auto setup = std::make_shared<KernelSetup>();
    setup->train = squareData();
    KernelSpec gaussian;
    gaussian.type = KernelType::Gaussian;
    setup->specs = {gaussian};
    auto kernel = sample<KernelSnapshot>("silp");
    kernel->setup = setup;
    kernel->kernelLabels = {gaussian.label()};
    kernel->beta = Eigen::VectorXd::Ones(1);
    kernel->alpha = Eigen::Vector4d(1, 1, 0, 0);
    auto classifier = std::make_shared<KernelClassifier>();
    classifier->specs = {gaussian};
    classifier->scales = {1.0};
    classifier->beta = Eigen::VectorXd::Ones(1);
    classifier->serials = {0, 1};
    classifier->coefficients = Eigen::Vector2d(-1, 1);
    classifier->classes = {-1, 1};
    classifier->features = 2;
    classifier->supportVectors = setup->train->subset(classifier->serials);
    kernel->classifier = classifier;
    kernel->grid = decisionGrid(*classifier, *setup->train, 3);

    auto model = std::make_shared<MklPathModel>();
    model->train = squareData();
    auto path = sample<MklPathSnapshot>("mklpath");
    path->model = model;
    path->kernelLabels = {"linear", "gaussian:1"};
    path->eta = Eigen::Vector2d(0.5, 0.5);
    path->alphas = {std::make_shared<const Eigen::VectorXd>(Eigen::Vector4d(1, 0, 0, 1))};
    return {linear, kernel, path};
}

std::vector<SnapshotPtr> structuredSparseAndMap() {
    auto words = std::make_shared<SequenceData>();
    words->features = SequenceData::SparseMatrix(3, 2);
    words->labels = {0, 1, 1};
    words->sequenceStart = {0, 2, 3};
    words->labelNames = {"a", "b"};
    auto structured = sample<StructuredSnapshot>("bcfw");
    structured->labels = 2;
    structured->features = 2;
    structured->labelNames = words->labelNames;
    structured->w = Eigen::VectorXd::Zero(10);
    structured->words = words;
    structured->lattices = {{0, Eigen::MatrixXd::Zero(2, 2), {0, 1}, {0, 0}, {1, 1}}};

    KernelSpec gaussian;
    gaussian.type = KernelType::Gaussian;
    auto sparse = sample<SparseSnapshot>("slmc");
    sparse->train = squareData();
    sparse->xvs = Eigen::MatrixXd::Identity(2, 2);
    sparse->beta = Eigen::Vector2d(1, -1);
    sparse->trail = {sparse->xvs};
    sparse->trailIterations = {2};
    sparse->classifier = std::make_shared<const KernelClassifier>(
        sparseClassifier(gaussian, sparse->xvs, sparse->beta, 0.0, {-1, 1}));

    auto map = sample<MapSnapshot>("mplp");
    map->model = std::make_shared<PairwiseModel>(std::vector<int>{2, 2, 3});
    map->labeling = {0, 1, 2};
    map->disagreeing = {0, 1, 0};
    map->clusters = {{0, 1, 2}};
    return {structured, sparse, map};
}

// The eight samples; a base is the sample's type and shared parts at iteration 0.
const std::vector<SnapshotPtr>& samples() {
    static const std::vector<SnapshotPtr> all = [] {
        std::vector<SnapshotPtr> list = cuttingPlaneAndFrankWolfe();
        for (const auto& part : {linearKernelAndPath(), structuredSparseAndMap()})
            list.insert(list.end(), part.begin(), part.end());
        return list;
    }();
    return all;
}

// The base of `snapshot`'s run: decoding takes the shared parts from it; its own fields do
// not matter (the sample itself serves).
const Snapshot& baseOf(std::size_t k) {
    return *samples()[k % samples().size()];
}

// f on the base's training set (four 2-D rows) from a decoded classifier.
void checkClassifier(const KernelClassifier* model, const Dataset& train) {
    if (!model) return;
    try {
        require(model->decisions(train).size() == train.size(), "decisions of the wrong length");
    } catch (const std::exception& e) {
        require(false, std::string("an accepted classifier's decisions failed: ") + e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* folder = std::getenv("CPLAB_FUZZ_WRITE_SEEDS");
    for (std::size_t k = 0; folder && k < samples().size(); ++k) {
        const std::string bytes = *encodeSnapshot(*samples()[k]);
        std::string why;
        require(decodeSnapshot(bytes, baseOf(k), &why) != nullptr,
                "a seed that does not decode: " + why);
        std::ofstream out(std::string(folder) + "/seed_" + samples()[k]->solver + ".bin",
                          std::ios::binary);
        out << static_cast<char>(k) << bytes;
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const Snapshot& base = baseOf(data[0] & 0x7f);
    // The high bit: decode relative to a previous snapshot of the run (the sample itself).
    const Snapshot* previous = data[0] & 0x80 ? &base : nullptr;
    const std::string_view bytes = asText(data + 1, size - 1);
    std::string why;
    const SnapshotPtr decoded = decodeSnapshot(bytes, base, previous, &why);
    if (!decoded) {
        require(why.starts_with("snapshot bytes: ") && why.size() > 16,
                "a refusal without a message: '" + why + "'");
        return 0;
    }
    require(encodeSnapshot(*decoded, previous) == std::string(bytes), "encode(decode(x)) != x");
    if (auto* k = dynamic_cast<const KernelSnapshot*>(decoded.get())) {
        require(k->setup == static_cast<const KernelSnapshot&>(base).setup, "setup not shared");
        checkClassifier(k->classifier.get(), *k->setup->train);
    } else if (auto* s = dynamic_cast<const SparseSnapshot*>(decoded.get())) {
        require(s->train == static_cast<const SparseSnapshot&>(base).train, "data not shared");
        if (s->xvs.cols() == 2) checkClassifier(s->classifier.get(), *s->train);
    } else if (auto* m = dynamic_cast<const MapSnapshot*>(decoded.get())) {
        require(m->model == static_cast<const MapSnapshot&>(base).model, "model not shared");
    }
    return 0;
}
