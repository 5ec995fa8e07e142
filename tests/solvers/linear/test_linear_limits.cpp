// SPDX-License-Identifier: GPL-3.0-or-later
// Linear models at their limits: the score matrices of OCAS and BMRM are estimated before the
// run and refused with the sizes (never a raw std::bad_alloc); three classes with a binary loss
// say so; model weights beyond ±1e100 are refused at their line, and a prediction whose score
// is not finite is an error naming the example, not a class chosen from NaN.
#include <QtTest>
#include <cmath>
#include <limits>
#include <memory>

#include "core/memory_budget.h"
#include "data/data_error.h"
#include "data/libsvm_format.h"
#include "linear/bmrm.h"
#include "linear/dcd.h"
#include "linear/linear_model.h"
#include "linear/ocas.h"

using namespace cplab;

namespace {

std::shared_ptr<const Dataset> parse(const std::string& text, const std::string& name) {
    return std::make_shared<Dataset>(parseLibsvm(text, name));
}

// K classes 0..K-1, `perClass` examples each, two features.
std::string classes(int K, int perClass) {
    std::string text;
    for (int k = 0; k < K; ++k)
        for (int i = 0; i < perClass; ++i)
            text += std::to_string(k) + " 1:" + std::to_string(k + 1) +
                    " 2:" + std::to_string(i % 3) + "\n";
    return text;
}

const char* kModel =
    "# cplab linear model\nrisk hinge\nbias 0\nfeatures 2\noutputs 1\nlambda 0.5\nclasses -1 "
    "1\nweights\n0.5\n";

}  // namespace

class TestLinearLimits : public QObject {
    Q_OBJECT

  private slots:
    void scoreMatricesRefusedUpFront() {
        const LinearProblem problem{parse(classes(400, 5), "many.libsvm"), nullptr};
        OcasOptions ocas;
        ocas.model.risk = "multiclass";
        BmrmOptions bmrm;
        bmrm.model.risk = "multiclass";
        // 2,000 examples x 400 classes x 3 matrices x 8 B = 18.3 MB for OCAS, 6.1 MB for BMRM.
        setMemoryBudget(8 << 20);
        const OcasSolver refused(problem, ocas);
        const BmrmSolver fits(problem, bmrm);
        setMemoryBudget(0);
        QCOMPARE(refused.status().code, StatusCode::InvalidInput);
        const QString why = QString::fromStdString(refused.status().message);
        QVERIFY2(why.startsWith("OcasSolver: needs ") &&
                     why.contains("2,000 examples x 400 classes x 3 score matrices") &&
                     why.contains("about 8 MB available"),
                 qPrintable(why));
        QVERIFY2(fits.status().code != StatusCode::InvalidInput, fits.status().message.c_str());
        // With the machine's memory, the same problem runs.
        OcasSolver runs(problem, ocas);
        QVERIFY2(runs.status().code == StatusCode::Running, runs.status().message.c_str());
    }

    void threeClassesWithBinaryLoss() {
        const LinearProblem problem{parse(classes(3, 4), "three.libsvm"), nullptr};
        for (const char* risk : {"hinge", "logistic", "squared_hinge"}) {
            OcasOptions o;
            o.model.risk = risk;
            const OcasSolver solver(problem, o);
            QCOMPARE(solver.status().code, StatusCode::InvalidInput);
            const QString expected = QString(
                                         "three.libsvm: 3 classes (labels 0, 1, 2); the %1 loss is "
                                         "binary: use risk=multiclass")
                                         .arg(risk);
            QVERIFY2(QString::fromStdString(solver.status().message).startsWith(expected),
                     solver.status().message.c_str());
        }
        // Dual coordinate descent has no multi-class loss: the message names solvers that do.
        const DcdSolver dcd(problem, {});
        QCOMPARE(dcd.status().code, StatusCode::InvalidInput);
        QVERIFY2(QString::fromStdString(dcd.status().message)
                     .contains("use risk=multiclass with ocas, bmrm, sgd or libocas"),
                 dcd.status().message.c_str());
        // Two classes 0/1 stay accepted.
        const LinearProblem binary{parse(classes(2, 4), "two.libsvm"), nullptr};
        QCOMPARE(OcasSolver(binary, {}).status().code, StatusCode::Running);
    }

    void modelWeightsBeyondMagnitude() {
        QVERIFY(parseLinearModel(std::string(kModel) + "1e100\n", "ok.txt").weights.size() == 2);
        for (const char* weight : {"1e308", "-1e101"}) {
            try {
                parseLinearModel(std::string(kModel) + weight + "\n", "huge.txt");
                QFAIL("a weight beyond 1e100 was accepted");
            } catch (const DataError& e) {
                QCOMPARE(e.line(), 10);
                QVERIFY2(QString::fromStdString(e.detail()).contains("beyond +-1e+100"), e.what());
            }
        }
    }

    void nonFiniteScoreIsAnError() {
        // Weights set in code (no file checks them): the score of the second example overflows.
        LinearModel model = parseLinearModel(std::string(kModel) + "0.5\n", "m.txt");
        model.weights << 1e308, 1e308;
        Dataset data = parseLibsvm("+1 1:0 2:0\n-1 1:10 2:10\n", "d.libsvm");
        try {
            model.predict(data);
            QFAIL("a prediction from an infinite score");
        } catch (const DataError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString("d.libsvm"));
            QCOMPARE(e.line(), 2);
            QVERIFY2(QString::fromStdString(e.detail()).contains("not finite"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestLinearLimits)
#include "test_linear_limits.moc"
