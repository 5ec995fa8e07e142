// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/families.h"

namespace cplab {

#define CPLAB_FAMILY(name) const Family& name##Family();
#include "families/family_list.h"
#undef CPLAB_FAMILY

const std::vector<const Family*>& families() {
    static const std::vector<const Family*> list = {
#define CPLAB_FAMILY(name) &name##Family(),
#include "families/family_list.h"
#undef CPLAB_FAMILY
    };
    return list;
}

}  // namespace cplab
