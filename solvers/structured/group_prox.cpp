// SPDX-License-Identifier: GPL-3.0-or-later
#include "structured/group_prox.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace cplab {

const char* toString(GroupRegulariser regulariser) {
    switch (regulariser) {
        case GroupRegulariser::SquaredL1:
            return "squared_l1";
        case GroupRegulariser::GroupLasso:
            return "group_lasso";
        case GroupRegulariser::L2:
            return "l2";
    }
    return "?";
}

bool parseGroupRegulariser(const std::string& text, GroupRegulariser* out) {
    for (const auto r :
         {GroupRegulariser::SquaredL1, GroupRegulariser::GroupLasso, GroupRegulariser::L2}) {
        if (text == toString(r)) {
            *out = r;
            return true;
        }
    }
    return false;
}

namespace {

void checkInputs(std::span<const double> b, double tau) {
    if (!(std::isfinite(tau) && tau >= 0))
        throw std::invalid_argument("group prox: tau must be finite and >= 0");
    for (const double x : b)
        if (!(std::isfinite(x) && x >= 0))
            throw std::invalid_argument("group prox: the group norms must be finite and >= 0");
}

GroupProx softThreshold(std::span<const double> b, double s) {
    GroupProx out;
    out.threshold = s;
    out.shrunk.resize(b.size());
    for (std::size_t k = 0; k < b.size(); ++k) {
        out.shrunk[k] = std::max(0.0, b[k] - s);
        out.active += out.shrunk[k] > 0;
    }
    return out;
}

}  // namespace

GroupProx proxGroupNorms(GroupRegulariser regulariser, std::span<const double> b, double tau) {
    checkInputs(b, tau);
    switch (regulariser) {
        case GroupRegulariser::SquaredL1: {
            std::vector<double> u(b.begin(), b.end());
            std::sort(u.begin(), u.end(), std::greater<>());
            // ρ: the last j whose u_j stays above the threshold of the first j; the condition
            // holds for a prefix of j (Appendix F of the paper), so scan until it fails.
            double sum = 0.0, kept = 0.0;
            int rho = 0;
            for (std::size_t j = 0; j < u.size(); ++j) {
                sum += u[j];
                const double jj = static_cast<double>(j + 1);
                if (u[j] - tau / (1.0 + jj * tau) * sum > 0) {
                    rho = static_cast<int>(j + 1);
                    kept = sum;
                }
            }
            // ρ ≥ 1 whenever some bₖ > 0 (u₁ − τu₁/(1 + τ) = u₁/(1 + τ) > 0); when τ is so
            // large that this rounds to 0, the exact answer rounds to 0 too: shrink to 0.
            const double s = rho > 0 ? tau / (1.0 + rho * tau) * kept : (u.empty() ? 0.0 : u[0]);
            return softThreshold(b, s);
        }
        case GroupRegulariser::GroupLasso:
            return softThreshold(b, tau);
        case GroupRegulariser::L2: {
            GroupProx out;
            out.threshold = std::numeric_limits<double>::quiet_NaN();
            out.shrunk.resize(b.size());
            for (std::size_t k = 0; k < b.size(); ++k) {
                out.shrunk[k] = b[k] / (1.0 + tau);
                out.active += out.shrunk[k] > 0;
            }
            return out;
        }
    }
    throw std::invalid_argument("group prox: unknown regulariser");
}

double regulariserValue(GroupRegulariser regulariser, std::span<const double> b) {
    const double l1 = std::accumulate(b.begin(), b.end(), 0.0);
    switch (regulariser) {
        case GroupRegulariser::SquaredL1:
            return 0.5 * l1 * l1;
        case GroupRegulariser::GroupLasso:
            return l1;
        case GroupRegulariser::L2:
            return 0.5 * std::inner_product(b.begin(), b.end(), b.begin(), 0.0);
    }
    return 0.0;
}

}  // namespace cplab
