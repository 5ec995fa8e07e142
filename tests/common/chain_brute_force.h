// SPDX-License-Identifier: GPL-3.0-or-later
// Brute-force references for the structural SVM tests: tiny random sequence data, Ψ built
// densely from the layout documented in solvers/structured/chain_model.h, and the structural
// SVM dual of a tiny problem enumerated corner by corner and solved by FISTA — an algorithm that
// shares nothing with the solvers or the Viterbi oracle.
#pragma once

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "data/sequence_format.h"

namespace cplab::testing {

// n random sequences of lengths 1..4 over L labels and d features (density 0.5, values in
// [-1, 1]).
inline std::shared_ptr<const SequenceData> tinyData(int n, int L, int d, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0), coin(0.0, 1.0);
    std::uniform_int_distribution<int> label(0, L - 1), lengthOf(1, 4);
    auto data = std::make_shared<SequenceData>();
    std::vector<Eigen::Triplet<double, int>> entries;
    data->sequenceStart.push_back(0);
    int token = 0;
    for (int i = 0; i < n; ++i) {
        for (int t = lengthOf(rng); t > 0; --t, ++token) {
            for (int j = 0; j < d; ++j)
                if (coin(rng) < 0.5) entries.emplace_back(token, j, value(rng));
            data->labels.push_back(label(rng));
        }
        data->sequenceStart.push_back(token);
    }
    data->features = sparseFromTriplets(token, d, entries);
    for (int k = 0; k < L; ++k)
        data->labelNames.push_back(std::string(1, static_cast<char>('p' + k)));
    data->name = data->source = "tiny";
    return data;
}

// Ψ(x_i, y) from the layout documented in chain_model.h (transitions on).
inline Eigen::VectorXd densePsi(const SequenceData& data, int i, const std::vector<int>& y) {
    const int L = data.labelCount(), d = data.dimension();
    Eigen::VectorXd psi = Eigen::VectorXd::Zero(L * d + L + L * L);
    const Eigen::MatrixXd X(data.features);
    for (int t = 0; t < data.length(i); ++t) {
        const int k = data.first(i) + t;
        for (int j = 0; j < d; ++j)
            psi[y[t] * d + j] += X(k, j);
        psi[L * d + y[t]] += 1.0;
        if (t + 1 < data.length(i)) psi[L * d + L + y[t] * L + y[t + 1]] += 1.0;
    }
    return psi;
}

inline std::vector<int> truthOf(const SequenceData& data, int i) {
    return {data.labels.begin() + data.first(i), data.labels.begin() + data.first(i + 1)};
}

// The enumerated dual of a tiny problem: every labelling y of every example i is a corner
// with column ψᵢ(y)/(λn) of `corners` and loss Δᵢ(y)/n in `losses`;
// D(α) = −λ/2‖corners·α‖² + lossesᵀα over a product of simplices (one per example), and
// P(w) = λ/2‖w‖² + (1/n) Σᵢ maxᵧ [Δᵢ(y) − ⟨w, ψᵢ(y)⟩] (normalised Hamming loss). Solved by
// FISTA with restarts.
struct DualQp {
    Eigen::MatrixXd corners;
    Eigen::VectorXd losses;
    std::vector<int> blockStart{0};
    double lambda = 0.0;
    int n = 0;

