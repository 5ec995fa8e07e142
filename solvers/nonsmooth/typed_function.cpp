// SPDX-License-Identifier: GPL-3.0-or-later
#include "typed_function.h"

#include <ginac/ginac.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <sstream>

#include "core/child_limits.h"
#include "core/number_text.h"
#include "cutting_plane_view.h"

namespace cplab {

// Our own GiNaC functions for abs, sqrt, exp, log, max and min: held unevaluated (GiNaC's own
// would fold exp(log(x)) into x and so lose log's domain, or sqrt(x) into x^(1/2)), printed
// under the names the user typed. max and min are binary; more arguments nest.
namespace typed_ginac {

DECLARE_FUNCTION_1P(cplab_abs)
DECLARE_FUNCTION_1P(cplab_sqrt)
DECLARE_FUNCTION_1P(cplab_exp)
DECLARE_FUNCTION_1P(cplab_log)
DECLARE_FUNCTION_2P(cplab_max)
DECLARE_FUNCTION_2P(cplab_min)

template <const char* kName>
void printUnary(const GiNaC::ex& u, const GiNaC::print_context& c) {
    c.s << kName << '(';
    u.print(c);
    c.s << ')';
}
template <const char* kName>
void printBinary(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::print_context& c) {
    c.s << kName << '(';
    a.print(c);
    c.s << ", ";
    b.print(c);
    c.s << ')';
}

constexpr char kAbs[] = "abs", kSqrt[] = "sqrt", kExp[] = "exp", kLog[] = "log", kMax[] = "max",
               kMin[] = "min";

#define CPLAB_TYPED_UNARY(NAME, TEXT)                               \
    unsigned NAME##_SERIAL::serial = GiNaC::function::register_new( \
        GiNaC::function_options(#NAME, 1).print_func<GiNaC::print_context>(printUnary<TEXT>));
#define CPLAB_TYPED_BINARY(NAME, TEXT)                              \
    unsigned NAME##_SERIAL::serial = GiNaC::function::register_new( \
        GiNaC::function_options(#NAME, 2).print_func<GiNaC::print_context>(printBinary<TEXT>));
CPLAB_TYPED_UNARY(cplab_abs, kAbs)
CPLAB_TYPED_UNARY(cplab_sqrt, kSqrt)
CPLAB_TYPED_UNARY(cplab_exp, kExp)
CPLAB_TYPED_UNARY(cplab_log, kLog)
CPLAB_TYPED_BINARY(cplab_max, kMax)
CPLAB_TYPED_BINARY(cplab_min, kMin)
#undef CPLAB_TYPED_UNARY
#undef CPLAB_TYPED_BINARY

// The parser's prototype table holds reader functions, or a GiNaC function's serial number
// encoded as an odd "pointer" (ginac/parse_context.h): our readers are aligned so that they
// always read as pointers.
constexpr std::size_t kMaxArguments = 16;

#define CPLAB_TYPED_READER __attribute__((aligned(16)))
// GiNaC's parser hands a call without arguments ("abs()", "max()") to the first reader of that
// name whatever its arity: each reader checks its count, as the parser would have.
const GiNaC::exvector& counted(const GiNaC::exvector& a, const char* name, std::size_t least,
                               std::size_t most) {
    if (a.size() < least || a.size() > most)
        throw GiNaC::parse_error(std::string("no function \"") + name + "\" with " +
                                 std::to_string(a.size()) + " arguments");
    return a;
}
CPLAB_TYPED_READER GiNaC::ex readAbs(const GiNaC::exvector& a) {
    return cplab_abs(counted(a, "abs", 1, 1)[0]);
}
CPLAB_TYPED_READER GiNaC::ex readSqrt(const GiNaC::exvector& a) {
    return cplab_sqrt(counted(a, "sqrt", 1, 1)[0]);
}
CPLAB_TYPED_READER GiNaC::ex readExp(const GiNaC::exvector& a) {
    return cplab_exp(counted(a, "exp", 1, 1)[0]);
}
CPLAB_TYPED_READER GiNaC::ex readLog(const GiNaC::exvector& a) {
    return cplab_log(counted(a, "log", 1, 1)[0]);
}
CPLAB_TYPED_READER GiNaC::ex readMax(const GiNaC::exvector& a) {
    GiNaC::ex result = counted(a, "max", 2, kMaxArguments)[0];
    for (std::size_t i = 1; i < a.size(); ++i)
        result = cplab_max(result, a[i]);
    return result;
}
CPLAB_TYPED_READER GiNaC::ex readMin(const GiNaC::exvector& a) {
    GiNaC::ex result = counted(a, "min", 2, kMaxArguments)[0];
    for (std::size_t i = 1; i < a.size(); ++i)
        result = cplab_min(result, a[i]);
    return result;
}
#undef CPLAB_TYPED_READER

const GiNaC::prototype_table& prototypes() {
    static const GiNaC::prototype_table table = [] {
        GiNaC::prototype_table t;
        t[{"abs", 1}] = &readAbs;
        t[{"sqrt", 1}] = &readSqrt;
        t[{"exp", 1}] = &readExp;
        t[{"log", 1}] = &readLog;
        for (std::size_t n = 2; n <= kMaxArguments; ++n) {
            t[{"max", n}] = &readMax;
            t[{"min", n}] = &readMin;
        }
        return t;
    }();
    return table;
}

}  // namespace typed_ginac

struct TypedFunction::Node {
    enum class Op { Constant, Variable, Add, Mul, Power, Abs, Sqrt, Exp, Log, Max, Min };
    Op op = Op::Constant;
    double constant = 0.0;  // Op::Constant
    int variable = 0;       // Op::Variable: 0 for x, 1 for y
    std::vector<Node> children;
    std::string text;  // the sub-expression, for messages
};

namespace {

using Node = TypedFunction::Node;
using Op = Node::Op;

// A domain error at evaluation; caught in evaluateChecked, which adds the point.
struct EvaluationError {
    std::string message;
};
// An expression that parses but that we cannot evaluate (I, a list); caught in parse().
struct ReadError {
    std::string message;
};

std::string textOf(const GiNaC::ex& e) {
    std::ostringstream out;
    out << e;
    return out.str();
}

// --- Reading: GiNaC's expression into our tree ------------------------------------------

Node compile(const GiNaC::ex& e, const GiNaC::symbol& x, const GiNaC::symbol& y);

Node compileFunction(const GiNaC::function& f, const GiNaC::symbol& x, const GiNaC::symbol& y) {
    using namespace typed_ginac;
    const unsigned serial = f.get_serial();
    Node node;
    if (serial == cplab_abs_SERIAL::serial)
        node.op = Op::Abs;
    else if (serial == cplab_sqrt_SERIAL::serial)
        node.op = Op::Sqrt;
    else if (serial == cplab_exp_SERIAL::serial)
        node.op = Op::Exp;
    else if (serial == cplab_log_SERIAL::serial)
        node.op = Op::Log;
    else if (serial == cplab_max_SERIAL::serial)
        node.op = Op::Max;
    else if (serial == cplab_min_SERIAL::serial)
        node.op = Op::Min;
    else
        throw ReadError{"unsupported function in " + textOf(f)};
    for (std::size_t i = 0; i < f.nops(); ++i)
        node.children.push_back(compile(f.op(i), x, y));
    return node;
}

Node compile(const GiNaC::ex& e, const GiNaC::symbol& x, const GiNaC::symbol& y) {
    Node node;
    if (GiNaC::is_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::constant>(e)) {
        const GiNaC::ex value = e.evalf();
        if (!GiNaC::is_a<GiNaC::numeric>(value) || !GiNaC::ex_to<GiNaC::numeric>(value).is_real())
            throw ReadError{"not a real number: " + textOf(e)};
        node.op = Op::Constant;
        node.constant = GiNaC::ex_to<GiNaC::numeric>(value).to_double();
        if (!(std::abs(node.constant) <= TypedFunction::kValueLimit))
            throw ReadError{"a number beyond 1e100: " + textOf(e)};
    } else if (GiNaC::is_a<GiNaC::symbol>(e)) {
        if (!e.is_equal(x) && !e.is_equal(y)) throw ReadError{"unknown name '" + textOf(e) + "'"};
        node.op = Op::Variable;
        node.variable = e.is_equal(x) ? 0 : 1;
    } else if (GiNaC::is_a<GiNaC::function>(e)) {
        node = compileFunction(GiNaC::ex_to<GiNaC::function>(e), x, y);
    } else if (GiNaC::is_a<GiNaC::add>(e) || GiNaC::is_a<GiNaC::mul>(e) ||
               GiNaC::is_a<GiNaC::power>(e)) {
        node.op = GiNaC::is_a<GiNaC::add>(e)   ? Op::Add
                  : GiNaC::is_a<GiNaC::mul>(e) ? Op::Mul
                                               : Op::Power;
        for (std::size_t i = 0; i < e.nops(); ++i)
            node.children.push_back(compile(e.op(i), x, y));
    } else {
        throw ReadError{"unsupported expression " + textOf(e) +
                        " (numbers, x, y, + - * / ^, abs, sqrt, exp, log, max, min)"};
    }
    node.text = textOf(e);
    return node;
}

bool usesY(const Node& node) {
    if (node.op == Op::Variable) return node.variable == 1;
    for (const auto& child : node.children)
        if (usesY(child)) return true;
    return false;
}

// --- Messages of GiNaC's parser, with the column it does not give ------------------------

bool isNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// 1-based column of the first whole-word occurrence of `name` in `text` (0: none).
std::size_t columnOfName(const std::string& text, const std::string& name) {
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        const bool before = at > 0 && isNameChar(text[at - 1]);
        const bool after = at + name.size() < text.size() && isNameChar(text[at + name.size()]);
        if (!before && !after) return at + 1;
    }
    return 0;
}

// The text between the first pair of double quotes in `message` ("" when none).
std::string quotedText(const std::string& message) {
    const auto open = message.find('"');
    if (open == std::string::npos) return {};
    const auto close = message.find('"', open + 1);
    return close == std::string::npos ? std::string() : message.substr(open + 1, close - open - 1);
}

std::string atColumn(std::size_t column, const std::string& text) {
    if (column == 0 || column > text.size()) return "at the end of the expression";
    return "at column " + std::to_string(column);
}

// GiNaC's parse_error ("GiNaC: parse error at line 0, column 0: expected EOF, got: "x"\n[...]")
// as one line with the column, which we find from how far the parser read (`consumed`).
std::string parseErrorText(const std::string& what, const std::string& text, std::size_t consumed) {
    std::string core = what.substr(0, what.find('\n'));
    if (const auto colon = core.find(": ", core.find("column")); colon != std::string::npos)
        core = core.substr(colon + 2);
    const std::string token = quotedText(core);
    if (core.rfind("no function", 0) == 0) {
        const std::string where = atColumn(columnOfName(text, token), text);
        if (token == "max" || token == "min")
            return token + " " + where + " takes 2 to " +
                   std::to_string(typed_ginac::kMaxArguments) + " arguments";
        if (token == "abs" || token == "sqrt" || token == "exp" || token == "log")
            return token + " " + where + " takes one argument";
        return "unknown function '" + token + "' " + where +
               " (known: abs, sqrt, exp, log, max, min)";
    }
    std::size_t column = 0;
    if (!token.empty()) {
        const std::size_t end = std::min(consumed, text.size());
        const auto at = text.rfind(token, end == 0 ? 0 : end - 1);
        if (at != std::string::npos) column = at + 1;
        return "syntax error " + atColumn(column, text) + ": unexpected '" + token + "'";
    }
    std::string expected = core;
    if (const auto comma = expected.find(", got"); comma != std::string::npos)
        expected = expected.substr(0, comma);
    return "syntax error " + atColumn(column, text) + ": " + expected;
}

// GiNaC computes a power of exact numbers exactly: 9^(9^9) would take minutes and gigabytes
// while being read. So every number literal is read as a floating-point one (12 as 12.0):
// such powers are then floating-point too, and beyond 1e100 (refused when compiled).
// (*origin)[i] is the index in `text` of the result's character i.
std::string floatLiterals(const std::string& text, std::vector<std::size_t>* origin,
                          std::string* error) {
    std::string out;
    const auto digit = [&](std::size_t i) {
        return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
    };
    for (std::size_t i = 0; i < text.size();) {
        const bool starts = digit(i) || (text[i] == '.' && digit(i + 1));
        if (!starts || (i > 0 && isNameChar(text[i - 1]))) {
            out.push_back(text[i]);
            origin->push_back(i++);
            continue;
        }
        const std::size_t start = i;
        while (digit(i) || text[i] == '.')
            ++i;
        if (i < text.size() && (text[i] == 'e' || text[i] == 'E') &&
            (digit(i + 1) || ((text[i + 1] == '+' || text[i + 1] == '-') && digit(i + 2)))) {
            i += 2;
            while (digit(i))
                ++i;
        }
        // The literal as the double it denotes, written back shortest-exact: GiNaC never sees
        // an exponent of ten digits (CLN expanded 0e11191111111 for minutes and gigabytes).
        const std::string typed = text.substr(start, i - start);
        char* end = nullptr;
        const double value = std::strtod(typed.c_str(), &end);
        if (end != typed.c_str() + typed.size()) {
            *error =
                "syntax error " + atColumn(start + 1, text) + ": '" + typed + "' is not a number";
            return out;
        }
        if (!(std::abs(value) <= TypedFunction::kValueLimit)) {
            *error = "a number beyond 1e100 " + atColumn(start + 1, text);
            return out;
        }
        char written[40];
        std::snprintf(written, sizeof written, "%.17g", value);
        std::string literal = written;
        if (literal.find_first_of(".e") == std::string::npos) literal += ".0";
        // and a space after it, so that two literals never run together ("0e5.5" is two).
        out += literal + ' ';
        origin->insert(origin->end(), literal.size(), start);
        origin->push_back(i);
    }
    return out;
}

// --- Evaluation in forward mode -----------------------------------------------------------

struct Dual {
    double v = 0.0;
    Eigen::Vector2d g = Eigen::Vector2d::Zero();
};

Dual evaluateNode(const Node& node, const Eigen::Vector2d& x, bool smooth);

// A point where a differentiable f is asked for (smooth mode, Frank-Wolfe) and `node` has a
// kink: its message (evaluateChecked adds the point).
[[noreturn]] void kink(const Node& node, const std::string& what) {
    throw EvaluationError{"f is not differentiable there: " + node.text + " " + what +
                          " (Frank-Wolfe needs a differentiable f)"};
}

Dual evaluatePower(const Node& node, const Eigen::Vector2d& x, bool smooth) {
    const Dual b = evaluateNode(node.children[0], x, smooth);
    const Node& exponent = node.children[1];
    Dual r;
    if (exponent.op != Op::Constant) {
        // b^e = exp(e log b): needs b > 0.
        const Dual e = evaluateNode(exponent, x, smooth);
        if (!(b.v > 0))
            throw EvaluationError{"a power with a variable exponent needs a positive base: " +
                                  node.text + " with base " + formatShort(b.v)};
        r.v = std::pow(b.v, e.v);
        r.g = r.v * (e.g * std::log(b.v) + e.v * b.g / b.v);
        return r;
    }
    const double p = exponent.constant;
    if (b.v == 0 && p < 0) throw EvaluationError{"division by zero in " + node.text};
    if (b.v < 0 && p != std::floor(p))
        throw EvaluationError{"a negative number to a non-integer power in " + node.text + " (" +
                              formatShort(b.v) + "^" + formatShort(p) + ")"};
    r.v = std::pow(b.v, p);
    if (smooth && b.v == 0 && p > 0 && p < 1)
        kink(node, "is not differentiable where its base is 0");
    if (p == 0 || b.g.isZero()) return r;
    if (b.v == 0 && p < 1)
        throw EvaluationError{"no finite subgradient of " + node.text + " where its base is 0"};
    r.g = p * std::pow(b.v, p - 1) * b.g;
    return r;
}

Dual evaluateUnary(const Node& node, const Eigen::Vector2d& x, bool smooth) {
    const Dual u = evaluateNode(node.children[0], x, smooth);
    Dual r;
    switch (node.op) {
        case Op::Abs:
            if (smooth && std::abs(u.v) <= 1e-12 && !u.g.isZero())
                kink(node, "has its kink (its argument is 0)");
            r.v = std::abs(u.v);
            r.g = (u.v > 0 ? 1.0 : (u.v < 0 ? -1.0 : 0.0)) * u.g;
            break;
        case Op::Sqrt:
            if (u.v < 0)
                throw EvaluationError{"sqrt of a negative number: " + node.text + " = sqrt(" +
                                      formatShort(u.v) + ")"};
            r.v = std::sqrt(u.v);
            if (smooth && r.v == 0) kink(node, "is not differentiable where it is 0");
            if (r.v > 0)
                r.g = 0.5 / r.v * u.g;
            else if (!u.g.isZero())
                throw EvaluationError{"no finite subgradient of " + node.text + " where it is 0"};
            break;
        case Op::Exp:
            r.v = std::exp(u.v);
            r.g = r.v * u.g;
            break;
        default:  // Op::Log
            if (!(u.v > 0))
                throw EvaluationError{"log of a non-positive number: " + node.text + " = log(" +
                                      formatShort(u.v) + ")"};
            r.v = std::log(u.v);
            r.g = u.g / u.v;
            break;
    }
    return r;
}

// In smooth mode, a max or min whose active piece ties with another of another gradient.
void checkTie(const Node& node, const std::vector<Dual>& parts, std::size_t active) {
    const Dual& a = parts[active];
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i == active) continue;
        const double scale = 1.0 + std::abs(a.v) + std::abs(parts[i].v);
        const double gscale = 1.0 + a.g.norm() + parts[i].g.norm();
        if (std::abs(parts[i].v - a.v) <= 1e-12 * scale &&
            (parts[i].g - a.g).norm() > 1e-12 * gscale)
            kink(node, "has a kink (two of its arguments are equal with different gradients)");
    }
}

Dual evaluateCombination(const Node& node, const Eigen::Vector2d& x, bool smooth) {
    std::vector<Dual> parts;
    parts.reserve(node.children.size());
    for (const auto& child : node.children)
        parts.push_back(evaluateNode(child, x, smooth));
    Dual r;
    if (node.op == Op::Add) {
        for (const auto& p : parts) {
            r.v += p.v;
            r.g += p.g;
        }
    } else if (node.op == Op::Mul) {
        r.v = 1.0;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            r.v *= parts[i].v;
            Eigen::Vector2d term = parts[i].g;
            for (std::size_t j = 0; j < parts.size(); ++j)
                if (j != i) term *= parts[j].v;
            r.g += term;
        }
    } else {  // max or min: the active piece (the first on ties)
        std::size_t active = 0;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            const bool better =
                node.op == Op::Max ? parts[i].v > parts[active].v : parts[i].v < parts[active].v;
            if (better) active = i;
        }
        if (smooth) checkTie(node, parts, active);
        r = parts[active];
    }
    return r;
}

