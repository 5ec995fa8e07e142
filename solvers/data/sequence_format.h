// SPDX-License-Identifier: GPL-3.0-or-later
// Labelled sequences (words of handwritten letters, sentences of tagged tokens) for
// structured output learning (ALGORITHMS.md §6), and their two file formats.
//
// In memory (SequenceData): n sequences of tokens; token k has a sparse feature vector (row k
// of one N × d compressed row-major matrix over all tokens of all sequences, N = Σᵢ Tᵢ) and a
// label id in 0..L−1 whose text is labelNames[id]. Sequence i holds the tokens
// sequenceStart[i] .. sequenceStart[i+1]−1, in order. Features are sparse because the OCR
// pixels are (28 of 128 pixels are on in a letter, 12 bytes per stored pixel against 8 per
// dense one: a third of the memory), and because feature templates of text tasks are.
//
// ---- Taskar's letter.data (Taskar, Guestrin & Koller 2003; the OCR words of BCFW and of
// Martins et al.) -------------------------------------------------------------------------
//
//   id  letter  next_id  word_id  position  fold  p_0 … p_127          (one letter per line)
//
// Fields are separated by tabs (spaces are accepted too; a trailing blank is ignored).
// `letter` is one of a–z; the 128 pixels are the 16 × 8 image row by row (p_{8r+c}), 0/1 in
// Taskar's file (any finite value is read as it is). The letters of a word are consecutive
// lines: `next_id` is the id of the following line, or −1 on the word's last letter;
// `position` counts 1, 2, … within the word; `word_id` strictly increases from word to word
// (ids need not be consecutive, so a subset of the file is a valid file) and `fold` is the
// same for all letters of a word. Blank lines are skipped. Anything else — an unknown letter,
// a field that is not a number, a pixel count other than 128, a word id out of order, a
// next_id that breaks a word, a file that ends inside a word — is a DataError naming the file,
// the line and what was expected. Labels: label id k is the letter 'a' + k (L = 26, always,
// whichever letters occur); features: d = 128, the pixels (1-based index j+1 in the generic
// format below is p_j).
//
// ---- The generic sequence format (LIBSVM-like, one token per line) ----------------------
//
//   # labels: a b c            optional header: the label names, in label-id order
//   # dimension: 128           optional header: the number of features d
//   # any other comment
//   a 1:0.5 7:1 12:1           <label> <index>:<value> … (1-based, strictly increasing
//   b 3:1                       indices; zero values are dropped)
//                              a blank line ends a sequence (several count as one)
//   c 2:1 …
//
// A label is any token without ':' and '#'. Header lines ("# labels:",
// "# dimension:") must come before the first token; every other line whose first non-blank
// character is '#' is a comment, and a '#' after the features starts a trailing comment.
// Comment lines do not end a sequence. Without a labels header the label names are the
// distinct labels of the file sorted numerically when all are numbers (1, 2, 10), else in
// byte order; with it, a label not declared there is an error. Without a dimension header d
// is the largest index that occurs. Lines end with LF or CRLF; the file may be gzip.
// formatSequences writes both headers, so that a file round-trips exactly (labels that do
// not occur and all-zero trailing features survive).
//
// Both readers detect gzip by its magic bytes and refuse binary input at its first bytes
// (text_io.h); nothing is half-loaded.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/data_format.h"
#include "data/dataset.h"

namespace cplab {

struct SequenceData {
    using SparseMatrix = Dataset::SparseMatrix;  // row-major, compressed, sorted, no zeros

    std::string name;                     // display name (file name)
    std::string source;                   // path or the name given to the parser
    SparseMatrix features;                // N × d: row k = token k's features
    std::vector<int> labels;              // N label ids in [0, L)
    std::vector<int> sequenceStart;       // n + 1 offsets; sequenceStart[0] = 0, back() = N
    std::vector<std::string> labelNames;  // L ≥ 1 distinct names; label id k ↔ labelNames[k]
    std::vector<int> lines;               // N: 1-based line of each token in `source`, or empty
    std::vector<int> sequenceIds;         // n: letter.data's word_id (else empty)
    std::vector<int> folds;               // n: letter.data's fold (else empty)

