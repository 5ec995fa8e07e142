// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/generators.h"

#include <cmath>
#include <functional>
#include <stdexcept>

#include "data/portable_random.h"
#include "data/text_io.h"

namespace cplab {

// Every a·b + c below is an explicit std::fma, for the reason given in portable_random.h.

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInvSqrt2 = 0.70710678118654752440;

double alternatingLabel(int i) {
    return i % 2 == 0 ? 1.0 : -1.0;
}

Dataset emptyDataset(int m, int d) {
    Dataset data;
    data.dense = Dataset::DenseMatrix::Zero(m, d);
    data.labels = Eigen::VectorXd::Zero(m);
    for (int j = 0; j < d; ++j)
        data.featureNames.push_back("x" + std::to_string(j + 1));
    return data;
}

void checkSize(int m) {
    if (m < 1) throw std::invalid_argument("generate: m = " + std::to_string(m) + ": must be >= 1");
}

Dataset blobs(int m, double separation, PortableRandom& random) {
    Dataset data = emptyDataset(m, 2);
    const double offset = 0.5 * separation * kInvSqrt2;
    for (int i = 0; i < m; ++i) {
        const double y = alternatingLabel(i);
        data.dense(i, 0) = std::fma(y, offset, random.normal());
        data.dense(i, 1) = std::fma(y, offset, random.normal());
        data.labels[i] = y;
    }
    return data;
}

Dataset xorClusters(int m, PortableRandom& random) {
    Dataset data = emptyDataset(m, 2);
    // Clusters in the order (+,+) (−,−) → +1, (+,−) (−,+) → −1, so labels alternate.
    constexpr double kCentres[4][2] = {{1.5, 1.5}, {1.5, -1.5}, {-1.5, -1.5}, {-1.5, 1.5}};
    for (int i = 0; i < m; ++i) {
        const auto& c = kCentres[i % 4];
        data.dense(i, 0) = std::fma(0.5, random.normal(), c[0]);
        data.dense(i, 1) = std::fma(0.5, random.normal(), c[1]);
        data.labels[i] = alternatingLabel(i);
    }
    return data;
}

Dataset checkerboard(int m, PortableRandom& random) {
    Dataset data = emptyDataset(m, 2);
    for (int i = 0; i < m; ++i) {
        const double x1 = random.uniform(-2.0, 2.0);
        const double x2 = random.uniform(-2.0, 2.0);
        data.dense(i, 0) = x1;
        data.dense(i, 1) = x2;
        const auto cell = static_cast<long>(std::floor(x1) + std::floor(x2));
        data.labels[i] = cell % 2 == 0 ? 1.0 : -1.0;
    }
    return data;
}

Dataset rings(int m, PortableRandom& random) {
    Dataset data = emptyDataset(m, 2);
    for (int i = 0; i < m; ++i) {
        const double y = alternatingLabel(i);
        const auto [c, s] = random.unitCircle();
        const double radius = std::fma(0.2, random.normal(), y > 0 ? 1.0 : 2.5);
        data.dense(i, 0) = radius * c;
        data.dense(i, 1) = radius * s;
        data.labels[i] = y;
    }
    return data;
}

Dataset sinc(int m, PortableRandom& random) {
    Dataset data = emptyDataset(m, 1);
    for (int i = 0; i < m; ++i) {
        const double x = random.uniform(-3.0, 3.0);
        const double f = x == 0.0 ? 1.0 : portableSin(kPi * x) / (kPi * x);
        data.dense(i, 0) = x;
        data.labels[i] = std::fma(0.1, random.normal(), f);
    }
    return data;
}

Dataset plane(int m, PortableRandom& random) {
    Dataset data = emptyDataset(m, 2);
    for (int i = 0; i < m; ++i) {
        const double x1 = random.uniform(-2.0, 2.0);
        const double x2 = random.uniform(-2.0, 2.0);
        data.dense(i, 0) = x1;
        data.dense(i, 1) = x2;
        data.labels[i] = std::fma(0.2, random.normal(), std::fma(2.0, x1, 1.0) - x2);
    }
    return data;
}

struct Generator {
    const char* name;
    const char* description;
    std::function<Dataset(int, PortableRandom&)> make;
};

const std::vector<Generator>& generators() {
    static const std::vector<Generator> list = {
        {"two_blobs", "two Gaussian blobs, nearly separable (centres 5 sigma apart)",
         [](int m, PortableRandom& r) { return blobs(m, 5.0, r); }},
        {"overlapping_blobs", "two overlapping Gaussian blobs (centres 1.5 sigma apart)",
         [](int m, PortableRandom& r) { return blobs(m, 1.5, r); }},
        {"xor", "XOR: four Gaussian clusters, opposite corners share a label", xorClusters},
        {"checkerboard", "4 x 4 checkerboard of unit cells on [-2, 2)^2", checkerboard},
        {"rings", "two concentric rings (radius 1: +1, radius 2.5: -1)", rings},
        {"sinc_1d", "regression: y = sin(pi x)/(pi x) + noise, x in [-3, 3)", sinc},
        {"plane_2d", "regression: y = 1 + 2 x1 - x2 + noise on [-2, 2)^2", plane},
    };
    return list;
}

const Generator& find(const std::string& name) {
    for (const Generator& g : generators()) {
        if (name == g.name) return g;
    }
    throw std::invalid_argument("unknown generator '" + name +
                                "'; known: " + joined(generatorNames()));
}

}  // namespace

std::vector<std::string> generatorNames() {
    std::vector<std::string> names;
    for (const Generator& g : generators())
        names.emplace_back(g.name);
    return names;
}

std::string generatorDescription(const std::string& name) {
    return find(name).description;
}

Dataset generate(const std::string& name, int m, std::uint64_t seed) {
    const Generator& generator = find(name);
    checkSize(m);
    PortableRandom random(seed);
    Dataset data = generator.make(m, random);
    data.name = name;
    data.source = "generator:" + name + "?m=" + std::to_string(m) + "&seed=" + std::to_string(seed);
    return data;
}

Dataset gaussianBlobs(int m, double separation, std::uint64_t seed) {
    checkSize(m);
    if (!(separation >= 0.0) || !std::isfinite(separation)) {
        throw std::invalid_argument("gaussianBlobs: separation must be finite and >= 0");
    }
    PortableRandom random(seed);
    Dataset data = blobs(m, separation, random);
    data.name = "gaussian_blobs";
    data.source = "generator:gaussian_blobs?m=" + std::to_string(m) +
                  "&separation=" + formatReal(separation) + "&seed=" + std::to_string(seed);
    return data;
}

}  // namespace cplab
