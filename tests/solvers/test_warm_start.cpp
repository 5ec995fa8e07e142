// SPDX-License-Identifier: GPL-3.0-or-later
// Warm starts after an edited training set (app/registry/warm_start.h): for each solver with a warm
// start, a run on set A, then the set edited (points added, deleted, moved), a warm run and a
// cold run on the edited set B. The warm run must reach the optimum the peer (LIBLINEAR,
// LIBSVM) or a tight cold run finds, its lower bounds must stay below that optimum from its
// very first record (certificates stay certificates), and the planes BMRM/OCAS keep must lie
// below the new risk at random points. Iteration counts warm vs cold are printed.
#include <QtTest>
#include <cmath>
#include <random>

#include "core/solver.h"
#include "data/generators.h"
#include "families/dataset_family.h"
#include "kernel/kernel_spec.h"
#include "kernel/libsvm_solver.h"
#include "kernel/silp.h"
#include "kernel/simplemkl.h"
#include "kernel/svm.h"
#include "linear/bmrm.h"
#include "linear/dcd.h"
#include "linear/liblinear_reference.h"
#include "linear/ocas.h"
#include "registry.h"
#include "sparse/slmc.h"
#include "warm_start.h"

using namespace cplab;

namespace {

// The training sets before and after an edit, and the edit's name.
struct Edit {
    std::string name;
    Dataset before, after;
    int added = 0;  // examples of `after` that are not in `before`
};

// Set A: 100 examples of overlapping blobs. Edits: 40 added (from the same generator),
// every fourth deleted, ten moved by (0.7, −0.4).
Edit makeEdit(const std::string& name) {
    Dataset all = generate("overlapping_blobs", 140, 7);
    all.setSparseStorage(false);
    std::vector<int> first(100);
    std::iota(first.begin(), first.end(), 0);
    Edit edit{name, all.subset(first), {}, 0};
    if (name == "add") {
        edit.after = all;
        edit.added = 40;
    } else if (name == "delete") {
        std::vector<int> kept;
        for (int i = 0; i < 100; ++i)
            if (i % 4 != 1) kept.push_back(i);
        edit.after = edit.before.subset(kept);
    } else {
        edit.after = edit.before;
        for (int i = 0; i < 10; ++i) {
            edit.after.dense(3 * i, 0) += 0.7;
            edit.after.dense(3 * i, 1) -= 0.4;
        }
        edit.added = 10;
    }
    return edit;
}

ProblemInstance instance(const std::string& family, const Dataset& train) {
    auto data = std::make_shared<const Dataset>(train);
    std::shared_ptr<ProblemData> problem;
    if (family == "linear") {
        auto linear = std::make_shared<LinearData>();
        linear->linear.train = data;
        problem = linear;
    } else {
        auto kernel = std::make_shared<KernelData>();
        kernel->kernel.train = data;
        problem = kernel;
    }
    return ProblemInstance{{train.name, family, "", "", train.dimension()}, problem};
}

std::unique_ptr<Solver> build(const std::string& solver, const ProblemInstance& problem,
                              const OptionValues& options) {
    std::string why;
    auto made = makeSolver(solver, problem, options, &why);
    if (!made) qFatal("%s", why.c_str());
    return made;
}

// Runs to the end; every record's lower bound must stay ≤ `optimum` (relative slack `slack`)
// when a reference optimum is known (NaN: none).
Status runChecked(Solver& solver, double optimum, double slack, bool* boundsHeld) {
    *boundsHeld = true;
    auto check = [&](const IterationRecord& r) {
        if (!std::isnan(optimum) && r.lower > optimum + slack * std::abs(optimum) + 1e-12) {
            qWarning("%s: iteration %d: L = %.17g above the optimum %.17g", solver.name().c_str(),
                     r.iteration, r.lower, optimum);
            *boundsHeld = false;
        }
    };
    check(solver.lastRecord());
    return solve(solver, [&](const Solver&, const IterationRecord& r) { check(r); });
}

void report(const std::string& what, const Solver& warm, const Solver& cold) {
    qInfo("%-28s warm %4d iterations (U = %.10g), cold %4d (U = %.10g)", what.c_str(),
          warm.lastRecord().iteration, warm.lastRecord().upper, cold.lastRecord().iteration,
          cold.lastRecord().upper);
}

// A run of `solver` solved on set A of the edit, and the run warmSolver made from it for B.
struct WarmCase {
    Edit edit;
    ProblemInstance after;
    std::unique_ptr<Solver> previous, warm;
    std::string note;
};

WarmCase warmCase(const std::string& family, const std::string& solver, const QString& edit,
                  const OptionValues& options) {
    WarmCase c{makeEdit(edit.toStdString()), {}, nullptr, nullptr, {}};
    c.previous = build(solver, instance(family, c.edit.before), options);
    if (!solve(*c.previous).usable()) qFatal("%s did not finish on set A", solver.c_str());
    c.after = instance(family, c.edit.after);
    c.warm = warmSolver(*c.previous, solver, c.after, options, &c.note);
    return c;
}

// Rows "<solver> <edit>" for every solver and edit (points added, deleted, moved).
void addRows(std::initializer_list<const char*> solvers) {
    QTest::addColumn<QString>("solver");
    QTest::addColumn<QString>("edit");
    for (const char* solver : solvers)
        for (const char* edit : {"add", "delete", "move"})
            QTest::addRow("%s %s", solver, edit) << solver << edit;
}

}  // namespace

