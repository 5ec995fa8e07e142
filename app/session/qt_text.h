// SPDX-License-Identifier: GPL-3.0-or-later
// Text between the session code's std::string values and Qt's QString (UTF-8 both ways), in
// the two letters the files of app/session use for it. Internal to cplab_session.
#pragma once

#include <QString>
#include <string>

namespace cplab {

inline QString q(const std::string& text) {
    return QString::fromStdString(text);
}
inline std::string s(const QString& text) {
    return text.toStdString();
}

}  // namespace cplab
