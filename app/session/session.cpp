// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <set>

#include "core/output_file.h"
#include "data/data_format.h"
#include "data/libsvm_format.h"
#include "data/test_split.h"
#include "data/uai_format.h"
#include "families/dataset_family.h"
#include "families/families.h"
#include "qt_text.h"
#include "registry.h"
#include "session_history.h"
#include "session_story.h"
#include "version.h"

namespace cplab {

namespace {

constexpr int kMaxSessionRuns = 64;

// Folders whose files a session may not name: the system's own, never a user's data.
bool inSystemFolder(const QString& canonical) {
    for (const char* folder : {"/etc", "/proc", "/sys", "/dev", "/boot", "/run"}) {
        const QString f = QString::fromLatin1(folder);
        if (canonical == f || canonical.startsWith(f + '/')) return true;
    }
    return false;
}

// A path of the session resolved against its folder. Joined by hand: QDir and QFileInfo take a
// path that starts with ':' for one of Qt's resources (":name" was not resolved at all).
QString resolved(const QString& folder, const QString& path) {
    if (path.startsWith('/')) return QDir::cleanPath(path);
    const QString base = folder.startsWith('/') ? folder : QDir::current().filePath(folder);
    return QDir::cleanPath(base + '/' + path);
}

// The problem options that name files, which a session writes relative to its folder, resolves
// against it, hashes and checks like the data file: the test split's file and every family's
// problem options of kind Path (evidence, reference, image). "" and "none" name no file.
bool isFileOption(const std::string& key) {
    static const std::set<std::string> keys = [] {
        std::set<std::string> names = {TestSplit::kFileKey};
        for (const Family* family : families())
            for (const OptionInfo& o : family->problemOptions())
                if (o.kind == OptionInfo::Kind::Path) names.insert(o.name);
        return names;
    }();
    return keys.count(key) > 0;
}
bool namesFile(const std::string& value) {
    return !value.empty() && value != "none";
}

// The data file's reader options that name files (options of kind Path: the .npy reader's
// `labels`), which a session treats as the problem's file options.
bool isReaderFileOption(const DataSource& data, const std::string& key) {
    const DataFormat* format = findDataFormat(data.format);
    if (!format || !format->readerOptions) return false;
    const auto infos = format->readerOptions();
    return std::any_of(infos.begin(), infos.end(), [&](const OptionInfo& o) {
        return o.name == key && o.kind == OptionInfo::Kind::Path;
    });
}

// The problem options with the files a UAI model reads by default made explicit: an empty
// `evidence` or `reference` reads the model's sibling <model>.evid or <model>.MAP when there is
// one (the map family's convention). A session names the sibling (or "none" when there is
// none), so that it is hashed like any input and the same file, or none, is read wherever the
// session is opened.
OptionValues withExplicitSiblings(const ProblemOrigin& origin) {
    OptionValues options = origin.options;
    if (origin.data.path.empty() || origin.data.format != "uai") return options;
    for (const auto& [key, extension] : {std::pair{"evidence", ".evid"}, {"reference", ".MAP"}}) {
        if (!isFileOption(key)) continue;
        std::string& value = options[key];
        if (!value.empty()) continue;
        const std::string sibling = uaiSibling(origin.data.path, extension);
        value = sibling.empty() ? std::string("none") : sibling;
    }
    return options;
}

// How a file's path is written into a session saved in `folder`: relative when the file is in
// that folder or below, else absolute. A file named "none" is written "./none" (plain "none"
// names no file: the session fuzzer's test file "none/" read back as no test file).
QString written(const QString& folder, const std::string& path) {
    const QString absolute = QFileInfo(q(path)).absoluteFilePath();
    const QString relative = QDir(folder).relativeFilePath(absolute);
    if (relative == "none") return "./none";
    return relative.startsWith("..") ? absolute : relative;
}

QJsonObject optionsJson(const OptionValues& options) {
    QJsonObject object;
    for (const auto& [key, value] : options)
        object.insert(q(key), q(value));
    return object;
}

// Strings, numbers and booleans of a JSON object as option values; false and *why for others.
bool optionsFrom(const QJsonValue& value, const std::string& where, OptionValues* options,
                 std::string* why) {
    if (value.isUndefined() || value.isNull()) return true;
    if (!value.isObject()) {
        *why = where + ": expected an object of option names and values";
        return false;
    }
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QJsonValue v = it.value();
        if (v.isString()) {
            (*options)[s(it.key())] = s(v.toString());
        } else if (v.isDouble()) {
            (*options)[s(it.key())] = s(QString::number(v.toDouble(), 'g', 17));
        } else if (v.isBool()) {
            (*options)[s(it.key())] = v.toBool() ? "true" : "false";
        } else {
            *why = where + ": option '" + s(it.key()) + "' is not a text, number or boolean";
            return false;
        }
    }
    return true;
}

// The note for options that no longer exist: one line however many there are (a session of a
// million made-up options makes no million notes), each name cut to 40 characters.
std::string leftOut(const std::vector<std::string>& names) {
    constexpr std::size_t kNamed = 5, kLength = 40;
    std::string text = names.size() == 1 ? "option " : "options ";
    for (std::size_t k = 0; k < names.size() && k < kNamed; ++k) {
        const std::string& name = names[k];
        std::size_t cut = std::min(name.size(), kLength);
        while (cut < name.size() && cut > 0 &&
               (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
            --cut;  // not inside a UTF-8 character
        text += (k == 0 ? "'" : ", '") + name.substr(0, cut) + (cut < name.size() ? "...'" : "'");
    }
    if (names.size() > kNamed) text += " and " + std::to_string(names.size() - kNamed) + " more";
    return text + (names.size() == 1 ? " no longer exists; it is left out"
                                     : " no longer exist; they are left out");
}

// A number of the view in [low, high], or `fallback` (with a note) when it is not one.
double viewNumber(const QJsonObject& view, const char* key, double low, double high,
                  double fallback, SessionNotes* notes) {
    const QJsonValue v = view.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) return fallback;
    const double x = v.toDouble(std::nan(""));
    if (v.isDouble() && x >= low && x <= high) return x;
    notes->push_back(std::string("view: ") + key + " is not a number in [" +
                     s(QString::number(low)) + ", " + s(QString::number(high)) +
                     "]; the default is used");
    return fallback;
}

std::vector<double> rangeFrom(const QJsonValue& value) {
    std::vector<double> range;
    const QJsonArray array = value.toArray();
    if (array.size() != 4) return range;
    for (const QJsonValue& v : array) {
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || std::abs(v.toDouble()) > 1e300)
            return {};
        range.push_back(v.toDouble());
    }
    return range[0] < range[1] && range[2] < range[3] ? range : std::vector<double>{};
}

SessionView viewFrom(const QJsonObject& view, SessionNotes* notes) {
    SessionView v;
    v.selectedRun =
        static_cast<int>(viewNumber(view, "selected_run", 0, kMaxSessionRuns, 0, notes));
    v.tab = static_cast<int>(viewNumber(view, "tab", 0, 100, 0, notes));
    v.timeline = static_cast<int>(viewNumber(view, "timeline", -1, 1e9, -1, notes));
    // "presentation_scale", written by older versions, is the lecturer's size for one screen
    // (kept per screen in the settings), not the session's: ignored.
    v.delayMs = static_cast<int>(viewNumber(view, "delay_ms", 0, 60000, 0, notes));
    if (view.value("x_axis").isString()) v.xAxis = s(view.value("x_axis").toString());
    v.viewRange = rangeFrom(view.value("view_range"));
    v.boundsRange = rangeFrom(view.value("bounds_range"));
    return v;
}

QJsonArray rangeJson(const std::vector<double>& range) {
    QJsonArray array;
    for (double x : range)
        array.append(x);
    return array;
}

QJsonObject viewJson(const SessionView& v) {
    QJsonObject view{{"selected_run", v.selectedRun},
                     {"tab", v.tab},
                     {"x_axis", q(v.xAxis)},
                     {"delay_ms", v.delayMs}};
    view.insert("timeline", v.timeline < 0 ? QJsonValue() : QJsonValue(v.timeline));
    if (!v.viewRange.empty()) view.insert("view_range", rangeJson(v.viewRange));
    if (!v.boundsRange.empty()) view.insert("bounds_range", rangeJson(v.boundsRange));
    return view;
}

QJsonObject historyJson(const StoredHistory& history) {
    const std::string blob = packHistory(history);
    const std::string packed = deflateBytes(blob);
    return {{"encoding", "zlib+base64"},
            {"bytes", static_cast<qint64>(blob.size())},
            {"iterations", history.records.empty() ? 0 : history.records.back().iteration},
            {"data", QString::fromLatin1(QByteArray::fromRawData(
                                             packed.data(), static_cast<qsizetype>(packed.size()))
                                             .toBase64())}};
}

// A run's stored history; nullopt and a note when it cannot be read. `budget` is what the
// session's histories may still unpack to in total (kMaxHistoryBytes for all runs together);
// a history read takes the bytes it declares from it.
std::optional<StoredHistory> historyFrom(const QJsonObject& history, const std::string& where,
                                         SessionNotes* notes, std::int64_t* budget) {
    const auto refuse = [&](const std::string& what) -> std::optional<StoredHistory> {
        notes->push_back(where + ": " + what + "; its stored history is left out");
        return std::nullopt;
    };
    if (history.value("encoding").toString() != "zlib+base64")
        return refuse("unknown history encoding");
    const double bytes = history.value("bytes").toDouble(-1);
    if (!(bytes >= 0 && bytes <= static_cast<double>(kMaxHistoryBytes)))
        return refuse("declared history size is not in [0, " + std::to_string(kMaxHistoryBytes) +
                      "] bytes");
    if (bytes > static_cast<double>(*budget))
        return refuse("the session's stored histories declare more than " +
                      std::to_string(kMaxHistoryBytes) + " bytes in total");
    const QByteArray data = QByteArray::fromBase64(history.value("data").toString().toLatin1(),
                                                   QByteArray::AbortOnBase64DecodingErrors);
    std::string why;
    // Inflated while it is unpacked; what the unpacked history takes in memory comes out of the
    // same budget as what it declares (the larger of the two is taken).
    std::int64_t memory = *budget;
    auto unpacked =
        inflateHistory(data.toStdString(), static_cast<std::int64_t>(bytes), &memory, &why);
    if (!unpacked) return refuse(why);
    *budget -= std::max(*budget - memory, static_cast<std::int64_t>(bytes));
    return unpacked;
}

// The run of the session's JSON, checked as the CLI checks `run`: a solver of the family, the
// options it knows (others left out and noted), values it accepts (else the run is left out).
std::optional<SessionRun> runFrom(const QJsonValue& value, int index, const Family& family,
                                  SessionNotes* notes, bool* complete,
                                  std::int64_t* historyBudget) {
    const std::string where = "run " + std::to_string(index + 1);
    const QJsonObject object = value.toObject();
    SessionRun run;
    run.solver = s(object.value("solver").toString());
    const SolverInfo* info = findSolver(run.solver);
    if (!info || info->family != family.name()) {
        notes->push_back(where + ": no " + family.name() + " solver '" + run.solver +
                         "' in this cplab; the run is left out");
        return std::nullopt;
    }
    std::string why;
    OptionValues given;
    if (!optionsFrom(object.value("options"), where, &given, &why)) {
        notes->push_back(why + "; the run is left out");
        return std::nullopt;
    }
    std::vector<std::string> unknown;
    for (const auto& [key, text] : given) {
        const std::string& name = key;  // clang 14 cannot capture a structured binding
        const bool known = std::any_of(info->options.begin(), info->options.end(),
                                       [&](const OptionInfo& o) { return o.name == name; });
        if (known) {
            run.options[key] = text;
        } else {
            unknown.push_back(key);
            *complete = false;
        }
    }
    if (!unknown.empty()) notes->push_back(where + " (" + run.solver + "): " + leftOut(unknown));
    if (!checkSolverOptions(run.solver, run.options, &why)) {
        notes->push_back(where + " (" + run.solver + "): " + why + "; the run is left out");
        return std::nullopt;
    }
    if (object.value("history").isObject())
        run.history = historyFrom(object.value("history").toObject(), where, notes, historyBudget);
    return run;
}

// The problem of the session's JSON into `session`; false and *why when it names none.
bool problemFrom(const QJsonObject& root, const QString& folder, Session& session,
                 SessionNotes* notes, std::string* why) {
    const QJsonObject problem = root.value("problem").toObject();
    session.family = s(root.value("family").toString());
    const Family* family = findFamily(session.family);
    if (!family) {
        *why = "no family '" + session.family + "' in this cplab";
        return false;
    }
    ProblemOrigin& origin = session.problem;
    origin.builtin = s(problem.value("builtin").toString());
    OptionValues options;
    if (!optionsFrom(problem.value("options"), "problem", &options, why)) return false;
    const auto known = family->problemOptions();
    std::vector<std::string> unknown;
    for (const auto& [key, text] : options) {
        const std::string& name = key;  // clang 14 cannot capture a structured binding
        if (std::any_of(known.begin(), known.end(),
                        [&](const OptionInfo& o) { return o.name == name; }))
            origin.options[key] = text;
        else
            unknown.push_back(key);
    }
    if (!unknown.empty()) {
        notes->push_back("problem: " + leftOut(unknown));
        session.complete = false;
    }
    origin.points = s(problem.value("points").toString());
    const QJsonObject data = problem.value("data").toObject();
    if (origin.builtin.empty() && data.isEmpty()) {
        *why = "the problem names neither a built-in problem nor a data file";
        return false;
    }
    if (!data.isEmpty()) {
        origin.data.path = s(resolved(folder, data.value("path").toString()));
        origin.data.format = s(data.value("format").toString());
        if (!optionsFrom(data.value("options"), "data", &origin.data.options, why)) return false;
        for (auto& [key, value] : origin.data.options)
            if (isReaderFileOption(origin.data, key) && namesFile(value))
                value = s(resolved(folder, q(value)));
    }
    for (auto& [key, value] : origin.options)
        if (isFileOption(key) && namesFile(value)) value = s(resolved(folder, q(value)));
    for (const QJsonValue& f : root.value("files").toArray()) {
        const QJsonObject file = f.toObject();
        SessionFile entry{s(file.value("role").toString()),
                          s(file.value("path").toString()),
                          {},
                          // Hexadecimal digits in either case (sha256sum writes lower case).
                          s(file.value("sha256").toString().toLower())};
        entry.resolved = s(resolved(folder, q(entry.path)));
        session.files.push_back(std::move(entry));
    }
    return true;
}

}  // namespace

