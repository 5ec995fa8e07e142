// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a KernelSnapshot's own fields (β, α, the classifier, its decision grid, the
// cutting-plane model of D(β)), and of the parts the sparse and MKL-path codecs share
// (contours, kernel specs, decision grids). The SVM setup is not stored: the decoded snapshot
// shares the one of a snapshot of the same run (`base`), and the classifier's support vectors
// are taken from its training set again (as KernelSvmSolver::makeClassifier takes them).
#pragma once

#include "core/byte_stream.h"
#include "kernel_snapshot.h"

namespace cplab {

void encodeKernelSnapshot(const KernelSnapshot& snapshot, ByteWriter& out);
// Reads the fields into `snapshot` and checks their sizes against base's setup (K kernels,
// m examples); on bad bytes `in` fails.
void decodeKernelSnapshot(ByteReader& in, const KernelSnapshot& base, KernelSnapshot& snapshot);

// The parts other codecs share. A decoded spec's feature indices are checked against
// `dimension` (the data's features), a grid's values against its n × n.
void encodeContour(const ContourLevel& level, ByteWriter& out);
void decodeContour(ByteReader& in, ContourLevel& level);
void encodeKernelSpec(const KernelSpec& spec, ByteWriter& out);
void decodeKernelSpec(ByteReader& in, int dimension, KernelSpec& spec);
void encodeDecisionGrid(const DecisionGrid& grid, ByteWriter& out);
void decodeDecisionGrid(ByteReader& in, DecisionGrid& grid);

}  // namespace cplab
