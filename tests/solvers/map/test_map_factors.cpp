// SPDX-License-Identifier: GPL-3.0-or-later
// Higher-order factors (3+ variables) against independent answers: exhaustive search on small
// random models with ternary and quaternary factors (MPLP's and diffusion's bounds never below
// the optimum, the reported energies recomputed from the test's own tables), exact optima
// with a zero gap on trees of factors, the local-polytope LP with factor marginals solved by
// Clp, the UAI and libDAI readers and writer on factors (indices computed here), the caps,
// TRW-S's refusal, and wcsp_11 of UAI 2014 against toulbar2's best labeling.
#include <QtTest>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "data/data_error.h"
#include "data/uai_format.h"
#include "map/generators.h"
#include "map_test_models.h"

using namespace cplab;
using namespace cplab::maptest;

namespace {

const std::string kUai = std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";
// wcsp_11: E of the competition's reference labeling (wcsp_11.uai.MAP) under our reader, and
// of the best labeling toulbar2 found (Debian toulbar2, `toulbar2 wcsp_11.uai -timer=300`, run
// once on 27 Nov 2026: "New solution: 76274391 energy: 7.627" after 80492 backtracks; it
// proved no optimum, its gap stayed at 46 %). Its cost is c = 10^7·(−E) − 33 (its earlier
// solution of cost 76839167 has E = −7.683920011 here), so E = −(76274391 + 33)·10^−7.
constexpr double kWcsp11Reference = -7.712158816071695;
constexpr double kWcsp11Toulbar2 = -7.6274424;

// A model with higher-order factors in the test's own form: Plain (unaries, dense edges) and
// factors whose tables are indexed here (row-major, the last variable fastest).
struct FactorPlain {
    struct Factor {
        std::vector<int> vars;
        std::vector<double> table;
    };
    Plain base;
    std::vector<Factor> factors;

