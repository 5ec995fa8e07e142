// SPDX-License-Identifier: GPL-3.0-or-later
// Many Qt Test classes in one executable. The build force-includes this header into every
// source of a test group (tests/CMakeLists.txt), so a test file stays an ordinary Qt Test
// file: its QTEST_MAIN, QTEST_GUILESS_MAIN or QTEST_APPLESS_MAIN registers the class under its
// unit name (test_smo.cpp -> "smo") instead of defining main(). The group's main
// (test_group_main.cpp) runs the unit named by its first argument with the rest of the
// arguments, in a process of its own, exactly as the test's own executable would:
//   test_solvers_kernel smo -v2      runs tests/solvers/kernel/test_smo.cpp
//   test_solvers_kernel              lists the units
#pragma once

#include <QTest>

namespace cplab::testing {

using UnitMain = int (*)(int argc, char* argv[]);

// Registers a unit by its source file's path; returns true (for a static initialiser).
bool registerUnit(const char* sourcePath, UnitMain main);

}  // namespace cplab::testing

// Every QTEST_*MAIN of Qt 6 expands through QTEST_MAIN_WRAPPER (QtTest/qtest.h); the body is
// Qt's own, only the function's name and its registration differ. The names carry the test
// class's (unique in a group, as its moc symbols must be), so that a unity build of a group
// can hold several units in one translation unit.
#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                 \
    namespace {                                                             \
    int cplabUnitMain_##TestObject(int argc, char* argv[]) {                \
        TESTLIB_SELFCOVERAGE_START(#TestObject)                             \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();  \
        __VA_ARGS__                                                         \
        TestObject tc;                                                      \
        QTEST_SET_MAIN_SOURCE_PATH                                          \
        return QTest::qExec(&tc, argc, argv);                               \
    }                                                                       \
    [[maybe_unused]] const bool cplabUnitRegistered_##TestObject =          \
        cplab::testing::registerUnit(__FILE__, cplabUnitMain_##TestObject); \
    }
