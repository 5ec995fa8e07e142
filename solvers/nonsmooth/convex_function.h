// SPDX-License-Identifier: GPL-3.0-or-later
// A convex function over a box, given by its oracle (value and one subgradient), with a
// known minimum over the box for tests and for the views.
#pragma once

#include <Eigen/Dense>
#include <string>

namespace cplab {

struct Box {
    Eigen::VectorXd lower;
    Eigen::VectorXd upper;

    int dimension() const { return static_cast<int>(lower.size()); }
    Eigen::VectorXd center() const { return 0.5 * (lower + upper); }
    bool contains(const Eigen::VectorXd& x, double slack = 0.0) const {
        return ((x - lower).array() >= -slack).all() && ((upper - x).array() >= -slack).all();
    }
};

class ConvexFunction {
  public:
    virtual ~ConvexFunction() = default;

    virtual std::string name() const = 0;         // registry name, e.g. "abs_quad"
    virtual std::string title() const = 0;        // formula for display, e.g. "|x − 1| + ½x²"
    virtual std::string description() const = 0;  // one or two sentences for the demo panel
    virtual int dimension() const = 0;
    virtual Box box() const = 0;                // the domain X of Kelley's method and of plots
    virtual Eigen::VectorXd start() const = 0;  // x₀ (inside the box)

    // f(x); when `subgradient` is not null, writes some g ∈ ∂f(x) into it.
    virtual double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient) const = 0;
    // evaluate(), and when f or its subgradient cannot be computed at x (a typed function's
    // log of a negative number), NaN and why in *error (when not null; cleared otherwise).
    virtual double evaluateChecked(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient,
                                   std::string* error) const {
        if (error) error->clear();
        return evaluate(x, subgradient);
    }

    // The minimum over the box and a minimiser: a closed form or an exact literature value;
    // NaN when none is known (a typed function, typed_function.h).
    virtual double minimumValue() const = 0;
    virtual Eigen::VectorXd minimizer() const = 0;
};

}  // namespace cplab
