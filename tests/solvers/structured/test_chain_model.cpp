// SPDX-License-Identifier: GPL-3.0-or-later
// The chain model: Ψ against a dense Ψ built here from the documented weight layout, Viterbi
// and loss-augmented Viterbi against exhaustive enumeration of all L^T labellings (random
// data with L = 5, T = 1..4, and real OCR words with L = 26, T ≤ 3), and the structured hinge.
#include <QtTest>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "data/data_error.h"
#include "data/sequence_format.h"
#include "structured/bcfw.h"
#include "structured/chain_model.h"
#include "structured/chain_model_file.h"
#include "structured/oracle_pass.h"

using namespace cplab;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";

// Random sequences: `lengths` gives each sequence's length, L labels, d features at density
// about 0.4, values in [-1, 1].
std::shared_ptr<const SequenceData> randomData(const std::vector<int>& lengths, int L, int d,
                                               std::mt19937& rng) {
    std::uniform_real_distribution<double> value(-1.0, 1.0), coin(0.0, 1.0);
    std::uniform_int_distribution<int> label(0, L - 1);
    auto data = std::make_shared<SequenceData>();
    std::vector<Eigen::Triplet<double, int>> entries;
    data->sequenceStart.push_back(0);
    int token = 0;
    for (const int T : lengths) {
        for (int t = 0; t < T; ++t, ++token) {
            for (int j = 0; j < d; ++j)
                if (coin(rng) < 0.4) entries.emplace_back(token, j, value(rng));
            data->labels.push_back(label(rng));
        }
        data->sequenceStart.push_back(token);
    }
    data->features = sparseFromTriplets(token, d, entries);
    for (int k = 0; k < L; ++k)
        data->labelNames.push_back("l" + std::to_string(k));
    data->name = data->source = "random";
    return data;
}

// The first T tokens of sequence i for each (i, T) of `pieces`, as sequences of their own.
SequenceData prefixes(const SequenceData& all, const std::vector<std::pair<int, int>>& pieces) {
    SequenceData out;
    std::vector<Eigen::Triplet<double, int>> entries;
    out.sequenceStart.push_back(0);
    int token = 0;
    for (const auto& [i, T] : pieces) {
        for (int t = 0; t < T; ++t, ++token) {
            const int k = all.first(i) + t;
            for (SequenceData::SparseMatrix::InnerIterator it(all.features, k); it; ++it)
                entries.emplace_back(token, static_cast<int>(it.col()), it.value());
            out.labels.push_back(all.labels[static_cast<std::size_t>(k)]);
        }
        out.sequenceStart.push_back(token);
    }
    out.features = sparseFromTriplets(token, all.dimension(), entries);
    out.labelNames = all.labelNames;
    out.name = out.source = "ocr prefixes";
    return out;
}

Eigen::VectorXd randomWeights(int D, double scale, std::mt19937& rng) {
    std::normal_distribution<double> normal(0.0, scale);
    Eigen::VectorXd w(D);
    for (int k = 0; k < D; ++k)
        w[k] = normal(rng);
    return w;
}

// Ψ(x_i, y) written out from the layout in chain_model.h, independently of ChainModel.
Eigen::VectorXd densePsi(const SequenceData& data, int i, const std::vector<int>& y,
                         bool transitions) {
    const int L = data.labelCount(), d = data.dimension();
    Eigen::VectorXd psi = Eigen::VectorXd::Zero(L * d + L + (transitions ? L * L : 0));
    const Eigen::MatrixXd X(data.features);
    for (int t = 0; t < data.length(i); ++t) {
        const int k = data.first(i) + t;
        for (int j = 0; j < d; ++j)
            psi[y[t] * d + j] += X(k, j);  // emission block, label-major
        psi[L * d + y[t]] += 1.0;          // bias
        if (transitions && t + 1 < data.length(i)) psi[L * d + L + y[t] * L + y[t + 1]] += 1.0;
    }
    return psi;
}

// Every labelling of length T over L labels, in lexicographic order, passed to visit(y).
template <class Visit>
void forEachLabelling(int T, int L, Visit&& visit) {
    std::vector<int> y(static_cast<std::size_t>(T), 0);
    for (;;) {
        visit(y);
        int t = T - 1;
        while (t >= 0 && ++y[static_cast<std::size_t>(t)] == L)
            y[static_cast<std::size_t>(t--)] = 0;
        if (t < 0) return;
    }
}

