// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_functions.h"

#include <cmath>
#include <functional>

namespace cplab {
namespace {

using Eigen::VectorXd;
using Oracle = std::function<double(const VectorXd&, VectorXd*)>;

// A test function defined by its data; every built-in below is one of these.
class TableFunction final : public ConvexFunction {
  public:
    struct Spec {
        std::string name, title, description;
        VectorXd lower, upper, start, minimizer;
        double minimum = 0.0;
        Oracle oracle;
    };
    explicit TableFunction(Spec spec) : spec_(std::move(spec)) {}

    std::string name() const override { return spec_.name; }
    std::string title() const override { return spec_.title; }
    std::string description() const override { return spec_.description; }
    int dimension() const override { return static_cast<int>(spec_.lower.size()); }
    Box box() const override { return {spec_.lower, spec_.upper}; }
    VectorXd start() const override { return spec_.start; }
    double evaluate(const VectorXd& x, VectorXd* g) const override {
        if (g) g->resize(x.size());
        return spec_.oracle(x, g);
    }
    double minimumValue() const override { return spec_.minimum; }
    VectorXd minimizer() const override { return spec_.minimizer; }

  private:
    Spec spec_;
};

VectorXd vec(std::initializer_list<double> values) {
    VectorXd v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double value : values)
        v(i++) = value;
    return v;
}

double sign(double v) {
    return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
}

// Index of the largest of `values` (first on ties).
template <std::size_t N>
std::size_t argmax(const double (&values)[N]) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < N; ++k) {
        if (values[k] > values[best]) best = k;
    }
    return best;
}

TableFunction::Spec absQuad() {
    // f(x) = |x − 1| + ½x². For x < 1, f' = x − 1 < 0; for x > 1, f' = x + 1 > 0: x* = 1.
    return {"abs_quad",
            "|x - 1| + x^2/2",
            "A kink at the minimum x* = 1 plus curvature: Kelley brackets the kink quickly, "
            "then the curved branches need more planes.",
            vec({-3}),
            vec({3}),
            vec({-2.5}),
            vec({1}),
            0.5,
            [](const VectorXd& x, VectorXd* g) {
                if (g) (*g)(0) = sign(x(0) - 1.0) + x(0);
                return std::abs(x(0) - 1.0) + 0.5 * x(0) * x(0);
            }};
}

TableFunction::Spec maxAffine() {
    // Upper envelope of four lines. The slope changes sign where −x/2 + 1/2 meets x − 2,
    // i.e. x* = 5/3 with f* = −1/3 (there the other two lines are lower: −13/3 and −1).
    return {"max_affine",
            "max(-2x - 1, -x/2 + 1/2, x - 2, 3x - 6)",
            "A polyhedral function: the cutting-plane model becomes exact after finitely many "
            "planes and Kelley's method stops with a zero gap.",
            vec({-2}),
            vec({4}),
            vec({-1.5}),
            vec({5.0 / 3.0}),
            -1.0 / 3.0,
            [](const VectorXd& x, VectorXd* g) {
                const double t = x(0);
                const double pieces[] = {-2 * t - 1, -0.5 * t + 0.5, t - 2, 3 * t - 6};
                const double slopes[] = {-2, -0.5, 1, 3};
                const std::size_t k = argmax(pieces);
                if (g) (*g)(0) = slopes[k];
                return pieces[k];
            }};
}

TableFunction::Spec smoothExp() {
    // f(x) = eˣ + e^{−2x}: f' = eˣ − 2e^{−2x} = 0 ⇔ e^{3x} = 2, x* = ln(2)/3,
    // f* = 2^{1/3} + 2^{−2/3}.
    const double xs = std::log(2.0) / 3.0;
    return {"smooth_exp",
            "exp(x) + exp(-2x)",
            "A smooth, strongly curved function: every plane is a tangent and the model "
            "approaches f slowly, which shows Kelley's slow tail.",
            vec({-2}),
            vec({2}),
            vec({1.5}),
            vec({xs}),
            std::cbrt(2.0) + std::pow(2.0, -2.0 / 3.0),
            [](const VectorXd& x, VectorXd* g) {
                const double a = std::exp(x(0)), b = std::exp(-2.0 * x(0));
                if (g) (*g)(0) = a - 2.0 * b;
                return a + b;
            }};
}

