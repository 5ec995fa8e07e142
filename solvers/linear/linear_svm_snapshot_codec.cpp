// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a LinearSvmSnapshot (linear_svm_snapshot_codec.h).
#include "linear_svm_snapshot_codec.h"

namespace cplab {

void encodeLinearSvmSnapshot(const LinearSvmSnapshot& s, ByteWriter& out) {
    out.boolean(s.bias);
    out.i32(s.outputs);
    out.f64(s.lambda);
    out.vector(s.wBest);
    out.vector(s.wModel);
    out.vector(s.wCut);
    out.i32(s.planes);
    out.i32(s.activePlanes);
    out.f64(s.trainError);
    out.f64(s.testError);
    out.doubles(s.ks);
    out.doubles(s.fks);
    out.doubles(s.breakpoints);
    out.f64(s.kChosen);
    out.f64(s.fAtChosen);
}

void decodeLinearSvmSnapshot(ByteReader& in, const LinearSvmSnapshot& base, LinearSvmSnapshot& s) {
    s.train = base.train;
    s.bias = in.boolean();
    s.outputs = in.i32();
    s.lambda = in.f64();
    s.wBest = in.vector();
    s.wModel = in.vector();
    s.wCut = in.vector();
    s.planes = in.i32();
    s.activePlanes = in.i32();
    s.trainError = in.f64();
    s.testError = in.f64();
    s.ks = in.doubles();
    s.fks = in.doubles();
    s.breakpoints = in.doubles();
    s.kChosen = in.f64();
    s.fAtChosen = in.f64();
    if (!in.ok()) return;
    in.expect(s.bias == base.bias && s.outputs == base.outputs,
              "a model layout other than the run's");
    in.expect(s.planes >= 0 && s.activePlanes >= 0, "a negative plane count");
    in.expectSize(s.fks.size(), s.ks.size(), "the line search's values");
    if (!s.train) return;
    const auto n = static_cast<std::size_t>(base.wBest.size());
    in.expectSize(static_cast<std::size_t>(s.wBest.size()), n, "w best", true);
    in.expectSize(static_cast<std::size_t>(s.wModel.size()), n, "w model", true);
    in.expectSize(static_cast<std::size_t>(s.wCut.size()), n, "w cut", true);
}

}  // namespace cplab
