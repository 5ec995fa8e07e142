// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <memory>

#include "cli.h"
#ifdef CPLAB_HAVE_MPI
#include "mpi/mpi_communicator.h"
#endif

int main(int argc, char** argv) {
#ifdef CPLAB_HAVE_MPI
    // Under mpirun or srun only: started alone, cplab-cli never initialises MPI.
    std::unique_ptr<cplab::MpiSession> mpi;
    if (cplab::launchedByMpi()) {
        mpi = std::make_unique<cplab::MpiSession>(&argc, &argv);
        cplab::setCliCommunicator(mpi->world());
    }
#endif
    cplab::installCliSignalHandling();
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    return cplab::runCli(args, std::cout, std::cerr);
}
