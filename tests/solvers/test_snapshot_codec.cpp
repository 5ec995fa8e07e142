// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshot bytes (app/registry/snapshot_codec.h) for every demo's runs: encode → decode against a
// fresh solver's iteration-0 snapshot → encode gives the same bytes; the fields (the shared
// and derived ones included) equal the original's; each family's view draws the decoded
// snapshot to the same pixels; truncations, bit flips and absurd counts are refused with a
// message. Prints the encoded and zlib-compressed sizes per demo run (for the session dialog).
#include <zlib.h>

#include <QImage>
#include <QSet>
#include <QtTest>
#include <bit>
#include <cstring>
#include <optional>
#include <random>
#include <typeindex>

#include "coalesced_replot.h"
#include "core/byte_stream.h"
#include "core/snapshot_fields_codec.h"
#include "core/solver.h"
#include "families/families.h"
#include "family_view.h"
#include "family_views.h"
#include "kernel/kernel_snapshot.h"
#include "kernel/mkl_path_snapshot.h"
#include "linear/linear_svm_snapshot.h"
#include "map/map_snapshot.h"
#include "nonsmooth/cutting_plane_view.h"
#include "polytope/frank_wolfe_snapshot.h"
#include "registry.h"
#include "snapshot_codec.h"
#include "sparse/sparse_snapshot.h"
#include "structured/structured_snapshot.h"

using namespace cplab;

namespace {

// Steps each demo run takes (the runs of kRunToEnd go on to their stop rule).
constexpr int kSteps = 4;
const std::vector<std::string> kRunToEnd = {"kelley_2d", "svm_2d", "mkl_path_2d"};

bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool sameVector(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return a.size() == b.size() &&
           std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) ==
               0;
}

std::size_t zlibSize(const std::string& bytes) {
    uLongf size = compressBound(static_cast<uLong>(bytes.size()));
    std::vector<Bytef> out(size);
    compress2(out.data(), &size, reinterpret_cast<const Bytef*>(bytes.data()),
              static_cast<uLong>(bytes.size()), 6);
    return size;
}

// One run of a demo: its solver stepped, the snapshots it gave, and a fresh solver's base.
struct SteppedRun {
    std::string label;  // "svm_2d/silp"
    std::unique_ptr<Solver> solver;
    std::vector<SnapshotPtr> snapshots;
    SnapshotPtr base;
};

// A run of `solver` on `problem` stepped `steps` times (or to its stop rule), with the
// iteration-0 snapshot of a fresh solver of the same run as its base; null solver on failure.
SteppedRun stepRun(const std::string& label, const ProblemInstance& problem, const DemoRun& run,
                   int steps, std::string* why) {
    SteppedRun stepped;
    stepped.label = label;
    stepped.solver = makeSolver(run.solver, problem, run.options, why);
    const auto fresh = makeSolver(run.solver, problem, run.options, why);
    if (!stepped.solver || !fresh) return {};
    stepped.base = fresh->snapshot();
    stepped.snapshots.push_back(stepped.solver->snapshot());
    for (int k = 0; k < steps && !stepped.solver->status().finished(); ++k) {
        stepped.solver->step();
        stepped.snapshots.push_back(stepped.solver->snapshot());
    }
    return stepped;
}

std::vector<SteppedRun> stepDemo(const DemoInfo& demo, int steps, std::string* why) {
    std::vector<SteppedRun> runs;
    const ProblemPtr problem = makeProblem(demo.problem, why);
    if (!problem) return {};
    for (const DemoRun& run : demo.runs) {
        runs.push_back(stepRun(demo.name + "/" + run.solver, *problem, run, steps, why));
        if (!runs.back().solver) return {};
    }
    return runs;
}

// The common fields, compared field by field (not through the codec).
bool sameCommonFields(const Snapshot& a, const Snapshot& b) {
    const IterationRecord &r = a.record, &s = b.record;
    bool same = a.solver == b.solver && r.iteration == s.iteration &&
                sameBits(r.seconds, s.seconds) && r.oracleCalls == s.oracleCalls &&
                sameBits(r.upper, s.upper) && sameBits(r.lower, s.lower) &&
                sameBits(r.gap, s.gap) && sameBits(r.passes, s.passes) &&
                sameBits(r.pathParameter, s.pathParameter) && r.events == s.events &&
                r.extra.size() == s.extra.size() && a.status.code == b.status.code &&
                a.status.message == b.status.message && a.executedLines == b.executedLines &&
                a.events == b.events;
    for (std::size_t k = 0; same && k < r.extra.size(); ++k)
        same = sameBits(r.extra[k], s.extra[k]);
    return same;
}