TableFunction::Spec quartic() {
    // f(x) = (x − ½)⁴: very flat at x* = ½, f* = 0; planes near the minimum are almost
    // horizontal, so the lower bound creeps up.
    return {"quartic",
            "(x - 1/2)^4",
            "Very flat around its minimum: near-horizontal planes make the lower bound creep "
            "up, the slow tail of cutting-plane methods.",
            vec({-1.5}),
            vec({2.5}),
            vec({-1}),
            vec({0.5}),
            0.0,
            [](const VectorXd& x, VectorXd* g) {
                const double d = x(0) - 0.5;
                if (g) (*g)(0) = 4.0 * d * d * d;
                return d * d * d * d;
            }};
}

TableFunction::Spec zigzagQuadratic() {
    // f(x) = ½ (x − c)ᵀ Q (x − c) with Q = R diag(10, 0.5) Rᵀ rotated by 30°: a smooth,
    // ill-conditioned bowl. f* = 0 at c = (0.6, −0.4).
    return {"zigzag_quadratic",
            "(x - c)' Q (x - c) / 2, cond(Q) = 20",
            "A smooth ill-conditioned bowl in 2-D: Kelley's iterates keep jumping across the "
            "model (zig-zag) even late in the run; the proximal bundle method stays near its "
            "prox-centre and needs about 30 % fewer oracle calls (25 vs 35 to 1e-6).",
            vec({-3, -3}),
            vec({3, 3}),
            vec({-2.5, 2.0}),
            vec({0.6, -0.4}),
            0.0,
            [](const VectorXd& x, VectorXd* g) {
                const double angle = M_PI / 6.0;
                const double c = std::cos(angle), s = std::sin(angle);
                const double d0 = x(0) - 0.6, d1 = x(1) + 0.4;
                const double u = c * d0 + s * d1, v = -s * d0 + c * d1;  // Rᵀ(x − c)
                const double gu = 10.0 * u, gv = 0.5 * v;
                if (g) {
                    (*g)(0) = c * gu - s * gv;
                    (*g)(1) = s * gu + c * gv;
                }
                return 0.5 * (10.0 * u * u + 0.5 * v * v);
            }};
}

TableFunction::Spec cb3() {
    // Charalambous–Bandler CB3: max{x₁⁴ + x₂², (2 − x₁)² + (2 − x₂)², 2e^{x₂ − x₁}},
    // convex, minimum f* = 2 at (1, 1) where all three pieces are active.
    return {"cb3",
            "max(x1^4 + x2^2, (2 - x1)^2 + (2 - x2)^2, 2 exp(x2 - x1))",
            "Charalambous-Bandler CB3, a classic nonsmooth test: three smooth convex pieces "
            "all active at the minimum (1, 1), f* = 2.",
            vec({-1, -1}),
            vec({3, 3}),
            vec({-0.5, 2.5}),
            vec({1, 1}),
            2.0,
            [](const VectorXd& x, VectorXd* g) {
                const double a = x(0), b = x(1);
                const double pieces[] = {a * a * a * a + b * b,
                                         (2 - a) * (2 - a) + (2 - b) * (2 - b),
                                         2.0 * std::exp(b - a)};
                const std::size_t k = argmax(pieces);
                if (g) {
                    if (k == 0) *g << 4 * a * a * a, 2 * b;
                    if (k == 1) *g << -2 * (2 - a), -2 * (2 - b);
                    if (k == 2) *g << -pieces[2], pieces[2];
                }
                return pieces[k];
            }};
}

