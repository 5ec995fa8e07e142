// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the typed functions of the nonsmooth family (nonsmooth/typed_function.h): the input is
// an expression (GiNaC's parser, then our tree), read over -3:3 or, when it names y, over
// -3:3,-3:3; an accepted function is evaluated with its subgradient at the box's centre, its
// corners and points chosen by the input's hash. Expected: a function or a refusal with a
// message; at each point a finite value and subgradient, or NaN with a message. Findings: a
// crash or sanitizer report, any exception, a refusal without a message, a value or subgradient
// that is neither finite nor NaN with a message, a value beyond kValueLimit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "nonsmooth/typed_function.h"

using namespace cplab;
using namespace cplab::fuzz;

// GiNaC (with CLN) leaks a few dozen bytes when it throws while reading a division by zero
// ("-y/0"): its own objects, not ours. Leaks are not findings of this target.
extern "C" const char* __lsan_default_options() {
    return "detect_leaks=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string expression(asText(data, size));
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
