// SPDX-License-Identifier: GPL-3.0-or-later
// Readable QCOMPARE failure messages for cplab's enums (Qt Test cannot print an enum class
// on its own).
#pragma once

#include <QtTest>

#include "core/status.h"

namespace QTest {
template <>
inline char* toString(const cplab::StatusCode& code) {
    return qstrdup(cplab::statusName(code));
}
}  // namespace QTest
