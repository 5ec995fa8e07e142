// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a SparseSnapshot's own fields (expansion vectors, coefficients, their trail,
// the decision grid). The training set is not stored: the decoded snapshot shares the one of a
// snapshot of the same run (`base`); the classifier is rebuilt from Z, β and b by
// sparseClassifier, as the solvers build it, with its kernel and classes stored.
#pragma once

#include "core/byte_stream.h"
#include "sparse_snapshot.h"

namespace cplab {

void encodeSparseSnapshot(const SparseSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks their sizes against base's training set; on bad
// bytes `in` fails.
void decodeSparseSnapshot(ByteReader& in, const SparseSnapshot& base, SparseSnapshot& snapshot);

}  // namespace cplab
