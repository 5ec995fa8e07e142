// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/polytope.h"

#include "polytope/frank_wolfe.h"
#include "polytope/frank_wolfe_snapshot_codec.h"

namespace cplab {

SummaryFields PolytopeData::summary() const {
    const Eigen::Vector2d x = polytope->minimizer();
    return {{"f_star", polytope->value(x)}, {"x_star", std::vector<double>{x.x(), x.y()}}};
}

std::optional<double> PolytopeData::knownOptimum() const {
    return polytope->minimumValue();
}

namespace {

std::shared_ptr<const PolytopeProblem> polytopeOf(const PolytopeData& data) {
    return data.polytope;
}

// Frank-Wolfe's options are all its own choices (the form's Method group).
const std::vector<SolverEntry> kPolytopeSolvers = {
    solverEntry<FrankWolfeOptions, FrankWolfeSolver>(
        {.name = "frank_wolfe",
         .title = "Frank-Wolfe",
         .description =
             "Conditional gradient over a polygon with its duality (FW) gap; standard or "
             "line-search steps, optional away steps."},
        &polytopeOf),
};

// The demo with its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kPolytopeDemos = {
    {"frank_wolfe",
     "Frank-Wolfe vs away steps",
     "Minimiser on an edge of a triangle: plain Frank-Wolfe zig-zags, away steps "
     "converge linearly; the FW gap certifies both.",
     "triangle_edge",
     {{"frank_wolfe", {{"variant", "plain"}}}, {"frank_wolfe", {{"variant", "away"}}}},
     {{0, "", "The minimiser lies on an edge of the triangle: no vertex is optimal."},
      {1, "",
       "Each step moves toward the vertex that minimises the linearisation; the FW gap "
       "bounds f - f*."},
      {5, "",
       "Plain Frank-Wolfe zig-zags between the edge's two vertices: its gap falls like "
       "1/t."},
      {10, "", "The away-step run takes weight off the third vertex and converges linearly."},
      {0, "finished", "Both runs certified by their Frank-Wolfe gaps."}}},
};

class PolytopeFamily final : public Family {
  public:
    PolytopeFamily() {
        for (const auto& name : polytopeProblemNames()) {
            const auto p = makePolytopeProblem(name);
            addProblem({name, {}, p->title, p->description, 2});
        }
        addSolvers(kPolytopeSolvers);
        addSnapshotCodec(
            snapshotCodec<FrankWolfeSnapshot, encodeFrankWolfeSnapshot, decodeFrankWolfeSnapshot>(
                2, "Frank-Wolfe"));
        addDemos(kPolytopeDemos);
    }

    std::string name() const override { return "polytope"; }
    std::string title() const override { return "Smooth minimisation over a polygon"; }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& /*problemOptions*/,
                           std::string* why) const override {
        for (const auto& info : problems()) {
            if (info.name != name) continue;
            auto data = std::make_shared<PolytopeData>();
            data->polytope = makePolytopeProblem(name);
            return std::make_shared<ProblemInstance>(ProblemInstance{info, std::move(data)});
        }
        if (why) *why = "unknown polytope problem '" + name + "'";
        return nullptr;
    }
};

}  // namespace

const Family& polytopeFamily() {
    static const PolytopeFamily family;
    return family;
}

}  // namespace cplab