std::optional<Session> parseSession(const std::string& bytes, const std::string& folder,
                                    const std::string& name, SessionNotes* notes,
                                    std::string* why) {
    std::string problem;
    const auto refuse = [&](const std::string& what) -> std::optional<Session> {
        if (why) *why = name + ": " + what;
        return std::nullopt;
    };
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(
        QByteArray::fromRawData(bytes.data(), static_cast<qsizetype>(bytes.size())), &error);
    if (error.error != QJsonParseError::NoError)
        return refuse("not a session (JSON: " + s(error.errorString()) + " at byte " +
                      std::to_string(error.offset) + ")");
    const QJsonObject root = document.object();
    if (root.value("format").toString() != "cplab-session")
        return refuse("not a session (expected \"format\": \"cplab-session\")");
    const double version = root.value("version").toDouble(0);
    if (!(version >= 1 && version == std::floor(version)))
        return refuse("expected a format version 1 or later");
    SessionNotes local;
    SessionNotes* n = notes ? notes : &local;
    if (version > kSessionVersion) {
        n->push_back("written by a newer cplab (format " +
                     QString::number(version, 'g', 17).toStdString() + ", this one reads " +
                     std::to_string(kSessionVersion) + "); what this version knows is opened");
    }
    Session session;
    session.cplabVersion = s(root.value("cplab_version").toString());
    if (!problemFrom(root, q(folder), session, n, &problem)) return refuse(problem);
    const Family& family = *findFamily(session.family);
    session.demo = s(root.value("demo").toString());
    const QJsonArray runs = root.value("runs").toArray();
    if (runs.size() > kMaxSessionRuns)
        return refuse("more than " + std::to_string(kMaxSessionRuns) + " runs");
    std::int64_t historyBudget = kMaxHistoryBytes;
    for (qsizetype k = 0; k < runs.size(); ++k) {
        if (auto run = runFrom(runs[k], static_cast<int>(k), family, n, &session.complete,
                               &historyBudget)) {
            session.runs.push_back(std::move(*run));
        } else {
            session.complete = false;
        }
    }
    session.view = viewFrom(root.value("view").toObject(), n);
    std::string invalid;
    session.story = storyFrom(root.value("story"), n, &invalid);
    if (invalid.empty())
        hiddenFrom(root.value("student_view"), &session.hiddenControls, n, &invalid);
    if (!invalid.empty()) return refuse(invalid);
    if (session.view.selectedRun >= static_cast<int>(session.runs.size()))
        session.view.selectedRun = 0;
    return session;
}

