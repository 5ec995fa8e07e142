// SPDX-License-Identifier: GPL-3.0-or-later
// The structured family: structural SVMs for sequence labelling (ALGORITHMS.md §6) on a chain
// model — handwritten words (Taskar's letter.data) or any labelled sequences in the generic
// sequence format (solvers/data/sequence_format.h) — with a test set from a fold, a file or a
// held-out fraction of the sequences.
#pragma once

#include <memory>

#include "family.h"
#include "structured/bcfw.h"

namespace cplab {

struct StructuredData final : ProblemData {
    StructuredProblem problem;  // training words and optional test words, as chain models

    std::string details() const override;
    SummaryFields summary() const override;
};

const Family& structuredFamily();

}  // namespace cplab