struct Exhaustive {
    double best = -std::numeric_limits<double>::infinity();
    double second = -std::numeric_limits<double>::infinity();
    std::vector<int> argmax;
};

// max over y of ⟨w, Ψ(x_i, y)⟩ (+ Δ(y_i, y) when `augmented`), by enumeration; the score of
// each labelling from densePsi (small data) or ChainModel::score (OCR, whose score is itself
// checked against densePsi in psiMatchesLayout).
Exhaustive enumerate(const ChainModel& model, const Eigen::VectorXd& w, int i, bool augmented,
                     bool useDensePsi) {
    Exhaustive e;
    forEachLabelling(model.length(i), model.labelCount(), [&](const std::vector<int>& y) {
        double v = useDensePsi ? w.dot(densePsi(model.data(), i, y, model.options().transitions))
                               : model.score(w, i, y);
        if (augmented) {
            int mistakes = 0;
            const std::span<const int> yi = model.truth(i);
            for (std::size_t t = 0; t < y.size(); ++t)
                mistakes += y[t] != yi[t];
            v += model.options().normalizeLoss ? double(mistakes) / double(y.size()) : mistakes;
        }
        if (v > e.best) {
            e.second = e.best;
            e.best = v;
            e.argmax = y;
        } else if (v > e.second) {
            e.second = v;
        }
    });
    return e;
}

// Checks decode or lossAugmentedDecode of sequence i against enumeration. Returns the number
// of (sequence, w) cases whose maximiser was unique and therefore compared label by label.
int checkDecoding(const ChainModel& model, const Eigen::VectorXd& w, int i, bool useDensePsi) {
    int unique = 0;
    ChainWorkspace ws;
    for (const bool augmented : {false, true}) {
        const Exhaustive e = enumerate(model, w, i, augmented, useDensePsi);
        std::vector<int> y;
        const double value =
            augmented ? model.lossAugmentedDecode(w, i, y, ws) : model.decode(w, i, y, ws);
        const double tolerance = 1e-12 * std::max(1.0, std::abs(e.best));
        if (std::abs(value - e.best) > tolerance) {
            qWarning("sequence %d (augmented %d): Viterbi %.17g, enumeration %.17g", i,
                     int(augmented), value, e.best);
            return -1;
        }
        // The returned labelling attains the returned value.
        const double attained = model.score(w, i, y) + (augmented ? model.loss(i, y) : 0.0);
        if (std::abs(attained - value) > tolerance) return -1;
        if (e.best - e.second > 1e-9) {
            if (y != e.argmax) return -1;
            ++unique;
        }
    }
    return unique;
}

}  // namespace

class TestChainModel : public QObject {
    Q_OBJECT

  private slots:
    void layout() {
        std::mt19937 rng(1);
        const ChainModel model(randomData({2, 3}, 5, 7, rng));
        QCOMPARE(model.dimension(), 5 * 7 + 5 + 25);
        QCOMPARE(model.emissionIndex(2, 3), 2 * 7 + 3);
        QCOMPARE(model.biasIndex(4), 35 + 4);
        QCOMPARE(model.transitionIndex(1, 3), 40 + 1 * 5 + 3);
        const ChainModel independent(model.dataPtr(),
                                     {.normalizeLoss = true, .transitions = false});
        QCOMPARE(independent.dimension(), 40);
        QCOMPARE(model.size(), 2);
        QCOMPARE(model.length(1), 3);
    }

    // ⟨w, Ψ⟩ two ways, and addPsi/addPsiDifference against the dense Ψ.
    void psiMatchesLayout() {
        std::mt19937 rng(2);
        const auto data = randomData({1, 2, 3, 4, 6}, 5, 7, rng);
        for (const bool transitions : {true, false}) {
            const ChainModel model(data, {.normalizeLoss = true, .transitions = transitions});
            std::uniform_int_distribution<int> label(0, 4);
            for (int trial = 0; trial < 20; ++trial) {
                const Eigen::VectorXd w = randomWeights(model.dimension(), 1.0, rng);
                const Eigen::VectorXd start = randomWeights(model.dimension(), 1.0, rng);
                for (int i = 0; i < model.size(); ++i) {
                    std::vector<int> y(static_cast<std::size_t>(model.length(i)));
                    for (int& v : y)
                        v = label(rng);
                    const Eigen::VectorXd psi = densePsi(*data, i, y, transitions);
                    QVERIFY(std::abs(model.score(w, i, y) - w.dot(psi)) < 1e-12);

                    Eigen::VectorXd v = start;
                    model.addPsi(i, y, -0.75, v);
                    QVERIFY((v - (start - 0.75 * psi)).cwiseAbs().maxCoeff() < 1e-14);

                    const std::vector<int> yi(model.truth(i).begin(), model.truth(i).end());
                    const Eigen::VectorXd psiTrue = densePsi(*data, i, yi, transitions);
                    v = start;
                    model.addPsiDifference(i, y, 2.0, v);
                    QVERIFY((v - (start + 2.0 * (psiTrue - psi))).cwiseAbs().maxCoeff() < 1e-13);
                }
            }
        }
    }