Dual evaluateNode(const Node& node, const Eigen::Vector2d& x, bool smooth) {
    Dual r;
    switch (node.op) {
        case Op::Constant:
            r.v = node.constant;
            break;
        case Op::Variable:
            r.v = x(node.variable);
            r.g(node.variable) = 1.0;
            break;
        case Op::Power:
            r = evaluatePower(node, x, smooth);
            break;
        case Op::Abs:
        case Op::Sqrt:
        case Op::Exp:
        case Op::Log:
            r = evaluateUnary(node, x, smooth);
            break;
        default:
            r = evaluateCombination(node, x, smooth);
            break;
    }
    if (!(std::abs(r.v) <= TypedFunction::kValueLimit))
        throw EvaluationError{"the value of " + node.text + " is beyond 1e100 (" +
                              formatShort(r.v) + ")"};
    if (!(r.g.cwiseAbs().maxCoeff() <= TypedFunction::kValueLimit))
        throw EvaluationError{"the gradient of " + node.text + " is beyond 1e100"};
    return r;
}

}  // namespace

bool parseDomain(const std::string& text, Box* box, std::string* why) {
    auto fail = [&](const std::string& message) {
        if (why) *why = "domain '" + text + "': " + message;
        return false;
    };
    std::vector<std::pair<double, double>> ranges;
    std::stringstream parts(text);
    for (std::string part; std::getline(parts, part, ',');) {
        const auto colon = part.find(':');
        if (colon == std::string::npos) return fail("expected lo:hi, e.g. -3:3 or -3:3,-3:3");
        double bounds[2];
        const std::string sides[2] = {part.substr(0, colon), part.substr(colon + 1)};
        for (int k = 0; k < 2; ++k) {
            std::size_t used = 0;
            try {
                bounds[k] = std::stod(sides[k], &used);
            } catch (const std::exception&) {
                used = 0;
            }
            while (used < sides[k].size() &&
                   std::isspace(static_cast<unsigned char>(sides[k][used])))
                ++used;
            if (used == 0 || used != sides[k].size() || !std::isfinite(bounds[k]))
                return fail("'" + sides[k] + "' is not a number");
        }
        if (!(bounds[0] < bounds[1])) return fail("needs lo < hi in '" + part + "'");
        if (std::max(std::abs(bounds[0]), std::abs(bounds[1])) > 1e6)
            return fail("bounds must lie within [-1e6, 1e6]");
        ranges.emplace_back(bounds[0], bounds[1]);
    }
    if (ranges.empty() || ranges.size() > 2)
        return fail("one range (lo:hi) for x, or two (lo:hi,lo:hi) for x and y");
    box->lower.resize(static_cast<Eigen::Index>(ranges.size()));
    box->upper.resize(static_cast<Eigen::Index>(ranges.size()));
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        box->lower(static_cast<Eigen::Index>(i)) = ranges[i].first;
        box->upper(static_cast<Eigen::Index>(i)) = ranges[i].second;
    }
    return true;
}

