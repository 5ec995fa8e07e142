// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a SparseSnapshot (sparse_snapshot_codec.h).
#include "sparse_snapshot_codec.h"

#include "kernel/kernel_snapshot_codec.h"
#include "sparse_model.h"

namespace cplab {

namespace {

void checkSizes(ByteReader& in, const SparseSnapshot& s) {
    const auto d = static_cast<std::size_t>(s.train->dimension());
    const int m = s.train->size();
    in.expectSize(static_cast<std::size_t>(s.xvs.cols()), d, "the expansion vectors' features",
                  s.xvs.rows() == 0);
    in.expectSize(static_cast<std::size_t>(s.beta.size()), static_cast<std::size_t>(s.xvs.rows()),
                  "beta");
    for (const Eigen::MatrixXd& Z : s.trail)
        in.expectSize(static_cast<std::size_t>(Z.cols()), d, "a trail entry's features",
                      Z.rows() == 0);
    in.expectSize(s.trailIterations.size(), s.trail.size(), "the trail's iterations");
    for (int i : s.fullSupportVectors)
        if (!in.expect(i >= 0 && i < m, "support vector " + std::to_string(i))) return;
}

}  // namespace

void encodeSparseSnapshot(const SparseSnapshot& s, ByteWriter& out) {
    out.string(s.kernelLabel);
    out.matrix(s.xvs);
    out.vector(s.beta);
    for (double v : {s.bias, s.objective, s.gradientNorm})
        out.f64(v);
    out.count(s.trail.size());
    for (const Eigen::MatrixXd& Z : s.trail)
        out.matrix(Z);
    out.ints(s.trailIterations);
    out.ints(s.fullSupportVectors);
    const bool classifier = s.classifier && !s.classifier->specs.empty();
    out.boolean(classifier);
    if (classifier) {
        encodeKernelSpec(s.classifier->specs.front(), out);
        out.doubles(s.classifier->classes);
    }
    encodeDecisionGrid(s.grid, out);
    out.f64(s.trainError);
    out.f64(s.testError);
}

void decodeSparseSnapshot(ByteReader& in, const SparseSnapshot& base, SparseSnapshot& s) {
    s.train = base.train;
    s.kernelLabel = in.string();
    s.xvs = in.matrix();
    s.beta = in.vector();
    for (double* v : {&s.bias, &s.objective, &s.gradientNorm})
        *v = in.f64();
    s.trail.resize(in.count(16));
    for (Eigen::MatrixXd& Z : s.trail)
        Z = in.matrix();
    s.trailIterations = in.ints();
    s.fullSupportVectors = in.ints();
    const bool classifier = in.boolean();
    KernelSpec spec;
    std::vector<double> classes;
    if (classifier) {
        decodeKernelSpec(in, static_cast<int>(s.xvs.cols()), spec);
        classes = in.doubles();
    }
    decodeDecisionGrid(in, s.grid);
    s.trainError = in.f64();
    s.testError = in.f64();
    if (!in.ok()) return;
    if (s.train) checkSizes(in, s);
    in.expect(spec.type != KernelType::Precomputed, "a precomputed kernel over expansion vectors");
    if (in.ok() && classifier)
        s.classifier = std::make_shared<const KernelClassifier>(
            sparseClassifier(spec, s.xvs, s.beta, s.bias, classes));
}

}  // namespace cplab
