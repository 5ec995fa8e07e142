// The main window (DESIGN.md, "GUI"): problem and solver panel with a generated options
// form, run controls, the family's view and the race view in the centre, pseudocode, log, and
// a progress bar of the selected run's gap toward ε. It only wires: solvers run in Run
// workers, plots draw snapshots.
#pragma once

#include <QMainWindow>
#include <map>
#include <memory>
#include <vector>

#include "core/options.h"

class QDoubleSpinBox;
class QSpinBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QStackedWidget;
class QTableWidget;
class QAction;

namespace cplab {

struct ProblemInstance;
class Run;
class OptionForm;

namespace widgets {
class BoundsPlot;
class CuttingPlanePlot;
class LinearModelPlot;
class PolytopePlot;
class PseudocodePanel;
class LogPanel;
class GapProgress;
}  // namespace widgets

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a built-in demo (problem and its runs, paused at iteration 0).
    bool loadDemo(const QString& name);
    // Switches to a built-in problem with one run of the selected solver.
    bool loadProblem(const QString& name);
    // Loads a data file (LIBSVM/SVMlight or CSV) as a linear problem, with an optional test
    // file or the held-out fraction/seed of the test-split controls; errors go to the log
    // and *why.
    bool loadDataFile(const QString& path, const QString& testPath, QString* why);
    // Adds a run of `solver` with `options` on the current problem; false and *why if the
    // options are invalid.
    bool addRun(const std::string& solver, const OptionValues& options, QString* why);

    // Removes every run of the current problem (the problem stays).
    void clearRunsOnly() { clearRuns(); }

    int runCount() const { return static_cast<int>(runs_.size()); }
    Run* run(int index) const;
    Run* selectedRun() const;
    void selectRun(int index);
    const ProblemInstance* problem() const { return problem_.get(); }

    widgets::CuttingPlanePlot* cuttingPlanePlot() const { return cuttingPlanePlot_; }
    widgets::PolytopePlot* polytopePlot() const { return polytopePlot_; }
    widgets::LinearModelPlot* linearModelPlot() const { return linearPlot_; }
    widgets::BoundsPlot* boundsPlot() const { return boundsPlot_; }
    widgets::PseudocodePanel* pseudocodePanel() const { return pseudocode_; }

    // Exports; false with *why on failure.
    bool exportModelPlot(const QString& path, QString* why);
    bool exportBoundsPlot(const QString& path, QString* why);
    bool exportSelectedTrace(const QString& path, QString* why);

    // Run controls (what the buttons do), applied to every run of the problem.
    void runAll();
    void pauseAll();
    void stepAll(int count);
    void resetAll();
    void cancelAll();
    void setDelayMs(int milliseconds);

  signals:
    void runsChanged();

  private:
    void buildUi();
    void buildMenus();
    void populateProblems();
    void onProblemChosen(int index);
    void onSolverChosen(int index);
    void onDemoChosen(int index);
    void setProblem(std::shared_ptr<const ProblemInstance> problem);
    void populateSolvers();
    void clearRuns();
    std::unique_ptr<Run> createRun(int id, const std::string& solver, const OptionValues& options);
    void onRunReady(int id);
    void onRunSnapshot(int id);
    void onRunStatus(int id);
    void refreshRunRow(int id);
    void refreshSelection();
    void updateStatusLine();
    void applyToSelected();
    void removeSelected();
    void updateButtons();
    int rowOf(int id) const;
    Run* runById(int id) const;
    QWidget* currentView() const;
    void exportDialog(const QString& what);

    std::shared_ptr<const ProblemInstance> problem_;
    std::vector<std::unique_ptr<Run>> runs_;
    int nextRunId_ = 1;
    int selectedId_ = -1;
    int delayMs_ = 100;
    std::map<int, bool> finishedLogged_;

    // Left panel.
    QComboBox* demoCombo_ = nullptr;
    QComboBox* problemCombo_ = nullptr;
    QLabel* problemDescription_ = nullptr;
    QComboBox* solverCombo_ = nullptr;
    QLabel* solverDescription_ = nullptr;
    OptionForm* optionForm_ = nullptr;
    QPushButton* addRunButton_ = nullptr;
    QPushButton* applyButton_ = nullptr;
    QPushButton* removeButton_ = nullptr;
    QTableWidget* runTable_ = nullptr;
    // Controls.
    QPushButton* runButton_ = nullptr;
    QPushButton* pauseButton_ = nullptr;
    QPushButton* stepButton_ = nullptr;
    QPushButton* step10Button_ = nullptr;
    QPushButton* resetButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QSlider* delaySlider_ = nullptr;
    QLabel* delayLabel_ = nullptr;
    QComboBox* xAxisCombo_ = nullptr;
    // Centre and docks.
    QStackedWidget* viewStack_ = nullptr;
    QLabel* emptyView_ = nullptr;
    widgets::CuttingPlanePlot* cuttingPlanePlot_ = nullptr;
    widgets::PolytopePlot* polytopePlot_ = nullptr;
    widgets::LinearModelPlot* linearPlot_ = nullptr;
    QWidget* splitControls_ = nullptr;  // test fraction and seed (linear problems)
    QDoubleSpinBox* testFraction_ = nullptr;
    QSpinBox* splitSeed_ = nullptr;
    widgets::BoundsPlot* boundsPlot_ = nullptr;
    widgets::PseudocodePanel* pseudocode_ = nullptr;
    widgets::LogPanel* log_ = nullptr;
    widgets::GapProgress* progress_ = nullptr;
    QLabel* statusLine_ = nullptr;
};

}  // namespace cplab
