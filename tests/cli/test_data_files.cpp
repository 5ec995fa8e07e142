// SPDX-License-Identifier: GPL-3.0-or-later
// The real cplab-cli executable on data files, black-box through QProcess (README, "Command
// line: cplab-cli", "Model files", "Data formats"): `run` on LIBSVM, gzip and CSV files, test
// sets from a file or from a seeded split, `--model` files read here by this file's own parser
// of the documented format and applied by this file's own code to its own reading of the data
// (predictions, errors and the objective F(w) = λ/2‖w‖² + (1/m) Σ ℓ), `predict` against those
// answers, and exit status 1 with a message on stderr (nothing on stdout) for every kind of bad
// data file, option and model file. Fixtures: tests/data, tests/data/cli (provenance in
// tests/data/README.md).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "cli_process.h"

using namespace cplab::clitest;

namespace {

const QString kData = QStringLiteral(CPLAB_TEST_DATA_DIR);

QString dataPath(const QString& relative) {
    return kData + "/" + relative;
}

// Options that keep every run short (the runs still converge: tol_rel is a stop rule).
const QStringList kFast{"--quiet", "--set", "tol_rel=1e-2"};

bool closeTo(double a, double b, double relative, double absolute = 0.0) {
    return std::abs(a - b) <= absolute + relative * std::max(std::abs(a), std::abs(b));
}

QString number(double x) {
    return QString::number(x, 'g', 17);
}

// ---- This test's own reading of the data formats (README, "Data formats") ----

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
    // (two classes, in sorted order) or the class's rank (README: "Labels: any two values
    // become −1/+1; K classes become 0..K−1 in sorted order").
    double labelValue(const Example& e) const {
        if (!textLabels) return e.label.toDouble();
        const auto k = classNames.indexOf(e.label);
        if (classNames.size() == 2) return k == 0 ? -1.0 : 1.0;
        return static_cast<double>(k);
    }
    // The text the CLI writes for a predicted value (predict --out: "predictions are written
    // back in the file's label values").
    QString labelText(double value) const {
        if (textLabels && classNames.size() == 2 && (value == -1.0 || value == 1.0))
            return classNames[value < 0 ? 0 : 1];
        return number(value);
    }
};

bool isNumber(const QByteArray& text, double* value = nullptr) {
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (value) *value = v;
    return ok && std::isfinite(v);
}

