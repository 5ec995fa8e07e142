// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a unit test): MAP inference (ALGORITHMS.md §8) on real instances and its
// message-passing throughput.
//
// Part 1, the UAI 2014 MAP instances (../shared/datasets/uai2014-map, or tests/data/map/uai2014
// — the same files; on models with factors of 3+ variables MPLP, diffusion and MPLP tightened,
// with its defaults and with tighten_tolerance 1e-3 and 100 clusters per round, instead of
// TRW-S): for TRW-S and MPLP tightened by cycles with their default options (the
// anytime decoder on, the stall rule), each under the same time limit, the final dual bound U, the
// best labeling's energy E, the gap, the seconds used, the seconds to first reach the reference
// labeling's energy (the competition's .MAP file) and E − E_ref. The peer toulbar2 (Debian package
// toulbar2, exact branch and bound) runs on the same file with the same limit (-timer): its best
// energy, its bound (converted from its integer costs to our scale, ln p), whether it proved
// optimality, and its seconds to the reference energy (from the time its "New solution" lines
// arrive).
//
// Part 2, throughput: TRW-S sweeps per second on a 256 × 256 grid with 16 labels, one thread,
// random unaries, with Potts edges (O(L) messages) and with one general 16 × 16 table shared
// by all edges (O(L²) messages), evaluated every sweep and every 10 (issue 50's targets: 150
// and 30 sweeps/s), with the AVX2 passes beside the portable build in the same run (the ratio),
// in ns per label update beside what the machine's memory speed (a copy measured in the same
// run) allows, and the memory of model and solver; then, on a small grid,
// the seconds Clp's dual simplex needs to solve the same local-polytope LP beside the seconds
// TRW-S needs to reach its optimum, the reason message passing is used.
//
// Part 3, frustrated binary grids (issue 50): generated Ising grids with fields
// (map/generators.h frustratedGrid, UAI 2014 Grids style: by default 80 × 80, seeds 1–5) and
// the shared 40 × 40 Grids_18 and Grids_19: `mplp --set tighten=true` with its defaults
// (balanced block moves) and with balanced_blocks=false (the forest moves before them), and
// toulbar2, each for the same limit (30 s): E at 10 s and at the end, E / E_toulbar2, E over
// the best known energy (the best of all runs and the reference; an optimum where one of our
// bounds meets it) and E − E_ref where a reference is known.
//
// Usage: bench_map [--seconds T] [--dir DIR] [--skip-uai] [--skip-throughput]
//                  [--frustrated ROWS] [--frustrated-seconds T] [--skip-frustrated]
//                  [--early-seconds T] [--best-known-seconds T] [--skip-forest]
//                  [--skip-peer] [--set key=value]...
//   --seconds T   time limit per solver and instance (default 10)
//   --dir DIR     folder of <name>.uai.gz, <name>.uai.MAP, <name>.uai.evid
//   --frustrated ROWS  comma-separated rows of part 3 (default 80x80:1,…,80x80:5,Grids_18,
//                 Grids_19): a UAI name, or a generated grid WxH[:torus][:J=C][:rows]:SEED —
//                 couplings uniform in [−C, C] (default 2), fields in [−1, 1]; torus: the rows
//                 and columns wrap around; rows: the competition files' edge order. The
//                 competition's held-back 40 × 40 kind is 40x40:torus:J=10:rows:SEED (and J=15).
//   --frustrated-seconds T  the limit of part 3 (default 30)
//   --early-seconds T  part 3 also reports each run's E at T seconds (default 10)
//   --best-known-seconds T  part 3 also runs mplp + tighten for T seconds, for the best known
//                 energy (its bound often certifies it); default 0: not run
//   --skip-forest part 3 without the balanced_blocks=false runs
//   --skip-peer   part 3 without toulbar2 (for tuning our options: E / tb2 is then empty)
//   --set key=value  an option of our mplp + tighten runs of part 3 and of part 1's pairwise
//                 instances (repeatable; as cplab-cli's --set on mplp_cycles, e.g.
//                 sweeps_per_step=3): to tune defaults on seeds that are not judged, and for
//                 before/after rows of a changed default
// The exit code is 0 unless the benchmark cannot run: it is a report.
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"
#include "data/text_io.h"
#include "data/uai_format.h"
#include "map/cycle_mplp.h"
#include "map/diffusion.h"
#include "map/generators.h"
#include "map/mplp.h"
#include "map/pairwise_model.h"
#include "map/trws.h"