    // Δ by counting, both normalisations.
    void hammingLoss() {
        std::mt19937 rng(3);
        const auto data = randomData({4}, 5, 3, rng);
        const ChainModel normalised(data);
        const ChainModel counted(data, {.normalizeLoss = false, .transitions = true});
        std::vector<int> y(normalised.truth(0).begin(), normalised.truth(0).end());
        QCOMPARE(normalised.loss(0, y), 0.0);
        y[1] = (y[1] + 1) % 5;
        y[3] = (y[3] + 2) % 5;
        QCOMPARE(normalised.loss(0, y), 0.5);
        QCOMPARE(counted.loss(0, y), 2.0);
    }

    // Random words of length 1..4 over L = 5: every labelling enumerated, for both losses and
    // with and without transitions; w at three scales so that loss and score compete.
    void decodingMatchesEnumeration() {
        std::mt19937 rng(4);
        const auto data = randomData({1, 2, 3, 4, 4, 3, 1}, 5, 6, rng);
        int unique = 0, cases = 0;
        for (const bool normalise : {true, false}) {
            for (const bool transitions : {true, false}) {
                const ChainModel model(data,
                                       {.normalizeLoss = normalise, .transitions = transitions});
                for (const double scale : {0.05, 0.3, 2.0}) {
                    for (int trial = 0; trial < 4; ++trial) {
                        const Eigen::VectorXd w = randomWeights(model.dimension(), scale, rng);
                        for (int i = 0; i < model.size(); ++i) {
                            const int found = checkDecoding(model, w, i, /*useDensePsi=*/true);
                            QVERIFY2(found >= 0, "Viterbi differs from enumeration");
                            unique += found;
                            cases += 2;
                        }
                    }
                }
            }
        }
        qInfo("random words: %d decodings checked, %d with a unique maximiser compared labelwise",
              cases, unique);
        QVERIFY(unique > cases * 9 / 10);
    }

    // Real OCR words: 26 labels, the first letters of words (T = 1, 2) and words of 3 letters
    // (26³ = 17,576 labellings each).
    void ocrWordsMatchEnumeration() {
        const SequenceData all = loadLetterData(kOcr);
        std::vector<int> chosen;
        for (int i = 0; i < all.size() && chosen.size() < 6; ++i)
            if (all.length(i) == 3) chosen.push_back(i);
        QCOMPARE(static_cast<int>(chosen.size()), 6);
        // Six 3-letter words, then the first letter and the first two letters of two of them.
        std::vector<std::pair<int, int>> pieces;
        for (const int i : chosen)
            pieces.emplace_back(i, 3);
        pieces.emplace_back(chosen[0], 1);
        pieces.emplace_back(chosen[1], 2);
        const auto words = std::make_shared<SequenceData>(prefixes(all, pieces));
        QCOMPARE(words->contractViolation(), std::string());
        QCOMPARE(words->size(), 8);
        QCOMPARE(words->length(6), 1);
        QCOMPARE(words->length(7), 2);
        QCOMPARE(words->labelCount(), 26);

        std::mt19937 rng(5);
        int unique = 0;
        for (const bool normalise : {true, false}) {
            const ChainModel model(words, {.normalizeLoss = normalise, .transitions = true});
            QCOMPARE(model.dimension(), 26 * 128 + 26 + 26 * 26);
            for (const double scale : {0.02, 0.2}) {
                const Eigen::VectorXd w = randomWeights(model.dimension(), scale, rng);
                for (int i = 0; i < model.size(); ++i) {
                    const int found = checkDecoding(model, w, i, /*useDensePsi=*/false);
                    QVERIFY2(found >= 0, "Viterbi differs from enumeration on an OCR word");
                    unique += found;
                }
            }
        }
        qInfo("OCR words: 64 decodings checked, %d compared labelwise", unique);
        QVERIFY(unique >= 56);
    }