    std::size_t index(const Factor& f, const std::vector<int>& x) const {
        std::size_t i = 0;
        for (const int v : f.vars)
            i = i * std::size_t(base.k[std::size_t(v)]) + std::size_t(x[std::size_t(v)]);
        return i;
    }
    double energy(const std::vector<int>& x) const {
        double sum = base.energy(x);
        for (const Factor& f : factors)
            sum += f.table[index(f, x)];
        return sum;
    }
    double optimum() const {
        std::vector<int> x(base.k.size(), 0);
        double best = -kInf;
        for (;;) {
            best = std::max(best, energy(x));
            std::size_t v = 0;
            while (v < x.size() && ++x[v] == base.k[v])
                x[v++] = 0;
            if (v == x.size()) return best;
        }
    }
    std::shared_ptr<const PairwiseModel> model() const {
        auto m = std::make_shared<PairwiseModel>(*base.model());
        for (const Factor& f : factors)
            m->addFactor(f.vars, f.table);
        return m;
    }
    void addFactor(std::vector<int> vars, std::mt19937& rng, double scale) {
        std::uniform_real_distribution<double> theta(-scale, scale);
        std::size_t size = 1;
        for (const int v : vars)
            size *= std::size_t(base.k[std::size_t(v)]);
        Factor f{std::move(vars), {}};
        for (std::size_t i = 0; i < size; ++i)
            f.table.push_back(theta(rng));
        factors.push_back(std::move(f));
    }
};

FactorPlain withNodes(int n, int maxLabels, std::mt19937& rng) {
    FactorPlain p;
    std::uniform_int_distribution<int> labels(2, maxLabels);
    std::uniform_real_distribution<double> theta(-1.0, 1.0);
    for (int v = 0; v < n; ++v) {
        p.base.k.push_back(labels(rng));
        std::vector<double> u;
        for (int a = 0; a < p.base.k.back(); ++a)
            u.push_back(theta(rng));
        p.base.unary.push_back(u);
    }
    return p;
}

// "loopy": 6 nodes, ternary and quaternary factors overlapping in several variables, and two
// pairwise edges. "tree": a tree of factors (each shares one variable with the ones before
// it), so the local polytope is tight and the MAP is the LP optimum.
FactorPlain makeFactorModel(const QString& kind, unsigned seed) {
    std::mt19937 rng(seed);
    if (kind == "loopy") {
        FactorPlain p = withNodes(6, 3, rng);
        p.addFactor({0, 1, 2}, rng, 2.0);
        p.addFactor({2, 3, 4}, rng, 2.0);
        p.addFactor({4, 5, 0}, rng, 2.0);
        p.addFactor({1, 3, 5, 2}, rng, 2.0);
        p.base.addDense(0, 3, rng, 1.0);
        p.base.addDense(5, 1, rng, 1.0);
        return p;
    }
    FactorPlain p = withNodes(9, 3, rng);
    p.addFactor({0, 1, 2}, rng, 2.0);
    p.addFactor({3, 2, 4}, rng, 2.0);
    p.addFactor({4, 5, 6, 7}, rng, 2.0);
    p.base.addDense(1, 8, rng, 1.0);
    return p;
}

// max Σθ·μ over the local polytope with factor marginals μ_f(x_f) ≥ 0 that sum to μ_i(x_i)
// over x_f ∖ x_i for every variable i of f, solved by Clp.
double factorLocalPolytope(const FactorPlain& p) {
    const Plain& b = p.base;
    std::vector<int> start{0};
    for (int k : b.k)
        start.push_back(start.back() + k);
    std::vector<int> edgeStart{start.back()};
    for (const auto& e : b.edges)
        edgeStart.push_back(edgeStart.back() + int(e.table.size()));
    std::vector<int> factorStart{edgeStart.back()};
    for (const auto& f : p.factors)
        factorStart.push_back(factorStart.back() + int(f.table.size()));
    const int columns = factorStart.back();
    Eigen::VectorXd c = Eigen::VectorXd::Zero(columns), lower = Eigen::VectorXd::Zero(columns),
                    upper = Eigen::VectorXd::Ones(columns);
    for (std::size_t v = 0; v < b.k.size(); ++v)
        for (int a = 0; a < b.k[v]; ++a)
            c[start[v] + a] = -b.unary[v][std::size_t(a)];
    for (std::size_t e = 0; e < b.edges.size(); ++e)
        for (std::size_t i = 0; i < b.edges[e].table.size(); ++i)
            c[edgeStart[e] + int(i)] = -b.edges[e].table[i];
    for (std::size_t f = 0; f < p.factors.size(); ++f)
        for (std::size_t i = 0; i < p.factors[f].table.size(); ++i)
            c[factorStart[f] + int(i)] = -p.factors[f].table[i];
    LpMaster lp(c, lower, upper);
    for (std::size_t v = 0; v < b.k.size(); ++v) {
        Eigen::VectorXd row = Eigen::VectorXd::Zero(columns);
        row.segment(start[v], b.k[v]).setOnes();
        lp.addRow(row, 1.0, 1.0);
    }
    auto marginal = [&](int first, const std::vector<int>& vars) {
        // Entry i of a table over `vars` (last fastest) has label (i / stride_j) % k_j at j.
        for (std::size_t j = 0; j < vars.size(); ++j) {
            int stride = 1;
            for (std::size_t l = j + 1; l < vars.size(); ++l)
                stride *= b.k[std::size_t(vars[l])];
            int size = 1;
            for (const int v : vars)
                size *= b.k[std::size_t(v)];
            const int kj = b.k[std::size_t(vars[j])];
            for (int a = 0; a < kj; ++a) {
                Eigen::VectorXd row = Eigen::VectorXd::Zero(columns);
                for (int i = 0; i < size; ++i)
                    if ((i / stride) % kj == a) row[first + i] = 1.0;
                row[start[std::size_t(vars[j])] + a] = -1.0;
                lp.addRow(row, 0.0, 0.0);
            }
        }
    };
    for (std::size_t e = 0; e < b.edges.size(); ++e)
        marginal(edgeStart[e], {b.edges[e].u, b.edges[e].v});
    for (std::size_t f = 0; f < p.factors.size(); ++f)
        marginal(factorStart[f], p.factors[f].vars);
    if (lp.solve() != LpStatus::Optimal) qFatal("the factor LP was not solved");
    return -lp.objective();
}

// Runs `solver` to its end (at most `sweeps` sweeps); checks every record against the
// optimum and the energies against the test's own tables. Returns the last record.
IterationRecord runChecked(const QString& solver, const FactorPlain& p, double optimum,
                           int sweeps) {
    MessagePassingOptions options;
    options.stop.max_iterations = sweeps;
    options.stop.max_seconds = 0.0;
    auto s = makeSolver(solver, p.model(), options);
    [&] { QVERIFY2(s->status().code != StatusCode::InvalidInput, s->status().message.c_str()); }();
    const double slack = 1e-9 * std::max(1.0, std::abs(optimum));
    double previousDual = kInf;
    while (!s->status().finished()) {
        s->step();
        const IterationRecord& r = s->lastRecord();
        if (r.upper < optimum - slack || r.lower > optimum + slack) {
            qWarning("%s: U %.12g, E %.12g, optimum %.12g", qPrintable(solver), r.upper, r.lower,
                     optimum);
            return r;
        }
        if (std::abs(p.energy(s->bestLabeling()) - r.lower) > slack) {
            qWarning("%s: the reported energy %.12g is not the labeling's %.12g",
                     qPrintable(solver), r.lower, p.energy(s->bestLabeling()));
            return r;
        }
        if (s->dual() > previousDual + 1e-9 * std::max(1.0, std::abs(previousDual))) {
            qWarning("%s: the dual rose from %.12g to %.12g", qPrintable(solver), previousDual,
                     s->dual());
            return r;
        }
        previousDual = s->dual();
    }
    return s->lastRecord();
}

}  // namespace

