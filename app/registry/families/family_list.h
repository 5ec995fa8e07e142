// SPDX-License-Identifier: GPL-3.0-or-later
// The registered families, one line each: CPLAB_FAMILY(name). Adding a family adds its line
// here (and its files); the name is the family's registry name, and the code that includes
// this list finds `<name>Family()` in app/registry/families/<name>.h and `widgets::<name>View()` in
// widgets/<name>_view.h. The order is the order of problems, solvers and demos in lists.
//
// No include guard: each includer defines CPLAB_FAMILY, includes this file, and undefines it.
CPLAB_FAMILY(nonsmooth)
CPLAB_FAMILY(polytope)
CPLAB_FAMILY(linear)
CPLAB_FAMILY(kernel)
CPLAB_FAMILY(sparse)
CPLAB_FAMILY(structured)
CPLAB_FAMILY(map)
