// SPDX-License-Identifier: GPL-3.0-or-later
// Every registered family (families/family_list.h), in order.
#pragma once

#include <vector>

#include "family.h"

namespace cplab {

const std::vector<const Family*>& families();

}  // namespace cplab
