// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/nonsmooth.h"

#include <cmath>

#include "nonsmooth/bundle.h"
#include "nonsmooth/cutting_plane_snapshot_codec.h"
#include "nonsmooth/kelley.h"
#include "nonsmooth/test_functions.h"
#include "nonsmooth/typed_function.h"

namespace cplab {

SummaryFields NonsmoothProblem::summary() const {
    const double fStar = function->minimumValue();
    if (std::isnan(fStar)) return {};  // a typed function: no known minimum
    const Eigen::VectorXd x = function->minimizer();
    return {{"f_star", fStar}, {"x_star", std::vector<double>(x.data(), x.data() + x.size())}};
}

std::optional<double> NonsmoothProblem::knownOptimum() const {
    const double fStar = function->minimumValue();
    if (std::isnan(fStar)) return std::nullopt;
    return fStar;
}

namespace {

// The problem 'typed' (issue 49): the user's own function of x (and y) over a box. Its minimum
// is not known in advance, so the family reports none (no f*, no known optimum line).
constexpr const char* kTypedProblem = "typed";

struct NonsmoothProblemOptions {
    std::string function = "max(x^2, 1 - x)";
    std::string domain = "-3:3";

    void visit(OptionVisitor& v) {
        v.text("function", function,
               "the problem 'typed' only: f of x (and y) with numbers, + - * / ^, abs, sqrt, "
               "exp, log, max, min, pi, e; e.g. max(x^2, 1 - x)");
        v.text("domain", domain,
               "the problem 'typed' only: the box, lo:hi for x or lo:hi,lo:hi for x and y");
    }
};

std::shared_ptr<const ConvexFunction> functionOf(const NonsmoothProblem& problem) {
    return problem.function;
}

// The bundle's prox weight is part of what is solved; its descent test's tolerance is rarely
// touched.
const OptionGroups kNonsmoothGroups = {{"nu"}, {"decrease_tolerance"}};

const std::vector<SolverEntry> kNonsmoothSolvers = {
    solverEntry<KelleyOptions, KelleySolver>(
        {.name = "kelley",
         .title = "Kelley cutting planes",
         .description =
             "Cutting-plane method (Alg. 7.2): minimise the piecewise-linear model over the box "
             "by an LP, add the plane at its minimiser.",
         .groups = kNonsmoothGroups},
        &functionOf),
    solverEntry<BundleOptions, BundleSolver>(
        {.name = "bundle",
         .title = "Proximal bundle",
         .description =
             "Proximal bundle method (§7.1.2): the model plus a prox term nu/2 |x - xc|^2; "
             "serious and null steps.",
         .groups = kNonsmoothGroups},
        &functionOf),
};

// The demos, each with its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kNonsmoothDemos = {
    {"kelley",
     "Kelley cutting planes (1-D)",
     "Watch the cutting-plane model of |x - 1| + x^2/2 grow plane by plane while "
     "the upper and lower bounds close.",
     "abs_quad",
     {{"kelley", {}}},
     {{0, "", "One plane at x0: the model is a single line, its minimiser sits on the box's edge."},
      {1, "",
       "Each step minimises the model (an LP), calls the oracle at x_t and adds the plane "
       "there: the new plane cuts off x_t."},
      {3, "", "The planes bracket the kink at x = 1: the lower bound L jumps up."},
      {6, "", "Near the minimum the curved branch needs plane after plane: the gap closes slowly."},
      {0, "finished",
       "Converged: U - L is within epsilon, the model touches f at its minimiser."}}},
    {"kelley_2d",
     "Kelley's zig-zag in 2-D",
     "Kelley's method on an ill-conditioned bowl: iterates jump between far corners "
     "of the model, many planes are wasted.",
     "zigzag_quadratic",
     {{"kelley", {}}},
     {{0, "", "An ill-conditioned bowl: the contours are ellipses stretched along a diagonal."},
      {1, "", "The model's minimiser jumps to a far corner of the box; the new plane cuts it off."},
      {4, "", "Zig-zag: follow the numbered iterates bouncing across the valley."},
      {12, "", "Most planes are never tight again: wasted oracle calls."},
      {0, "finished",
       "Converged, after many more oracle calls than a bundle method needs (see "
       "bundle_vs_kelley)."}}},
    {"bundle_vs_kelley",
     "Bundle vs Kelley (race)",
     "The same bowl, raced: the proximal bundle method's prox term keeps its steps "
     "short and closes the gap with about 30 % fewer oracle calls.",
     "zigzag_quadratic",
     {{"kelley", {}}, {"bundle", {{"nu_rule", "adaptive"}}}},
     {{0, "", "The same bowl, raced: Kelley and the proximal bundle method."},
      {1, "",
       "Kelley jumps to the corners of its model; the prox term keeps the bundle's steps "
       "near its centre."},
      {2, "serious step",
       "A serious step: enough descent, the bundle's prox-centre moves to the trial point."},
      {3, "null step",
       "A null step: too little descent, the prox-centre stays and the new plane enriches "
       "the model."},
      {10, "", "Compare the gap curves per oracle call: the bundle needs about 30 % fewer."},
      {0, "finished",
       "Both certified: compare their oracle calls in the runs' tooltips and the status "
       "line."}}},
    {"bundle_cb3",
     "Proximal bundle on CB3",
     "The classic nonsmooth test CB3: serious steps move the prox-centre, null steps "
     "enrich the model.",
     "cb3",
     {{"bundle", {}}},
     {{0, "", "CB3: the maximum of three smooth functions, nonsmooth at its minimum."},
      {1, "serious step",
       "A serious step: the trial point decreased f enough, the prox-centre moves there."},
      {2, "null step",
       "A null step: too little decrease; the prox-centre stays, the new plane refines the "
       "model."},
      {10, "", "Near the minimum serious steps get rarer: null steps build the model around it."},
      {0, "finished", "Converged: the model's bound and the best value meet within epsilon."}}},
};

class NonsmoothFamily final : public Family {
  public:
    NonsmoothFamily() {
        for (const auto& name : testFunctionNames()) {
            const auto f = makeTestFunction(name);
            addProblem({name, {}, f->title(), f->description(), f->dimension()});
        }
        addSolvers(kNonsmoothSolvers);
        addSnapshotCodec(snapshotCodec<CuttingPlaneSnapshot, encodeCuttingPlaneSnapshot,
                                       decodeCuttingPlaneSnapshot>(1, "cutting-plane"));
        addDemos(kNonsmoothDemos);
        addProblem({kTypedProblem,
                    {},
                    "Your own function",
                    "A function of x (and y) you type, over a box you give (problem options "
                    "function and domain); its minimum is not known in advance.",
                    1});
    }