bool readLibsvm(const QByteArray& bytes, Data* data, QString* why) {
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
bool readCsv(const QByteArray& bytes, Data* data, QString* why) {
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
bool readData(const QString& path, Data* data, QString* why) {
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

// ---- This test's own reading of the model file format (README, "Model files") ----

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

bool readModel(const QString& path, Model* model, QString* why) {
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
    // README: two class values for a binary risk, one per output for multiclass, none for
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

// ---- The model applied by this test ----

struct Scores {
    std::vector<double> s;  // one per output
    double scale = 0.0;     // Σ |terms|, for telling a near-tie from a clear decision
};

Scores scores(const Model& model, const Example& e) {
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
double softplus(double z) {
    return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

// Applies `model` to every example of `data`; `tube` is the ε of the ε-insensitive loss (the
// model file does not hold it). *why when a label is not one of the model's classes.
Evaluation evaluate(const Model& model, const Data& data, double tube, QString* why) {
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

// ---- Reading what the CLI writes ----

// predict's text summary: "name value" lines.
std::map<QString, QString> keyValues(const QByteArray& text) {
    std::map<QString, QString> out;
    for (const QString& line : QString::fromUtf8(text).split('\n', Qt::SkipEmptyParts)) {
        const QStringList parts = line.simplified().split(' ');
        if (parts.size() >= 2) out[parts[0]] = parts[1];
    }
    return out;
}

QStringList readLines(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

QString firstLine(const QByteArray& text) {
    return QString::fromUtf8(text).section('\n', 0, 0);
}

// Runs `run ... --json`, expecting exit 0 and a JSON object on stdout.
#define RUN_JSON(args, json)                                        \
    do {                                                            \
        const CliResult r_ = runCli(args);                          \
        QVERIFY2(r_.exitCode == 0, qPrintable(describe(args, r_))); \
        bool ok_ = false;                                           \
        json = parseObject(r_.out, &ok_);                           \
        QVERIFY2(ok_, qPrintable(describe(args, r_)));              \
    } while (false)

// Reads a model file / a data file with this test's own readers (failing the test if it cannot).
#define READ_MODEL(path, model)                                     \
    do {                                                            \
        QString why_;                                               \
        QVERIFY2(readModel(path, &model, &why_), qPrintable(why_)); \
    } while (false)
#define READ_DATA(path, data)                                     \
    do {                                                          \
        QString why_;                                             \
        QVERIFY2(readData(path, &data, &why_), qPrintable(why_)); \
    } while (false)

// The value of option `key` among `--set key=value` arguments, or `fallback`.
QString setValue(const QStringList& sets, const QString& key, const QString& fallback) {
    for (const QString& set : sets) {
        if (set.startsWith(key + "=")) return set.mid(key.size() + 1);
    }
    return fallback;
}

QStringList setArguments(const QStringList& sets) {
    QStringList out;
    for (const QString& set : sets)
        out << "--set" << set;
    return out;
}

// Every entry of a fixture folder (files only), for checking that a table lists them all.
QStringList filesIn(const QString& folder) {
    return QDir(folder).entryList(QDir::Files, QDir::Name);
}

// Every file in tests/data/bad: (file, line, a key word of the message); line 0 when the defect
// is not about one line.
std::vector<std::tuple<const char*, int, const char*>> badDataRows() {
    return {
        {"bad_index.libsvm", 2, "abc"},
        {"huge_value.libsvm", 2, "feature 1 is 1e+155, beyond +-1e+100"},
        {"huge_label.csv", 3, "the label is -1e+120, beyond +-1e+100"},
        {"bad_value.libsvm", 3, "not a number"},
        {"binary.csv", 2, "binary"},
        {"binary_nul.libsvm", 2, "binary"},
        {"corrupt.libsvm.gz", 0, "corrupt gzip"},
        {"decreasing_index.libsvm", 4, "increase"},
        {"duplicate_index.libsvm", 1, "twice"},
        {"empty.libsvm", 0, "empty"},
        {"header_only.csv", 1, "no data rows"},
        {"index_zero.libsvm", 3, "index 0"},
        {"inf_label.libsvm", 3, "not finite"},
        {"inf_value.libsvm", 2, "not finite"},
        {"invalid_utf8.libsvm", 3, "binary"},
        {"label_out_of_range.libsvm", 1, "out of range"},
        {"missing_colon.libsvm", 1, "missing ':'"},
        {"missing_label.libsvm", 2, "missing label"},
        {"missing_value.csv", 3, "not a number"},
        {"nan_label.libsvm", 2, "not finite"},
        {"nan_value.csv", 3, "not finite"},
        {"nan_value.libsvm", 2, "not finite"},
        {"non_numeric.csv", 3, "not a number"},
        {"only_comments.libsvm", 0, "no examples"},
        {"ragged.csv", 4, "fields"},
        {"single_class.libsvm", 0, "one class"},
        {"truncated.libsvm.gz", 0, "truncated gzip"},
        {"truncated_bupa.csv.gz", 0, "truncated gzip"},
        {"unterminated_quote.csv", 3, "unterminated"},
    };
}

// Every file in tests/data/cli/bad_models, as above.
std::vector<std::tuple<const char*, int, const char*>> badModelRows() {
    return {
        {"empty.txt", 0, "incomplete model"},
        {"no_weights.txt", 0, "incomplete model"},
        {"truncated_weights.txt", 0, "found 2"},
        {"too_many_weights.txt", 0, "found 5"},
        {"non_numeric_weight.txt", 10, "not a number"},
        {"nan_weight.txt", 10, "not finite"},
        {"non_numeric_features.txt", 4, "not a number"},
        {"fractional_features.txt", 4, "integer"},
        {"zero_outputs.txt", 5, "outputs"},
        {"unknown_risk.txt", 2, "unknown risk"},
        {"unknown_key.txt", 8, "unknown key"},
        {"short_classes.txt", 0, "needs as many class values, found 2"},
        {"huge_features.txt", 4, "must be an integer in"},
        {"binary_two_outputs.txt", 0, "has one output, found outputs 2"},
        {"stored_not_increasing.txt", 7, "must increase"},
        {"stored_beyond_features.txt", 0, "is beyond features 10"},
        {"stored_too_few_ids.txt", 8, "feature number"},
    };
}

}  // namespace

class TestCliDataFiles : public QObject {
    Q_OBJECT

  private slots:
    // run SOLVER --data FILE --model M: the model file has the documented layout; applied by this
    // test to its own reading of the data it gives the objective the run reports as its upper
    // bound and the training error it reports; λ = 1/(C m) with this test's count m.
    void runWritesTheModelItReports_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("data");       // given to the CLI, under tests/data
        QTest::addColumn<QString>("reference");  // the same examples, plain, read by this test
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<int>("examples");
        QTest::addColumn<int>("features");
        QTest::addColumn<QList<double>>("classes");  // expected on the model's classes line

        const QList<double> pm{-1, 1};
        const QList<double> digits{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        QTest::newRow("ocas, LIBSVM") << "ocas"
                                      << "heart_scale"
                                      << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("bmrm, LIBSVM") << "bmrm"
                                      << "heart_scale"
                                      << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("dcd, LIBSVM") << "dcd"
                                     << "heart_scale"
                                     << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("sgd, LIBSVM") << "sgd"
                                     << "heart_scale"
                                     << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("libocas, LIBSVM") << "libocas"
                                         << "heart_scale"
                                         << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("ocas, LIBSVM with CRLF and blank lines")
            << "ocas"
            << "australian_scale"
            << "australian_scale" << QStringList{} << 690 << 14 << pm;
        QTest::newRow("ocas, gzip LIBSVM") << "ocas"
                                           << "cli/heart_scale.gz"
                                           << "heart_scale" << QStringList{} << 270 << 13 << pm;
        QTest::newRow("ocas, CSV with header, labels 1/2")
            << "ocas"
            << "cli/bupa.csv"
            << "cli/bupa.csv" << QStringList{} << 345 << 6 << QList<double>{1, 2};
        QTest::newRow("bmrm, gzip CSV")
            << "bmrm"
            << "cli/bupa.csv.gz"
            << "cli/bupa.csv" << QStringList{} << 345 << 6 << QList<double>{1, 2};
        QTest::newRow("dcd, CSV with text labels")
            << "dcd"
            << "cli/sonar_train.csv"
            << "cli/sonar_train.csv" << QStringList{} << 155 << 60 << pm;
        QTest::newRow("ocas, bias") << "ocas"
                                    << "heart_scale"
                                    << "heart_scale" << QStringList{"bias=true"} << 270 << 13 << pm;
        QTest::newRow("libocas, bias, C=0.5")
            << "libocas"
            << "heart_scale"
            << "heart_scale" << QStringList{"bias=true", "C=0.5"} << 270 << 13 << pm;
        QTest::newRow("ocas, logistic")
            << "ocas"
            << "cli/bupa.csv"
            << "cli/bupa.csv" << QStringList{"risk=logistic"} << 345 << 6 << QList<double>{1, 2};
        QTest::newRow("dcd, squared hinge")
            << "dcd"
            << "heart_scale"
            << "heart_scale" << QStringList{"risk=squared_hinge", "C=2"} << 270 << 13 << pm;
        QTest::newRow("ocas, multiclass")
            << "ocas"
            << "cli/usps_first100.libsvm"
            << "cli/usps_first100.libsvm" << QStringList{"risk=multiclass"} << 100 << 255 << digits;
        QTest::newRow("libocas, multiclass")
            << "libocas"
            << "cli/usps_first100.libsvm"
            << "cli/usps_first100.libsvm" << QStringList{"risk=multiclass"} << 100 << 255 << digits;
        QTest::newRow("bmrm, epsilon-insensitive")
            << "bmrm"
            << "heart_scale"
            << "heart_scale" << QStringList{"risk=epsilon_insensitive", "tube=0.25"} << 270 << 13
            << QList<double>{};
    }
    void runWritesTheModelItReports() {
        QFETCH(QString, solver);
        QFETCH(QString, data);
        QFETCH(QString, reference);
        QFETCH(QStringList, sets);
        QFETCH(int, examples);
        QFETCH(int, features);
        QFETCH(QList<double>, classes);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        const QStringList args =
            QStringList{"run", solver, "--data", dataPath(data), "--json", "--model", modelPath} +
            kFast + setArguments(sets);
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY2(r.err.isEmpty(), qPrintable(describe(args, r)));  // --quiet
        bool ok = false;
        const QJsonObject json = parseObject(r.out, &ok);
        QVERIFY2(ok, qPrintable(describe(args, r)));

        QCOMPARE(json.value("solver").toString(), solver);
        QCOMPARE(json.value("problem").toString(), QFileInfo(data).fileName());
        const QString status = json.value("status").toString();
        QVERIFY2(status == "converged" || status == "iteration_limit", qPrintable(status));
        QVERIFY(json.value("iterations").toInt() > 0);
        for (const char* field :
             {"upper", "objective_lambda", "objective_C", "lambda", "C", "train_error"}) {
            QVERIFY2(json.value(field).isDouble(), field);
        }
        QVERIFY2(!json.contains("test_error"), "test_error without a test set");
        const double upper = json.value("upper").toDouble();
        QCOMPARE(json.value("objective_lambda").toDouble(), upper);
        if (json.value("lower").isDouble()) {  // SGD has no lower bound (null)
            QVERIFY(json.value("lower").toDouble() <= upper * (1 + 1e-12));
            if (status == "converged") {  // tol_rel = 1e-2
                QVERIFY(upper - json.value("lower").toDouble() <= 1e-2 * std::abs(upper) + 1e-12);
            }
        }

        Model model;
        READ_MODEL(modelPath, model);
        const QString risk = setValue(sets, "risk", "hinge");
        const bool bias = setValue(sets, "bias", "false") == "true";
        QCOMPARE(model.risk, risk);
        QCOMPARE(model.bias, bias);
        QCOMPARE(model.features, features);
        QCOMPARE(model.outputs, risk == "multiclass" ? static_cast<int>(classes.size()) : 1);
        QCOMPARE(QList<double>(model.classes.begin(), model.classes.end()), classes);

        Data reading;
        READ_DATA(dataPath(reference), reading);
        QCOMPARE(reading.size(), examples);
        QCOMPARE(reading.dimension, features);

        // λ = 1/(C m), C = 1 unless set.
        const double C = setValue(sets, "C", "1").toDouble();
        const double lambda = 1.0 / (C * examples);
        QVERIFY2(closeTo(model.lambda, lambda, 1e-14), qPrintable(number(model.lambda)));
        QVERIFY(closeTo(json.value("lambda").toDouble(), lambda, 1e-14));
        QVERIFY(closeTo(json.value("C").toDouble(), C, 1e-14));
        QVERIFY(closeTo(json.value("objective_C").toDouble(), upper / lambda, 1e-12));

        QString why;
        const double tube = setValue(sets, "tube", "0.1").toDouble();
        const Evaluation ev = evaluate(model, reading, tube, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // U = F(best w), and the model holds the best w.
        QVERIFY2(closeTo(ev.objective, upper, 1e-9),
                 qPrintable(QString("F(model weights) %1, run's upper %2")
                                .arg(number(ev.objective), number(upper))));
        const double trainError = json.value("train_error").toDouble();
        QVERIFY2(std::abs(trainError - ev.error) <= (ev.nearTies + 1e-9) / examples,
                 qPrintable(QString("train_error %1, model on the file %2 (%3 near-ties)")
                                .arg(number(trainError), number(ev.error))
                                .arg(ev.nearTies)));
        // A trained classifier does better than guessing (guards against a model that is the
        // zero vector: F would then be 1 for the hinge loss, and every prediction one class).
        if (risk != "epsilon_insensitive") QVERIFY(ev.error < 0.45);
    }

    // The same examples gzip-compressed give the very same run.
    void gzipGivesTheSameRun_data() {
        QTest::addColumn<QString>("plain");
        QTest::addColumn<QString>("gzip");
        QTest::newRow("LIBSVM") << "heart_scale"
                                << "cli/heart_scale.gz";
        QTest::newRow("CSV") << "cli/bupa.csv"
                             << "cli/bupa.csv.gz";
    }
    void gzipGivesTheSameRun() {
        QFETCH(QString, plain);
        QFETCH(QString, gzip);
        QJsonObject a, b;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath(plain), "--json"}) + kFast, a);
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath(gzip), "--json"}) + kFast, b);
        for (const char* field : {"iterations", "upper", "lower", "train_error", "lambda"})
            QCOMPARE(b.value(field).toDouble(), a.value(field).toDouble());
    }

    // A whitespace table without a .csv name (housing.data: 506 rows of 14 numbers) is
    // sniffed as a table, not misread as LIBSVM: the run equals the one on its comma-separated
    // copy written here.
    void whitespaceTableIsSniffed() {
        QFile in(dataPath("housing.data"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray csv;
        int rows = 0;
        for (const QByteArray& line : in.readAll().split('\n')) {
            const QList<QByteArray> fields = line.simplified().split(' ');
            if (line.trimmed().isEmpty()) continue;
            QCOMPARE(fields.size(), 14);
            csv += fields.join(',') + '\n';
            ++rows;
        }
        QCOMPARE(rows, 506);
        QTemporaryDir dir;
        const QString copy = dir.filePath("housing.csv");
        QFile out(copy);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(csv);
        out.close();
        const QStringList sets{"--set", "risk=epsilon_insensitive", "--set", "max_iterations=20"};
        QJsonObject a, b;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("housing.data"), "--json"}) + sets,
                 a);
        RUN_JSON(QStringList({"run", "ocas", "--data", copy, "--json"}) + sets, b);
        for (const char* field : {"iterations", "upper", "lower", "train_error"})
            QCOMPARE(a.value(field).toDouble(), b.value(field).toDouble());
        QVERIFY(a.value("upper").toDouble() > 0);
    }

    // run --model, then predict on the training file and on a test file: predict's error (text
    // and JSON), its --out predictions and run's train_error / test_error all equal this test's
    // own application of the model file.
    void predictAgreesWithTheModelFile_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("train");
        QTest::addColumn<QString>("test");  // "" = predict on the training file only
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("ocas, LIBSVM test file") << "ocas"
                                                << "cli/heart_train.libsvm"
                                                << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("bmrm, LIBSVM test file") << "bmrm"
                                                << "cli/heart_train.libsvm"
                                                << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("dcd, LIBSVM test file, bias")
            << "dcd"
            << "cli/heart_train.libsvm"
            << "cli/heart_test.libsvm" << QStringList{"bias=true"};
        QTest::newRow("sgd, LIBSVM test file") << "sgd"
                                               << "cli/heart_train.libsvm"
                                               << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("libocas, LIBSVM test file") << "libocas"
                                                   << "cli/heart_train.libsvm"
                                                   << "cli/heart_test.libsvm" << QStringList{};
        QTest::newRow("ocas, CSV text labels test file") << "ocas"
                                                         << "cli/sonar_train.csv"
                                                         << "cli/sonar_test.csv" << QStringList{};
        QTest::newRow("ocas, CSV labels 1/2") << "ocas"
                                              << "cli/bupa.csv"
                                              << "" << QStringList{"bias=true"};
        QTest::newRow("ocas, multiclass") << "ocas"
                                          << "cli/usps_first100.libsvm"
                                          << "" << QStringList{"risk=multiclass"};
        QTest::newRow("ocas, regression")
            << "ocas"
            << "cli/heart_train.libsvm"
            << "cli/heart_test.libsvm" << QStringList{"risk=epsilon_insensitive"};
    }
    void predictAgreesWithTheModelFile() {
        QFETCH(QString, solver);
        QFETCH(QString, train);
        QFETCH(QString, test);
        QFETCH(QStringList, sets);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        QStringList args{"run", solver, "--data", dataPath(train), "--model", modelPath, "--json"};
        if (!test.isEmpty()) args << "--test" << dataPath(test);
        args << kFast << setArguments(sets);
        QJsonObject json;
        RUN_JSON(args, json);
        QCOMPARE(json.contains("test_error"), !test.isEmpty());

        Model model;
        READ_MODEL(modelPath, model);
        const bool regression = model.risk == "epsilon_insensitive";
        const QString measure = regression ? "mean_absolute_error" : "error";

        struct Target {
            QString file;
            QString runField;
        };
        std::vector<Target> targets{{train, "train_error"}};
        if (!test.isEmpty()) targets.push_back({test, "test_error"});
        for (const Target& target : targets) {
            Data reading;
            READ_DATA(dataPath(target.file), reading);
            QString why;
            const Evaluation ev = evaluate(model, reading, 0.1, &why);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const double slack = (ev.nearTies + 1e-9) / reading.size();
            const QString context = target.file + " (" + target.runField + ")";

            // Text summary and --out.
            const QString outPath = dir.filePath("predictions.txt");
            const QStringList textArgs{
                "predict", "--model", modelPath, "--data", dataPath(target.file), "--out", outPath};
            const CliResult text = runCli(textArgs);
            QVERIFY2(text.exitCode == 0, qPrintable(describe(textArgs, text)));
            const auto summary = keyValues(text.out);
            QVERIFY2(summary.count("examples") && summary.count(measure),
                     qPrintable(describe(textArgs, text)));
            QCOMPARE(summary.at("examples").toInt(), reading.size());
            const double textError = summary.at(measure).toDouble();
            QVERIFY2(std::abs(textError - ev.error) <= slack,
                     qPrintable(context + ": predict " + number(textError) + ", expected " +
                                number(ev.error)));

            const QStringList lines = readLines(outPath);
            QCOMPARE(lines.size(), static_cast<qsizetype>(reading.size()));
            int differing = 0;
            for (int i = 0; i < reading.size(); ++i) {
                const QString line = lines[i].trimmed();
                const double expected = ev.predicted[static_cast<std::size_t>(i)];
                const bool same = reading.textLabels
                                      ? line == reading.labelText(expected)
                                      : closeTo(line.toDouble(), expected, 1e-9, 1e-12);
                if (!same) {
                    ++differing;
                    if (regression || differing > ev.nearTies) {
                        QFAIL(qPrintable(QString("%1, example %2: predict wrote '%3', the model "
                                                 "gives %4")
                                             .arg(context)
                                             .arg(i + 1)
                                             .arg(line, reading.labelText(expected))));
                    }
                }
            }

            // JSON: the same numbers.
            const QStringList jsonArgs{
                "predict", "--model", modelPath, "--data", dataPath(target.file), "--json"};
            QJsonObject pj;
            RUN_JSON(jsonArgs, pj);
            QCOMPARE(pj.value("examples").toDouble(), static_cast<double>(reading.size()));
            QVERIFY2(pj.value(measure).isDouble(), qPrintable(measure));
            QCOMPARE(pj.value(measure).toDouble(), textError);
            QCOMPARE(pj.value("model").toString(), modelPath);
            QCOMPARE(pj.value("data").toString(), dataPath(target.file));

            // run's error on that file is predict's.
            const double runError = json.value(target.runField).toDouble();
            QVERIFY2(std::abs(runError - textError) <= slack,
                     qPrintable(context + ": run " + number(runError) + ", predict " +
                                number(textError)));
        }
    }

    // Data with fewer features than the model: the missing ones count as zero.
    void predictPadsMissingFeatures() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("heart_scale"), "--model",
                              modelPath, "--json", "--set", "bias=true"}) +
                     kFast,
                 json);
        // heart_test without its features 11..13.
        QFile in(dataPath("cli/heart_test.libsvm"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray cut;
        for (const QByteArray& line : in.readAll().split('\n')) {
            if (line.trimmed().isEmpty()) continue;
            QList<QByteArray> kept;
            for (const QByteArray& token : line.simplified().split(' ')) {
                const auto colon = token.indexOf(':');
                if (colon < 0 || token.left(colon).toInt() <= 10) kept << token;
            }
            cut += kept.join(' ') + '\n';
        }
        const QString cutPath = dir.filePath("heart_test_10.libsvm");
        QFile out(cutPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(cut);
        out.close();

        Model model;
        READ_MODEL(modelPath, model);
        Data reading;
        READ_DATA(cutPath, reading);
        QCOMPARE(reading.dimension, 10);
        QString why;
        const Evaluation ev = evaluate(model, reading, 0.1, &why);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        const QStringList args{"predict", "--model", modelPath, "--data", cutPath, "--json"};
        QJsonObject pj;
        RUN_JSON(args, pj);
        QCOMPARE(pj.value("examples").toDouble(), 70.0);
        QVERIFY(std::abs(pj.value("error").toDouble() - ev.error) <= (ev.nearTies + 1e-9) / 70);
    }

    // A feature numbered 10⁸ among small ones: every linear solver solves over the three
    // features the training file uses (the weights elsewhere are zero), the model names them by
    // their numbers (stored_features), and predict applies it to files with any features,
    // including a test file with a feature training never saw (its weight is zero).
    void wideIndicesAreCompacted_data() {
        QTest::addColumn<QString>("solver");
        for (const char* solver : {"ocas", "bmrm", "dcd", "sgd", "libocas"})
            QTest::newRow(solver) << solver;
    }
    void wideIndicesAreCompacted() {
        QFETCH(QString, solver);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto write = [&dir](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::WriteOnly)) return QString();
            f.write(text);
            return dir.filePath(name);
        };
        const QString train = write("wide.svm", "+1 3:1 100000000:2\n-1 8:1\n+1 100000000:1\n");
        const QString test = write("wide_test.svm", "+1 50:7 100000000:1\n-1 8:2 50:-3\n");
        const QString modelPath = dir.filePath("wide.model");
        QJsonObject json;
        RUN_JSON(QStringList({"run", solver, "--data", train, "--test", test, "--model", modelPath,
                              "--json"}),
                 json);
        QCOMPARE(json.value("train_error").toDouble(), 0.0);
        QCOMPARE(json.value("test_error").toDouble(), 0.0);
        QFile in(modelPath);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray model = in.readAll();
        QVERIFY2(model.contains("\nfeatures 100000000\nstored_features 3\n3\n8\n100000000\n"),
                 model.constData());
        QJsonObject pj;
        RUN_JSON(QStringList({"predict", "--model", modelPath, "--data", test, "--json"}), pj);
        QCOMPARE(pj.value("examples").toDouble(), 2.0);
        QCOMPARE(pj.value("error").toDouble(), 0.0);
    }

    // One feature value of 1e8 among values below 1: OCAS and BMRM reach the optimum DCD (a
    // different method) finds, instead of stalling at U = 1, L = 0 as when the reduced QP's
    // rounding floor followed H's largest entry (10¹⁵ here).
    void badlyScaledDataStillSolve() {
        const QString data = dataPath("cli/one_huge_value.libsvm");
        QJsonObject dcd;
        RUN_JSON(QStringList(
                     {"run", "dcd", "--data", data, "--set", "tol_rel=1e-9", "--json", "--quiet"}),
                 dcd);
        const double optimum = dcd.value("upper").toDouble();
        QVERIFY(optimum > 0.3 && optimum < 0.4);
        for (const char* solver : {"ocas", "bmrm"}) {
            QJsonObject json;
            RUN_JSON(QStringList({"run", solver, "--data", data, "--set", "tol_rel=1e-9", "--json",
                                  "--quiet"}),
                     json);
            QCOMPARE(json.value("status").toString(), QString("converged"));
            QVERIFY2(std::abs(json.value("upper").toDouble() - optimum) <= 1e-6 * optimum, solver);
        }
    }

    // Data libocas cannot make progress on: refused before the run (no feature at all), or
    // stopped with a numerical failure (exit 2) after 10 iterations without progress, saying
    // why, instead of running for minutes.
    void libocasStopsOnDegenerateData() {
        const CliResult zero =
            runCli({"run", "libocas", "--data", dataPath("cli/all_zero_features.libsvm")});
        QCOMPARE(zero.exitCode, 1);
        QVERIFY2(QString::fromUtf8(zero.err).contains("every feature of the training set"),
                 zero.err.constData());
        const QStringList args{"run",    "libocas",
                               "--data", dataPath("cli/same_x_two_labels.libsvm"),
                               "--json", "--quiet"};
        const CliResult same = runCli(args);
        QVERIFY2(same.exitCode == 2, qPrintable(describe(args, same)));
        bool ok = false;
        const QJsonObject json = parseObject(same.out, &ok);
        QVERIFY2(ok, qPrintable(describe(args, same)));
        // Five iterations in a row whose inner QP ends at libqp's limit (the first may converge).
        QVERIFY(json.value("iterations").toInt() <= 6);
        QVERIFY2(QString::fromUtf8(same.err).contains("inner QP ended at its iteration limit"),
                 qPrintable(describe(args, same)));
    }

    // --test-fraction F --seed S: the same seed gives the same numbers; other seeds give other
    // splits; the split holds round(F m) test examples and the rest for training (λ = 1/m_train),
    // and the two parts partition the file (predict on the whole file counts the errors of both).
    void testFractionSplit_data() {
        QTest::addColumn<QString>("solver");
        QTest::addColumn<QString>("data");
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("examples");
        QTest::newRow("ocas, LIBSVM, 0.3") << "ocas"
                                           << "heart_scale" << 0.3 << 270;
        QTest::newRow("dcd, CSV text labels, 0.25") << "dcd"
                                                    << "cli/sonar_train.csv" << 0.25 << 155;
        QTest::newRow("bmrm, gzip CSV, 0.5") << "bmrm"
                                             << "cli/bupa.csv.gz" << 0.5 << 345;
    }
    void testFractionSplit() {
        QFETCH(QString, solver);
        QFETCH(QString, data);
        QFETCH(double, fraction);
        QFETCH(int, examples);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("model.txt");
        auto args = [&](int seed) {
            return QStringList{"run",
                               solver,
                               "--data",
                               dataPath(data),
                               "--test-fraction",
                               QString::number(fraction),
                               "--seed",
                               QString::number(seed),
                               "--json",
                               "--model",
                               modelPath} +
                   kFast;
        };
        QJsonObject first, again;
        RUN_JSON(args(7), first);
        Model model;
        READ_MODEL(modelPath, model);
        RUN_JSON(args(7), again);

        // Deterministic: every number but the time, every text but the message that may hold
        // the time.
        for (auto it = first.begin(); it != first.end(); ++it) {
            if (it.key() == "seconds") continue;
            QVERIFY2(again.contains(it.key()), qPrintable(it.key()));
            QVERIFY2(again.value(it.key()) == it.value(),
                     qPrintable(it.key() + ": differs between two runs with seed 7"));
        }
        QCOMPARE(again.size(), first.size());

        QCOMPARE(first.value("problem").toString(), QFileInfo(data).fileName() + " (train)");
        QVERIFY(first.value("test_error").isDouble());
        const int testSize = static_cast<int>(std::lround(fraction * examples));
        const int trainSize = examples - testSize;
        QVERIFY2(closeTo(first.value("lambda").toDouble(), 1.0 / trainSize, 1e-14),
                 qPrintable(number(first.value("lambda").toDouble())));

        // The parts partition the file: errors on the whole file = errors on both parts.
        const QStringList predictArgs{"predict", "--model",      modelPath,
                                      "--data",  dataPath(data), "--json"};
        QJsonObject whole;
        RUN_JSON(predictArgs, whole);
        QCOMPARE(whole.value("examples").toDouble(), static_cast<double>(examples));
        const double trainErrors = first.value("train_error").toDouble() * trainSize;
        const double testErrors = first.value("test_error").toDouble() * testSize;
        QVERIFY2(std::abs(trainErrors - std::round(trainErrors)) < 1e-6 &&
                     std::abs(testErrors - std::round(testErrors)) < 1e-6,
                 qPrintable(QString("error counts %1 + %2").arg(trainErrors).arg(testErrors)));
        QCOMPARE(std::lround(whole.value("error").toDouble() * examples),
                 std::lround(trainErrors) + std::lround(testErrors));

        // Another seed, another split (at least one of several differs in its numbers).
        int different = 0;
        for (int seed : {1, 2, 3, 4}) {
            QJsonObject other;
            RUN_JSON(args(seed), other);
            QVERIFY(other.value("test_error").isDouble());
            if (other.value("test_error").toDouble() != first.value("test_error").toDouble() ||
                other.value("upper").toDouble() != first.value("upper").toDouble()) {
                ++different;
            }
        }
        QVERIFY2(different > 0, "seeds 1-4 give the split of seed 7");
    }

    // Every file in tests/data/bad through `run ocas --data`: exit 1, nothing on stdout, a
    // message naming the file, its line where the defect has one, and what is wrong.
    void badDataFiles_data() {
        QTest::addColumn<QString>("file");  // under tests/data/bad
        QTest::addColumn<int>("line");      // 0: not about one line
        QTest::addColumn<QString>("what");  // a key word of the message
        for (const auto& [file, line, what] : badDataRows())
            QTest::newRow(file) << file << line << what;
    }
    void badDataFiles() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, what);
        const QStringList args =
            QStringList{"run", "ocas", "--data", dataPath("bad/" + file)} + kFast;
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(file), qPrintable(describe(args, r)));
        if (line > 0) {
            QVERIFY2(err.contains(file + ":" + QString::number(line) + ":"),
                     qPrintable(describe(args, r)));
        }
        QVERIFY2(err.contains(what), qPrintable(describe(args, r)));
    }

    // The table above lists every file in tests/data/bad (a new fixture needs a row).
    void badDataFilesAreAllListed() {
        QStringList listed;
        for (const auto& row : badDataRows())
            listed << std::get<0>(row);
        listed.sort();
        QCOMPARE(filesIn(kData + "/bad"), listed);
    }

    // Other files `run` cannot use: exit 1, nothing on stdout, the file and the problem named.
    void badRunFiles_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");  // must appear in the message
        QTest::addColumn<QString>("what");  // so must this
        const QString heart = dataPath("heart_scale");
        QTest::newRow("missing --data file")
            << QStringList{"run", "ocas", "--data", dataPath("cli/no-such-file.libsvm")}
            << "no-such-file.libsvm"
            << "no such file";
        QTest::newRow("--data is a directory")
            << QStringList{"run", "ocas", "--data", dataPath("cli")} << "cli"
            << "directory";
        QTest::newRow("missing --test file")
            << QStringList{"run", "ocas",   "--data",
                           heart, "--test", dataPath("cli/no-such-test.libsvm")}
            << "no-such-test.libsvm"
            << "no such file";
        QTest::newRow("--test file with a bad line")
            << QStringList{"run", "ocas",   "--data",
                           heart, "--test", dataPath("bad/bad_value.libsvm")}
            << "bad_value.libsvm:3:"
            << "not a number";
        QTest::newRow("--test CSV with a bad line")
            << QStringList{"run",    "ocas",
                           "--data", dataPath("cli/bupa.csv"),
                           "--test", dataPath("bad/ragged.csv")}
            << "ragged.csv:4:"
            << "fields";
        QTest::newRow("--test with more features than --data")
            << QStringList{"run", "ocas", "--data", heart, "--test", dataPath("australian_scale")}
            << "14"
            << "features";
        QTest::newRow("--test with a label --data lacks")
            << QStringList{"run", "ocas", "--data", dataPath("cli/bupa.csv"), "--test", heart}
            << "heart_scale"
            << "label";
        // Training labels already ±1 need no mapping; the test labels are checked all the same,
        // and the message gives the file, the line and the label as written.
        QTest::newRow("--test with a label ±1 --data lacks")
            << QStringList{"run", "ocas", "--data", heart, "--test", dataPath("bupa.data")}
            << "bupa.data:3:"
            << "label 2, which the training set does not have";
        QTest::newRow("text label of --test that --data lacks")
            << QStringList{"run",    "ocas",
                           "--data", dataPath("sonar.all-data"),
                           "--test", dataPath("cli/bad_test_labels/sonar_unknown_label.csv")}
            << "sonar_unknown_label.csv:3:"
            << "label X, which the training set does not have";
    }
    void badRunFiles() {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        QFETCH(QString, what);
        args << kFast;
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(file), qPrintable(describe(args, r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(what), qPrintable(describe(args, r)));
    }

    // Invalid options: exit 1, nothing on stdout, and the first line on stderr names the option.
    void invalidOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named");  // each must appear in stderr's first line
        const QString heart = dataPath("heart_scale");
        const QStringList split{"run", "ocas", "--data", heart, "--test-fraction"};
        // 0 and -0 hold nothing out, as test_fraction=0 (the catalogue runs them); just below
        // 0 is refused.
        QTest::newRow("--test-fraction -1e-9")
            << split + QStringList{"-1e-9"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction 1")
            << split + QStringList{"1"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction -0.5")
            << split + QStringList{"-0.5"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction abc")
            << split + QStringList{"abc"} << QStringList{"--test-fraction"};
        QTest::newRow("--test-fraction without value") << split << QStringList{"--test-fraction"};
        QTest::newRow("--seed -1")
            << split + QStringList{"0.3", "--seed", "-1"} << QStringList{"--seed"};
        QTest::newRow("--seed x") << split + QStringList{"0.3", "--seed", "x"}
                                  << QStringList{"--seed"};
        QTest::newRow("--seed 1.5")
            << split + QStringList{"0.3", "--seed", "1.5"} << QStringList{"--seed"};
        QTest::newRow("--test with --test-fraction")
            << QStringList{"run",    "ocas", "--data",          heart,
                           "--test", heart,  "--test-fraction", "0.3"}
            << QStringList{"--test", "--test-fraction"};
        // λ far outside what double arithmetic can carry (C = 1e300 ran 10,000 iterations at
        // gap 1 and took 1 GB), for every linear solver.
        for (const char* solver : {"ocas", "bmrm", "dcd", "sgd", "libocas"}) {
            QTest::newRow(qPrintable(QString("%1 C=1e300").arg(solver)))
                << QStringList{"run", solver, "--data", heart, "--set", "C=1e300"}
                << QStringList{"lambda", "C = 1e+300", "smaller C"};
        }
        QTest::newRow("lambda=1e30")
            << QStringList{"run", "ocas", "--data", heart, "--set", "lambda=1e30"}
            << QStringList{"lambda = 1e+30", "outside"};
        QTest::newRow("--problem with --data")
            << QStringList{"run", "ocas", "--problem", "heart_scale", "--data", heart}
            << QStringList{"--problem", "--data"};
        QTest::newRow("--model with a nonsmooth solver")
            << QStringList{"run", "kelley", "--problem", "abs_quad", "--model", "model.txt"}
            << QStringList{"--model"};
        QTest::newRow("predict without --model")
            << QStringList{"predict", "--data", heart} << QStringList{"--model"};
        QTest::newRow("predict without --data")
            << QStringList{"predict", "--model", dataPath("cli/bad_models/empty.txt")}
            << QStringList{"--data"};
        QTest::newRow("predict, --model without value")
            << QStringList{"predict", "--data", heart, "--model"} << QStringList{"--model"};
        QTest::newRow("predict, unknown option")
            << QStringList{"predict", "--data", heart, "--model", heart, "--frob"}
            << QStringList{"--frob"};
    }
    void invalidOptions() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        const QString message = firstLine(r.err);
        for (const QString& option : named)
            QVERIFY2(message.contains(option), qPrintable(option + "\n" + describe(args, r)));
    }

    // Model files predict cannot use (tests/data/cli/bad_models, made by hand; listed in
    // tests/data/README.md): exit 1, nothing on stdout, the file, the line and the problem named.
    void badModels_data() {
        QTest::addColumn<QString>("file");  // under tests/data/cli/bad_models
        QTest::addColumn<int>("line");      // 0: not about one line
        QTest::addColumn<QString>("what");
        for (const auto& [file, line, what] : badModelRows())
            QTest::newRow(file) << file << line << what;
    }
    void badModels() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, what);
        const QStringList args{"predict", "--model", dataPath("cli/bad_models/" + file), "--data",
                               dataPath("heart_scale")};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(args, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(file), qPrintable(describe(args, r)));
        if (line > 0) {
            QVERIFY2(err.contains(file + ":" + QString::number(line) + ":"),
                     qPrintable(describe(args, r)));
        }
        QVERIFY2(err.contains(what), qPrintable(describe(args, r)));
        // This test's reader refuses them too (the fixtures are bad as the README defines it).
        Model model;
        QString why;
        QVERIFY(!readModel(dataPath("cli/bad_models/" + file), &model, &why));
    }

    // The table above lists every file in tests/data/cli/bad_models.
    void badModelsAreAllListed() {
        QStringList listed;
        for (const auto& row : badModelRows())
            listed << std::get<0>(row);
        listed.sort();
        QCOMPARE(filesIn(kData + "/cli/bad_models"), listed);
    }

    // predict with a missing model, a data file it cannot read, or data with more features than
    // the model: exit 1, nothing on stdout, the file named.
    // Text labels mean what they meant in the training file, whichever classes the file to
    // predict holds: sonar's first five rows (all R) get the predictions and errors they get
    // inside the whole file, and a class the model never saw is refused.
    void predictMatchesTextLabelsByText() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("sonar.model");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("sonar.all-data"), "--model",
                              modelPath, "--json"}) +
                     kFast,
                 json);
        Model model;
        READ_MODEL(modelPath, model);
        QCOMPARE(model.classNames, (QStringList{"M", "R"}));
        QFile whole(dataPath("sonar.all-data"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QByteArray firstRows;
        for (int i = 0; i < 5; ++i)
            firstRows += whole.readLine();
        QVERIFY(firstRows.count(",R\n") == 5);
        const QString part = dir.filePath("first_rows.csv");
        QFile out(part);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(firstRows);
        out.close();
        auto predictions = [&](const QString& data, const QString& name) {
            const QString outPath = dir.filePath(name);
            const QStringList args{"predict", "--model", modelPath, "--data",
                                   data,      "--out",   outPath};
            const CliResult r = runCli(args);
            QFile file(outPath);
            if (r.exitCode != 0 || !file.open(QIODevice::ReadOnly)) return QList<QByteArray>();
            return file.readAll().split('\n');
        };
        const QList<QByteArray> all = predictions(dataPath("sonar.all-data"), "all.txt");
        const QList<QByteArray> first = predictions(part, "first.txt");
        QVERIFY(all.size() > 5 && first.size() >= 5);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(first[i], all[i]);
        const QStringList args{"predict", "--model", modelPath, "--data",
                               dataPath("cli/bad_test_labels/sonar_unknown_label.csv")};
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 1 && r.err.contains("sonar_unknown_label.csv:3: label X"),
                 qPrintable(describe(args, r)));
    }

    void predictRefusesWhatItCannotUse() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString modelPath = dir.filePath("heart.model");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("heart_scale"), "--model",
                              modelPath, "--json"}) +
                     kFast,
                 json);
        struct Case {
            QStringList args;
            QStringList named;
        };
        const std::vector<Case> cases = {
            {{"predict", "--model", dir.filePath("missing.model"), "--data",
              dataPath("heart_scale")},
             {"missing.model", "no such file"}},
            {{"predict", "--model", modelPath, "--data", dataPath("cli/no-such-file.libsvm")},
             {"no-such-file.libsvm", "no such file"}},
            {{"predict", "--model", modelPath, "--data", dataPath("bad/bad_value.libsvm")},
             {"bad_value.libsvm:3:", "not a number"}},
            {{"predict", "--model", modelPath, "--data", dataPath("australian_scale")},
             {"australian_scale", "14", "13", "features"}},
            {{"predict", "--model", modelPath, "--data", dataPath("australian_scale"), "--json"},
             {"australian_scale", "14", "13", "features"}},
            // Labels the model never saw are refused with their file and line.
            {{"predict", "--model", modelPath, "--data", dataPath("bupa.data")},
             {"bupa.data:3:", "label 2, which the model's training set does not have"}},
        };
        for (const Case& c : cases) {
            const CliResult r = runCli(c.args);
            QVERIFY2(r.exitCode == 1, qPrintable(describe(c.args, r)));
            QVERIFY2(r.out.isEmpty(), qPrintable(describe(c.args, r)));
            for (const QString& part : c.named)
                QVERIFY2(r.err.contains(part.toUtf8()),
                         qPrintable(part + "\n" + describe(c.args, r)));
        }
    }

    // Output files that cannot be written: exit 1 and the path named on stderr.
    void unwritableOutputs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString badModel = dir.filePath("no/such/dir/model.txt");
        const QStringList runArgs =
            QStringList{"run", "ocas", "--data", dataPath("heart_scale"), "--model", badModel} +
            kFast;
        const CliResult run = runCli(runArgs);
        QVERIFY2(run.exitCode == 1, qPrintable(describe(runArgs, run)));
        QVERIFY2(run.err.contains(badModel.toUtf8()), qPrintable(describe(runArgs, run)));
        // Found before the solve: the message is all there is on stderr (no progress lines).
        QVERIFY2(run.err.trimmed().count('\n') == 0, qPrintable(describe(runArgs, run)));
        QVERIFY(!QFileInfo::exists(badModel));
        const QStringList traceArgs =
            QStringList{"run", "ocas", "--data", dataPath("heart_scale"), "--trace", dir.path()} +
            kFast;
        const CliResult trace = runCli(traceArgs);
        QVERIFY2(trace.exitCode == 1 && trace.err.contains("is a directory") &&
                     trace.err.trimmed().count('\n') == 0,
                 qPrintable(describe(traceArgs, trace)));

        const QString modelPath = dir.filePath("model.txt");
        QJsonObject json;
        RUN_JSON(QStringList({"run", "ocas", "--data", dataPath("heart_scale"), "--model",
                              modelPath, "--json"}) +
                     kFast,
                 json);
        const QString badOut = dir.filePath("no/such/dir/predictions.txt");
        const QStringList predictArgs{
            "predict", "--model", modelPath, "--data", dataPath("heart_scale"), "--out", badOut};
        const CliResult predict = runCli(predictArgs);
        QVERIFY2(predict.exitCode == 1, qPrintable(describe(predictArgs, predict)));
        QVERIFY2(predict.out.isEmpty(), qPrintable(describe(predictArgs, predict)));
        QVERIFY2(predict.err.contains(badOut.toUtf8()), qPrintable(describe(predictArgs, predict)));
    }
};

QTEST_GUILESS_MAIN(TestCliDataFiles)
#include "test_data_files.moc"
