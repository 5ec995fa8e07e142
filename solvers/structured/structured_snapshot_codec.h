// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a StructuredSnapshot's own fields (the weights, bounds, errors, lattices and
// online MKL's groups). The words are not stored: the decoded snapshot shares those of a
// snapshot of the same run (`base`).
#pragma once

#include "core/byte_stream.h"
#include "structured_snapshot.h"

namespace cplab {

void encodeStructuredSnapshot(const StructuredSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks the layout and the lattices against base's
// model and words; on bad bytes `in` fails.
void decodeStructuredSnapshot(ByteReader& in, const StructuredSnapshot& base,
                              StructuredSnapshot& snapshot);

}  // namespace cplab
