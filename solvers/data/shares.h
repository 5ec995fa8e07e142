// SPDX-License-Identifier: GPL-3.0-or-later
// Examples shared among the processes of a distributed run (core/communicator.h, issue #32):
// each rank reads only its share of a LIBSVM file, and the shares are made one problem by a
// few collectives at load time.
//
// A file name holding "%r" names one file per rank (%r replaced by the rank: 'part-%r.svm',
// plain or gzip); any other name is one plain-text file whose bytes are split at line
// boundaries (libsvm_format.h, loadLibsvmShare; a gzip file is refused with a message saying
// to decompress it or give one file per rank). Then, over the ranks: the dimension is the
// largest of the shares'; the features are compacted exactly as compactFeatures (dataset.h)
// would compact the whole file, on the union of the shares' used features (one gather of
// d_used indices), so a rank holds O(nnz/N + d_used), never O(d_max); and a test set, given the
// same way, gets the training set's features. A share that fails to load fails every rank with
// one message naming the rank and the file:line ("rank 1: part-1.svm:7: ...").
#pragma once

#include <string>

#include "core/communicator.h"
#include "data/test_split.h"

namespace cplab {

// `pattern` with every "%r" replaced by `rank` (unchanged without %r).
std::string shareFileName(const std::string& pattern, int rank);
// Whether `pattern` names one file per rank.
bool namesFilePerRank(const std::string& pattern);

// This rank's shares of the training file and of the test file (empty: none), made one
// problem over `comm` as described above. Every rank must call it. Throws std::runtime_error
// with the first failing rank's message on every rank, naming the rank and its file, never a
// C++ library's text (std::bad_alloc, basic_string::_M_create). One file that is not a regular
// file (a FIFO, a device) cannot be cut into byte ranges and is refused so; one file per rank
// may be a FIFO.
ExampleSets loadSharedExamples(const std::string& trainPattern, const std::string& testPattern,
                               Communicator& comm);

// Where the shares of one training set first hold more than `most` classes, reading the ranks
// in order and each share in its line order: on the rank whose line brings class most + 1,
// "p-1.svm:2: label 3 adds a third class to -1 and 1 (the shares read in rank order)"; empty on
// every other rank (and on all when there are at most `most`). Every rank must call it (one
// collective); pass its answer to firstFailure, which prefixes the rank.
std::string firstClassBeyond(const Dataset& share, Communicator& comm, std::size_t most);

}  // namespace cplab
