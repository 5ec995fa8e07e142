// SPDX-License-Identifier: GPL-3.0-or-later
#include "map_problem_controls.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QToolButton>

namespace cplab::widgets {

MapProblemControls::MapProblemControls(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    evidence_ = new QLineEdit(this);
    evidence_->setObjectName("mapEvidence");
    evidence_->setPlaceholderText(tr("automatic: <model>.evid"));
    evidence_->setToolTip(
        tr("UAI evidence file (.evid) whose variables are clamped when a model is loaded; "
           "empty: the model's <file>.evid when there is one; 'none': no evidence"));
    auto* browse = new QToolButton(this);
    browse->setText(tr("..."));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Evidence file"), {}, tr("UAI evidence (*.evid);;All files (*)"));
        if (!path.isEmpty()) evidence_->setText(path);
    });
    row->addWidget(evidence_);
    row->addWidget(browse);
    form->addRow(tr("Evidence"), row);
    // The generated models' options (app/registry/families/map.cpp), as the CLI's --problem-set
    // takes them.
    modelOptions_ = new QLineEdit(this);
    modelOptions_->setObjectName("mapModelOptions");
    modelOptions_->setPlaceholderText(tr("e.g. smoothness=10 labels=4"));
    modelOptions_->setToolTip(
        tr("Options of the generated models (map_random_grid, map_complete_graph, "
           "map_potts_image, map_stereo_tsukuba and PNG files) as key=value pairs separated by "
           "spaces, used when the problem is loaded: seed, width, height, nodes, labels, "
           "coupling, unary, image, mode (grey or colour), smoothness, downsample, disparities, "
           "truncation, data_truncation"));
    form->addRow(tr("Model options"), modelOptions_);
}

OptionValues MapProblemControls::problemOptions() const {
    OptionValues values;
    // key=value words; a word without '=' is passed on with an empty value, so that the
    // family's check names it instead of it being dropped silently.
    for (const QString& word :
         modelOptions_->text().split(QRegularExpression("[\\s,;]+"), Qt::SkipEmptyParts)) {
        const qsizetype eq = word.indexOf('=');
        values[(eq < 0 ? word : word.left(eq)).toStdString()] =
            eq < 0 ? std::string() : word.mid(eq + 1).toStdString();
    }
    const QString path = evidence_->text().trimmed();
    if (!path.isEmpty()) values["evidence"] = path.toStdString();
    return values;
}

}  // namespace cplab::widgets