std::optional<Session> readSession(const std::string& path, SessionNotes* notes, std::string* why) {
    const QFileInfo info(q(path));
    const auto refuse = [&](const std::string& what) -> std::optional<Session> {
        if (why) *why = path + ": " + what;
        return std::nullopt;
    };
    if (!info.exists()) return refuse("no such file");
    if (!info.isFile()) return refuse("not a regular file");
    if (info.size() > kMaxSessionBytes)
        return refuse("a session file larger than " + std::to_string(kMaxSessionBytes >> 20) +
                      " MB is refused");
    QFile file(q(path));
    if (!file.open(QIODevice::ReadOnly)) return refuse(s(file.errorString()));
    noteInputFile(path);
    const QByteArray bytes = file.read(kMaxSessionBytes + 1);
    if (bytes.size() > kMaxSessionBytes) return refuse("larger than it said");
    return parseSession(bytes.toStdString(), s(info.absolutePath()), path, notes, why);
}

std::string sessionJson(const Session& session, const std::string& folderPath) {
    const QString folder = q(folderPath);
    QJsonObject problem;
    if (!session.problem.builtin.empty()) problem.insert("builtin", q(session.problem.builtin));
    if (!session.problem.data.path.empty()) {
        const DataSource& data = session.problem.data;
        OptionValues readerOptions = data.options;
        for (auto& [key, value] : readerOptions)
            if (isReaderFileOption(data, key) && namesFile(value))
                value = s(written(folder, value));
        problem.insert("data", QJsonObject{{"path", written(folder, data.path)},
                                           {"format", q(data.format)},
                                           {"options", optionsJson(readerOptions)}});
    }
    OptionValues options = withExplicitSiblings(session.problem);
    for (auto& [key, value] : options)
        if (isFileOption(key) && namesFile(value)) value = s(written(folder, value));
    problem.insert("options", optionsJson(options));
    if (!session.problem.points.empty()) problem.insert("points", q(session.problem.points));
    QJsonArray files;
    for (const SessionFile& f : session.files)
        files.append(
            QJsonObject{{"role", q(f.role)},
                        {"path", written(folder, f.resolved.empty() ? f.path : f.resolved)},
                        {"sha256", q(f.sha256)}});
    QJsonArray runs;
    for (const SessionRun& r : session.runs) {
        QJsonObject run{{"solver", q(r.solver)}, {"options", optionsJson(r.options)}};
        if (r.history) run.insert("history", historyJson(*r.history));
        runs.append(run);
    }
    QJsonObject root{{"format", "cplab-session"},
                     {"version", kSessionVersion},
                     {"cplab_version", CPLAB_VERSION},
                     {"family", q(session.family)},
                     {"problem", problem},
                     {"files", files},
                     {"runs", runs},
                     {"view", viewJson(session.view)}};
    if (!session.demo.empty()) root.insert("demo", q(session.demo));
    if (session.story) root.insert("story", storyJson(*session.story));
    if (!session.hiddenControls.empty())
        root.insert("student_view", studentViewJson(session.hiddenControls));
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

bool writeSession(const std::string& path, const Session& session, std::string* why) {
    if (const auto problem = outputProblem(path)) {
        if (why) *why = path + ": " + *problem;
        return false;
    }
    const std::string json = sessionJson(session, s(QFileInfo(q(path)).absolutePath()));
    if (const auto failure = writeFileAtomically(path, json)) {
        if (why) *why = path + ": " + *failure;
        return false;
    }
    return true;
}

bool isInSystemFolder(const std::string& canonicalPath) {
    return inSystemFolder(q(canonicalPath));
}

std::string sha256OfFile(const std::string& path, std::string* why) {
    QFile file(q(path));
    if (!file.open(QIODevice::ReadOnly)) {
        if (why) *why = path + ": " + s(file.errorString());
        return {};
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file)) {
        if (why) *why = path + ": could not be read";
        return {};
    }
    return s(QString::fromLatin1(hash.result().toHex()));
}

