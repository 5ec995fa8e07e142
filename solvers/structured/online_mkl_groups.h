// SPDX-License-Identifier: GPL-3.0-or-later
// The groups of online proximal MKL (online_mkl.h) and the models made of them: a group's
// weights as a scale times coefficients (kernel groups as expansions over the training tokens,
// with their training scores), a model as coefficients per group, and the scorer of any
// tokens for one model. Internal to online_mkl.cpp and online_mkl_groups.cpp, which holds the
// groups' maths: kernels, one round (decoding, gradient, prox), the models.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "structured/online_mkl.h"

namespace cplab {

struct OnlineMklSolver::Group {
    enum class Kind { Kernel, Features, Transitions };
    Kind kind = Kind::Kernel;
    std::string name;
    KernelSpec spec;         // Kernel
    bool normalize = false;  // Kernel: unit diagonal; Features: φ(x) = x/‖x‖
    Eigen::VectorXd diag;    // Kernel: the unnormalised k(x_k, x_k) of every training token
    double s = 1.0;          // w_g = s·(coefficients v)
    double S = 0.0;          // Σ over the rounds so far of s (averaging)
    double normSq = 0.0;     // ‖w_g‖² of the current iterate
    // Kernel: N × L expansion coefficients; Features: L × d weights; Transitions: (L + L²) × 1
    // (biases, then transitions a → b at L + a·L + b). u: the averaging offsets, same shape.
    Eigen::MatrixXd v, u;
    Eigen::MatrixXd f, fu;  // Kernel: K_g v and K_g u on the training tokens (N × L)

    // The unnormalised kernel from a dot product and the two squared norms.
    double raw(double dot, double sqA, double sqB) const {
        switch (spec.type) {
            case KernelType::Linear:
                return dot;
            case KernelType::Polynomial:
                return std::pow(dot + spec.offset, spec.degree);
            case KernelType::Gaussian:
                return std::exp(-spec.gamma * std::max(0.0, sqA + sqB - 2.0 * dot));
            case KernelType::Precomputed:
                break;
        }
        return 0.0;
    }
    double value(double dot, double sqA, double sqB, double diagA, double diagB) const {
        const double k = raw(dot, sqA, sqB);
        if (!normalize || spec.type == KernelType::Gaussian) return k;
        const double scale = diagA * diagB;
        return scale > 0 ? k / std::sqrt(scale) : 0.0;
    }
};

// One model, as coefficients per group: the current iterate (s·v) or the average
// ((S·v − u)/t); for kernel groups also its training-token scores (s·f or (S·f − fu)/t).
struct OnlineMklSolver::Weights {
    std::vector<Eigen::MatrixXd> coef;
    std::vector<Eigen::MatrixXd> train;
};

// Emission scores (bias included) of any tokens for one model: kernel groups by dense
// products with the training tokens that have a nonzero coefficient.
class OnlineMklSolver::Scorer {
  public:
    Scorer(const OnlineMklSolver& solver, const Weights& w);
    // Scores of tokens [begin, end) of `data` into rows [begin, end) of `out` (M × L), by
    // blocks of a few hundred tokens: the dense kernel products of all of them at once took
    // 6.4 GB for the lattice of one word of 20,000 tokens (each snapshot of the app).
    void score(const SequenceData& data, int begin, int end, Eigen::MatrixXd& out) const;
    // All tokens of `data` (M × L), in blocks on `team`.
    Eigen::MatrixXd scoreAll(const SequenceData& data, WorkerTeam* team) const;

  private:
    // score() of one block of tokens.
    void scoreBlock(const SequenceData& data, int begin, int end, Eigen::MatrixXd& out) const;
    // k_g between the block's tokens (squared norms sq) and the active training tokens, from
    // their dot products: m × A, as Group::value computes it entry by entry.
    Eigen::MatrixXd kernelBlock(const Group& group, const Eigen::MatrixXd& dots,
                                const Eigen::VectorXd& sq) const;

    const OnlineMklSolver& solver_;
    const Weights& w_;
    std::vector<int> active_;
    Eigen::MatrixXd activeTokens_;
    Eigen::VectorXd activeSq_;
};

namespace online_mkl {

// The features of token k as a dense row (d entries) into `out`.
void denseRow(const SequenceData& data, int k, double* out, int d);

}  // namespace online_mkl

}  // namespace cplab
