// SPDX-License-Identifier: GPL-3.0-or-later
// dlib as the peer of our structural SVM solvers (DESIGN.md, "Tests": the peer library's
// optimum on real data): dlib::structural_sequence_labeling_trainer (oca, dlib's 1-slack
// cutting-plane solver) trains our chain model on real OCR words through the feature extractor
// of tests/common/dlib_chain_features.h, and its w, which needs no mapping (same layout, see
// there), is judged by OUR primal P(w) against the optimum P* of our n-slack solver.
//
// Conversion (dlib_chain_features.h): dlib minimises ½‖w‖² + C·(1/n)Σᵢ Hᵢ(w) = C·P(w) with
// λ = 1/C, with plain Hamming loss (our normalizeLoss = false), and stops when its certified
// gap, in units of our P, is below its epsilon. Hence the assertions, every one a certificate
// rather than a tuned threshold:
//   * P(w_dlib) ≥ L* (the n-slack lower bound: nothing beats the optimum);
//   * P(w_dlib) − U* ≤ ε_dlib (+ rounding): dlib's own stopping certificate, re-evaluated by our
//     Viterbi oracle on our features; with ε_dlib = 1e-4·P* this is the relative agreement
//     1e-4 of P(w_dlib) and P*;
//   * ‖w_dlib − w_nslack‖ ≤ √(2(P(w_dlib) − L*)/λ) + √(2(U* − L*)/λ): P is λ-strongly convex,
//     so λ/2‖w − w*‖² ≤ P(w) − P* for any w;
//   * dlib's own sequence_labeler decodes every training word exactly as our Viterbi does with
//     the same w (the features agree in the decoding direction too), and its letter error is
//     within 1% of the tokens of the optimum's;
//   * the check is sensitive: the same w with the transition block transposed, or without the
//     bias block, or dlib trained at the C of the other convention (λ = 1/(C·n)) misses P* by
//     far more than ε_dlib.
// The regime: 80 words at C = 1 (λ = 1), where the plain-Hamming hinge terms stay active (P*
// well above its regulariser part), so P* depends on every block of w.
#include <QtTest>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

#include "data/sequence_format.h"
#include "dlib_chain_features.h"
#include "structured/chain_model.h"
#include "structured/n_slack_ssvm.h"

using namespace cplab;

namespace {

const std::string kOcr = std::string(CPLAB_TEST_DATA_DIR) + "/ocr_letter.data.gz";
constexpr int kWords = 80;
constexpr double kC = 1.0;
constexpr double kLambda = 1.0 / kC;  // dlib_chain_features.h: λ = 1/C

double seconds(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// P(w) = λ/2‖w‖² + (1/n) Σᵢ Hᵢ(w) by our loss-augmented Viterbi.
double primal(const ChainModel& model, double lambda, const Eigen::VectorXd& w) {
    return 0.5 * lambda * w.squaredNorm() + meanHinge(model, w);
}

using Labeler = dlib::sequence_labeler<peer::ChainFeatures>;

peer::ChainFeatures featuresOf(const ChainModel& model) {
    return {model.labelCount(), model.featureDimension()};
}

// dlib's labeler trained at C to its epsilon on the words of `model` (plain Hamming loss, the
// trainer's default per-label loss 1).
Labeler trainDlib(const ChainModel& model, double C, double epsilon) {
    dlib::structural_sequence_labeling_trainer<peer::ChainFeatures> trainer(featuresOf(model));
    trainer.set_c(C);
    trainer.set_epsilon(epsilon);
    trainer.set_num_threads(2);
    trainer.set_max_iterations(100000);
    return trainer.train(peer::dlibSequences(model.data()), peer::dlibLabels(model.data()));
}

// The same vector in dlib's and in our type (the layouts are the same, entry for entry).
Eigen::VectorXd toEigen(const dlib::matrix<double, 0, 1>& v) {
    Eigen::VectorXd w(v.size());
    for (long k = 0; k < v.size(); ++k)
        w[k] = v(k);
    return w;
}

dlib::matrix<double, 0, 1> toDlib(const Eigen::VectorXd& w) {
    dlib::matrix<double, 0, 1> v(w.size());
    for (Eigen::Index k = 0; k < w.size(); ++k)
        v(k) = w[k];
    return v;
}

// Words whose decoding by dlib's sequence_labeler differs from our Viterbi's for the same w.
int decodingDisagreements(const ChainModel& model, const Eigen::VectorXd& w) {
    const Labeler labeler(toDlib(w), featuresOf(model));
    const std::vector<peer::SequenceView> x = peer::dlibSequences(model.data());
    int differ = 0;
    std::vector<int> ours;
    for (int i = 0; i < model.size(); ++i) {
        model.decode(w, i, ours);
        const std::vector<unsigned long> theirs = labeler(x[static_cast<std::size_t>(i)]);
        differ +=
            !std::equal(ours.begin(), ours.end(), theirs.begin(), theirs.end(),
                        [](int a, unsigned long b) { return static_cast<unsigned long>(a) == b; });
    }
    return differ;
}

}  // namespace

class TestDlibPeer : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void featuresMatchOurLayout();
    void dlibReachesOurOptimum();
    void checkIsSensitive();

  private:
    std::shared_ptr<const ChainModel> model_;
    Eigen::VectorXd wStar_, wDlib_;
    double lower_ = 0.0, upper_ = 0.0;  // the n-slack bracket of P*
    double epsilon_ = 0.0;              // dlib's
};