namespace {

namespace fs = std::filesystem;
using bench::fmt;
using cplab::PairwiseModel;

struct Settings {
    double seconds = 10.0;
    std::string dir;
    bool uai = true;
    bool throughput = true;
    std::string only;  // one instance, or all
    bool frustrated = true;
    std::string frustratedRows = "80x80:1,80x80:2,80x80:3,80x80:4,80x80:5,Grids_18,Grids_19";
    double frustratedSeconds = 30.0;
    double early = 10.0;            // part 3 also reports E at this many seconds
    double bestKnownSeconds = 0.0;  // part 3: ours again for this long (0: not run)
    bool forest = true;             // part 3: also the forest moves (balanced_blocks=false)
    bool peer = true;               // part 3: toulbar2 too
    cplab::OptionValues ours;       // parts 1 and 3: --set, options of our mplp + tighten runs
};

// Records --set key=value into s->ours once the options it makes are valid.
bool parseOurOption(const std::string& kv, Settings* s) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
        std::cerr << "bench_map: --set wants key=value, got '" << kv << "'\n";
        return false;
    }
    s->ours[kv.substr(0, eq)] = kv.substr(eq + 1);
    cplab::CycleMplpOptions probe;
    std::string why;
    if (!cplab::assignOptions(probe, s->ours, &why) || !probe.isValid(&why)) {
        std::cerr << "bench_map: --set " << kv << ": " << why << "\n";
        return false;
    }
    return true;
}

bool parseArguments(int argc, char** argv, Settings* s) {
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--seconds" && k + 1 < argc) {
            s->seconds = std::atof(argv[++k]);
            if (!(s->seconds > 0)) return false;
        } else if (a == "--dir" && k + 1 < argc) {
            s->dir = argv[++k];
        } else if (a == "--skip-uai") {
            s->uai = false;
        } else if (a == "--skip-throughput") {
            s->throughput = false;
        } else if (a == "--only" && k + 1 < argc) {
            s->only = argv[++k];
        } else if (a == "--frustrated" && k + 1 < argc) {
            s->frustratedRows = argv[++k];
        } else if (a == "--frustrated-seconds" && k + 1 < argc) {
            s->frustratedSeconds = std::atof(argv[++k]);
            if (!(s->frustratedSeconds > 0)) return false;
        } else if (a == "--skip-frustrated") {
            s->frustrated = false;
        } else if (a == "--early-seconds" && k + 1 < argc) {
            s->early = std::atof(argv[++k]);
        } else if (a == "--best-known-seconds" && k + 1 < argc) {
            s->bestKnownSeconds = std::atof(argv[++k]);
        } else if (a == "--skip-forest") {
            s->forest = false;
        } else if (a == "--skip-peer") {
            s->peer = false;
        } else if (a == "--set" && k + 1 < argc) {
            if (!parseOurOption(argv[++k], s)) return false;
        } else {
            std::cerr << "usage: " << argv[0]
                      << " [--seconds T] [--dir DIR] [--skip-uai] [--skip-throughput] "
                         "[--only INSTANCE] [--frustrated ROWS] [--frustrated-seconds T] "
                         "[--skip-frustrated] [--early-seconds T] [--best-known-seconds T] "
                         "[--skip-forest] [--skip-peer] [--set key=value]...\n";
            return false;
        }
    }
    return true;
}

// --- part 1: UAI instances ------------------------------------------------------------------

struct OurRun {
    double upper = NAN, energy = NAN, seconds = 0.0, toReference = NAN;
    int clusters = 0;
};

bool reaches(double energy, double reference) {
    return energy >= reference - 1e-6 * std::max(1.0, std::abs(reference));
}

OurRun runOurs(cplab::MessagePassingSolver& solver, double reference) {
    OurRun r;
    for (bool more = true; more;) {
        more = !solver.step().finished();
        const auto& rec = solver.lastRecord();
        if (std::isnan(r.toReference) && reaches(rec.lower, reference)) r.toReference = rec.seconds;
        r.upper = rec.upper;
        r.energy = rec.lower;
        r.seconds = rec.seconds;
    }
    return r;
}

struct PeerRun {
    bool ran = false, proved = false;
    double energy = NAN, bound = NAN, seconds = 0.0, toReference = NAN;
    std::string note;
};

// toulbar2 on the plain UAI text at `path` for `limit` seconds. Its costs are integers
// c = 10^7·(−ln p) + offset; a "New solution: c energy: e" line gives the offset, with which
// a cost lower bound becomes an upper bound on ln p.
PeerRun runToulbar2(const std::string& path, double limit, double reference) {
    PeerRun r;
    const std::string command = "toulbar2 '" + path +
                                "' -timer=" + std::to_string(static_cast<int>(std::ceil(limit))) +
                                " 2>&1";
    const auto start = bench::Clock::now();
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        r.note = "could not start toulbar2";
        return r;
    }
    // "New solution: <cost> energy: <e>", "Optimum: <cost> energy: <e>", "Optimality gap:
    // [<lower>, <upper>]", "Initial lower and upper bounds: [<lower>, <upper>]".
    const auto costAndEnergy = [](const std::string& text) {
        std::vector<double> v = bench::numbersAfter(text, "New solution:", 2);
        return v.empty() ? bench::numbersAfter(text, "Optimum:", 2) : v;
    };
    const auto lowerAndUpper = [](const std::string& text) {
        std::vector<double> v = bench::numbersAfter(text, "Optimality gap: [", 2);
        return v.empty() ? bench::numbersAfter(text, "Initial lower and upper bounds: [", 2) : v;
    };
    std::optional<double> offset;  // energy − 1e-7·cost
    double lowerCost = NAN;
    char buffer[4096];
    std::string line;
    while (fgets(buffer, sizeof buffer, pipe)) {
        line += buffer;
        if (line.empty() || line.back() != '\n') continue;
        const double now = bench::secondsSince(start);
        if (const std::vector<double> ce = costAndEnergy(line); !ce.empty()) {
            const double cost = ce[0];
            const double energy = -ce[1];
            offset = -energy - 1e-7 * cost;
            if (std::isnan(r.energy) || energy > r.energy) r.energy = energy;
            if (std::isnan(r.toReference) &&
                energy >= reference - 1e-3 - 1e-6 * std::abs(reference))
                r.toReference = now;
            if (line.find("Optimum:") != std::string::npos) {
                r.proved = true;
                r.bound = r.energy;
            }
        } else if (const std::vector<double> lu = lowerAndUpper(line); !lu.empty()) {
            lowerCost = lu[0];
        } else if (line.find("rror") != std::string::npos && r.note.empty()) {
            r.note = line.substr(0, line.size() - 1);
        }
        line.clear();
    }
    const int status = pclose(pipe);
    r.seconds = bench::secondsSince(start);
    r.ran = status != -1 && (!std::isnan(r.energy) || !r.note.empty());
    if (!r.proved && offset && !std::isnan(lowerCost)) r.bound = -(1e-7 * lowerCost + *offset);
    return r;
}