std::shared_ptr<const TypedFunction> TypedFunction::parse(const std::string& expression,
                                                          const std::string& domain,
                                                          std::string* why) {
    Box box;
    if (!parseDomain(domain, &box, why)) return nullptr;
    return parseOver(expression, box, "the domain '" + domain + "'", why);
}

std::shared_ptr<const TypedFunction> TypedFunction::parse(const std::string& expression,
                                                          const Box& box, std::string* why) {
    if (box.dimension() != 2 || !box.lower.allFinite() || !box.upper.allFinite()) {
        if (why) *why = "function '" + expression + "': needs a finite 2-D box";
        return nullptr;
    }
    return parseOver(expression, box, "the box", why);
}

namespace {

// GiNaC computes a power of two numbers while it reads them, exactly or in long floats with
// unbounded exponents: 11111111^11111111111111 (every literal a double) made CLN ask for 32 GB,
// 2^110000000000 would take 14 GB. No text test bounds what a constant part costs, so the text
// is read first in a forked child whose memory (1 GiB more) and processor time (5 s) are
// limited: the parent reads it only when the child could. An ordinary refusal (a syntax error,
// a division by zero, an unknown name) ends the child normally and is reported by the parent's
// own reading; the child failing otherwise means the constant part is beyond computing.
bool readableWithinLimits(const std::string& text) {
    const pid_t child = ::fork();
    if (child < 0) return true;  // no process to try in: read as before
    if (child == 0) {
        limitChildData(std::uint64_t{1} << 30);
        const rlimit seconds{5, 6};
        setrlimit(RLIMIT_CPU, &seconds);
        int code = 0;
        try {
            const GiNaC::symbol x("x"), y("y");
            GiNaC::symtab symbols{
                {"x", x}, {"y", y}, {"pi", GiNaC::Pi}, {"e", GiNaC::numeric(std::exp(1.0))}};
            std::istringstream input(text);
            GiNaC::parser reader(symbols, true, typed_ginac::prototypes());
            (void)reader(input);
        } catch (const GiNaC::parse_error&) {
        } catch (const GiNaC::pole_error&) {
        } catch (const std::invalid_argument&) {
        } catch (...) {
            code = 2;
        }
        _exit(code);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::shared_ptr<const TypedFunction> TypedFunction::parseOver(const std::string& expression,
                                                              const Box& box,
                                                              const std::string& domainText,
                                                              std::string* why) {
    auto fail = [&](const std::string& message) {
        // A long expression is named by its first 60 characters (messages stay one line).
        const std::string named =
            expression.size() <= 60 ? expression : expression.substr(0, 57) + "...";
        if (why) *why = "function '" + named + "': " + message;
        return nullptr;
    };
    if (expression.find_first_not_of(" \t") == std::string::npos) return fail("empty");
    // GiNaC's reference counts and globals are not thread-safe: one parse at a time (two runs
    // of a race open their problems on their own threads). Declared first, released last.
    static std::mutex ginac;
    const std::lock_guard<std::mutex> lock(ginac);
    const GiNaC::symbol x("x"), y("y");
    GiNaC::symtab symbols{
        {"x", x}, {"y", y}, {"pi", GiNaC::Pi}, {"e", GiNaC::numeric(std::exp(1.0))}};
    if (expression.size() > kMaxLength)
        return fail("longer than " + std::to_string(kMaxLength) + " characters");
    std::vector<std::size_t> origin;
    std::string literalError;
    const std::string floats = floatLiterals(expression, &origin, &literalError);
    if (!literalError.empty()) return fail(literalError);
    if (!readableWithinLimits(floats))
        return fail(
            "its constant part is beyond computing (a power of numbers needs more than "
            "1 GiB or 5 s; every number is a double, at most 1e100)");
    std::istringstream input(floats);
    GiNaC::ex parsed;
    try {
        GiNaC::parser reader(symbols, true, typed_ginac::prototypes());
        parsed = reader(input);
    } catch (const GiNaC::parse_error& e) {
        input.clear();
        const auto consumed = input.tellg();
        const std::size_t at = consumed <= 0 || static_cast<std::size_t>(consumed) > origin.size()
                                   ? expression.size()
                                   : origin[static_cast<std::size_t>(consumed) - 1] + 1;
        return fail(parseErrorText(e.what(), expression, at));
    } catch (const GiNaC::pole_error&) {
        return fail("division by zero (a constant divided by 0)");
    } catch (const std::invalid_argument& e) {
        // find_or_insert_symbol: symbol "z" not found
        const std::string name = quotedText(e.what());
        if (name.empty()) return fail(e.what());
        return fail("unknown name '" + name + "' " +
                    atColumn(columnOfName(expression, name), expression) +
                    " (the variables are x and y, the constants pi and e)");
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    auto f = std::shared_ptr<TypedFunction>(new TypedFunction());
    try {
        f->root_ = std::make_shared<const Node>(compile(parsed, x, y));
    } catch (const ReadError& e) {
        return fail(e.message);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (usesY(*f->root_) && box.dimension() == 1)
        return fail("uses y, but " + domainText + " is 1-D (give two ranges: -3:3,-3:3)");
    f->expression_ = expression;
    f->canonical_ = f->root_->text;
    f->box_ = box;
    return f;
}

std::string TypedFunction::description() const {
    return "Your own function over the box [" + formatShort(box_.lower(0)) + ", " +
           formatShort(box_.upper(0)) + "]" +
           (dimension() == 2
                ? " x [" + formatShort(box_.lower(1)) + ", " + formatShort(box_.upper(1)) + "]"
                : std::string()) +
           ": exact subgradients through max, min and abs; its minimum is not known in advance.";
}

double TypedFunction::evaluateChecked(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient,
                                      std::string* error) const {
    return evaluateAt(x, subgradient, error, false);
}

double TypedFunction::evaluateSmooth(const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                                     std::string* error) const {
    return evaluateAt(x, gradient, error, true);
}

double TypedFunction::evaluateAt(const Eigen::VectorXd& x, Eigen::VectorXd* subgradient,
                                 std::string* error, bool smooth) const {
    if (error) error->clear();
    Eigen::Vector2d point = Eigen::Vector2d::Zero();
    for (Eigen::Index i = 0; i < std::min<Eigen::Index>(x.size(), 2); ++i)
        point(i) = x(i);
    try {
        const Dual r = evaluateNode(*root_, point, smooth);
        if (subgradient) *subgradient = r.g.head(dimension());
        return r.v;
    } catch (const EvaluationError& e) {
        if (error)
            *error = e.message + " at " + (dimension() == 1 ? "x = " : "(x, y) = ") + pointText(x);
        if (subgradient) *subgradient = Eigen::VectorXd::Constant(dimension(), std::nan(""));
        return std::numeric_limits<double>::quiet_NaN();
    }
}

double TypedFunction::minimumValue() const {
    return std::numeric_limits<double>::quiet_NaN();
}

Eigen::VectorXd TypedFunction::minimizer() const {
    return Eigen::VectorXd::Constant(dimension(), std::numeric_limits<double>::quiet_NaN());
}

}  // namespace cplab
