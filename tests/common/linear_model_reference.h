// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI tests' own reading of linear data and model files, independent of cplab's readers:
// LIBSVM and CSV examples (Data, readData), the linear model file that `run --model` writes
// (Model, readModel), and the model applied to the data (evaluate: predictions, error and the
// objective F(w) = λ/2‖w‖² + (1/m) Σ ℓ). Header-only, for the black-box tests in tests/cli.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace cplab::clitest {

inline QString number(double x) {
    return QString::number(x, 'g', 17);
}

// ---- Reading the data formats (docs/formats.md, "Feature vectors: LIBSVM / SVMlight and
// CSV") ----

struct Example {
    std::vector<std::pair<int, double>> x;  // (1-based feature index, value)
    QString label;                          // the label as written in the file
};

struct Data {
    std::vector<Example> examples;
    int dimension = 0;  // the largest feature index
    bool textLabels = false;
    QStringList classNames;  // text labels: the distinct labels in sorted (byte) order

    int size() const { return static_cast<int>(examples.size()); }

    // The label as the CLI's numbers see it: the number written, or for text labels −1/+1
    // (two classes, in sorted order) or the class's rank (docs/linear.md: "Labels: any two
    // values become −1/+1; K classes become 0..K−1 in sorted order").
    double labelValue(const Example& e) const {
        if (!textLabels) return e.label.toDouble();
        const auto k = classNames.indexOf(e.label);
        if (classNames.size() == 2) return k == 0 ? -1.0 : 1.0;
        return static_cast<double>(k);
    }
    // The text the CLI writes for a predicted value (predict --out; docs/linear.md: "predictions
    // are written back in the file's label values").
    QString labelText(double value) const {
        if (textLabels && classNames.size() == 2 && (value == -1.0 || value == 1.0))
            return classNames[value < 0 ? 0 : 1];
        return number(value);
    }
};

inline bool isNumber(const QByteArray& text, double* value = nullptr) {
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (value) *value = v;
    return ok && std::isfinite(v);
}

inline bool readLibsvm(const QByteArray& bytes, Data* data, QString* why) {
    const QList<QByteArray> lines = bytes.split('\n');
    for (qsizetype n = 0; n < lines.size(); ++n) {
        QByteArray line = lines[n];
        const auto hash = line.indexOf('#');
        if (hash >= 0) line.truncate(hash);
        line = line.simplified();  // also drops CR and tabs
        if (line.isEmpty()) continue;
        const QList<QByteArray> tokens = line.split(' ');
        Example e;
        if (!isNumber(tokens[0])) {
            *why = QString("line %1: label '%2'").arg(n + 1).arg(QString(tokens[0]));
            return false;
        }
        e.label = QString::fromUtf8(tokens[0]);
        for (qsizetype t = 1; t < tokens.size(); ++t) {
            const auto colon = tokens[t].indexOf(':');
            bool indexOk = false;
            const int index = tokens[t].left(colon).toInt(&indexOk);
            double value = 0.0;
            if (colon < 0 || !indexOk || index < 1 || !isNumber(tokens[t].mid(colon + 1), &value)) {
                *why = QString("line %1: token '%2'").arg(n + 1).arg(QString(tokens[t]));
                return false;
            }
            e.x.emplace_back(index, value);
            data->dimension = std::max(data->dimension, index);
        }
        data->examples.push_back(std::move(e));
    }
    return true;
}

// Comma-separated, the label in the last column, a first line with a non-numeric feature field
// is a header. (No quoting: the fixtures have none.)
inline bool readCsv(const QByteArray& bytes, Data* data, QString* why) {
    const QList<QByteArray> lines = bytes.split('\n');
    bool first = true;
    for (qsizetype n = 0; n < lines.size(); ++n) {
        const QByteArray line = lines[n].trimmed();
        if (line.isEmpty()) continue;
        const QList<QByteArray> fields = line.split(',');
        if (first) {
            first = false;
            bool header = false;
            for (qsizetype j = 0; j + 1 < fields.size(); ++j)
                header = header || !isNumber(fields[j]);
            if (header) continue;
        }
        Example e;
        for (qsizetype j = 0; j + 1 < fields.size(); ++j) {
            double value = 0.0;
            if (!isNumber(fields[j], &value)) {
                *why = QString("line %1: field %2").arg(n + 1).arg(j + 1);
                return false;
            }
            e.x.emplace_back(static_cast<int>(j + 1), value);
        }
        if (data->size() > 0 && static_cast<int>(e.x.size()) != data->dimension) {
            *why = QString("line %1: %2 features").arg(n + 1).arg(e.x.size());
            return false;
        }
        data->dimension = static_cast<int>(e.x.size());
        e.label = QString::fromUtf8(fields.back().trimmed());
        data->textLabels = data->textLabels || !isNumber(fields.back());
        data->examples.push_back(std::move(e));
    }
    return true;
}