std::string num(double v, const char* format = "%.3f") {
    return std::isnan(v) ? std::string("–") : fmt(format, v);
}

// The instances of part 1: the names of s.dir's <name>.uai.gz, sorted.
std::vector<std::string> uaiNames(const Settings& s) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(s.dir)) {
        const std::string file = entry.path().filename().string();
        if (file.size() > 7 && file.ends_with(".uai.gz"))
            names.push_back(file.substr(0, file.size() - 7));
    }
    std::sort(names.begin(), names.end());
    return names;
}

// Part 1's heading, its legend and the head of its table.
void uaiHeading(const Settings& s) {
    std::cout << "## UAI 2014 MAP instances, " << fmt("%g", s.seconds)
              << " s per solver and instance (" << s.dir << ")\n\n"
              << "E = ln of the unnormalised probability of the best labeling (higher is better), "
                 "U = the dual bound (U >= max E), ref = the competition's .MAP labeling; "
                 "'to ref' = seconds until a labeling with E >= E_ref was found.\n\n";
    for (const auto& [key, value] : s.ours)
        std::cout << "mplp + cycles with --set " << key << "=" << value << ".\n\n";
    std::cout << "| instance | vars | labels | E_ref | solver | U | E | U − E | E − E_ref | s | "
                 "to ref |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
}

// The instance at `base` (<name>.uai, read from .gz, with its .evid), and the energy of its
// .MAP labeling; or why our reader refuses it.
void loadInstance(const std::string& base, std::shared_ptr<PairwiseModel>* model,
                  std::string* refused, double* reference) {
    try {
        cplab::UaiTables tables = cplab::loadUai(base + ".gz");
        if (fs::exists(base + ".evid"))
            cplab::applyEvidence(tables,
                                 cplab::loadUaiEvidence(base + ".evid", tables.cardinalities));
        *model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(std::move(tables)));
        if (fs::exists(base + ".MAP"))
            *reference =
                (*model)->energy(cplab::loadUaiResult(base + ".MAP", (*model)->labelCounts()));
    } catch (const std::exception& e) {
        *refused = e.what();
    }
}

