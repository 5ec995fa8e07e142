// SPDX-License-Identifier: GPL-3.0-or-later
// A thin wrapper over COIN-OR Clp for the master LPs of cutting-plane methods:
//
//     minimise cᵀz  subject to  rowLower ≤ R z ≤ rowUpper,   colLower ≤ z ≤ colUpper,
//
// to which one row (one cutting plane) is added per iteration and which is then re-solved
// warm with the dual simplex (adding a row keeps the previous basis dual feasible).
// Bounds may be ±infinity (std::numeric_limits<double>::infinity()). Clp prints nothing.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

namespace cplab {

enum class LpStatus { Optimal, Infeasible, Unbounded, Failed };
const char* toString(LpStatus status);

class LpMaster {
  public:
    LpMaster(const Eigen::VectorXd& objective, const Eigen::VectorXd& colLower,
             const Eigen::VectorXd& colUpper);
    ~LpMaster();
    LpMaster(LpMaster&&) noexcept;
    LpMaster& operator=(LpMaster&&) noexcept;
    LpMaster(const LpMaster&) = delete;
    LpMaster& operator=(const LpMaster&) = delete;

    int columns() const;
    int rows() const;

    // Appends the row lower ≤ coefficientsᵀ z ≤ upper (dense coefficients, length
    // columns(); zeros are not stored). Returns the new row's index.
    int addRow(const Eigen::Ref<const Eigen::VectorXd>& coefficients, double lower, double upper);

    // Removes rows (any order, no duplicates); later rows shift down.
    void removeRows(std::vector<int> indices);

    // Changes the bounds of column j.
    void setColumnBounds(int j, double lower, double upper);

    // Solves with the dual simplex from the last basis (primal simplex the first time or if
    // the dual simplex fails). Results below refer to the last solve().
    LpStatus solve();

    double objective() const;
    const Eigen::VectorXd& solution() const;  // z, length columns()
    const Eigen::VectorXd& rowDuals() const;  // duals of the rows, length rows()
    int lastIterations() const;               // simplex iterations of the last solve()
    std::string lastMessage() const;          // readable status of the last solve()

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cplab
