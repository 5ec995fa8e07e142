// SPDX-License-Identifier: GPL-3.0-or-later
// A convex polygon typed as its vertices, "0,0 4,0 3,3 0,2" (issue 49: Frank–Wolfe over the
// user's own polygon), and the plane geometry Frank–Wolfe's problems share.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace cplab {

// Reads `text`: vertices "x,y" separated by blanks (or ';'), at least 3 and at most
// kMaxPolygonVertices, finite, each coordinate within [-1e6, 1e6], no vertex repeated, no
// vertex on the line through its neighbours, convex and going around once. Typed clockwise
// or counter-clockwise; `*vertices` is counter-clockwise and starts at the first vertex typed.
// false and *why ("polygon '0,0 4,0 1,1 0,4': not convex at vertex 3 (column 9) ...") naming the
// vertex by its number and column in the text otherwise.
bool parsePolygon(const std::string& text, std::vector<Eigen::Vector2d>* vertices,
                  std::string* why);
constexpr std::size_t kMaxPolygonVertices = 1000;
constexpr std::size_t kMaxPolygonText = 20000;  // characters

// The z-component of a × b.
inline double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
}
// Whether x lies in the convex polygon (counter-clockwise vertices), its boundary included.
bool insidePolygon(const std::vector<Eigen::Vector2d>& polygon, const Eigen::Vector2d& x);
// The point of the convex polygon (counter-clockwise vertices) nearest to x.
Eigen::Vector2d projectOntoPolygon(const std::vector<Eigen::Vector2d>& polygon,
                                   const Eigen::Vector2d& x);

}  // namespace cplab