    // Number of sequences n.
    int size() const { return static_cast<int>(sequenceStart.size()) - 1; }
    // Number of tokens N.
    int tokenCount() const { return static_cast<int>(labels.size()); }
    // Number of features d.
    int dimension() const { return static_cast<int>(features.cols()); }
    // Number of labels L.
    int labelCount() const { return static_cast<int>(labelNames.size()); }
    // Length T_i and first token of sequence i (0 ≤ i < size()).
    int length(int i) const { return sequenceStart[i + 1] - sequenceStart[i]; }
    int first(int i) const { return sequenceStart[i]; }
    // The longest sequence (0 when there is none).
    int maxLength() const;

    // The sequences `indices` (in that order; repeats allowed), same labels and features.
    // Throws std::out_of_range for an index outside [0, size()).
    SequenceData subset(const std::vector<int>& indices) const;
    // Indices of the sequences whose fold is (or, with inFold = false, is not) `fold`. Throws
    // std::logic_error when the data carry no folds (not read from letter.data).
    std::vector<int> sequencesOfFold(int fold, bool inFold = true) const;
    // {fold == trainFold, fold != trainFold}: the common OCR protocol is splitByFold(0),
    // which trains on 626 words and tests on the other 6,251. Names get " (train)"/" (test)".
    std::pair<SequenceData, SequenceData> splitByFold(int trainFold) const;

    // "letter.data.gz:41" (source and line of token k) when lines are known, else
    // "token 42 of '<name>'" (1-based). For messages.
    std::string where(int token) const;

    // Empty when every invariant stated above holds, else a sentence saying what is wrong.
    std::string contractViolation() const;
};

// --- letter.data ----------------------------------------------------------------------------

inline constexpr int kOcrPixels = 128;  // 16 × 8 image
// The largest feature count (index, or `# dimension:`) of the generic format: the chain model
// keeps dense weights, L per feature, so a larger index is refused at its line rather than
// allocated (2^24; hashed text features stay well below).
inline constexpr int kMaxSequenceFeatures = 1 << 24;
inline constexpr int kOcrLetters = 26;  // a–z

// Loads Taskar's letter.data (plain or gzip) at `path`. name = the file name, source = path.
SequenceData loadLetterData(const std::string& path);
// Parses letter.data text (or its gzip) held in memory; `sourceName` names it in messages.
SequenceData parseLetterData(std::string_view bytes, const std::string& sourceName);

// --- the generic sequence format ------------------------------------------------------------

SequenceData loadSequences(const std::string& path);
SequenceData parseSequences(std::string_view bytes, const std::string& sourceName);

// The generic text of `data` with its "# labels:" and "# dimension:" headers, one token per
// line, a blank line after each sequence but the last, numbers in shortest round-trip form:
// parseSequences(formatSequences(x)) holds the same sequences, labels, names and features.
// Label names must be tokens the format can hold (non-empty, no blank, ':' or '#').
// Throws std::invalid_argument when `data` breaks the contract or a name cannot be written.
std::string formatSequences(const SequenceData& data);
// Writes formatSequences(data) to `path`, gzip-compressed when `gzip`. Throws DataError.
void writeSequences(const std::string& path, const SequenceData& data, bool gzip = false);

// The format table's sniffs (data_format.h). letter.data: 3 when the first line that is not
// blank or a comment has 100 tabs or more and no ':'. The generic format: 3 when the name ends
// in .seq, else 1 (the fallback of sequence data, as LIBSVM/SVMlight is of examples).
int sniffLetterData(const FilePrefix& prefix);
int sniffSequences(const FilePrefix& prefix);

}  // namespace cplab
