// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a FrankWolfeSnapshot (frank_wolfe_snapshot_codec.h).
#include "frank_wolfe_snapshot_codec.h"

namespace cplab {

void encodeFrankWolfeSnapshot(const FrankWolfeSnapshot& s, ByteWriter& out) {
    out.points(s.iterates);
    out.vector2(s.gradient);
    out.i32(s.fwVertex);
    out.i32(s.awayVertex);
    out.boolean(s.awayStep);
    out.boolean(s.dropStep);
    out.f64(s.stepSize);
    out.f64(s.fwGap);
    out.doubles(s.weights);
}

void decodeFrankWolfeSnapshot(ByteReader& in, const FrankWolfeSnapshot& base,
                              FrankWolfeSnapshot& s) {
    s.view = base.view;
    s.iterates = in.points();
    s.gradient = in.vector2();
    s.fwVertex = in.i32();
    s.awayVertex = in.i32();
    s.awayStep = in.boolean();
    s.dropStep = in.boolean();
    s.stepSize = in.f64();
    s.fwGap = in.f64();
    s.weights = in.doubles();
    if (!in.ok() || !s.view || !s.view->problem) return;
    const int vertices = static_cast<int>(s.view->problem->vertices.size());
    in.expect(s.fwVertex >= -1 && s.fwVertex < vertices,
              "vertex " + std::to_string(s.fwVertex) + " of " + std::to_string(vertices));
    in.expect(s.awayVertex >= -1 && s.awayVertex < vertices,
              "vertex " + std::to_string(s.awayVertex) + " of " + std::to_string(vertices));
    in.expectSize(s.weights.size(), static_cast<std::size_t>(vertices), "the vertex weights", true);
}

}  // namespace cplab
