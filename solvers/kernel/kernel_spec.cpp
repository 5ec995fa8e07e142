// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>

#include "core/number_text.h"

namespace cplab {

namespace {

// The largest polynomial degree: (⟨x, x′⟩ + c)^d of data within ±1e100 is only finite and
// informative for small d; the rows are built by d − 1 multiplications.
constexpr int kMaxPolyDegree = 100;

constexpr const char* kExpectedKernel =
    "(expected linear, poly:d[,c], gaussian:γ[,γ…] or precomputed)";

std::string_view trimmed(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

// Pieces of `text` between `separator`s (each trimmed; empty pieces kept).
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> pieces;
    std::size_t start = 0;
    while (true) {
        const std::size_t at = text.find(separator, start);
        pieces.push_back(trimmed(text.substr(
            start, at == std::string_view::npos ? std::string_view::npos : at - start)));
        if (at == std::string_view::npos) break;
        start = at + 1;
    }
    return pieces;
}

// A whole token as an int (no sign, no spaces); false otherwise.
bool parsePositiveInt(std::string_view token, int* out) {
    if (token.empty() || token.front() == '+' || token.front() == '-') return false;
    int value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size()) return false;
    *out = value;
    return true;
}

std::string quoted(std::string_view text) {
    return quotedKernelText(text);
}

// The shortest text that reads back to `value`, plain where that is as short ("10", "0.001",
// "1e-05"), for labels people read.
std::string numberText(double value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

// 0-based sorted features as "1-4,7" (1-based, runs joined).
std::string featureText(const std::vector<int>& features) {
    std::string out;
    std::size_t a = 0;
    while (a < features.size()) {
        std::size_t b = a;
        while (b + 1 < features.size() && features[b + 1] == features[b] + 1)
            ++b;
        if (!out.empty()) out += ',';
        out += std::to_string(features[a] + 1);
        if (b > a) out += '-' + std::to_string(features[b] + 1);
        a = b + 1;
    }
    return out;
}

// Parses the base of `item` (its text before '@') into one or more specs.
bool parseBase(std::string_view item, std::string_view base, std::vector<KernelSpec>* out,
               std::string* why) {
    const std::size_t colon = base.find(':');
    const std::string_view word = trimmed(base.substr(0, colon));
    const bool hasArgs = colon != std::string_view::npos;
    const std::vector<std::string_view> args =
        hasArgs ? split(base.substr(colon + 1), ',') : std::vector<std::string_view>{};
    const std::string prefix = "kernel " + quoted(item) + ": ";

    if (word == "linear" || word == "precomputed") {
        if (hasArgs) {
            *why = prefix + std::string(word) + " takes no parameters";
            return false;
        }
        KernelSpec spec;
        spec.type = word == "linear" ? KernelType::Linear : KernelType::Precomputed;
        out->push_back(spec);
        return true;
    }
    if (word == "poly") {
        if (!hasArgs || args.size() > 2) {
            *why = prefix + "expected poly:d or poly:d,c (degree d, offset c)";
            return false;
        }
        KernelSpec spec;
        spec.type = KernelType::Polynomial;
        double degree = 0.0;
        if (parseReal(args[0], degree) == NumberError::None && degree == std::floor(degree) &&
            degree > kMaxPolyDegree) {
            *why = prefix + "degree " + quoted(args[0]) + " is too large: at most " +
                   std::to_string(kMaxPolyDegree);
            return false;
        }
        if (!parsePositiveInt(args[0], &spec.degree) || spec.degree < 1) {
            *why = prefix + "degree " + quoted(args[0]) + " must be a positive integer";
            return false;
        }
        if (args.size() == 2) {
            double c = 0.0;
            if (const NumberError error = parseReal(args[1], c); error != NumberError::None) {
                *why = prefix + "offset c " + quoted(args[1]) + " " + describe(error);
                return false;
            }
            if (!(c >= 0.0)) {
                *why = prefix + "offset c must be >= 0";
                return false;
            }
            spec.offset = c;
        }
        out->push_back(spec);
        return true;
    }
    if (word == "gaussian") {
        if (!hasArgs) {
            *why = prefix + "expected gaussian:γ or a list gaussian:γ1,γ2,…";
            return false;
        }
        for (const std::string_view arg : args) {
            KernelSpec spec;
            spec.type = KernelType::Gaussian;
            if (const NumberError error = parseReal(arg, spec.gamma); error != NumberError::None) {
                *why = prefix + "gamma " + quoted(arg) + " " + describe(error);
                return false;
            }
            if (!(spec.gamma > 0.0)) {
                *why = prefix + "gamma must be > 0";
                return false;
            }
            out->push_back(spec);
        }
        return true;
    }
    *why = "unknown kernel " + quoted(word.empty() ? base : word) + " " + kExpectedKernel;
    return false;
}

// Parses a scope ("all", "each_feature" or groups of 1-based features) into feature lists:
// one empty list for all features, one list per kernel otherwise.
bool parseScope(std::string_view item, std::string_view scope, int dimension,
                std::vector<std::vector<int>>* groups, std::string* why) {
    const std::string prefix = "kernel " + quoted(item) + ": ";
    if (scope == "all") {
        groups->push_back({});
        return true;
    }
    if (scope == "each_feature") {
        if (dimension > kMaxKernels) {
            *why = prefix + "each_feature over " + std::to_string(dimension) +
                   " features would make as many kernels; at most " + std::to_string(kMaxKernels) +
                   " are allowed (list feature groups instead)";
            return false;
        }
        for (int j = 0; j < dimension; ++j)
            groups->push_back({j});
        return true;
    }
    std::vector<int> features;
    for (const std::string_view range : split(scope, ',')) {
        const std::size_t dash = range.find('-');
        const std::string_view first = trimmed(range.substr(0, dash));
        const std::string_view last =
            dash == std::string_view::npos ? first : trimmed(range.substr(dash + 1));
        int a = 0;
        int b = 0;
        if (!parsePositiveInt(first, &a) || !parsePositiveInt(last, &b) || a > b) {
            *why = prefix + "feature range " + quoted(range) +
                   " is malformed (expected i or i-j with 1 <= i <= j, or all, or each_feature)";
            return false;
        }
        for (const int f : {a, b}) {
            if (f < 1 || (dimension > 0 && f > dimension)) {
                *why = "feature " + std::to_string(f) + " in " + quoted(item) + " is outside 1.." +
                       std::to_string(std::max(dimension, 1));
                return false;
            }
        }
        if (static_cast<long long>(features.size()) + b - a + 1 > kMaxGroupFeatures) {
            *why = prefix + "more than " + std::to_string(kMaxGroupFeatures) +
                   " features in one group; use @all for all features";
            return false;
        }
        for (int f = a; f <= b; ++f)
            features.push_back(f - 1);
    }
    std::sort(features.begin(), features.end());
    features.erase(std::unique(features.begin(), features.end()), features.end());
    groups->push_back(std::move(features));
    return true;
}

}  // namespace

std::string KernelSpec::label() const {
    std::string out;
    switch (type) {
        case KernelType::Linear:
            out = "linear";
            break;
        case KernelType::Polynomial:
            out = "poly:" + std::to_string(degree) + "," + numberText(offset);
            break;
        case KernelType::Gaussian:
            out = "gaussian:" + numberText(gamma);
            break;
        case KernelType::Precomputed:
            out = "precomputed";
            break;
    }
    if (!features.empty()) out += "@" + featureText(features);
    return out;
}

const char* toString(KernelNormalization normalization) {
    switch (normalization) {
        case KernelNormalization::None:
            return "none";
        case KernelNormalization::Diagonal:
            return "diagonal";
        case KernelNormalization::Trace:
            return "trace";
    }
    return "none";
}

bool parseNormalization(const std::string& text, KernelNormalization* out) {
    const std::string_view t = trimmed(text);
    for (const KernelNormalization n :
         {KernelNormalization::None, KernelNormalization::Diagonal, KernelNormalization::Trace}) {
        if (t == toString(n)) {
            *out = n;
            return true;
        }
    }
    return false;
}

std::string quotedKernelText(std::string_view text) {
    if (text.size() <= kQuotedKernelChars) return "'" + std::string(text) + "'";
    std::string count = std::to_string(text.size());
    for (int at = static_cast<int>(count.size()) - 3; at > 0; at -= 3)
        count.insert(static_cast<std::size_t>(at), ",");
    return "'" + std::string(text.substr(0, kQuotedKernelChars)) + "...' (" + count +
           " characters)";
}

bool parseKernelList(const std::string& text, int dimension, std::vector<KernelSpec>* out,
                     std::string* why) {
    std::string ignored;
    if (!why) why = &ignored;
    std::vector<KernelSpec> specs;
    if (trimmed(text).empty()) {
        *why = "empty kernel list";
        return false;
    }
    bool precomputed = false;
    for (const std::string_view item : split(text, ';')) {
        if (item.empty()) {
            *why =
                "empty item in kernel list " + quoted(text) + " (expected items separated by ';')";
            return false;
        }
        const std::size_t at = item.find('@');
        const std::string_view base = trimmed(item.substr(0, at));
        std::vector<KernelSpec> bases;
        if (!parseBase(item, base, &bases, why)) return false;
        std::vector<std::vector<int>> groups;
        if (at == std::string_view::npos) {
            groups.push_back({});
        } else {
            const std::string_view scope = trimmed(item.substr(at + 1));
            if (bases.front().type == KernelType::Precomputed) {
                *why = "kernel " + quoted(item) + ": precomputed takes no feature scope";
                return false;
            }
            if (scope.empty()) {
                *why = "kernel " + quoted(item) +
                       ": expected a scope after '@' (all, each_feature or features i-j,k)";
                return false;
            }
            if (!parseScope(item, scope, dimension, &groups, why)) return false;
        }
        for (const KernelSpec& b : bases) {
            if (b.type == KernelType::Precomputed) precomputed = true;
            for (const std::vector<int>& group : groups) {
                if (specs.size() >= static_cast<std::size_t>(kMaxKernels)) {
                    *why = "the kernel list makes more than " + std::to_string(kMaxKernels) +
                           " kernels, the most allowed";
                    return false;
                }
                KernelSpec spec = b;
                spec.features = group;
                specs.push_back(std::move(spec));
            }
        }
    }
    if (specs.empty()) {  // only each_feature over data without features
        *why = "empty kernel list: each_feature over " + std::to_string(dimension) +
               " features gives no kernel";
        return false;
    }
    if (precomputed && specs.size() > 1) {
        *why = "'precomputed' cannot be combined with other kernels (the file holds one kernel)";
        return false;
    }
    std::set<std::string> labels;
    for (const KernelSpec& spec : specs) {
        if (!labels.insert(spec.label()).second) {
            *why = "kernel " + quoted(spec.label()) + " appears twice in the list";
            return false;
        }
    }
    if (out) *out = std::move(specs);
    return true;
}

}  // namespace cplab
