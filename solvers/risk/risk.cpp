// SPDX-License-Identifier: GPL-3.0-or-later
#include "risk/risk.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "core/compensated_sum.h"
#include "core/worker_team.h"
#include "data/text_io.h"
#include "risk/loss_functions.h"

namespace cplab {

namespace {

// Multi-class labels above this are taken for a mistake (W would have that many columns).
constexpr int kMaxClasses = 1 << 16;

using RowMajorMap =
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
using ConstRowMajorMap =
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

const char* lossPhrase(LossKind kind) {
    switch (kind) {
        case LossKind::Hinge:
            return "the hinge loss";
        case LossKind::Logistic:
            return "the logistic loss";
        case LossKind::SquaredHinge:
            return "the squared hinge loss";
        case LossKind::Multiclass:
            return "the multi-class loss";
        case LossKind::EpsilonInsensitive:
            return "the epsilon-insensitive loss";
    }
    return "the loss";
}

bool isBinary(LossKind kind) {
    return kind == LossKind::Hinge || kind == LossKind::Logistic || kind == LossKind::SquaredHinge;
}

// Work of one pass over `data` with K outputs, in units of about one multiply-add: (stored
// entries + examples)·K.
long long passWork(const Dataset& data, int K) {
    const long long stored = data.sparseStorage ? static_cast<long long>(data.sparse.nonZeros())
                                                : static_cast<long long>(data.dense.size());
    return (stored + data.size()) * K;
}

std::string shape(Eigen::Index rows, Eigen::Index cols) {
    return std::to_string(rows) + " x " + std::to_string(cols);
}

// Rows of a RowMajor sparse matrix, read through its raw arrays. Multi-output products use a
// row-major F × K weight (or accumulator) matrix so that the K outputs of a feature are
// contiguous.
struct SparseRows {
    const double* values;
    const int* inner;
    const int* outer;

    // Four partial sums: with one, each multiply-add waits for the previous one (a long row,
    // such as USPS's 104 entries, is bound by the adder's latency, not by the loads).
    double dot(int i, const double* w) const {
        const int end = outer[i + 1];
        int p = outer[i];
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        for (; p + 4 <= end; p += 4) {
            s0 += values[p] * w[inner[p]];
            s1 += values[p + 1] * w[inner[p + 1]];
            s2 += values[p + 2] * w[inner[p + 2]];
            s3 += values[p + 3] * w[inner[p + 3]];
        }
        for (; p < end; ++p)
            s0 += values[p] * w[inner[p]];
        return (s0 + s1) + (s2 + s3);
    }
    void axpy(int i, double c, CompensatedSum* acc) const {
        for (int p = outer[i]; p < outer[i + 1]; ++p)
            acc[inner[p]].add(c * values[p]);
    }
    // s[k] = Σ_j x_ij Wt(j, k), k < K: one output at a time so that the sum stays in a register
    // (the row's few entries are in L1 by the second output).
    void dotK(int i, const double* Wt, int K, double* s) const {
        for (int k = 0; k < K; ++k) {
            double sum = 0.0;
            for (int p = outer[i]; p < outer[i + 1]; ++p)
                sum += values[p] * Wt[static_cast<long>(inner[p]) * K + k];
            s[k] = sum;
        }
    }
    // Gt(j, k) += x_ij c[k].
    void axpyK(int i, const double* c, int K, CompensatedSum* Gt) const {
        for (int p = outer[i]; p < outer[i + 1]; ++p) {
            const double v = values[p];
            CompensatedSum* row = Gt + static_cast<long>(inner[p]) * K;
            for (int k = 0; k < K; ++k)
                row[k].add(v * c[k]);
        }
    }
};

// Rows of a RowMajor dense matrix with `cols` columns (Eigen vectorises the row operations).
struct DenseRows {
    const double* data;
    int cols;