void uaiTable(const Settings& s) {
    const std::vector<std::string> names = uaiNames(s);
    uaiHeading(s);
    const fs::path tmp = fs::temp_directory_path() / "cplab_bench_map";
    fs::create_directories(tmp);
    for (const std::string& name : names) {
        if (!s.only.empty() && name != s.only) continue;
        const std::string base = (fs::path(s.dir) / name).string() + ".uai";
        // toulbar2 reads plain text; every instance goes to it, even one our reader refuses.
        const std::string plain = (tmp / (name + ".uai")).string();
        std::ofstream(plain, std::ios::binary) << cplab::readInputFile(base + ".gz");
        std::shared_ptr<PairwiseModel> model;
        std::string refused;
        double reference = NAN;
        loadInstance(base, &model, &refused, &reference);
        const std::string head =
            "| " + name + " | " +
            (model ? std::to_string(model->variables()) + " | " + std::to_string(model->maxLabels())
                   : std::string("– | –")) +
            " | " + num(reference) + " | ";
        auto report = [&](const std::string& label, const OurRun& a) {
            std::cout << head << label << " | " << num(a.upper) << " | " << num(a.energy) << " | "
                      << num(a.upper - a.energy) << " | " << num(a.energy - reference) << " | "
                      << num(a.seconds, "%.2f") << " | " << num(a.toReference, "%.2f") << " |\n";
        };
        if (model && model->factorCount() > 0) {
            // TRW-S stays pairwise: MPLP and diffusion over the factors instead, and MPLP
            // tightened (pair separators of the factors, cycles of the edges) with its defaults
            // and with tightening every time the bound falls by less than 1e-3·|U| in 5 sweeps,
            // 100 clusters per round.
            cplab::MessagePassingOptions o;
            o.stop.max_seconds = s.seconds;
            cplab::MplpSolver mplp(model, o);
            report("mplp", runOurs(mplp, reference));
            cplab::DiffusionSolver diffusion(model, o);
            report("diffusion", runOurs(diffusion, reference));
            for (const bool tuned : {false, true}) {
                cplab::CycleMplpOptions c;
                c.base.stop.max_seconds = s.seconds;
                if (tuned) c.tighten_tolerance = 1e-3, c.clusters_per_round = 100;
                cplab::CycleMplpSolver cycles(model, c);
                const OurRun b = runOurs(cycles, reference);
                report(std::string("mplp + tighten") + (tuned ? " 1e-3/100" : "") + " (" +
                           std::to_string(cycles.clusters()) + " cycles, " +
                           std::to_string(cycles.activeSeparators()) + " separators)",
                       b);
            }
        } else if (model) {
            cplab::TrwsOptions t;  // the defaults, with the time limit of the table
            t.stop.max_seconds = s.seconds;
            cplab::TrwsSolver trws(model, t);
            report("trws", runOurs(trws, reference));
            cplab::CycleMplpOptions c;
            std::string why;
            cplab::assignOptions(c, s.ours, &why);  // --set, checked by parseOurOption
            c.base.stop.max_seconds = s.seconds;
            cplab::CycleMplpSolver cycles(model, c);
            const OurRun b = runOurs(cycles, reference);
            report("mplp + cycles (" + std::to_string(cycles.clusters()) + ")", b);
        } else {
            std::cout << head << "refused: " << refused << " | | | | | | |\n";
        }
        const PeerRun p = runToulbar2(plain, s.seconds, reference);
        if (!p.ran) {
            std::cout << head << "toulbar2: " << (p.note.empty() ? "did not run" : p.note)
                      << " | | | | | | |\n";
        } else {
            std::cout << head << "toulbar2" << (p.proved ? " (optimum)" : "") << " | "
                      << num(p.bound) << " | " << num(p.energy) << " | " << num(p.bound - p.energy)
                      << " | " << num(p.energy - reference) << " | " << num(p.seconds, "%.2f")
                      << " | " << num(p.toReference, "%.2f") << " |\n";
        }
        std::cout.flush();
        fs::remove(plain);
    }
    std::cout << '\n';
}

// --- part 3: frustrated binary grids -----------------------------------------------------------

// One row of part 3: a generated grid "WxH[:torus][:J=C][:rows]:SEED" (frustratedGrid, field
// 1, coupling C, default 2; rows: the competition files' edge order) or a UAI instance of
// s.dir with its reference labeling's energy.
struct FrustratedRow {
    std::string name;
    std::shared_ptr<PairwiseModel> model;
    double reference = NAN;
};

// The generated grid a row names, or nullopt when the row is not one ("Grids_18").
std::optional<cplab::FrustratedGridOptions> generatedGrid(const std::string& row) {
    cplab::FrustratedGridOptions o;
    int width = 0, height = 0;
    char by = 0;
    if (std::sscanf(row.c_str(), "%dx%d", &width, &height) != 2 || row.find(':') == row.npos ||
        std::sscanf(row.c_str(), "%d%c", &width, &by) != 2 || by != 'x')
        return std::nullopt;
    o.width = width;
    o.height = height;
    std::string rest = row.substr(row.find(':') + 1);
    for (std::size_t colon; (colon = rest.find(':')) != rest.npos; rest.erase(0, colon + 1)) {
        const std::string token = rest.substr(0, colon);
        if (token == "torus")
            o.torus = true;
        else if (token == "rows")
            o.competition_order = true;
        else if (token.rfind("J=", 0) == 0)
            o.coupling = std::atof(token.c_str() + 2);
        else
            throw std::invalid_argument("unknown part '" + token + "' of row " + row);
    }
    o.seed = std::atoll(rest.c_str());
    return o;
}

FrustratedRow frustratedRow(const Settings& s, const std::string& row) {
    FrustratedRow r{row, nullptr, NAN};
    if (const auto grid = generatedGrid(row)) {
        std::string why;
        if (!grid->isValid(&why)) throw std::invalid_argument(why);
        r.model = cplab::frustratedGrid(*grid).model;
        return r;
    }
    const std::string base = (fs::path(s.dir) / row).string() + ".uai";
    cplab::UaiTables tables = cplab::loadUai(base + ".gz");
    if (fs::exists(base + ".evid"))
        cplab::applyEvidence(tables, cplab::loadUaiEvidence(base + ".evid", tables.cardinalities));
    r.model = std::make_shared<PairwiseModel>(PairwiseModel::fromTables(std::move(tables)));
    if (fs::exists(base + ".MAP"))
        r.reference = r.model->energy(cplab::loadUaiResult(base + ".MAP", r.model->labelCounts()));
    return r;
}

