// SPDX-License-Identifier: GPL-3.0-or-later
// The collective helpers of communicator.h, built on sumInRankOrder and gatherAll.
#include "core/communicator.h"

#include <algorithm>
#include <cstring>

namespace cplab {

namespace {

template <class T>
std::string bytesOf(const std::vector<T>& v) {
    std::string out(v.size() * sizeof(T), '\0');
    if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
    return out;
}

template <class T>
std::vector<T> sortedUnion(Communicator& comm, const std::vector<T>& mine) {
    if (comm.size() == 1) return mine;
    std::vector<T> all;
    for (const std::string& block : comm.gatherAll(bytesOf(mine))) {
        const std::size_t before = all.size();
        all.resize(before + block.size() / sizeof(T));
        if (!block.empty()) std::memcpy(all.data() + before, block.data(), block.size());
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

}  // namespace

double sumOverRanks(Communicator& comm, double x) {
    comm.sumInRankOrder(&x, 1);
    return x;
}

CompensatedSum sumOverRanks(Communicator& comm, CompensatedSum x) {
    comm.sumInRankOrder(&x, 1);
    return x;
}

long long maxOverRanks(Communicator& comm, long long x) {
    if (comm.size() == 1) return x;
    long long best = x;
    for (const std::string& block : comm.gatherAll(bytesOf(std::vector<long long>{x}))) {
        long long v = 0;
        std::memcpy(&v, block.data(), std::min(block.size(), sizeof v));
        best = std::max(best, v);
    }
    return best;
}

std::string firstFailure(Communicator& comm, const std::string& mine) {
    if (comm.size() == 1) return mine;
    const std::vector<std::string> all = comm.gatherAll(mine);
    for (std::size_t r = 0; r < all.size(); ++r) {
        if (!all[r].empty()) return "rank " + std::to_string(r) + ": " + all[r];
    }
    return {};
}

std::vector<int> unionOverRanks(Communicator& comm, const std::vector<int>& mine) {
    return sortedUnion(comm, mine);
}

std::vector<double> unionOverRanks(Communicator& comm, const std::vector<double>& mine) {
    return sortedUnion(comm, mine);
}

std::vector<std::vector<double>> gatherOverRanks(Communicator& comm,
                                                 const std::vector<double>& mine) {
    if (comm.size() == 1) return {mine};
    std::vector<std::vector<double>> all;
    for (const std::string& block : comm.gatherAll(bytesOf(mine))) {
        all.emplace_back(block.size() / sizeof(double));
        if (!block.empty()) std::memcpy(all.back().data(), block.data(), block.size());
    }
    return all;
}

}  // namespace cplab