// A plain (not gzip) file under tests/data: CSV by its name, as the CLI decides, else LIBSVM.
inline bool readData(const QString& path, Data* data, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = path + ": cannot open";
        return false;
    }
    const QByteArray bytes = file.readAll();
    const bool ok =
        path.endsWith(".csv") ? readCsv(bytes, data, why) : readLibsvm(bytes, data, why);
    if (!ok) {
        *why = path + ": " + *why;
        return false;
    }
    if (data->textLabels) {
        std::set<QString> names;
        for (const Example& e : data->examples)
            names.insert(e.label);
        for (const QString& name : names)
            data->classNames << name;
    }
    return true;
}

// ---- Reading the model file format (docs/cli.md, "Model files (`--model`)") ----

struct Model {
    QString risk;
    bool bias = false;
    int features = -1;
    int outputs = -1;
    double lambda = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> classes;
    QStringList classNames;       // text labels' texts, one per class, or empty
    std::vector<double> weights;  // (features + bias) × outputs, one block per class
};

inline bool readModel(const QString& path, Model* model, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = path + ": cannot open";
        return false;
    }
    const QList<QByteArray> lines = file.readAll().split('\n');
    std::set<QByteArray> keys;
    bool inWeights = false;
    for (qsizetype n = 0; n < lines.size(); ++n) {
        const QByteArray line = lines[n].trimmed();
        if (line.isEmpty() || line.startsWith('#')) continue;
        auto fail = [&](const QString& what) {
            *why = QString("%1:%2: %3 in '%4'").arg(path).arg(n + 1).arg(what, QString(line));
            return false;
        };
        double value = 0.0;
        if (inWeights) {
            if (!isNumber(line, &value)) return fail("weight");
            model->weights.push_back(value);
            continue;
        }
        const auto space = line.indexOf(' ');
        const QByteArray key = space < 0 ? line : line.left(space);
        const QByteArray rest = space < 0 ? QByteArray() : line.mid(space + 1);
        if (!keys.insert(key).second) return fail("repeated key");
        if (key == "risk") {
            model->risk = QString::fromUtf8(rest);
            if (!QStringList{"hinge", "logistic", "squared_hinge", "multiclass",
                             "epsilon_insensitive"}
                     .contains(model->risk)) {
                return fail("risk");
            }
        } else if (key == "bias") {
            if (rest != "0" && rest != "1") return fail("bias");
            model->bias = rest == "1";
        } else if (key == "features" || key == "outputs") {
            bool ok = false;
            (key == "features" ? model->features : model->outputs) = rest.toInt(&ok);
            if (!ok) return fail(QString(key));
        } else if (key == "lambda") {
            if (!isNumber(rest, &model->lambda)) return fail("lambda");
        } else if (key == "classes") {
            for (const QByteArray& token : rest.simplified().split(' ')) {
                if (token.isEmpty()) continue;
                if (!isNumber(token, &value)) return fail("class");
                model->classes.push_back(value);
            }
        } else if (key == "class_name") {
            keys.erase(key);  // one line per class
            model->classNames.push_back(QString::fromUtf8(rest));
        } else if (key == "weights") {
            inWeights = true;
        } else {
            return fail("unknown key");
        }
    }
    for (const char* key : {"risk", "bias", "features", "outputs", "lambda", "classes"}) {
        if (!keys.count(key)) {
            *why = path + ": no '" + key + "' line";
            return false;
        }
    }
    if (!inWeights || model->features < 1 || model->outputs < 1) {
        *why = path + ": no weights, or features/outputs < 1";
        return false;
    }
    // docs/cli.md: two class values for a binary risk, one per output for multiclass, none for
    // regression; binary and regression risks have one output.
    const std::size_t classCount = model->classes.size();
    if (model->risk == "multiclass"
            ? classCount != 0 && classCount != std::size_t(model->outputs)
            : model->outputs != 1 ||
                  (model->risk != "epsilon_insensitive" && classCount != 0 && classCount != 2)) {
        *why = QString("%1: %2 outputs and %3 class values for risk %4")
                   .arg(path)
                   .arg(model->outputs)
                   .arg(classCount)
                   .arg(model->risk);
        return false;
    }
    const std::size_t expected =
        (static_cast<std::size_t>(model->features) + (model->bias ? 1 : 0)) *
        static_cast<std::size_t>(model->outputs);
    if (model->weights.size() != expected) {
        *why = QString("%1: %2 weights, expected %3")
                   .arg(path)
                   .arg(model->weights.size())
                   .arg(expected);
        return false;
    }
    return true;
}