// Our run of part 3: U and E at its end and E at `early` seconds (the same run's record then:
// a run's moves are seeded by its step number, so a shorter limit gives that prefix).
struct FrustratedRun {
    std::string label;
    double upper = NAN, energy = NAN, earlyEnergy = NAN, seconds = 0.0;
};

FrustratedRun runFrustrated(const std::shared_ptr<PairwiseModel>& model, bool balanced,
                            double seconds, double early, const cplab::OptionValues& options) {
    cplab::CycleMplpOptions c;
    std::string why;
    cplab::assignOptions(c, options, &why);  // checked by parseOurOption
    c.base.stop.max_seconds = seconds;
    c.base.balanced_blocks = balanced;
    cplab::CycleMplpSolver solver(model, c);
    FrustratedRun r{balanced ? "mplp + tighten" : "mplp + tighten, forest"};
    for (bool more = true; more;) {
        more = !solver.step().finished();
        const auto& rec = solver.lastRecord();
        if (rec.seconds <= early) r.earlyEnergy = rec.lower;
        r.upper = rec.upper;
        r.energy = rec.lower;
        r.seconds = rec.seconds;
    }
    if (r.seconds <= early) r.earlyEnergy = r.energy;  // ended (certified) before `early`
    return r;
}

// The worst ratios of part 3 over the rows, for the closing line.
struct FrustratedWorst {
    double earlyToPeer = INFINITY, toPeer = INFINITY, earlyToBest = INFINITY, toBest = INFINITY;
    int rows = 0;
};

void frustratedInstance(const Settings& s, const std::string& row, FrustratedWorst& worst) {
    FrustratedRow r;
    try {
        r = frustratedRow(s, row);
    } catch (const std::exception& e) {
        std::cout << "| " << row << " | refused: " << e.what() << " | | | | | | | |\n";
        return;
    }
    const fs::path tmp = fs::temp_directory_path() / "cplab_bench_map";
    fs::create_directories(tmp);
    const std::string plain = (tmp / "frustrated.uai").string();
    cplab::writeUai(plain, r.model->toTables());
    PeerRun peer;
    if (s.peer) peer = runToulbar2(plain, s.frustratedSeconds, r.reference);
    fs::remove(plain);
    std::vector<FrustratedRun> ours;
    for (const bool balanced : {true, false})
        if (balanced || s.forest)
            ours.push_back(runFrustrated(r.model, balanced, s.frustratedSeconds, s.early, s.ours));
    if (s.bestKnownSeconds > 0) {  // the same, longer: its bound may certify the best known
        ours.push_back(runFrustrated(r.model, true, s.bestKnownSeconds, s.early, s.ours));
        ours.back().label += fmt(", %g s", s.bestKnownSeconds);
    }
    // The best known energy: the best of every run and the reference; an optimum when one of
    // our bounds meets it (U = E) or toulbar2 proved it.
    double best = std::isnan(r.reference) ? -INFINITY : r.reference;
    double lowestBound = INFINITY;
    for (const FrustratedRun& a : ours) {
        best = std::max(best, a.energy);
        lowestBound = std::min(lowestBound, a.upper);
    }
    if (peer.ran && !std::isnan(peer.energy)) {
        best = std::max(best, peer.energy);
        if (peer.proved) lowestBound = std::min(lowestBound, peer.energy);
    }
    const bool optimum = lowestBound <= best + 1e-6 * std::max(1.0, std::abs(best));
    const auto report = [&](const std::string& label, double upper, double early, double energy,
                            double seconds) {
        std::cout << "| " << row << " | " << label << " | " << num(upper) << " | " << num(early)
                  << " | " << num(energy) << " | " << num(energy / peer.energy, "%.4f") << " | "
                  << num(early / best, "%.4f") << " | " << num(energy / best, "%.4f") << " | "
                  << num(energy - r.reference) << " | " << num(seconds, "%.2f") << " |\n";
        std::cout.flush();
    };
    for (const FrustratedRun& a : ours) {
        report(a.label, a.upper, a.earlyEnergy, a.energy, a.seconds);
        if (a.label != "mplp + tighten") continue;
        ++worst.rows;
        worst.earlyToPeer = std::min(worst.earlyToPeer, a.earlyEnergy / peer.energy);
        worst.toPeer = std::min(worst.toPeer, a.energy / peer.energy);
        worst.earlyToBest = std::min(worst.earlyToBest, a.earlyEnergy / best);
        worst.toBest = std::min(worst.toBest, a.energy / best);
    }
    if (peer.ran)
        report(std::string("toulbar2") + (peer.proved ? " (optimum)" : ""), peer.bound, NAN,
               peer.energy, peer.seconds);
    else
        std::cout << "| " << row
                  << " | toulbar2: " << (peer.note.empty() ? "did not run" : peer.note)
                  << " | | | | | | | | |\n";
    std::cout << "| " << row << " | best known" << (optimum ? " (optimum: U = E)" : "") << " | "
              << num(lowestBound) << " | | " << num(best) << " | | | | | |\n";
}

