// SPDX-License-Identifier: GPL-3.0-or-later
#include "lecture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>

#include "core/output_file.h"
#include "qt_text.h"
#include "registry.h"
#include "session.h"

namespace cplab {

namespace {

// "line 4, column 12" of byte `offset` of `bytes`.
std::string lineAndColumn(const std::string& bytes, std::size_t offset) {
    offset = std::min(offset, bytes.size());
    const auto line = std::count(bytes.begin(), bytes.begin() + offset, '\n') + 1;
    const std::size_t start = bytes.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column = start == std::string::npos ? offset + 1 : offset - start;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// One slide's fields, checked; false and *why ("title: ...") on the first one wrong.
bool readSlideFields(const QJsonObject& object, LectureSlide* slide, std::string* why) {
    static const QStringList known = {"title", "demo", "session", "sha256"};
    for (const QString& key : object.keys()) {
        if (!known.contains(key)) {
            *why = "unknown key '" + s(key.left(40)) +
                   "' (a slide has title, demo or session, "
                   "sha256)";
            return false;
        }
    }
    for (const QString& key : known) {
        if (object.contains(key) && !object.value(key).isString()) {
            *why = s(key) + ": expected a string";
            return false;
        }
        if (object.value(key).toString().size() > kMaxLectureTextChars) {
            *why = s(key) + ": longer than " + std::to_string(kMaxLectureTextChars) + " characters";
            return false;
        }
    }
    slide->title = s(object.value("title").toString().trimmed());
    slide->demo = s(object.value("demo").toString());
    slide->session = s(object.value("session").toString());
    slide->sha256 = s(object.value("sha256").toString().toLower());
    if (slide->title.empty()) {
        *why = "no title";
        return false;
    }
    if (slide->demo.empty() == slide->session.empty()) {
        *why = "expected either a demo or a session";
        return false;
    }
    return true;
}

// A slide's demo exists, or its session is a regular file outside the system's folders with
// the hash written; false and *why otherwise.
bool checkSlideSource(const QString& folder, LectureSlide* slide, std::string* why) {
    if (!slide->demo.empty()) {
        if (findDemo(slide->demo)) return true;
        *why = "no built-in demo '" + slide->demo + "' (File > Load demo lists them)";
        return false;
    }
    static const QRegularExpression hex("^[0-9a-f]{64}$");
    if (!hex.match(q(slide->sha256)).hasMatch()) {
        *why = slide->session + ": expected its sha256 (64 hexadecimal digits)";
        return false;
    }
    const QString written = q(slide->session);
    const QString path =
        QDir::cleanPath(written.startsWith('/') ? written : folder + '/' + written);
    slide->resolved = s(path);
    const QFileInfo info(path);
    if (!info.exists()) {
        *why = slide->session + ": missing (looked for " + slide->resolved + ")";
        return false;
    }
    if (!info.isFile() || isInSystemFolder(s(info.canonicalFilePath()))) {
        *why = slide->session + ": " +
               (info.isFile() ? "in a system folder" : "not a regular file") +
               "; a lecture may name only session files";
        return false;
    }
    if (info.size() > kMaxSessionBytes) {
        *why = slide->session + ": larger than a session may be";
        return false;
    }
    std::string failure;
    const std::string hash = sha256OfFile(slide->resolved, &failure);
    if (hash.empty()) {
        *why = failure;
        return false;
    }
    if (hash != slide->sha256) {
        *why = slide->session +
               ": changed since the lecture was written (its SHA-256 differs); add it to the "
               "lecture again";
        return false;
    }
    return true;
}

// The document's head: format, version and title; false and *why otherwise.
bool readHead(const QJsonObject& root, Lecture* lecture, std::string* why) {
    if (root.value("format").toString() != "cplab-lecture") {
        *why = "not a cplab lecture (expected \"format\": \"cplab-lecture\")";
        return false;
    }
    const QJsonValue version = root.value("version");
    if (!version.isDouble() || version.toDouble() != kLectureVersion) {
        *why = version.isDouble() && version.toDouble() > kLectureVersion
                   ? "written by a newer cplab (version " + s(version.toVariant().toString()) +
                         "; this one reads version 1)"
                   : std::string("expected \"version\": 1");
        return false;
    }
    const QJsonValue title = root.value("title");
    if (!title.isUndefined() &&
        (!title.isString() || title.toString().size() > kMaxLectureTextChars)) {
        *why = "title: expected a string of at most " + std::to_string(kMaxLectureTextChars) +
               " characters";
        return false;
    }
    lecture->title = s(title.toString());
    if (!root.value("slides").isArray()) {
        *why = "expected \"slides\": a list";
        return false;
    }
    if (root.value("slides").toArray().size() > kMaxLectureSlides) {
        *why = "more than " + std::to_string(kMaxLectureSlides) + " slides";
        return false;
    }
    return true;
}

}  // namespace

bool isLecturePath(const std::string& path) {
    return q(path).endsWith(q(kLectureSuffix), Qt::CaseInsensitive);
}

std::optional<Lecture> parseLecture(const std::string& bytes, const std::string& folder,
                                    const std::string& name, std::string* why) {
    const auto refuse = [&](const std::string& what) -> std::optional<Lecture> {
        if (why) *why = name + ": " + what;
        return std::nullopt;
    };
    if (static_cast<std::int64_t>(bytes.size()) > kMaxLectureBytes)
        return refuse("a lecture larger than 1 MB is refused");
    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(bytes), &error);
    if (error.error != QJsonParseError::NoError)
        return refuse(lineAndColumn(bytes, static_cast<std::size_t>(error.offset)) + ": " +
                      s(error.errorString()));
    if (!document.isObject()) return refuse("not a cplab lecture (expected a JSON object)");
    Lecture lecture;
    std::string what;
    if (!readHead(document.object(), &lecture, &what)) return refuse(what);
    const QJsonArray slides = document.object().value("slides").toArray();
    for (qsizetype k = 0; k < slides.size(); ++k) {
        LectureSlide slide;
        const std::string which = "slide " + std::to_string(k + 1);
        if (!slides[k].isObject()) return refuse(which + ": expected an object");
        if (!readSlideFields(slides[k].toObject(), &slide, &what))
            return refuse(which + ": " + what);
        if (!checkSlideSource(q(folder), &slide, &what))
            return refuse(which + " (\"" + slide.title + "\"): " + what);
        lecture.slides.push_back(std::move(slide));
    }
    return lecture;
}

std::optional<Lecture> readLecture(const std::string& path, std::string* why) {
    const QFileInfo info(q(path));
    const auto refuse = [&](const std::string& what) -> std::optional<Lecture> {
        if (why) *why = path + ": " + what;
        return std::nullopt;
    };
    if (!info.exists()) return refuse("no such file");
    if (!info.isFile()) return refuse("not a regular file");
    if (isInSystemFolder(s(info.canonicalFilePath())))
        return refuse("in a system folder; not a lecture");
    if (info.size() > kMaxLectureBytes) return refuse("a lecture larger than 1 MB is refused");
    QFile file(q(path));
    // Not noted as an input (core/output_file.h): the lecture is the document File › Lecture
    // edits and writes back; the handout refuses it by name (handout.h).
    if (!file.open(QIODevice::ReadOnly)) return refuse(s(file.errorString()));
    const QByteArray bytes = file.read(kMaxLectureBytes + 1);
    return parseLecture(bytes.toStdString(), s(info.absolutePath()), path, why);
}

std::string lectureJson(const Lecture& lecture, const std::string& folderPath) {
    const QDir folder(q(folderPath));
    QJsonArray slides;
    for (const LectureSlide& slide : lecture.slides) {
        QJsonObject object{{"title", q(slide.title)}};
        if (!slide.demo.empty()) {
            object.insert("demo", q(slide.demo));
        } else {
            const QString absolute = q(slide.resolved.empty() ? slide.session : slide.resolved);
            const QString relative = folder.relativeFilePath(absolute);
            object.insert("session", relative.startsWith("../") ? absolute : relative);
            object.insert("sha256", q(slide.sha256));
        }
        slides.append(object);
    }
    const QJsonObject root{{"format", "cplab-lecture"},
                           {"version", kLectureVersion},
                           {"title", q(lecture.title)},
                           {"slides", slides}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

bool writeLecture(const std::string& path, const Lecture& lecture, std::string* why) {
    const QString folder = QFileInfo(q(path)).absolutePath();
    const auto failure = writeFileAtomically(path, lectureJson(lecture, s(folder)));
    if (!failure) return true;
    if (why) *why = path + ": " + *failure;
    return false;
}

}  // namespace cplab
