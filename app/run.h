// One run as the GUI sees it: which solver with which options, its colour, the full trace
// (every record), the newest snapshot and status. Owns the worker thread; destroying the run
// cancels, stops and joins it.
#pragma once

#include <QColor>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "run_worker.h"

class QThread;

namespace cplab {

struct ProblemInstance;

class Run : public QObject {
    Q_OBJECT
  public:
    Run(int id, std::shared_ptr<const ProblemInstance> problem, std::string solver,
        OptionValues options, QColor color, QObject* parent = nullptr);
    ~Run() override;

    int id() const { return id_; }
    const std::string& solver() const { return solver_; }
    const OptionValues& options() const { return options_; }
    QString label() const;
    QColor color() const { return color_; }

    bool ready() const { return ready_; }
    bool failed() const { return !error_.isEmpty(); }
    QString error() const { return error_; }
    const Status& status() const { return status_; }
    const std::vector<IterationRecord>& trace() const { return trace_; }
    int iteration() const { return trace_.empty() ? 0 : trace_.back().iteration; }
    const IterationRecord& lastRecord() const { return last_; }
    SnapshotPtr snapshot() const { return snapshot_; }
    const QStringList& pseudocode() const { return pseudocode_; }
    const QStringList& extraColumns() const { return extraColumns_; }
    double epsilon() const;

    void start();
    void pause();
    void step(int count = 1);
    void cancel();
    void setDelayMs(int milliseconds);

    // Writes the trace as CSV (all record columns); false and *why on failure.
    bool exportTrace(const QString& path, QString* why) const;

  signals:
    void becameReady(int id);
    void failedToStart(int id, QString message);
    void recordsAppended(int id, std::vector<cplab::IterationRecord> records);
    void snapshotChanged(int id);
    void statusChanged(int id);

  private:
    void onStarted(QStringList pseudocode, QStringList columns, RunUpdatePtr initial);
    void onUpdated(RunUpdatePtr update);

    int id_;
    std::shared_ptr<const ProblemInstance> problem_;
    std::string solver_;
    OptionValues options_;
    QColor color_;

    QThread* thread_;
    RunWorker* worker_;
    bool ready_ = false;
    QString error_;
    Status status_;
    IterationRecord last_;
    std::vector<IterationRecord> trace_;
    SnapshotPtr snapshot_;
    QStringList pseudocode_, extraColumns_;
};

}  // namespace cplab
