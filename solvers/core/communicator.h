// SPDX-License-Identifier: GPL-3.0-or-later
// Communicator: the few collectives a data-parallel oracle needs, so that the solvers' core
// knows nothing of MPI (ALGORITHMS.md §3; issue #32). N processes ("ranks") each hold a share
// of the examples; a data pass runs on every rank's share and its sums are combined here.
//
// Contract: every rank calls the same collectives in the same order with the same sizes (the
// solvers run the same iteration on every rank). Sums are formed in FIXED rank order,
// ((x_0 + x_1) + x_2) + …, not in a library's reduction tree, so that the result is identical
// on every rank and from run to run. The oracles' sums travel as CompensatedSum pairs
// (core/compensated_sum.h), so they round once, at the end, to one process's values.
//
// SingleProcess (rank 0 of 1) is the default everywhere: its collectives return their input.
// The Open MPI implementation lives in solvers/mpi and is linked only into cplab-cli.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/compensated_sum.h"

namespace cplab {

class Communicator {
  public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;  // 0 .. size() − 1
    virtual int size() const = 0;  // ≥ 1
    // x[0..n) ← Σ_r x_r[0..n), summed in rank order; the same n on every rank.
    virtual void sumInRankOrder(double* x, std::size_t n) = 0;
    // The same for n compensated sums (core/compensated_sum.h), merged pair to pair in rank
    // order without rounding: one rounding happens only in CompensatedSum::value().
    virtual void sumInRankOrder(CompensatedSum* x, std::size_t n) = 0;
    // Every rank's `mine`, indexed by rank (blocks of any length).
    virtual std::vector<std::string> gatherAll(const std::string& mine) = 0;
    // Bytes sent by this rank so far, and the seconds it spent in collectives (transfers and
    // waiting for the other ranks), for reports and the bench; 0 for one process.
    virtual double bytesSent() const { return 0.0; }
    virtual double collectiveSeconds() const { return 0.0; }
};

// One process: rank 0 of 1, collectives are the identity.
class SingleProcess final : public Communicator {
  public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void sumInRankOrder(double*, std::size_t) override {}
    void sumInRankOrder(CompensatedSum*, std::size_t) override {}
    std::vector<std::string> gatherAll(const std::string& mine) override { return {mine}; }
};

// Helpers on any communicator (one collective each).
// Σ of one number over the ranks.
double sumOverRanks(Communicator& comm, double x);
// Σ of one compensated sum over the ranks.
CompensatedSum sumOverRanks(Communicator& comm, CompensatedSum x);
// Largest of one integer over the ranks.
long long maxOverRanks(Communicator& comm, long long x);
// A collective check after work that may fail on some ranks: every rank passes its own
// failure text (empty: it succeeded) and gets the lowest failing rank's text, prefixed with
// "rank R: " when there are several ranks; empty when every rank succeeded. No rank waits for
// a failed one: each reaches this call whatever happened before.
std::string firstFailure(Communicator& comm, const std::string& mine);
// The sorted union of the ranks' sorted int lists.
std::vector<int> unionOverRanks(Communicator& comm, const std::vector<int>& mine);
// The sorted union of the ranks' sorted double lists (e.g. the label values).
std::vector<double> unionOverRanks(Communicator& comm, const std::vector<double>& mine);
// Every rank's double list, indexed by rank (e.g. each share's label values).
std::vector<std::vector<double>> gatherOverRanks(Communicator& comm,
                                                 const std::vector<double>& mine);

}  // namespace cplab