    // Hᵢ(w) = max_y Δ + ⟨w, Ψ(y) − Ψ(y_i)⟩: ≥ 0, equal to enumeration, and at w = 0 the
    // largest loss (1 normalised, T not).
    void structuredHinge() {
        std::mt19937 rng(6);
        const auto data = randomData({1, 2, 3, 4}, 5, 6, rng);
        for (const bool normalise : {true, false}) {
            const ChainModel model(data, {.normalizeLoss = normalise, .transitions = true});
            ChainWorkspace ws;
            std::vector<int> y;
            for (int i = 0; i < model.size(); ++i) {
                const double h0 = model.hinge(Eigen::VectorXd::Zero(model.dimension()), i, y, ws);
                QCOMPARE(h0, normalise ? 1.0 : double(model.length(i)));
                QCOMPARE(model.loss(i, y), h0);
            }
            for (int trial = 0; trial < 30; ++trial) {
                const Eigen::VectorXd w = randomWeights(model.dimension(), 0.1 + trial * 0.2, rng);
                for (int i = 0; i < model.size(); ++i) {
                    const double h = model.hinge(w, i, y, ws);
                    const Exhaustive e = enumerate(model, w, i, true, true);
                    const std::vector<int> yi(model.truth(i).begin(), model.truth(i).end());
                    const double expected = e.best - w.dot(densePsi(*data, i, yi, true));
                    QVERIFY(std::abs(h - expected) < 1e-12 * std::max(1.0, std::abs(e.best)));
                    QVERIFY(h >= -1e-12);
                }
            }
        }
        // The hinge on all 626 OCR training words with a random w.
        const auto train =
            std::make_shared<SequenceData>(loadLetterData(kOcr).splitByFold(0).first);
        const ChainModel model(train);
        const Eigen::VectorXd w = randomWeights(model.dimension(), 0.1, rng);
        ChainWorkspace ws;
        std::vector<int> y;
        double smallest = 1.0;
        for (int i = 0; i < model.size(); ++i)
            smallest = std::min(smallest, model.hinge(w, i, y, ws));
        QVERIFY(smallest >= -1e-12);
    }

    // Speed of one pass of (loss-augmented) decoding over the 626 training words.
    void decodingSpeed() {
        const auto train =
            std::make_shared<SequenceData>(loadLetterData(kOcr).splitByFold(0).first);
        const ChainModel model(train);
        std::mt19937 rng(7);
        const Eigen::VectorXd w = randomWeights(model.dimension(), 0.1, rng);
        ChainWorkspace ws;
        std::vector<int> y;
        long long checksum = 0;
        const int passes = 20;
        for (const bool augmented : {false, true}) {
            const auto start = std::chrono::steady_clock::now();
            for (int pass = 0; pass < passes; ++pass) {
                for (int i = 0; i < model.size(); ++i) {
                    if (augmented)
                        model.lossAugmentedDecode(w, i, y, ws);
                    else
                        model.decode(w, i, y, ws);
                    checksum += y[0];
                }
            }
            const double perPass =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                passes;
            qInfo("%s decoding: %.2f ms per pass over %d words (%d letters)",
                  augmented ? "loss-augmented" : "plain", 1e3 * perPass, model.size(),
                  train->tokenCount());
            QVERIFY(perPass < 0.5);  // O(T·L·nnz + T·L²) is a few ms; anything near 0.5 s is a bug
        }
        QVERIFY(checksum >= 0);
    }

    // The letter and word errors of decodingErrors against the argmax of every labelling,
    // enumerated, on random words (length ≤ 4, L = 4).
    void errorsMatchEnumeration() {
        std::mt19937 rng(9);
        const auto data = randomData({1, 2, 3, 4, 4, 3, 2, 1, 3, 4}, 4, 5, rng);
        const ChainModel model(data);
        for (const double scale : {0.1, 1.0}) {
            const Eigen::VectorXd w = randomWeights(model.dimension(), scale, rng);
            long long wrongTokens = 0, wrongWords = 0;
            for (int i = 0; i < model.size(); ++i) {
                const int T = model.length(i);
                std::vector<int> best;
                double bestScore = -std::numeric_limits<double>::infinity();
                forEachLabelling(T, 4, [&](const std::vector<int>& y) {
                    const double v = w.dot(densePsi(*data, i, y, true));
                    if (v > bestScore) {
                        bestScore = v;
                        best = y;
                    }
                });
                int wrong = 0;
                for (int t = 0; t < T; ++t)
                    wrong += best[static_cast<std::size_t>(t)] != model.truth(i)[t];
                wrongTokens += wrong;
                wrongWords += wrong > 0;
            }
            const DecodingErrors errors = decodingErrors(model, w);
            QCOMPARE(errors.tokens, double(wrongTokens) / data->tokenCount());
            QCOMPARE(errors.sequences, double(wrongWords) / model.size());
            QCOMPARE(tokenError(model, w), errors.tokens);
        }
    }