// ---- Applying the model ----

struct Scores {
    std::vector<double> s;  // one per output
    double scale = 0.0;     // Σ |terms|, for telling a near-tie from a clear decision
};

inline Scores scores(const Model& model, const Example& e) {
    const int rows = model.features + (model.bias ? 1 : 0);
    Scores out;
    for (int k = 0; k < model.outputs; ++k) {
        const double* w = model.weights.data() + static_cast<std::size_t>(k) * rows;
        double s = model.bias ? w[model.features] : 0.0;
        double scale = std::abs(s);
        for (const auto& [index, value] : e.x) {
            if (index > model.features) continue;  // not reached: callers check the dimension
            s += w[index - 1] * value;
            scale += std::abs(w[index - 1] * value);
        }
        out.s.push_back(s);
        out.scale = std::max(out.scale, scale);
    }
    return out;
}

struct Evaluation {
    std::vector<double> predicted;  // in the model's class values, or the regression value
    int nearTies = 0;               // decisions within rounding of the boundary
    double error = 0.0;             // fraction misclassified, or mean absolute error
    double objective = 0.0;         // λ/2‖w‖² + (1/m) Σ ℓ(s_i, y_i)
};

// A logistic loss log(1 + e^z) that neither overflows nor loses small values.
inline double softplus(double z) {
    return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

// Applies `model` to every example of `data`; `tube` is the ε of the ε-insensitive loss (the
// model file does not hold it). *why when a label is not one of the model's classes.
inline Evaluation evaluate(const Model& model, const Data& data, double tube, QString* why) {
    Evaluation out;
    const bool regression = model.risk == "epsilon_insensitive";
    const bool multiclass = model.risk == "multiclass";
    double errorSum = 0.0, lossSum = 0.0;
    for (const Example& e : data.examples) {
        const Scores sc = scores(model, e);
        const double y = data.labelValue(e);
        const double tieBand = 1e-10 * sc.scale;
        if (regression) {
            const double s = sc.s[0];
            out.predicted.push_back(s);
            errorSum += std::abs(s - y);
            lossSum += std::max(0.0, std::abs(s - y) - tube);
            continue;
        }
        const auto yIt = std::find(model.classes.begin(), model.classes.end(), y);
        if (yIt == model.classes.end()) {
            *why = "label " + e.label + " is not a class of the model";
            return out;
        }
        const auto yClass = static_cast<std::size_t>(yIt - model.classes.begin());
        double predicted = 0.0;
        if (multiclass) {
            const auto best =
                static_cast<std::size_t>(std::max_element(sc.s.begin(), sc.s.end()) - sc.s.begin());
            for (std::size_t k = 0; k < sc.s.size(); ++k) {
                if (k != best && sc.s[best] - sc.s[k] <= tieBand) ++out.nearTies;
            }
            predicted = model.classes[best];
            double loss = 0.0;
            for (std::size_t k = 0; k < sc.s.size(); ++k)
                loss = std::max(loss, (k == yClass ? 0.0 : 1.0) + sc.s[k] - sc.s[yClass]);
            lossSum += loss;
        } else {
            const double s = sc.s[0];
            if (std::abs(s) <= tieBand && sc.scale > 0) ++out.nearTies;
            predicted = model.classes[s >= 0 ? 1 : 0];
            const double ys = (yClass == 1 ? 1.0 : -1.0) * s;
            if (model.risk == "hinge") lossSum += std::max(0.0, 1 - ys);
            if (model.risk == "squared_hinge") lossSum += std::pow(std::max(0.0, 1 - ys), 2);
            if (model.risk == "logistic") lossSum += softplus(-ys);
        }
        out.predicted.push_back(predicted);
        errorSum += predicted != y ? 1.0 : 0.0;
    }
    double norm2 = 0.0;
    for (double w : model.weights)
        norm2 += w * w;
    out.error = errorSum / data.size();
    out.objective = 0.5 * model.lambda * norm2 + lossSum / data.size();
    return out;
}

}  // namespace cplab::clitest