bool hashProblemFiles(const ProblemOrigin& origin, std::vector<SessionFile>* files,
                      std::string* why, const std::map<std::string, std::string>& known) {
    files->clear();
    std::vector<std::pair<std::string, std::string>> named;
    if (!origin.data.path.empty()) named.emplace_back("data", origin.data.path);
    for (const auto& [key, value] : origin.data.options)
        if (isReaderFileOption(origin.data, key) && namesFile(value))
            named.emplace_back(key, value);
    for (const auto& [key, value] : withExplicitSiblings(origin)) {
        if (!isFileOption(key) || !namesFile(value)) continue;
        named.emplace_back(key == TestSplit::kFileKey ? std::string("test") : key, value);
    }
    for (const auto& [role, path] : named) {
        const std::string absolute = s(QFileInfo(q(path)).absoluteFilePath());
        const auto cached = known.find(absolute);
        const std::string hash = cached != known.end() ? cached->second : sha256OfFile(path, why);
        if (hash.empty()) return false;
        files->push_back({role, absolute, absolute, hash});
    }
    return true;
}

namespace {

// A file the session names, checked before it is read: a regular file outside the system's
// folders whose content has the hash saved.
bool checkSessionFile(const Session& session, const std::string& path, std::string* why) {
    const QFileInfo info(q(path));
    if (!info.exists()) {
        *why = path + ": missing (the session names it)";
        return false;
    }
    const QString canonical = info.canonicalFilePath();
    if (inSystemFolder(canonical) || !info.isFile()) {
        *why = (canonical.isEmpty() ? path : s(canonical)) + ": " +
               (info.isFile() ? "in a system folder" : "not a regular file") +
               "; a session may name only data files";
        return false;
    }
    for (const SessionFile& f : session.files) {
        if (f.resolved != path) continue;
        const std::string hash = sha256OfFile(path, why);
        if (hash.empty()) return false;
        if (!f.sha256.empty() && hash != f.sha256) {
            *why = path +
                   ": changed since the session was saved (its SHA-256 differs); not "
                   "opened";
            return false;
        }
    }
    return true;
}

}  // namespace

