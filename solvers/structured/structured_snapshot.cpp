// SPDX-License-Identifier: GPL-3.0-or-later
// Filling a StructuredSnapshot: the model's fields and lattices, the bounds and progress.
#include "structured/structured_snapshot.h"

#include <algorithm>

namespace cplab {

void fillModelFields(const ChainModel& model, const ChainModel* test, double lambda,
                     const Eigen::VectorXd& w, StructuredSnapshot& snapshot) {
    snapshot.labels = model.labelCount();
    snapshot.features = model.featureDimension();
    snapshot.transitions = model.options().transitions;
    snapshot.labelNames = model.data().labelNames;
    snapshot.lambda = lambda;
    snapshot.w = w;
    const ChainModel& words = test ? *test : model;
    snapshot.words = words.dataPtr();
    const int count = std::min(kLatticeWords, words.size());
    snapshot.lattices.resize(static_cast<std::size_t>(count));
    ChainWorkspace ws;
    for (int i = 0; i < count; ++i) {
        WordLattice& lattice = snapshot.lattices[static_cast<std::size_t>(i)];
        lattice.word = i;
        lattice.scores = words.tokenScores(w, i);
        const std::span<const int> truth = words.truth(i);
        lattice.truth.assign(truth.begin(), truth.end());
        words.decode(w, i, lattice.decoded, ws);
        words.lossAugmentedDecode(w, i, lattice.lossAugmented, ws);
    }
}

void fillProgressFields(const StructuredProgress& progress, StructuredSnapshot& snapshot) {
    snapshot.primal = progress.primal;
    snapshot.dual = progress.dual;
    snapshot.gap = progress.gap;
    snapshot.passes = progress.passes;
    snapshot.meanStep = progress.meanStep;
    snapshot.errors = progress.errors;
}

void fillStructuredSnapshot(const StructuredProblem& problem, double lambda,
                            const Eigen::VectorXd& w, const StructuredProgress& progress,
                            StructuredSnapshot& snapshot) {
    fillModelFields(*problem.train, problem.test.get(), lambda, w, snapshot);
    fillProgressFields(progress, snapshot);
}

}  // namespace cplab
