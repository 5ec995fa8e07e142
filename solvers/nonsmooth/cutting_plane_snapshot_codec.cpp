// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a CuttingPlaneSnapshot (cutting_plane_snapshot_codec.h).
#include "cutting_plane_snapshot_codec.h"

#include "cutting_plane_model.h"

namespace cplab {

namespace {

void checkDimensions(ByteReader& in, const CuttingPlaneSnapshot& s) {
    const std::size_t n = static_cast<std::size_t>(s.function->dimension);
    for (const CuttingPlane& plane : s.planes) {
        in.expectSize(static_cast<std::size_t>(plane.point.size()), n, "a plane's point");
        in.expectSize(static_cast<std::size_t>(plane.gradient.size()), n, "a plane's gradient");
    }
    for (const Eigen::VectorXd& x : s.iterates)
        in.expectSize(static_cast<std::size_t>(x.size()), n, "an iterate");
    for (const Eigen::VectorXd* x : {&s.candidate, &s.modelMinimizer, &s.best, &s.proxCenter})
        in.expectSize(static_cast<std::size_t>(x->size()), n, "a point", true);
    in.expectSize(s.serious.size(), s.iterates.size(), "the serious-step flags", true);
    in.expectSize(s.modelCurve.size(), s.function->xs.size(), "the model curve", true);
    in.expectSize(s.proxCurve.size(), s.function->xs.size(), "the prox curve", true);
}

}  // namespace

void encodeCuttingPlaneSnapshot(const CuttingPlaneSnapshot& s, ByteWriter& out) {
    out.count(s.planes.size());
    for (const CuttingPlane& plane : s.planes) {
        out.vector(plane.point);
        out.f64(plane.value);
        out.vector(plane.gradient);
    }
    out.vectors(s.iterates);
    out.vector(s.candidate);
    out.f64(s.candidateModel);
    out.vector(s.modelMinimizer);
    out.f64(s.modelMinimum);
    out.vector(s.best);
    out.f64(s.bestValue);
    out.boolean(s.bundle);
    out.vector(s.proxCenter);
    out.f64(s.nu);
    out.f64(s.predictedDecrease);
    out.count(s.serious.size());
    for (bool serious : s.serious)
        out.boolean(serious);
    out.doubles(s.modelCurve);
    out.doubles(s.proxCurve);
    out.count(s.modelCells.size());
    for (const std::vector<Eigen::Vector2d>& cell : s.modelCells)
        out.points(cell);
}

void decodeCuttingPlaneSnapshot(ByteReader& in, const CuttingPlaneSnapshot& base,
                                CuttingPlaneSnapshot& s) {
    s.function = base.function;
    s.planes.resize(in.count(24));
    for (CuttingPlane& plane : s.planes) {
        plane.point = in.vector();
        plane.value = in.f64();
        plane.gradient = in.vector();
    }
    s.iterates = in.vectors();
    s.candidate = in.vector();
    s.candidateModel = in.f64();
    s.modelMinimizer = in.vector();
    s.modelMinimum = in.f64();
    s.best = in.vector();
    s.bestValue = in.f64();
    s.bundle = in.boolean();
    s.proxCenter = in.vector();
    s.nu = in.f64();
    s.predictedDecrease = in.f64();
    s.serious.resize(in.count(1));
    for (std::size_t i = 0; i < s.serious.size(); ++i)
        s.serious[i] = in.boolean();
    s.modelCurve = in.doubles();
    s.proxCurve = in.doubles();
    s.modelCells.resize(in.count(8));
    for (std::vector<Eigen::Vector2d>& cell : s.modelCells)
        cell = in.points();
    if (in.ok() && s.function) checkDimensions(in, s);
    // Not in the bytes: a run stops at the first plane above f, so it is the last plane's,
    // found again from the planes (the format stays the same).
    if (in.ok()) s.planeAboveF = lastPlaneAboveF(s.planes);
}

}  // namespace cplab
