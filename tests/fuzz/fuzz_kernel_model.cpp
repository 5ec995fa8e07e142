// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the kernel model file parser (parseKernelModel, kernel/kernel_model.h). Expected: a
// KernelClassifier or a DataError. Findings: a crash or sanitizer report, any other exception
// (in particular the std::invalid_argument that decision() throws for an inconsistent model:
// the parser must not accept one), formatKernelModel output that does not parse back to the
// same model, or decisions() failing on rows of the model's own dimension.
#include <cstddef>
#include <cstdint>

#include "data/data_error.h"
#include "fuzz_common.h"
#include "kernel/kernel_model.h"

using namespace cplab;
using namespace cplab::fuzz;

namespace {

bool sameModel(const KernelClassifier& a, const KernelClassifier& b) {
    if (a.specs.size() != b.specs.size()) return false;
    for (std::size_t k = 0; k < a.specs.size(); ++k) {
        if (a.specs[k].label() != b.specs[k].label()) return false;
    }
    return a.normalization == b.normalization && a.scales == b.scales &&
           sameVector(a.beta, b.beta) && a.serials == b.serials &&
           sameVector(a.coefficients, b.coefficients) && a.bias == b.bias &&
           a.classes == b.classes && a.features == b.features &&
           (a.supportVectors.size() == 0 ? b.supportVectors.size() == 0
                                         : sameExamples(a.supportVectors, b.supportVectors));
}

// f on two rows of the model's dimension (zeros and ones; for a precomputed kernel, rows of
// kernel values against the training examples).
void checkDecisions(const KernelClassifier& model) {
    if (model.features > 4096) return;  // keep the dense rows small
    const Dataset data = zerosAndOnes(model.features);
    const Eigen::VectorXd f = model.decisions(data);
    require(f.size() == 2, "decisions of the wrong length");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(asText(data, size));
    KernelClassifier model;
    try {
        model = parseKernelModel(text, "fuzz.model");
    } catch (const DataError&) {
        return 0;
    }
    if (model.supportVectors.size() > 0) requireContract(model.supportVectors, "parseKernelModel");

    KernelClassifier again;
    try {
        again = parseKernelModel(formatKernelModel(model), "fuzz.model (formatted)");
    } catch (const DataError& e) {
        require(false, std::string("formatKernelModel output does not parse: ") + e.what());
    }
    require(sameModel(model, again), "parseKernelModel(formatKernelModel(x)) != x");
    checkDecisions(model);
    return 0;
}