void frustratedTable(const Settings& s) {
    std::cout << "## Frustrated binary grids, " << fmt("%g", s.frustratedSeconds)
              << " s per solver and instance\n\n"
              << "mplp + tighten = `mplp --set tighten=true` with its defaults (balanced block "
                 "moves); forest = the same with balanced_blocks=false; E at "
              << fmt("%g", s.early)
              << " s = the same run's best energy then; E / tb2 = E over toulbar2's E in the "
                 "same "
              << fmt("%g", s.frustratedSeconds)
              << " s (>= 1: at least as good); best known = the best E of all runs (and the "
                 "reference), an optimum when a bound meets it; E / best >= 0.995: within "
                 "0.5 %.\n\n";
    if (!s.ours.empty()) {
        std::cout << "Our runs with";
        for (const auto& [key, value] : s.ours)
            std::cout << " --set " << key << "=" << value;
        std::cout << (s.peer ? "" : "; toulbar2 not run") << ".\n\n";
    }
    std::cout << "| instance | solver | U | E at " << fmt("%g", s.early)
              << " s | E | E / tb2 | E at " << fmt("%g", s.early)
              << " s / best | E / best | E − E_ref | s |\n"
                 "|---|---|---|---|---|---|---|---|---|---|\n";
    FrustratedWorst worst;
    std::string rows = s.frustratedRows + ",";
    for (std::size_t at = 0, comma; (comma = rows.find(',', at)) != std::string::npos;
         at = comma + 1)
        if (comma > at) frustratedInstance(s, rows.substr(at, comma - at), worst);
    std::cout << "\nWorst of mplp + tighten over " << worst.rows << " rows: E / tb2 "
              << num(worst.toPeer, "%.4f") << " (at " << fmt("%g", s.early) << " s "
              << num(worst.earlyToPeer, "%.4f") << "), E / best " << num(worst.toBest, "%.4f")
              << " (at " << fmt("%g", s.early) << " s " << num(worst.earlyToBest, "%.4f")
              << ").\n\n";
}

// --- part 2: throughput ---------------------------------------------------------------------

// A w × h grid with L labels, random unaries in [0, 1), 4-neighbour edges: Potts with weight
// 0.5, or one shared random L × L table in [0, 1).
std::shared_ptr<PairwiseModel> grid(int w, int h, int labels, bool potts, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    auto m =
        std::make_shared<PairwiseModel>(std::vector<int>(static_cast<std::size_t>(w * h), labels));
    for (int v = 0; v < w * h; ++v)
        for (double& t : m->unary(v))
            t = u(rng);
    std::vector<double> table(static_cast<std::size_t>(labels * labels));
    for (double& t : table)
        t = u(rng);
    int first = -1;
    auto edge = [&](int a, int b) {
        if (potts) {
            m->addPottsEdge(a, b, 0.5);
        } else if (first < 0) {
            first = m->addEdge(a, b, table);
        } else {
            m->addEdgeSharing(a, b, first);
        }
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (x + 1 < w) edge(y * w + x, y * w + x + 1);
            if (y + 1 < h) edge(y * w + x, (y + 1) * w + x);
        }
    return m;
}

// The machine's memory speed, as a TRW-S sweep uses it: a copy of 128 MB into another 128 MB
// (read, write), the best of three, in bytes per second counted once each way.
double copyBandwidth() {
    const std::size_t n = std::size_t(16) << 20;
    std::vector<double> a(n, 1.0), b(n, 0.0);
    double best = 0.0;
    for (int run = 0; run < 3; ++run) {
        const auto start = bench::Clock::now();
        for (std::size_t i = 0; i < n; ++i)
            b[i] = a[i] + 1.0;
        best = std::max(best, 2.0 * 8.0 * static_cast<double>(n) / bench::secondsSince(start));
        a.swap(b);
    }
    return best + 0.0 * a[n / 2];
}

// Sweeps per second of TRW-S on `model` evaluated every `every` sweeps: the median (and best)
// of five windows of one second of wall time, and the median per CPU second.
struct Rate {
    double median = 0.0, best = 0.0, perCpu = 0.0;
};

Rate sweepRate(const std::shared_ptr<PairwiseModel>& model, int every, bool vector) {
    cplab::TrwsSolver::allowVectorKernels(vector);
    cplab::TrwsOptions o;
    o.stop.max_iterations = 1000000;
    o.stop.max_seconds = 0.0;
    o.stall_sweeps = 0;
    o.sweeps_per_step = every;
    o.icm_passes = 0;  // message passing alone: the decoder is measured in part 1
    o.forest_moves = 0;
    cplab::TrwsSolver solver(model, o);
    cplab::TrwsSolver::allowVectorKernels(true);
    solver.step();  // the first step touches all memory
    std::vector<double> rates, cpuRates;
    for (int window = 0; window < 5; ++window) {
        const auto start = bench::Clock::now();
        const double cpu = bench::cpuSeconds();
        int sweeps = 0;
        while (bench::secondsSince(start) < 1.0) {
            solver.step();
            sweeps += every;
        }
        rates.push_back(sweeps / bench::secondsSince(start));
        cpuRates.push_back(sweeps / std::max(bench::cpuSeconds() - cpu, 1e-9));
    }
    return {bench::median(rates), *std::max_element(rates.begin(), rates.end()),
            bench::median(cpuRates)};
}

