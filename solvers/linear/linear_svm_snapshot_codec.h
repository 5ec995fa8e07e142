// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a LinearSvmSnapshot's own fields (weights, plane counts, errors, OCAS's line
// search). The training set is not stored: the decoded snapshot shares the one of a snapshot
// of the same run (`base`).
#pragma once

#include "core/byte_stream.h"
#include "linear_svm_snapshot.h"

namespace cplab {

void encodeLinearSvmSnapshot(const LinearSvmSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks the weights' sizes against base's; on bad bytes
// `in` fails.
void decodeLinearSvmSnapshot(ByteReader& in, const LinearSvmSnapshot& base,
                             LinearSvmSnapshot& snapshot);

}  // namespace cplab