// The first 80 OCR training words (fold 0), plain Hamming loss; P* by our n-slack solver to an
// absolute gap of 1e-9, then dlib trained to ε = 1e-4·P*.
void TestDlibPeer::initTestCase() {
    const SequenceData train = loadLetterData(kOcr).splitByFold(0).first;
    std::vector<int> first(kWords);
    std::iota(first.begin(), first.end(), 0);
    ChainModelOptions plainHamming;
    plainHamming.normalizeLoss = false;
    model_ = std::make_shared<ChainModel>(std::make_shared<SequenceData>(train.subset(first)),
                                          plainHamming);

    auto start = std::chrono::steady_clock::now();
    NSlackOptions options;
    options.lambda = kLambda;
    options.stop.epsilon = 1e-9;
    options.qp_tolerance = 1e-11;
    NSlackSolver nslack({model_}, options);
    solve(nslack);
    QCOMPARE(nslack.status().code, StatusCode::Converged);
    upper_ = nslack.lastRecord().upper;
    lower_ = nslack.lastRecord().lower;
    wStar_ = nslack.bestWeights();
    const double pZero = primal(*model_, kLambda, Eigen::VectorXd::Zero(model_->dimension()));
    qInfo(
        "%d words, %d letters, lambda = 1/C = %g: P* in [%.10f, %.10f] (nslack: %d passes, "
        "%.2f s); P(0) = %.4f, regulariser part of P* %.4f",
        model_->size(), model_->data().tokenCount(), kLambda, lower_, upper_, nslack.iteration(),
        seconds(start), pZero, 0.5 * kLambda * wStar_.squaredNorm());
    // The hinge terms are active: P* is far from both P(0) and its regulariser part.
    QVERIFY(upper_ < 0.9 * pZero);
    QVERIFY(0.5 * kLambda * wStar_.squaredNorm() < 0.5 * upper_);

    epsilon_ = 1e-4 * upper_;
    start = std::chrono::steady_clock::now();
    const Labeler labeler = trainDlib(*model_, kC, epsilon_);
    wDlib_ = toEigen(labeler.get_weights());
    qInfo("dlib oca (2 threads, C = %g, eps = %.3e): %.2f s", kC, epsilon_, seconds(start));
    QCOMPARE(wDlib_.size(), static_cast<Eigen::Index>(model_->dimension()));
}

// dlib's Ψ is ours: its sequence_labeler (its Viterbi over the extractor's features) decodes
// every word exactly as our Viterbi does, for a random w with every entry non-zero (so every
// block of the layout — emissions, biases, transitions in their direction — takes part) and
// for the trained w's.
void TestDlibPeer::featuresMatchOurLayout() {
    std::mt19937 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd random(model_->dimension());
    for (Eigen::Index k = 0; k < random.size(); ++k)
        random[k] = normal(rng);
    QCOMPARE(decodingDisagreements(*model_, random), 0);
    QCOMPARE(decodingDisagreements(*model_, wStar_), 0);
    QCOMPARE(decodingDisagreements(*model_, wDlib_), 0);
    // The random w labels words differently from the truth and from w*: the comparison above
    // is not about trivial labelings.
    QVERIFY(tokenError(*model_, random) > 0.5);
}

void TestDlibPeer::dlibReachesOurOptimum() {
    const double pDlib = primal(*model_, kLambda, wDlib_);
    const double errDlib = tokenError(*model_, wDlib_), errStar = tokenError(*model_, wStar_);
    const double radius =
        std::sqrt(2.0 * (pDlib - lower_) / kLambda) + std::sqrt(2.0 * (upper_ - lower_) / kLambda);
    qInfo(
        "P(w_dlib) = %.10f: (P - P*)/P* = %.2e <= eps/P* = 1e-4; |w_dlib - w*| = %.3e <= %.3e "
        "(|w*| = %.3f); letter error %.4f (optimum %.4f)",
        pDlib, (pDlib - upper_) / upper_, (wDlib_ - wStar_).norm(), radius, wStar_.norm(), errDlib,
        errStar);
    QVERIFY(pDlib >= lower_ - 1e-12 * upper_);
    QVERIFY(pDlib - upper_ <= epsilon_ + 1e-9 * upper_);
    QVERIFY((wDlib_ - wStar_).norm() <= radius);
    QVERIFY(std::abs(errDlib - errStar) <= 0.01);
}

// The agreement above would not survive a wrong feature or scaling: each of these misses P* by
// far more than dlib's ε.
void TestDlibPeer::checkIsSensitive() {
    const int L = model_->labelCount();
    Eigen::VectorXd transposed = wDlib_, noBias = wDlib_;
    for (int a = 0; a < L; ++a) {
        noBias[model_->biasIndex(a)] = 0.0;
        for (int b = 0; b < L; ++b)
            transposed[model_->transitionIndex(a, b)] = wDlib_[model_->transitionIndex(b, a)];
    }
    // dlib at the C of LIBLINEAR's convention, C = 1/(λn), as if its risk were a sum.
    const Eigen::VectorXd wSum =
        toEigen(trainDlib(*model_, 1.0 / (kLambda * kWords), 1e-3).get_weights());
    const struct {
        const char* what;
        const Eigen::VectorXd& w;
    } wrong[] = {{"transitions transposed", transposed},
                 {"bias block dropped", noBias},
                 {"C = 1/(lambda n)", wSum}};
    for (const auto& c : wrong) {
        const double p = primal(*model_, kLambda, c.w);
        qInfo("%-24s P - P* = %.3e (%.0f x eps)", c.what, p - upper_, (p - upper_) / epsilon_);
        QVERIFY2(p - upper_ > 100.0 * epsilon_, c.what);
    }
}

QTEST_APPLESS_MAIN(TestDlibPeer)
#include "test_dlib_peer.moc"
