// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_browser.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace cplab {

namespace {

QUrl guideUrl(const QString& page) {
    return QUrl(QString("qrc") + HelpBrowser::kRoot + '/' + page);
}

// A page's first heading ("# Sessions"), else its file name.
QString guideTitle(const QString& page) {
    QFile file(QString(HelpBrowser::kRoot) + '/' + page);
    if (file.open(QIODevice::ReadOnly)) {
        for (int line = 0; line < 20 && !file.atEnd(); ++line) {
            const QString text = QString::fromUtf8(file.readLine()).trimmed();
            if (text.startsWith("# ")) return text.mid(2);
        }
    }
    return page;
}

}  // namespace

HelpBrowser::HelpBrowser(QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName("helpBrowser");
    setWindowTitle(tr("cplab guide"));
    contents_ = new QListWidget(this);
    contents_->setObjectName("helpContents");
    for (const QString& page : pages()) {
        auto* item = new QListWidgetItem(guideTitle(page), contents_);
        item->setData(Qt::UserRole, page);
        item->setToolTip(page);
    }
    browser_ = new QTextBrowser(this);
    browser_->setObjectName("helpText");
    // Links are followed here: pages of the guide in it, web addresses in the browser, and a
    // link to a file the guide does not hold (a test's README) says so.
    browser_->setOpenLinks(false);
    connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& link) {
        if (link.scheme() == "http" || link.scheme() == "https" || link.scheme() == "mailto") {
            QDesktopServices::openUrl(link);
            return;
        }
        const QUrl target = browser_->source().resolved(link);
        QString page = target.path().mid(static_cast<int>(QString(kRoot).size()));
        if (page.startsWith('/')) page = page.mid(1);
        if (target.hasFragment()) page += '#' + target.fragment();
        if (!showPage(page))
            browser_->setToolTip(tr("%1 is not part of the guide").arg(link.toString()));
    });
    connect(browser_, &QTextBrowser::sourceChanged, this, &HelpBrowser::onSourceChanged);
    connect(contents_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) showPage(contents_->item(row)->data(Qt::UserRole).toString());
    });
    auto* splitter = new QSplitter(this);
    splitter->addWidget(contents_);
    splitter->addWidget(browser_);
    splitter->setStretchFactor(1, 4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    resize(1000, 720);
    showPage(kHome);
}

QStringList HelpBrowser::pages() {
    QStringList pages = {kHome};
    const QDir docs(QString(kRoot) + "/docs");
    for (const QString& name : docs.entryList({"*.md"}, QDir::Files, QDir::Name))
        pages << "docs/" + name;
    pages << "resources/datasets/README.md";
    return pages;
}

bool HelpBrowser::showPage(const QString& page) {
    const QString path = page.section('#', 0, 0);
    if (!QFile::exists(QString(kRoot) + '/' + path)) return false;
    if (currentPage() != page) browser_->setSource(guideUrl(page), QTextDocument::MarkdownResource);
    return true;
}

QString HelpBrowser::currentPage() const {
    QString page = browser_->source().path().mid(static_cast<int>(QString(kRoot).size()));
    if (page.startsWith('/')) page = page.mid(1);
    if (browser_->source().hasFragment()) page += '#' + browser_->source().fragment();
    return page;
}

void HelpBrowser::onSourceChanged(const QUrl& url) {
    const QString page = currentPage().section('#', 0, 0);
    for (int row = 0; row < contents_->count(); ++row) {
        if (contents_->item(row)->data(Qt::UserRole).toString() != page) continue;
        const QSignalBlocker quiet(contents_);
        contents_->setCurrentRow(row);
    }
    if (url.hasFragment()) browser_->scrollToAnchor(url.fragment());
    setWindowTitle(tr("cplab guide - %1").arg(guideTitle(page)));
}

HelpBrowser* HelpBrowser::open(QWidget* window, const QString& page) {
    auto* guide = window->findChild<HelpBrowser*>("helpBrowser", Qt::FindDirectChildrenOnly);
    if (!guide) guide = new HelpBrowser(window);
    guide->showPage(page);
    guide->show();
    guide->raise();
    guide->activateWindow();
    return guide;
}

}  // namespace cplab