class TestWarmStart : public QObject {
    Q_OBJECT

  private slots:
    // The correspondence finds the surviving examples, pairs duplicates once each, and marks
    // added and moved examples −1.
    void correspondence() {
        Dataset before;
        before.dense = Dataset::DenseMatrix(4, 2);
        before.dense << 0, 0, 1, 2, 1, 2, 3, 3;
        before.labels = Eigen::Vector4d(1, -1, -1, 1);
        Dataset after;
        after.dense = Dataset::DenseMatrix(5, 2);
        after.dense << 1, 2, 3, 3, 1, 2, 1, 2, 0, 0.5;
        after.labels = Eigen::VectorXd(5);
        after.labels << -1, -1, -1, 1, 1;
        // (1,2,−1) twice in `before` (1 and 2): the first two of `after` take them; (3,3,−1)
        // has the wrong label; (1,2,+1) and the moved (0,0.5) are new.
        const std::vector<int> index = exampleCorrespondence(before, after);
        QCOMPARE(index, (std::vector<int>{1, -1, 2, -1, -1}));
        Dataset sparse = before;
        sparse.setSparseStorage(true);
        QCOMPARE(exampleCorrespondence(sparse, before), (std::vector<int>{0, 1, 2, 3}));
    }

    // Solvers without a warm start, and a previous run of another solver, restart with a note.
    void restartsSaySo() {
        const Edit edit = makeEdit("add");
        const ProblemInstance a = instance("linear", edit.before);
        const ProblemInstance b = instance("linear", edit.after);
        auto sgd = build("sgd", a, {});
        sgd->step();
        std::string note;
        QVERIFY(!warmSolver(*sgd, "sgd", b, {}, &note));
        QCOMPARE(note, std::string("no warm start for sgd: it restarts"));
        auto bmrm = build("bmrm", a, {});
        bmrm->step();
        QVERIFY(!warmSolver(*bmrm, "ocas", b, {}, &note));
        QCOMPARE(note,
                 std::string("no warm start for ocas: it restarts (the previous run is bmrm)"));
        // An option the edited run refuses: no solver, the reason in the note.
        QVERIFY(!warmSolver(*bmrm, "bmrm", b, {{"C", "-1"}}, &note));
        QVERIFY2(note.find("no warm start for bmrm: it restarts (") == 0 &&
                     note.find("C") != std::string::npos,
                 note.c_str());
    }

    void cuttingPlanes_data() { addRows({"bmrm", "ocas"}); }