ProblemPtr makeSessionProblem(const Session& session, std::string* why) {
    const Family* family = findFamily(session.family);
    const ProblemOrigin& origin = session.problem;
    if (!family) {
        *why = "no family '" + session.family + "'";
        return nullptr;
    }
    for (const auto& [key, value] : origin.options)
        if (isFileOption(key) && namesFile(value) && !checkSessionFile(session, value, why))
            return nullptr;
    for (const auto& [key, value] : origin.data.options)
        if (isReaderFileOption(origin.data, key) && namesFile(value) &&
            !checkSessionFile(session, value, why))
            return nullptr;
    ProblemPtr problem;
    if (!origin.data.path.empty()) {
        if (!checkSessionFile(session, origin.data.path, why)) return nullptr;
        if (!findDataFormat(origin.data.format) || !family->readsFormat(origin.data.format)) {
            *why = origin.data.path + ": the " + family->name() + " family reads no format '" +
                   origin.data.format + "'";
            return nullptr;
        }
        if (!checkReaderOptions(origin.data, why)) return nullptr;
        noteInputFile(origin.data.path);
        problem = family->openFile(origin.data, origin.options, why);
    } else {
        const ProblemInfo* info = findProblem(origin.builtin);
        if (!info || info->family != family->name()) {
            *why = "no built-in " + family->name() + " problem '" + origin.builtin + "'";
            return nullptr;
        }
        problem = makeProblem(origin.builtin, origin.options, why);
    }
    if (!problem || origin.points.empty()) return problem;
    // Points drawn in the window replace the training set (dataset_family.h).
    const Dataset* train = trainingSet(*problem);
    if (!train) {
        *why = "the problem '" + problem->info.name + "' holds no points to draw";
        return nullptr;
    }
    return refusingThrows(why, [&]() -> ProblemPtr {
        LoadOptions options;
        options.dimension = train->dimension();
        Dataset points = parseLibsvm(origin.points, "the session's drawn points", options);
        return editedProblem(*problem, std::move(points), why);
    });
}