// The classifiers agree: the same support vectors and the same f at `points`' rows.
void compareClassifiers(const KernelClassifier* a, const KernelClassifier* b,
                        const Dataset* points) {
    QCOMPARE(a == nullptr, b == nullptr);
    if (!a) return;
    QCOMPARE(a->supportVectors.size(), b->supportVectors.size());
    QCOMPARE(a->supportVectors.dimension(), b->supportVectors.dimension());
    QVERIFY(a->supportVectors.dense == b->supportVectors.dense);
    QVERIFY(sameVector(a->supportVectors.labels, b->supportVectors.labels));
    QCOMPARE(a->supportVectors.name, b->supportVectors.name);
    QCOMPARE(a->serials, b->serials);
    QVERIFY(sameVector(a->coefficients, b->coefficients));
    if (!points || points->size() == 0 || a->specs.front().type == KernelType::Precomputed) return;
    for (int i : {0, points->size() / 2, points->size() - 1})
        QVERIFY(sameBits(a->decision(*points, i), b->decision(*points, i)));
}

void compareGrids(const DecisionGrid& a, const DecisionGrid& b) {
    QCOMPARE(a.n, b.n);
    QCOMPARE(a.values.size(), b.values.size());
    for (std::size_t k = 0; k < a.values.size(); k += 97)
        QVERIFY(sameBits(a.values[k], b.values[k]));
    QCOMPARE(a.zero.segments.size(), b.zero.segments.size());
    QCOMPARE(a.margins.size(), b.margins.size());
}

// The parts a decoded snapshot takes from the base (not stored) equal the original's, and
// the derived ones behave alike: spot checks per type.
void compare(const CuttingPlaneSnapshot& a, const CuttingPlaneSnapshot& b) {
    QCOMPARE(a.function == nullptr, b.function == nullptr);
    if (a.function) QCOMPARE(a.function->xs, b.function->xs);
    QCOMPARE(a.planes.size(), b.planes.size());
    QCOMPARE(a.modelCells.size(), b.modelCells.size());
    QCOMPARE(a.serious, b.serious);
    QVERIFY(sameBits(a.bestValue, b.bestValue));
}

void compare(const KernelSnapshot& a, const KernelSnapshot& b) {
    QVERIFY(sameVector(a.alpha, b.alpha) && sameVector(a.beta, b.beta));
    compareClassifiers(a.classifier.get(), b.classifier.get(),
                       a.setup ? a.setup->train.get() : nullptr);
    compareGrids(a.grid, b.grid);
    QCOMPARE(a.dValues.size(), b.dValues.size());
}

void compare(const SparseSnapshot& a, const SparseSnapshot& b) {
    QVERIFY(a.xvs == b.xvs && sameVector(a.beta, b.beta));
    compareClassifiers(a.classifier.get(), b.classifier.get(), a.train.get());
    compareGrids(a.grid, b.grid);
    QCOMPARE(a.trailIterations, b.trailIterations);
}

void compare(const MklPathSnapshot& a, const MklPathSnapshot& b) {
    QCOMPARE(a.alphas.size(), b.alphas.size());
    for (std::size_t p = 0; p < a.alphas.size(); ++p)
        QVERIFY(sameVector(*a.alphas[p], *b.alphas[p]));
    QCOMPARE(a.pictures.size(), b.pictures.size());
    for (std::size_t p = 0; p < a.pictures.size(); ++p)
        QCOMPARE(a.pictures[p]->values, b.pictures[p]->values);
    QCOMPARE(a.model == nullptr, b.model == nullptr);
}

void compare(const StructuredSnapshot& a, const StructuredSnapshot& b) {
    QVERIFY(sameVector(a.w, b.w));
    QCOMPARE(a.lattices.size(), b.lattices.size());
    for (std::size_t k = 0; k < a.lattices.size(); ++k) {
        QVERIFY(a.lattices[k].scores == b.lattices[k].scores);
        QCOMPARE(a.lattices[k].decoded, b.lattices[k].decoded);
    }
    if (a.words) QCOMPARE(a.words->labels, b.words->labels);
}

void compare(const MapSnapshot& a, const MapSnapshot& b) {
    QVERIFY(a.labeling == b.labeling && a.disagreeing == b.disagreeing);
    QCOMPARE(a.clusters, b.clusters);
    QCOMPARE(a.model->variables(), b.model->variables());
    QCOMPARE(a.picture == nullptr, b.picture == nullptr);
}

