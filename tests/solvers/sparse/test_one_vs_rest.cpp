// SPDX-License-Identifier: GPL-3.0-or-later
// One-vs-rest for the sparse machines (solvers/sparse/one_vs_rest.h) on a small 3-class set
// (three Gaussian blobs in 2-D, generated here):
//   * machine k is exactly the binary solver trained separately on "class k vs rest" (same
//     decisions, to rounding), for slmc and rs;
//   * the reported multi-class errors are the argmax rule's, recounted here from the separately
//     trained binary classifiers; the blobs are learnt (test error well below chance);
//   * a two-class set and a machine the factory rejects are refused with clear messages.
#include <QtTest>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "data/portable_random.h"
#include "record_columns.h"
#include "sparse/one_vs_rest.h"
#include "sparse/reduced_set.h"
#include "sparse/slmc.h"
#include "test_printers.h"

using namespace cplab;
using cplab::test::column;

namespace {

// n points per class around three centres, labels 1, 2, 3.
std::shared_ptr<Dataset> blobs(int perClass, std::uint64_t seed) {
    const double centres[3][2] = {{0.0, 0.0}, {2.5, 0.5}, {1.0, 2.5}};
    PortableRandom random(seed);
    auto data = std::make_shared<Dataset>();
    data->name = data->source = "blobs";
    data->dense.resize(3 * perClass, 2);
    data->labels.resize(3 * perClass);
    for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < perClass; ++i) {
            const int row = c * perClass + i;
            data->dense(row, 0) = centres[c][0] + 0.8 * random.normal();
            data->dense(row, 1) = centres[c][1] + 0.8 * random.normal();
            data->labels[row] = c + 1;
        }
    }
    return data;
}

std::shared_ptr<Dataset> relabel(const Dataset& data, double c) {
    auto out = std::make_shared<Dataset>(data);
    for (Eigen::Index i = 0; i < out->labels.size(); ++i)
        out->labels[i] = out->labels[i] == c ? 1.0 : -1.0;
    return out;
}

template <class SolverType, class Options>
void checkAgainstBinary(const Options& options) {
    const auto train = blobs(30, 11);
    const auto test = blobs(40, 12);
    OneVsRestSolver ovr(
        "machine", {train, test}, options.stop,
        [options](const KernelProblem& p) -> std::unique_ptr<Solver> {
            return std::make_unique<SolverType>(p, options);
        },
        [](const Solver& s) { return static_cast<const SolverType&>(s).classifier(); });
    QVERIFY2(ovr.status().code != StatusCode::InvalidInput, ovr.status().message.c_str());
    QCOMPARE(ovr.machines(), 3);
    // Each step carries the events of the machines that stepped, named by their class (a
    // reduced-set machine adds one vector per step, SLMC's moves its vectors).
    std::vector<int> iterations(3, 0);
    while (!ovr.status().finished()) {
        ovr.step();
        std::size_t stepped = 0;
        for (int k = 0; k < 3; ++k) {
            stepped += ovr.machine(k).iteration() > iterations[static_cast<std::size_t>(k)];
            iterations[static_cast<std::size_t>(k)] = ovr.machine(k).iteration();
        }
        const StepEvents& events = ovr.lastStepEvents();
        QVERIFY(events.texts.size() <= stepped);
        if (ovr.machine(0).name() == "rs") QCOMPARE(events.texts.size(), stepped);
        for (const std::string& text : events.texts)
            QVERIFY2(text.rfind("class ", 0) == 0, text.c_str());
        QCOMPARE(ovr.lastRecord().events, events.mask);
    }
    const Status status = ovr.status();
    QVERIFY2(status.usable(), status.message.c_str());

    // The same machines trained one by one, and the argmax rule counted here.
    Eigen::MatrixXd scores(test->size(), 3);
    for (int k = 0; k < 3; ++k) {
        SolverType binary({relabel(*train, k + 1), relabel(*test, k + 1)}, options);
        QVERIFY2(binary.status().code != StatusCode::InvalidInput, binary.status().message.c_str());
        solve(binary);
        QCOMPARE(binary.iteration(), ovr.machine(k).iteration());
        const KernelClassifier f = binary.classifier();
        scores.col(k) = f.decisions(*test);
    }
    const Eigen::MatrixXd ours = ovr.decisions(test->dense);
    const double difference = (ours - scores).cwiseAbs().maxCoeff();
    QVERIFY2(difference <= 1e-9 * std::max(1.0, scores.cwiseAbs().maxCoeff()),
             qPrintable(QString::number(difference)));
    int wrong = 0;
    for (int i = 0; i < test->size(); ++i) {
        Eigen::Index best = 0;
        scores.row(i).maxCoeff(&best);
        wrong += static_cast<double>(best + 1) != test->labels[i];
    }
    const double error = double(wrong) / test->size();
    const std::vector<double> predicted = ovr.predict(test->dense);
    for (int i = 0; i < test->size(); ++i) {
        Eigen::Index best = 0;
        scores.row(i).maxCoeff(&best);
        QCOMPARE(predicted[static_cast<std::size_t>(i)], static_cast<double>(best + 1));
    }
    qInfo("one-vs-rest %s: %d iterations, test error %.4f (by hand %.4f), %g expansion vectors",
          ovr.machine(0).name().c_str(), ovr.iteration(),
          column(ovr, ovr.lastRecord(), "test_error"), error,
          column(ovr, ovr.lastRecord(), "expansion_vectors"));
    QCOMPARE(column(ovr, ovr.lastRecord(), "test_error"), error);
    QVERIFY(error < 0.3);  // chance is 2/3
}

}  // namespace

