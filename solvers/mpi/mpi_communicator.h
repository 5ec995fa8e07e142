// SPDX-License-Identifier: GPL-3.0-or-later
// The Communicator (core/communicator.h) over Open MPI's MPI_COMM_WORLD, for cplab-cli started
// by mpirun or srun. Linked only into cplab-cli; the GUI and the solvers' core never see MPI.
//
// Sums in rank order: a short vector (≤ kGatherAllBelow entries) is gathered whole on every
// rank (MPI_Allgather) and added r = 0, 1, …; a long one (a subgradient of d_used entries) is
// cut into N chunks, chunk r gathered from every rank onto rank r (MPI_Alltoallv) and added
// there in rank order, then the sums shared (MPI_Allgatherv): the bandwidth of a
// reduce-scatter + allgather, 2·n·(N − 1)/N doubles per rank, with the same additions in the
// same order as the short path, so the result does not depend on which path ran.
#pragma once

#include <memory>

#include "core/communicator.h"

namespace cplab {

// MPI_Init_thread on construction (MPI_THREAD_FUNNELED: the collectives run on the thread that
// called it; a rank's worker threads only compute), MPI_Finalize on destruction. Open MPI's own
// threads start with SIGINT and SIGTERM blocked, so that those signals reach the thread of
// cplab-cli that waits for them (cli.h, installCliSignalHandling) wherever they are sent.
class MpiSession {
  public:
    MpiSession(int* argc, char*** argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    // The world communicator (one per session).
    std::shared_ptr<Communicator> world() const { return world_; }

  private:
    std::shared_ptr<Communicator> world_;
};

// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun with PMI/PMIx),
// from the environment those set; without one cplab-cli does not initialise MPI at all.
bool launchedByMpi();

inline constexpr std::size_t kGatherAllBelow = 4096;

}  // namespace cplab