void compare(const LinearSvmSnapshot& a, const LinearSvmSnapshot& b) {
    QVERIFY(sameVector(a.wBest, b.wBest) && a.ks == b.ks);
    QCOMPARE(a.train->size(), b.train->size());
}

void compare(const FrankWolfeSnapshot& a, const FrankWolfeSnapshot& b) {
    QVERIFY(a.iterates == b.iterates && a.weights == b.weights);
    QCOMPARE(a.view->problem->vertices, b.view->problem->vertices);
}

// compare() when `a` is a T (and then `b` must be one too).
template <class T>
bool compareAs(const Snapshot& a, const Snapshot& b) {
    const auto* x = dynamic_cast<const T*>(&a);
    if (!x) return false;
    const auto* y = dynamic_cast<const T*>(&b);
    if (y)
        compare(*x, *y);
    else
        QTest::qFail("decoded as another type", __FILE__, __LINE__);
    return true;
}

void compareTypeFields(const Snapshot& a, const Snapshot& b) {
    const bool known = compareAs<CuttingPlaneSnapshot>(a, b) ||
                       compareAs<FrankWolfeSnapshot>(a, b) || compareAs<LinearSvmSnapshot>(a, b) ||
                       compareAs<KernelSnapshot>(a, b) || compareAs<MklPathSnapshot>(a, b) ||
                       compareAs<StructuredSnapshot>(a, b) || compareAs<SparseSnapshot>(a, b) ||
                       compareAs<MapSnapshot>(a, b);
    QVERIFY2(known, ("a snapshot type the test does not know: " + a.solver).c_str());
}

// A window holding `family`'s view at 900 × 600, drawing snapshots of a run of `solver`
// with its records up to them.
class ViewHost {
  public:
    ViewHost(const std::string& family, const Solver& solver) : solver_(solver) {
        window_.resize(900, 600);
        for (const auto& [name, view] : widgets::createFamilyViews(&window_))
            if (name == family) view_ = view;
        if (view_) view_->resize(900, 600);
    }
    // The view's picture once it has shown `snapshot` (its pending replots done at once, as
    // their 40 ms timers would); null when it refuses the snapshot.
    QImage draw(const SnapshotPtr& snapshot) {
        if (!view_) return {};
        const std::vector<IterationRecord>& trace = solver_.trace();
        widgets::ViewFrame frame;
        frame.runId = 1;
        frame.snapshot = snapshot;
        const auto shown = std::min(
            trace.size(), static_cast<std::size_t>(std::max(snapshot->record.iteration, 0)));
        frame.records = std::span<const IterationRecord>(trace).first(shown);
        frame.columns = solver_.extraColumns();
        if (!view_->showFrame(frame)) return {};
        view_->show();
        QCoreApplication::processEvents();
        widgets::replotPendingNow(view_);
        return view_->grab().toImage();
    }

  private:
    const Solver& solver_;
    QWidget window_;
    widgets::FamilyView* view_ = nullptr;
};