StoredComparison compareWithStored(const std::vector<IterationRecord>& stored,
                                   const std::vector<IterationRecord>& rerun) {
    StoredComparison c;
    // Both are in ascending iterations (a stored history's record k is iteration k, a run's
    // trace is in the order of its steps): one walk through both, nothing allocated.
    auto s = stored.begin();
    auto r = rerun.begin();
    while (s != stored.end() && r != rerun.end()) {
        if (s->iteration < r->iteration) {
            ++s;
        } else if (r->iteration < s->iteration) {
            ++r;
        } else {
            c.add(*s, *r);
            ++s;
            ++r;
        }
    }
    return c;
}

void StoredComparison::add(const IterationRecord& stored, const IterationRecord& rerun) {
    const auto difference = [](double a, double b) {
        if (a == b || (std::isnan(a) && std::isnan(b))) return 0.0;
        const double d = std::abs(a - b) / std::max(1.0, std::max(std::abs(a), std::abs(b)));
        return std::isnan(d) ? INFINITY : d;
    };
    if (stored.iteration >= 1) ++iterations;
    double largest = 0.0;
    for (double d : {difference(stored.upper, rerun.upper), difference(stored.lower, rerun.lower),
                     difference(stored.gap, rerun.gap)})
        largest = std::max(largest, d);
    largestDifference = std::max(largestDifference, largest);
    if (firstDiffering < 0 && largest > kTolerance) {
        firstDiffering = stored.iteration;
        firstDifference = largest;
    }
}

