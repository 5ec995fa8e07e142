// SPDX-License-Identifier: GPL-3.0-or-later
// The master LP of MKL by cutting planes (SILP; also SimpleMKL's lower bound): over the
// simplex, min θ subject to θ ≥ Σₖ βₖ Sₖ(αᵢ) for every plane i. Every feasible α gives a
// plane below D(β) = max_α Σₖ βₖ Sₖ(α) on the whole simplex, so the LP's value θ is a lower
// bound of min_β D(β) (the MKL objective), and its minimiser is Kelley's next β.
#pragma once

#include <Eigen/Core>
#include <string>

#include "math/lp_master.h"

namespace cplab {

class MklMasterLp {
  public:
    explicit MklMasterLp(int kernels);

    int planes() const { return planes_; }
    // The row θ ≥ Σₖ βₖ Sₖ (S of length kernels()).
    void addPlane(const Eigen::VectorXd& S);
    // Re-solves warm (dual simplex). False on failure (message()).
    bool solve();
    double theta() const;          // the last solve's θ
    Eigen::VectorXd beta() const;  // its minimiser, clipped to ≥ 0 and rescaled onto Δ
    std::string message() const { return lp_.lastMessage(); }

  private:
    int K_ = 0;
    int planes_ = 0;
    LpMaster lp_;
};

}  // namespace cplab
