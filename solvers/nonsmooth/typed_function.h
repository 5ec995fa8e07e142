// SPDX-License-Identifier: GPL-3.0-or-later
// A function of x (and y) typed by the user, e.g. "max(x^2, 1 - x)" over the box "-3:3", for
// Kelley's method and the proximal bundle method (issue 49, "Your own function").
//
// Parsing: GiNaC's parser (libginac, a maintained computer-algebra library) with a symbol
// table of x, y, pi and e and a prototype table of abs, sqrt, exp, log and max/min of 2 to
// 16 arguments. GiNaC then puts sums and products in its canonical form (x - x is 0).
// Evaluation: the parsed GiNaC expression is walked once into an immutable tree of our own
// (GiNaC's reference counts are not atomic, and a race shares one function between two
// threads), which is evaluated in forward mode: each node gives its value and an exact
// gradient. Through max/min the active piece's gradient (the first on ties), through abs
// sign(u)·∇u (0 at the kink); the chain rule elsewhere. No finite differences: a difference
// quotient at a kink is not a subgradient, and Kelley's lower bound would be wrong.
// For a convex f every such gradient is a subgradient; a non-convex f is caught by the
// solvers (cutting_plane_model.h, lastPlaneAboveF).
//
// Errors name what they can: a syntax error or an unknown name its position (column) in the
// expression; a domain error (division by zero, log of a non-positive number, sqrt of a
// negative one, a value beyond 1e100) the sub-expression and the point.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "convex_function.h"

namespace cplab {

class TypedFunction final : public ConvexFunction {
  public:
    static constexpr double kValueLimit = 1e100;     // |value| of any sub-expression
    static constexpr std::size_t kMaxLength = 2000;  // characters of an expression

    // Parses `expression` over `domain` ("lo:hi" in 1-D, "lo:hi,lo:hi" in 2-D); null and *why
    // when either cannot be read (the message names the column where it can).
    static std::shared_ptr<const TypedFunction> parse(const std::string& expression,
                                                      const std::string& domain, std::string* why);
    // The same over a 2-D box given as numbers (Frank-Wolfe's polygon's bounding box).
    static std::shared_ptr<const TypedFunction> parse(const std::string& expression, const Box& box,
                                                      std::string* why);

    std::string name() const override { return "typed"; }
    std::string title() const override { return expression_; }
    std::string description() const override;
    int dimension() const override { return static_cast<int>(box_.lower.size()); }
    Box box() const override { return box_; }
    Eigen::VectorXd start() const override { return box_.center(); }

    double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient) const override {
        return evaluateChecked(x, subgradient, nullptr);
    }
    // NaN and *error ("log of a non-positive number: log(x) = log(-1) at x = -1") when f or
    // its gradient cannot be computed at x.
    double evaluateChecked(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient,
                           std::string* error) const override;

    // evaluateChecked() for a method that needs a differentiable f (Frank-Wolfe): also NaN
    // and *error at a kink, where abs's argument is 0 or a max or min has two active arguments
    // of different gradients ("f is not differentiable there: abs(x) has its kink ... at
    // (x, y) = (0, 1)"); sqrt and log at 0 and x^p (p < 1) at 0 are refused as in
    // evaluateChecked.
    double evaluateSmooth(const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                          std::string* error) const;

    // Not known in closed form: NaN (the family reports no known optimum for it).
    double minimumValue() const override;
    Eigen::VectorXd minimizer() const override;

    // The expression as GiNaC reads it back (canonical order), e.g. "max(1-x,x^2)".
    const std::string& canonical() const { return canonical_; }

    struct Node;

  private:
    TypedFunction() = default;
    // `domainText` names the box in messages ("the domain '-3:3'").
    static std::shared_ptr<const TypedFunction> parseOver(const std::string& expression,
                                                          const Box& box,
                                                          const std::string& domainText,
                                                          std::string* why);
    double evaluateAt(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient, std::string* error,
                      bool smooth) const;

    std::string expression_;
    std::string canonical_;
    Box box_;
    std::shared_ptr<const Node> root_;
};

// Reads a box "lo:hi" or "lo:hi,lo:hi"; false and *why when it cannot.
bool parseDomain(const std::string& text, Box* box, std::string* why);

}  // namespace cplab