    std::string name() const override { return "nonsmooth"; }
    std::string title() const override { return "Nonsmooth convex minimisation"; }

    std::vector<OptionInfo> problemOptions() const override {
        return describeOptions<NonsmoothProblemOptions>();
    }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                           std::string* why) const override {
        NonsmoothProblemOptions o;
        if (!assignOptions(o, problemOptions, why)) return nullptr;
        if (name == kTypedProblem) return typedProblem(o, why);
        for (const auto& info : problems()) {
            if (info.name != name) continue;
            auto data = std::make_shared<NonsmoothProblem>();
            data->function = makeTestFunction(name);
            return std::make_shared<ProblemInstance>(ProblemInstance{info, std::move(data)});
        }
        if (why) *why = "unknown nonsmooth problem '" + name + "'";
        return nullptr;
    }

  private:
    ProblemPtr typedProblem(const NonsmoothProblemOptions& o, std::string* why) const {
        auto function = TypedFunction::parse(o.function, o.domain, why);
        if (!function) return nullptr;
        ProblemInfo info;
        for (const auto& p : problems())
            if (p.name == kTypedProblem) info = p;
        info.dimension = function->dimension();
        info.description = function->description();
        auto data = std::make_shared<NonsmoothProblem>();
        data->function = std::move(function);
        return std::make_shared<ProblemInstance>(ProblemInstance{info, std::move(data)});
    }
};

}  // namespace

const Family& nonsmoothFamily() {
    static const NonsmoothFamily family;
    return family;
}

}  // namespace cplab
