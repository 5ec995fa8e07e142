// SPDX-License-Identifier: GPL-3.0-or-later
// Open MPI implementation of the Communicator (mpi_communicator.h).
#include "mpi/mpi_communicator.h"

#include <mpi.h>
#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <type_traits>
#include <vector>

namespace cplab {

namespace {

class MpiCommunicator final : public Communicator {
  public:
    MpiCommunicator() {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    double bytesSent() const override { return bytes_; }
    double collectiveSeconds() const override { return seconds_; }

    void sumInRankOrder(double* x, std::size_t n) override { sum(x, n); }
    void sumInRankOrder(CompensatedSum* x, std::size_t n) override { sum(x, n); }

    std::vector<std::string> gatherAll(const std::string& mine) override {
        const Timer timer(seconds_);
        const int length = static_cast<int>(mine.size());
        std::vector<int> lengths(static_cast<std::size_t>(size_));
        MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
        std::vector<int> offsets(lengths.size(), 0);
        for (std::size_t r = 1; r < lengths.size(); ++r)
            offsets[r] = offsets[r - 1] + lengths[r - 1];
        std::string all(static_cast<std::size_t>(offsets.back() + lengths.back()), '\0');
        MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                       MPI_CHAR, MPI_COMM_WORLD);
        bytes_ += static_cast<double>(length) * (size_ - 1);
        std::vector<std::string> out;
        for (std::size_t r = 0; r < lengths.size(); ++r)
            out.emplace_back(all, static_cast<std::size_t>(offsets[r]),
                             static_cast<std::size_t>(lengths[r]));
        return out;
    }

  private:
    // Adds the seconds of its scope to `total`.
    struct Timer {
        double& total;
        double start = MPI_Wtime();
        explicit Timer(double& t) : total(t) {}
        ~Timer() { total += MPI_Wtime() - start; }
        Timer(const Timer&) = delete;
        Timer& operator=(const Timer&) = delete;
    };

    // x[0..n) summed over the ranks: small sums gathered whole onto every rank, large ones
    // by chunks. T is double or CompensatedSum (sent as two doubles).
    template <class T>
    void sum(T* x, std::size_t n) {
        if (size_ == 1 || n == 0) return;
        const Timer timer(seconds_);
        if (n <= kGatherAllBelow) {
            sumGathered(x, n);
        } else {
            sumByChunks(x, n);
        }
    }

    // Doubles on the wire for n entries of T.
    template <class T>
    static int doubles(std::size_t n) {
        static_assert(sizeof(T) % sizeof(double) == 0 && std::is_standard_layout_v<T>);
        return static_cast<int>(n * (sizeof(T) / sizeof(double)));
    }
    static void addTo(double& out, double b) { out += b; }
    static void addTo(CompensatedSum& out, const CompensatedSum& b) { out.add(b); }

    // Every rank's x, then added in rank order.
    template <class T>
    void sumGathered(T* x, std::size_t n) {
        std::vector<T> all(n * static_cast<std::size_t>(size_));
        MPI_Allgather(x, doubles<T>(n), MPI_DOUBLE, all.data(), doubles<T>(n), MPI_DOUBLE,
                      MPI_COMM_WORLD);
        bytes_ += 8.0 * doubles<T>(n) * (size_ - 1);
        addInRankOrder(all.data(), n, n, x);
    }

    // out[0..n) = Σ_r blocks[r·stride .. r·stride + n), r = 0, 1, …
    template <class T>
    void addInRankOrder(const T* blocks, std::size_t n, std::size_t stride, T* out) {
        std::copy(blocks, blocks + n, out);
        for (int r = 1; r < size_; ++r) {
            const T* b = blocks + static_cast<std::size_t>(r) * stride;
            for (std::size_t i = 0; i < n; ++i)
                addTo(out[i], b[i]);
        }
    }

    // Chunk r of every rank onto rank r, added there in rank order, then shared.
    template <class T>
    void sumByChunks(T* x, std::size_t n) {
        const auto N = static_cast<std::size_t>(size_);
        const int width = doubles<T>(1);
        std::vector<int> counts(N), offsets(N);  // in doubles
        for (std::size_t r = 0; r < N; ++r) {
            offsets[r] = width * static_cast<int>(r * n / N);
            counts[r] = width * static_cast<int>((r + 1) * n / N) - offsets[r];
        }
        const auto mine = static_cast<std::size_t>(rank_);
        const auto chunk = static_cast<std::size_t>(counts[mine] / width);  // in T
        std::vector<int> recvCounts(N, counts[mine]), recvOffsets(N);
        for (std::size_t r = 0; r < N; ++r)
            recvOffsets[r] = static_cast<int>(r) * counts[mine];
        std::vector<T> received(chunk * N);
        MPI_Alltoallv(x, counts.data(), offsets.data(), MPI_DOUBLE, received.data(),
                      recvCounts.data(), recvOffsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
        std::vector<T> sum(chunk);
        addInRankOrder(received.data(), chunk, chunk, sum.data());
        MPI_Allgatherv(sum.data(), counts[mine], MPI_DOUBLE, x, counts.data(), offsets.data(),
                       MPI_DOUBLE, MPI_COMM_WORLD);
        bytes_ +=
            8.0 * width * (static_cast<double>(n - chunk) + static_cast<double>(chunk) * (N - 1));
    }

    int rank_ = 0;
    int size_ = 1;
    double bytes_ = 0.0;
    double seconds_ = 0.0;
};

}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
    // MPI_Init starts Open MPI's own threads (PMIx, libevent progress); they inherit this
    // thread's signal mask. With SIGINT and SIGTERM blocked in them, the SIGTERM that mpirun
    // sends on a Ctrl-C reaches the thread that waits for it (installCliSignalHandling) instead
    // of killing the process from a thread that does not: the ranks stop at an iteration
    // boundary and write their outputs. The caller's mask is restored afterwards.
    sigset_t stops, before;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    const bool masked = pthread_sigmask(SIG_BLOCK, &stops, &before) == 0;
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (masked) pthread_sigmask(SIG_SETMASK, &before, nullptr);
    world_ = std::make_shared<MpiCommunicator>();
}

MpiSession::~MpiSession() {
    world_.reset();
    MPI_Finalize();
}

bool launchedByMpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"}) {
        if (std::getenv(name)) return true;
    }
    return false;
}

}  // namespace cplab
