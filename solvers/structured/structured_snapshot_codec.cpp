// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of a StructuredSnapshot (structured_snapshot_codec.h).
#include "structured_snapshot_codec.h"

namespace cplab {

namespace {

void encodeLattice(const WordLattice& lattice, ByteWriter& out) {
    out.i32(lattice.word);
    out.matrix(lattice.scores);
    out.packedInts(lattice.truth);
    out.packedInts(lattice.decoded);
    out.packedInts(lattice.lossAugmented);
}

void decodeLattice(ByteReader& in, WordLattice& lattice) {
    lattice.word = in.i32();
    lattice.scores = in.matrix();
    lattice.truth = in.packedInts();
    lattice.decoded = in.packedInts();
    lattice.lossAugmented = in.packedInts();
}

// A lattice of word `word` of `words` over L labels: T × L scores, labellings of length T.
void checkLattice(ByteReader& in, const WordLattice& lattice, const SequenceData& words, int L) {
    if (!in.expect(
            lattice.word >= 0 && lattice.word < words.size(),
            "lattice word " + std::to_string(lattice.word) + " of " + std::to_string(words.size())))
        return;
    const auto w = static_cast<std::size_t>(lattice.word);
    const auto T = static_cast<std::size_t>(words.sequenceStart[w + 1] - words.sequenceStart[w]);
    in.expectSize(static_cast<std::size_t>(lattice.scores.rows()), T, "a lattice's letters");
    in.expectSize(static_cast<std::size_t>(lattice.scores.cols()), static_cast<std::size_t>(L),
                  "a lattice's labels");
    for (const auto* labeling : {&lattice.truth, &lattice.decoded, &lattice.lossAugmented}) {
        in.expectSize(labeling->size(), T, "a lattice's labelling", true);
        for (int label : *labeling)
            if (!in.expect(label >= 0 && label < L, "label " + std::to_string(label))) return;
    }
}

void checkSizes(ByteReader& in, const StructuredSnapshot& s, const StructuredSnapshot& base) {
    in.expect(
        s.labels == base.labels && s.features == base.features && s.transitions == base.transitions,
        "a model layout other than the run's");
    in.expectSize(s.labelNames.size(), base.labelNames.size(), "the label names");
    in.expectSize(static_cast<std::size_t>(s.w.size()), static_cast<std::size_t>(base.w.size()),
                  "the weights", true);
    in.expectSize(s.groupNorms.size(), s.groupNames.size(), "the group norms");
    in.expectSize(s.proxBefore.size(), s.groupNames.size(), "the group norms", true);
    in.expectSize(s.proxAfter.size(), s.groupNames.size(), "the group norms", true);
    if (!s.words) return;
    for (const WordLattice& lattice : s.lattices)
        checkLattice(in, lattice, *s.words, s.labels);
}

}  // namespace

void encodeStructuredSnapshot(const StructuredSnapshot& s, ByteWriter& out) {
    out.i32(s.labels);
    out.i32(s.features);
    out.boolean(s.transitions);
    out.strings(s.labelNames);
    out.f64(s.lambda);
    out.vector(s.w);
    for (double v : {s.primal, s.dual, s.gap, s.passes, s.meanStep, s.errors.trainLetter,
                     s.errors.trainWord, s.errors.testLetter, s.errors.testWord})
        out.f64(v);
    out.doubles(s.wordGaps);
    out.count(s.lattices.size());
    for (const WordLattice& lattice : s.lattices)
        encodeLattice(lattice, out);
    out.strings(s.groupNames);
    out.doubles(s.groupNorms);
    out.doubles(s.proxBefore);
    out.doubles(s.proxAfter);
    out.f64(s.proxThreshold);
    out.string(s.regulariser);
}

void decodeStructuredSnapshot(ByteReader& in, const StructuredSnapshot& base,
                              StructuredSnapshot& s) {
    s.words = base.words;
    s.labels = in.i32();
    s.features = in.i32();
    s.transitions = in.boolean();
    s.labelNames = in.strings();
    s.lambda = in.f64();
    s.w = in.vector();
    for (double* v : {&s.primal, &s.dual, &s.gap, &s.passes, &s.meanStep, &s.errors.trainLetter,
                      &s.errors.trainWord, &s.errors.testLetter, &s.errors.testWord})
        *v = in.f64();
    s.wordGaps = in.doubles();
    s.lattices.resize(in.count(47));
    for (WordLattice& lattice : s.lattices)
        decodeLattice(in, lattice);
    s.groupNames = in.strings();
    s.groupNorms = in.doubles();
    s.proxBefore = in.doubles();
    s.proxAfter = in.doubles();
    s.proxThreshold = in.f64();
    s.regulariser = in.string();
    if (in.ok()) checkSizes(in, s, base);
}

}  // namespace cplab