    // At w = 0 decodingErrors takes a closed form (label 0 everywhere, without decoding): it
    // must equal the errors of Viterbi's own decodings at w = 0, with and without transitions.
    void errorsAtZeroWeightsAreViterbis() {
        std::mt19937 rng(11);
        const auto data = randomData({1, 2, 3, 4, 5, 3, 2, 1, 3, 4}, 3, 4, rng);
        for (const bool transitions : {true, false}) {
            ChainModelOptions options;
            options.transitions = transitions;
            const ChainModel model(data, options);
            const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.dimension());
            long long wrongTokens = 0, wrongWords = 0;
            for (int i = 0; i < model.size(); ++i) {
                std::vector<int> y;
                model.decode(zero, i, y);
                int wrong = 0;
                for (std::size_t t = 0; t < y.size(); ++t)
                    wrong += y[t] != model.truth(i)[t];
                wrongTokens += wrong;
                wrongWords += wrong > 0;
            }
            QVERIFY(wrongTokens > 0 && wrongTokens < data->tokenCount());
            const DecodingErrors errors = decodingErrors(model, zero);
            QCOMPARE(errors.tokens, double(wrongTokens) / data->tokenCount());
            QCOMPARE(errors.sequences, double(wrongWords) / model.size());
        }
    }

    // The summary's errors of a non-zero w (issue #47: after a time limit they decoded every
    // word): within an interrupt that allows them they are Viterbi's own (counted here word by
    // word); within one already past its deadline no word is decoded, every error is NaN and
    // errors_not_evaluated says why; a run that converged is never bounded.
    void summaryErrorsStopAtTheirBudget() {
        std::mt19937 rng(5);
        const auto data = randomData({2, 5, 3, 4, 6, 1}, 4, 3, rng);
        auto model = std::make_shared<const ChainModel>(data);
        std::normal_distribution<double> normal(0.0, 1.0);
        Eigen::VectorXd w(model->dimension());
        for (Eigen::Index k = 0; k < w.size(); ++k)
            w[k] = normal(rng);
        long long wrongTokens = 0, wrongWords = 0;
        for (int i = 0; i < model->size(); ++i) {
            std::vector<int> y;
            model->decode(w, i, y);
            int wrong = 0;
            for (std::size_t t = 0; t < y.size(); ++t)
                wrong += y[t] != model->truth(i)[t];
            wrongTokens += wrong;
            wrongWords += wrong > 0;
        }
        QVERIFY(wrongTokens > 0 && wrongTokens < data->tokenCount());
        const auto field = [](const SummaryFields& fields, const std::string& name) {
            for (const auto& [key, value] : fields)
                if (key == name) return std::get<double>(value);
            return -2.0;
        };
        const auto has = [](const SummaryFields& fields, const std::string& name) {
            return std::any_of(fields.begin(), fields.end(),
                               [&](const auto& f) { return f.first == name; });
        };
        const StructuredProblem problem{model, model, nullptr};
        StopOptions limits;
        limits.max_seconds = 1.0;
        SummaryFields full;
        addErrorFields(problem, w, nullptr, full, Status::make(StatusCode::Converged, "done"),
                       limits);
        QCOMPARE(field(full, "train_error"), double(wrongTokens) / data->tokenCount());
        QCOMPARE(field(full, "train_word_error"), double(wrongWords) / model->size());
        QCOMPARE(field(full, "test_error"), double(wrongTokens) / data->tokenCount());
        QCOMPARE(field(full, "test_word_error"), double(wrongWords) / model->size());
        QVERIFY(!has(full, "errors_not_evaluated"));

        const Interrupt past(CancelToken(), Interrupt::Clock::now());
        QVERIFY(!decodingErrors(*model, w, nullptr, &past).complete);
        SummaryFields cut;
        addErrorFields(problem, w, nullptr, cut, past, 1.0);
        for (const char* name : {"train_error", "train_word_error", "test_error", "test_char_error",
                                 "test_word_error"})
            QVERIFY2(std::isnan(field(cut, name)), name);
        QVERIFY(has(cut, "errors_not_evaluated"));
        QVERIFY(has(cut, "labels") && has(cut, "weights"));
    }

    // A model file reads back bit for bit, and predicting a file with it gives the solver's
    // own decodings and errors — also when the file numbers its labels in another order.
    void modelFileRoundTripAndPredict() {
        const SequenceData all = loadLetterData(kOcr);
        auto [trainWords, testWords] = all.splitByFold(0);
        StructuredProblem problem;
        problem.train = std::make_shared<const ChainModel>(
            std::make_shared<const SequenceData>(std::move(trainWords)));
        problem.test = std::make_shared<const ChainModel>(
            std::make_shared<const SequenceData>(std::move(testWords)));
        BcfwOptions options;
        options.stop.max_iterations = 3;
        BcfwSolver solver(problem, options);
        while (!solver.step().finished()) {
        }
        const Eigen::VectorXd& w = solver.bestWeights();

        ChainModelFile file;
        file.labelNames = problem.train->data().labelNames;
        file.features = problem.train->featureDimension();
        file.lambda = 1.0 / 3.0;
        file.weights = w;
        const ChainModelFile back = parseChainModel(formatChainModel(file), "model.txt");
        QCOMPARE(back.labelNames, file.labelNames);
        QCOMPARE(back.features, 128);
        QVERIFY(back.transitions && back.normalizeLoss);
        QCOMPARE(back.lambda, 1.0 / 3.0);
        QVERIFY(back.weights == w);  // exact: shortest round-trip text

        const SequenceData& test = problem.test->data();
        const ChainPrediction prediction = predictSequences(back, test);
        std::vector<int> y;
        long long wrong = 0, wrongWords = 0;
        for (int i = 0; i < test.size(); ++i) {
            problem.test->decode(w, i, y);
            int mistakes = 0;
            for (int t = 0; t < test.length(i); ++t) {
                const std::size_t k = static_cast<std::size_t>(test.first(i) + t);
                QCOMPARE(prediction.labels[k], y[static_cast<std::size_t>(t)]);
                mistakes += y[static_cast<std::size_t>(t)] != test.labels[k];
            }
            wrong += mistakes;
            wrongWords += mistakes > 0;
        }
        QCOMPARE(prediction.tokenError, double(wrong) / test.tokenCount());
        QCOMPARE(prediction.sequenceError, double(wrongWords) / test.size());
        QVERIFY(prediction.tokenError < 0.5 && prediction.sequenceError > prediction.tokenError);

        // The same words with the label ids reversed (names kept): the same predicted names.
        SequenceData reversed = test;
        std::reverse(reversed.labelNames.begin(), reversed.labelNames.end());
        for (int& label : reversed.labels)
            label = kOcrLetters - 1 - label;
        const ChainPrediction again = predictSequences(back, reversed);
        QVERIFY(again.labels == prediction.labels);
        QCOMPARE(again.tokenError, prediction.tokenError);

        // A label the model does not know, and a feature beyond its d, name the token's line.
        SequenceData unknown = test;
        unknown.labelNames[0] = "unknown";
        const int firstA = static_cast<int>(
            std::find(unknown.labels.begin(), unknown.labels.end(), 0) - unknown.labels.begin());
        try {
            predictSequences(back, unknown);
            QFAIL("an unknown label was accepted");
        } catch (const DataError& e) {
            QCOMPARE(e.line(), unknown.lines[static_cast<std::size_t>(firstA)]);
            QVERIFY(std::string(e.what()).find("'unknown'") != std::string::npos);
        }
        ChainModelFile narrow = back;
        narrow.features = 64;
        narrow.weights.resize(narrow.expectedWeights());
        QVERIFY_THROWS_EXCEPTION(DataError, predictSequences(narrow, test));
    }

    void rejectsBadData() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ChainModel{nullptr});
        std::mt19937 rng(8);
        auto data = std::make_shared<SequenceData>(*randomData({2}, 3, 2, rng));
        data->labels[1] = 3;  // beyond L = 3
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ChainModel{data});
    }
};

QTEST_GUILESS_MAIN(TestChainModel)
#include "test_chain_model.moc"
