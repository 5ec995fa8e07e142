// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's set-up dock (main_window.h), "Problem and solver": the demo, the problem
// with its family's controls, the solver with a generated options form, and below them,
// always in view, Add run / Apply to selected and the runs of the problem, one of them
// selected (the run the views, the pseudocode and the status line show).
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <string>

#include "core/options.h"
#include "family.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;
class QVBoxLayout;
class QWidget;

namespace cplab::widgets {
class TypedProblemControls;
}

namespace cplab {

struct ProblemInstance;

class OptionForm;
class Run;
struct WindowContext;

// The runs table's columns (the bounds are in the status line and the run's tooltip).
enum RunColumn { kColRun, kColStatus, kColIteration, kColGap, kColumnCount };

// The list of a narrow combo box as wide as its longest item (call after filling it).
void widenList(QComboBox* combo);
// A push button of the window's controls, named for tests and scripts, with its tooltip.
QPushButton* controlButton(const QString& text, const QString& name, const QString& tip,
                           QWidget* parent);

class SetupPanel : public QObject {
    Q_OBJECT
  public:
    // Builds the dock into ctx.window (after the centre: it holds the families' controls).
    explicit SetupPanel(WindowContext& ctx);

    // Choosing what to solve (main_window.h's loadDemo, loadProblem).
    bool loadDemo(const QString& name);
    bool loadProblem(const QString& name);
    // The problem with one run of the solver chosen (a data file read).
    void setProblemWithRun(ProblemPtr problem);
    // Shows the demo `name` as chosen (a session's), without loading it.
    void showDemo(const QString& name);
    // Asks before a new problem replaces runs (true: go on; also when there are none).
    bool confirmDiscardRuns();
    // The controller's new problem: the combo box, its description and controls, the solvers.
    void showProblem();
    // The problems of the catalogue (once the window's font is set) and the current problem's
    // solvers, the first chosen.
    void populateProblems();
    void populateSolvers();

    // The runs: their rows follow the controller's.
    void addRow(int id);
    void removeRow(int id);
    void replaceRow(int id);
    void clearRows();
    void refreshRunRow(int id);
    void refreshRunRows();
    // Every run's name in the table and the bounds plot's legend (run_names.h: a name says
    // what tells the run apart from the others, so one run added or removed renames others).
    void refreshRunNames();
    const QTableWidget* runTable() const { return runTable_; }

    // The selected run (its id -1, or null: none).
    int selectedId() const { return selectedId_; }
    Run* selectedRun() const;
    void selectRun(int index);
    void removeSelected();
    // The selected run's solver, options and pseudocode, and its frame in the views.
    void refreshSelection();
    void updateButtons();

  private:
    QWidget* buildSetupPanel(QWidget* parent);
    void connectTypedProblems(QWidget* problemBox);
    void showTypedProblems(const ProblemInstance* loaded);
    QWidget* buildRunsPanel(QWidget* parent);
    void connectSetup();
    void connectRuns();
    void onSolverChosen(int index);
    OptionValues problemOptions() const;
    void addRunFromForm();
    void applyToSelected();

    WindowContext& ctx_;
    int selectedId_ = -1;
    QComboBox* demoCombo_ = nullptr;
    QComboBox* problemCombo_ = nullptr;
    QLabel* problemDescription_ = nullptr;
    QVBoxLayout* problemLayout_ = nullptr;
    // The families' typed problems' fields (their views' problem controls).
    QList<widgets::TypedProblemControls*> typedControls_;
    QComboBox* solverCombo_ = nullptr;
    QLabel* solverDescription_ = nullptr;
    OptionForm* optionForm_ = nullptr;
    QPushButton* addRunButton_ = nullptr;
    QPushButton* applyButton_ = nullptr;
    QPushButton* removeButton_ = nullptr;
    QTableWidget* runTable_ = nullptr;
};

}  // namespace cplab