// Distinct colours of a grab (sampled): a blank view has one or two.
int colourCount(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

// One stepped run per snapshot type (the first demo run whose snapshots are of a type not
// seen before), with its family: the eight types of the seven families.
std::vector<std::pair<const Family*, SteppedRun>> onePerType() {
    std::vector<std::pair<const Family*, SteppedRun>> runs;
    std::vector<std::type_index> seen;
    for (const DemoInfo& demo : demoCatalog()) {
        std::string why;
        for (SteppedRun& run : stepDemo(demo, kSteps, &why)) {
            const Snapshot& last = *run.snapshots.back();
            if (std::find(seen.begin(), seen.end(), std::type_index(typeid(last))) != seen.end())
                continue;
            seen.emplace_back(typeid(last));
            runs.emplace_back(familyOfDemo(demo), std::move(run));
        }
    }
    return runs;
}

// Every snapshot of `run`: encode → decode against the run's base → encode gives the same
// bytes, and the fields equal the original's. With `relative`, each snapshot is encoded
// relative to the one before it and decoded with the one decoded before it. Returns the sum
// of the sizes, plain and zlib-compressed.
std::pair<std::size_t, std::size_t> roundTrips(const SteppedRun& run, bool relative) {
    std::size_t total = 0, compressed = 0;
    SnapshotPtr previous, previousDecoded;
    std::string why;
    for (const SnapshotPtr& snapshot : run.snapshots) {
        const std::optional<std::string> bytes =
            encodeSnapshot(*snapshot, relative ? previous.get() : nullptr);
        if (!bytes) QTest::qFail(run.label.c_str(), __FILE__, __LINE__);
        if (!bytes) return {};
        SnapshotPtr decoded = decodeSnapshot(*bytes, *run.base, previousDecoded.get(), &why);
        if (!decoded) QTest::qFail((run.label + ": " + why).c_str(), __FILE__, __LINE__);
        if (!decoded) return {};
        if (encodeSnapshot(*decoded, relative ? previousDecoded.get() : nullptr) != bytes)
            QTest::qFail((run.label + ": encoded again otherwise").c_str(), __FILE__, __LINE__);
        if (!sameCommonFields(*snapshot, *decoded))
            QTest::qFail((run.label + ": common fields differ").c_str(), __FILE__, __LINE__);
        compareTypeFields(*snapshot, *decoded);
        if (QTest::currentTestFailed()) qWarning() << run.label.c_str();
        total += bytes->size();
        compressed += zlibSize(*bytes);
        previous = snapshot;
        previousDecoded = std::move(decoded);
    }
    return {total, compressed};
}

// Both ways; prints the sizes.
void checkRoundTrips(const SteppedRun& run) {
    const auto [total, compressed] = roundTrips(run, false);
    const auto [relative, relativeCompressed] = roundTrips(run, true);
    const std::size_t n = run.snapshots.size();
    qInfo("%-34s %3zu snapshots, %9zu bytes (%7zu per snapshot), zlib %8zu (%6zu per snapshot)",
          run.label.c_str(), n, total, total / n, compressed, compressed / n);
    if (relative != total)
        qInfo("%-34s relative to the previous: %9zu bytes, zlib %8zu", run.label.c_str(), relative,
              relativeCompressed);
}

}  // namespace

class TestSnapshotCodec : public QObject {
    Q_OBJECT
    using TypedRuns = std::vector<std::pair<const Family*, SteppedRun>>;
    std::optional<TypedRuns> typed_;

    // onePerType(), stepped once for the tests that only read the runs.
    const TypedRuns& typed() {
        if (!typed_) typed_ = onePerType();
        return *typed_;
    }

  private slots:
    void byteStreamRoundTrip() {
        ByteWriter out;
        out.f64(-0.0);
        out.f64(std::numeric_limits<double>::quiet_NaN());
        out.f64(std::numeric_limits<double>::denorm_min());
        out.i64(-5);
        out.string("α, β");
        Eigen::MatrixXd m(2, 3);
        m << 1, 2, 3, 4, 5, 6;
        out.matrix(m);
        // Little endian: the first double's sign bit is the 8th byte's high bit.
        QCOMPARE(static_cast<unsigned char>(out.data()[7]), 0x80u);
        ByteReader in(out.data());
        QVERIFY(sameBits(in.f64(), -0.0));
        QVERIFY(std::isnan(in.f64()));
        QVERIFY(sameBits(in.f64(), std::numeric_limits<double>::denorm_min()));
        QCOMPARE(in.i64(), -5LL);
        QCOMPARE(in.string(), std::string("α, β"));
        QVERIFY(in.matrix() == m);
        QVERIFY(in.ok() && in.atEnd());
        // Packed ints: 1, 2 or 4 bytes each by the largest (4 for a negative one).
        const std::vector<std::pair<std::vector<int>, std::size_t>> packedCases = {
            {{0, 255, 7}, 1}, {{256, 65535, 0}, 2}, {{65536, 1}, 4}, {{-1, 3}, 4}, {{}, 1}};
        for (const auto& [values, width] : packedCases) {
            ByteWriter packed;
            packed.packedInts(values);
            QCOMPARE(packed.data().size(), 9 + width * values.size());
            ByteReader back(packed.data());
            QCOMPARE(back.packedInts(), values);
            QVERIFY(back.ok() && back.atEnd());
            // The same values written wider than needed are refused: one encoding per list,
            // so that decoding and encoding again gives the same bytes (a fuzzing finding).
            if (width == 4) continue;
            std::string wider = packed.data();
            wider[0] = static_cast<char>(width * 2);
            wider.resize(9);
            for (int value : values)
                for (std::size_t b = 0; b < width * 2; ++b)
                    wider += static_cast<char>((static_cast<unsigned>(value) >> (8 * b)) & 0xffu);
            ByteReader wide(wider);
            QVERIFY(wide.packedInts().empty() && !wide.ok());
            QVERIFY2(wide.error().find("holds them") != std::string::npos, wide.error().c_str());
        }
        QCOMPARE(in.f64(), 0.0);
        QCOMPARE(in.error(), std::string("truncated at byte ") + std::to_string(out.data().size()));
    }

