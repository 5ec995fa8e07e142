#include "run.h"

#include <QThread>
#include <algorithm>
#include <cmath>

#include "core/trace_csv.h"
#include "registry.h"

namespace cplab {

Run::Run(int id, std::shared_ptr<const ProblemInstance> problem, std::string solver,
         OptionValues options, QColor color, QObject* parent)
    : QObject(parent),
      id_(id),
      problem_(std::move(problem)),
      solver_(std::move(solver)),
      options_(std::move(options)),
      color_(color),
      thread_(new QThread(this)) {
    auto factory = [problem = problem_, name = solver_, values = options_](std::string* why) {
        return makeSolver(name, *problem, values, why);
    };
    worker_ = new RunWorker(std::move(factory));
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &RunWorker::started, this, &Run::onStarted, Qt::QueuedConnection);
    connect(worker_, &RunWorker::updated, this, &Run::onUpdated, Qt::QueuedConnection);
    connect(
        worker_, &RunWorker::failed, this,
        [this](const QString& message) {
            error_ = message;
            status_ = Status::make(StatusCode::InvalidInput, message.toStdString());
            emit failedToStart(id_, message);
            emit statusChanged(id_);
        },
        Qt::QueuedConnection);
    thread_->setObjectName(QString("run-%1").arg(id_));
    thread_->start();
    QMetaObject::invokeMethod(worker_, &RunWorker::initialize, Qt::QueuedConnection);
}

Run::~Run() {
    worker_->cancel();
    thread_->quit();
    thread_->wait();
}

QString Run::label() const {
    QString text = QString("#%1 %2").arg(id_).arg(QString::fromStdString(solver_));
    QStringList parts;
    for (const auto& [name, value] : options_) {
        parts << QString::fromStdString(name + "=" + value);
    }
    if (!parts.isEmpty()) text += " (" + parts.join(", ") + ")";
    return text;
}

double Run::epsilon() const {
    // The option's value, else its default; the relative rule tol_rel (linear models) counts
    // as tol_rel·|U| with the newest upper bound.
    auto value = [this](const std::string& name, double fallback) {
        const auto it = options_.find(name);
        try {
            if (it != options_.end()) return std::stod(it->second);
            for (const auto& o : findSolver(solver_)->options) {
                if (o.name == name) return std::stod(o.defaultValue);
            }
        } catch (...) {
        }
        return fallback;
    };
    const double epsilon = value("epsilon", 1e-6);
    const double tolRel = value("tol_rel", 0.0);
    const double upper = std::isfinite(last_.upper) ? std::abs(last_.upper) : 1.0;
    return std::max(epsilon, tolRel * upper);
}

void Run::start() {
    worker_->requestRun();
}
void Run::pause() {
    worker_->requestPause();
}
void Run::step(int count) {
    worker_->requestSteps(count);
}
void Run::cancel() {
    worker_->cancel();
}
void Run::setDelayMs(int milliseconds) {
    worker_->setDelayMs(milliseconds);
}

void Run::onStarted(QStringList pseudocode, QStringList columns, RunUpdatePtr initial) {
    pseudocode_ = std::move(pseudocode);
    extraColumns_ = std::move(columns);
    ready_ = true;
    status_ = initial->status;
    snapshot_ = initial->snapshot;
    if (snapshot_) last_ = snapshot_->record;
    emit becameReady(id_);
    emit snapshotChanged(id_);
    emit statusChanged(id_);
}

void Run::onUpdated(RunUpdatePtr update) {
    if (!update->records.empty()) {
        trace_.insert(trace_.end(), update->records.begin(), update->records.end());
        last_ = trace_.back();
        emit recordsAppended(id_, update->records);
    }
    if (update->snapshot) {
        snapshot_ = update->snapshot;
        emit snapshotChanged(id_);
    }
    const bool statusChangedNow = update->status.code != status_.code;
    status_ = update->status;
    if (statusChangedNow || !update->records.empty()) emit statusChanged(id_);
}

bool Run::exportTrace(const QString& path, QString* why) const {
    std::vector<std::string> columns;
    for (const auto& c : extraColumns_)
        columns.push_back(c.toStdString());
    std::string message;
    if (!writeTraceCsv(path.toStdString(), trace_, columns, &message)) {
        if (why) *why = QString::fromStdString(message);
        return false;
    }
    return true;
}

}  // namespace cplab