void throughput() {
    const auto pottsGrid = grid(256, 256, 16, true, 7);
    const auto generalGrid = grid(256, 256, 16, false, 7);
    // A sweep updates every message once (2 per edge, 16 labels each): "ns per label update"
    // is a sweep's time over that. The memory a sweep moves at least: per pass, every message
    // read (the node's incoming ones), half of them written back, every unary read.
    const double updates = 2.0 * pottsGrid->edgeCount() * 16;
    const double bytes = 2.0 * 8.0 * 16 * (3.0 * pottsGrid->edgeCount() + pottsGrid->variables());
    const double bandwidth = copyBandwidth();
    std::cout << "## TRW-S throughput: 256 x 256 grid, 16 labels, one thread\n\n"
              << "A sweep is a forward and a backward pass over the nodes. 'evaluated every k' "
                 "makes one step of k sweeps, then the chain bound, the decoding and its energy "
                 "(reference TRW-S code computes its bound every few iterations too). 'vector' "
                 "is the AVX2 build of the passes (chosen at run time where the CPU has it), "
                 "'portable' the baseline x86-64 build, measured in this run. The memory bound: "
                 "a sweep moves at least "
              << fmt("%.0f", bytes / 1e6) << " MB (messages read, half written, unaries), at "
              << fmt("%.1f", bandwidth / 1e9) << " GB/s (a 128 MB copy here, now) that is "
              << fmt("%.0f", bandwidth / bytes) << " sweeps/s, "
              << fmt("%.2f", 1e9 * bytes / bandwidth / updates) << " ns per label update.\n\n"
              << "| pairwise terms | evaluated every | kernels | sweeps/s, median of 5 windows of "
                 "1 s (best) | per CPU second | ns per label update | vector / portable | "
                 "target |\n|---|---|---|---|---|---|---|---|\n";
    for (const bool isPotts : {true, false}) {
        for (const int every : {1, 10}) {
            const auto& model = isPotts ? pottsGrid : generalGrid;
            const Rate portable = sweepRate(model, every, false);
            const Rate vector = sweepRate(model, every, true);
            const double target = every == 10 ? (isPotts ? 150.0 : 30.0) : 0.0;
            const std::string name = isPotts ? "Potts" : "general 16 x 16 (shared table)";
            for (const bool v : {true, false}) {
                const Rate& r = v ? vector : portable;
                std::cout << "| " << name << " | " << every << " | " << (v ? "vector" : "portable")
                          << " | " << fmt("%.1f", r.median) << " (" << fmt("%.1f", r.best) << ") | "
                          << fmt("%.1f", r.perCpu) << " | "
                          << fmt("%.2f", 1e9 / (r.median * updates)) << " | "
                          << (v ? fmt("%.2f", vector.median / portable.median) : "") << " | "
                          << (v && target > 0 ? fmt(">= %.0f: ", target) +
                                                    (r.median >= target ? "PASS" : "FAIL")
                                              : "")
                          << " |\n";
            }
        }
    }
    std::cout << "\nModel " << fmt("%.1f", static_cast<double>(pottsGrid->bytes()) / 1e6)
              << " MB; messages and beliefs "
              << fmt("%.1f", (2.0 * pottsGrid->edgeCount() + pottsGrid->variables()) * 16 * 8 / 1e6)
              << " MB.\n";
}