    // A count of 2^40 is refused before anything is allocated, by the reader and by the
    // decoder (the solver name's length is the first count after the 6-byte header).
    void hugeCountIsRefused() {
        ByteWriter out;
        out.count(std::size_t{1} << 40);
        out.f64(1.0);
        for (int kind = 0; kind < 4; ++kind) {
            ByteReader in(out.data());
            if (kind == 0) QVERIFY(in.doubles().empty());
            if (kind == 1) QVERIFY(in.string().empty());
            if (kind == 2) QVERIFY(in.vectors().empty());
            if (kind == 3) QCOMPARE(in.matrix().size(), Eigen::Index{0});
            QVERIFY2(in.error().find("a count of 1099511627776 items") == 0, in.error().c_str());
        }
        for (const auto& [family, run] : typed()) {
            std::string bytes = *encodeSnapshot(*run.snapshots.back());
            const std::uint64_t huge = std::uint64_t{1} << 40;
            for (int b = 0; b < 8; ++b)
                bytes[6 + static_cast<std::size_t>(b)] =
                    static_cast<char>((huge >> (8 * b)) & 0xff);
            std::string why;
            QVERIFY(!decodeSnapshot(bytes, *run.base, &why));
            QVERIFY2(why.find("snapshot bytes: a count of 1099511627776 items") == 0, why.c_str());
        }
    }

    void everyDemoRoundTrips_data() {
        QTest::addColumn<QString>("demo");
        for (const DemoInfo& demo : demoCatalog())
            QTest::newRow(demo.name.c_str()) << QString::fromStdString(demo.name);
    }
    void everyDemoRoundTrips() {
        QFETCH(QString, demo);
        const DemoInfo* info = findDemo(demo.toStdString());
        QVERIFY(info);
        const bool toEnd =
            std::find(kRunToEnd.begin(), kRunToEnd.end(), info->name) != kRunToEnd.end();
        std::string why;
        std::vector<SteppedRun> runs = stepDemo(*info, toEnd ? 100000 : kSteps, &why);
        QVERIFY2(!runs.empty(), why.c_str());
        for (const SteppedRun& run : runs)
            checkRoundTrips(run);
    }