class TestMapFactors : public QObject {
    Q_OBJECT

  private slots:
    void boundsHoldOnLoopyModels_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<unsigned>("seed");
        for (const QString& solver : {QString("mplp"), QString("diffusion")})
            for (unsigned seed = 1; seed <= 12; ++seed)
                QTest::addRow("%s %u", qPrintable(solver), seed) << solver << seed;
    }
    // Bound ≥ optimum ≥ energy at every record; the LP value (Clp) lies between: the bound of
    // a block-coordinate method is at least the LP optimum, which is at least the MAP.
    void boundsHoldOnLoopyModels() {
        QFETCH(QString, solver);
        QFETCH(unsigned, seed);
        const FactorPlain p = makeFactorModel("loopy", seed);
        const double optimum = p.optimum();
        const double lp = factorLocalPolytope(p);
        QVERIFY2(lp >= optimum - 1e-7, qPrintable(QString("LP %1 < MAP %2").arg(lp).arg(optimum)));
        const IterationRecord last = runChecked(solver, p, optimum, 2000);
        const double slack = 1e-9 * std::max(1.0, std::abs(optimum));
        QVERIFY2(
            last.upper >= optimum - slack && last.lower <= optimum + slack,
            qPrintable(QString("U %1 E %2 MAP %3").arg(last.upper).arg(last.lower).arg(optimum)));
        QVERIFY2(last.upper >= lp - 1e-6,
                 qPrintable(QString("U %1 below the LP optimum %2").arg(last.upper).arg(lp)));
    }

    void exactOnTreesOfFactors_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<unsigned>("seed");
        for (const QString& solver : {QString("mplp"), QString("diffusion")})
            for (unsigned seed = 1; seed <= 8; ++seed)
                QTest::addRow("%s %u", qPrintable(solver), seed) << solver << seed;
    }
    // On a tree of factors the LP is tight (Clp's value is the MAP) and the run ends with a
    // zero gap: its bound and its labeling's energy both equal the exhaustive optimum.
    void exactOnTreesOfFactors() {
        QFETCH(QString, solver);
        QFETCH(unsigned, seed);
        const FactorPlain p = makeFactorModel("tree", seed);
        const double optimum = p.optimum();
        QVERIFY(std::abs(factorLocalPolytope(p) - optimum) < 1e-6);
        const IterationRecord last = runChecked(solver, p, optimum, 5000);
        QVERIFY2(std::abs(last.lower - optimum) < 1e-9,
                 qPrintable(QString("E %1, MAP %2").arg(last.lower, 0, 'g', 12).arg(optimum)));
        QVERIFY2(std::abs(last.upper - optimum) < 1e-6,
                 qPrintable(QString("U %1, MAP %2").arg(last.upper, 0, 'g', 12).arg(optimum)));
    }

    // The factor grid generator: (w−1)(h−1) factors over the corners of each cell, energies
    // as the test sums them from the model's own tables, and TRW-S refusing it.
    void factorGridAndRefusals() {
        FactorGridOptions o;
        o.width = 4;
        o.height = 3;
        o.labels = 2;
        o.arity = 4;
        const auto grid = factorGrid(o);
        QCOMPARE(grid.model->factorCount(), 6);
        QCOMPARE(grid.model->edgeCount(), 0);
        const auto vars = grid.model->factorVariables(4);  // the cell at x = 1, y = 1
        QCOMPARE(std::vector<int>(vars.begin(), vars.end()), (std::vector<int>{5, 6, 9, 10}));
        std::vector<int> x(12, 0);
        x[6] = 1;
        x[9] = 1;  // cell 4's labels (0, 1, 1, 0): entry 0·8 + 1·4 + 1·2 + 0 = 6
        double sum = 0.0;
        for (int v = 0; v < 12; ++v)
            sum += grid.model->unary(v)[std::size_t(x[std::size_t(v)])];
        for (int f = 0; f < 6; ++f) {
            const auto fv = grid.model->factorVariables(f);
            std::size_t i = 0;
            for (const int v : fv)
                i = 2 * i + std::size_t(x[std::size_t(v)]);
            if (f == 4) QCOMPARE(i, std::size_t(6));
            sum += grid.model->factorTable(f)[i];
        }
        QCOMPARE(grid.model->energy(x), sum);

        TrwsSolver trws(grid.model);
        QVERIFY(trws.status().code == StatusCode::InvalidInput);
        QCOMPARE(QString::fromStdString(trws.status().message),
                 QString("trws handles pairwise models only; the model has 6 factors of 3+ "
                         "variables: use mplp or diffusion"));
        auto cycles = makeSolver("mplp_cycles", grid.model);
        QVERIFY(cycles->status().code == StatusCode::InvalidInput);
        QVERIFY(MplpSolver(grid.model).status().code == StatusCode::Running);
    }

    // UAI: a ternary factor read with the last variable fastest, written back and read again;
    // libDAI: the first variable fastest. The energies are the products' logs computed here.
    void readersKeepFactors() {
        const std::string uai =
            "MARKOV\n4\n2 2 3 2\n2\n3 0 2 1\n1 3\n"
            "12\n1 2 3 4 5 6 7 8 9 10 11 12\n2\n0.5 4\n";
        UaiTables t = parseUai(uai, "test.uai");
        QCOMPARE(t.factors.size(), std::size_t(1));
        const auto m = PairwiseModel::fromTables(t);
        // x = (x0, x1, x2, x3) = (1, 0, 2, 1): scope (0, 2, 1) → index 1·6 + 2·2 + 0 = 10.
        const std::vector<int> x = {1, 0, 2, 1};
        QCOMPARE(m.energy(x), std::log(11.0) + std::log(4.0));
        const auto back = PairwiseModel::fromTables(parseUai(formatUai(m.toTables()), "again"));
        QCOMPARE(back.factorCount(), 1);
        QCOMPARE(back.energy(x), m.energy(x));
        // libDAI: variables 0 1 2 with 2 2 3 states, the first changing fastest; the entry
        // (x0, x1, x2) = (1, 0, 2) has linear index 1 + 0·2 + 2·4 = 9.
        const std::string fg = "1\n\n3\n0 1 2\n2 2 3\n2\n9 5\n0 2\n";
        const auto g = PairwiseModel::fromTables(parseLibdaiFactorGraph(fg, "test.fg"));
        QCOMPARE(g.factorCount(), 1);
        QCOMPARE(g.energy(std::vector<int>{1, 0, 2}), std::log(5.0));
        QCOMPARE(g.energy(std::vector<int>{0, 0, 0}), std::log(2.0));
        QCOMPARE(g.energy(std::vector<int>{0, 1, 0}), -kInf);
    }

    // A table with too few entries, and one over the 2^24 cap, are refused naming the factor.
    void readersRefuseBadFactors() {
        try {
            parseUai("MARKOV\n3\n2 2 2\n1\n3 0 1 2\n7\n1 1 1 1 1 1 1\n", "short.uai");
            QFAIL("a short table was accepted");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("the table of factor 0 (variables 0 1 2") !=
                             std::string::npos &&
                         std::string(e.what()).find("expected 8 = 2x2x2") != std::string::npos,
                     e.what());
        }
        try {
            parseUai("MARKOV\n3\n512 512 512\n1\n3 0 1 2\n134217728\n", "big.uai");
            QFAIL("a table over the cap was accepted");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("134217728 entries, more than the 16777216") !=
                         std::string::npos,
                     e.what());
        }
    }

    // wcsp_11 (UAI 2014; 590 ternary factors): MPLP's bound stays above the energy of the
    // best labeling toulbar2 found (a valid bound must), and within 5 s our best labeling is
    // within 0.5 % of the competition's reference (the target; toulbar2's is better
    // still, by about 1.5 %: see docs/map.md).
    void wcsp11AgainstToulbar2() {
        UaiTables tables = loadUai(kUai + "/wcsp_11.uai.gz");
        QVERIFY(!tables.factors.empty());
        const auto model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(tables));
        const double reference = model->energy(loadUaiResult(kUai + "/wcsp_11.uai.MAP"));
        QVERIFY(std::abs(reference - kWcsp11Reference) < 1e-9);
        MessagePassingOptions options;
        options.stop.max_seconds = 5.0;
        MplpSolver mplp(model, options);
        while (!mplp.status().finished())
            mplp.step();
        QVERIFY(mplp.lastRecord().upper >= kWcsp11Toulbar2);
        QVERIFY2(mplp.bestEnergy() >= kWcsp11Reference - 0.005 * std::abs(kWcsp11Reference),
                 qPrintable(QString::number(mplp.bestEnergy(), 'g', 12)));
    }
};

QTEST_GUILESS_MAIN(TestMapFactors)
#include "test_map_factors.moc"
