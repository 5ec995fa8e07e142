// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a CuttingPlaneSnapshot's own fields (Kelley, proximal bundle): planes,
// iterates, points, the bundle's state and the model drawings. The sampled function is not
// stored: the decoded snapshot shares the one of a snapshot of the same run (`base`).
#pragma once

#include "core/byte_stream.h"
#include "cutting_plane_view.h"

namespace cplab {

void encodeCuttingPlaneSnapshot(const CuttingPlaneSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` (its common fields are read by the caller) and checks
// their sizes against base's function; on bad bytes `in` fails.
void decodeCuttingPlaneSnapshot(ByteReader& in, const CuttingPlaneSnapshot& base,
                                CuttingPlaneSnapshot& snapshot);

}  // namespace cplab