    // BMRM and OCAS: the kept planes bound the new risk, the bounds stay certified, and the
    // warm run ends at LIBLINEAR's optimum of the edited set within tol_rel, as the cold run.
    void cuttingPlanes() {
        QFETCH(QString, solver);
        QFETCH(QString, edit);
        const std::string name = solver.toStdString();
        const OptionValues options = {{"C", "10"}, {"tol_rel", "1e-4"}};
        WarmCase c = warmCase("linear", name, edit, options);
        auto& [e, b, previous, warm, note] = c;
        QVERIFY2(warm, note.c_str());
        QVERIFY2(note.find("warm start: " + name + " keeps w_b") == 0, note.c_str());
        auto* linear = dynamic_cast<LinearSvmSolver*>(warm.get());
        QVERIFY(linear && warm->iteration() == 0);

        LinearSvmOptions model;
        model.C = 10;
        const double optimum = solveWithLiblinear(linear->problem(), model).objective;

        // The planes: more than the constructor's, and every one below R_B at random w.
        const PlaneSet* planes = name == "bmrm" ? dynamic_cast<BmrmSolver&>(*warm).planes()
                                                : dynamic_cast<OcasSolver&>(*warm).planes();
        QVERIFY2(planes->size() > 5, qPrintable(QString::number(planes->size())));
        std::mt19937 random(3);
        std::normal_distribution<double> normal(0.0, 1.0);
        for (int t = 0; t < 300; ++t) {
            Eigen::VectorXd w(linear->risk().dimension());
            const double scale = std::pow(10.0, t % 4 - 1);  // 0.1 to 100
            for (Eigen::Index j = 0; j < w.size(); ++j)
                w[j] = scale * normal(random);
            const double r = linear->risk().evaluate(w, nullptr);
            QVERIFY2(planes->modelValue(w) <= r + 1e-10 * (1 + r),
                     qPrintable(QString("model %1 > R %2").arg(planes->modelValue(w)).arg(r)));
        }
        // The first record: U = F_B at the previous w_best, L certified.
        const IterationRecord& first = warm->lastRecord();
        QCOMPARE(first.upper, linear->objective(linear->bestWeights()));
        QVERIFY(first.upper >= optimum * (1 - 1e-12));
        QVERIFY(first.lower > 0.0);

        bool held = true;
        QVERIFY(runChecked(*warm, optimum, 1e-9, &held).usable());
        QVERIFY(held);
        auto cold = build(name, b, options);
        QVERIFY(runChecked(*cold, optimum, 1e-9, &held).usable());
        QVERIFY(held);
        QCOMPARE(warm->status().code, StatusCode::Converged);
        const double u = warm->lastRecord().upper;
        QVERIFY2(
            u - optimum <= 1e-4 * u + 1e-12,
            qPrintable(QString("U %1, optimum %2").arg(u, 0, 'g', 12).arg(optimum, 0, 'g', 12)));
        QVERIFY(std::abs(u - cold->lastRecord().upper) <= 1e-4 * u);
        report(name + " " + e.name, *warm, *cold);
        // A warm start that starts near the optimum never needs many more iterations.
        QVERIFY(warm->iteration() <= cold->iteration() + 10);
    }

    // Why the planes are taken again: the previous run's planes are lower bounds of the old
    // risk only; after a deletion some lie above the new risk.
    void oldPlanesDoNotBoundTheEditedRisk() {
        const Edit e = makeEdit("delete");
        const OptionValues options = {{"C", "10"}, {"tol_rel", "1e-4"}};
        auto previous = build("ocas", instance("linear", e.before), options);
        QVERIFY(solve(*previous).usable());
        auto edited = build("ocas", instance("linear", e.after), options);
        const auto& risk = dynamic_cast<LinearSvmSolver&>(*edited).risk();
        const PlaneSet& old = *dynamic_cast<OcasSolver&>(*previous).planes();
        std::mt19937 random(5);
        std::normal_distribution<double> normal(0.0, 3.0);
        int above = 0;
        for (int t = 0; t < 300; ++t) {
            Eigen::VectorXd w(risk.dimension());
            for (Eigen::Index j = 0; j < w.size(); ++j)
                w[j] = normal(random);
            if (old.modelValue(w) > risk.evaluate(w, nullptr) + 1e-9) ++above;
        }
        qInfo("old planes above the edited risk at %d of 300 random w", above);
        QVERIFY(above > 0);
    }

