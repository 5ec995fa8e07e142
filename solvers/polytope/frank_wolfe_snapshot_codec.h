// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a FrankWolfeSnapshot's own fields (iterates, the last step's vertices, step
// and gap, the active-set weights). The polygon view is not stored: the decoded snapshot
// shares the one of a snapshot of the same run (`base`).
#pragma once

#include "core/byte_stream.h"
#include "frank_wolfe_snapshot.h"

namespace cplab {

void encodeFrankWolfeSnapshot(const FrankWolfeSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks the vertex indices and weights against base's
// polygon; on bad bytes `in` fails.
void decodeFrankWolfeSnapshot(ByteReader& in, const FrankWolfeSnapshot& base,
                              FrankWolfeSnapshot& snapshot);

}  // namespace cplab
