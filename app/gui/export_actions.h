// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's exports (main_window.h): the view's plot, the whole view, the bounds plot
// and its data, the selected run's trace, the runs table, and the timeline as an animation;
// the File menu's entries for them and their dialogs. Each returns false (or null) with *why
// on failure. Pictures are PNG, PDF or SVG by the file's extension.
#pragma once

#include <QObject>
#include <QString>

class QMenu;

namespace cplab {

class AnimationExport;
struct AnimationSettings;
struct WindowContext;

class ExportActions : public QObject {
    Q_OBJECT
  public:
    explicit ExportActions(WindowContext& ctx);

    void addFileActions(QMenu* file);

    // The current view's plot (the tab shown).
    bool exportModelPlot(const QString& path, QString* why);
    // Every page (tab) of the current view as one figure, the pages under their titles.
    bool exportWholeView(const QString& path, QString* why);
    // The bounds plot of every run as a picture, or its data: every run's records on the
    // plot's x axis as CSV (.csv) or as a pgfplots document that draws the plot (.tex).
    bool exportBoundsPlot(const QString& path, QString* why);
    bool exportSelectedTrace(const QString& path, QString* why);
    // The runs table as CSV.
    bool exportRunsTable(const QString& path, QString* why);
    // Starts drawing the selected run's kept snapshots in settings' range into an animation
    // (animation_export.h) and returns the export, which the window owns and deletes after it
    // finished(); null with *why when there is no run or the settings are invalid.
    AnimationExport* exportAnimation(const AnimationSettings& settings, QString* why);

  private:
    void exportDialog(const QString& what);
    void exportAnimationDialog();
    // Runs exportAnimation with a progress dialog (Cancel) and reports the outcome.
    void startAnimationExport(const AnimationSettings& settings);
    QString problemName(const QString& fallback) const;

    WindowContext& ctx_;
};

}  // namespace cplab