    // Every solver of every family (default options, a few steps on the family's first demo
    // problem), the ones no demo runs included.
    void everySolverRoundTrips_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("solver");
        for (const Family* f : families())
            for (const auto& s : f->solvers())
                QTest::newRow((f->name() + "/" + s.name).c_str())
                    << QString::fromStdString(f->name()) << QString::fromStdString(s.name);
    }
    void everySolverRoundTrips() {
        QFETCH(QString, family);
        QFETCH(QString, solver);
        const Family* f = findFamily(family.toStdString());
        std::string why;
        const ProblemPtr problem = makeProblem(f->demos().front().problem, &why);
        QVERIFY2(problem, why.c_str());
        const SteppedRun run = stepRun(f->demos().front().problem + "/" + solver.toStdString(),
                                       *problem, {solver.toStdString(), {}}, kSteps, &why);
        QVERIFY2(run.solver, why.c_str());
        checkRoundTrips(run);
    }

    // One run per snapshot type (so every family): the family's view draws the decoded
    // snapshot to the same pixels as the original.
    void viewsDrawDecodedSnapshotsAlike() {
        const auto& runs = typed();
        QCOMPARE(runs.size(), std::size_t{8});
        for (const auto& [family, run] : runs) {
            const SnapshotPtr original = run.snapshots.back();
            std::string why;
            const SnapshotPtr decoded = decodeSnapshot(*encodeSnapshot(*original), *run.base, &why);
            QVERIFY2(decoded, why.c_str());
            const QImage a = ViewHost(family->name(), *run.solver).draw(original);
            const QImage b = ViewHost(family->name(), *run.solver).draw(decoded);
            QVERIFY2(!a.isNull() && a.size() == b.size(), run.label.c_str());
            QVERIFY2(colourCount(a) > 20, run.label.c_str());
            QVERIFY2(a == b, (run.label + ": the decoded snapshot draws otherwise").c_str());
            qInfo("%s: %dx%d, %d colours, the same pixels", run.label.c_str(), a.width(),
                  a.height(), colourCount(a));
        }
    }

    // Every truncation (every 1/2000 of the bytes past the first 4 KB) and 300 random bit
    // flips of a real snapshot per type: null with a message, or a snapshot that encodes to
    // the damaged bytes and that its family's view draws.
    void damagedBytesAreRefusedOrValid() {
        std::mt19937 random(35);
        for (const auto& [family, run] : typed()) {
            const std::string bytes = *encodeSnapshot(*run.snapshots.back());
            const std::size_t stride = bytes.size() > 4096 ? bytes.size() / 2000 + 1 : 1;
            std::string why;
            for (std::size_t length = 0; length < bytes.size();
                 length += length < 4096 ? 1 : stride) {
                why.clear();
                QVERIFY(
                    !decodeSnapshot(std::string_view(bytes).substr(0, length), *run.base, &why));
                QVERIFY2(why.starts_with("snapshot bytes: "), run.label.c_str());
            }
            int refused = 0, drawn = 0;
            ViewHost host(family->name(), *run.solver);
            for (int flip = 0; flip < 300; ++flip) {
                std::string damaged = bytes;
                const std::size_t bit = random() % (8 * damaged.size());
                damaged[bit / 8] = static_cast<char>(damaged[bit / 8] ^ (1 << (bit % 8)));
                why.clear();
                const SnapshotPtr decoded = decodeSnapshot(damaged, *run.base, &why);
                if (decoded) {
                    QVERIFY(encodeSnapshot(*decoded) == damaged);
                    // The view draws what was accepted (the first 40 of them).
                    if (drawn < 40) QVERIFY(!host.draw(decoded).isNull());
                    ++drawn;
                } else {
                    QVERIFY2(why.starts_with("snapshot bytes: ") && why.size() > 20, why.c_str());
                    ++refused;
                }
            }
            qInfo("%-34s %zu bytes: %d of 300 bit flips refused", run.label.c_str(), bytes.size(),
                  refused);
        }
    }

    // Bytes of another type, another solver, or another codec version are refused by name.
    void otherTypesAndSolversAreRefused() {
        const auto& typed = this->typed();
        QVERIFY(typed.size() >= 2);
        const SteppedRun& kelley = typed[0].second;
        QVERIFY(dynamic_cast<const CuttingPlaneSnapshot*>(kelley.base.get()));
        const std::string bytes = *encodeSnapshot(*kelley.snapshots.back());
        std::string why;
        QVERIFY(!decodeSnapshot(bytes, *typed[1].second.base, &why));
        QVERIFY2(why.find(", not a ") != std::string::npos, why.c_str());
        std::string version = bytes;
        version[4] = 9;
        QVERIFY(!decodeSnapshot(version, *kelley.base, &why));
        QVERIFY2(why.find("snapshot codec version 9") != std::string::npos, why.c_str());
        QVERIFY(!decodeSnapshot("", *kelley.base, &why));
        QCOMPARE(why, std::string("snapshot bytes: truncated at byte 0"));
        // The same type from another solver of the family.
        auto other = std::make_shared<CuttingPlaneSnapshot>();
        other->solver = "another";
        QVERIFY(!decodeSnapshot(*encodeSnapshot(*other), *kelley.base, &why));
        QVERIFY2(why.find("a snapshot of solver 'another'") != std::string::npos, why.c_str());
        // An MKL path snapshot encoded relative to the previous one needs it.
        for (const auto& [family, run] : typed) {
            if (!dynamic_cast<const MklPathSnapshot*>(run.base.get())) continue;
            const std::size_t n = run.snapshots.size();
            QVERIFY(n >= 3);
            const std::string relative =
                *encodeSnapshot(*run.snapshots[n - 1], run.snapshots[n - 2].get());
            QVERIFY(relative.size() < encodeSnapshot(*run.snapshots[n - 1])->size());
            QVERIFY(!decodeSnapshot(relative, *run.base, &why));
            QVERIFY2(why.find("shared with the run's previous snapshot, which has 0") !=
                         std::string::npos,
                     why.c_str());
            QVERIFY(decodeSnapshot(relative, *run.base, run.snapshots[n - 2].get(), &why));
        }
        // A snapshot type no codec knows.
        struct Unknown : Snapshot {};
        QVERIFY(!encodeSnapshot(Unknown()));
    }
};

QTEST_MAIN(TestSnapshotCodec)
#include "test_snapshot_codec.moc"
