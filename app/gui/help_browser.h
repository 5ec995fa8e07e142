// SPDX-License-Identifier: GPL-3.0-or-later
// Help › Guide (F1): the README and the reference pages of docs/ (with their pictures and the
// built-in datasets' README) compiled into the app as Qt resources under :/guide (the layout of
// the source tree, so the pages' links between each other work) and shown as Markdown in a
// window of their own, a contents list beside the page. The same pages as the .deb installs
// under /usr/share/doc/cplab, but found wherever the app runs (a build tree, a system whose
// documentation folder was left out, as container images do).
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QListWidget;
class QTextBrowser;

namespace cplab {

class HelpBrowser : public QWidget {
    Q_OBJECT
  public:
    // The resource folder the pages are under, and the first page shown.
    static constexpr const char* kRoot = ":/guide";
    static constexpr const char* kHome = "README.md";

    explicit HelpBrowser(QWidget* parent = nullptr);

    // The pages of the contents list, as paths below kRoot ("README.md", "docs/gui.md").
    static QStringList pages();
    // Shows `page` (a path below kRoot, "#anchor" allowed); false when there is no such page.
    bool showPage(const QString& page);
    // The page shown, below kRoot, and the browser (tests read its text).
    QString currentPage() const;
    QTextBrowser* browser() const { return browser_; }

    // The window's one guide, made on first use, shown and raised at `page`.
    static HelpBrowser* open(QWidget* window, const QString& page = kHome);

  private:
    void onSourceChanged(const QUrl& url);

    QListWidget* contents_;
    QTextBrowser* browser_;
};

}  // namespace cplab