// The local-polytope LP of `model` (every node with `labels` labels) by Clp's dual simplex:
// variables μ_v(a), μ_e(a, b) ≥ 0; Σ_a μ_v(a) = 1; Σ_b μ_e(a, b) = μ_u(a), Σ_a μ_e(a, b) = μ_v(b).
struct LpSolve {
    int columns = 0, rows = 0;
    double seconds = 0.0, optimum = 0.0;
};
LpSolve localPolytopeLp(const std::shared_ptr<const cplab::PairwiseModel>& model, int labels) {
    const int n = model->variables();
    std::vector<double> objective;
    std::vector<int> rowIndex, colStart{0};
    std::vector<double> values;
    std::vector<double> rowLower, rowUpper;
    for (int v = 0; v < n; ++v) {
        rowLower.push_back(1.0);
        rowUpper.push_back(1.0);
    }
    // Node columns: in their normalisation row and in each incident edge's row.
    std::vector<std::vector<std::pair<int, double>>> nodeColumn(
        static_cast<std::size_t>(n * labels));
    for (int v = 0; v < n; ++v)
        for (int a = 0; a < labels; ++a)
            nodeColumn[static_cast<std::size_t>(v * labels + a)].push_back({v, 1.0});
    std::vector<std::vector<std::pair<int, double>>> edgeColumns;
    std::vector<double> edgeObjective;
    for (int e = 0; e < model->edgeCount(); ++e) {
        const int u = model->edge(e).u, v = model->edge(e).v;
        const int rowU = static_cast<int>(rowLower.size());
        for (int k = 0; k < 2 * labels; ++k) {
            rowLower.push_back(0.0);
            rowUpper.push_back(0.0);
        }
        for (int a = 0; a < labels; ++a) {
            nodeColumn[static_cast<std::size_t>(u * labels + a)].push_back({rowU + a, -1.0});
            nodeColumn[static_cast<std::size_t>(v * labels + a)].push_back(
                {rowU + labels + a, -1.0});
        }
        for (int a = 0; a < labels; ++a)
            for (int b = 0; b < labels; ++b) {
                edgeColumns.push_back({{rowU + a, 1.0}, {rowU + labels + b, 1.0}});
                edgeObjective.push_back(model->pairwise(e, a, b));
            }
    }
    for (int v = 0; v < n; ++v)
        for (int a = 0; a < labels; ++a)
            objective.push_back(model->unary(v)[static_cast<std::size_t>(a)]);
    objective.insert(objective.end(), edgeObjective.begin(), edgeObjective.end());
    auto append = [&](const std::vector<std::pair<int, double>>& column) {
        for (const auto& [row, value] : column) {
            rowIndex.push_back(row);
            values.push_back(value);
        }
        colStart.push_back(static_cast<int>(rowIndex.size()));
    };
    for (const auto& c : nodeColumn)
        append(c);
    for (const auto& c : edgeColumns)
        append(c);
    const int columns = static_cast<int>(objective.size());
    const int rows = static_cast<int>(rowLower.size());
    std::vector<int> lengths(static_cast<std::size_t>(columns));
    for (int j = 0; j < columns; ++j)
        lengths[static_cast<std::size_t>(j)] =
            colStart[static_cast<std::size_t>(j) + 1] - colStart[static_cast<std::size_t>(j)];
    const CoinPackedMatrix matrix(true, rows, columns, static_cast<int>(values.size()),
                                  values.data(), rowIndex.data(), colStart.data(), lengths.data());
    std::vector<double> colLower(static_cast<std::size_t>(columns), 0.0),
        colUpper(static_cast<std::size_t>(columns), 1.0);
    ClpSimplex clp;
    clp.setLogLevel(0);
    clp.loadProblem(matrix, colLower.data(), colUpper.data(), objective.data(), rowLower.data(),
                    rowUpper.data());
    clp.setOptimizationDirection(-1.0);  // maximise
    const auto start = bench::Clock::now();
    clp.dual();
    const double clpSeconds = bench::secondsSince(start);
    return {columns, rows, clpSeconds, clp.objectiveValue() + model->constant()};
}

// The local-polytope LP of small grids by Clp against TRW-S's time to the same bound.
void lpAgainstTrws() {
    std::cout
        << "\n## The local-polytope LP by Clp against TRW-S (one thread)\n\n"
        << "| grid | labels | pairwise | LP columns | LP rows | Clp s | LP optimum | TRW-S "
           "s to it (1e-4 relative) | Clp s / TRW-S s |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const int side : {8, 16}) {
        for (const bool potts : {true, false}) {
            const int labels = 16;
            const auto model = grid(side, side, labels, potts, 11);
            const auto [columns, rows, clpSeconds, lp] = localPolytopeLp(model, labels);

            cplab::TrwsOptions o;
            o.stop.max_iterations = 1000000;
            o.stop.max_seconds = 20.0;
            o.stall_sweeps = 0;
            o.icm_passes = 0;
            o.forest_moves = 0;
            cplab::TrwsSolver trws(model, o);
            double reached = NAN;
            for (bool more = true; more && std::isnan(reached);) {
                more = !trws.step().finished();
                const auto& r = trws.lastRecord();
                if (r.upper <= lp + 1e-4 * std::max(1.0, std::abs(lp))) reached = r.seconds;
            }
            const double excess = (trws.lastRecord().upper - lp) / std::max(1.0, std::abs(lp));
            std::cout << "| " << side << " x " << side << " | " << labels << " | "
                      << (potts ? "Potts" : "general") << " | " << columns << " | " << rows << " | "
                      << fmt("%.2f", clpSeconds) << " | " << fmt("%.4f", lp) << " | "
                      << (std::isnan(reached)
                              ? "not in 20 s: stuck " + fmt("%.1e", excess) +
                                    " above (a fixed point of TRW-S that is not LP-optimal)"
                              : fmt("%.4f", reached))
                      << " | "
                      << (std::isnan(reached) ? std::string("–")
                                              : fmt("%.0f", clpSeconds / std::max(reached, 1e-6)))
                      << " |\n";
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    if (!parseArguments(argc, argv, &settings)) return 2;
    if (settings.dir.empty()) {
        const fs::path shared =
            fs::path(CPLAB_SOURCE_DIR) / ".." / "shared" / "datasets" / "uai2014-map";
        settings.dir = fs::exists(shared) ? shared.lexically_normal().string()
                                          : std::string(CPLAB_TEST_DATA_DIR) + "/map/uai2014";
    }
    std::cout << bench::header("bench_map") << "\n";
    if (settings.uai) uaiTable(settings);
    if (settings.frustrated) frustratedTable(settings);
    if (settings.throughput) {
        throughput();
        lpAgainstTrws();
    }
    return 0;
}
