// SPDX-License-Identifier: GPL-3.0-or-later
#include "polygon.h"

#include <cmath>
#include <cstdlib>

#include "core/number_text.h"

namespace cplab {

namespace {

constexpr double kCoordinateLimit = 1e6;

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';';
}

struct TypedVertex {
    Eigen::Vector2d at;
    std::size_t column = 0;  // 1-based, where its text starts
};

// Reads one number at text[*i] (up to a blank, ',' or ';'); false and *why when it is none.
bool readNumber(const std::string& text, std::size_t* i, double* value, std::string* why) {
    const std::size_t start = *i;
    while (*i < text.size() && !isBlank(text[*i]) && text[*i] != ',')
        ++*i;
    const std::string token = text.substr(start, *i - start);
    if (token.empty()) {
        *why = "expected a number at column " + std::to_string(start + 1);
        return false;
    }
    if (const NumberError e = parseReal(token, *value); e != NumberError::None) {
        *why = "'" + token + "' at column " + std::to_string(start + 1) + " " + describe(e);
        return false;
    }
    return true;
}

// The vertices as typed, or false and *why.
bool readVertices(const std::string& text, std::vector<TypedVertex>* out, std::string* why) {
    std::size_t i = 0;
    while (true) {
        while (i < text.size() && isBlank(text[i]))
            ++i;
        if (i >= text.size()) return true;
        TypedVertex v;
        v.column = i + 1;
        const std::string name = "vertex " + std::to_string(out->size() + 1);
        if (out->size() >= kMaxPolygonVertices) {
            *why = "more than " + std::to_string(kMaxPolygonVertices) + " vertices";
            return false;
        }
        std::string error;
        if (!readNumber(text, &i, &v.at.x(), &error)) {
            *why = name + ": " + error + " (vertices are x,y separated by blanks: 0,0 4,0 3,3)";
            return false;
        }
        if (i >= text.size() || text[i] != ',') {
            *why = name + " at column " + std::to_string(v.column) +
                   ": expected x,y (a comma after x, no blank)";
            return false;
        }
        ++i;
        if (!readNumber(text, &i, &v.at.y(), &error)) {
            *why = name + ": " + error;
            return false;
        }
        if (v.at.cwiseAbs().maxCoeff() > kCoordinateLimit) {
            *why = name + " at column " + std::to_string(v.column) +
                   ": coordinates must lie within [-1e6, 1e6]";
            return false;
        }
        out->push_back(v);
    }
}

std::string vertexName(const std::vector<TypedVertex>& v, std::size_t k) {
    return "vertex " + std::to_string(k + 1) + " (" + formatShort(v[k].at.x(), 6) + "," +
           formatShort(v[k].at.y(), 6) + ", column " + std::to_string(v[k].column) + ")";
}

// Convex, going around once, no vertex on its neighbours' line; false and *why otherwise.
// `sign` is +1 for counter-clockwise vertices, −1 for clockwise ones.
bool checkConvex(const std::vector<TypedVertex>& v, double sign, std::string* why) {
    const std::size_t n = v.size();
    double turning = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        const Eigen::Vector2d& a = v[(k + n - 1) % n].at;
        const Eigen::Vector2d& b = v[k].at;
        const Eigen::Vector2d& c = v[(k + 1) % n].at;
        const double turn = sign * cross2(b - a, c - b);
        if (std::abs(turn) <= 1e-12 * (b - a).norm() * (c - b).norm()) {
            *why = vertexName(v, k) + " lies on the line through its neighbours: leave it out";
            return false;
        }
        if (turn < 0) {
            *why = "not convex at " + vertexName(v, k) +
                   ": the boundary turns the other way there (a convex polygon's vertices go "
                   "around in one direction)";
            return false;
        }
        turning += std::atan2(turn, (b - a).dot(c - b));
    }
    if (turning > 2 * M_PI + 1e-6) {
        *why = "the edges cross: the vertices go around more than once (a star is not convex)";
        return false;
    }
    return true;
}

}  // namespace

bool parsePolygon(const std::string& text, std::vector<Eigen::Vector2d>* vertices,
                  std::string* why) {
    auto fail = [&](const std::string& message) {
        const std::string named = text.size() <= 60 ? text : text.substr(0, 57) + "...";
        if (why) *why = "polygon '" + named + "': " + message;
        return false;
    };
    if (text.size() > kMaxPolygonText)
        return fail("longer than " + std::to_string(kMaxPolygonText) + " characters");
    std::vector<TypedVertex> v;
    std::string error;
    if (!readVertices(text, &v, &error)) return fail(error);
    if (v.size() < 3)
        return fail("needs at least 3 vertices x,y separated by blanks (0,0 4,0 3,3), got " +
                    std::to_string(v.size()));
    for (std::size_t k = 0; k < v.size(); ++k) {
        for (std::size_t j = 0; j < k; ++j) {
            if (v[j].at == v[k].at)
                return fail(vertexName(v, k) + " repeats vertex " + std::to_string(j + 1) +
                            ": give each vertex once");
        }
    }
    double area = 0.0;
    for (std::size_t k = 0; k < v.size(); ++k)
        area += cross2(v[k].at, v[(k + 1) % v.size()].at);
    if (!std::isfinite(area)) return fail("the vertices are too far apart");
    if (!checkConvex(v, area < 0 ? -1.0 : 1.0, &error)) return fail(error);
    vertices->clear();
    vertices->push_back(v[0].at);
    // Counter-clockwise from the first vertex typed.
    for (std::size_t k = 1; k < v.size(); ++k)
        vertices->push_back(v[area < 0 ? v.size() - k : k].at);
    return true;
}

bool insidePolygon(const std::vector<Eigen::Vector2d>& polygon, const Eigen::Vector2d& x) {
    for (std::size_t k = 0; k < polygon.size(); ++k) {
        const Eigen::Vector2d& a = polygon[k];
        const Eigen::Vector2d& b = polygon[(k + 1) % polygon.size()];
        if (cross2(b - a, x - a) < 0) return false;
    }
    return true;
}

Eigen::Vector2d projectOntoPolygon(const std::vector<Eigen::Vector2d>& polygon,
                                   const Eigen::Vector2d& x) {
    if (insidePolygon(polygon, x)) return x;
    Eigen::Vector2d best = polygon.front();
    double bestDistance = (x - best).squaredNorm();
    for (std::size_t k = 0; k < polygon.size(); ++k) {
        const Eigen::Vector2d& a = polygon[k];
        const Eigen::Vector2d d = polygon[(k + 1) % polygon.size()] - a;
        const double s = std::clamp((x - a).dot(d) / d.squaredNorm(), 0.0, 1.0);
        const Eigen::Vector2d p = a + s * d;
        if ((x - p).squaredNorm() < bestDistance) {
            bestDistance = (x - p).squaredNorm();
            best = p;
        }
    }
    return best;
}

}  // namespace cplab
