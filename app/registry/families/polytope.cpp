// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/polytope.h"

#include "polytope/frank_wolfe.h"
#include "polytope/frank_wolfe_snapshot_codec.h"

namespace cplab {

SummaryFields PolytopeData::summary() const {
    const Eigen::Vector2d x = polytope->minimizer();
    if (!polytope->isQuadratic()) {
        // A typed f's minimiser is computed, not known: named so, and absent when not computed.
        if (!x.allFinite()) return {};
        return {{"f_star_computed", polytope->value(x)},
                {"x_star_computed", std::vector<double>{x.x(), x.y()}}};
    }
    return {{"f_star", polytope->value(x)}, {"x_star", std::vector<double>{x.x(), x.y()}}};
}

std::optional<double> PolytopeData::knownOptimum() const {
    // The bounds plot's line is a known optimum: a typed f's computed one is not drawn there.
    if (!polytope->isQuadratic()) return std::nullopt;
    return polytope->minimumValue();
}

namespace {

// The problem 'typed_polygon' (issue 49): the user's own smooth function over the user's own
// polygon; its minimiser is computed (polytope_problem.h), not known in closed form.
constexpr const char* kTypedPolygonProblem = "typed_polygon";

struct PolytopeProblemOptions {
    std::string function = "(x - 4)^2 + 2*(y - 3)^2";
    std::string polygon = "0,0 4,0 3,3 0,2";

    void visit(OptionVisitor& v) {
        v.text("function", function,
               "the problem 'typed_polygon' only: a smooth convex f of x and y with numbers, "
               "+ - * / ^, sqrt, exp, log, pi, e; e.g. (x - 1)^2 + exp(y)");
        v.text("polygon", polygon,
               "the problem 'typed_polygon' only: the convex polygon's vertices x,y separated "
               "by blanks, e.g. 0,0 4,0 3,3 0,2; Frank-Wolfe starts at the first");
    }
};

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
        addProblem({kTypedPolygonProblem,
                    {},
                    "Your own function over your polygon",
                    "A smooth convex function of x and y you type, over a convex polygon you "
                    "give by its vertices (problem options function and polygon); its minimiser "
                    "is computed, not known in closed form.",
                    2});
    }

    std::vector<OptionInfo> problemOptions() const override {
        return describeOptions<PolytopeProblemOptions>();
    }

    std::string name() const override { return "polytope"; }
    std::string title() const override { return "Smooth minimisation over a polygon"; }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                           std::string* why) const override {
        PolytopeProblemOptions o;
        if (!assignOptions(o, problemOptions, why)) return nullptr;
        if (name == kTypedPolygonProblem) return typedProblem(o, why);
        for (const auto& info : problems()) {
            if (info.name != name) continue;
            auto data = std::make_shared<PolytopeData>();
            data->polytope = makePolytopeProblem(name);
            return std::make_shared<ProblemInstance>(ProblemInstance{info, std::move(data)});
        }
        if (why) *why = "unknown polytope problem '" + name + "'";
        return nullptr;
    }

  private:
    ProblemPtr typedProblem(const PolytopeProblemOptions& o, std::string* why) const {
        auto polytope = makeTypedPolytopeProblem(o.function, o.polygon, why);
        if (!polytope) return nullptr;
        ProblemInfo info;
        for (const auto& p : problems())
            if (p.name == kTypedPolygonProblem) info = p;
        info.description = polytope->description;
        auto data = std::make_shared<PolytopeData>();
        data->polytope = std::move(polytope);
        return std::make_shared<ProblemInstance>(ProblemInstance{info, std::move(data)});
    }
};

}  // namespace

const Family& polytopeFamily() {
    static const PolytopeFamily family;
    return family;
}

}  // namespace cplab
