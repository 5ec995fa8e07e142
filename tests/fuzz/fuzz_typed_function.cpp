// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the typed functions of the nonsmooth family (nonsmooth/typed_function.h): the input is
// an expression (GiNaC's parser, then our tree), read over -3:3 or, when it names y, over
// -3:3,-3:3; an accepted function is evaluated with its subgradient at the box's centre, its
// corners and points chosen by the input's hash. Expected: a function or a refusal with a
// message; at each point a finite value and subgradient, or NaN with a message. Findings: a
// crash or sanitizer report, any exception, a refusal without a message, a value or subgradient
// that is neither finite nor NaN with a message, a value beyond kValueLimit.
// An input with a line break is instead Frank–Wolfe's typed problem (polytope_problem.h): the
// function before it, the polygon after it (polygon.h), then 20 steps of frank_wolfe with line
// search. Findings then also: a refusal without a message, an accepted polygon that is not
// counter-clockwise and convex, a running step whose bounds are not finite or cross.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "nonsmooth/typed_function.h"
#include "polytope/frank_wolfe.h"
#include "polytope/polygon.h"
#include "polytope/polytope_problem.h"

using namespace cplab;
using namespace cplab::fuzz;

// GiNaC (with CLN) leaks a few dozen bytes when it throws while reading a division by zero
// ("-y/0"): its own objects, not ours. Leaks are not findings of this target.
extern "C" const char* __lsan_default_options() {
    return "detect_leaks=0";
}

namespace {

void fuzzPolygonProblem(const std::string& input) {
    const std::size_t cut = input.find('\n');
    const std::string expression = input.substr(0, cut), polygon = input.substr(cut + 1);
    std::string why;
    const auto problem = makeTypedPolytopeProblem(expression, polygon, &why);
    if (!problem) {
        require(!why.empty(), "makeTypedPolytopeProblem: a refusal without a message");
        return;
    }
    const auto& v = problem->vertices;
    require(v.size() >= 3, "an accepted polygon of fewer than 3 vertices");
    for (std::size_t k = 0; k < v.size(); ++k) {
        const Eigen::Vector2d& a = v[k];
        const Eigen::Vector2d& b = v[(k + 1) % v.size()];
        const Eigen::Vector2d& c = v[(k + 2) % v.size()];
        require(cross2(b - a, c - b) > 0,
                "an accepted polygon that is not convex and counter-clockwise");
    }
    FrankWolfeSolver solver(problem);
    for (int t = 0; t < 20 && !solver.status().finished(); ++t) {
        const Status status = solver.step();
        if (status.code != StatusCode::Running) {
            require(!status.finished() || status.code == StatusCode::Converged ||
                        !status.message.empty(),
                    "frank_wolfe stopped without a message");
            break;
        }
        const IterationRecord& r = solver.lastRecord();
        require(std::isfinite(r.upper) && !std::isnan(r.lower) &&
                    r.lower <= r.upper + 1e-9 * (1 + std::abs(r.upper)),
                "frank_wolfe: bounds not finite or crossed while running");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(asText(data, size));
    if (input.find('\n') != std::string::npos) {
        fuzzPolygonProblem(input);
        return 0;
    }
    const std::string& expression = input;
    const std::uint64_t hash = hashOf(expression);
    const bool twoD = expression.find('y') != std::string::npos;
    std::string why;
    const auto f = TypedFunction::parse(expression, twoD ? "-3:3,-3:3" : "-3:3", &why);
    if (!f) {
        require(!why.empty(), "TypedFunction::parse: a refusal without a message");
        return 0;
    }
    const int d = f->dimension();
    for (int k = 0; k < 6; ++k) {
        Eigen::VectorXd x = f->start();
        for (int j = 0; j < d; ++j) {
            const double u = static_cast<double>((hash >> (8 * ((k + j) % 8))) & 0xff) / 255.0;
            x(j) = k == 0 ? x(j) : k == 1 ? -3.0 : k == 2 ? 3.0 : -3.0 + 6.0 * u;
        }
        Eigen::VectorXd g;
        std::string error;
        const double value = f->evaluateChecked(x, &g, &error);
        if (std::isnan(value)) {
            require(!error.empty(), "evaluateChecked: NaN without a message");
            continue;
        }
        require(std::isfinite(value) && std::abs(value) <= TypedFunction::kValueLimit,
                "evaluateChecked: a value beyond the limit without a message");
        require(g.size() == d && g.allFinite(), "evaluateChecked: a subgradient not finite");
    }
    return 0;
}
