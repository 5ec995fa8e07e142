// SPDX-License-Identifier: GPL-3.0-or-later
// Built-in convex test functions with known minima (ALGORITHMS.md §1): smooth, polyhedral
// and max-type, in 1-D and 2-D, chosen to show what cutting-plane methods do well (finite
// termination on polyhedral functions) and badly (Kelley's zig-zag and slow tail on curved
// ones, which proximal bundle stabilisation fixes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "convex_function.h"

namespace cplab {

// Registry names of the built-in functions, in display order.
std::vector<std::string> testFunctionNames();

// The built-in function of that name, or nullptr when there is none.
std::shared_ptr<const ConvexFunction> makeTestFunction(const std::string& name);

}  // namespace cplab
