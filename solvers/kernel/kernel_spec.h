// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel specifications (DESIGN.md, "Kernel specs"; ALGORITHMS.md §4) and their grammar.
//
//     list   := item (';' item)*
//     item   := base ['@' scope]
//     base   := 'linear'                       ⟨x, x′⟩
//             | 'poly:' d [',' c]              (⟨x, x′⟩ + c)^d, d a positive integer, c ≥ 0
//             (default 1) | 'gaussian:' γ (',' γ)*         exp(−γ‖x − x′‖²), γ > 0; one kernel per
//             γ | 'precomputed'                  the data file holds the kernel (LIBSVM's format)
//     scope  := 'all'                          every feature (the default)
//             | 'each_feature'                 one kernel per feature
//             | i ['-' j] (',' i ['-' j])*     a group of 1-based features (LIBSVM's indices)
//
// So "gaussian:0.1,1,10;poly:2;linear" is five kernels and "gaussian:1@each_feature" on
// ionosphere is 34. Spaces around tokens are ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cplab {

enum class KernelType { Linear, Polynomial, Gaussian, Precomputed };

struct KernelSpec {
    KernelType type = KernelType::Linear;
    int degree = 1;             // Polynomial: d ≥ 1
    double offset = 1.0;        // Polynomial: c ≥ 0
    double gamma = 1.0;         // Gaussian: γ > 0
    std::vector<int> features;  // 0-based feature indices used; empty: all features

    // Short readable name, unique within a parsed list: "gaussian:0.5", "poly:2,1",
    // "linear@3", "gaussian:1@1-4". Parsing the label gives the spec back.
    std::string label() const;
};

// How each base kernel is scaled before it is combined (kernel option `normalize`):
//   none      K as it is;
//   diagonal  K(x, x′) / √(K(x, x) K(x′, x′)) (unit diagonal; Gaussian kernels are unchanged);
//   trace     K · m / tr K on the m training examples (mean diagonal 1: SimpleMKL's unit trace
//             up to the constant m, so that C keeps its meaning; Gaussian kernels unchanged).
enum class KernelNormalization { None, Diagonal, Trace };
const char* toString(KernelNormalization normalization);
bool parseNormalization(const std::string& text, KernelNormalization* out);

// At most this many kernels in one list (each is a column of SILP's LP and a cached matrix),
// and at most kMaxGroupFeatures features listed in one '@' group (use '@all' for more).
inline constexpr int kMaxKernels = 1000;
inline constexpr int kMaxGroupFeatures = 1 << 20;

// A kernel list or item quoted for a message: whole up to kQuotedKernelChars characters, else
// its head, "...", and its length ("'gaussian:1,2,3,...' (78,894 characters)"), so that a
// refused list of 10,000 kernels is not echoed back whole.
inline constexpr std::size_t kQuotedKernelChars = 60;
std::string quotedKernelText(std::string_view text);

// Parses a kernel list for data with `dimension` features. Returns false with *why naming the
// offending item and what was expected (empty list, unknown kernel word, γ ≤ 0, degree not a
// positive integer, c < 0, a feature index outside 1..dimension, a malformed range,
// 'precomputed' mixed with other kernels, more than kMaxKernels kernels or kMaxGroupFeatures
// features in a group). Never throws.
bool parseKernelList(const std::string& text, int dimension, std::vector<KernelSpec>* out,
                     std::string* why);

}  // namespace cplab