class TestOneVsRest : public QObject {
    Q_OBJECT

  private slots:
    void slmcMachinesAreTheBinaryOnes() {
        SlmcOptions o;
        o.kernel = "gaussian:1";
        o.C = 10;
        o.expansion_vectors = 3;
        o.stop.max_iterations = 25;
        checkAgainstBinary<SlmcSolver>(o);
    }
    void rsMachinesAreTheBinaryOnes() {
        RsOptions o;
        o.kernel = "gaussian:1";
        o.C = 10;
        o.expansion_vectors = 4;
        checkAgainstBinary<RsSolver>(o);
    }
    void badInputIsRefused() {
        const auto train = blobs(10, 3);
        auto two = std::make_shared<Dataset>(*train);
        for (Eigen::Index i = 0; i < two->labels.size(); ++i)
            two->labels[i] = two->labels[i] == 1 ? 1.0 : -1.0;
        const auto make = [](const KernelProblem& p) -> std::unique_ptr<Solver> {
            return std::make_unique<RsSolver>(p, RsOptions{});
        };
        const auto classify = [](const Solver& s) {
            return static_cast<const RsSolver&>(s).classifier();
        };
        OneVsRestSolver binary("rs", {two, nullptr}, StopOptions{}, make, classify);
        QCOMPARE(binary.status().code, StatusCode::InvalidInput);
        QVERIFY2(binary.status().message.find("has 2 classes; one-vs-rest needs at least three") !=
                     std::string::npos,
                 binary.status().message.c_str());
        RsOptions bad;
        bad.kernel = "poly:2";
        OneVsRestSolver rejected(
            "rs", {train, nullptr}, StopOptions{},
            [bad](const KernelProblem& p) -> std::unique_ptr<Solver> {
                return std::make_unique<RsSolver>(p, bad);
            },
            classify);
        QCOMPARE(rejected.status().code, StatusCode::InvalidInput);
        QVERIFY2(rejected.status().message.find("class 1 vs rest: RsOptions::kernel = 'poly:2'") !=
                     std::string::npos,
                 rejected.status().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOneVsRest)
#include "test_one_vs_rest.moc"