TableFunction::Spec lq() {
    // LQ: max{−x₁ − x₂, −x₁ − x₂ + x₁² + x₂² − 1}; minimum −√2 at (1/√2, 1/√2) (both active).
    const double r = 1.0 / std::sqrt(2.0);
    return {"lq",
            "max(-x1 - x2, -x1 - x2 + x1^2 + x2^2 - 1)",
            "A linear and a quadratic piece meeting on the unit circle; the minimum "
            "(1/sqrt2, 1/sqrt2), f* = -sqrt2, lies on the kink.",
            vec({-1.5, -1.5}),
            vec({1.5, 1.5}),
            vec({-1.0, 0.5}),
            vec({r, r}),
            -std::sqrt(2.0),
            [](const VectorXd& x, VectorXd* g) {
                const double a = x(0), b = x(1);
                const double lin = -a - b, quad = lin + a * a + b * b - 1.0;
                if (quad > lin) {
                    if (g) *g << -1 + 2 * a, -1 + 2 * b;
                    return quad;
                }
                if (g) *g << -1, -1;
                return lin;
            }};
}

TableFunction::Spec mifflin1() {
    // Mifflin 1: −x₁ + 20 max{x₁² + x₂² − 1, 0}; minimum −1 at (1, 0).
    return {"mifflin1",
            "-x1 + 20 max(x1^2 + x2^2 - 1, 0)",
            "Mifflin's function: linear inside the unit disc and steep outside, minimum "
            "f* = -1 at (1, 0) on the boundary.",
            vec({-1.5, -1.5}),
            vec({1.5, 1.5}),
            vec({-1.0, 1.0}),
            vec({1, 0}),
            -1.0,
            [](const VectorXd& x, VectorXd* g) {
                const double a = x(0), b = x(1);
                const double excess = a * a + b * b - 1.0;
                if (excess > 0) {
                    if (g) *g << -1 + 40 * a, 40 * b;
                    return -a + 20 * excess;
                }
                if (g) *g << -1, 0;
                return -a;
            }};
}

TableFunction::Spec absSum2d() {
    // |x₁ − 1| + |x₂ + ½| + 0.1‖x‖²: separable; in each coordinate the kink wins over the
    // small quadratic (0.2·|kink| < 1), so x* = (1, −½) and f* = 0.1·(1 + ¼) = 0.125.
    return {"abs_sum_2d",
            "|x1 - 1| + |x2 + 1/2| + 0.1 |x|^2",
            "Two kinks crossing at the minimum (1, -1/2): the model's kink lines line up "
            "with f's own, f* = 0.125.",
            vec({-2, -2}),
            vec({2, 2}),
            vec({-1.5, 1.5}),
            vec({1, -0.5}),
            0.125,
            [](const VectorXd& x, VectorXd* g) {
                const double a = x(0), b = x(1);
                if (g) *g << sign(a - 1) + 0.2 * a, sign(b + 0.5) + 0.2 * b;
                return std::abs(a - 1) + std::abs(b + 0.5) + 0.1 * (a * a + b * b);
            }};
}

const std::vector<std::function<TableFunction::Spec()>>& specs() {
    static const std::vector<std::function<TableFunction::Spec()>> all = {
        absQuad, maxAffine, smoothExp, quartic, zigzagQuadratic, cb3, lq, mifflin1, absSum2d};
    return all;
}

}  // namespace

std::vector<std::string> testFunctionNames() {
    std::vector<std::string> names;
    for (const auto& spec : specs())
        names.push_back(spec().name);
    return names;
}

std::shared_ptr<const ConvexFunction> makeTestFunction(const std::string& name) {
    for (const auto& spec : specs()) {
        TableFunction::Spec s = spec();
        if (s.name == name) return std::make_shared<TableFunction>(std::move(s));
    }
    return nullptr;
}

}  // namespace cplab
