// SPDX-License-Identifier: GPL-3.0-or-later
#include "pseudocode_panel.h"

#include <QFontDatabase>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "plot_style.h"

namespace cplab::widgets {

PseudocodePanel::PseudocodePanel(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), text_(new QTextBrowser(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title_);
    layout->addWidget(text_);
    title_->setObjectName("pseudocodeTitle");
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    text_->setObjectName("pseudocodeText");
    text_->setOpenLinks(false);
    text_->setLineWrapMode(QTextEdit::WidgetWidth);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSize(9);
    text_->setFont(mono);
}

void PseudocodePanel::setPseudocode(const QString& title, const std::vector<std::string>& lines) {
    title_->setText(title);
    lines_ = lines;
    executed_.clear();
    current_ = -1;
    render();
}

void PseudocodePanel::setExecuted(const std::vector<int>& lines) {
    if (lines == executed_) return;
    executed_ = lines;
    current_ = lines.empty() ? -1 : lines.back();
    render();
}

void PseudocodePanel::clear() {
    title_->clear();
    lines_.clear();
    executed_.clear();
    current_ = -1;
    text_->clear();
}

QString PseudocodePanel::html() const {
    return text_->toHtml();
}

void PseudocodePanel::render() {
    QString html = "<table cellspacing='0' cellpadding='2' width='100%'>";
    for (int k = 0; k < static_cast<int>(lines_.size()); ++k) {
        const bool isCurrent = k == current_;
        const bool wasRun = std::find(executed_.begin(), executed_.end(), k) != executed_.end();
        const QString background = isCurrent ? colors::kCurrentLine.name()
                                   : wasRun  ? colors::kExecutedLine.name()
                                             : QString("#ffffff");
        // Indentation is kept (non-breaking spaces); long lines wrap at the panel's width.
        const QString line = QString::fromStdString(lines_[static_cast<std::size_t>(k)]);
        qsizetype indent = 0;
        while (indent < line.size() && line[indent] == ' ')
            ++indent;
        const QString code = QString("&nbsp;").repeated(indent) + line.mid(indent).toHtmlEscaped();
        html += QString(
                    "<tr style='background:%1'><td style='color:%5' align='right'>%2</td>"
                    "<td style='color:%6'>%3</td><td>%4</td></tr>")
                    .arg(background, QString::number(k), isCurrent ? "&#9654;" : "", code,
                         colors::kNote.name(), colors::kLineNumber.name());
    }
    html += "</table>";
    text_->setHtml(html);
}

}  // namespace cplab::widgets
