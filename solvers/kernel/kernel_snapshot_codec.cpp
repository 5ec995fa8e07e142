// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a KernelSnapshot and of the kernel parts other codecs share
// (kernel_snapshot_codec.h).
#include "kernel_snapshot_codec.h"

namespace cplab {

void encodeContour(const ContourLevel& level, ByteWriter& out) {
    out.f64(level.level);
    out.count(level.segments.size());
    for (const auto& [a, b] : level.segments) {
        out.vector2(a);
        out.vector2(b);
    }
}

void decodeContour(ByteReader& in, ContourLevel& level) {
    level.level = in.f64();
    level.segments.resize(in.count(32));
    for (auto& [a, b] : level.segments) {
        a = in.vector2();
        b = in.vector2();
    }
}

void encodeKernelSpec(const KernelSpec& spec, ByteWriter& out) {
    out.u8(static_cast<std::uint8_t>(spec.type));
    out.i32(spec.degree);
    out.f64(spec.offset);
    out.f64(spec.gamma);
    out.ints(spec.features);
}

void decodeKernelSpec(ByteReader& in, int dimension, KernelSpec& spec) {
    const std::uint8_t type = in.u8();
    in.expect(type <= static_cast<std::uint8_t>(KernelType::Precomputed),
              "a kernel type of " + std::to_string(type));
    spec.type = static_cast<KernelType>(type);
    spec.degree = in.i32();
    spec.offset = in.f64();
    spec.gamma = in.f64();
    spec.features = in.ints();
    in.expect(spec.degree >= 1, "a polynomial degree below 1");
    for (int feature : spec.features) {
        if (!in.expect(
                feature >= 0 && feature < dimension,
                "kernel feature " + std::to_string(feature) + " of " + std::to_string(dimension)))
            break;
    }
}

void encodeDecisionGrid(const DecisionGrid& grid, ByteWriter& out) {
    for (double v : {grid.x0, grid.x1, grid.y0, grid.y1})
        out.f64(v);
    out.i32(grid.n);
    out.doubles(grid.values);
    encodeContour(grid.zero, out);
    out.count(grid.margins.size());
    for (const ContourLevel& level : grid.margins)
        encodeContour(level, out);
}

void decodeDecisionGrid(ByteReader& in, DecisionGrid& grid) {
    for (double* v : {&grid.x0, &grid.x1, &grid.y0, &grid.y1})
        *v = in.f64();
    grid.n = in.i32();
    grid.values = in.doubles();
    in.expect(grid.n >= 0, "a negative grid size");
    in.expectSize(grid.values.size(),
                  static_cast<std::size_t>(std::max(grid.n, 0)) *
                      static_cast<std::size_t>(std::max(grid.n, 0)),
                  "the grid's values");
    decodeContour(in, grid.zero);
    grid.margins.resize(in.count(16));
    for (ContourLevel& level : grid.margins)
        decodeContour(in, level);
}

namespace {

// Everything but the support vectors, which decodeClassifier takes from the training set.
void encodeClassifier(const KernelClassifier& model, ByteWriter& out) {
    out.count(model.specs.size());
    for (const KernelSpec& spec : model.specs)
        encodeKernelSpec(spec, out);
    out.u8(static_cast<std::uint8_t>(model.normalization));
    out.doubles(model.scales);
    out.vector(model.beta);
    out.ints(model.serials);
    out.vector(model.coefficients);
    out.f64(model.bias);
    out.doubles(model.classes);
    out.i32(model.features);
}

// The classifier over `train` with K kernels (as makeClassifier builds it); null and `in`
// failed on bad bytes.
std::shared_ptr<const KernelClassifier> decodeClassifier(ByteReader& in, const Dataset& train,
                                                         std::size_t K) {
    auto model = std::make_shared<KernelClassifier>();
    model->specs.resize(in.count(29));
    for (KernelSpec& spec : model->specs)
        decodeKernelSpec(in, train.dimension(), spec);
    const std::uint8_t normalization = in.u8();
    in.expect(normalization <= static_cast<std::uint8_t>(KernelNormalization::Trace),
              "a kernel normalisation of " + std::to_string(normalization));
    model->normalization = static_cast<KernelNormalization>(normalization);
    model->scales = in.doubles();
    model->beta = in.vector();
    model->serials = in.ints();
    model->coefficients = in.vector();
    model->bias = in.f64();
    model->classes = in.doubles();
    model->features = in.i32();
    in.expect(!model->specs.empty(), "a classifier without kernels");
    in.expectSize(model->specs.size(), K, "the classifier's kernels");
    in.expectSize(model->scales.size(), K, "the classifier's kernel scales");
    in.expectSize(static_cast<std::size_t>(model->beta.size()), K, "the classifier's weights");
    in.expectSize(static_cast<std::size_t>(model->coefficients.size()), model->serials.size(),
                  "the classifier's coefficients");
    for (int serial : model->serials) {
        if (!in.expect(
                serial >= 0 && serial < train.size(),
                "support vector " + std::to_string(serial) + " of " + std::to_string(train.size())))
            break;
    }
    if (!in.ok()) return nullptr;
    const bool precomputed = model->specs.front().type == KernelType::Precomputed;
    in.expect(model->features == (precomputed ? train.size() : train.dimension()),
              "a classifier of " + std::to_string(model->features) + " features");
    if (!in.ok()) return nullptr;
    if (!precomputed) model->supportVectors = train.subset(model->serials);
    return model;
}

void encodeDMkl(const KernelSnapshot& s, ByteWriter& out) {
    out.vectors(s.planes);
    out.vectors(s.betaIterates);
    out.doubles(s.dValues);
    out.vector(s.lpMinimiser);
    out.f64(s.theta);
}

void decodeDMkl(ByteReader& in, KernelSnapshot& s) {
    s.planes = in.vectors();
    s.betaIterates = in.vectors();
    s.dValues = in.doubles();
    s.lpMinimiser = in.vector();
    s.theta = in.f64();
}

void checkSizes(ByteReader& in, const KernelSnapshot& s) {
    const std::size_t K = s.setup->specs.size();
    const auto m = static_cast<std::size_t>(s.setup->train->size());
    in.expectSize(s.kernelLabels.size(), K, "the kernel labels");
    in.expectSize(static_cast<std::size_t>(s.beta.size()), K, "beta");
    in.expectSize(static_cast<std::size_t>(s.alpha.size()), m, "alpha", true);
    in.expectSize(static_cast<std::size_t>(s.lpMinimiser.size()), K, "the LP's beta", true);
    in.expectSize(s.dValues.size(), s.betaIterates.size(), "the values of D");
    for (const auto* list : {&s.planes, &s.betaIterates})
        for (const Eigen::VectorXd& v : *list)
            in.expectSize(static_cast<std::size_t>(v.size()), K, "a plane or beta iterate");
}

}  // namespace

void encodeKernelSnapshot(const KernelSnapshot& s, ByteWriter& out) {
    out.strings(s.kernelLabels);
    out.vector(s.beta);
    out.vector(s.alpha);
    out.f64(s.bias);
    out.boolean(s.classifier != nullptr);
    if (s.classifier) encodeClassifier(*s.classifier, out);
    encodeDecisionGrid(s.grid, out);
    out.f64(s.trainError);
    out.f64(s.testError);
    encodeDMkl(s, out);
}

void decodeKernelSnapshot(ByteReader& in, const KernelSnapshot& base, KernelSnapshot& s) {
    s.setup = base.setup;
    s.kernelLabels = in.strings();
    s.beta = in.vector();
    s.alpha = in.vector();
    s.bias = in.f64();
    if (in.boolean()) {
        if (!in.expect(s.setup && s.setup->train, "a classifier without the run's SVM setup"))
            return;
        s.classifier = decodeClassifier(in, *s.setup->train, s.setup->specs.size());
    }
    decodeDecisionGrid(in, s.grid);
    s.trainError = in.f64();
    s.testError = in.f64();
    decodeDMkl(in, s);
    if (in.ok() && s.setup && s.setup->train) checkSizes(in, s);
}

}  // namespace cplab