    void dcd_data() { addRows({"dcd"}); }

    // DCD keeps α of the surviving examples (clipped to the new C): its first lower bound is
    // λD(α), certified, and the run ends at LIBLINEAR's optimum.
    void dcd() {
        QFETCH(QString, solver);
        QFETCH(QString, edit);
        const std::string name = solver.toStdString();
        const OptionValues options = {{"C", "10"}, {"tol_rel", "1e-4"}};
        WarmCase c = warmCase("linear", name, edit, options);
        auto& [e, b, previous, warm, note] = c;
        QVERIFY2(warm, note.c_str());
        QVERIFY2(note.find("warm start: " + name + " keeps alpha of ") == 0, note.c_str());
        auto& dcd = dynamic_cast<DcdSolver&>(*warm);
        QVERIFY((dcd.alpha().array() >= 0).all() && (dcd.alpha().array() <= dcd.boxBound()).all());
        QVERIFY((dcd.alpha().array() > 0).count() > 10);
        LinearSvmOptions model;
        model.C = 10;
        const double optimum = solveWithLiblinear(dcd.problem(), model).objective;
        qInfo("first L %g, optimum %g", warm->lastRecord().lower, optimum);
        QVERIFY(warm->lastRecord().lower >= 0.0);  // never below the cold start's D(0)
        bool held = true;
        QVERIFY(runChecked(*warm, optimum, 1e-9, &held).usable());
        QVERIFY(held);
        auto cold = build(name, b, options);
        QVERIFY(solve(*cold).usable());
        const double u = warm->lastRecord().upper;
        QVERIFY(u - optimum <= 1e-4 * u + 1e-12);
        report(name + " " + e.name, *warm, *cold);
    }

    void svm_data() { addRows({"svm"}); }

    // SMO starts from α carried over (feasible: box and yᵀα = 0), D(α) is a certified lower
    // bound from the first record, and the run ends at LIBSVM's dual optimum.
    void svm() {
        QFETCH(QString, solver);
        QFETCH(QString, edit);
        const std::string name = solver.toStdString();
        const OptionValues options = {
            {"kernel", "gaussian:0.5"}, {"C", "10"}, {"kkt_tolerance", "1e-6"}};
        WarmCase c = warmCase("kernel", name, edit, options);
        auto& [e, b, previous, warm, note] = c;
        QVERIFY2(warm, note.c_str());
        QVERIFY2(note.find("warm start: " + name + " keeps alpha of ") == 0, note.c_str());
        const auto& svm = dynamic_cast<SvmSolver&>(*warm);
        const Eigen::VectorXd& alpha = svm.smo().alpha();
        const Eigen::VectorXd& y = svm.problem().train->labels;
        QVERIFY((alpha.array() >= 0).all() && (alpha.array() <= 10).all());
        QVERIFY(std::abs(y.dot(alpha)) <= 1e-9 * alpha.size() * 10);
        QVERIFY(svm.smo().supportVectors() > 10);

        std::vector<KernelSpec> specs;
        std::string why;
        QVERIFY(parseKernelList("gaussian:0.5", 2, &specs, &why));
        const double optimum = solveWithLibsvm(*svm.problem().train, specs[0],
                                               KernelNormalization::None, 10, 1e-8, true, 64)
                                   .dualObjective;
        qInfo("first L %g, optimum %g", warm->lastRecord().lower, optimum);
        QVERIFY(warm->lastRecord().lower >= 0.0);  // never below the cold start's D(0)
        bool held = true;
        QVERIFY(runChecked(*warm, optimum, 1e-9, &held).usable());
        QVERIFY(held);
        auto cold = build(name, b, options);
        QVERIFY(solve(*cold).usable());
        QVERIFY(std::abs(warm->lastRecord().lower - optimum) <= 1e-5 * optimum);
        QVERIFY(std::abs(cold->lastRecord().lower - optimum) <= 1e-5 * optimum);
        report(name + " " + e.name, *warm, *cold);
    }

