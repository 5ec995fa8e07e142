// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of an MklPathSnapshot's own fields (η, λ, the α of every accepted point and the
// pictures of their predictors). The path model (data and kernels) is not stored: the decoded
// snapshot shares the one of a snapshot of the same run (`base`).
#pragma once

#include "core/byte_stream.h"
#include "mkl_path_snapshot.h"

namespace cplab {

void encodeMklPathSnapshot(const MklPathSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks the sizes of α and η against base's; on bad
// bytes `in` fails.
void decodeMklPathSnapshot(ByteReader& in, const MklPathSnapshot& base, MklPathSnapshot& snapshot);

}  // namespace cplab
