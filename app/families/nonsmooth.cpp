// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/nonsmooth.h"

#include "nonsmooth/bundle.h"
#include "nonsmooth/kelley.h"
#include "nonsmooth/test_functions.h"

namespace cplab {

SummaryFields NonsmoothProblem::summary() const {
    const Eigen::VectorXd x = function->minimizer();
    return {{"f_star", function->minimumValue()},
            {"x_star", std::vector<double>(x.data(), x.data() + x.size())}};
}

std::optional<double> NonsmoothProblem::knownOptimum() const {
    return function->minimumValue();
}

namespace {

std::shared_ptr<const ConvexFunction> functionOf(const NonsmoothProblem& problem) {
    return problem.function;
}

class NonsmoothFamily final : public Family {
  public:
    NonsmoothFamily() {
        for (const auto& name : testFunctionNames()) {
            const auto f = makeTestFunction(name);
            addProblem({name, {}, f->title(), f->description(), f->dimension()});
        }
        addSolver<KelleyOptions, KelleySolver>(
            {"kelley",
             {},
             "Kelley cutting planes",
             "Cutting-plane method (Alg. 7.2): minimise the piecewise-linear model over the box "
             "by an LP, add the plane at its minimiser.",
             {}},
            &functionOf);
        addSolver<BundleOptions, BundleSolver>(
            {"bundle",
             {},
             "Proximal bundle",
             "Proximal bundle method (§7.1.2): the model plus a prox term nu/2 |x - xc|^2; "
             "serious and null steps.",
             {}},
            &functionOf);
        addDemo({"kelley",
                 "Kelley cutting planes (1-D)",
                 "Watch the cutting-plane model of |x - 1| + x^2/2 grow plane by plane while "
                 "the upper and lower bounds close.",
                 "abs_quad",
                 {{"kelley", {}}}});
        addDemo({"kelley_2d",
                 "Kelley's zig-zag in 2-D",
                 "Kelley's method on an ill-conditioned bowl: iterates jump between far corners "
                 "of the model, many planes are wasted.",
                 "zigzag_quadratic",
                 {{"kelley", {}}}});
        addDemo({"bundle_vs_kelley",
                 "Bundle vs Kelley (race)",
                 "The same bowl, raced: the proximal bundle method's prox term keeps its steps "
                 "short and closes the gap with about 30 % fewer oracle calls.",
                 "zigzag_quadratic",
                 {{"kelley", {}}, {"bundle", {{"nu_rule", "adaptive"}}}}});
        addDemo({"bundle_cb3",
                 "Proximal bundle on CB3",
                 "The classic nonsmooth test CB3: serious steps move the prox-centre, null steps "
                 "enrich the model.",
                 "cb3",
                 {{"bundle", {}}}});
    }

    std::string name() const override { return "nonsmooth"; }
    std::string title() const override { return "Nonsmooth convex minimisation"; }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& /*problemOptions*/,
                           std::string* why) const override {
        for (const auto& info : problems()) {
            if (info.name != name) continue;
            auto data = std::make_shared<NonsmoothProblem>();
            data->function = makeTestFunction(name);
            return std::make_shared<ProblemInstance>(ProblemInstance{info, std::move(data)});
        }
        if (why) *why = "unknown nonsmooth problem '" + name + "'";
        return nullptr;
    }
};

}  // namespace

const Family& nonsmoothFamily() {
    static const NonsmoothFamily family;
    return family;
}

}  // namespace cplab