    void mkl_data() { addRows({"silp", "simplemkl"}); }

    // SILP keeps its LP rows (retaken from their α carried over), SimpleMKL keeps β and α: θ and
    // min_k S_k stay below the edited set's min D(β) (from a tight cold SILP), and both end at
    // that optimum within tol_rel.
    void mkl() {
        QFETCH(QString, solver);
        QFETCH(QString, edit);
        const std::string name = solver.toStdString();
        const OptionValues options = {{"kernels", "gaussian:0.2,2;linear"},
                                      {"C", "10"},
                                      {"kkt_tolerance", "1e-7"},
                                      {"tol_rel", "1e-4"}};
        WarmCase c = warmCase("kernel", name, edit, options);
        auto& [e, b, previous, warm, note] = c;
        QVERIFY2(warm, note.c_str());
        OptionValues tight = options;
        tight["tol_rel"] = "1e-7";
        auto reference = build("silp", b, tight);
        QVERIFY(solve(*reference).usable());
        const double optimum = reference->lastRecord().upper;  // min D(β), within 1e-7
        QVERIFY2(note.find("warm start: " + name + " keeps beta") == 0, note.c_str());
        const auto& kernel = dynamic_cast<KernelSvmSolver&>(*warm);
        QVERIFY(kernel.weights().isApprox(dynamic_cast<KernelSvmSolver&>(*previous).weights()));
        bool held = true;
        QVERIFY(runChecked(*warm, optimum, 1e-6, &held).usable());
        QVERIFY(held);
        auto cold = build(name, b, options);
        QVERIFY(solve(*cold).usable());
        const double u = warm->lastRecord().upper;
        QVERIFY2(
            std::abs(u - optimum) <= 2e-4 * optimum,
            qPrintable(QString("U %1, optimum %2").arg(u, 0, 'g', 12).arg(optimum, 0, 'g', 12)));
        report(name + " " + e.name, *warm, *cold);
    }

    void slmc_data() { addRows({"slmc"}); }

    // SLMC keeps Z and starts the inner SVM from α carried over: the first record is W at the
    // previous Z on the edited set (evaluated afresh here), and L-BFGS only goes down from it.
    void slmc() {
        QFETCH(QString, solver);
        QFETCH(QString, edit);
        const std::string name = solver.toStdString();
        const OptionValues options = {
            {"kernel", "gaussian:0.5"}, {"expansion_vectors", "5"}, {"C", "10"}};
        WarmCase c = warmCase("sparse", name, edit, options);
        auto& [e, b, previous, warm, note] = c;
        QVERIFY2(warm, note.c_str());
        QCOMPARE(note, std::string("warm start: slmc keeps the 5 expansion vectors and alpha of "
                                   "the surviving examples"));
        const auto& slmc = dynamic_cast<SlmcSolver&>(*warm);
        const Eigen::MatrixXd& Z = dynamic_cast<SlmcSolver&>(*previous).current().Z;
        QCOMPARE(slmc.current().Z, Z);
        // W(Z) on the edited set from a cold inner SVM: the same value.
        const SlmcEvaluation fresh = slmc.objective().evaluate(Z);
        QVERIFY(std::abs(fresh.value - slmc.current().value) <= 1e-4 * std::abs(fresh.value));
        const double start = warm->lastRecord().upper;
        QVERIFY(solve(*warm).usable());
        QVERIFY(warm->lastRecord().upper <= start * (1 + 1e-9));
        auto cold = build(name, b, options);
        QVERIFY(solve(*cold).usable());
        report(name + " " + e.name, *warm, *cold);
    }
};

QTEST_MAIN(TestWarmStart)
#include "test_warm_start.moc"