    DualQp(const SequenceData& data, double lambdaIn) : lambda(lambdaIn), n(data.size()) {
        std::vector<Eigen::VectorXd> columns;
        std::vector<double> loss;
        for (int i = 0; i < n; ++i) {
            const std::vector<int> yi = truthOf(data, i);
            const Eigen::VectorXd psiTrue = densePsi(data, i, yi);
            const int T = data.length(i), L = data.labelCount();
            std::vector<int> y(static_cast<std::size_t>(T), 0);
            for (;;) {
                int mistakes = 0;
                for (int t = 0; t < T; ++t)
                    mistakes += y[t] != yi[t];
                columns.push_back((psiTrue - densePsi(data, i, y)) / (lambda * n));
                loss.push_back(double(mistakes) / T / n);
                int t = T - 1;
                while (t >= 0 && ++y[static_cast<std::size_t>(t)] == L)
                    y[static_cast<std::size_t>(t--)] = 0;
                if (t < 0) break;
            }
            blockStart.push_back(static_cast<int>(columns.size()));
        }
        corners.resize(columns.front().size(), static_cast<Eigen::Index>(columns.size()));
        for (std::size_t k = 0; k < columns.size(); ++k)
            corners.col(static_cast<Eigen::Index>(k)) = columns[k];
        losses =
            Eigen::Map<const Eigen::VectorXd>(loss.data(), static_cast<Eigen::Index>(loss.size()));
    }

    double dual(const Eigen::VectorXd& alpha) const {
        return -0.5 * lambda * (corners * alpha).squaredNorm() + losses.dot(alpha);
    }
    // ⟨w, ψᵢ(y)⟩ = λn·(cornersᵀw)_k, Δᵢ(y) = n·losses_k.
    double primal(const Eigen::VectorXd& w) const {
        const Eigen::VectorXd margins = corners.transpose() * w * (lambda * n);
        double sum = 0.0;
        for (int i = 0; i < n; ++i) {
            double best = -std::numeric_limits<double>::infinity();
            for (int k = blockStart[i]; k < blockStart[i + 1]; ++k)
                best = std::max(best, n * losses[k] - margins[k]);
            sum += best;
        }
        return 0.5 * lambda * w.squaredNorm() + sum / n;
    }
    // Euclidean projection of each block onto its simplex (sort and threshold).
    void project(Eigen::VectorXd& alpha) const {
        for (int i = 0; i < n; ++i) {
            const int begin = blockStart[i], size = blockStart[i + 1] - begin;
            std::vector<double> u(alpha.data() + begin, alpha.data() + begin + size);
            std::sort(u.begin(), u.end(), std::greater<>());
            double sum = 0.0, theta = 0.0;
            for (int j = 0; j < size; ++j) {
                sum += u[j];
                const double candidate = (sum - 1.0) / (j + 1);
                if (u[j] - candidate > 0) theta = candidate;
            }
            for (int k = begin; k < begin + size; ++k)
                alpha[k] = std::max(alpha[k] - theta, 0.0);
        }
    }
    // Maximises D until P(w(α)) − D(α) ≤ tolerance; returns the iterations (−1: not within
    // the limit), the bracket [lower, upper] of P*, and w* = corners·α.
    int solve(double tolerance, double& upper, double& lower, Eigen::VectorXd& wStar) const {
        const double lipschitz =
            lambda * Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(corners * corners.transpose())
                         .eigenvalues()
                         .maxCoeff();
        Eigen::VectorXd alpha = Eigen::VectorXd::Zero(losses.size());
        for (int i = 0; i < n; ++i)
            alpha[blockStart[i]] = 1.0;  // a vertex: the truth corners
        project(alpha);
        Eigen::VectorXd point = alpha, previous = alpha;
        double t = 1.0, value = dual(alpha);
        for (int iteration = 1; iteration <= 2000000; ++iteration) {
            const Eigen::VectorXd gradient =
                -lambda * (corners.transpose() * (corners * point)) + losses;
            previous = alpha;
            alpha = point + gradient / lipschitz;
            project(alpha);
            const double newValue = dual(alpha);
            if (newValue < value) {  // restart the momentum (O'Donoghue & Candès)
                t = 1.0;
                point = alpha;
            } else {
                const double tNext = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
                point = alpha + ((t - 1.0) / tNext) * (alpha - previous);
                t = tNext;
            }
            value = newValue;
            if (iteration % 50 == 0) {
                lower = dual(alpha);
                wStar = corners * alpha;
                upper = primal(wStar);
                if (upper - lower <= tolerance) return iteration;
            }
        }
        return -1;
    }
};

}  // namespace cplab::testing