    Eigen::Map<const Eigen::VectorXd> row(int i) const {
        return Eigen::Map<const Eigen::VectorXd>(data + static_cast<long>(i) * cols, cols);
    }
    double dot(int i, const double* w) const {
        return row(i).dot(Eigen::Map<const Eigen::VectorXd>(w, cols));
    }
    void axpy(int i, double c, CompensatedSum* acc) const {
        const double* x = data + static_cast<long>(i) * cols;
        for (int j = 0; j < cols; ++j)
            acc[j].add(c * x[j]);
    }
    void dotK(int i, const double* Wt, int K, double* s) const {
        Eigen::Map<Eigen::VectorXd>(s, K).noalias() =
            ConstRowMajorMap(Wt, cols, K).transpose() * row(i);
    }
    void axpyK(int i, const double* c, int K, CompensatedSum* Gt) const {
        const double* x = data + static_cast<long>(i) * cols;
        for (int j = 0; j < cols; ++j) {
            CompensatedSum* row = Gt + static_cast<long>(j) * K;
            for (int k = 0; k < K; ++k)
                row[k].add(x[j] * c[k]);
        }
    }
};

template <class Fn>
decltype(auto) visitRows(const Dataset& data, Fn&& fn) {
    if (data.sparseStorage) {
        return fn(SparseRows{data.sparse.valuePtr(), data.sparse.innerIndexPtr(),
                             data.sparse.outerIndexPtr()});
    }
    return fn(DenseRows{data.dense.data(), static_cast<int>(data.dense.cols())});
}

template <LossKind L>
using LossTag = std::integral_constant<LossKind, L>;

template <class Fn>
decltype(auto) visitLoss(LossKind kind, Fn&& fn) {
    switch (kind) {
        case LossKind::Hinge:
            return fn(LossTag<LossKind::Hinge>{});
        case LossKind::Logistic:
            return fn(LossTag<LossKind::Logistic>{});
        case LossKind::SquaredHinge:
            return fn(LossTag<LossKind::SquaredHinge>{});
        case LossKind::Multiclass:
            return fn(LossTag<LossKind::Multiclass>{});
        case LossKind::EpsilonInsensitive:
            break;
    }
    return fn(LossTag<LossKind::EpsilonInsensitive>{});
}

// ℓ of one example whose K scores are s[0], s[stride], …; derivative into c[0..K) if not null.
template <LossKind L>
double exampleLoss(const double* s, int stride, double y, double epsilon, int K, double* c) {
    if constexpr (L == LossKind::Hinge) return detail::hingeLoss(*s, y, c);
    if constexpr (L == LossKind::Logistic) return detail::logisticLoss(*s, y, c);
    if constexpr (L == LossKind::SquaredHinge) return detail::squaredHingeLoss(*s, y, c);
    if constexpr (L == LossKind::EpsilonInsensitive)
        return detail::epsilonInsensitiveLoss(*s, y, epsilon, c);
    if constexpr (L == LossKind::Multiclass)
        return detail::multiclassLoss(s, stride, static_cast<int>(y), K, c);
}

// Σ of the workers' partial sums, in worker order, still unrounded (core/compensated_sum.h:
// the loss value of a block is accurate to about one rounding whatever its length, and the
// rounded total does not depend on how the examples were split among threads and ranks).
CompensatedSum total(const std::vector<CompensatedSum>& partial) {
    CompensatedSum all;
    for (const CompensatedSum& p : partial)
        all.add(p);
    return all;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

const char* toString(LossKind kind) {
    switch (kind) {
        case LossKind::Hinge:
            return "hinge";
        case LossKind::Logistic:
            return "logistic";
        case LossKind::SquaredHinge:
            return "squared_hinge";
        case LossKind::Multiclass:
            return "multiclass";
        case LossKind::EpsilonInsensitive:
            return "epsilon_insensitive";
    }
    return "unknown";
}

bool parseLossKind(const std::string& name, LossKind* kind) {
    for (LossKind k : {LossKind::Hinge, LossKind::Logistic, LossKind::SquaredHinge,
                       LossKind::Multiclass, LossKind::EpsilonInsensitive}) {
        if (name == toString(k)) {
            if (kind) *kind = k;
            return true;
        }
    }
    return false;
}

std::vector<std::string> lossKindNames() {
    return {"hinge", "logistic", "squared_hinge", "multiclass", "epsilon_insensitive"};
}

// ---------------------------------------------------------------------------------------------

struct Risk::Impl {
    int m = 0;                      // examples (this rank's)
    double mAll = 0.0;              // examples of every rank
    Communicator* comm = nullptr;   // null: one process
    int d = 0;                      // features of the data (the bias, if any, is weight row d)
    int F = 0;                      // d + bias
    int K = 1;                      // outputs
    int threads = 1;                // resolved option (≥ 1)
    bool plusMinusClasses = false;  // multi-class on ±1 labels: −1 ↔ class 0, +1 ↔ class 1
    Eigen::VectorXd y;              // labels as the loss reads them

    long long grain = 1;     // RiskOptions::minWorkPerThread
    long long dataWork = 0;  // work of a pass over the data: (stored entries + examples)·K
    long long lossWork = 0;  // work of the losses: m·K (·16 for logistic's exp and log1p)
    std::unique_ptr<WorkerTeam> team;  // threads > 1 only

    // Workers for `work` units: one per `grain`, at least 1, at most the team's size.
    int workers(long long work) const { return team ? team->partsFor(work, grain) : 1; }
    // x summed over the ranks (unchanged for one process).
    double overRanks(double x) const { return comm ? sumOverRanks(*comm, x) : x; }
    double overRanks(CompensatedSum x) const { return (comm ? sumOverRanks(*comm, x) : x).value(); }
};

Risk::Risk(std::shared_ptr<const Dataset> data, RiskOptions options)
    : data_(std::move(data)), options_(std::move(options)), impl_(std::make_unique<Impl>()) {
    Communicator* comm = options_.communicator.get();
    if (!comm) {
        checkShare();
    } else {
        // Every rank reaches the collective check, whatever its share holds.
        std::string failure;
        try {
            checkShare();
        } catch (const std::exception& e) {  // bad data, or memory (bad_alloc)
            failure = e.what();
        }
        failure = firstFailure(*comm, failure);
        if (!failure.empty()) throw std::invalid_argument(failure);
        impl_->comm = comm;
        combineOverRanks();
    }
    impl_->mAll = impl_->overRanks(impl_->m);
    Impl& p = *impl_;
    p.dataWork = passWork(*data_, p.K);
    p.lossWork = static_cast<long long>(p.m) * p.K * (options_.loss == LossKind::Logistic ? 16 : 1);
    if (p.threads > 1) p.team = std::make_unique<WorkerTeam>(p.threads);
}

// The ranks' K and ±1 reading of multi-class labels agree: the largest K, ±1 only if every
// share is ±1.
void Risk::combineOverRanks() {
    Impl& p = *impl_;
    if (options_.loss != LossKind::Multiclass) return;
    Communicator& comm = *options_.communicator;
    const bool plusMinus = sumOverRanks(comm, p.plusMinusClasses ? 0.0 : 1.0) == 0.0;
    std::string failure;
    if (p.plusMinusClasses && !plusMinus) {
        p.plusMinusClasses = false;
        p.y = data_->labels;
        for (int i = 0; i < p.m && failure.empty(); ++i) {
            if (p.y[i] < 0) {
                failure = data_->where(i) +
                          ": the multi-class loss needs class labels 0, 1, ..., K-1 (or -1/+1 "
                          "on every rank), found label -1";
            }
        }
    }
    failure = firstFailure(comm, failure);
    if (!failure.empty()) throw std::invalid_argument(failure);
    p.K = static_cast<int>(maxOverRanks(comm, p.K));
}

void Risk::checkShare() {
    if (!data_) throw std::invalid_argument("Risk: no dataset");
    if (!(options_.epsilon >= 0.0) || !std::isfinite(options_.epsilon)) {
        throw std::invalid_argument("RiskOptions::epsilon = " + formatReal(options_.epsilon) +
                                    ": must be >= 0 and finite");
    }
    if (options_.threads < 0) {
        throw std::invalid_argument("RiskOptions::threads = " + std::to_string(options_.threads) +
                                    ": must be >= 0 (0: hardware concurrency)");
    }
    if (options_.minWorkPerThread < 1) {
        throw std::invalid_argument("RiskOptions::minWorkPerThread = " +
                                    std::to_string(options_.minWorkPerThread) + ": must be >= 1");
    }
    const std::string violation = data_->contractViolation();
    if (!violation.empty()) {
        throw std::invalid_argument("Risk: the dataset '" + data_->name +
                                    "' breaks the Dataset contract: " + violation);
    }
    Impl& p = *impl_;
    p.m = data_->size();
    if (p.m == 0) throw std::invalid_argument("Risk: the dataset '" + data_->name + "' is empty");
    p.d = data_->dimension();
    p.F = p.d + (options_.bias ? 1 : 0);
    p.threads = options_.threads > 0
                    ? options_.threads
                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    p.grain = options_.minWorkPerThread;
    p.y = data_->labels;

    const LossKind kind = options_.loss;
    const Eigen::VectorXd& labels = data_->labels;
    if (isBinary(kind)) {
        for (int i = 0; i < p.m; ++i) {
            if (labels[i] != 1.0 && labels[i] != -1.0) {
                throw std::invalid_argument(data_->where(i) + ": " + lossPhrase(kind) +
                                            " needs labels -1/+1, found label " +
                                            data_->labelInMessage(labels[i]));
            }
        }
    } else if (kind == LossKind::Multiclass) {
        p.plusMinusClasses = (labels.array() == 1.0 || labels.array() == -1.0).all();
        if (p.plusMinusClasses) {
            p.y = (labels.array() + 1.0) / 2.0;
            p.K = 2;
        } else {
            double largest = 0.0;
            for (int i = 0; i < p.m; ++i) {
                const double v = labels[i];
                if (!(v >= 0.0 && v < kMaxClasses && v == std::floor(v))) {
                    throw std::invalid_argument(
                        data_->where(i) +
                        ": the multi-class loss needs class labels 0, 1, ..., K-1 (or -1/+1), "
                        "found label " +
                        data_->labelInMessage(v) +
                        (v >= kMaxClasses ? " (at most " + std::to_string(kMaxClasses) + " classes)"
                                          : ""));
                }
                largest = std::max(largest, v);
            }
            p.K = static_cast<int>(largest) + 1;
            if (p.K < 2) {
                throw std::invalid_argument(
                    "Risk: the multi-class loss needs at least 2 classes, every label is 0");
            }
        }
    }
}

Risk::~Risk() = default;

int Risk::examples() const {
    return impl_->m;
}
double Risk::totalExamples() const {
    return impl_->mAll;
}
int Risk::features() const {
    return impl_->F;
}
int Risk::outputs() const {
    return impl_->K;
}
Eigen::Index Risk::dimension() const {
    return Eigen::Index(impl_->F) * impl_->K;
}
const Eigen::VectorXd& Risk::lossLabels() const {
    return impl_->y;
}
WorkerTeam* Risk::team() const {
    return impl_->team.get();
}
int Risk::workersFor(long long work) const {
    return impl_->workers(work);
}

void Risk::checkWeights(const Eigen::VectorXd& w, const char* where) const {
    if (w.size() != dimension()) {
        throw std::invalid_argument(std::string(where) + ": w has " + std::to_string(w.size()) +
                                    " entries, the risk's dimension is " +
                                    std::to_string(dimension()) + " (" + std::to_string(impl_->F) +
                                    " features x " + std::to_string(impl_->K) + " outputs)");
    }
}

namespace {

// The model W as the kernels read it: column-major w for K = 1, a row-major copy for K > 1.
struct Weights {
    const double* w = nullptr;  // K = 1: w, with the bias (if any) at index d
    std::vector<double> Wt;     // K > 1: row-major F × K
    int d = 0;
    int K = 1;
    bool bias = false;

    Weights(const Eigen::VectorXd& weights, int d_, int F, int K_, bool bias_)
        : w(weights.data()), d(d_), K(K_), bias(bias_) {
        if (K > 1) {
            Wt.resize(static_cast<std::size_t>(F) * K);
            RowMajorMap(Wt.data(), F, K) = Eigen::Map<const Eigen::MatrixXd>(weights.data(), F, K);
        }
    }
    // Scores of example i into s[0..K).
    template <class Rows>
    void scores(const Rows& rows, int i, double* s) const {
        if (K == 1) {
            s[0] = rows.dot(i, w) + (bias ? w[d] : 0.0);
            return;
        }
        rows.dotK(i, Wt.data(), K, s);
        if (bias) {
            const double* b = Wt.data() + static_cast<long>(d) * K;
            for (int k = 0; k < K; ++k)
                s[k] += b[k];
        }
    }
};

// acc += c·x_i (K = 1, acc indexed like w) or Gt += x_i cᵀ (K > 1, row-major F × K), with the
// bias feature 1 at row d.
template <class Rows>
void accumulate(const Rows& rows, int i, const double* c, int d, int K, bool bias,
                CompensatedSum* acc) {
    if (K == 1) {
        if (c[0] == 0.0) return;
        rows.axpy(i, c[0], acc);
        if (bias) acc[d].add(c[0]);
        return;
    }
    if (std::all_of(c, c + K, [](double v) { return v == 0.0; })) return;
    rows.axpyK(i, c, K, acc);
    if (bias) {
        CompensatedSum* b = acc + static_cast<long>(d) * K;
        for (int k = 0; k < K; ++k)
            b[k].add(c[k]);
    }
}

// Per-thread accumulators for a subgradient, each entry a CompensatedSum (F × K, row-major
// when K > 1): finish() merges them in worker order, then over the ranks, and only then rounds
// and divides by m. So g is the same however the examples are split among threads and ranks
// (core/compensated_sum.h), which a cutting-plane method needs to take the same steps on 1
// and N processes; it costs the compensation's few extra additions per stored entry.
class Accumulators {
  public:
    Accumulators(int F, int K, int workers) : F_(F), K_(K) {
        const auto n = static_cast<std::size_t>(F) * static_cast<std::size_t>(K);
        buffers_.assign(static_cast<std::size_t>(workers), std::vector<CompensatedSum>(n));
    }
    CompensatedSum* forWorker(int t) { return buffers_[static_cast<std::size_t>(t)].data(); }
    // g ← (Σ over workers, then ranks) / m, laid out like w.
    void finish(Communicator* comm, double m, Eigen::VectorXd& g) {
        std::vector<CompensatedSum>& all = buffers_[0];
        for (std::size_t t = 1; t < buffers_.size(); ++t) {
            for (std::size_t j = 0; j < all.size(); ++j)
                all[j].add(buffers_[t][j]);
        }
        if (comm) comm->sumInRankOrder(all.data(), all.size());
        g.resize(static_cast<Eigen::Index>(all.size()));
        for (int j = 0; j < F_; ++j) {
            for (int k = 0; k < K_; ++k)
                g[Eigen::Index(k) * F_ + j] = all[static_cast<std::size_t>(j) * K_ + k].value() / m;
        }
    }

  private:
    int F_, K_;
    std::vector<std::vector<CompensatedSum>> buffers_;
};

// 2·K doubles per worker (the K scores, then the K derivatives of an example), allocated
// before the workers start so that nothing inside a worker allocates or throws. Each worker's
// part starts a cache line (8 doubles) after the previous one ends: written once per example,
// a shared line would bounce between the cores.
class Scratch {
  public:
    Scratch(int workers, int K)
        : K_(K),
          stride_((2 * static_cast<std::size_t>(K) + 7) / 8 * 8 + 8),
          data_(static_cast<std::size_t>(workers) * stride_) {}
    double* scores(int t) { return data_.data() + static_cast<std::size_t>(t) * stride_; }
    double* derivatives(int t) { return scores(t) + K_; }

  private:
    int K_;
    std::size_t stride_;
    std::vector<double> data_;
};

}  // namespace

void Risk::scores(const Eigen::VectorXd& w, Eigen::MatrixXd& S) const {
    checkWeights(w, "Risk::scores");
    const Impl& p = *impl_;
    S.resize(p.m, p.K);
    const Weights W(w, p.d, p.F, p.K, options_.bias);
    const int workers = p.workers(p.dataWork);
    Scratch scratch(workers, p.K);
    visitRows(*data_, [&](const auto& rows) {
        runBlocks(p.team.get(), p.m, workers, [&](int t, int begin, int end) {
            double* out = scratch.scores(t);
            for (int i = begin; i < end; ++i) {
                W.scores(rows, i, out);
                for (int k = 0; k < p.K; ++k)
                    S(i, k) = out[k];
            }
        });
    });
}

double Risk::loss(const Eigen::MatrixXd& S, Eigen::MatrixXd* C) const {
    const Impl& p = *impl_;
    if (S.rows() != p.m || S.cols() != p.K) {
        throw std::invalid_argument("Risk::loss: S is " + shape(S.rows(), S.cols()) +
                                    ", expected " + shape(p.m, p.K));
    }
    if (C) C->resize(p.m, p.K);
    const int workers = p.workers(p.lossWork);
    std::vector<CompensatedSum> partial(static_cast<std::size_t>(workers));
    const double eps = options_.epsilon;
    Scratch scratch(workers, p.K);
    visitLoss(options_.loss, [&](auto tag) {
        constexpr LossKind L = decltype(tag)::value;
        runBlocks(p.team.get(), p.m, workers, [&](int t, int begin, int end) {
            double* c = scratch.derivatives(t);
            CompensatedSum sum;
            const int stride = static_cast<int>(S.rows());
            for (int i = begin; i < end; ++i) {
                sum.add(exampleLoss<L>(S.data() + i, stride, p.y[i], eps, p.K, C ? c : nullptr));
                if (C) {
                    for (int k = 0; k < p.K; ++k)
                        (*C)(i, k) = c[k];
                }
            }
            partial[static_cast<std::size_t>(t)] = sum;
        });
    });
    return p.overRanks(total(partial)) / p.mAll;
}

void Risk::backProject(const Eigen::MatrixXd& C, Eigen::VectorXd& g) const {
    const Impl& p = *impl_;
    if (C.rows() != p.m || C.cols() != p.K) {
        throw std::invalid_argument("Risk::backProject: C is " + shape(C.rows(), C.cols()) +
                                    ", expected " + shape(p.m, p.K));
    }
    const int workers = p.workers(p.dataWork);
    Accumulators acc(p.F, p.K, workers);
    Scratch scratch(workers, p.K);
    visitRows(*data_, [&](const auto& rows) {
        runBlocks(p.team.get(), p.m, workers, [&](int t, int begin, int end) {
            CompensatedSum* out = acc.forWorker(t);
            double* c = scratch.derivatives(t);
            for (int i = begin; i < end; ++i) {
                for (int k = 0; k < p.K; ++k)
                    c[k] = C(i, k);
                accumulate(rows, i, c, p.d, p.K, options_.bias, out);
            }
        });
    });
    acc.finish(p.comm, p.mAll, g);
}

double Risk::evaluate(const Eigen::VectorXd& w, Eigen::VectorXd* g) const {
    checkWeights(w, "Risk::evaluate");
    if (g == &w) {  // g is zeroed before w is read: compute into a copy
        Eigen::VectorXd gradient;
        const double R = evaluate(w, &gradient);
        *g = std::move(gradient);
        return R;
    }
    const Impl& p = *impl_;
    const int workers = p.workers(p.dataWork + p.lossWork);
    std::vector<CompensatedSum> partial(static_cast<std::size_t>(workers));
    const Weights W(w, p.d, p.F, p.K, options_.bias);
    std::optional<Accumulators> acc;
    if (g) acc.emplace(p.F, p.K, workers);
    Scratch scratch(workers, p.K);
    const double eps = options_.epsilon;
    visitLoss(options_.loss, [&](auto tag) {
        constexpr LossKind L = decltype(tag)::value;
        visitRows(*data_, [&](const auto& rows) {
            runBlocks(p.team.get(), p.m, workers, [&](int t, int begin, int end) {
                CompensatedSum* out = acc ? acc->forWorker(t) : nullptr;
                double* s = scratch.scores(t);
                double* c = scratch.derivatives(t);
                CompensatedSum sum;
                for (int i = begin; i < end; ++i) {
                    W.scores(rows, i, s);
                    sum.add(exampleLoss<L>(s, 1, p.y[i], eps, p.K, out ? c : nullptr));
                    if (out) accumulate(rows, i, c, p.d, p.K, options_.bias, out);
                }
                partial[static_cast<std::size_t>(t)] = sum;
            });
        });
    });
    if (acc) acc->finish(p.comm, p.mAll, *g);
    return p.overRanks(total(partial)) / p.mAll;
}

Eigen::VectorXd Risk::predict(const Eigen::VectorXd& w, const Dataset& data) const {
    checkWeights(w, "Risk::predict");
    const Impl& p = *impl_;
    if (data.dimension() > p.d) {
        throw std::invalid_argument("Risk::predict: the dataset '" + data.name + "' has " +
                                    std::to_string(data.dimension()) + " features, the model " +
                                    std::to_string(p.d));
    }
    const int n = data.size();
    Eigen::VectorXd out(n);
    const Weights W(w, p.d, p.F, p.K, options_.bias);
    const LossKind kind = options_.loss;
    const int workers = p.workers(passWork(data, p.K));
    Scratch scratch(workers, p.K);
    visitRows(data, [&](const auto& rows) {
        runBlocks(p.team.get(), n, workers, [&](int t, int begin, int end) {
            double* s = scratch.scores(t);
            for (int i = begin; i < end; ++i) {
                W.scores(rows, i, s);
                if (kind == LossKind::Multiclass) {
                    const int k = static_cast<int>(std::max_element(s, s + p.K) - s);
                    out[i] = p.plusMinusClasses ? (k == 0 ? -1.0 : 1.0) : k;
                } else if (kind == LossKind::EpsilonInsensitive) {
                    out[i] = s[0];
                } else {
                    out[i] = s[0] >= 0.0 ? 1.0 : -1.0;
                }
            }
        });
    });
    return out;
}

double Risk::error(const Eigen::VectorXd& w, const Dataset& data) const {
    if (impl_->comm) return errorOverRanks(w, data);
    if (data.size() == 0) {
        throw std::invalid_argument("Risk::error: the dataset '" + data.name + "' is empty");
    }
    if (data.labels.size() != data.size()) {
        throw std::invalid_argument("Risk::error: the dataset '" + data.name + "' has " +
                                    std::to_string(data.labels.size()) + " labels for " +
                                    std::to_string(data.size()) + " examples");
    }
    const Eigen::VectorXd predicted = predict(w, data);
    if (options_.loss == LossKind::EpsilonInsensitive)
        return (predicted - data.labels).cwiseAbs().mean();
    return static_cast<double>((predicted.array() != data.labels.array()).count()) / data.size();
}

double Risk::errorOverRanks(const Eigen::VectorXd& w, const Dataset& share) const {
    const Impl& p = *impl_;
    double wrong = 0.0;
    if (share.size() > 0) {
        const Eigen::VectorXd predicted = predict(w, share);
        wrong = options_.loss == LossKind::EpsilonInsensitive
                    ? (predicted - share.labels).cwiseAbs().sum()
                    : static_cast<double>((predicted.array() != share.labels.array()).count());
    }
    const double n = p.overRanks(share.size());
    wrong = p.overRanks(wrong);
    if (n == 0) {
        throw std::invalid_argument("Risk::error: the dataset '" + share.name +
                                    "' is empty on every rank");
    }
    return wrong / n;
}

double Risk::errorFromScores(const Eigen::MatrixXd& S) const {
    const Impl& p = *impl_;
    if (S.rows() != p.m || S.cols() != p.K) {
        throw std::invalid_argument("Risk::errorFromScores: S is " + shape(S.rows(), S.cols()) +
                                    ", expected " + shape(p.m, p.K));
    }
    const LossKind kind = options_.loss;
    const int workers = p.workers(static_cast<long long>(p.m) * p.K);
    std::vector<double> partial(static_cast<std::size_t>(workers), 0.0);
    runBlocks(p.team.get(), p.m, workers, [&](int t, int begin, int end) {
        double sum = 0.0;
        for (int i = begin; i < end; ++i) {
            const double y = p.y[i];
            if (kind == LossKind::Multiclass) {
                Eigen::Index best = 0;
                S.row(i).maxCoeff(&best);
                sum += static_cast<double>(best) != y ? 1.0 : 0.0;
            } else if (kind == LossKind::EpsilonInsensitive) {
                sum += std::abs(S(i, 0) - y);
            } else {
                sum += (S(i, 0) >= 0.0 ? 1.0 : -1.0) != y ? 1.0 : 0.0;
            }
        }
        partial[static_cast<std::size_t>(t)] = sum;
    });
    double errors = 0.0;
    for (double e : partial)
        errors += e;
    return p.overRanks(errors) / p.mAll;
}

}  // namespace cplab
