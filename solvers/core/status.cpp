// SPDX-License-Identifier: GPL-3.0-or-later
#include "status.h"

namespace cplab {

const char* statusName(StatusCode code) {
    switch (code) {
        case StatusCode::Running:
            return "running";
        case StatusCode::Converged:
            return "converged";
        case StatusCode::IterationLimit:
            return "iteration_limit";
        case StatusCode::TimeLimit:
            return "time_limit";
        case StatusCode::Cancelled:
            return "cancelled";
        case StatusCode::Stalled:
            return "stalled";
        case StatusCode::NumericalFailure:
            return "numerical_failure";
        case StatusCode::InvalidInput:
            return "invalid_input";
    }
    return "unknown";
}

}  // namespace cplab