std::string StoredComparison::differsText() const {
    if (same()) return {};
    return "differs from the stored history at iteration " + std::to_string(firstDiffering) +
           " by " + s(QString::number(firstDifference, 'g', 3));
}

OptionValues withExplicitSeed(const std::string& solver, const OptionValues& options) {
    OptionValues out = options;
    if (const SolverInfo* info = findSolver(solver)) {
        for (const OptionInfo& o : info->options) {
            if (o.kind == OptionInfo::Kind::Seed && !out.count(o.name))
                out[o.name] = o.defaultValue;
        }
    }
    return out;
}

namespace {

// A word for a POSIX shell: as it is when it is safe, else in single quotes.
std::string shellWord(const std::string& word) {
    const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
    });
    if (safe) return word;
    std::string quoted = "'";
    for (char c : word)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string runSpec(const SessionRun& run) {
    std::string spec = run.solver;
    for (const auto& [key, value] : run.options)
        spec += ":" + key + "=" + value;
    return spec;
}

}  // namespace

std::string guiCommandLine(const Session& session) {
    std::vector<std::string> words{"cplab"};
    const ProblemOrigin& origin = session.problem;
    if (!origin.data.path.empty()) {
        words.push_back(origin.data.path);
    } else {
        words.insert(words.end(), {"--problem", origin.builtin});
    }
    for (const auto& [key, value] : origin.options) {
        if (key == TestSplit::kFileKey) words.insert(words.end(), {"--test", value});
        if (key == TestSplit::kFractionKey) words.insert(words.end(), {"--test-fraction", value});
        if (key == TestSplit::kSeedKey) words.insert(words.end(), {"--seed", value});
    }
    std::string runs;
    for (const SessionRun& run : session.runs)
        runs += (runs.empty() ? "" : ",") + runSpec(run);
    if (!runs.empty()) words.insert(words.end(), {"--solvers", runs});
    std::string line;
    for (const std::string& w : words)
        line += (line.empty() ? "" : " ") + shellWord(w);
    return line;
}

std::vector<std::string> cliCommandLines(const Session& session) {
    std::vector<std::string> lines;
    const ProblemOrigin& origin = session.problem;
    for (const SessionRun& run : session.runs) {
        std::vector<std::string> words{"cplab-cli", "run", run.solver};
        if (!origin.data.path.empty()) {
            words.insert(words.end(), {"--data", origin.data.path});
            for (const auto& [key, value] : origin.data.options)
                words.insert(words.end(), {"--data-set", key + "=" + value});
        } else {
            words.insert(words.end(), {"--problem", origin.builtin});
        }
        for (const auto& [key, value] : origin.options)
            words.insert(words.end(), {"--problem-set", key + "=" + value});
        for (const auto& [key, value] : run.options)
            words.insert(words.end(), {"--set", key + "=" + value});
        std::string line;
        for (const std::string& w : words)
            line += (line.empty() ? "" : " ") + shellWord(w);
        lines.push_back(line);
    }
    return lines;
}

}  // namespace cplab
