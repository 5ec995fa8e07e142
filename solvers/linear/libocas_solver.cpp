// SPDX-License-Identifier: GPL-3.0-or-later
#include "libocas_solver.h"

#include <Eigen/SparseCore>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

// libocas.h declares C functions without an extern "C" block of its own.
extern "C" {
#include <libocas.h>
}

namespace cplab {

namespace {

constexpr const char* kOwner = "LibocasOptions";

// libocas's inner QP runs to TolRel/2 and, with 0, may iterate up to 10⁷ times per call.
constexpr double kMinTolRel = 1e-12;
// Automatic BufSize cap: libocas callocs a BufSize² Hessian (4001² doubles = 128 MB of
// address space, touched only as planes are added).
constexpr std::int64_t kAutoBufferCap = 4001;
constexpr int kMaxBufferSize = 20000;
// Callbacks poll the stop flag this often (examples) while they run.
constexpr int kPollEvery = 1024;
// A parked libocas thread checks the cancel token this often.
constexpr std::chrono::milliseconds kCancelPoll{50};

// Set while a libocas run is live in this process: libocas keeps its Hessian in file-scope
// statics (H, BufSize in libocas.c), so runs must not overlap.
std::atomic<bool> gLibocasBusy{false};

// Pseudocode line numbers (see LibocasSolver::pseudocode()).
enum Line {
    kInput,
    kRepeat,
    kAddCut,
    kQp,
    kComputeW,
    kOutputs,
    kLineSearch,
    kBmrmUpdate,
    kReport,
    kUntil
};

// What libocas's main loop decides right after its ocas_print callback (same expressions, in
// the same order, as the stopping conditions of svm_ocas_solver and msvm_ocas_solver).
int libocasExitAfter(const ocas_return_value_T& s, double tolRel, double tolAbs, double qpBound,
                     double maxTime, std::uint32_t bufSize) {
    int flag = 0;
    if (s.Q_P - s.Q_D <= tolRel * std::abs(s.Q_P)) flag = 1;
    if (s.Q_P - s.Q_D <= tolAbs) flag = 2;
    if (s.Q_P <= qpBound) flag = 3;
    if (s.ocas_time >= maxTime) flag = 4;
    if (s.nCutPlanes >= bufSize) flag = -1;
    return flag;
}

std::string describeExitflag(int flag) {
    switch (flag) {
        case 0:
            return "running";
        case 1:
            return "Q_P - Q_D <= TolRel |Q_P|";
        case 2:
            return "Q_P - Q_D <= TolAbs";
        case 3:
            return "Q_P <= QPBound";
        case 4:
            return "MaxTime reached";
        case -1:
            return "cutting-plane buffer full";
        case -2:
            return "stopped by a callback (cplab's stop) or out of memory";
        default:
            return "unknown exit flag " + std::to_string(flag);
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Options

void LibocasOptions::visit(OptionVisitor& v) {
    stop.visit(v);
    model.visit(v);
    v.choice("method", method, {"ocas", "bmrm"},
             "libocas Method: ocas (1, OCAS with line search) or bmrm (0, plain cutting planes)");
    v.integer("buf_size", buf_size,
              "libocas BufSize, the most planes it stores (0: max_iterations + 1, at most 4001; "
              "else 2..20000)");
    v.integer("qp_limit_stop", qp_limit_stop,
              "stop after this many iterations in a row whose inner QP hit its iteration limit "
              "(badly scaled data; 0: never)");
}

bool LibocasOptions::isValid(std::string* why) const {
    return stop.isValid(kOwner, why) && model.isValid(kOwner, why) &&
           requireText(model.risk == "hinge" || model.risk == "multiclass", kOwner, "risk",
                       model.risk,
                       "libocas solves only hinge (svm_ocas_solver) and multiclass "
                       "(msvm_ocas_solver)",
                       why) &&
           requireText(method == "ocas" || method == "bmrm", kOwner, "method", method,
                       "must be ocas or bmrm", why) &&
           require(buf_size == 0 || (buf_size >= 2 && buf_size <= kMaxBufferSize), kOwner,
                   "buf_size", buf_size, "must be 0 (automatic) or lie in [2, 20000]", why) &&
           require(qp_limit_stop >= 0, kOwner, "qp_limit_stop", qp_limit_stop,
                   "must be >= 0 (0: never stop for it)", why);
}

std::uint32_t LibocasOptions::bufferSize() const {
    if (buf_size > 0) return static_cast<std::uint32_t>(buf_size);
    const std::int64_t wanted = static_cast<std::int64_t>(stop.max_iterations) + 1;
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(wanted, 2, kAutoBufferCap));
}

// ---------------------------------------------------------------------------------------------
// The libocas thread

struct LibocasSolver::Run {
    // Inputs, read-only while the thread lives.
    const Dataset* data = nullptr;
    int m = 0;
    int d = 0;
    int features = 0;  // d + bias: entries per class block of w
    int classes = 1;   // K
    bool bias = false;
    bool multiclass = false;
    std::vector<double> y;  // binary: ±1; multi-class: class + 1 (libocas's 1-based data_y)
    double C = 0.0;
    double tolRel = 0.0;
    double tolAbs = 0.0;
    std::uint32_t bufSize = 0;
    std::uint8_t method = 1;
    CancelToken cancel;
    const double qpBound = -std::numeric_limits<double>::infinity();  // off
    const double maxTime = std::numeric_limits<double>::infinity();   // off (see header)

    // Owned by the libocas thread (its callbacks) while it runs.
    Eigen::VectorXd W, oldW, wModel, a;
    Eigen::VectorXd scratch;  // one row's scores (K)
    std::vector<Eigen::SparseVector<double>> cuts;
    long long outputCalls = 0;
    std::string error;

    // Rendezvous with step(), guarded by `mutex`.
    std::mutex mutex;
    std::condition_variable cv;
    bool go = false;          // step() → thread: compute the next iteration
    bool done = false;        // thread → step(): libocas has returned
    long long published = 0;  // iterations published so far
    LibocasState state;
    int predictedExit = 0;
    long long publishedCalls = 0;
    Eigen::VectorXd wPublished, wModelPublished;
    std::string publishedError;
    ocas_return_value_T result{};
    // Set by the solver (stop, destruction) or by the thread itself (cancel token): makes the
    // next callback fail, which makes libocas free its buffers and return.
    std::atomic<bool> stop{false};

    std::thread thread;

    // The run whose callbacks execute on this thread: ocas_print and sort get no user data.
    static thread_local Run* current;

    void main() {
        current = this;
        ocas_return_value_T r;
        if (multiclass) {
            r = msvm_ocas_solver(C, y.data(), static_cast<std::uint32_t>(classes),
                                 static_cast<std::uint32_t>(m), tolRel, tolAbs, qpBound, maxTime,
                                 bufSize, method, &computeW, &updateW, &addNewCutMulticlass,
                                 &computeOutput, &sortByValue, &print, this);
        } else {
            r = svm_ocas_solver(C, static_cast<std::uint32_t>(m), tolRel, tolAbs, qpBound, maxTime,
                                bufSize, method, &computeW, &updateW, &addNewCut, &computeOutput,
                                &sortByValue, &print, this);
        }
        current = nullptr;
        cuts.clear();
        cuts.shrink_to_fit();
        // Free the process-wide slot before announcing the end, so that a successor started
        // right after step() returns finds it free.
        gLibocasBusy.store(false);
        std::lock_guard<std::mutex> lock(mutex);
        result = r;
        publishedError = error;
        done = true;
        cv.notify_all();
    }

    // True when the callbacks must make libocas return now.
    bool stopping() {
        if (stop.load()) return true;
        if (cancel.cancelled()) {
            stop.store(true);
            return true;
        }
        return false;
    }

    void fail(const char* where, const char* what) {
        if (error.empty()) error = std::string(where) + ": " + what;
        stop.store(true);
    }

    // Features of example i times `scale`, added to the class block `block` of a.
    void addExample(int i, double scale, int block) {
        double* target = a.data() + static_cast<Eigen::Index>(block) * features;
        if (data->sparseStorage) {
            for (Dataset::SparseMatrix::InnerIterator it(data->sparse, i); it; ++it)
                target[it.col()] += scale * it.value();
        } else {
            Eigen::Map<Eigen::VectorXd>(target, d) += scale * data->dense.row(i).transpose();
        }
        if (bias) target[d] += scale;
    }

    // ⟨W_k, x_i⟩ (+ bias) of every class k, into scratch.
    void scoresOf(int i) {
        for (int k = 0; k < classes; ++k)
            scratch(k) = bias ? W(static_cast<Eigen::Index>(k) * features + d) : 0.0;
        if (data->sparseStorage) {
            for (Dataset::SparseMatrix::InnerIterator it(data->sparse, i); it; ++it) {
                for (int k = 0; k < classes; ++k)
                    scratch(k) +=
                        it.value() * W(static_cast<Eigen::Index>(k) * features + it.col());
            }
        } else {
            for (int k = 0; k < classes; ++k)
                scratch(k) +=
                    data->dense.row(i).dot(W.segment(static_cast<Eigen::Index>(k) * features, d));
        }
    }

    // Stores a (sparse) as the plane number nSel and fills libocas's new Hessian column.
    int storeCut(double* newColH, std::uint32_t nSel) {
        if (nSel != cuts.size()) {
            fail("add_new_cut", "libocas's plane count disagrees with the stored cuts");
            return -1;
        }
        Eigen::SparseVector<double> cut(a.size());
        for (Eigen::Index j = 0; j < a.size(); ++j)
            if (a(j) != 0.0) cut.insertBack(j) = a(j);
        for (std::uint32_t j = 0; j < nSel; ++j)
            newColH[j] = cuts[j].dot(a);
        newColH[nSel] = a.squaredNorm();
        cuts.push_back(std::move(cut));
        return 0;
    }

    // ---- libocas callbacks: called from C, so nothing may throw through them. ----

    // W ← Σ αᵢ aᵢ (keeping the previous W), its squared norm and ⟨W, W_old⟩.
    static void computeW(double* sqNormW, double* dpWoldW, double* alpha, std::uint32_t nSel,
                         void* user) {
        Run& r = *static_cast<Run*>(user);
        try {
            r.oldW.swap(r.W);
            r.W.setZero();
            const std::uint32_t n = std::min<std::uint32_t>(nSel, r.cuts.size());
            for (std::uint32_t j = 0; j < n; ++j)
                if (alpha[j] > 0) r.W += alpha[j] * r.cuts[j];
            r.wModel = r.W;
            *sqNormW = r.W.squaredNorm();
            *dpWoldW = r.W.dot(r.oldW);
        } catch (const std::exception& e) {
            r.fail("compute_W", e.what());
            *sqNormW = 0.0;
            *dpWoldW = 0.0;
        }
    }

    // OCAS's line-search update W ← (1 − t) W_old + t W; returns ‖W‖².
    static double updateW(double t, void* user) {
        Run& r = *static_cast<Run*>(user);
        r.W = (1.0 - t) * r.oldW + t * r.W;
        return r.W.squaredNorm();
    }

    // A libocas callback that returns 0 or −1: −1 when the run is stopping (checked first and,
    // through stopAt(), every kPollEvery examples) or when body throws (recorded as `what`).
    template <class Body>
    static int guarded(void* user, const char* what, Body&& body) {
        Run& r = *static_cast<Run*>(user);
        try {
            if (r.stopping()) return -1;
            return body(r);
        } catch (const std::exception& e) {
            r.fail(what, e.what());
            return -1;
        }
    }
    // Whether a pass at its i-th example should give up (a stop was asked for).
    bool stopAt(std::uint32_t i) { return i % kPollEvery == 0 && i > 0 && stopping(); }

    // Binary: a = Σ_{i ∈ cut} yᵢ x̃ᵢ, the negative subgradient of the hinge sum.
    static int addNewCut(double* newColH, std::uint32_t* newCut, std::uint32_t cutLength,
                         std::uint32_t nSel, void* user) {
        return guarded(user, "add_new_cut", [&](Run& r) {
            r.a.setZero();
            for (std::uint32_t c = 0; c < cutLength; ++c) {
                if (r.stopAt(c)) return -1;
                const int i = static_cast<int>(newCut[c]);
                r.addExample(i, r.y[static_cast<std::size_t>(i)], 0);
            }
            return r.storeCut(newColH, nSel);
        });
    }

    // Multi-class: for every i whose chosen class ŷ = newCut[i] differs from yᵢ,
    // a(:, yᵢ) += x̃ᵢ and a(:, ŷ) −= x̃ᵢ.
    static int addNewCutMulticlass(double* newColH, std::uint32_t* newCut, std::uint32_t nSel,
                                   void* user) {
        return guarded(user, "add_new_cut", [&](Run& r) {
            r.a.setZero();
            for (int i = 0; i < r.m; ++i) {
                if (r.stopAt(static_cast<std::uint32_t>(i))) return -1;
                const int yi = static_cast<int>(r.y[static_cast<std::size_t>(i)]) - 1;
                const int chosen = static_cast<int>(newCut[i]);
                if (chosen == yi) continue;
                r.addExample(i, 1.0, yi);
                r.addExample(i, -1.0, chosen);
            }
            return r.storeCut(newColH, nSel);
        });
    }

    // Binary outputs yᵢ⟨W, x̃ᵢ⟩ at output[i]; multi-class ⟨W_k, x̃ᵢ⟩ at output[i·K + k]
    // (libocas's K × m column-major).
    static int computeOutput(double* output, void* user) {
        return guarded(user, "compute_output", [&](Run& r) {
            for (int i = 0; i < r.m; ++i) {
                if (r.stopAt(static_cast<std::uint32_t>(i))) return -1;
                r.scoresOf(i);
                if (r.multiclass) {
                    for (int k = 0; k < r.classes; ++k)
                        output[static_cast<std::size_t>(i) * r.classes + k] = r.scratch(k);
                } else {
                    output[i] = r.y[static_cast<std::size_t>(i)] * r.scratch(0);
                }
            }
            ++r.outputCalls;
            return 0;
        });
    }

    static int sortByValue(double* values, double* data, std::uint32_t size) {
        try {
            thread_local std::vector<std::pair<double, double>> pairs;
            pairs.resize(size);
            for (std::uint32_t i = 0; i < size; ++i)
                pairs[i] = {values[i], data[i]};
            std::sort(pairs.begin(), pairs.end(),
                      [](const auto& x, const auto& z) { return x.first < z.first; });
            for (std::uint32_t i = 0; i < size; ++i) {
                values[i] = pairs[i].first;
                data[i] = pairs[i].second;
            }
            return 0;
        } catch (const std::exception&) {
            if (current) current->fail("sort", "out of memory");
            return -1;
        }
    }

    // Once per iteration, after libocas has computed Q_P and Q_D: publish, then wait for the
    // next step() (or a stop). Iteration 0 (its initial state, W = 0) is not published.
    static void print(ocas_return_value_T s) {
        Run* r = current;
        if (r == nullptr || s.nIter == 0) return;
        try {
            r->publish(s);
        } catch (const std::exception& e) {
            r->fail("ocas_print", e.what());
        }
    }

    void publish(const ocas_return_value_T& s) {
        std::unique_lock<std::mutex> lock(mutex);
        state.iterations = static_cast<int>(s.nIter);
        state.planes = static_cast<int>(s.nCutPlanes);
        state.activePlanes = static_cast<int>(s.nNZAlpha);
        state.trainErrors = static_cast<int>(s.trn_err);
        state.qp = s.Q_P;
        state.qd = s.Q_D;
        state.qpExitflag = s.qp_exitflag;
        state.ocasSeconds = s.ocas_time;
        predictedExit = libocasExitAfter(s, tolRel, tolAbs, qpBound, maxTime, bufSize);
        publishedCalls = outputCalls;
        wPublished = W;
        wModelPublished = wModel;
        ++published;
        cv.notify_all();
        while (!go && !stop.load()) {
            if (cv.wait_for(lock, kCancelPoll) == std::cv_status::timeout && cancel.cancelled())
                stop.store(true);
        }
        go = false;
    }
};

thread_local LibocasSolver::Run* LibocasSolver::Run::current = nullptr;

// ---------------------------------------------------------------------------------------------
// The solver

namespace {
constexpr int kLibocasStallIterations = 10;
}  // namespace

LibocasSolver::LibocasSolver(const LinearProblem& problem, LibocasOptions options)
    : LinearSvmSolver(problem, options.model, options.stop, kOwner),
      libocasOptions_(std::move(options)) {
    if (!acceptOptions(libocasOptions_)) return;
    // Without a nonzero feature every plane libocas builds is zero and its inner QP
    // degenerates: each iteration took longer than the last, for minutes.
    if (problem_.train->nonZeros() == 0) {
        reject(std::string(kOwner) + ": every feature of the training set '" +
               problem_.train->name +
               "' is zero, on which libocas's inner QP degenerates; ocas, bmrm or dcd solve it "
               "(w = 0)");
        return;
    }
    multiclass_ = risk_->options().loss == LossKind::Multiclass;
    // msvm_ocas_solver keeps two m × K output matrices (its current and previous scores).
    if (!acceptMemory(multiclass_ ? 2 : 0, 0, kOwner)) return;
    const StopOptions& stop = libocasOptions_.stop;
    tolRel_ = std::max(stop.tol_rel, kMinTolRel);
    tolAbs_ = stop.epsilon / lambda_;
    wBest_ = Eigen::VectorXd::Zero(risk_->dimension());
    wModel_ = wBest_;
    wCurrent_ = wBest_;

    // Iteration 0 is libocas's initial state: w = 0, where every margin is 0, so
    // F(0) = R(0) = 1 for both hinge losses (its Q_P = C·m); F ≥ 0 bounds below.
    const double qp0 = C() * problem_.train->size();
    IterationRecord initial;
    initial.upper = 1.0;
    initial.lower = 0.0;
    initial.extra = commonExtras(0, 0, 1.0, wBest_);
    initial.extra.insert(initial.extra.end(), {0.0, qp0, 0.0, 0.0});
    state_.qp = qp0;
    state_.trainErrors = problem_.train->size();
    bestTrainError_ = 1.0;
    setInitialRecord(initial);
}

LibocasSolver::~LibocasSolver() {
    stopRun("the solver was destroyed");
}

bool LibocasSolver::threadRunning() const {
    return run_ != nullptr;
}

std::vector<std::string> LibocasSolver::extraColumns() const {
    std::vector<std::string> columns = commonColumns();
    columns.insert(columns.end(), {"libocas_iter", "q_p", "q_d", "qp_exitflag"});
    return columns;
}

std::vector<std::string> LibocasSolver::pseudocode() const {
    return {
        "input: data, C = 1/(lambda m), TolRel, TolAbs;  w_b = w_c = 0;  Q_P = C m",
        "repeat                                   (libocas's own loop, on its thread)",
        "  add the cut a_t: subgradient of the risk at w_c          (add_new_cut)",
        "  alpha <- reduced dual QP over the t planes (libqp);  Q_D <- its value",
        "  w_t <- sum_i alpha_i a_i                                 (compute_W)",
        "  outputs <w_t, x_i> for every example                     (compute_output)",
        "  ocas: exact line search k;  w_b <- w_b + k (w_t - w_b);  w_c <- 0.9 w_b + 0.1 w_t",
        "  bmrm: w_b <- w_c <- w_t",
        "  Q_P <- 1/2 |w_b|^2 + C sum_i loss_i(w_b);  report        (ocas_print)",
        "until Q_P - Q_D <= TolRel |Q_P|  or  Q_P - Q_D <= TolAbs",
    };
}

Status LibocasSolver::startRun() {
    const Dataset& data = *problem_.train;
    auto run = std::make_unique<Run>();
    run->data = problem_.train.get();
    run->m = data.size();
    run->d = data.dimension();
    run->bias = libocasOptions_.model.bias;
    run->features = run->d + (run->bias ? 1 : 0);
    run->classes = risk_->outputs();
    run->multiclass = multiclass_;
    // Risk's classes: labels −1/+1 are classes 0/1 for the multi-class loss, else the label.
    const bool plusMinus = (data.labels.array() == 1.0 || data.labels.array() == -1.0).all();
    run->y.resize(static_cast<std::size_t>(run->m));
    for (int i = 0; i < run->m; ++i) {
        const double label = data.labels(i);
        const double k = plusMinus ? (label > 0 ? 1.0 : 0.0) : label;
        run->y[static_cast<std::size_t>(i)] = multiclass_ ? k + 1.0 : label;
    }
    run->C = C();
    run->tolRel = tolRel_;
    run->tolAbs = tolAbs_;
    run->bufSize = libocasOptions_.bufferSize();
    run->method = libocasOptions_.method == "bmrm" ? 0 : 1;
    run->cancel = cancelToken();
    const Eigen::Index dim = risk_->dimension();
    run->W = Eigen::VectorXd::Zero(dim);
    run->oldW = run->W;
    run->wModel = run->W;
    run->a = run->W;
    run->scratch = Eigen::VectorXd::Zero(run->classes);
    run->cuts.reserve(run->bufSize);

    // Taken last, so that nothing but starting the thread can fail while it is held.
    bool expected = false;
    if (!gLibocasBusy.compare_exchange_strong(expected, true)) {
        return Status::make(
            StatusCode::NumericalFailure,
            "another libocas run is live in this process; libocas keeps its working buffers in "
            "file-scope statics (H, BufSize), so runs cannot overlap: finish, cancel or destroy "
            "the other LibocasSolver first");
    }
    try {
        run->thread = std::thread(&Run::main, run.get());
    } catch (const std::system_error& e) {
        gLibocasBusy.store(false);
        return Status::make(StatusCode::NumericalFailure,
                            std::string("cannot start the libocas thread: ") + e.what());
    }
    run_ = std::move(run);
    exitText_ = "running";
    return Status::running();
}

void LibocasSolver::stopRun(const std::string& reason) {
    if (!run_) return;
    run_->stop.store(true);
    {
        std::lock_guard<std::mutex> lock(run_->mutex);
        run_->cv.notify_all();
    }
    if (run_->thread.joinable()) run_->thread.join();
    exitflag_ = run_->result.exitflag;
    exitText_ = exitflag_ == -2 && run_->publishedError.empty()
                    ? "stopped by cplab: " + reason
                    : describeExitflag(exitflag_) +
                          (run_->publishedError.empty() ? "" : " (" + run_->publishedError + ")");
    run_.reset();
}

Status LibocasSolver::startOrResume(long long* seen) {
    if (!run_) {
        if (state_.iterations > 0 || exitflag_ != 0) {
            return Status::make(StatusCode::NumericalFailure,
                                "libocas has already returned (" + exitText_ + ")");
        }
        return startRun();
    }
    std::lock_guard<std::mutex> lock(run_->mutex);
    *seen = run_->published;
    run_->go = true;
    run_->cv.notify_all();
    return Status::running();
}

bool LibocasSolver::takeIteration(long long seen, IterationRecord& record, int* predictedExit) {
    Run& run = *run_;
    std::unique_lock<std::mutex> lock(run.mutex);
    run.cv.wait(lock, [&] { return run.published > seen || run.done; });
    if (run.published == seen) return false;
    state_ = run.state;
    *predictedExit = run.predictedExit;
    record.oracleCalls = run.publishedCalls;
    wCurrent_ = run.wPublished;
    wModel_ = run.wModelPublished;
    return true;
}

Status LibocasSolver::returnedWithoutIteration(IterationRecord& record) {
    // Cancelled while it computed (the callbacks saw the token), or a callback failed.
    record.extra = lastRecord().extra;
    const bool cancelled = cancelToken().cancelled();
    stopRun(cancelled ? "cancelled" : "libocas returned");
    if (cancelled) return Status::running();  // the base reports the cancellation
    return Status::make(StatusCode::NumericalFailure,
                        "libocas returned without a new iteration: " + exitText_);
}

Status LibocasSolver::finishedByLibocas() {
    // libocas stops on its own criterion right after this callback: let it return.
    {
        std::lock_guard<std::mutex> guard(run_->mutex);
        run_->go = true;
        run_->cv.notify_all();
    }
    stopRun("libocas finished");
    const std::string after = " after " + std::to_string(state_.iterations) + " iterations";
    if (exitflag_ == 1 || exitflag_ == 2) {
        return Status::make(StatusCode::Converged,
                            "libocas converged: " + describeExitflag(exitflag_) + " (exitflag " +
                                std::to_string(exitflag_) + ")" + after);
    }
    if (exitflag_ == -1) {
        return Status::make(
            StatusCode::IterationLimit,
            "libocas's buffer of buf_size = " + std::to_string(libocasOptions_.bufferSize()) +
                " cutting planes is full (exitflag -1)" + after);
    }
    return Status::make(StatusCode::NumericalFailure, "libocas stopped: " + exitText_ + after);
}

Status LibocasSolver::stopRulesAfter(IterationRecord& record,
                                     std::chrono::steady_clock::time_point start) {
    // When the stop rules end the run after this step, stop libocas now so that its thread
    // and buffers do not outlive the run. The gap and iteration rules use Solver::step's
    // expressions, so they agree with it exactly; the time limit is decided here (from the
    // time so far plus this step's, a hair less than what Solver::step will measure) so that
    // no run ends on time with libocas left parked. A token cancelled after this check is
    // seen by the parked thread itself within 50 ms.
    record.gap = record.upper - record.lower;
    const StopOptions& stop = stopOptions();
    if (stop.gapReached(record.gap, record.upper) || record.iteration >= stop.max_iterations ||
        cancelToken().cancelled()) {
        stopRun("the run ended on the stop rules");
        return Status::running();  // Solver::step names the rule
    }
    const double seconds =
        lastRecord().seconds +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (stop.max_seconds > 0 && seconds >= stop.max_seconds) {
        stopRun("max_seconds reached");
        return Status::make(StatusCode::TimeLimit,
                            "reached max_seconds = " + formatReal(stop.max_seconds) + " with gap " +
                                formatReal(record.gap));
    }
    // A shorter window than ours: when no feature separates any two examples (the same x
    // under different labels) libocas's inner QP takes longer at every iteration (0.4 s each
    // for two examples), and a stalled run would take minutes to reach 100.
    // libqp's exitflag 0: its 10⁷ iterations ran out before the reduced QP was solved.
    qpAtLimitFor_ = state_.qpExitflag == 0 ? qpAtLimitFor_ + 1 : 0;
    const int qpLimitStop = libocasOptions_.qp_limit_stop;
    if (qpLimitStop > 0 && qpAtLimitFor_ >= qpLimitStop) {
        stopRun("inner QP at its iteration limit");
        return Status::make(
            StatusCode::NumericalFailure,
            "libocas's inner QP ended at its iteration limit (qp_exitflag 0) in " +
                std::to_string(qpAtLimitFor_) +
                " iterations in a row: its reduced problem is too ill-conditioned for it (" +
                dataConditionNote() +
                "); ocas and bmrm solve such data, and qp_limit_stop=0 lets libocas go on");
    }
    const Status progress = progressStatus(record, kLibocasStallIterations);
    if (progress.finished()) stopRun("no progress");
    return progress;
}

Status LibocasSolver::doStep(IterationRecord& record) {
    const auto start = std::chrono::steady_clock::now();
    long long seen = 0;
    if (const Status started = startOrResume(&seen); started.finished()) return started;
    int predictedExit = 0;
    if (!takeIteration(seen, record, &predictedExit)) return returnedWithoutIteration(record);

    // One libocas iteration: its state is taken.
    const double m = problem_.train->size();
    const double upper = state_.qp * lambda_;
    if (upper < record.upper) {
        record.upper = upper;
        wBest_ = wCurrent_;
        bestTrainError_ = state_.trainErrors / m;
    }
    // Each Q_D is certified; keep the best one (the inner QP is solved to TolRel/2 only).
    record.lower = std::max(record.lower, state_.qd * lambda_);
    record.extra = commonExtras(state_.planes, state_.activePlanes, bestTrainError_, wBest_);
    record.extra.insert(record.extra.end(), {static_cast<double>(state_.iterations), state_.qp,
                                             state_.qd, static_cast<double>(state_.qpExitflag)});
    if (predictedExit != 0) return finishedByLibocas();
    return stopRulesAfter(record, start);
}

SnapshotPtr LibocasSolver::snapshot() const {
    auto s = std::make_shared<LinearSvmSnapshot>();
    fillLinearSnapshot(*s);
    if (!valid()) return s;
    if (state_.iterations > 0) {
        s->wModel = wModel_;
        // libocas takes its next cut at w_c = w_b + MU (w_t − w_b) with its MU = 0.1 (OCAS);
        // the plain cutting-plane method cuts at w_t.
        s->wCut = libocasOptions_.method == "ocas"
                      ? Eigen::VectorXd(0.9 * wCurrent_ + 0.1 * wModel_)
                      : wModel_;
        s->executedLines = {kRepeat,  kAddCut,
                            kQp,      kComputeW,
                            kOutputs, libocasOptions_.method == "ocas" ? kLineSearch : kBmrmUpdate,
                            kReport};
        if (status().finished()) s->executedLines.push_back(kUntil);
    } else {
        s->executedLines = {kInput};
    }
    return s;
}

SummaryFields LibocasSolver::familySummary() const {
    return {{"method", libocasOptions_.method},
            {"libocas_exitflag", static_cast<double>(exitflag_)},
            {"libocas_exit", exitText_},
            {"libocas_iterations", static_cast<double>(state_.iterations)},
            {"Q_P", state_.qp},
            {"Q_D", state_.qd},
            {"TolRel", tolRel_},
            {"TolAbs", tolAbs_},
            {"buf_size", static_cast<double>(libocasOptions_.bufferSize())},
            {"active_planes", static_cast<double>(state_.activePlanes)}};
}

}  // namespace cplab
